"""Pattern-database construction: layered breadth-first search over placements of a pattern's tiles.

A *pattern* is a tuple of ``k`` home cells (canonical tiles). A *placement* says which cell each of those
``k`` tiles stands on: ``cells[i]`` is the cell of the tile whose home is ``pattern[i]``. Placements are
ranked by a perfect hash into ``0 <= rank < N!/(N-k)!`` (``N = n_cells``)::

    digit[i] = cells[i] - #{j < i : cells[j] < cells[i]}        # 0 <= digit[i] < N - i
    rank     = (...((digit[0]) * (N-1) + digit[1]) * (N-2) + ...) + digit[k-1]

The search state is (placement, blank cell). Moving a non-pattern tile costs nothing, so all blank cells
connected through non-pattern cells (a *region*) are equivalent; each placement keeps a bit mask of the
blank cells already reached (``visited``) and the cells reached in the current layer (``frontier``). A move of
a pattern tile costs one. The table value of a placement is the first layer that reaches it with the blank
anywhere, i.e. the minimum over blank positions: the fewest pattern-tile moves needed to bring the pattern
home when other tiles move for free. Unreached placements (only possible when ``k == N - 1``, by parity)
keep :data:`UNREACHED`.

Masks are ``uint16`` for boards up to 16 cells, ``uint32`` up to 32 and ``int64`` up to 63 (bit ``c`` is cell ``c``;
bit 63 is never used, so shifts and tests on ``int64`` need no unsigned arithmetic).
:func:`expand_layer` runs on all cores (``numba.prange``) with each thread writing its own rows of the masks
(see its docstring), so the tables do not depend on thread scheduling.
"""

from __future__ import annotations

import numba
import numpy as np

from ._jit import njit, njit_parallel
from .intrinsics import popcount as popcount_bits  # one popcnt instruction

UNREACHED = 255  # table value of placements the search never reaches (only when k == n_cells - 1)
MAX_DEPTH = 254  # deepest layer a uint8 table can hold


@njit
def rank_placement(cells: np.ndarray, n_cells: int) -> int:
    """Perfect hash of a placement; ``cells`` is int array (k,), distinct cells ``< n_cells``."""
    k = cells.shape[0]
    rank = 0
    for i in range(k):
        c = np.int64(cells[i])  # widened: uint8 cells would wrap in plain Python (NUMBA_DISABLE_JIT=1)
        digit = c
        for j in range(i):
            if cells[j] < c:
                digit -= 1
        rank = rank * (n_cells - i) + digit
    return rank


@njit
def _region(cell: int, free: int, width: int, not_first_col: int, not_last_col: int) -> int:
    """Bit mask of the cells connected to ``cell`` through ``free`` cells (``cell`` itself included)."""
    region = np.int64(1) << cell
    while True:
        grown = region
        grown |= (region << 1) & not_first_col
        grown |= (region >> 1) & not_last_col
        grown |= region << width
        grown |= region >> width
        grown &= free | (np.int64(1) << cell)
        if grown == region:
            return region
        region = grown


@njit
def unrank_placement_bits(rank: int, n_cells: int, cells: np.ndarray) -> None:
    """Inverse of :func:`rank_placement`: fill ``cells`` (int array (k,)) from ``rank`` (``n_cells <= 63``, the
    build's mask width; the pure-Python reference is :func:`npuzzle.heuristics.pdb.unrank_placement`).

    The cell of digit ``d`` is the ``d``-th free cell: the fixed point of
    ``c = d + #{used cells <= c}``, reached from ``c = d`` in at most ``k`` steps (usually one or two).
    """
    k = cells.shape[0]
    for i in range(k - 1, -1, -1):
        base = n_cells - i
        cells[i] = rank % base
        rank //= base
    used = np.int64(0)
    for i in range(k):
        digit = np.int64(cells[i])
        c = digit
        while True:
            nxt = digit + popcount_bits(used & ((np.int64(2) << c) - 1))
            if nxt == c:
                break
            c = nxt
        cells[i] = c
        used |= np.int64(1) << c


