"""The picture commands: render, read, solve-screenshot, picture cut (issue 5)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from npuzzle.board import Board
from npuzzle.cli import main
from npuzzle.goals import blank_at
from pictures import png_declaring, screenshot, synthetic_picture

BOARD = Board.from_rows([[2, 4, 0], [1, 5, 3], [7, 8, 6]])  # tiles named by home cell, hole's home is 8


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pictures")
    picture = synthetic_picture(360, 300, seed=21)
    paths = {"picture": root / "picture.png", "shot": root / "shot.jpg", "text": root / "notes.png"}
    picture.save(paths["picture"])
    screenshot(picture, BOARD, grid=2, scale=0.8, jpeg=70).save(paths["shot"])
    paths["text"].write_text("this is not an image")
    paths["bomb"] = root / "bomb.png"
    paths["bomb"].write_bytes(png_declaring(20_000, 20_000))
    return paths


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_render_numbered_and_picture(
    tmp_path: Path, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "render", "1 2 3 / 4 5 6 / 7 _ 8", "-o", tmp_path / "b.png", "--highlight", "8"
    )
    assert code == 0 and "wrote" in out
    assert Image.open(tmp_path / "b.png").size == (438, 438)
    code, _, _ = run(
        capsys, "render", "2 4 _ / 1 5 3 / 7 8 6", "--goal", "blank-at:8",
        "--picture", files["picture"], "--no-numbers", "-o", tmp_path / "p.png",
    )  # fmt: skip
    assert code == 0 and Image.open(tmp_path / "p.png").width > 300
    code, _, _ = run(
        capsys, "render", "4x3:1,2,3,4,5,6,7,8,9,10,0,11", "-o", tmp_path / "r.jpg", "--caption", "hi"
    )
    assert code == 0 and Image.open(tmp_path / "r.jpg").format == "JPEG"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["render", "1 2 3 / 4 5 6 / 7 _ 8", "--picture", "{missing}", "-o", "{out}"], "does not exist"),
        (["render", "1 2 3 / 4 5 6 / 7 _ 8", "--picture", "{text}", "-o", "{out}"], "not a readable image"),
        (["render", "1 2 3 / 4 5 6 / 7 _ 8", "-o", "{tmp}/x.nope"], "unknown format '.nope' for it"),
        (["render", "1 2 3 / 4 5 5 / 7 _ 8", "-o", "{out}"], "appears twice"),
        (["read", "{missing}", "--size", "3x3", "--reference", "{picture}"], "does not exist"),
        (["read", "{text}", "--size", "3x3", "--reference", "{picture}"], "not a readable image"),
        (["read", "{shot}", "--size", "3by3", "--reference", "{picture}"], "size must look like WxH"),
        (["read", "{shot}", "--size", "90x90", "--reference", "{picture}"], "too small"),
        (["read", "{shot}", "--size", "3x3", "--reference", "{text}"], "reference picture"),
        (["picture", "cut", "{missing}", "--size", "3x3", "-o", "{tmp}/tiles"], "does not exist"),
        (["picture", "cut", "{picture}", "--size", "x", "-o", "{tmp}/tiles"], "size must look like WxH"),
        (["solve-screenshot", "{text}", "--size", "3x3", "--reference", "{picture}"], "not a readable image"),
        (["read", "{bomb}"], "too large to read"),
        (["read", "{shot}", "--reference", "{bomb}"], "too large to read"),
        (["solve-screenshot", "{bomb}"], "too large to read"),
        (["render", "1 2 3 / 4 5 6 / 7 _ 8", "--picture", "{bomb}", "-o", "{out}"], "too large to read"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, tmp_path: Path, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    names = {**{k: str(v) for k, v in files.items()}, "missing": str(tmp_path / "missing.png"),
             "out": str(tmp_path / "out.png"), "tmp": str(tmp_path)}  # fmt: skip
    code, _, err = run(capsys, *(a.format(**names) for a in argv))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


def test_read_json_and_text(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "read", files["shot"], "--size", "3x3", "--reference", files["picture"], "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["width", "height", "tiles", "goal", "confidence"]
    assert data["width"] == data["height"] == 3
    assert data["tiles"] == list(BOARD.tiles)
    assert data["goal"] == list(blank_at(3, 3, 8).tiles)
    assert len(data["confidence"]) == 9 and min(data["confidence"]) > 0.5
    code, out, _ = run(capsys, "read", files["shot"], "-s", "3x3", "-r", files["picture"])
    assert code == 0 and out.splitlines()[:3] == ["2 4 _", "1 5 3", "7 8 6"]
    assert "goal: 1 2 3 / 4 5 6 / 7 8 0" in out
    assert "assumed" not in out  # the reference shows where the missing piece belongs


def test_reading_shows_a_spinner_on_a_terminal_only(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reading takes one to tens of seconds: a terminal sees what is going on; a pipe or a log gets
    nothing on stderr but the answer's own lines."""
    argv = ("read", files["shot"], "-s", "3x3", "-r", files["picture"])
    code, _, err = run(capsys, *argv)
    assert code == 0 and "reading" not in err
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then takes stderr for a terminal
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    code, out, err = run(capsys, *argv)
    assert code == 0 and "reading shot.jpg" in err and "reading" not in out


