"""is_solvable against brute force: every arrangement of the small boards, every layout."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from npuzzle import Board, GoalMismatchError, LabelError, explain, is_solvable
from npuzzle.goals import LAYOUTS, goal
from npuzzle.solvability import count_inversions, permutation_parity
from strategies import goals

PRESETS = [name for name in LAYOUTS if name not in ("blank-at", "random")]
SMALL_SIZES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]


def reachable(goal_board: Board) -> set[tuple[int, ...]]:
    """Every arrangement reachable from ``goal_board`` (moves are reversible, so also every one that
    reaches it), by breadth-first search over tile tuples."""
    width, height = goal_board.width, goal_board.height
    n = width * height
    neighbours = [Board(range(n), width, height).neighbour_cells(c) for c in range(n)]
    blank = goal_board.blank
    seen = {goal_board.tiles}
    queue = deque([(goal_board.tiles, goal_board.blank_cell)])
    while queue:
        tiles, cell = queue.popleft()
        for other in neighbours[cell]:
            nxt = list(tiles)
            nxt[cell], nxt[other] = nxt[other], blank
            key = tuple(nxt)
            if key not in seen:
                seen.add(key)
                queue.append((key, other))
    return seen


GOAL_NAMES = [*PRESETS, "blank-at:center", "random:1", "random:2"]


def goal_named(name: str, width: int, height: int) -> Board:
    if name == "blank-at:center":
        return goal("blank-at", width, height, cell=(width * height) // 2)
    return goal(name, width, height)


def goals_for(width: int, height: int) -> list[Board]:
    return [goal_named(name, width, height) for name in GOAL_NAMES]


CASES = [
    (w, h, name)
    for (w, h) in SMALL_SIZES
    for name in GOAL_NAMES
    if not (w * h == 9 and name == "random:2")  # the 3x3 takes longest: one random goal is enough there
]
# Every 3x3 arrangement takes about 9 s of one core per goal; two goals (the blank in a corner and in the
# middle) are checked on all of them by default, the others on a sample of 40,000 (a wrong parity rule is
# wrong on half the arrangements) and on all of them with -m slow.
EVERY_3X3 = ("classic", "blank-at:center")
SAMPLE_3X3 = 40_000


@pytest.mark.parametrize(
    ("width", "height", "name", "sample"),
    [
        (w, h, name, None)
        if w * h < 9 or name in EVERY_3X3
        else pytest.param(w, h, name, None, marks=pytest.mark.slow, id=f"{w}-{h}-{name}-every")
        for (w, h, name) in CASES
    ]
    + [(3, 3, name, SAMPLE_3X3) for name in GOAL_NAMES if name not in EVERY_3X3 and name != "random:2"],
)
def test_is_solvable_equals_reachability_on_every_arrangement(
    width: int, height: int, name: str, sample: int | None
) -> None:
    goal_board = goal_named(name, width, height)
    reach = reachable(goal_board)
    assert len(reach) * 2 == math.factorial(width * height)
    arrangements = list(itertools.permutations(goal_board.tiles))
    if sample is not None:
        arrangements = random.Random(name).sample(arrangements, sample)
    for tiles in arrangements:
        start = Board(tiles, width, height, goal_board.blank)
        assert is_solvable(start, goal_board) == (tiles in reach), (start, goal_board)


def test_explain_agrees_with_is_solvable_on_every_2x3_and_3x2() -> None:
    for width, height in ((2, 3), (3, 2), (2, 2)):
        for goal_board in goals_for(width, height):
            for tiles in itertools.permutations(goal_board.tiles):
                start = Board(tiles, width, height)
                facts = explain(start, goal_board)
                assert facts.solvable == is_solvable(start, goal_board)
                assert facts.sentence.startswith("Solvable." if facts.solvable else "Unsolvable.")


def _random_walk(board: Board, steps: int, rng: random.Random) -> Board:
    for _ in range(steps):
        board = board.move(rng.choice(board.legal_moves()))
    return board


@settings(max_examples=60, deadline=None)
@given(goals(max_side=12), st.integers(0, 2**32 - 1))
def test_moves_keep_solvability_and_a_swap_flips_it(goal_board: Board, seed: int) -> None:
    rng = random.Random(seed)
    start = _random_walk(goal_board, rng.randrange(0, 200), rng)
    assert is_solvable(start, goal_board)
    tiles = list(start.tiles)
    a, b = rng.sample([c for c in range(len(tiles)) if tiles[c] != start.blank], 2)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    swapped = start.with_tiles(tiles)
    assert not is_solvable(swapped, goal_board)
    assert not explain(swapped, goal_board).solvable


def test_explain_reports_the_facts() -> None:
    facts = explain(Board.from_rows([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 15, 14, 0]]), "classic")
    assert (facts.inversions, facts.blank_row, facts.goal_blank_row, facts.width_even) == (1, 3, 3, True)
    assert not facts.solvable and "even" in facts.sentence and "1 + 0 = 1 is odd" in facts.sentence
    assert facts.to_dict()["inversions"] == 1


def test_height_does_not_matter_but_width_does() -> None:
    # blank moved up one row on an even-width board changes the parity bookkeeping, not the verdict
    start = goal("classic", 4, 3).move(8)
    assert is_solvable(start, "classic")
    assert explain(start, "classic").inversions % 2 == 1


def test_a_100x100_board_answers_in_milliseconds() -> None:
    goal_board = goal("classic", 100, 100)
    tiles = list(goal_board.tiles)
    random.Random(5).shuffle(tiles)
    start = goal_board.with_tiles(tiles)
    began = time.perf_counter()
    verdict = is_solvable(start, goal_board)
    elapsed = time.perf_counter() - began
    assert verdict == explain(start, goal_board).solvable
    assert elapsed < 0.5  # generous: typically ~5 ms; a quadratic test would take seconds


def test_mismatched_boards_raise_specific_errors() -> None:
    with pytest.raises(GoalMismatchError, match="different labels"):
        is_solvable(Board([1, 2, 3, 0], 2, 2), Board([1, 2, 4, 0], 2, 2))
    with pytest.raises(GoalMismatchError, match="2x2 but goal is 3x3"):
        is_solvable(Board([1, 2, 3, 0], 2, 2), goal("classic", 3, 3))
    with pytest.raises(LabelError, match="appears twice"):
        is_solvable(Board([1, 1, 3, 0], 2, 2), "classic")


@given(st.permutations(list(range(9))))
def test_inversion_parity_equals_cycle_parity(perm: list[int]) -> None:
    brute = sum(1 for i in range(9) for j in range(i + 1, 9) if perm[i] > perm[j])
    assert count_inversions(perm) == brute
    assert permutation_parity(perm) == brute % 2


@settings(max_examples=400, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.data())
def test_solvable_homes_agrees_with_is_solvable_on_blank_at_goals(width: int, height: int, data: st.DataObject) -> None:
    """The fast check the picture reassembly calls, against the general rule on built boards."""
    from npuzzle.goals import blank_at
    from npuzzle.solvability import is_solvable_homes

    n = width * height
    blank_home = data.draw(st.integers(0, n - 1))
    homes = data.draw(st.permutations([h for h in range(n) if h != blank_home] + [-1]))
    board = Board([0 if home < 0 else home + 1 for home in homes], width, height, blank=0)
    assert is_solvable_homes(homes, width, blank_home) == is_solvable(board, blank_at(width, height, blank_home))


def test_solvable_homes_on_every_2x3_arrangement() -> None:
    """Exhaustive on a 2x3 and a 3x2 with every blank home: exactly half of the arrangements, as the rule says."""
    from npuzzle.goals import blank_at
    from npuzzle.solvability import is_solvable_homes

    for width, height in ((2, 3), (3, 2)):
        for blank_home in range(6):
            goal = blank_at(width, height, blank_home)
            cells = [h for h in range(6) if h != blank_home] + [-1]
            verdicts = [is_solvable_homes(homes, width, blank_home) for homes in itertools.permutations(cells)]
            boards = [Board([0 if h < 0 else h + 1 for h in homes], width, height, blank=0)
                      for homes in itertools.permutations(cells)]  # fmt: skip
            assert verdicts == [is_solvable(board, goal) for board in boards]
            assert sum(verdicts) == math.factorial(6) // 2
