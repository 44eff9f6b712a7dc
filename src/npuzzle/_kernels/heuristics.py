"""Heuristics over canonical states (any W×H, any goal: the goal is ``arange(n_cells)`` after relabelling).

Kinds (``int`` codes passed to kernels):

* ``MISPLACED`` (0): tiles (blank excluded) not on their home cell.
* ``MANHATTAN`` (1): sum over tiles of row distance + column distance to the home cell.
* ``LINEAR_CONFLICT`` (2): Manhattan + 2 × (for every row: tiles in their home row that must leave it so
  the rest are in home-column order, i.e. count − longest increasing subsequence; the same for columns).
* ``CROSSINGS`` (3): admissible in the multi-tile metric (see :func:`crossings`).
* ``WALKING`` (5): ``max(walking distance, inversion distance)`` (Takahashi; single-tile metric), see
  :mod:`.walking`; its ``table`` is the packed ``int64`` array of :func:`.walking.pack_tables`, built on
  first use (``ValueError`` on boards whose pattern graph is too large: :func:`.walking.fits`).
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
WALKING = 5

NAMES = {
    "misplaced": MISPLACED,
    "manhattan": MANHATTAN,
    "linear-conflict": LINEAR_CONFLICT,
    "crossings": CROSSINGS,
    "multi-pdb": MULTI_PDB,
    "walking-distance": WALKING,
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


# -- walking distance from scratch (the tables and the incremental IDA* are in .walking) ----------------------
# Header of the packed table (int64[]) that :func:`.heuristics.heuristic` takes for WALKING
P_WIDTH = 0
P_HEIGHT = 1
P_BLANK = 2
P_NV = 3  # vertical patterns
P_NH = 4  # horizontal patterns
P_HEADER = 8


@njit
def pattern_key(counts: np.ndarray, blank_row: int, width: int, height: int) -> int:
    """The key of a pattern (``counts`` ``int64[height * height]``, ``counts[r * height + g]``)."""
    key = 0
    for r in range(height - 1):
        for g in range(height - 1):
            key = key * (width + 1) + counts[r * height + g]
    return key * height + blank_row


@njit
def vertical_key(
    state: np.ndarray, width: int, height: int, blank_home: int, counts: np.ndarray, by_column: bool
) -> int:
    """The vertical pattern key of a canonical ``state`` (:mod:`.walking`); ``by_column``: the horizontal
    one, i.e. the vertical key of the transposed board (``height`` wide: columns by home column).
    ``counts``: ``int64[>= max(width, height) ** 2]`` scratch."""
    lines = width if by_column else height
    for i in range(lines * lines):
        counts[i] = 0
    blank_line = 0
    for cell in range(state.shape[0]):
        t = state[cell]
        line = cell % width if by_column else cell // width
        if t == blank_home:
            blank_line = line
        else:
            counts[line * lines + (t % width if by_column else t // width)] += 1
    if by_column:
        return pattern_key(counts, blank_line, height, width)
    return pattern_key(counts, blank_line, width, height)


@njit
def find_key(keys: np.ndarray, key: int) -> int:
    """Index of ``key`` in the sorted ``keys`` (-1 when absent)."""
    i = np.searchsorted(keys, key)
    if i < keys.shape[0] and keys[i] == key:
        return i
    return -1


@njit
def steps_to_zero(inv: int, step: int) -> int:
    """Fewest changes of size at most ``step`` and of ``step``'s parity (0 allowed when ``step`` is even)
    that take ``inv`` to 0: the least ``k`` with ``k * step >= inv`` and, for odd ``step``, ``k`` of
    ``inv``'s parity. 0 when ``step`` is 0 (a board one cell wide: vertical moves keep the order)."""
    if step <= 0 or inv <= 0:
        return 0
    k = (inv + step - 1) // step
    if step % 2 == 1 and (k - inv) % 2 != 0:
        k += 1
    return k


@njit
def inversions(state: np.ndarray, width: int, height: int, blank_home: int, by_column: bool) -> int:
    """Inversions of the tiles read row by row (``by_column``: column by column, ordered by home cell in
    column order)."""
    n = width * height
    total = 0
    for i in range(n):
        ci = i if not by_column else (i % height) * width + i // height
        a = state[ci]
        if a == blank_home:
            continue
        ka = a if not by_column else (a % width) * height + a // width
        for j in range(i + 1, n):
            cj = j if not by_column else (j % height) * width + j // height
            b = state[cj]
            if b == blank_home:
                continue
            kb = b if not by_column else (b % width) * height + b // width
            if ka > kb:
                total += 1
    return total


@njit
def inversion_distance(state: np.ndarray, width: int, height: int, blank_home: int) -> int:
    """Takahashi's inversion distance (see :mod:`.walking`)."""
    return steps_to_zero(inversions(state, width, height, blank_home, False), width - 1) + steps_to_zero(
        inversions(state, width, height, blank_home, True), height - 1
    )


@njit
def walking_bound(state: np.ndarray, table: np.ndarray) -> int:
    """``max(walking distance, inversion distance)`` of ``state`` from scratch; ``table`` from
    :func:`.walking.pack_tables` (``int64``: header ``P_*``, then vertical keys and distances, horizontal
    keys and distances; read flat, so :func:`heuristic` compiles with any kind's table). A pattern missing
    from the tables (an unsolvable state) counts as 0."""
    packed = table.ravel()
    width = np.int64(packed[P_WIDTH])
    height = np.int64(packed[P_HEIGHT])
    blank_home = np.int64(packed[P_BLANK])
    nv = np.int64(packed[P_NV])
    nh = np.int64(packed[P_NH])
    counts = np.zeros(max(width, height) ** 2, dtype=np.int64)
    vkey = vertical_key(state, width, height, blank_home, counts, False)
    vi = find_key(packed[P_HEADER : P_HEADER + nv], vkey)
    hkey = vertical_key(state, width, height, blank_home, counts, True)
    hi = find_key(packed[P_HEADER + 2 * nv : P_HEADER + 2 * nv + nh], hkey)
    wd = np.int64(0)
    if vi >= 0:
        wd += np.int64(packed[P_HEADER + nv + vi])
    if hi >= 0:
        wd += np.int64(packed[P_HEADER + 2 * nv + nh + hi])
    return max(wd, np.int64(inversion_distance(state, width, height, blank_home)))


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
    if kind == WALKING:
        return walking_bound(state, table)
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
    if kind == WALKING:
        from .walking import pack_tables  # imports this module: a cycle at import time otherwise

        return pack_tables(width, height, blank_home)
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
    "P_BLANK",
    "P_HEADER",
    "P_HEIGHT",
    "P_NH",
    "P_NV",
    "P_WIDTH",
    "WALKING",
    "crossings",
    "find_key",
    "heuristic",
    "heuristic_batch",
    "heuristic_code",
    "inversion_distance",
    "inversions",
    "line_conflicts",
    "line_conflicts_tab",
    "padded_rows",
    "pattern_key",
    "steps_to_zero",
    "table_for",
    "tile_table",
    "vertical_key",
    "walking_bound",
]
