"""``solve()``: the one entry point. Picks an algorithm, runs a compiled kernel, returns a ``Solution``.

Flow: resolve the goal (:func:`npuzzle.goals.goal_for`) → :func:`npuzzle.solvability.is_solvable` guard (an
unsolvable pair raises :class:`~npuzzle.errors.UnsolvableError` before any search) → canonical form →
kernel (cells the blank moves to) → labels via :func:`npuzzle.canonical.moves_from_cells` → ``Solution``.

Algorithms: ``bfs`` and ``bibfs`` (exact in both metrics, boards whose ``n!/2`` states fit in the memory
cap: up to 12 cells), ``astar``, ``idastar`` (exact with an admissible heuristic), ``wastar`` (weight ``w``:
at most ``w`` × optimal), ``greedy`` (no bound), ``pdb`` (pattern databases, single metric, from
:mod:`npuzzle.search.pdb_backend` when present), ``constructive`` (the human line-by-line method of
:mod:`npuzzle.search.constructive`: any size, milliseconds, always an answer, far from optimal; it ignores
``limits``) and ``auto``: the anytime ladder of :mod:`npuzzle.search.anytime` (a quick answer, then the
budget spent improving it; optimal when proven, else the best found with a proven ``lower_bound``; it never
raises for a limit), or with ``optimal=True`` (or a heuristic named) the fastest exact method of
:func:`choose_algorithm`. ``optimal=True`` with a method that cannot prove its answer optimal (``greedy``,
``constructive``, ``wastar`` with a weight above 1) raises :class:`~npuzzle.errors.SolverOptionError` (a
``ValueError``) rather than answer unproven.
Where that exact method is pattern databases whose tables are not cached, table-free IDA* runs first and
the tables are built only if it gives up (:func:`_solve_exact_auto`).

Limits are checked between kernel chunks (about ``CHUNK_NODES`` expansions, tens of milliseconds): for a
named algorithm (or ``optimal=True``), hitting ``max_nodes`` (expanded nodes), ``max_seconds`` or the memory
cap raises :class:`~npuzzle.errors.SearchLimitExceeded` with the statistics so far (and, for IDA*, the
threshold reached as a proven ``lower_bound``). Every returned :class:`Solution` carries ``lower_bound``.
"""

from __future__ import annotations

import importlib.util
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .._kernels import astar as ka
from .._kernels import bfs as kb
from .._kernels import heuristics as kh
from .._kernels import idastar as ki
from .._kernels import multi_pdb as kmp
from .._kernels import walking as kw
from .._kernels.moves import SINGLE, cell_dtype, metric_code, neighbour_table
from .._kernels.rank import MAX_RANK_CELLS, factorials
from ..board import Board, excerpt
from ..canonical import moves_from_cells, to_canonical
from ..errors import (
    BoardFormatError,
    ProblemTooLargeError,
    PuzzleError,
    SearchLimitExceeded,
    SolverOptionError,
    UnsolvableError,
)
from ..goals import goal_for
from ..solution import SearchStats, Solution
from ..solvability import is_solvable
from .anytime import COMPILE_NOTE_SECONDS
from .limits import NO_LIMITS, Limits

if TYPE_CHECKING:  # pragma: no cover
    from .anytime import UpdateFn

ProgressFn = Callable[[str, int, int], None]  # (message, done, total), as npuzzle.heuristics.pdb

ALGORITHMS = ("auto", "bfs", "bibfs", "astar", "idastar", "wastar", "greedy", "pdb", "constructive")
HEURISTICS = ("misplaced", "manhattan", "linear-conflict", "walking-distance", "crossings", "multi-pdb")
OPTIMAL_ALGORITHMS = frozenset({"bfs", "bibfs", "astar", "idastar", "pdb"})
# methods that search with no heuristic (pdb's are its pattern databases): a heuristic named for one is refused
HEURISTIC_FREE = frozenset({"bfs", "bibfs", "pdb", "constructive"})
MULTI_ADMISSIBLE = frozenset({"crossings", "multi-pdb"})  # the heuristics admissible for multi-tile moves

DEFAULT_MEMORY_MB = 2048  # memory cap when Limits.max_memory_mb is None
DEFAULT_WEIGHT = 2.0  # wastar without --weight
CHUNK_NODES = 1 << 20  # kernel expansions between limit checks
IDA_FIRST_CHUNK = 1 << 14  # IDA*'s first chunk; later ones double up to CHUNK_NODES
ASTAR_CHUNK = 1 << 16
ASTAR_FIRST_CHUNK = 1 << 10
IDA_START_CAPACITY = 256  # moves; the stack grows when a threshold passes it
SMALL_CELLS = 9  # 3×3 and smaller: IDA* + linear conflict answers in milliseconds
BFS_CELLS = 12  # up to 12 cells (3×4, 2×6, ...) bidirectional BFS bounds the worst case at seconds
# Where walking distance's tables are quick to make (about 0.3 s per process on 4×4; 3 s on 5×3, measured on
# the 2-core machine), so that optimal=True without pattern tables searches with it: on random 4×4 boards it
# proved the optimum 1.4-7× faster than linear conflict.
CHEAP_WALKING = frozenset({(4, 4)})
EXACT_BYTES_CELLS = 20  # bfs_bytes_text: 20!/2 = 1,216,451,004,088,320,000 bytes is still readable


