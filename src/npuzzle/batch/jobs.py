"""Batch solving: plain, picklable jobs and JSON-able results, run over any executor.

A file holds one board per line; ``#`` starts a comment and blank lines are skipped. A line is read by the
CLI's BOARD rule (:func:`~npuzzle.notation.parse_board_or_korf_line`), so a Korf instance line, a number (an
id or the optimal length, ignored) and then exactly the tiles ``0..N-1``, is a board. Each board line becomes a
:class:`SolveJob`; :func:`run_job` turns it into one dict: the ``solve --json`` object
(:meth:`~npuzzle.solution.Solution.to_dict`) plus ``"index"`` (0-based among board lines) and ``"line"``
(1-based line number), or ``{"index", "line", "error", "error_type"}`` when the line cannot be read or
solved. Errors never stop the other lines, and an error quotes at most a short excerpt of its line.

The input is read as a stream (:mod:`.reader`) and solved through :func:`~npuzzle.batch.runner.run_batch`:
the first results come out while the rest of the file is still unread.

>>> [j.tiles for j in parse_jobs(["# two boards", "1 2 3 0", "", "9 1 2 0 3"])]
[(1, 2, 3, 0), (1, 2, 0, 3)]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..board import Board, excerpt
from ..errors import BoardFormatError, PuzzleError
from ..goals import goal_for
from ..search.limits import NO_LIMITS, Limits
from .reader import InputLine, open_input, read_lines

MAX_ERROR_CHARS = 300  # an error entry's message, whatever the error quoted



@dataclass(frozen=True)
class SolveJob:
    """One board to solve. ``tiles`` is ``None`` when the line could not be read (``error`` says why)."""

    index: int
    line: int
    text: str
    tiles: tuple[int, ...] | None
    width: int
    height: int
    blank: int = 0
    goal: str | tuple[int, ...] = "classic"
    algorithm: str = "auto"
    limits: Limits = field(default=NO_LIMITS)
    error: str | None = None
    optimal: bool = False  # insist on a proven optimum (solve --optimal): a limit then makes an error entry


def parse_line(text: str, width: int | None, height: int | None, blank: int = 0) -> Board:
    """One board from a line, by the same rule as the CLI's BOARD argument
    (:func:`~npuzzle.notation.parse_board_or_korf_line`): any notation :func:`~npuzzle.notation.parse_board`
    reads, or a Korf instance line, whose leading number (the optimal length or an id) is ignored only when
    the rest are exactly the tiles ``0..N-1``; a typed board with a number too many is refused.

    Without a size the board must be square or written in rows.

    >>> parse_line("57 1 2 3 4 5 6 7 8 0", None, None).tiles
    (1, 2, 3, 4, 5, 6, 7, 8, 0)
    >>> parse_line("1 2 3 / 4 5 0", None, None).size
    (3, 2)
    """
    from ..notation import parse_board_or_korf_line

    return parse_board_or_korf_line(text.strip(), width, height, blank)


def _short_error(exc: BaseException) -> str:
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= MAX_ERROR_CHARS else message[: MAX_ERROR_CHARS - 1] + "…"


def job_key(job: SolveJob) -> str:
    """A fingerprint of the job's line text and options (not its limits): a results file records it, so a
    resumed run can tell that it reads the same input with the same command."""
    spec = repr((job.text, job.width, job.height, job.blank, job.goal, job.algorithm))
    if job.optimal:  # appended only when set, so results files written before the option still match
        spec += " optimal"
    return hashlib.blake2b(spec.encode("utf-8", errors="replace"), digest_size=8).hexdigest()


def parse_jobs(
    lines: Iterable[str | InputLine],
    *,
    size: tuple[int, int] | None = None,
    goal: str | tuple[int, ...] = "classic",
    blank: int = 0,
    algorithm: str = "auto",
    limits: Limits = NO_LIMITS,
    optimal: bool = False,
) -> Iterator[SolveJob]:
    """A :class:`SolveJob` per board line, lazily (bad lines give jobs carrying their error).

    ``lines`` are strings (numbered from 1) or :class:`~npuzzle.batch.reader.InputLine` s.
    """
    width, height = size if size is not None else (None, None)
    index = 0
    for number, raw in enumerate(lines, start=1):
        error = None
        if isinstance(raw, InputLine):
            number, raw, error = raw.number, raw.text, raw.error
        text = raw.split("#", 1)[0].strip()
        if not text and error is None:
            continue
        try:
            if error is not None:
                raise BoardFormatError(error)
            board = parse_line(text, width, height, blank)
            job = SolveJob(
                index, number, text, board.tiles, board.width, board.height, blank, goal, algorithm, limits,
                optimal=optimal,
            )  # fmt: skip
        except (PuzzleError, ValueError, TypeError, RecursionError) as exc:
            job = SolveJob(
                index, number, excerpt(text, 80)[1:-1], None, width or 0, height or 0, blank, goal, algorithm,
                limits, _short_error(exc),
            )  # fmt: skip
        yield job
        index += 1


def run_job(job: SolveJob) -> dict[str, Any]:
    """Solve one job; never raises (errors become ``"error"`` entries, so one line never stops a batch).

    An error that is not a :class:`~npuzzle.errors.PuzzleError` (a bug, memory) is recorded with its type
    name and ``"internal": true``.
    """
    head: dict[str, Any] = {"index": job.index, "line": job.line}
    if job.tiles is None:
        return {**head, "error": job.error, "error_type": "BoardFormatError"}
    try:
        board = Board(job.tiles, job.width, job.height, job.blank)
        goal = goal_for(board, job.goal if isinstance(job.goal, str) else list(job.goal))
        from ..search.solver import solve

        solution = solve(board, goal, algorithm=job.algorithm, limits=job.limits, optimal=job.optimal)
    except PuzzleError as exc:
        return {**head, "error": _short_error(exc), "error_type": type(exc).__name__}
    except Exception as exc:  # recorded, never silent: one bad board must not end the batch
        return {**head, "error": _short_error(exc), "error_type": type(exc).__name__, "internal": True}
    return {**head, **solution.to_dict()}


def solve_jobs(
    jobs: Iterable[SolveJob], *, executor: Executor | None = None, n_jobs: int | None = None
) -> Iterator[dict[str, Any]]:
    """Results in job order, streamed (see :func:`~npuzzle.batch.runner.run_batch`)."""
    from .runner import run_batch

    for _job, result in run_batch(jobs, executor=executor, n_jobs=n_jobs):
        yield result


def solve_file(
    path: str | Path,
    *,
    size: tuple[int, int] | str | None = None,
    goal: str | tuple[int, ...] | Board = "classic",
    blank: int = 0,
    algorithm: str = "auto",
    jobs: int | None = None,
    limits: Limits = NO_LIMITS,
    executor: Executor | None = None,
) -> Iterator[dict[str, Any]]:
    """Solve every board of a file (``-`` = standard input); one dict per board line, in input order.

    The file is read as the results are consumed, never all at once.
    """
    if isinstance(size, str):
        from ..notation import parse_size

        size = parse_size(size)
    goal_spec: str | tuple[int, ...] = goal.tiles if isinstance(goal, Board) else goal
    with open_input(path) as stream:
        job_stream = parse_jobs(
            read_lines(stream), size=size, goal=goal_spec, blank=blank, algorithm=algorithm, limits=limits
        )
        yield from solve_jobs(job_stream, executor=executor, n_jobs=jobs)


__all__ = ["SolveJob", "job_key", "parse_jobs", "parse_line", "run_job", "solve_file", "solve_jobs"]
