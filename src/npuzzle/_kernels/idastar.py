"""Iterative-deepening A* over canonical states: explicit stack, no recursion, resumable in chunks.

Stack layout (arrays owned by the caller, so a search can stop after ``node_budget`` expansions, let Python
look at the clock, and resume where it left off):

* ``path``: ``cell_dtype[capacity + 2]``; ``path[0] = NO_CELL`` (a sentinel parent), ``path[d + 1]`` is the
  blank's cell at depth ``d``. After ``FOUND`` at depth ``D``, ``path[2 : D + 2]`` are the cells the blank
  moved to.
* ``child``: ``uint8[capacity + 2]``; ``child[d + 1]`` is the next neighbour index to try at depth ``d``.
* ``hvals``: ``int16[capacity + 2]``; ``hvals[d + 1]`` is ``h`` at depth ``d`` (a 16×16 Manhattan sum is
  below 7,700).
* ``regs``: ``int64[N_REGS]`` in/out registers (``R_*`` below): depth, threshold, next threshold, counters.

A node is *expanded* when its first child is tried, *generated* when its ``f`` is computed. The move back to
the parent's cell is never generated (single metric); in the multi-tile metric two slides along the same
line in a row are never generated (they equal one slide or none). Returns a status code (``FOUND``,
``BUDGET``, ``EXHAUSTED`` when the threshold reached infinity, ``GROW`` when the stack needs more room).

The hot loop keeps the current node (blank cell, parent cell, ``h``, next child index) in locals and touches
the stack arrays only on a push or pop; a child is pruned when its ``h`` exceeds ``room = threshold - depth -
1``. With Manhattan distance this generates the same nodes as a minimal recursive C IDA* (checked on Korf's
instances: identical generated counts) at a comparable rate (see BENCHMARKS.md).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .heuristics import heuristic, line_conflicts, line_conflicts_tab
from .moves import MULTI, cell_dtype, max_step, no_cell, replay_cells, slide

R_DEPTH = 0
R_THRESHOLD = 1
R_NEXT = 2
R_GENERATED = 3
R_EXPANDED = 4
R_ITERATIONS = 5
R_DEEPEST = 6
N_REGS = 8

BUDGET = 0
FOUND = 1
EXHAUSTED = 2
GROW = 3

INF = 1 << 30  # larger than any f


def new_stack(
    capacity: int, n_cells: int, blank_cell: int, h0: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fresh ``(path, child, hvals, regs)`` for a search from a state with the blank in ``blank_cell``."""
    path = np.full(capacity + 2, no_cell(n_cells), dtype=cell_dtype(n_cells))
    child = np.zeros(capacity + 2, dtype=np.uint8)
    hvals = np.zeros(capacity + 2, dtype=np.int16)
    regs = np.zeros(N_REGS, dtype=np.int64)
    path[1] = blank_cell
    hvals[1] = h0
    regs[R_THRESHOLD] = h0
    regs[R_NEXT] = INF
    return path, child, hvals, regs


