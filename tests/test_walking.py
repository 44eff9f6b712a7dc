"""Walking distance (issue 17): the pure-Python reference admissible and consistent against exact BFS on every
state of small boards, never above the optimal length of Korf's 100, stronger than Manhattan over them; the
inversion distance too; the kernels' tables against the pure-Python build, the incremental IDA* against
from-scratch values at every node and against BFS / Korf's lengths, also with the JIT off; by name in solve,
compare and the generic search API."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from interpreters import run_python
from npuzzle._kernels import bfs as kb
from npuzzle._kernels import heuristics as kh
from npuzzle._kernels import idastar as ki
from npuzzle._kernels import walking as kw
from npuzzle._kernels.moves import SINGLE, neighbour_table, replay_cells
from npuzzle.board import Board
from npuzzle.cli import app
from npuzzle.errors import ProblemTooLargeError
from npuzzle.goals import classic
from npuzzle.heuristics.simple import manhattan
from npuzzle.heuristics.walking import (
    inversion_distance,
    quick_bound,
    vertical_table,
    walking_bound,
    walking_distance,
)
from npuzzle.search.compare import compare, default_combos
from npuzzle.search.generic import astar, idastar
from npuzzle.search.puzzle_problem import SlidingPuzzleProblem
from npuzzle.search.solver import solve
from oracle import _slide, _targets, canonical_arrays, canonical_distances

runner = CliRunner()

KORF = Path(__file__).parent / "data" / "korf100.txt"


@pytest.mark.parametrize(
    ("width", "height", "blank_home"),
    [
        (3, 3, 8),  # ~11 s at load 10
        pytest.param(3, 3, 4, marks=pytest.mark.slow),
        pytest.param(3, 3, 0, marks=pytest.mark.slow),
        (2, 3, 5),
        (3, 2, 1),
        (4, 2, 7),
    ],
)
def test_admissible_and_consistent_on_every_state(width: int, height: int, blank_home: int) -> None:
    """Walking distance alone and ``max(walking distance, inversion distance)`` (the heuristic)."""
    dist = canonical_distances(width, height, blank_home)
    wd = {state: walking_distance(state, width, height, blank_home) for state in dist}
    inv = {state: inversion_distance(state, width, height, blank_home) for state in dist}
    assert wd[tuple(range(width * height))] == 0
    exact = stronger = 0
    for state, d in dist.items():
        h = max(wd[state], inv[state])
        assert wd[state] <= h <= d, state
        exact += wd[state] == d
        stronger += inv[state] > wd[state]
        blank = state.index(blank_home)
        for target in _targets(blank, width, height, "single"):
            nxt = _slide(state, blank, target, width)
            assert abs(wd[state] - wd[nxt]) <= 1, state
            assert abs(h - max(wd[nxt], inv[nxt])) <= 1, state
    assert exact > len(dist) // 50  # not a vacuous bound (3x3, blank home 8: 5,786 of 181,440 exact)
    assert stronger > len(dist) // 10  # the inversion distance is not a dead term (3x3: 27,194 states)


def test_pattern_count_of_the_15_puzzle() -> None:
    """24,964 vertical patterns on 4×4 (Takahashi's published count), the same for any goal row of the blank."""
    assert len(vertical_table(4, 4, 0)) == 24_964
    assert len(vertical_table(4, 4, 15)) == 24_964


def test_korf_100_never_above_optimal_and_above_manhattan_in_total() -> None:
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    total_wd = total_md = 0
    for row in rows:
        optimal, tiles = int(row[0]), [int(v) for v in row[1:]]
        wd = walking_distance(tiles, 4, 4, 0)
        assert wd <= optimal
        total_wd += wd
        total_md += manhattan(tiles, 4, 4, 0)
    assert (total_wd, total_md) == (3957, 3705)


# -- the kernels: tables against this pure-Python build, incremental IDA* against from-scratch values -------
BOARDS = [(3, 3, 8), (3, 3, 4), (3, 3, 0), (4, 4, 0), (4, 4, 15), (4, 3, 11), (3, 4, 0), (5, 2, 9), (2, 5, 6)]


def _pure_pattern(key: int, width: int, height: int, blank_home: int) -> tuple[tuple[int, ...], int]:
    counts = np.zeros(height * height, dtype=np.int64)
    blank_row = kw.decode_key(key, width, height, blank_home // width, counts)
    return tuple(int(c) for c in counts), int(blank_row)


@pytest.mark.parametrize(("width", "height", "blank_home"), BOARDS)
def test_kernel_table_equals_the_pure_python_build(width: int, height: int, blank_home: int) -> None:
    keys, dist, trans = kw.vertical_tables(width, height, blank_home)
    pure = vertical_table(width, height, blank_home)
    assert len(keys) == len(pure) and np.all(np.diff(keys) > 0)
    patterns = [_pure_pattern(int(k), width, height, blank_home) for k in keys]
    index = {p: i for i, p in enumerate(patterns)}
    assert all(pure[p] == int(dist[i]) for i, p in enumerate(patterns))
    for i, (counts, blank_row) in enumerate(patterns):  # every transition is the move it names
        for d, row in ((0, blank_row - 1), (1, blank_row + 1)):
            for g in range(height):
                j = int(trans[i * 2 * height + d * height + g])
                if not 0 <= row < height or counts[row * height + g] == 0:
                    assert j == -1
                    continue
                nxt = list(counts)
                nxt[row * height + g] -= 1
                nxt[blank_row * height + g] += 1
                assert j == index[(tuple(nxt), row)]


def test_pattern_counts_and_refusals() -> None:
    assert len(kw.vertical_tables(4, 4, 0)[0]) == 24_964
    assert kw.fits(4, 4) and kw.fits(3, 4) and kw.fits(5, 2)
    assert not kw.key_fits(3, 8)  # keys past 62 bits: refused before any building
    with pytest.raises(ValueError, match="keys do not fit"):
        kw.vertical_tables(3, 8, 23)


def _random_state(width: int, height: int, blank_home: int, rng: np.random.Generator, moves: int = 400):
    state = np.arange(width * height, dtype=np.uint8)
    nbrs, n_nbrs, _ = neighbour_table(width, height, SINGLE)
    b = blank_home
    for _ in range(moves):
        c = int(nbrs[b, rng.integers(int(n_nbrs[b]))])
        state[b], state[c] = state[c], state[b]
        b = c
    return state


def _from_scratch(state: np.ndarray, width: int, height: int, blank_home: int) -> tuple[int, ...]:
    """(vertical index, horizontal index, row inversions, column inversions) of ``state``."""
    vkeys, _, _, hkeys, _, _ = kw.cached_tables(width, height, blank_home)
    counts = np.zeros(max(width, height) ** 2, dtype=np.int64)
    return (
        int(kh.find_key(vkeys, kh.vertical_key(state, width, height, blank_home, counts, False))),
        int(kh.find_key(hkeys, kh.vertical_key(state, width, height, blank_home, counts, True))),
        int(kh.inversions(state, width, height, blank_home, False)),
        int(kh.inversions(state, width, height, blank_home, True)),
    )


def search_steps(width: int, height: int, blank_home: int, seed: int, steps: int) -> int:
    """Run the walking-distance IDA* one expansion at a time; after each, the stacked pattern indices,
    inversion counts and ``h`` of the current node equal those computed from scratch. Returns the nodes
    checked."""
    state = _random_state(width, height, blank_home, np.random.default_rng(seed))
    h0 = kw.start_h(state, width, height, blank_home)
    assert h0 == walking_bound(state.tolist(), width, height, blank_home)
    capacity = 2 * h0 + 64
    blank = int(np.flatnonzero(state == blank_home)[0])
    path, child, hvals, regs = ki.new_stack(capacity, width * height, blank, h0)
    wd_stack = kw.new_wd_stack(state, width, height, blank_home, capacity)
    checked = 0
    for _ in range(steps):
        status = kw.run_wd(state, blank_home, width, height, path, child, hvals, regs, 1, wd_stack)
        depth = int(regs[ki.R_DEPTH])
        assert tuple(int(v) for v in wd_stack[depth + 1]) == _from_scratch(state, width, height, blank_home)
        assert int(hvals[depth + 1]) == kw.start_h(state, width, height, blank_home)
        checked += 1
        if status in (ki.FOUND, ki.GROW, ki.EXHAUSTED):
            break
    return checked


@pytest.mark.parametrize(("width", "height", "blank_home"), BOARDS)
def test_incremental_values_equal_a_fresh_computation_at_every_node(
    width: int, height: int, blank_home: int
) -> None:
    assert search_steps(width, height, blank_home, seed=width * 10 + height + blank_home, steps=1_500) > 10


def _solve_wd(state: np.ndarray, width: int, height: int, blank_home: int, use_id: bool = True):  # type: ignore[no-untyped-def]
    state = state.copy()
    h0 = kw.start_h(state, width, height, blank_home, use_id)
    blank = int(np.flatnonzero(state == blank_home)[0])
    path, child, hvals, regs = ki.new_stack(128, width * height, blank, h0)
    wd_stack = kw.new_wd_stack(state, width, height, blank_home, 128)
    status = ki.FOUND if h0 == 0 else ki.BUDGET
    while status == ki.BUDGET:
        status = kw.run_wd(
            state, blank_home, width, height, path, child, hvals, regs, 1 << 30, wd_stack, use_id
        )
    assert status == ki.FOUND
    depth = int(regs[ki.R_DEPTH])
    return path[2 : depth + 2].copy(), int(regs[ki.R_GENERATED]), state


@pytest.mark.parametrize("blank_home", [8, 4])
def test_idastar_wd_is_optimal_on_sampled_3x3_states(blank_home: int) -> None:
    states, depths = canonical_arrays(3, 3, blank_home)
    for i in np.random.default_rng(blank_home).choice(len(states), 300, replace=False):
        cells, _, final = _solve_wd(states[i], 3, 3, blank_home)
        assert len(cells) == depths[i]
        assert replay_cells(states[i], cells, len(cells), blank_home, 3) and final.tolist() == list(range(9))


@pytest.mark.parametrize(("width", "height", "blank_home"), [(4, 3, 11), (3, 4, 0), (5, 2, 9)])
def test_idastar_wd_is_optimal_on_12_and_10_cell_boards(width: int, height: int, blank_home: int) -> None:
    nbrs, n_nbrs, _ = neighbour_table(width, height, SINGLE)
    rng = np.random.default_rng(width * height + blank_home)
    for _ in range(6):
        state = _random_state(width, height, blank_home, rng, 1001)
        status, exact, _ = kb.bfs_path(state.copy(), blank_home, width, nbrs, n_nbrs, True)
        cells, _, _ = _solve_wd(state, width, height, blank_home)
        assert status == "found" and len(cells) == len(exact)
        assert replay_cells(state, cells, len(cells), blank_home, width)
        assert kw.start_h(state, width, height, blank_home) <= len(exact)


def test_idastar_wd_on_easy_korf_instances_and_the_inversion_distance_pays() -> None:
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    for k in (2, 9, 79):  # 55, 46 and 42 moves
        optimal, tiles = int(rows[k - 1][0]), np.array([int(v) for v in rows[k - 1][1:]], dtype=np.uint8)
        cells, generated, final = _solve_wd(tiles, 4, 4, 0)
        assert len(cells) == optimal and final.tolist() == list(range(16))
        assert replay_cells(tiles, cells, len(cells), 0, 4)
        _, generated_wd_alone, _ = _solve_wd(tiles, 4, 4, 0, use_id=False)
        assert generated <= generated_wd_alone


def test_kernel_bound_equals_the_pure_python_one_on_korf_100() -> None:
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    states = np.array([[int(v) for v in row[1:]] for row in rows], dtype=np.uint8)
    kernel = kh.heuristic_batch(states, kh.WALKING, 4, 4, 0, kh.table_for(kh.WALKING, 4, 4, 0))
    pure = [walking_bound(s.tolist(), 4, 4, 0) for s in states]
    assert kernel.tolist() == pure
    assert sum(pure) == 3973  # walking distance alone 3957, Manhattan 3705
    assert all(p <= int(row[0]) for p, row in zip(pure, rows, strict=True))


def test_quick_bound_only_where_the_tables_are_small() -> None:
    assert quick_bound(list(range(16)), 4, 4, 15) == 0
    assert quick_bound(list(range(100)), 10, 10, 99) is None  # refused without any BFS
    state = [3, 1, 2, 0, 4, 5, 6, 7, 8]
    assert quick_bound(state, 3, 3, 8) == walking_bound(state, 3, 3, 8)


NO_JIT_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from test_walking import search_steps, _solve_wd, _random_state
from npuzzle._kernels import walking as kw
keys, dist, trans = kw.vertical_tables(3, 3, 8)
out = [search_steps(3, 3, 8, 1, 300), search_steps(4, 3, 11, 2, 200), len(keys), int(dist.sum()), int(trans.sum())]
for seed in range(3):
    cells, generated, _ = _solve_wd(_random_state(3, 3, 8, np.random.default_rng(seed)), 3, 3, 8)
    out += [len(cells), generated]
print(out)
"""


def test_walking_kernels_with_numba_disabled() -> None:
    tests_dir = str(Path(__file__).parent)
    outputs = [run_python(NO_JIT_SCRIPT, tests_dir, jit=jit, timeout=600) for jit in (False, True)]
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("[")


def test_solve_and_compare_by_name() -> None:
    start = Board.from_rows([[8, 6, 7], [2, 5, 4], [3, 0, 1]])
    for algorithm in ("idastar", "astar"):
        s = solve(start, algorithm=algorithm, heuristic="walking-distance")
        assert s.length == 31 and s.optimal and s.heuristic == "walking-distance"
        assert s.replay() == s.goal
    result = runner.invoke(app, ["solve", "8 6 7 / 2 5 4 / 3 0 1", "-a", "idastar", "-H", "walking-distance"])
    assert result.exit_code == 0 and "31 moves" in result.stdout, result.output
    rows = compare(start, combos=[("idastar", "walking-distance"), ("idastar", "manhattan")])
    assert [r.length for r in rows] == [31, 31]
    assert rows[0].generated < rows[1].generated
    assert ("idastar", "walking-distance") in default_combos(start)
    big = Board.from_rows([[*range(1 + 5 * r, 6 + 5 * r)] for r in range(4)] + [[21, 22, 23, 24, 0]])
    with pytest.raises(ProblemTooLargeError, match="walking-distance"):
        solve(big, algorithm="idastar", heuristic="walking-distance")
    result = runner.invoke(
        app, ["solve", "8 6 7 / 2 5 4 / 3 0 1", "-m", "multi", "-a", "idastar", "-H", "walking-distance"]
    )
    assert result.exit_code == 2


def test_generic_search_api_with_walking_distance() -> None:
    start = Board.from_rows([[8, 6, 7], [2, 5, 4], [3, 0, 1]])
    for search in (astar, idastar):
        result = search(SlidingPuzzleProblem(start, classic(3, 3), "walking-distance"))
        assert result.found and len(result.actions) == 31


@pytest.mark.parametrize(("width", "height", "blank_home"), [(4, 4, 0), (4, 4, 15), (3, 4, 11), (2, 5, 0)])
def test_consistent_on_sampled_bigger_boards(width: int, height: int, blank_home: int) -> None:
    """|h(s) - h(s')| <= 1 across every move from 2,000 random walks' ends (the kernel's from-scratch bound,
    itself equal to the pure-Python one), and h = 0 only at the goal."""
    rng = np.random.default_rng(width * height + blank_home)
    states = np.array([_random_state(width, height, blank_home, rng, 300) for _ in range(2_000)])
    table = kh.table_for(kh.WALKING, width, height, blank_home)
    h = kh.heuristic_batch(states, kh.WALKING, width, height, blank_home, table)
    nbrs, n_nbrs, _ = neighbour_table(width, height, SINGLE)
    for i, state in enumerate(states):
        b = int(np.flatnonzero(state == blank_home)[0])
        assert (h[i] == 0) == (state.tolist() == list(range(width * height)))
        for k in range(int(n_nbrs[b])):
            nxt = state.copy()
            c = int(nbrs[b, k])
            nxt[b], nxt[c] = nxt[c], nxt[b]
            assert abs(int(h[i]) - kw.start_h(nxt, width, height, blank_home)) <= 1
    sample = [int(i) for i in rng.choice(len(states), 20, replace=False)]
    assert all(int(h[i]) == walking_bound(states[i].tolist(), width, height, blank_home) for i in sample)
