"""A screenshot reading stops at its time limit: ``read_screenshot(max_seconds=...)`` raises
:class:`ReadingTimeoutError`, ``npuzzle read --read-seconds`` exits 3, and the web's reading gives its slot
back when the request gives up, instead of reading on unseen."""

from __future__ import annotations

import base64
import io
import math
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from npuzzle.cli import main
from npuzzle.errors import SearchLimitExceeded
from npuzzle.render import ReadingTimeoutError, read_screenshot
from npuzzle.render.image import PictureError
from npuzzle.web import create_app
from npuzzle.web.app import WebSettings
from screenshots import Style, game_screenshot, random_style

# a 6x6 picture without a reference that takes 40 s (on this 2-core machine) to be refused
SLOW = random_style(1088, kind="picture")
QUICK = Style(width=3, height=3, kind="numbers", seed=3, jpeg=85)


def test_a_reading_past_its_limit_stops_with_the_limit_named() -> None:
    shot = game_screenshot(SLOW)
    began = time.monotonic()
    with pytest.raises(ReadingTimeoutError, match=r"1 s limit.*--size.*--crop") as refusal:
        read_screenshot(shot.image, max_seconds=1)
    # it stops between two steps of the reading (locating the grid takes about 2 s here), not at its end
    assert time.monotonic() - began < 15
    assert isinstance(refusal.value, SearchLimitExceeded) and refusal.value.limit == "max_seconds"


def test_a_limit_does_not_change_a_reading_that_fits_in_it() -> None:
    shot = game_screenshot(QUICK)
    reading = read_screenshot(shot.image, max_seconds=300)
    assert reading.board == shot.board and reading.goal == shot.goal


@pytest.mark.parametrize("seconds", [0, -1, math.nan, math.inf])
def test_a_limit_that_is_not_a_positive_number_of_seconds_is_refused(seconds: float) -> None:
    with pytest.raises(PictureError, match="positive number of seconds"):
        read_screenshot(game_screenshot(QUICK).image, max_seconds=seconds)


def test_cli_read_past_its_limit_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "shot.png"
    game_screenshot(QUICK).image.save(path)
    assert main(["read", str(path), "--read-seconds", "0.001"]) == 3
    assert "0.001 s limit" in capsys.readouterr().err
    assert main(["read", str(path), "--read-seconds", "0"]) == 2
    assert "positive number of seconds" in capsys.readouterr().err
    assert main(["read", str(path), "--json"]) == 0  # the default limit leaves a quick reading alone
    assert '"tiles"' in capsys.readouterr().out


def test_a_web_reading_gives_its_slot_back_when_the_request_gives_up() -> None:
    buffer = io.BytesIO()
    game_screenshot(SLOW).image.save(buffer, "PNG")
    body = {"screenshot": base64.b64encode(buffer.getvalue()).decode()}
    with TestClient(create_app(WebSettings(read_seconds=0.5, grace_seconds=0.5, heavy_slots=1))) as client:
        response = client.post("/api/read", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["limit"] == "max_seconds"
        # the reading stops itself too: its slot is free within seconds, not after the 40 s it would take
        deadline = time.monotonic() + 15
        while client.get("/api/status").json()["lanes"]["heavy"]["admitted"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert client.get("/api/status").json()["lanes"]["heavy"]["admitted"] == 0


def test_a_reading_says_its_steps_as_they_start() -> None:
    """A reading takes a second to a minute behind a spinner: ``progress`` hears each step (the CLI shows
    it beside the spinner), and a reading stays the same whether anyone listens."""
    shot = game_screenshot(QUICK)
    steps: list[str] = []
    reading = read_screenshot(shot.image, progress=steps.append)
    assert reading.board == shot.board and reading == read_screenshot(shot.image)
    assert steps[0] == "looking for the grid of tiles"
    assert "looking for numbers on a 3x3 grid" in steps
    picture = Style(width=3, height=3, kind="picture", seed=3, jpeg=85)
    heard: list[str] = []
    read_screenshot(game_screenshot(picture).image, progress=heard.append)
    assert "putting the 3x3 picture back together from its seams" in heard


def test_the_cli_spinner_takes_steps_and_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    from npuzzle.cli.common import working

    with working("reading shot.png …") as say:
        say("looking for the grid of tiles")
    assert capsys.readouterr().err == ""  # pytest's stderr is no terminal: no spinner, no steps
