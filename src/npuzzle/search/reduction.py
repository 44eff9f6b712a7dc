"""Near-optimal answers for big boards by reduction (work in progress: delegates to the constructive solver).

``quick_solution`` answers any solvable board fast; ``solve_reduction`` spends up to a deadline on a shorter
answer. Both take the board and the goal board and return a replayable :class:`~npuzzle.solution.Solution`.
"""

from __future__ import annotations

from ..board import Board
from ..solution import Solution
from .constructive import solve_constructive


def quick_solution(board: Board, goal_board: Board, *, metric: str = "single") -> Solution:
    """Any solvable board, in about a second or less; replayable; ``optimal`` False unless trivially proven."""
    return solve_constructive(board, goal_board, metric=metric)


def solve_reduction(board: Board, goal_board: Board, *, deadline: float, metric: str = "single") -> Solution:
    """A near-optimal answer for a big board, returned by ``deadline`` (a :func:`time.monotonic` value)."""
    return solve_constructive(board, goal_board, metric=metric)


__all__ = ["quick_solution", "solve_reduction"]