@njit
def expand_source(
    rank: int,
    mask: int,
    tile_lo: int,
    tile_hi: int,
    n_cells: int,
    width: int,
    neighbours: np.ndarray,
    full: int,
    not_first_col: int,
    not_last_col: int,
    masks: np.ndarray,
    table: np.ndarray,
    nxt: int,
    value: int,
    cells: np.ndarray,
    pre_rank: np.ndarray,
    pre_used: np.ndarray,
    moves: np.ndarray,
) -> tuple[int, int]:
    """Push the moves of tiles ``tile_lo <= i < tile_hi`` of placement ``rank`` whose blank may be in ``mask``.

    Returns ``(regions added, placements first reached)``. ``cells``/``pre_rank``/``pre_used`` are int64
    scratch arrays (k,) owned by the calling thread: the placement, and for each ``i`` the rank prefix
    (digits ``< i``, Horner form) and the cells of tiles ``< i``, so a move of tile ``i`` re-ranks only the
    digits from ``i`` on. ``moves``: int64 scratch (4 * k, 4) for (target rank, tile cell, blank cell, visited
    mask) of each move. A target region ``(placement, region of c)`` is new iff bit ``c`` of its visited
    mask is clear (regions are marked whole).
    """
    k = cells.shape[0]
    unrank_placement_bits(rank, n_cells, cells)
    occupied = np.int64(0)
    prefix = np.int64(0)
    for i in range(k):
        c = cells[i]
        pre_rank[i] = prefix
        pre_used[i] = occupied
        prefix = prefix * (n_cells - i) + c - popcount_bits(occupied & ((np.int64(1) << c) - 1))
        occupied |= np.int64(1) << c
    # pass 1: every move's target rank, and a read of its visited mask (independent loads, so the cache misses
    # overlap); pass 2: the pushes. Targets of one source are distinct rows, so the values read stay valid.
    n_moves = 0
    for i in range(tile_lo, tile_hi):
        c = cells[i]
        for d in range(4):
            b = np.int64(neighbours[c, d])
            if b < 0 or (mask >> b) & 1 == 0:
                continue
            # tile i slides from c into the blank at b; the blank now stands on c
            target = pre_rank[i]
            used = pre_used[i]
            for j in range(i, k):
                cj = b if j == i else cells[j]
                target = target * (n_cells - j) + cj - popcount_bits(used & ((np.int64(1) << cj) - 1))
                used |= np.int64(1) << cj
            moves[n_moves, 0] = target
            moves[n_moves, 1] = c
            moves[n_moves, 2] = b
            moves[n_moves, 3] = masks[target, 0]
            n_moves += 1
    added = 0
    first = 0
    for m in range(n_moves):
        target = moves[m, 0]
        c = moves[m, 1]
        seen = moves[m, 3]
        if (seen >> c) & 1:
            continue
        b = moves[m, 2]
        free = full & ~(occupied ^ (np.int64(1) << c) ^ (np.int64(1) << b))
        region = _region(c, free, width, not_first_col, not_last_col)
        if seen == 0:
            table[target] = value
            first += 1
        masks[target, 0] = seen | region
        masks[target, nxt] = np.int64(masks[target, nxt]) | region
        added += 1
    return added, first


@njit
def expand_block(
    lo: int,
    hi: int,
    tile_lo: int,
    tile_hi: int,
    clear: bool,
    k: int,
    n_cells: int,
    width: int,
    neighbours: np.ndarray,
    full: int,
    not_first_col: int,
    not_last_col: int,
    masks: np.ndarray,
    table: np.ndarray,
    cur: int,
    value: int,
) -> tuple[int, int]:
    """Push the moves of tiles ``tile_lo <= i < tile_hi`` of every placement ``lo <= rank < hi`` of this layer's
    frontier (column ``cur`` of ``masks``; cleared as it is read when ``clear``), see :func:`expand_source`.

    Returns ``(regions added, placements first reached)``. Allocates the calling thread's scratch arrays.
    """
    nxt = 3 - cur
    cells = np.empty(k, np.int64)
    pre_rank = np.empty(k, np.int64)
    pre_used = np.empty(k, np.int64)
    moves = np.empty((4 * k, 4), np.int64)
    added = 0
    first = 0
    for rank in range(lo, hi):
        mask = np.int64(masks[rank, cur])
        if mask == 0:
            continue
        if clear:
            masks[rank, cur] = 0
        a, f = expand_source(
            rank, mask, tile_lo, tile_hi, n_cells, width, neighbours, full, not_first_col, not_last_col,
            masks, table, nxt, value, cells, pre_rank, pre_used, moves,
        )  # fmt: skip
        added += a
        first += f
    return added, first


