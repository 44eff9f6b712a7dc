"""Move tables and move application on canonical state arrays.

* ``state``: 1-D unsigned array (``uint8`` up to 255 cells, else ``uint16``/``uint32``: see
  :func:`cell_dtype`), ``state[cell]`` = home cell of the tile in ``cell``; the blank's value is
  ``blank_home``. Unsigned indices spare numba its negative-index wraparound code in the hot loops.
* ``nbrs``: ``cell_dtype[n_cells, max_degree + 1]`` — ``nbrs[b, k]`` for ``k < n_nbrs[b]`` are the cells the
  blank may move to from cell ``b``, followed by ``NO_CELL`` (the dtype's maximum) as an end marker.
  Single-tile metric: the 2..4 adjacent cells. Multi-tile metric: every other cell of the blank's row and
  column (moving the blank there slides all tiles in between by one).
* ``orient``: ``int8[n_cells, max_degree + 1]`` — 0 when ``nbrs[b, k]`` is in the blank's row (horizontal
  slide), 1 when in its column (vertical).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

SINGLE = 0  # metric codes passed to kernels
MULTI = 1


def metric_code(metric: str) -> int:
    """``"single"`` -> 0, ``"multi"`` -> 1."""
    if metric not in ("single", "multi"):
        raise ValueError(f"metric must be 'single' or 'multi', got {repr(metric)[:60]}")
    return MULTI if metric == "multi" else SINGLE


def cell_dtype(n_cells: int) -> type:
    """The smallest unsigned dtype holding cells ``0..n_cells-1`` with its maximum left free for
    :func:`no_cell` (uint8 up to 255 cells: every board up to 15×17)."""
    if n_cells < 0xFF:
        return np.uint8
    if n_cells < 0xFFFF:
        return np.uint16
    return np.uint32


def no_cell(n_cells: int) -> int:
    """The "no cell" marker of :func:`cell_dtype` (its maximum value)."""
    return int(np.iinfo(cell_dtype(n_cells)).max)


state_dtype = cell_dtype  # states hold cells (home cells), so they share the dtype


def neighbour_table(
    width: int, height: int, metric: int = SINGLE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(nbrs, n_nbrs, orient)`` for a ``width`` × ``height`` board (see the module docstring).

    Single metric order: up, down, left, right of the blank (those that exist).
    """
    n = width * height
    degree = 4 if metric == SINGLE else (width - 1) + (height - 1)
    nbrs = np.full((n, degree + 1), no_cell(n), dtype=cell_dtype(n))
    orient = np.zeros((n, degree + 1), dtype=np.int8)
    n_nbrs = np.zeros(n, dtype=np.int8)
    for cell in range(n):
        row, col = divmod(cell, width)
        targets: list[tuple[int, int]] = []
        if metric == SINGLE:
            if row > 0:
                targets.append((cell - width, 1))
            if row < height - 1:
                targets.append((cell + width, 1))
            if col > 0:
                targets.append((cell - 1, 0))
            if col < width - 1:
                targets.append((cell + 1, 0))
        else:
            targets += [(r * width + col, 1) for r in range(height) if r != row]
            targets += [(row * width + c, 0) for c in range(width) if c != col]
        for k, (target, o) in enumerate(targets):
            nbrs[cell, k] = target
            orient[cell, k] = o
        n_nbrs[cell] = len(targets)
    return nbrs, n_nbrs, orient


def canonical_array(values: list[int] | tuple[int, ...]) -> np.ndarray:
    """A canonical value list as a kernel state array of the right dtype."""
    return np.asarray(values, dtype=state_dtype(len(values)))


@njit
def slide(state: np.ndarray, blank_cell: int, target: int, width: int) -> None:
    """Move the blank from ``blank_cell`` to ``target`` (same row or column), sliding the tiles between
    one cell toward the old blank cell. In place. A single-tile move is the case of adjacent cells."""
    cell = np.int64(blank_cell)  # signed: cell + step may step downwards (also without the JIT)
    target = np.int64(target)
    blank = state[cell]
    if target // width == cell // width:
        step = 1 if target > cell else -1
    else:
        step = width if target > cell else -width
    while cell != target:
        state[cell] = state[cell + step]
        cell += step
    state[target] = blank


@njit
def is_goal(state: np.ndarray) -> bool:
    """True when ``state[cell] == cell`` everywhere (the canonical goal)."""
    for cell in range(state.shape[0]):  # noqa: SIM110 - numba compiles loops, not generators in all()
        if state[cell] != cell:
            return False
    return True


@njit
def replay_cells(state: np.ndarray, cells: np.ndarray, n_moves: int, blank_home: int, width: int) -> bool:
    """Apply ``cells[:n_moves]`` (blank targets) to a copy of ``state``; True iff every move is legal
    (target in the blank's row or column, adjacent for ``metric == SINGLE`` callers to check) and the goal is
    reached."""
    work = state.copy()
    n = work.shape[0]
    blank_cell = 0
    for cell in range(n):
        if work[cell] == blank_home:
            blank_cell = cell
    for i in range(n_moves):
        target = cells[i]
        if target >= n or target == blank_cell:
            return False
        if target // width != blank_cell // width and target % width != blank_cell % width:
            return False
        slide(work, blank_cell, target, width)
        blank_cell = target
    return is_goal(work)


@njit
def max_step(cells: np.ndarray, n_moves: int, start_blank: int, width: int) -> int:
    """Largest number of tiles moved by one step of a blank-target path (1 for single-tile paths)."""
    best = 0
    blank_cell = np.int64(start_blank)
    for i in range(n_moves):
        target = np.int64(cells[i])
        d = abs(target // width - blank_cell // width) + abs(target % width - blank_cell % width)
        best = max(best, d)
        blank_cell = target
    return best


__all__ = [
    "MULTI",
    "SINGLE",
    "canonical_array",
    "cell_dtype",
    "is_goal",
    "max_step",
    "metric_code",
    "neighbour_table",
    "no_cell",
    "replay_cells",
    "slide",
    "state_dtype",
]
