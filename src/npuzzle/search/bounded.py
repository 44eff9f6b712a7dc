"""Bounded-suboptimal, anytime solving for mid-size boards (5×5 to about 8×8).

:func:`improving_solutions` yields ever shorter answers until its deadline, in stages:

1. the quick reduction answer (:func:`npuzzle.search.reduction.quick_solution`), then that answer
   *smoothed* (:func:`smooth`: stretches of the path re-solved optimally by IDA*);
2. beam search (:func:`beam_search`, kernel :mod:`npuzzle._kernels.beam`) at widths 1k to 64k, each answer
   smoothed; on boards of 17 to 32 cells with pattern tables cached (or cheap enough to build in the time
   left, see ``PDB_MIN_CELLS``) the beam ranks by the tables instead (:mod:`npuzzle._kernels.beam_pdb`),
   at widths grown to fit the time, and their value raises the lower bound;
3. weighted A* (the library's kernel, linear conflict, at most ``ASTAR_MEMORY_MB``) at falling weights from
   3, each answer smoothed, until one runs out of memory;
4. weighted IDA* (kernel :mod:`npuzzle._kernels.wida`, Manhattan + linear conflict, pruned by the best
   length: ``g + h >= best`` cannot lead to a shorter answer) at the lower weights, down to 1.

Every search is admissibly bounded, so each answer carries a proven ``lower_bound`` (the linear-conflict
heuristic of the start, ``ceil(length / w)`` for an answer found at weight ``w``, the thresholds plain IDA*
exhausted; each raised to the parity every answer's length has) and ``suboptimality`` (the smaller of ``w``
and ``length / lower_bound``). An IDA* iteration that exhausts every path shorter than the best proves the
best optimal.

Single-tile metric only (:func:`supports`); the multi-tile metric is left to the anytime ladder's other
solvers.

>>> import time
>>> from npuzzle.goals import classic
>>> from npuzzle.generate import walk
>>> board = walk(classic(5, 5), 30, seed=2)
>>> answers = list(improving_solutions(board, classic(5, 5), deadline=time.monotonic() + 30))
>>> answers[-1].optimal, answers[-1].length <= 30
(True, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..board import Board
from ..errors import ProblemTooLargeError
from ..solution import SearchStats, Solution

if TYPE_CHECKING:
    from ..heuristics.pdb import PartitionTables

MAX_CELLS = 64  # beyond 8×8 Manhattan + linear conflict is too weak for weighted IDA* to help
# Weights (numerator, denominator), tried in this order; each answer is at most w times the optimum.
WEIGHTS = ((3, 1), (2, 1), (8, 5), (7, 5), (13, 10), (6, 5), (23, 20), (11, 10), (21, 20), (1, 1))
# Weighted A* first (fast at large weights), within ASTAR_MEMORY_MB; then weighted IDA* below the last weight
# A* finished.
ASTAR_WEIGHTS = ((3, 1), (2, 1), (8, 5), (7, 5), (5, 4))
ASTAR_MEMORY_MB = 256
SMOOTH_WINDOW = 32  # moves per stretch that smooth() re-solves optimally (24: about 5% shorter on a 10×10 reduction answer, 36: 7%)
SMOOTH_NODES = 200_000  # IDA* node cap per stretch (a stretch that needs more is left as it is)
BEAM_SEED = 20_191  # the Zobrist keys' seed (any fixed number: answers are reproducible)
# With pattern tables (boards of 17 to PDB_MAX_CELLS cells): the strongest named partition when its file is
# in the cache (6-6-6-6 on a 5×5 whose goal has its blank in a corner), else the ``auto`` one (5-5-5-5-4 on a
# 5×5) when cached, or built once the quick answer is out, when the time left is over BUILD_MARGIN times its
# estimated build time (:func:`npuzzle.search.pdb_backend.build_seconds`).
PDB_MIN_CELLS = 17  # up to 4×4 the anytime ladder searches exactly with its own tables
PDB_MAX_CELLS = 32  # pattern tables hold boards of up to 32 cells (npuzzle.heuristics.pdb)
# Beam search starts at BEAM_FIRST and grows BEAM_GROWTH times per run while the step after would still fit,
# then to the width whose run should end within BEAM_FIT of the time left (run time grows about linearly with
# the width), at most BEAM_MAX and at most what keeps the layers' parents and moves (5 bytes per state and
# layer, layers fewer than the best length) within BEAM_HISTORY_BYTES.
BEAM_FIRST = 1_000
BEAM_GROWTH = 4
BEAM_FIT = 0.8
BEAM_MAX = 1 << 18
BEAM_HISTORY_BYTES = 512 << 20
CHEAP_PARTITION = "auto"
BUILD_MARGIN = 3.0
QUICK_SMOOTH_SHARE = 0.1  # of the time left, spent smoothing the quick answer
BEAM_SMOOTH_SHARE = 0.1  # of the time left, spent smoothing each beam answer
NODE_CHUNK = 1 << 19  # nodes per kernel call between deadline checks (a few tens of milliseconds)
ALGORITHM = "weighted-idastar"
HEURISTIC = "linear-conflict"


def supports(width: int, height: int, metric: str = "single") -> bool:
    """Whether :func:`improving_solutions` works on a ``width`` × ``height`` board in ``metric``: the
    single-tile metric on boards of 4 to ``MAX_CELLS`` cells."""
    return metric == "single" and width >= 2 and height >= 2 and width * height <= MAX_CELLS


def _parity_up(bound: int, parity: int) -> int:
    """The smallest number >= ``bound`` with the parity every answer's length has."""
    return bound if bound % 2 == parity % 2 else bound + 1