def test_read_reports_twin_tiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = synthetic_picture(300, 300, seed=22)
    picture.paste(picture.crop((0, 0, 100, 100)), (100, 100))  # cell 4 is a copy of cell 0
    # and cell 6 of cell 2: with one pair of twins parity would tell the two readings apart
    picture.paste(picture.crop((200, 0, 300, 100)), (0, 200))
    picture.save(tmp_path / "twins.png")
    screenshot(picture, BOARD).save(tmp_path / "shot.png")
    argv = ["read", tmp_path / "shot.png", "-s", "3x3", "-r", tmp_path / "twins.png"]
    code, out, err = run(capsys, *argv, "--json")
    refusal = json.loads(out)
    assert code == 2 and "too alike" in err and refusal["ambiguous"]
    # the same data as the web API's refusal (vision.refusal_data): the board's size and every group
    assert (refusal["width"], refusal["height"]) == (3, 3) and refusal["groups"] == refusal["ambiguous"]
    assert all(group and set(group) <= set(range(9)) for group in refusal["groups"])
    code, out, err = run(capsys, *argv, "--allow-ambiguous")
    assert code == 0 and "look alike" in out


def test_picture_cut(tmp_path: Path, files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "picture", "cut", files["picture"], "--size", "4x3", "-o", tmp_path / "tiles")
    assert code == 0 and "12 tiles" in out
    tiles = sorted((tmp_path / "tiles").iterdir())
    assert [p.name for p in tiles] == [f"tile_{i:02d}.png" for i in range(1, 13)]
    assert Image.open(tiles[0]).size == (90, 100)


