"""Optimal solving with additive pattern databases: pick and load (or build) tables, run the IDA* kernel.

``solve_pdb`` is what ``solve(..., algorithm="pdb")`` (and ``"auto"`` on 4×4 and larger boards) calls.

Table choice (:func:`choose_partition`): on a 4×4 the best partition whose tables are all on disk
(7-8 > 6-6-3 > 5-5-5); if none is, the 6-6-3 tables are built on first use (seconds) and the user is told
(through ``progress``, else a :class:`TableBuildWarning`). The 7-8 tables (about 0.6 GB) are built only
when asked (``npuzzle pdb build --partition 7-8`` or ``partition="7-8"``). On a 5×5 with the goal's blank in
a corner, Korf & Felner's 6-6-6-6 when built (``npuzzle pdb build --size 5x5 --partition 6-6-6-6``, about
0.5 GB on disk, minutes on two cores), else the ``auto`` partition of
:func:`npuzzle.heuristics.pdb.standard_partition`, as on other sizes.

For callers that decide between exact and anytime solving: :func:`strongest_partition` names the partition
an exact solve of a board should have, :func:`tables_built` says whether its file is there and
:func:`build_hint` how to make it; ``solve_pdb(..., partition=NAME, build=False)`` solves with exactly those
tables or raises :class:`~npuzzle.errors.TableMissingError` naming the command.
"""

from __future__ import annotations

import time
import warnings
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..board import Board
from ..canonical import moves_from_cells, to_canonical
from ..errors import ProblemTooLargeError, SearchLimitExceeded, UnsolvableError
from ..heuristics import store
from ..heuristics.pdb import (
    PREFERENCE_4X4,
    Partition,
    PartitionTables,
    ProgressFn,
    build_memory_bytes,
    neighbour_table,
    reflection_cells,
    standard_partition,
)
from ..solution import SearchStats, Solution
from ..solvability import is_solvable
from .limits import NO_LIMITS, Limits

CHUNK_NODES = 2_000_000  # nodes per kernel call between limit checks (tens of milliseconds)
#: Groups are also held in sparse order (index ``sum of cell[i] * n_cells ** (k - 1 - i)``, updated with one add
#: per move instead of ranking the placement at every lookup), smallest first, while each has at most
#: ``SPARSE_MAX_ENTRIES`` entries and all together at most ``SPARSE_MAX_BYTES``: on a 4×4 the 6-tile groups
#: (16 MiB each) and the 7-tile group of 7-8 (256 MiB, spread in about a second at first use) but not its
#: 8-tile group (4 GiB); on a 5×5 two of the four 6-tile groups (233 MiB each).
SPARSE_MAX_ENTRIES = 1 << 28
SPARSE_MAX_BYTES = 1 << 29
MAX_DEPTH = 1_000  # longest solution the stack arrays hold
FIRST_USE_PARTITION = "6-6-3"


class TableBuildWarning(UserWarning):
    """A pattern database is being built on first use (it is cached on disk afterwards)."""


#: Quality order of the named partitions by board size, best first (the goal's blank in a corner).
PREFERENCE: dict[tuple[int, int], tuple[str, ...]] = {(4, 4): PREFERENCE_4X4, (5, 5): ("6-6-6-6",)}


# Building a partition's tables: entries per second of the build kernel on this 2-core machine (6-6-3, 11.5 M
# entries, about 7 s; 5-5-5-5-4, 25.8 M, 12-15 s) plus compiling the builder and a search kernel on a fresh one.
BUILD_ENTRIES_PER_SECOND = 1_500_000
BUILD_OVERHEAD_SECONDS = 3.0


def build_seconds(partition: Partition) -> float:
    """Estimated seconds to build ``partition``'s tables (for deciding whether a budget allows it)."""
    return partition.n_entries() / BUILD_ENTRIES_PER_SECOND + BUILD_OVERHEAD_SECONDS


def partition_present(partition: Partition) -> bool:
    """True when ``partition``'s table file is in the cache (not checked further)."""
    return store.table_path(partition).is_file()


