"""content_grid: the tiles of a grid cut back to what differs from cell to cell (a gap, shadowed or not)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from npuzzle.render.locate import Axis, Grid, content_grid
from screenshots import Look, Shot, game_screenshot, random_style

WIDE_GAP = 6.0  # pixels: a gap this wide, blurred at its two edges, still has its middle alike in every cell


def _true_grid(shot: Shot) -> Grid:
    style = shot.style
    tile, pitch = style.tile * style.scale, (style.tile + style.gap) * style.scale
    x, y = shot.box[:2]
    return Grid(Axis(x, pitch, tile, style.width), Axis(y, pitch, tile, style.height))


def _sides(grid: Grid) -> tuple[float, float, float, float]:
    c, r = grid.columns, grid.rows
    return c.start, c.start + c.tile, r.start, r.start + r.tile


def _worst_side(grid: Grid, truth: Grid) -> float:
    return max(abs(a - b) for a, b in zip(_sides(grid), _sides(truth), strict=True))


SHOTS = [game_screenshot(random_style(seed, kind="picture", looks="game")) for seed in range(55000, 55016)]
WIDE = [shot for shot in SHOTS if shot.style.gap * shot.style.scale >= WIDE_GAP]


@pytest.mark.parametrize("shot", WIDE, ids=lambda s: f"seed{s.style.seed}")
def test_a_wide_gap_taken_into_the_tiles_is_left_out(shot: Shot) -> None:
    """The true grid with each gap taken into the tile before it (as a drop shadow in the gap lets
    refine_grid do) or after it: cut back to the tiles within 2 px (the box is rounded to the pixel)."""
    truth = _true_grid(shot)
    gap = truth.columns.pitch - truth.columns.tile
    for shift in (0.0, gap):
        touching = Grid(Axis(truth.columns.start - shift, truth.columns.pitch, truth.columns.pitch, truth.width),
                        Axis(truth.rows.start - shift, truth.rows.pitch, truth.rows.pitch, truth.height))  # fmt: skip
        assert _worst_side(content_grid(shot.image, touching), truth) <= 2.0, shift


def test_some_screenshots_have_wide_gaps() -> None:
    assert len(WIDE) >= 4


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: f"seed{s.style.seed}")
def test_the_true_grid_is_never_grown_or_moved_far(shot: Shot) -> None:
    """From the true grid, tiles may lose a decoration's line alike in every cell (a border, at most 3 px),
    never grow, and the pitch stays."""
    truth = _true_grid(shot)
    found = content_grid(shot.image, truth)
    assert found.columns.pitch == truth.columns.pitch and found.rows.pitch == truth.rows.pitch
    assert found.columns.tile <= truth.columns.tile and found.rows.tile <= truth.rows.tile
    assert _worst_side(found, truth) <= 3.0


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_plain_pieces_that_touch_keep_their_grid(seed: int) -> None:
    """Plain cut pieces with no gap: no place in the pitch is alike from cell to cell, nothing is cut."""
    shot = game_screenshot(replace(random_style(seed, kind="picture"), gap=0, look=Look()))
    truth = _true_grid(shot)
    assert content_grid(shot.image, truth) == truth


def test_a_board_whose_gaps_the_grid_took_in_is_read() -> None:
    """Game looks seed 55041 (a 3x3, 6.5 px gaps, an inner light line on every tile): its grid was found with
    the gaps in the cells, so its hole did not look flat and the reading was refused; cut back, it reads."""
    from npuzzle.render.vision import read_screenshot

    shot = game_screenshot(random_style(55041, kind="picture", looks="game"))
    reading = read_screenshot(shot.image)
    assert (reading.board, reading.goal) == (shot.board, shot.goal)


def test_a_board_cropped_to_its_tiles_is_cut_back_too() -> None:
    """The screenshot cut to the board's tiles: the last cell's pitch runs past the edge, and still the gaps
    taken into the tiles are left out."""
    shot = WIDE[0]
    x, y, w, h = shot.box
    truth = _true_grid(shot).shifted(-x, -y)
    touching = Grid(replace(truth.columns, tile=truth.columns.pitch), replace(truth.rows, tile=truth.rows.pitch))
    assert _worst_side(content_grid(shot.image.crop((x, y, x + w, y + h)), touching), truth) <= 2.0
