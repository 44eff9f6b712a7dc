"""The compiled replay of long single-tile answers (_kernels/replay.py) against the pure-Python replay, and
Solution's use of it (long answers checked as strictly as short ones)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import npuzzle.solution as solution_module
from interpreters import run_python
from npuzzle.board import Board, neighbour_cells
from npuzzle.errors import IllegalMoveError, InvalidSolutionError
from npuzzle.generate import shuffle
from npuzzle.goals import goal
from npuzzle.search.reduction import quick_solution
from npuzzle.solution import Solution, replay_steps


def _random_moves(board: Board, n_moves: int, rng: random.Random) -> list[int]:
    tiles = list(board.tiles)
    blank = tiles.index(board.blank)
    moves = []
    for _ in range(n_moves):
        cell = rng.choice(neighbour_cells(blank, board.width, board.height))
        moves.append(tiles[cell])
        tiles[blank], tiles[cell] = tiles[cell], tiles[blank]
        blank = cell
    return moves


@pytest.mark.parametrize("layout,width,height", [("classic", 3, 3), ("spiral", 5, 4), ("blank-first", 2, 6)])
def test_kernel_matches_the_python_replay(layout: str, width: int, height: int) -> None:
    from npuzzle._kernels.replay import replay_single

    rng = random.Random(width * height)
    board = shuffle(goal(layout, width, height), seed=1)
    for trial in range(30):
        moves = _random_moves(board, rng.randrange(0, 200), rng)
        if trial % 3 == 1 and moves:  # spoil one move: a label not next to the blank, or the blank itself
            moves[rng.randrange(len(moves))] = rng.choice(board.tiles)
        tiles = list(board.tiles)
        letters: list[str] = []
        bad = -1
        try:
            for letter in replay_steps(tiles, width, board.blank, moves, False):
                letters.append(letter)
        except IllegalMoveError:
            bad = len(letters)
        array = np.array(board.tiles, dtype=np.int64)
        out = np.zeros(len(moves), dtype=np.uint8)
        got = replay_single(array, width, board.blank, np.array(moves, dtype=np.int64), out)
        assert got == bad
        assert array.tolist() == tiles
        done = len(moves) if bad < 0 else bad
        assert out[:done].tobytes().decode() == "".join(letters)


def test_long_answers_use_the_kernel_and_stay_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    target = goal("snake", 12, 9)
    board = shuffle(target, seed=2)
    s = quick_solution(board, target)
    python_directions = s.directions()
    monkeypatch.setattr(solution_module, "KERNEL_REPLAY_MOVES", 10)
    monkeypatch.setattr(solution_module, "KERNEL_IMPORT_MOVES", 10)
    fast = Solution(board, target, s.moves, False, "test", None)
    assert fast.directions() == python_directions
    assert fast.replay() == target
    blank = board.tiles.index(board.blank)
    far = next(
        label
        for cell, label in enumerate(board.tiles)
        if abs(cell // 12 - blank // 12) + abs(cell % 12 - blank % 12) > 1
    )
    with pytest.raises(InvalidSolutionError, match=f"move 1 \\(tile {far}\\) is not next to the blank"):
        Solution(board, target, (far, *s.moves[1:]), False, "test", None)
    with pytest.raises(InvalidSolutionError, match="do not reach the goal"):
        Solution(board, target, s.moves[:-2], False, "test", None)


def test_kernel_with_the_jit_disabled() -> None:
    code = (
        "import numpy as np\n"
        "from npuzzle._kernels.replay import replay_single\n"
        "tiles = np.array([1, 2, 3, 4, 0, 5, 7, 8, 6], dtype=np.int64)\n"
        "out = np.zeros(3, dtype=np.uint8)\n"
        "print(replay_single(tiles, 3, 0, np.array([5, 6, 1], dtype=np.int64), out), tiles.tolist(),"
        " out[:2].tobytes().decode())\n"
    )
    assert run_python(code, jit=False) == run_python(code, jit=True) == "2 [1, 2, 3, 4, 5, 6, 7, 8, 0] LU\n"