def test_solve_screenshot_with_the_real_solver(
    tmp_path: Path, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        from npuzzle.search import solve  # noqa: F401
    except ImportError:
        pytest.skip("the solver (issue 3) is not available yet")
    code, out, err = run(
        capsys, "solve-screenshot", files["shot"], "--size", "3x3", "--reference", files["picture"],
        "--gif", tmp_path / "s.gif", "--sheet", tmp_path / "sheet.png", "--render", tmp_path / "steps",
        "--speed", "8", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    length = data["solution"]["length"]
    assert data["reading"]["tiles"] == list(BOARD.tiles)
    assert BOARD.apply(data["solution"]["moves"]) == blank_at(3, 3, 8)
    assert len(list((tmp_path / "steps").glob("step_*.png"))) == length + 1
    from npuzzle.render.animate import GIF_MAX_FPS, Timing

    assert Image.open(tmp_path / "s.gif").n_frames == Timing(speed=8, fps=GIF_MAX_FPS).n_gif_frames(length)
    assert (tmp_path / "sheet.png").is_file()


@pytest.mark.parametrize("command", [["render"], ["read"], ["solve-screenshot"], ["picture", "cut"]])
def test_help_shows_an_example(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *command, "--help")
    assert code == 0 and "Example" in out and "npuzzle " + " ".join(command) in out


def test_cli_help_does_not_import_pictures_libraries() -> None:
    script = (
        "import sys\nfrom npuzzle.cli import main\nmain(['--help'])\n"
        "print(sorted(m for m in ('PIL', 'scipy', 'imageio', 'numba') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_solve_screenshot_with_a_stand_in_solver(
    tmp_path: Path,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The command's wiring (read → solve → export → report), whatever the state of the real solver."""
    from npuzzle.cli import picture_cmds
    from npuzzle.render import animate
    from npuzzle.solution import Solution

    moves = (3, 5, 4, 2, 1, 4, 5, 6)  # found by a breadth-first search
    goal = blank_at(3, 3, 8)

    def stand_in(reading: object, algorithm: str, max_seconds: float | None = None) -> Solution:
        return Solution(BOARD, goal, moves, False, "stand-in", None)

    monkeypatch.setattr(picture_cmds, "_solve", stand_in)
    monkeypatch.setattr(animate, "mp4_available", lambda: "MP4 needs the imageio-ffmpeg package")
    assert BOARD.apply(moves) == goal
    code, out, err = run(
        capsys, "solve-screenshot", files["shot"], "-s", "3x3", "-r", files["picture"],
        "--sheet", tmp_path / "sheet.png", "--mp4", tmp_path / "video.mp4", "--render", tmp_path / "steps",
        "--speed", "10", "--no-numbers",
    )  # fmt: skip
    assert code == 0, err
    assert "solution: 8 moves (not proven optimal)" in out and "wrote 9 step images" in out
    assert "wrote the animation as GIF" in err and (tmp_path / "video.gif").is_file()
    assert Image.open(tmp_path / "video.gif").n_frames == animate.Timing(speed=10, fps=animate.GIF_MAX_FPS).n_gif_frames(8)


def test_read_a_whole_window_without_size_or_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 12: a numbered game window, no --size, no --reference: JSON fields as before, exit 0; picture
    tiles without a reference are read right or refused; --debug draws the grid found."""
    import shutil

    from screenshots import Style, game_screenshot

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract-ocr not installed")
    shot = game_screenshot(Style(width=3, height=3, kind="numbers", tile=90, gap=5, jpeg=75, seed=4))
    shot.image.save(tmp_path / "window.png")
    code = main(["read", str(tmp_path / "window.png"), "--json", "--debug", str(tmp_path / "grid.png")])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"width", "height", "tiles", "goal", "confidence"}
    assert (data["width"], data["height"]) == (3, 3)
    assert data["tiles"] == list(shot.board.tiles) and data["goal"] == list(shot.goal.tiles)
    assert Image.open(tmp_path / "grid.png").size == shot.image.size

    pictured = game_screenshot(Style(width=3, height=3, kind="picture", tile=90, gap=4, jpeg=70, seed=1))
    pictured.image.save(tmp_path / "pictured.png")
    code = main(["read", str(tmp_path / "pictured.png"), "--json"])
    out, _ = capsys.readouterr()
    data = json.loads(out)
    if code == 0:  # picture tiles without a reference are reassembled from their seams (issue 12)
        assert data["tiles"] == list(pictured.board.tiles) and data["goal"] == list(pictured.goal.tiles)
        assert main(["read", str(tmp_path / "pictured.png")]) == 0  # as text: the home's assumption said
        assert "cell 8 as the missing piece's home is assumed" in capsys.readouterr().out
    else:  # or refused with a named cause, never a wrong board with exit 0
        assert code == 2 and data["kind"].endswith("Error") and data["error"]


def test_read_debug_draws_the_grid_of_a_refusal_that_holds_no_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 3x3 of numbered tiles with no empty cell: the grid is found, the numbers refused (no reading to
    return); --debug still draws the grid the refusal is about (it wrote nothing before)."""
    import shutil

    from PIL import ImageDraw, ImageFont

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract-ocr not installed")
    shot = Image.new("RGB", (420, 420), (240, 240, 240))
    draw = ImageDraw.Draw(shot)
    font = ImageFont.truetype("DejaVuSans-Bold.ttf", 60)
    for cell in range(9):
        x, y = 30 + cell % 3 * 125, 30 + cell // 3 * 125
        draw.rectangle([x, y, x + 115, y + 115], fill=(90, 110, 160))
        draw.text((x + 40, y + 25), str(cell + 1), fill="white", font=font)
    shot.save(tmp_path / "full.png")
    code = main(["read", str(tmp_path / "full.png"), "--debug", str(tmp_path / "grid.png")])
    _, err = capsys.readouterr()
    assert code == 2 and "no empty cell" in err
    assert "the grid found" in err and Image.open(tmp_path / "grid.png").size == shot.size


def test_read_debug_says_why_it_drew_nothing_when_no_grid_was_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A screenshot with no board in it: refused with no grid, and --debug says it wrote nothing (it was
    silent, and the user looked for a picture that was never written)."""
    Image.new("RGB", (300, 200), (40, 120, 200)).save(tmp_path / "plain.png")
    code = main(["read", str(tmp_path / "plain.png"), "--debug", str(tmp_path / "grid.png")])
    _, err = capsys.readouterr()
    assert code == 2 and "wrote no" in err and "grid" in err
    assert not (tmp_path / "grid.png").exists()


@pytest.mark.parametrize("crop", ["²,0,10,10", "0,0,1_0,10", "-1,0,10,10", "0,0,10"])
def test_read_crop_takes_four_plain_whole_numbers(
    crop: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'²' passed isdigit() and then int() refused it with a raw message; '1_0' was read as 10."""
    Image.new("RGB", (40, 40)).save(tmp_path / "shot.png")
    code = main(["read", str(tmp_path / "shot.png"), "--crop", crop])
    assert code == 2 and "--crop takes X,Y,W,H in whole pixels" in capsys.readouterr().err


def test_solve_screenshot_compiles_a_first_solve_before_its_budget(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --max-seconds the command's own budget is for the search: on a machine's first solve the
    solvers are compiled before it, and said (else the ladder skipped them: a 6×6 got 404 moves where ~220
    is usual); with --max-seconds the budget is the user's and nothing is compiled ahead of it."""
    from npuzzle.search import anytime

    compiled: list[tuple[int, int]] = []
    monkeypatch.setattr(anytime, "uncompiled_kernels", lambda board, metric="single", goal_board=None: (["beam"], 8.0))

    def compile_kernels(board, metric="single", goal_board=None):
        compiled.append(board.size)
        return "compiled the beam kernels in 0.1 s (first use on this machine, then cached)"

    monkeypatch.setattr(anytime, "compile_kernels", compile_kernels)
    argv = ("solve-screenshot", files["shot"], "--size", "3x3", "--reference", files["picture"])
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert compiled == [(3, 3)]
    assert "compiling the solvers for a 3x3 board (first use on this machine, about 8 s)" in err
    code, _, err = run(capsys, *argv, "--max-seconds", "5")
    assert code == 0 and compiled == [(3, 3)] and "compiling" not in err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--hole-home", "middle"], "hole home 'middle' is not a cell number"),
        (["--hole-home", "-1"], "hole home -1 is not a cell"),
        (["--blank-cell", "-2"], "blank cell -2 is not a cell"),
        (["--size", "3x3", "--blank-cell", "9"], "blank cell 9 is outside a 3x3 board (cells 0..8)"),
        (["--size", "3x3", "--hole-home", "12"], "hole home 12 is outside a 3x3 board (cells 0..8)"),
        (["--blank-cell", "256"], "blank cell 256 is outside the largest board read from a screenshot, 16x16"),
        (["--hole-home", "300"], "hole home 300 is outside the largest board read from a screenshot, 16x16"),
        (["--size", "5x5", "--crop", "10,10,20,20"], "crop 10,10,20,20 is 20x20 pixels: too small to cut into 5x5"),
    ],
)
def test_read_refuses_cells_and_crops_no_board_can_have_before_reading(
    options: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hole home of 'middle' or -1, or a blank cell past the size given (or with no size, past any board
    read), was refused only after the whole reading (45 s on a 5x5 picture, whose refusal then named the
    seams); a crop too small for the size given was named by the size of the screenshot read round it
    (32x32 for a 20x20 crop)."""
    from npuzzle.render import vision

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the options were not checked before the reading")

    monkeypatch.setattr(vision, "_layouts", no_reading)
    Image.new("RGB", (200, 200)).save(tmp_path / "shot.png")
    code = main(["read", str(tmp_path / "shot.png"), *options])
    assert code == 2 and message in capsys.readouterr().err