@dataclass(frozen=True)
class Plan:
    """What :func:`solve` will run."""

    algorithm: str
    heuristic: str | None
    weight: float | None


def pdb_available() -> bool:
    """True when the pattern-database backend module can be imported."""
    try:
        return importlib.util.find_spec("npuzzle.search.pdb_backend") is not None
    except (ImportError, ValueError):
        return False


def bfs_state_bytes(n_cells: int) -> int:
    """Bytes of the BFS visited array: one per reachable state, ``n!/2``."""
    return math.factorial(n_cells) // 2


def bfs_bytes_text(n_cells: int) -> str:
    """:func:`bfs_state_bytes` in words for messages, on any board: exact up to ``EXACT_BYTES_CELLS`` cells
    (``"239,500,800 bytes (0.2 GiB)"``), else a power of ten from ``lgamma`` (``"about 10^506 bytes"``): the
    exact figure would overflow a float from 171 cells on, and its digits pass Python's int-to-text limit."""
    if n_cells <= EXACT_BYTES_CELLS:
        need = bfs_state_bytes(n_cells)
        return f"{need:,} bytes ({need / 2**30:,.1f} GiB)"
    exponent = (math.lgamma(n_cells + 1) - math.log(2)) / math.log(10)  # log10(n!/2)
    return f"about 10^{math.floor(exponent)} bytes"


def choose_algorithm(
    board: Board,
    algorithm: str = "auto",
    heuristic: str | None = None,
    weight: float | None = None,
    metric: str = "single",
) -> Plan:
    """Validate the names and fill in defaults.

    ``auto``: a weight asks for ``wastar``; otherwise the fastest exact method: up to 9 cells IDA* with
    linear conflict (:func:`multi_heuristic` in the multi metric), 10 to 12 cells bidirectional BFS, larger
    boards pattern databases when :mod:`npuzzle.search.pdb_backend` is installed (single metric) else IDA*
    with linear conflict (:func:`multi_heuristic` in the multi metric); with a heuristic named, IDA* with it
    at any size. Other heuristic-driven algorithms default to linear conflict, or crossings in the multi
    metric. A heuristic named for a method that uses none (bfs, bibfs, pdb, constructive), or a weight for
    any method but wastar (and auto, which it turns into wastar), is a :class:`SolverOptionError`, not
    ignored.

    ``multi-pdb`` on a board whose tables do not fit (:func:`npuzzle._kernels.multi_pdb.fits`: over 16
    cells) raises :class:`ProblemTooLargeError`.
    """
    if algorithm not in ALGORITHMS:
        raise SolverOptionError(f"unknown algorithm {excerpt(algorithm)}; choose one of {', '.join(ALGORITHMS)}")
    if heuristic is not None and heuristic not in HEURISTICS:
        raise SolverOptionError(f"unknown heuristic {excerpt(heuristic)}; choose one of {', '.join(HEURISTICS)}")
    if heuristic is not None and algorithm in HEURISTIC_FREE:
        uses = "searches with its pattern databases" if algorithm == "pdb" else "uses no heuristic"
        raise SolverOptionError(
            f"--algorithm {algorithm} {uses}, so --heuristic {heuristic} would be ignored: leave it out, or "
            "use it with astar, idastar, wastar or greedy"
        )
    metric_code(metric)
    # <= 1e6: the kernels weigh f = den*g + num*h in int64 with num/den the weight as a fraction (den <= 1000)
    if weight is not None and not (1 <= weight <= 1e6):  # nan fails both comparisons
        raise SolverOptionError(
            f"weight must be a number from 1 to 1,000,000 (greedy ignores g), got {excerpt(weight)}"
        )
    if weight is not None and algorithm not in ("auto", "wastar"):  # auto with a weight runs wastar
        raise SolverOptionError(
            f"--weight {excerpt(weight)} weighs wastar's search; --algorithm {algorithm} would ignore it: leave "
            "it out, or use --algorithm wastar"
        )
    n = board.n_cells
    if algorithm == "auto":
        if weight is not None:
            algorithm = "wastar"
        elif n <= SMALL_CELLS:
            algorithm = "idastar"
        elif n <= BFS_CELLS and heuristic is None:  # a heuristic named: IDA* searches with it
            algorithm = "bibfs"
        elif metric == "single" and heuristic is None and pdb_available():
            algorithm = "pdb"
        else:
            algorithm = "idastar"
    if algorithm in ("bfs", "bibfs", "pdb", "constructive"):
        return Plan(algorithm, None, None)
    if heuristic is None and metric == "single":
        heuristic = "linear-conflict"
    elif heuristic is None:
        heuristic = multi_heuristic(board.width, board.height) if algorithm == "idastar" else "crossings"
    if heuristic == "multi-pdb" and not kmp.fits(board.width, board.height):
        raise ProblemTooLargeError(
            f"heuristic 'multi-pdb' has no pattern tables for a {board.width}x{board.height} board: patterns "
            f"of {kmp.MIN_PATTERN_TILES} tiles would need over {kmp.MAX_ENTRIES:,} entries; use crossings"
        )
    if heuristic == "walking-distance" and not kw.fits(board.width, board.height):
        raise ProblemTooLargeError(
            f"heuristic 'walking-distance' has no pattern tables for a {board.width}x{board.height} board "
            f"(over {kw.MAX_PATTERNS:,} row or column patterns); use linear-conflict"
        )
    if metric == "multi" and algorithm in ("astar", "idastar") and heuristic not in MULTI_ADMISSIBLE:
        raise SolverOptionError(
            f"heuristic {heuristic!r} is not admissible when a slide of several tiles counts as one move; "
            f"use one of {', '.join(sorted(MULTI_ADMISSIBLE))} with --metric multi"
        )
    if algorithm == "wastar":
        weight = DEFAULT_WEIGHT if weight is None else weight
    elif algorithm == "astar":
        weight = None
    return Plan(algorithm, heuristic, weight)


