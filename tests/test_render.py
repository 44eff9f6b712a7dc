"""Rendering: rich tables, board PNGs, step PNGs, contact sheets, GIF and MP4 (issue 5)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from PIL import ExifTags, Image
from rich.text import Text

from npuzzle.board import Board
from npuzzle.errors import LabelError
from npuzzle.goals import blank_at, classic
from npuzzle.render import animate
from npuzzle.render.animate import (
    GIF_MAX_FPS,
    GIF_MAX_SIDE,
    Timing,
    draw_step,
    export_solution,
    iter_animation,
    make_painter,
    mp4_available,
    sheet_layout,
    solution_steps,
    write_gif,
    write_sheet,
    write_steps,
)
from npuzzle.render.image import (
    DEFAULT_THEME,
    MAX_CAPTION_LINES,
    BoardPainter,
    PictureError,
    cut_picture,
    load_picture,
    moving_tiles,
    render_board,
    save_tiles,
)
from npuzzle.render.text import BLANK_MARK, HIGHLIGHT_STYLE, board_table
from npuzzle.render.vision import read_screenshot
from npuzzle.solution import Solution
from pictures import png_declaring, synthetic_picture

HIGHLIGHT = np.array(DEFAULT_THEME.highlight)
TRAY = np.array(DEFAULT_THEME.tray)


def walk_solution(goal: Board, n_moves: int, seed: int = 0, metric: str = "single") -> Solution:
    """A solution of exactly ``n_moves`` moves: a random walk away from ``goal``, undone step by step."""
    rng = random.Random(seed)
    boards, previous = [goal], None
    for _ in range(n_moves):
        board = boards[-1]
        options = board.legal_slides() if metric == "multi" else board.legal_moves()
        label = rng.choice([m for m in options if m != previous] or options)
        boards.append(board.slide(label) if metric == "multi" else board.move(label))
        previous = label
    # undo each step: the tile now standing where the blank was slides back (with those between)
    moves = [
        after.tiles[before.blank_cell] for before, after in zip(boards[-2::-1], boards[:0:-1], strict=True)
    ]
    return Solution(boards[-1], goal, tuple(moves), False, "walk", None, metric=metric)


def pixel(image: Image.Image, xy: tuple[int, int]) -> np.ndarray:
    return np.array(image.getpixel(xy)[:3])


def outline_probe(painter: BoardPainter, cell: int) -> tuple[int, int]:
    """A pixel on the left edge of ``cell``, mid-height: inside a highlighted tile's outline."""
    x0, y0, _, y1 = painter.layout.cell_box(cell)
    return x0 + 1, (y0 + y1) // 2


def highlighted_cells(image: Image.Image, painter: BoardPainter, board: Board) -> list[int]:
    return [
        cell
        for cell, label in enumerate(board.tiles)
        if label != board.blank and np.abs(pixel(image, outline_probe(painter, cell)) - HIGHLIGHT).max() <= 12
    ]


# -- text -------------------------------------------------------------------------------------------------


def test_board_table_aligns_and_highlights() -> None:
    board = Board.from_rows([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 0, 15]])
    table = board_table(board, highlight=15)
    assert len(table.columns) == 4 and table.row_count == 4
    cells = [[col._cells[r] for col in table.columns] for r in range(4)]
    assert all(isinstance(c, Text) for row in cells for c in row)
    assert cells[3][3].plain == "15" and cells[3][3].style == HIGHLIGHT_STYLE
    assert cells[3][2].plain.strip() == BLANK_MARK
    assert all(col.min_width == 2 and col.justify == "right" for col in table.columns)
    assert [c.style for row in cells for c in row].count(HIGHLIGHT_STYLE) == 1


def test_board_table_marks_tiles_at_home() -> None:
    board = Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 0, 8]])
    table = board_table(board, goal=classic(3, 3))
    styles = {col._cells[r].plain.strip(): col._cells[r].style for r in range(3) for col in table.columns}
    assert styles["1"] == "green" and styles["8"] == ""


