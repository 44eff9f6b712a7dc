"""Reassembling a picture puzzle from its own tiles, with no reference picture (issue 12).

Input: the tiles cut from a located grid of ``width`` × ``height`` cells (one cell is the hole) and the
hole's home cell in the solved picture (default the bottom-right). Output (:class:`Assembly`): for each
screenshot cell the home cell of the tile it shows, with confidences and the evidence the reading rests on.

Method
    *Seams* (:func:`seam_costs`). Each tile is trimmed by a few pixels at every side (gaps, anti-aliased
    borders, a grid found one pixel off) and resampled to a common size. For tile ``i`` left of tile ``j``
    the colour at the (trimmed-away) seam is predicted from both sides by continuing each side's gradient
    (the prediction-based compatibility of Pomeranz, Shemesh & Ben-Shahar 2011; continuing gradients rather
    than comparing raw border pixels is also what Gallagher's 2012 Mahalanobis gradient compatibility does);
    the dissimilarity is the mean over the seam of a robust (square-root) distance between the two
    predictions, averaged with the raw colour step. Top/bottom seams likewise.
    *Placement* (:func:`assemble`). The board's size is known, so every cell but the hole's home takes one
    tile: a beam search fills the cells in raster order (and in the three mirrored orders), each partial
    arrangement scored by the sum of the seams it has closed; the best complete arrangements are then
    improved by swapping pairs of tiles while the total seam cost falls. A beam that went one cell off
    early lays a whole block of the picture out consistently but shifted, which no exchange of two tiles
    repairs: the best arrangement is also tried translated by one cell in each direction, the tiles pushed
    off the board put back greedily (:func:`_shifted`), and improved again.
    *Evidence*. ``seam_ratio``: mean seam cost of the arrangement over the median cost of all tile pairs
    (a right reassembly has seams far better than chance; a wrong grid or a picture with no detail does
    not). ``buddies``: the share of the arrangement's seams whose two tiles are each other's best match
    (best buddies, Pomeranz 2011). ``margin``: how much the best arrangement that differs (a swap, a strip of
    a row or column turned round, or the beam's runner-up) costs more, in units of the typical seam; per-cell confidence likewise per cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

SIDE = 24  # pixels: tiles are resampled to at least SIDE × SIDE after trimming ...
MAX_SIDE = 96  # ... and at most MAX_SIDE × MAX_SIDE (else their own size)
TRIM_SHARE = 0.0  # share of a tile's side trimmed at every edge, plus TRIM_PX
TRIM_PX = 1  # pixels trimmed at every edge on top of TRIM_SHARE (gap edges blur over about a pixel)
DEEPER = 2  # pixels: each side is also read this much further in
EDGE_DEPTH = 3 + DEEPER  # columns of each side the seam costs look at
BEAM = 600  # partial arrangements kept per step of the beam search
CONFIDENCE_SCALE = 0.5  # cost rise (in typical-seam units) at which a cell's confidence is 0.5
FORBIDDEN = 1e9  # cost of using a tile twice
SHIFT_ROUNDS = 2  # rounds of trying the best arrangement shifted by one cell


@dataclass(frozen=True)
class Assembly:
    """A reassembled picture.

    ``homes[cell]``: the home cell (0-based) of the tile the screenshot shows in ``cell``, ``-1`` at the
    hole. ``missing``: the hole's home cell. ``cost``: total seam cost. ``seam_ratio``, ``buddies``,
    ``margin``, ``confidence``: the evidence (see the module docstring); ``uncertain``: screenshot cells
    whose tile a near-equal arrangement places elsewhere.
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


def _side_costs(a_side: np.ndarray, b_side: np.ndarray) -> np.ndarray:
    """``(n, n)`` dissimilarities of tile ``i``'s right side against tile ``j``'s left side: ``a_side[i]`` the
    last :data:`EDGE_DEPTH` columns of tile i (``(n, rows, EDGE_DEPTH, 3)``, outermost last), ``b_side[j]``
    the first ones of tile j (outermost first). Each side is read at its edge and again
    :data:`DEEPER` pixels further in, and the best of the four pairings counts: a cell cut a pixel or two
    too wide (a gap's or frame's stripe along one side) still meets its neighbour cleanly."""
    import numpy as np

    n = a_side.shape[0]
    out = np.full((n, n), np.inf)
    for da in (0, DEEPER):
        last, inner_a = a_side[:, :, -1 - da], a_side[:, :, -3 - da]
        pred_a = last + (last - inner_a) / 2 * (1 + da)  # the gradient continued to the seam
        for db in (0, DEEPER):
            first, inner_b = b_side[:, :, db], b_side[:, :, 2 + db]
            pred_b = first + (first - inner_b) / 2 * (1 + db)
            cost = np.empty((n, n))
            for i in range(n):
                diff = np.abs(pred_a[i][None] - pred_b)  # (n, rows, 3)
                step = np.abs(last[i][None] - first)
                cost[i] = (
                    np.sqrt(diff.sum(axis=2)).mean(axis=1) + np.sqrt(step.sum(axis=2)).mean(axis=1)
                ) / 2
            out = np.minimum(out, cost)
    np.fill_diagonal(out, FORBIDDEN)
    return out


