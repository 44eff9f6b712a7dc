"""Filling a bank: generate boards of a chosen optimal length, grade them, store each as it finishes.

**Jobs and results** (the seam every engine plugs into). :func:`fill` makes :class:`FillJob` s (plain,
picklable, frozen) and runs :func:`run_fill_job` on them through
:func:`npuzzle.batch.runner.run_batch` with any :class:`concurrent.futures.Executor`; a cluster engine only
has to run ``run_fill_job(job)`` somewhere and hand back the dict it returns, which holds JSON types only:

* done: ``{"seq", "tiles": [labels row-major], "lower_bound", "upper_bound", "optimal": bool,
  "method": generator strategy, "solution": [labels that slide] | None, "solver": str | None,
  "nodes": int | None, "seconds": float | None}``
* failed: ``{"seq", "error": message, "error_type": exception class name}`` (a job never raises)

The driver (this process) writes every result into the bank in one transaction with its job's sequence
number (:meth:`~npuzzle.bank.store.Bank.record_fill_result`), so a run killed with ``kill -9`` loses at most
the jobs still running, and the same command started again skips every sequence number already recorded:
nothing lost, nothing stored twice, and the boards are the same ones a run that was never killed makes.

**Streams.** A fill stream is named by its parameters (size, goal, band, spread, strategy, seed; not
``count``): ``count`` is how many puzzles the stream should have stored in total. Running the same command
again resumes it (and does nothing once it is complete); a larger ``count`` extends it; another ``seed`` is
another, independent stream. Job ``seq`` draws from its own SplitMix64 stream derived from ``seed`` and
``seq`` (:mod:`npuzzle.generate`), so it makes the same board whenever it runs.

**Lengths.** Boards come from :func:`npuzzle.analysis.difficulty.generate_length` (issue 12's generator),
which says how uniform each of its strategies is:

* ``spread="even"`` (default): job ``seq`` asks for one length of the band, taking the band's lengths in
  turn, so every length gets about the same number of puzzles. Within a length the board is exactly uniform
  where the generator's strategy is ``layer`` (boards up to 10 cells: full BFS) or ``rejection`` (4×4 lengths
  holding at least 2 % of all positions, 45..60 for the classic goal), and biased (``climb``) elsewhere.
  Lengths the bank already holds every position of (known for BFS-sized boards) are left out.
* ``spread="band"``: every job asks for the whole band: exactly uniform over all positions of the band where
  the generator allows (so lengths come in their natural proportions: few short ones).

Every exact length is proven twice: by the generator and by a final optimal solve whose solution (replayed to
the goal when it is built) and statistics are stored. Boards larger than 16 cells get the generator's
``walk-bound`` rows: proven lower and upper bounds, ``optimal`` false.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from ..board import Board
from ..errors import InvalidSolutionError, PuzzleError
from .store import Bank, PuzzleRecord

MAX_COUNT = 10_000_000  # puzzles per fill stream: 10^7 rows is about 1.5 GB of bank
SPREADS = ("even", "band")
#: Consecutive jobs that add nothing (their boards were already stored) before a fill gives up: the band
#: holds few positions, or the bank already has most of them.
DUPLICATE_STREAK = 200
#: Consecutive failed jobs before a fill stops and reports the first failure.
ERROR_STREAK = 20

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class FillJob:
    """Make one board whose optimal length lies in ``low..high`` for ``goal`` and grade it.

    ``seed`` (``0 <= seed < 2**63``) fixes the board; ``max_seconds`` bounds the job (``None``: no bound).
    """

    seq: int
    width: int
    height: int
    blank: int
    goal: tuple[int, ...]
    low: int
    high: int
    seed: int
    strategy: str | None = None
    max_seconds: float | None = None


def job_seed(seed: int, seq: int) -> int:
    """The seed of job ``seq`` of the stream ``seed``: 63 bits (fits SQLite's signed integers)."""
    from ..generate import _board_state, seed_key

    return _board_state(seed_key(seed), seq) >> 1


def run_fill_job(job: FillJob) -> dict[str, Any]:
    """Run one :class:`FillJob`; never raises (see the module docstring for the result dict)."""
    try:
        return {"seq": job.seq, **_grade(job)}
    except PuzzleError as exc:
        return {"seq": job.seq, "error": _short(exc), "error_type": type(exc).__name__}
    except Exception as exc:  # recorded, never silent: one failing job must not end the fill
        return {"seq": job.seq, "error": _short(exc), "error_type": type(exc).__name__, "internal": True}


def _short(exc: BaseException, limit: int = 300) -> str:
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= limit else message[: limit - 1] + "…"


def _grade(job: FillJob) -> dict[str, Any]:
    from ..analysis.difficulty import OPTIMAL_CELLS, generate_length

    started = time.monotonic()
    goal = Board(job.goal, job.width, job.height, job.blank)
    rated = generate_length(
        goal, job.low, job.high, count=1, seed=job.seed, strategy=job.strategy, max_seconds=job.max_seconds
    )[0]
    out: dict[str, Any] = {
        "tiles": list(rated.board.tiles),
        "lower_bound": rated.lower_bound,
        "upper_bound": rated.upper_bound,
        "optimal": rated.exact,
        "method": rated.strategy,
        "solution": None,
        "solver": None,
        "nodes": None,
        "seconds": None,
    }
    if rated.exact and goal.n_cells <= OPTIMAL_CELLS:
        from ..search.limits import Limits
        from ..search.solver import solve

        left = None if job.max_seconds is None else max(job.max_seconds - (time.monotonic() - started), 0.01)
        solution = solve(rated.board, goal, optimal=True, limits=Limits(max_seconds=left) if left else None)
        if len(solution.moves) != rated.lower_bound or not solution.optimal:
            raise InvalidSolutionError(
                f"the generator rated {rated.board.tiles} at {rated.lower_bound} moves but the optimal solver "
                f"found {len(solution.moves)}; please report this board"
            )
        out.update(
            solution=list(solution.moves),
            solver=solution.algorithm + (f"/{solution.heuristic}" if solution.heuristic else ""),
            nodes=solution.stats.expanded,
            seconds=round(solution.stats.seconds, 6),
        )
    return out


@dataclass
class FillReport:
    """What :func:`fill` did. ``stopped``: ``done`` (the stream holds ``count``), ``time`` (``max_seconds``
    ran out), ``exhausted`` (jobs kept finding boards already stored), ``errors`` (jobs kept failing)."""

    fill_id: int
    count: int
    already: int  # puzzles the stream held before this run
    added: int = 0
    duplicates: int = 0
    errors: list[str] = field(default_factory=list)
    n_errors: int = 0
    stopped: str = "done"
    seconds: float = 0.0

    @property
    def stored(self) -> int:
        return self.already + self.added

    def to_dict(self) -> dict[str, Any]:
        return {
            "fill_id": self.fill_id,
            "count": self.count,
            "already": self.already,
            "added": self.added,
            "duplicates": self.duplicates,
            "errors": self.n_errors,
            "first_errors": self.errors,
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
        }


def plan_lengths(bank: Bank, goal: Board, low: int, high: int) -> list[int]:
    """The lengths of ``low..high`` an even fill asks for: all, minus those beyond the board's diameter and
    those whose every position is already stored (where the distance distribution is known)."""
    from ..analysis.difficulty import OPTIMAL_CELLS
    from ..analysis.distributions import distribution

    dist = distribution(goal) if goal.n_cells <= OPTIMAL_CELLS else None
    if dist is None:
        return list(range(low, high + 1))
    stored = bank.lengths(goal)
    return [d for d in range(low, min(high, dist.diameter) + 1) if dist.counts[d] > stored.get(d, 0)]


def check_band(goal: Board, low: int, high: int) -> None:
    """ValueError for a band no position of ``goal``'s board reaches."""
    from ..analysis.difficulty import OPTIMAL_CELLS
    from ..analysis.distributions import distribution

    if low < 0 or high < low:
        raise ValueError(f"a length band needs 0 <= low <= high, got {low}..{high}")
    dist = distribution(goal) if goal.n_cells <= OPTIMAL_CELLS else None
    if dist is not None and low > dist.diameter:
        raise ValueError(
            f"no {goal.width}x{goal.height} position is {low} or more moves from this goal: the farthest are "
            f"{dist.diameter} moves away"
        )


def _prepare_tables(goal: Board) -> None:
    """Build (or map) the 4×4 pattern databases here, once, before pool workers start mapping them."""
    if goal.n_cells != 16:
        return
    try:
        from ..search.pdb_backend import choose_partition, load_partition

        load_partition(choose_partition(goal.width, goal.height, goal.blank_cell))
    except PuzzleError:
        return


def fill(
    bank: Bank,
    goal: Board,
    *,
    low: int,
    high: int,
    count: int,
    goal_name: str = "custom",
    seed: int = 0,
    spread: str = "even",
    strategy: str | None = None,
    n_jobs: int | None = 1,
    executor: Executor | None = None,
    window: int | None = None,
    max_seconds: float | None = None,
    progress: Progress | None = None,
) -> FillReport:
    """Fill ``bank`` until the stream (``goal``, ``low..high``, ``spread``, ``strategy``, ``seed``) holds
    ``count`` puzzles; see the module docstring.

    ``executor`` runs :func:`run_fill_job` (any :class:`~concurrent.futures.Executor`: a Ray adapter, a
    thread pool); without one, ``n_jobs`` local processes (:func:`~npuzzle.batch.runner.local_executor`:
    forkserver, workers end with this process), or this process when ``n_jobs`` is 1. ``window`` caps the
    jobs in flight (default: two per worker, 16 on a given executor). ``max_seconds`` bounds the run; the
    jobs running then are cut short and done again by the next run. ``progress(stored, count)`` is called
    after each result.
    """
    from ..batch.runner import default_workers, local_executor, run_batch
    from ..generate import seed_key

    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise ValueError(f"count must be an integer in 0..{MAX_COUNT:,}, got {count!r}")
    if spread not in SPREADS:
        raise ValueError(f"spread must be one of {', '.join(SPREADS)}, got {spread!r}")
    if max_seconds is not None and not max_seconds > 0:
        raise ValueError(f"max_seconds must be positive, got {max_seconds!r}")
    seed_key(seed)  # a ValueError for a negative or non-integer seed
    check_band(goal, low, high)
    started = time.monotonic()
    deadline = None if max_seconds is None else started + max_seconds
    goal_id = bank.goal_id(goal, goal_name)
    params = {
        "v": 1, "width": goal.width, "height": goal.height, "goal": list(goal.tiles), "blank": goal.blank,
        "low": low, "high": high, "spread": spread, "strategy": strategy, "seed": seed,
    }  # fmt: skip
    fill_id = bank.fill_stream(params)
    done, already = bank.fill_progress(fill_id)
    report = FillReport(fill_id, count, already)
    lengths = plan_lengths(bank, goal, low, high) if spread == "even" else [low]
    if report.stored >= count:
        return _finish(report, started)
    if not lengths:
        report.stopped = "exhausted"
        return _finish(report, started)

    state = {"in_flight": 0, "streak": 0, "error_streak": 0, "stop": ""}

    def next_seq() -> Iterator[int]:
        seq = 0
        while True:
            if seq not in done:
                yield seq
            seq += 1

    seqs = next_seq()

    def jobs() -> Iterator[FillJob]:
        while not state["stop"] and report.stored + state["in_flight"] < count:
            left = None
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    state["stop"] = "time"
                    return
            seq = next(seqs)
            if spread == "even":
                job_low = job_high = lengths[seq % len(lengths)]
            else:
                job_low, job_high = low, high
            state["in_flight"] += 1
            yield FillJob(
                seq, goal.width, goal.height, goal.blank, goal.tiles, job_low, job_high, job_seed(seed, seq),
                strategy, left,
            )  # fmt: skip

    workers = 1 if executor is None and n_jobs == 1 else (n_jobs or default_workers())
    with ExitStack() as stack:
        pool = executor
        if pool is None and workers > 1:
            _prepare_tables(goal)
            pool = stack.enter_context(local_executor(workers))
        size = window or (16 if executor is not None else 2 * workers)
        while report.stored < count and not state["stop"]:
            before = report.added + report.duplicates + report.n_errors
            for job, result in run_batch(jobs(), executor=pool, n_jobs=1, ordered=False, window=size,
                                         runner=run_fill_job):  # fmt: skip
                state["in_flight"] -= 1
                _store(bank, goal, goal_id, fill_id, job, result, report, state)
                if progress is not None:
                    progress(report.stored, count)
            if report.added + report.duplicates + report.n_errors == before:
                break  # nothing ran (the deadline passed before the first job)
    if state["stop"]:
        report.stopped = state["stop"]
    elif report.stored < count:
        report.stopped = "time"
    return _finish(report, started)


def _store(bank: Bank, goal: Board, goal_id: int, fill_id: int, job: FillJob, result: dict[str, Any],
           report: FillReport, state: dict[str, Any]) -> None:  # fmt: skip
    if "error" in result:
        report.n_errors += 1
        if result.get("error_type") == "SearchLimitExceeded":  # cut short by max_seconds: not recorded,
            state["stop"] = state["stop"] or "time"  # so the next run does this job again
            return
        if len(report.errors) < 5:
            report.errors.append(f"job {job.seq}: {result['error']}")
        state["error_streak"] += 1
        if state["error_streak"] >= ERROR_STREAK:
            state["stop"] = "errors"
        return
    state["error_streak"] = 0
    record = PuzzleRecord(
        board=Board(result["tiles"], goal.width, goal.height, goal.blank),
        goal=goal,
        goal_name="",
        lower_bound=int(result["lower_bound"]),
        upper_bound=int(result["upper_bound"]),
        optimal=bool(result["optimal"]),
        solution=None if result["solution"] is None else tuple(result["solution"]),
        method=str(result["method"]),
        seed=job.seed,
        solver=result["solver"],
        nodes=result["nodes"],
        seconds=result["seconds"],
        fill_id=fill_id,
        seq=job.seq,
    )
    status = bank.record_fill_result(fill_id, job.seq, record, goal_id)
    if status == "added":
        report.added += 1
        state["streak"] = 0
    else:  # a duplicate board, or another run of the same stream recorded this job first
        report.duplicates += status == "duplicate"
        state["streak"] += 1
        if state["streak"] >= DUPLICATE_STREAK:
            state["stop"] = "exhausted"


def _finish(report: FillReport, started: float) -> FillReport:
    report.seconds = time.monotonic() - started
    return report


__all__ = [
    "DUPLICATE_STREAK",
    "ERROR_STREAK",
    "MAX_COUNT",
    "SPREADS",
    "FillJob",
    "FillReport",
    "check_band",
    "fill",
    "job_seed",
    "plan_lengths",
    "run_fill_job",
]
