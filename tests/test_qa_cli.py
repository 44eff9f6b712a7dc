"""Defects QA found in the command line (one test or more per defect): each is a one-line error and exit 2,
reported before any slow work, naming the user's input and the cause."""

from __future__ import annotations

from pathlib import Path

import pytest

import npuzzle.search.solver
from npuzzle.cli import main, picture_cmds

EASY = "1 2 3 / 4 5 6 / 0 7 8"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "Errno" not in err and "FFMPEG" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], err


@pytest.fixture()
def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any search started fails the test: the options must be refused before it."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the search ran before the options were checked")

    monkeypatch.setattr(npuzzle.search.solver, "solve", refuse)


@pytest.mark.parametrize(
    "option, name, fragments",
    [
        ("--mp4", "v.gif", ("MP4", "v.gif", "unknown format '.gif'")),
        ("--mp4", "v.txt", ("MP4", "unknown format '.txt'")),
        ("--mp4", "x.webm", ("MP4", "unknown format '.webm'")),
        ("--gif", "x.txt", ("GIF", "unknown format '.txt'")),
        ("--gif", "x.png", ("GIF", "unknown format '.png'")),
        ("--sheet", "x.gif", ("contact sheet", "unknown format '.gif'")),
    ],
)
def test_picture_files_must_carry_their_formats_suffix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_search: None, option: str, name: str,
    fragments: tuple[str, ...],
) -> None:  # fmt: skip
    code, _, err = run(capsys, "solve", EASY, option, tmp_path / name)
    assert code == 2
    one_line_error(err, *fragments)
    assert not (tmp_path / name).exists()


def test_unwritable_output_paths_are_refused_before_the_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_search: None
) -> None:
    a_file = tmp_path / "s.png"
    a_file.write_bytes(b"")
    folder = tmp_path / "somedir.gif"
    folder.mkdir()
    cases = [
        (["--gif", "/proc/x.gif"], ("'/proc/x.gif'", "cannot create files in '/proc'")),
        (["--mp4", "/proc/x.mp4"], ("'/proc/x.mp4'", "cannot create files")),
        (["--render", a_file], (str(a_file), "not a folder")),
        (["--gif", folder], (str(folder), "is a folder")),
        (["--sheet", a_file / "x.png"], (str(a_file), "is a file, not a folder")),
        (["--speed", "0", "--gif", tmp_path / "a.gif"], ("--speed must be a positive",)),
    ]
    for options, fragments in cases:
        code, _, err = run(capsys, "solve", EASY, *options)
        assert code == 2, options
        one_line_error(err, *fragments)


def test_good_outputs_are_written_atomically_with_no_scratch_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "solve", EASY, "--gif", tmp_path / "new" / "a.gif", "--sheet", tmp_path / "sheet",
        "--render", tmp_path / "steps",
    )  # fmt: skip
    assert code == 0, err
    assert (tmp_path / "new" / "a.gif").read_bytes()[:6] == b"GIF89a"
    assert (tmp_path / "sheet.png").read_bytes()[:4] == b"\x89PNG"
    assert len(list((tmp_path / "steps").glob("step_*.png"))) == 3
    assert not [p for p in tmp_path.rglob(".*") if p.is_file()]  # no scratch files left behind


def test_solve_screenshot_checks_its_options_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the screenshot was read before the options were checked")

    monkeypatch.setattr(picture_cmds, "_read", refuse)
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"")
    cases = [
        (["--mp4", tmp_path / "v.gif"], ("MP4", "unknown format '.gif'")),
        (["--gif", "/proc/x.gif"], ("cannot create files in '/proc'",)),
        (["--speed", "0"], ("--speed must be a positive",)),
        (["--max-seconds", "0"], ("--max-seconds must be a positive",)),
        (["--algorithm", "foo"], ("unknown --algorithm 'foo'",)),
    ]
    for options, fragments in cases:
        code, _, err = run(capsys, "solve-screenshot", shot, *options)
        assert code == 2, options
        one_line_error(err, *fragments)


