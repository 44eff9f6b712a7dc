"""Compile every kernel by running each once on a tiny board (``npuzzle warmup``): the search and the picture
reassembly.

With ``cache=True`` the machine code lands next to the sources, so later processes start fast. Pattern
database kernels compile when their tables are first used (``npuzzle pdb build`` or a 4×4 solve); the
anytime ladder's solvers for bigger boards compile in the last step.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np

_MOVED_3X3 = [0, 1, 2, 3, 4, 5, 6, 8, 7]  # canonical, blank value 8, one move from the goal
_WALKED_3X3 = [2, 7, 4, 5, 8, 6, 3, 1, 0]  # solvable, 20 moves from it


def warmup() -> dict[str, float]:
    """Run each algorithm × metric once on 2×2 and 3×3 boards (and a board over 20 cells for the hashed A*
    keys and the 16-bit heuristic tables); returns seconds per step."""
    from .bfs import bfs_batch
    from .generate import warmup as warmup_generate
    from .heuristics import CROSSINGS, LINEAR_CONFLICT, MANHATTAN, padded_rows, table_for
    from .idastar import idastar_batch, row_col_tables
    from .moves import MULTI, SINGLE, neighbour_table
    from .rank import factorials

    solver = importlib.import_module("npuzzle.search.solver")
    timings: dict[str, float] = {}
    for name, plan, metric in (
        ("idastar linear-conflict", solver.Plan("idastar", "linear-conflict", None), "single"),
        ("idastar manhattan", solver.Plan("idastar", "manhattan", None), "single"),
        ("idastar walking-distance", solver.Plan("idastar", "walking-distance", None), "single"),
        ("idastar crossings multi", solver.Plan("idastar", "crossings", None), "multi"),
        ("idastar multi-pdb multi", solver.Plan("idastar", "multi-pdb", None), "multi"),
        ("astar", solver.Plan("astar", "linear-conflict", None), "single"),
        ("wastar multi", solver.Plan("wastar", "crossings", 2.0), "multi"),
        ("bfs", solver.Plan("bfs", None, None), "single"),
        ("bibfs multi", solver.Plan("bibfs", None, None), "multi"),
    ):
        t0 = time.perf_counter()
        solver.run_canonical(_WALKED_3X3, 3, 3, 8, plan, metric)
        timings[name] = time.perf_counter() - t0
    t0 = time.perf_counter()
    big = list(range(21))
    big[19], big[20] = big[20], big[19]  # 7x3, blank value 20 moved one cell left
    solver.run_canonical(big, 7, 3, 20, solver.Plan("greedy", "manhattan", None), "single")
    timings["greedy hashed keys"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    states = np.array([_WALKED_3X3], dtype=np.uint8)
    for metric, kind, fast in (
        (SINGLE, MANHATTAN, True),
        (SINGLE, LINEAR_CONFLICT, True),
        (MULTI, CROSSINGS, False),
    ):
        nbrs, _, orient = neighbour_table(3, 3, metric)
        table = table_for(kind, 3, 3, 8)
        padded = padded_rows(nbrs, table)
        idastar_batch(
            states, 8, 3, 3, kind, metric, nbrs, orient, table, *padded, 64, fast, *row_col_tables(3, 3)
        )
    timings["idastar batch"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for metric in (SINGLE, MULTI):
        nbrs, n_nbrs, _ = neighbour_table(2, 2, metric)
        bfs_batch(np.array([[0, 3, 2, 1]], dtype=np.uint8), 3, 2, metric, nbrs, n_nbrs, factorials(3), True)
    timings["bfs batch"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    warmup_generate()
    timings["generate"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    warm_anytime()
    timings["anytime ladder"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    warm_reassembly()
    timings["picture reassembly"] = time.perf_counter() - t0
    return timings


def warm_reassembly() -> None:
    """The beam search, local search and seam totals that put a picture back together from its tiles
    (screenshots with no reference), on a 2x2 of three random pieces."""
    from .jigsaw import beam, descend, totals

    costs = np.random.default_rng(0).random((3, 3))
    arrangement = np.array([2, 0, 1, -1], dtype=np.int64)
    for even in (False, True):
        descend(arrangement, costs, costs, 2, 2, even, True, 40, 40)
    totals(arrangement[None], costs, costs, 2, 2)
    relations = np.array([[[0, 0, 0]] * 4, [[0, 0, 0]] * 4, [[0, 1, 0]] * 4], dtype=np.int64)  # a row, then below
    beam(costs, costs, relations, np.array([0, 1, 1], dtype=np.int64), 4)


def warm_anytime() -> None:
    """The kernels the anytime ladder reaches on boards over 16 cells (the quick reducer, the bounded and
    reduction solvers, the smoothing IDA*, the beam over pattern tables, the compiled replay of long answers): a 5×5 and a 10×10 scrambled
    by a short walk, briefly. The web server runs this at start-up so that hints on bigger boards keep their
    budget (a few seconds when the kernels are cached, a minute or so compiling on a fresh machine)."""
    for group in GROUPS:  # first: the ladder skips a group with no time to compile it
        warm_group(group)
    anytime = importlib.import_module("npuzzle.search.anytime")
    goals = importlib.import_module("npuzzle.goals")
    generate = importlib.import_module("npuzzle.generate")
    for side in (5, 10):
        target = goals.classic(side, side)
        start = generate.generate(target, "walk", moves=60, seed=1)[0]
        anytime.solve_anytime(start, target, seconds=0.3)
    # the beam guided by pattern tables (5×5 boards once tables are cached): all-zero 3×3 tables compile
    # the same kernel as real ones, without building anything
    pdb = importlib.import_module("npuzzle.heuristics.pdb")
    bounded = importlib.import_module("npuzzle.search.bounded")
    partition = pdb.standard_partition(3, 3, 8, "4-4")
    zeros = np.zeros(partition.n_entries(), dtype=np.uint8)
    tables = bounded.beam_tables(pdb.PartitionTables(partition, zeros))
    # a start some moves out, so that layers are kept (select_children, gather_children) as well
    canonical = importlib.import_module("npuzzle.canonical")
    target = goals.classic(3, 3)
    moved = canonical.to_canonical(generate.generate(target, "walk", moves=12, seed=1)[0], target)
    # (the linear-conflict beam was compiled with the "beam" group above)
    bounded.beam_search(moved, 3, 3, 8, 4, 40, time.monotonic() + 60, tables)
    from .replay import replay_single

    replay_single(
        np.array([1, 0], dtype=np.int64), 2, 0, np.array([1], dtype=np.int64), np.zeros(1, dtype=np.uint8)
    )


def _idastar_kernels() -> tuple[Any, ...]:
    from .idastar import heuristic, idastar_lci

    return (heuristic, idastar_lci)


def _warm_idastar() -> None:
    solver = importlib.import_module("npuzzle.search.solver")
    solver.run_canonical(_MOVED_3X3, 3, 3, 8, solver.Plan("idastar", "linear-conflict", None), "single")


def _astar_kernels() -> tuple[Any, ...]:
    from .astar import astar_run

    return (astar_run,)


def _warm_astar() -> None:
    solver = importlib.import_module("npuzzle.search.solver")
    solver.run_canonical(_WALKED_3X3, 3, 3, 8, solver.Plan("wastar", "linear-conflict", 2.0), "single")


def _beam_kernels() -> tuple[Any, ...]:
    from .beam import expand_layer, gather_children, select_children
    from .wida import wida_run

    return (expand_layer, select_children, gather_children, wida_run)


def _warm_beam() -> None:
    bounded = importlib.import_module("npuzzle.search.bounded")
    bounded.beam_search(_WALKED_3X3, 3, 3, 8, 4, 40, time.monotonic() + 60, None)
    search = bounded._Search(_WALKED_3X3, 3, 3, 8, 40)
    search.reset(search.h0)
    search.run(2, 1, 40, 1_000)


def _reduction_kernels() -> tuple[Any, ...]:
    from .reduce import fill_line, finish_block

    return (fill_line, finish_block)


def _warm_reduction() -> None:
    reduction = importlib.import_module("npuzzle.search.reduction")
    goals = importlib.import_module("npuzzle.goals")
    generate = importlib.import_module("npuzzle.generate")
    canonical = importlib.import_module("npuzzle.canonical")
    target = goals.classic(5, 5)
    start = generate.generate(target, "walk", moves=40, seed=1)[0]
    reduction.quick_cells(canonical.to_canonical(start, target), 5, 5, 24)


def _pdb_kernels() -> tuple[Any, ...]:
    from .pdb_idastar import initial_indices, initial_values, search

    return (initial_values, initial_indices, search)


def _warm_pdb() -> None:
    # 3×3 tables that are 1 everywhere but at the goal compile the same kernels as a 4×4's real ones,
    # building nothing; the search from one move out then runs and finds the goal
    pdb = importlib.import_module("npuzzle.heuristics.pdb")
    backend = importlib.import_module("npuzzle.search.pdb_backend")
    partition = pdb.standard_partition(3, 3, 8, "4-4")
    tables = pdb.PartitionTables(partition, np.ones(partition.n_entries(), dtype=np.uint8))
    for start, database in zip(tables.offsets, tables.databases(), strict=True):
        tables.values[start + database.rank_of(range(9))] = 0
    cells, _ = backend.solve_canonical(_MOVED_3X3, tables, reflect=False)
    assert cells == [8], cells  # the blank back to its home


# The groups of kernels whose first compile is long, which the anytime ladder asks about (its steps' first
# calls), each with its kernels and a run on a small board that compiles (or loads) them: ``idastar`` (exact
# IDA* with linear conflict, the constructive solver's last block, smoothing), ``astar`` (weighted A*),
# ``beam`` (the bounded solver's beam and weighted IDA*), ``reduction`` (the quick and reduction solvers for
# big boards), ``pdb`` (IDA* over pattern tables: the exact search on 4×4-sized boards once their tables are
# built).
_GROUPS: dict[str, tuple[Callable[[], tuple[Any, ...]], Callable[[], None]]] = {
    "idastar": (_idastar_kernels, _warm_idastar),
    "astar": (_astar_kernels, _warm_astar),
    "beam": (_beam_kernels, _warm_beam),
    "reduction": (_reduction_kernels, _warm_reduction),
    "pdb": (_pdb_kernels, _warm_pdb),
}
GROUPS = tuple(_GROUPS)


def _group(group: str) -> tuple[Callable[[], tuple[Any, ...]], Callable[[], None]]:
    try:
        return _GROUPS[group]
    except KeyError:
        raise ValueError(f"unknown kernel group {group!r}") from None


def group_compiled(group: str) -> bool:
    """Whether a kernel group's machine code is at hand (compiled, or in numba's cache): see
    :func:`npuzzle._kernels._jit.is_compiled`."""
    from ._jit import is_compiled

    return is_compiled(*_group(group)[0]())


def warm_group(group: str) -> None:
    """Compile (or load) one group of :func:`group_compiled` by running its kernels on a small board."""
    _group(group)[1]()


__all__ = ["group_compiled", "warm_anytime", "warm_group", "warm_reassembly", "warmup"]
