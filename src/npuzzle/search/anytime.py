"""Anytime solving: a quick answer first, then the rest of a time budget spent improving it and proving bounds.

:func:`solve_anytime` is what ``solve(board, goal)`` (``algorithm="auto"``), ``npuzzle solve``, the web
API's solve and hint all run: one ladder for every face. It always answers a solvable board within its
budget (``DEFAULT_SECONDS`` unless told otherwise); the answer is optimal when the ladder proves it in time,
otherwise the shortest solution found, with a proven lower bound on the optimum.

The ladder, for a board of ``n`` cells:

1. A proven lower bound from pure Python (no kernel): linear conflict in the single-tile metric, crossings in
   the multi-tile one; in the single metric a path's length has the parity of the Manhattan distance, so
   every bound is rounded up to that parity, and ``length == lower_bound`` proves optimality.
2. A first answer: up to 9 cells exact IDA* (milliseconds); up to 64 cells the constructive solver
   (milliseconds, no kernel but IDA*'s, which exact search loads anyway); beyond, the quick solver
   (:func:`npuzzle.search.reduction.quick_solution`, the constructive method when it is absent; it loads
   only its own kernels): no table builds and no rarely-used kernel compiles before it.
3. Improvement, while time is left: exact search where it can finish (IDA* with linear conflict or the
   multi-tile tables; pattern databases on a 4×4 when their tables are on disk (then before the quick
   answer: they usually prove the optimum in well under a second), or built first when the budget allows
   it; bidirectional BFS up to 12 cells), then on bigger boards the bounded-suboptimal solver
   (:mod:`npuzzle.search.bounded`, also after a failed exact search on smaller boards) or the reduction
   solver (:func:`npuzzle.search.reduction.solve_reduction`), and weighted A* with falling weights where
   neither applies. Each step that fails still proves something:
   an IDA* threshold reached, or ``ceil(length / w)`` for an answer within ``w`` × optimal.

In the multi-tile metric, boards over 9 cells start with the single-tile ladder (:data:`SINGLE_SHARE` of the
budget; its first answer merged into slides is the constructive multi-tile one): its answer with each run of
moves in one direction merged into one slide is a multi-tile answer of at most as many slides as it has
moves. Only the answer is taken; the bound stays the multi-tile one, and ``optimal`` needs a multi-tile proof.

``optimal`` is true only when proven (an exact search finished, or the length equals the lower bound).
Kernel loading and compiling (and building tables) are timed apart from the search, in
``stats.startup_seconds``; what one-time work happened is said in ``notes``. On a machine whose kernels are
not compiled yet, pure Python gives the first answer (the same moves as the kernels'), and a step whose first
compile (:data:`COMPILE_SECONDS`) does not fit in a budget given is skipped, said in ``notes``; with the
default budget compiling is start-up, outside the budget (:func:`compile_kernels` does it ahead of a batch).

>>> from npuzzle.board import Board
>>> from npuzzle.goals import classic
>>> s = solve_anytime(Board.from_rows([[1, 2, 3], [4, 5, 6], [0, 7, 8]]), classic(3, 3), seconds=5)
>>> s.length, s.optimal, s.lower_bound
(2, True, 2)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._kernels.warmup import group_compiled, warm_group
from ..board import Board
from ..canonical import moves_from_cells, to_canonical
from ..errors import ProblemTooLargeError, PuzzleError, SearchLimitExceeded
from ..heuristics import simple, walking
from ..solution import SearchStats, Solution
from .limits import NO_LIMITS, Limits

if TYPE_CHECKING:  # pragma: no cover
    from ..heuristics.pdb import Partition

DEFAULT_SECONDS = 10.0  # the library's and the CLI's budget: 3×3 and typical 4×4 boards stay optimal
SMALL_CELLS = 9  # up to 3×3 / 2×4: exact IDA* is the quick answer (milliseconds once compiled)
BFS_CELLS = 12  # up to 12 cells: bidirectional BFS finishes in seconds when IDA* does not
EXACT_CELLS = 16  # up to 4×4 exact search is worth most of the budget
SHALLOW_BOUND = 60  # bigger boards whose lower bound is this small get a short exact IDA* attempt
SHALLOW_SHARE = 0.1  # of the time left, at most SHALLOW_SECONDS
SHALLOW_SECONDS = 1.0
WEIGHTED_CELLS = 64  # weighted A* fallback up to 8×8 (beyond, it fills memory before it answers)
# weighted A* restarts at falling weights, each on an equal share of the time left
FALLBACK_WEIGHTS = (3.0, 2.0, 1.5, 1.25)
LADDER_MEMORY_MB = 1024  # A*/BFS memory cap of one ladder step when Limits.max_memory_mb is None
WEIGHTED_RESERVE = 0.15  # on 10-16 cells, the share of the budget kept for weighted A* after exact search
# multi metric: the share of the time left (after the first answer) given to the single-tile ladder, whose
# answer merged into slides is usually far shorter than any multi-tile search finds in a few seconds (a 4×4:
# 57 moves = at most 57 slides against 68 from the multi-tile steps in 3 s; a 5×5: about 75 against 170)
SINGLE_SHARE = 0.5
# A kernel start-up this long was a compile, said in notes (a load from numba's cache takes about a second, 1.5 s
# on a loaded machine; a compile 8-45 s on this VM).
COMPILE_NOTE_SECONDS = 3.0
# Seconds of one core a machine's first compile of each group of kernels takes (this VM, 2026-11-27; a load
# from numba's cache takes about a second). With a budget given, a step whose kernels are not compiled yet
# runs only when this fits in the time left; with the default budget compiling is start-up, outside it.
COMPILE_SECONDS = {"idastar": 15.0, "reduction": 45.0, "beam": 8.0, "astar": 10.0, "pdb": 12.0}
# Up to 20×20 the pure-Python constructive answer takes about a second: the first answer when the quick
# solver's kernels are not compiled yet (their first compile takes most of a minute).
PURE_FIRST_CELLS = 400
# The quick reducer's seconds on big boards, × cells ** 1.5 (this VM: 100x100 1.2 s, 128x128 4.2 s, 200x200
# 16.8 s): a first answer expected to take over a second says so on the live line.
QUICK_SECONDS = 2.2e-6
# A ladder that ends later than its budget by more than this (seconds, or share of the budget) says so in a note.
OVERRUN_SECONDS = 0.25
OVERRUN_SHARE = 0.1

ProgressFn = Callable[[str, int, int], None]  # (message, done, total), as npuzzle.heuristics.pdb


@dataclass(frozen=True)
class Update:
    """What the ladder knows now, for a live status line: the best length so far (``None`` before the first
    answer), the proven lower bound, and the step running."""

    best_length: int | None
    lower_bound: int
    step: str
    elapsed: float


UpdateFn = Callable[[Update], None]


def admissible_bound(values: list[int], width: int, height: int, blank_home: int, metric: str) -> int:
    """A lower bound on the optimal length of a canonical state, in pure Python (no kernel, no table file):
    linear conflict (single-tile metric; the larger of it and walking distance where the latter's tables are
    small, :func:`npuzzle.heuristics.walking.quick_bound`: 0.1-0.2 s once per process on 4×4) or crossings
    (multi-tile metric)."""
    if metric == "multi":
        return simple.crossings(values, width, height, blank_home)
    lc = simple.linear_conflict(values, width, height, blank_home)
    wd = walking.quick_bound(values, width, height, blank_home) or 0
    return max(lc, wd + (lc - wd) % 2)  # every path has the parity of lc (of the Manhattan distance)


class _Ladder:
    """The state of one anytime solve: the best answer, the proven bound, the time spent."""

    def __init__(
        self,
        board: Board,
        goal_board: Board,
        seconds: float,
        metric: str,
        limits: Limits,
        progress: ProgressFn | None,
        on_update: UpdateFn | None,
        startup_free: bool = False,
    ) -> None:
        self.board = board
        self.startup_free = startup_free  # start-up (kernel loads, table builds) moves the deadline back
        self.goal = goal_board
        self.metric = metric
        self.limits = limits
        self.progress = progress
        self.on_update = on_update
        self.width, self.height, self.n = board.width, board.height, board.n_cells
        self.blank_home = goal_board.blank_cell
        self.values = to_canonical(board, goal_board)
        self.t0 = time.monotonic()
        self.seconds = seconds
        self.deadline = self.t0 + seconds
        self.first_seconds: float | None = None  # from the start to the first answer
        self.first_is_quickest = False  # the first answer came from the quickest way known (big boards)
        self.memory_mb = limits.max_memory_mb or LADDER_MEMORY_MB
        # single metric: every path's length has the parity of the Manhattan distance
        self.parity = (
            simple.manhattan(self.values, self.width, self.height, self.blank_home) % 2
            if metric == "single"
            else None
        )
        self.lower_bound = 0
        self.best: Solution | None = None
        self.best_factor: float | None = None  # proven length <= factor * optimal of the best's own method
        self.proven = False
        self.notes: list[str] = []
        self.quick_cells: Any = None  # the quick reduction's canonical moves (an int32 array), when it ran
        self.quick_seconds: float | None = None
        self.startup = 0.0
        self.uncompiled: list[str] = []  # kernel groups a step needed and had no time to compile
        self.expanded = 0
        self.generated = 0
        self.max_open = 0
        self.step = "lower bound"
        self.raise_bound(admissible_bound(self.values, self.width, self.height, self.blank_home, metric))

    # -- bookkeeping -----------------------------------------------------------------------------------------
    def left(self) -> float:
        return self.deadline - time.monotonic()

    def done(self) -> bool:
        return self.proven or (self.best is not None and self.best.length <= self.lower_bound)

    def raise_bound(self, value: int | None) -> None:
        if value is None:
            return
        if self.parity is not None and (value - self.parity) % 2:
            value += 1
        if value > self.lower_bound:
            self.lower_bound = value
            if self.best is not None and self.lower_bound > self.best.length:
                raise RuntimeError(
                    f"lower bound {self.lower_bound} above a found solution of {self.best.length} moves "
                    "(an inadmissible bound: a bug)"
                )
            self._tell()

    def add_startup(self, seconds: float) -> None:
        self.startup += seconds
        if self.startup_free:
            self.deadline += seconds

    def begin(self, step: str) -> None:
        self.step = step
        self._tell()

    def _tell(self) -> None:
        if self.on_update is not None:
            self.on_update(
                Update(
                    None if self.best is None else self.best.length,
                    self.lower_bound,
                    self.step,
                    time.monotonic() - self.t0,
                )
            )

    def count(self, stats: Any) -> None:
        if stats is None:
            return
        self.expanded += int(getattr(stats, "expanded", 0))
        self.generated += int(getattr(stats, "generated", 0))
        self.max_open = max(self.max_open, int(getattr(stats, "max_open", 0)))

    def offer(self, solution: Solution, *, exact: bool = False, factor: float | None = None) -> bool:
        """Take ``solution`` if it is shorter than the best; ``exact``: it is proven optimal; ``factor``: its
        length is proven at most ``factor`` × optimal. Returns whether it became the best."""
        self.count(solution.stats)
        self.notes.extend(note for note in solution.notes if note not in self.notes)  # e.g. tables built
        factor = factor if factor is not None else solution.suboptimality
        if exact or solution.optimal:
            factor = 1.0
        better = self.best is None or solution.length < self.best.length
        if self.best is None:
            self.first_seconds = time.monotonic() - self.t0
        if better:
            self.best = solution
            self.best_factor = factor
        if factor is not None and factor >= 1:
            self.raise_bound(math.ceil(solution.length / factor - 1e-9))
        self.raise_bound(solution.lower_bound)
        if factor == 1.0:
            self.proven = True
        self._tell()
        return better

    def limit_hit(self, exc: SearchLimitExceeded | ProblemTooLargeError) -> None:
        self.count(getattr(exc, "stats", None))
        self.raise_bound(getattr(exc, "lower_bound", None))

    def result(self) -> Solution:
        best = self.best
        assert best is not None  # run() always finds a first answer
        spent = time.monotonic() - self.t0 - (self.startup if self.startup_free else 0.0)
        if spent > self.seconds + max(OVERRUN_SECONDS, OVERRUN_SHARE * self.seconds):
            first = self.first_seconds or 0.0
            why = f": the first answer alone took {first:.1f} s" if first > self.seconds else ""
            if why and self.first_is_quickest:
                why += ", and none quicker is known on a board this big"
            self.notes.append(f"took {spent:.1f} s, over the {self.seconds:g} s budget{why}")
        if self.uncompiled:
            needed = _compile_seconds(self.uncompiled)
            self.notes.append(
                f"the {_listed(self.uncompiled)} kernels, not compiled on this machine yet, were not tried: "
                f"their first compile (about {needed:.0f} s) did not fit in the time left; `npuzzle warmup` "
                "compiles every kernel once"
            )
        optimal = self.proven or best.length <= self.lower_bound
        if optimal:
            self.lower_bound = best.length
        factor: float | None = 1.0 if optimal else self.best_factor
        if not optimal and self.lower_bound > 0:
            ratio = math.ceil(best.length / self.lower_bound * 1000) / 1000  # rounded up: still proven
            factor = ratio if factor is None else min(factor, ratio)
        elapsed = time.monotonic() - self.t0
        stats = SearchStats(
            expanded=self.expanded,
            generated=self.generated,
            max_open=self.max_open,
            closed=best.stats.closed,
            seconds=max(elapsed - self.startup, 0.0),
            iterations=best.stats.iterations,
            startup_seconds=self.startup,
        )
        return best.with_claims(
            optimal=optimal,
            lower_bound=self.lower_bound,
            suboptimality=factor,
            notes=tuple(self.notes),
            stats=stats,
        )

    # -- steps -----------------------------------------------------------------------------------------------
    def step_limits(self, seconds: float | None) -> Limits:
        if seconds is not None:
            seconds = max(seconds, 0.001)
        return Limits(max_nodes=self.limits.max_nodes, max_seconds=seconds, max_memory_mb=self.memory_mb)

    def one_move_state(self) -> list[int]:
        """A canonical state one move from the goal, for warming a kernel up."""
        from ..board import neighbour_cells

        values = list(range(self.n))
        other = neighbour_cells(self.blank_home, self.width, self.height)[0]
        values[self.blank_home], values[other] = values[other], values[self.blank_home]
        return values

    def warm_idastar(self, heuristic: str, metric: str | None = None, side: int | None = None) -> None:
        """Load (or compile, the first time on a machine) IDA*'s kernel for ``heuristic``, on this board or
        on a ``side`` × ``side`` one; timed as start-up."""
        from ..goals import classic
        from .solver import Plan, load_kernel

        goal_board = classic(side, side) if side else self.goal
        spent = load_kernel(goal_board, Plan("idastar", heuristic, None), metric or self.metric)
        self.add_startup(spent)
        if spent > COMPILE_NOTE_SECONDS:
            self.notes.append(
                f"loading the search kernels took {spent:.1f} s (compiled once on this machine, then cached)"
            )

    def kernels_ready(self, *groups: str, force: bool = False) -> bool:
        """Whether the kernels of ``groups`` (keys of ``COMPILE_SECONDS``) can run now. Kernels already
        compiled (in this process or in numba's cache) can. Others are compiled now, said on the live line,
        timed as start-up and noted, when the budget is the default one (compiling is then outside it) or
        their first compile fits in the time left, or ``force`` (no quicker answer exists); else the step is
        skipped and the groups named in the answer's notes (``npuzzle warmup`` compiles every group; a batch
        compiles its boards' groups first, :func:`compile_kernels`)."""
        cold = [group for group in groups if not group_compiled(group)]
        if not cold:
            return True
        needed = _compile_seconds(cold)
        if not (force or self.startup_free) and self.left() < needed:
            for group in cold:
                if group not in self.uncompiled:
                    self.uncompiled.append(group)
            return False
        self.begin(f"compiling the {_listed(cold)} kernels (first use on this machine, about {needed:.0f} s)")
        spent, said = _compile(cold)
        self.add_startup(spent)
        self.notes.append(said)
        return True

    def run_plan(
        self, algorithm: str, heuristic: str | None, weight: float | None, seconds: float | None
    ) -> Solution:
        from .solver import Plan, run_canonical

        plan = Plan(algorithm, heuristic, weight)
        cells, stats = run_canonical(
            self.values, self.width, self.height, self.blank_home, plan, self.metric,
            self.step_limits(seconds), None,
        )  # fmt: skip
        return Solution(
            start=self.board,
            goal=self.goal,
            moves=moves_from_cells(self.board, cells, self.metric),
            optimal=algorithm in ("idastar", "bfs", "bibfs"),
            algorithm=algorithm,
            heuristic=heuristic,
            stats=stats,
            metric=self.metric,
        )

    def exact_idastar(self, seconds: float | None) -> bool:
        from .solver import multi_heuristic

        heuristic = "linear-conflict" if self.metric == "single" else multi_heuristic(self.width, self.height)
        if heuristic == "linear-conflict" and not self.kernels_ready("idastar"):
            return False
        self.warm_idastar(heuristic)
        self.begin(f"exact search (IDA*, {heuristic})")
        try:
            self.offer(self.run_plan("idastar", heuristic, None, seconds), exact=True)
        except (SearchLimitExceeded, ProblemTooLargeError) as exc:
            self.limit_hit(exc)
            return False
        return True

    def quick(self) -> None:
        """The first answer: exact IDA* on small boards, the quick solver beyond. Where their kernels are not
        compiled yet, pure Python answers first (IDA* on up to 9 cells, the same moves as the kernel's; the
        constructive solver up to ``PURE_FIRST_CELLS``): a first compile takes from seconds to a minute."""
        compiled = group_compiled("idastar")
        if self.n <= SMALL_CELLS:
            if not compiled and self.metric == "single":
                self.begin("first answer (pure-Python IDA*)")
                self.offer(self.pure_idastar(), exact=True)
                return
            # milliseconds once compiled; no time limit, so even a tiny budget gets the optimum
            self.exact_idastar(None)
            if self.best is not None:
                return
        if self.n <= WEIGHTED_CELLS and compiled:  # the constructive solver finishes its last 3×3 with IDA*
            self.warm_idastar("linear-conflict", "single", 3)
        self.begin("first answer")
        # up to 8×8 the constructive answer takes milliseconds and no kernel but IDA*'s
        if self.n > WEIGHTED_CELLS and (self.n > PURE_FIRST_CELLS or group_compiled("reduction")):
            try:
                from .reduction import quick_cells, solution_from_cells
            except ImportError:
                pass
            else:
                self.kernels_ready("reduction", force=True)  # no quicker answer on a board this big
                expected = QUICK_SECONDS * self.n**1.5
                self.begin(f"first answer (about {expected:.0f} s on a board this big)" if expected > 1 else "first answer")
                started = time.monotonic()
                self.quick_cells = quick_cells(self.values, self.width, self.height, self.blank_home)
                self.first_is_quickest = True
                self.quick_seconds = time.monotonic() - started
                self.offer(solution_from_cells(self.board, self.goal, self.quick_cells, self.metric))
                return
        from .constructive import solve_constructive

        self.offer(solve_constructive(self.board, self.goal, self.metric, compiled=compiled))

    def pure_idastar(self) -> Solution:
        """The optimal answer of the pure-Python IDA* with linear conflict (the kernel's twin, with the same
        moves): tens of milliseconds on boards of up to 9 cells."""
        from .generic import idastar
        from .puzzle_problem import SlidingPuzzleProblem

        found = idastar(SlidingPuzzleProblem(self.board, self.goal, "linear-conflict"))
        return Solution(
            self.board, self.goal, moves_from_cells(self.board, found.actions), True, "idastar",
            "linear-conflict", found.stats, "single",
        )  # fmt: skip

    def via_single(self, seconds: float) -> None:
        """Multi metric: run the single-tile ladder for ``seconds`` (its first answer whatever the budget)
        and offer its answer with each run of moves in one direction merged into one slide (an answer of
        ``L`` single-tile moves is one of at most ``L`` slides). Only the answer is taken: its single-tile bound and optimality say nothing about
        slides, so the multi-tile bound stays the ladder's own."""
        from .constructive import to_slides

        self.begin("single-tile ladder, runs merged into slides")
        inner = _Ladder(self.board, self.goal, seconds, "single", self.limits, self.progress, None,
                        startup_free=self.startup_free)  # fmt: skip
        single = inner.run()
        self.add_startup(inner.startup)
        cell_of = {label: cell for cell, label in enumerate(self.board.tiles)}
        blank = cell_of[self.board.blank]
        cells = []  # the cells the blank moves to: each moving tile's cell, swapped with the blank's
        for label in single.moves:
            cell = cell_of[label]
            cell_of[label] = blank
            blank = cell
            cells.append(cell)
        slides = to_slides(self.board.tiles.index(self.board.blank), cells)
        merged = Solution(
            start=self.board,
            goal=self.goal,
            moves=moves_from_cells(self.board, slides, "multi"),
            optimal=False,
            algorithm=single.algorithm,
            heuristic=single.heuristic,
            stats=single.stats,
            metric="multi",
            notes=tuple(single.notes),
        )
        if self.offer(merged):
            proven = "optimal" if single.optimal else "not proven optimal"
            self.notes.append(
                f"the single-tile answer ({single.length} moves, {proven}) with runs in one direction merged "
                f"into {merged.length} slides"
            )

    def pdb_tables(self, build: bool) -> Any:
        """The 4×4-style partition's tables when present (or built, when ``build``); their bound and
        kernel start-up are recorded. ``None`` when pattern databases cannot serve this board."""
        if self.metric != "single" or self.n > EXACT_CELLS:
            return None
        try:
            from .pdb_backend import choose_partition, load_partition, partition_present, solve_canonical

            partition = choose_partition(self.width, self.height, self.blank_home)
            present = partition_present(partition)
            if not present and not build:
                return None
            if not self.kernels_ready("pdb"):  # tables at hand, but their search's first compile does not fit
                return None
            t = time.monotonic()
            if not present:
                self.begin(f"building the {self.width}x{self.height} {partition.label} pattern tables")
                self.notes.append(
                    f"built the {self.width}x{self.height} {partition.label} pattern tables (first use only; "
                    "cached for later solves)"
                )
            tables = load_partition(partition, build=build, progress=self.progress)
            reflect = partition.reflectable()
            self.raise_bound(tables.lookup(self.values, reflect))
            solve_canonical(self.one_move_state(), tables, reflect=reflect)  # loads the kernel
            self.add_startup(time.monotonic() - t)
            return tables, reflect
        except (ImportError, PuzzleError, ValueError, OSError):
            return None

    def exact_pdb(self, prepared: Any, seconds: float) -> bool:
        from .pdb_backend import solve_canonical

        tables, reflect = prepared
        label = tables.partition.label
        self.begin(f"exact search (pattern databases {label})")
        try:
            cells, stats = solve_canonical(
                self.values, tables, reflect=reflect, limits=self.step_limits(seconds)
            )
        except (SearchLimitExceeded, ProblemTooLargeError) as exc:
            self.limit_hit(exc)
            return False
        solution = Solution(
            self.board, self.goal, moves_from_cells(self.board, cells), True, "pdb",
            f"pdb:{label}{'+reflection' if reflect else ''}", stats, "single",
        )  # fmt: skip
        self.offer(solution, exact=True)
        return True

    def build_seconds(self) -> float | None:
        """Estimated seconds to build the missing tables of this board's partition (None: no tables)."""
        if self.metric != "single" or not (BFS_CELLS < self.n <= EXACT_CELLS):
            return None
        try:
            from .pdb_backend import build_seconds, choose_partition, partition_present

            partition = choose_partition(self.width, self.height, self.blank_home)
            if partition_present(partition):
                return 0.0
            return build_seconds(partition)
        except (ImportError, PuzzleError, ValueError):
            return None

    def exact(self) -> None:
        """Exact search on boards of up to 16 cells (no pattern tables on disk: :meth:`run` tried those
        first), keeping a reserve for weighted A* when it may fail."""
        build = self.build_seconds()
        if build is not None and build > 0 and self.left() > 2 * build:
            # time enough to build the tables first and still search with them
            if self.exact_idastar(0.3 * (self.left() - build)) or self.done():
                return
            prepared = self.pdb_tables(build=True)
            if prepared is not None and self.left() > 0:
                self.exact_pdb(prepared, self.left() * (1 - WEIGHTED_RESERVE))
            return
        if self.n <= BFS_CELLS and self.metric == "single":
            if self.exact_idastar(0.5 * self.left()) or self.done():
                return
            self.begin("exact search (bidirectional BFS)")
            try:
                self.offer(self.run_plan("bibfs", None, None, self.left()), exact=True)
            except (SearchLimitExceeded, ProblemTooLargeError) as exc:
                self.limit_hit(exc)
            return
        self.exact_idastar(self.left() * (1 - WEIGHTED_RESERVE))

    def weighted(self) -> None:
        """Weighted A* at falling weights, each on an equal share of the time left."""
        from .solver import multi_heuristic

        heuristic = "linear-conflict" if self.metric == "single" else "crossings"
        if self.metric == "multi" and multi_heuristic(self.width, self.height) == "multi-pdb":
            heuristic = "multi-pdb"
        if not self.kernels_ready("astar"):
            return
        for i, weight in enumerate(FALLBACK_WEIGHTS):
            if self.done() or self.left() <= 0.01:
                return
            if self.best is not None and self.best_factor is not None and self.best_factor <= weight:
                continue  # already as good a guarantee
            self.begin(f"weighted A* (w={weight:g})")
            try:
                found = self.run_plan("wastar", heuristic, weight, self.left() / (len(FALLBACK_WEIGHTS) - i))
            except (SearchLimitExceeded, ProblemTooLargeError) as exc:
                self.limit_hit(exc)
                continue
            self.offer(found, factor=weight)

    def bounded(self) -> bool:
        """Shorter answers from the bounded-suboptimal solver until the deadline, where it supports this
        board; returns whether it did."""
        try:
            from . import bounded
        except ImportError:
            return False
        if not bounded.supports(self.width, self.height, self.metric) or self.left() <= 0:
            return False
        if not self.kernels_ready("beam", "idastar", "astar"):
            return True  # the solver for this board, not compiled in time: nothing else is tried
        self.begin("bounded-suboptimal search")
        best_length = None if self.best is None else self.best.length
        for found in bounded.improving_solutions(
            self.board, self.goal, deadline=self.deadline, best_length=best_length, metric=self.metric
        ):
            self.offer(found)
            if self.done():
                break
        return True

    def improve(self) -> None:
        """After exact search failed on a board of up to 16 cells: the bounded solver, else weighted A*."""
        if not self.bounded():
            self.weighted()

    def bigger(self) -> None:
        """Boards over 16 cells: a short exact try when the bound is small, then the improving solvers."""
        if self.lower_bound <= SHALLOW_BOUND and self.left() > 0:
            self.exact_idastar(min(SHALLOW_SHARE * self.left(), SHALLOW_SECONDS))
            if self.done():
                return
        used_bounded = self.bounded()
        if self.done():
            return
        if not used_bounded and self.n > WEIGHTED_CELLS and self.left() > 0:
            try:
                from .reduction import solve_reduction
            except ImportError:
                return
            if not self.kernels_ready("reduction", "idastar"):
                return
            self.begin("reduction search")
            self.offer(
                solve_reduction(
                    self.board,
                    self.goal,
                    deadline=self.deadline,
                    metric=self.metric,
                    quick=self.quick_cells,
                    quick_seconds=self.quick_seconds,
                    on_better=self.offer,
                )
            )
            return
        if not used_bounded and self.n <= WEIGHTED_CELLS:
            self.weighted()

    def run(self, interruptible: bool = False) -> Solution:
        try:
            if self.lower_bound == 0 and self.board == self.goal:
                self.offer(
                    Solution(self.board, self.goal, (), True, "none", None, SearchStats(), self.metric),
                    exact=True,
                )
                return self.result()
            if SMALL_CELLS < self.n <= EXACT_CELLS and (prepared := self.pdb_tables(build=False)) is not None:
                # tables on disk: exact search first (usually well under a second), the quick answer and
                # weighted A* only if it runs out of its share of the budget
                self.exact_pdb(prepared, self.left() * (1 - WEIGHTED_RESERVE))
                if not self.done():
                    self.quick()
                    self.improve()
                return self.result()
            if self.metric == "multi" and self.n > SMALL_CELLS:
                # the single-tile ladder's first answer merged into slides is the constructive multi-tile
                # answer itself (constructive moves merged), so it replaces quick() and improves on it
                self.via_single(SINGLE_SHARE * self.left())
            else:
                self.quick()
            if not self.done() and self.left() > 0:
                if self.n <= EXACT_CELLS:
                    self.exact()
                    if not self.done() and self.left() > 0:
                        self.improve()
                else:
                    self.bigger()
        except (KeyboardInterrupt, SystemError) as exc:
            # A Ctrl-C while a compiled kernel runs surfaces as a SystemError ("returned a result with an
            # exception set") whose context is the KeyboardInterrupt.
            if isinstance(exc, SystemError) and not _is_interrupt(exc):
                raise
            if not interruptible or self.best is None:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                raise KeyboardInterrupt from exc
            self.notes.append("interrupted: the best answer found so far")
        return self.result()


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` was caused by a KeyboardInterrupt (directly or as its cause or context)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def solve_anytime(
    board: Board,
    goal_board: Board,
    *,
    seconds: float | None = None,
    metric: str = "single",
    limits: Limits | None = None,
    progress: ProgressFn | None = None,
    on_update: UpdateFn | None = None,
    interruptible: bool = False,
) -> Solution:
    """The best solution of ``board`` (to ``goal_board``, which it must be able to reach) found within
    ``seconds`` (default: ``limits.max_seconds``, else ``DEFAULT_SECONDS`` of search: with the default
    budget, kernel compiling and table loading on a machine's first run do not eat into it; a budget given
    is wall-clock time, start-up included); see the module docstring.

    ``limits.max_nodes`` caps each search step; ``limits.max_memory_mb`` each step's memory (default
    ``LADDER_MEMORY_MB``). ``progress`` hears about table builds, ``on_update`` gets an :class:`Update`
    whenever the best length, the bound or the step changes. ``interruptible``: a Ctrl-C
    (``KeyboardInterrupt``) after the first answer returns the best so far instead of propagating. The first
    answer is always given, however small the budget: milliseconds on small boards, about a second at
    100×100, growing with cells ** 1.5 beyond (a 200×200 about 17 s); a note says when the budget was
    overrun."""
    limits = limits or NO_LIMITS
    default = seconds is None and limits.max_seconds is None
    if seconds is None:
        seconds = limits.max_seconds if limits.max_seconds is not None else DEFAULT_SECONDS
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    ladder = _Ladder(board, goal_board, seconds, metric, limits, progress, on_update, startup_free=default)
    return ladder.run(interruptible)


def kernel_groups(board: Board, metric: str = "single", goal_board: Board | None = None) -> list[str]:
    """The groups of kernels (see :func:`npuzzle._kernels.warmup.group_compiled`) the ladder may use on
    boards of this size (with ``goal_board``: and the pattern tables' search where they are at hand)."""
    from . import bounded

    groups = ["idastar"]
    if board.n_cells > SMALL_CELLS:
        groups.append("astar")
    if board.n_cells > EXACT_CELLS and bounded.supports(board.width, board.height, metric):
        groups.append("beam")
    if board.n_cells > WEIGHTED_CELLS:
        groups.append("reduction")
    if goal_board is not None and metric == "single" and BFS_CELLS < board.n_cells <= EXACT_CELLS:
        try:
            from .pdb_backend import choose_partition, partition_present

            if partition_present(choose_partition(board.width, board.height, goal_board.blank_cell)):
                groups.append("pdb")
        except (ImportError, PuzzleError, ValueError):
            pass
    return groups


def uncompiled_kernels(
    board: Board, metric: str = "single", goal_board: Board | None = None
) -> tuple[list[str], float]:
    """The groups of :func:`kernel_groups` not compiled on this machine yet, and the estimated seconds their
    first compile takes (``COMPILE_SECONDS``)."""
    cold = [group for group in kernel_groups(board, metric, goal_board) if not group_compiled(group)]
    return cold, _compile_seconds(cold)


def compile_kernels(board: Board, metric: str = "single", goal_board: Board | None = None) -> str | None:
    """Compile (or load) now the kernels the ladder uses on boards of this size. For a batch of boards, each
    with a budget that a first compile would not fit in: the ladder would skip them on every board. Returns a
    sentence saying what was compiled, or None when all were at hand."""
    cold, _ = uncompiled_kernels(board, metric, goal_board)
    return _compile(cold)[1] if cold else None


def _compile_seconds(groups: list[str]) -> float:
    """The estimated seconds of a first compile of ``groups`` (``COMPILE_SECONDS``)."""
    return sum(COMPILE_SECONDS[group] for group in groups)


def _compile(groups: list[str]) -> tuple[float, str]:
    """Compile (or load) ``groups`` now: the seconds it took and a sentence saying so."""
    started = time.monotonic()
    for group in groups:
        warm_group(group)
    spent = time.monotonic() - started
    return spent, f"compiled the {_listed(groups)} kernels in {spent:.1f} s (first use on this machine, then cached)"


def tables_for_later(board: Board, goal_board: Board) -> tuple[Partition, float] | None:
    """The pattern tables that later solves of boards like this one use and that are missing, with the
    estimated seconds to build them (and, on 4×4-sized boards, to compile their search the first time); None
    when there are none to build. 4×4-sized boards: the exact search's
    partition; 17 to 32 cells: the bounded solver's cheap partition, unless a stronger one is cached."""
    try:
        from . import bounded
        from .pdb_backend import build_seconds, choose_partition, partition_present, strongest_partition
    except ImportError:
        return None
    width, height, blank = board.width, board.height, goal_board.blank_cell
    try:
        if BFS_CELLS < board.n_cells <= EXACT_CELLS:
            partition = choose_partition(width, height, blank)
        elif bounded.PDB_MIN_CELLS <= board.n_cells <= bounded.PDB_MAX_CELLS:
            if partition_present(strongest_partition(width, height, blank)):
                return None
            from ..heuristics.pdb import standard_partition

            partition = standard_partition(width, height, blank, bounded.CHEAP_PARTITION)
        else:
            return None
    except (PuzzleError, ValueError):
        return None
    if partition_present(partition):
        return None
    seconds = build_seconds(partition)
    if board.n_cells <= EXACT_CELLS and not group_compiled("pdb"):  # prepare_tables compiles their search too
        seconds += COMPILE_SECONDS["pdb"]
    return partition, seconds


def prepare_tables(board: Board, goal_board: Board, progress: ProgressFn | None = None) -> str | None:
    """Build the pattern tables that later solves of boards like this one use (:func:`tables_for_later`; the
    single-tile metric), if they are missing, and load the search kernel that reads them. Returns a sentence
    saying what was built, or ``None``."""
    missing = tables_for_later(board, goal_board)
    if missing is None:
        return None
    from .pdb_backend import load_partition

    partition, _ = missing
    t = time.monotonic()
    tables = load_partition(partition, build=True, progress=progress)
    # compile (or load) the search kernel that reads them now, not in the next solve's budget
    if board.n_cells <= EXACT_CELLS:
        warm_group("pdb")
    else:
        from .bounded import beam_search, beam_tables

        moved = _Ladder(board, goal_board, 1.0, "single", NO_LIMITS, None, None).one_move_state()
        beam_search(moved, board.width, board.height, goal_board.blank_cell, 4, 3, time.monotonic() + 60,
                    beam_tables(tables))  # fmt: skip
    return (
        f"built the {board.width}x{board.height} {partition.label} pattern tables and loaded their search "
        f"kernel in {time.monotonic() - t:.1f} s (first run only; later solves use them)"
    )


__all__ = [
    "DEFAULT_SECONDS",
    "Update",
    "admissible_bound",
    "compile_kernels",
    "kernel_groups",
    "prepare_tables",
    "solve_anytime",
    "tables_for_later",
    "uncompiled_kernels",
]
