"""Undoing the decoration a game draws on every picture tile (issue 12), before their seams are weighed.

:func:`npuzzle.render.jigsaw.decorated_seam_costs` is its one user: :func:`~npuzzle.render.jigsaw.assemble`
weighs every reading's seams through it.

Games draw picture tiles raised (a light band along the top and left sides, a dark one along the bottom
and right, flat or fading inwards), with a line round each tile, an inner highlight line or rounded
corners. Each of these is drawn at the same place on every tile, and each blends the picture towards a
colour: white or black for a bevel or a highlight, the line's colour for a line, the board's background
past a rounded corner. So the decoration is a transform of each pixel position shared by all the tiles,
``observed = gain(position) · true + offset(position)`` per channel (gain 0 where the picture is hidden).

Estimate (:func:`estimate`). A bevel or a line depends only on the side it runs along and the distance
from it (its depth), so positions are pooled by side and depth, away from the corners. The pictures near a
side are assumed to vary like those a little further in (:data:`REFERENCE` depths), across all the tiles:
at each depth, the gain is the ratio of the colours' spread there to the reference's and the offset what
then remains of their mean. A side whose every depth matches the reference within :data:`GAIN_TOLERANCE`
and :data:`OFFSET_TOLERANCE` (widened for boards of few tiles, :data:`FEW_TILES`) counts as undecorated,
and unless :data:`MIN_SIDES` sides are decorated nothing is, and the tiles are left exactly as they are:
so were all of 150 random plain cuts like the tests', and 38 of the 39 cuts of the 13 plain dev
screenshots among seeds 0-49 (seed 33's cut half a pixel off, whose top and left rows show the gap, was
not). A line round a tile falls a pixel further in or out on a tile cut a pixel narrower or wider than the
others, so lines are found tile by tile: a row that barely varies along the side (:data:`LINE_FLOOR` of
its tile's reference rows, or :data:`LINE_RATIO` of the other tiles' ratio there) is hidden on that tile
and left out of the pooled estimate. In the corners each position takes the transform of its nearer side
(as bevels and lines are drawn), and a position that barely varies across tiles (a rounded corner's
background) is marked hidden.

Undo (:func:`undo`). ``true = (observed − offset) / gain`` where the gain is at least :data:`MIN_GAIN`;
the hidden positions nearer a side take the nearest visible colour further in, along the row for the
left/right seams and along the column for the top/bottom ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

DEPTH_SHARE = 0.09  # depths estimated: up to this share of the side (bevels reach 4 %, a highlight ~5 %)
MIN_DEPTHS = 3  # ... and at least this many
REFERENCE = 3  # the reference band: this many depths just past the estimated ones
CORNER_SHARE = 0.16  # positions this share of the side from a corner are pooled apart (rounded corners reach 12 %)
GAIN_TOLERANCE = 0.15  # a depth whose gain is within this of 1 ...
OFFSET_TOLERANCE = 0.45  # ... and whose mean is within this many reference spreads of the reference's is plain
MIN_GAIN = 0.3  # a gain below this hides the picture: the position is filled from further in
HIDDEN_SPREAD = 0.3  # a corner position varying across tiles less than this share of its side's is hidden
FEW_TILES = 15  # boards of fewer tiles have both tolerances widened by sqrt(FEW_TILES / tiles)
MIN_SIDES = 2  # a decoration shows on at least this many sides (a side alone off by chance is no decoration)
LINE_FLOOR = 0.3  # a tile's row varying along the side less than this share of its reference rows is hidden, ...
LINE_RATIO = 0.6  # ... or less than this share of the other tiles' median ratio there
MIN_SPREAD = 6.0  # ... if its reference rows vary at least this much (0..255, summed over channels)


@dataclass(frozen=True)
class Shading:
    """A decoration's transform of ``n`` ``(side, side)`` tiles: ``gain`` ``(n, side, side)``, ``offset``
    ``(n, side, side, 3)``, ``hidden`` ``(n, side, side)`` bool (positions that show no picture). ``sides``:
    per side (top, bottom, left, right) whether it is decorated; ``lined`` ``(4, n, depths)``: each tile's
    rows near each side that a line hides (a line falls a pixel further in or out on a tile cut a pixel
    narrower or wider than the others)."""

    gain: np.ndarray
    offset: np.ndarray
    hidden: np.ndarray
    sides: tuple[bool, bool, bool, bool]
    lined: np.ndarray

    @property
    def plain(self) -> bool:
        """No decoration found: :func:`undo` changes nothing."""
        return not any(self.sides)

    def of(self, tile: int) -> Shading:
        """The decoration of tile ``tile`` alone (to undo on that tile shown otherwise)."""
        return Shading(self.gain[tile : tile + 1], self.offset[tile : tile + 1], self.hidden[tile : tile + 1],
                       self.sides, self.lined[:, tile : tile + 1])  # fmt: skip


def _side_views(tiles: np.ndarray) -> list[np.ndarray]:
    """``tiles`` (``(n, side, side, 3)``) seen from each side: top, bottom, left, right, each ``(n, depth,
    along, 3)`` with depth 0 at that side (views, not copies)."""
    return [tiles, tiles[:, ::-1], tiles.transpose(0, 2, 1, 3), tiles.transpose(0, 2, 1, 3)[:, ::-1]]


def _pooled(means: np.ndarray, squares: np.ndarray, visible: np.ndarray, ref_mean: np.ndarray,
            ref_spread: float) -> tuple[np.ndarray, np.ndarray]:
    """A side's gains ``(depths,)`` and offsets ``(depths, 3)`` from the tiles' row means and mean squares
    (``(n, rows, 3)``) over their ``visible`` rows (``(n, depths)``), against the reference band's colour mean
    and spread (gain 0 where fewer than two tiles show the row)."""
    import numpy as np

    depths = visible.shape[1]
    gains = np.zeros(depths)
    offsets = np.zeros((depths, 3))
    for d in range(depths):
        if visible[:, d].sum() < 2:
            continue
        m = means[visible[:, d], d].mean(axis=0)
        v = np.maximum(squares[visible[:, d], d].mean(axis=0) - m**2, 0.0)
        gains[d] = float(np.sqrt(v.sum())) / ref_spread
        offsets[d] = m - gains[d] * ref_mean
    return gains, offsets


def estimate(tiles: np.ndarray) -> Shading:
    """The decoration shared by ``tiles`` (``(n, side, side, 3)`` float, the hole left out), as
    ``observed = gain · true + offset`` per position (see the module docstring)."""
    import numpy as np

    n, side = tiles.shape[0], tiles.shape[1]
    depths = max(MIN_DEPTHS, int(np.ceil(DEPTH_SHARE * side)))
    corner = max(depths, int(np.ceil(CORNER_SHARE * side)))
    lined = np.zeros((4, n, depths), dtype=bool)
    identity = Shading(np.ones((n, side, side)), np.zeros((n, side, side, 3)), np.zeros((n, side, side), dtype=bool),
                       (False, False, False, False), lined)
    if n < 4 or side < 2 * corner + 4 or depths + REFERENCE + 1 > side // 2:
        return identity
    data = tiles.astype(np.float64)
    rows_needed = depths + REFERENCE
    loose = max(1.0, float(np.sqrt(FEW_TILES / n)))  # few tiles: their statistics wander further by chance
    found = []  # per side: its rows (n, rows, along, 3) and the reference's mean and spread, if decorated
    for view in _side_views(data):
        middle = view[:, :rows_needed, corner : side - corner]  # (n, rows, along, 3)
        ref = middle[:, depths:].reshape(-1, 3)
        ref_mean = ref.mean(axis=0)
        ref_spread = float(np.sqrt(ref.var(axis=0).sum()))
        if ref_spread < 1e-6:
            found.append(None)
            continue
        band = middle[:, :depths].transpose(1, 0, 2, 3).reshape(depths, -1, 3)
        gains = np.sqrt(band.var(axis=1).sum(axis=1)) / ref_spread
        moved = np.sqrt(((band.mean(axis=1) - ref_mean) ** 2).sum(axis=1)) / ref_spread
        plain = np.all(np.abs(gains - 1) <= GAIN_TOLERANCE * loose) and np.all(moved <= OFFSET_TOLERANCE * loose)
        found.append(None if plain else (middle, ref_mean, ref_spread))
    if sum(f is not None for f in found) < MIN_SIDES:
        return identity
    profiles: list[tuple[np.ndarray, np.ndarray] | None] = []
    for s, side_found in enumerate(found):
        if side_found is None:
            profiles.append(None)
            continue
        middle, ref_mean, ref_spread = side_found
        means, squares = middle.mean(axis=2), (middle**2).mean(axis=2)  # (n, rows, 3)
        # each tile's rows that a line hides: far less varied along the side than its reference rows, either
        # outright or against the other tiles' rows there (a line a pixel off its place on this tile)
        spreads = np.sqrt(middle.var(axis=2).sum(axis=2))  # (n, rows)
        inner = spreads[:, depths:].mean(axis=1)  # (n,)
        varied = inner >= MIN_SPREAD
        if varied.sum() >= 2:
            ratios = spreads[:, :depths] / np.maximum(inner, 1e-9)[:, None]  # (n, depths)
            typical = np.median(ratios[varied], axis=0)  # (depths,)
            lined[s] = varied[:, None] & ((ratios < LINE_FLOOR) | (ratios < LINE_RATIO * typical[None]))
        gains, offsets = _pooled(means, squares, ~lined[s], ref_mean, ref_spread)
        profiles.append((gains, offsets))
    # each position takes its nearer side's transform at its depth (ties: top/bottom first, as bevels are drawn)
    y, x = np.mgrid[0:side, 0:side]
    distance = np.stack([y, side - 1 - y, x, side - 1 - x])  # (4, side, side)
    nearest = distance.argmin(axis=0)
    depth = distance.min(axis=0)
    gain = np.ones((n, side, side))
    offset = np.zeros((n, side, side, 3))
    hidden = np.zeros((n, side, side), dtype=bool)
    for s, profile in enumerate(profiles):
        if profile is None:
            continue
        gains, offsets = profile
        at = (nearest == s) & (depth < depths)
        gain[:, at] = gains[depth[at]]
        offset[:, at] = offsets[depth[at]]
        hidden[:, at] = lined[s][:, depth[at]] | (gains[depth[at]] < MIN_GAIN)[None]
    # corners: a position that barely varies across tiles shows the background, not the picture
    in_corner = (np.minimum(y, side - 1 - y) < corner) & (np.minimum(x, side - 1 - x) < corner)
    spread = np.sqrt(data.var(axis=0).sum(axis=2))  # (side, side): across the tiles
    inside = ~in_corner & (depth >= depths)
    usual = float(np.median(spread[inside]))
    hidden |= (in_corner & (spread < HIDDEN_SPREAD * usual))[None]
    return Shading(gain, offset, hidden, tuple(p is not None for p in profiles), lined)  # type: ignore[arg-type]


def undo(tiles: np.ndarray, shading: Shading) -> tuple[np.ndarray, np.ndarray]:
    """``tiles`` (``(n, side, side, 3)``) with ``shading`` undone: ``(for_rows, for_columns)``, the hidden
    positions filled from further in along each row (for the left/right seams) and along each column (for
    the top/bottom ones). Plain shading returns ``tiles`` itself twice."""
    import numpy as np

    if shading.plain:
        return tiles, tiles
    gain = np.maximum(shading.gain, MIN_GAIN)
    true = (tiles.astype(np.float64) - shading.offset) / gain[..., None]
    true = np.clip(true, 0.0, 255.0).astype(tiles.dtype)
    side = tiles.shape[1]
    half = side // 2
    rows, columns = true.copy(), true.copy()
    hidden = shading.hidden
    for x in range(half - 1, -1, -1):  # left half: from the middle out, take the next column in where hidden
        rows[:, :, x] = np.where(hidden[:, :, x, None], rows[:, :, x + 1], rows[:, :, x])
    for x in range(side - half, side):
        rows[:, :, x] = np.where(hidden[:, :, x, None], rows[:, :, x - 1], rows[:, :, x])
    for y in range(half - 1, -1, -1):
        columns[:, y] = np.where(hidden[:, y, :, None], columns[:, y + 1], columns[:, y])
    for y in range(side - half, side):
        columns[:, y] = np.where(hidden[:, y, :, None], columns[:, y - 1], columns[:, y])
    return rows, columns


__all__ = ["Shading", "estimate", "undo"]
