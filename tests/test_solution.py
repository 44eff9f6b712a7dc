"""Solution: every answer is replayed when it is built (no face can return a wrong one), impossible claims
are refused, and printing costs O(moves + cells), not O(moves x cells)."""

from __future__ import annotations

import random
import time

import pytest

from npuzzle.board import Board
from npuzzle.errors import InvalidSolutionError
from npuzzle.goals import classic, goal
from npuzzle.solution import Solution, admissible_bound, walk
from oracle import bfs_distances


def random_walk(
    width: int, height: int, n: int, metric: str = "single", seed: int = 1
) -> tuple[Board, Board, tuple[int, ...]]:
    """(start, end, moves): ``n`` random legal moves from the classic goal, applied with Board methods."""
    rng = random.Random(seed)
    board = classic(width, height)
    moves = []
    for _ in range(n):
        label = rng.choice(board.legal_slides() if metric == "multi" else board.legal_moves())
        moves.append(label)
        board = board.slide(label) if metric == "multi" else board.move(label)
    return classic(width, height), board, tuple(moves)


def reference_directions(start: Board, moves: tuple[int, ...], metric: str) -> list[str]:
    """The old board-per-move implementation of ``direction_list``."""
    out, board = [], start
    for label in moves:
        letter = board.direction_of(label)
        r, c = board.position_of(label)
        br, bc = divmod(board.blank_cell, board.width)
        distance = abs(r - br) + abs(c - bc)
        out.append(letter if distance == 1 else f"{letter}{distance}")
        board = board.slide(label) if metric == "multi" else board.move(label)
    return out


@pytest.mark.parametrize("metric", ["single", "multi"])
@pytest.mark.parametrize(("width", "height"), [(2, 2), (3, 3), (4, 3), (2, 5), (5, 4)])
def test_replay_directions_and_boards_agree_with_board_moves(metric: str, width: int, height: int) -> None:
    start, end, moves = random_walk(width, height, 60, metric, seed=width * 10 + height)
    s = Solution(start, end, moves, False, "walk", None, metric=metric)
    assert s.direction_list() == reference_directions(start, moves, metric)
    boards = list(s.boards())
    assert len(boards) == len(moves) + 1 and boards[0] == start and boards[-1] == end
    step = Board.slide if metric == "multi" else Board.move
    assert all(step(a, m) == b for a, m, b in zip(boards, moves, boards[1:], strict=False))
    assert s.replay() == end
    assert walk(start, moves, metric)[0] == list(end.tiles)


@pytest.mark.parametrize("metric", ["single", "multi"])
def test_wrong_moves_cannot_be_constructed(metric: str) -> None:
    start, end, moves = random_walk(4, 4, 30, metric)
    with pytest.raises(InvalidSolutionError, match=r"internal error.*do not reach the goal"):
        Solution(start, end, moves[:-1], False, "walk", None, metric=metric)  # legal, one short
    with pytest.raises(InvalidSolutionError, match="not a legal move sequence"):
        Solution(start, end, (start.tiles[0], *moves), False, "walk", None, metric=metric)
    with pytest.raises(InvalidSolutionError, match="not a legal move sequence"):
        Solution(start, end, (*moves, 999), False, "walk", None, metric=metric)  # no such tile
    with pytest.raises(InvalidSolutionError, match="not a legal move sequence"):
        Solution(start, end, (0, *moves), False, "walk", None, metric=metric)  # the blank itself
    with pytest.raises(InvalidSolutionError, match="metric"):
        Solution(start, end, moves, False, "walk", None, metric="diagonal")
    with pytest.raises(InvalidSolutionError, match="3x3"):
        Solution(start, classic(3, 3), (), False, "walk", None)