def tables_built(partition: Partition) -> bool:
    """True when ``partition``'s tables are in the cache (the file exists; it is verified when first loaded)."""
    return partition_present(partition)


def strongest_partition(width: int, height: int, blank_cell: int) -> Partition:
    """The partition an exact solve should use: the best named one of this size whose tables are built, else
    the best named one (7-8 on a 4×4, 6-6-6-6 on a 5×5, when the goal's blank is in a corner), else ``auto``."""
    names = PREFERENCE.get((width, height), ())
    corner = blank_cell in (0, width - 1, width * (height - 1), width * height - 1)
    candidates = [standard_partition(width, height, blank_cell, name) for name in names] if corner else []
    for candidate in candidates:
        if partition_present(candidate):
            return candidate
    return candidates[0] if candidates else standard_partition(width, height, blank_cell, "auto")


def build_hint(partition: Partition) -> str:
    """How to build ``partition``'s tables, with the memory it takes: for messages."""
    w, h = partition.width, partition.height
    need = max(build_memory_bytes(w, h, k) for k in partition.sizes)
    return (
        f"run: {store.rebuild_command(partition)} ({partition.n_entries() / 2**20:,.0f} MB on disk, "
        f"about {need / 2**30:,.1f} GB of memory while building)"
    )


def choose_partition(
    width: int, height: int, blank_cell: int, partition: str | Partition | None = None
) -> Partition:
    """The partition to use: ``partition`` if given, else the best one present (4×4), else the default."""
    if isinstance(partition, Partition):
        if (partition.width, partition.height, partition.blank_cell) != (width, height, blank_cell):
            raise ProblemTooLargeError(
                f"partition is for a {partition.width}x{partition.height} board with the blank home in cell "
                f"{partition.blank_cell}, not {width}x{height} with the blank home in cell {blank_cell}"
            )
        return partition
    if partition is not None and partition.strip().lower() not in ("", "auto"):
        return standard_partition(width, height, blank_cell, partition)
    strongest = strongest_partition(width, height, blank_cell)
    if partition_present(strongest):
        return strongest
    if width == height == 4:
        return standard_partition(width, height, blank_cell, FIRST_USE_PARTITION)
    return standard_partition(width, height, blank_cell, "auto")


_LOADED: dict[Path, tuple[int, PartitionTables]] = {}  # tables mapped by this process, by file and mtime


def load_partition(
    partition: Partition,
    *,
    build: bool = True,
    progress: ProgressFn | None = None,
    limits: Limits = NO_LIMITS,
    deadline: float | None = None,
) -> PartitionTables:
    """``partition``'s tables, memory-mapped (once per process); built first when missing and ``build``.

    A build stops with :class:`~npuzzle.errors.SearchLimitExceeded` (and writes nothing) past ``deadline`` (a
    :func:`time.monotonic` time; default: ``limits.max_seconds`` from now) or when it needs more memory than
    ``limits.max_memory_mb``."""
    path = store.table_path(partition)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = -1
    hit = _LOADED.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    if stamp == -1 and build:
        need = max(build_memory_bytes(partition.width, partition.height, k) for k in partition.sizes)
        if limits.max_memory_mb is not None and need > limits.max_memory_mb * 2**20:
            raise SearchLimitExceeded(
                f"building the {partition.label} tables needs about {need / 2**20:,.0f} MB, "
                f"above max_memory_mb={limits.max_memory_mb}",
                None,
                "max_memory_mb",
            )
    if deadline is None and limits.max_seconds is not None:
        deadline = time.monotonic() + limits.max_seconds
    tables = store.load_or_build(partition, build=build, progress=progress, deadline=deadline)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = -1  # built in memory: the cache folder could not be written (store.TableCacheWarning)
    _LOADED[path] = (stamp, tables)
    return tables


@dataclass
class _Prepared:
    """Kernel arguments that depend on the tables only."""

    table: np.ndarray
    offsets: np.ndarray
    sparse: np.ndarray
    sparse_offsets: np.ndarray
    stride: np.ndarray
    group_of: np.ndarray
    group_tiles: np.ndarray
    group_size: np.ndarray
    tmap: np.ndarray
    reflect: bool
    neighbours: np.ndarray


