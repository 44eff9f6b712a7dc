"""Random start positions for any goal: ``shuffle``, ``walk``, ``tile-walk``, one by one or in a batch.

* ``shuffle``: uniform over all positions that can reach the goal. Shuffle every cell (Fisher-Yates); if
  the result cannot reach the goal, swap the first two cells not holding the blank. That swap keeps the
  blank in place and undoes itself, so it pairs unreachable positions with reachable ones one to one.
* ``walk``: ``moves`` random legal moves from the goal, never moving straight back.
* ``tile-walk``: ``repetitions`` times, pick a random tile and walk the blank to it along a shortest path,
  vertically first, then horizontally (the method of an Android 15-puzzle app; about 150 repetitions mix
  a 4×4).

Defaults: walk makes 25 moves per cell (400 on a 4×4, about what 150 tile-walk repetitions move the
blank); tile-walk makes 150 repetitions on every size, which is the article's figure for a 4×4 and does
not fully mix much larger boards: pass ``moves`` for those, or use ``shuffle``.

Boards of a chosen *optimal length* (``npuzzle generate --length 40`` / ``35..45`` / ``--min-length``) come
from :func:`npuzzle.analysis.difficulty.generate_length`, which uses these streams and states how uniform
its draw is.

Every board of a call gets its own random stream derived from ``seed`` and its index (SplitMix64, see
:mod:`npuzzle._kernels.generate`), so the same seed gives the same boards, board ``k`` does not depend
on ``count``, and :func:`generate` (pure Python, no numba) and :func:`generate_array` (numba kernels)
return the same boards for the same arguments. ``seed=None`` draws a fresh key from the OS.

>>> from npuzzle.goals import classic
>>> board = shuffle(classic(4, 4), seed=7)
>>> from npuzzle.solvability import is_solvable
>>> is_solvable(board, classic(4, 4))
True
>>> generate(classic(3, 3), "walk", moves=4, count=3, seed=5) == generate(classic(3, 3), "walk", moves=4, count=3, seed=5)
True
"""

from __future__ import annotations

import itertools
import operator
import secrets
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .board import Board, neighbour_cells
from .errors import ProblemTooLargeError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

METHODS = ("shuffle", "walk", "tile-walk")
_METHOD_ALIASES = {"tile_walk": "tile-walk", "tilewalk": "tile-walk", "random-walk": "walk"}

DEFAULT_TILE_WALK_REPETITIONS = 150  # the Android app's figure: mixes a 4×4 (mean optimal length ≈ 52.6)
# 150 tile-walk repetitions move the blank ~400 times on a 4×4 (≈2.67 swaps each): 25 moves per cell.
DEFAULT_WALK_MOVES_PER_CELL = 25
# One board's walk is pure Python (~1 M moves/s): the caps keep one board under about ten seconds, far past
# mixing (a 100x100 walk mixes in a few million moves); larger asks are refused with ProblemTooLargeError.
MAX_WALK_MOVES = 10_000_000
MAX_TILE_WALK_REPETITIONS = 1_000_000  # each repetition walks the blank up to width + height cells

# SplitMix64, the pure-Python twin of npuzzle._kernels.generate (same constants, same draws).
_MASK_64 = (1 << 64) - 1
_MASK_32 = (1 << 32) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX_1 = 0xBF58476D1CE4E5B9
_MIX_2 = 0x94D049BB133111EB


def _mix64(z: int) -> int:
    """SplitMix64's finaliser on a 64-bit integer."""
    z = ((z ^ (z >> 30)) * _MIX_1) & _MASK_64
    z = ((z ^ (z >> 27)) * _MIX_2) & _MASK_64
    return z ^ (z >> 31)


def _board_state(key: int, index: int) -> int:
    """Starting state of board ``index`` of the batch keyed ``key``."""
    return _mix64((key + (index + 1) * _GAMMA) & _MASK_64)


