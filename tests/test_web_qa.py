"""Defects QA found in the web API, each pinned by the request that showed it.

Bodies that ``json.loads`` refuses for reasons other than syntax get a message naming that reason; library
refusals that name CLI flags reach web clients with the request fields instead.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from npuzzle.goals import classic
from npuzzle.web import create_app
from npuzzle.web.app import STATIC_DIR, WebSettings, field_words
from npuzzle.web.schemas import MAX_READ_SIDE, MAX_SOLVE_SIDE
from screenshots import Style, game_screenshot


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def assert_error(
    response: httpx.Response, status: int, kind: str | None = None, says: str = ""
) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    if kind is not None:
        assert body["kind"] == kind, body
    assert says in body["detail"], body
    return body


def post_raw(client: TestClient, path: str, content: bytes) -> httpx.Response:
    return client.post(path, content=content, headers={"content-type": "application/json"})


# -- 1. an unparsable body: the message names the actual cause -----------------------------------------------
@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b'{"board": [' + b"1" * 4301 + b", 2, 3, 0]}", "too long to read (4,301 digits)"),
        (b'{"board": [1, 2, 3, 0], "goal": "\xff"}', "not UTF-8 text (invalid start byte at byte 33)"),
        (b"\x80{}", "not UTF-8 text (invalid start byte at byte 0)"),
        (b"[" * 60_000, "nested too deeply"),
        (b'{"board": [1, 2, 3, 0],}', "at character 23"),  # a syntax error says where
    ],
)
def test_an_unparsable_body_names_its_cause(client: TestClient, content: bytes, says: str) -> None:
    body = assert_error(post_raw(client, "/api/check", content), 400, "MalformedJSON", says)
    if "nested" not in says:
        assert "nested" not in body["detail"]


# -- 2. refusals name the request's fields, not CLI flags --------------------------------------------------------
def encode(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def blank_png() -> str:
    return encode(Image.new("RGB", (200, 150), (200, 200, 200)))


NEAR_4X4 = [*range(1, 15), 0, 15]


@pytest.mark.parametrize(
    ("path", "payload", "says"),
    [
        (
            "/api/read",
            {"screenshot": blank_png()},
            "place with crop [x, y, w, h] (pixels) and its size with width and height",
        ),
        ("/api/solve", {"board": NEAR_4X4, "algorithm": "bfs"}, "use algorithm idastar"),
        ("/api/solve", {"board": NEAR_4X4, "algorithm": "bibfs"}, "use algorithm idastar"),
        (
            "/api/solve",
            {"board": NEAR_4X4, "algorithm": "astar", "heuristic": "manhattan", "metric": "multi"},
            "with metric multi",
        ),
        ("/api/check", {"board": [1, 2, 3, 4]}, "(use blank to name the hole's label)"),
    ],
)
def test_refusals_name_request_fields_not_cli_flags(
    client: TestClient, path: str, payload: dict[str, Any], says: str
) -> None:
    body = assert_error(client.post(path, json=payload), 400, says=says)
    assert "--" not in body["detail"], body


def test_field_words_keeps_commands_and_flags_without_a_field() -> None:
    assert field_words("check --size and --crop, or accept it with --allow-ambiguous") == (
        "check width and height and crop, or accept it with allow_ambiguous"
    )
    assert (
        field_words("give --size 4x4, or check --hole-home 8")
        == "give width 4 and height 4, or check hole_home 8"
    )
    for kept in (
        "rebuild with: npuzzle pdb build --size 4x4 --blank-cell 15 --partition 6-6-3",
        "or `npuzzle generate --size 3x3 --length 20` on your own machine",
        "use a smaller --tile-size",
    ):
        assert field_words(kept) == kept


# -- 3. one size limit for solve, hint (a solved board too) and analyze ----------------------------------------
@pytest.mark.parametrize("path", ["/api/solve", "/api/hint", "/api/analyze"])
def test_every_solving_endpoint_refuses_a_solved_board_beyond_the_limit(
    client: TestClient, path: str
) -> None:
    side = MAX_SOLVE_SIDE + 1
    solved = {"board": list(classic(side, side).tiles), "width": side, "height": side}
    assert_error(
        client.post(path, json=solved), 400, "ProblemTooLargeError", f"2 to {MAX_SOLVE_SIDE} cells each way"
    )


def test_a_lower_server_limit_holds_for_every_solving_endpoint() -> None:
    solved_5x5 = {"board": list(classic(5, 5).tiles), "width": 5, "height": 5}
    with TestClient(create_app(WebSettings(max_solve_side=4)), raise_server_exceptions=False) as small:
        for path in ("/api/solve", "/api/hint", "/api/analyze"):
            assert_error(
                small.post(path, json=solved_5x5), 400, "ProblemTooLargeError", "2 to 4 cells each way"
            )


def test_the_largest_solved_board_gets_its_empty_hint(client: TestClient) -> None:
    side = MAX_SOLVE_SIDE
    solved = {"board": list(classic(side, side).tiles), "width": side, "height": side}
    response = client.post("/api/hint", json=solved)
    assert response.status_code == 200, response.text
    assert response.json()["remaining"] == 0
    assert MAX_READ_SIDE == MAX_SOLVE_SIDE == WebSettings().max_solve_side  # a board read can be solved


# -- the page's board sizes come from the server (/limits.js), never from a copy in the static files ---------------
def limits_of(client: TestClient) -> dict[str, int]:
    response = client.get("/limits.js")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/javascript")  # a module script needs it
    return {name: int(value) for name, value in re.findall(r"export const (\w+) = (\d+);", response.text)}


def test_the_page_imports_the_servers_own_board_sizes(client: TestClient) -> None:
    from npuzzle.analysis.difficulty import OPTIMAL_CELLS

    assert limits_of(client) == {
        "MIN_SIDE": 2,
        "MAX_SIDE": MAX_SOLVE_SIDE,
        "LENGTH_CELLS": OPTIMAL_CELLS,
        "MAX_UPLOAD_BYTES": WebSettings().max_upload_bytes,
    }
    with TestClient(create_app(WebSettings(max_solve_side=4))) as small:
        assert limits_of(small)["MAX_SIDE"] == 4  # a lower limit: the page offers no board it refuses
    for script in STATIC_DIR.glob("*.js"):
        for name in ("MIN_SIDE", "MAX_SIDE", "LENGTH_CELLS", "MAX_UPLOAD_BYTES"):
            assert not re.search(rf"const {name}\b", script.read_text()), f"{script.name}: own {name}"


def test_the_page_sizes_uploads_by_the_cap_the_server_enforces() -> None:
    """The upload cap in /limits.js is the one /api/read's body is held to, whatever the settings; reader.js
    imports it and keeps no byte count of its own (it had MAX_SEND_BYTES = 5_500_000, copied by hand)."""
    cap = 300_000
    with TestClient(create_app(WebSettings(max_upload_bytes=cap))) as small:
        assert limits_of(small)["MAX_UPLOAD_BYTES"] == cap
        over = small.post("/api/read", content=b"x" * (cap + 1), headers={"Content-Type": "application/json"})
        assert_error(over, 413, "RequestTooLarge", f"at most {cap:,} bytes")
        taken = small.post("/api/read", json={"screenshot": "x" * (cap - 100)})
        assert taken.status_code == 400, taken.text  # within the cap: read (and refused as no picture)
    reader = (STATIC_DIR / "reader.js").read_text()
    assert re.search(r'^import \{[^}]*\bMAX_UPLOAD_BYTES\b[^}]*\} from "\./limits\.js";', reader, re.M)
    assert not re.search(r"\b\d[\d_]{5,}\b", reader), "reader.js counts bytes of its own"


# -- 4. a layout with an empty parameter is refused by the library's goal parser, which every endpoint uses --------
@pytest.mark.parametrize("layout", ["blank-at:", "random:"])
@pytest.mark.parametrize("path", ["/api/check", "/api/generate", "/api/solve", "/api/hint"])
def test_a_layout_with_an_empty_parameter_is_400(client: TestClient, path: str, layout: str) -> None:
    if path == "/api/generate":
        payload: dict[str, Any] = {"width": 3, "height": 3, "goal": layout, "seed": 1}
    else:  # the goal itself: nothing to search should the layout be taken
        payload = {"board": list(classic(3, 3).tiles), "goal": layout}
    assert_error(client.post(path, json=payload), 400, says=layout.rstrip(":"))


# -- the page's "where the blank belongs" menus send blank-at:CELL; the server says which cells there are ------------
def test_a_goal_with_the_blank_in_any_cell_is_dealt_and_one_off_the_board_is_400(client: TestClient) -> None:
    for cell in range(6):
        answer = client.post("/api/generate", json={"width": 3, "height": 2, "goal": f"blank-at:{cell}"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["goal"].index(0) == cell
    for cell in (6, 99):
        payload = {"width": 3, "height": 2, "goal": f"blank-at:{cell}"}
        assert_error(
            client.post("/api/generate", json=payload),
            400,
            "BoardFormatError",
            f"blank cell {cell} is outside",
        )


# -- 5. /api/read: a blank_cell outside the board is refused, not ignored ------------------------------------------
@pytest.fixture(scope="module")
def numbers_3x3() -> str:
    return encode(game_screenshot(Style(width=3, height=3, kind="numbers", seed=3, jpeg=85)).image)


@pytest.mark.parametrize("cell", [9, 50])
def test_a_blank_cell_outside_the_board_read_is_400(client: TestClient, numbers_3x3: str, cell: int) -> None:
    response = client.post("/api/read", json={"screenshot": numbers_3x3, "blank_cell": cell})
    body = assert_error(response, 400, says=f"{cell} is outside")  # the reader's refusal (PictureError)
    assert "3x3" in body["detail"], body


def test_a_blank_cell_outside_the_size_given_is_400_before_reading(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import npuzzle.render.vision as vision

    def no_reading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("read a screenshot whose blank_cell cannot be on the board")

    monkeypatch.setattr(vision, "_layouts", no_reading)  # the reader's own check comes before its reading
    for field in ("blank_cell", "hole_home"):
        payload = {"screenshot": blank_png(), "width": 3, "height": 2, field: 6}
        name = field.replace("_", " ")
        assert_error(client.post("/api/read", json=payload), 400, "PictureError", f"{name} 6 is outside a 3x2")


def test_a_blank_cell_on_the_board_still_reads(client: TestClient, numbers_3x3: str) -> None:
    response = client.post(
        "/api/read", json={"screenshot": numbers_3x3, "blank_cell": 2}
    )  # where the hole is
    assert response.status_code == 200, response.text
    assert response.json()["tiles"][2] == 0
