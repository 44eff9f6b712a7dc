"""Multi-tile pattern databases: abstraction tables admissible when a slide of several tiles is one move.

A *pattern* is a tuple of ``k`` tiles (home cells). The *abstract state* of a canonical state is
``cells[0:k+1]``: the cells of the pattern's tiles in pattern order, then the blank's cell; the other tiles
are indistinguishable. It is ranked lexicographically among the ``n!/(n-k-1)!`` tuples of distinct cells
(:func:`.pdb_build.rank_placement`, :func:`npuzzle.ranking.rank_partial`)::

    digit[i] = cells[i] - #{j < i : cells[j] < cells[i]}        # 0 <= digit[i] < n - i
    rank     = (...(digit[0] * (n-1) + digit[1]) * (n-2) + ...) + digit[k]

The table holds the breadth-first distance of every abstract state to the abstract goal (pattern tiles
home, blank home) in the abstract multi-tile puzzle, where the blank moves to any other cell of its row or
column and the tiles in between (pattern or not) shift one cell towards its old cell, every move costing 1.

*Admissible and consistent in the multi-tile metric* (hence also in the single-tile one, whose moves are
multi-tile moves): a real slide maps to the abstract slide of the blank to the same cell, a legal abstract
move of cost 1, so a real path of length ``L`` maps to an abstract path of length ``L`` and the abstract
distance is at most the real one; states one real move apart are one abstract move apart (the blank always
moves), so their table values differ by at most 1. A maximum of admissible, consistent heuristics is both
again, so any set of patterns (overlapping or not) combines by ``max``; not by a sum, which the single-tile
additive databases use (there only the pattern's own moves count, and a move moves one tile): one slide may
move tiles of several patterns. ``h == 0`` only at the goal when the patterns cover every tile.

This is not the additive construction of :mod:`.pdb_build` (0-1 costs, blank free, single-tile moves): here
the blank's cell is part of the abstract state and every abstract move costs 1.

Packed layout (one ``int8[n_patterns, n_cells + max_entries]`` array, the ``table`` argument of the
heuristic kind :data:`.heuristics.MULTI_PDB`):

* ``packed[p, t]`` for ``t < n_cells``: the index of tile ``t`` in pattern ``p`` (``0..k_p-1``), ``k_p`` for
  the blank (``t == blank_home``), ``-1`` for tiles outside the pattern. One pass over a state therefore
  fills ``cells[0:k_p+1]``.
* ``packed[p, n_cells + rank]``: the distance of abstract state ``rank`` (``0 <= rank < n!/(n-k_p-1)!``);
  :data:`UNREACHED` for states the search never reaches (possible only when the pattern holds every tile or
  all but one, by parity) and for the padding after a smaller pattern's table.
"""

from __future__ import annotations

import functools
from math import ceil, perm

import numpy as np

from ._jit import njit
from .moves import MULTI, cell_dtype, neighbour_table
from .pdb_build import rank_placement

UNREACHED = -1  # table value of abstract states the search never reaches (and of padding)
MAX_DEPTH = 126  # deepest layer an int8 table holds (127 is left free)
MAX_ENTRIES = 4_000_000  # table bytes of a board's default patterns together: built in about a second
MAX_PATTERN_TILES = 5  # 3x3 and 3x4: 5-tile patterns (12!/6! = 665,280 entries each)
MIN_PATTERN_TILES = 4  # 4x4: 4-tile patterns (5-tile ones, 16!/10! = 5,765,760 each, take ~8 s to build)


