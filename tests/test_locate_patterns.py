"""A repeating pattern in a screenshot (checks filling the hole) is not taken for the board's grid."""

from __future__ import annotations

import numpy as np
import pytest

from npuzzle.render.locate import (
    HOLE_FLAT,
    PATTERN_FLAT_CELLS,
    Axis,
    Grid,
    GridNotFoundError,
    _FlatCells,
    _repeats_a_pattern,
    _rms_spread,
    _seam_maps,
    locate_grids,
)
from npuzzle.render.vision import read_screenshot
from screenshots import game_screenshot, random_style


def _checks(side: int, step: int) -> np.ndarray:
    y, x = np.mgrid[0:side, 0:side]
    on = ((x // step + y // step) % 2 == 0)[..., None]
    return np.where(on, np.array([40, 40, 140]), np.array([130, 130, 200])).astype(np.uint8)


@pytest.mark.parametrize("seed", [59058, 59037])
def test_checks_filling_the_hole_are_not_located_as_the_board(seed: int) -> None:
    # dev "hard looks" 59058, a 3x3 whose hole holds 8x8 checks, was located as an 8x8 of the checks; 59037, a
    # 5x3, as a 3x8 of cells three checks by two: both boards were refused as pictures of those sizes
    style = random_style(seed, kind="picture", missing_bottom_right=True, looks="hard")
    assert style.look.hole_fill == "checks"
    shot = game_screenshot(style)
    grid = locate_grids(shot.image)[0]
    x, y, w, h = shot.box
    assert (grid.width, grid.height) == (style.width, style.height)
    assert np.allclose(grid.box, (x, y, x + w, y + h), atol=4)


def test_a_grid_of_the_checks_or_of_several_checks_a_cell_repeats_a_pattern() -> None:
    pixels = _checks(240, 10)
    seams = _seam_maps(pixels)
    for pitch in (10, 20, 30):  # a check a cell is flat, which _FlatCells tells
        grid = Grid(Axis(40, pitch, pitch, 4), Axis(40, pitch, pitch, 4))
        assert _repeats_a_pattern(seams, grid) == (pitch > 10)
        assert (_FlatCells(pixels).share(grid) >= PATTERN_FLAT_CELLS) == (pitch == 10)


@pytest.mark.parametrize("kind", ["picture", "numbers"])
@pytest.mark.parametrize("seed", range(3))
def test_a_board_located_in_a_game_screenshot_is_no_pattern(kind: str, seed: int) -> None:
    shot = game_screenshot(random_style(seed, kind=kind, missing_bottom_right=True))
    pixels = np.asarray(shot.image.convert("RGB"))
    x, y, w, h = shot.box
    try:
        located = locate_grids(shot.image)
    except GridNotFoundError:  # (dev 2: only a few cells' worth of its picture's lines; read on its outline)
        located = []
    for grid in located:
        if np.allclose(grid.box, (x, y, x + w, y + h), atol=4):
            assert not _repeats_a_pattern(_seam_maps(pixels), grid)
            assert _FlatCells(pixels).share(grid) < PATTERN_FLAT_CELLS


@pytest.mark.parametrize("seed", range(5))
def test_flat_cell_shares_match_a_cell_by_cell_count(seed: int) -> None:
    # the summed-area tables' twin: each cell's middle cut from the half-size screenshot and measured alone
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (157, 203, 3), dtype=np.uint8)
    for _ in range(12):  # flat patches of a few sizes, some with a little noise
        x0, y0 = rng.integers(0, 180), rng.integers(0, 140)
        side = int(rng.integers(8, 60))
        patch = pixels[y0 : y0 + side, x0 : x0 + side]
        noise = rng.integers(-int(rng.integers(1, 14)), 14, patch.shape)
        patch[...] = np.clip(rng.integers(0, 256, 3) + noise, 0, 255)
    half = pixels[::2, ::2]
    for _ in range(10):
        pitch_x, pitch_y = rng.uniform(9, 50), rng.uniform(9, 50)
        grid = Grid(Axis(rng.uniform(-3, 40), pitch_x, pitch_x * rng.uniform(0.7, 1), int(rng.integers(1, 5))),
                    Axis(rng.uniform(-3, 40), pitch_y, pitch_y * rng.uniform(0.7, 1), int(rng.integers(1, 5))))
        flat = []
        for x0, y0, x1, y1 in grid.cell_boxes():
            x0, y0, x1, y1 = x0 / 2, y0 / 2, x1 / 2, y1 / 2
            ix, iy = 0.15 * (x1 - x0), 0.15 * (y1 - y0)
            xa, xb = (min(max(round(v), 0), half.shape[1]) for v in (x0 + ix, x1 - ix))
            ya, yb = (min(max(round(v), 0), half.shape[0]) for v in (y0 + iy, y1 - iy))
            cell = half[ya:yb, xa:xb]
            flat.append(cell.size > 0 and _rms_spread(cell) < HOLE_FLAT)
        assert _FlatCells(pixels).share(grid) == pytest.approx(np.mean(flat))



def test_a_board_located_only_as_its_texture_is_read_with_a_reference_on_its_outline() -> None:
    # dev 29 of "picture, with reference": a 3x3 of 33 px terrain tiles whose only grids located are a few cells
    # of the texture, left out as a pattern; with no grid, the reference reader fits the board's outline
    style = random_style(29, kind="picture", missing_bottom_right=False)
    shot = game_screenshot(style)
    with pytest.raises(GridNotFoundError):
        locate_grids(shot.image)
    reading = read_screenshot(shot.image, reference=shot.reference)
    assert (reading.board, reading.goal) == (shot.board, shot.goal)
