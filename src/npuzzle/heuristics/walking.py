"""Walking distance (Takahashi), pure Python: a lower bound far stronger than Manhattan on the 15-puzzle.

Vertical part: forget tile identities inside a row and keep only, for every row ``r`` and every goal row
``g``, how many tiles of home row ``g`` stand in row ``r`` (plus the blank's row). A vertical move swaps the
blank with one tile of the row above or below, changing one count by one in two rows; horizontal moves do not
change this pattern. The fewest vertical moves that turn a board's pattern into the goal's is the exact BFS
distance in the (small) graph of patterns: 24,964 patterns on 4×4. The horizontal part is the same over
columns (the transposed board). Every move is vertical or horizontal, so the sum is admissible, and
consistent (a move changes one part by at most 1).

Inversion distance (Takahashi) is a second bound from the same idea (:func:`inversion_distance`); the
heuristic named ``walking-distance`` is the larger of the two (:func:`walking_bound`).

This module is the readable reference (tables built by BFS over dictionaries on first use, about 0.2 s on
4×4); the kernels (:mod:`npuzzle._kernels.walking`) are tested against it.

>>> walking_distance([0, 1, 2, 3, 4, 5, 6, 7, 8], 3, 3, 8)  # the goal (canonical: blank 8 home in cell 8)
0
>>> walking_distance([0, 1, 2, 3, 4, 5, 6, 8, 7], 3, 3, 8)
1
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

Pattern = tuple[tuple[int, ...], int]  # (counts[r * lines + g] for row r and goal row g, blank's row)

MAX_PATTERNS = 500_000  # as the kernels (npuzzle._kernels.walking.MAX_PATTERNS): the same boards refused


def _pattern(values: Sequence[int], width: int, height: int, blank_home: int) -> Pattern:
    """The vertical pattern of canonical ``values`` (``values[cell]`` = home cell of the tile there)."""
    counts = [0] * (height * height)
    blank_row = 0
    for cell, v in enumerate(values):
        if v == blank_home:
            blank_row = cell // width
        else:
            counts[(cell // width) * height + v // width] += 1
    return tuple(counts), blank_row


_TABLES: dict[tuple[int, int, int], dict[Pattern, int]] = {}  # built tables, per (width, height, blank_home)
_TOO_BIG: dict[tuple[int, int, int], int] = {}  # the pattern budget a board's graph was found to exceed


def vertical_table(
    width: int, height: int, blank_home: int, max_patterns: int = MAX_PATTERNS
) -> dict[Pattern, int]:
    """Vertical moves from every reachable pattern to the goal's pattern (BFS from the goal; moves reverse),
    built once per process.

    Raises ``ValueError`` when the graph passes ``max_patterns`` (:data:`MAX_PATTERNS`: 4x5, 3x6, 2x7, 5x5
    and larger); that too is remembered, so asking again with the same or a smaller budget costs nothing."""
    board = (width, height, blank_home)
    if board in _TABLES:
        return _TABLES[board]
    too_big = ValueError(f"walking distance on {width}x{height}: more than {max_patterns:,} patterns")
    if _TOO_BIG.get(board, max_patterns + 1) <= max_patterns:
        raise too_big
    goal = _pattern(list(range(width * height)), width, height, blank_home)
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        pattern = queue.popleft()
        counts, blank_row = pattern
        d = dist[pattern]
        for row in (blank_row - 1, blank_row + 1):
            if not 0 <= row < height:
                continue
            for g in range(height):  # a tile of goal row g moves from `row` into the blank's row
                if counts[row * height + g] == 0:
                    continue
                nxt = list(counts)
                nxt[row * height + g] -= 1
                nxt[blank_row * height + g] += 1
                key = (tuple(nxt), row)
                if key not in dist:
                    dist[key] = d + 1
                    if len(dist) > max_patterns:
                        _TOO_BIG[board] = max(_TOO_BIG.get(board, 0), max_patterns)
                        raise too_big
                    queue.append(key)
    _TABLES[board] = dist
    return dist


def _transpose(values: Sequence[int], width: int, height: int) -> list[int]:
    """``values`` of the transposed board (cells and home cells both transposed)."""
    out = [0] * (width * height)
    for cell, v in enumerate(values):
        r, c = divmod(cell, width)
        hr, hc = divmod(v, width)
        out[c * height + r] = hc * height + hr
    return out


def walking_distance(
    values: Sequence[int], width: int, height: int, blank_home: int, max_patterns: int = MAX_PATTERNS
) -> int:
    """Vertical walking distance + horizontal walking distance of canonical ``values``."""
    vertical = vertical_table(width, height, blank_home, max_patterns)[
        _pattern(values, width, height, blank_home)
    ]
    r, c = divmod(blank_home, width)
    t_blank = c * height + r
    t_values = _transpose(values, width, height)
    horizontal = vertical_table(height, width, t_blank, max_patterns)[
        _pattern(t_values, height, width, t_blank)
    ]
    return vertical + horizontal


def _inversions(keys: list[int]) -> int:
    return sum(1 for i, a in enumerate(keys) for b in keys[i + 1 :] if a > b)


def _steps_to_zero(inv: int, step: int) -> int:
    """Fewest changes, each of ``step``'s parity and at most ``step`` in size, from ``inv`` to 0."""
    if step <= 0 or inv <= 0:
        return 0
    k = -(-inv // step)
    return k + 1 if step % 2 and (k - inv) % 2 else k


def inversion_distance(values: Sequence[int], width: int, height: int, blank_home: int) -> int:
    """Takahashi's inversion distance: a vertical move carries one tile past the ``width - 1`` tiles between
    its cell and the blank's in row-by-row order, changing that order's inversion count by at most
    ``width - 1`` (and by an amount of that parity); horizontal moves keep it. So the vertical moves left are
    at least the fewest such steps to 0 inversions (the goal, canonical, has none). Likewise horizontal
    moves, reading the tiles column by column ordered by home cell in column order."""
    rows = [v for v in values if v != blank_home]
    cols = [
        (v % width) * height + v // width for c in range(width) for v in values[c::width] if v != blank_home
    ]
    return _steps_to_zero(_inversions(rows), width - 1) + _steps_to_zero(_inversions(cols), height - 1)


def walking_bound(values: Sequence[int], width: int, height: int, blank_home: int) -> int:
    """``max(walking distance, inversion distance)``: the heuristic named ``walking-distance``."""
    return max(
        walking_distance(values, width, height, blank_home),
        inversion_distance(values, width, height, blank_home),
    )


QUICK_PATTERNS = 30_000  # quick_bound's budget per graph: 4x4's 24,964 build in about 0.1-0.2 s, once


def _first_rows(width: int, height: int, blank_home: int) -> int:
    """Count vectors row 0 can hold with the blank elsewhere (``width`` tiles; at most ``width`` of each home
    row, one less for the blank's): a cheap estimate that only decides when :func:`quick_bound` skips the
    BFS (it is a lower bound on the patterns where every such vector is reachable). Every way to spread the
    ``width`` tiles over the ``height`` home rows, but the one with all of them in the blank's home row: a
    closed form, where counting them one by one took 0.6 s on a 100x100 (the same for any ``blank_home``)."""
    return math.comb(width + height - 1, height - 1) - 1


def quick_bound(values: Sequence[int], width: int, height: int, blank_home: int) -> int | None:
    """:func:`walking_bound` when both pattern graphs have at most :data:`QUICK_PATTERNS` patterns (3x3,
    3x4, 4x3, 2x5, 4x4, ...; built on first use, once per process), else None (found out once per board
    and goal blank, at the cost of at most that many patterns)."""
    t_blank = (blank_home % width) * height + blank_home // width
    if max(_first_rows(width, height, blank_home), _first_rows(height, width, t_blank)) > QUICK_PATTERNS:
        return None  # big boards: refused at once, no BFS
    try:
        wd = walking_distance(values, width, height, blank_home, QUICK_PATTERNS)
    except ValueError:
        return None
    return max(wd, inversion_distance(values, width, height, blank_home))


__all__ = [
    "MAX_PATTERNS",
    "QUICK_PATTERNS",
    "inversion_distance",
    "quick_bound",
    "vertical_table",
    "walking_bound",
    "walking_distance",
]