@njit
def build_pattern_table(
    pattern: np.ndarray,
    blank_home: int,
    width: int,
    nbrs: np.ndarray,
    n_nbrs: np.ndarray,
    out: np.ndarray,
    queue: np.ndarray,
) -> int:
    """Breadth-first search of one pattern's abstract multi-tile puzzle; returns the deepest layer.

    ``pattern``: ``int64[k]`` tiles; ``nbrs``/``n_nbrs``: the multi-metric tables of
    :func:`.moves.neighbour_table`; ``out``: ``int8[n!/(n-k-1)!]`` filled with distances (:data:`UNREACHED`
    where none); ``queue``: ``cell_dtype[n!/(n-k-1)!, k+1]`` work rows, each an abstract state's cells
    (pattern tiles, then the blank), in the order they were reached. Raises ``OverflowError`` past
    :data:`MAX_DEPTH`.
    """
    n = nbrs.shape[0]
    k = pattern.shape[0]
    cells = np.empty(k + 1, dtype=np.int64)  # the child being generated (int64: ranks overflow small dtypes)
    for r in range(out.shape[0]):
        out[r] = UNREACHED
    for j in range(k):
        cells[j] = pattern[j]
    cells[k] = blank_home
    out[rank_placement(cells, n)] = 0
    queue[0] = cells
    head = 0
    tail = 1
    layer_end = 1  # the rows before layer_end are at distance <= depth, the rest at depth + 1
    depth = 0
    while head < tail:
        if head == layer_end:
            depth += 1
            layer_end = tail
            if depth >= MAX_DEPTH:
                raise OverflowError("multi-tile pattern database deeper than an int8 table holds")
        b = np.int64(queue[head, k])
        for kk in range(n_nbrs[b]):
            c = np.int64(nbrs[b, kk])
            horizontal = c // width == b // width
            # the tiles from c up to b move one cell towards b
            step = (1 if horizontal else width) * (1 if b > c else -1)
            lo = min(b, c)
            hi = max(b, c)
            for j in range(k):
                p = np.int64(queue[head, j])
                on_line = p // width == b // width if horizontal else p % width == b % width
                cells[j] = p + step if on_line and lo <= p <= hi else p
            cells[k] = c
            r = rank_placement(cells, n)
            if out[r] == UNREACHED:
                out[r] = depth + 1
                for j in range(k + 1):
                    queue[tail, j] = cells[j]
                tail += 1
        head += 1
    return depth


@njit
def pattern_bound(state: np.ndarray, packed: np.ndarray, cells: np.ndarray) -> int:
    """The largest table value of ``state`` over the patterns of ``packed`` (module docstring);
    ``cells``: ``int32`` work array of at least ``k_p + 1`` entries for every pattern ``p``."""
    n = state.shape[0]
    best = 0
    for p in range(packed.shape[0]):
        k1 = 0
        for cell in range(n):
            j = packed[p, state[cell]]
            if j >= 0:
                cells[j] = cell
                k1 += 1
        best = max(best, np.int64(packed[p, n + rank_placement(cells[:k1], n)]))
    return best


def n_entries(n_cells: int, k: int) -> int:
    """Abstract states of a ``k``-tile pattern on ``n_cells`` cells: ``n!/(n-k-1)!`` (the blank counts)."""
    return perm(n_cells, k + 1)


def pattern_size(n_cells: int) -> int | None:
    """Tiles per pattern of :func:`default_patterns` on an ``n_cells`` board, or None when none fit.

    As large as fits: at most :data:`MAX_PATTERN_TILES` and two fewer than the board's tiles (a pattern of
    every tile, or of all but one, would be the exact distance table rather than a heuristic); at least
    :data:`MIN_PATTERN_TILES` (smaller patterns are hardly stronger than crossings) unless the board has
    fewer tiles; the ``max(2, ceil(tiles / k))`` tables hold :data:`MAX_ENTRIES` entries at most together.
    """
    m = n_cells - 1
    largest = min(MAX_PATTERN_TILES, m - 2)
    for k in range(largest, max(min(MIN_PATTERN_TILES, largest), 1) - 1, -1):
        if max(2, ceil(m / k)) * n_entries(n_cells, k) <= MAX_ENTRIES:
            return k
    return None


