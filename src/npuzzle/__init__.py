"""npuzzle: sliding-tile puzzles on any W×H board.

>>> import npuzzle
>>> start = npuzzle.parse_board("1 2 3 / 4 5 6 / 7 _ 8")
>>> npuzzle.is_solvable(start, "classic")
True
>>> npuzzle.solve(start).directions()  # the tile 8 travels left
'L'

Importing npuzzle compiles nothing and does not import numba: solvers load their kernels on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import goals
from .board import DIRECTIONS, Board
from .canonical import from_canonical, to_canonical
from .errors import (
    BoardFormatError,
    GoalMismatchError,
    IllegalMoveError,
    InvalidSolutionError,
    LabelError,
    ProblemTooLargeError,
    PuzzleError,
    SearchLimitExceeded,
    SolverOptionError,
    TableCacheError,
    TableCorruptError,
    TableError,
    TableMissingError,
    UnsolvableError,
)
from .goals import goal, goal_for, layout_names
from .notation import (
    blank_to_tile_directions,
    directions_to_moves,
    format_board,
    format_moves,
    moves_to_directions,
    parse_board,
    parse_moves,
    parse_size,
)
from .search.limits import Limits
from .solution import SearchStats, Solution
from .solvability import Explanation, explain, is_solvable

if TYPE_CHECKING:  # pragma: no cover
    from .search.solver import solve

__version__ = "0.1.0"

_LAZY = {"solve": ("npuzzle.search.solver", "solve")}


def __getattr__(name: str) -> Any:
    """Load solver entry points on first use, keeping ``import npuzzle`` free of numba."""
    if name in _LAZY:
        import importlib

        module_name, attr = _LAZY[name]
        value = getattr(importlib.import_module(module_name), attr)
        globals()[name] = value
        return value
    if name == "generate":
        import importlib

        return importlib.import_module("npuzzle.generate")
    raise AttributeError(f"module 'npuzzle' has no attribute {name!r}")


__all__ = [
    "DIRECTIONS",
    "Board",
    "BoardFormatError",
    "Explanation",
    "GoalMismatchError",
    "IllegalMoveError",
    "InvalidSolutionError",
    "LabelError",
    "Limits",
    "ProblemTooLargeError",
    "PuzzleError",
    "SearchLimitExceeded",
    "SearchStats",
    "Solution",
    "SolverOptionError",
    "TableCacheError",
    "TableCorruptError",
    "TableError",
    "TableMissingError",
    "UnsolvableError",
    "__version__",
    "blank_to_tile_directions",
    "directions_to_moves",
    "explain",
    "format_board",
    "format_moves",
    "from_canonical",
    "goal",
    "goal_for",
    "goals",
    "is_solvable",
    "layout_names",
    "moves_to_directions",
    "parse_board",
    "parse_moves",
    "parse_size",
    "solve",
    "to_canonical",
]
