"""The one result type every solver returns and every face (CLI, web, render, batch) consumes."""

from __future__ import annotations

import copy
import math
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .board import Board
from .errors import IllegalMoveError, InvalidSolutionError

METRICS = ("single", "multi")
# Single-tile answers at least this long are replayed by a compiled kernel (about 0.7 s per million moves
# in pure Python, milliseconds compiled) once numba is loaded; from KERNEL_IMPORT_MOVES on numba is loaded
# for it (importing it takes about half a second).
KERNEL_REPLAY_MOVES = 50_000
KERNEL_IMPORT_MOVES = 1_000_000
REPORT = "internal error, please report it (with the board and the command)"


@dataclass(frozen=True)
class SearchStats:
    """What a search did. ``max_open`` is the largest frontier (open list, or IDA* stack depth)."""

    expanded: int = 0
    generated: int = 0
    max_open: int = 0
    closed: int = 0
    seconds: float = 0.0
    iterations: int = 0  # IDA* thresholds tried / BFS layers
    startup_seconds: float = 0.0  # loading or compiling kernels and tables, not counted in ``seconds``

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Solution:
    """A path from ``start`` to ``goal``.

    ``moves`` are labels of the tiles that slide (in the multi-tile metric, the label of the farthest tile
    of each slide). ``directions()`` gives U/D/L/R letters for where each *tile* travels.

    >>> from npuzzle.goals import classic
    >>> s = Solution(Board([1, 2, 0, 3], 2, 2), classic(2, 2), (3,), True, "bfs", None)
    >>> s.length, s.directions(), s.replay() == classic(2, 2)
    (1, 'L', True)
    """

    start: Board
    goal: Board
    moves: tuple[int, ...]
    optimal: bool
    algorithm: str
    heuristic: str | None
    stats: SearchStats = field(default_factory=SearchStats)
    metric: str = "single"
    #: A proven admissible lower bound on the optimal length (``None``: not computed); ``optimal`` is true
    #: only when the optimum is proven (exact search finished, or ``length == lower_bound``).
    lower_bound: int | None = None
    #: A proven factor ``w``: ``length <= w * optimal`` (``None``: no such guarantee; 1.0 when optimal).
    suboptimality: float | None = None
    #: What else happened, in words (one-time work such as building pattern tables, the steps tried).
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Refuse an answer that cannot be right, so that no face (CLI, web, batch) ever returns one.

        A ``lower_bound`` equal to the length makes the answer ``optimal`` (with ``suboptimality`` 1.0),
        whatever method built it: the bound is proven, so is the optimum.

        The moves are replayed from ``start`` (O(moves + cells): a flat list with the blank's cell tracked,
        no board per move) and must end on ``goal``; ``lower_bound`` may not exceed the length; and an
        ``optimal`` claim may not lie below an admissible bound (:func:`admissible_bound`). Every failure
        raises :class:`~npuzzle.errors.InvalidSolutionError`: a bug or a damaged pattern database.
        """
        self._check(replay=True)

    def with_claims(self, **changes: Any) -> Solution:
        """This path with other claims or words (``optimal``, ``lower_bound``, ``suboptimality``, ``notes``,
        ``stats``, ``algorithm``, ``heuristic``), checked as at construction, except that the same moves
        between the same boards (immutable, replayed when this solution was made) are not replayed again: a
        3.7 M-move answer on a 128x128 board takes about a quarter of a second to replay."""
        kept = changes.keys() & {"start", "goal", "moves", "metric"}
        unknown = changes.keys() - {f.name for f in fields(self)}
        if kept or unknown:
            raise TypeError(
                f"with_claims changes claims and words only, not {', '.join(sorted(kept | unknown))} "
                "(a new path is a new Solution)"
            )
        new = copy.copy(self)
        for name, value in changes.items():
            object.__setattr__(new, name, value)
        new._check(replay=False)
        return new

    def _check(self, replay: bool) -> None:
        """:meth:`__post_init__`'s checks; the moves replayed to the goal only with ``replay``."""
        if not isinstance(self.moves, tuple):
            object.__setattr__(self, "moves", tuple(self.moves))
        what = f"the {self.algorithm}{'/' + self.heuristic if self.heuristic else ''} solution"
        if self.metric not in METRICS:
            raise InvalidSolutionError(f"{REPORT}: {what} has metric {self.metric!r}, not single or multi")
        if not isinstance(self.start, Board) or not isinstance(self.goal, Board):
            raise InvalidSolutionError(f"{REPORT}: {what} needs Board start and goal")
        if self.start.size != self.goal.size or self.start.blank != self.goal.blank:
            raise InvalidSolutionError(
                f"{REPORT}: {what} goes from a {self.start.width}x{self.start.height} board to a "
                f"{self.goal.width}x{self.goal.height} goal (blank {self.start.blank} vs {self.goal.blank})"
            )
        lower_bound = getattr(self, "lower_bound", None)
        if lower_bound is not None and not 0 <= lower_bound <= self.length:
            raise InvalidSolutionError(
                f"{REPORT}: {what} has {self.length} moves but claims a lower bound of {lower_bound}"
            )
        suboptimality = getattr(self, "suboptimality", None)
        if suboptimality is not None and not suboptimality >= 1:  # length <= w * optimal needs w >= 1
            raise InvalidSolutionError(f"{REPORT}: {what} claims a suboptimality factor of {suboptimality!r}")
        if lower_bound == self.length and not self.optimal:
            # a proven bound reached: this answer is optimal, whichever method found it
            object.__setattr__(self, "optimal", True)
            object.__setattr__(self, "suboptimality", 1.0)
        if self.optimal:
            bound = admissible_bound(self.start, self.goal, self.metric)
            if self.length < bound:
                raise InvalidSolutionError(
                    f"{REPORT}: {what} claims an optimal {self.length}-move answer, but every answer needs at "
                    f"least {bound} moves ({BOUND_NAMES[self.metric]}); a damaged pattern database gives this: "
                    "run `npuzzle pdb verify`"
                )
        if not replay:
            return
        try:
            tiles, _ = walk(self.start, self.moves, self.metric)
        except IllegalMoveError as exc:
            raise InvalidSolutionError(f"{REPORT}: {what} is not a legal move sequence: {exc}") from None
        if tuple(tiles) != self.goal.tiles:
            wrong = sum(1 for a, b in zip(tiles, self.goal.tiles, strict=True) if a != b)
            raise InvalidSolutionError(
                f"{REPORT}: {what}'s {self.length} moves do not reach the goal ({wrong} cells differ)"
            )

    @property
    def length(self) -> int:
        return len(self.moves)

    def boards(self) -> Iterator[Board]:
        """The start, then the board after each move (``length + 1`` boards; each one costs O(cells), so
        print :meth:`directions` rather than boards when only the moves are wanted)."""
        for tiles in walk_states(self.start, self.moves, self.metric):
            yield self.start.with_tiles(tiles)

    def replay(self) -> Board:
        """Apply every move and check the goal is reached; returns the final board."""
        tiles, _ = walk(self.start, self.moves, self.metric)
        board = self.start.with_tiles(tiles)
        if board != self.goal:
            raise IllegalMoveError("the moves do not lead to the goal")
        return board

    def direction_list(self) -> list[str]:
        """One token per move: ``"U"``..., or ``"R3"`` for a three-tile slide in the multi-tile metric.

        O(moves + cells) (the blank's cell is tracked on a flat list), so a 100,000-move answer prints fast.
        """
        _, tokens = walk(self.start, self.moves, self.metric, tokens=True)
        assert tokens is not None
        return tokens

    def directions(self) -> str:
        """Tile-travel letters (U/D/L/R), concatenated."""
        return "".join(self.direction_list())

    def to_dict(self) -> dict[str, Any]:
        """The ``solve --json`` object."""
        return {
            "length": self.length,
            "moves": list(self.moves),
            "directions": self.directions(),
            "optimal": self.optimal,
            "algorithm": self.algorithm,
            "heuristic": self.heuristic,
            "metric": self.metric,
            "lower_bound": self.lower_bound,
            "suboptimality": self.suboptimality,
            "notes": list(self.notes),
            "stats": self.stats.to_dict(),
        }


