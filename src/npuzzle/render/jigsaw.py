"""Reassembling a picture puzzle from its own tiles, with no reference picture (issue 12).

Input: the tiles cut from a located grid of ``width`` × ``height`` cells (one cell is the hole) and the
hole's home cell in the solved picture (default the bottom-right). Output (:class:`Assembly`): for each
screenshot cell the home cell of the tile it shows, with confidences and the evidence the reading rests on.

Method
    *Seams* (:func:`seam_costs`). Each tile is trimmed by a few pixels at every side (gaps, anti-aliased
    borders, a grid found one pixel off) and resampled to a common size. For tile ``i`` left of tile ``j``
    the colour at the (trimmed-away) seam is predicted from both sides by continuing each side's gradient
    (the prediction-based compatibility of Pomeranz, Shemesh & Ben-Shahar 2011); the dissimilarity is the
    mean over the seam of a robust (square-root) distance between the two predictions, averaged with the raw
    colour step. Top/bottom seams likewise. With ``gradient``, Gallagher's 2012 Mahalanobis gradient
    compatibility (:func:`_gradient_costs`) is added, scaled to the same typical seam: on exact grids it puts
    more true neighbours first, but on a grid a few pixels off it can make a wrong arrangement look sure, so
    the reader uses it only as a second witness (``npuzzle.render.vision._witnessed_on``).
    *Decoration* (:func:`decorated_seam_costs`). Games draw the same bevel, line, highlight or rounded
    corners on every tile, and at a seam that decoration, not the picture, is what two tiles share: a dark
    band meets a light one whatever the pictures do. :mod:`npuzzle.render.shading` estimates it from all
    the tiles as a per-position blend (``observed = gain · true + offset``) and undoes it before the seams
    are weighed, filling the positions a line or a corner hides from further in; tiles where no decoration
    is found are weighed exactly as before. Then the tiles' colours are weighed as brightness and two colour
    differences (:func:`_opponent`), not as red, green and blue: what a decoration leaves behind after
    undoing is mostly brightness, which RGB counts three times over.
    *Shaded tiles* (:func:`_shades`). A game may show one or two tiles lighter or darker as a whole (under
    the pointer, selected). Such a tile meets every neighbour with a step and fits nowhere well; undone by
    the right strength its best matches on most sides get much cheaper and take it as their best match in
    turn, which an unshaded tile's, already meeting its neighbours, do not. Such tiles are put back before
    any decoration is estimated and the seams are weighed. A shaded tile can instead pass for another part
    of the picture (flat sky a shade lighter lower down) and fit a wrong place well as it is; a reading is
    therefore also weighed against its 3-cycles with a few tiles taken as shaded and put back
    (:func:`shade_suspects`, :func:`shaded_rival_margin`), the reading allowed the same.
    *Placement* (:func:`assemble`). The board's size is known, so every cell but the hole's home takes one
    tile. Boards of up to :data:`EXHAUSTIVE_PIECES` pieces (3×3, 2×4) weigh every arrangement. Larger ones
    run a beam search that fills the cells in raster order (and in the three mirrored orders), each partial
    arrangement scored by the sum of the seams it has closed; the best complete arrangements are then
    improved by swapping pairs of tiles while the total seam cost falls. A beam that went one cell off
    early lays a whole block of the picture out consistently but shifted, which no exchange of two tiles
    repairs: the best arrangement is also tried translated by one cell in each direction, the tiles pushed
    off the board put back greedily (:func:`_shifted`), and improved again. The improving walks and the
    totals of many arrangements run compiled (:mod:`npuzzle._kernels.jigsaw`: a neighbour is weighed by the
    seams it changes, not rebuilt whole); their NumPy forms (``_improve_reference``, ``_totals_reference``) are the twins the
    tests hold them to.
    *Solvability* (``solvable``). A game shows only boards that can reach its goal, and that is a matter of
    the permutation's parity. Given the test, only solvable arrangements are answers: an unsolvable best is
    repaired by its cheapest exchanges, and arrangements are then improved and weighed against each other by
    the changes that keep the parity (3-cycles, two exchanges, turned runs). Two look-alike tiles (flat sky,
    a dark edge) are then told apart by the parity: their exchange is never a rival.
    *Evidence*. ``seam_ratio``: mean seam cost of the arrangement over the median cost of all tile pairs
    (a right reassembly has seams far better than chance; a wrong grid or a picture with no detail does
    not). ``buddies``: the share of the arrangement's seams whose two tiles are each other's best match
    (best buddies, Pomeranz 2011). ``margin``: how much the best other arrangement weighed (every one on
    small boards; else the changes above, a strip of a row or column turned round, and the beam's
    runner-up) costs more, in units of the typical seam; per-cell confidence likewise per cell.
    ``relative_margin``: the same rise with each seam's cost taken relative to its two tiles' next-best
    matches on that side (as the beam search weighs them, Paikin & Tal 2015), summed over the seams: a
    distinctive seam (a stripe running on into one tile only) counts for much even where the picture's
    typical seam is far costlier, a seam between look-alike tiles for little. Seam costs may be averaged
    over several cuts of the same cells, so that no answer hangs on where a pixel falls.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Sequence

    import numpy as np

    from .shading import Shading

SIDE = 24  # pixels: tiles are resampled to at least SIDE × SIDE after trimming ...
MAX_SIDE = 96  # ... and at most MAX_SIDE × MAX_SIDE (else their own size)
TRIM_SHARE = 0.0  # share of a tile's side trimmed at every edge, plus TRIM_PX
TRIM_PX = 1  # pixels trimmed at every edge on top of TRIM_SHARE (gap edges blur over about a pixel)
DEEPER = 2  # pixels: each side is also read this much further in
ALONG = 9  # pixels: each side's colours are averaged over this many along the seam before seams are weighed
EDGE_DEPTH = 3 + DEEPER  # columns of each side the seam costs look at
BEAM = 3000  # partial arrangements kept per step of the beam search
CONFIDENCE_SCALE = 0.5  # cost rise (in typical-seam units) at which a cell's confidence is 0.5
FORBIDDEN = 1e9  # cost of using a tile twice
SHIFT_ROUNDS = 2  # rounds of trying the best arrangement shifted by one cell
EVEN_SWAPS = 40  # cheapest single exchanges paired into double ones (parity-keeping changes)
REPAIR_FROM = 3  # unsolvable candidates turned solvable by their cheapest exchanges ...
REPAIR_SWAPS = 4  # ... this many each
EVEN_IMPROVED = 6  # solvable arrangements improved within their parity class
CYCLE_PIECES = 40  # 3-cycles weighed among at most this many tiles (all tiles up to a 6x6; 8.6 GB on a 15x15)
EXHAUSTIVE_PIECES = 8  # boards of up to this many pieces (3x3, 2x4) weigh every arrangement (8! = 40,320)


@dataclass(frozen=True)
class Assembly:
    """A reassembled picture.

    ``homes[cell]``: the home cell (0-based) of the tile the screenshot shows in ``cell``, ``-1`` at the
    hole. ``missing``: the hole's home cell. ``cost``: total seam cost. ``seam_ratio``, ``buddies``,
    ``margin``, ``relative_margin``, ``confidence``: the evidence (see the module docstring); ``uncertain``:
    screenshot cells whose tile a near-equal arrangement places elsewhere.
    """

    homes: tuple[int, ...]
    hole: int
    missing: int
    cost: float
    seam_ratio: float
    buddies: float
    margin: float
    confidence: tuple[float, ...]
    uncertain: tuple[int, ...]
    relative_margin: float
    border_margin: float = float("inf")


def tile_arrays(cells: list[np.ndarray], trim: float = TRIM_SHARE, side: int | None = None) -> np.ndarray:
    """``(n, side, side, 3)`` float32 tiles (0..255): each cell image (``(h, w, 3)`` uint8) trimmed by
    ``trim`` of its side plus :data:`TRIM_PX` at every edge and resampled to ``side`` × ``side``."""
    import numpy as np
    from PIL import Image

    if side is None:  # the tiles' own resolution (trimmed), within SIDE..MAX_SIDE
        native = float(np.median([min(c.shape[:2]) for c in cells]))
        side = int(min(MAX_SIDE, max(SIDE, native * (1 - 2 * trim) - 2 * TRIM_PX)))
    out = np.empty((len(cells), side, side, 3), dtype=np.float32)
    for k, cell in enumerate(cells):
        h, w = cell.shape[:2]
        tx, ty = w * trim + TRIM_PX, h * trim + TRIM_PX
        image = Image.fromarray(cell)
        out[k] = np.asarray(
            image.resize((side, side), Image.Resampling.BILINEAR, box=(tx, ty, w - tx, h - ty)),
            dtype=np.float32,
        )
    return out


def _side_costs(a_side: np.ndarray, b_side: np.ndarray, gradient: bool = False) -> np.ndarray:
    """``(n, n)`` dissimilarities of tile ``i``'s right side against tile ``j``'s left side: ``a_side[i]`` the
    last :data:`EDGE_DEPTH` columns of tile i (``(n, rows, EDGE_DEPTH, 3)``, outermost last), ``b_side[j]``
    the first ones of tile j (outermost first). Each side is read at its edge and again
    :data:`DEEPER` pixels further in, and the best of the four pairings counts: a cell cut a pixel or two
    too wide (a gap's or frame's stripe along one side) still meets its neighbour cleanly. ``gradient``: the
    Mahalanobis gradient compatibility (:func:`_gradient_costs`) is added, scaled to the same typical seam."""
    import numpy as np

    out, _ = _side_costs_scaled(a_side, b_side, gradient)
    np.fill_diagonal(out, FORBIDDEN)
    return out


def _side_costs_scaled(
    a_side: np.ndarray, b_side: np.ndarray, gradient: bool, gradient_scale: float | None = None
) -> tuple[np.ndarray, float | None]:
    """``(m, k)`` :func:`_side_costs` of ``a_side``'s ``m`` right sides against ``b_side``'s ``k`` left sides (the
    diagonal not forbidden), and the scale the gradient compatibility was weighed by: ``gradient_scale``, or
    when None (``a_side`` and ``b_side`` the same tiles' sides) the one that puts its typical seam on the
    first measure's."""
    import numpy as np

    out = np.full((a_side.shape[0], b_side.shape[0]), np.inf)
    for da in (0, DEEPER):
        for db in (0, DEEPER):
            cost = _predicted_costs(a_side, b_side, da, db)
            if gradient:
                gradients = _gradient_costs(a_side[:, :, -2 - da : a_side.shape[2] - da], b_side[:, :, db:])
                if gradient_scale is None:  # both measures in units of their typical seam, fixed once
                    off = ~np.eye(len(cost), dtype=bool)
                    gradient_scale = float(np.median(cost[off])) / max(1e-9, float(np.median(gradients[off])))
                cost = cost + gradient_scale * gradients
            out = np.minimum(out, cost)
    return out, gradient_scale


def _predicted_costs(a_side: np.ndarray, b_side: np.ndarray, da: int, db: int) -> np.ndarray:
    """``(m, k)``: :func:`_side_costs`' prediction-based measure of each of ``a_side``'s ``m`` right sides,
    read ``da`` pixels in, against each of ``b_side``'s ``k`` left sides read ``db`` pixels in."""
    last, inner_a = a_side[:, :, -1 - da], a_side[:, :, -3 - da]
    pred_a = last + (last - inner_a) / 2 * (1 + da)  # the gradient continued to the seam
    first, inner_b = b_side[:, :, db], b_side[:, :, 2 + db]
    pred_b = first + (first - inner_b) / 2 * (1 + db)
    if a_side.shape[0] > b_side.shape[0]:  # one side against all the others: the loop runs over the fewer
        return _predicted_costs_of(pred_b, first, pred_a, last).T
    return _predicted_costs_of(pred_a, last, pred_b, first)


def _predicted_costs_of(pred_a: np.ndarray, last: np.ndarray, pred_b: np.ndarray, first: np.ndarray) -> np.ndarray:
    """``(m, k)``: :func:`_predicted_costs` from the sides' predictions and edge colours (``(m or k, rows, 3)``;
    the measure is symmetric in its two sides)."""
    import numpy as np

    cost = np.empty((pred_a.shape[0], pred_b.shape[0]))
    chunk = max(1, PAIR_ROWS // max(1, pred_b.shape[0] * pred_b.shape[1]))  # sides of a weighed at once
    for i in range(0, pred_a.shape[0], chunk):
        diff = np.abs(pred_a[i : i + chunk, None] - pred_b[None])  # (chunk, k, rows, 3)
        step = np.abs(last[i : i + chunk, None] - first[None])
        cost[i : i + chunk] = (np.sqrt(diff.sum(axis=3)).mean(axis=2) + np.sqrt(step.sum(axis=3)).mean(axis=2)) / 2
    return cost


PAIR_ROWS = 40_000  # pairs of side rows weighed in one array (about 0.5 MB each of its few temporaries)
GRADIENT_PRIOR = 4.0  # (0..255)^2: added to each side's gradient variances (flat sides, JPEG noise)


def _gradient_costs(a_side: np.ndarray, b_side: np.ndarray) -> np.ndarray:
    """``(n, n)`` Mahalanobis gradient compatibility (Gallagher 2012) of tile ``i``'s right side with tile
    ``j``'s left side: the colour change across the seam, ``first(j) - last(i)`` per row, weighed against
    the changes tile ``i`` shows just inside its side (their mean and colour covariance), and likewise from
    ``j``'s side; the mean over rows of the two distances. Sides are ``(n, rows, depth >= 2, 3)``, ``a_side``
    outermost last, ``b_side`` outermost first. A seam is judged by how each tile itself changes colour
    near its side, not by one fixed notion of a smooth step (a textured side tolerates larger changes)."""
    import numpy as np

    last, inner_a = a_side[:, :, -1].astype(np.float64), a_side[:, :, -2].astype(np.float64)
    first, inner_b = b_side[:, :, 0].astype(np.float64), b_side[:, :, 1].astype(np.float64)
    prior = GRADIENT_PRIOR * np.eye(3)

    def statistics(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # (n, rows, 3) -> mean, inverse cov
        mean = g.mean(axis=1)
        centred = g - mean[:, None]
        cov = np.einsum("nrc,nrd->ncd", centred, centred) / g.shape[1] + prior
        return mean, np.linalg.inv(cov)

    mean_a, inv_a = statistics(last - inner_a)  # rightward changes near i's right side
    mean_b, inv_b = statistics(inner_b - first)  # rightward changes near j's left side (same direction)
    across = first[None, :, :, :] - last[:, None, :, :]  # (i, j, rows, 3): the change across the seam
    da = across - mean_a[:, None, None, :]
    db = across - mean_b[None, :, None, :]
    dist_a = np.einsum("ijrc,icd,ijrd->ijr", da, inv_a, da)
    dist_b = np.einsum("ijrc,jcd,ijrd->ijr", db, inv_b, db)
    return np.sqrt(dist_a).mean(axis=2) + np.sqrt(dist_b).mean(axis=2)  # type: ignore[no-any-return]


def _along(side: np.ndarray, window: int) -> np.ndarray:
    """``side`` (``(n, rows, depth, 3)``) with each pixel the mean of ``window`` rows centred on it (the edge
    rows repeated beyond the ends)."""
    import numpy as np

    if window <= 1:
        return side
    padded = np.pad(side, ((0, 0), (window // 2 + 1, window - 1 - window // 2), (0, 0), (0, 0)), mode="edge")
    sums = np.cumsum(padded, axis=1, dtype=np.float64)
    return (sums[:, window:] - sums[:, :-window]) / window  # type: ignore[no-any-return]


def seam_costs(tiles: np.ndarray, gradient: bool = False, along: int = ALONG) -> tuple[np.ndarray, np.ndarray]:
    """``(lr, tb)``: ``lr[i, j]`` the cost of tile ``i`` just left of tile ``j``, ``tb[i, j]`` of ``i`` just
    above ``j`` (``(n, n)`` float64; the diagonal is :data:`FORBIDDEN`). ``gradient``: with the gradient
    compatibility added (:func:`_side_costs`). ``along``: pixels averaged along each seam first
    (:data:`ALONG`): JPEG noise, which is alike on every side of a dark or flat tile, then weighs less than
    the slow changes of shade that do tell such tiles apart. Chosen on the exact grids of 147 dev screenshots
    (windows 1/5/9/15: sure and right readings 105/108/112/113, the first measure's best the true picture
    127/129/132/128 times); whole reads of dev seeds 0-799 went from 705 to 724 right, of unseen seeds
    30800-31199 from 354 to 362, none wrong; but unseen 31577 was then read wrong, so it lands only with the
    reader's MIN_BUDDIES rule and loose doubt (unseen 30800-31999: 1080 right of 1200, none wrong).
    ``inner_seam_ratio`` keeps ``along=1``."""
    return _lr_costs(tiles, gradient, along), _lr_costs(tiles.transpose(0, 2, 1, 3), gradient, along)


def _lr_costs(tiles: np.ndarray, gradient: bool, along: int) -> np.ndarray:
    """:func:`seam_costs`' ``lr`` matrix of ``tiles`` (transposed tiles give its ``tb``)."""
    return _side_costs(*_lr_sides(tiles, along), gradient)


def _lr_sides(tiles: np.ndarray, along: int) -> tuple[np.ndarray, np.ndarray]:
    """``tiles``' right and left sides as :func:`_lr_costs` weighs them (:data:`EDGE_DEPTH` deep, smoothed
    ``along`` the seam)."""
    return _along(tiles[:, :, -EDGE_DEPTH:, :], along), _along(tiles[:, :, :EDGE_DEPTH, :], along)


def decorated_seam_costs(tiles: np.ndarray, gradient: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """:func:`seam_costs` of ``tiles`` (the hole left out) with the decoration a game draws on every tile
    undone first (:mod:`npuzzle.render.shading`: bevels, lines, rounded corners), the left/right seams on
    tiles whose hidden positions are filled along the rows, the top/bottom ones along the columns. Any tile
    the game shows darker or lighter as a whole is put back first (:func:`_shades`: a shaded tile's
    decoration is shaded too, and then differs from every other tile's). Tiles with no decoration and no
    such shade found get exactly :func:`seam_costs`."""
    from .shading import estimate

    tiles = _unshaded(tiles)
    return _undecorated_costs(*_undecorated(tiles, estimate(tiles)), gradient)


def _undecorated(tiles: np.ndarray, shading: Shading) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, columns)``: ``tiles`` in :func:`_opponent` colours with the decoration ``shading`` undone
    (:func:`npuzzle.render.shading.undo`), the hidden positions filled along the rows and along the columns."""
    from .shading import undo

    if shading.plain:
        plain = _opponent(tiles)
        return plain, plain
    rows, columns = undo(tiles, shading)
    return _opponent(rows), _opponent(columns)


def _undecorated_costs(rows: np.ndarray, columns: np.ndarray, gradient: bool) -> tuple[np.ndarray, np.ndarray]:
    """:func:`seam_costs` of tiles :func:`_undecorated`: ``lr`` from ``rows``, ``tb`` from ``columns``."""
    return _lr_costs(rows, gradient, ALONG), _lr_costs(columns.transpose(0, 2, 1, 3), gradient, ALONG)


SHADE_STRENGTHS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4)  # whole tiles shown darker (times 1 - s) or lighter
# (s of the way to white): a tile under the pointer or selected, as games show one
SHADED_FIT = 0.8  # a tile is taken as shaded when, undone, its best matches cost this share of before or less ...
SHADED_SIDES = 3  # ... and at least this many of its four sides' best matches are cheaper
SHADED_MUTUAL = 2  # ... and at least this many of those best matches then have it as their best match too
SHADE_MIN_PIECES = 12  # among fewer pieces a look-alike is too often a tile's best match on most sides by chance
SHADE_CANDIDATES = 4  # tiles tried: those fitting worst, ...
SHADE_SUSPECT = 1.1  # ... their best matches costing this many times the median tile's or more
SHADE_ROWS = 3  # every this many rows along a seam read to weigh a shade


def _shade_versions(tile: np.ndarray) -> np.ndarray:
    """``(2 · len(SHADE_STRENGTHS), side, side, 3)``: ``tile`` with each darkening, then each lightening,
    of :data:`SHADE_STRENGTHS` undone."""
    import numpy as np

    strengths = np.asarray(SHADE_STRENGTHS, dtype=np.float32)[:, None, None, None]
    darker = np.clip(tile[None] / (1 - strengths), 0, 255)
    lighter = np.clip(255 - (255 - tile[None]) / (1 - strengths), 0, 255)
    return np.concatenate([darker, lighter]).astype(np.float32)  # type: ignore[no-any-return]


def _shade_sides(tiles: np.ndarray) -> tuple[np.ndarray, ...]:
    """``tiles``' (RGB) right, left, bottom and top sides as :func:`seam_costs` weighs them (in
    :func:`_opponent` colours, smoothed :data:`ALONG` along the seam), every :data:`SHADE_ROWS` th row along
    it: enough to see a whole tile's shade, which changes every row alike."""
    tiles = _opponent(tiles)
    columns = tiles.transpose(0, 2, 1, 3)
    return tuple(_along(part, ALONG)[:, ::SHADE_ROWS]
                 for part in (tiles[:, :, -EDGE_DEPTH:], tiles[:, :, :EDGE_DEPTH],
                              columns[:, :, -EDGE_DEPTH:], columns[:, :, :EDGE_DEPTH]))  # fmt: skip


def _matches(a_side: np.ndarray, b_side: np.ndarray) -> np.ndarray:
    """``(m, k)``: :func:`_predicted_costs` of each right side in ``a_side`` against each left side in
    ``b_side``, the best of the pairings :func:`_side_costs` reads."""
    import numpy as np

    return np.minimum.reduce([_predicted_costs(a_side, b_side, da, db) for da in (0, DEEPER) for db in (0, DEEPER)])  # type: ignore[no-any-return]


def _unshaded(tiles: np.ndarray) -> np.ndarray:
    """``tiles`` with each tile :func:`_shades` finds put back (a copy; ``tiles`` itself if none is found)."""
    shades = _shades(tiles)
    if not shades:
        return tiles
    out = tiles.copy()
    for t, version in shades.items():
        out[t] = _shade_versions(tiles[t])[version]
    return out


def _shades(tiles: np.ndarray) -> dict[int, int]:
    """The tiles of ``tiles`` (RGB, the hole left out) the game shows darker or lighter as a whole, each
    with the version of :func:`_shade_versions` that puts it back:
    a shaded tile meets its true neighbours with a step all round, so it fits badly everywhere; undone by
    the right strength (:data:`SHADE_STRENGTHS`) its best matches get much cheaper on most sides
    (:data:`SHADED_FIT`, :data:`SHADED_SIDES`), while an unshaded tile's, already meeting its neighbours,
    do not. A cell foreign to the picture (a patterned hole taken for a piece) may fit better darkened too,
    but not as its neighbours' best match in turn (:data:`SHADED_MUTUAL`), as the shaded piece does; and
    such a cell (a flat colour darkened towards a dark part of the picture) fits better the more it is
    changed, where a shaded piece has one strength that puts it back: a tile that fits best at the
    strongest shade tried is left as it is. Only the :data:`SHADE_CANDIDATES` tiles whose best matches cost
    most, and :data:`SHADE_SUSPECT` times the median tile's, are tried."""
    import numpy as np

    n = len(tiles)
    if n < SHADE_MIN_PIECES:
        return {}
    right, left, bottom, top = _shade_sides(tiles)
    lr, tb = _matches(right, left), _matches(bottom, top)
    np.fill_diagonal(lr, np.inf)
    np.fill_diagonal(tb, np.inf)
    as_is = np.stack([lr.min(axis=1), lr.min(axis=0), tb.min(axis=1), tb.min(axis=0)], axis=1)
    totals = as_is.sum(axis=1)
    worst = [int(t) for t in np.argsort(-totals)[:SHADE_CANDIDATES] if totals[t] > SHADE_SUSPECT * np.median(totals)]
    found = {}
    for t in worst:
        mine = _shade_sides(_shade_versions(tiles[t]))
        others = np.nonzero(np.arange(n) != t)[0]
        matches = [_matches(mine[0], left[others]), _matches(right[others], mine[1]).T,
                   _matches(mine[2], top[others]), _matches(bottom[others], mine[3]).T]  # fmt: skip
        costs = np.stack([side.min(axis=1) for side in matches], axis=1)  # (versions, 4)
        best = int(np.argmin(costs.sum(axis=1)))
        if best % len(SHADE_STRENGTHS) == len(SHADE_STRENGTHS) - 1:  # the strongest shade tried: see above
            continue
        if costs[best].sum() > SHADED_FIT * totals[t] or int((costs[best] < as_is[t]).sum()) < SHADED_SIDES:
            continue
        # each side's best match, seen from that tile's facing side: is the undone tile its best match too?
        mutual = 0
        facings = (lr[:, others].T, lr[others], tb[:, others].T, tb[others])
        for side, facing in zip(matches, facings, strict=True):
            partner = int(np.argmin(side[best]))
            seen = facing[partner].copy()
            seen[t] = side[best, partner]
            mutual += int(np.argmin(seen)) == t
        if mutual >= SHADED_MUTUAL:
            found[t] = best
    return found


SHADE_SUSPECTS = 3  # tiles taken as shaded that the full seam measures weigh, for each of two reasons (below)


def _cycles_through(arrangement: np.ndarray, home: int) -> np.ndarray:
    """Every 3-cycle of ``arrangement`` (tile per home cell, -1 at the hole's home) that moves the tile of
    ``home``: ``(k, cells)``, each cycle in both directions."""
    import numpy as np

    others = np.flatnonzero(arrangement >= 0)
    others = others[others != home]
    b, c = np.meshgrid(others, others, indexing="ij")
    keep = b != c
    b, c = b[keep], c[keep]
    out = np.repeat(arrangement[None], len(b), axis=0)
    rows = np.arange(len(b))
    out[rows, b] = arrangement[home]
    out[rows, c] = arrangement[b]
    out[rows, home] = arrangement[c]
    return out  # type: ignore[no-any-return]


def _laid(homes: Sequence[int], hole: int) -> tuple[np.ndarray, list[int]]:
    """``(arrangement, pieces)``: the tile (piece index) per home cell of the reading ``homes`` (as
    :attr:`Assembly.homes`), -1 at the hole's home, and the screenshot cell of each piece."""
    import numpy as np

    pieces = [c for c in range(len(homes)) if c != hole]
    arrangement = np.full(len(homes), -1, dtype=np.int64)
    for piece, cell in enumerate(pieces):
        arrangement[homes[cell]] = piece
    return arrangement, pieces


def _with_rows(lr: np.ndarray, tb: np.ndarray, piece: int, rows: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``lr``, ``tb`` with the seams of ``piece`` replaced by ``rows`` (its right, left, bottom and top sides'
    costs against every piece) and every other seam kept."""
    shaded_lr, shaded_tb = lr.copy(), tb.copy()
    shaded_lr[piece], shaded_lr[:, piece] = rows[0], rows[1]
    shaded_tb[piece], shaded_tb[:, piece] = rows[2], rows[3]
    shaded_lr[piece, piece] = shaded_tb[piece, piece] = FORBIDDEN
    return shaded_lr, shaded_tb


def shade_suspects(
    tiles: np.ndarray, width: int, height: int, hole: int, homes: Sequence[int], count: int = SHADE_SUSPECTS
) -> tuple[list[tuple[int, int]], float]:
    """Tiles of the reading ``homes`` (as :attr:`Assembly.homes`, the hole at cell ``hole``; ``tiles``
    ``(cells, side, side, 3)``, one cut) worth weighing as shown lighter or darker as a whole
    (:func:`shaded_rival_margin`), each ``(cell, version)`` of :func:`_shade_versions`: the ``count`` whose tile,
    put back, best fits a 3-cycle of the reading (against the reading as it is or with the tile put back,
    whichever costs less), and the ``count`` whose tile, put back, most lowers the reading's own cost; and the
    least rise in typical seams of such a 3-cycle over the reading (negative: some tile put back fits another
    arrangement better). Weighed quickly, as :func:`_shades` weighs shades (one cut, no decoration undone,
    every :data:`SHADE_ROWS` th row): only a ranking of what is worth the full measures."""
    import numpy as np

    arrangement, pieces = _laid(homes, hole)
    right, left, bottom, top = _shade_sides(tiles[pieces].astype(np.float32))
    lr, tb = _matches(right, left), _matches(bottom, top)
    np.fill_diagonal(lr, FORBIDDEN)
    np.fill_diagonal(tb, FORBIDDEN)
    scale = _typical_seam(lr, tb)
    laid = list(arrangement)
    base = _total(laid, lr, tb, width, height)
    rivals, owns = [], []
    for piece, cell in enumerate(pieces):
        cycles = _cycles_through(arrangement, int(np.flatnonzero(arrangement == piece)[0]))
        mine = _shade_sides(_shade_versions(tiles[cell].astype(np.float32)))
        sides = (_matches(mine[0], left), _matches(right, mine[1]).T, _matches(mine[2], top), _matches(bottom, mine[3]).T)
        rival, own = (np.inf, 0), (np.inf, 0)
        for version in range(len(sides[0])):
            shaded_lr, shaded_tb = _with_rows(lr, tb, piece, [side[version] for side in sides])
            reading = _total(laid, shaded_lr, shaded_tb, width, height)
            best = float(_totals(cycles, shaded_lr, shaded_tb, width, height).min(initial=np.inf))
            rival = min(rival, ((best - min(base, reading)) / scale, version))
            own = min(own, (reading - base, version))
        rivals.append((rival[0], cell, rival[1]))
        owns.append((own[0], cell, own[1]))
    suspects = [(cell, version) for _, cell, version in sorted(rivals)[:count] + sorted(owns)[:count]]
    return list(dict.fromkeys(suspects)), float(min(rival for rival, _, _ in rivals))


def _shaded_sides(
    cuts: np.ndarray, hole: int, gradient: bool, suspects: Sequence[tuple[int, int]]
) -> list[tuple[np.ndarray, ...]]:
    """For each of ``suspects`` (``(cell, version)``), the seam costs of that cell's tile put back by shade
    ``version`` (:func:`_shade_versions`) as :func:`_piece_seam_costs` weighs them (every cut of ``cuts``, the
    decoration estimated from the tiles as shown undone): its right, left, bottom and top sides against every
    piece, each ``(pieces,)``."""
    import numpy as np

    from .shading import estimate

    pieces = [c for c in range(cuts.shape[1]) if c != hole]
    sums = [[np.zeros(len(pieces)) for _ in range(4)] for _ in suspects]

    for cut in cuts:
        tiles = _unshaded(cut[pieces].astype(np.float32))
        shading = estimate(tiles)
        rows, columns = _undecorated(tiles, shading)
        every = (_lr_sides(rows, ALONG), _lr_sides(columns.transpose(0, 2, 1, 3), ALONG))  # left/right, then top/bottom
        scales = [_side_costs_scaled(*pair, gradient)[1] if gradient else None for pair in every]
        for sums_of, (cell, version) in zip(sums, suspects, strict=True):
            piece = pieces.index(cell)
            put_back = _shade_versions(cut[cell].astype(np.float32))[version][None]
            one_rows, one_columns = _undecorated(put_back, shading.of(piece))
            for k, (one, (a_side, b_side), scale) in enumerate(
                zip((_lr_sides(one_rows, ALONG), _lr_sides(one_columns.transpose(0, 2, 1, 3), ALONG)), every, scales,
                    strict=True)
            ):
                sums_of[2 * k] += _side_costs_scaled(one[0], b_side, gradient, scale)[0][0]
                sums_of[2 * k + 1] += _side_costs_scaled(a_side, one[1], gradient, scale)[0][:, 0]
    return [tuple(side / len(cuts) for side in sums_of) for sums_of in sums]


def shaded_rival_margin(
    cuts: np.ndarray, width: int, height: int, hole: int, homes: Sequence[int], suspects: Sequence[tuple[int, int]],
    gradient: bool = False,
) -> float:  # fmt: skip
    """In typical seams, how far the reading ``homes`` (as :attr:`Assembly.homes`, the hole at cell ``hole``)
    stays ahead of its 3-cycles once tiles of ``suspects`` (``(cell, version)``, :func:`shade_suspects`) are
    taken as shown lighter or darker as a whole and put back, weighed as :func:`assemble` weighs (every cut of
    ``cuts``, the decoration undone, measure ``gradient``). The reading is weighed with at most two suspects'
    tiles put back, the two that lower its cost most; each rival, a 3-cycle that moves a suspect's tile put
    back, with at most one other suspect's tile put back too (a game shows one or two tiles shaded). Negative:
    a shaded tile fits another place better than the reading fits any way. A tile a game shows lighter can
    look like a lighter part of the picture (flat sky: fresh "hard looks" seed 60471, whose top-right sky
    piece, lightened, was read two cells down in a 3-cycle); :func:`_shades` finds such a tile only when it
    fits nowhere as it is."""
    import numpy as np

    arrangement, pieces = _laid(homes, hole)
    laid = list(arrangement)
    cuts = cuts if cuts.ndim == 5 else cuts[None]
    lr, tb = _piece_seam_costs(cuts, hole, gradient)
    worlds = [
        (pieces.index(cell), *_with_rows(lr, tb, pieces.index(cell), sides))
        for (cell, _), sides in zip(suspects, _shaded_sides(cuts, hole, gradient, suspects), strict=True)
    ]  # fmt: skip
    base = _total(laid, lr, tb, width, height)
    gains: dict[int, float] = {}  # per piece: how much its best put-back version lowers the reading's cost
    for piece, shaded_lr, shaded_tb in worlds:
        gains[piece] = min(gains.get(piece, 0.0), _total(laid, shaded_lr, shaded_tb, width, height) - base)
    reading = base + sum(sorted(gains.values())[:2])
    best = np.inf
    for piece, shaded_lr, shaded_tb in worlds:
        cycles = _cycles_through(arrangement, int(np.flatnonzero(arrangement == piece)[0]))
        plain = _totals(cycles, lr, tb, width, height)
        other_gain = np.zeros(len(cycles))
        for other, other_lr, other_tb in worlds:
            if other != piece:
                other_gain = np.minimum(other_gain, _totals(cycles, other_lr, other_tb, width, height) - plain)
        best = min(best, float((_totals(cycles, shaded_lr, shaded_tb, width, height) + other_gain).min(initial=np.inf)))
    return (best - reading) / _typical_seam(lr, tb)


def _opponent(tiles: np.ndarray) -> np.ndarray:
    """``tiles`` (``(..., 3)`` RGB) as brightness and two colour differences (JPEG's YCbCr, without its
    offsets: seams weigh differences). A seam's cost sums its channels' differences, so in RGB a change of
    brightness counts about thrice, once in each channel, and a change of colour about once; and what a bevel,
    a highlight or a shadow leaves after :mod:`~npuzzle.render.shading` is undone is mostly brightness. On
    recorded reassemblies (the cuts of reads of "picture, game looks" dev seeds 0-58, 1000-1039 and
    51000-51049, and of "picture, no reference" 1000-1049) the share of true seams joining mutual best
    matches rose from 0.68 / 0.69 / 0.65 / 0.81 to 0.73 / 0.73 / 0.69 / 0.82."""
    import numpy as np

    matrix = np.array([[0.299, 0.587, 0.114], [-0.168736, -0.331264, 0.5], [0.5, -0.418688, -0.081312]], dtype=np.float32)
    return (tiles @ matrix.T).astype(np.float32)  # type: ignore[no-any-return]


def inner_seam_ratio(tiles: np.ndarray, parts: int) -> float:
    """How well each tile meets itself: every tile of ``tiles`` (``(n, side, side, 3)``) cut into ``parts`` ×
    ``parts`` pieces, the median seam cost (:func:`seam_costs`) between pieces side by side within a tile,
    over the median cost of every pair of pieces. A tile of one picture meets itself smoothly (0.33 in the
    median over dev seeds 0-399's true tiles, at most 0.66); a cell that holds several tiles of a scrambled
    board meets itself where they meet, about as badly as unrelated pieces do."""
    import numpy as np

    n, side = tiles.shape[0], tiles.shape[1] // parts
    pieces = np.stack([tiles[t, r * side : (r + 1) * side, c * side : (c + 1) * side]
                       for t in range(n) for r in range(parts) for c in range(parts)])  # fmt: skip
    lr, tb = seam_costs(pieces, along=1)  # (calibrated unsmoothed: pieces of a small tile are few pixels)
    off = ~np.eye(len(pieces), dtype=bool)
    typical = float(np.median(np.concatenate([lr[off], tb[off]])))
    first = np.arange(len(pieces)).reshape(n, parts, parts)
    within = np.concatenate([lr[first[:, :, :-1].ravel(), first[:, :, 1:].ravel()],
                             tb[first[:, :-1, :].ravel(), first[:, 1:, :].ravel()]])  # fmt: skip
    return float(np.median(within)) / max(typical, 1e-9)


def best_seams(tiles: np.ndarray) -> np.ndarray:
    """``(n,)``: each tile's best seam (:func:`seam_costs`) with any other tile of ``tiles`` (``(n, side, side,
    3)``) on any of its four sides, in typical seams (the median cost of every pair). A piece of the picture
    meets at least one other piece well; a cell foreign to the picture (a hole drawn with a gradient, checks
    or stripes) meets none: its best seam stands out against the median tile's."""
    import numpy as np

    lr, tb = seam_costs(tiles)
    typical = _typical_seam(lr, tb)
    best = np.minimum.reduce([lr.min(axis=1), lr.min(axis=0), tb.min(axis=1), tb.min(axis=0)])  # (diagonal FORBIDDEN)
    return best / typical  # type: ignore[no-any-return]


def _normalised(cost: np.ndarray) -> np.ndarray:
    """``cost`` relative to each tile's second-best match on that side (Paikin & Tal 2015): a seam only
    a little better than a tile's other options counts as weak evidence, one far better as strong."""
    import numpy as np

    second_row = np.partition(cost, 1, axis=1)[:, 1:2]
    second_col = np.partition(cost, 1, axis=0)[1:2, :]
    out = cost / (second_row + 1e-6) + cost / (second_col + 1e-6)
    np.fill_diagonal(out, FORBIDDEN)
    return out  # type: ignore[no-any-return]


def _relations(width: int, height: int, order: list[int]) -> list[list[tuple[int, int, int]]]:
    """For each step of ``order`` (cells), the already-filled neighbours: ``(step of the neighbour, kind,
    side)`` with kind 0 = left/right seam, 1 = top/bottom; side 0 when the neighbour is left of/above the
    cell, 1 when right of/below it."""
    step_of = {cell: k for k, cell in enumerate(order)}
    out = []
    for k, cell in enumerate(order):
        r, c = divmod(cell, width)
        rel = []
        for dr, dc, kind, side in ((0, -1, 0, 0), (0, 1, 0, 1), (-1, 0, 1, 0), (1, 0, 1, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                other = rr * width + cc
                if other in step_of and step_of[other] < k:
                    rel.append((step_of[other], kind, side))
        out.append(rel)
    return out


def _beam(
    lr: np.ndarray, tb: np.ndarray, width: int, height: int, order: list[int], beam: int
) -> tuple[np.ndarray, np.ndarray]:
    """Beam search filling ``order`` (cells) with distinct tiles: ``(states, costs)``, states ``(B, len(order))``
    tiles per step, best first (compiled:
    :func:`npuzzle._kernels.jigsaw.beam`; :func:`_beam_reference` is its twin)."""
    import numpy as np

    from .._kernels.jigsaw import beam as compiled_beam

    relations = _relations(width, height, order)
    table = np.zeros((len(order), 4, 3), dtype=np.int64)
    counts = np.zeros(len(order), dtype=np.int64)
    for k, rel in enumerate(relations):
        counts[k] = len(rel)
        if rel:
            table[k, : len(rel)] = rel
    return compiled_beam(  # type: ignore[no-any-return]
        np.ascontiguousarray(lr, dtype=np.float64), np.ascontiguousarray(tb, dtype=np.float64), table, counts, beam
    )


def _beam_reference(
    lr: np.ndarray, tb: np.ndarray, width: int, height: int, order: list[int], beam: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_beam` in NumPy: each step keeps the ``beam`` cheapest extensions (among equal costs the
    earlier, parent by parent), in the order they were made; the last step's are sorted, best first."""
    import numpy as np

    n = lr.shape[0]
    relations = _relations(width, height, order)
    states = np.arange(n, dtype=np.int64)[:, None]
    costs = np.zeros(n)
    used = np.eye(n, dtype=bool)
    for k in range(1, len(order)):
        add = np.zeros((len(states), n))
        for step, kind, side in relations[k]:
            matrix = lr if kind == 0 else tb
            nb = states[:, step]
            add += matrix[nb] if side == 0 else matrix[:, nb].T
        total = costs[:, None] + add
        total[used] = np.inf
        flat = total.ravel()
        keep = min(beam, int(np.isfinite(flat).sum()))
        pick = np.sort(np.argsort(flat, kind="stable")[:keep])
        parent, tile = np.divmod(pick, n)
        states = np.concatenate([states[parent], tile[:, None]], axis=1)
        costs = flat[pick]
        used = used[parent].copy()
        used[np.arange(len(pick)), tile] = True
    order = np.argsort(costs, kind="stable")
    return states[order], costs[order]


def _total(arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int) -> float:
    """Seam cost of ``arrangement`` (tile per home cell, -1 at the hole's home)."""
    total = 0.0
    for cell, tile in enumerate(arrangement):
        if tile < 0:
            continue
        r, c = divmod(cell, width)
        if c + 1 < width and arrangement[cell + 1] >= 0:
            total += lr[tile, arrangement[cell + 1]]
        if r + 1 < height and arrangement[cell + width] >= 0:
            total += tb[tile, arrangement[cell + width]]
    return total


def _seams(arrangement: list[int], width: int, height: int) -> list[tuple[int, int, int]]:
    """``(kind, tile_a, tile_b)`` for every seam of ``arrangement``: kind 0 a left of b, 1 a above b."""
    out = []
    for cell, tile in enumerate(arrangement):
        if tile < 0:
            continue
        r, c = divmod(cell, width)
        if c + 1 < width and arrangement[cell + 1] >= 0:
            out.append((0, tile, arrangement[cell + 1]))
        if r + 1 < height and arrangement[cell + width] >= 0:
            out.append((1, tile, arrangement[cell + width]))
    return out


def _seam_cells(width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(left, right, top, bottom)``: the cells of every left/right and top/bottom pair of neighbours."""
    import numpy as np

    cells = np.arange(width * height).reshape(height, width)
    return (cells[:, :-1].ravel(), cells[:, 1:].ravel(), cells[:-1].ravel(), cells[1:].ravel())


def _totals(arrangements: np.ndarray, lr: np.ndarray, tb: np.ndarray, width: int, height: int) -> np.ndarray:
    """:func:`_total` of each row of ``arrangements`` (``(k, width * height)``, -1 at the hole's home) at once
    (compiled: :func:`npuzzle._kernels.jigsaw.totals`; :func:`_totals_reference` is its twin)."""
    import numpy as np

    from .._kernels.jigsaw import totals

    return totals(  # type: ignore[no-any-return]
        np.ascontiguousarray(arrangements, dtype=np.int64),
        np.ascontiguousarray(lr, dtype=np.float64),
        np.ascontiguousarray(tb, dtype=np.float64),
        width,
        height,
    )


def _totals_reference(
    arrangements: np.ndarray, lr: np.ndarray, tb: np.ndarray, width: int, height: int
) -> np.ndarray:
    """:func:`_totals` in NumPy (the kernel's twin)."""
    import numpy as np

    left, right, top, bottom = _seam_cells(width, height)
    out = np.zeros(len(arrangements))
    for matrix, a_cells, b_cells in ((lr, left, right), (tb, top, bottom)):
        a, b = arrangements[:, a_cells], arrangements[:, b_cells]
        costs = matrix[np.maximum(a, 0), np.maximum(b, 0)]
        out += np.where((a >= 0) & (b >= 0), costs, 0.0).sum(axis=1)
    return out


OPEN_SIDE_RANK = 1  # a side that meets no piece is charged its match of this rank on that side (0: best)
OPEN_SIDES_HOLE = True  # ... the sides facing the hole's home count as open too


def _open_side_charges(lr: np.ndarray, tb: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(left, right, top, bottom)``: what each piece's side costs when it meets no piece (the picture's
    border, the hole's home): its match of rank :data:`OPEN_SIDE_RANK` among the other pieces on that side.
    The seam totals take such a side for free, so an arrangement gains by laying a side that fits nothing (a
    name plate cut by a tile's edge) along the border, and look-alike tiles (a dark suit's) fill its place
    inside at little cost: unseen seed 48001, a 6x6 whose block of suit tiles was read with its rows swapped,
    the plate's tile moved to the bottom row, 0.15 and 0.22 ahead of every rival under the two measures."""
    import numpy as np

    k = OPEN_SIDE_RANK  # (the diagonal is FORBIDDEN: a piece is never its own match)
    return (
        np.partition(lr, k, axis=0)[k],  # left side of piece p: lr[j, p] over j
        np.partition(lr, k, axis=1)[:, k],  # right side: lr[p, j]
        np.partition(tb, k, axis=0)[k],
        np.partition(tb, k, axis=1)[:, k],
    )


def _open_side_totals(
    arrangements: np.ndarray, charges: tuple[np.ndarray, ...], width: int, height: int, missing: int
) -> np.ndarray:
    """For each row of ``arrangements`` (``(k, width * height)``, -1 at the hole's home ``missing``), the sum
    of :func:`_open_side_charges` over its pieces' sides that meet no piece."""
    import numpy as np

    out = np.zeros(len(arrangements))
    for cell in range(width * height):
        if cell == missing:
            continue
        r, c = divmod(cell, width)
        beside = ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1))  # left, right, top, bottom
        for charge, (cc, rr) in zip(charges, beside, strict=True):
            off_board = not (0 <= cc < width and 0 <= rr < height)
            if off_board or (OPEN_SIDES_HOLE and rr * width + cc == missing):
                out += charge[np.maximum(arrangements[:, cell], 0)] * (arrangements[:, cell] >= 0)
    return out


def _cell_costs(arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int) -> np.ndarray:
    """Each cell's share of :func:`_total`: the costs of the seams on its sides (0 at the hole's home)."""
    import numpy as np

    current = np.asarray(arrangement)
    out = np.zeros(len(current))
    left, right, top, bottom = _seam_cells(width, height)
    for matrix, a_cells, b_cells in ((lr, left, right), (tb, top, bottom)):
        a, b = current[a_cells], current[b_cells]
        costs = np.where((a >= 0) & (b >= 0), matrix[np.maximum(a, 0), np.maximum(b, 0)], 0.0)
        np.add.at(out, a_cells, costs)
        np.add.at(out, b_cells, costs)
    return out


def _swapped(arrangement: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(pairs, arrangements)``: every exchange of the tiles of two home cells (the hole's home excluded),
    ``pairs`` ``(k, 2)`` the two cells, ``arrangements`` ``(k, cells)`` the results."""
    import numpy as np

    current = np.asarray(arrangement)
    cells = np.flatnonzero(current >= 0)
    a, b = np.triu_indices(len(cells), 1)
    pairs = np.stack([cells[a], cells[b]], axis=1)
    out = np.repeat(current[None], len(pairs), axis=0)
    rows = np.arange(len(pairs))
    out[rows, pairs[:, 0]] = current[pairs[:, 1]]
    out[rows, pairs[:, 1]] = current[pairs[:, 0]]
    return pairs, out


def _swap_deltas(
    arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int
) -> dict[tuple[int, int], float]:
    """Cost change of exchanging the tiles of every pair of home cells (the hole's home excluded)."""
    pairs, swapped = _swapped(arrangement)
    base = _total(arrangement, lr, tb, width, height)
    deltas = _totals(swapped, lr, tb, width, height) - base
    return {(int(a), int(b)): float(d) for (a, b), d in zip(pairs, deltas, strict=True)}


def _cycled(arrangement: list[int], cells: np.ndarray | None = None) -> np.ndarray:
    """Every 3-cycle of the tiles of three home cells (the tile of the first moved to the second, of the second
    to the third, of the third to the first) among ``cells`` (default: every cell holding a tile):
    ``(k, cells)`` arrangements. A 3-cycle, like two exchanges, keeps the permutation's parity, so it is the
    smallest change that keeps a board solvable."""
    import numpy as np

    current = np.asarray(arrangement)
    if cells is None:
        cells = np.flatnonzero(current >= 0)
    m = len(cells)
    a, b, c = np.meshgrid(np.arange(m), np.arange(m), np.arange(m), indexing="ij")
    keep = (a < b) & (a < c) & (b != c)  # each cycle once: the smallest cell first, both directions
    a, b, c = cells[a[keep]], cells[b[keep]], cells[c[keep]]
    out = np.repeat(current[None], len(a), axis=0)
    rows = np.arange(len(a))
    out[rows, b] = current[a]
    out[rows, c] = current[b]
    out[rows, a] = current[c]
    return out


def _double_swapped(
    arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int, cheapest: int
) -> np.ndarray:
    """Two exchanges on four different cells at once, the first one of the ``cheapest`` single exchanges and
    the second any: ``(k, cells)``. Exchanges far apart add up, so a cheap pair has a cheap member unless
    both are dearer than the ``cheapest``-th."""
    import numpy as np

    pairs, swapped = _swapped(arrangement)
    deltas = _totals(swapped, lr, tb, width, height)
    first = np.argsort(deltas, kind="stable")[:cheapest]
    f, s = np.meshgrid(first, np.arange(len(pairs)), indexing="ij")
    f, s = f.ravel(), s.ravel()
    a, b, c, d = pairs[f, 0], pairs[f, 1], pairs[s, 0], pairs[s, 1]
    keep = (a != c) & (a != d) & (b != c) & (b != d)
    f, c, d = f[keep], c[keep], d[keep]
    out = swapped[f]
    current = np.asarray(arrangement)
    rows = np.arange(len(f))
    out[rows, c] = current[d]
    out[rows, d] = current[c]
    return out  # type: ignore[no-any-return]


def _runs(arrangement: list[int], width: int, height: int) -> list[list[int]]:
    """Every run of 3 or more home cells in a row or a column that does not hold the hole's home."""
    lines = [[r * width + c for c in range(width)] for r in range(height)]
    lines += [[r * width + c for r in range(height)] for c in range(width)]
    out = []
    for line in lines:
        for start in range(len(line)):
            for stop in range(start + 3, len(line) + 1):
                run = line[start:stop]
                if any(arrangement[c] < 0 for c in run):
                    break  # so do the longer ones
                out.append(run)
    return out


def _rotation_deltas(
    arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int
) -> dict[tuple[int, ...], tuple[float, list[int]]]:
    """Cost change of turning the tiles of each run (:func:`_runs`) round by each step: a flat strip of the
    picture (a dark edge, sky) laid out in the right line but in a rotated order, which no exchange of two
    tiles reaches. Keyed by the run's cells rotated (cells, then the step); with the rotated arrangement."""
    import numpy as np

    keys, trials = [], []
    for run in _runs(arrangement, width, height):
        tiles = [arrangement[c] for c in run]
        for step in range(1, len(run)):
            trial = list(arrangement)
            for cell, tile in zip(run, tiles[step:] + tiles[:step], strict=True):
                trial[cell] = tile
            keys.append((*run, step))
            trials.append(trial)
    if not trials:
        return {}
    base = _total(arrangement, lr, tb, width, height)
    deltas = _totals(np.array(trials, dtype=np.int64), lr, tb, width, height) - base
    return {key: (float(delta), trial) for key, delta, trial in zip(keys, deltas, trials, strict=True)}


def _descend(
    arrangement: list[int],
    neighbours: Callable[[list[int]], np.ndarray],
    lr: np.ndarray,
    tb: np.ndarray,
    width: int,
    height: int,
) -> list[int]:
    """Move to the cheapest of ``neighbours(current)`` (``(k, cells)``) while it lowers the total seam cost."""
    import numpy as np

    current = list(arrangement)
    cost = _total(current, lr, tb, width, height)
    for _ in range(4 * len(current)):
        trials = neighbours(current)
        totals = _totals(trials, lr, tb, width, height)
        k = int(np.argmin(totals))
        if totals[k] >= cost - 1e-9:
            break
        current, cost = trials[k].tolist(), float(totals[k])
    return current


def _improve(
    arrangement: list[int],
    lr: np.ndarray,
    tb: np.ndarray,
    width: int,
    height: int,
    allowed: Callable[[list[int]], bool] | None = None,
) -> list[int]:
    """Swap pairs of tiles while the best swap lowers the total seam cost; with ``allowed`` (the solvability
    test), make the changes that keep the parity instead (:func:`_even_neighbours`: a solvable board stays
    solvable). Compiled (:func:`npuzzle._kernels.jigsaw.descend`); :func:`_improve_reference` is its twin."""
    import numpy as np

    from .._kernels.jigsaw import descend

    result = descend(
        np.asarray(arrangement, dtype=np.int64),
        np.ascontiguousarray(lr, dtype=np.float64),
        np.ascontiguousarray(tb, dtype=np.float64),
        width,
        height,
        allowed is not None,
        bool(allowed(arrangement)) if allowed is not None else True,
        CYCLE_PIECES,
        EVEN_SWAPS,
    )
    return [int(t) for t in result]


def _improve_reference(
    arrangement: list[int],
    lr: np.ndarray,
    tb: np.ndarray,
    width: int,
    height: int,
    allowed: Callable[[list[int]], bool] | None = None,
) -> list[int]:
    """:func:`_improve` in NumPy, every neighbour built whole (the twin the kernel is tested against)."""

    def neighbours(current: list[int]) -> np.ndarray:
        if allowed is None:
            return _swapped(current)[1]
        return _even_neighbours(current, lr, tb, width, height, allowed)

    return _descend(arrangement, neighbours, lr, tb, width, height)


def _even_neighbours(
    arrangement: list[int],
    lr: np.ndarray,
    tb: np.ndarray,
    width: int,
    height: int,
    allowed: Callable[[list[int]], bool],
) -> np.ndarray:
    """The smallest changes of ``arrangement`` that keep its parity (so a solvable board stays solvable):
    every 3-cycle, two exchanges drawn from the cheapest ones, and the turns of a run that ``allowed``
    accepts. ``(k, cells)``."""
    import numpy as np

    cells = np.flatnonzero(np.asarray(arrangement) >= 0)
    if len(cells) > CYCLE_PIECES:  # the 3-cycles of the tiles whose seams cost most: all of them are m³/3
        cells = np.sort(cells[np.argsort(-_cell_costs(arrangement, lr, tb, width, height)[cells])[:CYCLE_PIECES]])
    parts = [_cycled(arrangement, cells), _double_swapped(arrangement, lr, tb, width, height, EVEN_SWAPS)]
    turned = [trial for _, trial in _rotation_deltas(arrangement, lr, tb, width, height).values() if allowed(trial)]
    if turned:
        parts.append(np.array(turned, dtype=parts[0].dtype))
    return np.concatenate(parts)


def _fill(
    arrangement: list[int],
    free: list[int],
    lr: np.ndarray,
    tb: np.ndarray,
    width: int,
    height: int,
    missing: int,
) -> list[int]:
    """``arrangement`` with its empty cells (``-1``, the hole's home ``missing`` excepted) filled with the
    tiles ``free`` greedily: the cell with the most placed neighbours first, each time the tile whose seams
    with them cost least."""
    current = list(arrangement)
    free = list(free)
    while free:
        best: tuple[int, float, int, int] | None = None
        for cell, tile in enumerate(current):
            if tile >= 0 or cell == missing:
                continue
            r, c = divmod(cell, width)
            sides = []
            if c > 0 and current[cell - 1] >= 0:
                sides.append(lr[current[cell - 1], free])
            if c + 1 < width and current[cell + 1] >= 0:
                sides.append(lr[free, current[cell + 1]])
            if r > 0 and current[cell - width] >= 0:
                sides.append(tb[current[cell - width], free])
            if r + 1 < height and current[cell + width] >= 0:
                sides.append(tb[free, current[cell + width]])
            if not sides:
                continue
            costs = sum(sides) / len(sides)
            k = int(costs.argmin())
            key = (-len(sides), float(costs[k]), cell, k)
            if best is None or key < best:
                best = key
        if best is None:  # no empty cell touches a placed tile
            cell = next(c for c, t in enumerate(current) if t < 0 and c != missing)
            best = (0, 0.0, cell, 0)
        _, _, cell, k = best
        current[cell] = free.pop(k)
    return current


def _shifted(
    arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int, missing: int
) -> list[list[int]]:
    """``arrangement`` translated by one cell in each of the 8 directions, the tiles pushed off the board
    (or onto the hole's home) put back greedily: a beam that started one cell off places a whole block of
    the picture consistently but shifted, which no exchange of two tiles repairs."""
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            moved = [-1] * len(arrangement)
            for cell, tile in enumerate(arrangement):
                if tile < 0:
                    continue
                r, c = divmod(cell, width)
                rr, cc = r + dr, c + dc
                if 0 <= rr < height and 0 <= cc < width and rr * width + cc != missing:
                    moved[rr * width + cc] = tile
            placed = set(moved)
            free = [t for t in arrangement if t >= 0 and t not in placed]
            out.append(_fill(moved, free, lr, tb, width, height, missing))
    return out


def _orders(width: int, height: int, missing: int) -> list[list[int]]:
    """Raster orders of the cells from each corner, the hole's home left out."""
    orders = []
    for flip_r in (False, True):
        for flip_c in (False, True):
            rows = range(height - 1, -1, -1) if flip_r else range(height)
            cols = range(width - 1, -1, -1) if flip_c else range(width)
            orders.append([r * width + c for r in rows for c in cols if r * width + c != missing])
    return orders


def _every_arrangement(n_cells: int, missing: int) -> np.ndarray:
    """Every arrangement of ``n_cells - 1`` pieces with the hole's home ``missing`` empty: ``(k, n_cells)``."""
    import itertools

    import numpy as np

    orders = np.array(list(itertools.permutations(range(n_cells - 1))), dtype=np.int64)
    return np.insert(orders, missing, -1, axis=1)  # type: ignore[no-any-return]


def _parities(arrangements: np.ndarray) -> np.ndarray:
    """Parity (0 even, 1 odd) of each row's order of pieces (the hole's -1 left out), by counting inversions."""
    import numpy as np

    pieces = arrangements[arrangements >= 0].reshape(len(arrangements), -1)
    inversions = np.zeros(len(pieces), dtype=np.int64)
    for i in range(pieces.shape[1]):
        inversions += (pieces[:, i : i + 1] > pieces[:, i + 1 :]).sum(axis=1)
    return inversions % 2  # type: ignore[no-any-return]


def _homes(arrangement: list[int], pieces: list[int], n_cells: int) -> tuple[int, ...]:
    """Screenshot cell -> home cell (-1 at the hole) of an arrangement (home cell -> piece)."""
    homes = [-1] * n_cells
    for home, piece in enumerate(arrangement):
        if piece >= 0:
            homes[pieces[piece]] = home
    return tuple(homes)


def _solvable_candidates(
    candidates: list[tuple[float, list[int]]],
    lr: np.ndarray,
    tb: np.ndarray,
    width: int,
    height: int,
    allowed: Callable[[list[int]], bool],
) -> list[tuple[float, list[int]]]:
    """The candidates a fairly dealt game can show, cheapest first: the solvable ones, and the unsolvable
    ones' cheapest exchanges (each flips the parity); the best few improved within their parity class."""
    import numpy as np

    pool = [(c, a) for c, a in candidates if allowed(a)]
    for _, arrangement in [ca for ca in candidates if not allowed(ca[1])][:REPAIR_FROM]:
        _, swapped = _swapped(arrangement)
        totals = _totals(swapped, lr, tb, width, height)
        for k in np.argsort(totals, kind="stable")[:REPAIR_SWAPS]:
            pool.append((float(totals[k]), swapped[k].tolist()))
    pool.sort(key=lambda ca: ca[0])
    seen: set[tuple[int, ...]] = set()
    out = []
    for k, (cost, arrangement) in enumerate(pool):
        if k < EVEN_IMPROVED:
            arrangement = _improve(arrangement, lr, tb, width, height, allowed)
            cost = _total(arrangement, lr, tb, width, height)
        if tuple(arrangement) not in seen:
            seen.add(tuple(arrangement))
            out.append((cost, arrangement))
    out.sort(key=lambda ca: ca[0])
    return out


SEAM_COSTS_KEPT = 64  # seam cost pairs kept (:func:`_piece_seam_costs`; 4 MB at the reader's 8x8): a reading weighs a grid's cells
# with the hole's home at two or more corners, each time on the same cuts


_seam_cost_memory: OrderedDict[tuple[bytes, tuple[int, ...], int, bool], tuple[np.ndarray, np.ndarray]] = OrderedDict()
_seam_cost_lock = threading.Lock()


def _piece_seam_costs(cuts: np.ndarray, hole: int, gradient: bool) -> tuple[np.ndarray, np.ndarray]:
    """The ``(lr, tb)`` seam costs (:func:`decorated_seam_costs`) of the pieces of ``cuts`` (``(cuts, cells,
    side, side, 3)``: the same cells cut a little differently, so that no answer hangs on where a pixel
    falls) with cell ``hole`` left out, averaged over the cuts. Remembered by content (read-only arrays): the
    reader asks again for the same cuts with another home for the hole, and these are most of a
    reassembly's cost after the beam (a refused 6x6 weighed 24 distinct sets of seams in 48 calls)."""
    import hashlib

    import numpy as np

    key = (hashlib.blake2b(np.ascontiguousarray(cuts).data, digest_size=16).digest(), cuts.shape, hole, gradient)
    with _seam_cost_lock:
        if key in _seam_cost_memory:
            _seam_cost_memory.move_to_end(key)
            return _seam_cost_memory[key]
    pieces = [c for c in range(cuts.shape[1]) if c != hole]
    lr, tb = decorated_seam_costs(cuts[0][pieces], gradient)
    for cut in cuts[1:]:
        more_lr, more_tb = decorated_seam_costs(cut[pieces], gradient)
        lr, tb = lr + more_lr, tb + more_tb
    lr, tb = lr / len(cuts), tb / len(cuts)
    lr.setflags(write=False)
    tb.setflags(write=False)
    with _seam_cost_lock:
        _seam_cost_memory[key] = (lr, tb)
        while len(_seam_cost_memory) > SEAM_COSTS_KEPT:
            _seam_cost_memory.popitem(last=False)
    return lr, tb


def _typical_seam(lr: np.ndarray, tb: np.ndarray) -> float:
    """The median seam cost between two different pieces (``lr``, ``tb`` as from :func:`seam_costs`): the
    typical seam between unrelated pieces, the unit margins are weighed in."""
    import numpy as np

    apart = ~np.eye(len(lr), dtype=bool)
    return float(np.median(np.concatenate([lr[apart], tb[apart]]))) or 1.0


def arrangement_ratios(
    tiles: np.ndarray, width: int, height: int, hole: int, arrangements: Sequence[Sequence[int]], gradient: bool = False
) -> list[float]:
    """The seam ratio of each of ``arrangements`` of ``tiles`` (as :func:`assemble` takes them, screenshot cell
    ``hole`` left out): its mean seam cost in typical seams (:func:`_typical_seam`), as an :class:`Assembly`'s
    ``seam_ratio``. Each lists, per home cell, the screenshot cell of the piece laid there, -1 at the hole's
    home. Arrangements a reader proposes, weighed as :func:`assemble` weighs its own."""
    import numpy as np

    lr, tb = _piece_seam_costs(tiles if tiles.ndim == 5 else tiles[None], hole, gradient)
    piece = {cell: index for index, cell in enumerate(c for c in range(width * height) if c != hole)}
    laid = [[piece[cell] if cell >= 0 else -1 for cell in arrangement] for arrangement in arrangements]
    totals = _totals(np.array(laid, dtype=np.int64), lr, tb, width, height)
    scale = _typical_seam(lr, tb)
    return [float(total) / max(1, len(_seams(row, width, height))) / scale for total, row in zip(totals, laid, strict=True)]


def assemble(
    tiles: np.ndarray,
    width: int,
    height: int,
    hole: int,
    missing: int | None = None,
    beam: int = BEAM,
    solvable: Callable[[tuple[int, ...]], bool] | None = None,
    gradient: bool = False,
) -> Assembly:
    """Reassemble ``tiles`` (``(width * height, side, side, 3)`` as from :func:`tile_arrays`, screenshot
    cells row-major; or ``(cuts, width * height, side, side, 3)``, the cells cut a little differently, whose
    seam costs are averaged) with screenshot cell ``hole`` empty and the hole's home at ``missing`` (default the
    bottom-right cell). ``gradient``: seams weighed with the gradient compatibility too (:func:`seam_costs`).
    Each cut's decoration is undone first (:func:`decorated_seam_costs`)."""
    import numpy as np

    n_cells = width * height
    if missing is None:
        missing = n_cells - 1
    pieces = [c for c in range(n_cells) if c != hole]  # piece index -> screenshot cell
    lr, tb = _piece_seam_costs(tiles if tiles.ndim == 5 else tiles[None], hole, gradient)
    n = len(pieces)
    scale = _typical_seam(lr, tb)  # the scale of every cost below

    if n <= EXHAUSTIVE_PIECES:  # few pieces: weigh every arrangement, so the best and the margin are exact
        every = _every_arrangement(n_cells, missing)
        if solvable is not None:
            parity = _parities(every)
            first_solvable = solvable(_homes(every[0].tolist(), pieces, n_cells))
            every = every[(parity == parity[0]) == first_solvable]  # solvability is a matter of parity
        totals = _totals(every, lr, tb, width, height)
        order = np.argsort(totals, kind="stable")
        best_cost, best = float(totals[order[0]]), every[order[0]].tolist()
        others, rest = every[order[1:]], totals[order[1:]]
        return _assembly(best, best_cost, others, rest, lr, tb, (width, height), pieces, hole, missing, scale)

    lr_guide, tb_guide = _normalised(lr), _normalised(tb)
    candidates: list[tuple[float, list[int]]] = []
    for order in _orders(width, height, missing):
        states, _ = _beam(lr_guide, tb_guide, width, height, order, beam)
        for state in states[:3]:
            arrangement = [-1] * n_cells
            for cell, piece in zip(order, state, strict=True):
                arrangement[cell] = int(piece)
            arrangement = _improve(arrangement, lr, tb, width, height)
            candidates.append((_total(arrangement, lr, tb, width, height), arrangement))
    candidates.sort(key=lambda ca: ca[0])
    for _ in range(SHIFT_ROUNDS):  # repair blocks placed one cell off
        seen = {tuple(a) for _, a in candidates}
        for variant in _shifted(candidates[0][1], lr, tb, width, height, missing):
            variant = _improve(variant, lr, tb, width, height)
            if tuple(variant) not in seen:
                seen.add(tuple(variant))
                candidates.append((_total(variant, lr, tb, width, height), variant))
        candidates.sort(key=lambda ca: ca[0])
    best_cost, best = candidates[0]
    rotations = _rotation_deltas(best, lr, tb, width, height)
    for _ in range(len(best)):  # a strip laid out in a rotated order: turn it while that lowers the cost
        delta, turned = min(rotations.values(), key=lambda dt: dt[0], default=(0.0, best))
        if delta >= -1e-9:
            break
        best = _improve(turned, lr, tb, width, height)  # cheaper than every candidate: the new first
        best_cost = _total(best, lr, tb, width, height)
        candidates.insert(0, (best_cost, best))
        rotations = _rotation_deltas(best, lr, tb, width, height)
    if solvable is not None:

        def allowed(arrangement: list[int]) -> bool:
            return solvable(_homes(arrangement, pieces, n_cells))

        candidates = _solvable_candidates(candidates, lr, tb, width, height, allowed)
        best_cost, best = candidates[0]
        neighbours = _even_neighbours(best, lr, tb, width, height, allowed)
    else:
        _, swapped = _swapped(best)
        turned = [trial for _, trial in rotations.values()]  # the loop's last round: of this very ``best``
        neighbours = np.concatenate([swapped, np.array(turned, dtype=swapped.dtype).reshape(-1, n_cells)])
    runner_up = next((a for _, a in candidates if a != best), None)
    if runner_up is not None:
        neighbours = np.concatenate([neighbours, np.array([runner_up], dtype=neighbours.dtype)])
    totals = _totals(neighbours, lr, tb, width, height)
    return _assembly(best, best_cost, neighbours, totals, lr, tb, (width, height), pieces, hole, missing, scale)


def weigh(
    tiles: np.ndarray,
    width: int,
    height: int,
    hole: int,
    homes: Sequence[int],
    missing: int | None = None,
    solvable: Callable[[tuple[int, ...]], bool] | None = None,
    gradient: bool = False,
) -> Assembly:
    """The arrangement ``homes`` of ``tiles`` (as :attr:`Assembly.homes`: each screenshot cell's home cell, -1
    at the hole ``hole``) with the evidence :func:`assemble` gives its best: how another seam measure
    (``gradient``) sees an arrangement the first one chose, which need not be its own best. Weighed against the
    smallest changes :func:`assemble` weighs a solvable best against (with ``solvable``: 3-cycles, pairs of
    exchanges, turned runs; without it, every exchange), not against a runner-up from elsewhere."""
    n_cells = width * height
    if missing is None:
        missing = n_cells - 1
    laid, pieces = _laid(homes, hole)
    arrangement = [int(piece) for piece in laid]
    lr, tb = _piece_seam_costs(tiles if tiles.ndim == 5 else tiles[None], hole, gradient)
    if solvable is not None:

        def allowed(trial: list[int]) -> bool:
            return solvable(_homes(trial, pieces, n_cells))

        neighbours = _even_neighbours(arrangement, lr, tb, width, height, allowed)
    else:
        _, neighbours = _swapped(arrangement)
    totals = _totals(neighbours, lr, tb, width, height)
    cost = _total(arrangement, lr, tb, width, height)
    return _assembly(arrangement, cost, neighbours, totals, lr, tb, (width, height), pieces, hole, missing,
                     _typical_seam(lr, tb))  # fmt: skip


def _assembly(
    best: list[int],
    best_cost: float,
    neighbours: np.ndarray,
    totals: np.ndarray,
    lr: np.ndarray,
    tb: np.ndarray,
    shape: tuple[int, int],
    pieces: list[int],
    hole: int,
    missing: int,
    scale: float,
) -> Assembly:
    """The :class:`Assembly` of ``best`` (board ``shape`` = width, height) with its evidence: ``neighbours``
    (``(k, cells)``, total seam costs ``totals``) are the other arrangements weighed, whose rise over
    ``best_cost`` gives the margin and, for each cell, its confidence."""
    import numpy as np

    width, height = shape
    n_cells = width * height
    rises = totals - best_cost
    lr_relative, tb_relative = _normalised(lr), _normalised(tb)
    relative_rises = _totals(neighbours, lr_relative, tb_relative, width, height) - _total(
        best, lr_relative, tb_relative, width, height
    )
    # the same rivals with the sides that meet no piece charged (_open_side_charges): a reading that is first
    # only while the border is free hangs on what lies beyond it
    charges = _open_side_charges(lr, tb)
    open_best = _open_side_totals(np.asarray([best]), charges, width, height, missing)[0]
    open_rises = rises + _open_side_totals(neighbours, charges, width, height, missing) - open_best
    changed = neighbours != np.asarray(best)[None]
    per_home = np.where(changed, rises[:, None], np.inf).min(axis=0, initial=np.inf)
    margin = float(rises.min(initial=np.inf)) / scale

    seams = _seams(best, width, height)
    seam_ratio = best_cost / max(1, len(seams)) / scale
    buddies = 0
    for kind, a, b in seams:
        matrix = lr if kind == 0 else tb
        buddies += int(np.argmin(matrix[a]) == b and np.argmin(matrix[:, b]) == a)
    buddy_share = buddies / max(1, len(seams))

    homes = _homes(best, pieces, n_cells)
    confidence = [1.0] * n_cells
    uncertain = []
    for home, piece in enumerate(best):
        if piece < 0:
            continue
        cell = pieces[piece]
        rise = max(0.0, float(per_home[home]) / scale)
        confidence[cell] = rise / (rise + CONFIDENCE_SCALE)
        if rise < CONFIDENCE_SCALE:
            uncertain.append(cell)
    confidence[hole] = min(confidence)
    return Assembly(
        homes,
        hole,
        missing,
        float(best_cost),
        float(seam_ratio),
        float(buddy_share),
        float(margin),
        tuple(confidence),
        tuple(sorted(uncertain)),
        float(relative_rises.min(initial=np.inf)),
        float(open_rises.min(initial=np.inf)) / scale,
    )


__all__ = [
    "Assembly", "assemble", "best_seams", "decorated_seam_costs", "inner_seam_ratio", "seam_costs", "tile_arrays", "weigh",
]
