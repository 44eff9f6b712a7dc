"""The reduction solver (search/reduction.py, _kernels/reduce.py): valid answers on every size and goal layout,
the compiled kernels against the pure-Python constructive solver, honest bounds."""

from __future__ import annotations

import random
import time

import pytest

from interpreters import run_python
from npuzzle.board import Board
from npuzzle.canonical import to_canonical
from npuzzle.generate import shuffle
from npuzzle.goals import goal
from npuzzle.search.constructive import cancel_inverses, constructive_cells
from npuzzle.search.reduction import manhattan, quick_solution, reduce_cells, solve_reduction
from oracle import bfs_distances

LAYOUTS = ["classic", "blank-first", "snake", "spiral", "column", "blank-at:1", "random:7"]
SIZES = [(2, 2), (3, 2), (2, 3), (3, 3), (4, 4), (5, 3), (2, 7), (6, 6), (9, 4), (11, 13), (20, 20), (30, 30)]


@pytest.mark.parametrize("width,height", [(4, 4), (5, 5), (6, 4), (7, 9), (10, 10), (3, 12)])
@pytest.mark.parametrize("variant", [0, 1, 5])
def test_kernels_with_plain_walks_match_the_constructive_solver(
    width: int, height: int, variant: int
) -> None:
    """lam 0 (shortest blank walks) is the pure-Python constructive method move for move: its twin."""
    for layout in ("classic", "spiral", "blank-at:7"):
        target = goal(layout, width, height)
        board = shuffle(target, seed=width * 100 + height + variant)
        values = to_canonical(board, target)
        expected = constructive_cells(values, width, height, target.blank_cell, variant)
        cells = reduce_cells(values, width, height, target.blank_cell, variant=variant, lam=0)
        assert cancel_inverses(values.index(target.blank_cell), cells.tolist()) == expected


@pytest.mark.parametrize("width,height", SIZES)
def test_quick_solution_replays_on_every_size_and_layout(width: int, height: int) -> None:
    layouts = LAYOUTS if width * height <= 400 else ["classic", "spiral", "random:3"]
    for layout in layouts:
        target = goal(layout, width, height)
        board = shuffle(target, seed=width + 7 * height)
        s = quick_solution(board, target)  # the Solution replays itself on construction
        assert s.start == board and s.goal == target
        assert s.lower_bound == manhattan(to_canonical(board, target), width, target.blank_cell)
        assert s.lower_bound <= s.length
        assert s.optimal == (s.length == s.lower_bound)
        assert s.suboptimality == (1.0 if s.optimal else None)


def test_quick_solution_multi_metric_replays_without_a_bound() -> None:
    target = goal("snake", 8, 6)
    board = shuffle(target, seed=3)
    single = quick_solution(board, target)
    multi = quick_solution(board, target, metric="multi")
    assert multi.metric == "multi" and multi.lower_bound is None
    assert multi.length < single.length  # runs of moves in one direction merged into slides


def test_solved_board_is_optimal_with_no_moves() -> None:
    target = goal("spiral", 5, 4)
    s = quick_solution(target, target)
    assert s.length == 0 and s.optimal and s.lower_bound == 0


def test_bounds_never_exceed_the_exact_distance_on_3x3() -> None:
    """Every answer is at least the BFS optimum, and the lower bound at most it (600 random 3×3 states)."""
    target = goal("classic", 3, 3)
    distances = bfs_distances(target)
    rng = random.Random(11)
    states = rng.sample(sorted(distances), 600)
    for tiles in states:
        board = Board(tiles, 3, 3)
        s = quick_solution(board, target)
        assert s.lower_bound is not None and s.lower_bound <= distances[tiles] <= s.length
        assert not s.optimal or s.length == distances[tiles]


def test_weighted_walks_shorten_big_boards() -> None:
    """The weighted walks (lam > 0) beat plain shortest walks on a 20×20 by a clear margin."""
    target = goal("classic", 20, 20)
    values = to_canonical(shuffle(target, seed=5), target)
    plain = len(reduce_cells(values, 20, 20, target.blank_cell, lam=0))
    weighted = len(reduce_cells(values, 20, 20, target.blank_cell, lam=7))
    assert weighted < 0.9 * plain


def test_solve_reduction_no_longer_than_quick_and_meets_its_deadline() -> None:
    target = goal("classic", 14, 11)
    board = shuffle(target, seed=2)
    quick = quick_solution(board, target)
    t0 = time.monotonic()
    better = solve_reduction(board, target, deadline=t0 + 5.0)
    assert time.monotonic() - t0 < 20.0  # generous: the deadline only cuts variants of the remaining lines
    assert better.length <= quick.length
    assert better.lower_bound == quick.lower_bound
    # a deadline already past still answers (first variant of every line)
    late = solve_reduction(board, target, deadline=time.monotonic() - 1.0)
    assert late.length <= quick.length


@pytest.mark.slow
def test_quick_solution_on_100x100_answers() -> None:
    target = goal("classic", 100, 100)
    board = shuffle(target, seed=100)
    t0 = time.perf_counter()
    s = quick_solution(board, target)
    seconds = time.perf_counter() - t0
    assert s.length < 3.2 * s.lower_bound  # the constructive solver's ratio here is about 4
    assert seconds < 120  # recorded in bench/bench_anytime.py; only a hang is caught here


def test_weighted_kernels_agree_with_the_jit_disabled() -> None:
    """The weighted walks, compiled and interpreted (NUMBA_DISABLE_JIT=1), give the same moves."""
    code = (
        "from npuzzle.goals import goal\n"
        "from npuzzle.generate import shuffle\n"
        "from npuzzle.canonical import to_canonical\n"
        "from npuzzle.search.reduction import reduce_cells\n"
        "t = goal('spiral', 7, 6)\n"
        "v = to_canonical(shuffle(t, seed=4), t)\n"
        "print(reduce_cells(v, 7, 6, t.blank_cell, lam=7, variant=2).tolist())\n"
    )
    assert run_python(code, jit=True) == run_python(code, jit=False)
