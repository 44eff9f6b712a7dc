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

from functools import lru_cache

import numpy as np

from ._jit import njit
from .heuristics import heuristic, line_conflicts, line_conflicts_tab
from .moves import MULTI, SINGLE, cell_dtype, max_step, neighbour_table, no_cell, replay_cells, slide

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
def load_regs(regs: np.ndarray) -> tuple[int, int, int, int, int, int, int]:
    """``(depth, threshold, excess, generated, expanded, iterations, deepest)`` from the registers, ``excess``
    being the smallest ``f - threshold`` among the children pruned so far (> 0; ``INF`` - threshold at
    first). Every IDA* kernel starts with it (inlined by LLVM: no call in the hot loop)."""
    threshold = regs[R_THRESHOLD]
    return (
        regs[R_DEPTH],
        threshold,
        regs[R_NEXT] - threshold,
        regs[R_GENERATED],
        regs[R_EXPANDED],
        regs[R_ITERATIONS],
        regs[R_DEEPEST],
    )


@njit
def save_regs(
    regs: np.ndarray,
    depth: int,
    threshold: int,
    excess: int,
    generated: int,
    expanded: int,
    iterations: int,
    deepest: int,
) -> None:
    """The inverse of :func:`load_regs` (``R_NEXT = threshold + excess``, at most ``INF``)."""
    regs[R_DEPTH] = depth
    regs[R_THRESHOLD] = threshold
    regs[R_NEXT] = min(threshold + excess, INF)
    regs[R_GENERATED] = generated
    regs[R_EXPANDED] = expanded
    regs[R_ITERATIONS] = iterations
    regs[R_DEEPEST] = deepest


@njit
def next_threshold(threshold: int, excess: int, capacity: int) -> tuple[int, int, int]:
    """``(status, threshold, excess)`` when an iteration ends at the root without a solution: ``EXHAUSTED``
    (nothing was pruned: no solution at any depth), ``GROW`` (the new threshold reaches the stack's
    ``capacity``) or ``BUDGET`` (go on), with the threshold raised by ``excess`` and ``excess`` reset."""
    if excess >= INF:
        return EXHAUSTED, threshold, excess
    threshold += excess
    return (GROW if threshold >= capacity else BUDGET), threshold, INF


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
    depth, threshold, excess, generated, expanded, iterations, deepest = load_regs(regs)
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
            status, threshold, excess = next_threshold(threshold, excess, capacity)
            room = threshold - 1
            k = np.uint64(0)
            if status != BUDGET or expanded >= stop_at:
                break
            expanded += 1
    child[depth + 1] = k
    deepest = max(deepest, depth)
    save_regs(regs, depth, threshold, excess, generated, expanded, iterations, deepest)
    return status


MAX_LINE_KEYS = 1 << 22  # conflict-table entries: a line of L cells has (L + 1)^L keys (7 cells: 2,097,152)


@njit
def n_line_keys(length: int) -> int:
    """``(length + 1) ** length``: the keys of a line of ``length`` cells (0 beyond :data:`MAX_LINE_KEYS`)."""
    keys = 1
    for _ in range(length):
        keys *= length + 1
        if keys > MAX_LINE_KEYS:
            return 0
    return keys


@njit
def conflict_table(length: int, out: np.ndarray, tails: np.ndarray) -> None:
    """``out[key] = 2 * conflicts`` of a line of ``length`` cells for every key (``out`` has
    :func:`n_line_keys` entries). Digit ``p`` of ``key`` in base ``length + 1`` belongs to the ``p``-th cell
    along the line: 0 for a cell whose tile's home is not on this line (or the blank), else 1 + the tile's
    home position along the line. Conflicts: tiles on their home line minus the longest strictly increasing
    subsequence of their home positions (as :func:`.heuristics.line_conflicts`)."""
    base = length + 1
    for key in range(out.shape[0]):
        rest = key
        count = 0
        lis = 0
        for _ in range(length):
            digit = rest % base
            rest //= base
            if digit == 0:
                continue
            count += 1
            lo = 0
            hi = lis
            while lo < hi:
                mid = (lo + hi) >> 1
                if tails[mid] < digit:
                    lo = mid + 1
                else:
                    hi = mid
            tails[lo] = digit
            if lo == lis:
                lis += 1
        out[key] = 2 * (count - lis)


