"""The canonical form that solvers, kernels and tables work on.

Any goal is handled by relabelling: the canonical value of a tile is its *home cell* in the goal, so the
canonical goal is ``0, 1, ..., N-1`` and the blank's value is the goal's blank cell. Solvers never see user
labels; moves come back as cells and are mapped to labels here.

>>> from npuzzle.board import Board
>>> from npuzzle.goals import classic
>>> to_canonical(Board([1, 2, 0, 3], 2, 2), classic(2, 2))
[0, 1, 3, 2]
>>> from_canonical([0, 1, 3, 2], classic(2, 2))
Board.from_rows([[1, 2], [0, 3]])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from .board import Board, check_label, excerpt
from .errors import BoardFormatError, IllegalMoveError
from .goals import check_same_labels


def to_canonical(start: Board, goal: Board) -> list[int]:
    """``values[cell]`` = home cell (in ``goal``) of the tile standing in ``cell`` of ``start``."""
    check_same_labels(start, goal)
    return [goal.cell_of(label) for label in start.tiles]


def from_canonical(values: Iterable[int], goal: Board) -> Board:
    """Inverse of :func:`to_canonical`: the user's board whose canonical form is ``values``."""
    if not isinstance(goal, Board):
        raise TypeError(f"goal must be a Board, got {type(goal).__name__}")
    n = goal.n_cells
    cells = [check_label(v, "canonical value") for v in itertools.islice(values, n + 1)]
    if len(cells) != n or not all(0 <= c < n for c in cells):
        raise BoardFormatError(
            f"canonical values must be {n} cells in 0..{n - 1} for a {goal.width}x{goal.height} goal, "
            f"got {excerpt(cells)}"
        )
    return Board([goal.tiles[c] for c in cells], goal.width, goal.height, goal.blank)


def moves_from_cells(start: Board, cells: Iterable[int], metric: str = "single") -> tuple[int, ...]:
    """Labels of the tiles that slide, from the cells the blank moves to (single) or the cells of the
    farthest sliding tile (multi), replaying from ``start``. Raises on an illegal step.

    O(cells + moves) (a flat list with the blank tracked, :func:`npuzzle.solution.replay_steps`), not a
    board per move: kernels return answers of 100,000 moves on big boards."""
    from .solution import replay_steps

    tiles = list(start.tiles)
    n = len(tiles)
    labels: list[int] = []

    def labels_of_cells() -> Iterator[int]:  # read each label just before its move is applied
        for cell in cells:
            c = int(cell)
            if not 0 <= c < n:
                raise IllegalMoveError(
                    f"move {len(labels) + 1}: cell {c} is off the {start.width}x{start.height} board"
                )
            labels.append(tiles[c])
            yield tiles[c]

    for _ in replay_steps(tiles, start.width, start.blank, labels_of_cells(), metric == "multi"):
        pass
    return tuple(labels)


__all__ = ["from_canonical", "moves_from_cells", "to_canonical"]