def grow_stack(
    path: np.ndarray, child: np.ndarray, hvals: np.ndarray, capacity: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Copies of the stack arrays with room for ``capacity`` moves (used on ``GROW``)."""
    new_path = np.full(capacity + 2, path[0], dtype=path.dtype)
    new_child = np.zeros(capacity + 2, dtype=child.dtype)
    new_h = np.zeros(capacity + 2, dtype=hvals.dtype)
    new_path[: path.shape[0]] = path
    new_child[: child.shape[0]] = child
    new_h[: hvals.shape[0]] = hvals
    return new_path, new_child, new_h


@njit
def row_shift(row_length: int) -> int:
    """``log2(row_length)`` for a power of two (rows of :func:`.heuristics.padded_rows`)."""
    shift = 0
    while (1 << shift) < row_length:
        shift += 1
    return shift


@njit
def idastar_table(
    state: np.ndarray,
    blank_home: int,
    nbrs: np.ndarray,
    cost: np.ndarray,
    path: np.ndarray,
    child: np.ndarray,
    hvals: np.ndarray,
    regs: np.ndarray,
    node_budget: int,
) -> int:
    """IDA* in the single-tile metric with an additive per-tile heuristic (misplaced or Manhattan):
    ``h' = h + cost[t, blank] - cost[t, c]`` for the tile ``t`` that slides in from ``c = nbrs[blank, k]``.
    ``nbrs`` and ``cost`` come from :func:`.heuristics.padded_rows` (rows padded to powers of two: the hot
    loop reads them flat with shifts, and every index is unsigned, so numba adds no wraparound code).
    ``state`` is modified in place and equals the node at ``regs[R_DEPTH]`` on return. ``regs[R_DEEPEST]``
    is sampled when a call returns (one compare less per push): exact after ``FOUND`` (no iteration goes
    deeper than the solution), a lower bound otherwise."""
    one = np.uint64(1)
    k_shift = np.uint64(row_shift(nbrs.shape[1]))
    t_shift = np.uint64(row_shift(cost.shape[1]))
    flat_nbrs = nbrs.ravel()
    flat_cost = cost.ravel()
    end = nbrs[0, nbrs.shape[1] - 1]  # the NO_CELL end marker (padding is the marker too)
    depth = regs[R_DEPTH]
    threshold = regs[R_THRESHOLD]
    excess = regs[R_NEXT] - threshold  # smallest f - threshold among pruned children (> 0)
    generated = regs[R_GENERATED]
    expanded = regs[R_EXPANDED]
    iterations = regs[R_ITERATIONS]
    deepest = regs[R_DEEPEST]
    stop_at = expanded + node_budget
    capacity = path.shape[0] - 2
    status = BUDGET
    b = np.uint64(path[depth + 1])
    parent = np.uint64(path[depth])
    h = np.int64(hvals[depth + 1])
    k = np.uint64(child[depth + 1])
    room = threshold - depth - 1  # a child may have h <= room
    if k == 0:
        if expanded >= stop_at:
            regs[R_GENERATED] = generated  # nothing done; registers unchanged
            return BUDGET
        expanded += 1
    while True:
        c = np.uint64(flat_nbrs[(b << k_shift) + k])
        if c != end:
            k += one
            if c == parent:
                continue
            t = np.uint64(state[c])
            row = t << t_shift
            nh = h + flat_cost[row + b] - flat_cost[row + c]
            generated += 1
            if nh > room:
                if nh - room < excess:
                    excess = nh - room
                continue
            child[depth + 1] = k
            state[b] = t
            state[c] = blank_home
            depth += 1
            room -= 1
            path[depth + 1] = c
            hvals[depth + 1] = nh
            parent = b
            b = c
            h = nh
            k = np.uint64(0)
            if nh == 0:
                status = FOUND
                break
            if expanded >= stop_at:
                break
            expanded += 1
        elif depth > 0:  # children exhausted: undo the move that led here
            state[b] = state[parent]
            state[parent] = blank_home
            depth -= 1
            room += 1
            b = parent
            parent = np.uint64(path[depth])
            h = np.int64(hvals[depth + 1])
            k = np.uint64(child[depth + 1])
        else:  # the iteration ended without a solution
            iterations += 1
            if excess >= INF:
                status = EXHAUSTED
                break
            threshold += excess
            excess = INF
            room = threshold - 1
            k = np.uint64(0)
            if threshold >= capacity:
                status = GROW
                break
            if expanded >= stop_at:
                break
            expanded += 1
    child[depth + 1] = k
    deepest = max(deepest, depth)
    regs[R_DEPTH] = depth
    regs[R_THRESHOLD] = threshold
    regs[R_NEXT] = min(threshold + excess, INF)
    regs[R_GENERATED] = generated
    regs[R_EXPANDED] = expanded
    regs[R_ITERATIONS] = iterations
    regs[R_DEEPEST] = deepest
    return status


@njit
def idastar_lc(
    state: np.ndarray,
    blank_home: int,
    width: int,
    height: int,
    nbrs: np.ndarray,
    table: np.ndarray,
    path: np.ndarray,
    child: np.ndarray,
    hvals: np.ndarray,
    regs: np.ndarray,
    node_budget: int,
    lc: np.ndarray,
    saved_line: np.ndarray,
    saved_lc: np.ndarray,
    tails: np.ndarray,
    row_of: np.ndarray,
    col_of: np.ndarray,
) -> int:
    """IDA* in the single-tile metric with Manhattan + linear conflict, updated incrementally.

    ``table`` is the Manhattan table; ``lc[line]`` (``int32[width + height]``, rows then columns) holds the
    current conflict count of every line. A horizontal move changes only columns, a vertical one only rows,
    and only the moved tile's home line can change, so at most one line is recomputed per child.
    ``saved_line``/``saved_lc`` (``int32[capacity + 2]``) remember the line a move changed and its old
    count, to restore on backtracking (``saved_line = -1``: none). ``row_of``/``col_of`` (``cell_dtype[n]``)
    replace divisions by ``width``."""
    end = nbrs[0, nbrs.shape[1] - 1]
    depth = regs[R_DEPTH]
    threshold = regs[R_THRESHOLD]
    excess = regs[R_NEXT] - threshold
    generated = regs[R_GENERATED]
    expanded = regs[R_EXPANDED]
    iterations = regs[R_ITERATIONS]
    deepest = regs[R_DEEPEST]
    stop_at = expanded + node_budget
    capacity = path.shape[0] - 2
    status = BUDGET
    b = path[depth + 1]
    parent = path[depth]
    h = np.int64(hvals[depth + 1])
    k = np.int64(child[depth + 1])
    room = threshold - depth - 1
    if k == 0:
        if expanded >= stop_at:
            return BUDGET
        expanded += 1
    while True:
        c = nbrs[b, k]
        if c != end:
            k += 1
            if c == parent:
                continue
            t = state[c]
            nh = h + table[t, b] - table[t, c]
            line = -1
            if row_of[b] == row_of[c]:  # horizontal move: only column conflicts can change
                home_col = col_of[t]
                if col_of[c] == home_col or col_of[b] == home_col:
                    line = height + np.int64(home_col)
            else:
                home_row = row_of[t]
                if row_of[c] == home_row or row_of[b] == home_row:
                    line = np.int64(home_row)
            new_lc = 0
            if line >= 0:
                state[b] = t
                state[c] = blank_home
                new_lc = line_conflicts_tab(state, line, width, height, blank_home, tails, row_of, col_of)
                state[c] = t
                state[b] = blank_home
                nh += 2 * (new_lc - lc[line])
            generated += 1
            if nh > room:
                if nh - room < excess:
                    excess = nh - room
                continue
            child[depth + 1] = k
            state[b] = t
            state[c] = blank_home
            depth += 1
            room -= 1
            path[depth + 1] = c
            hvals[depth + 1] = nh
            saved_line[depth + 1] = line
            if line >= 0:
                saved_lc[depth + 1] = lc[line]
                lc[line] = new_lc
            parent = b
            b = c
            h = nh
            k = 0
            if depth > deepest:
                deepest = depth
            if nh == 0:
                status = FOUND
                break
            if expanded >= stop_at:
                break
            expanded += 1
        elif depth > 0:
            state[b] = state[parent]
            state[parent] = blank_home
            line = saved_line[depth + 1]
            if line >= 0:
                lc[line] = saved_lc[depth + 1]
            depth -= 1
            room += 1
            b = parent
            parent = path[depth]
            h = np.int64(hvals[depth + 1])
            k = np.int64(child[depth + 1])
        else:
            iterations += 1
            if excess >= INF:
                status = EXHAUSTED
                break
            threshold += excess
            excess = INF
            room = threshold - 1
            k = 0
            if threshold >= capacity:
                status = GROW
                break
            if expanded >= stop_at:
                break
            expanded += 1
    child[depth + 1] = k
    regs[R_DEPTH] = depth
    regs[R_THRESHOLD] = threshold
    regs[R_NEXT] = min(threshold + excess, INF)
    regs[R_GENERATED] = generated
    regs[R_EXPANDED] = expanded
    regs[R_ITERATIONS] = iterations
    regs[R_DEEPEST] = deepest
    return status


@njit
def idastar_general(
    state: np.ndarray,
    blank_home: int,
    width: int,
    height: int,
    kind: int,
    metric: int,
    nbrs: np.ndarray,
    orient: np.ndarray,
    table: np.ndarray,
    path: np.ndarray,
    child: np.ndarray,
    hvals: np.ndarray,
    regs: np.ndarray,
    node_budget: int,
    scratch: np.ndarray,
) -> int:
    """IDA* for any heuristic kind and either metric, recomputing ``h`` from scratch for every child (the
    multi-tile metric's path; ``nbrs``/``orient`` must be that metric's tables; ``table`` is
    :func:`.heuristics.table_for` of ``kind``, for MULTI_PDB the packed pattern tables of
    :mod:`.multi_pdb`). ``h == 0`` must hold only at the goal, which is true of every kind in
    :mod:`.heuristics`."""
    end = nbrs[0, nbrs.shape[1] - 1]
    depth = regs[R_DEPTH]
    threshold = regs[R_THRESHOLD]
    excess = regs[R_NEXT] - threshold
    generated = regs[R_GENERATED]
    expanded = regs[R_EXPANDED]
    iterations = regs[R_ITERATIONS]
    deepest = regs[R_DEEPEST]
    stop_at = expanded + node_budget
    capacity = path.shape[0] - 2
    status = BUDGET
    b = path[depth + 1]
    parent = path[depth]
    k = np.int64(child[depth + 1])
    room = threshold - depth - 1
    if k == 0:
        if expanded >= stop_at:
            return BUDGET
        expanded += 1
    while True:
        c = nbrs[b, k]
        if c != end:
            k += 1
            if c == parent:
                continue
            if metric == MULTI and depth > 0:
                previous_horizontal = parent // width == b // width
                if (orient[b, k - 1] == 0) == previous_horizontal:
                    continue  # two slides along one line: one slide (or none) would do
            slide(state, b, c, width)
            nh = heuristic(state, kind, width, height, blank_home, table, scratch)
            generated += 1
            if nh > room:
                if nh - room < excess:
                    excess = nh - room
                slide(state, c, b, width)
                continue
            child[depth + 1] = k
            depth += 1
            room -= 1
            path[depth + 1] = c
            hvals[depth + 1] = nh
            parent = b
            b = c
            k = 0
            if depth > deepest:
                deepest = depth
            if nh == 0:
                status = FOUND
                break
            if expanded >= stop_at:
                break
            expanded += 1
        elif depth > 0:
            slide(state, b, parent, width)
            depth -= 1
            room += 1
            b = parent
            parent = path[depth]
            k = np.int64(child[depth + 1])
        else:
            iterations += 1
            if excess >= INF:
                status = EXHAUSTED
                break
            threshold += excess
            excess = INF
            room = threshold - 1
            k = 0
            if threshold >= capacity:
                status = GROW
                break
            if expanded >= stop_at:
                break
            expanded += 1
    child[depth + 1] = k
    regs[R_DEPTH] = depth
    regs[R_THRESHOLD] = threshold
    regs[R_NEXT] = min(threshold + excess, INF)
    regs[R_GENERATED] = generated
    regs[R_EXPANDED] = expanded
    regs[R_ITERATIONS] = iterations
    regs[R_DEEPEST] = deepest
    return status


@njit
def _init_lc(
    state: np.ndarray, width: int, height: int, blank_home: int, lc: np.ndarray, tails: np.ndarray
) -> int:
    total = 0
    for line in range(width + height):
        lc[line] = line_conflicts(state, line, width, height, blank_home, tails)
        total += lc[line]
    return total


def lc_work(
    state: np.ndarray, width: int, height: int, blank_home: int, capacity: int
) -> tuple[np.ndarray, ...]:
    """``(lc, saved_line, saved_lc, tails, row_of, col_of)``: the extra arguments of :func:`idastar_lc`,
    ``lc`` filled in for ``state``."""
    lc = np.zeros(width + height, dtype=np.int32)
    saved_line = np.full(capacity + 2, -1, dtype=np.int32)
    saved_lc = np.zeros(capacity + 2, dtype=np.int32)
    tails = np.zeros(2 * (width + height) + 4, dtype=np.int32)
    _init_lc(state, width, height, blank_home, lc, tails)
    row_of, col_of = row_col_tables(width, height)
    return lc, saved_line, saved_lc, tails, row_of, col_of


def row_col_tables(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """``(row_of, col_of)``: row and column of every cell, in the cell dtype."""
    n = width * height
    rows, cols = np.divmod(np.arange(n), width)
    return rows.astype(cell_dtype(n)), cols.astype(cell_dtype(n))


@njit
def idastar_batch(
    starts: np.ndarray,
    blank_home: int,
    width: int,
    height: int,
    kind: int,
    metric: int,
    nbrs: np.ndarray,
    orient: np.ndarray,
    table: np.ndarray,
    padded_nbrs: np.ndarray,
    padded_cost: np.ndarray,
    capacity: int,
    fast: bool,
    row_of: np.ndarray,
    col_of: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve every row of ``starts`` (``[m, n_cells]``, all solvable) to optimality.

    ``fast`` picks :func:`idastar_table` (kinds 0, 1; ``padded_nbrs``/``padded_cost`` from
    :func:`.heuristics.padded_rows` of ``nbrs`` and ``table``) or
    :func:`idastar_lc` (kind 2), single metric only, instead of :func:`idastar_general` (any kind, ``table``
    from :func:`.heuristics.table_for`: the multi-tile metric with CROSSINGS or MULTI_PDB). Returns
    ``(lengths int32[m], replay_ok bool[m], generated int64[m])``; ``lengths[i] = -1`` when ``capacity``
    moves were not enough. Every path is replayed in the kernel (and checked to use single-tile moves in
    the single metric).
    """
    m = starts.shape[0]
    lengths = np.full(m, -1, dtype=np.int32)
    ok = np.zeros(m, dtype=np.bool_)
    generated = np.zeros(m, dtype=np.int64)
    scratch = np.zeros(2 * (width + height) + 4, dtype=np.int32)
    lc = np.zeros(width + height, dtype=np.int32)
    saved_line = np.full(capacity + 2, -1, dtype=np.int32)
    saved_lc = np.zeros(capacity + 2, dtype=np.int32)
    path = np.empty(capacity + 2, dtype=nbrs.dtype)
    child = np.zeros(capacity + 2, dtype=np.uint8)
    hvals = np.zeros(capacity + 2, dtype=np.int16)
    regs = np.zeros(N_REGS, dtype=np.int64)
    cells = np.zeros(capacity, dtype=nbrs.dtype)
    end = nbrs[0, nbrs.shape[1] - 1]
    for i in range(m):
        state = starts[i].copy()
        blank_cell = 0
        for cell in range(state.shape[0]):
            if state[cell] == blank_home:
                blank_cell = cell
        h0 = heuristic(state, kind, width, height, blank_home, table, scratch)
        path[0] = end
        path[1] = blank_cell
        child[1] = 0
        hvals[1] = h0
        for r in range(N_REGS):
            regs[r] = 0
        regs[R_THRESHOLD] = h0
        regs[R_NEXT] = INF
        if h0 == 0:
            lengths[i] = 0
            ok[i] = True
            continue
        if fast and kind == 2:
            for line in range(width + height):
                lc[line] = line_conflicts(state, line, width, height, blank_home, scratch)
            status = idastar_lc(
                state,
                blank_home,
                width,
                height,
                nbrs,
                table,
                path,
                child,
                hvals,
                regs,
                1 << 62,
                lc,
                saved_line,
                saved_lc,
                scratch,
                row_of,
                col_of,
            )
        elif fast:
            status = idastar_table(state, blank_home, padded_nbrs, padded_cost, path, child, hvals, regs, 1 << 62)
        else:
            status = idastar_general(
                state,
                blank_home,
                width,
                height,
                kind,
                metric,
                nbrs,
                orient,
                table,
                path,
                child,
                hvals,
                regs,
                1 << 62,
                scratch,
            )
        generated[i] = regs[R_GENERATED]
        if status != FOUND:
            continue
        depth = regs[R_DEPTH]
        lengths[i] = depth
        for d in range(depth):
            cells[d] = path[d + 2]
        ok[i] = replay_cells(starts[i], cells, depth, blank_home, width) and (
            metric == MULTI or max_step(cells, depth, blank_cell, width) <= 1
        )
    return lengths, ok, generated


__all__ = [
    "BUDGET",
    "EXHAUSTED",
    "FOUND",
    "GROW",
    "INF",
    "N_REGS",
    "R_DEEPEST",
    "R_DEPTH",
    "R_EXPANDED",
    "R_GENERATED",
    "R_ITERATIONS",
    "R_NEXT",
    "R_THRESHOLD",
    "grow_stack",
    "idastar_batch",
    "idastar_general",
    "idastar_lc",
    "idastar_table",
    "lc_work",
    "new_stack",
    "row_col_tables",
    "row_shift",
]