def proves_optimum(plan: Plan) -> bool:
    """Whether ``plan`` finds a proven optimum: an exact algorithm (every heuristic :func:`choose_algorithm`
    accepts for it is admissible in the chosen metric), or weighted A* with weight 1 (plain A*)."""
    return plan.algorithm in OPTIMAL_ALGORITHMS or (plan.algorithm == "wastar" and plan.weight == 1)


def _plan_name(plan: Plan) -> str:
    if plan.algorithm == "wastar":
        return f"wastar with weight {plan.weight:g}"
    return plan.algorithm


def multi_heuristic(width: int, height: int) -> str:
    """IDA*'s default heuristic in the multi-tile metric: ``multi-pdb`` where its tables fit (boards of up to
    16 cells; built in about a second on first use), else ``crossings``."""
    return "multi-pdb" if kmp.fits(width, height) else "crossings"


def solve(
    board: Board,
    goal: str | Board | None = "classic",
    algorithm: str = "auto",
    heuristic: str | None = None,
    weight: float | None = None,
    limits: Limits | None = None,
    metric: str = "single",
    progress: ProgressFn | None = None,
    *,
    optimal: bool = False,
    on_update: UpdateFn | None = None,
    interruptible: bool = False,
) -> Solution:
    """Solve ``board`` to ``goal`` (a layout name or a Board) and return a replayable :class:`Solution`.

    ``auto`` (with no heuristic or weight named) is the anytime ladder of :mod:`npuzzle.search.anytime`:
    it always answers a solvable board within ``limits.max_seconds`` (default ``DEFAULT_SECONDS``, 10 s),
    optimally when it can prove it in time, otherwise the best solution found, with a proven
    ``lower_bound``; ``on_update`` hears its progress; ``interruptible``: a Ctrl-C after the first answer
    returns the best so far (noted in ``notes``). ``optimal=True`` insists on a proven optimum: ``auto``
    then runs the fastest exact method (:func:`choose_algorithm`) and a limit raises
    :class:`SearchLimitExceeded`. Named algorithms run as asked, once.

    Raises :class:`UnsolvableError` (before any search), :class:`SearchLimitExceeded`,
    :class:`ProblemTooLargeError` (BFS beyond the memory cap), :class:`SolverOptionError` (a ``ValueError``)
    for unknown names and options that do not go together.

    >>> from npuzzle.board import Board
    >>> s = solve(Board.from_rows([[1, 2, 3], [4, 5, 6], [0, 7, 8]]))
    >>> s.length, s.optimal, s.moves, s.lower_bound
    (2, True, (7, 8), 2)
    """
    if not isinstance(board, Board):
        raise BoardFormatError(
            f"solve() takes a Board, got {type(board).__name__}; parse text with npuzzle.parse_board first"
        )
    goal_board = goal_for(board, goal)
    plan = choose_algorithm(board, algorithm, heuristic, weight, metric)
    if optimal and not proves_optimum(plan):
        raise SolverOptionError(
            f"optimal=True (--optimal) needs a method that proves its answer optimal, and {_plan_name(plan)} "
            "does not; use astar, idastar, bfs, bibfs or pdb (wastar only with weight 1), or ask without "
            "optimal for the best answer within the budget"
        )
    if not is_solvable(board, goal_board):
        raise UnsolvableError(
            f"{' '.join(map(str, board.tiles))} cannot reach the goal {' '.join(map(str, goal_board.tiles))}: "
            "the two lie in different parity classes (see `npuzzle check` for the count)"
        )
    limits = Limits.coerce(limits)
    if algorithm == "auto" and heuristic is None and weight is None and not optimal:
        from .anytime import solve_anytime

        return solve_anytime(
            board,
            goal_board,
            metric=metric,
            limits=limits,
            progress=progress,
            on_update=on_update,
            interruptible=interruptible,
        )
    if plan.algorithm == "constructive":
        from .constructive import solve_constructive

        return _with_bound(solve_constructive(board, goal_board, metric))
    if plan.algorithm == "pdb" and algorithm == "auto":
        return _with_bound(_solve_exact_auto(board, goal_board, limits, progress))
    if plan.algorithm == "pdb":
        return _with_bound(_solve_pdb(board, goal_board, limits, metric, progress))
    canonical = to_canonical(board, goal_board)
    startup = load_kernel(goal_board, plan, metric, progress)
    t0 = time.perf_counter()
    with _startup_told(startup, plan):
        cells, stats = run_canonical(
            canonical, board.width, board.height, goal_board.blank_cell, plan, metric, limits, progress, t0
        )
    exact = proves_optimum(plan)
    return _with_bound(
        Solution(
            start=board,
            goal=goal_board,
            moves=moves_from_cells(board, cells, metric),
            optimal=exact,
            algorithm=plan.algorithm,
            heuristic=plan.heuristic,
            stats=replace(stats, startup_seconds=startup),
            metric=metric,
            notes=_startup_notes(startup, plan),
        ),
        plan.weight if plan.algorithm == "wastar" else None,
    )