BOUND_NAMES = {
    "single": "Manhattan distance",
    "multi": "row distances / (height - 1) + column distances / (width - 1), rounded up",
}


def admissible_bound(start: Board, goal: Board, metric: str = "single") -> int:
    """A lower bound on the length of every ``start`` → ``goal`` answer, cheap (O(cells)) and provably
    admissible, used to refute impossible optimality claims.

    * ``single``: the Manhattan distance. A move shifts one tile by one cell, so it lowers the sum of the
      tiles' distances to their goal cells by at most 1.
    * ``multi``: with ``V`` the sum of the tiles' row distances and ``H`` that of their column distances,
      ``ceil(V / (height - 1)) + ceil(H / (width - 1))``. A slide moves at most ``height - 1`` tiles (a
      vertical slide, inside one column: ``H`` unchanged) or ``width - 1`` tiles (a horizontal one: ``V``
      unchanged) by one cell each, so a vertical slide lowers ``V`` by at most ``height - 1`` and a
      horizontal one lowers ``H`` by at most ``width - 1``: at least that many slides of each kind are
      needed. (Counting misplaced tiles would not do: one slide can bring several tiles home.)

    >>> from npuzzle.goals import classic
    >>> b = Board([1, 2, 3, 4, 5, 6, 0, 7, 8], 3, 3)
    >>> admissible_bound(b, classic(3, 3)), admissible_bound(b, classic(3, 3), "multi")
    (2, 1)
    """
    width = start.width
    home = {label: cell for cell, label in enumerate(goal.tiles)}
    rows = cols = 0
    blank = start.blank
    for cell, label in enumerate(start.tiles):
        if label == blank:
            continue
        target = home.get(label)
        if target is None:
            return 0  # another label set: the replay reports it
        r, c = divmod(cell, width)
        tr, tc = divmod(target, width)
        rows += abs(r - tr)
        cols += abs(c - tc)
    if metric == "multi":
        return math.ceil(rows / (start.height - 1)) + math.ceil(cols / (width - 1))
    return rows + cols


