"""Running jobs over an executor: the one seam every batch engine plugs into.

:func:`run_batch` takes jobs lazily, keeps at most ``window`` of them submitted, and yields
``(job, result)`` pairs: in job order (``ordered=True``, what standard output wants) or as they finish
(``ordered=False``, what a results file wants). Memory stays bounded by the window whatever the input size.

``executor`` is any :class:`concurrent.futures.Executor` (a thread pool, a process pool, or an adapter for a
cluster engine that returns futures). Without one, :func:`local_executor` makes a process pool whose workers
are started by ``forkserver`` (``spawn`` where that is missing), never by a bare ``fork``: numba's parallel
kernels run on GNU OpenMP, which cannot survive a fork of a process that has used it (a table built or
mapped before the pool starts did, and the forked worker died with "fork() called from a process already
using GNU OpenMP"). One worker runs the jobs in this process, one at a time, as they are read.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any

from ..board import Board
from ..errors import PuzzleError
from ..goals import goal_for
from .jobs import SolveJob, run_job

Result = dict[str, Any]
JobRunner = Callable[[SolveJob], Result]

#: Jobs looked at, at most, to find a board whose pattern tables are built before the workers start.
PREPARE_LOOKAHEAD = 64


def start_method() -> str:
    """``forkserver`` where the platform has it, else ``spawn``: both start workers from a fresh process."""
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


@contextmanager
def local_executor(n_jobs: int | None = None) -> Iterator[Executor]:
    """A process pool of ``n_jobs`` workers (default: the usable cores) safe with numba's parallel kernels."""
    workers = n_jobs or default_workers()
    context = multiprocessing.get_context(start_method())
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=watch_parent, initargs=(os.getpid(),)
    ) as pool:
        yield pool


def watch_parent(parent_pid: int, poll_seconds: float = 1.0) -> None:
    """Pool-worker initializer: end this worker as soon as process ``parent_pid`` is gone.

    A worker started by the fork server is not the batch process's child: when that process is killed
    (``kill -9``, the OOM killer) nothing else would stop its workers, and each resumed run would add more.
    Linux watches a pidfd (immune to pid reuse); elsewhere the pid is polled.
    """
    try:
        pidfd = os.pidfd_open(parent_pid)  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        pidfd = None

    def gone() -> bool:
        if pidfd is not None:
            return bool(select.select([pidfd], [], [], poll_seconds)[0])
        time.sleep(poll_seconds)
        try:
            os.kill(parent_pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # the pid now belongs to another user's process
            return True
        return False

    def watch() -> None:
        while not gone():
            pass
        os._exit(1)

    threading.Thread(target=watch, name="npuzzle-watch-parent", daemon=True).start()


def prepare_tables(job: SolveJob) -> None:
    """Build (or check) the pattern databases ``job`` will use, in this process, so workers only map them.

    Failures are left for the job itself to report.
    """
    if job.tiles is None or job.algorithm not in ("auto", "pdb"):
        return
    if (job.width, job.height) != (4, 4) and job.algorithm == "auto":
        return
    try:
        from ..search.pdb_backend import choose_partition, load_partition

        board = Board(job.tiles, job.width, job.height, job.blank)
        goal = goal_for(board, job.goal if isinstance(job.goal, str) else list(job.goal))
        load_partition(choose_partition(board.width, board.height, goal.blank_cell))
    except PuzzleError:
        return


def prepare_kernels(job: SolveJob) -> None:
    """Compile (or load) the kernels the anytime ladder uses on boards of ``job``'s size, once, before the
    jobs: each job's budget may be too small for a first compile, and the ladder then skips the steps that
    need one (on every board of the batch). Failures are left for the jobs to report."""
    if job.tiles is None or job.algorithm != "auto":
        return
    try:
        from ..search.anytime import compile_kernels

        board = Board(job.tiles, job.width, job.height, job.blank)
        goal = goal_for(board, job.goal if isinstance(job.goal, str) else list(job.goal))
        compile_kernels(board, goal_board=goal)
    except (ImportError, PuzzleError, ValueError):
        return


def _look_ahead(jobs: Iterator[SolveJob]) -> tuple[list[SolveJob], bool]:
    """The next jobs up to the second readable board (at most :data:`PREPARE_LOOKAHEAD`), and whether that
    was all of them: a pool is not worth starting for one board."""
    head: list[SolveJob] = []
    boards = 0
    for job in jobs:
        head.append(job)
        boards += job.tiles is not None
        if boards >= 2 or len(head) >= PREPARE_LOOKAHEAD:
            return head, False
    return head, True


def run_batch(
    jobs: Iterable[SolveJob],
    *,
    executor: Executor | None = None,
    n_jobs: int | None = None,
    ordered: bool = True,
    window: int | None = None,
    runner: JobRunner = run_job,
) -> Iterator[tuple[SolveJob, Result]]:
    """``(job, runner(job))`` for every job: in job order when ``ordered``, else as each finishes.

    ``executor`` runs ``runner`` (it must be picklable for a process pool, as :func:`run_job` is); without
    one, ``n_jobs`` workers of :func:`local_executor` do (default: the usable cores), or this process when
    ``n_jobs == 1``. At most ``window`` jobs (default: four per worker) are taken from ``jobs`` ahead of the
    results consumed.
    """
    job_iter = iter(jobs)
    workers = n_jobs or default_workers()
    if runner is run_job:  # solve jobs: what their boards need is prepared here, once
        head, exhausted = _look_ahead(job_iter)
        boards = [job for job in head if job.tiles is not None]
        if exhausted and len(boards) <= 1:
            workers = 1  # one board: no pool to start, and its own ladder compiles what its budget allows
        elif boards:
            if executor is None and workers > 1:
                prepare_tables(boards[0])  # built once here; the workers only map them
            prepare_kernels(boards[0])
        job_iter = itertools.chain(head, job_iter)
    if executor is not None:
        yield from _run_on(executor, job_iter, ordered, window or 16, runner)
        return
    if workers <= 1:
        for job in job_iter:
            yield job, runner(job)
        return
    with local_executor(workers) as pool:
        yield from _run_on(pool, job_iter, ordered, window or 4 * workers, runner)


def _run_on(
    executor: Executor, jobs: Iterator[SolveJob], ordered: bool, window: int, runner: JobRunner
) -> Iterator[tuple[SolveJob, Result]]:
    window = max(1, window)
    queue: deque[tuple[SolveJob, Future[Result]]] = deque()  # submitted, not yet yielded (ordered mode)
    running: dict[Future[Result], SolveJob] = {}  # submitted, not yet yielded (as-finished mode)
    exhausted = False
    try:
        while True:
            while not exhausted and len(queue) + len(running) < window:
                job = next(jobs, None)
                if job is None:
                    exhausted = True
                    break
                future = executor.submit(runner, job)
                if ordered:
                    queue.append((job, future))
                else:
                    running[future] = job
            if ordered:
                if not queue:
                    return
                job, future = queue.popleft()
                yield job, future.result()
            else:
                if not running:
                    return
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()
    finally:  # the consumer stopped early or a worker died: drop what has not started
        for _, future in queue:
            future.cancel()
        for future in running:
            future.cancel()


__all__ = ["default_workers", "local_executor", "prepare_tables", "run_batch", "start_method", "watch_parent"]