def load_kernel(goal_board: Board, plan: Plan, metric: str, progress: ProgressFn | None = None) -> float:
    """Compile (or load from numba's cache) the kernel ``plan`` searches boards of ``goal_board``'s size with,
    by solving a board one move from the goal; returns the seconds it took.

    A named algorithm's or ``optimal=True``'s search starts its ``max_seconds`` after this: a first compile
    on a machine takes 10-30 s, nothing quicker could give the answer asked for, and a budget spent on it
    would leave the search none. It is start-up (``stats.startup_seconds``), announced through ``progress``
    and said in ``notes`` (see :data:`COMPILE_NOTE_SECONDS`); ``npuzzle warmup`` does it ahead."""
    if plan.algorithm == "constructive":
        return 0.0
    if plan.algorithm in ("bfs", "bibfs"):  # the same kernel; a bigger board's visited array is not
        goal_board = goal_for(Board([1, 2, 3, 0], 2, 2), "classic")
    near = goal_board.move(goal_board.legal_moves()[0])
    if progress is not None:
        progress(f"loading the {_kernel_name(plan)} kernel (a first use on this machine compiles it)", 0, 0)
    started = time.perf_counter()
    # a small memory cap: A*'s arrays are sized from it, and one move needs next to nothing
    run_canonical(
        to_canonical(near, goal_board), goal_board.width, goal_board.height, goal_board.blank_cell, plan, metric,
        Limits(max_memory_mb=16),
    )  # fmt: skip
    return time.perf_counter() - started


def _kernel_name(plan: Plan) -> str:
    return f"{_plan_name(plan)} ({plan.heuristic})" if plan.heuristic else _plan_name(plan)


def _startup_notes(startup: float, plan: Plan) -> tuple[str, ...]:
    if startup <= COMPILE_NOTE_SECONDS:
        return ()
    return (
        f"compiled the {_kernel_name(plan)} kernel in {startup:.1f} s before the search (first use on this "
        "machine, then cached; not counted in max_seconds)",
    )


@contextmanager
def _startup_told(startup: float, plan: Plan) -> Iterator[None]:
    """A limit the search hits after a first compile says that the compile came first and was not counted
    (a script without a terminal sees no live line)."""
    try:
        yield
    except SearchLimitExceeded as exc:
        if isinstance(exc.stats, SearchStats):
            exc.stats = replace(exc.stats, startup_seconds=exc.stats.startup_seconds + startup)
        if startup <= COMPILE_NOTE_SECONDS:
            raise
        raise SearchLimitExceeded(
            f"{exc}, after compiling the {_kernel_name(plan)} kernel for {startup:.1f} s (first use on this "
            "machine, not counted)",
            exc.stats,
            exc.limit,
            exc.lower_bound,
        ) from None


def _with_bound(solution: Solution, weight: float | None = None) -> Solution:
    """``solution`` with its proven ``lower_bound`` (its length when optimal; else the pure-Python admissible
    heuristic, or ``ceil(length / weight)`` for weighted A*, whichever is larger) and ``suboptimality``."""
    from .anytime import admissible_bound

    if solution.lower_bound is not None:
        return solution
    if solution.optimal:
        return solution.with_claims(lower_bound=solution.length, suboptimality=1.0)
    values = to_canonical(solution.start, solution.goal)
    start, goal_board = solution.start, solution.goal
    bound = admissible_bound(values, start.width, start.height, goal_board.blank_cell, solution.metric)
    if weight is not None:
        bound = max(bound, math.ceil(solution.length / weight - 1e-9))
    return solution.with_claims(lower_bound=bound, suboptimality=weight)


