"""Disjoint additive pattern databases for any W×H board and any goal layout.

Everything here is in the canonical form (:mod:`npuzzle.canonical`): a tile is named by its home cell, so a
*pattern* is a tuple of home cells and a *partition* splits every cell but the goal's blank cell into
disjoint patterns. A pattern's table holds, for every placement of its tiles, the fewest moves *of those
tiles* that bring them home, with the blank back on the goal's blank cell, while every other tile moves for
free; the value is the minimum over where the blank starts. Tables of disjoint patterns therefore add up to
an admissible heuristic. They are built from the goal itself: where a pattern's tiles wall in the goal's blank
cell (tiles 1 and 4 around Korf's blank in cell 0), the blank cannot get home without moving one of them, which
a search started with the blank anywhere (format 1) misses. So a table depends on the board size, its
pattern and the goal's blank cell, which is part of the file name.

Placements are ranked as in :mod:`npuzzle._kernels.pdb_build` (``rank_placement`` below is the pure-Python
reference). Numba is imported only when a table is built.

>>> p = standard_partition(4, 4, 0, "7-8")
>>> p.groups[0], len(p.groups[1])
((1, 2, 3, 4, 5, 6, 7), 8)
>>> n_placements(16, 8)
518918400
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import BoardFormatError, ProblemTooLargeError, SearchLimitExceeded

#: ``progress(message, done, total)``: called during long work (table builds, searches); ``total`` may be 0.
ProgressFn = Callable[[str, int, int], None]

UNREACHED = 255  # same as npuzzle._kernels.pdb_build.UNREACHED (kept here so lookups need no numba)
MAX_CELLS = 63  # masks are at most 63 bits: int64 kernels shift and test them without a sign bit

#: Named partitions of the 4×4 with the blank home in cell 0 (Korf's goal); other corners by symmetry.
#: 7-8 and the 3-tile row of 6-6-3 are the ones of Felner, Korf & Hanan (2004).
PARTITIONS_4X4_BLANK0: dict[str, tuple[tuple[int, ...], ...]] = {
    "7-8": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    "6-6-3": ((1, 2, 4, 5, 8, 9), (3, 6, 7, 10, 11, 15), (12, 13, 14)),
    "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
}
#: Quality order of the 4×4 partitions, best first.
PREFERENCE_4X4 = ("7-8", "6-6-3", "5-5-5")
#: Korf & Felner's (2002) partition of the 5×5 with the blank home in cell 0: a 6-tile staircase around the
#: blank and three 2×3 blocks in the other corners (rotations of each other, so one table serves all three,
#: see :func:`build_partition`). Other corners by symmetry; the reflection about the diagonal through the goal's
#: blank is used on top (:func:`reflection_cells`).
PARTITIONS_5X5_BLANK0: dict[str, tuple[tuple[int, ...], ...]] = {
    "6-6-6-6": ((1, 5, 6, 10, 11, 12), (2, 3, 4, 7, 8, 9), (13, 14, 18, 19, 23, 24), (15, 16, 17, 20, 21, 22)),
}
#: Named partitions by board size, for the goal blank in cell 0.
NAMED_PARTITIONS: dict[tuple[int, int], dict[str, tuple[tuple[int, ...], ...]]] = {
    (4, 4): PARTITIONS_4X4_BLANK0,
    (5, 5): PARTITIONS_5X5_BLANK0,
}
#: Largest table (placements) the ``auto`` partition uses on boards other than 4×4: built in seconds.
AUTO_MAX_PLACEMENTS = 20_000_000


def n_placements(n_cells: int, k: int) -> int:
    """Placements of ``k`` distinct tiles on ``n_cells`` cells: ``n_cells! / (n_cells - k)!``."""
    return math.perm(n_cells, k)


def mask_dtype(n_cells: int) -> type[np.integer[Any]]:
    """Dtype of the per-placement blank-cell masks used while building (the smallest that holds a bit per
    cell; signed 64-bit above 32 cells, as the kernels compute masks in ``int64``).

    >>> [mask_dtype(n).__name__ for n in (9, 25, 49)]
    ['uint16', 'uint32', 'int64']
    """
    if n_cells <= 16:
        return np.uint16
    if n_cells <= 32:
        return np.uint32
    if n_cells <= MAX_CELLS:
        return np.int64
    raise ProblemTooLargeError(f"pattern databases support boards of up to {MAX_CELLS} cells, got {n_cells}")


def build_memory_bytes(width: int, height: int, k: int) -> int:
    """Peak memory of building one ``k``-tile table: three mask arrays plus the uint8 table."""
    n = n_placements(width * height, k)
    return n * (3 * np.dtype(mask_dtype(width * height)).itemsize + 1)


# -- ranking (pure-Python reference of the kernels) ----------------------------------------------------------
def rank_placement(cells: Sequence[int], n_cells: int) -> int:
    """Perfect hash of a placement (``cells[i]`` = cell of the pattern's i-th tile).

    >>> rank_placement([0, 1], 4), rank_placement([3, 2], 4)
    (0, 11)
    """
    rank = 0
    for i, c in enumerate(cells):
        digit = c - sum(1 for j in range(i) if cells[j] < c)
        rank = rank * (n_cells - i) + digit
    return rank


def unrank_placement(rank: int, n_cells: int, k: int) -> list[int]:
    """Inverse of :func:`rank_placement`.

    >>> unrank_placement(11, 4, 2)
    [3, 2]
    """
    digits = [0] * k
    for i in range(k - 1, -1, -1):
        rank, digits[i] = divmod(rank, n_cells - i)
    free = list(range(n_cells))
    return [free.pop(d) for d in digits]


# -- partitions -------------------------------------------------------------------------------------------
def board_symmetries(width: int, height: int) -> list[list[int]]:
    """Cell maps ``m[cell]`` of the board's symmetries (identity first); 8 on a square, else 4."""

    def make(f: Callable[[int, int], tuple[int, int]], w2: int) -> list[int]:
        out = []
        for cell in range(width * height):
            r, c = divmod(cell, width)
            r2, c2 = f(r, c)
            out.append(r2 * w2 + c2)
        return out

    w, h = width, height
    maps = [
        make(lambda r, c: (r, c), w),
        make(lambda r, c: (r, w - 1 - c), w),
        make(lambda r, c: (h - 1 - r, c), w),
        make(lambda r, c: (h - 1 - r, w - 1 - c), w),
    ]
    if w == h:
        maps += [
            make(lambda r, c: (c, r), w),
            make(lambda r, c: (w - 1 - c, h - 1 - r), w),
            make(lambda r, c: (c, h - 1 - r), w),
            make(lambda r, c: (w - 1 - c, r), w),
        ]
    return maps


def transpose_cells(width: int, height: int) -> list[int] | None:
    """``t[cell]`` reflecting about the main diagonal, or ``None`` on a non-square board."""
    if width != height:
        return None
    return [(cell % width) * width + cell // width for cell in range(width * height)]


def reflection_cells(width: int, height: int, blank_cell: int) -> list[int] | None:
    """``t[cell]`` reflecting about a diagonal through ``blank_cell`` (the main one first), else ``None``.

    Such a reflection maps the goal with its blank on ``blank_cell`` to itself, so a state and its reflection
    are equally far from it.

    >>> reflection_cells(2, 2, 0), reflection_cells(2, 2, 1), reflection_cells(3, 2, 0)
    ([0, 2, 1, 3], [3, 1, 2, 0], None)
    """
    main = transpose_cells(width, height)
    if main is None:
        return None
    if main[blank_cell] == blank_cell:
        return main
    n = width
    anti = [(n - 1 - cell % n) * n + (n - 1 - cell // n) for cell in range(n * n)]
    return anti if anti[blank_cell] == blank_cell else None


@dataclass(frozen=True)
class Partition:
    """Disjoint patterns (tuples of home cells) covering every cell but ``blank_cell``.

    >>> Partition(2, 2, 3, ((0, 1), (2,))).sizes
    (2, 1)
    """

    width: int
    height: int
    blank_cell: int
    groups: tuple[tuple[int, ...], ...]
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        n = self.width * self.height
        mask_dtype(n)
        cells = [c for g in self.groups for c in g]
        if any(not g for g in self.groups):
            raise BoardFormatError(f"partition {self.name!r} has an empty pattern")
        expected = set(range(n)) - {self.blank_cell}
        if len(cells) != len(set(cells)) or set(cells) != expected:
            dup = sorted({c for c in cells if cells.count(c) > 1})
            missing = sorted(expected - set(cells))
            extra = sorted(set(cells) - expected)
            raise BoardFormatError(
                f"partition {self.groups!r} must split cells {sorted(expected)} into disjoint patterns "
                f"(repeated {dup}, missing {missing}, not allowed {extra})"
            )

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(g) for g in self.groups)

    @property
    def label(self) -> str:
        """``"6-6-3"``: the sizes joined by dashes."""
        return "-".join(str(s) for s in self.sizes)

    def n_entries(self) -> int:
        return sum(n_placements(self.width * self.height, len(g)) for g in self.groups)

    def reflectable(self) -> bool:
        """True when a reflection keeps the goal: square board, blank on a diagonal (:func:`reflection_cells`)."""
        return reflection_cells(self.width, self.height, self.blank_cell) is not None


def _chunk(cells: Sequence[int], sizes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    out, i = [], 0
    for s in sizes:
        out.append(tuple(cells[i : i + s]))
        i += s
    return tuple(out)


def _auto_sizes(n_cells: int, n_tiles: int, max_placements: int) -> list[int]:
    k = 1
    while k < n_tiles and n_placements(n_cells, k + 1) <= max_placements:
        k += 1
    sizes = [k] * (n_tiles // k)
    if n_tiles % k:
        sizes.append(n_tiles % k)
    return sizes


def standard_partition(width: int, height: int, blank_cell: int, name: str = "auto") -> Partition:
    """A named partition for a board whose goal has its blank in ``blank_cell``.

    4×4: ``7-8``, ``6-6-3``, ``5-5-5``; 5×5: ``6-6-6-6`` (the published layouts for the blank in cell 0, moved by
    the board symmetry that takes cell 0 to a corner ``blank_cell``; row-major chunks for a blank elsewhere).
    Any size: ``auto`` (the largest patterns with at most
    :data:`AUTO_MAX_PLACEMENTS` placements, in row-major chunks, so 3×3 and 2×5 get one exact table) or sizes
    like ``"6-6-6-6"`` (row-major chunks of those sizes).
    """
    n = width * height
    if not 0 <= blank_cell < n:
        raise BoardFormatError(f"blank cell {blank_cell} is outside a {width}x{height} board")
    cells = [c for c in range(n) if c != blank_cell]
    key = name.strip().lower()
    named = NAMED_PARTITIONS.get((width, height), {})
    if key in named:
        for sym in board_symmetries(width, height):
            if sym[0] == blank_cell:
                groups = tuple(tuple(sorted(sym[c] for c in g)) for g in named[key])
                return Partition(width, height, blank_cell, groups, key)
    if key == "auto":
        sizes = _auto_sizes(n, n - 1, AUTO_MAX_PLACEMENTS)
    else:
        from ..notation import parse_integer

        parsed = [parse_integer(s) for s in key.split("-")]
        sizes = [size for size in parsed if size is not None]
        if len(sizes) != len(parsed):  # plain digits only: int() would read "1_4" as 14
            raise BoardFormatError(
                f"partition must be a name like 7-8, 6-6-3, 5-5-5, auto or sizes like 6-6-6-6, got {name!r}"
            )
        if sum(sizes) != n - 1 or min(sizes) < 1:
            raise BoardFormatError(
                f"partition sizes {name!r} must add up to {n - 1}, the tiles of a {width}x{height} board"
            )
    return Partition(width, height, blank_cell, _chunk(cells, sizes), key)


# -- tables -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class PatternDatabase:
    """One pattern's table: ``values[rank]`` = moves of the pattern's tiles needed, uint8 (n_placements,)."""

    width: int
    height: int
    pattern: tuple[int, ...]
    values: np.ndarray = field(repr=False)

    @property
    def n_cells(self) -> int:
        return self.width * self.height

    def rank_of(self, state: Sequence[int]) -> int:
        """Rank of the pattern's placement in a canonical ``state`` (``state[cell]`` = home of its tile)."""
        where = {int(home): cell for cell, home in enumerate(state)}
        return rank_placement([where[h] for h in self.pattern], self.n_cells)

    def lookup(self, state: Sequence[int]) -> int:
        return int(self.values[self.rank_of(state)])


@dataclass(frozen=True, eq=False)
class PartitionTables:
    """All tables of a partition in one uint8 array (the on-disk layout): group ``g`` from ``offsets[g]``."""

    partition: Partition
    values: np.ndarray = field(repr=False)

    @property
    def offsets(self) -> np.ndarray:
        """int64 (n_groups,): where each group's table starts in ``values``."""
        n = self.partition.width * self.partition.height
        sizes = [n_placements(n, len(g)) for g in self.partition.groups]
        return np.array([sum(sizes[:i]) for i in range(len(sizes))], np.int64)

    def databases(self) -> list[PatternDatabase]:
        """One :class:`PatternDatabase` (a view, no copy) per group."""
        p = self.partition
        out = []
        for g, start in zip(p.groups, self.offsets, strict=True):
            count = n_placements(p.width * p.height, len(g))
            out.append(PatternDatabase(p.width, p.height, g, self.values[start : start + count]))
        return out

    def lookup(self, state: Sequence[int], reflect: bool = False) -> int:
        """The additive heuristic of a canonical ``state`` (pure Python; see :func:`additive_value`)."""
        return additive_value(self.databases(), state, reflect)


def build_partition(
    partition: Partition, progress: ProgressFn | None = None, *, deadline: float | None = None
) -> np.ndarray:
    """Build every group's table from the goal (blank on ``partition.blank_cell``); uint8 array, the groups one
    after another (see :class:`PartitionTables`). ``deadline``: see :func:`build_table`.

    A group that a board symmetry makes out of a group already built, start included (the symmetry maps that
    group's home and the blank's region at the goal onto this group's), gets the built table carried over
    (:func:`map_table`, seconds) instead of a search: 6-6-6-6's three 2×3 blocks cost one build.
    """
    p = partition
    built: list[tuple[tuple[int, ...], np.ndarray]] = []
    out = []
    for g in p.groups:
        found = _symmetric_source(p.width, p.height, p.blank_cell, g, [a for a, _ in built])
        if found is not None:
            source, sym = found
            values = dict(built)[source]
            if progress:
                progress(f"carrying the table of pattern {source} over to {g} by symmetry", 0, 0)
            out.append(map_table(p.width, p.height, values, source, g, sym))
            continue
        table = build_table(p.width, p.height, g, progress, blank_cell=p.blank_cell, deadline=deadline)
        built.append((g, table))
        out.append(table)
    return np.concatenate(out)


def _symmetric_source(
    width: int, height: int, blank_cell: int, pattern: Sequence[int], candidates: Sequence[tuple[int, ...]]
) -> tuple[tuple[int, ...], list[int]] | None:
    """A built pattern and a board symmetry mapping its start (home + blank region) onto ``pattern``'s."""
    target = sorted(pattern)
    region = free_region(width, height, blank_cell, pattern)
    for source in candidates:
        source_region = free_region(width, height, blank_cell, source)
        for sym in board_symmetries(width, height)[1:]:
            if sorted(sym[c] for c in source) == target and sorted(sym[c] for c in source_region) == region:
                return tuple(source), sym
    return None


def _symmetry_order(source: Sequence[int], target: Sequence[int], sym: Sequence[int]) -> list[int]:
    """``order[i]``: index in ``source`` of the home that ``sym`` takes to ``target[i]``."""
    where = {sym[h]: j for j, h in enumerate(source)}
    return [where[h] for h in target]


def map_table(
    width: int,
    height: int,
    values: np.ndarray,
    source: Sequence[int],
    target: Sequence[int],
    sym: Sequence[int],
) -> np.ndarray:
    """The table of ``target`` (= ``sym`` applied to ``source``) from ``source``'s, by the numba kernel."""
    from .._kernels import pdb_build

    out = np.full(values.shape[0], UNREACHED, np.uint8)
    order = np.array(_symmetry_order(source, target, sym), np.int64)
    n = width * height
    cell_map = np.array(sym, np.int64)
    if values.shape[0] >= pdb_build.PARALLEL_MIN_PLACEMENTS:
        pdb_build.map_table(values, n, cell_map, order, out)
    else:  # small: no threads to start
        pdb_build.map_block(values, n, cell_map, order, 0, values.shape[0], out)
    return out


def reference_map_table(
    width: int,
    height: int,
    values: np.ndarray,
    source: Sequence[int],
    target: Sequence[int],
    sym: Sequence[int],
) -> np.ndarray:
    """Pure-Python twin of :func:`map_table` (small tables only)."""
    n = width * height
    k = len(source)
    order = _symmetry_order(source, target, sym)
    out = np.full(values.shape[0], UNREACHED, np.uint8)
    for rank in range(values.shape[0]):
        cells = unrank_placement(rank, n, k)
        out[rank_placement([sym[cells[order[i]]] for i in range(k)], n)] = values[rank]
    return out


def additive_value(tables: Sequence[PatternDatabase], state: Sequence[int], reflect: bool = False) -> int:
    """Pure-Python reference of the IDA* heuristic: the tables' sum, or the max with the reflected sum."""
    total = sum(t.lookup(state) for t in tables)
    if reflect and tables:
        covered = {c for tab in tables for c in tab.pattern}
        uncovered = [c for c in range(len(state)) if c not in covered]  # the goal's blank, for a partition
        t = None
        if len(uncovered) == 1:
            t = reflection_cells(tables[0].width, tables[0].height, uncovered[0])
        if t is None:
            raise ProblemTooLargeError(
                "reflection needs a square board whose goal has its blank on a diagonal"
            )
        mirrored = [0] * len(state)
        for cell, home in enumerate(state):
            mirrored[t[cell]] = t[int(home)]
        total = max(total, sum(tab.lookup(mirrored) for tab in tables))
    return total


def free_region(width: int, height: int, blank_cell: int, occupied: Sequence[int]) -> list[int]:
    """Cells the blank reaches from ``blank_cell`` without moving a tile of ``occupied`` (sorted).

    >>> free_region(3, 3, 0, [1, 3])  # the blank in the top-left corner, walled in by cells 1 and 3
    [0]
    """
    nb = neighbour_table(width, height)
    blocked = set(occupied)
    seen = {blank_cell}
    todo = [blank_cell]
    while todo:
        cell = todo.pop()
        for to in nb[cell]:
            to = int(to)
            if to >= 0 and to not in blocked and to not in seen:
                seen.add(to)
                todo.append(to)
    return sorted(seen)


#: Cells per kernel call of a layer's phase when a deadline is set (limits are checked between calls).
DEADLINE_CHUNK_CELLS = 4


def build_table(
    width: int,
    height: int,
    pattern: Sequence[int],
    progress: ProgressFn | None = None,
    *,
    blank_cell: int | None = None,
    deadline: float | None = None,
) -> np.ndarray:
    """Build one pattern's table with the numba kernel (each layer on all cores); uint8 array (n_placements,).

    The search starts from the goal: the pattern's tiles home and the blank on ``blank_cell`` (the goal's
    blank cell). ``blank_cell=None`` starts with the blank on every free cell instead (the weaker tables of
    format 1, kept for comparison): where the pattern walls in the goal's blank, those miss up to a move.
    ``deadline``: a :func:`time.monotonic` time; past it the build stops between two kernel calls (a few cells
    of one layer) with :class:`~npuzzle.errors.SearchLimitExceeded` and nothing is kept.
    """
    from .._kernels import pdb_build

    n = width * height
    k = len(pattern)
    if len(set(pattern)) != k or not all(0 <= c < n for c in pattern) or k >= n:
        raise BoardFormatError(f"pattern {tuple(pattern)} is not a set of cells of a {width}x{height} board")
    if blank_cell is not None and (not 0 <= blank_cell < n or blank_cell in pattern):
        raise BoardFormatError(f"blank cell {blank_cell} is not a free cell of pattern {tuple(pattern)}")
    label = f"{width}x{height} pattern {'-'.join(map(str, pattern))}"
    _check_deadline(deadline, label, 0)
    dtype = mask_dtype(n)
    size = n_placements(n, k)
    table = np.full(size, UNREACHED, np.uint8)
    masks = np.zeros((size, 3), dtype)  # visited, layer frontiers (see expand_cells_tasks)
    neighbours = neighbour_table(width, height)
    full = (1 << n) - 1
    first_col = sum(1 << (r * width) for r in range(height))
    last_col = sum(1 << (r * width + width - 1) for r in range(height))
    start = rank_placement(pattern, n)
    if blank_cell is None:
        region = full & ~sum(1 << c for c in pattern)
    else:
        region = sum(1 << c for c in free_region(width, height, blank_cell, pattern))
    table[start] = 0
    masks[start, 0] = region
    masks[start, 1] = region
    reached, depth = 1, 0
    step = n if deadline is None else DEADLINE_CHUNK_CELLS
    if progress:
        progress(f"building {label}", reached, size)
    while True:
        added = 0
        for phase in (0, 1):
            for lo in range(0, n, step):
                _check_deadline(deadline, label, depth)
                a, first = pdb_build.expand_cells(
                    phase, lo, min(lo + step, n), n, width, neighbours, full, full & ~first_col,
                    full & ~last_col, k, masks, table, depth,
                )  # fmt: skip
                added += a
                reached += first
        if added == 0:
            break
        depth += 1
        if depth > pdb_build.MAX_DEPTH:
            raise ProblemTooLargeError(f"{label}: depth exceeds {pdb_build.MAX_DEPTH}, too deep for uint8")
        if progress:
            progress(f"building {label}: depth {depth}", reached, size)
    return table


def _check_deadline(deadline: float | None, label: str, depth: int) -> None:
    if deadline is not None and time.monotonic() >= deadline:
        raise SearchLimitExceeded(
            f"building {label} stopped at depth {depth}: time limit reached (nothing was kept)",
            None,
            "max_seconds",
        )


def neighbour_table(width: int, height: int) -> np.ndarray:
    """int8 (n_cells, 4): cell above, below, left, right, ``-1`` off the board."""
    n = width * height
    out = np.full((n, 4), -1, np.int8)
    for cell in range(n):
        r, c = divmod(cell, width)
        if r > 0:
            out[cell, 0] = cell - width
        if r < height - 1:
            out[cell, 1] = cell + width
        if c > 0:
            out[cell, 2] = cell - 1
        if c < width - 1:
            out[cell, 3] = cell + 1
    return out


def reference_table(
    width: int, height: int, pattern: Sequence[int], blank_cell: int | None = None
) -> np.ndarray:
    """Pure-Python 0-1 BFS over (placement, blank cell): the oracle of :func:`build_table` (small only).

    It starts from the pattern home with the blank on ``blank_cell`` (``None``: on every free cell)."""
    n = width * height
    k = len(pattern)
    size = n_placements(n, k)
    if size * n > 5_000_000:
        raise ProblemTooLargeError(f"reference_table is for small patterns, not {size:,} placements")
    nb = neighbour_table(width, height)
    dist: dict[tuple[tuple[int, ...], int], int] = {}
    queue: deque[tuple[tuple[int, ...], int, int]] = deque()
    home = tuple(pattern)
    for b in range(n):
        if b not in home and blank_cell in (None, b):
            queue.append((home, b, 0))
    while queue:
        cells, blank, d = queue.popleft()
        if (cells, blank) in dist:
            continue
        dist[(cells, blank)] = d
        for to in nb[blank]:
            if to < 0:
                continue
            to = int(to)
            if to in cells:
                i = cells.index(to)
                moved = (*cells[:i], blank, *cells[i + 1 :])
                queue.append((moved, to, d + 1))
            else:
                queue.appendleft((cells, to, d))
    table = np.full(size, UNREACHED, np.uint8)
    for (cells, _), d in dist.items():
        r = rank_placement(cells, n)
        table[r] = min(int(table[r]), d)
    return table


def timed_build(
    width: int,
    height: int,
    pattern: Sequence[int],
    progress: ProgressFn | None = None,
    *,
    blank_cell: int | None = None,
) -> tuple[np.ndarray, float]:
    """:func:`build_table` and its wall-clock seconds."""
    t0 = time.perf_counter()
    table = build_table(width, height, pattern, progress, blank_cell=blank_cell)
    return table, time.perf_counter() - t0


__all__ = [
    "AUTO_MAX_PLACEMENTS",
    "NAMED_PARTITIONS",
    "PARTITIONS_4X4_BLANK0",
    "PARTITIONS_5X5_BLANK0",
    "PREFERENCE_4X4",
    "UNREACHED",
    "Partition",
    "PartitionTables",
    "PatternDatabase",
    "ProgressFn",
    "additive_value",
    "board_symmetries",
    "build_memory_bytes",
    "build_partition",
    "build_table",
    "free_region",
    "map_table",
    "mask_dtype",
    "n_placements",
    "neighbour_table",
    "rank_placement",
    "reference_map_table",
    "reference_table",
    "reflection_cells",
    "standard_partition",
    "timed_build",
    "transpose_cells",
    "unrank_placement",
]
