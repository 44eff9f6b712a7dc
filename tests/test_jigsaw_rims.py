"""Picture tiles a game decorates (bevels, border lines): seams weighed on the picture, not the decoration
(issue 12, render/jigsaw.py ``decoration_rims``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PIL import Image

from npuzzle.render import jigsaw
from npuzzle.solvability import is_solvable_homes
from screenshots import sample_picture

TILE = 64  # pixels: the drawn tiles' side
BEVEL = 4  # pixels: each bevel edge's width (a game's 1/16 of the tile)
LIGHT, DARK = (255.0, 255.0, 255.0), (40.0, 40.0, 40.0)


def _pieces(width: int, height: int, picture: str = "grace_hopper") -> list[np.ndarray]:
    """The picture cut into ``width`` x ``height`` tiles of :data:`TILE` pixels, home order."""
    full = np.asarray(sample_picture(picture).resize((width * TILE, height * TILE), Image.Resampling.LANCZOS))
    return [full[r * TILE : (r + 1) * TILE, c * TILE : (c + 1) * TILE].copy()
            for r in range(height) for c in range(width)]  # fmt: skip


def _bevelled(piece: np.ndarray, bevel: int = BEVEL, border: tuple[int, int, int] | None = None) -> np.ndarray:
    """``piece`` drawn as a raised tile: its top and left ``bevel`` pixels blended half with white, its bottom
    and right ones half with dark grey; ``border``: a one-pixel line of that colour all round."""
    face = piece.astype(np.float64)
    face[:bevel] = face[:bevel] * 0.5 + np.array(LIGHT) * 0.5
    face[:, :bevel] = face[:, :bevel] * 0.5 + np.array(LIGHT) * 0.5
    face[-bevel:] = face[-bevel:] * 0.5 + np.array(DARK) * 0.5
    face[:, -bevel:] = face[:, -bevel:] * 0.5 + np.array(DARK) * 0.5
    if border is not None:
        face[[0, -1]] = border
        face[:, [0, -1]] = border
    return face.astype(np.uint8)


def _scrambled(width: int, height: int, seed: int) -> tuple[list[int], int, int]:
    """A solvable deal: ``(homes, hole, missing)``, ``homes[cell]`` the home of the tile shown in ``cell``
    (-1 at the hole), the hole's home bottom-right."""
    n = width * height
    missing = n - 1
    rng = random.Random(seed)
    while True:
        homes = [*range(n - 1), -1]
        rng.shuffle(homes)
        if is_solvable_homes(homes, width, missing) and homes != [*range(n - 1), -1]:
            return homes, homes.index(-1), missing


def _assembled(width: int, height: int, seed: int, **decoration: object) -> tuple[jigsaw.Assembly, list[int]]:
    """The bevelled deal of ``seed`` reassembled as the reader does (three cuts; here one, cut exactly)."""
    pieces = _pieces(width, height)
    homes, hole, missing = _scrambled(width, height, seed)
    cells = [np.zeros((TILE, TILE, 3), np.uint8) if home < 0 else _bevelled(pieces[home], **decoration)  # type: ignore[arg-type]
             for home in homes]  # fmt: skip
    tiles = jigsaw.tile_arrays(cells)

    def solvable(h: tuple[int, ...]) -> bool:
        return is_solvable_homes(h, width, missing)

    return jigsaw.assemble(tiles, width, height, hole, missing, solvable=solvable), homes


# -- the rims ----------------------------------------------------------------------------------------------


def test_plain_tiles_have_no_rims() -> None:
    for picture in ("grace_hopper", "jacksboro"):
        tiles = jigsaw.tile_arrays(_pieces(4, 4, picture))
        assert jigsaw.decoration_rims(tiles) == (0, 0, 0, 0)


@pytest.mark.parametrize("border", [None, (20, 20, 20), (235, 235, 235)])
def test_bevel_rims_are_found_on_every_side(border: tuple[int, int, int] | None) -> None:
    tiles = jigsaw.tile_arrays([_bevelled(p, border=border) for p in _pieces(4, 4)])
    # tile_arrays trims TRIM_PX at every edge; the rim's inner edge may blur over one more pixel
    for rim in jigsaw.decoration_rims(tiles):
        assert BEVEL - jigsaw.TRIM_PX <= rim <= BEVEL - jigsaw.TRIM_PX + 1


def test_a_stripe_on_one_tile_is_no_rim() -> None:
    """The picture's own edges lie where they lie on each tile: a strong line on a few tiles (here a third)
    at the same depth is not the game's decoration."""
    pieces = _pieces(3, 3)
    for piece in pieces[:3]:
        piece[:, 5] = (255, 0, 0)
    assert jigsaw.decoration_rims(jigsaw.tile_arrays(pieces)) == (0, 0, 0, 0)


def test_opposite_sides_take_the_deeper_rim() -> None:
    """A bevel's dark edges on a dark picture step softly: a rim found on one side is the opposite one's too."""
    pieces = [p.copy() for p in _pieces(4, 4)]
    for piece in pieces:  # a shadow line inside the right and bottom edges only
        piece[:, -BEVEL:] = (piece[:, -BEVEL:] * 0.3).astype(np.uint8)
        piece[-BEVEL:] = (piece[-BEVEL:] * 0.3).astype(np.uint8)
    left, right, top, bottom = jigsaw.decoration_rims(jigsaw.tile_arrays(pieces))
    assert left == right >= BEVEL - jigsaw.TRIM_PX
    assert top == bottom >= BEVEL - jigsaw.TRIM_PX


def test_seam_costs_on_plain_tiles_are_unchanged() -> None:
    tiles = jigsaw.tile_arrays(_pieces(4, 4))
    found, plain = jigsaw.seam_costs(tiles), jigsaw.seam_costs(tiles, rims=(0, 0, 0, 0))
    for a, b in zip(found, plain, strict=True):
        np.testing.assert_array_equal(a, b)


def _first_choices(lr: np.ndarray, tb: np.ndarray, width: int, height: int) -> int:
    """How many true neighbours (tiles in home order) are each other's cheapest match on that side."""
    n = width * height
    right = sum(int(np.argmin(lr[k]) == k + 1) for k in range(n) if k % width + 1 < width)
    below = sum(int(np.argmin(tb[k]) == k + width) for k in range(n) if k + width < n)
    return right + below


@pytest.mark.parametrize("border", [None, (20, 20, 20)])
def test_seams_beyond_the_rims_find_the_true_neighbours(border: tuple[int, int, int] | None) -> None:
    tiles = jigsaw.tile_arrays([_bevelled(p, border=border) for p in _pieces(4, 4)])
    seams = 2 * 4 * 3
    beyond = _first_choices(*jigsaw.seam_costs(tiles), 4, 4)
    across = _first_choices(*jigsaw.seam_costs(tiles, rims=(0, 0, 0, 0)), 4, 4)
    # on the decoration every light edge looks alike and every dark one: hardly any true neighbour first
    assert across <= seams // 4
    assert beyond >= 3 * seams // 4


# -- whole reassemblies ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "seed", "border"), [
    (3, 3, 1, None), (3, 3, 2, (20, 20, 20)), (4, 3, 3, None), (4, 4, 4, (235, 235, 235)),
])  # fmt: skip
def test_bevelled_tiles_reassemble_with_a_margin(
    width: int, height: int, seed: int, border: tuple[int, int, int] | None
) -> None:
    got, homes = _assembled(width, height, seed, border=border)
    assert list(got.homes) == homes
    assert got.margin >= 0.35  # the reader's LONE_MARGIN: sure on the first seam measure alone
    assert got.buddies >= 0.5  # the reader's MIN_BUDDIES