def replay_steps(
    tiles: list[int], width: int, blank: int, moves: Iterable[int], multi: bool
) -> Iterator[str]:
    """Apply ``moves`` to ``tiles`` in place, yielding each move's direction token (``"U"``, ``"R3"``).

    Tracks the blank's cell and each label's cell, so a single-tile move costs O(1) and a slide O(tiles
    slid). Raises :class:`IllegalMoveError` naming the first bad move.
    """
    cell_of = {label: cell for cell, label in enumerate(tiles)}
    b = cell_of[blank]
    for i, label in enumerate(moves):
        c = cell_of.get(label, -1) if label != blank else -1
        if c < 0:
            what = "the blank" if label == blank else "not on the board"
            raise IllegalMoveError(f"move {i + 1} ({label!r}) is {what}")
        d = c - b
        if c // width == b // width:  # same row: the tile is right of the blank (travels L) or left (R)
            step, letter, distance = (1, "L", d) if d > 0 else (-1, "R", -d)
        elif d % width == 0:  # same column: below the blank (travels U) or above (D)
            step, letter, distance = (width, "U", d // width) if d > 0 else (-width, "D", -d // width)
        else:
            step, letter, distance = 0, "", 0
        if distance == 0 or (distance > 1 and not multi):
            where = "in the blank's row or column" if multi else "next to the blank"
            raise IllegalMoveError(f"move {i + 1} (tile {label}) is not {where}")
        if distance == 1:
            tiles[b] = label
            cell_of[label] = b
            b = c
            tiles[b] = blank
            yield letter
            continue
        # the tiles between the blank and c (c included) shift one cell toward the blank, by slices
        if step > 0:
            moved = tiles[b + step : c + 1 : step]
            tiles[b:c:step] = moved
        else:
            moved = tiles[c:b:-step]
            tiles[c - step : b + 1 : -step] = moved
        for t in moved:
            cell_of[t] -= step
        b = c
        tiles[b] = blank
        yield f"{letter}{distance}"


def walk(
    start: Board, moves: Sequence[int], metric: str = "single", *, tokens: bool = False
) -> tuple[list[int], list[str] | None]:
    """Replay ``moves`` from ``start`` on a flat list of tiles: O(cells + moves) in the single-tile metric,
    O(cells + tiles slid) in the multi-tile one, never a board per move.

    Returns the final tiles (row-major) and, with ``tokens``, the direction tokens (``"U"``, or ``"R3"``
    for a three-tile slide). Raises :class:`IllegalMoveError` naming the first bad move.

    >>> walk(Board([1, 2, 0, 3], 2, 2), (3,), tokens=True)
    ([1, 2, 3, 0], ['L'])
    """
    if metric == "single" and len(moves) >= KERNEL_REPLAY_MOVES:
        compiled = _walk_compiled(start, moves, tokens)
        if compiled is not None:
            return compiled
    tiles = list(start.tiles)
    steps = replay_steps(tiles, start.width, start.blank, moves, metric == "multi")
    if tokens:
        return tiles, list(steps)
    for _ in steps:
        pass
    return tiles, None


def _walk_compiled(
    start: Board, moves: Sequence[int], tokens: bool
) -> tuple[list[int], list[str] | None] | None:
    """:func:`walk` of a long single-tile answer by the compiled twin of :func:`replay_steps`
    (:func:`npuzzle._kernels.replay.replay_single`); ``None`` when it cannot serve (labels not small
    non-negative integers, numba missing, numba not yet loaded for a merely long answer, or an illegal move:
    the pure-Python replay then names it)."""
    tiles = start.tiles
    if min(tiles) < 0 or max(tiles) >= 4 * len(tiles) + 16:
        return None
    if "numba" not in sys.modules and len(moves) < KERNEL_IMPORT_MOVES:
        return None  # importing numba costs more than replaying this in Python
    try:
        import numpy as np

        from ._kernels.replay import replay_single

        labels = np.fromiter(moves, dtype=np.int64, count=len(moves))
    except (ImportError, OverflowError, TypeError, ValueError):
        return None
    array = np.array(tiles, dtype=np.int64)
    letters = np.empty(len(moves), dtype=np.uint8)
    if replay_single(array, start.width, start.blank, labels, letters) >= 0:
        return None
    return array.tolist(), (list(letters.tobytes().decode("ascii")) if tokens else None)


def walk_states(start: Board, moves: Sequence[int], metric: str = "single") -> Iterator[tuple[int, ...]]:
    """The tiles of the start, then after each move (one tuple per step: O(cells) each)."""
    tiles = list(start.tiles)
    yield start.tiles
    for _ in replay_steps(tiles, start.width, start.blank, moves, metric == "multi"):
        yield tuple(tiles)


__all__ = ["SearchStats", "Solution", "admissible_bound", "replay_steps", "walk", "walk_states"]
