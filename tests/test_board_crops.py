"""No grid the locator offers runs past the image's edge, and a cell that does is read as far as it shows."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from npuzzle.render import locate
from npuzzle.render.vision import cell_features
from screenshots import game_screenshot, random_style


def _board_only(seed: int, with_reference: bool, pad: int = 0) -> tuple[Image.Image, object]:
    """Dev screenshot ``seed`` of "picture, with reference" or "no reference" cut to its board's box (``pad``
    pixels round it), and the shot."""
    shot = game_screenshot(random_style(seed, kind="picture", missing_bottom_right=not with_reference))
    x, y, w, h = shot.box
    return shot.image.crop((x - pad, y - pad, x + w + pad, y + h + pad)), shot


@pytest.mark.parametrize("seed", range(4))
def test_no_located_grid_runs_past_the_image(seed: int) -> None:
    # a progression one tile longer than its lines ran past the edge of a board cut with 3 px round it (every
    # one of dev seeds 0-11 had such grids), and a reference reader matching it failed on the image's bounds
    image, _ = _board_only(seed, True, pad=3)
    for _, grid in locate._scored_grids(image, None, None):
        x0, y0, x1, y1 = grid.box
        assert x0 >= -1 and y0 >= -1 and x1 <= image.width + 1 and y1 <= image.height + 1


def test_cells_past_the_image_are_read_as_far_as_they_show() -> None:
    image = Image.new("RGB", (50, 40), (10, 200, 30))
    features = cell_features(image, 2, 1, boxes=[(0, 0, 25, 40), (25, 0, 75, 60)], side=4)
    assert features.shape == (2, 4 * 4 * 3) and np.isfinite(features).all()
