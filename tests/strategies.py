"""Hypothesis strategies for boards, goals and moves."""

from __future__ import annotations

from hypothesis import strategies as st

from npuzzle.board import Board
from npuzzle.goals import LAYOUTS, goal

NAMED_LAYOUTS = [name for name in LAYOUTS if name not in ("blank-at", "random")]


@st.composite
def sizes(draw: st.DrawFn, max_side: int = 12) -> tuple[int, int]:
    return draw(st.integers(2, max_side)), draw(st.integers(2, max_side))


@st.composite
def goals(draw: st.DrawFn, max_side: int = 12) -> Board:
    """Any preset layout, a blank-at goal, a random goal, with blank 0 or another label."""
    width, height = draw(sizes(max_side))
    kind = draw(st.sampled_from([*NAMED_LAYOUTS, "blank-at", "random"]))
    if kind == "blank-at":
        return goal("blank-at", width, height, cell=draw(st.integers(0, width * height - 1)))
    if kind == "random":
        return goal("random", width, height, seed=draw(st.integers(0, 2**32 - 1)))
    blank = draw(st.sampled_from([0, width * height, width * height - 1, 1]))
    return goal(kind, width, height, blank=blank)


@st.composite
def boards(draw: st.DrawFn, max_side: int = 12) -> Board:
    """Any arrangement (solvable or not) of any board size."""
    width, height = draw(sizes(max_side))
    blank = draw(st.integers(-5, width * height + 5))
    labels = draw(st.permutations([*(x for x in range(-3, width * height + 3) if x != blank)][: width * height - 1]))
    cell = draw(st.integers(0, width * height - 1))
    tiles = list(labels)
    tiles.insert(cell, blank)
    return Board(tiles, width, height, blank)


@st.composite
def random_walk(draw: st.DrawFn, start: Board, max_moves: int = 60) -> Board:
    board = start
    for _ in range(draw(st.integers(0, max_moves))):
        board = board.move(draw(st.sampled_from(board.legal_moves())))
    return board
