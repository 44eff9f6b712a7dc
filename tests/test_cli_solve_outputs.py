"""`npuzzle solve` faces added by later issues: batch input (issue 4) and pictures (issue 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from npuzzle import Board
from npuzzle.cli import main


def test_batch_input_keeps_order_and_reports_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards = tmp_path / "boards.txt"
    boards.write_text(
        "# Korf-style lines: a leading number, then the tiles\n"
        "4 1 2 3 4 5 6 0 7 8\n"
        "\n"
        "1 2 3 / 4 5 6 / 7 8\n"
        "1 2 3 / 4 5 6 / 8 7 0\n"
        "8 6 7 2 5 4 3 0 1\n"
    )
    code = main(["solve", "--input", str(boards), "--jsonl", "--jobs", "1"])
    out, err = capsys.readouterr()
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 2  # a bad line outranks the unsolvable one
    assert [r["index"] for r in results] == [0, 1, 2, 3]
    assert [r["line"] for r in results] == [2, 4, 5, 6]
    assert results[0]["length"] == 2 and results[0]["optimal"] is True
    assert results[1]["error_type"] == "BoardFormatError"
    assert results[2]["error_type"] == "UnsolvableError"
    assert results[3]["length"] == 31  # one of the two hardest 8-puzzles
    assert "line 4:" in err and "line 5:" in err


def test_board_and_input_together_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.txt"
    path.write_text("1 2 3 / 4 5 6 / 7 0 8\n")
    assert main(["solve", "1 2 3 / 4 5 6 / 7 0 8", "--input", str(path)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["solve"]) == 2


def test_show_highlights_the_tile_about_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "1 2 3 / 4 5 6 / 0 7 8", "--show"]) == 0
    out = capsys.readouterr().out
    assert out.count("┌") == 3  # start and two intermediate boards
    assert "directions: L L" in out


def test_solution_pictures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet, gif, steps = tmp_path / "sheet.png", tmp_path / "moves.gif", tmp_path / "steps"
    code = main(["solve", "1 2 3 / 4 5 6 / 0 7 8", "--sheet", str(sheet), "--gif", str(gif), "--render", str(steps)])
    err = capsys.readouterr().err
    assert code == 0 and f"wrote {gif}" in err
    assert len(list(steps.glob("*.png"))) == 3
    with Image.open(gif) as animation:
        assert animation.n_frames > 3
    assert Image.open(sheet).size[0] > 100


def test_solution_pictures_from_a_users_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "photo.png"
    Image.new("RGB", (300, 200), (40, 120, 200)).save(picture)
    sheet = tmp_path / "sheet.png"
    board = Board([1, 2, 3, 4, 5, 0], 3, 2)
    text = " ".join(map(str, board.tiles))
    assert main(["solve", text, "--size", "3x2", "--picture", str(picture), "--sheet", str(sheet)]) == 0
    assert sheet.is_file()
    assert main(["solve", text, "--size", "3x2", "--picture", str(tmp_path / "missing.png"), "--gif", "x.gif"]) == 2
    assert "missing.png" in capsys.readouterr().err