#: Tables with fewer placements are expanded on one thread: starting the threads of a parallel region costs
#: more than such a layer (a 3×3 table built 20-50× faster under load).
PARALLEL_MIN_PLACEMENTS = 1 << 20


def expand_cells(
    phase: int,
    cell_lo: int,
    cell_hi: int,
    n_cells: int,
    width: int,
    neighbours: np.ndarray,
    full: int,
    not_first_col: int,
    not_last_col: int,
    k: int,
    masks: np.ndarray,
    table: np.ndarray,
    depth: int,
) -> tuple[int, int]:
    """:func:`expand_cells_tasks` with its tasks handed to threads one at a time (dynamic load balance); the
    tasks of small tables (:data:`PARALLEL_MIN_PLACEMENTS`) run here one after another, on this thread."""
    if masks.shape[0] < PARALLEL_MIN_PLACEMENTS:
        args = (k, n_cells, width, neighbours, full, not_first_col, not_last_col, masks, table, 1 + depth % 2,
                depth + 1)  # fmt: skip
        n_placements = masks.shape[0]
        if k == 1:
            if phase == 1 and cell_lo == 0:
                return expand_block(0, n_placements, 0, 1, True, *args)  # type: ignore[no-any-return]
            return 0, 0
        stride0 = n_placements // n_cells
        stride1 = stride0 // (n_cells - 1)
        added = first = 0
        for c in range(cell_lo, cell_hi):  # the same tasks as expand_cells_tasks, in order
            if phase == 0:
                blocks = [(c * stride0, (c + 1) * stride0)]
            else:
                starts = [c0 * stride0 + (c - 1 if c0 < c else c) * stride1 for c0 in range(n_cells) if c0 != c]
                blocks = [(lo, lo + stride1) for lo in starts]
            for lo, hi in blocks:
                a, f = expand_block(lo, hi, 1 if phase == 0 else 0, k if phase == 0 else 1, phase == 1, *args)
                added += a
                first += f
        return added, first
    old = numba.set_parallel_chunksize(1)
    try:
        return expand_cells_tasks(  # type: ignore[no-any-return]
            phase, cell_lo, cell_hi, n_cells, width, neighbours, full, not_first_col, not_last_col, k, masks,
            table, depth,
        )  # fmt: skip
    finally:
        numba.set_parallel_chunksize(old)


