"""``solve()``: seed cases, every algorithm and goal, limits, errors, dispatch."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from npuzzle.board import Board
from npuzzle.errors import BoardFormatError, ProblemTooLargeError, SearchLimitExceeded, UnsolvableError
from npuzzle.goals import blank_first, classic, goal, snake, spiral
from npuzzle.search import Limits, Solution, solve
from npuzzle.search import solver as solver_module
from oracle import bfs_distances

KORF = Path(__file__).parent / "data" / "korf100.txt"
EXACT = ("bfs", "bibfs", "astar", "idastar")


def korf_instances() -> list[tuple[int, int, Board]]:
    """(instance number, optimal length, board) from Korf's 100 (goal: blank first)."""
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    return [(i + 1, int(r[0]), Board([int(v) for v in r[1:]], 4, 4)) for i, r in enumerate(rows)]


def test_seed_case_tiles_0_to_8_with_hole_8() -> None:
    start = Board([0, 1, 2, 3, 4, 5, 6, 7, 8], 3, 3, blank=8)
    target = Board([1, 0, 4, 6, 3, 5, 2, 7, 8], 3, 3, blank=8)
    for algorithm in ("auto", *EXACT):
        s = solve(start, target, algorithm=algorithm)
        assert s.length == 20 and s.optimal
        assert s.replay() == target


def test_seed_case_hole_9_classic_goal() -> None:
    start = Board.from_rows([[3, 5, 1], [2, 4, 6], [8, 7, 9]], blank=9)
    s = solve(start)
    assert s.goal.tiles == (1, 2, 3, 4, 5, 6, 7, 8, 9)
    assert s.length == 24 and s.replay() == s.goal


def test_seed_case_15_puzzle_57_moves() -> None:
    start = Board([12, 13, 11, 2, 4, 5, 3, 14, 1, 9, 15, 6, 8, 7, 0, 10], 4, 4)
    s = solve(start, algorithm="idastar", heuristic="linear-conflict")
    assert s.length == 57 and s.optimal
    assert s.replay() == classic(4, 4)
    assert [b for b in s.boards()][-1] == classic(4, 4)
    assert len(s.directions()) == 57


@pytest.mark.parametrize("number", [55, 79, 2])
def test_korf_instances_blank_first_goal(number: int) -> None:
    _, optimal, start = korf_instances()[number - 1]
    s = solve(start, "blank-first", algorithm="idastar", heuristic="linear-conflict")
    assert s.length == optimal
    assert s.replay() == blank_first(4, 4)


def test_korf_file_is_complete() -> None:
    instances = korf_instances()
    assert len(instances) == 100
    assert sum(opt for _, opt, _ in instances) == 5305


@pytest.mark.parametrize(
    "layout", ["classic", "snake", "spiral", "column", "blank-first", "blank-at:4", "random:7"]
)
def test_every_algorithm_on_every_layout_matches_oracle(layout: str) -> None:
    target = goal(layout, 3, 2) if not layout.startswith(("blank-at", "random")) else None
    target = target or goal(
        layout.split(":")[0], 3, 2, **({"cell": 4} if "blank-at" in layout else {"seed": 7})
    )
    distances = bfs_distances(target)
    rng = random.Random(layout)
    for tiles in rng.sample(sorted(distances), 12):
        start = Board(tiles, 3, 2, target.blank)
        for algorithm in (*EXACT, "auto"):
            s = solve(start, target, algorithm=algorithm)
            assert s.length == distances[tiles], (algorithm, tiles)
            assert s.replay() == target
        for algorithm in ("wastar", "greedy"):
            s = solve(start, target, algorithm=algorithm)
            assert s.replay() == target and s.length >= distances[tiles]


def test_multi_metric_exact_methods_match_multi_oracle() -> None:
    target = classic(3, 3)
    distances = bfs_distances(target, "multi")
    rng = random.Random(1)
    for tiles in rng.sample(sorted(distances), 25):
        start = Board(tiles, 3, 3)
        for algorithm in (*EXACT, "auto"):
            s = solve(start, target, algorithm=algorithm, metric="multi")
            assert s.length == distances[tiles], (algorithm, tiles)
            assert s.metric == "multi" and s.replay() == target


