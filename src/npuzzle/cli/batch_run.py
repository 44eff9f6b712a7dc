"""``npuzzle solve --input FILE [--output results.jsonl]``: the batch face of :mod:`npuzzle.batch`.

Without ``--output`` one JSON object per board line goes to standard output, in input order, each as soon
as it and the lines before it are solved. With ``--output`` every result is appended to a resumable results
file as it finishes (:mod:`npuzzle.batch.results`): the same command started again after a crash or a
``kill -9`` solves only the lines that are not there yet. Either way a bad line is reported on standard
error with its number and a short excerpt and the rest go on. Exit code: the worst over all lines
(2 bad input, then 3 limit hit, then 1 unsolvable, else 0).
"""

from __future__ import annotations

import json
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import typer

from ..batch.jobs import SolveJob, job_key, parse_jobs
from ..batch.ray_engine import engine_executor
from ..batch.reader import open_input, read_lines
from ..batch.runner import run_batch
from ..board import Board
from ..errors import PuzzleError
from ..search.limits import Limits
from .common import EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_OK, EXIT_UNSOLVABLE

_EXIT = {"UnsolvableError": EXIT_UNSOLVABLE, "SearchLimitExceeded": EXIT_LIMIT}
#: Goals tried when every board of a file is unsolvable for the one asked for.
COMMON_GOALS = ("classic", "blank-first", "snake", "spiral", "column")


@dataclass
class BatchSummary:
    """Counts and the exit code over a batch, and the goals that would make every unsolvable board solvable."""

    goal: str | tuple[int, ...]
    boards: int = 0
    errors: int = 0
    unsolvable: int = 0
    codes: set[int] = field(default_factory=lambda: {EXIT_OK})
    candidates: set[str] | None = None  # common goals for which every unsolvable board so far is solvable

    def add(self, job: SolveJob, error_type: str | None, error: str | None, *, report: bool = True) -> None:
        if job.tiles is not None:
            self.boards += 1
        if error_type is None:
            return
        self.errors += 1
        self.codes.add(_EXIT.get(error_type, EXIT_BAD_INPUT))
        if error_type == "UnsolvableError":
            self.unsolvable += 1
            self._narrow(job)
        if report:
            typer.echo(f"npuzzle: line {job.line}: {error}", err=True)

    def _narrow(self, job: SolveJob) -> None:
        if not isinstance(self.goal, str) or job.tiles is None:
            return
        if self.candidates is None:
            self.candidates = {g for g in COMMON_GOALS if g != self.goal.strip().lower()}
        if not self.candidates:
            return
        from ..solvability import is_solvable

        board = Board(job.tiles, job.width, job.height, job.blank)
        for name in list(self.candidates):
            try:
                if not is_solvable(board, name):
                    self.candidates.discard(name)
            except PuzzleError:
                self.candidates.discard(name)

    def hint(self) -> str | None:
        """A suggestion when every board was unsolvable for the goal asked for and a common goal fits all."""
        if self.boards < 1 or self.unsolvable != self.boards or not self.candidates:
            return None
        names = [g for g in COMMON_GOALS if g in self.candidates]
        return (
            f"every board was unsolvable for goal {self.goal!r}; all of them are solvable for "
            + " or ".join(f"--goal {name}" for name in names)
            + (" (Korf's instance files use blank-first)" if "blank-first" in names else "")
        )

    def exit_code(self) -> int:
        return next(code for code in (EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_UNSOLVABLE, EXIT_OK) if code in self.codes)


def solve_batch(
    path: str,
    *,
    size: tuple[int, int] | None,
    goal: str | tuple[int, ...],
    blank: int,
    algorithm: str,
    jobs: int | None,
    limits: Limits,
    output: str | None = None,
    optimal: bool = False,
    engine: str = "local",
    address: str | None = None,
) -> int:
    """Solve every board of ``path`` (``-``: standard input) on ``engine``; return the exit code."""
    if output is not None and path != "-":
        from pathlib import Path

        if Path(output).resolve() == Path(path).resolve():
            raise ValueError(f"--output {output} is the input file itself; give another file for the results")
    summary = BatchSummary(goal)
    with engine_executor(engine, address=address, n_jobs=jobs) as executor, open_input(path) as stream:
        job_stream = parse_jobs(
            read_lines(stream), size=size, goal=goal, blank=blank, algorithm=algorithm, limits=limits,
            optimal=optimal,
        )  # fmt: skip
        if output is None:
            try:
                for job, result in run_batch(job_stream, executor=executor, n_jobs=jobs, ordered=True):
                    typer.echo(json.dumps(result))
                    summary.add(job, result.get("error_type"), result.get("error"))
            except BrokenPipeError:  # the reader left (| head): stop quietly, as other Unix tools do
                _silence_stdout()
                return summary.exit_code()
        else:
            _solve_into(output, job_stream, jobs, summary, executor)
    hint = summary.hint()
    if hint:
        typer.echo(f"npuzzle: {hint}", err=True)
    return summary.exit_code()


def _silence_stdout() -> None:
    """Point standard output at /dev/null so the interpreter's final flush does not fail again."""
    import os
    import sys

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _solve_into(
    output: str, job_stream: Any, jobs: int | None, summary: BatchSummary, executor: Executor | None = None
) -> None:
    from ..batch.results import ResultsFile

    results = ResultsFile(output).open()
    try:
        if results.dropped_torn_line:
            typer.echo(f"npuzzle: dropped a torn last line of {output}; that board is solved again", err=True)
        already = len(results.done)

        def pending() -> Any:
            for job in job_stream:
                if results.check(job.line, job_key(job)):
                    _, error_type = results.done[job.line]
                    summary.add(job, error_type, None, report=False)
                    continue
                yield job

        written = 0
        for job, result in run_batch(pending(), executor=executor, n_jobs=jobs, ordered=False):
            results.append({**result, "key": job_key(job)})
            written += 1
            summary.add(job, result.get("error_type"), result.get("error"))
    except BaseException:
        results.close()
        raise
    results.close(sort=True)
    typer.echo(
        f"npuzzle: {written} result{'s' if written != 1 else ''} written to {output}"
        + (f" ({already} already there)" if already else "")
        + (f"; {summary.errors} line{'s' if summary.errors != 1 else ''} with errors" if summary.errors else ""),
        err=True,
    )


__all__ = ["COMMON_GOALS", "BatchSummary", "solve_batch"]