def test_render_to_a_folder_is_refused_not_written_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "somedir"
    folder.mkdir()
    for target in (f"{folder}/", str(folder), f"{tmp_path}/missing/"):
        code, _, err = run(capsys, "render", "1 2 3 / 4 5 6 / 7 _ 8", "-o", target)
        assert code == 2
        one_line_error(err, "is a folder", "board.png")
    assert not (tmp_path / "somedir.png").exists() and not (tmp_path / "missing.png").exists()
    assert not list(folder.iterdir())


def test_bank_export_names_the_users_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "bank", "export", "--db", tmp_path / "none.bank", "-o", "/proc/x.csv")
    assert code == 2
    one_line_error(err, "'/proc/x.csv'", "cannot create files")
    assert ".tmp" not in err


@pytest.mark.parametrize(
    "lines, code",
    [
        (["foo bar", "1 2 3 / 4 5 6 / 8 7 0"], 2),  # only a bad line and an unsolvable one
        (["1 2 3 / 4 5 6 / 8 7 0", "1 2 3 / 4 5 6 / 8 0 7"], 1),  # only unsolvable ones
        (["1 2 3 / 4 5 6 / 7 0 8", "1 2 3 / 4 5 6 / 8 7 0"], 1),
        (["1 2 3 / 4 5 6 / 7 0 8", "x"], 2),
        (["1 2 3 / 4 5 6 / 7 0 8"], 0),
    ],
)
def test_batch_exit_code_is_the_worst_line_and_the_same_when_resumed(
    tmp_path: Path, lines: list[str], code: int
) -> None:
    boards = tmp_path / "in.txt"
    boards.write_text("\n".join(lines) + "\n")
    out = tmp_path / "o.jsonl"
    argv = ["solve", "--input", str(boards), "--jobs", "1"]
    assert main(argv) == code  # standard output
    assert main([*argv, "--output", str(out)]) == code  # into a results file
    assert main([*argv, "--output", str(out)]) == code  # resumed: every line already there
    assert len(out.read_text().splitlines()) == len(lines)


def test_batch_exit_rule_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--help")
    assert code == 0
    assert "0 when every board was solved" in " ".join(out.replace("│", " ").split())


def test_serve_on_a_busy_port_is_a_clear_bad_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    import npuzzle.web.app

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the app was built before the port was checked")

    monkeypatch.setattr(npuzzle.web.app, "create_app", refuse)
    with socket.socket() as busy:
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, _, err = run(capsys, "serve", "--port", port)
    assert code == 2  # not 3, which the README keeps for "a limit was hit"
    one_line_error(err, f"port {port} on 127.0.0.1 is already in use", "--port")
    code, _, err = run(capsys, "serve", "--host", "no-such-host.invalid", "--port", port)
    assert code == 2
    one_line_error(err, "'no-such-host.invalid'", "no such address")


def test_a_board_argument_that_is_a_missing_path_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    for argument, fragment in [
        ("/nonexistent/file.txt", "no such file: '/nonexistent/file.txt'"),
        ("boards.txt", "no such file: 'boards.txt'"),
        ("some/dir/start", "no such file"),
        ("folder", "'folder' is a folder"),
    ]:
        code, _, err = run(capsys, "check", argument)
        assert code == 2
        one_line_error(err, fragment)
    # board text with slashes is still board text
    for text in ("1 2 3 / 4 5 6 / 7 8 _", "1,2,3/4,5,6/7,8,0", "3x3:1,2,3,4,5,6,7,8,0"):
        assert run(capsys, "check", text)[0] == 0


def test_a_board_file_with_a_byte_order_mark_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "bom.txt"
    board.write_bytes(b"\xef\xbb\xbf1 2 3\n4 5 6\n7 8 0\n")
    code, out, err = run(capsys, "check", board)
    assert code == 0 and "solvable" in out, err


