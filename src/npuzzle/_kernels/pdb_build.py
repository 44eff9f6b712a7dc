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

Masks are ``uint16`` for boards up to 16 cells and ``uint32`` up to 32 (bit ``c`` is cell ``c``).
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
    """Inverse of :func:`rank_placement`: fill ``cells`` (int array (k,)) from ``rank`` (``n_cells <= 32``, the
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


def expand_layer(
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
    """:func:`expand_layer_tasks` with its tasks handed to threads one at a time (dynamic load balance)."""
    old = numba.set_parallel_chunksize(1)
    try:
        return expand_layer_tasks(  # type: ignore[no-any-return]
            n_cells, width, neighbours, full, not_first_col, not_last_col, k, masks, table, depth,
        )  # fmt: skip
    finally:
        numba.set_parallel_chunksize(old)


@njit_parallel
def expand_layer_tasks(
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
    """Expand every placement of layer ``depth`` on all cores; returns ``(regions added, placements first reached)``.

    ``neighbours``: int8 (n_cells, 4), ``-1`` off the board. ``masks``: (n_placements, 3) of the mask dtype;
    column 0 = blank cells visited so far, column ``1 + depth % 2`` = this layer's frontier (cleared as it is
    read), the other = the next layer's (kept in one row so a target costs one cache miss). ``table``: uint8
    (n_placements,), written for placements reached for the first time (value ``depth + 1``).
    ``not_first_col``/``not_last_col``: masks of cells not in column 0 / column ``width - 1``.

    Race-free split (threads write disjoint rows, so the result does not depend on scheduling and tables
    built twice are identical): the rank's leading digit is the cell of tile 0, so ranks
    ``[c0 * stride0, (c0 + 1) * stride0)`` (``stride0 = n_placements / n_cells``) are the placements with tile 0
    on ``c0``. Phase A: one task per ``c0`` pushes the moves of tiles ``1..k-1``, which keep tile 0 on ``c0``.
    Phase B: one task per cell ``c1`` of tile 1 pushes the moves of tile 0, which keep tile 1 on ``c1``; with
    tile 0 on ``c0`` those are the ranks ``c0 * stride0 + d1 * stride1 + [0, stride1)``, ``d1 = c1 - (c0 <
    c1)``. Phase B also clears the frontier it read.
    """
    n_placements = masks.shape[0]
    cur = 1 + depth % 2
    nxt = 2 - depth % 2
    value = depth + 1
    counts = np.zeros((n_cells, 4), np.int64)  # per task: phase A added, A first, B added, B first
    if k == 1:  # a move changes the only digit: one serial pass (at most n_cells placements)
        cells = np.empty(1, np.int64)
        pre_rank = np.empty(1, np.int64)
        pre_used = np.empty(1, np.int64)
        moves = np.empty((4, 4), np.int64)
        for rank in range(n_placements):
            mask = np.int64(masks[rank, cur])
            if mask == 0:
                continue
            masks[rank, cur] = 0
            a, f = expand_source(
                rank, mask, 0, 1, n_cells, width, neighbours, full, not_first_col, not_last_col,
                masks, table, nxt, value, cells, pre_rank, pre_used, moves,
            )  # fmt: skip
            counts[0, 0] += a
            counts[0, 1] += f
        return counts[0, 0], counts[0, 1]
    stride0 = n_placements // n_cells  # placements per cell of tile 0
    stride1 = stride0 // (n_cells - 1)  # placements per (cell of tile 0, digit of tile 1)
    for c0 in numba.prange(n_cells):
        cells = np.empty(k, np.int64)
        pre_rank = np.empty(k, np.int64)
        pre_used = np.empty(k, np.int64)
        moves = np.empty((4 * k, 4), np.int64)
        a_sum = 0
        f_sum = 0
        for rank in range(c0 * stride0, (c0 + 1) * stride0):
            mask = np.int64(masks[rank, cur])
            if mask == 0:
                continue
            a, f = expand_source(
                rank, mask, 1, k, n_cells, width, neighbours, full, not_first_col, not_last_col,
                masks, table, nxt, value, cells, pre_rank, pre_used, moves,
            )  # fmt: skip
            a_sum += a
            f_sum += f
        counts[c0, 0] = a_sum
        counts[c0, 1] = f_sum
    for c1 in numba.prange(n_cells):
        cells = np.empty(k, np.int64)
        pre_rank = np.empty(k, np.int64)
        pre_used = np.empty(k, np.int64)
        moves = np.empty((4 * k, 4), np.int64)
        a_sum = 0
        f_sum = 0
        for c0 in range(n_cells):
            if c0 == c1:
                continue
            d1 = c1 - 1 if c0 < c1 else c1
            lo = c0 * stride0 + d1 * stride1
            for rank in range(lo, lo + stride1):
                mask = np.int64(masks[rank, cur])
                if mask == 0:
                    continue
                masks[rank, cur] = 0
                a, f = expand_source(
                    rank, mask, 0, 1, n_cells, width, neighbours, full, not_first_col, not_last_col,
                    masks, table, nxt, value, cells, pre_rank, pre_used, moves,
                )  # fmt: skip
                a_sum += a
                f_sum += f
        counts[c1, 2] = a_sum
        counts[c1, 3] = f_sum
    added = 0
    first = 0
    for c in range(n_cells):
        added += counts[c, 0] + counts[c, 2]
        first += counts[c, 1] + counts[c, 3]
    return added, first