# -- single boards ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 4), (5, 3), (2, 6), (10, 10)])
def test_numbered_board_size_and_highlight(width: int, height: int) -> None:
    goal = classic(width, height)
    board = goal.move(goal.legal_moves()[0])
    label = board.legal_moves()[-1]
    image = render_board(board, highlight=label)
    painter = BoardPainter(goal)
    assert image.size == painter.size and image.width % 2 == 0 and image.height % 2 == 0
    assert 200 <= max(image.size) <= 800  # sized to the board, legible, not huge
    assert highlighted_cells(image, painter, board) == [board.cell_of(label)]
    x0, y0, x1, y1 = painter.layout.cell_box(board.blank_cell)
    blank = np.asarray(image.crop((x0, y0, x1, y1))).reshape(-1, 3)
    assert (np.abs(blank - HIGHLIGHT).max(1) <= 12).any(), "the arrow in the blank is missing"
    assert (np.abs(blank - TRAY).max(1) == 0).mean() > 0.5, "the blank is drawn as an empty cell"


def test_picture_board_places_tiles_by_home_cell() -> None:
    picture = synthetic_picture(400, 300, seed=1)
    goal = blank_at(4, 3, 5)
    board = walk_solution(goal, 30, seed=2).start
    painter = BoardPainter(goal, picture=picture, numbers=False)
    image = painter.draw(board)
    pieces = cut_picture(picture, 4, 3)
    for cell, label in enumerate(board.tiles):
        box = painter.layout.cell_box(cell)
        drawn = np.asarray(image.crop(box), dtype=float)
        if label == board.blank:
            assert np.abs(drawn - TRAY).max() == 0
            continue
        expected = np.asarray(pieces[label - 1].resize(drawn.shape[1::-1]), dtype=float)
        assert np.abs(drawn - expected).mean() < 12, f"cell {cell} does not show the piece of tile {label}"


def test_picture_board_highlight_and_numbers() -> None:
    picture = synthetic_picture(300, 300, seed=3)
    goal = blank_at(3, 3, 8)
    board = goal.move(6)
    painter = BoardPainter(goal, picture=picture)
    image = render_board(board, goal=goal, picture=picture, highlight=3)
    assert highlighted_cells(image, painter, board) == [board.cell_of(3)]
    plain = render_board(board, goal=goal, picture=picture, numbers=False)
    numbered = render_board(board, goal=goal, picture=picture, numbers=True)
    x0, y0, x1, y1 = painter.layout.cell_box(0)
    corner = (x0, y0, x0 + (x1 - x0) // 3, y0 + (y1 - y0) // 3)
    assert np.abs(np.asarray(plain.crop(corner), float) - np.asarray(numbered.crop(corner), float)).mean() > 5


def test_highlight_that_cannot_move_is_outlined_without_arrow() -> None:
    board = classic(3, 3)
    image = render_board(board, highlight=1)
    painter = BoardPainter(board)
    assert highlighted_cells(image, painter, board) == [0]


def test_highlight_must_be_a_tile_on_the_board() -> None:
    """The blank (0) was drawn as nothing highlighted, without a word."""
    board = Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 0, 8]])
    with pytest.raises(LabelError, match=r"highlight 0 is the blank: name a tile to outline \(1..8\)"):
        render_board(board, highlight=0)
    with pytest.raises(LabelError, match="highlight 9 is not on this 3x3 board"):
        render_board(board, highlight=9)


