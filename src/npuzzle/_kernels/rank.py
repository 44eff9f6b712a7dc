"""Ranking of canonical states in numba; twins of :mod:`npuzzle.ranking` (the pure-Python reference).

``rank_state(state, blank_home)`` is the index of a *reachable* state among the ``n!/2`` of its class:
``blank_cell * (n-1)!/2 + lexrank(tiles) // 2`` with ``tiles`` the values in cell order, blank skipped,
values above ``blank_home`` shifted down by one (a permutation of ``0..n-2``). Exact for ``n <= 20`` cells
(``20!/2 < 2**63``). ``lexrank`` uses a bit mask of used values and a SWAR popcount: O(n) per rank.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

MAX_RANK_CELLS = 20  # 20!/2 = 1.2e18 < 2**63 - 1; 21! overflows int64


def factorials(n: int) -> np.ndarray:
    """``int64[n + 1]``: ``0!, 1!, ..., n!`` (``n <= 20``)."""
    out = np.ones(n + 1, dtype=np.int64)
    for i in range(2, n + 1):
        out[i] = out[i - 1] * i
    return out


@njit
def popcount32(x: int) -> int:
    """Number of set bits of ``0 <= x < 2**32``."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit
def rank_state(state: np.ndarray, blank_home: int, fact: np.ndarray) -> int:
    """Index ``0 <= index < n!/2`` of a reachable canonical state; ``fact`` from :func:`factorials` (n)."""
    n = state.shape[0]
    m = n - 1  # tiles
    rank = 0
    used = 0
    i = 0
    blank_cell = 0
    for cell in range(n):
        v = np.int64(state[cell])
        if v == blank_home:
            blank_cell = cell
            continue
        if v > blank_home:
            v -= 1
        rank = rank * (m - i) + v - popcount32(used & ((1 << v) - 1))
        used |= 1 << v
        i += 1
    return blank_cell * (fact[m] // 2) + (rank >> 1)


@njit
def _parity(values: np.ndarray) -> int:
    m = values.shape[0]
    seen = np.zeros(m, dtype=np.bool_)
    swaps = 0
    for i in range(m):
        j = i
        length = 0
        while not seen[j]:
            seen[j] = True
            j = values[j]
            length += 1
        if length > 0:
            swaps += length - 1
    return swaps & 1


@njit
def unrank_state(index: int, n: int, blank_home: int, width: int, fact: np.ndarray, out: np.ndarray) -> None:
    """Inverse of :func:`rank_state` for states reachable from the canonical goal; writes into ``out``."""
    m = n - 1
    half = fact[m] // 2
    blank_cell = index // half
    rank = (index % half) * 2
    tiles = np.empty(m, dtype=np.int64)
    used = 0
    for i in range(m):
        radix = fact[m - 1 - i]
        digit = rank // radix
        rank = rank % radix
        # the digit-th unused value
        v = 0
        while True:
            if not (used >> v) & 1:
                if digit == 0:
                    break
                digit -= 1
            v += 1
        tiles[i] = v
        used |= 1 << v
    want = 0
    if width % 2 == 0:
        want = (blank_cell // width - blank_home // width) & 1
    if _parity(tiles) != want:
        tiles[m - 1], tiles[m - 2] = tiles[m - 2], tiles[m - 1]
    j = 0
    for cell in range(n):
        if cell == blank_cell:
            out[cell] = blank_home
        else:
            v = tiles[j]
            out[cell] = v + 1 if v >= blank_home else v
            j += 1


@njit
def rank_batch(states: np.ndarray, blank_home: int, fact: np.ndarray) -> np.ndarray:
    """:func:`rank_state` of every row of ``states`` as ``int64[m]``."""
    out = np.empty(states.shape[0], dtype=np.int64)
    for i in range(states.shape[0]):
        out[i] = rank_state(states[i], blank_home, fact)
    return out


__all__ = ["MAX_RANK_CELLS", "factorials", "popcount32", "rank_batch", "rank_state", "unrank_state"]
