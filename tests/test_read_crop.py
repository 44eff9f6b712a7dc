"""A screenshot read with the board's place (``crop``), and its size or not, as a refusal's advice asks: a crop
to the tiles alone (no gap or frame round them) is read on the tiles, not on a few cells' worth of the
picture's own lines located inside it, and not on an even split whose cells take in the gaps between tiles."""

from __future__ import annotations

import pytest

from npuzzle.render.vision import _layouts, read_screenshot
from screenshots import Style, game_screenshot


def _gapped(seed: int, picture: str) -> Style:
    """A 3x3 picture board with gaps of 10 px between its tiles (6 px scaled by 1.7)."""
    return Style(width=3, height=3, kind="picture", picture=picture, tile=90, gap=6, frame=4, margin=8,
                 hole="background", scale=1.7, jpeg=70, seed=seed)  # fmt: skip


@pytest.mark.parametrize(
    ("seed", "picture"),
    # (1, jacksboro) was refused, its rows located with 1 px gaps in the crop's context where they are 10 px
    # (an expected failure); by session 66 it reads right (slow: CI keeps the other five)
    [(seed, picture) for seed in (0, 1, 2) for picture in ("grace_hopper", "jacksboro") if (seed, picture) != (1, "jacksboro")]
    + [pytest.param(1, "jacksboro", marks=pytest.mark.slow)],
)
@pytest.mark.parametrize("size", [3, None])
def test_a_crop_to_the_tiles_is_read(seed: int, picture: str, size: int | None) -> None:
    shot = game_screenshot(_gapped(seed, picture))
    reading = read_screenshot(shot.image, size, size, crop=shot.box)
    assert reading.board == shot.board and reading.goal == shot.goal
    assert reading.grid is not None
    x0, y0, x1, y1 = reading.grid.box  # on the tiles: within a couple of pixels of the box given
    x, y, w, h = shot.box
    assert max(abs(x0 - x), abs(y0 - y), abs(x1 - x - w), abs(y1 - y - h)) <= 3


def test_grids_located_around_a_crop_take_in_most_of_it() -> None:
    shot = game_screenshot(_gapped(0, "jacksboro"))
    x, y, w, h = shot.box
    pad = 10  # the crop is read with a little of the screenshot round it
    around = shot.image.crop((x - pad, y - pad, x + w + pad, y + h + pad))
    grids, _ = _layouts(around, 3, 3, exact=False, board=(pad, pad, w, h))
    for grid in grids:
        x0, y0, x1, y1 = grid.box
        inside = max(0, min(x1, pad + w) - max(x0, pad)) * max(0, min(y1, pad + h) - max(y0, pad))
        assert inside >= 0.5 * w * h
    # the first grid read cuts the tiles with the gaps between them, not an even split taking them in
    assert 8 <= grids[0].columns.gap <= 12 and 8 <= grids[0].rows.gap <= 12
