"""Batch solving: plain serialisable jobs and results, run over any executor (see :mod:`.jobs`)."""

from __future__ import annotations

from .jobs import SolveJob, parse_jobs, parse_line, run_job, solve_file, solve_jobs

__all__ = ["SolveJob", "parse_jobs", "parse_line", "run_job", "solve_file", "solve_jobs"]