def _draw_below(state: int, bound: int) -> tuple[int, int]:
    """``(new_state, value)``, ``value`` uniform in ``0 .. bound-1`` (Lemire's method with rejection)."""
    threshold = ((1 << 32) - bound) % bound
    while True:
        state = (state + _GAMMA) & _MASK_64
        product = (_mix64(state) >> 32) * bound
        if product & _MASK_32 >= threshold:
            return state, product >> 32


def seed_key(seed: int | None) -> int:
    """The 64-bit key of all draws for ``seed`` (any non-negative int; ``None``: fresh OS entropy).

    Seeds below ``2**64`` map to distinct keys; larger ones are folded 64 bits at a time.
    """
    if seed is None:
        return secrets.randbits(64)
    try:
        value = operator.index(seed)
    except TypeError:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}") from None
    if isinstance(seed, bool) or value < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    key = 0
    while True:
        key = _mix64(((key ^ (value & _MASK_64)) + _GAMMA) & _MASK_64)
        value >>= 64
        if not value:
            return key


# -- pure-Python references of the kernels (canonical form: values[cell] = home cell) ----------------------
def _is_canonical_solvable(values: list[int], width: int, blank_home: int) -> bool:
    """Parity of the whole permutation equals the parity of the blank's taxicab distance from home."""
    n = len(values)
    seen = bytearray(n)
    transpositions = 0
    for i in range(n):
        j, length = i, 0
        while not seen[j]:
            seen[j] = 1
            j = values[j]
            length += 1
        transpositions += max(length - 1, 0)
    blank_cell = values.index(blank_home)
    distance = abs(blank_cell // width - blank_home // width) + abs(blank_cell % width - blank_home % width)
    return (transpositions - distance) % 2 == 0


def _shuffle_values(state: int, n: int, width: int, blank_home: int) -> list[int]:
    values = list(range(n))
    for i in range(n - 1, 0, -1):
        state, j = _draw_below(state, i + 1)
        values[i], values[j] = values[j], values[i]
    if not _is_canonical_solvable(values, width, blank_home):
        first = 0 if values[0] != blank_home else 1
        second = first + 1 if values[first + 1] != blank_home else first + 2
        values[first], values[second] = values[second], values[first]
    return values


def _walk_values(
    state: int, width: int, height: int, blank_home: int, n_moves: int
) -> tuple[list[int], list[int]]:
    """``(values, path)``: the goal after ``n_moves`` non-backtracking moves; ``path`` = blank's cells."""
    values = list(range(width * height))
    blank, previous = blank_home, -1
    path: list[int] = []
    for _ in range(n_moves):
        options = [c for c in neighbour_cells(blank, width, height) if c != previous]
        state, r = _draw_below(state, len(options))
        cell = options[r]
        values[blank], values[cell] = values[cell], blank_home
        path.append(cell)
        previous, blank = blank, cell
    return values, path


def _tile_walk_values(state: int, width: int, height: int, blank_home: int, repetitions: int) -> list[int]:
    n = width * height
    values = list(range(n))
    blank = blank_home
    for _ in range(repetitions):
        state, r = _draw_below(state, n - 1)
        target = r if r < blank else r + 1
        target_row, target_col = divmod(target, width)
        while blank != target:
            row, col = divmod(blank, width)
            if row != target_row:
                cell = blank + width if row < target_row else blank - width
            else:
                cell = blank + 1 if col < target_col else blank - 1
            values[blank], values[cell] = values[cell], blank_home
            blank = cell
    return values


# -- argument checks ---------------------------------------------------------------------------------------
def _method(method: str) -> str:
    name = _METHOD_ALIASES.get(str(method).strip().lower(), str(method).strip().lower())
    if name not in METHODS:
        raise ValueError(f"unknown generation method {method!r}; choose one of {', '.join(METHODS)}")
    return name


def _count(value: Any, what: str) -> int:
    """A non-negative integer argument; ValueError naming ``what`` otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}") from None
    if number < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    return number


def _moves(goal: Board, method: str, moves: int | None) -> int:
    """Walk length or tile-walk repetitions, with defaults; shuffle takes none."""
    if method == "shuffle":
        if moves is not None:
            raise ValueError("moves applies to methods walk and tile-walk, not shuffle")
        return 0
    if moves is None:
        if method == "walk":
            return DEFAULT_WALK_MOVES_PER_CELL * goal.n_cells
        return DEFAULT_TILE_WALK_REPETITIONS
    what = "moves" if method == "walk" else "moves (tile-walk repetitions)"
    number = _count(moves, what)
    cap = MAX_WALK_MOVES if method == "walk" else MAX_TILE_WALK_REPETITIONS
    if number > cap:
        raise ProblemTooLargeError(
            f"{what} {number:,} is above the limit {cap:,}: one board would take minutes to days, and a "
            f"{goal.width}x{goal.height} board is mixed long before (walk: {DEFAULT_WALK_MOVES_PER_CELL} moves "
            f"per cell, tile-walk: {DEFAULT_TILE_WALK_REPETITIONS} repetitions on a 4x4); for a uniform board use "
            "method shuffle"
        )
    return number


# -- public API --------------------------------------------------------------------------------------------
def _one(goal: Board, method: str, n_moves: int, key: int, index: int) -> Board:
    state = _board_state(key, index)
    blank_home = goal.blank_cell
    if method == "shuffle":
        values = _shuffle_values(state, goal.n_cells, goal.width, blank_home)
    elif method == "walk":
        values, _ = _walk_values(state, goal.width, goal.height, blank_home, n_moves)
    else:
        values = _tile_walk_values(state, goal.width, goal.height, blank_home, n_moves)
    return goal.with_tiles(goal.tiles[v] for v in values)


def generate(
    goal: Board,
    method: str = "shuffle",
    *,
    moves: int | None = None,
    count: int = 1,
    seed: int | None = None,
) -> list[Board]:
    """``count`` random boards that can reach ``goal``, by ``method`` (``shuffle``, ``walk``, ``tile-walk``).

    ``moves`` is the walk length (default 25 per cell) or the number of tile-walk repetitions (default 150);
    shuffle takes none. Board ``k`` depends only on ``seed`` and ``k``, and equals row ``k`` of
    :func:`generate_array` with the same arguments. Raises ``ValueError`` for an unknown method or a
    negative ``moves`` / ``count`` / ``seed``.

    >>> from npuzzle.goals import classic
    >>> [b.tiles for b in generate(classic(2, 2), "walk", moves=2, count=2, seed=3)]
    [(0, 1, 3, 2), (0, 2, 1, 3)]
    """
    return list(iter_generate(goal, method, moves=moves, count=count, seed=seed))


def iter_generate(
    goal: Board,
    method: str = "shuffle",
    *,
    moves: int | None = None,
    count: int | None = None,
    seed: int | None = None,
) -> Iterator[Board]:
    """The boards of :func:`generate` one at a time (``count=None``: without end), in constant memory.
    Arguments are checked at once, before the first board; the same ``ValueError`` s as :func:`generate`, and
    :class:`~npuzzle.errors.ProblemTooLargeError` for ``moves`` above :data:`MAX_WALK_MOVES` /
    :data:`MAX_TILE_WALK_REPETITIONS`."""
    name = _method(method)
    n_moves = _moves(goal, name, moves)
    n_boards = None if count is None else _count(count, "count")
    key = seed_key(seed)
    indices = itertools.count() if n_boards is None else range(n_boards)
    return (_one(goal, name, n_moves, key, k) for k in indices)


def shuffle(goal: Board, seed: int | None = None) -> Board:
    """A uniformly random board among all that can reach ``goal`` (any layout, any labels)."""
    return generate(goal, "shuffle", seed=seed)[0]


def walk(goal: Board, moves: int, seed: int | None = None) -> Board:
    """The board after ``moves`` random legal moves from ``goal``, never undoing the previous move."""
    return generate(goal, "walk", moves=moves, seed=seed)[0]


def tile_walk(
    goal: Board, repetitions: int = DEFAULT_TILE_WALK_REPETITIONS, seed: int | None = None
) -> Board:
    """``repetitions`` times: pick a random tile and walk the blank to it (vertically, then horizontally)."""
    return generate(goal, "tile-walk", moves=repetitions, seed=seed)[0]


def walk_path(goal: Board, moves: int, seed: int | None = None) -> list[int]:
    """The labels of the tiles that slide during :func:`walk` with the same arguments, in order:
    ``goal.apply(walk_path(goal, m, s)) == walk(goal, m, s)``."""
    n_moves = _count(moves, "moves")
    state = _board_state(seed_key(seed), 0)
    _, path = _walk_values(state, goal.width, goal.height, goal.blank_cell, n_moves)
    board = goal
    labels = []
    for cell in path:  # the tile standing in the cell the blank moves to is the one that slides
        label = board.tiles[cell]
        labels.append(label)
        board = board.move(label)
    return labels


def label_dtype(goal: Board) -> Any:
    """The smallest signed NumPy integer type holding every label of ``goal``."""
    import numpy as np  # imported here: keep `import npuzzle.generate` light

    low, high = min(goal.tiles), max(goal.tiles)
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return np.dtype(dtype)
    raise ValueError(f"labels {low}..{high} do not fit a 64-bit integer")


def generate_array(
    goal: Board,
    method: str = "shuffle",
    *,
    count: int,
    moves: int | None = None,
    seed: int | None = None,
    dtype: Any = None,
) -> np.ndarray:
    """``count`` boards as a ``(count, n_cells)`` array of user labels, row-major, via numba kernels.

    Same boards as :func:`generate` with the same arguments (row ``k`` is board ``k``). ``dtype``
    defaults to :func:`label_dtype` (``int8`` for boards up to 127 labels). The first call of each method
    compiles its kernel (cached on disk afterwards).
    """
    import numpy as np  # imported here: numba loads only when a batch is asked for

    from ._kernels import generate as kernels

    name = _method(method)
    n_moves = _moves(goal, name, moves)
    n_boards = _count(count, "count")
    key = np.uint64(seed_key(seed))
    out_dtype = label_dtype(goal) if dtype is None else np.dtype(dtype)
    if not np.can_cast(label_dtype(goal), out_dtype, "safe"):
        raise ValueError(f"dtype {out_dtype} cannot hold labels {min(goal.tiles)}..{max(goal.tiles)}")
    labels = np.asarray(goal.tiles, dtype=out_dtype)
    if name == "shuffle":
        return kernels.shuffle_batch(key, n_boards, goal.width, goal.blank_cell, labels)  # type: ignore[no-any-return]
    if name == "walk":
        return kernels.walk_batch(  # type: ignore[no-any-return]
            key, n_boards, goal.width, goal.height, goal.blank_cell, n_moves, labels
        )
    return kernels.tile_walk_batch(key, n_boards, goal.width, goal.blank_cell, n_moves, labels)  # type: ignore[no-any-return]


def boards_from_array(array: Any, goal: Board) -> list[Board]:
    """The rows of a :func:`generate_array` result as boards shaped like ``goal``."""
    return [goal.with_tiles(int(v) for v in row) for row in array]


__all__ = [
    "DEFAULT_TILE_WALK_REPETITIONS",
    "DEFAULT_WALK_MOVES_PER_CELL",
    "MAX_TILE_WALK_REPETITIONS",
    "MAX_WALK_MOVES",
    "METHODS",
    "boards_from_array",
    "generate",
    "generate_array",
    "iter_generate",
    "label_dtype",
    "seed_key",
    "shuffle",
    "tile_walk",
    "walk",
    "walk_path",
]
