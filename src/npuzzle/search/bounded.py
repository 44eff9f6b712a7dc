"""Bounded-suboptimal solving for mid-size boards (5×5 to about 8×8) (work in progress: not yet searching).

``improving_solutions`` yields each strictly shorter solution it finds before a deadline.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..board import Board
from ..solution import Solution


def supports(width: int, height: int, metric: str = "single") -> bool:
    """Whether :func:`improving_solutions` can work on a ``width`` × ``height`` board in ``metric``."""
    return False


def improving_solutions(
    board: Board,
    goal_board: Board,
    *,
    deadline: float,
    best_length: int | None = None,
    metric: str = "single",
) -> Iterator[Solution]:
    """Each strictly shorter solution found before ``deadline`` (a :func:`time.monotonic` value)."""
    return iter(())


__all__ = ["improving_solutions", "supports"]
