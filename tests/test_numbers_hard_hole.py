"""Numbered tiles whose hole is filled with a pattern (stripes, checks, noise: ``look.hole_fill``), issue 12.
The pattern's ink left no cell empty, and the reading was refused ("found no empty cell"): 10 of the 11
refusals of "numbers, hard looks" 1000-1099 in session 44. The hole is now the one cell whose leaving out
leaves every number once and whose rim is unlike every tile's flat face."""

from __future__ import annotations

import shutil

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")


@pytest.mark.parametrize("seed", [174, 19])  # dev seeds: a 3x3 with a checked hole, one with a striped hole
def test_a_patterned_hole_is_taken_for_the_hole(seed: int) -> None:
    from npuzzle.render.vision import read_screenshot
    from screenshots import game_screenshot, random_style

    style = random_style(seed, kind="numbers", looks="hard")
    assert style.look.hole_fill in ("checks", "stripes")
    shot = game_screenshot(style)
    reading = read_screenshot(shot.image)
    assert reading.board == shot.board and reading.goal == shot.goal


def test_the_hole_must_be_the_one_cell_left_and_unlike_the_tiles() -> None:
    """On dev 174's grid, readings made up of its cells: the true one finds the checked hole; with the
    pattern read as a number already on a tile (two cells could be the hole), or with a tile's cell taken
    as the only cell not read (its face is flat), nothing is changed and the reading is refused as before."""
    import dataclasses

    from npuzzle.render.locate import locate_grid
    from npuzzle.render.ocr import NumberReading
    from npuzzle.render.vision import _with_patterned_hole
    from screenshots import game_screenshot, random_style

    shot = game_screenshot(random_style(174, kind="numbers", looks="hard"))
    grid = locate_grid(shot.image, 3, 3)
    tiles = shot.board.tiles
    hole = tiles.index(0)
    numbers = tuple(None if v == 0 else v for v in tiles)
    got = NumberReading(numbers, (1.0,) * 9, ())
    found = _with_patterned_hole(shot.image, grid, got)
    assert found.empty == (hole,) and found.numbers == numbers
    twice = dataclasses.replace(got, numbers=tuple(tiles[(hole + 1) % 9] if c == hole else v for c, v in enumerate(numbers)))
    assert _with_patterned_hole(shot.image, grid, twice) == twice
    tile = (hole + 1) % 9  # a tile's cell not read, the hole read as that tile's number
    swapped = tuple(None if c == tile else tiles[tile] if c == hole else v for c, v in enumerate(numbers))
    other = dataclasses.replace(got, numbers=swapped)
    assert _with_patterned_hole(shot.image, grid, other) == other
