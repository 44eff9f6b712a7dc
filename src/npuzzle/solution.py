"""The one result type every solver returns and every face (CLI, web, render, batch) consumes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from .board import Board
from .errors import IllegalMoveError


@dataclass(frozen=True)
class SearchStats:
    """What a search did. ``max_open`` is the largest frontier (open list, or IDA* stack depth)."""

    expanded: int = 0
    generated: int = 0
    max_open: int = 0
    closed: int = 0
    seconds: float = 0.0
    iterations: int = 0  # IDA* thresholds tried / BFS layers
    startup_seconds: float = 0.0  # loading or compiling kernels and tables, not counted in ``seconds``

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Solution:
    """A path from ``start`` to ``goal``.

    ``moves`` are labels of the tiles that slide (in the multi-tile metric, the label of the farthest tile
    of each slide). ``directions()`` gives U/D/L/R letters for where each *tile* travels.

    >>> from npuzzle.goals import classic
    >>> s = Solution(Board([1, 2, 0, 3], 2, 2), classic(2, 2), (3,), True, "bfs", None)
    >>> s.length, s.directions(), s.replay() == classic(2, 2)
    (1, 'L', True)
    """

    start: Board
    goal: Board
    moves: tuple[int, ...]
    optimal: bool
    algorithm: str
    heuristic: str | None
    stats: SearchStats = field(default_factory=SearchStats)
    metric: str = "single"
    #: A proven admissible lower bound on the optimal length (``None``: not computed); ``optimal`` is true
    #: only when the optimum is proven (exact search finished, or ``length == lower_bound``).
    lower_bound: int | None = None
    #: A proven factor ``w``: ``length <= w * optimal`` (``None``: no such guarantee; 1.0 when optimal).
    suboptimality: float | None = None
    #: What else happened, in words (one-time work such as building pattern tables, the steps tried).
    notes: tuple[str, ...] = ()

    @property
    def length(self) -> int:
        return len(self.moves)

    def boards(self) -> Iterator[Board]:
        """The start, then the board after each move (``length + 1`` boards)."""
        board = self.start
        yield board
        for label in self.moves:
            board = board.slide(label) if self.metric == "multi" else board.move(label)
            yield board

    def replay(self) -> Board:
        """Apply every move and check the goal is reached; returns the final board."""
        board = self.start.apply(self.moves, metric=self.metric)
        if board != self.goal:
            raise IllegalMoveError("the moves do not lead to the goal")
        return board

    def direction_list(self) -> list[str]:
        """One token per move: ``"U"``..., or ``"R3"`` for a three-tile slide in the multi-tile metric."""
        out: list[str] = []
        board = self.start
        for label in self.moves:
            letter = board.direction_of(label)
            if self.metric == "multi":
                r, c = board.position_of(label)
                br, bc = divmod(board.blank_cell, board.width)
                distance = abs(r - br) + abs(c - bc)
                out.append(letter if distance == 1 else f"{letter}{distance}")
                board = board.slide(label)
            else:
                out.append(letter)
                board = board.move(label)
        return out

    def directions(self) -> str:
        """Tile-travel letters (U/D/L/R), concatenated."""
        return "".join(self.direction_list())

    def to_dict(self) -> dict[str, Any]:
        """The ``solve --json`` object."""
        return {
            "length": self.length,
            "moves": list(self.moves),
            "directions": self.directions(),
            "optimal": self.optimal,
            "algorithm": self.algorithm,
            "heuristic": self.heuristic,
            "metric": self.metric,
            "lower_bound": self.lower_bound,
            "suboptimality": self.suboptimality,
            "notes": list(self.notes),
            "stats": self.stats.to_dict(),
        }


__all__ = ["SearchStats", "Solution"]
