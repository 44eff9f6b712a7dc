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


@pytest.fixture(scope="module")
def striped():  # type: ignore[no-untyped-def]
    """Unseen seed 52013: a 3x3 with a striped hole, and its grid."""
    from npuzzle.render.vision import read_screenshot
    from screenshots import game_screenshot, random_style

    style = random_style(52013, kind="numbers", looks="hard")
    assert style.look.hole_fill == "stripes"
    shot = game_screenshot(style)
    grid = read_screenshot(shot.image).grid
    assert grid is not None
    return shot, grid


def test_a_patterned_hole_beside_a_tile_not_read_surely_is_read(
    striped, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    """Bench 1053 and 1085 ("numbers, hard looks"): the striped hole read as no number and one tile's two
    looks disagreeing (read as 11, or 18, by one look only). The hole is still the one cell whose rim is
    unlike every face, and the tile is settled by elimination as beside an empty hole; they were refused as
    "no empty cell". With that tile read as nothing at all, or a second tile not read surely, they still are."""
    import dataclasses

    from npuzzle.render import ocr
    from npuzzle.render.ocr import NumberReading
    from npuzzle.render.vision import NumbersUnreadableError, _read_numbers, _with_patterned_hole

    shot, grid = striped
    tiles = shot.board.tiles
    hole, tile, other = tiles.index(0), tiles.index(5), tiles.index(7)
    numbers = tuple(None if c in (hole, tile) else v for c, v in enumerate(tiles))
    candidates = tuple((5,) if c == tile else () if c == hole else (v,) for c, v in enumerate(tiles))
    got = NumberReading(numbers, tuple(0.0 if c in (hole, tile) else 1.0 for c in range(9)), (), candidates)
    found = _with_patterned_hole(shot.image, grid, got)
    assert found.empty == (hole,)
    monkeypatch.setattr(ocr, "read_numbers", lambda cells: got)
    reading = _read_numbers(shot.image, grid, None, None, None)
    assert reading.board == shot.board and reading.goal == shot.goal
    unread = tuple(() if c == tile else v for c, v in enumerate(candidates))
    blank = dataclasses.replace(got, candidates=unread)
    two = dataclasses.replace(got, numbers=tuple(None if c == other else v for c, v in enumerate(numbers)))
    for doubtful in (blank, two):
        assert _with_patterned_hole(shot.image, grid, doubtful) == doubtful
        monkeypatch.setattr(ocr, "read_numbers", lambda cells, doubtful=doubtful: doubtful)
        with pytest.raises(NumbersUnreadableError, match="no empty cell"):
            _read_numbers(shot.image, grid, None, None, None)
