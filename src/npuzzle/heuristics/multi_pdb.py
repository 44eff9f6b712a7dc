"""Pure-Python reference for the multi-tile pattern databases of ``npuzzle._kernels.multi_pdb``.

A pattern's table gives, for every abstract state (cells of the pattern's tiles in pattern order, then the
blank's cell, ranked by :func:`npuzzle.ranking.rank_partial`), the number of multi-tile slides that bring
those tiles and the blank home when the other tiles are indistinguishable. It is admissible and consistent
for the real puzzle in both metrics (the argument is in the kernel module's docstring). Written for clarity,
not speed: a breadth-first search over small lists, sliding a whole board of markers like the test oracle,
for the tests to compare the kernel with byte for byte on boards up to 3×3.

>>> table = build_table(2, 2, 3, (0,))             # 2x2, blank home 3: tile 0 and the blank, 4*3 states
>>> len(table), table[rank_partial((0, 3), 4)], table[rank_partial((3, 0), 4)]
(12, 0, 6)
>>> multi_pdb([3, 0, 2, 1], 2, 2, 3, ((0,), (1,), (2,)))
2
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import cache
from math import perm

from ..board import line_cells
from ..ranking import rank_partial
from .simple import crossings

UNREACHED = -1  # as npuzzle._kernels.multi_pdb.UNREACHED (kept here so the reference needs no numba)
OTHER = -1  # marker of a cell holding a tile outside the pattern


def _slide(board: list[int], blank: int, target: int, width: int) -> list[int]:
    """``board`` after the blank at ``blank`` moves to ``target`` (same row or column), one swap a cell."""
    out = list(board)
    step = (1 if target // width == blank // width else width) * (1 if target > blank else -1)
    while blank != target:
        out[blank], out[blank + step] = out[blank + step], out[blank]
        blank += step
    return out


@cache
def build_table(width: int, height: int, blank_home: int, pattern: tuple[int, ...]) -> tuple[int, ...]:
    """Distance of every abstract state of ``pattern`` (index = rank; :data:`UNREACHED` where none)."""
    n = width * height
    k = len(pattern)
    start = (*pattern, blank_home)
    dist = {start: 0}  # abstract state (cells of the pattern's tiles, then the blank's) -> distance
    queue = deque([start])
    while queue:
        cells = queue.popleft()
        board = [OTHER] * n  # the index in ``cells`` of what stands on each cell: k for the blank
        for index, cell in enumerate(cells):
            board[cell] = index
        for target in line_cells(cells[k], width, height):
            after = _slide(board, cells[k], target, width)
            nxt = tuple(after.index(index) for index in range(k + 1))
            if nxt not in dist:
                dist[nxt] = dist[cells] + 1
                queue.append(nxt)
    table = [UNREACHED] * perm(n, k + 1)
    for cells, d in dist.items():
        table[rank_partial(cells, n)] = d
    return tuple(table)


def table_bytes(width: int, height: int, blank_home: int, pattern: tuple[int, ...]) -> bytes:
    """:func:`build_table` as the kernel stores it: one ``int8`` a state (:data:`UNREACHED` is ``0xFF``)."""
    return bytes(d & 0xFF for d in build_table(width, height, blank_home, pattern))


def multi_pdb(
    values: Sequence[int], width: int, height: int, blank_home: int, patterns: Sequence[tuple[int, ...]]
) -> int:
    """The larger of :func:`~npuzzle.heuristics.simple.crossings` and every pattern's table value."""
    where = {v: cell for cell, v in enumerate(values)}
    best = crossings(values, width, height, blank_home)
    for pattern in patterns:
        cells = [where[t] for t in pattern] + [where[blank_home]]
        table = build_table(width, height, blank_home, tuple(pattern))
        best = max(best, table[rank_partial(cells, width * height)])
    return best


__all__ = ["UNREACHED", "build_table", "multi_pdb", "table_bytes"]