def test_generate_takes_the_size_of_a_typed_goal(capsys: pytest.CaptureFixture[str]) -> None:
    # without --size it said "the size given is 4x4" although no size was given
    code, out, err = run(capsys, "generate", "--goal", "1 2 3 / 4 5 6 / 7 8 0", "--count", "2", "--seed", "1")
    assert code == 0, err
    assert [len(line.split("/")) for line in out.splitlines()] == [3, 3]
    code, _, err = run(capsys, "generate", "--goal", "1 2 3 / 4 5 6 / 7 8 0", "--size", "4x4")
    assert code == 2
    one_line_error(err, "size given is 4x4")
    code, _, err = run(capsys, "generate", "--size", "0x0")
    assert code == 2
    one_line_error(err, "width 0 is too small", "at least 2x2")
    assert "1-wide" not in err


@pytest.mark.parametrize("command", [["check", "1 2 3 / 4 5 6 / 7 0 8"], ["generate", "--size", "3x3"]])
@pytest.mark.parametrize(
    "goal, fragment",
    [("", "--goal is empty"), ("random:-1", "seed is 0 or more"), ("random:", "needs a seed"), ("blank-at:", "cell")],
)
def test_loose_goals_are_refused(capsys: pytest.CaptureFixture[str], command: list[str], goal: str, fragment: str) -> None:
    code, _, err = run(capsys, *command, "--goal", goal)
    assert code == 2
    one_line_error(err, fragment)


def test_a_korf_instance_line_is_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    korf = "1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # README: Korf's instance lines are boards
    code, out, err = run(capsys, "show", korf, "-f", "line")
    assert code == 0, err
    assert out.strip() == "14 13 15 7 / 11 12 9 5 / 6 0 2 1 / 4 8 10 3"
    assert run(capsys, "check", korf, "--goal", "blank-first")[0] == 0
    assert run(capsys, "check", "5 1 2 3 4 5 0", "--size", "3x2")[0] == 0
    # one number too many in a typed board is still an error, not a board without its first number
    for typo in ("1 2 3 4 5 6 7 8 0 9", "9 1 2 3 4 5 6 7 8 0 10"):
        code, _, err = run(capsys, "check", typo)
        assert code == 2
        one_line_error(err, "not a square count")


def test_a_board_starting_with_a_negative_label_is_not_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    # click read '-1 2 3 / ...' as the unknown option -1
    code, out, err = run(capsys, "show", "-1 2 3 / 4 5 6 / 7 8 0", "-f", "line")
    assert code == 0, err
    assert out.strip() == "-1 2 3 / 4 5 6 / 7 8 0"
    code, _, err = run(capsys, "generate", "--seed", "-1")  # a lone negative number is still an option value
    assert code == 2 and "No such option" not in err


def test_picture_options_with_input_are_refused_not_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    boards = tmp_path / "in.txt"
    boards.write_text("1 2 3 / 4 5 6 / 7 0 8\n")
    code, out, err = run(capsys, "solve", "--input", boards, "--gif", tmp_path / "a.gif", "--show")
    assert code == 2 and out == ""
    one_line_error(err, "--gif, --show", "without --input")


def test_read_checks_the_debug_path_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import npuzzle.render.vision

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the screenshot was read before --debug was checked")

    monkeypatch.setattr(npuzzle.render.vision, "read_screenshot", refuse)
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"")
    for debug, fragment in (("/proc/grid.png", "cannot create files"), (tmp_path / "grid.gif", "unknown format")):
        code, _, err = run(capsys, "read", shot, "--debug", debug)
        assert code == 2
        one_line_error(err, "debug picture", fragment)


def test_picture_cut_names_the_folder_and_the_cause(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "pic.png"
    assert run(capsys, "render", "1 2 3 / 4 5 6 / 7 _ 8", "-o", picture)[0] == 0
    a_file = tmp_path / "a_file"
    a_file.write_bytes(b"")
    for target, fragment in ((a_file, "exists and is not a folder"), ("/proc/tiles", "cannot create files")):
        code, _, err = run(capsys, "picture", "cut", picture, "--size", "3x3", "-o", target)
        assert code == 2
        one_line_error(err, "cannot write the tiles into", fragment)
