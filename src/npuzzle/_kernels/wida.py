"""Weighted IDA* with Manhattan distance + linear conflict, resumable in chunks of nodes.

Single-tile metric, canonical form (``state[cell]`` = home cell of the tile there; the blank's value is
``blank_home``). A node at depth ``g`` with heuristic ``h`` is pruned when ``g * wd + h * wn`` exceeds the
threshold (weight ``w = wn / wd``: the first solution found is at most ``w`` times the optimum) or when
``g + h >= bound`` (it cannot lead to an answer shorter than ``bound``, the best length known; ``h`` is
admissible). Children are searched lowest ``h`` first (ties in neighbour order), so large weights behave
like a depth-first greedy search.

Arrays: ``md`` is ``int32[n_cells * n_cells]``, ``md[home * n_cells + cell]`` the taxicab distance (0 for
the blank); ``nbr`` the ``int32[n_cells * 4]`` neighbour table of :func:`npuzzle._kernels.reduce.neighbour_table`;
``lc`` ``int32[width + height]`` the conflict count of each line (rows, then columns), ``tails`` scratch for
:func:`npuzzle._kernels.heuristics.line_conflicts`. The search stack (``capacity`` deep): ``kids``
``int32[capacity, 4]`` children cells in search order, ``n_kids``/``next_kid``/``entered`` ``int32[capacity]``,
``moved`` ``int32[capacity]`` the cell the blank moved to at each depth (the path), ``undo_line``/``undo_lc``
``int32[capacity]`` the line whose conflict count a move changed and its old count (-1: none). ``regs``
``int64[N_REGS]`` holds the scalars between calls (see the ``R_*`` names).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .heuristics import line_conflicts

R_DEPTH = 0
R_THRESHOLD = 1  # scaled: compare g * wd + h * wn with it
R_NEXT = 2  # smallest scaled f pruned by the threshold in this iteration (INFINITE: none)
R_NODES = 3  # nodes entered so far
R_BLANK = 4
R_MD = 5
R_LC = 6  # sum of lc
R_START = 7  # the start's blank cell
N_REGS = 8
INFINITE = 1 << 62

FOUND = 0  # a solution of regs[R_DEPTH] moves is in moved[:depth]
EXHAUSTED = 1  # the iteration ended without one; regs[R_NEXT] is the next threshold (INFINITE: none left)
BUDGET = 2  # the node budget ran out; call again to continue
OVERFLOW = 3  # the stack is full (the threshold allows paths longer than capacity)


@njit
def _line_of_move(tile: int, old_cell: int, new_cell: int, width: int, height: int) -> int:
    """The only line whose conflicts a move of ``tile`` can change (-1: none): a horizontal move changes the
    columns the tile is in, so only its home column can change; a vertical move, only its home row."""
    if old_cell // width == new_cell // width:  # horizontal
        home_col = tile % width
        if old_cell % width == home_col or new_cell % width == home_col:
            return height + home_col
        return -1
    home_row = tile // width
    if old_cell // width == home_row or new_cell // width == home_row:
        return home_row
    return -1


@njit
def _move(
    state: np.ndarray,
    cell: int,
    blank_home: int,
    width: int,
    height: int,
    md: np.ndarray,
    lc: np.ndarray,
    tails: np.ndarray,
    regs: np.ndarray,
) -> tuple[int, int]:
    """Slide the tile in ``cell`` into the blank; update ``regs`` (blank, Manhattan, conflicts). Returns the
    line whose conflict count changed and its old count, for :func:`_unmove` (-1, 0: none)."""
    n = state.shape[0]
    blank = regs[R_BLANK]
    tile = state[cell]
    regs[R_MD] += md[tile * n + blank] - md[tile * n + cell]
    state[blank] = tile
    state[cell] = blank_home
    regs[R_BLANK] = cell
    line = _line_of_move(tile, cell, blank, width, height)
    old = 0
    if line >= 0:
        old = lc[line]
        lc[line] = line_conflicts(state, line, width, height, blank_home, tails)
        regs[R_LC] += lc[line] - old
    return line, old


@njit
def _unmove(
    state: np.ndarray,
    previous_blank: int,
    blank_home: int,
    md: np.ndarray,
    lc: np.ndarray,
    line: int,
    old: int,
    regs: np.ndarray,
) -> None:
    """Undo :func:`_move`: the tile now in ``previous_blank`` slides back."""
    n = state.shape[0]
    blank = regs[R_BLANK]
    tile = state[previous_blank]
    regs[R_MD] += md[tile * n + blank] - md[tile * n + previous_blank]
    state[blank] = tile
    state[previous_blank] = blank_home
    regs[R_BLANK] = previous_blank
    if line >= 0:
        regs[R_LC] += old - lc[line]
        lc[line] = old


@njit
def init_lc(
    state: np.ndarray, width: int, height: int, blank_home: int, lc: np.ndarray, tails: np.ndarray
) -> int:
    """Fill ``lc`` for ``state``; returns the sum."""
    total = 0
    for line in range(width + height):
        lc[line] = line_conflicts(state, line, width, height, blank_home, tails)
        total += lc[line]
    return total


@njit
def _came_from(moved: np.ndarray, depth: int, regs: np.ndarray) -> int:
    """The blank's cell before the move at ``depth - 1``: the cell moved to at ``depth - 2``, or the start."""
    if depth >= 2:
        return moved[depth - 2]
    return regs[R_START]


