"""The puzzle bank: many graded puzzles in one SQLite file, drawn by size, goal and optimal length.

:mod:`.store` holds the schema and the :class:`Bank` (open, add, draw, stats), :mod:`.fill` generates and
grades boards into it (resumable after a kill, over any executor), :mod:`.io` exports and imports
CSV / JSON lines / Parquet. The command line is ``npuzzle bank fill|draw|stats|export|import``; docs/bank.md
describes the schema and the guarantees.
"""

from __future__ import annotations

from .fill import FillJob, FillReport, fill, run_fill_job
from .io import ImportReport, export, import_file
from .store import SCHEMA_VERSION, Bank, PuzzleRecord, default_path, open_bank

__all__ = [
    "SCHEMA_VERSION",
    "Bank",
    "FillJob",
    "FillReport",
    "ImportReport",
    "PuzzleRecord",
    "default_path",
    "export",
    "fill",
    "import_file",
    "open_bank",
    "run_fill_job",
]