def test_weighted_astar_within_weight_times_optimal() -> None:
    target = spiral(3, 3)
    distances = bfs_distances(target)
    rng = random.Random(2)
    for tiles in rng.sample(sorted(distances), 80):
        start = Board(tiles, 3, 3)
        for weight in (1.0, 1.5, 2.0, 3.0):
            s = solve(start, target, algorithm="wastar", weight=weight, heuristic="manhattan")
            assert s.replay() == target
            assert s.length <= weight * distances[tiles]
            # optimal: weight 1 (plain A*), or a proven lower bound that meets the length
            assert s.optimal == (weight == 1.0 or s.length == s.lower_bound)
            assert not s.optimal or s.length == distances[tiles]
    s = solve(Board(tiles, 3, 3), target, weight=2.5)  # a weight alone picks weighted A*
    assert s.algorithm == "wastar" and not s.optimal


def test_large_and_rectangular_boards() -> None:
    rng = random.Random(4)
    cases = (
        (5, 5, "wastar", 75),
        (8, 8, "greedy", 60),
        (2, 7, "idastar", 60),
        (16, 16, "greedy", 40),
        (16, 16, "idastar", 24),
        (17, 15, "astar", 16),
        (18, 15, "wastar", 30),
    )  # 270 cells: 16-bit states
    for width, height, algorithm, scramble in cases:
        board = classic(width, height)
        for _ in range(scramble):
            board = board.move(rng.choice(board.legal_moves()))
        s = solve(board, algorithm=algorithm)
        assert s.replay() == classic(width, height)
        assert s.length <= scramble
    board = snake(4, 4)
    for _ in range(30):
        board = board.move(rng.choice(board.legal_moves()))
    exact = solve(board, "snake", algorithm="idastar", heuristic="manhattan").length
    assert solve(board, "snake", algorithm="astar", heuristic="linear-conflict").length == exact
    assert solve(board, "snake", algorithm="idastar", heuristic="linear-conflict").length == exact


def test_unsolvable_raises_before_any_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("a search ran on an unsolvable board")

    monkeypatch.setattr(solver_module, "run_canonical", no_search)
    start = Board.from_rows([[1, 2, 3], [4, 5, 6], [8, 7, 0]])
    for algorithm in ("auto", "bfs", "bibfs", "astar", "idastar", "wastar", "greedy", "pdb"):
        with pytest.raises(UnsolvableError, match="1 2 3 4 5 6 8 7 0"):
            solve(start, algorithm=algorithm)
    big = classic(4, 4).with_tiles([2, 1, *range(3, 16), 0])
    t0 = time.perf_counter()
    with pytest.raises(UnsolvableError):
        solve(big)
    assert time.perf_counter() - t0 < 1


def test_limits_raise_with_stats() -> None:
    start = Board([12, 13, 11, 2, 4, 5, 3, 14, 1, 9, 15, 6, 8, 7, 0, 10], 4, 4)
    for algorithm, heuristic in (
        ("idastar", "manhattan"),
        ("idastar", "linear-conflict"),
        ("astar", "manhattan"),
        ("bfs", None),
    ):
        limits = Limits(max_nodes=5000) if algorithm != "bfs" else Limits(max_nodes=5000, max_memory_mb=1)
        if algorithm == "bfs":
            with pytest.raises(ProblemTooLargeError, match="memory cap"):
                solve(start, algorithm=algorithm, limits=limits)
            continue
        with pytest.raises(SearchLimitExceeded) as info:
            solve(start, algorithm=algorithm, heuristic=heuristic, limits=limits)
        assert info.value.limit == "max_nodes"
        assert info.value.stats.expanded == 5000 and info.value.stats.generated > 0
    with pytest.raises(SearchLimitExceeded) as info:
        solve(start, algorithm="idastar", heuristic="misplaced", limits=Limits(max_seconds=0.3))
    assert info.value.limit == "max_seconds" and info.value.stats.seconds < 3
    with pytest.raises(SearchLimitExceeded) as info:
        solve(start, algorithm="astar", heuristic="misplaced", limits=Limits(max_memory_mb=1))
    assert info.value.limit == "max_memory_mb"


def test_bfs_on_a_12_cell_board_and_too_large_boards() -> None:
    start = Board([5, 1, 2, 3, 4, 0, 6, 7, 8, 9, 10, 11], 6, 2)
    s = solve(start, "blank-first", algorithm="bibfs")
    assert s.replay() == blank_first(6, 2)
    assert s.length == solve(start, "blank-first", algorithm="idastar").length
    with pytest.raises(ProblemTooLargeError, match="16!/2"):
        solve(classic(4, 4).move(15), algorithm="bfs")
    with pytest.raises(ProblemTooLargeError):
        solve(classic(4, 4).move(15), algorithm="bibfs", metric="multi")


