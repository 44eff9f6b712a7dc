"""Every error npuzzle raises on purpose.

The tree::

    PuzzleError                      base class: catch this to catch everything below
    ├── BoardFormatError (ValueError)   text or list that is not a valid board
    │   └── LabelError                  duplicate / missing / foreign labels, missing blank
    ├── GoalMismatchError (ValueError)  start and goal differ in size or label set
    ├── IllegalMoveError (ValueError)   a move that the position does not allow
    ├── UnsolvableError                 start cannot reach goal (parity)
    ├── ProblemTooLargeError            the chosen method cannot handle this board
    ├── SolverOptionError (ValueError)  solver options that do not exist or do not go together (optimal with
    │                                   a method that proves nothing, a heuristic for a method using none)
    ├── SearchLimitExceeded             max_nodes / max_seconds / memory cap hit; carries stats
    ├── InvalidSolutionError (RuntimeError)  a solver's answer failed its replay or an admissible bound:
    │                                   an internal error (a damaged table, a bug), never the user's input
    ├── TableError                      pattern-database store problems
    │   ├── TableMissingError           the table is not built; message names the command
    │   ├── TableCorruptError           checksum / header / size mismatch
    │   └── TableCacheError             the cache folder cannot hold the file (read-only, no room)
    └── BankError                       puzzle-bank problems (npuzzle.bank): no bank there, busy, nothing to draw
        ├── NotABankError (ValueError)  the file is not a puzzle bank (not SQLite, or no bank meta table)
        └── BankVersionError            the bank was written by a newer npuzzle (higher schema version)

Messages quote the offending input so a user can act on them.
"""

from __future__ import annotations

from typing import Any


class PuzzleError(Exception):
    """Base class of all npuzzle errors."""


class BoardFormatError(PuzzleError, ValueError):
    """A board text or list could not be understood, or has the wrong shape."""


class LabelError(BoardFormatError):
    """The labels of a board are not a valid set (duplicates, no blank, ...)."""


class GoalMismatchError(PuzzleError, ValueError):
    """Start and goal do not have the same size and the same labels."""


class IllegalMoveError(PuzzleError, ValueError):
    """A move that the current position does not allow."""


class UnsolvableError(PuzzleError):
    """The start cannot reach the goal: it lies in the other parity class."""


class ProblemTooLargeError(PuzzleError, ValueError):
    """The requested method cannot handle a board of this size."""


class SolverOptionError(PuzzleError, ValueError):
    """Options of :func:`npuzzle.solve` that do not exist (an unknown algorithm or heuristic, a weight out of
    range) or do not go together (``optimal=True`` with a method that cannot prove an optimum, a heuristic
    named for a method that uses none): refused rather than ignored."""


class SearchLimitExceeded(PuzzleError):
    """A search hit one of its limits; ``stats`` holds what was done so far, ``lower_bound`` the optimal
    length's proven lower bound when the search had one (an IDA* threshold), else ``None``."""

    def __init__(
        self, message: str, stats: Any = None, limit: str = "", lower_bound: int | None = None
    ) -> None:
        super().__init__(message)
        self.stats = stats
        self.limit = limit
        self.lower_bound = lower_bound


class InvalidSolutionError(PuzzleError, RuntimeError):
    """A :class:`~npuzzle.solution.Solution` that cannot be right: its moves do not lead from the start to
    the goal, or it claims optimality (or a lower bound) that an admissible bound refutes. Raised when the
    solution is constructed, so no face ever returns it; it means a bug or a damaged pattern database."""


class TableError(PuzzleError):
    """Base class for pattern-database store problems."""


class TableMissingError(TableError):
    """A pattern database that is needed has not been built."""


class TableCorruptError(TableError):
    """A pattern database file failed its header, size or checksum check."""


class TableCacheError(TableError):
    """A table cannot be saved: the cache folder is read-only, not a folder, or lacks room for the file."""


class BankError(PuzzleError):
    """A puzzle bank (:mod:`npuzzle.bank`) cannot do what was asked: no bank at the path, nothing stored
    that matches, another process holds it too long."""


class NotABankError(BankError, ValueError):
    """The file is not a puzzle bank: not an SQLite database, or one without the bank's ``meta`` table."""


class BankVersionError(BankError):
    """The bank's schema version is newer than this npuzzle reads: upgrade npuzzle."""


class EngineUnavailableError(PuzzleError):
    """The chosen batch engine cannot run here (Ray: not installed, or its cluster cannot be reached)."""


__all__ = [
    "BankError",
    "BankVersionError",
    "BoardFormatError",
    "EngineUnavailableError",
    "GoalMismatchError",
    "IllegalMoveError",
    "InvalidSolutionError",
    "LabelError",
    "NotABankError",
    "ProblemTooLargeError",
    "PuzzleError",
    "SearchLimitExceeded",
    "SolverOptionError",
    "TableCacheError",
    "TableCorruptError",
    "TableError",
    "TableMissingError",
    "UnsolvableError",
]