@njit_parallel
def expand_cells_tasks(
    phase: int,
    cell_lo: int,
    cell_hi: int,
    n_cells: int,
    width: int,
    neighbours: np.ndarray,
    full: int,
    not_first_col: int,
    not_last_col: int,
    k: int,
    masks: np.ndarray,
    table: np.ndarray,
    depth: int,
) -> tuple[int, int]:
    """One phase of layer ``depth`` for the cells ``cell_lo <= c < cell_hi``, on all cores; returns ``(regions
    added, placements first reached)``. A layer is phase 0 then phase 1, each over all cells (in any number of
    calls, so the caller can check its limits in between).

    ``neighbours``: int8 (n_cells, 4), ``-1`` off the board. ``masks``: (n_placements, 3) of the mask dtype;
    column 0 = blank cells visited so far, column ``1 + depth % 2`` = this layer's frontier (cleared as it is
    read in phase 1), the other = the next layer's (kept in one row so a target costs one cache miss).
    ``table``: uint8 (n_placements,), written for placements reached for the first time (value ``depth + 1``).
    ``not_first_col``/``not_last_col``: masks of cells not in column 0 / column ``width - 1``.

    Race-free split (threads write disjoint rows, so the result does not depend on scheduling and tables
    built twice are identical): the rank's leading digit is the cell of tile 0, so ranks
    ``[c0 * stride0, (c0 + 1) * stride0)`` (``stride0 = n_placements / n_cells``) are the placements with tile 0
    on ``c0``. Phase 0: one task per ``c0`` pushes the moves of tiles ``1..k-1``, which keep tile 0 on ``c0``.
    Phase 1: one task per cell ``c1`` of tile 1 pushes the moves of tile 0, which keep tile 1 on ``c1``; with
    tile 0 on ``c0`` those are the ranks ``c0 * stride0 + d1 * stride1 + [0, stride1)``, ``d1 = c1 - (c0 <
    c1)``. With ``k == 1`` a move changes the only digit: phase 0 does nothing, phase 1 is one serial pass.
    """
    n_placements = masks.shape[0]
    cur = 1 + depth % 2
    value = depth + 1
    counts = np.zeros((n_cells, 2), np.int64)  # per task: added, first
    if k == 1:
        if phase == 1 and cell_lo == 0:
            a, f = expand_block(
                0, n_placements, 0, 1, True, k, n_cells, width, neighbours, full, not_first_col, not_last_col,
                masks, table, cur, value,
            )  # fmt: skip
            return a, f
        return 0, 0
    stride0 = n_placements // n_cells  # placements per cell of tile 0
    stride1 = stride0 // (n_cells - 1)  # placements per (cell of tile 0, digit of tile 1)
    for c in numba.prange(cell_lo, cell_hi):
        if phase == 0:
            a, f = expand_block(
                c * stride0, (c + 1) * stride0, 1, k, False, k, n_cells, width, neighbours, full,
                not_first_col, not_last_col, masks, table, cur, value,
            )  # fmt: skip
            counts[c, 0] = a
            counts[c, 1] = f
        else:
            a_sum = 0
            f_sum = 0
            for c0 in range(n_cells):
                if c0 == c:
                    continue
                lo = c0 * stride0 + (c - 1 if c0 < c else c) * stride1
                a, f = expand_block(
                    lo, lo + stride1, 0, 1, True, k, n_cells, width, neighbours, full, not_first_col,
                    not_last_col, masks, table, cur, value,
                )  # fmt: skip
                a_sum += a
                f_sum += f
            counts[c, 0] = a_sum
            counts[c, 1] = f_sum
    added = 0
    first = 0
    for c in range(n_cells):
        added += counts[c, 0]
        first += counts[c, 1]
    return added, first


@njit
def map_block(
    values: np.ndarray,
    n_cells: int,
    cell_map: np.ndarray,
    order: np.ndarray,
    lo: int,
    hi: int,
    out: np.ndarray,
) -> None:
    """:func:`map_table` for the ranks ``lo <= rank < hi`` (one thread's share)."""
    k = order.shape[0]
    cells = np.empty(k, np.int64)
    mapped = np.empty(k, np.int64)
    for rank in range(lo, hi):
        unrank_placement_bits(rank, n_cells, cells)
        for i in range(k):
            mapped[i] = cell_map[cells[order[i]]]
        out[rank_placement(mapped, n_cells)] = values[rank]


@njit_parallel
def map_table(values: np.ndarray, n_cells: int, cell_map: np.ndarray, order: np.ndarray, out: np.ndarray) -> None:
    """Carry a table over a board symmetry: ``out[rank of q] = values[rank of p]`` with
    ``q[i] = cell_map[p[order[i]]]`` for every placement ``p`` of the source pattern.

    ``values``/``out`` uint8 (n_placements,); ``cell_map`` int64 (n_cells,) the symmetry; ``order`` int64 (k,):
    the target pattern's ``i``-th home is the image of the source's ``order[i]``-th. A bijection on ranks, so
    the threads (one block of ranks each, by the cell of the first tile) write distinct entries.
    """
    block = values.shape[0] // n_cells
    for first in numba.prange(n_cells):
        map_block(values, n_cells, cell_map, order, first * block, (first + 1) * block, out)
