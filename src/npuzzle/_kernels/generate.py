"""Batch generation kernels: shuffle, walk and tile-walk straight into a (count × n_cells) label array.

Randomness is a counter-based SplitMix64 stream per board, so no global random state is touched (the
kernels are thread-safe and deterministic) and board ``k`` of a batch depends only on ``(key, k)``:

* ``board_state(key, k)`` is the board's starting 64-bit state, ``mix64(key + (k + 1) * GAMMA)``;
* each draw advances the state by ``GAMMA`` and outputs ``mix64(state)``;
* ``draw_below(state, bound)`` takes the top 32 bits of one output and maps them to ``0 <= value < bound``
  with Lemire's multiply-shift, rejecting the few values that would bias it (so every value is exactly
  equally likely).

:mod:`npuzzle.generate` holds pure-Python twins of every function here (same draws, same boards); the
tests compare them. All integer state is ``np.uint64`` and every constant is typed ``np.uint64``: mixing
``uint64`` with Python ints would make numba promote to ``float64``. Callers pass ``key`` / ``state`` as
``np.uint64`` too (a plain Python int is typed ``int64`` and gives other numbers). Run interpreted
(``NUMBA_DISABLE_JIT=1``), NumPy warns about the uint64 wrap-around SplitMix64 relies on; results agree.

Positions are canonical (see :mod:`npuzzle._kernels`): ``values[cell]`` is the home cell of the tile in
``cell``; the goal is ``arange(n_cells)`` and the blank's value is ``blank_home``. Moves are the cells the
blank moves to, listed in the fixed neighbour order up, down, left, right.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

GAMMA = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64 increment: 2**64 / golden ratio, odd
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)  # SplitMix64 finaliser multipliers (Stafford's "Mix13")
MIX_2 = np.uint64(0x94D049BB133111EB)
SHIFT_1 = np.uint64(30)
SHIFT_2 = np.uint64(27)
SHIFT_3 = np.uint64(31)
SHIFT_32 = np.uint64(32)
MASK_32 = np.uint64(0xFFFFFFFF)
TWO_32 = np.uint64(1 << 32)  # draw_below needs 1 <= bound <= 2**32


@njit
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijection of 64-bit integers with good avalanche."""
    z = (z ^ (z >> SHIFT_1)) * MIX_1
    z = (z ^ (z >> SHIFT_2)) * MIX_2
    return z ^ (z >> SHIFT_3)


@njit
def board_state(key: np.uint64, index: int) -> np.uint64:
    """Starting state of board ``index`` (0-based) of the batch keyed ``key``."""
    return mix64(key + np.uint64(index + 1) * GAMMA)


@njit
def draw_below(state: np.uint64, bound: int) -> tuple[np.uint64, int]:
    """``(new_state, value)`` with ``value`` uniform in ``0 .. bound-1``; ``1 <= bound <= 2**32``."""
    b = np.uint64(bound)
    while True:
        state = state + GAMMA
        product = (mix64(state) >> SHIFT_32) * b  # < 2**64: a 32-bit draw times a bound <= 2**32
        low = product & MASK_32
        # reject low < 2**32 mod b (those are over-represented); that threshold is < b, so the modulo
        # is only computed in the rare case low < b
        if low >= b or low >= (TWO_32 - b) % b:
            return state, np.int64(product >> SHIFT_32)


