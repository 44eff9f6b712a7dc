"""Incremental linear conflict in the IDA* kernel (issue 17): the conflict table against a pure-Python build,
the incrementally kept line keys and ``h`` against a from-scratch computation at every node of a search, node
counts equal to the from-scratch kernel (every 3×3 state) and to the previous kernel (Korf instances), and
the same with the JIT off."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from interpreters import run_python
from npuzzle._kernels import heuristics as kh
from npuzzle._kernels import idastar as ki
from npuzzle._kernels.moves import SINGLE, neighbour_table
from npuzzle.heuristics.simple import _removals
from oracle import canonical_arrays

KORF = Path(__file__).parent / "data" / "korf100.txt"
# generated nodes of the previous kernel (line conflicts recomputed with patience sorting; commit 56de41f),
# Korf's goal (blank first): instance -> (optimal length, generated)
KORF_LC_GENERATED = {2: (55, 3_427_626), 5: (56, 2_691_320), 9: (46, 87_999)}


def _python_conflict_table(length: int) -> list[int]:
    """``2 * conflicts`` of every key, digit by digit (the reference for :func:`ki.conflict_table`)."""
    base = length + 1
    out = []
    for key in range(base**length):
        digits = [(key // base**p) % base for p in range(length)]
        out.append(2 * _removals([d for d in digits if d]))
    return out


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_conflict_table_matches_a_pure_python_build(length: int) -> None:
    out = np.zeros(ki.n_line_keys(length), dtype=np.int8)
    ki.conflict_table(length, out, np.zeros(length + 1, dtype=np.int64))
    assert out.tolist() == _python_conflict_table(length)
    assert out.max() == 2 * (length - 1)  # a fully reversed line: all but one tile must leave


def test_line_keys_only_for_short_lines() -> None:
    assert ki.n_line_keys(4) == 625 and ki.n_line_keys(7) == 8**7
    assert ki.n_line_keys(8) == 0  # 9^8 keys: too many, the kernel recomputes such lines
    assert ki.cached_lc_tables(8, 2, 0)[3] is False and ki.cached_lc_tables(7, 3, 0)[3] is True


def _random_state(width: int, height: int, blank_home: int, rng: np.random.Generator) -> np.ndarray:
    """A solvable canonical state: a random walk of 400 moves from the goal."""
    state = np.arange(width * height, dtype=np.uint8)
    nbrs, n_nbrs, _ = neighbour_table(width, height, SINGLE)
    b = blank_home
    for _ in range(400):
        c = int(nbrs[b, rng.integers(int(n_nbrs[b]))])
        state[b], state[c] = state[c], state[b]
        b = c
    return state


def _search_steps(width: int, height: int, blank_home: int, seed: int, steps: int) -> int:
    """Run the incremental kernel one expansion at a time; after each, the kept line values and the stacked
    ``h`` must equal those computed from scratch for the current node. Returns the nodes checked."""
    rng = np.random.default_rng(seed)
    state = _random_state(width, height, blank_home, rng)
    n = width * height
    nbrs, _, _ = neighbour_table(width, height, SINGLE)
    table = kh.table_for(kh.LINEAR_CONFLICT, width, height, blank_home)
    scratch = np.zeros(2 * (width + height) + 4, dtype=np.int32)
    h0 = int(kh.heuristic(state, kh.LINEAR_CONFLICT, width, height, blank_home, table, scratch))
    capacity = 2 * h0 + 64
    path, child, hvals, regs = ki.new_stack(capacity, n, int(np.flatnonzero(state == blank_home)[0]), h0)
    work = ki.lc_work(state, width, height, blank_home, capacity)
    _, code, _, tabled = ki.cached_lc_tables(width, height, blank_home)
    checked = 0
    for _ in range(steps):
        status = ki.idastar_lc(
            state, blank_home, width, height, nbrs, table, path, child, hvals, regs, 1, *work
        )
        depth = int(regs[ki.R_DEPTH])
        expected = np.zeros(width + height, dtype=np.int32)
        ki.init_lines(state, width, height, blank_home, code, tabled, expected, scratch)
        assert np.array_equal(work[0], expected), (width, height, checked)
        h = kh.heuristic(state, kh.LINEAR_CONFLICT, width, height, blank_home, table, scratch)
        assert hvals[depth + 1] == h, (width, height, checked)
        checked += 1
        if status in (ki.FOUND, ki.GROW, ki.EXHAUSTED):
            break
    return checked


@pytest.mark.parametrize(
    ("width", "height", "blank_home"),
    [(3, 3, 8), (3, 3, 4), (4, 4, 0), (4, 4, 15), (2, 5, 3), (4, 3, 11), (5, 2, 0), (8, 2, 5), (3, 7, 10)],
)
def test_incremental_lines_equal_a_fresh_computation_at_every_node(
    width: int, height: int, blank_home: int
) -> None:
    assert _search_steps(width, height, blank_home, seed=width * 10 + height, steps=3_000) > 10


def _node_counts_equal(sample: int | None) -> None:
    for blank_home in (8, 4):
        states, depths = canonical_arrays(3, 3, blank_home)
        if sample is not None:
            idx = np.random.default_rng(blank_home).choice(len(states), sample, replace=False)
            states, depths = states[idx], depths[idx]
        nbrs, _, orient = neighbour_table(3, 3, SINGLE)
        table = kh.table_for(kh.LINEAR_CONFLICT, 3, 3, blank_home)
        runs = []
        for fast in (True, False):
            runs.append(
                ki.idastar_batch(
                    np.ascontiguousarray(states), blank_home, 3, 3, kh.LINEAR_CONFLICT, SINGLE, nbrs, orient,
                    table, nbrs, np.zeros((1, 1), np.int8), 64, fast, *ki.row_col_tables(3, 3),
                )
            )  # fmt: skip
        (fast_len, fast_ok, fast_gen), (slow_len, _, slow_gen) = runs
        assert np.array_equal(fast_len, depths) and fast_ok.all()
        assert np.array_equal(fast_gen, slow_gen)  # node for node
        assert np.array_equal(slow_len, depths)


@pytest.mark.slow
def test_node_counts_equal_the_from_scratch_kernel_on_every_3x3_state() -> None:
    """All 2 × 181,440 states (~400 s at load 11, the from-scratch kernel being the slow side)."""
    _node_counts_equal(None)


def test_node_counts_equal_the_from_scratch_kernel_on_sampled_3x3_states() -> None:
    _node_counts_equal(1_000)


def _korf(k: int) -> list[int]:
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    return [int(v) for v in rows[k - 1][1:]]


@pytest.mark.parametrize("k", sorted(KORF_LC_GENERATED))
def test_node_counts_equal_the_previous_kernel_on_korf_instances(k: int) -> None:
    tiles = _korf(k)
    state = np.array(tiles, dtype=np.uint8)
    nbrs, _, _ = neighbour_table(4, 4)
    table = kh.table_for(kh.LINEAR_CONFLICT, 4, 4, 0)
    h0 = int(kh.heuristic(state, kh.LINEAR_CONFLICT, 4, 4, 0, table, np.zeros(20, np.int32)))
    path, child, hvals, regs = ki.new_stack(100, 16, tiles.index(0), h0)
    work = ki.lc_work(state, 4, 4, 0, 100)
    while ki.idastar_lc(state, 0, 4, 4, nbrs, table, path, child, hvals, regs, 1 << 24, *work) != ki.FOUND:
        pass
    assert (int(regs[ki.R_DEPTH]), int(regs[ki.R_GENERATED])) == KORF_LC_GENERATED[k]
    assert state.tolist() == list(range(16))


NO_JIT_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from test_linear_conflict import _search_steps
from npuzzle._kernels import idastar as ki
out = [_search_steps(3, 3, 8, 1, 400), _search_steps(4, 4, 0, 2, 300), _search_steps(8, 2, 0, 3, 200)]
table = np.zeros(ki.n_line_keys(4), dtype=np.int8)
ki.conflict_table(4, table, np.zeros(5, dtype=np.int64))
print(out, int(table.sum()))
"""


def test_incremental_lc_with_numba_disabled() -> None:
    tests_dir = str(Path(__file__).parent)
    outputs = [run_python(NO_JIT_SCRIPT, tests_dir, jit=jit, timeout=600) for jit in (False, True)]
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("[")


def test_every_permutation_of_a_line_of_four() -> None:
    """All 4! orders of a full home row: the table's conflicts equal count minus LIS (4, 3, 2, 1 -> 3)."""
    table = np.zeros(ki.n_line_keys(4), dtype=np.int8)
    ki.conflict_table(4, table, np.zeros(5, dtype=np.int64))
    for order in itertools.permutations(range(4)):
        key = sum((home + 1) * 5**position for position, home in enumerate(order))
        assert table[key] == 2 * _removals(list(order))
    assert table[sum((4 - p) * 5**p for p in range(4))] == 6
