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
        "print(reduce_cells(v, 7, 6, t.blank_cell, lam=7, far_walk=2).tolist())\n"
    )
    assert run_python(code, jit=True) == run_python(code, jit=False)


def _walk_cost(values: list[int], width: int, source: int, cells: list[int], lam: int) -> int:
    """The weighted cost of a blank walk (pure Python): SCALE per step plus ``lam`` times the change in the
    Manhattan distance of the tile each step shifts."""
    from npuzzle._kernels.reduce import SCALE

    def taxicab(a: int, b: int) -> int:
        return abs(a // width - b // width) + abs(a % width - b % width)

    cost, before = 0, source
    for cell in cells:
        home = values[cell]
        cost += SCALE + lam * (taxicab(home, before) - taxicab(home, cell))
        before = cell
    return cost


def test_monotone_walk_is_the_cheapest_shortest_walk() -> None:
    """_monotone_path against its pure-Python twin: every shortest walk enumerated, the cheapest cost."""
    import itertools

    import numpy as np

    from npuzzle._kernels.reduce import _monotone_path

    rng = random.Random(5)
    width, height = 7, 6
    n = width * height
    for _ in range(200):
        values = list(range(n))
        rng.shuffle(values)
        source, target = rng.sample(range(n), 2)
        fixed = np.zeros(n, dtype=np.uint8)
        for cell in rng.sample(range(n), 4):
            if cell not in (source, target):
                fixed[cell] = 1
        avoid = rng.choice([c for c in range(n) if c not in (source, target)])
        lam = rng.choice([3, 7])
        dist = np.zeros(n, dtype=np.int32)
        parent = np.zeros(n, dtype=np.int32)
        route = np.zeros(n, dtype=np.int32)
        length = _monotone_path(
            source, target, avoid, np.asarray(values, dtype=np.int32), fixed, width, lam, dist, parent, route
        )
        (r0, c0), (r1, c1) = divmod(source, width), divmod(target, width)
        dr, dc = (1 if r1 >= r0 else -1), (1 if c1 >= c0 else -1)
        steps = abs(r1 - r0) * ["r"] + abs(c1 - c0) * ["c"]
        best = None
        for order in set(itertools.permutations(steps)):
            cells, cell = [], source
            for step in order:
                cell += dr * width if step == "r" else dc
                cells.append(cell)
            if any(fixed[c] or c == avoid for c in cells):
                continue
            cost = _walk_cost(values, width, source, cells, lam)
            best = cost if best is None else min(best, cost)
        if best is None:
            assert length == -1
            continue
        cells = route[:length].tolist()
        assert length == len(steps) and cells[-1] == target
        assert all(abs(a - b) in (1, width) for a, b in zip([source, *cells], cells, strict=False))
        assert _walk_cost(values, width, source, cells, lam) == best


def test_astar_distance_matches_breadth_first_search() -> None:
    """_first_sides' A* distances against a pure-Python breadth-first search round the tile."""
    from collections import deque

    import numpy as np

    from npuzzle._kernels.reduce import _astar_distance, neighbour_table

    rng = random.Random(8)
    width, height = 9, 7
    n = width * height
    nbr = neighbour_table(width, height)
    for _ in range(200):
        fixed = np.zeros(n, dtype=np.uint8)
        for cell in rng.sample(range(n), 12):
            fixed[cell] = 1
        free = [c for c in range(n) if not fixed[c]]
        source, target, avoid = rng.sample(free, 3)
        seen = {source: 0}
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            for other in nbr[cell * 4 : cell * 4 + 4]:
                other = int(other)
                if other >= 0 and not fixed[other] and other != avoid and other not in seen:
                    seen[other] = seen[cell] + 1
                    queue.append(other)
        scratch = np.zeros((2, n), dtype=np.int32)
        stamps = np.zeros(2, dtype=np.int64)
        heap = np.empty(8, dtype=np.int64)
        d, _ = _astar_distance(source, target, avoid, fixed, nbr, width, scratch[0], scratch[1], stamps, heap)
        assert d == seen.get(target, -1)


@pytest.mark.parametrize(
    ("width", "height", "blank_home"), [(3, 3, 8), (3, 3, 4), (2, 3, 0), (3, 2, 5), (2, 2, 3)]
)
def test_last_block_search_is_optimal(width: int, height: int, blank_home: int) -> None:
    """block_idastar (the reduction's last-block finisher) against the BFS oracle: optimal, legal, and
    ``local`` left as it was."""
    import numpy as np

    from npuzzle._kernels.reduce import BLOCK_DEPTH, block_idastar
    from oracle import canonical_distances

    distances = canonical_distances(width, height, blank_home, "single")
    states = sorted(distances)
    for state in random.Random(width * height + blank_home).sample(states, min(300, len(states))):
        local = np.asarray(state, dtype=np.int64)
        moves = np.zeros(BLOCK_DEPTH, dtype=np.int64)
        length = block_idastar(local, width, height, blank_home, moves)
        assert length == distances[state]
        assert tuple(local.tolist()) == state
        tiles, blank = list(state), state.index(blank_home)
        for cell in moves[:length].tolist():
            assert abs(cell - blank) in (1, width) and (
                cell // width == blank // width or cell % width == blank % width
            )
            tiles[blank], tiles[cell] = tiles[cell], blank_home
            blank = cell
        assert tiles == list(range(width * height))
