"""Local search over picture-puzzle arrangements: :func:`descend`, the compiled twin of
``npuzzle.render.jigsaw._descend`` with its two neighbourhoods (``_improve``: every exchange of two tiles, or
with the solvability test the changes that keep the permutation's parity).

The NumPy version builds every neighbour as a whole arrangement and sums all its seams (on an 8x8, some
10^5 arrangements of 64 cells per step: 15 s an assembly). Here a neighbour is weighed by the seams of the
cells it changes only, and nothing is built but the chosen one. Neighbours are visited in the same order as
there and the first cheapest is taken, so both walk the same way (tests/test_jigsaw.py compares them).

Conventions: ``arrangement[cell]`` is the tile (piece index) placed in home cell ``cell``, ``-1`` at the
hole's home. ``lr[i, j]``: cost of tile ``i`` just left of tile ``j``; ``tb[i, j]``: of ``i`` just above ``j``.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

IMPROVEMENT = 1e-9  # a step must lower the total seam cost by more than this (as ``_descend``'s test)
SAMPLE = 4096  # values looked at to guess the bound a beam step keeps under


@njit
def _seam(arrangement: np.ndarray, matrix: np.ndarray, a: int, b: int) -> float:
    """Cost of the seam between cells ``a`` (left/above) and ``b``; 0 when either is the hole's home."""
    ta, tb_ = arrangement[a], arrangement[b]
    if ta < 0 or tb_ < 0:
        return 0.0
    return matrix[ta, tb_]  # type: ignore[no-any-return]


@njit
def _local_cost(
    arrangement: np.ndarray, changed: np.ndarray, count: int, mark: np.ndarray,
    lr: np.ndarray, tb: np.ndarray, width: int, height: int,
) -> float:  # fmt: skip
    """Sum of the seams touching the ``count`` cells ``changed`` (each seam once; ``mark`` flags them)."""
    total = 0.0
    for k in range(count):
        cell = changed[k]
        row, col = cell // width, cell % width
        if col + 1 < width:
            total += _seam(arrangement, lr, cell, cell + 1)
        if row + 1 < height:
            total += _seam(arrangement, tb, cell, cell + width)
        if col > 0 and mark[cell - 1] == 0:  # a marked neighbour counts this seam as its right one
            total += _seam(arrangement, lr, cell - 1, cell)
        if row > 0 and mark[cell - width] == 0:
            total += _seam(arrangement, tb, cell - width, cell)
    return total


@njit
def _change_cost(
    arrangement: np.ndarray, changed: np.ndarray, tiles: np.ndarray, count: int, mark: np.ndarray,
    old: np.ndarray, lr: np.ndarray, tb: np.ndarray, width: int, height: int,
) -> float:  # fmt: skip
    """Change of the total seam cost when cell ``changed[k]`` takes tile ``tiles[k]`` (``k < count``);
    ``arrangement`` is left as it was (``old``: scratch for its tiles there)."""
    for k in range(count):
        mark[changed[k]] = 1
    before = _local_cost(arrangement, changed, count, mark, lr, tb, width, height)
    for k in range(count):
        old[k] = arrangement[changed[k]]
        arrangement[changed[k]] = tiles[k]
    after = _local_cost(arrangement, changed, count, mark, lr, tb, width, height)
    for k in range(count):
        arrangement[changed[k]] = old[k]
        mark[changed[k]] = 0
    return after - before


@njit
def _cell_costs(arrangement: np.ndarray, lr: np.ndarray, tb: np.ndarray, width: int, height: int) -> np.ndarray:
    """Each cell's share of the total: the costs of the seams on its sides."""
    out = np.zeros(arrangement.size)
    for cell in range(arrangement.size):
        row, col = cell // width, cell % width
        if col + 1 < width:
            cost = _seam(arrangement, lr, cell, cell + 1)
            out[cell] += cost
            out[cell + 1] += cost
        if row + 1 < height:
            cost = _seam(arrangement, tb, cell, cell + width)
            out[cell] += cost
            out[cell + width] += cost
    return out


@njit
def _smallest(values: np.ndarray, count: int) -> np.ndarray:
    """Indices of the ``count`` smallest ``values``, smallest first, the earlier index first among equal
    values (a stable sort's first ``count``), by insertion into a short sorted list."""
    count = min(count, values.size)
    out = np.empty(count, dtype=np.int64)
    filled = 0
    for i in range(values.size):
        v = values[i]
        if filled == count and v >= values[out[count - 1]]:
            continue
        pos = filled if filled < count else count - 1
        while pos > 0 and values[out[pos - 1]] > v:
            out[pos] = out[pos - 1]
            pos -= 1
        out[pos] = i
        if filled < count:
            filled += 1
    return out


