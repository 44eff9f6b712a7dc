"""Multi-tile pattern databases (:mod:`npuzzle._kernels.multi_pdb`, heuristic ``multi-pdb``).

The numba builder against the pure-Python reference byte for byte; the heuristic admissible and consistent
in the multi-tile metric on every 3×3 state (classic and spiral goals) and on samples of 2×5 and 3×4; the
solver, compare and CLI defaults. Multi-tile IDA* with it on every 3×3 state is in test_kernels.py.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from interpreters import run_python
from npuzzle import ranking
from npuzzle._kernels import bfs as kb
from npuzzle._kernels import heuristics as kh
from npuzzle._kernels import multi_pdb as mp
from npuzzle._kernels.moves import MULTI, SINGLE, neighbour_table
from npuzzle._kernels.rank import factorials, rank_batch
from npuzzle.board import Board
from npuzzle.cli import app
from npuzzle.errors import ProblemTooLargeError
from npuzzle.generate import walk
from npuzzle.goals import classic, goal
from npuzzle.heuristics import multi_pdb as ref
from npuzzle.search import solver
from npuzzle.search.compare import default_combos
from oracle import bfs_distances, canonical_arrays
from test_kernels import GOALS_3X3, N_3X3, _neighbour_states

# (width, height, blank_home): every board of the oracle but 2x5, two goals each
SMALL_BOARDS = [(2, 2, 3), (2, 2, 0), (2, 3, 5), (3, 2, 0), (3, 2, 4), (3, 3, 8), (3, 3, 4)]


def _h(states: np.ndarray, width: int, height: int, blank_home: int) -> np.ndarray:
    table = kh.table_for(kh.MULTI_PDB, width, height, blank_home)
    return kh.heuristic_batch(np.ascontiguousarray(states), kh.MULTI_PDB, width, height, blank_home, table)


def _table_rows(packed: np.ndarray, n_cells: int, patterns: tuple[tuple[int, ...], ...]) -> list[bytes]:
    return [
        packed[p, n_cells : n_cells + mp.n_entries(n_cells, len(pattern))].tobytes()
        for p, pattern in enumerate(patterns)
    ]


@pytest.mark.parametrize(("width", "height", "blank_home"), SMALL_BOARDS)
def test_default_tables_equal_the_reference_byte_for_byte(width: int, height: int, blank_home: int) -> None:
    """The default patterns' tables (3×3: ~1.3 s a pattern for the reference) and the packed header."""
    n = width * height
    patterns = mp.default_patterns(width, height, blank_home)
    assert patterns is not None
    packed = mp.multi_pdb_table(width, height, blank_home)
    assert _table_rows(packed, n, patterns) == [
        ref.table_bytes(width, height, blank_home, p) for p in patterns
    ]
    for p, pattern in enumerate(patterns):
        index = {t: j for j, t in enumerate(pattern)} | {blank_home: len(pattern)}
        assert packed[p, :n].tolist() == [index.get(t, -1) for t in range(n)]
        assert np.all(packed[p, n + mp.n_entries(n, len(pattern)) :] == mp.UNREACHED)


@st.composite
def board_and_pattern(draw: st.DrawFn) -> tuple[int, int, int, tuple[int, ...]]:
    width, height = draw(st.sampled_from([(2, 2), (2, 3), (3, 2)]))
    n = width * height
    blank_home = draw(st.integers(0, n - 1))
    tiles = [t for t in range(n) if t != blank_home]
    k = draw(st.integers(1, n - 1))
    return width, height, blank_home, tuple(draw(st.permutations(tiles))[:k])


