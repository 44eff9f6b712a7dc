"""Ranking: pure-Python reference round trips, and the numba kernels agree with it."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from npuzzle import ranking
from npuzzle._kernels.rank import factorials, rank_batch, rank_state, unrank_state
from oracle import canonical_arrays


@pytest.mark.parametrize("n", range(1, 7))
def test_permutation_rank_is_lexicographic_bijection(n: int) -> None:
    for expected, perm in enumerate(itertools.permutations(range(n))):
        assert ranking.rank_permutation(perm) == expected
        assert ranking.unrank_permutation(expected, n) == list(perm)


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 1), (5, 3), (6, 6), (9, 2), (16, 3)])
def test_partial_rank_is_lexicographic_bijection(n: int, k: int) -> None:
    count = 0
    for expected, values in enumerate(itertools.permutations(range(n), k)):
        assert ranking.rank_partial(values, n) == expected
        assert ranking.unrank_partial(expected, n, k) == list(values)
        count += 1
    assert count == ranking.n_partial(n, k) == math.perm(n, k)


def test_rank_errors_quote_input() -> None:
    with pytest.raises(ValueError, match=r"\[1, 1\]"):
        ranking.rank_partial([1, 1], 3)
    with pytest.raises(ValueError, match="outside"):
        ranking.unrank_partial(6, 3, 3)
    with pytest.raises(ValueError, match="outside"):
        ranking.unrank_state(12, 4, 3, 2)


@pytest.mark.parametrize(("width", "height", "blank_home"), [(2, 2, 3), (3, 2, 0), (2, 3, 5), (3, 2, 4)])
def test_state_rank_is_perfect_hash_of_reachable_states(width: int, height: int, blank_home: int) -> None:
    states = canonical_arrays(width, height, blank_home)[0]
    n = width * height
    ranks = sorted(ranking.rank_state(list(s), blank_home, width) for s in states)
    assert ranks == list(range(math.factorial(n) // 2))
    for s in states:
        r = ranking.rank_state(list(s), blank_home, width)
        assert ranking.unrank_state(r, n, blank_home, width) == list(s)


@pytest.mark.parametrize("blank_home", [8, 0, 4])
def test_kernel_rank_matches_reference_on_every_3x3_state(blank_home: int) -> None:
    states = canonical_arrays(3, 3, blank_home)[0]
    fact = factorials(8)
    ranks = rank_batch(states, blank_home, fact)
    assert np.array_equal(np.sort(ranks), np.arange(181_440))  # 9!/2, a bijection
    rng = np.random.default_rng(0)
    out = np.zeros(9, dtype=np.uint8)
    for i in rng.choice(len(states), 2000, replace=False):
        s = states[i]
        assert ranks[i] == ranking.rank_state(list(s), blank_home, 3)
        unrank_state(int(ranks[i]), 9, blank_home, 3, fact, out)
        assert np.array_equal(out, s)
        assert rank_state(out, blank_home, fact) == ranks[i]


def test_kernel_rank_on_large_boards_fits_int64() -> None:
    fact = factorials(19)  # 20 cells: 5x4
    rng = np.random.default_rng(1)
    for _ in range(50):
        values = [int(v) for v in rng.permutation(20)]
        blank_home = values[int(rng.integers(20))]
        blank_cell = values.index(blank_home)
        # make it reachable: fix the parity by swapping two tiles if needed
        tiles = [v for v in values if v != blank_home]
        compressed = [t - (t > blank_home) for t in tiles]
        if ranking._parity(compressed) != ranking.reachable_parity(blank_cell, blank_home, 5):
            i, j = [c for c in range(20) if c != blank_cell][:2]
            values[i], values[j] = values[j], values[i]
        expected = ranking.rank_state(values, blank_home, 5)
        assert 0 <= expected < math.factorial(20) // 2
        assert rank_state(np.array(values, dtype=np.uint8), blank_home, fact) == expected
        assert ranking.unrank_state(expected, 20, blank_home, 5) == values
