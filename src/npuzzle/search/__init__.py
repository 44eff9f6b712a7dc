"""Search: readable generic algorithms for any :class:`Problem`, and :func:`solve` for sliding puzzles.

``solve`` (and ``solve_anytime``, the ladder ``solve``'s ``auto`` runs) load numba kernels, so they are
imported on first use (``import npuzzle.search`` stays light: ``npuzzle --help`` compiles nothing). ``compare`` lives in :mod:`npuzzle.search.compare` (not re-exported:
the name would shadow the module).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..solution import SearchStats, Solution
from .generic import astar, best_first, bfs, idastar
from .limits import NO_LIMITS, Limits
from .problem import BaseProblem, Problem, SearchResult
from .puzzle_problem import SlidingPuzzleProblem

if TYPE_CHECKING:  # pragma: no cover
    from .anytime import solve_anytime
    from .solver import solve

_LAZY = {
    "solve": ("npuzzle.search.solver", "solve"),
    "solve_anytime": ("npuzzle.search.anytime", "solve_anytime"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'npuzzle.search' has no attribute {name!r}")


__all__ = [
    "NO_LIMITS",
    "BaseProblem",
    "Limits",
    "Problem",
    "SearchResult",
    "SearchStats",
    "SlidingPuzzleProblem",
    "Solution",
    "astar",
    "best_first",
    "bfs",
    "idastar",
    "solve",
    "solve_anytime",
]
