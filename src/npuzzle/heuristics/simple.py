"""Pure-Python reference heuristics over canonical values (``values[cell]`` = home cell of that tile; the
blank's value is ``blank_home``, the goal's blank cell). The kernels in ``npuzzle._kernels.heuristics`` are
tested against these.

>>> manhattan([1, 0, 2, 3], 2, 2, 3), linear_conflict([1, 0, 2, 3], 2, 2, 3), misplaced([1, 0, 2, 3], 2, 2, 3)
(2, 4, 2)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence

from .walking import walking_bound

Heuristic = Callable[[Sequence[int], int, int, int], int]


def misplaced(values: Sequence[int], width: int, height: int, blank_home: int) -> int:
    """Tiles (not the blank) away from their home cell."""
    return sum(1 for cell, v in enumerate(values) if v != blank_home and v != cell)


def manhattan(values: Sequence[int], width: int, height: int, blank_home: int) -> int:
    """Sum over tiles of rows plus columns between their cell and their home cell."""
    total = 0
    for cell, v in enumerate(values):
        if v != blank_home:
            total += abs(cell // width - v // width) + abs(cell % width - v % width)
    return total


def _removals(keys: list[int]) -> int:
    """``len(keys)`` minus its longest strictly increasing subsequence."""
    tails: list[int] = []
    for key in keys:
        i = bisect_left(tails, key)
        if i == len(tails):
            tails.append(key)
        else:
            tails[i] = key
    return len(keys) - len(tails)


def line_conflicts(values: Sequence[int], width: int, height: int, blank_home: int) -> int:
    """Over every row and column: tiles in their home line that must leave it for the others to be in order."""
    total = 0
    for row in range(height):
        keys = [
            v % width
            for v in values[row * width : (row + 1) * width]
            if v != blank_home and v // width == row
        ]
        total += _removals(keys)
    for col in range(width):
        keys = [v // width for v in values[col::width] if v != blank_home and v % width == col]
        total += _removals(keys)
    return total


def linear_conflict(values: Sequence[int], width: int, height: int, blank_home: int) -> int:
    """Manhattan + 2 × :func:`line_conflicts` (each removed tile steps out of its line and back)."""
    return manhattan(values, width, height, blank_home) + 2 * line_conflicts(
        values, width, height, blank_home
    )


def crossings(values: Sequence[int], width: int, height: int, blank_home: int) -> int:
    """Admissible for the multi-tile metric: for the cuts between rows, the most tiles that must cross one
    cut downwards plus the most that must cross one cut upwards; the same for the cuts between columns.
    A slide carries exactly one tile over each cut it spans, all in one direction (the argument is in
    :func:`npuzzle._kernels.heuristics.crossings`)."""
    down = [0] * (height - 1)
    up = [0] * (height - 1)
    right = [0] * (width - 1)
    left = [0] * (width - 1)
    for cell, v in enumerate(values):
        if v == blank_home:
            continue
        r, c, hr, hc = cell // width, cell % width, v // width, v % width
        for i in range(r, hr):
            down[i] += 1
        for i in range(hr, r):
            up[i] += 1
        for j in range(c, hc):
            right[j] += 1
        for j in range(hc, c):
            left[j] += 1
    return sum(max(part, default=0) for part in (down, up, right, left))


HEURISTICS: dict[str, Heuristic] = {
    "misplaced": misplaced,
    "manhattan": manhattan,
    "linear-conflict": linear_conflict,
    "walking-distance": walking_bound,  # max(walking distance, inversion distance); small boards only
    "crossings": crossings,
}

__all__ = ["HEURISTICS", "crossings", "line_conflicts", "linear_conflict", "manhattan", "misplaced"]
