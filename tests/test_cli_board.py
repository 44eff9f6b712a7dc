"""`npuzzle show`, `check` and `generate`: output, JSON shape and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer

from npuzzle import is_solvable, parse_board
from npuzzle.cli import main
from npuzzle.goals import goal


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_exit_codes_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "1 2 3 / 4 5 6 / 7 _ 8")
    assert (code, out.strip()) == (0, "solvable")
    code, out, _ = run(capsys, "check", "1 2 3 / 4 5 6 / 8 7 0", "--json")
    payload = json.loads(out)
    assert code == 1 and payload["solvable"] is False and payload["inversions"] == 1
    assert "explanation" in payload and payload["goal"] == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    code, out, _ = run(capsys, "check", "1 2 3 / 4 5 6 / 8 7 0", "--explain")
    assert code == 1 and "inversion" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "1 2 3 / 4 5 6 / 7 7 0"], "label 7 appears twice"),
        (["check", "1 2 3 4 5 0"], "--size"),
        (["check", "1 2 3 / 4 5 6 / 7 8 0", "--goal", "zigzag"], "unknown goal layout"),
        (["check", "1 2 3 / 4 5 6 / 7 8 0", "--goal", "1 2 3 / 4 5 6 / 7 8 9"], "label 0 does not occur"),
        (["check", "1 2 3 / 4 5 6 / 7 8 0", "--goal", "1 2 3 / 4 5 6 / 7 9 0"], "different labels"),
        (["generate", "--size", "1x4"], "at least 2"),
        (["generate", "--size", "0x0"], "at least 2"),
        (["generate", "--size", "0x3"], "at least 2"),
        (["generate", "--size", "3x0", "--goal", "spiral"], "at least 2"),
        (["generate", "--size", "257x2"], "larger than the largest board side"),
        (["check", '{"tiles": [1, 2, 3, 0], "width": "ab", "height": 100000000}'], "width must be an integer"),
        (["generate", "--method", "teleport"], "teleport"),
        (["generate", "--count", "0"], "--count"),
        (["show", "1 2"], "not a square"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_check_json_error_on_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "1 1 0 2", "--json")
    assert code == 2 and "appears twice" in json.loads(out)["error"]


def test_check_with_other_goals_and_blank_labels(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "1 2 3 / 8 _ 4 / 7 6 5", "--goal", "spiral")[0] == 0
    assert run(capsys, "check", "3 5 1 / 2 4 6 / 8 7 9", "--blank", "9")[0] == 0
    assert run(capsys, "check", "1 0 4 6 3 5 2 7 8", "--blank", "8", "--goal", "0 1 2 3 4 5 6 7 8")[0] == 0
    assert run(capsys, "check", "1 2 3 4 5 0", "--size", "3x2")[0] == 0


def test_show_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15", "-f", "json")
    assert code == 0 and json.loads(out)["tiles"][-2:] == [0, 15]
    code, out, _ = run(capsys, "show", "1 2 3 / 4 5 6 / 7 _ 8")
    assert code == 0 and "8" in out


def test_board_from_a_file_and_stdin(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "puzzle.txt"
    path.write_text("# 42 file\n3\n1 2 3\n8 0 4\n7 6 5\n")
    assert run(capsys, "check", str(path), "--goal", "spiral")[0] == 0


@pytest.mark.parametrize("method", ["shuffle", "walk", "tile-walk"])
def test_generate_json_boards_are_solvable_and_seeded(capsys: pytest.CaptureFixture[str], method: str) -> None:
    argv = ["generate", "--size", "5x3", "--goal", "snake", "--method", method, "--count", "4", "--seed", "9", "--json"]
    code, out, _ = run(capsys, *argv)
    payload = json.loads(out)
    assert code == 0 and (payload["width"], payload["height"]) == (5, 3)
    goal_board = goal("snake", 5, 3)
    assert payload["goal"] == list(goal_board.tiles) and len(payload["boards"]) == 4
    for tiles in payload["boards"]:
        assert is_solvable(goal_board.with_tiles(tiles), goal_board)
    assert run(capsys, *argv)[1] == out


def test_generate_plain_lines_parse_back(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "generate", "--size", "4x3", "--count", "3", "--seed", "1")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 3
    for line in lines:
        assert parse_board(line).size == (4, 3)


def test_every_command_help_shows_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    from npuzzle.cli import app

    commands = list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert {"show", "check", "generate"} <= set(commands)
    for command in commands:
        assert main([command, "--help"]) == 0
        assert "npuzzle " + command in capsys.readouterr().out.replace("\n", " ")


def test_help_imports_no_numba() -> None:
    code = (
        "import sys; from npuzzle.cli import main; main(['--help']); "
        "assert 'numba' not in sys.modules, 'numba imported by --help'"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_option_help_says_each_thing_once(capsys: pytest.CaptureFixture[str]) -> None:
    """``--blank`` said its default twice; ``generate --size`` talked about reading a board's text."""
    assert main(["generate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.replace("│", " ").split())  # rich boxes wrapped lines
    assert "(default 0)" not in text
    assert "boards to make" in text and "the text has no rows" not in text
    assert main(["check", "--help"]) == 0
    assert "(default 0)" not in capsys.readouterr().out


def test_a_huge_board_file_is_refused_without_loading_it(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "huge.txt"
    with path.open("w") as handle:
        for _ in range(100):
            handle.write("7 " * 50_000)  # 10 MB
    code, _, err = run(capsys, "check", str(path))
    assert code == 2 and "longer than 2,097,152 characters" in err and len(err) < 400


def test_board_numbers_are_plain_digits_in_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """'1_0' was tile 10; a Korf-looking line with '²' passed str.isdigit() and int() raised its own words."""
    code, _, err = run(capsys, "show", "1_0 2 3 0")
    assert code == 2 and "'1_0' is not a tile number" in err and "digits 0-9 only" in err
    code, _, err = run(capsys, "show", "1 ² 2 3 0")
    assert code == 2 and "'²' is not a tile number" in err and "invalid literal" not in err


def test_a_tatham_id_with_another_size_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "3x3:1,2,3,4,5,6,7,8,0", "--size", "4x4")
    assert (code, out) == (2, "") and "Tatham game id says 3x3" in err and "is 4x4" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_label_option_is_plain_digits_too(capsys: pytest.CaptureFixture[str]) -> None:
    """click's integer type read --blank 1_0 as 10, and the board then had that blank."""
    code, out, err = run(capsys, "show", "1 2 3 / 4 5 6 / 7 8 10", "--blank", "1_0")
    assert (code, out) == (2, "") and "'1_0' is not a tile label" in err
    code, out, _ = run(capsys, "show", "-1 2 3 / 4 5 6 / 7 8 0", "--blank", "-1", "-f", "line")
    assert (code, out.strip()) == (0, "-1 2 3 / 4 5 6 / 7 8 0")