@njit
def wida_run(
    state: np.ndarray,
    blank_home: int,
    width: int,
    height: int,
    md: np.ndarray,
    nbr: np.ndarray,
    lc: np.ndarray,
    tails: np.ndarray,
    wn: int,
    wd: int,
    bound: int,
    kids: np.ndarray,
    n_kids: np.ndarray,
    next_kid: np.ndarray,
    entered: np.ndarray,
    moved: np.ndarray,
    undo_line: np.ndarray,
    undo_lc: np.ndarray,
    regs: np.ndarray,
    node_budget: int,
) -> int:
    """Continue the current iteration (threshold ``regs[R_THRESHOLD]``) for up to ``node_budget`` nodes.
    Start an iteration with ``regs[R_DEPTH] = 0``, ``entered[0] = 0``, ``regs[R_NEXT] = INFINITE``. Returns
    FOUND, EXHAUSTED, BUDGET or OVERFLOW (see there)."""
    capacity = kids.shape[0]
    stop_at = regs[R_NODES] + node_budget
    threshold = regs[R_THRESHOLD]
    child_h = np.empty(4, dtype=np.int64)
    while True:
        depth = regs[R_DEPTH]
        if entered[depth] == 0:
            if regs[R_NODES] >= stop_at:
                return BUDGET
            regs[R_NODES] += 1
            if regs[R_MD] == 0:
                return FOUND
            if depth + 1 >= capacity:
                return OVERFLOW
            blank = regs[R_BLANK]
            came_from = _came_from(moved, depth, regs) if depth > 0 else -1
            count = 0
            for k in range(4):
                cell = nbr[blank * 4 + k]
                if cell < 0:
                    break
                if cell == came_from:
                    continue
                line, old = _move(state, cell, blank_home, width, height, md, lc, tails, regs)
                h = regs[R_MD] + 2 * regs[R_LC]
                _unmove(state, blank, blank_home, md, lc, line, old, regs)
                # insertion by h, stable
                j = count
                while j > 0 and child_h[j - 1] > h:
                    child_h[j] = child_h[j - 1]
                    kids[depth, j] = kids[depth, j - 1]
                    j -= 1
                child_h[j] = h
                kids[depth, j] = cell
                count += 1
            n_kids[depth] = count
            next_kid[depth] = 0
            entered[depth] = 1
        if next_kid[depth] == n_kids[depth]:
            entered[depth] = 0
            if depth == 0:
                return EXHAUSTED
            depth -= 1
            _unmove(
                state,
                _came_from(moved, depth + 1, regs),
                blank_home,
                md,
                lc,
                undo_line[depth],
                undo_lc[depth],
                regs,
            )
            regs[R_DEPTH] = depth
            continue
        cell = kids[depth, next_kid[depth]]
        next_kid[depth] += 1
        blank = regs[R_BLANK]
        line, old = _move(state, cell, blank_home, width, height, md, lc, tails, regs)
        g = depth + 1
        h = regs[R_MD] + 2 * regs[R_LC]
        f = g * wd + h * wn
        if g + h >= bound or f > threshold:
            if g + h < bound and f < regs[R_NEXT]:
                regs[R_NEXT] = f
            _unmove(state, blank, blank_home, md, lc, line, old, regs)
            continue
        moved[depth] = cell
        undo_line[depth] = line
        undo_lc[depth] = old
        regs[R_DEPTH] = g
        entered[g] = 0


__all__ = [
    "BUDGET",
    "EXHAUSTED",
    "FOUND",
    "INFINITE",
    "N_REGS",
    "OVERFLOW",
    "R_BLANK",
    "R_DEPTH",
    "R_LC",
    "R_MD",
    "R_NEXT",
    "R_NODES",
    "R_START",
    "R_THRESHOLD",
    "init_lc",
    "wida_run",
]
