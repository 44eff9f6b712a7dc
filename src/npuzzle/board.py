"""The board model: an immutable W×H grid of distinct integer labels with one blank.

Vocabulary (used everywhere in npuzzle):

* *tile*: a piece, named by its integer *label*; the *blank* is the empty cell's label (default 0).
* *cell*: a position, ``cell = row * width + col``, row 0 at the top.
* *move*: the label of the tile that slides into the blank.
* *direction*: where that **tile** goes: ``U`` up, ``D`` down, ``L`` left, ``R`` right (the speed-solving
  convention; the blank goes the opposite way). Use :func:`npuzzle.notation.blank_to_tile_directions`
  to convert from blank-direction notation.

>>> b = Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 0, 8]])
>>> b.legal_moves()
(5, 7, 8)
>>> b.move(8)
Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
>>> b.move_direction("L") == b.move(8)
True
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .errors import BoardFormatError, IllegalMoveError, LabelError

#: Direction letters, always the direction the *tile* travels.
DIRECTIONS = "UDLR"
#: (row delta, col delta) of the tile's travel for each direction letter.
DIRECTION_DELTAS: dict[str, tuple[int, int]] = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}

MAX_SIDE = 256  # a 256×256 board already has 65,536 cells; anything larger is a typo, not a puzzle
MIN_SIDE = 2  # on a 1-wide board tiles can never pass each other
EXCERPT_CHARS = 60  # error messages quote at most this much of the input


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr`` of ``value``'s text with whitespace runs collapsed, cut to ``limit`` characters.

    Every error message quotes its input through this, so a 50 MB line never comes back in full.

    >>> excerpt("1  2\\n3")
    "'1 2 3'"
    >>> excerpt("x" * 100, 10)
    "'xxxxxxxxx…'"
    >>> excerpt(list(range(100)), 20)
    '[0, 1, 2, 3, 4, 5, …'
    """
    text = value if isinstance(value, str) else _short_repr(value, limit)
    if len(text) > 4 * limit:  # never split a huge string only to keep its head
        text = text[: 4 * limit]
    text = " ".join(text.split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(text) if isinstance(value, str) else text


def _short_repr(value: object, limit: int) -> str:
    """``repr(value)`` without building a huge string for a long list or a huge integer."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit * 3:
        return f"<integer of about {int(value.bit_length() * 0.30103):,} digits>"
    if isinstance(value, list | tuple) and len(value) > limit:
        return repr(type(value)(value[:limit]))[:-1] + ", …"
    try:
        return repr(value)
    except (RecursionError, ValueError):  # self-nested lists, ints past str()'s digit limit
        return f"<{type(value).__name__}>"


def check_side(value: object, what: str = "side") -> int:
    """An integer board side in ``MIN_SIDE..MAX_SIDE``, or :class:`BoardFormatError` naming ``what``.

    Checked before anything is allocated, so a width of 10**9 costs nothing.

    >>> check_side(4)
    4
    """
    if isinstance(value, bool):
        raise BoardFormatError(f"{what} must be an integer, got {excerpt(value)}")
    try:
        side = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        if not (isinstance(value, float) and value.is_integer()):
            raise BoardFormatError(f"{what} must be an integer, got {excerpt(value)}") from None
        side = int(value)
    if side < MIN_SIDE:
        why = ": on a 1-wide board tiles can never pass each other" if side == 1 else ""
        raise BoardFormatError(
            f"{what} {side} is too small: a board is at least {MIN_SIDE}x{MIN_SIDE} (sides {MIN_SIDE}..{MAX_SIDE}){why}"
        )
    if side > MAX_SIDE:
        raise BoardFormatError(f"{what} {excerpt(side)} is larger than the largest board side, {MAX_SIDE}")
    return side


def check_label(value: object, what: str = "label") -> int:
    """An integer label (``int`` or NumPy integer; bool and float refused) or :class:`BoardFormatError`."""
    if isinstance(value, bool):
        raise BoardFormatError(f"{what} must be an integer, got {excerpt(value)}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise BoardFormatError(f"{what} must be an integer, got {excerpt(value)}") from None


def neighbour_cells(cell: int, width: int, height: int) -> list[int]:
    """Cells orthogonally adjacent to ``cell`` on a ``width`` × ``height`` grid, in the order up, down,
    left, right (kernels and generators rely on that order).

    >>> neighbour_cells(4, 3, 3)
    [1, 7, 3, 5]
    """
    row, col = divmod(cell, width)
    out = []
    if row > 0:
        out.append(cell - width)
    if row < height - 1:
        out.append(cell + width)
    if col > 0:
        out.append(cell - 1)
    if col < width - 1:
        out.append(cell + 1)
    return out


def line_cells(cell: int, width: int, height: int) -> list[int]:
    """Cells sharing ``cell``'s column (top to bottom), then its row (left to right), ``cell`` excluded:
    where a multi-tile slide into a blank at ``cell`` can start.

    >>> line_cells(4, 3, 3)
    [1, 7, 3, 5]
    """
    row, col = divmod(cell, width)
    return [r * width + col for r in range(height) if r != row] + [row * width + c for c in range(width) if c != col]


def _as_label(value: object) -> int:
    """An integer label from an int or NumPy integer; bool and float are refused."""
    if isinstance(value, bool):
        raise BoardFormatError(f"tile labels must be integers, got {excerpt(value)}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise BoardFormatError(f"tile labels must be integers, got {excerpt(value)}") from None


def _array_label(value: object) -> int:
    """A label from an array element: an integer, or a float holding a whole number (``2.0``); a fraction,
    NaN or infinity is a :class:`BoardFormatError` (``int()`` would truncate ``1.9`` to ``1`` silently)."""
    if isinstance(value, bool | str | bytes) or type(value).__name__ in ("bool", "bool_"):  # NumPy's bool too
        raise BoardFormatError(f"tile labels must be integers, got {excerpt(value)}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        pass
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BoardFormatError(f"tile labels must be integers, got {excerpt(value)}") from None
    if not number.is_integer():
        raise BoardFormatError(f"tile labels must be whole numbers, got {excerpt(value)}")
    return int(number)


class Board:
    """An immutable, hashable sliding-tile position on a ``width`` × ``height`` grid.

    ``tiles`` is the row-major tuple of labels; exactly one of them equals ``blank``.
    Labels are any distinct integers (``0..N-1``, ``1..N`` with a hole, ...). ``width`` and ``height`` are
    integers from 2 to :data:`MAX_SIDE` (256, so at most 65,536 cells), checked before anything is built:
    a larger size is a :class:`~npuzzle.errors.BoardFormatError` at no cost.

    >>> Board([1, 2, 3, 0], 2, 2).blank_cell
    3
    >>> Board([1, 2, 3, 0], 2, 2) == Board((1, 2, 3, 0), width=2, height=2)
    True
    """

    __slots__ = ("_hash", "_index", "blank", "height", "tiles", "width")

    tiles: tuple[int, ...]
    width: int
    height: int
    blank: int

    def __init__(self, tiles: Iterable[int], width: int, height: int, blank: int = 0) -> None:
        # sizes first: nothing is allocated for a board larger than MAX_SIDE x MAX_SIDE
        width, height = check_side(width, "width"), check_side(height, "height")
        blank = check_label(blank, "blank")
        n = width * height
        if isinstance(tiles, str | bytes):
            raise BoardFormatError(f"tiles must be a sequence of integer labels, got text {excerpt(tiles)}")
        try:
            tiles_t = tuple(_as_label(v) for v in itertools.islice(tiles, n + 1))
        except TypeError as exc:
            raise BoardFormatError(f"tiles must be a sequence of integer labels: {exc}") from None
        if len(tiles_t) != n:
            raise BoardFormatError(
                f"a {width}x{height} board has {n} cells but "
                f"{'more than ' + str(n) if len(tiles_t) > n else len(tiles_t)} labels were given"
            )
        index: dict[int, int] = {}
        for cell, label in enumerate(tiles_t):
            if label in index:
                raise LabelError(f"label {excerpt(label)} appears twice (cells {index[label]} and {cell})")
            index[label] = cell
        if blank not in index:
            raise LabelError(
                f"no blank: label {excerpt(blank)} does not occur (use blank=... / --blank to name the hole's label)"
            )
        object.__setattr__(self, "tiles", tiles_t)
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "blank", blank)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_hash", hash((tiles_t, width, height, blank)))

    # -- construction -------------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], blank: int = 0) -> Board:
        """Build from a list of rows (top to bottom)."""
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise BoardFormatError(f"rows must be non-empty and of equal length, got {rows!r}")
        return cls([v for r in rows for v in r], len(rows[0]), len(rows), blank)

    @classmethod
    def from_array(cls, array: Any, width: int | None = None, height: int | None = None, blank: int = 0) -> Board:
        """Build from a 2-D NumPy array (height × width) or a flat one with ``width`` and ``height``.

        Integer arrays are taken as they are; a float array only if every value is a whole number (``2.0``),
        so ``1.9`` is refused rather than truncated to ``1``.
        """
        shape = getattr(array, "shape", None)
        if shape is not None and len(shape) == 2:
            rows, cols = int(shape[0]), int(shape[1])
            if (width is not None and width != cols) or (height is not None and height != rows):
                raise BoardFormatError(
                    f"the array is {cols}x{rows} (width x height) but width={width}, height={height} was given"
                )
            height, width = rows, cols
            flat = [_array_label(v) for v in array.reshape(-1)]
        elif shape is not None and len(shape) != 1:
            raise BoardFormatError(f"a board array is 1-D or 2-D (height x width), not {len(shape)}-D {tuple(shape)}")
        else:
            flat = [_array_label(v) for v in array]
            if width is None or height is None:
                raise BoardFormatError("a flat array needs width= and height=")
        return cls(flat, width, height, blank)

    # -- immutability and identity ------------------------------------------------------------------
    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable; use move(), apply() or relabel() to get a new board")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Board is immutable")

    def __hash__(self) -> int:
        return self._hash  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.tiles == other.tiles
            and self.width == other.width
            and self.height == other.height
            and self.blank == other.blank
        )

    def __copy__(self) -> Board:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Board, (self.tiles, self.width, self.height, self.blank))

    def __repr__(self) -> str:
        extra = f", blank={self.blank}" if self.blank != 0 else ""
        return f"Board.from_rows({[list(r) for r in self.rows()]!r}{extra})"

    def __str__(self) -> str:
        from .notation import format_board

        return format_board(self, "grid")

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[int]:
        return iter(self.tiles)

    # -- geometry -----------------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)``."""
        return self.width, self.height

    @property
    def n_cells(self) -> int:
        return self.width * self.height

    @property
    def blank_cell(self) -> int:
        return self._index[self.blank]  # type: ignore[no-any-return]

    @property
    def labels(self) -> frozenset[int]:
        """The set of labels, blank included."""
        return frozenset(self.tiles)

    def cell_of(self, label: int) -> int:
        """The cell holding ``label``; raises :class:`LabelError` for an unknown label."""
        try:
            return self._index[label]  # type: ignore[no-any-return]
        except KeyError:
            raise LabelError(f"label {excerpt(label)} is not on this {self.width}x{self.height} board") from None

    def position_of(self, label: int) -> tuple[int, int]:
        """``(row, col)`` of ``label``."""
        return divmod(self.cell_of(label), self.width)

    def at(self, row: int, col: int) -> int:
        """The label at ``(row, col)``, row 0 at the top.

        :class:`IndexError` for a cell off the board: ``at(-1, 0)`` is not the last row, as it would be in a
        list, and ``at(0, width)`` is not the next row's first cell.

        >>> Board([1, 2, 3, 0], 2, 2).at(1, 0)
        3
        """
        if not (0 <= row < self.height and 0 <= col < self.width):
            raise IndexError(
                f"row {excerpt(row)}, column {excerpt(col)} is outside a {self.width}x{self.height} board "
                f"(rows 0..{self.height - 1}, columns 0..{self.width - 1})"
            )
        return self.tiles[row * self.width + col]

    def rows(self) -> list[tuple[int, ...]]:
        w = self.width
        return [self.tiles[r * w : (r + 1) * w] for r in range(self.height)]

    def neighbour_cells(self, cell: int) -> list[int]:
        """Cells orthogonally adjacent to ``cell`` (up, down, left, right).

        :class:`IndexError` for a cell off the board (the module's function, used by kernels on cells they
        made themselves, does not check: there -1 would quietly have neighbours).

        >>> Board([1, 2, 3, 0], 2, 2).neighbour_cells(3)
        [1, 2]
        """
        cells = self.width * self.height
        if not 0 <= cell < cells:
            raise IndexError(
                f"cell {excerpt(cell)} is outside a {self.width}x{self.height} board (cells 0..{cells - 1})"
            )
        return neighbour_cells(cell, self.width, self.height)

    # -- moves --------------------------------------------------------------------------------------
    def legal_moves(self) -> tuple[int, ...]:
        """Labels of the tiles that can slide into the blank (single-tile metric), sorted."""
        return tuple(sorted(self.tiles[c] for c in self.neighbour_cells(self.blank_cell)))

    def legal_slides(self) -> tuple[int, ...]:
        """Labels that can be clicked in the multi-tile metric: every tile in the blank's row or column."""
        br, bc = divmod(self.blank_cell, self.width)
        out = [self.at(br, c) for c in range(self.width) if c != bc]
        out += [self.at(r, bc) for r in range(self.height) if r != br]
        return tuple(sorted(out))

    def _swapped(self, blank_cell: int, tile_cell: int) -> Board:
        tiles = list(self.tiles)
        tiles[blank_cell], tiles[tile_cell] = tiles[tile_cell], tiles[blank_cell]
        return Board(tiles, self.width, self.height, self.blank)

    def move(self, label: int) -> Board:
        """Slide tile ``label`` into the adjacent blank; :class:`IllegalMoveError` if not adjacent.

        >>> Board([1, 2, 3, 0], 2, 2).move(2).tiles
        (1, 0, 3, 2)
        """
        if label == self.blank:
            raise IllegalMoveError(f"cannot move the blank ({excerpt(label)}) itself; name the tile that slides")
        if label not in self._index:
            raise IllegalMoveError(f"tile {excerpt(label)} is not on this board")
        cell = self._index[label]
        blank_cell = self.blank_cell
        if cell not in self.neighbour_cells(blank_cell):
            raise IllegalMoveError(
                f"tile {excerpt(label)} is not next to the blank; legal moves here: {list(self.legal_moves())}"
            )
        return self._swapped(blank_cell, cell)

    def direction_of(self, label: int) -> str:
        """The direction tile ``label`` would travel when slid (it must share the blank's row or column)."""
        tr, tc = self.position_of(label)
        br, bc = divmod(self.blank_cell, self.width)
        if tr == br and tc != bc:
            return "R" if tc < bc else "L"
        if tc == bc and tr != br:
            return "D" if tr < br else "U"
        raise IllegalMoveError(f"tile {excerpt(label)} is not in the blank's row or column")

    def tile_for_direction(self, direction: str, distance: int = 1) -> int:
        """The label that travels ``direction`` (tile convention) when ``distance`` tiles slide at once."""
        d = direction.upper()
        if d not in DIRECTION_DELTAS:
            raise IllegalMoveError(f"direction must be one of U, D, L, R (tile travel), got {excerpt(direction)}")
        dr, dc = DIRECTION_DELTAS[d]
        br, bc = divmod(self.blank_cell, self.width)
        # the tile travelling (dr, dc) stands on the opposite side of the blank
        tr, tc = br - dr * distance, bc - dc * distance
        if not (0 <= tr < self.height and 0 <= tc < self.width):
            raise IllegalMoveError(
                f"no tile can move {d}{'' if distance == 1 else distance}: the blank is at row {br}, "
                f"column {bc} of a {self.width}x{self.height} board"
            )
        return self.at(tr, tc)

    def move_direction(self, direction: str) -> Board:
        """Move the tile that travels ``direction`` (U/D/L/R: where the *tile* goes)."""
        return self.move(self.tile_for_direction(direction))

    def slide(self, label: int) -> Board:
        """Multi-tile move: slide ``label`` and every tile between it and the blank one cell toward the blank.

        >>> Board([1, 2, 0, 3, 4, 5], 3, 2).slide(1).tiles
        (0, 1, 2, 3, 4, 5)
        """
        if label == self.blank:
            raise IllegalMoveError("cannot slide the blank itself; name the farthest tile that moves")
        if label not in self._index:
            raise IllegalMoveError(f"tile {excerpt(label)} is not on this board")
        direction = self.direction_of(label)
        tr, tc = self.position_of(label)
        br, bc = divmod(self.blank_cell, self.width)
        distance = abs(tr - br) + abs(tc - bc)
        board = self
        for _ in range(distance):
            board = board.move_direction(direction)
        return board

    def apply(self, moves: Iterable[int], metric: str = "single") -> Board:
        """Apply a sequence of moves (labels). ``metric="multi"`` treats each as a :meth:`slide`."""
        board = self
        step = Board.slide if metric == "multi" else Board.move
        for i, label in enumerate(moves):
            try:
                board = step(board, label)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {i + 1} ({excerpt(label)}): {exc}") from None
        return board

    def neighbours(self) -> list[tuple[int, Board]]:
        """``(move, board)`` for every legal single-tile move."""
        return [(label, self.move(label)) for label in self.legal_moves()]

    # -- conversions --------------------------------------------------------------------------------
    def relabel(self, mapping: dict[int, int], blank: int | None = None) -> Board:
        """A board with every label replaced through ``mapping`` (must cover all labels)."""
        missing = [t for t in self.tiles if t not in mapping]
        if missing:
            raise LabelError(f"relabel mapping misses labels {missing}")
        new_blank = mapping[self.blank] if blank is None else blank
        return Board([mapping[t] for t in self.tiles], self.width, self.height, new_blank)

    def to_array(self) -> Any:
        """The tiles as a ``height × width`` NumPy ``int64`` array."""
        import numpy as np

        return np.array(self.tiles, dtype=np.int64).reshape(self.height, self.width)

    def to_list(self) -> list[int]:
        return list(self.tiles)

    def with_tiles(self, tiles: Iterable[int]) -> Board:
        """Same size and blank label, other tiles."""
        return Board(tiles, self.width, self.height, self.blank)


__all__ = [
    "DIRECTIONS",
    "DIRECTION_DELTAS",
    "MAX_SIDE",
    "MIN_SIDE",
    "OPPOSITE",
    "Board",
    "check_label",
    "check_side",
    "excerpt",
    "line_cells",
    "neighbour_cells",
]