@njit
def lc_tables(width: int, height: int, blank_home: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """``(lctab, code, line_of, tabled)`` for :func:`idastar_lci`.

    Lines are rows ``0..height-1`` then columns ``height..height+width-1``. A move of tile ``t`` changes the
    conflicts of one line at most: a vertical move (``o = 0``) only those of ``t``'s home row, a horizontal
    one (``o = 1``) only those of its home column; ``line_of[o * n + t]`` is that line. ``code[o * n + t,
    cell]`` (``int32[2n, n]``) is ``t``'s digit in that line's key when ``t`` stands on ``cell``: 0 off the
    line, else ``(1 + home position) * (length + 1) ** position``, so a move changes the key by
    ``code[., b] - code[., c]`` (the blank's rows are 0). ``lctab`` (``int8``) maps a row key, or a column
    key plus the number of row keys, to ``2 * conflicts``. ``tabled`` is False when a line is too long for
    the table (more than 7 cells): then ``code`` is 1 on the home line and the kernel recomputes that
    line's conflicts instead."""
    n = width * height
    row_keys = n_line_keys(width)
    col_keys = n_line_keys(height)
    tabled = row_keys > 0 and col_keys > 0
    code = np.zeros((2 * n, n), dtype=np.int32)
    line_of = np.zeros(2 * n, dtype=np.int32)
    if tabled:
        lctab = np.zeros(row_keys + col_keys, dtype=np.int8)
        tails = np.zeros(max(width, height) + 1, dtype=np.int64)
        conflict_table(width, lctab[:row_keys], tails)
        conflict_table(height, lctab[row_keys:], tails)
    else:
        lctab = np.zeros(1, dtype=np.int8)
    for t in range(n):
        line_of[t] = t // width
        line_of[n + t] = height + t % width
        if t == blank_home:
            continue
        for cell in range(n):
            r = cell // width
            c = cell % width
            if r == t // width:  # on t's home row: its digit is its home column, at position c
                code[t, cell] = 1
                if tabled:
                    code[t, cell] = (t % width + 1) * (width + 1) ** c
            if c == t % width:  # on t's home column
                code[n + t, cell] = 1
                if tabled:
                    code[n + t, cell] = (t // width + 1) * (height + 1) ** r
    return lctab, code, line_of, tabled


PACK_SHIFT = 8  # packed[row, cell] = code << PACK_SHIFT | Manhattan cost; a move changes the cost by ±1


@njit
def lc_packed(
    code: np.ndarray, width: int, blank_home: int, nbrs: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """``(packed, flat_nbrs, k_shift, c_shift)`` for :func:`idastar_lci`: ``packed`` (``int64``, flat, rows of
    ``1 << c_shift`` entries) holds ``code[row, cell] << PACK_SHIFT`` plus the Manhattan distance of tile
    ``row % n`` on ``cell`` (0 for the blank), so one subtraction gives both changes of a move; ``flat_nbrs`` is ``nbrs`` with rows padded to
    ``1 << k_shift`` entries by its end marker (shifts instead of multiplies in the hot loop)."""
    n = nbrs.shape[0]
    k_shift = row_shift(nbrs.shape[1])
    c_shift = row_shift(n)
    end = nbrs[0, nbrs.shape[1] - 1]
    flat_nbrs = np.full(n << k_shift, end, dtype=nbrs.dtype)
    for b in range(n):
        for k in range(nbrs.shape[1]):
            flat_nbrs[(b << k_shift) + k] = nbrs[b, k]
    packed = np.zeros((2 * n) << c_shift, dtype=np.int64)
    for row in range(2 * n):
        for cell in range(n):
            t = row % n
            cost = 0
            if t != blank_home:
                cost = abs(t // width - cell // width) + abs(t % width - cell % width)
            packed[(row << c_shift) + cell] = (np.int64(code[row, cell]) << PACK_SHIFT) + cost
    return packed, flat_nbrs, k_shift, c_shift


@njit
def init_lines(
    state: np.ndarray,
    width: int,
    height: int,
    blank_home: int,
    code: np.ndarray,
    tabled: bool,
    lines: np.ndarray,
    tails: np.ndarray,
) -> None:
    """Fill ``lines[line]`` for :func:`idastar_lci`: the line's key (columns offset by the number of row
    keys) when ``tabled``, else ``2 * conflicts``."""
    n = width * height
    offset = n_line_keys(width)
    for line in range(width + height):
        if not tabled:
            lines[line] = 2 * line_conflicts(state, line, width, height, blank_home, tails)
        elif line < height:
            key = 0
            for c in range(width):
                cell = line * width + c
                key += code[state[cell], cell]
            lines[line] = key
        else:
            key = offset
            for r in range(height):
                cell = r * width + line - height
                key += code[n + state[cell], cell]
            lines[line] = key


@njit
def idastar_lci(
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
    lines: np.ndarray,
    saved_line: np.ndarray,
    saved_value: np.ndarray,
    tails: np.ndarray,
    row_of: np.ndarray,
    col_of: np.ndarray,
    lctab: np.ndarray,
    code: np.ndarray,
    line_of: np.ndarray,
    tabled: bool,
    packed: np.ndarray,
    flat_nbrs: np.ndarray,
    k_shift: int,
    c_shift: int,
) -> int:
    """IDA* in the single-tile metric with Manhattan + linear conflict, updated incrementally.

    ``table`` is the Manhattan table. A move of tile ``t`` changes at most one line's conflicts (see
    :func:`lc_tables`): when ``t`` enters or leaves its home row (vertical move) or home column (horizontal
    move). ``lines[line]`` (``int32[width + height]``, :func:`init_lines`) is that line's key in ``lctab``
    when ``tabled``: per child one subtraction in ``packed`` gives the Manhattan and key changes, two
    ``lctab`` lookups the conflict change (no branch); a push or pop adds the key changes of both of the
    tile's home lines (it may also shift along its other home line). Otherwise ``lines[line]`` is the
    line's ``2 * conflicts``, recomputed with :func:`.heuristics.line_conflicts_tab` when the tile enters or
    leaves its home line, and ``saved_line``/``saved_value`` (``int32[capacity + 2]``) remember the line a
    move changed and its old value, to restore on backtracking (``saved_line = -1``: none). The trailing
    arguments are :func:`cached_lc_args`. Generates exactly the nodes of :func:`idastar_general` with
    LINEAR_CONFLICT."""
    one = np.uint64(1)
    two = np.uint64(2)
    n = np.uint64(width * height)
    ks = np.uint64(k_shift)
    cs = np.uint64(c_shift)
    end = np.uint64(nbrs[0, nbrs.shape[1] - 1])
    depth, threshold, excess, generated, expanded, iterations, deepest = load_regs(regs)
    stop_at = expanded + node_budget
    capacity = path.shape[0] - 2
    status = BUDGET
    b = np.uint64(path[depth + 1])
    parent = np.uint64(path[depth])
    h = np.int64(hvals[depth + 1])
    k = np.uint64(child[depth + 1])
    room = threshold - depth - 1
    if k == 0:
        if expanded >= stop_at:
            return BUDGET
        expanded += 1
    while True:
        c = np.uint64(flat_nbrs[(b << ks) + k])
        if c != end:
            k += one
            if c == parent:
                continue
            t = np.uint64(state[c])
            row = (
                t + n if b + one - c <= two else t
            )  # horizontal move (b - c = ±1): t's home column may change
            base = row << cs
            diff = packed[base + b] - packed[base + c]
            dk = (diff + 1) >> PACK_SHIFT  # the key change; the cost change is ±1
            nh = h + diff - (dk << PACK_SHIFT)
            line = np.int64(line_of[row])
            old = np.int64(lines[line])
            new = old + dk
            if tabled:  # no branch: dk == 0 adds 0
                nh += lctab[new] - lctab[old]
            elif dk != 0:  # a line too long for the table: recompute its conflicts
                state[b] = t
                state[c] = blank_home
                new = 2 * line_conflicts_tab(state, line, width, height, blank_home, tails, row_of, col_of)
                state[c] = t
                state[b] = blank_home
                nh += new - old
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
            if tabled:  # both home-line keys: t may also shift along its other home line
                lines[line] = new
                other = row - n if row >= n else row + n
                obase = other << cs
                lines[line_of[other]] += (packed[obase + b] - packed[obase + c] + 1) >> PACK_SHIFT
            else:
                saved_line[depth + 1] = line if dk != 0 else -1
                saved_value[depth + 1] = old
                lines[line] = new
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
        elif depth > 0:
            t = np.uint64(state[parent])
            state[b] = t
            state[parent] = blank_home
            if tabled:
                base = t << cs
                lines[line_of[t]] += (packed[base + b] - packed[base + parent] + 1) >> PACK_SHIFT
                base = (t + n) << cs
                lines[line_of[t + n]] += (packed[base + b] - packed[base + parent] + 1) >> PACK_SHIFT
            else:
                line = saved_line[depth + 1]
                if line >= 0:
                    lines[line] = saved_value[depth + 1]
            depth -= 1
            room += 1
            b = parent
            parent = np.uint64(path[depth])
            h = np.int64(hvals[depth + 1])
            k = np.uint64(child[depth + 1])
        else:
            iterations += 1
            status, threshold, excess = next_threshold(threshold, excess, capacity)
            room = threshold - 1
            k = np.uint64(0)
            if status != BUDGET or expanded >= stop_at:
                break
            expanded += 1
    child[depth + 1] = k
    deepest = max(deepest, depth)
    save_regs(regs, depth, threshold, excess, generated, expanded, iterations, deepest)
    return status


@lru_cache(maxsize=16)
def cached_lc_tables(
    width: int, height: int, blank_home: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """:func:`lc_tables`, built once per board and goal blank (read-only afterwards)."""
    lctab, code, line_of, tabled = lc_tables(width, height, blank_home)
    for array in (lctab, code, line_of):
        array.flags.writeable = False
    return lctab, code, line_of, bool(tabled)


@lru_cache(maxsize=16)
def cached_lc_args(width: int, height: int, blank_home: int) -> tuple[object, ...]:
    """The trailing arguments of :func:`idastar_lci` (``lctab .. c_shift``) for a board and goal blank."""
    lctab, code, line_of, tabled = cached_lc_tables(width, height, blank_home)
    nbrs, _, _ = neighbour_table(width, height, SINGLE)
    packed, flat_nbrs, k_shift, c_shift = lc_packed(code, width, blank_home, nbrs)
    return lctab, code, line_of, tabled, packed, flat_nbrs, int(k_shift), int(c_shift)


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
    lines: np.ndarray,
    saved_line: np.ndarray,
    saved_value: np.ndarray,
    tails: np.ndarray,
    row_of: np.ndarray,
    col_of: np.ndarray,
) -> int:
    """:func:`idastar_lci` with the tables of :func:`cached_lc_tables`; the other arguments from
    :func:`lc_work` (``lines`` filled for the start state)."""
    return int(
        idastar_lci(
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
            node_budget,
            lines,
            saved_line,
            saved_value,
            tails,
            row_of,
            col_of,
            *cached_lc_args(width, height, blank_home),
        )
    )


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
    depth, threshold, excess, generated, expanded, iterations, deepest = load_regs(regs)
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
            status, threshold, excess = next_threshold(threshold, excess, capacity)
            room = threshold - 1
            k = 0
            if status != BUDGET or expanded >= stop_at:
                break
            expanded += 1
    child[depth + 1] = k
    save_regs(regs, depth, threshold, excess, generated, expanded, iterations, deepest)
    return status


def lc_work(
    state: np.ndarray, width: int, height: int, blank_home: int, capacity: int
) -> tuple[np.ndarray, ...]:
    """``(lines, saved_line, saved_value, tails, row_of, col_of)``: the extra arguments of :func:`idastar_lc`,
    ``lines`` filled in for ``state`` (:func:`init_lines`)."""
    lines = np.zeros(width + height, dtype=np.int32)
    saved_line = np.full(capacity + 2, -1, dtype=np.int32)
    saved_value = np.zeros(capacity + 2, dtype=np.int32)
    tails = np.zeros(2 * (width + height) + 4, dtype=np.int32)
    _, code, _, tabled = cached_lc_tables(width, height, blank_home)
    init_lines(state, width, height, blank_home, code, tabled, lines, tails)
    row_of, col_of = row_col_tables(width, height)
    return lines, saved_line, saved_value, tails, row_of, col_of


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
    :func:`idastar_lci` (kind 2), single metric only, instead of :func:`idastar_general` (any kind, ``table``
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
    lines = np.zeros(width + height, dtype=np.int32)
    saved_line = np.full(capacity + 2, -1, dtype=np.int32)
    saved_value = np.zeros(capacity + 2, dtype=np.int32)
    lctab, code, line_of, tabled = lc_tables(width, height, blank_home)
    packed, flat_nbrs, k_shift, c_shift = lc_packed(code, width, blank_home, nbrs)
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
            init_lines(state, width, height, blank_home, code, tabled, lines, scratch)
            status = idastar_lci(
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
                lines,
                saved_line,
                saved_value,
                scratch,
                row_of,
                col_of,
                lctab,
                code,
                line_of,
                tabled,
                packed,
                flat_nbrs,
                k_shift,
                c_shift,
            )
        elif fast:
            status = idastar_table(
                state, blank_home, padded_nbrs, padded_cost, path, child, hvals, regs, 1 << 62
            )
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
    "MAX_LINE_KEYS",
    "N_REGS",
    "PACK_SHIFT",
    "R_DEEPEST",
    "R_DEPTH",
    "R_EXPANDED",
    "R_GENERATED",
    "R_ITERATIONS",
    "R_NEXT",
    "R_THRESHOLD",
    "cached_lc_args",
    "cached_lc_tables",
    "conflict_table",
    "grow_stack",
    "idastar_batch",
    "idastar_general",
    "idastar_lc",
    "idastar_lci",
    "idastar_table",
    "init_lines",
    "lc_packed",
    "lc_tables",
    "lc_work",
    "load_regs",
    "n_line_keys",
    "new_stack",
    "next_threshold",
    "row_col_tables",
    "row_shift",
    "save_regs",
]