def _solve_exact_auto(
    board: Board, goal_board: Board, limits: Limits, progress: ProgressFn | None
) -> Solution:
    """``optimal=True`` on a board of 13+ cells (single metric): pattern databases when their tables are
    cached; otherwise IDA* without tables first (walking distance on 4×4, :data:`CHEAP_WALKING`, else linear
    conflict: easy boards are proven in milliseconds), and the pattern tables built only when that search
    ran out of its share and time is left for a build and a search with them.

    The table-free share: with no time limit, as long as the build is estimated to take (so the total is at
    most about twice that of the better of the two ways, whichever it turns out to be); with ``max_seconds`` at least twice the
    estimated build, 30 % of the time beyond the build; otherwise all of it (a build could not finish and
    still leave time to search). A build is announced through ``progress`` and said in ``notes``, never
    warned. A limit raises :class:`SearchLimitExceeded` with the best proven ``lower_bound`` of both steps.

    When walking distance's kernel is not compiled yet and linear conflict's is, linear conflict searches
    first for :data:`QUICK_BEFORE_COMPILING` seconds (the whole table-free share when that is at most twice
    as long): a 12-move 4×4 to the blank-first goal waited 24 s for the compile before its 5 s budget began.
    """
    from .pdb_backend import build_hint, build_seconds, choose_partition, partition_present

    width, height, blank_home = board.width, board.height, goal_board.blank_cell
    try:
        partition = choose_partition(width, height, blank_home)
    except (PuzzleError, ValueError):
        partition = None
    if partition is not None and partition_present(partition):
        return _solve_pdb(board, goal_board, limits, "single", progress)
    build = build_seconds(partition) if partition is not None else None
    budget = limits.max_seconds
    if build is None:
        first = budget
    elif budget is None:
        first = build
    elif budget > 2 * build:
        first = 0.3 * (budget - build)
    else:
        first = budget
    heuristic = "walking-distance" if (width, height) in CHEAP_WALKING else "linear-conflict"
    spent = 0.0  # seconds of the budget a quick search took before the table-free one
    if heuristic == "walking-distance" and not _walking_compiled() and _linear_conflict_compiled():
        # answer first: linear conflict's kernel is at hand, walking distance's first compile takes ~20 s
        if first is not None and first <= 2 * QUICK_BEFORE_COMPILING:
            heuristic = "linear-conflict"  # too short a share to be worth a compile before it
        else:
            started = time.perf_counter()
            quick, expanded = _linear_conflict_for(board, goal_board, limits, QUICK_BEFORE_COMPILING, progress)
            if quick is not None:
                return quick
            spent = time.perf_counter() - started
            first = None if first is None else first - spent
            nodes = None if limits.max_nodes is None else max(1, limits.max_nodes - expanded)
            limits = replace(limits, max_nodes=nodes)
    plan = Plan("idastar", heuristic, None)
    startup = load_kernel(goal_board, plan, "single", progress)
    t0 = time.perf_counter()
    with _startup_told(startup, plan):
        try:
            cells, stats = run_canonical(
                to_canonical(board, goal_board), width, height, blank_home, plan, "single",
                replace(limits, max_seconds=first), progress, t0,
            )  # fmt: skip
        except SearchLimitExceeded as exc:
            if exc.limit != "max_seconds" or partition is None or build is None:
                raise
            left = None if budget is None else budget - spent - (time.perf_counter() - t0)
            if left is not None and left < build:  # a build could not finish in time: say how to make one
                raise _limit_error(
                    f"IDA* ({heuristic}) hit max_seconds={budget:g} at bound {exc.lower_bound}; the "
                    f"{width}x{height} {partition.label} pattern tables would prove this faster but are not built "
                    f"(about {build:.0f} s): {build_hint(partition)}",
                    "max_seconds",
                    exc.stats,
                    exc.lower_bound,
                ) from None
            try:
                solution = _solve_pdb(
                    board, goal_board, replace(limits, max_seconds=left), "single", progress or _no_progress
                )
            except SearchLimitExceeded as late:
                bounds = [b for b in (exc.lower_bound, late.lower_bound) if b is not None]
                late.lower_bound = max(bounds) if bounds else None
                raise
            note = (
                f"IDA* without pattern tables stopped at bound {exc.lower_bound} after {first:.1f} s; built the "
                f"{width}x{height} {partition.label} pattern tables (first use only; cached for later solves)"
            )
            return solution.with_claims(notes=(*_startup_notes(startup, plan), *solution.notes, note))
    return _proved_by_idastar(board, goal_board, cells, heuristic, replace(stats, startup_seconds=startup),
                              _startup_notes(startup, plan))  # fmt: skip


def _proved_by_idastar(
    board: Board, goal_board: Board, cells: list[int], heuristic: str, stats: SearchStats,
    notes: tuple[str, ...] = (),
) -> Solution:  # fmt: skip
    """The optimal single-tile solution from ``board`` that IDA* with ``heuristic`` found (``cells``)."""
    return Solution(
        start=board,
        goal=goal_board,
        moves=moves_from_cells(board, cells, "single"),
        optimal=True,
        algorithm="idastar",
        heuristic=heuristic,
        stats=stats,
        metric="single",
        notes=notes,
    )


QUICK_BEFORE_COMPILING = 2.0  # seconds of linear conflict's IDA* before walking distance's first compile


def _walking_compiled() -> bool:
    from .._kernels._jit import is_compiled

    return is_compiled(kw.idastar_wd, kw.build_vertical, kw.move_tables)


def _linear_conflict_compiled() -> bool:
    from .._kernels.warmup import group_compiled

    return group_compiled("idastar")


def _linear_conflict_for(
    board: Board, goal_board: Board, limits: Limits, seconds: float, progress: ProgressFn | None
) -> tuple[Solution | None, int]:
    """The optimum by IDA* with linear conflict if it is proven within ``seconds`` (and ``limits``), else
    None; and the nodes it expanded. Easy boards are proven in milliseconds; a walking-distance search that
    must compile first (about 20 s on a fresh machine) is then not worth waiting for."""
    width, height = board.width, board.height
    plan = Plan("idastar", "linear-conflict", None)
    t0 = time.perf_counter()
    try:
        cells, stats = run_canonical(
            to_canonical(board, goal_board), width, height, goal_board.blank_cell, plan, "single",
            replace(limits, max_seconds=seconds), progress, t0,
        )  # fmt: skip
    except SearchLimitExceeded as exc:
        if exc.limit != "max_seconds" or (limits.max_seconds is not None and limits.max_seconds <= seconds):
            raise
        return None, exc.stats.expanded if exc.stats is not None else 0
    return _proved_by_idastar(board, goal_board, cells, "linear-conflict", stats), stats.expanded


