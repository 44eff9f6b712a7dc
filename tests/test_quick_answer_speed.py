"""The quick answer on big boards made faster without changing it (issue 11, helper-40).

The reduction kernels' searches (the blank's A* approach to a far tile, its weighted walks, the route
search) no longer call array-taking helpers or reassign arrays in their loops, and the walking-distance
bound's pattern count, which decides where it refuses, is a closed form. These tests pin what must not change:
the quick answer's move sequences (digests recorded from the code before the change), the compiled kernels against
their plain-Python twins (numba disabled, in a subprocess), and the bound's pattern count against the count
one by one.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from npuzzle.canonical import to_canonical
from npuzzle.generate import shuffle
from npuzzle.goals import goal
from npuzzle.heuristics.walking import QUICK_PATTERNS, _first_rows
from npuzzle.search.anytime import admissible_bound
from npuzzle.search.reduction import quick_cells, quick_solution, reduce_cells

# (goal, width, height, seed) -> (moves before cancelling, sha1 of the int32 cells, first 12 hex digits),
# recorded with the code before this change (commit 834c6c9)
QUICK_DIGESTS = {
    ("classic", 60, 40, 2): (211_690, "bc9d7f63d2b3"),
    ("snake", 52, 52, 3): (259_362, "27377a3d2d01"),
    ("spiral", 45, 70, 4): (326_803, "02faa2390fbd"),
    ("blank-first", 30, 30, 5): (48_121, "6717b5b1e214"),
    ("classic", 7, 9, 6): (1_030, "8353fc8b5f93"),
}


def _digest(cells: np.ndarray) -> str:
    return hashlib.sha1(np.asarray(cells, dtype=np.int32).tobytes()).hexdigest()[:12]


@pytest.mark.parametrize(("name", "width", "height", "seed"), sorted(QUICK_DIGESTS))
def test_quick_answer_moves_are_those_of_the_code_before(name: str, width: int, height: int, seed: int) -> None:
    g = goal(name, width, height)
    values = to_canonical(shuffle(g, seed=seed), g)
    cells = quick_cells(values, width, height, g.blank_cell)
    assert (len(cells), _digest(cells)) == QUICK_DIGESTS[(name, width, height, seed)]


def test_far_walks_replay_to_the_goal_on_a_non_square_board() -> None:
    g = goal("spiral", 23, 17)
    s = quick_solution(shuffle(g, seed=8), g)
    assert s.replay() == g


TWIN_SCRIPT = """
import hashlib, sys
import numpy as np
from npuzzle.canonical import to_canonical
from npuzzle.generate import shuffle
from npuzzle.goals import goal
from npuzzle.search.reduction import reduce_cells
for name, width, height, seed in [("classic", 13, 11, 1), ("snake", 9, 15, 2), ("blank-first", 12, 12, 3)]:
    g = goal(name, width, height)
    values = to_canonical(shuffle(g, seed=seed), g)
    for lam, far_walk in ((7, 4), (5, 2), (0, 0)):
        cells = reduce_cells(values, width, height, g.blank_cell, lam=lam, far_walk=far_walk)
        print(name, width, height, seed, lam, far_walk, hashlib.sha1(np.asarray(cells, np.int32).tobytes()).hexdigest())
"""


def test_compiled_reduction_matches_its_plain_python_twin() -> None:
    """The same reductions (weighted walks, straight-line far walks, plain walks) compiled and with numba
    disabled (the kernels' Python source run as it is): the same moves."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    twin = subprocess.run(
        [sys.executable, "-c", TWIN_SCRIPT], env=env, capture_output=True, text=True, check=True, timeout=600
    ).stdout.split("\n")
    compiled = []
    for name, width, height, seed in [("classic", 13, 11, 1), ("snake", 9, 15, 2), ("blank-first", 12, 12, 3)]:
        g = goal(name, width, height)
        values = to_canonical(shuffle(g, seed=seed), g)
        for lam, far_walk in ((7, 4), (5, 2), (0, 0)):
            cells = reduce_cells(values, width, height, g.blank_cell, lam=lam, far_walk=far_walk)
            digest = hashlib.sha1(np.asarray(cells, np.int32).tobytes()).hexdigest()
            compiled.append(f"{name} {width} {height} {seed} {lam} {far_walk} {digest}")
    assert [line for line in twin if line] == compiled


def _first_rows_counted(width: int, height: int, blank_home: int) -> int:
    """The vectors row 0 can hold, counted one by one (the count ``walking._first_rows`` had before its
    closed form): at most ``width`` tiles of each home row, one less of the blank's."""
    ways = [1] + [0] * width  # ways[s]: vectors over the home rows so far summing to s
    for g in range(height):
        cap = width - (1 if g == blank_home // width else 0)
        ways = [sum(ways[s - c] for c in range(min(cap, s) + 1)) for s in range(width + 1)]
    return ways[width]


@pytest.mark.parametrize("width", range(2, 31))
def test_the_first_rows_closed_form_is_the_count(width: int) -> None:
    for height in range(2, 31):
        for blank in {0, width * height - 1, (height // 2) * width + width // 2}:
            assert _first_rows(width, height, blank) == _first_rows_counted(width, height, blank)


def test_small_boards_keep_the_walking_bound_and_big_ones_skip_it() -> None:
    from npuzzle.heuristics import simple, walking

    g = goal("classic", 4, 4)  # 4x4, 3x4 and 4x3 boards are where quick_bound serves
    values = to_canonical(shuffle(g, seed=3), g)
    lc = simple.linear_conflict(values, 4, 4, g.blank_cell)
    wd = walking.quick_bound(values, 4, 4, g.blank_cell)
    assert wd is not None
    assert admissible_bound(values, 4, 4, g.blank_cell, "single") == max(lc, wd + (lc - wd) % 2)
    for width, height in ((3, 4), (4, 3)):
        h = goal("classic", width, height)
        assert walking.quick_bound(to_canonical(shuffle(h, seed=1), h), width, height, h.blank_cell) is not None
    big = goal("classic", 100, 100)
    assert walking.quick_bound(to_canonical(shuffle(big, seed=1), big), 100, 100, big.blank_cell) is None
    assert _first_rows(100, 100, 0) > QUICK_PATTERNS


def test_a_second_reduction_gives_the_same_moves() -> None:
    g = goal("classic", 10, 10)
    values = to_canonical(shuffle(g, seed=4), g)
    a = reduce_cells(values, 10, 10, g.blank_cell, lam=7, far_walk=4)
    b = reduce_cells(values, 10, 10, g.blank_cell, lam=7, far_walk=4)
    assert np.array_equal(a, b)  # the grown scratch heap carries nothing from one search to the next
