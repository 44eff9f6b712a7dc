"""Heuristics over canonical states (any W×H, any goal: the goal is ``arange(n_cells)`` after relabelling).

Kinds (``int`` codes passed to kernels):

* ``MISPLACED`` (0): tiles (blank excluded) not on their home cell.
* ``MANHATTAN`` (1): sum over tiles of row distance + column distance to the home cell.
* ``LINEAR_CONFLICT`` (2): Manhattan + 2 × (for every row: tiles in their home row that must leave it so
  the rest are in home-column order, i.e. count − longest increasing subsequence; the same for columns).
* ``CROSSINGS`` (3): admissible in the multi-tile metric (see :func:`crossings`).
* ``MULTI_PDB`` (4): the larger of CROSSINGS and multi-tile pattern databases, admissible and consistent in
  both metrics (see :mod:`.multi_pdb`); its ``table`` is the packed array of :func:`.multi_pdb.multi_pdb_table`.

MISPLACED and MANHATTAN are additive per tile: ``table[t, c]`` is tile ``t``'s contribution when standing in
cell ``c`` (row 0 of the blank is all zeros), so a move changes ``h`` by
``table[t, old_blank] - table[t, target]``.

``scratch`` arguments are ``int32`` work arrays of at least ``2 * (width + height)`` entries.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .multi_pdb import multi_pdb_table, pattern_bound

MISPLACED = 0
MANHATTAN = 1
LINEAR_CONFLICT = 2
CROSSINGS = 3
MULTI_PDB = 4

NAMES = {
    "misplaced": MISPLACED,
    "manhattan": MANHATTAN,
    "linear-conflict": LINEAR_CONFLICT,
    "crossings": CROSSINGS,
    "multi-pdb": MULTI_PDB,
}


def tile_table(kind: int, width: int, height: int, blank_home: int) -> np.ndarray:
    """``int8`` (``int16`` beyond 127 cells) table ``[tile_home, cell]`` of per-tile costs for MISPLACED or
    MANHATTAN (LINEAR_CONFLICT uses the MANHATTAN table plus line conflicts)."""
    n = width * height
    dtype = np.int8 if (width + height) <= 127 else np.int16
    rows, cols = np.divmod(np.arange(n), width)
    if kind == MISPLACED:
        table = (np.arange(n)[:, None] != np.arange(n)[None, :]).astype(dtype)
    elif kind in (MANHATTAN, LINEAR_CONFLICT):
        table = (np.abs(rows[:, None] - rows[None, :]) + np.abs(cols[:, None] - cols[None, :])).astype(dtype)
    else:
        raise ValueError(f"no per-tile table for heuristic kind {kind}")
    table[blank_home, :] = 0
    return table


@njit
def line_conflicts(
    state: np.ndarray, line: int, width: int, height: int, blank_home: int, tails: np.ndarray
) -> int:
    """Tiles that must leave line ``line`` (rows ``0..height-1``, then columns ``height..height+width-1``)
    so that the tiles standing in their home line are in home order: count minus the longest increasing
    subsequence of their home positions along the line (patience sorting in ``tails``)."""
    if line < height:
        first, step, length = line * width, 1, width
    else:
        first, step, length = line - height, width, height
    count = 0
    lis = 0
    for i in range(length):
        t = state[first + i * step]
        if t == blank_home:
            continue
        if line < height:
            if t // width != line:
                continue
            key = t % width
        else:
            if t % width != line - height:
                continue
            key = t // width
        count += 1
        # lower bound search in tails[0:lis] for key (strictly increasing subsequence)
        lo = 0
        hi = lis
        while lo < hi:
            mid = (lo + hi) >> 1
            if tails[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        tails[lo] = key
        if lo == lis:
            lis += 1
    return count - lis


@njit
def line_conflicts_tab(
    state: np.ndarray,
    line: int,
    width: int,
    height: int,
    blank_home: int,
    tails: np.ndarray,
    row_of: np.ndarray,
    col_of: np.ndarray,
) -> int:
    """:func:`line_conflicts` with ``row_of[cell]``/``col_of[cell]`` lookups instead of divisions (the
    incremental IDA* kernel's version)."""
    if line < height:
        first, step, length = line * width, 1, width
    else:
        first, step, length = line - height, width, height
    count = 0
    lis = 0
    for i in range(length):
        t = state[first + i * step]
        if t == blank_home:
            continue
        if line < height:
            if row_of[t] != line:
                continue
            key = np.int64(col_of[t])
        else:
            if col_of[t] != line - height:
                continue
            key = np.int64(row_of[t])
        count += 1
        lo = 0
        hi = lis
        while lo < hi:
            mid = (lo + hi) >> 1
            if tails[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        tails[lo] = key
        if lo == lis:
            lis += 1
    return count - lis


@njit
def crossings(state: np.ndarray, width: int, height: int, blank_home: int, scratch: np.ndarray) -> int:
    """A lower bound on multi-tile moves (also admissible, weaker, for single-tile moves).

    Cut the board between rows ``i`` and ``i + 1``. ``down[i]`` tiles stand above the cut with a home below
    it, ``up[i]`` stand below with a home above. A vertical slide moves the tiles between the blank's old
    and new cell one step in one direction, so it carries exactly one tile across each cut it spans, all in
    the same direction. Every tile counted in ``down[i]`` must cross cut ``i`` downwards at least once, so
    there are at least ``max_i down[i]`` downward and ``max_i up[i]`` upward vertical slides; likewise
    ``max_j right[j]`` and ``max_j left[j]`` horizontal ones for the cuts between columns. These four sets of
    moves are disjoint, so the sum of the four maxima is admissible. It is consistent: a slide changes each
    count by at most one, and only in one direction set, so ``h`` drops by at most 1 per move. It is 0 only at
    the goal (no tile outside its home row or column).
    """
    n_rc = height - 1
    n_cc = width - 1
    # scratch layout: down[0:n_rc], up[n_rc:2n_rc], right[2n_rc:2n_rc+n_cc], left[...]
    total = 2 * n_rc + 2 * n_cc
    for i in range(total):
        scratch[i] = 0
    for cell in range(state.shape[0]):
        t = state[cell]
        if t == blank_home:
            continue
        r = cell // width
        c = cell % width
        hr = t // width
        hc = t % width
        for i in range(r, hr):
            scratch[i] += 1
        for i in range(hr, r):
            scratch[n_rc + i] += 1
        for j in range(c, hc):
            scratch[2 * n_rc + j] += 1
        for j in range(hc, c):
            scratch[2 * n_rc + n_cc + j] += 1
    h = 0
    for part in range(4):
        if part < 2:
            start = part * n_rc
            size = n_rc
        else:
            start = 2 * n_rc + (part - 2) * n_cc
            size = n_cc
        best = 0
        for i in range(start, start + size):
            best = max(best, scratch[i])
        h += best
    return h


@njit
def heuristic(
    state: np.ndarray,
    kind: int,
    width: int,
    height: int,
    blank_home: int,
    table: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """``h(state)`` from scratch for any kind; ``table`` is :func:`table_for` that kind: :func:`tile_table` of
    MISPLACED for MISPLACED, of MANHATTAN for MANHATTAN / LINEAR_CONFLICT, the packed pattern tables for
    MULTI_PDB (ignored for CROSSINGS)."""
    if kind == CROSSINGS:
        return crossings(state, width, height, blank_home, scratch)
    if kind == MULTI_PDB:
        return max(crossings(state, width, height, blank_home, scratch), pattern_bound(state, table, scratch))
    h = 0
    for cell in range(state.shape[0]):
        h += table[state[cell], cell]
    if kind == LINEAR_CONFLICT:
        extra = 0
        for line in range(width + height):
            extra += line_conflicts(state, line, width, height, blank_home, scratch)
        h += 2 * extra
    return h


@njit
def heuristic_batch(
    states: np.ndarray, kind: int, width: int, height: int, blank_home: int, table: np.ndarray
) -> np.ndarray:
    """``h`` of every row of ``states`` (``[m, n_cells]``) as ``int32[m]``."""
    m = states.shape[0]
    out = np.empty(m, dtype=np.int32)
    scratch = np.zeros(2 * (width + height) + 4, dtype=np.int32)
    for i in range(m):
        out[i] = heuristic(states[i], kind, width, height, blank_home, table, scratch)
    return out


def heuristic_code(name: str) -> int:
    """The kernel code of a heuristic name."""
    try:
        return NAMES[name]
    except KeyError:
        raise ValueError(f"unknown heuristic {name!r}; choose one of {', '.join(NAMES)}") from None


def padded_rows(nbrs: np.ndarray, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Copies of ``nbrs`` and of a per-tile ``table`` (:func:`tile_table`) whose rows are padded to a power of
    two (``nbrs`` with its end marker, ``table`` with zeros), so a kernel finds ``nbrs[b, k]`` at
    ``(b << shift) + k`` in the flat array: a shift instead of a multiply on every generated node."""
    out = []
    for array, fill in ((nbrs, nbrs[0, nbrs.shape[1] - 1]), (table, 0)):
        width = 1 << max(0, int(array.shape[1] - 1).bit_length())
        padded = np.full((array.shape[0], width), fill, dtype=array.dtype)
        padded[:, : array.shape[1]] = array
        out.append(padded)
    return out[0], out[1]


def table_for(kind: int, width: int, height: int, blank_home: int) -> np.ndarray:
    """The table a kind's kernels need (a dummy for CROSSINGS; for MULTI_PDB the packed pattern tables, built
    on first use, ``ValueError`` where they do not fit: :func:`.multi_pdb.fits`)."""
    if kind == MULTI_PDB:
        return multi_pdb_table(width, height, blank_home)
    if kind == CROSSINGS:
        return np.zeros((width * height, width * height), dtype=np.int8)
    return tile_table(MISPLACED if kind == MISPLACED else MANHATTAN, width, height, blank_home)


__all__ = [
    "CROSSINGS",
    "LINEAR_CONFLICT",
    "MANHATTAN",
    "MISPLACED",
    "MULTI_PDB",
    "NAMES",
    "crossings",
    "heuristic",
    "heuristic_batch",
    "heuristic_code",
    "line_conflicts",
    "line_conflicts_tab",
    "padded_rows",
    "table_for",
    "tile_table",
]
