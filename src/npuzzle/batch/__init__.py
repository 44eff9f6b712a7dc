"""Batch solving: plain serialisable jobs and results, run over any executor.

:mod:`.reader` streams the input line by line, :mod:`.jobs` turns lines into :class:`SolveJob` s and solves
one, :mod:`.runner` runs them over any :class:`concurrent.futures.Executor` (:func:`run_batch`), and
:mod:`.results` keeps a resumable JSON-lines results file.
"""

from __future__ import annotations

from .jobs import SolveJob, job_key, parse_jobs, parse_line, run_job, solve_file, solve_jobs
from .reader import MAX_LINE_BYTES, InputLine, open_input, read_lines
from .runner import local_executor, run_batch

__all__ = [
    "MAX_LINE_BYTES",
    "InputLine",
    "SolveJob",
    "job_key",
    "local_executor",
    "open_input",
    "parse_jobs",
    "parse_line",
    "read_lines",
    "run_batch",
    "run_job",
    "solve_file",
    "solve_jobs",
]