@njit
def is_canonical_solvable(values: np.ndarray, width: int, blank_home: int, seen: np.ndarray) -> bool:
    """True when canonical ``values`` can reach ``arange(n)``: parity of the whole permutation (blank
    included) equals the parity of the blank's taxicab distance from home. O(n) by cycle counting.

    ``seen`` is a scratch ``bool`` array of length ``n``, cleared here.
    """
    n = values.size
    for i in range(n):
        seen[i] = False
    transpositions = 0
    blank_cell = 0
    for i in range(n):
        if values[i] == blank_home:
            blank_cell = i
        if seen[i]:
            continue
        j = i
        while not seen[j]:
            seen[j] = True
            j = values[j]
            transpositions += 1
        transpositions -= 1  # a cycle of length L is L - 1 transpositions
    distance = abs(blank_cell // width - blank_home // width) + abs(blank_cell % width - blank_home % width)
    return (transpositions - distance) % 2 == 0


@njit
def shuffle_into(
    state: np.uint64, values: np.ndarray, width: int, blank_home: int, seen: np.ndarray
) -> np.uint64:
    """Fill ``values`` (int64, length n) with a uniform solvable canonical position; returns the state.

    Fisher-Yates from ``i = n-1`` down to 1 (``j = draw_below(i + 1)``, swap cells ``i`` and ``j``); if the
    result is unsolvable, swap the first two cells that do not hold the blank. That swap keeps the blank
    where it is and is its own inverse, so it pairs unsolvable and solvable positions one to one and the
    result stays uniform over solvable positions.
    """
    n = values.size
    for i in range(n):
        values[i] = i
    for i in range(n - 1, 0, -1):
        state, j = draw_below(state, i + 1)
        values[i], values[j] = values[j], values[i]
    if not is_canonical_solvable(values, width, blank_home, seen):
        first = 0 if values[0] != blank_home else 1
        second = first + 1 if values[first + 1] != blank_home else first + 2
        values[first], values[second] = values[second], values[first]
    return state


@njit
def walk_into(
    state: np.uint64, values: np.ndarray, width: int, height: int, blank_home: int, path: np.ndarray
) -> np.uint64:
    """Set ``values`` (int64, length n) to the goal, then make ``path.size`` random moves, never moving the
    blank straight back to the cell it just left. ``path[i]`` receives the cell the blank moved to.

    Each move draws ``draw_below(k)`` over the ``k`` allowed neighbours in the order up, down, left, right.
    """
    n = values.size
    for i in range(n):
        values[i] = i
    blank = blank_home
    previous = -1
    options = np.empty(4, np.int64)
    for step in range(path.size):
        row = blank // width
        col = blank % width
        k = 0
        if row > 0 and blank - width != previous:
            options[k] = blank - width
            k += 1
        if row < height - 1 and blank + width != previous:
            options[k] = blank + width
            k += 1
        if col > 0 and blank - 1 != previous:
            options[k] = blank - 1
            k += 1
        if col < width - 1 and blank + 1 != previous:
            options[k] = blank + 1
            k += 1
        state, r = draw_below(state, k)
        cell = options[r]
        values[blank] = values[cell]
        values[cell] = blank_home
        path[step] = cell
        previous = blank
        blank = cell
    return state


@njit
def tile_walk_into(
    state: np.uint64, values: np.ndarray, width: int, blank_home: int, repetitions: int
) -> np.uint64:
    """Set ``values`` to the goal, then ``repetitions`` times pick a uniform random non-blank cell and walk
    the blank there along a shortest path: first vertically, then horizontally (as in the Android app)."""
    n = values.size
    for i in range(n):
        values[i] = i
    blank = blank_home
    for _ in range(repetitions):
        state, r = draw_below(state, n - 1)
        target = r if r < blank else r + 1  # skip the blank's own cell
        target_row = target // width
        target_col = target % width
        while blank != target:
            if blank // width < target_row:
                cell = blank + width
            elif blank // width > target_row:
                cell = blank - width
            elif blank % width < target_col:
                cell = blank + 1
            else:
                cell = blank - 1
            values[blank] = values[cell]
            values[cell] = blank_home
            blank = cell
    return state


@njit
def shuffle_batch(key: np.uint64, count: int, width: int, blank_home: int, labels: np.ndarray) -> np.ndarray:
    """``count`` uniform solvable boards as a ``(count, n)`` array of ``labels.dtype``.

    ``labels`` is the goal's row-major tiles (user labels); row ``k`` is board ``k`` of the batch ``key``,
    written as ``labels[values[cell]]``.
    """
    n = labels.size
    out = np.empty((count, n), labels.dtype)
    values = np.empty(n, np.int64)
    seen = np.empty(n, np.bool_)
    for k in range(count):
        shuffle_into(board_state(key, k), values, width, blank_home, seen)
        for cell in range(n):
            out[k, cell] = labels[values[cell]]
    return out


@njit
def walk_batch(
    key: np.uint64, count: int, width: int, height: int, blank_home: int, n_moves: int, labels: np.ndarray
) -> np.ndarray:
    """``count`` boards, each ``n_moves`` non-backtracking random moves from the goal; see
    :func:`shuffle_batch` for the layout of the result."""
    n = labels.size
    out = np.empty((count, n), labels.dtype)
    values = np.empty(n, np.int64)
    path = np.empty(n_moves, np.int64)
    for k in range(count):
        walk_into(board_state(key, k), values, width, height, blank_home, path)
        for cell in range(n):
            out[k, cell] = labels[values[cell]]
    return out


@njit
def tile_walk_batch(
    key: np.uint64, count: int, width: int, blank_home: int, repetitions: int, labels: np.ndarray
) -> np.ndarray:
    """``count`` tile-walk boards; see :func:`shuffle_batch` for the layout of the result."""
    n = labels.size
    out = np.empty((count, n), labels.dtype)
    values = np.empty(n, np.int64)
    for k in range(count):
        tile_walk_into(board_state(key, k), values, width, blank_home, repetitions)
        for cell in range(n):
            out[k, cell] = labels[values[cell]]
    return out


@njit
def walk_path_cells(
    key: np.uint64, index: int, width: int, height: int, blank_home: int, n_moves: int
) -> np.ndarray:
    """The cells the blank visits (int64, length ``n_moves``) in board ``index`` of the walk batch ``key``."""
    values = np.empty(width * height, np.int64)
    path = np.empty(n_moves, np.int64)
    walk_into(board_state(key, index), values, width, height, blank_home, path)
    return path


def warmup() -> None:
    """Compile every kernel here for int64 labels (and the int8 labels of small boards)."""
    for dtype in (np.int8, np.int64):
        labels = np.array([1, 2, 3, 0], dtype)
        shuffle_batch(np.uint64(1), 1, 2, 3, labels)
        walk_batch(np.uint64(1), 1, 2, 2, 3, 2, labels)
        tile_walk_batch(np.uint64(1), 1, 2, 3, 2, labels)
    walk_path_cells(np.uint64(1), 0, 2, 2, 3, 2)


__all__ = [
    "board_state",
    "draw_below",
    "is_canonical_solvable",
    "mix64",
    "shuffle_batch",
    "shuffle_into",
    "tile_walk_batch",
    "tile_walk_into",
    "walk_batch",
    "walk_into",
    "walk_path_cells",
    "warmup",
]