def test_a_long_caption_is_wrapped_not_clipped() -> None:
    board = classic(3, 3)
    one_line = render_board(board, caption="solved in 20 moves")
    text = "a caption that explains the position in some detail, far wider than the board it is drawn under"
    wrapped = render_board(board, caption=text)
    assert wrapped.width == one_line.width and wrapped.height > one_line.height
    layout = BoardPainter(board).layout
    strip = np.asarray(wrapped)[layout.board_size[1] :]
    edges = np.concatenate([strip[:, : layout.margin // 2], strip[:, -layout.margin // 2 :]], axis=1)
    assert (edges == DEFAULT_THEME.frame).all()  # clipped text ran into both edges
    with pytest.raises(PictureError, match=f"needs more than {MAX_CAPTION_LINES} lines"):
        render_board(board, caption="word " * 400)


def test_moving_tiles_single_and_multi() -> None:
    board = Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    assert moving_tiles(board, 8) == ((8,), "R")
    assert moving_tiles(board, 3, "multi") == ((3, 6), "D")
    assert moving_tiles(board, 7, "multi") == ((7, 8), "R")


def test_pictures_load_cut_and_fail_cleanly(tmp_path: Path) -> None:
    picture = synthetic_picture(120, 90, seed=4)
    paths = save_tiles(picture, 4, 3, tmp_path / "tiles")
    assert [p.name for p in paths] == [f"tile_{i:02d}.png" for i in range(1, 13)]
    assert sum(Image.open(p).width for p in paths[:4]) == 120
    assert sum(Image.open(p).height for p in paths[::4]) == 90
    with pytest.raises(PictureError, match="does not exist"):
        load_picture(tmp_path / "missing.png")
    (tmp_path / "text.png").write_text("not an image")
    with pytest.raises(PictureError, match="not a readable image"):
        load_picture(tmp_path / "text.png")
    (tmp_path / "bomb.png").write_bytes(png_declaring(20_000, 20_000))  # Pillow refuses to decode it
    with pytest.raises(PictureError, match="too large to read"):
        load_picture(tmp_path / "bomb.png")
    with pytest.raises(PictureError, match="the screenshot is too large to read"):
        read_screenshot(png_declaring(20_000, 20_000))
    with pytest.raises(PictureError, match="too small"):
        cut_picture(picture, 40, 40)
    rgba = Image.new("RGBA", (40, 40), (255, 0, 0, 0))
    assert load_picture(rgba).getpixel((5, 5)) == (255, 255, 255)


def test_pictures_load_as_a_viewer_shows_them(tmp_path: Path) -> None:
    """16-bit and float greys keep their shades (Pillow's own conversion turns them white), and a file
    stored on its side with an EXIF orientation comes out turned upright, for every orientation."""
    picture = synthetic_picture(60, 40, seed=7)
    grey = np.asarray(picture.convert("L"))
    wide = Image.fromarray(grey.astype(np.uint16) * 257)
    wide.save(tmp_path / "grey16.png")
    assert Image.open(tmp_path / "grey16.png").mode.startswith("I")
    for source in (tmp_path / "grey16.png", wide, Image.fromarray(grey.astype(np.float32) / 255),
                   Image.fromarray(grey.astype(np.float32)), Image.fromarray(grey.astype(np.int32))):  # fmt: skip
        loaded = np.asarray(load_picture(source))
        assert loaded.shape == (40, 60, 3)
        assert np.abs(loaded[..., 0].astype(int) - grey).max() <= 1
    stored = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
              5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
              8: Image.Transpose.ROTATE_270}  # fmt: skip
    for orientation, transpose in stored.items():
        exif = Image.Exif()
        exif[ExifTags.Base.Orientation] = orientation
        path = tmp_path / f"turned{orientation}.png"
        picture.transpose(transpose).save(path, exif=exif)
        assert np.array_equal(np.asarray(load_picture(path)), np.asarray(picture)), orientation


# -- solutions --------------------------------------------------------------------------------------------


def test_step_pngs_highlight_the_tile_that_moves(tmp_path: Path) -> None:
    solution = walk_solution(classic(3, 3), 12, seed=5)
    painter = make_painter(solution)
    paths = write_steps(solution, tmp_path, painter)
    assert [p.name for p in paths] == [f"step_{i:03d}.png" for i in range(13)]
    boards = list(solution.boards())
    for i, path in enumerate(paths):
        image = Image.open(path).convert("RGB")
        assert image.size == painter.size
        expected = [boards[i].cell_of(solution.moves[i])] if i < solution.length else []
        assert highlighted_cells(image, painter, boards[i]) == expected


def test_multi_tile_steps_highlight_every_sliding_tile(tmp_path: Path) -> None:
    solution = walk_solution(classic(4, 4), 6, seed=6, metric="multi")
    assert solution.replay() == solution.goal
    painter = make_painter(solution)
    for step in solution_steps(solution):
        image = draw_step(painter, step, solution.length)
        cells = sorted(step.board.cell_of(label) for label in step.moving)
        assert highlighted_cells(image, painter, step.board) == cells
        if step.move is not None:
            assert step.move in step.moving


def test_contact_sheet_size_and_frames(tmp_path: Path) -> None:
    solution = walk_solution(classic(3, 3), 20, seed=7)
    painter = make_painter(solution)
    path = write_sheet(solution, tmp_path / "sheet.png", painter)
    layout = sheet_layout(21, painter.layout.board_size)
    sheet = Image.open(path).convert("RGB")
    assert sheet.size == layout.size
    assert layout.columns * layout.rows >= 21 > layout.columns * (layout.rows - 1)
    assert layout.gap > 0
    # each thumbnail is its step's board, shrunk
    for step in list(solution_steps(solution))[::5]:
        x, y = layout.origin(step.index)
        thumb = np.asarray(sheet.crop((x, y, x + layout.thumb[0], y + layout.thumb[1])), float)
        frame = draw_step(painter, step, solution.length, captions=False).crop(
            (0, 0, *painter.layout.board_size)
        )
        expected = np.asarray(frame.resize(layout.thumb, Image.Resampling.LANCZOS), float)
        assert np.abs(thumb - expected).mean() < 3
    # the gap between the first two frames is sheet background
    gap_x = layout.origin(0)[0] + layout.thumb[0] + layout.gap // 2
    assert sheet.getpixel((gap_x, layout.origin(0)[1] + 5)) == DEFAULT_THEME.sheet


def test_gif_frames_durations_and_slides(tmp_path: Path) -> None:
    solution = walk_solution(classic(3, 3), 8, seed=8)
    timing = Timing(speed=2, fps=GIF_MAX_FPS, pause=1.0)  # GIFs run at most GIF_MAX_FPS
    painter = make_painter(solution)
    path = write_gif(solution, tmp_path / "a.gif", painter, timing)
    gif = Image.open(path)
    assert gif.n_frames == timing.n_gif_frames(8) == 1 + 8 * timing.slide_frames
    assert gif.size == painter.size
    durations, frames = [], []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
        frames.append(gif.convert("RGB"))
    assert abs(sum(durations) - timing.n_video_frames(8) * 1000 / timing.fps) <= 10
    assert durations[-1] >= timing.pause * 1000  # the pause at the end
    steps = list(solution_steps(solution))
    keyframes = [frames[0], *frames[timing.slide_frames :: timing.slide_frames]]
    assert len(keyframes) == 9
    for step, frame in zip(steps, keyframes, strict=True):
        expected = np.asarray(draw_step(painter, step, 8), float)
        assert np.abs(np.asarray(frame, float) - expected).mean() < 2
    # an in-between frame shows the first moving tile part of the way
    first = steps[0]
    cell = first.board.cell_of(first.move)  # type: ignore[arg-type]
    mid = np.asarray(frames[timing.slide_frames // 2 + 1], float)
    before = np.asarray(draw_step(painter, first, 8), float)
    after = np.asarray(draw_step(painter, steps[1], 8), float)
    assert np.abs(mid - before).mean() > 0.1 and np.abs(mid - after).mean() > 0.1
    assert cell != first.board.blank_cell


def test_gif_with_picture_keeps_still_parts_still(tmp_path: Path) -> None:
    solution = walk_solution(blank_at(4, 4, 0), 6, seed=9)
    picture = synthetic_picture(320, 320, seed=9)
    result = export_solution(solution, picture=picture, gif=tmp_path / "p.gif", speed=3, fps=12)
    gif = Image.open(result.gif)  # type: ignore[arg-type]
    timing = Timing(speed=3, fps=12)
    assert timing.slide_frames == 2 and gif.n_frames == timing.n_gif_frames(6)
    gif.seek(1)
    # frame 1 (mid-slide) only stores the rectangle of the sliding tile, not the whole board
    assert gif.tile and gif.tile[0][1][2] - gif.tile[0][1][0] < gif.width // 2


@pytest.mark.skipif(mp4_available() is not None, reason="no ffmpeg for MP4")
def test_mp4_frame_count_and_size(tmp_path: Path) -> None:
    import imageio.v2 as iio

    solution = walk_solution(classic(3, 2), 5, seed=10)
    result = export_solution(solution, mp4=tmp_path / "a.mp4", speed=5, fps=10, pause=0.5, tile_size=40)
    assert result.mp4 is not None and not result.notes
    reader = iio.get_reader(result.mp4)
    try:
        assert reader.count_frames() == Timing(speed=5, fps=10, pause=0.5).n_video_frames(5)
        assert tuple(reader.get_meta_data()["size"]) == make_painter(solution, tile_size=40).size
    finally:
        reader.close()


def test_mp4_falls_back_to_gif_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(animate, "mp4_available", lambda: "MP4 needs the imageio-ffmpeg package")
    solution = walk_solution(classic(3, 3), 3, seed=11)
    result = export_solution(solution, mp4=tmp_path / "a.mp4", speed=8, fps=8)
    assert result.mp4 is None and result.gif == tmp_path / "a.gif" and result.gif.is_file()
    assert not (tmp_path / "a.mp4").exists()
    assert "imageio-ffmpeg" in result.notes[0] and "a.gif" in result.notes[0]


def test_export_everything_at_once(tmp_path: Path) -> None:
    solution = walk_solution(blank_at(3, 3, 4), 10, seed=12)
    picture = synthetic_picture(240, 240, seed=12)
    result = export_solution(
        solution,
        directory=tmp_path / "steps",
        picture=picture,
        sheet=tmp_path / "s.png",
        gif=tmp_path / "g.gif",
        numbers=False,
        speed=8,
        fps=8,
    )
    assert len(result.steps) == 11 and all(p.is_file() for p in result.files())
    assert result.sheet == tmp_path / "s.png" and result.gif == tmp_path / "g.gif"


def test_solved_start_renders_one_frame(tmp_path: Path) -> None:
    goal = classic(3, 3)
    solution = Solution(goal, goal, (), True, "none", None)
    timing = Timing(fps=10)
    frames = list(iter_animation(solution, make_painter(solution), timing))
    assert len(frames) == 1 and frames[0][1] == timing.n_video_frames(0)
    result = export_solution(solution, directory=tmp_path, sheet=tmp_path / "s.png", gif=tmp_path / "g.gif")
    assert len(result.steps) == 1 and Image.open(result.gif).n_frames == 1  # type: ignore[arg-type]


def test_frames_stream_for_long_solutions() -> None:
    """A 2,000-move solution on a 12×12 board: the first frames come at once, none are built ahead."""
    solution = walk_solution(classic(12, 12), 2000, seed=13)
    frames = iter_animation(solution, make_painter(solution, tile_size=24), Timing(speed=4, fps=8))
    first, repeat = next(frames)
    second, _ = next(frames)
    assert first.size == second.size and repeat >= 1


def test_long_gif_is_written(tmp_path: Path) -> None:
    solution = walk_solution(classic(6, 6), 150, seed=14)
    timing = Timing(speed=10, fps=10, pause=0.5)
    path = write_gif(solution, tmp_path / "long.gif", make_painter(solution, tile_size=28), timing)
    assert Image.open(path).n_frames == timing.n_gif_frames(150)


@pytest.mark.parametrize("kwargs", [{"speed": 0}, {"fps": 0}, {"slide": 1.5}, {"pause": -1}])
def test_bad_timing_is_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(PictureError):
        Timing(**kwargs)  # type: ignore[arg-type]


def test_without_dejavu_the_builtin_font_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from npuzzle.render import image as image_module

    monkeypatch.setattr(image_module, "FONT_FILES", ("no-such-font.ttf",))
    image_module.get_font.cache_clear()
    try:
        font = image_module.get_font(20)
        assert "DejaVu" not in (font.getname()[0] or "")  # type: ignore[union-attr]
        solution = walk_solution(classic(3, 3), 2, seed=15)
        painter = make_painter(solution)
        step = next(solution_steps(solution))
        assert animate.step_caption(step, 2, painter.caption_font).endswith(("up", "down", "left", "right"))
        assert draw_step(painter, step, 2).size == painter.size
    finally:
        image_module.get_font.cache_clear()


def test_gif_ends_on_the_finished_picture_and_stays_small(tmp_path: Path) -> None:
    """Issue 14: the last GIF frame has the missing piece back in place; the GIF is at most GIF_MAX_SIDE
    pixels a side and small (palette, only changed rectangles stored, 12 fps, no dithering)."""
    picture = synthetic_picture(900, 900, seed=3)
    goal = blank_at(3, 3, 8)
    solution = walk_solution(goal, 18, seed=4)
    result = export_solution(solution, picture=picture, gif=tmp_path / "a.gif", captions=False)
    assert result.gif is not None
    gif = Image.open(result.gif)
    assert max(gif.size) <= GIF_MAX_SIDE + 40  # the board plus its frame
    assert result.gif.stat().st_size < 1_500_000  # was 2.9 MB for 18 moves on 3x3 (issue 14)
    gif.seek(gif.n_frames - 1)
    last = np.asarray(gif.convert("RGB"), float)
    painter = make_painter(solution, picture, captions=False, tile_size=max(16, GIF_MAX_SIDE // 3))
    assert painter.size == gif.size
    finished = np.asarray(painter.draw(goal, complete=True), float)
    empty = np.asarray(painter.draw(goal), float)
    assert np.abs(last - finished).mean() < 12  # a 256-colour palette of a noisy picture, not dithered
    x, y = painter.layout.cell_origin(8)
    w, h = painter.layout.tile_w, painter.layout.tile_h
    hole = (slice(y, y + h), slice(x, x + w))
    # the hole is filled with its piece, not left empty
    assert np.abs(last[hole] - finished[hole]).mean() * 3 < np.abs(last[hole] - empty[hole]).mean()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mp4": "v.gif"}, "MP4 .* unknown format '.gif'"),
        ({"mp4": "v.txt"}, "MP4 .* unknown format '.txt'"),
        ({"mp4": "v.webm"}, "MP4 .* unknown format '.webm'"),
        ({"gif": "g.txt"}, "GIF .* unknown format '.txt'"),
        ({"gif": "g.png"}, "GIF .* unknown format '.png'"),
        ({"sheet": "s.gif"}, "contact sheet .* unknown format '.gif'"),
        ({"gif": "folder.gif"}, "is a folder"),
        ({"directory": "a_file"}, "exists and is not a folder"),
    ],
)
def test_export_refuses_paths_that_do_not_fit_before_drawing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kwargs: dict[str, str], message: str
) -> None:
    (tmp_path / "folder.gif").mkdir()
    (tmp_path / "a_file").write_bytes(b"")

    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("drawing started before the paths were checked")

    monkeypatch.setattr(animate, "make_painter", refuse)
    with pytest.raises(PictureError, match=message):
        export_solution(walk_solution(classic(3, 3), 2), **{k: tmp_path / v for k, v in kwargs.items()})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "folder.gif"]  # nothing written


def test_a_failed_gif_leaves_neither_the_file_nor_scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = animate.iter_animation

    def broken(*args: object, **kw: object):  # type: ignore[no-untyped-def]
        frames = real(*args, **kw)  # type: ignore[arg-type]
        yield next(frames)
        yield next(frames)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(animate, "iter_animation", broken)
    solution = walk_solution(classic(3, 3), 4, seed=3)
    with pytest.raises(PictureError, match=r"cannot write '.*g\.gif': No space left on device"):
        write_gif(solution, tmp_path / "g.gif", make_painter(solution, tile_size=30))
    assert list(tmp_path.iterdir()) == []


def test_ffmpeg_failure_is_one_line_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if mp4_available() is not None:
        pytest.skip("no ffmpeg")

    def noisy(*args: object, **kw: object) -> None:
        raise OSError("[Errno 32] Broken pipe\n\nFFMPEG COMMAND:\n/usr/bin/ffmpeg -y -f rawvideo ...")

    monkeypatch.setattr(animate, "_write_mp4_frames", noisy)
    solution = walk_solution(classic(3, 3), 2, seed=4)
    with pytest.raises(PictureError) as info:
        animate.write_mp4(solution, tmp_path / "v.mp4", make_painter(solution, tile_size=30))
    assert "\n" not in str(info.value) and "FFMPEG COMMAND" not in str(info.value)
    assert "v.mp4" in str(info.value) and "Broken pipe" in str(info.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("tile_size", [24, 40, None])
def test_step_captions_fit_their_strip_on_narrow_boards(tile_size: int | None) -> None:
    """Every step caption of a 2-wide board fits the painter's strip without being cut: the strip is as many
    lines high as the widest caption needs (at 24 px tiles "move 9 of 16: tile 5 ↓" ran off both sides)."""
    from npuzzle.generate import walk
    from npuzzle.render.image import wrap_caption
    from npuzzle.search.solver import solve

    goal = classic(2, 3)
    solution = solve(walk(goal, 40, seed=3), goal)
    painter = animate.make_painter(solution, tile_size=tile_size)
    font, layout = painter.caption_font, painter.layout
    needed = {
        len(wrap_caption(animate.step_caption(step, solution.length, font, painter.numbers), font, layout.caption_width))
        for step in animate.solution_steps(solution)
    }
    assert max(needed) <= layout.caption_lines
    assert {animate.draw_step(painter, step, solution.length).size for step in animate.solution_steps(solution)} == {
        layout.size
    }