class _Search:
    """The kernel's arrays for one board (see :mod:`npuzzle._kernels.wida`)."""

    def __init__(self, values: list[int], width: int, height: int, blank_home: int, capacity: int) -> None:
        from .._kernels.reduce import neighbour_table
        from .._kernels.wida import N_REGS, init_lc

        n = width * height
        self.start = np.asarray(values, dtype=np.int32)
        self.width, self.height, self.blank_home = width, height, blank_home
        cells = np.arange(n)
        self.md = (
            np.abs(cells[:, None] // width - cells[None, :] // width)
            + np.abs(cells[:, None] % width - cells[None, :] % width)
        ).astype(np.int32)
        self.md[blank_home, :] = 0
        self.md = self.md.reshape(-1)
        self.nbr = neighbour_table(width, height)
        self.tails = np.zeros(2 * (width + height) + 4, dtype=np.int32)
        self.lc0 = np.zeros(width + height, dtype=np.int32)
        self.lc_sum0 = int(init_lc(self.start, width, height, blank_home, self.lc0, self.tails))
        self.md0 = int(self.md.reshape(n, n)[self.start, cells].sum())
        self.regs = np.zeros(N_REGS, dtype=np.int64)
        self.nodes = 0
        self.allocate(capacity)

    @property
    def h0(self) -> int:
        return self.md0 + 2 * self.lc_sum0

    def allocate(self, capacity: int) -> None:
        self.kids = np.zeros((capacity, 4), dtype=np.int32)
        self.n_kids = np.zeros(capacity, dtype=np.int32)
        self.next_kid = np.zeros(capacity, dtype=np.int32)
        self.entered = np.zeros(capacity, dtype=np.int32)
        self.moved = np.zeros(capacity, dtype=np.int32)
        self.undo_line = np.zeros(capacity, dtype=np.int32)
        self.undo_lc = np.zeros(capacity, dtype=np.int32)

    def reset(self, threshold: int) -> None:
        """Back to the start for a new iteration."""
        from .._kernels.wida import (
            INFINITE,
            R_BLANK,
            R_DEPTH,
            R_LC,
            R_MD,
            R_NEXT,
            R_NODES,
            R_START,
            R_THRESHOLD,
        )

        self.state = self.start.copy()
        self.lc = self.lc0.copy()
        blank = int(np.flatnonzero(self.start == self.blank_home)[0])
        regs = self.regs
        regs[:] = 0
        regs[R_THRESHOLD], regs[R_NEXT], regs[R_NODES] = threshold, INFINITE, self.nodes
        regs[R_BLANK], regs[R_START], regs[R_MD], regs[R_LC], regs[R_DEPTH] = (
            blank,
            blank,
            self.md0,
            self.lc_sum0,
            0,
        )
        self.entered[0] = 0

    def run(self, wn: int, wd: int, bound: int, budget: int) -> int:
        from .._kernels.wida import R_NODES, wida_run

        status = wida_run(
            self.state,
            self.blank_home,
            self.width,
            self.height,
            self.md,
            self.nbr,
            self.lc,
            self.tails,
            wn,
            wd,
            bound,
            self.kids,
            self.n_kids,
            self.next_kid,
            self.entered,
            self.moved,
            self.undo_line,
            self.undo_lc,
            self.regs,
            budget,
        )
        self.nodes = int(self.regs[R_NODES])
        return int(status)


def improving_solutions(
    board: Board,
    goal_board: Board,
    *,
    deadline: float,
    best_length: int | None = None,
    metric: str = "single",
) -> Iterator[Solution]:
    """Each strictly shorter solution found before ``deadline`` (a :func:`time.monotonic` value), shortest
    last; when ``best_length`` is None the quick reduction answer comes first. When a search proves the last
    answer it yielded optimal, that answer comes once more with ``optimal`` True. Stops when it can do no
    better or time is up. Raises :class:`ProblemTooLargeError` where :func:`supports` says no, and
    :class:`~npuzzle.errors.UnsolvableError` for a board that cannot reach the goal.

    The steps: weighted A* (the library's kernel, linear conflict, at most ``ASTAR_MEMORY_MB``) at the
    weights of ``ASTAR_WEIGHTS`` until one runs out of memory; each answer then shortened by
    :func:`smooth`; then weighted IDA* (no memory limit) at the lower weights of ``WEIGHTS``."""
    from .reduction import _prepare, quick_solution

    width, height = board.width, board.height
    if not supports(width, height, metric):
        raise ProblemTooLargeError(
            f"weighted IDA* works on single-tile boards of up to {MAX_CELLS} cells, not a {width}x{height} board"
            f" in the {metric} metric"
        )
    values = _prepare(board, goal_board, metric)
    t0 = time.perf_counter()
    quick = None
    if best_length is None:
        quick = quick_solution(board, goal_board, metric=metric)
        yield quick
        if quick.optimal:
            return
        best_length = quick.length
    search = _Search(values, width, height, goal_board.blank_cell, best_length + 2)
    ladder = _Ladder(board, goal_board, values, search, best_length, t0)
    tables: BeamTables | None = None
    if PDB_MIN_CELLS <= width * height <= PDB_MAX_CELLS:  # after the quick answer: loading may build
        tables, note = _pdb_tables(width, height, goal_board.blank_cell, deadline)
        if tables is not None:
            ladder.lower = max(ladder.lower, _parity_up(pdb_value(values, tables), ladder.parity))
            ladder.notes = (note,) if note else ()
    if quick is not None:  # a share of the time left to shorten the quick answer
        cut = time.monotonic() + QUICK_SMOOTH_SHARE * max(deadline - time.monotonic(), 0.0)
        cells = to_cells(values, goal_board, quick)
        better = ladder._emit(
            smooth(values, width, height, goal_board.blank_cell, cells, cut), 0.0, "reduction+smooth", 0
        )
        if better is not None:
            yield better
    yield from ladder.beam(deadline, tables)
    yield from ladder.astar(deadline)
    yield from ladder.idastar(deadline)


class _Ladder:
    """The state of :func:`improving_solutions`: the best length, the proven lower bound, the last answer."""

    def __init__(
        self, board: Board, goal_board: Board, values: list[int], search: _Search, best: int, t0: float
    ) -> None:
        self.board, self.goal_board, self.values, self.search, self.best, self.t0 = (
            board,
            goal_board,
            values,
            search,
            best,
            t0,
        )
        self.parity = search.md0 % 2  # every answer's length has the parity of the Manhattan distance
        self.lower = _parity_up(search.h0, self.parity)
        self.last: Solution | None = None
        self.min_weight = (3, 1)  # the weighted IDA* stage starts below the last weight A* finished
        self.notes: tuple[str, ...] = ()  # one-time work done (a table build), for the answers' ``notes``

    def _emit(
        self, cells: list[int], weight: float, algorithm: str, nodes: int, heuristic: str = HEURISTIC
    ) -> Solution | None:
        """A Solution for ``cells`` if shorter than the best; records it."""
        length = len(cells)
        if length >= self.best:
            return None
        if weight > 0:  # 0: no proven factor
            self.lower = max(self.lower, _parity_up(math.ceil(length / weight - 1e-9), self.parity))
        solution = _solution(
            self.board,
            self.goal_board,
            self.values,
            np.asarray(cells, dtype=np.int32),
            self.lower,
            weight,
            self.t0,
            algorithm,
            nodes,
        )
        solution = solution.with_claims(heuristic=heuristic, notes=self.notes)
        self.best = length
        self.last = solution
        return solution

    def beam(self, deadline: float, tables: BeamTables | None = None) -> Iterator[Solution]:
        """Beam search from ``BEAM_FIRST`` wide, growing to the widest whose round should fit the time left (see
        ``BEAM_FIT``) until that is no wider than the last (the same width gives the same answer), each answer
        smoothed for a moment. The heuristic is linear conflict, or with ``tables`` the pattern tables'.

        With linear conflict each width is run both ways, from the board to the goal and from the goal to the
        board (:func:`inverse_problem`): the two give different answers, and the shorter of the two is
        worth a beam four times as wide run one way (6×6 random walks of 360 moves, 10 boards: 136.0 moves
        against 140.0 at width 64k, 136.2 at 256k). Tables are built for the goal's blank home only, so with
        them the search runs forward."""
        width, height, blank_home = self.board.width, self.board.height, self.goal_board.blank_cell
        heuristic = HEURISTIC if tables is None else f"pdb:{tables.label}"
        directions = [(list(self.values), blank_home, False)]
        if tables is None:
            directions.append((*inverse_problem(self.values, blank_home), True))
        widths = [BEAM_FIRST]
        while widths:
            beam = widths.pop(0)
            spent = 0.0
            for values, home, backward in directions:
                if time.monotonic() >= deadline or self.lower >= self.best:
                    return
                started = time.monotonic()
                cells = beam_search(values, width, height, home, beam, self.best, deadline, tables)
                spent += time.monotonic() - started
                if cells is None:
                    continue
                if backward:
                    cells = reversed_cells(cells, blank_home)
                solution = self._emit(cells, 0.0, "beam", beam, heuristic)
                if solution is not None:
                    yield solution
                cut = time.monotonic() + BEAM_SMOOTH_SHARE * max(deadline - time.monotonic(), 0.0)
                better = self._emit(
                    smooth(self.values, width, height, blank_home, cells, cut),
                    0.0,
                    "beam+smooth",
                    beam,
                    heuristic,
                )
                if better is not None:
                    yield better
            fit = int(beam * BEAM_FIT * (deadline - time.monotonic()) / max(spent, 1e-3))
            widest = min(BEAM_MAX, BEAM_HISTORY_BYTES // (5 * max(self.best, 1)))
            # grow by BEAM_GROWTH while a further step would still fit, else straight to the widest
            wider = min(beam * BEAM_GROWTH if fit >= beam * BEAM_GROWTH**2 else fit, widest)
            if wider > beam:
                widths.append(wider)

    def astar(self, deadline: float) -> Iterator[Solution]:
        from ..errors import SearchLimitExceeded
        from .limits import Limits
        from .solver import Plan, run_canonical

        width, height, blank_home = self.board.width, self.board.height, self.goal_board.blank_cell
        for wn, wd in ASTAR_WEIGHTS:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            weight = wn / wd
            try:
                cells, stats = run_canonical(
                    self.values,
                    width,
                    height,
                    blank_home,
                    Plan("wastar", HEURISTIC, weight),
                    "single",
                    Limits(max_seconds=remaining, max_memory_mb=ASTAR_MEMORY_MB),
                )
            except SearchLimitExceeded:
                return
            self.min_weight = (wn, wd)
            solution = self._emit(cells, weight, "weighted-astar", stats.expanded)
            if solution is None:
                continue
            yield solution
            smoothed = smooth(self.values, width, height, blank_home, cells, deadline)
            better = self._emit(smoothed, weight, "weighted-astar+smooth", stats.expanded)
            if better is not None:
                yield better
            if self.lower >= self.best:
                return

    def idastar(self, deadline: float) -> Iterator[Solution]:
        from .._kernels.wida import BUDGET, EXHAUSTED, FOUND, INFINITE, OVERFLOW, R_DEPTH, R_NEXT

        search = self.search
        for wn, wd in WEIGHTS:
            if wn * self.min_weight[1] >= self.min_weight[0] * wd or self.lower >= self.best:
                continue  # not below a weight weighted A* finished, or nothing shorter can exist
            threshold = search.h0 * wn
            while True:
                search.reset(threshold)
                while True:
                    if time.monotonic() >= deadline:
                        return
                    status = search.run(wn, wd, self.best, NODE_CHUNK)
                    if status != BUDGET:
                        break
                if status == OVERFLOW:
                    search.allocate(2 * search.kids.shape[0])
                    continue
                if status == FOUND:
                    length = int(search.regs[R_DEPTH])
                    cells = search.moved[:length].tolist()
                    solution = self._emit(cells, wn / wd, ALGORITHM, search.nodes)
                    if solution is not None:
                        yield solution
                    break
                assert status == EXHAUSTED
                following = int(search.regs[R_NEXT])
                if (
                    following >= INFINITE
                ):  # every path shorter than the best was searched: the best is optimal
                    self.lower = self.best
                    if self.last is not None and self.last.length == self.best and not self.last.optimal:
                        last = self.last
                        yield _solution(
                            self.board,
                            self.goal_board,
                            self.values,
                            None,
                            self.best,
                            1.0,
                            self.t0,
                            last.algorithm,
                            search.nodes,
                            last,
                        )
                    return
                if wn == wd:  # plain IDA*: no answer within the threshold
                    self.lower = max(self.lower, _parity_up(threshold + 1, self.parity))
                threshold = following


def _pdb_tables(width: int, height: int, blank_home: int, deadline: float) -> tuple[BeamTables | None, str]:
    """The pattern tables for the beam (see ``PDB_MIN_CELLS``) and a note when they were built now; None
    when none are cached (or readable) and there is no time to build the cheap ones (or the build fails)."""
    from ..errors import PuzzleError
    from ..heuristics.pdb import standard_partition
    from .pdb_backend import build_seconds, load_partition, partition_present, strongest_partition

    try:
        cheap = standard_partition(width, height, blank_home, CHEAP_PARTITION)
        candidates = [strongest_partition(width, height, blank_home), cheap]
    except (PuzzleError, ValueError):
        return None, ""
    for partition in candidates:
        if partition_present(partition):
            try:
                return beam_tables(load_partition(partition, build=False)), ""
            except (PuzzleError, OSError, ValueError):  # a damaged file: the next one, or none
                continue
    if partition_present(cheap) or deadline - time.monotonic() < BUILD_MARGIN * build_seconds(cheap):
        return None, ""
    started = time.monotonic()
    try:
        tables = load_partition(cheap, build=True, deadline=deadline)
    except (PuzzleError, OSError, ValueError):  # out of time or memory, or no room on disk
        return None, ""
    note = (
        f"built the {width}x{height} {cheap.label} pattern tables in {time.monotonic() - started:.1f} s "
        "(first use only; cached for later solves)"
    )
    return beam_tables(tables), note


def smooth(
    values: list[int],
    width: int,
    height: int,
    blank_home: int,
    cells: list[int],
    deadline: float,
    window: int = SMOOTH_WINDOW,
) -> list[int]:
    """``cells`` (a solution in canonical form: the cells the blank moves to) shortened by cutting it into
    stretches of ``window`` moves and replacing each with an optimal path between its two ends when that is
    shorter (IDA* with linear conflict on the stretch, relabelled so that its end is the goal; at most
    ``SMOOTH_NODES`` nodes, else the stretch stays). Sweeps alternate the cut points by half a window and
    repeat until two sweeps gain nothing or the deadline passes (a sweep cut short keeps what it gained).
    Streams over the path: memory is the path plus one board. Still a solution: each replacement joins the
    same two positions."""
    from ..errors import SearchLimitExceeded
    from .constructive import cancel_inverses
    from .limits import Limits
    from .solver import Plan, run_canonical

    n = width * height
    path = list(cells)
    start_blank = list(values).index(blank_home)
    idle_sweeps, sweep = 0, 0
    while idle_sweeps < 2 and len(path) > 2:
        offset = (window // 2) * (sweep % 2)
        sweep += 1
        state = list(values)
        blank = start_blank
        out = path[:offset]
        for cell in out:
            state[blank], state[cell] = state[cell], blank_home
            blank = cell
        gained = False
        i = offset
        while i < len(path):
            if time.monotonic() >= deadline:  # keep the rest as it is, without replaying it
                out.extend(path[i:])
                break
            stretch = path[i : i + window]
            i += window
            if len(stretch) > 2:
                end = state[:]
                end_blank = blank
                for cell in stretch:
                    end[end_blank], end[cell] = end[cell], blank_home
                    end_blank = cell
                where_end = [0] * n
                for cell, tile in enumerate(end):
                    where_end[tile] = cell
                local = [
                    where_end[tile] for tile in state
                ]  # the tile in a cell -> its cell at the stretch's end
                try:
                    steps, _ = run_canonical(
                        local,
                        width,
                        height,
                        end_blank,
                        Plan("idastar", HEURISTIC, None),
                        "single",
                        Limits(max_nodes=SMOOTH_NODES),
                    )
                except SearchLimitExceeded:
                    steps = stretch
                if len(steps) < len(stretch):
                    stretch = [int(c) for c in steps]
                    gained = True
            for cell in stretch:
                state[blank], state[cell] = state[cell], blank_home
                blank = cell
            out.extend(stretch)
        path = cancel_inverses(start_blank, out)
        idle_sweeps = 0 if gained else idle_sweeps + 1
        if time.monotonic() >= deadline:
            break
    return path


@dataclass(frozen=True, eq=False)
class BeamTables:
    """Pattern tables arranged for the beam kernel (see :mod:`npuzzle._kernels.beam_pdb`): made by
    :func:`beam_tables`."""

    label: str  # "6-6-6-6", "6-6-6-6+reflection"
    table: np.ndarray
    offsets: np.ndarray
    group_of: np.ndarray
    group_tiles: np.ndarray
    group_size: np.ndarray
    tmap: np.ndarray
    reflect: bool


def beam_tables(tables: PartitionTables, reflect: bool = True) -> BeamTables:
    """``tables`` for :func:`beam_search`; read reflected as well when ``reflect`` and the partition allows
    it (a square board whose goal has its blank on a diagonal)."""
    from ..heuristics.pdb import reflection_cells

    p = tables.partition
    n = p.width * p.height
    group_of = np.full(n, -1, np.int8)
    group_tiles = np.zeros((len(p.groups), max(p.sizes)), np.int8)
    for g, homes in enumerate(p.groups):
        group_of[list(homes)] = g
        group_tiles[g, : len(homes)] = homes
    t = reflection_cells(p.width, p.height, p.blank_cell) if reflect else None
    table = np.asarray(tables.values).view(np.ndarray)
    return BeamTables(
        f"{p.label}{'+reflection' if t is not None else ''}",
        table,
        tables.offsets,
        group_of,
        group_tiles,
        np.array(p.sizes, np.int64),
        np.array(t if t is not None else range(n), np.int8),
        t is not None,
    )


def group_values(values: list[int], tables: BeamTables) -> tuple[np.ndarray, np.ndarray, int]:
    """Each group's normal and mirrored table value for the canonical ``values`` (``int16[n_groups]`` each;
    the mirrored ones are zeros without reflection) and the heuristic they give: the larger sum."""
    from .._kernels.pdb_idastar import initial_values

    n = len(values)
    pos = np.empty(n, np.int8)
    pos[np.asarray(values)] = np.arange(n, dtype=np.int8)
    hg = np.zeros(len(tables.group_size), np.int16)
    hm = np.zeros(len(tables.group_size), np.int16)
    hsum, msum = initial_values(
        pos, tables.table, tables.offsets, tables.group_tiles, tables.group_size, n, tables.tmap,
        tables.reflect, hg, hm,
    )  # fmt: skip
    return hg, hm, int(max(hsum, msum))


def pdb_value(values: list[int], tables: BeamTables) -> int:
    """The admissible heuristic the PDB beam uses, for the start ``values`` (a lower bound on its distance)."""
    return group_values(values, tables)[2]


def beam_search(
    values: list[int],
    width: int,
    height: int,
    blank_home: int,
    beam: int,
    best: int,
    deadline: float,
    tables: BeamTables | None = None,
) -> list[int] | None:
    """Beam search: layer by layer, keep the ``beam`` distinct children of lowest heuristic; children that
    cannot give an answer shorter than ``best`` are dropped (the heuristic is admissible). The heuristic is
    linear conflict (:mod:`npuzzle._kernels.beam`), or with ``tables`` the pattern databases'
    (:mod:`npuzzle._kernels.beam_pdb`). The cells of the first answer reached, or None (the beam emptied,
    or the deadline passed). No proven factor: its answers are checked against the lower bound only."""
    from .._kernels.reduce import neighbour_table

    n = width * height
    cells = np.arange(n)
    if list(values) == list(range(n)):
        return []
    nbr = neighbour_table(width, height)
    rng = np.random.default_rng(BEAM_SEED)
    zobrist = rng.integers(-(2**62), 2**62, size=n * n, dtype=np.int64)
    start = np.asarray(values, dtype=np.int8 if n <= 127 else np.int16)
    states = start[None, :].copy()
    blanks = np.array([values.index(blank_home)], dtype=np.int32)
    came = np.array([-1], dtype=np.int32)
    hashes = np.array([np.bitwise_xor.reduce(zobrist[cells * n + start])], dtype=np.int64)
    room = 4 * beam
    out_parent = np.zeros(room, dtype=np.int32)
    out_cell = np.zeros(room, dtype=np.int32)
    out_h = np.zeros(room, dtype=np.int32)
    out_hash = np.zeros(room, dtype=np.int64)
    seen = np.zeros(1 << (2 * room).bit_length(), dtype=np.int64)  # select_children's hash set
    if tables is None:
        from .._kernels.beam import expand_layer, gather_children
        from .._kernels.idastar import cached_lc_tables, init_lines
        from ..heuristics.simple import line_conflicts

        md_table = (
            np.abs(cells[:, None] // width - cells[None, :] // width)
            + np.abs(cells[:, None] % width - cells[None, :] % width)
        ).astype(np.int32)
        md_table[blank_home, :] = 0
        # each state's Manhattan distance and linear-conflict count
        extra = [
            np.array([int(md_table[start, cells].sum())], dtype=np.int32),
            np.array([line_conflicts(values, width, height, blank_home)], dtype=np.int32),
        ]
        out_extra = [np.zeros(room, dtype=np.int32), np.zeros(room, dtype=np.int32)]
        md_table = md_table.reshape(-1)
        tails = np.zeros(2 * (width + height) + 4, dtype=np.int32)
        row_of, col_of = (cells // width).astype(np.int32), (cells % width).astype(np.int32)
        lctab, code, line_of, tabled = cached_lc_tables(width, height, blank_home)
        keys = np.zeros((1, width + height if tabled else 0), dtype=np.int32)  # each board's lines' keys
        if tabled:
            init_lines(start.astype(np.int64), width, height, blank_home, code, True, keys[0], tails)

        def expand(count: int, depth: int) -> tuple[int, int]:
            return expand_layer(  # type: ignore[no-any-return]
                states, count, blanks, came, extra[0], extra[1], keys, hashes, width, height, blank_home,
                md_table, nbr, zobrist, best, depth, tails, row_of, col_of, lctab, code, line_of, out_parent,
                out_cell, out_extra[0], out_extra[1], out_h, out_hash,
            )  # fmt: skip

        def next_layer(chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            nonlocal keys
            new_states = np.empty((len(chosen), n), dtype=states.dtype)
            new_blanks = np.empty(len(chosen), dtype=np.int32)
            new_came = np.empty(len(chosen), dtype=np.int32)
            new_keys = np.empty((len(chosen), keys.shape[1]), dtype=np.int32)
            gather_children(
                states, blanks, out_parent, out_cell, chosen, blank_home, code, line_of, keys, new_states,
                new_blanks, new_came, new_keys,
            )  # fmt: skip
            keys = new_keys
            return new_states, new_blanks, new_came
    else:
        from .._kernels.beam_pdb import expand_layer_pdb

        n_groups = len(tables.group_size)
        pos = np.empty(n, np.int8)  # the kernel's scratch
        hg, hm, _ = group_values(values, tables)
        extra = [hg[None, :].copy(), hm[None, :].copy()]  # each state's group values
        out_extra = [np.zeros((room, n_groups), np.int16), np.zeros((room, n_groups), np.int16)]
        kid_parent = np.zeros(room, np.int32)
        kid_cell = np.zeros(room, np.int32)
        kid_index = np.zeros((room, 2), np.int64)
        out_states = np.zeros((room, n), dtype=start.dtype)
        out_came = np.zeros(room, dtype=np.int32)

        def expand(count: int, depth: int) -> tuple[int, int]:
            return expand_layer_pdb(  # type: ignore[no-any-return]
                states, count, blanks, came, extra[0], extra[1], hashes, blank_home, nbr, zobrist,
                tables.table, tables.offsets, tables.group_of, tables.group_tiles, tables.group_size,
                tables.tmap, tables.reflect, best, depth, pos, kid_parent, kid_cell, kid_index, out_states,
                out_cell, out_came, out_extra[0],
                out_extra[1], out_h, out_hash, out_parent,
            )  # fmt: skip

        def next_layer(chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            return out_states[chosen], out_cell[chosen], out_came[chosen]

    from .._kernels.beam import select_children

    parents: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    for depth in range(best - 1):
        if time.monotonic() >= deadline:
            return None
        written, goal_row = expand(len(blanks), depth)
        if goal_row >= 0:
            path = [int(out_cell[goal_row])]
            row = int(out_parent[goal_row])
            for layer_parents, layer_moves in zip(reversed(parents), reversed(moves), strict=True):
                path.append(int(layer_moves[row]))
                row = int(layer_parents[row])
            path.reverse()
            return path
        if written == 0:
            return None
        chosen = select_children(out_h, out_hash, written, beam, seen)
        parents.append(out_parent[chosen])
        moves.append(out_cell[chosen].astype(start.dtype))
        states, blanks, came = next_layer(chosen)
        hashes = out_hash[chosen]
        extra = [a[chosen] for a in out_extra]
    return None


def inverse_problem(values: list[int], blank_home: int) -> tuple[list[int], int]:
    """The puzzle run backwards, in canonical form: the goal's board with each tile labelled by its cell in
    ``values``, and that problem's blank home (the blank's cell in ``values``). A path solving it, reversed
    (:func:`reversed_cells`), solves ``values``.

    >>> inverse_problem([1, 3, 2, 0], 3)  # 2×2: the blank (3) at cell 1
    ([3, 0, 2, 1], 1)
    """
    inverse = [0] * len(values)
    for cell, home in enumerate(values):
        inverse[home] = cell
    return inverse, values.index(blank_home)


def reversed_cells(cells: list[int], blank_home: int) -> list[int]:
    """The cells the blank moves to along a path of :func:`inverse_problem`'s, walked back: the moves of the
    forward problem, whose blank ends at ``blank_home``.

    >>> reversed_cells([3, 2, 0], 1)  # the blank went 1 -> 3 -> 2 -> 0; back: 0 -> 2 -> 3 -> 1
    [2, 3, 1]
    """
    return [*cells[-2::-1], blank_home] if cells else []


def _states(values: list[int], blank_home: int, cells: list[int]) -> list[list[int]]:
    """The canonical position before each move of ``cells`` and after the last (``len(cells) + 1``)."""
    state = list(values)
    blank = state.index(blank_home)
    out = [state[:]]
    for cell in cells:
        state[blank], state[cell] = state[cell], blank_home
        blank = cell
        out.append(state[:])
    return out


def to_cells(values: list[int], goal_board: Board, solution: Solution) -> list[int]:
    """The cells the blank moves to along ``solution`` (single-tile moves), in canonical form."""
    state = list(values)
    blank = state.index(goal_board.blank_cell)
    cells = []
    home_of = {label: cell for cell, label in enumerate(goal_board.tiles)}
    where = {home: cell for cell, home in enumerate(state)}
    for label in solution.moves:
        cell = where[home_of[label]]
        cells.append(cell)
        where[state[cell]], where[goal_board.blank_cell] = blank, cell
        state[blank], state[cell] = state[cell], goal_board.blank_cell
        blank = cell
    return cells


def _solution(
    board: Board,
    goal_board: Board,
    values: list[int],
    cells: np.ndarray | None,
    lower: int,
    weight: float,
    t0: float,
    algorithm: str,
    nodes: int,
    previous: Solution | None = None,
) -> Solution:
    """The Solution for ``cells`` (or ``previous``'s moves), with the proven ``lower`` bound and weight."""
    from .._kernels.reduce import moved_labels

    if previous is not None:
        moves = previous.moves
    else:
        assert cells is not None
        goal_tiles = np.asarray(goal_board.tiles, dtype=np.int64)
        moves = tuple(
            moved_labels(
                np.asarray(values, dtype=np.int32), goal_board.blank_cell, cells, goal_tiles
            ).tolist()
        )
    length = len(moves)
    lower = min(lower, length)
    optimal = length == lower
    if optimal:
        factor: float | None = 1.0
    elif lower > 0:
        factor = min(weight, length / lower) if weight > 0 else length / lower
    else:
        factor = weight if weight > 0 else None
    stats = SearchStats(expanded=nodes, seconds=time.perf_counter() - t0)
    return Solution(
        board,
        goal_board,
        moves,
        optimal,
        algorithm,
        HEURISTIC if previous is None else previous.heuristic,
        stats,
        "single",
        lower_bound=lower,
        suboptimality=factor,
        notes=() if previous is None else previous.notes,
    )


__all__ = [
    "MAX_CELLS",
    "WEIGHTS",
    "BeamTables",
    "beam_search",
    "beam_tables",
    "improving_solutions",
    "supports",
]