def _no_progress(message: str, done: int, total: int) -> None:
    """A progress sink: the caller reports the table build in ``notes`` instead."""


def _solve_pdb(
    board: Board, goal_board: Board, limits: Limits, metric: str, progress: ProgressFn | None
) -> Solution:
    solve_pdb = None
    if metric == "single":
        try:
            from .pdb_backend import solve_pdb
        except ImportError:
            solve_pdb = None
    if solve_pdb is None:
        plan = choose_algorithm(board, "idastar", metric=metric)
        t0 = time.perf_counter()
        canonical = to_canonical(board, goal_board)
        cells, stats = run_canonical(
            canonical, board.width, board.height, goal_board.blank_cell, plan, metric, limits, progress, t0
        )
        return Solution(
            board,
            goal_board,
            moves_from_cells(board, cells, metric),
            True,
            "idastar",
            plan.heuristic,
            stats,
            metric,
        )
    from .._kernels.warmup import warm_group

    plan = Plan("pdb", None, None)
    if progress is not None:
        progress(f"loading the {_kernel_name(plan)} kernel (a first use on this machine compiles it)", 0, 0)
    started = time.perf_counter()
    warm_group("pdb")  # as load_kernel: a first compile is start-up, not the search's max_seconds
    startup = time.perf_counter() - started
    with _startup_told(startup, plan):
        solution = solve_pdb(board, goal_board, limits=limits, metric=metric, progress=progress)
    return solution.with_claims(  # type: ignore[no-any-return]
        stats=replace(solution.stats, startup_seconds=solution.stats.startup_seconds + startup),
        notes=(*_startup_notes(startup, plan), *solution.notes),
    )


def run_canonical(
    canonical: list[int],
    width: int,
    height: int,
    blank_home: int,
    plan: Plan,
    metric: str,
    limits: Limits = NO_LIMITS,
    progress: ProgressFn | None = None,
    t0: float | None = None,
) -> tuple[list[int], SearchStats]:
    """Run ``plan`` on a canonical state; returns (cells the blank moves to, stats)."""
    t0 = time.perf_counter() if t0 is None else t0
    if plan.algorithm == "constructive":
        from .constructive import constructive_cells, to_slides

        cells = constructive_cells(canonical, width, height, blank_home)
        if metric != "single":
            cells = to_slides(canonical.index(blank_home), cells)
        return cells, SearchStats(seconds=time.perf_counter() - t0)
    if plan.algorithm in ("bfs", "bibfs"):
        return _run_bfs(canonical, width, height, blank_home, plan.algorithm == "bibfs", metric, limits, t0)
    if plan.algorithm == "idastar":
        return _run_idastar(
            canonical,
            width,
            height,
            blank_home,
            plan.heuristic or "linear-conflict",
            metric,
            limits,
            progress,
            t0,
        )
    return _run_astar(canonical, width, height, blank_home, plan, metric, limits, progress, t0)


def _deadline(limits: Limits, t0: float) -> float | None:
    return None if limits.max_seconds is None else t0 + limits.max_seconds


def _limit_error(
    what: str, limit: str, stats: SearchStats, lower_bound: int | None = None
) -> SearchLimitExceeded:
    return SearchLimitExceeded(
        f"{what} after {stats.expanded:,} expanded nodes in {stats.seconds:.2f} s", stats, limit, lower_bound
    )


# -- BFS ---------------------------------------------------------------------------------------------------
def _run_bfs(
    canonical: list[int],
    width: int,
    height: int,
    blank_home: int,
    bidirectional: bool,
    metric: str,
    limits: Limits,
    t0: float,
) -> tuple[list[int], SearchStats]:
    n = width * height
    cap_mb = limits.max_memory_mb or DEFAULT_MEMORY_MB
    if n > MAX_RANK_CELLS or n > kb.MAX_BFS_CELLS or bfs_state_bytes(n) > cap_mb * 2**20:
        raise ProblemTooLargeError(
            f"breadth-first search on a {width}x{height} board needs one byte per reachable state, "
            f"{n}!/2 = {bfs_bytes_text(n)}, over the {cap_mb:,} MB memory cap; "
            "use --algorithm idastar (or astar/wastar) instead"
        )
    nbrs, n_nbrs, _ = neighbour_table(width, height, metric_code(metric))
    start = np.asarray(canonical, dtype=cell_dtype(n))
    status, cells, raw = kb.bfs_path(
        start, blank_home, width, nbrs, n_nbrs, bidirectional, limits.max_nodes, _deadline(limits, t0)
    )
    stats = SearchStats(seconds=time.perf_counter() - t0, **raw)
    if status == "nodes":
        raise _limit_error("BFS hit max_nodes", "max_nodes", stats)
    if status == "time":
        raise _limit_error("BFS hit max_seconds", "max_seconds", stats)
    if status != "found":
        raise RuntimeError(f"BFS exhausted the state space without reaching the goal (status {status})")
    return [int(c) for c in cells], stats


# -- IDA* --------------------------------------------------------------------------------------------------
def _ida_stats(regs: np.ndarray, t0: float) -> SearchStats:
    return SearchStats(
        expanded=int(regs[ki.R_EXPANDED]),
        generated=int(regs[ki.R_GENERATED]),
        max_open=int(regs[ki.R_DEEPEST]),
        closed=0,
        seconds=time.perf_counter() - t0,
        iterations=int(regs[ki.R_ITERATIONS]),
    )