_SPARSE: weakref.WeakKeyDictionary[PartitionTables, tuple[np.ndarray, np.ndarray]] = (
    weakref.WeakKeyDictionary()
)  # sparse copies of small groups, made once per loaded tables


def sparse_tables(tables: PartitionTables) -> tuple[np.ndarray, np.ndarray]:
    """The groups chosen by :data:`SPARSE_MAX_ENTRIES` and :data:`SPARSE_MAX_BYTES`, in sparse order.

    Returns (uint8 values, int64 (n_groups,) start of each group in them or ``-1``). Entry
    ``sum of cell[i] * n_cells ** (k - 1 - i)`` of a group is the value of the placement with its ``i``-th
    tile on ``cell[i]`` (entries with a repeated cell are 0 and never read). Made once per tables object.
    """
    hit = _SPARSE.get(tables)
    if hit is not None:
        return hit

    p = tables.partition
    n = p.width * p.height
    starts = np.full(len(p.groups), -1, np.int64)
    total = 0
    for g in sorted(range(len(p.sizes)), key=lambda g: p.sizes[g]):
        entries = n ** p.sizes[g]
        if entries <= SPARSE_MAX_ENTRIES and total + entries <= SPARSE_MAX_BYTES:
            starts[g] = total
            total += entries
    meta = [n, *map(int, starts)]
    out = store.load_layout(tables, "sparse", meta, total)  # laid out by an earlier process: mapped
    if out is None:
        from .._kernels.pdb_idastar import fill_sparse

        out = np.zeros(total, np.uint8)
        for db, start, k in zip(tables.databases(), starts, p.sizes, strict=True):
            if start >= 0:
                fill_sparse(np.asarray(db.values).view(np.ndarray), n, k, out[start : start + n**k])
        store.save_layout(tables, "sparse", meta, out)  # best effort, see heuristics.store
    _SPARSE[tables] = (out, starts)
    return out, starts


def _prepare(tables: PartitionTables, reflect: bool) -> _Prepared:
    partition = tables.partition
    n = partition.width * partition.height
    kmax = max(partition.sizes)
    group_of = np.full(n, -1, np.int8)
    group_tiles = np.zeros((len(partition.groups), kmax), np.int8)
    stride = np.zeros(n, np.int64)
    for g, cells in enumerate(partition.groups):
        group_of[list(cells)] = g
        group_tiles[g, : len(cells)] = cells
        for i, home in enumerate(cells):
            stride[home] = n ** (len(cells) - 1 - i)
    flat = np.asarray(tables.values).view(np.ndarray)
    flat.flags.writeable = False  # one array type whether mapped or freshly built
    sparse, sparse_offsets = sparse_tables(tables)
    t = reflection_cells(partition.width, partition.height, partition.blank_cell)
    return _Prepared(
        table=flat,
        offsets=tables.offsets,
        sparse=sparse,
        sparse_offsets=sparse_offsets,
        stride=stride,
        group_of=group_of,
        group_tiles=group_tiles,
        group_size=np.array(partition.sizes, np.int64),
        tmap=np.array(t if t is not None else range(n), np.int8),
        reflect=reflect,
        neighbours=neighbour_table(partition.width, partition.height),
    )


def _announce(message: str, progress: ProgressFn | None) -> None:
    if progress is not None:
        progress(message, 0, 0)
    else:
        warnings.warn(message, TableBuildWarning, stacklevel=3)


