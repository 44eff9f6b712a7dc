"""Reading numbered tiles (issue 12): the OCR's preparation of each cell and the settling of unsure cells."""

from __future__ import annotations

import dataclasses
import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw

from npuzzle.board import Board
from npuzzle.goals import around_blank, blank_at
from npuzzle.render import ocr
from npuzzle.render.vision import _settle_unsure
from screenshots import font


def _tile(text: str, side: int = 60, line: bool = False) -> Image.Image:
    tile = Image.new("RGB", (side, side), (200, 180, 40))
    draw = ImageDraw.Draw(tile)
    draw.text((side / 2, side / 2), text, fill=(20, 20, 20), font=font(side // 2), anchor="mm")
    if line:  # a grid line left inside the cell, as when the grid found is a few pixels off
        draw.rectangle((0, 7, side - 1, 9), fill=(0, 120, 0))
    return tile


def test_number_of_takes_lookalike_letters_as_digits() -> None:
    assert ocr.number_of([("ll", 0.6)]) == (11, 0.6)
    assert ocr.number_of([("1", 0.9), ("2", 0.7)]) == (12, 0.7)
    assert ocr.number_of([("a", 0.9)]) == (None, 0.0)
    assert ocr.number_of([]) == (None, 0.0)


def test_a_line_across_the_cell_is_not_part_of_the_number() -> None:
    inner = _tile("8", line=True).crop((6, 6, 54, 54))
    inkness = ocr._inkness(inner)
    number = ocr.number_ink(inkness)
    rows = np.flatnonzero(number.any(axis=1))
    assert rows[0] > 5  # the line (rows 1..3 of the cut) is gone, the digit stays
    page = ocr.digit_image(inkness, number, 40)
    ink_rows = np.flatnonzero((np.asarray(page) == 0).any(axis=1))
    assert ink_rows[-1] - ink_rows[0] + 1 == pytest.approx(40, abs=2)


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")
def test_small_numbers_are_read_surely() -> None:
    cells = [_tile(str(v), side=30).resize((30, 30)) for v in (8, 11, 5, 14)]
    cells.append(Image.new("RGB", (30, 30), (0, 0, 0)))
    got = ocr.read_numbers(cells)
    assert got.numbers == (8, 11, 5, 14, None)
    assert got.empty == (4,)
    assert min(got.confidence) >= 0.5


def _unsure_case(candidates: dict[int, tuple[int, ...]]) -> tuple[list[int | None], ocr.NumberReading, Board]:
    goal = blank_at(3, 3, 8)
    board = goal.move(goal.legal_moves()[0])
    for _ in range(5):
        board = board.move(board.legal_moves()[-1])
    numbers: list[int | None] = [None if v == 0 or c in candidates else v for c, v in enumerate(board.tiles)]
    reading = ocr.NumberReading(
        tuple(numbers),
        tuple(0.0 if c in candidates else 1.0 for c in range(9)),
        (board.tiles.index(0),),
        tuple(candidates.get(c, ()) for c in range(9)),
    )
    return numbers, reading, board


def test_two_illegible_cells_are_settled_by_solvability() -> None:
    """Two cells read as nothing, two numbers missing: only one of the two placings is solvable."""
    unsure = [c for c, v in enumerate(_unsure_case({})[2].tiles) if v in (3, 7)]
    numbers, reading, board = _unsure_case({c: () for c in unsure})
    settled = _settle_unsure(numbers, unsure, [3, 7], reading, around_blank(3, 3, 8))
    assert settled == tuple(board.tiles[c] for c in unsure)


def test_candidates_settle_and_contradictions_refuse() -> None:
    board = _unsure_case({})[2]
    cells = [c for c, v in enumerate(board.tiles) if v in (2, 4, 6)]
    truth = tuple(board.tiles[c] for c in cells)
    numbers, reading, _ = _unsure_case({c: (board.tiles[c], 9) for c in cells})
    assert _settle_unsure(numbers, cells, sorted(truth), reading, around_blank(3, 3, 8)) == truth
    # three cells read as nothing: three of the six placings are solvable, so no answer
    numbers, reading, _ = _unsure_case({c: () for c in cells})
    assert _settle_unsure(numbers, cells, sorted(truth), reading, around_blank(3, 3, 8)) is None


def test_elimination_settles_no_more_cells_than_were_read_surely() -> None:
    """Unseen seed 32058: a 2x2 cut of a whole window, no number read surely, each cell guessed once: one
    placing of 1..3 was solvable and it came back with exit 0. Settling needs as many cells read as settled."""
    reading = ocr.NumberReading((None, None, None, None), (0.0, 0.0, 0.0, 0.0), (3,), ((1,), (2,), (3,), ()))
    assert _settle_unsure([None, None, None, None], [0, 1, 2], [1, 2, 3], reading, around_blank(2, 2, 3)) is None
    # one cell read surely, one guessed: settled
    reading = ocr.NumberReading((1, None, 3, None), (1.0, 0.0, 1.0, 0.0), (3,), ((), (2,), (), ()))
    assert _settle_unsure([1, None, 3, None], [1], [2], reading, around_blank(2, 2, 3)) == (2,)


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")
def test_a_part_of_the_board_grows_into_the_whole_board() -> None:
    """A grid over a 2x3 part of a 4x4 board (no hole in it) reads numbers up to 15: the reader grows the
    grid by whole columns and rows at its pitch and reads the whole board."""
    from npuzzle.render.locate import Axis, Grid
    from npuzzle.render.vision import NumbersUnreadableError, _read_numbers, _read_numbers_bigger
    from screenshots import Style, game_screenshot

    style = Style(width=4, height=4, kind="numbers", tile=70, gap=4, jpeg=70, hole="black", seed=5)
    shot = game_screenshot(style)
    x, y, _, _ = shot.box
    pitch = style.tile + style.gap
    col0 = 2 if shot.board.tiles.index(0) % 4 < 2 else 0  # two columns away from the hole's
    part = Grid(Axis(x + col0 * pitch, pitch, style.tile, 2), Axis(y, pitch, style.tile, 3))
    with pytest.raises(NumbersUnreadableError) as caught:
        _read_numbers(shot.image, part, None, None, None)
    assert caught.value.cells_needed is not None
    reading = _read_numbers_bigger(shot.image, part, caught.value, caught.value.cells_needed)
    assert reading.board == shot.board


@pytest.mark.slow  # 10-15 s in CI; the grown grids of tests/test_numbers_part_found.py stay
@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")
def test_cells_a_grown_grid_adds_are_not_settled_by_elimination() -> None:
    """Unseen seed 29085, a 3x3 at scale 0.67 and JPEG 40, located as its lower two rows: grown by a row
    below the board (the window's move counter and its background: two cells with no number, one empty),
    the top row's 4 and 8 were put in the counter's cells by parity alone, a wrong board with exit 0. A
    grown grid's added cells must be read surely; the grid grown upwards reads the board."""
    from npuzzle.render.locate import Grid
    from npuzzle.render.vision import NumbersUnreadableError, _read_numbers, read_screenshot
    from screenshots import game_screenshot, random_style

    shot = game_screenshot(random_style(29085, kind="numbers", missing_bottom_right=True))
    reading = read_screenshot(shot.image)
    assert reading.board == shot.board and reading.goal == shot.goal
    lower = reading.grid
    assert lower is not None
    below = Grid(lower.columns, dataclasses.replace(lower.rows, start=lower.rows.start + lower.rows.pitch))
    guessed = _read_numbers(shot.image, below, None, 3, 3)  # settled as before: the wrong board
    assert guessed.board != shot.board
    with pytest.raises(NumbersUnreadableError, match="not read surely"):
        _read_numbers(shot.image, below, None, 3, 3, added={6, 7, 8})


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")
def test_cells_a_grown_grid_had_are_still_settled_by_elimination() -> None:
    """Unseen seed 29160, a 6x6 located as its top five rows: grown by the row below, one cell of the five
    read as 3 or 8 is settled as the missing 8 (only the added row's cells must be read surely)."""
    from npuzzle.render.vision import read_screenshot
    from screenshots import game_screenshot, random_style

    shot = game_screenshot(random_style(29160, kind="numbers", missing_bottom_right=True))
    reading = read_screenshot(shot.image)
    assert reading.board == shot.board and reading.goal == shot.goal


@pytest.mark.slow  # 15-18 s in CI; the picture 2x2 of tests/test_jigsaw.py stays
@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")
def test_a_two_by_two_of_numbers_is_read_only_with_its_size_given() -> None:
    """Bench seed 1014 of "numbers, no reference" (a 3x3), its window doubled on a 5120x2880 desktop: the
    board's outline cut 2x2, each cell across several tiles, read as a "missing number" 2x2 (4, 1, 3 and the
    hole) and came back with exit 0. Three numbers are too little evidence that a grid is the board."""
    from npuzzle.render.locate import Axis, Grid
    from npuzzle.render.vision import NumbersUnreadableError, _read_numbers, read_screenshot
    from screenshots import game_screenshot, random_style

    shot = game_screenshot(random_style(1014, kind="numbers", missing_bottom_right=True))
    image = shot.image.resize((shot.image.width * 2, shot.image.height * 2), Image.Resampling.LANCZOS)
    x, y, w, h = (2 * v for v in shot.box)
    across = Grid(Axis(x, w / 2, w / 2 - 2, 2), Axis(y, h / 2, h / 2 - 2, 2))
    with pytest.raises(NumbersUnreadableError, match=r"--size 2x2") as refusal:
        _read_numbers(image, across, None, None, None)
    assert refusal.value.grid == across
    assert _read_numbers(image, across, None, 2, 2).board.width == 2  # a 2x2 asked for is read as one

    for seed in (1, 2):  # a true 2x2: refused alone, read right with its size
        style = random_style(seed, kind="numbers", missing_bottom_right=True)
        style.width = style.height = 2
        small = game_screenshot(style)
        with pytest.raises(NumbersUnreadableError, match=r"--size 2x2"):
            read_screenshot(small.image)
        reading = read_screenshot(small.image, 2, 2)
        assert (reading.board, reading.goal) == (small.board, small.goal)