@njit
def _rotation_is_odd(length: int, step: int) -> bool:
    """Whether turning ``length`` tiles round by ``step`` is an odd permutation (gcd cycles of length/gcd)."""
    a, b = length, step
    while b:
        a, b = b, a % b
    return (a * (length // a - 1)) % 2 == 1


@njit
def descend(
    arrangement: np.ndarray, lr: np.ndarray, tb: np.ndarray, width: int, height: int,
    even: bool, allowed: bool, cycle_pieces: int, cheapest: int,
) -> np.ndarray:  # fmt: skip
    """Move to the cheapest neighbour while it lowers the total seam cost, at most ``4 * cells`` times.

    ``even`` False: the neighbours are every exchange of two tiles. ``even`` True: every 3-cycle of the
    tiles of ``cycle_pieces`` cells (all cells holding a tile if there are no more, else those whose seams
    cost most), then two exchanges on four cells (the first among the ``cheapest`` single ones, the second
    any), then every turn of a run of 3 or more cells in a row or column that keeps the board solvable:
    ``allowed`` tells whether ``arrangement`` itself is (a turn is an odd permutation or not; the other
    changes keep the parity). Returns the final arrangement (a new array)."""
    current = arrangement.copy()
    n_cells = current.size
    mark = np.zeros(n_cells, dtype=np.int8)
    old = np.empty(n_cells, dtype=current.dtype)
    changed = np.empty(n_cells, dtype=np.int64)
    tiles = np.empty(n_cells, dtype=current.dtype)
    best_changed = np.empty(n_cells, dtype=np.int64)
    best_tiles = np.empty(n_cells, dtype=current.dtype)
    for _ in range(4 * n_cells):
        m = 0
        held = np.empty(n_cells, dtype=np.int64)
        for cell in range(n_cells):
            if current[cell] >= 0:
                held[m] = cell
                m += 1
        held = held[:m]
        n_pairs = m * (m - 1) // 2
        pair_a = np.empty(n_pairs, dtype=np.int64)
        pair_b = np.empty(n_pairs, dtype=np.int64)
        p = 0
        for i in range(m):
            for j in range(i + 1, m):
                pair_a[p], pair_b[p] = held[i], held[j]
                p += 1
        swap_deltas = np.empty(n_pairs)  # every exchange: the neighbours, or the pool two are drawn from
        for p in range(n_pairs):
            a, b = pair_a[p], pair_b[p]
            changed[0], changed[1] = a, b
            tiles[0], tiles[1] = current[b], current[a]
            swap_deltas[p] = _change_cost(current, changed, tiles, 2, mark, old, lr, tb, width, height)
        best = np.inf
        best_count = 0
        best_is_turn = False
        if not even:
            for p in range(n_pairs):
                if swap_deltas[p] < best:
                    best, best_count = swap_deltas[p], 2
                    best_changed[0], best_changed[1] = pair_a[p], pair_b[p]
                    best_tiles[0], best_tiles[1] = current[pair_b[p]], current[pair_a[p]]
        else:
            cells = held
            if m > cycle_pieces:  # the cells whose seams cost most (the earlier on equal costs), in order
                costs = _cell_costs(current, lr, tb, width, height)
                ranked = _smallest(-costs[held], cycle_pieces)
                chosen = np.zeros(m, dtype=np.bool_)
                for r in ranked:
                    chosen[r] = True
                cells = held[chosen]
            k_cells = cells.size
            for i in range(k_cells):
                for j in range(i + 1, k_cells):
                    for k in range(i + 1, k_cells):
                        if j == k:
                            continue
                        a, b, c = cells[i], cells[j], cells[k]
                        changed[0], changed[1], changed[2] = b, c, a
                        tiles[0], tiles[1], tiles[2] = current[a], current[b], current[c]
                        delta = _change_cost(current, changed, tiles, 3, mark, old, lr, tb, width, height)
                        if delta < best:
                            best, best_count = delta, 3
                            best_changed[:3] = changed[:3]
                            best_tiles[:3] = tiles[:3]
            first = _smallest(swap_deltas, cheapest)
            for f in first:
                a, b = pair_a[f], pair_b[f]
                for s in range(n_pairs):
                    c, d = pair_a[s], pair_b[s]
                    if a in (c, d) or b in (c, d):
                        continue
                    changed[0], changed[1], changed[2], changed[3] = a, b, c, d
                    tiles[0], tiles[1], tiles[2], tiles[3] = current[b], current[a], current[d], current[c]
                    delta = _change_cost(current, changed, tiles, 4, mark, old, lr, tb, width, height)
                    if delta < best:
                        best, best_count = delta, 4
                        best_changed[:4] = changed[:4]
                        best_tiles[:4] = tiles[:4]
            for direction in range(2):  # rows, then columns
                lines, along = (height, width) if direction == 0 else (width, height)
                for line in range(lines):
                    for start in range(along):
                        for stop in range(start + 3, along + 1):
                            length = stop - start
                            hole = False
                            for t in range(length):
                                pos = start + t
                                changed[t] = line * width + pos if direction == 0 else pos * width + line
                                hole = hole or current[changed[t]] < 0
                            if hole:
                                break  # the hole's home: so do the longer runs
                            for step in range(1, length):
                                if _rotation_is_odd(length, step) == allowed:
                                    continue  # the board would not be solvable (or, not allowed, stay so)
                                for t in range(length):
                                    tiles[t] = current[changed[(t + step) % length]]
                                delta = _change_cost(current, changed, tiles, length, mark, old, lr, tb, width, height)
                                if delta < best:
                                    best, best_count = delta, length
                                    best_changed[:length] = changed[:length]
                                    best_tiles[:length] = tiles[:length]
                                    best_is_turn = True
        if best_count == 0 or best >= -IMPROVEMENT:
            break
        for t in range(best_count):
            current[best_changed[t]] = best_tiles[t]
        if best_is_turn:
            allowed = True  # only turns that make the board solvable are taken
    return current


@njit
def totals(arrangements: np.ndarray, lr: np.ndarray, tb: np.ndarray, width: int, height: int) -> np.ndarray:
    """Total seam cost of each row of ``arrangements`` (``(k, cells)``), the twin of
    ``npuzzle.render.jigsaw._totals`` (which builds ``(k, seams)`` temporaries: 0.14 s for 10^5 rows of an
    8x8)."""
    out = np.zeros(arrangements.shape[0])
    for k in range(arrangements.shape[0]):
        row = arrangements[k]
        total = 0.0
        for cell in range(width * height):
            if cell % width + 1 < width:
                total += _seam(row, lr, cell, cell + 1)
            if cell + width < width * height:
                total += _seam(row, tb, cell, cell + width)
        out[k] = total
    return out


@njit
def _kth_smallest(values: np.ndarray, k: int) -> float:
    """The ``k``-th smallest (from 0) of ``values``, which it reorders: Hoare's selection, the middle of
    three as pivot."""
    low, high = 0, values.size - 1
    while low < high:
        mid = (low + high) // 2
        a, b, c = values[low], values[mid], values[high]
        pivot = max(min(a, b), min(max(a, b), c))
        i, j = low, high
        while i <= j:
            while values[i] < pivot:
                i += 1
            while values[j] > pivot:
                j -= 1
            if i <= j:
                values[i], values[j] = values[j], values[i]
                i += 1
                j -= 1
        if k <= j:
            high = j
        elif k >= i:
            low = i
        else:
            return values[k]  # type: ignore[no-any-return]
    return values[k]  # type: ignore[no-any-return]


@njit
def _smallest_in_place(flat: np.ndarray, size: int, keep: int, pick: np.ndarray, scratch: np.ndarray) -> None:
    """``pick[:keep]``: the indices of the ``keep`` smallest of ``flat[:size]`` (among equal values the
    earlier), in index order. A bound that a few more than ``keep`` values stay under is guessed from a
    sample and only those are looked at again (selecting among all of them took five times as long): every
    value over the bound is greater than any under it, so those under it hold the ``keep`` smallest. When
    the guess keeps too few, it is widened."""
    filled = size
    if keep < size // 4:
        stride = max(1, size // SAMPLE)
        sample = scratch[: (size + stride - 1) // stride]
        rank = min(sample.size - 1, int(keep / size * sample.size * 1.25) + 16)
        while True:
            sample[:] = flat[:size:stride]
            bound = _kth_smallest(sample, rank)
            filled = 0
            for i in range(size):
                if flat[i] <= bound:
                    pick[filled] = i
                    filled += 1
            if filled >= keep or rank == sample.size - 1:
                break
            rank = min(sample.size - 1, 2 * rank)  # the sample's share under the bound misled: widen it
        if filled < keep:
            filled = size
    if filled == size:
        pick[:size] = np.arange(size)
    values = scratch[:filled]
    for j in range(filled):
        values[j] = flat[pick[j]]
    last = _kth_smallest(values, keep - 1) if keep < filled else np.inf
    below = 0
    for j in range(filled):
        below += flat[pick[j]] < last
    ties = keep - below  # values equal to the last kept: the earliest of them
    kept = 0
    for j in range(filled):
        value = flat[pick[j]]
        if value < last or (value == last and ties > 0):
            ties -= value == last
            pick[kept] = pick[j]
            kept += 1
            if kept == keep:
                break


@njit
def beam(
    lr: np.ndarray, tb: np.ndarray, relations: np.ndarray, counts: np.ndarray, breadth: int
) -> tuple[np.ndarray, np.ndarray]:
    """Beam search filling cells one step at a time with distinct tiles, the twin of
    ``npuzzle.render.jigsaw._beam_reference``: ``(states, costs)``, ``states[b, k]`` the tile of step ``k``
    of the ``b``-th best partial arrangement kept (at most ``breadth``), best first. Each step keeps the
    cheapest extensions, among equal costs the earlier (parent by parent), in the order they were made: only
    the last step's are sorted. ``relations[k, r]`` (``r < counts[k]``) is ``(earlier step, kind, side)`` of step
    ``k``'s filled neighbours: kind 0 a left/right seam, 1 a top/bottom one; side 0 when the neighbour is
    left of or above the cell.

    The NumPy version gathers a ``(kept, tiles)`` block per neighbour, copies every kept state and sorts
    each step's kept (on a 6x6 with 3000 kept, 115 ms a search); here each cost is summed in place and the
    kept are found through a sampled bound (:func:`_smallest_in_place`): 38 ms."""
    n = lr.shape[0]
    steps = relations.shape[0]
    matrices = np.empty((4, n, n))  # each neighbour's costs along a row: left of/above the cell, or right/below
    matrices[0], matrices[1], matrices[2], matrices[3] = lr, lr.T, tb, tb.T
    most = max(n, breadth)
    states = np.empty((most, steps), dtype=np.int64)
    spare_states = np.empty((most, steps), dtype=np.int64)
    used = np.zeros((most, n), dtype=np.bool_)
    spare_used = np.zeros((most, n), dtype=np.bool_)
    costs = np.zeros(most)
    flat = np.empty(most * n)
    pick = np.empty(most * n, dtype=np.int64)
    scratch = np.empty(most * n)
    nothing = np.zeros(n)  # the costs of a neighbour a cell does not have (adding 0.0 changes no sum)
    for t in range(n):
        states[t, 0] = t
        used[t, t] = True
    kept = n
    for k in range(1, steps):
        count = counts[k]
        # each filled neighbour's costs against every tile, as a row of one of the four matrices
        which = np.zeros(4, dtype=np.int64)
        step_of = np.zeros(4, dtype=np.int64)
        for r in range(count):
            step_of[r], which[r] = relations[k, r, 0], 2 * relations[k, r, 1] + relations[k, r, 2]
        finite = 0
        for b in range(kept):
            first = matrices[which[0], states[b, step_of[0]]] if count > 0 else nothing
            second = matrices[which[1], states[b, step_of[1]]] if count > 1 else nothing
            third = matrices[which[2], states[b, step_of[2]]] if count > 2 else nothing
            fourth = matrices[which[3], states[b, step_of[3]]] if count > 3 else nothing
            base = costs[b]
            out = flat[b * n : (b + 1) * n]
            taken = used[b]
            for t in range(n):
                add = 0.0 + first[t]
                add += second[t]
                add += third[t]
                add += fourth[t]
                out[t] = np.inf if taken[t] else base + add
                finite += np.isfinite(out[t])
        keep = min(breadth, finite)
        if keep == 0:  # no tile left to place (more steps than tiles)
            return states[:0].copy(), costs[:0].copy()
        _smallest_in_place(flat, kept * n, keep, pick, scratch)
        for j in range(keep):
            parent, tile = pick[j] // n, pick[j] % n
            for i in range(k):
                spare_states[j, i] = states[parent, i]
            spare_states[j, k] = tile
            for i in range(n):
                spare_used[j, i] = used[parent, i]
            spare_used[j, tile] = True
            costs[j] = flat[pick[j]]
        states, spare_states = spare_states, states
        used, spare_used = spare_used, used
        kept = keep
    order = np.argsort(costs[:kept], kind="mergesort")
    return states[:kept][order].copy(), costs[:kept][order].copy()
