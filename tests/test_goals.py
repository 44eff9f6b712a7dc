"""Goal layouts on any size: shapes, labels, parameters."""

from __future__ import annotations

import pytest
from hypothesis import given

from npuzzle import Board, BoardFormatError, GoalMismatchError
from npuzzle.goals import (
    LAYOUTS,
    around_blank,
    blank_first,
    classic,
    goal,
    goal_for,
    spiral_order,
    tile_labels,
)
from strategies import goals, sizes


def test_presets_on_a_4x3_board() -> None:
    assert goal("classic", 4, 3).tiles == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0)
    assert goal("blank-first", 4, 3).tiles == (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
    assert goal("snake", 4, 3).tiles == (1, 2, 3, 4, 8, 7, 6, 5, 9, 10, 11, 0)
    assert goal("spiral", 4, 3).tiles == (1, 2, 3, 4, 10, 11, 0, 5, 9, 8, 7, 6)
    assert goal("column", 4, 3).tiles == (1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 0)
    assert goal("blank-at:5", 4, 3).tiles == (1, 2, 3, 4, 5, 0, 7, 8, 9, 10, 11, 12)


def test_spiral_4x4_is_the_42_school_goal() -> None:
    assert goal("spiral", 4, 4).rows() == [(1, 2, 3, 4), (12, 13, 14, 5), (11, 0, 15, 6), (10, 9, 8, 7)]


@given(sizes())
def test_spiral_order_visits_every_cell_once(size: tuple[int, int]) -> None:
    assert sorted(spiral_order(*size)) == list(range(size[0] * size[1]))


@given(goals())
def test_every_preset_is_a_valid_board(board: Board) -> None:
    assert len(set(board.tiles)) == board.n_cells


def test_random_goal_depends_only_on_the_seed() -> None:
    assert goal("random:3", 5, 4) == goal("random", 5, 4, seed=3) != goal("random", 5, 4, seed=4)


def test_other_blank_labels() -> None:
    assert tile_labels(9, 8) == [0, 1, 2, 3, 4, 5, 6, 7]
    assert goal("classic", 3, 3, blank=8).tiles == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert goal("classic", 3, 3, blank=9).tiles == (1, 2, 3, 4, 5, 6, 7, 8, 9)


def test_goal_for_adapts_to_the_starts_labels() -> None:
    start = Board([8, 0, 1, 2, 3, 4, 5, 6, 7], 3, 3, blank=8)
    assert goal_for(start, "classic").tiles == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    # a picture puzzle labelled by home cells with number 5 missing: the hole belongs in cell 4
    picture = Board([1, 2, 3, 4, 0, 6, 7, 9, 8], 3, 3)
    assert goal_for(picture, "classic") == goal("blank-at", 3, 3, cell=4)


def test_errors() -> None:
    with pytest.raises(BoardFormatError, match="unknown goal layout 'zigzag'"):
        goal("zigzag", 3, 3)
    with pytest.raises(BoardFormatError, match="outside"):
        goal("blank-at:9", 3, 3)
    with pytest.raises(BoardFormatError, match="takes no parameter"):
        goal("snake:2", 3, 3)
    with pytest.raises(GoalMismatchError, match="only in start \\[9\\]"):
        goal_for(Board([1, 2, 3, 4, 5, 6, 7, 9, 0], 3, 3), goal("blank-first", 3, 3))
    with pytest.raises(GoalMismatchError, match="3x3 but goal is 4x4"):
        goal_for(goal("classic", 3, 3), goal("classic", 4, 4))
    assert set(LAYOUTS) >= {"classic", "blank-first", "snake", "spiral", "column", "blank-at", "random"}


def test_named_layouts_take_the_starts_labels_in_order() -> None:
    from npuzzle.goals import classic

    assert goal_for(classic(3, 3), "blank-at:0").tiles == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert goal_for(classic(3, 3), "blank-at:4").tiles == (1, 2, 3, 4, 0, 5, 6, 7, 8)
    # labels 1..9 with 5 missing keep their numbers under blank-at
    holed = goal("blank-at", 3, 3, cell=4)
    assert goal_for(holed, "blank-at:4") == holed


@pytest.mark.parametrize(
    "layout, kwargs, message",
    [
        ("random:-1", {}, "seed is 0 or more, got -1"),  # Random(-1) is Random(1): it equalled random:1
        ("random", {"seed": -3}, "seed is 0 or more"),
        ("random:", {}, "needs a seed after the colon"),  # was a different goal on every run
        ("blank-at:", {}, "needs the blank's cell"),  # fell back to the default cell
        ("blank-at: ", {}, "needs the blank's cell"),
        ("random:1.5", {}, "needs a seed"),
        ("", {}, "empty goal layout"),
        ("blank-at:2", {"cell": 4}, "disagree"),  # cell= was ignored
        ("random:3", {"seed": 4}, "disagree"),
        ("classic", {"cell": 4}, "cell= goes with the blank-at layout"),
        ("snake", {"seed": 1}, "seed= goes with the random layout"),
        ("spiral:2", {}, "takes no parameter"),
        ("blank-at:\u0668", {}, "needs the blank's cell"),  # an Arabic-Indic 8 was read as cell 8
    ],
)
def test_goal_parameters_are_read_strictly(layout: str, kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(BoardFormatError, match=message):
        goal(layout, 3, 3, **kwargs)


def test_goal_parameters_that_agree_are_accepted() -> None:
    assert goal("blank-at:2", 3, 3, cell=2) == goal("blank-at", 3, 3, cell=2) == goal("blank-at:+2", 3, 3)
    assert goal("random:0", 3, 3) == goal("random", 3, 3, seed=0) != goal("random:1", 3, 3)


@given(sizes())
def test_around_blank_numbers_every_other_cell_in_order(size: tuple[int, int]) -> None:
    width, height = size
    n = width * height
    assert around_blank(width, height) == classic(width, height)
    assert around_blank(width, height, 0) == blank_first(width, height)
    for cell in range(n):
        tiles = around_blank(width, height, cell).tiles
        assert tiles[cell] == 0
        assert [t for t in tiles if t] == list(range(1, n))
    with pytest.raises(BoardFormatError, match="outside"):
        around_blank(width, height, n)
