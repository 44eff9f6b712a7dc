"""Kernels against the oracle and their pure-Python twins: heuristics, IDA*, BFS, bidirectional BFS, A*.

The exhaustive checks use every one of the 181,440 reachable 3×3 states (9!/2) for the classic goal and for
the spiral goal (blank in the centre), in both metrics where the issue asks for it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from interpreters import run_python
from npuzzle import goals, ranking
from npuzzle._kernels import astar as ka
from npuzzle._kernels import bfs as kb
from npuzzle._kernels import heuristics as kh
from npuzzle._kernels import idastar as ki
from npuzzle._kernels.moves import MULTI, SINGLE, neighbour_table, replay_cells
from npuzzle._kernels.rank import factorials, rank_batch
from npuzzle.board import Board
from npuzzle.heuristics import simple
from npuzzle.search.solver import Plan, run_canonical, solve
from oracle import bfs_distances, canonical_arrays

N_3X3 = 181_440  # 9!/2
GOALS_3X3 = {"classic": 8, "spiral": 4}  # blank_home: the goal's blank cell (spiral 3x3 ends in the centre)
KINDS = {
    "misplaced": kh.MISPLACED,
    "manhattan": kh.MANHATTAN,
    "linear-conflict": kh.LINEAR_CONFLICT,
    "crossings": kh.CROSSINGS,
    "walking-distance": kh.WALKING,
}


def _h_all(states: np.ndarray, kind: int, width: int, height: int, blank_home: int) -> np.ndarray:
    table = kh.table_for(kind, width, height, blank_home)
    return kh.heuristic_batch(np.ascontiguousarray(states), kind, width, height, blank_home, table)


def _neighbour_states(states: np.ndarray, blank_home: int, width: int, height: int, metric: int):  # type: ignore[no-untyped-def]
    """Yield ``(indices, neighbour_states)`` for every move: columns permuted so a slide happens in numpy."""
    nbrs, n_nbrs, _ = neighbour_table(width, height, metric)
    blank_cells = np.argmax(states == blank_home, axis=1)
    for b in range(width * height):
        idx = np.flatnonzero(blank_cells == b)
        for k in range(int(n_nbrs[b])):
            c = int(nbrs[b, k])
            step = (1 if c > b else -1) if c // width == b // width else (width if c > b else -width)
            perm = np.arange(width * height)
            cell = b
            while cell != c:
                perm[cell] = cell + step
                cell += step
            perm[c] = b
            yield idx, states[idx][:, perm]


@pytest.mark.parametrize("goal", GOALS_3X3)
@pytest.mark.parametrize("name", KINDS)
def test_heuristic_kernels_match_reference_and_are_admissible_and_consistent_on_3x3(
    goal: str, name: str
) -> None:
    blank_home = GOALS_3X3[goal]
    kind = KINDS[name]
    metrics = ("single", "multi") if name == "crossings" else ("single",)
    for metric in metrics:
        states, depths = canonical_arrays(3, 3, blank_home, metric)
        h = _h_all(states, kind, 3, 3, blank_home)
        assert np.all(h <= depths), f"{name} overestimates in the {metric} metric"
        assert np.all((h == 0) == (depths == 0))
        for idx, nxt in _neighbour_states(states, blank_home, 3, 3, MULTI if metric == "multi" else SINGLE):
            h2 = _h_all(nxt, kind, 3, 3, blank_home)
            assert np.all(h[idx] <= 1 + h2), f"{name} is not consistent in the {metric} metric"
    rng = np.random.default_rng(kind)
    for i in rng.choice(len(states), 3000, replace=False):
        assert h[i] == simple.HEURISTICS[name](states[i].tolist(), 3, 3, blank_home)


def test_heuristics_admissible_and_consistent_on_sampled_2x5_and_3x4() -> None:
    # 2x5: exact distances for every state from the kernel BFS (itself checked against the oracle below)
    nbrs, n_nbrs, _ = neighbour_table(5, 2)
    depths, _ = kb.depth_table(9, 5, 10, nbrs, n_nbrs, np.uint8)
    fact = factorials(9)
    rng = np.random.default_rng(7)
    sample = np.array(
        [ranking.unrank_state(int(i), 10, 9, 5) for i in rng.choice(len(depths), 20_000)], dtype=np.uint8
    )
    d = depths[rank_batch(sample, 9, fact)]
    for name, kind in KINDS.items():
        h = _h_all(sample, kind, 5, 2, 9)
        assert np.all(h <= d), name
        for idx, nxt in _neighbour_states(sample, 9, 5, 2, SINGLE):
            assert np.all(h[idx] <= 1 + _h_all(nxt, kind, 5, 2, 9)), name
    # 3x4: exact distances of 12 random states by bidirectional BFS
    nbrs, n_nbrs, _ = neighbour_table(4, 3)
    sample = np.array(
        [ranking.unrank_state(int(i), 12, 11, 4) for i in rng.choice(math.factorial(12) // 2, 12)],
        dtype=np.uint8,
    )
    for state in sample:
        status, cells, _ = kb.bfs_path(state.copy(), 11, 4, nbrs, n_nbrs, True)
        assert status == "found" and replay_cells(state, cells, len(cells), 11, 4)
        for name, kind in KINDS.items():
            assert _h_all(state[None, :], kind, 4, 3, 11)[0] <= len(cells), name
    big = np.array(
        [ranking.unrank_state(int(i), 12, 11, 4) for i in rng.choice(math.factorial(12) // 2, 5000)],
        dtype=np.uint8,
    )
    for name, kind in KINDS.items():
        h = _h_all(big, kind, 4, 3, 11)
        for idx, nxt in _neighbour_states(big, 11, 4, 3, SINGLE):
            assert np.all(h[idx] <= 1 + _h_all(nxt, kind, 4, 3, 11)), name


def _batch(states: np.ndarray, blank_home: int, kind: int, metric: int, fast: bool):  # type: ignore[no-untyped-def]
    nbrs, _, orient = neighbour_table(3, 3, metric)
    table = kh.table_for(kind, 3, 3, blank_home)
    table_kind = metric == SINGLE and kind in (kh.MISPLACED, kh.MANHATTAN)
    padded = kh.padded_rows(nbrs, table) if table_kind else (nbrs, np.zeros((1, 1), np.int8))
    return ki.idastar_batch(
        np.ascontiguousarray(states),
        blank_home,
        3,
        3,
        kind,
        metric,
        nbrs,
        orient,
        table,
        *padded,
        64,
        fast,
        *ki.row_col_tables(3, 3),
    )


@pytest.mark.parametrize(  # every state twice takes 40 s: the classic goal in CI, the spiral slow
    "goal", [pytest.param(g, marks=pytest.mark.slow) if g == "spiral" else g for g in GOALS_3X3]
)
def test_idastar_is_exact_on_every_3x3_state(goal: str) -> None:
    blank_home = GOALS_3X3[goal]
    states, depths = canonical_arrays(3, 3, blank_home)
    assert len(states) == N_3X3
    lengths, ok, _ = _batch(states, blank_home, kh.MANHATTAN, SINGLE, True)
    assert np.array_equal(lengths, depths)
    assert ok.all()  # every path replayed to the goal inside the kernel, single-tile steps only
    rng = np.random.default_rng(11)
    idx = rng.choice(N_3X3, 5_000, replace=False)
    # samples sized to about a second each (misplaced tiles: 2.3 ms a state, 11.5 s for 5,000)
    for kind, fast, sample in ((kh.LINEAR_CONFLICT, True, 5_000), (kh.MISPLACED, True, 500),
                               (kh.LINEAR_CONFLICT, False, 1_500)):  # fmt: skip
        lengths, ok, _ = _batch(states[idx[:sample]], blank_home, kind, SINGLE, fast)
        assert np.array_equal(lengths, depths[idx[:sample]]) and ok.all(), (kind, fast)


@pytest.mark.parametrize("goal", GOALS_3X3)
def test_idastar_multi_metric_is_exact_on_every_3x3_state(goal: str) -> None:
    """Multi-tile IDA* with the multi-tile pattern databases (``multi-pdb``: two 5-tile tables, 45 generated
    nodes per state on average, 1,088 at most) on all 181,440 states: exactly the multi-tile BFS distance,
    and a path that replays to the goal in the kernel. Measured 2026-11-22 on one core of two (load 1.7-1.9):
    2.0-3.4 s of search per goal, 4.5-6.2 s with the oracle and the sample below. Crossings (the bound beyond 16
    cells: ~15,700 and ~12,200 nodes per state, every state would take ~650 s and ~480 s) on a sample of
    500 states per goal (~1.5 s)."""
    blank_home = GOALS_3X3[goal]
    states, depths = canonical_arrays(3, 3, blank_home, "multi")
    assert len(states) == N_3X3
    lengths, ok, _ = _batch(states, blank_home, kh.MULTI_PDB, MULTI, False)
    assert np.array_equal(lengths, depths) and ok.all()
    idx = np.random.default_rng(13).choice(len(states), 500, replace=False)
    lengths, ok, _ = _batch(states[idx], blank_home, kh.CROSSINGS, MULTI, False)
    assert np.array_equal(lengths, depths[idx]) and ok.all()


@pytest.mark.parametrize("metric", ["single", "multi"])
@pytest.mark.parametrize("goal", GOALS_3X3)
def test_bfs_depth_table_equals_oracle_on_every_3x3_state(goal: str, metric: str) -> None:
    blank_home = GOALS_3X3[goal]
    nbrs, n_nbrs, _ = neighbour_table(3, 3, MULTI if metric == "multi" else SINGLE)
    table, sizes = kb.depth_table(blank_home, 3, 9, nbrs, n_nbrs, np.uint8)
    states, depths = canonical_arrays(3, 3, blank_home, metric)
    assert np.array_equal(table[rank_batch(states, blank_home, factorials(8))], depths)
    assert sum(sizes) == N_3X3 and not np.any(table == kb.UNSEEN_DEPTH)
    if metric == "single" and goal == "classic":  # shared/data/distributions.md, OEIS A089473
        assert len(sizes) - 1 == 31 and sizes[-1] == 2 and sizes[24] == 24_047


@pytest.mark.parametrize(
    "goal,metric",
    [
        # every pair is slow (each about 60 s of one core, a twentieth of CI's tests): the sampled test below
        # covers all four by default, and the 3x3 IDA* test above every state
        pytest.param("classic", "single", marks=pytest.mark.slow),
        pytest.param("spiral", "multi", marks=pytest.mark.slow),
        pytest.param("classic", "multi", marks=pytest.mark.slow),
        pytest.param("spiral", "single", marks=pytest.mark.slow),
    ],
)
def test_bidirectional_bfs_is_exact_on_every_3x3_state(goal: str, metric: str) -> None:
    """Bidirectional BFS (:func:`.bfs.bfs_batch`) from every state: the oracle's distance, and a path that
    replays to the goal inside the kernel. ~60 s per goal and metric on one core (~0.33 ms a search)."""
    blank_home = GOALS_3X3[goal]
    metric_code = MULTI if metric == "multi" else SINGLE
    states, depths = canonical_arrays(3, 3, blank_home, metric)
    assert len(states) == N_3X3
    nbrs, n_nbrs, _ = neighbour_table(3, 3, metric_code)
    lengths, ok = kb.bfs_batch(states, blank_home, 3, metric_code, nbrs, n_nbrs, factorials(8), True)
    assert np.array_equal(lengths, depths)
    assert ok.all()


@pytest.mark.parametrize("metric", ["single", "multi"])
@pytest.mark.parametrize("goal", GOALS_3X3)
def test_bfs_paths_on_sampled_3x3_states_agree_with_the_python_driver_and_replay(
    goal: str, metric: str
) -> None:
    """Unidirectional BFS from a sample (each search reaches most of the space: ~15-40 ms) and bidirectional
    BFS from a larger one: the batch kernel against its reference, the layer-by-layer Python driver :func:`.bfs.bfs_path`; and ``Solution.replay()``
    through the public :func:`npuzzle.solve` for both BFS algorithms on a sample of user boards."""
    blank_home = GOALS_3X3[goal]
    metric_code = MULTI if metric == "multi" else SINGLE
    states, depths = canonical_arrays(3, 3, blank_home, metric)
    nbrs, n_nbrs, _ = neighbour_table(3, 3, metric_code)
    rng = np.random.default_rng(17)
    idx = rng.choice(len(states), 100, replace=False)
    lengths, ok = kb.bfs_batch(states[idx], blank_home, 3, metric_code, nbrs, n_nbrs, factorials(8), False)
    assert np.array_equal(lengths, depths[idx]) and ok.all()
    # the bidirectional batch kernel on a sample (~1 s) where the exhaustive test above is slow
    idx = rng.choice(len(states), 3_000, replace=False)
    lengths, ok = kb.bfs_batch(states[idx], blank_home, 3, metric_code, nbrs, n_nbrs, factorials(8), True)
    assert np.array_equal(lengths, depths[idx]) and ok.all()
    for n_samples, bidirectional in ((200, True), (20, False)):
        for i in rng.choice(len(states), n_samples, replace=False):
            status, cells, _ = kb.bfs_path(states[i].copy(), blank_home, 3, nbrs, n_nbrs, bidirectional)
            assert status == "found" and len(cells) == depths[i]
            assert replay_cells(states[i], cells.astype(np.uint8), len(cells), blank_home, 3)
    target = goals.goal(goal, 3, 3)
    dist = bfs_distances(target, metric)
    boards = list(dist)
    for j in rng.choice(len(boards), 30, replace=False):
        board = Board(boards[j], 3, 3)
        for algorithm in ("bfs", "bibfs"):
            solution = solve(board, target, algorithm=algorithm, metric=metric)
            assert solution.length == dist[boards[j]] and solution.replay() == target


def test_astar_is_exact_on_random_3x3_states() -> None:
    """A* on a random 5,000 states (classic goal, linear conflict); arrays reused between runs (every state,
    once, is the IDA* check's; each run here clears a 2 MB hash table, 20,000 took 19 s in CI)."""
    blank_home = 8
    states, depths = canonical_arrays(3, 3, blank_home)
    nbrs, n_nbrs, _ = neighbour_table(3, 3)
    kind = kh.LINEAR_CONFLICT
    table = kh.table_for(kind, 3, 3, blank_home)
    fact = factorials(8)
    cap = N_3X3 + 1
    n_slots = 1 << 19
    arrays = [
        np.zeros((cap, 9), np.uint8),
        np.zeros(cap, np.int32),
        np.zeros(cap, np.int32),
        np.zeros(cap, np.int16),
        np.zeros(cap, np.int64),
        np.zeros(n_slots, np.int32),
        np.zeros(2 * cap, np.int64),
        np.zeros(2 * cap, np.int32),
    ]
    regs = np.zeros(ka.N_REGS, np.int64)
    scratch = np.zeros(16, np.int32)
    out = np.zeros(64, np.int64)
    for i in np.random.default_rng(19).choice(N_3X3, 5_000, replace=False):
        arrays[5][:] = 0
        regs[:] = 0
        ka.astar_init(states[i], blank_home, 3, 3, kind, table, 1, 1, fact, True, *arrays, regs, scratch)
        status = ka.astar_run(
            blank_home, 3, 3, kind, table, nbrs, n_nbrs, 1, 1, fact, True, *arrays, regs, 1 << 40, scratch
        )
        assert status == ka.FOUND
        n = ka.astar_path(arrays[0], arrays[1], int(regs[ka.R_GOAL]), blank_home, out)
        assert n == depths[i]
        assert replay_cells(states[i], out.astype(np.uint8), n, blank_home, 3)


def test_astar_hash_keys_on_boards_beyond_rank_range() -> None:
    """Over 20 cells (here 7x3 = 21) A* keys are FNV hashes with state comparison: still exact."""
    rng = np.random.default_rng(23)
    state = np.arange(21)
    blank = 20
    for _ in range(30):
        row, col = divmod(blank, 7)
        options = [
            c
            for c, ok in (
                (blank - 7, row > 0),
                (blank + 7, row < 2),
                (blank - 1, col > 0),
                (blank + 1, col < 6),
            )
            if ok
        ]
        target = int(rng.choice(options))
        state[blank], state[target] = state[target], state[blank]
        blank = target
    canonical = [int(v) for v in state]
    a_cells, a_stats = run_canonical(canonical, 7, 3, 20, Plan("astar", "linear-conflict", None), "single")
    i_cells, _ = run_canonical(canonical, 7, 3, 20, Plan("idastar", "linear-conflict", None), "single")
    assert len(a_cells) == len(i_cells)
    assert replay_cells(np.array(canonical, np.uint8), np.array(a_cells, np.uint8), len(a_cells), 20, 7)
    assert a_stats.closed > 0


NO_JIT_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from oracle import canonical_distances
from npuzzle.search.solver import Plan, run_canonical
out = {}
for w, h in ((2, 2), (3, 2)):
    dist = canonical_distances(w, h, w * h - 1)
    states = sorted(dist)[:: max(1, len(dist) // 12)]
    for alg, heur in (("idastar", "linear-conflict"), ("idastar", "manhattan"), ("astar", "misplaced"),
                      ("bibfs", None), ("bfs", None), ("greedy", "manhattan")):
        for metric in ("single", "multi"):
            if metric == "multi" and alg in ("idastar", "astar"):
                heur_m = "crossings"
            else:
                heur_m = heur
            for s in states:
                cells, _ = run_canonical(list(s), w, h, w * h - 1, Plan(alg, heur_m, None), metric)
                out[f"{w}x{h} {alg} {heur_m} {metric} {s}"] = cells
    import numpy as np
    from npuzzle._kernels.bfs import bfs_batch
    from npuzzle._kernels.moves import neighbour_table
    from npuzzle._kernels.rank import factorials
    starts = np.array(states, dtype=np.uint8)
    for metric in (0, 1):
        nbrs, n_nbrs, _ = neighbour_table(w, h, metric)
        for bidirectional in (True, False):
            lengths, ok = bfs_batch(starts, w * h - 1, w, metric, nbrs, n_nbrs, factorials(w * h - 1), bidirectional)
            out[f"{w}x{h} bfs_batch {metric} {bidirectional}"] = [lengths.tolist(), ok.tolist()]
print(json.dumps(out))
"""


def test_kernels_agree_with_numba_disabled() -> None:
    """The kernels run as plain Python with NUMBA_DISABLE_JIT=1 and give the same moves on tiny boards."""
    tests_dir = str(Path(__file__).parent)
    results = []
    for jit in (False, True):
        results.append(json.loads(run_python(NO_JIT_SCRIPT, tests_dir, jit=jit)))
    assert results[0] == results[1]
    assert len(results[0]) > 100


@pytest.mark.parametrize(("width", "height"), [(2, 2), (3, 3), (4, 4), (5, 3), (7, 5)])
def test_padded_rows_keep_every_entry_and_the_end_marker(width: int, height: int) -> None:
    nbrs, _, _ = neighbour_table(width, height, SINGLE)
    table = kh.tile_table(kh.MANHATTAN, width, height, 0)
    padded_nbrs, padded_cost = kh.padded_rows(nbrs, table)
    for array, padded in ((nbrs, padded_nbrs), (table, padded_cost)):
        row = padded.shape[1]
        assert row & (row - 1) == 0 and row >= array.shape[1]  # a power of two, no shorter
        assert np.array_equal(padded[:, : array.shape[1]], array)
        assert ki.row_shift(row) == row.bit_length() - 1
    assert np.all(padded_nbrs[:, nbrs.shape[1] :] == nbrs[0, -1])  # padding reads as the end marker