def test_bad_arguments() -> None:
    board = classic(3, 3).move(8)
    with pytest.raises(ValueError, match="unknown algorithm"):
        solve(board, algorithm="dijkstra")
    with pytest.raises(ValueError, match="unknown heuristic"):
        solve(board, heuristic="euclid")
    with pytest.raises(ValueError, match="not admissible"):
        solve(board, algorithm="idastar", heuristic="manhattan", metric="multi")
    with pytest.raises(ValueError, match="metric"):
        solve(board, metric="double")
    with pytest.raises(ValueError, match="weight"):
        solve(board, weight=0.5)
    with pytest.raises(BoardFormatError, match="takes a Board"):
        solve([1, 2, 3, 0])  # type: ignore[arg-type]


def test_auto_choices_and_pdb_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    assert solver_module.choose_algorithm(classic(3, 3)).algorithm == "idastar"
    assert solver_module.choose_algorithm(classic(4, 3)).algorithm == "bibfs"
    assert solver_module.choose_algorithm(classic(3, 3), metric="multi").heuristic == "multi-pdb"
    monkeypatch.setattr(solver_module, "pdb_available", lambda: False)
    assert solver_module.choose_algorithm(classic(4, 4)) == solver_module.Plan(
        "idastar", "linear-conflict", None
    )
    monkeypatch.setitem(sys.modules, "npuzzle.search.pdb_backend", None)  # import fails: fall back
    start = Board([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15], 4, 4)
    s = solve(start, algorithm="pdb")
    assert isinstance(s, Solution) and s.length == 1 and s.algorithm == "idastar"


def test_solution_json_object() -> None:
    s = solve(Board.from_rows([[1, 2, 3], [4, 5, 6], [0, 7, 8]]))
    data = s.to_dict()
    assert data["length"] == 2 and data["moves"] == [7, 8] and data["directions"] == "LL"
    assert data["optimal"] is True and data["algorithm"] == "idastar"
    assert set(data["stats"]) >= {"expanded", "generated", "max_open", "seconds"}


@pytest.mark.parametrize(
    ("algorithm", "weight"),
    [("greedy", None), ("wastar", None), ("wastar", 1.5), ("auto", 2.0), ("constructive", None)],
)
def test_optimal_refuses_a_method_that_cannot_prove_it(algorithm: str, weight: float | None) -> None:
    board = Board.from_rows([[8, 6, 7], [2, 5, 4], [3, 0, 1]])  # optimum 31; greedy answers 45
    with pytest.raises(ValueError, match="needs a method that proves its answer optimal"):
        solve(board, algorithm=algorithm, weight=weight, optimal=True)


@pytest.mark.parametrize(("algorithm", "weight"), [("astar", None), ("idastar", None), ("wastar", 1.0)])
def test_optimal_accepts_a_method_that_proves_it(algorithm: str, weight: float | None) -> None:
    board = Board.from_rows([[8, 6, 7], [2, 5, 4], [3, 0, 1]])
    s = solve(board, algorithm=algorithm, weight=weight, optimal=True)
    assert s.optimal and s.length == 31 == s.lower_bound
    assert s.replay() == classic(3, 3)


@pytest.mark.parametrize(("width", "height"), [(6, 6), (13, 13), (19, 9), (16, 16), (100, 100)])
@pytest.mark.parametrize("algorithm", ["bfs", "bibfs"])
def test_bfs_on_any_big_board_is_too_large_not_an_overflow(width: int, height: int, algorithm: str) -> None:
    """QA: from 171 cells on the message's float division overflowed (``OverflowError``)."""
    from npuzzle.generate import generate

    (board,) = generate(classic(width, height), "walk", moves=4, seed=1)
    with pytest.raises(ProblemTooLargeError, match=rf"{width * height}!/2 = .*bytes.* use --algorithm idastar"):
        solve(board, algorithm=algorithm)


def test_bfs_bytes_text_is_exact_when_small_and_a_power_of_ten_beyond() -> None:
    import math

    assert solver_module.bfs_bytes_text(12) == "239,500,800 bytes (0.2 GiB)"
    for n in (21, 36, 170, 171, 256, 400):
        exponent = len(str(math.factorial(n) // 2)) - 1
        assert solver_module.bfs_bytes_text(n) == f"about 10^{exponent} bytes"
