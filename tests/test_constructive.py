"""The constructive solver: every answer replays to the goal, on every small board and random big ones."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from npuzzle.board import Board
from npuzzle.errors import UnsolvableError
from npuzzle.generate import _is_canonical_solvable, shuffle
from npuzzle.goals import goal
from npuzzle.search.constructive import (
    cancel_inverses,
    constructive_cells,
    labels_of,
    solve_constructive,
    to_slides,
)
from npuzzle.search.solver import solve
from strategies import goals

LAYOUTS = ["classic", "blank-first", "snake", "spiral", "column", "random:7"]


def replay_cells(values: list[int], width: int, blank_home: int, cells: list[int]) -> list[int]:
    """Apply single moves (cells the blank moves to) to canonical ``values``, checking each is legal."""
    state = list(values)
    blank = state.index(blank_home)
    for cell in cells:
        assert abs(cell - blank) == width or (abs(cell - blank) == 1 and cell // width == blank // width)
        state[blank], state[cell] = state[cell], blank_home
        blank = cell
    return state


def blank_homes(width: int, height: int) -> list[int]:
    """Corners, an edge cell and the middle: where the goal's blank may live."""
    n = width * height
    return sorted({0, width - 1, n - width, n - 1, (height // 2) * width + width // 2, width // 2})


@pytest.mark.parametrize(("width", "height"), [(2, 2), (2, 3), (3, 2)])
def test_every_small_position_is_solved(width: int, height: int) -> None:
    n = width * height
    for blank_home in blank_homes(width, height):
        goal_state = list(range(n))
        for perm in itertools.permutations(range(n)):
            values = list(perm)
            if not _is_canonical_solvable(values, width, blank_home):
                continue
            cells = constructive_cells(values, width, height, blank_home)
            assert replay_cells(values, width, blank_home, cells) == goal_state, (values, blank_home)


@pytest.mark.parametrize(
    ("width", "height"), [(3, 3), (2, 4), (4, 2), (3, 4), (4, 3), (2, 6), (6, 2), (4, 4), (5, 2), (3, 5)]
)
def test_many_random_positions_every_blank_home(width: int, height: int) -> None:
    rng = random.Random(width * 100 + height)
    n = width * height
    count = 1000 if n <= 9 else 300  # positions per size, spread over every blank home
    for blank_home in range(n):
        for _ in range(count // n + 1):
            values = list(range(n))
            rng.shuffle(values)
            if not _is_canonical_solvable(values, width, blank_home):
                i, j = [c for c in range(n) if values[c] != blank_home][:2]
                values[i], values[j] = values[j], values[i]
            cells = constructive_cells(values, width, height, blank_home)
            assert replay_cells(values, width, blank_home, cells) == list(range(n)), (values, blank_home)


@pytest.mark.parametrize("layout", [*LAYOUTS, "blank-at:0", "blank-at:4", "blank-at:5", "blank-at:8"])
@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 4), (7, 4), (2, 7), (8, 8)])
def test_layouts_replay_to_the_goal(layout: str, width: int, height: int) -> None:
    target = goal(layout, width, height)
    for seed in range(3):
        start = shuffle(target, seed)
        solution = solve_constructive(start, target)
        assert solution.replay() == target
        assert (solution.optimal, solution.algorithm, solution.heuristic) == (False, "constructive", None)
        assert solution.stats.seconds >= 0


@settings(max_examples=60, deadline=None)
@given(target=goals(max_side=12), seed=st.integers(0, 2**32 - 1), variant=st.sampled_from([0, 0, 1, 2**31]))
def test_any_size_any_goal(target: Board, seed: int, variant: int) -> None:
    start = shuffle(target, seed)
    assert solve_constructive(start, target).replay() == target
    values = [target.cell_of(label) for label in start.tiles]
    cells = constructive_cells(values, target.width, target.height, target.blank_cell, variant)
    assert replay_cells(values, target.width, target.blank_cell, cells) == list(range(target.n_cells))


@settings(max_examples=25, deadline=None)
@given(target=goals(max_side=8), seed=st.integers(0, 2**32 - 1))
def test_multi_metric_slides_replay(target: Board, seed: int) -> None:
    start = shuffle(target, seed)
    single = solve_constructive(start, target)
    multi = solve_constructive(start, target, metric="multi")
    assert multi.replay() == target and multi.metric == "multi"
    assert multi.length <= single.length


def test_variants_all_replay_and_tries_keeps_the_shortest() -> None:
    target = goal("spiral", 7, 6)
    start = shuffle(target, 4)
    values = [target.cell_of(label) for label in start.tiles]
    lengths = []
    for variant in range(6):
        cells = constructive_cells(values, 7, 6, target.blank_cell, variant)
        assert replay_cells(values, 7, target.blank_cell, cells) == list(range(42))
        lengths.append(len(cells))
    assert len(set(lengths)) > 1
    best = solve_constructive(start, target, tries=6)
    assert best.replay() == target and best.length == min(lengths) and best.stats.iterations == 6
    with pytest.raises(ValueError, match="tries"):
        solve_constructive(start, target, tries=0)


@pytest.mark.parametrize("cell", [12, 27, 36, 63])
def test_blank_home_anywhere_on_8x8(cell: int) -> None:
    target = goal(f"blank-at:{cell}", 8, 8)
    for seed in range(2):
        assert solve_constructive(shuffle(target, seed), target).replay() == target


def test_solved_board_needs_no_moves() -> None:
    target = goal("spiral", 5, 4)
    assert solve_constructive(target, target).moves == ()


def test_unsolvable_raises_before_any_work() -> None:
    tiles = list(goal("classic", 6, 5).tiles)
    tiles[0], tiles[1] = tiles[1], tiles[0]
    with pytest.raises(UnsolvableError, match="parity"):
        solve_constructive(Board(tiles, 6, 5))
    with pytest.raises(UnsolvableError):
        solve(Board(tiles, 6, 5), algorithm="constructive")


def test_solve_registers_the_algorithm() -> None:
    target = goal("snake", 6, 6)
    start = shuffle(target, 11)
    solution = solve(start, target, algorithm="constructive")
    assert solution.replay() == target
    assert (solution.optimal, solution.algorithm, solution.heuristic) == (False, "constructive", None)
    multi = solve(start, target, algorithm="constructive", metric="multi")
    assert multi.replay() == target and multi.length <= solution.length


def test_cancel_inverses_and_slides() -> None:
    assert cancel_inverses(4, [5, 4, 1, 4, 3]) == [3]
    assert cancel_inverses(0, []) == []
    assert to_slides(0, [1, 2, 3]) == [3]
    assert to_slides(0, [1, 0]) == [1, 0]


def test_labels_match_the_board_replay() -> None:
    target = goal("classic", 4, 3)
    start = shuffle(target, 3)
    values = [target.cell_of(label) for label in start.tiles]
    cells = constructive_cells(values, 4, 3, target.blank_cell)
    labels = labels_of(values, target, cells, "single")
    assert start.apply(labels) == target
    slides = to_slides(values.index(target.blank_cell), cells)
    assert start.apply(labels_of(values, target, slides, "multi"), metric="multi") == target
