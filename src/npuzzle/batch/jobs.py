"""Batch solving: plain, picklable jobs and JSON-able results, run over any executor.

A file holds one board per line; ``#`` starts a comment and blank lines are skipped. A line may start with
a number followed by exactly W×H tiles (Korf's file: the optimal length, ignored). Each board line becomes a
:class:`SolveJob`; :func:`run_job` turns it into one dict: the ``solve --json`` object
(:meth:`~npuzzle.solution.Solution.to_dict`) plus ``"index"`` (0-based among board lines) and ``"line"``
(1-based line number), or ``{"index", "line", "error", "error_type"}`` when the line cannot be read or
solved. Errors never stop the other lines.

>>> [j.tiles for j in parse_jobs(["# two boards", "1 2 3 0", "", "9 1 2 0 3"])]
[(1, 2, 3, 0), (1, 2, 0, 3)]
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..board import Board
from ..errors import BoardFormatError, PuzzleError
from ..goals import goal_for
from ..search.limits import NO_LIMITS, Limits

_LEADING_NUMBER = re.compile(r"^[-+]?\d+[\s,]*")
_TOKENS = re.compile(r"[\s,/|;]+")  # tile separators, row separators included


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


def _square_side(n: int) -> int | None:
    side = math.isqrt(n)
    return side if side >= 2 and side * side == n else None


def parse_line(text: str, width: int | None, height: int | None, blank: int = 0) -> Board:
    """One board from a line, in any notation :func:`~npuzzle.notation.parse_board` reads; a leading
    number before exactly W×H tiles (Korf's file: the optimal length or an id) is ignored.

    Without a size the board must be square or written in rows.

    >>> parse_line("57 1 2 3 4 5 6 7 8 0", None, None).tiles
    (1, 2, 3, 4, 5, 6, 7, 8, 0)
    >>> parse_line("1 2 3 / 4 5 0", None, None).size
    (3, 2)
    """
    from ..notation import parse_board

    stripped = text.strip()
    try:
        return parse_board(stripped, width, height, blank)
    except BoardFormatError as exc:
        count = sum(1 for t in _TOKENS.split(stripped) if t)
        if width is not None and height is not None:
            leading = count == width * height + 1
        else:
            leading = _square_side(count) is None and _square_side(count - 1) is not None
        if not leading:
            raise BoardFormatError(f"{exc} (line: {stripped!r})") from None
    return parse_board(_LEADING_NUMBER.sub("", stripped, count=1), width, height, blank)


def parse_jobs(
    lines: Iterable[str],
    *,
    size: tuple[int, int] | None = None,
    goal: str | tuple[int, ...] = "classic",
    blank: int = 0,
    algorithm: str = "auto",
    limits: Limits = NO_LIMITS,
) -> Iterator[SolveJob]:
    """A :class:`SolveJob` per board line (bad lines give jobs carrying their error)."""
    width, height = size if size is not None else (None, None)
    index = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            board = parse_line(text, width, height, blank)
            job = SolveJob(
                index, number, text, board.tiles, board.width, board.height, blank, goal, algorithm, limits
            )
        except PuzzleError as exc:
            job = SolveJob(
                index, number, text, None, width or 0, height or 0, blank, goal, algorithm, limits, str(exc)
            )
        yield job
        index += 1


def run_job(job: SolveJob) -> dict[str, Any]:
    """Solve one job; never raises for puzzle errors (they become ``"error"`` entries)."""
    head: dict[str, Any] = {"index": job.index, "line": job.line}
    if job.tiles is None:
        return {**head, "error": job.error, "error_type": "BoardFormatError"}
    try:
        board = Board(job.tiles, job.width, job.height, job.blank)
        goal = goal_for(board, job.goal if isinstance(job.goal, str) else list(job.goal))
        from ..search.solver import solve

        solution = solve(board, goal, algorithm=job.algorithm, limits=job.limits)
    except PuzzleError as exc:
        return {**head, "error": str(exc), "error_type": type(exc).__name__}
    return {**head, **solution.to_dict()}


def _prepare_tables(jobs: list[SolveJob]) -> None:
    """Build (or check) the pattern databases once in this process, so workers only map them."""
    if not jobs or jobs[0].algorithm not in ("auto", "pdb"):
        return
    first = next((j for j in jobs if j.tiles is not None), None)
    if first is None or ((first.width, first.height) != (4, 4) and first.algorithm == "auto"):
        return
    try:
        from ..search.pdb_backend import choose_partition, load_partition

        board = Board(first.tiles or (), first.width, first.height, first.blank)
        goal = goal_for(board, first.goal if isinstance(first.goal, str) else list(first.goal))
        load_partition(choose_partition(board.width, board.height, goal.blank_cell))
    except PuzzleError:  # the job itself will report it
        return


def solve_jobs(
    jobs: Iterable[SolveJob], *, executor: Executor | None = None, n_jobs: int | None = None
) -> Iterator[dict[str, Any]]:
    """Results in job order. ``executor`` if given; else a process pool of ``n_jobs`` (default: all cores),
    or this process when ``n_jobs == 1``."""
    job_list = list(jobs)
    _prepare_tables(job_list)
    if executor is not None:
        yield from executor.map(run_job, job_list)
        return
    workers = n_jobs or os.cpu_count() or 1
    if workers <= 1 or len(job_list) <= 1:
        yield from map(run_job, job_list)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(job_list))) as pool:
        yield from pool.map(run_job, job_list)


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
    """Solve every board of a file (``-`` = standard input); one dict per board line, in input order."""
    if isinstance(size, str):
        from ..notation import parse_size

        size = parse_size(size)
    goal_spec: str | tuple[int, ...] = goal.tiles if isinstance(goal, Board) else goal
    if str(path) == "-":
        import sys

        lines = sys.stdin.read().splitlines()
    else:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    job_list = list(
        parse_jobs(lines, size=size, goal=goal_spec, blank=blank, algorithm=algorithm, limits=limits)
    )
    return solve_jobs(job_list, executor=executor, n_jobs=jobs)


__all__ = ["SolveJob", "parse_jobs", "parse_line", "run_job", "solve_file", "solve_jobs"]