def seam_costs(tiles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(lr, tb)``: ``lr[i, j]`` the cost of tile ``i`` just left of tile ``j``, ``tb[i, j]`` of ``i`` just
    above ``j`` (``(n, n)`` float64; the diagonal is :data:`FORBIDDEN`)."""
    lr = _side_costs(tiles[:, :, -EDGE_DEPTH:, :], tiles[:, :, :EDGE_DEPTH, :])
    t = tiles.transpose(0, 2, 1, 3)  # rows become columns
    tb = _side_costs(t[:, :, -EDGE_DEPTH:, :], t[:, :, :EDGE_DEPTH, :])
    return lr, tb


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
    tiles per step, best first."""
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
        pick = np.argpartition(flat, keep - 1)[:keep] if keep < flat.size else np.arange(flat.size)
        pick = pick[np.argsort(flat[pick], kind="stable")]
        parent, tile = np.divmod(pick, n)
        states = np.concatenate([states[parent], tile[:, None]], axis=1)
        costs = flat[pick]
        used = used[parent].copy()
        used[np.arange(len(pick)), tile] = True
    return states, costs


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


def _swap_deltas(
    arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int
) -> dict[tuple[int, int], float]:
    """Cost change of exchanging the tiles of every pair of home cells (the hole's home excluded)."""
    base = _total(arrangement, lr, tb, width, height)
    cells = [c for c, t in enumerate(arrangement) if t >= 0]
    out = {}
    for a_index, a in enumerate(cells):
        for b in cells[a_index + 1 :]:
            trial = list(arrangement)
            trial[a], trial[b] = trial[b], trial[a]
            out[(a, b)] = _total(trial, lr, tb, width, height) - base
    return out


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
    base = _total(arrangement, lr, tb, width, height)
    out = {}
    for run in _runs(arrangement, width, height):
        tiles = [arrangement[c] for c in run]
        for step in range(1, len(run)):
            trial = list(arrangement)
            for cell, tile in zip(run, tiles[step:] + tiles[:step], strict=True):
                trial[cell] = tile
            out[(*run, step)] = (_total(trial, lr, tb, width, height) - base, trial)
    return out


def _improve(arrangement: list[int], lr: np.ndarray, tb: np.ndarray, width: int, height: int) -> list[int]:
    """Swap pairs of tiles while the best swap lowers the total seam cost."""
    current = list(arrangement)
    for _ in range(4 * len(current)):
        deltas = _swap_deltas(current, lr, tb, width, height)
        (a, b), delta = min(deltas.items(), key=lambda kv: kv[1])
        if delta >= -1e-9:
            break
        current[a], current[b] = current[b], current[a]
    return current


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


def assemble(
    tiles: np.ndarray, width: int, height: int, hole: int, missing: int | None = None, beam: int = BEAM
) -> Assembly:
    """Reassemble ``tiles`` (``(width * height, side, side, 3)`` as from :func:`tile_arrays`, screenshot
    cells row-major) with screenshot cell ``hole`` empty and the hole's home at ``missing`` (default the
    bottom-right cell)."""
    import numpy as np

    n_cells = width * height
    if missing is None:
        missing = n_cells - 1
    pieces = [c for c in range(n_cells) if c != hole]  # piece index -> screenshot cell
    lr, tb = seam_costs(tiles[pieces])
    n = len(pieces)
    # the typical seam between two unrelated tiles: the scale of every cost below
    off = np.concatenate([lr[~np.eye(n, dtype=bool)], tb[~np.eye(n, dtype=bool)]])
    scale = float(np.median(off)) or 1.0

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
    runner_up = next((c for c, a in candidates if a != best), None)

    seams = _seams(best, width, height)
    seam_ratio = best_cost / max(1, len(seams)) / scale
    buddies = 0
    for kind, a, b in seams:
        matrix = lr if kind == 0 else tb
        buddies += int(np.argmin(matrix[a]) == b and np.argmin(matrix[:, b]) == a)
    buddy_share = buddies / max(1, len(seams))

    deltas = _swap_deltas(best, lr, tb, width, height)
    per_home = dict.fromkeys(range(n_cells), np.inf)
    for (a, b), delta in deltas.items():
        per_home[a] = min(per_home[a], delta)
        per_home[b] = min(per_home[b], delta)
    margin = min(deltas.values(), default=np.inf)
    for key, (delta, _) in rotations.items():
        margin = min(margin, delta)
        for home in key[:-1]:
            per_home[home] = min(per_home[home], delta)
    if runner_up is not None:
        margin = min(margin, runner_up - best_cost)
        other = next(a for c, a in candidates if a != best)
        for cell in range(n_cells):
            if other[cell] != best[cell]:
                per_home[cell] = min(per_home[cell], runner_up - best_cost)
    margin /= scale

    homes = [-1] * n_cells
    confidence = [1.0] * n_cells
    uncertain = []
    for home, piece in enumerate(best):
        if piece < 0:
            continue
        cell = pieces[piece]
        homes[cell] = home
        rise = max(0.0, per_home[home] / scale)
        confidence[cell] = rise / (rise + CONFIDENCE_SCALE)
        if rise < CONFIDENCE_SCALE:
            uncertain.append(cell)
    confidence[hole] = min(confidence)
    return Assembly(
        tuple(homes),
        hole,
        missing,
        float(best_cost),
        float(seam_ratio),
        float(buddy_share),
        float(margin),
        tuple(confidence),
        tuple(sorted(uncertain)),
    )


__all__ = ["Assembly", "assemble", "seam_costs", "tile_arrays"]
