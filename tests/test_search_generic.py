"""The readable generic searches: a maze, the puzzle problem against the BFS oracle, limits, weights."""

from __future__ import annotations

import math
import random

import pytest

from npuzzle.board import Board
from npuzzle.canonical import moves_from_cells
from npuzzle.errors import SearchLimitExceeded
from npuzzle.goals import classic, spiral
from npuzzle.heuristics import simple
from npuzzle.search import BaseProblem, Limits, SlidingPuzzleProblem, astar, best_first, bfs, idastar
from oracle import bfs_distances, canonical_distances

MAZE = [
    "S..#....",
    ".#.#.##.",
    ".#...#..",
    ".####.#.",
    "......#G",
]


class GridMaze(BaseProblem[tuple[int, int], str]):
    """A grid maze: states are (row, col); actions are compass letters; Manhattan heuristic."""

    def __init__(self, rows: list[str]) -> None:
        self.rows = rows
        self.start = next((r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "S")
        self.goal = next((r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "G")

    def initial(self) -> tuple[int, int]:
        return self.start

    def is_goal(self, state: tuple[int, int]) -> bool:
        return state == self.goal

    def heuristic(self, state: tuple[int, int]) -> float:
        return abs(state[0] - self.goal[0]) + abs(state[1] - self.goal[1])

    def successors(self, state: tuple[int, int]):  # type: ignore[no-untyped-def]
        for name, (dr, dc) in {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}.items():
            r, c = state[0] + dr, state[1] + dc
            if 0 <= r < len(self.rows) and 0 <= c < len(self.rows[0]) and self.rows[r][c] != "#":
                yield name, (r, c), 1.0


def _walk(problem: GridMaze, actions: list[str]) -> tuple[int, int]:
    state = problem.initial()
    for action in actions:
        state = next(s for a, s, _ in problem.successors(state) if a == action)
    return state


@pytest.mark.parametrize("search", [bfs, astar, idastar, lambda p: best_first(p, 1.0)])
def test_generic_searches_solve_a_grid_maze_optimally(search) -> None:  # type: ignore[no-untyped-def]
    maze = GridMaze(MAZE)
    result = search(maze)
    assert result.found
    assert _walk(maze, result.actions) == maze.goal
    assert result.length == 15  # by hand: around the walls via the bottom-left corridor
    assert result.stats.expanded > 0


def test_greedy_finds_a_valid_maze_path_and_no_path_is_reported() -> None:
    maze = GridMaze(MAZE)
    result = best_first(maze, math.inf)
    assert result.found and _walk(maze, result.actions) == maze.goal
    walled = GridMaze(["S#", "#G"])
    for search in (bfs, astar, idastar):
        assert not search(walled).found


def test_generic_limits_raise_with_stats() -> None:
    board = Board([12, 13, 11, 2, 4, 5, 3, 14, 1, 9, 15, 6, 8, 7, 0, 10], 4, 4)
    problem = SlidingPuzzleProblem(board, classic(4, 4), "manhattan")
    for search in (bfs, astar, idastar):
        with pytest.raises(SearchLimitExceeded) as info:
            search(problem, Limits(max_nodes=500))
        assert info.value.limit == "max_nodes"
        assert info.value.stats.expanded == 501


@pytest.mark.parametrize("goal", [classic(2, 3), spiral(3, 2)], ids=["classic-2x3", "spiral-3x2"])
def test_generic_searches_match_the_oracle_on_every_small_state(goal: Board) -> None:
    distances = bfs_distances(goal)
    for tiles, d in distances.items():
        start = Board(tiles, goal.width, goal.height, goal.blank)
        for search in (astar, idastar):
            result = search(SlidingPuzzleProblem(start, goal, "linear-conflict"))
            assert result.length == d
            assert start.apply(moves_from_cells(start, result.actions)) == goal


@pytest.mark.parametrize(
    ("metric", "heuristic", "max_depth"), [("single", "manhattan", 31), ("multi", "crossings", 12)]
)
def test_generic_searches_on_sampled_3x3_states(metric: str, heuristic: str, max_depth: int) -> None:
    goal = classic(3, 3)
    distances = canonical_distances(3, 3, goal.blank_cell, metric)
    rng = random.Random(3)
    states = rng.sample(sorted(v for v, d in distances.items() if d <= max_depth), 6)
    for i, values in enumerate(states):
        start = Board([goal.tiles[v] for v in values], 3, 3, goal.blank)
        problem = SlidingPuzzleProblem(start, goal, heuristic, metric)
        for search in (astar, idastar, bfs) if i < 2 else (astar, idastar):
            result = search(problem)
            assert result.length == distances[values], (search, metric, values)
            assert start.apply(moves_from_cells(start, result.actions, metric), metric=metric) == goal


def test_weighted_best_first_stays_within_weight_times_optimal() -> None:
    goal = classic(3, 3)
    distances = canonical_distances(3, 3, goal.blank_cell)
    rng = random.Random(5)
    for values in rng.sample(sorted(distances), 60):
        start = Board([goal.tiles[v] for v in values], 3, 3)
        problem = SlidingPuzzleProblem(start, goal, "manhattan")
        for weight in (1.5, 2.0, 5.0):
            result = best_first(problem, weight)
            assert result.found and result.length <= weight * distances[values]


def test_reference_heuristics_on_a_known_board() -> None:
    values = [1, 0, 2, 3]  # 2x2, blank value 3: tiles 1 and 0 swapped in their home row
    assert simple.misplaced(values, 2, 2, 3) == 2
    assert simple.manhattan(values, 2, 2, 3) == 2
    assert simple.linear_conflict(values, 2, 2, 3) == 4
    assert simple.crossings(values, 2, 2, 3) == 2
    with pytest.raises(ValueError, match="unknown heuristic"):
        SlidingPuzzleProblem(Board([1, 2, 3, 0], 2, 2), classic(2, 2), "euclid")