@settings(max_examples=60, deadline=None)
@given(board_and_pattern())
def test_any_pattern_table_equals_the_reference(case: tuple[int, int, int, tuple[int, ...]]) -> None:
    """Any tiles in any order, up to every tile: then only half the abstract states are reachable (parity)."""
    width, height, blank_home, pattern = case
    n = width * height
    row = _table_rows(mp.pack_tables(width, height, blank_home, (pattern,)), n, (pattern,))[0]
    assert row == ref.table_bytes(width, height, blank_home, pattern)
    reached = sum(b != 0xFF for b in row)
    assert reached == (len(row) if len(pattern) <= n - 3 else len(row) // 2)


def test_pack_tables_refuses_bad_patterns() -> None:
    with pytest.raises(ValueError, match="distinct tiles"):
        mp.pack_tables(3, 3, 8, ((0, 0, 1),))
    with pytest.raises(ValueError, match="other than 8"):
        mp.pack_tables(3, 3, 8, ((8,),))
    with pytest.raises(ValueError, match="exceed"):
        mp.pack_tables(4, 4, 15, ((0, 1, 2, 3, 4, 5),))
    with pytest.raises(ValueError, match="no multi-tile pattern database fits a 5x5"):
        mp.multi_pdb_table(5, 5, 24)


@pytest.mark.parametrize(("width", "height"), [(w, h) for w in range(2, 7) for h in range(2, 7)])
def test_default_patterns_cover_every_tile_and_fit(width: int, height: int) -> None:
    n = width * height
    for blank_home in (0, n - 1, n // 2):
        patterns = mp.default_patterns(width, height, blank_home)
        assert (patterns is not None) == mp.fits(width, height) == (n <= 16)
        if patterns is None:
            continue
        k = len(patterns[0])
        assert len(patterns) >= 2 and all(len(p) == k for p in patterns)
        assert set().union(*patterns) == set(range(n)) - {blank_home}  # so h == 0 only at the goal
        assert k <= n - 3 and (k >= mp.MIN_PATTERN_TILES or k == n - 3)
        assert sum(mp.n_entries(n, len(p)) for p in patterns) <= mp.MAX_ENTRIES


def test_kernel_heuristic_equals_the_reference() -> None:
    for width, height, blank_home in SMALL_BOARDS:
        states = canonical_arrays(width, height, blank_home, "multi")[0]
        idx = np.random.default_rng(blank_home).choice(len(states), min(len(states), 2000), replace=False)
        patterns = mp.default_patterns(width, height, blank_home)
        assert patterns is not None
        h = _h(states[idx], width, height, blank_home)
        assert h.tolist() == [
            ref.multi_pdb(states[i].tolist(), width, height, blank_home, patterns) for i in idx
        ]


@pytest.mark.parametrize("goal_name", GOALS_3X3)
def test_admissible_and_consistent_on_every_3x3_state(goal_name: str) -> None:
    """Against the multi-tile BFS distances (and the single-tile ones, which are larger): ``h <= d``, ``h == 0``
    only at the goal, ``h`` drops by at most 1 over every multi-tile move, never below crossings."""
    blank_home = GOALS_3X3[goal_name]
    states, depths = canonical_arrays(3, 3, blank_home, "multi")
    assert len(states) == N_3X3
    h = _h(states, 3, 3, blank_home)
    assert np.all(h <= depths) and np.all((h == 0) == (depths == 0))
    crossings = kh.heuristic_batch(
        states, kh.CROSSINGS, 3, 3, blank_home, kh.table_for(kh.CROSSINGS, 3, 3, 0)
    )
    assert np.all(h >= crossings) and h.mean() > crossings.mean() + 6  # 15.9 against 8.3 (classic goal)
    for idx, nxt in _neighbour_states(states, blank_home, 3, 3, MULTI):
        assert np.all(np.abs(h[idx] - _h(nxt, 3, 3, blank_home)) <= 1)
    single_states, single_depths = canonical_arrays(3, 3, blank_home, "single")
    assert np.all(_h(single_states, 3, 3, blank_home) <= single_depths)


def test_admissible_and_consistent_on_sampled_2x5_and_3x4() -> None:
    rng = np.random.default_rng(11)
    # 2x5 (blank home 9): exact multi-tile distances of every state from the kernel BFS depth table
    nbrs, n_nbrs, _ = neighbour_table(5, 2, MULTI)
    depths, _ = kb.depth_table(9, 5, 10, nbrs, n_nbrs, np.uint8)
    sample = np.array(
        [ranking.unrank_state(int(i), 10, 9, 5) for i in rng.choice(len(depths), 20_000)], dtype=np.uint8
    )
    h = _h(sample, 5, 2, 9)
    assert np.all(h <= depths[rank_batch(sample, 9, factorials(9))])
    for idx, nxt in _neighbour_states(sample, 9, 5, 2, MULTI):
        assert np.all(np.abs(h[idx] - _h(nxt, 5, 2, 9)) <= 1)
    # 3x4 (blank home 0, the blank-first layout): multi-tile bidirectional BFS distances of 12 states
    nbrs, n_nbrs, _ = neighbour_table(4, 3, MULTI)
    total = math.factorial(12) // 2
    sample = np.array([ranking.unrank_state(int(i), 12, 0, 4) for i in rng.choice(total, 12)], dtype=np.uint8)
    h = _h(sample, 4, 3, 0)
    for state, bound in zip(sample, h, strict=True):
        status, cells, _ = kb.bfs_path(state.copy(), 0, 4, nbrs, n_nbrs, True)
        assert status == "found" and bound <= len(cells)
    sample = np.array(
        [ranking.unrank_state(int(i), 12, 0, 4) for i in rng.choice(total, 5000)], dtype=np.uint8
    )
    h = _h(sample, 4, 3, 0)
    for idx, nxt in _neighbour_states(sample, 0, 4, 3, MULTI):
        assert np.all(np.abs(h[idx] - _h(nxt, 4, 3, 0)) <= 1)
    for idx, nxt in _neighbour_states(sample, 0, 4, 3, SINGLE):
        assert np.all(np.abs(h[idx] - _h(nxt, 4, 3, 0)) <= 1)


def test_solver_defaults_and_limits() -> None:
    for width, height in ((3, 3), (4, 3), (4, 4), (2, 8)):
        board = classic(width, height)
        assert solver.choose_algorithm(board, "idastar", metric="multi").heuristic == "multi-pdb"
        assert solver.choose_algorithm(board, "astar", metric="multi").heuristic == "crossings"
    assert solver.choose_algorithm(classic(3, 3), metric="multi") == solver.Plan("idastar", "multi-pdb", None)
    assert solver.choose_algorithm(classic(5, 5), metric="multi").heuristic == "crossings"
    assert solver.choose_algorithm(classic(3, 3), metric="single").heuristic == "linear-conflict"
    with pytest.raises(ProblemTooLargeError, match="multi-pdb"):
        solver.solve(classic(5, 4).move(19), algorithm="idastar", heuristic="multi-pdb", metric="multi")
    assert ("idastar", "multi-pdb") in default_combos(classic(3, 3), metric="multi")
    assert ("idastar", "multi-pdb") not in default_combos(classic(5, 5), metric="multi")


def test_every_algorithm_with_multi_pdb_on_3x3_boards() -> None:
    """Exact with IDA* and A* in both metrics (it is admissible in both), bounded with weighted A*."""
    for goal_name, metric in (("classic", "multi"), ("spiral", "multi"), ("spiral", "single")):
        target = goal(goal_name, 3, 3)
        distances = bfs_distances(target, metric)
        rng = np.random.default_rng(5)
        tiles = sorted(distances)
        for i in rng.choice(len(tiles), 15, replace=False):
            start = Board(tiles[i], 3, 3)
            for algorithm in ("idastar", "astar"):
                s = solver.solve(start, target, algorithm=algorithm, heuristic="multi-pdb", metric=metric)
                assert s.length == distances[tiles[i]] and s.replay() == target and s.heuristic == "multi-pdb"
            s = solver.solve(
                start, target, algorithm="wastar", weight=2, heuristic="multi-pdb", metric=metric
            )
            assert s.replay() == target and s.length <= 2 * distances[tiles[i]]


def test_4x4_multi_metric_idastar_agrees_with_crossings() -> None:
    """The 4×4 default tables (four 4-tile patterns, ~1 s to build) against the crossings bound on a 50-move
    walk (19 slides: 15,428 nodes generated against 802,406)."""
    start = walk(classic(4, 4), 50, seed=1)
    fast = solver.solve(start, algorithm="idastar", metric="multi")
    slow = solver.solve(start, algorithm="idastar", heuristic="crossings", metric="multi")
    assert fast.heuristic == "multi-pdb" and fast.replay() == classic(4, 4)
    assert fast.length == slow.length == 19 and fast.stats.generated < slow.stats.generated / 10


def test_cli_heuristic_option() -> None:
    runner = CliRunner()
    args = ["solve", "3 5 1 / 2 4 6 / 8 7 9", "--blank", "9", "--metric", "multi", "--json"]
    result = runner.invoke(app, [*args, "--heuristic", "multi-pdb"])
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["heuristic"] == "multi-pdb" and data["length"] == 17
    assert json.loads(runner.invoke(app, args).stdout)["heuristic"] == "multi-pdb"  # IDA*'s default there
    big = " ".join(map(str, [*range(1, 25), 0]))
    result = runner.invoke(app, ["solve", big, "--metric", "multi", "-a", "idastar", "-H", "multi-pdb"])
    assert result.exit_code == 2 and "multi-pdb" in result.output


NO_JIT_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from oracle import canonical_distances
from npuzzle._kernels import multi_pdb as mp
from npuzzle.heuristics.multi_pdb import table_bytes
from npuzzle.search.solver import Plan, run_canonical
out = {}
for w, h, blank_home in ((3, 2, 5), (2, 3, 0)):
    n = w * h
    packed = mp.multi_pdb_table(w, h, blank_home)
    for p, pattern in enumerate(mp.default_patterns(w, h, blank_home)):
        row = packed[p, n : n + mp.n_entries(n, len(pattern))].tobytes()
        out[f"{w}x{h} table {pattern}"] = row == table_bytes(w, h, blank_home, pattern)
    for metric in ("single", "multi"):
        dist = canonical_distances(w, h, blank_home, metric)
        for s in sorted(dist)[:: len(dist) // 12]:
            for algorithm in ("idastar", "astar"):
                cells, _ = run_canonical(list(s), w, h, blank_home, Plan(algorithm, "multi-pdb", None), metric)
                out[f"{w}x{h} {algorithm} {metric} {s}"] = [len(cells) == dist[s], cells]
print(json.dumps(out))
"""


def test_kernels_agree_with_numba_disabled() -> None:
    """The builder and the searches using ``multi-pdb`` run as plain Python with NUMBA_DISABLE_JIT=1: the
    reference's tables, optimal lengths, and the same moves as compiled (~5 s on 2×3 and 3×2)."""
    results = []
    for jit in (False, True):
        results.append(json.loads(run_python(NO_JIT_SCRIPT, str(Path(__file__).parent), jit=jit)))
    assert results[0] == results[1] and len(results[0]) > 90
    assert all(v is True or v[0] is True for v in results[0].values())
