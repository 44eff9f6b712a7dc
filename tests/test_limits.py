"""Limits that hold: nan, zero, negatives, booleans and non-numbers are refused where a Limits is made
(the API and --max-seconds alike); infinity is documented as no cap; solve() refuses a non-Limits."""

from __future__ import annotations

import math

import pytest

from npuzzle import Board, solve
from npuzzle.search.limits import NO_CAP_AT, NO_LIMITS, Limits


@pytest.mark.parametrize("field", ["max_nodes", "max_seconds", "max_memory_mb"])
@pytest.mark.parametrize(
    "value",
    [math.nan, -math.inf, -1, 0, 0.0, -(10**5000)],
    ids=["nan", "-inf", "-1", "0", "0.0", "-10**5000"],
)
def test_bad_values_raise_value_error(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        Limits(**{field: value})


@pytest.mark.parametrize("field", ["max_nodes", "max_seconds", "max_memory_mb"])
@pytest.mark.parametrize("value", ["5", True, [1], object(), 1j])
def test_non_numbers_raise_type_error(field: str, value: object) -> None:
    with pytest.raises(TypeError, match=field):
        Limits(**{field: value})


def test_infinity_and_huge_counts_mean_no_cap_and_values_are_normalised() -> None:
    assert Limits(max_seconds=math.inf) == NO_LIMITS
    assert Limits(max_nodes=NO_CAP_AT, max_memory_mb=10**100) == NO_LIMITS
    limits = Limits(max_nodes=10.0, max_seconds=2, max_memory_mb=64)
    assert (limits.max_nodes, limits.max_seconds, limits.max_memory_mb) == (10, 2.0, 64)
    assert isinstance(limits.max_seconds, float) and isinstance(limits.max_nodes, int)
    with pytest.raises(ValueError, match="whole number"):
        Limits(max_nodes=2.5)


def test_solve_refuses_a_non_limits_argument() -> None:
    board = Board([1, 2, 0, 3], 2, 2)
    for bad in ("5", 5, {"max_seconds": 5}):
        with pytest.raises(TypeError, match="limits must be an npuzzle Limits"):
            solve(board, limits=bad)  # type: ignore[arg-type]
    assert solve(board, limits=None).length == 1
    assert Limits.coerce(None) is NO_LIMITS


@pytest.mark.parametrize("value", ["nan", "-1", "0", "-inf"])
def test_cli_max_seconds_is_checked(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    from npuzzle.cli import main

    assert main(["solve", "1 2 3 / 4 5 6 / 0 7 8", f"--max-seconds={value}"]) == 2
    assert "max_seconds must be" in capsys.readouterr().err


def test_cli_max_seconds_inf_is_no_limit(capsys: pytest.CaptureFixture[str]) -> None:
    from npuzzle.cli import main

    assert main(["solve", "1 2 3 / 4 5 6 / 0 7 8", "--max-seconds", "inf"]) == 0
    assert capsys.readouterr().out.startswith("2 moves")
