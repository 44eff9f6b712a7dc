"""Undoing the decoration games draw on picture tiles (``npuzzle.render.shading``, issue 12): nothing found
on plain tiles, a known bevel and line recovered."""

from __future__ import annotations

import numpy as np
import pytest

from npuzzle.render.jigsaw import _opponent, decorated_seam_costs, seam_costs
from npuzzle.render.shading import estimate, undo
from screenshots import SAMPLE_PICTURES, sample_picture


def _tiles(seed: int, cells: int, side: int) -> np.ndarray:
    """``cells`` × ``cells`` tiles of ``side`` px cut from a random crop of a sample picture, ``(n, side,
    side, 3)`` float32 (the bottom-right one, the hole, left out)."""
    rng = np.random.default_rng(seed)
    picture = sample_picture(SAMPLE_PICTURES[seed % len(SAMPLE_PICTURES)])
    crop = int(min(picture.size) * rng.uniform(0.6, 1.0))
    x0, y0 = int(rng.integers(0, picture.width - crop + 1)), int(rng.integers(0, picture.height - crop + 1))
    pixels = np.asarray(picture.convert("RGB").resize((cells * side, cells * side), box=(x0, y0, x0 + crop, y0 + crop)),
                        dtype=np.float32)
    tiles = [pixels[r * side : (r + 1) * side, c * side : (c + 1) * side] for r in range(cells) for c in range(cells)]
    return np.stack(tiles[:-1])


def _decorated(tiles: np.ndarray, bevel: int, strength: float, line: int, colour: tuple[int, int, int]) -> np.ndarray:
    """``tiles`` with a flat raised bevel ``bevel`` px wide (top/left blended ``strength`` towards white,
    bottom/right towards black) inside a line ``line`` px wide of ``colour``, drawn as the screenshot
    generator draws them."""
    out = tiles.astype(np.float64).copy()
    side = tiles.shape[1]
    for k in range(line, line + bevel):
        for where, lit in (((slice(None), k, slice(k, side - k)), True), ((slice(None), slice(k + 1, side - k), k), True),
                           ((slice(None), side - 1 - k, slice(k + 1, side - k)), False),
                           ((slice(None), slice(k + 1, side - 1 - k), side - 1 - k), False)):
            band = out[where]
            out[where] = band + (255 - band) * strength if lit else band * (1 - strength)
    for k in range(line):
        out[:, k], out[:, side - 1 - k], out[:, :, k], out[:, :, side - 1 - k] = colour, colour, colour, colour
    return np.rint(out).astype(np.float32)


@pytest.mark.parametrize("seed", range(12))
def test_plain_tiles_are_left_as_they_are(seed: int) -> None:
    """Tiles cut straight from a picture show no decoration: the seams are exactly :func:`seam_costs`' in YCbCr."""
    rng = np.random.default_rng(100 + seed)
    tiles = _tiles(seed, int(rng.integers(3, 7)), int(rng.integers(30, 97)))
    assert estimate(tiles).plain
    rows, columns = undo(tiles, estimate(tiles))
    assert rows is tiles and columns is tiles
    for got, want in zip(decorated_seam_costs(tiles), seam_costs(_opponent(tiles)), strict=True):
        assert np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(16))
def test_a_known_bevel_and_line_are_undone(seed: int) -> None:
    """Random pictures, bevels (1..4 px, blended 0.25..0.6) and lines (none, 1 or 2 px, dark or light): the
    bevel's gain and offset are recovered, the line's positions hidden, and the undone tiles are close to the
    pictures where the bevel was (at most 0.45 of the decoration's own error; 0.36 at worst over seeds
    0-59, and 0.24 at the 90th percentile: the pictures near a side vary only roughly as further in)."""
    rng = np.random.default_rng(seed)
    side = int(rng.integers(48, 97))
    tiles = _tiles(seed, int(rng.integers(4, 7)), side)
    bevel, strength = int(rng.integers(1, 5)), float(rng.uniform(0.25, 0.6))
    line = int(rng.integers(0, 3))
    colour = (20, 10, 30) if rng.random() < 0.7 else (230, 240, 220)
    observed = _decorated(tiles, bevel, strength, line, colour)
    shading = estimate(observed)
    assert all(shading.sides)
    middle = side // 2
    for k in range(line):  # the line hides the picture on every tile
        assert shading.hidden[:, middle, k].all() and shading.hidden[:, k, middle].all()
        assert shading.hidden[:, middle, side - 1 - k].all() and shading.hidden[:, side - 1 - k, middle].all()
    for k in range(line, line + bevel):
        assert shading.gain[0, k, middle] == pytest.approx(1 - strength, abs=0.1)  # top: towards white
        assert shading.offset[0, k, middle] == pytest.approx([255 * strength] * 3, abs=30)
        assert shading.gain[0, middle, side - 1 - k] == pytest.approx(1 - strength, abs=0.1)  # right: black
        assert np.abs(shading.offset[0, middle, side - 1 - k]).max() <= 30
    rows, columns = undo(observed, shading)
    band = slice(line, line + bevel)
    inner = slice(side // 4, side - side // 4)
    for undone, view in ((rows, lambda a: a[:, inner, band]), (columns, lambda a: a[:, band, inner])):
        error = float(np.abs(view(undone) - view(tiles)).mean())
        assert error <= 24 and error <= 0.45 * float(np.abs(view(observed) - view(tiles)).mean())