def solve_pdb(
    start: Board,
    goal: Board,
    *,
    limits: Limits = NO_LIMITS,
    metric: str = "single",
    progress: ProgressFn | None = None,
    partition: str | Partition | None = None,
    reflect: bool | None = None,
    build: bool = True,
) -> Solution:
    """An optimal solution by IDA* over the additive pattern-database heuristic.

    ``partition``: a :class:`Partition`, a name (``"7-8"``, ``"6-6-3"``, ``"5-5-5"``, ``"auto"``, sizes
    like ``"6-6-6-6"``) or ``None`` (best present, see the module docstring). ``reflect``: also read the
    tables reflected about a diagonal through the goal's blank (default: whenever the blank lies on one).
    ``build=False`` raises :class:`~npuzzle.errors.TableMissingError` instead of building.
    """
    if metric != "single":
        raise ProblemTooLargeError(
            f"pattern databases count single-tile moves; metric {metric!r} is not supported"
        )
    t0 = time.perf_counter()
    canonical = to_canonical(start, goal)
    if not is_solvable(start, goal):
        raise UnsolvableError(f"{start.tiles} cannot reach the goal {goal.tiles}: wrong parity")
    w, h = start.width, start.height
    blank_home = goal.blank_cell
    chosen = choose_partition(w, h, blank_home, partition)
    if build and not partition_present(chosen):
        _announce(
            f"building the {w}x{h} {chosen.label} pattern databases (first use, "
            f"about {build_memory_bytes(w, h, max(chosen.sizes)) / 2**20:,.0f} MB while building); "
            f"they are cached in {store.cache_dir()}",
            progress,
        )
    deadline = None
    if limits.max_seconds is not None:
        deadline = time.monotonic() + limits.max_seconds - (time.perf_counter() - t0)
    tables = load_partition(chosen, build=build, progress=progress, limits=limits, deadline=deadline)
    use_reflect = chosen.reflectable() if reflect is None else (reflect and chosen.reflectable())
    prep = _prepare(tables, use_reflect)
    cells, stats = _run(canonical, blank_home, prep, limits, progress, t0)
    heuristic = f"pdb:{chosen.label}{'+reflection' if use_reflect else ''}"
    return Solution(
        start=start,
        goal=goal,
        moves=moves_from_cells(start, cells),
        optimal=True,
        algorithm="pdb",
        heuristic=heuristic,
        stats=stats,
        metric="single",
        lower_bound=len(cells),
        suboptimality=1.0,
    )


def solve_canonical(
    canonical: Sequence[int],
    tables: PartitionTables,
    *,
    reflect: bool = False,
    limits: Limits = NO_LIMITS,
) -> tuple[list[int], SearchStats]:
    """Lower level: solve a canonical state with given tables; returns (cells the blank moves to, stats)."""
    prep = _prepare(tables, reflect and tables.partition.reflectable())
    return _run(list(canonical), tables.partition.blank_cell, prep, limits, None, time.perf_counter())


def _stats(regs: np.ndarray, iterations: int, max_depth: int, t0: float) -> SearchStats:
    from .._kernels.pdb_idastar import R_EXPANDED, R_NODES

    return SearchStats(
        expanded=int(regs[R_EXPANDED]),
        generated=int(regs[R_NODES]),
        max_open=max_depth,
        closed=0,
        seconds=time.perf_counter() - t0,
        iterations=iterations,
    )