def test_a_multi_slide_is_not_a_single_move() -> None:
    board = Board([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, 3)
    moved = board.slide(7)
    Solution(board, moved, (7,), False, "walk", None, metric="multi")
    with pytest.raises(InvalidSolutionError, match="next to the blank"):
        Solution(board, moved, (7,), False, "walk", None, metric="single")


def test_impossible_optimality_and_bounds_are_refused() -> None:
    # the zeroed-table failure of issue 10: "0 moves, optimal" for a board far from the goal
    start = Board([12, 1, 10, 2, 7, 11, 4, 14, 5, 0, 9, 15, 8, 13, 6, 3], 4, 4)
    with pytest.raises(InvalidSolutionError, match=r"optimal 0-move .* at least \d+ moves \(Manhattan"):
        Solution(start, classic(4, 4), (), True, "pdb", "pdb:6-6-3")
    with pytest.raises(InvalidSolutionError, match="optimal 0-move"):
        Solution(start, classic(4, 4), (), True, "bfs", None, metric="multi")
    _, end, moves = random_walk(3, 3, 9)
    with pytest.raises(InvalidSolutionError, match="lower bound of 10"):
        Solution(classic(3, 3), end, moves, False, "walk", None, lower_bound=10)
    with pytest.raises(InvalidSolutionError, match="lower bound of -1"):
        Solution(classic(3, 3), end, moves, False, "walk", None, lower_bound=-1)
    assert Solution(classic(3, 3), end, moves, False, "walk", None, lower_bound=9).lower_bound == 9
    for factor in (0.5, float("nan")):
        with pytest.raises(InvalidSolutionError, match="suboptimality"):
            Solution(classic(3, 3), end, moves, False, "walk", None, suboptimality=factor)


@pytest.mark.parametrize("metric", ["single", "multi"])
@pytest.mark.parametrize(
    ("width", "height", "layout"), [(3, 3, "classic"), (3, 3, "spiral"), (2, 4, "classic"), (4, 2, "snake")]
)
def test_admissible_bound_never_exceeds_the_exact_distance(
    metric: str, width: int, height: int, layout: str
) -> None:
    target = goal(layout, width, height)
    items = sorted(bfs_distances(target, metric).items(), key=lambda item: (item[1], item[0]))
    if len(items) > 20_000:  # 3x3: the 2,000 deepest states and 3,000 others (every state of 2x4)
        items = items[-2_000:] + random.Random(width).sample(items[:-2_000], 3_000)
    tight = 0
    for tiles, depth in items:
        bound = admissible_bound(Board(tiles, width, height), target, metric)
        assert bound <= depth, (tiles, bound, depth)
        tight += bound == depth
    assert tight > 1  # and it is not trivially zero


def test_big_replay_is_linear() -> None:
    """100x100 board, 100,000 moves: replay and directions cost O(moves + cells) (measured 0.04 s of CPU)."""
    start, end, moves = _fast_walk(100, 100, 100_000)
    t0 = time.process_time()
    s = Solution(start, end, moves, False, "walk", None)
    tokens = s.directions()
    assert time.process_time() - t0 < 1.5
    assert len(tokens) == 100_000


def _fast_walk(width: int, height: int, n: int) -> tuple[Board, Board, tuple[int, ...]]:
    """A random walk on a flat list (Board.move per step would cost n x cells here)."""
    rng = random.Random(7)
    start = classic(width, height)
    tiles = list(start.tiles)
    b = tiles.index(0)
    moves = []
    for _ in range(n):
        r, c = divmod(b, width)
        options = [
            x
            for x, ok in (
                (b - width, r > 0),
                (b + width, r < height - 1),
                (b - 1, c > 0),
                (b + 1, c < width - 1),
            )
            if ok
        ]
        t = rng.choice(options)
        moves.append(tiles[t])
        tiles[b], tiles[t] = tiles[t], 0
        b = t
    return start, Board(tiles, width, height), tuple(moves)


def test_cli_maps_an_invalid_solution_to_an_internal_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A solver bug (here: the kernel's cells dropped) never prints an answer: exit 4, 'internal error'."""
    from npuzzle.cli import main
    from npuzzle.search import solver

    monkeypatch.setattr(solver, "moves_from_cells", lambda board, cells, metric="single": ())
    code = main(["solve", "1 2 3 / 4 5 6 / 0 7 8", "--algorithm", "astar"])
    captured = capsys.readouterr()
    assert code == 4
    assert "internal error, please report it" in captured.err
    assert "moves" not in captured.out


def test_moves_from_cells_is_linear_and_checked() -> None:
    """Kernels' cells become labels in O(cells + moves) (it was a Board per move), illegal steps raise."""
    from npuzzle.canonical import moves_from_cells
    from npuzzle.errors import IllegalMoveError

    start, _, moves = _fast_walk(100, 100, 100_000)
    cells = []
    blank_cell = start.blank_cell
    position = {label: cell for cell, label in enumerate(start.tiles)}
    for label in moves:  # the cell each moved tile came from is where the blank goes
        cell = position[label]
        position[label], blank_cell = blank_cell, cell
        cells.append(cell)
    t0 = time.process_time()
    assert moves_from_cells(start, cells) == moves
    assert time.process_time() - t0 < 1.5
    board = classic(3, 3)
    assert moves_from_cells(board, [7, 4]) == (8, 5)
    assert moves_from_cells(board, [6], "multi") == (7,)
    for bad in ([4], [9], [-1], [8]):
        with pytest.raises(IllegalMoveError):
            moves_from_cells(board, bad)


def test_a_lower_bound_equal_to_the_length_makes_the_answer_optimal() -> None:
    """QA: constructive said "at most 2, at least 2: not proven optimal" with optimal false."""
    start, goal_board = Board([1, 2, 0, 3, 5, 4], 2, 3), classic(2, 3)
    assert bfs_distances(goal_board)[start.tiles] == 2
    proven = Solution(start, goal_board, (3, 4), False, "constructive", None, lower_bound=2)
    assert proven.optimal and proven.suboptimality == 1.0
    unproven = Solution(start, goal_board, (3, 4), False, "constructive", None, lower_bound=1)
    assert not unproven.optimal and unproven.suboptimality is None
    assert not Solution(start, goal_board, (3, 4), False, "constructive", None).optimal  # no bound: no proof


def test_every_method_reports_optimal_when_its_bound_meets_its_length() -> None:
    from npuzzle.search import solve

    goal_board = classic(2, 3)
    distances = bfs_distances(goal_board)
    for tiles, depth in sorted(distances.items())[::37]:
        start = Board(list(tiles), 2, 3)
        for algorithm in ("constructive", "greedy", "wastar"):
            s = solve(start, goal_board, algorithm=algorithm)
            assert s.replay() == goal_board and s.length >= depth
            assert s.lower_bound is not None and s.lower_bound <= depth
            assert s.optimal is (s.length == s.lower_bound)
            if s.optimal:
                assert s.length == depth


@pytest.mark.parametrize("seed", range(5))
def test_with_claims_is_replace_without_a_second_replay(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    import npuzzle.solution as module

    start, end, moves = random_walk(3, 3, 12, seed=seed)
    solution = Solution(start, end, moves, False, "walk", None)
    changes = {"lower_bound": 2, "suboptimality": 3.5, "notes": ("a note",), "heuristic": "manhattan"}
    expected = replace(solution, **changes)
    replays = []
    monkeypatch.setattr(module, "walk", lambda *a, **k: replays.append(a) or walk(*a, **k))
    assert solution.with_claims(**changes) == expected and not replays
    assert solution.with_claims(lower_bound=solution.length).optimal  # a bound reached makes it optimal, as ever


def test_with_claims_still_refuses_claims_that_cannot_hold() -> None:
    start, end, moves = random_walk(3, 3, 12)
    solution = Solution(start, end, moves, False, "walk", None)
    with pytest.raises(InvalidSolutionError, match="lower bound"):
        solution.with_claims(lower_bound=solution.length + 1)
    with pytest.raises(InvalidSolutionError, match="suboptimality"):
        solution.with_claims(suboptimality=0.5)
    with pytest.raises(TypeError, match="moves"):
        solution.with_claims(moves=())
    with pytest.raises(TypeError, match="colour"):
        solution.with_claims(colour="red")
