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
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

UNREACHED = 255  # table value of placements the search never reaches (only when k == n_cells - 1)
MAX_DEPTH = 254  # deepest layer a uint8 table can hold


def popcount_table() -> np.ndarray:
    """uint8 (65536,): number of set bits of every 16-bit value."""
    v = np.arange(1 << 16, dtype=np.int64)
    out = np.zeros(1 << 16, np.uint8)
    for b in range(16):
        out += ((v >> b) & 1).astype(np.uint8)
    return out


def select_table() -> np.ndarray:
    """uint8 (65536, 16): ``[mask, d]`` = position of the ``d``-th zero bit of the 16-bit ``mask``."""
    out = np.full((1 << 16, 16), 255, np.uint8)
    for mask in range(1 << 16):
        zeros = [b for b in range(16) if not (mask >> b) & 1]
        out[mask, : len(zeros)] = zeros
    return out


@njit
def rank_placement(cells: np.ndarray, n_cells: int) -> int:
    """Perfect hash of a placement; ``cells`` is int array (k,), distinct cells ``< n_cells``."""
    k = cells.shape[0]
    rank = 0
    for i in range(k):
        c = cells[i]
        digit = c
        for j in range(i):
            if cells[j] < c:
                digit -= 1
        rank = rank * (n_cells - i) + digit
    return rank


@njit
def rank_placement_fast(cells: np.ndarray, n_cells: int, popcount: np.ndarray) -> int:
    """:func:`rank_placement` for ``n_cells <= 16`` with a popcount table (``popcount_table()``)."""
    k = cells.shape[0]
    rank = 0
    used = 0
    for i in range(k):
        c = cells[i]
        digit = c - popcount[used & ((1 << c) - 1)]
        rank = rank * (n_cells - i) + digit
        used |= 1 << c
    return rank


@njit
def unrank_placement(rank: int, n_cells: int, cells: np.ndarray) -> None:
    """Inverse of :func:`rank_placement`: fill ``cells`` (int array (k,)) from ``rank``."""
    k = cells.shape[0]
    # digits, last first
    for i in range(k - 1, -1, -1):
        base = n_cells - i
        cells[i] = rank % base
        rank //= base
    used = np.int64(0)
    for i in range(k):
        digit = cells[i]
        c = 0
        while True:
            if (used >> c) & 1 == 0:
                if digit == 0:
                    break
                digit -= 1
            c += 1
        cells[i] = c
        used |= np.int64(1) << c


@njit
def unrank_placement_fast(rank: int, n_cells: int, cells: np.ndarray, select: np.ndarray) -> None:
    """:func:`unrank_placement` for ``n_cells <= 16`` with a select table (``select_table()``)."""
    k = cells.shape[0]
    for i in range(k - 1, -1, -1):
        base = n_cells - i
        cells[i] = rank % base
        rank //= base
    used = 0
    for i in range(k):
        c = np.int64(select[used, cells[i]])
        cells[i] = c
        used |= 1 << c


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
    popcount: np.ndarray,
    select: np.ndarray,
) -> tuple[int, int]:
    """Expand every placement of layer ``depth``; returns ``(regions added, placements first reached)``.

    ``neighbours``: int8 (n_cells, 4), ``-1`` off the board. ``masks``: (n_placements, 3) of the mask dtype;
    column 0 = blank cells visited so far, column ``1 + depth % 2`` = this layer's frontier (cleared as it is
    read), the other = the next layer's (kept in one row so a target costs one cache miss). ``table``: uint8
    (n_placements,), written for placements reached for the first time (value ``depth + 1``).
    ``not_first_col``/``not_last_col``: masks of cells not in column 0 / column ``width - 1``.
    ``popcount``/``select``: tables of :func:`popcount_table`/:func:`select_table` (used when
    ``n_cells <= 16``).
    """
    n_placements = masks.shape[0]
    cur = 1 + depth % 2
    nxt = 2 - depth % 2
    small = n_cells <= 16
    cells = np.empty(k, np.int64)
    added = 0
    first = 0
    value = depth + 1
    for rank in range(n_placements):
        mask = np.int64(masks[rank, cur])
        if mask == 0:
            continue
        masks[rank, cur] = 0
        if small:
            unrank_placement_fast(rank, n_cells, cells, select)
        else:
            unrank_placement(rank, n_cells, cells)
        occupied = np.int64(0)
        for i in range(k):
            occupied |= np.int64(1) << cells[i]
        for i in range(k):
            c = cells[i]
            for d in range(4):
                b = neighbours[c, d]
                if b < 0 or (mask >> b) & 1 == 0:
                    continue
                # tile i slides from c into the blank at b; the blank now stands on c
                cells[i] = b
                if small:
                    target = rank_placement_fast(cells, n_cells, popcount)
                else:
                    target = rank_placement(cells, n_cells)
                cells[i] = c
                seen = np.int64(masks[target, 0])
                if (seen >> c) & 1:
                    continue
                free = full & ~(occupied ^ (np.int64(1) << c) ^ (np.int64(1) << b))
                region = _region(c, free, width, not_first_col, not_last_col)
                if seen == 0:
                    table[target] = value
                    first += 1
                masks[target, 0] = seen | region
                masks[target, nxt] = np.int64(masks[target, nxt]) | region
                added += 1
    return added, first