def _run(
    canonical: Sequence[int],
    blank_home: int,
    prep: _Prepared,
    limits: Limits,
    progress: ProgressFn | None,
    t0: float,
) -> tuple[list[int], SearchStats]:
    from .._kernels import pdb_idastar as k

    n = len(canonical)
    state = np.array(canonical, np.int8)
    pos = np.empty(n, np.int8)
    pos[state] = np.arange(n, dtype=np.int8)
    hg = np.zeros(len(prep.offsets), np.int16)
    hm = np.zeros(len(prep.offsets), np.int16)
    hsum, msum = k.initial_values(
        pos,
        prep.table,
        prep.offsets,
        prep.group_tiles,
        prep.group_size,
        n,
        prep.tmap,
        prep.reflect,
        hg,
        hm,
    )
    idx = np.zeros(len(prep.offsets), np.int64)
    midx = np.zeros(len(prep.offsets), np.int64)
    k.initial_indices(pos, prep.group_tiles, prep.group_size, n, prep.tmap, idx, midx)
    regs = np.zeros(8, np.int64)
    if hsum == 0:
        return [], _stats(regs, 0, 0, t0)
    blank_cells = np.zeros(MAX_DEPTH + 2, np.int16)
    next_dir = np.zeros(MAX_DEPTH + 2, np.int8)
    saved = np.zeros((MAX_DEPTH + 2, 2), np.int16)  # see pdb_idastar's module docstring
    kids = np.zeros((MAX_DEPTH + 2, 5), np.int8)
    kid_values = np.zeros((MAX_DEPTH + 2, 4, 3), np.int16)
    normal = np.zeros(4, np.int64)
    bound = max(hsum, msum)
    iterations = 0
    deepest = 0
    while True:
        iterations += 1
        regs[k.R_DEPTH] = 0
        regs[k.R_BOUND] = bound
        regs[k.R_NEXT_BOUND] = k.NO_BOUND
        regs[k.R_HSUM] = hsum
        regs[k.R_MSUM] = msum
        kids[0, 0] = -1  # the root is expanded by the first call
        blank_cells[0] = int(np.flatnonzero(state == blank_home)[0])
        if progress is not None:
            progress(f"IDA* bound {bound}", int(regs[k.R_NODES]), 0)
        while True:
            status = k.search(
                state, pos, blank_home, prep.neighbours, prep.table, prep.offsets, prep.sparse,
                prep.sparse_offsets, prep.stride, prep.group_of, prep.group_tiles, prep.group_size, prep.tmap,
                prep.reflect, blank_cells, next_dir, saved, kids, kid_values, normal, hg, hm, idx, midx, regs, CHUNK_NODES,
            )  # fmt: skip
            deepest = max(deepest, int(regs[k.R_DEPTH]))
            _check_limits(regs, limits, iterations, deepest, t0, bound)
            if status != k.RUNNING:
                break
        if status == k.FOUND:
            depth = int(regs[k.R_DEPTH])
            return [int(c) for c in blank_cells[1 : depth + 1]], _stats(
                regs, iterations, max(deepest, depth), t0
            )
        bound = int(regs[k.R_NEXT_BOUND])
        if bound >= k.NO_BOUND or bound > MAX_DEPTH:
            raise ProblemTooLargeError(f"no solution within {MAX_DEPTH} moves (is the state solvable?)")


def _check_limits(
    regs: np.ndarray, limits: Limits, iterations: int, deepest: int, t0: float, bound: int
) -> None:
    """Raise :class:`SearchLimitExceeded` (with ``bound``, this iteration's threshold: a proven lower bound,
    every shorter path was searched) when a limit is reached."""
    from .._kernels.pdb_idastar import R_NODES

    if limits.max_nodes is not None and regs[R_NODES] >= limits.max_nodes:
        raise SearchLimitExceeded(
            f"PDB IDA* generated {int(regs[R_NODES]):,} nodes (max_nodes={limits.max_nodes:,})",
            _stats(regs, iterations, deepest, t0),
            "max_nodes",
            bound,
        )
    if limits.max_seconds is not None and time.perf_counter() - t0 >= limits.max_seconds:
        raise SearchLimitExceeded(
            f"PDB IDA* ran {time.perf_counter() - t0:.1f} s (max_seconds={limits.max_seconds})",
            _stats(regs, iterations, deepest, t0),
            "max_seconds",
            bound,
        )


def describe_tables(partition: Partition) -> dict[str, Any]:
    """Sizes and presence of a partition's tables (for the CLI and benchmarks)."""
    w, h = partition.width, partition.height
    return {
        "partition": partition.label,
        "patterns": [list(g) for g in partition.groups],
        "entries": partition.n_entries(),
        "present": partition_present(partition),
        "build_memory_bytes": max(build_memory_bytes(w, h, k) for k in partition.sizes),
        "file": str(store.table_path(partition)),
    }


__all__ = [
    "PREFERENCE",
    "TableBuildWarning",
    "build_hint",
    "build_seconds",
    "choose_partition",
    "describe_tables",
    "load_partition",
    "partition_present",
    "solve_canonical",
    "solve_pdb",
    "strongest_partition",
    "tables_built",
]