def default_patterns(width: int, height: int, blank_home: int) -> tuple[tuple[int, ...], ...] | None:
    """The patterns :func:`multi_pdb_table` uses, or None when none fit (:func:`pattern_size`).

    The tiles in cell order (blank skipped) covered by ``max(2, ceil(tiles / k))`` windows of ``k``
    consecutive tiles, evenly spaced from the first tile to the last (overlapping where the tiles do not
    divide evenly). 3x3: two windows of 5 tiles (``9!/3!`` = 60,480 entries each); 3x4: three of 5; 4x4:
    four of 4 (``16!/11!`` = 524,160 each); boards over 16 cells (3x6, 4x5, 5x5, ...): None.
    """
    n = width * height
    k = pattern_size(n)
    if k is None:
        return None
    tiles = [t for t in range(n) if t != blank_home]
    m = len(tiles)
    n_patterns = max(2, ceil(m / k))
    starts = [i * (m - k) // (n_patterns - 1) for i in range(n_patterns)]
    return tuple(tuple(tiles[s : s + k]) for s in starts)


def pack_tables(
    width: int, height: int, blank_home: int, patterns: tuple[tuple[int, ...], ...]
) -> np.ndarray:
    """Build every pattern's table and pack them (module docstring). ``patterns`` are tuples of distinct
    tiles other than ``blank_home``; raises ``ValueError`` when their tables exceed :data:`MAX_ENTRIES`."""
    n = width * height
    for pattern in patterns:
        if len(set(pattern)) != len(pattern) or not all(0 <= t < n and t != blank_home for t in pattern):
            raise ValueError(
                f"pattern {pattern!r} must hold distinct tiles of 0..{n - 1} other than {blank_home}"
            )
    sizes = [n_entries(n, len(pattern)) for pattern in patterns]
    if sum(sizes) > MAX_ENTRIES:
        raise ValueError(
            f"multi-tile pattern tables {sizes} on a {width}x{height} board exceed {MAX_ENTRIES:,} entries"
        )
    nbrs, n_nbrs, _ = neighbour_table(width, height, MULTI)
    packed = np.full((len(patterns), n + max(sizes)), UNREACHED, dtype=np.int8)
    for p, (pattern, size) in enumerate(zip(patterns, sizes, strict=True)):
        packed[p, list(pattern)] = np.arange(len(pattern))
        packed[p, blank_home] = len(pattern)
        queue = np.empty((size, len(pattern) + 1), dtype=cell_dtype(n))
        build_pattern_table(
            np.asarray(pattern, dtype=np.int64),
            blank_home,
            width,
            nbrs,
            n_nbrs,
            packed[p, n : n + size],
            queue,
        )
    return packed


@functools.lru_cache(maxsize=8)
def multi_pdb_table(width: int, height: int, blank_home: int) -> np.ndarray:
    """The packed tables of :func:`default_patterns` (built once per process and board; callers must not
    modify the array). Raises ``ValueError`` when none fit (:func:`fits`)."""
    patterns = default_patterns(width, height, blank_home)
    if patterns is None:
        raise ValueError(
            f"no multi-tile pattern database fits a {width}x{height} board: patterns of "
            f"{MIN_PATTERN_TILES} tiles would need over {MAX_ENTRIES:,} table entries"
        )
    return pack_tables(width, height, blank_home, patterns)


def fits(width: int, height: int) -> bool:
    """True when :func:`multi_pdb_table` can build tables for a ``width`` × ``height`` board (any goal)."""
    return pattern_size(width * height) is not None


__all__ = [
    "MAX_DEPTH",
    "MAX_ENTRIES",
    "MAX_PATTERN_TILES",
    "MIN_PATTERN_TILES",
    "UNREACHED",
    "build_pattern_table",
    "default_patterns",
    "fits",
    "multi_pdb_table",
    "n_entries",
    "pack_tables",
    "pattern_bound",
    "pattern_size",
]
