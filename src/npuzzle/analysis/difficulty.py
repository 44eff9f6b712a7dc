"""Boards of a chosen optimal length, and how hard a given board is.

:func:`generate_length` returns boards whose distance to the goal provably lies in ``low..high``; every
:class:`Rated` board carries its proof (``lower_bound <= distance <= upper_bound``, equal when exact). The
strategy, in order, and how uniform its draw is among all boards of the band:

* ``layer`` (boards up to :data:`LAYER_CELLS` cells, e.g. 3×3, 2×5): exact BFS distances of every position;
  each board is drawn **exactly uniformly** from all positions in the band.
* ``rejection`` (where the band holds at least :data:`MIN_REJECTION_SHARE` of all positions by the known
  distribution, e.g. 4×4 bands within about 42..63): uniform shuffles solved optimally, kept when in the band:
  **exactly uniform** within the band.
* ``climb`` (up to 16 cells otherwise): start at the goal (or, for targets above the mean, at a uniform
  shuffle), draw a target distance uniformly in the band, then step each time to a uniformly chosen
  neighbour that is one move farther (closer), every distance proven by the optimal solver, until the
  target is reached. **Biased**: not uniform within a distance (boards with many farther neighbours are
  favoured), but every board is exactly at its reported distance.
* ``walk-bound`` (larger boards, where optimal solving is too slow): a random walk of ``high`` moves from the
  goal gives an upper bound ``<= high``; the board is kept when a proven lower bound (linear conflict) is
  at least ``low``. **Biased** towards boards random walks reach; the distance itself is only bounded.

Every board is reproducible from ``seed`` (SplitMix64 streams of :mod:`npuzzle.generate`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..board import Board, neighbour_cells
from ..canonical import from_canonical, to_canonical
from ..errors import SearchLimitExceeded
from ..generate import _board_state, _draw_below, _shuffle_values, _walk_values, seed_key
from .distributions import Distribution, depth_table, distribution

LAYER_CELLS = 10  # 10!/2 = 1,814,400 positions: the BFS table takes about a second
OPTIMAL_CELLS = 16  # up to 4x4 the pattern-database solver proves distances in milliseconds to seconds
MIN_REJECTION_SHARE = 0.02  # below 2 % of all positions, climbing outward costs fewer optimal solves
STRATEGIES = ("layer", "rejection", "climb", "walk-bound")
UNIFORMITY = {
    "layer": "exactly uniform among all positions in the band (full BFS)",
    "rejection": "exactly uniform among all positions in the band (uniform shuffles, rejected by optimal length)",
    "climb": "biased: a walk outward one proven move at a time to a target drawn uniformly in the band",
    "walk-bound": "biased: random walks of the band's upper length kept when a proven lower bound reaches the band",
}


@dataclass(frozen=True)
class Rated:
    """A board with proven bounds on its distance to ``goal``; ``exact`` when they meet."""

    board: Board
    lower_bound: int
    upper_bound: int
    strategy: str

    @property
    def exact(self) -> bool:
        return self.lower_bound == self.upper_bound

    @property
    def length(self) -> int | None:
        return self.lower_bound if self.exact else None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tiles": list(self.board.tiles), "strategy": self.strategy}
        if self.exact:
            out["optimal_length"] = self.lower_bound
        else:
            out["lower_bound"], out["upper_bound"] = self.lower_bound, self.upper_bound
        return out


def parse_band(text: str) -> tuple[int, int]:
    """``"40"`` -> ``(40, 40)``, ``"35..45"`` -> ``(35, 45)``; ValueError quoting ``text`` otherwise."""
    parts = str(text).strip().split("..")
    try:
        if len(parts) == 1:
            low = high = int(parts[0])
        elif len(parts) == 2:
            low, high = int(parts[0]), int(parts[1])
        else:
            raise ValueError
    except ValueError:
        raise ValueError(f"a length must be N or A..B (non-negative integers), got {text!r}") from None
    if low < 0 or high < low:
        raise ValueError(f"a length band A..B needs 0 <= A <= B, got {text!r}")
    return low, high


def band_for(
    goal: Board, length: str | None, min_length: int | None, metric: str = "single"
) -> tuple[int, int]:
    """The band asked by ``--length A`` / ``A..B`` and/or ``--min-length N`` (up to the diameter when known,
    else ``N..N+10``)."""
    if length is not None:
        low, high = parse_band(length)
        if min_length is not None:
            low = max(low, min_length)
            if low > high:
                raise ValueError(f"--min-length {min_length} lies above --length {length!r}")
        return low, high
    if min_length is None or min_length < 0:
        raise ValueError(f"--min-length must be a non-negative integer, got {min_length!r}")
    dist = distribution(goal, metric) if goal.n_cells <= OPTIMAL_CELLS else None
    return min_length, dist.diameter if dist is not None else min_length + 10


def optimal_distance(
    board: Board, goal: Board, metric: str = "single", max_seconds: float | None = None
) -> int:
    """The proven optimal distance of ``board`` to ``goal`` (the library's exact solver)."""
    from ..search.limits import Limits
    from ..search.solver import solve

    limits = Limits(max_seconds=max_seconds) if max_seconds else None
    solution = solve(board, goal, optimal=True, metric=metric, limits=limits)
    if not solution.optimal:  # pragma: no cover - optimal=True either proves or raises
        raise RuntimeError("the exact solver returned an unproven length; please report this board")
    return len(solution.moves)


def choose_strategy(goal: Board, low: int, high: int, metric: str = "single") -> str:
    """Which of :data:`STRATEGIES` :func:`generate_length` uses for this goal and band."""
    n = goal.n_cells
    if n <= LAYER_CELLS:
        return "layer"
    if n > OPTIMAL_CELLS:
        return "walk-bound"
    dist = distribution(goal, metric)
    if dist is not None and dist.fraction_between(low, high) >= MIN_REJECTION_SHARE:
        return "rejection"
    return "climb"


def generate_length(
    goal: Board,
    low: int,
    high: int | None = None,
    *,
    count: int = 1,
    seed: int | None = None,
    metric: str = "single",
    strategy: str | None = None,
    max_seconds: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> list[Rated]:
    """``count`` boards whose distance to ``goal`` lies in ``low..high`` (``high`` defaults to ``low``).

    See the module docstring for the strategies and their uniformity. ``max_seconds`` bounds the whole call
    (:class:`~npuzzle.errors.SearchLimitExceeded` when it runs out). ``jobs`` worker processes try candidates
    in parallel (see :func:`iter_length`: the same boards as ``jobs=1``). Raises ``ValueError`` for a band no
    position reaches (for BFS-sized boards and the 4×4 the diameter is known).
    """
    if count < 0:
        raise ValueError(f"count must be non-negative, got {count}")
    out: list[Rated] = []
    if count == 0:
        iter_length(goal, low, high, seed=seed, metric=metric, strategy=strategy)  # checks the arguments
        return out
    stream = iter_length(
        goal, low, high, seed=seed, metric=metric, strategy=strategy, max_seconds=max_seconds, jobs=jobs
    )
    try:
        for rated in stream:
            out.append(rated)
            if progress:
                progress(len(out), count)
            if len(out) == count:
                break
    except SearchLimitExceeded as exc:
        raise SearchLimitExceeded(
            f"time limit reached after {len(out)} of {count} boards of the asked length",
            exc.stats,
            exc.limit or "max_seconds",
        ) from None
    finally:
        stream.close()
    return out


def iter_length(
    goal: Board,
    low: int,
    high: int | None = None,
    *,
    seed: int | None = None,
    metric: str = "single",
    strategy: str | None = None,
    max_seconds: float | None = None,
    jobs: int = 1,
) -> Iterator[Rated]:
    """Boards whose distance to ``goal`` lies in ``low..high``, one after another without end (stop when you
    have enough; memory stays constant).

    Candidate ``i`` (``i = 0, 1, 2, ...``) depends only on the seed and ``i``; the stream yields the
    accepted candidates in order of ``i``. With ``jobs > 1`` worker processes try candidates in parallel
    and the stream still yields them in that order: **the same boards as** ``jobs=1`` for a seed. (The
    ``layer`` strategy draws thousands of boards a second and always runs in this process.) Arguments are
    checked at once; :class:`~npuzzle.errors.SearchLimitExceeded` is raised by the iteration when
    ``max_seconds`` runs out.
    """
    attempts = _prepare_attempts(goal, low, high, seed, metric, strategy, max_seconds)
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if jobs == 1 or attempts.strategy == "layer":
        return _iter_local(attempts)
    return _iter_parallel(attempts, jobs)


def _prepare_attempts(
    goal: Board,
    low: int,
    high: int | None,
    seed: int | None,
    metric: str,
    strategy: str | None,
    max_seconds: float | None,
) -> _Attempts:
    high = low if high is None else high
    if low < 0 or high < low:
        raise ValueError(f"a length band needs 0 <= low <= high, got {low}..{high}")
    strategy = strategy or choose_strategy(goal, low, high, metric)
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if metric != "single" and strategy in ("walk-bound", "climb"):
        raise ValueError(
            f"{strategy} generation works in the single-tile metric; use a smaller board for multi"
        )
    dist = distribution(goal, metric) if goal.n_cells <= OPTIMAL_CELLS else None
    if dist is not None and low > dist.diameter:
        raise ValueError(
            f"no {goal.width}x{goal.height} position is {low} or more moves from this goal: the farthest are "
            f"{dist.diameter} moves away"
        )
    deadline = None if max_seconds is None else time.monotonic() + max_seconds  # one clock for all processes
    attempts = _Attempts(goal, low, high, seed_key(seed), metric, strategy, deadline, dist)
    if strategy == "layer":
        attempts.ranks()  # an empty band fails here, before any iteration
    return attempts


def _iter_local(attempts: _Attempts) -> Iterator[Rated]:
    index = 0
    while True:
        rated = attempts(index)
        index += 1
        if rated is not None:
            yield rated


IN_FLIGHT_PER_JOB = 16  # candidates queued per worker: a slow one at the head does not idle the others


def _iter_parallel(attempts: _Attempts, jobs: int) -> Iterator[Rated]:
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    from ..batch.runner import start_method

    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(start_method()))
    pending: deque[Future[Rated | None]] = deque()
    index = 0
    try:
        while True:
            while len(pending) < IN_FLIGHT_PER_JOB * jobs:
                pending.append(pool.submit(attempts, index))
                index += 1
            rated = pending.popleft().result()
            if rated is not None:
                yield rated
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # candidates already started finish (one per worker)


@dataclass
class _Attempts:
    """Candidate ``i`` of a band: ``attempts(i)`` is a :class:`Rated` board or ``None`` (rejected). Plain data
    (picklable): worker processes get a copy and call it with their indices."""

    goal: Board
    low: int
    high: int
    key: int
    metric: str
    strategy: str
    deadline: float | None
    dist: Distribution | None
    _ranks: Any = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_ranks": None}  # the layer's rank list is rebuilt, not shipped

    def __call__(self, index: int) -> Rated | None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchLimitExceeded("time limit reached", None, "max_seconds")
        return getattr(self, "_" + self.strategy.replace("-", "_"))(index)

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(self.deadline - time.monotonic(), 0.01)

    def ranks(self) -> Any:
        """Layer strategy: the BFS ranks of every position in the band (ValueError when there is none)."""
        if self._ranks is None:
            import numpy as np

            g = self.goal
            depths = depth_table(g.width, g.height, g.blank_cell, self.metric)
            ranks = np.flatnonzero((depths >= self.low) & (depths <= self.high))
            if ranks.size == 0:
                raise ValueError(
                    f"no {g.width}x{g.height} position lies {self.low}..{self.high} moves from this goal"
                )
            self._ranks = (depths, ranks)
        return self._ranks

    def _layer(self, index: int) -> Rated:
        from .distributions import unrank

        g = self.goal
        depths, ranks = self.ranks()
        # one draw per board from its own stream: board k depends only on the seed and k
        rank = int(ranks[_draw_index(_board_state(self.key, index), int(ranks.size))])
        board = from_canonical(unrank(rank, g.width, g.height, g.blank_cell), g)
        d = int(depths[rank])
        return Rated(board, d, d, "layer")

    def _rejection(self, index: int) -> Rated | None:
        board = _shuffled(self.goal, self.key, index)
        d = optimal_distance(board, self.goal, self.metric, self.remaining())
        return Rated(board, d, d, "rejection") if self.low <= d <= self.high else None

    def _climb(self, index: int) -> Rated | None:
        goal, metric = self.goal, self.metric
        state = _board_state(self.key, index)
        state, offset = _draw_below(state, self.high - self.low + 1)
        target = self.low + offset
        mean = self.dist.mean if self.dist is not None else None
        if mean is not None and target > mean:
            board = _shuffled(goal, self.key ^ 0x5DEECE66D, index)
            d = optimal_distance(board, goal, metric, self.remaining())
        else:
            board, d = goal, 0
        previous: Board | None = None
        while d != target:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise SearchLimitExceeded("time limit reached", None, "max_seconds")
            step = 1 if d < target else -1
            # neighbours in a random order, the first one a move farther (closer) taken: uniform among
            # those, with fewer optimal solves than solving them all
            options = [nb for nb in _neighbours(board) if nb != previous]
            found = None
            while options and found is None:
                state, r = _draw_below(state, len(options))
                nb = options.pop(r)
                if optimal_distance(nb, goal, metric, self.remaining()) == d + step:
                    found = nb
            if found is None:  # a local extreme: this candidate fails, the next stream starts afresh
                return None
            previous, board, d = board, found, d + step
        return Rated(board, d, d, "climb")

    def _walk_bound(self, index: int) -> Rated | None:
        from ..heuristics.simple import linear_conflict

        g = self.goal
        values, _path = _walk_values(
            _board_state(self.key, index), g.width, g.height, g.blank_cell, self.high
        )
        bound = linear_conflict(values, g.width, g.height, g.blank_cell)
        if bound < self.low:
            return None
        # the walk's reverse is a solution of `high` moves, and the distance has the walk's parity
        return Rated(from_canonical(values, g), bound, self.high, "walk-bound")


def _draw_index(state: int, bound: int) -> int:
    """Uniform in ``0..bound-1`` for any bound (two 32-bit draws when it exceeds 2**32)."""
    if bound <= 1 << 31:
        return _draw_below(state, bound)[1]
    state, high = _draw_below(state, (bound >> 31) + 1)
    while True:  # rejection keeps it uniform
        state, low_part = _draw_below(state, 1 << 31)
        value = (high << 31) | low_part
        if value < bound:
            return value
        state, high = _draw_below(state, (bound >> 31) + 1)


def _shuffled(goal: Board, key: int, index: int) -> Board:
    values = _shuffle_values(_board_state(key, index), goal.n_cells, goal.width, goal.blank_cell)
    return from_canonical(values, goal)


def _neighbours(board: Board) -> list[Board]:
    blank = board.blank_cell
    return [board.move(board.tiles[c]) for c in neighbour_cells(blank, board.width, board.height)]


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyze` found: proven bounds (equal when exact), heuristic bounds, placement."""

    board: Board
    goal: Board
    lower_bound: int
    upper_bound: int
    manhattan: int
    linear_conflict: int
    percentile: float | None  # share of positions strictly shorter, in percent (None: no distribution)
    label: str | None
    distribution_mean: float | None
    source: str | None

    @property
    def exact(self) -> bool:
        return self.lower_bound == self.upper_bound

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tiles": list(self.board.tiles), "goal": list(self.goal.tiles)}
        if self.exact:
            out["optimal_length"] = self.lower_bound
        else:
            out["lower_bound"], out["upper_bound"] = self.lower_bound, self.upper_bound
        out.update(
            manhattan=self.manhattan,
            linear_conflict=self.linear_conflict,
            percentile=self.percentile,
            label=self.label,
            mean_of_random_positions=self.distribution_mean,
            distribution_source=self.source,
        )
        return out


def analyze(board: Board, goal: Board, *, seconds: float = 10.0, metric: str = "single") -> Analysis:
    """Optimal length of ``board`` (or proven bounds found within ``seconds``), its heuristic bounds, and where
    it falls among random positions of its size (percentile and difficulty label, when a distribution is
    known: BFS-sized boards, and the 4×4 with the blank's home in a corner)."""
    from ..heuristics.simple import linear_conflict, manhattan
    from ..search.anytime import solve_anytime

    values = to_canonical(board, goal)  # checks the labels match
    solution = solve_anytime(board, goal, seconds=seconds, metric=metric)
    upper = len(solution.moves)
    lower = upper if solution.optimal else int(solution.lower_bound or 0)
    w, h, b = goal.width, goal.height, goal.blank_cell
    dist: Distribution | None = distribution(goal, metric) if goal.n_cells <= OPTIMAL_CELLS else None
    percentile = label = None
    if dist is not None:
        percentile = (
            (dist.percentile(lower) + dist.percentile(upper)) / 2
            if lower != upper
            else dist.percentile(lower)
        )
        label = dist.label(lower) if lower == upper else f"at least {dist.label(lower)}"
    return Analysis(
        board,
        goal,
        lower,
        upper,
        manhattan(values, w, h, b) if metric == "single" else 0,
        linear_conflict(values, w, h, b) if metric == "single" else 0,
        percentile,
        label,
        dist.mean if dist is not None else None,
        dist.source if dist is not None else None,
    )


__all__ = [
    "LAYER_CELLS",
    "STRATEGIES",
    "UNIFORMITY",
    "Analysis",
    "Rated",
    "analyze",
    "band_for",
    "choose_strategy",
    "generate_length",
    "optimal_distance",
    "parse_band",
]
