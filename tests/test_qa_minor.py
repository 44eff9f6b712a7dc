"""Small QA findings: options that were silently ignored, or refused with an unspecific error."""

from __future__ import annotations

from pathlib import Path

import pytest

import npuzzle
from npuzzle import PuzzleError, SolverOptionError
from npuzzle.cli import main
from npuzzle.goals import classic
from npuzzle.search.solver import Plan, choose_algorithm

EIGHT = npuzzle.parse_board("8 6 7 / 2 5 4 / 3 0 1")


def test_solver_option_errors_are_puzzle_errors_and_still_value_errors() -> None:
    """Faces map PuzzleError to bad input (CLI exit 2, HTTP 400); callers catching ValueError keep working."""
    assert issubclass(SolverOptionError, PuzzleError) and issubclass(SolverOptionError, ValueError)
    assert "SolverOptionError" in npuzzle.__all__
    with pytest.raises(SolverOptionError, match="needs a method that proves its answer optimal"):
        npuzzle.solve(EIGHT, algorithm="greedy", optimal=True)
    with pytest.raises(SolverOptionError, match="unknown algorithm"):
        npuzzle.solve(classic(3, 3), algorithm="dijkstra")


def test_a_heuristic_is_used_or_refused_never_ignored() -> None:
    with pytest.raises(SolverOptionError, match="bfs uses no heuristic, so --heuristic misplaced would be ignored"):
        npuzzle.solve(EIGHT, algorithm="bfs", heuristic="misplaced")
    # auto named a heuristic on 10-12 cells: it ran bidirectional BFS without it; now IDA* searches with it
    assert choose_algorithm(classic(4, 3), heuristic="manhattan") == Plan("idastar", "manhattan", None)
    assert choose_algorithm(classic(4, 3)) == Plan("bibfs", None, None)  # no heuristic named: as before
    assert npuzzle.solve(EIGHT, algorithm="bfs").length == 31


def test_render_refuses_to_highlight_the_blank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render", "1 2 3 / 4 5 6 / 7 _ 8", "-o", str(out), "--highlight", "0"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "npuzzle: highlight 0 is the blank: name a tile to outline (1..8)" and not out.exists()
    assert main(["render", "1 2 3 / 4 5 6 / 7 _ 8", "-o", str(out), "--highlight", "0_8"]) == 2  # not tile 8
    assert "'0_8' is not a tile label" in capsys.readouterr().err and not out.exists()


def test_a_weight_is_used_or_refused_never_ignored() -> None:
    """astar dropped a weight, idastar, greedy, bfs and constructive never read it."""
    for algorithm in ("astar", "idastar", "greedy", "bfs"):
        with pytest.raises(SolverOptionError, match=f"--algorithm {algorithm} would ignore it"):
            npuzzle.solve(EIGHT, algorithm=algorithm, weight=3)
    assert choose_algorithm(EIGHT, weight=3) == Plan("wastar", "linear-conflict", 3)
