"""Perfect hashes of permutations: the pure-Python reference for ``_kernels/rank.py`` and pattern tables.

Three rankings, each a ``rank_*`` with its ``unrank_*`` and ``unrank(rank(x)) == x``:

* :func:`rank_permutation` — lexicographic (Lehmer code) rank of a permutation of ``0..n-1``,
  ``0 <= rank < n!``.
* :func:`rank_partial` — lexicographic rank of ``k`` distinct values drawn from ``0..n-1`` (a *partial
  permutation*, e.g. the cells of the ``k`` tiles of a pattern on an ``n``-cell board),
  ``0 <= rank < n!/(n-k)!``.
* :func:`rank_state` — index of a *reachable* puzzle state in canonical form among the ``n!/2`` states of
  its parity class: ``blank_cell * (n-1)!/2 + rank_permutation(tiles) // 2``, where ``tiles`` are the
  canonical values read in cell order with the blank skipped (values above the blank's value shifted down
  by one so they form a permutation of ``0..n-2``). Lexicographic ranks ``2k`` and ``2k+1`` differ by
  swapping the last two entries, so they have opposite parity, and only one of them is reachable with the
  blank in a given cell (see :mod:`npuzzle.solvability`): halving is a bijection onto ``0..(n-1)!/2-1``.

>>> rank_permutation([2, 0, 1])
4
>>> unrank_permutation(4, 3)
[2, 0, 1]
>>> rank_partial([3, 0], 4), unrank_partial(9, 4, 2)
(9, [3, 0])
>>> values = [1, 2, 0, 3]          # canonical 2x2 state, blank value 3 (goal's blank cell)
>>> unrank_state(rank_state(values, 3, 2), 4, 3, 2) == values
True
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial, perm


def n_permutations(n: int) -> int:
    """``n!``."""
    return factorial(n)


def n_partial(n: int, k: int) -> int:
    """Number of partial permutations of ``k`` out of ``n``: ``n!/(n-k)!``."""
    return perm(n, k)


def n_states(n: int) -> int:
    """Number of states reachable on an ``n``-cell board: ``n!/2``."""
    return factorial(n) // 2


def rank_partial(values: Sequence[int], n: int) -> int:
    """Lexicographic rank of distinct ``values`` (``k`` of them, each in ``0..n-1``) among all such tuples.

    Digit ``i`` is the number of values below ``values[i]`` not used earlier; the rank is that mixed-radix
    number with radices ``n, n-1, ..., n-k+1``. O(k·n), for reference and tests.
    """
    used = [False] * n
    rank = 0
    for i, value in enumerate(values):
        v = int(value)
        if not 0 <= v < n or used[v]:
            raise ValueError(f"values must be distinct integers in 0..{n - 1}, got {list(values)!r}")
        smaller_unused = sum(1 for u in range(v) if not used[u])
        rank = rank * (n - i) + smaller_unused
        used[v] = True
    return rank


def unrank_partial(rank: int, n: int, k: int) -> list[int]:
    """Inverse of :func:`rank_partial`."""
    total = perm(n, k)
    if not 0 <= rank < total:
        raise ValueError(f"rank {rank} is outside 0..{total - 1} for {k} of {n}")
    digits = []
    for i in range(k - 1, -1, -1):  # least significant digit has radix n - k + 1
        radix = n - i
        rank, digit = divmod(rank, radix)
        digits.append(digit)
    digits.reverse()
    unused = list(range(n))
    return [unused.pop(d) for d in digits]


def rank_permutation(values: Sequence[int]) -> int:
    """Lexicographic rank of a permutation of ``0..n-1``, ``0 <= rank < n!``."""
    return rank_partial(values, len(values))


def unrank_permutation(rank: int, n: int) -> list[int]:
    """Inverse of :func:`rank_permutation`."""
    return unrank_partial(rank, n, n)


def reachable_parity(blank_cell: int, blank_value: int, width: int) -> int:
    """Parity (0/1) of the blank-free tile permutation of every state reachable from the canonical goal
    with the blank in ``blank_cell`` (``blank_value`` is the goal's blank cell)."""
    if width % 2 == 1:
        return 0
    return (blank_cell // width - blank_value // width) & 1


def _parity(sequence: Sequence[int]) -> int:
    """Parity of a permutation of ``0..n-1``: the sum of (cycle length - 1), modulo 2."""
    seen = [False] * len(sequence)
    transpositions = 0
    for i in range(len(sequence)):
        j = i
        length = 0
        while not seen[j]:
            seen[j] = True
            j = sequence[j]
            length += 1
        transpositions += max(length - 1, 0)
    return transpositions & 1


def rank_state(values: Sequence[int], blank_value: int, width: int) -> int:
    """Index ``0 <= index < n!/2`` of a reachable canonical state (see the module docstring).

    ``width`` is accepted so callers always pass the board's shape; the index itself does not depend on it.
    """
    del width  # the parity class is implied by the values; width only matters for unranking
    n = len(values)
    blank_cell = list(values).index(blank_value)
    tiles = [v - (v > blank_value) for v in values if v != blank_value]
    return blank_cell * (factorial(n - 1) // 2) + rank_permutation(tiles) // 2


def unrank_state(index: int, n: int, blank_value: int, width: int) -> list[int]:
    """Inverse of :func:`rank_state` for states reachable from the canonical goal."""
    half = factorial(n - 1) // 2
    if not 0 <= index < n * half:
        raise ValueError(f"state index {index} is outside 0..{n * half - 1}")
    blank_cell, tile_index = divmod(index, half)
    parity = reachable_parity(blank_cell, blank_value, width)
    tiles = unrank_permutation(2 * tile_index, n - 1)
    if _parity(tiles) != parity:
        tiles[-1], tiles[-2] = tiles[-2], tiles[-1]
    values = [t + (t >= blank_value) for t in tiles]
    values.insert(blank_cell, blank_value)
    return values


__all__ = [
    "n_partial",
    "n_permutations",
    "n_states",
    "rank_partial",
    "rank_permutation",
    "rank_state",
    "reachable_parity",
    "unrank_partial",
    "unrank_permutation",
    "unrank_state",
]
