"""Generation: solvable boards for every method, uniform shuffles, determinism, kernels = references."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from interpreters import run_python
from npuzzle import generate as gen
from npuzzle._kernels import generate as kernels
from npuzzle.board import Board
from npuzzle.goals import goal
from npuzzle.solvability import is_solvable
from strategies import goals

METHODS = ("shuffle", "walk", "tile-walk")
N_SOLVABLE_2X3 = 360  # 6!/2
SAMPLES_PER_STATE = 200  # 72,000 draws: a chi-square over 359 degrees of freedom with ~200 per cell
P_FLOOR = 1e-4  # a fixed seed makes the p-value fixed; this only catches a real bias

LAYOUT_GOALS = [
    goal("classic", 4, 4),
    goal("blank-first", 3, 3),
    goal("snake", 5, 3),
    goal("spiral", 4, 5),
    goal("column", 2, 6),
    goal("blank-at", 3, 4, cell=5),
    goal("random", 6, 2, seed=11),
    Board([0, 1, 2, 3, 4, 5, 6, 7, 8], 3, 3, blank=8),  # tiles 0..7, the hole is 8
    Board([-4, 17, 3, 99, 0, 5, 12, -1], 4, 2, blank=99),  # arbitrary labels
    goal("classic", 2, 2),
    goal("classic", 12, 12),
    goal("spiral", 7, 10, blank=70),
]


def _ids(boards: list[Board]) -> list[str]:
    return [f"{b.width}x{b.height}-{i}" for i, b in enumerate(boards)]


def _all_arrangements(target: Board) -> list[tuple[int, ...]]:
    return list(itertools.permutations(target.tiles))


# -- the random stream: kernels equal their pure-Python twins ---------------------------------------------
@pytest.mark.parametrize("value", [0, 1, 2**63, 2**64 - 1, 0x0123456789ABCDEF])
def test_mix64_matches_reference(value: int) -> None:
    assert int(kernels.mix64(np.uint64(value))) == gen._mix64(value)


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 16, 1000, 3 * 2**30 + 1, 2**32 - 1, 2**32])
def test_draw_below_matches_reference_and_stays_in_range(bound: int) -> None:
    state = 12345
    for _ in range(200):
        state_k, value_k = kernels.draw_below(np.uint64(state), bound)  # uint64 typed: see the kernel's notes
        state, value_r = gen._draw_below(state, bound)
        assert (int(state_k), int(value_k)) == (state, value_r)
        assert 0 <= value_r < bound


def test_board_state_matches_reference() -> None:
    key = gen.seed_key(2024)
    for index in (0, 1, 5, 10**6):
        assert int(kernels.board_state(np.uint64(key), index)) == gen._board_state(key, index)


def test_canonical_solvability_matches_is_solvable_on_every_2x3_state() -> None:
    target = goal("snake", 3, 2)
    seen = np.empty(6, np.bool_)
    for tiles in _all_arrangements(target):
        start = target.with_tiles(tiles)
        values = [target.cell_of(t) for t in tiles]
        expected = is_solvable(start, target)
        assert gen._is_canonical_solvable(values, 3, target.blank_cell) is expected
        assert kernels.is_canonical_solvable(np.array(values), 3, target.blank_cell, seen) is expected


@pytest.mark.parametrize("target", LAYOUT_GOALS, ids=_ids(LAYOUT_GOALS))
@pytest.mark.parametrize("method", METHODS)
def test_generate_array_rows_equal_generate_boards(target: Board, method: str) -> None:
    moves = None if method == "shuffle" else 37
    boards = gen.generate(target, method, moves=moves, count=6, seed=99)
    array = gen.generate_array(target, method, moves=moves, count=6, seed=99)
    assert array.shape == (6, target.n_cells)
    assert gen.boards_from_array(array, target) == boards


def test_walk_kernel_path_matches_reference() -> None:
    target = goal("spiral", 5, 4)
    key = gen.seed_key(8)
    for index in range(5):
        path_k = kernels.walk_path_cells(np.uint64(key), index, 5, 4, target.blank_cell, 50)
        _, path_r = gen._walk_values(gen._board_state(key, index), 5, 4, target.blank_cell, 50)
        assert path_k.tolist() == path_r


def test_kernels_agree_with_references_without_jit() -> None:
    """The kernels as plain Python (NUMBA_DISABLE_JIT=1) give the same boards.

    Interpreted, NumPy warns on the uint64 wrap-around that SplitMix64 relies on; the warning is silenced.
    """
    code = (
        "from npuzzle.goals import goal\n"
        "from npuzzle.generate import generate, generate_array, boards_from_array\n"
        "g = goal('snake', 4, 3)\n"
        "for m in ('shuffle', 'walk', 'tile-walk'):\n"
        "    mv = None if m == 'shuffle' else 9\n"
        "    a = generate_array(g, m, moves=mv, count=3, seed=4)\n"
        "    assert boards_from_array(a, g) == generate(g, m, moves=mv, count=3, seed=4), m\n"
    )
    run_python(code, jit=False, timeout=120)


# -- every generated board is solvable ---------------------------------------------------------------------
@pytest.mark.parametrize("target", LAYOUT_GOALS, ids=_ids(LAYOUT_GOALS))
@pytest.mark.parametrize("method", METHODS)
def test_every_generated_board_is_solvable(target: Board, method: str) -> None:
    for board in gen.generate(target, method, count=5, seed=3):
        assert is_solvable(board, target)
        assert board.labels == target.labels and board.blank == target.blank
    for row in gen.generate_array(target, method, count=200, seed=4):
        assert is_solvable(target.with_tiles(int(v) for v in row), target)


@pytest.mark.parametrize("width,height", [(w, h) for w in range(2, 13) for h in (2, 3, 7, 12)])
def test_shuffle_batch_solvable_on_every_size(width: int, height: int) -> None:
    target = goal("random", width, height, seed=width * 100 + height)
    array = gen.generate_array(target, count=30, seed=width + height)
    for row in array:
        assert is_solvable(target.with_tiles(int(v) for v in row), target)


@settings(max_examples=40, deadline=None)
@given(target=goals(max_side=8), method=st.sampled_from(METHODS), seed=st.integers(0, 2**64 - 1))
def test_property_generated_boards_are_solvable(target: Board, method: str, seed: int) -> None:
    moves = None if method == "shuffle" else 30
    boards = gen.generate(target, method, moves=moves, count=2, seed=seed)
    assert all(is_solvable(b, target) for b in boards)
    array = gen.generate_array(target, method, moves=moves, count=2, seed=seed)
    assert gen.boards_from_array(array, target) == boards


# -- shuffle is uniform ------------------------------------------------------------------------------------
def _solvable_states(target: Board) -> set[tuple[int, ...]]:
    return {t for t in _all_arrangements(target) if is_solvable(target.with_tiles(t), target)}


@pytest.mark.parametrize(
    "target", [goal("classic", 3, 2), goal("blank-first", 2, 3), goal("random", 3, 2, seed=5)]
)
def test_shuffle_is_uniform_over_solvable_states(target: Board) -> None:
    solvable = _solvable_states(target)
    assert len(solvable) == N_SOLVABLE_2X3
    n_samples = N_SOLVABLE_2X3 * SAMPLES_PER_STATE
    counts = Counter(map(tuple, gen.generate_array(target, count=n_samples, seed=2026).tolist()))
    assert set(counts) == solvable  # every solvable state appears, no unsolvable one does
    assert chisquare([counts[s] for s in sorted(solvable)]).pvalue > P_FLOOR


def test_shuffle_pure_python_is_uniform() -> None:
    """The reference behind :func:`generate` (which only adds the labels) on 72,000 draws."""
    target = goal("snake", 2, 3, blank=7)
    solvable = _solvable_states(target)
    key = gen.seed_key(77)
    counts = Counter(
        tuple(target.tiles[v] for v in gen._shuffle_values(gen._board_state(key, k), 6, 2, target.blank_cell))
        for k in range(N_SOLVABLE_2X3 * SAMPLES_PER_STATE)
    )
    assert set(counts) == solvable
    assert chisquare([counts[s] for s in sorted(solvable)]).pvalue > P_FLOOR


def test_shuffle_4x4_marginals_are_uniform() -> None:
    """Each tile is equally likely in each cell (a 16×16 table from 160,000 batch boards)."""
    target = goal("spiral", 4, 4)
    array = gen.generate_array(target, count=160_000, seed=1)
    for label in (0, 1, 15):
        cells = np.argmax(array == label, axis=1)
        assert chisquare(np.bincount(cells, minlength=16)).pvalue > P_FLOOR


# -- determinism -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
def test_same_seed_same_boards_and_prefix_stable(method: str) -> None:
    target = goal("classic", 5, 5)
    first = gen.generate(target, method, count=4, seed=123)
    assert gen.generate(target, method, count=4, seed=123) == first
    assert gen.generate(target, method, count=2, seed=123) == first[:2]  # board k ignores count
    assert gen.generate(target, method, count=4, seed=124) != first
    array = gen.generate_array(target, method, count=4, seed=123)
    assert np.array_equal(array, gen.generate_array(target, method, count=4, seed=123))


def test_single_board_functions_are_board_zero_of_generate() -> None:
    target = goal("column", 4, 3)
    assert gen.shuffle(target, seed=5) == gen.generate(target, "shuffle", count=3, seed=5)[0]
    assert gen.walk(target, 20, seed=5) == gen.generate(target, "walk", moves=20, seed=5)[0]
    assert gen.tile_walk(target, 9, seed=5) == gen.generate(target, "tile-walk", moves=9, seed=5)[0]


def test_seed_none_draws_fresh_solvable_boards() -> None:
    target = goal("classic", 6, 6)
    boards = [gen.shuffle(target) for _ in range(3)]
    assert all(is_solvable(b, target) for b in boards)
    assert len(set(boards)) == 3  # 36!/2 states: a repeat means the seed was not fresh


def test_big_seeds_are_distinct() -> None:
    target = goal("classic", 4, 4)
    seeds = [0, 1, 2**64 - 1, 2**64, 2**200 + 3]
    assert len({gen.shuffle(target, seed=s) for s in seeds}) == len(seeds)


# -- walk and tile-walk ------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(target=goals(max_side=6), moves=st.integers(0, 80), seed=st.integers(0, 2**32))
def test_walk_never_undoes_the_previous_move(target: Board, moves: int, seed: int) -> None:
    path = gen.walk_path(target, moves, seed)
    assert len(path) == moves
    assert all(a != b for a, b in itertools.pairwise(path))  # sliding the same tile twice = undoing it
    assert target.apply(path) == gen.walk(target, moves, seed)


def test_walk_zero_moves_is_the_goal() -> None:
    target = goal("spiral", 4, 4)
    assert gen.walk(target, 0, seed=1) == target
    assert gen.generate_array(target, "walk", moves=0, count=2, seed=1).tolist() == [list(target.tiles)] * 2


def test_walk_on_2x2_goes_round_the_cycle() -> None:
    """On a 2×2 each move after the first is forced: the blank circles, so 12 moves return to the goal."""
    target = goal("classic", 2, 2)
    assert all(gen.walk(target, 12, seed=s) == target for s in range(5))


def test_tile_walk_zero_repetitions_is_the_goal() -> None:
    target = goal("blank-first", 5, 4)
    assert gen.tile_walk(target, 0, seed=3) == target
    assert (
        gen.generate_array(target, "tile-walk", moves=0, count=3, seed=3).tolist() == [list(target.tiles)] * 3
    )


@pytest.mark.parametrize("seed", range(8))
def test_tile_walk_one_repetition_walks_vertically_then_horizontally(seed: int) -> None:
    """The article's example: blank at 15's right, tile 6 chosen: up twice, then left twice."""
    target = goal("classic", 4, 4)
    board = gen.tile_walk(target, 1, seed=seed)
    target_row, target_col = divmod(board.blank_cell, 4)
    assert board.blank_cell != target.blank_cell
    expected = target
    while expected.blank_cell // 4 != target_row:
        expected = expected.move_direction("D" if expected.blank_cell // 4 > target_row else "U")
    while expected.blank_cell % 4 != target_col:
        expected = expected.move_direction("R" if expected.blank_cell % 4 > target_col else "L")
    assert board == expected


def test_tile_walk_picks_every_tile() -> None:
    """After one repetition the blank stands where the chosen tile was: every other cell occurs."""
    target = goal("classic", 3, 3)
    array = gen.generate_array(target, "tile-walk", moves=1, count=9_000, seed=6)
    cells = Counter(np.argmax(array == 0, axis=1).tolist())
    assert set(cells) == set(range(8))
    assert chisquare([cells[c] for c in range(8)]).pvalue > P_FLOOR


# -- arguments and errors ----------------------------------------------------------------------------------
def test_defaults() -> None:
    target = goal("classic", 4, 4)
    walk_default = gen.generate(target, "walk", seed=2)
    assert walk_default == gen.generate(target, "walk", moves=gen.DEFAULT_WALK_MOVES_PER_CELL * 16, seed=2)
    assert gen.generate(target, "tile-walk", seed=2) == [gen.tile_walk(target, 150, seed=2)]
    assert gen.generate(target, "tile_walk", moves=3, seed=2) == gen.generate(
        target, "tile-walk", moves=3, seed=2
    )


def test_count_zero() -> None:
    target = goal("classic", 3, 3)
    assert gen.generate(target, count=0) == []
    assert gen.generate_array(target, "walk", count=0, moves=5).shape == (0, 9)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"method": "scramble"}, "shuffle, walk, tile-walk"),
        ({"method": "walk", "moves": -1}, "moves"),
        ({"method": "tile-walk", "moves": 2.5}, "moves"),
        ({"method": "shuffle", "moves": 10}, "walk and tile-walk"),
        ({"count": -3}, "count"),
        ({"seed": -1}, "seed"),
        ({"seed": "abc"}, "seed"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs: dict[str, object], match: str) -> None:
    target = goal("classic", 3, 3)
    with pytest.raises(ValueError, match=match):
        gen.generate(target, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=match):
        gen.generate_array(target, **{"count": 1, **kwargs})  # type: ignore[arg-type]


def test_label_dtype_and_dtype_override() -> None:
    assert gen.label_dtype(goal("classic", 4, 4)) == np.int8
    assert gen.label_dtype(goal("classic", 12, 12)) == np.int16
    assert gen.label_dtype(Board([-200, 1, 2, 0], 2, 2)) == np.int16
    target = goal("classic", 3, 3)
    wide = gen.generate_array(target, count=4, seed=1, dtype=np.int64)
    assert wide.dtype == np.int64
    assert np.array_equal(wide, gen.generate_array(target, count=4, seed=1))
    with pytest.raises(ValueError, match="cannot hold"):
        gen.generate_array(goal("classic", 12, 12), count=1, dtype=np.int8)


def test_importing_generate_does_not_import_numba() -> None:
    code = "import sys, npuzzle.generate; sys.exit('numba' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False, timeout=60).returncode == 0


def test_iter_generate_streams_the_boards_of_generate() -> None:
    g = goal("classic", 4, 4)
    stream = gen.iter_generate(g, "walk", moves=30, seed=3)  # count=None: without end
    assert list(itertools.islice(stream, 6)) == gen.generate(g, "walk", moves=30, count=6, seed=3)
    assert list(gen.iter_generate(g, count=4, seed=2)) == gen.generate(g, count=4, seed=2)


def test_walk_lengths_above_the_caps_are_refused_at_once() -> None:
    from npuzzle.errors import ProblemTooLargeError

    g = goal("classic", 4, 4)
    with pytest.raises(ProblemTooLargeError, match="above the limit 10,000,000"):
        gen.iter_generate(g, "walk", moves=10**14)  # refused before any board is made
    with pytest.raises(ProblemTooLargeError, match=r"repetitions\) 1,000,001 is above"):
        gen.generate(g, "tile-walk", moves=gen.MAX_TILE_WALK_REPETITIONS + 1)
    assert gen.walk(goal("classic", 2, 2), gen.MAX_WALK_MOVES // 10**6, seed=1).n_cells == 4


def test_cli_generate_bounds_and_streaming(capsys: pytest.CaptureFixture[str]) -> None:
    from npuzzle.cli import main
    from npuzzle.notation import parse_board

    assert main(["generate", "--size", "4x4", "--method", "walk", "--moves", str(10**14)]) == 2
    assert "above the limit" in capsys.readouterr().err
    assert main(["generate", "--count", str(10**12), "--json"]) == 2
    assert "leave out --json to stream" in capsys.readouterr().err
    # an enormous --count streams one board per line until --max-seconds, then exit 3 with the count made
    assert main(["generate", "--size", "3x3", "--count", str(10**12), "--max-seconds", "0.3", "--seed", "1"]) == 3
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) > 10 and "boards made" in captured.err and f"{len(lines)} of 1000000000000" in captured.err
    target = goal("classic", 3, 3)
    assert [parse_board(x) for x in lines[:5]] == gen.generate(target, count=5, seed=1)
    assert main(["generate", "--count", "2", "--max-seconds", "0"]) == 2
    assert main(["generate", "--size", "3x3", "--length", "20", "--jobs", "-1"]) == 2
