"""The sliding-tile puzzle as a generic :class:`~npuzzle.search.problem.Problem` (pure Python).

States are canonical value tuples (see :mod:`npuzzle.canonical`); actions are the *cells* the blank moves to
(in the multi-tile metric, the cell of the farthest sliding tile), exactly what the kernels return, so
:func:`npuzzle.canonical.moves_from_cells` maps either back to labels. Keys are ``bytes`` (one per cell up
to 255 cells): compact, hashable.

>>> from npuzzle.board import Board
>>> from npuzzle.goals import classic
>>> from npuzzle.search.generic import astar
>>> p = SlidingPuzzleProblem(Board.from_rows([[1, 2, 3], [4, 5, 6], [0, 7, 8]]), classic(3, 3))
>>> astar(p).actions
[7, 8]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from ..board import Board, line_cells, neighbour_cells
from ..canonical import to_canonical
from ..heuristics.simple import HEURISTICS
from .problem import BaseProblem

State = tuple[int, ...]


class SlidingPuzzleProblem(BaseProblem[State, int]):
    """``start`` to ``goal`` (Boards with the same labels) with one of :data:`HEURISTICS` by name."""

    def __init__(
        self, start: Board, goal: Board, heuristic: str | None = "manhattan", metric: str = "single"
    ) -> None:
        if heuristic is not None and heuristic not in HEURISTICS:
            raise ValueError(f"unknown heuristic {heuristic!r}; choose one of {', '.join(HEURISTICS)}")
        if metric not in ("single", "multi"):
            raise ValueError(f"metric must be 'single' or 'multi', got {metric!r}")
        self.width, self.height = start.width, start.height
        self.blank_home = goal.blank_cell
        self.start = tuple(to_canonical(start, goal))
        self.goal = tuple(range(start.n_cells))
        self.metric = metric
        self._h = HEURISTICS[heuristic] if heuristic else None

    def initial(self) -> State:
        return self.start

    def is_goal(self, state: State) -> bool:
        return state == self.goal

    def heuristic(self, state: State) -> float:
        return 0.0 if self._h is None else float(self._h(state, self.width, self.height, self.blank_home))

    def key(self, state: State) -> Hashable:
        return bytes(state) if len(state) <= 256 else state

    def targets(self, blank: int) -> list[int]:
        """Cells the blank may move to from ``blank``."""
        if self.metric == "multi":
            return line_cells(blank, self.width, self.height)
        return neighbour_cells(blank, self.width, self.height)

    def successors(self, state: State) -> Iterator[tuple[int, State, float]]:
        blank = state.index(self.blank_home)
        w = self.width
        for target in self.targets(blank):
            tiles = list(state)
            step = (
                (1 if target > blank else -1) if target // w == blank // w else (w if target > blank else -w)
            )
            cell = blank
            while cell != target:  # slide every tile between one cell toward the old blank cell
                tiles[cell] = tiles[cell + step]
                cell += step
            tiles[target] = self.blank_home
            yield target, tuple(tiles), 1.0


__all__ = ["SlidingPuzzleProblem"]