def _run_idastar(
    canonical: list[int],
    width: int,
    height: int,
    blank_home: int,
    heuristic: str,
    metric: str,
    limits: Limits,
    progress: ProgressFn | None,
    t0: float,
) -> tuple[list[int], SearchStats]:
    n = width * height
    kind = kh.heuristic_code(heuristic)
    mcode = metric_code(metric)
    state = np.asarray(canonical, dtype=cell_dtype(n))
    nbrs, _, orient = neighbour_table(width, height, mcode)
    table = kh.table_for(kind, width, height, blank_home)
    scratch = np.zeros(2 * (width + height) + 4, dtype=np.int32)
    h0 = int(kh.heuristic(state, kind, width, height, blank_home, table, scratch))
    blank_cell = canonical.index(blank_home)
    capacity = max(IDA_START_CAPACITY, 2 * h0 + 16)
    path, child, hvals, regs = ki.new_stack(capacity, n, blank_cell, h0)
    if h0 == 0:
        return [], _ida_stats(regs, t0)
    fast_table = mcode == SINGLE and kind in (kh.MISPLACED, kh.MANHATTAN)
    fast_lc = mcode == SINGLE and kind == kh.LINEAR_CONFLICT
    fast_wd = mcode == SINGLE and kind == kh.WALKING
    wd_stack = kw.new_wd_stack(state, width, height, blank_home, capacity) if fast_wd else None
    padded = kh.padded_rows(nbrs, table) if fast_table else None
    lc_args = ki.lc_work(state, width, height, blank_home, capacity) if fast_lc else None
    deadline = _deadline(limits, t0)
    chunk = IDA_FIRST_CHUNK  # doubles up to CHUNK_NODES: slow heuristics do not overshoot a short deadline
    while True:
        budget = chunk
        chunk = min(2 * chunk, CHUNK_NODES)
        if deadline is not None and regs[ki.R_EXPANDED] > 0:
            rate = int(regs[ki.R_EXPANDED]) / max(time.perf_counter() - t0, 1e-6)  # expansions per second
            budget = max(min(budget, int(rate * (deadline - time.perf_counter()))), IDA_FIRST_CHUNK)
        if limits.max_nodes is not None:
            budget = min(budget, max(limits.max_nodes - int(regs[ki.R_EXPANDED]), 0))
        if fast_table:
            assert padded is not None
            status = ki.idastar_table(state, blank_home, *padded, path, child, hvals, regs, budget)
        elif fast_lc:
            assert lc_args is not None
            status = ki.idastar_lc(
                state, blank_home, width, height, nbrs, table, path, child, hvals, regs, budget, *lc_args
            )
        elif fast_wd:
            assert wd_stack is not None
            status = kw.run_wd(state, blank_home, width, height, path, child, hvals, regs, budget, wd_stack)
        else:
            status = ki.idastar_general(
                state,
                blank_home,
                width,
                height,
                kind,
                mcode,
                nbrs,
                orient,
                table,
                path,
                child,
                hvals,
                regs,
                budget,
                scratch,
            )
        if status == ki.FOUND:
            depth = int(regs[ki.R_DEPTH])
            return [int(c) for c in path[2 : depth + 2]], _ida_stats(regs, t0)
        if status == ki.GROW:
            capacity *= 2
            path, child, hvals = ki.grow_stack(path, child, hvals, capacity)
            if wd_stack is not None:
                wd_stack = kw.grow_wd_stack(wd_stack, capacity)
            if lc_args is not None:
                lc, saved_line, saved_lc, tails, row_of, col_of = lc_args
                saved_line = np.concatenate(
                    [saved_line, np.full(capacity + 2 - saved_line.size, -1, np.int32)]
                )
                saved_lc = np.concatenate([saved_lc, np.zeros(capacity + 2 - saved_lc.size, np.int32)])
                lc_args = (lc, saved_line, saved_lc, tails, row_of, col_of)
            continue
        if status == ki.EXHAUSTED:
            raise RuntimeError("IDA* exhausted the search space on a solvable board (a heuristic bug)")
        stats = _ida_stats(regs, t0)
        # every path shorter than the current threshold has been searched: a proven lower bound
        threshold = int(regs[ki.R_THRESHOLD])
        if limits.max_nodes is not None and stats.expanded >= limits.max_nodes:
            raise _limit_error(
                f"IDA* hit max_nodes={limits.max_nodes:,} at bound {threshold}", "max_nodes", stats, threshold
            )
        if deadline is not None and time.perf_counter() > deadline:
            raise _limit_error(
                f"IDA* hit max_seconds={limits.max_seconds:g} at bound {threshold}",
                "max_seconds",
                stats,
                threshold,
            )
        if progress is not None:
            progress(f"IDA* bound {int(regs[ki.R_THRESHOLD])}", stats.generated, 0)


