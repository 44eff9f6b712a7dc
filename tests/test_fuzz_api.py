"""Fuzzing the public API (issue 10 item 5): whatever it is given, a public function returns or raises the
package's own errors (``PuzzleError``), ``TypeError`` or ``ValueError``; never AttributeError, IndexError,
OverflowError, RecursionError or MemoryError, and never an error message that echoes a huge input.

Bounded: a few hundred examples in all, a few seconds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import npuzzle
from npuzzle import Board, PuzzleError
from npuzzle.goals import LAYOUTS

ALLOWED = (PuzzleError, TypeError, ValueError)
MAX_MESSAGE = 600  # characters: messages quote excerpts, never whole inputs

HUGE = [10**30, -(10**30), 10**4000, 2**63, -1, 0, 1, 3, 256, 257, 65_536, 10**9]
FLOATS = [float("nan"), float("inf"), -float("inf"), 1e308, 2.5, 4.0, -0.0]
SMALL_BOARD = Board([1, 2, 3, 0], 2, 2)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(HUGE),
    st.integers(-10, 300),
    st.sampled_from(FLOATS),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.sampled_from(["classic", "blank-first", "snake:", "blank-at:99", "random:x", "4x4", "0x5", "ab"]),
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.dictionaries(st.sampled_from(["tiles", "width", "height", "blank", "board"]), children, max_size=4),
    ),
    max_leaves=20,
)
board_texts = st.one_of(
    st.text(alphabet="0123456789 ,/_.-x:[]{}\n#\"abtileswdhgn", max_size=80),
    values.map(lambda v: json.dumps(v, default=str)),
    st.sampled_from(
        [
            '{"tiles":[1,2,3,0],"width":"ab","height":100000000}',
            '{"tiles":[1,2,3,0],"width":2,"height":3e9}',
            '{"tiles":[1,2,3,0],"blank":"x"}',
            '{"tiles":[1,2,3,0],"width":2.5}',
            "[" * 50_000 + "]" * 50_000,
            "4x4:" + "1," * 20,
            "99999999999999999999x2:1,2",
            "9" * 5000,
            "3\n" + "1 2 3\n" * 3,
            "99999999999999\n1 2\n3 0",
        ]
    ),
)
anything = st.one_of(values, board_texts, st.just(SMALL_BOARD))


def _check(func: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    try:
        func(*args, **kwargs)
    except ALLOWED as exc:
        message = str(exc)
        assert len(message) <= MAX_MESSAGE, f"{func.__name__} echoed {len(message):,} characters"
    # anything else propagates and fails the test with its traceback


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(source=anything, width=scalars, height=scalars, blank=scalars)
def test_parse_board_never_crashes(source: Any, width: Any, height: Any, blank: Any) -> None:
    _check(npuzzle.parse_board, source)
    _check(npuzzle.parse_board, source, width, height, blank)


@FUZZ
@given(tiles=values, width=scalars, height=scalars, blank=scalars)
def test_board_constructor_never_crashes(tiles: Any, width: Any, height: Any, blank: Any) -> None:
    _check(Board, tiles, width, height, blank)


@FUZZ
@given(text=st.one_of(st.text(max_size=20), scalars), layout=anything, width=scalars, height=scalars)
def test_sizes_and_goals_never_crash(text: Any, layout: Any, width: Any, height: Any) -> None:
    _check(npuzzle.parse_size, text)
    _check(npuzzle.goal, layout, width, height)
    for name in LAYOUTS:
        _check(npuzzle.goal, name, width, height)
    _check(npuzzle.goal_for, SMALL_BOARD, layout)
    _check(npuzzle.goal_for, layout)


@FUZZ
@given(start=anything, goal=anything)
def test_solvability_and_canonical_never_crash(start: Any, goal: Any) -> None:
    for func in (npuzzle.is_solvable, npuzzle.explain, npuzzle.to_canonical):
        _check(func, start, goal)
        _check(func, SMALL_BOARD, goal)
    _check(npuzzle.from_canonical, start, goal)
    _check(npuzzle.from_canonical, start, npuzzle.goal("classic", 2, 2))


@FUZZ
@given(board=anything, text=st.one_of(st.text(alphabet="UDLRudlr0123456789 ,-", max_size=30), scalars), style=scalars)
def test_moves_and_formats_never_crash(board: Any, text: Any, style: Any) -> None:
    _check(npuzzle.parse_moves, text)
    _check(npuzzle.parse_moves, text, board)
    _check(npuzzle.parse_moves, text, SMALL_BOARD)
    _check(npuzzle.directions_to_moves, board, text)
    _check(npuzzle.directions_to_moves, SMALL_BOARD, text)
    _check(npuzzle.moves_to_directions, board, text)
    _check(npuzzle.moves_to_directions, SMALL_BOARD, [3, 2, text])
    _check(npuzzle.blank_to_tile_directions, text)
    _check(npuzzle.format_moves, text)
    _check(npuzzle.format_board, board, style)
    _check(npuzzle.format_board, SMALL_BOARD, style)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"tiles":[1,2,3,0],"width":"ab","height":100000000}', "width must be an integer"),
        ('{"tiles":[1,2,3,0],"width":2,"height":3e9}', "height"),
        ('{"tiles":[1,2,3,0],"blank":"x"}', "blank must be an integer"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("4x0:1,0", "at least 2"),
        ("999999999x2:1,0", "larger than the largest board side"),
    ],
)
def test_runaway_inputs_are_refused_early_with_short_messages(text: str, fragment: str) -> None:
    with pytest.raises(npuzzle.BoardFormatError, match=fragment) as info:
        npuzzle.parse_board(text)
    assert len(str(info.value)) < 300


def test_huge_input_is_quoted_as_an_excerpt() -> None:
    text = "1 2 x " + "7 " * 500_000
    with pytest.raises(npuzzle.BoardFormatError) as info:
        npuzzle.parse_board(text)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("bad", [None, 3, "1 2 3 0", [1, 2, 3, 0]])
def test_solvability_of_a_non_board_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="Board"):
        npuzzle.is_solvable(bad)
    with pytest.raises(TypeError, match="Board"):
        npuzzle.explain(bad, "classic")


@pytest.mark.parametrize("size", ["0x5", "0x0", "5x0", "1x4", "257x2", "99999999999999999999x3", "4x"])
def test_parse_size_refuses_boards_that_cannot_exist(size: str) -> None:
    with pytest.raises(npuzzle.BoardFormatError):
        npuzzle.parse_size(size)


@pytest.mark.parametrize("side", [0, 1, -3, 257, 10**100, math.inf, math.nan, "4", None, True])
def test_goal_layouts_check_the_size_first(side: Any) -> None:
    for name in LAYOUTS:
        with pytest.raises((npuzzle.BoardFormatError, TypeError)):
            npuzzle.goal(name, side, 3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=anything,
    goal=anything,
    algorithm=st.one_of(scalars, st.sampled_from(["auto", "astar", "idastar", "bfs", "wastar", "greedy"])),
    heuristic=st.one_of(st.none(), scalars, st.sampled_from(["manhattan", "misplaced"])),
    weight=st.one_of(st.none(), scalars),
    metric=st.one_of(scalars, st.sampled_from(["single", "multi"])),
)
def test_solve_arguments_never_crash(
    start: Any, goal: Any, algorithm: Any, heuristic: Any, weight: Any, metric: Any
) -> None:
    limits = npuzzle.Limits(max_nodes=10_000, max_seconds=2)
    _check(npuzzle.solve, start)
    _check(npuzzle.solve, SMALL_BOARD, goal, limits=limits)
    _check(npuzzle.solve, SMALL_BOARD, algorithm=algorithm, heuristic=heuristic, weight=weight, metric=metric,
           limits=limits)  # fmt: skip
    _check(npuzzle.solve, SMALL_BOARD, limits=algorithm)
