"""Boards whose gaps differ by a pixel or two from one row or column to the next (the hard look "uneven"):
each row and column of tiles followed on its own (snapped_grid), never a grid of even gaps moved off."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from npuzzle.render.locate import Axis, Grid, snapped_grid
from screenshots import Shot, game_screenshot, random_style


def test_an_axis_places_each_tile_at_its_own_offset() -> None:
    axis = Axis(10.0, 50.0, 45.0, 3, offsets=(0.0, 2.0, -1.5))
    assert [axis.span(j) for j in range(3)] == [(10.0, 55.0), (62.0, 107.0), (108.5, 153.5)]
    assert (axis.first, axis.end) == (10.0, 153.5)
    assert Grid(axis, axis).box == (10.0, 10.0, 153.5, 153.5)
    # an axis of another count (grown, cut short) has no offsets of its own: tiles evenly spaced
    assert replace(axis, count=4).span(3) == (160.0, 205.0)


def _even_fit(starts: np.ndarray, tile: float) -> Axis:
    """The evenly spaced axis closest to tiles starting at ``starts`` (least squares)."""
    pitch, start = np.polyfit(np.arange(len(starts)), starts, 1)
    return Axis(float(start), float(pitch), tile, len(starts))


def _even_grid(shot: Shot) -> Grid:
    cells, width = np.array(shot.cells), shot.style.width
    tile = shot.style.tile * shot.style.scale
    return Grid(_even_fit(cells[:width, 0], tile), _even_fit(cells[::width, 1], tile))


def _worst(grid: Grid, shot: Shot) -> float:
    return float(np.abs(np.array(grid.cell_boxes()) - np.array(shot.cells)).max())


UNEVEN = [game_screenshot(random_style(seed, kind="picture", looks="hard:uneven")) for seed in range(140, 170)]
EVEN = [game_screenshot(random_style(seed, kind="picture", looks="game")) for seed in range(130, 150)]


def test_tiles_are_followed_where_the_gaps_are_uneven() -> None:
    """From the even grid closest to the true cells, every tile moved onto its own sides: no screenshot's
    worst cell further off (JPEG and scaling blur a side over a pixel), and the worst cells closer in all."""
    before = np.array([_worst(_even_grid(shot), shot) for shot in UNEVEN])
    after = np.array([_worst(snapped_grid(shot.image, _even_grid(shot)), shot) for shot in UNEVEN])
    assert np.all(after <= before + 0.25), (before, after)
    assert after.mean() <= before.mean() - 0.1, (before.mean(), after.mean())
    assert after.max() <= before.max() - 0.5, (before.max(), after.max())


@pytest.mark.parametrize("shot", EVEN, ids=lambda s: f"seed{s.style.seed}")
def test_tiles_evenly_spaced_are_left_where_they_are(shot: Shot) -> None:
    truth = _even_grid(shot)
    assert snapped_grid(shot.image, truth) == truth