# -- A*, weighted A*, greedy -------------------------------------------------------------------------------
def astar_capacity(n_cells: int, memory_mb: int) -> int:
    """Nodes that fit in ``memory_mb`` (capped by the state count where it is known)."""
    per_node = ka.bytes_per_node(n_cells, np.dtype(cell_dtype(n_cells)).itemsize)
    cap = int(memory_mb * 2**20 / per_node)
    if n_cells <= MAX_RANK_CELLS:
        cap = min(cap, math.factorial(n_cells) // 2 + 1)
    return max(cap, 16)


def _weight_fraction(plan: Plan) -> tuple[int, int]:
    if plan.algorithm == "greedy":
        return 1, 0
    if plan.weight is None:
        return 1, 1
    frac = Fraction(plan.weight).limit_denominator(1000)
    return frac.numerator, frac.denominator


def _run_astar(
    canonical: list[int],
    width: int,
    height: int,
    blank_home: int,
    plan: Plan,
    metric: str,
    limits: Limits,
    progress: ProgressFn | None,
    t0: float,
) -> tuple[list[int], SearchStats]:
    n = width * height
    dtype = cell_dtype(n)
    kind = kh.heuristic_code(plan.heuristic or "linear-conflict")
    nbrs, n_nbrs, _ = neighbour_table(width, height, metric_code(metric))
    table = kh.table_for(kind, width, height, blank_home)
    memory_mb = limits.max_memory_mb or DEFAULT_MEMORY_MB
    cap = astar_capacity(n, memory_mb)
    ranked = n <= MAX_RANK_CELLS
    fact = factorials(min(n, MAX_RANK_CELLS) - 1)
    n_slots = 1 << max(4, (2 * cap - 1).bit_length())
    hcap = cap + cap // 4
    arrays: dict[str, Any] = {
        "states": np.zeros((cap, n), dtype=dtype),
        "parent": np.zeros(cap, dtype=np.int32),
        "g": np.zeros(cap, dtype=np.int32),
        "h": np.zeros(cap, dtype=np.int16),
        "keys": np.zeros(cap, dtype=np.int64),
        "slots": np.zeros(n_slots, dtype=np.int32),
        "heap_pri": np.zeros(hcap, dtype=np.int64),
        "heap_node": np.zeros(hcap, dtype=np.int32),
    }
    regs = np.zeros(ka.N_REGS, dtype=np.int64)
    scratch = np.zeros(2 * (width + height) + 4, dtype=np.int32)
    wn, wd = _weight_fraction(plan)
    start = np.asarray(canonical, dtype=dtype)
    ka.astar_init(
        start, blank_home, width, height, kind, table, wn, wd, fact, ranked, *arrays.values(), regs, scratch
    )
    deadline = _deadline(limits, t0)

    def stats_now() -> SearchStats:
        return SearchStats(
            expanded=int(regs[ka.R_EXPANDED]),
            generated=int(regs[ka.R_GENERATED]),
            max_open=int(regs[ka.R_MAX_OPEN]),
            closed=int(regs[ka.R_NODES]),
            seconds=time.perf_counter() - t0,
        )

    chunk = ASTAR_FIRST_CHUNK  # doubles up to ASTAR_CHUNK: a short deadline is not overshot by a big chunk
    while True:
        budget = chunk
        chunk = min(2 * chunk, ASTAR_CHUNK)
        if deadline is not None and regs[ka.R_EXPANDED] > 0:
            elapsed = time.perf_counter() - t0
            rate = int(regs[ka.R_EXPANDED]) / max(elapsed, 1e-6)  # expansions per second so far
            budget = max(min(budget, int(rate * (deadline - time.perf_counter()))), ASTAR_FIRST_CHUNK)
        if limits.max_nodes is not None:
            budget = min(budget, max(limits.max_nodes - int(regs[ka.R_EXPANDED]), 0))
        status = ka.astar_run(
            blank_home,
            width,
            height,
            kind,
            table,
            nbrs,
            n_nbrs,
            wn,
            wd,
            fact,
            ranked,
            *arrays.values(),
            regs,
            budget,
            scratch,
        )
        if status == ka.FOUND:
            out = np.zeros(int(arrays["g"][int(regs[ka.R_GOAL])]) + 1, dtype=np.int64)
            length = ka.astar_path(arrays["states"], arrays["parent"], int(regs[ka.R_GOAL]), blank_home, out)
            return [int(c) for c in out[:length]], stats_now()
        stats = stats_now()
        if status == ka.FULL:
            raise _limit_error(
                f"{plan.algorithm} filled its {memory_mb:,} MB memory cap ({cap:,} nodes)",
                "max_memory_mb",
                stats,
            )
        if status == ka.EXHAUSTED:
            raise RuntimeError(f"{plan.algorithm} emptied its open list on a solvable board")
        if limits.max_nodes is not None and stats.expanded >= limits.max_nodes:
            raise _limit_error(f"{plan.algorithm} hit max_nodes={limits.max_nodes:,}", "max_nodes", stats)
        if deadline is not None and time.perf_counter() > deadline:
            raise _limit_error(
                f"{plan.algorithm} hit max_seconds={limits.max_seconds:g}", "max_seconds", stats
            )
        if progress is not None:
            progress(f"{plan.algorithm}: {stats.closed:,} nodes stored", stats.expanded, 0)


__all__ = [
    "ALGORITHMS",
    "DEFAULT_MEMORY_MB",
    "HEURISTICS",
    "Plan",
    "bfs_bytes_text",
    "bfs_state_bytes",
    "choose_algorithm",
    "multi_heuristic",
    "pdb_available",
    "proves_optimum",
    "run_canonical",
    "solve",
]
