"""Goal layouts. Every goal is just a :class:`~npuzzle.board.Board`.

Presets (``LAYOUTS``), for any ``width`` × ``height``:

* ``classic``      1..N-1 row by row, blank last
* ``blank-first``  blank, then 1..N-1 (Korf's convention)
* ``snake``        1..N-1 in boustrophedon rows (left→right, then right→left, ...), blank last
* ``spiral``       1..N-1 clockwise from the top-left inwards, blank at the spiral's end (42-school n-puzzle)
* ``column``       1..N-1 column by column, blank last
* ``blank-at``     labels 1..N in row-major order with the number at ``cell`` missing: the blank sits there
                   (a "missing number" puzzle; see :func:`blank_at`)
* ``random``       a random arrangement from a seed (:func:`random_goal`)

>>> print(goal("snake", 3, 3))
1 2 3
6 5 4
7 8 _
>>> print(goal("spiral", 3, 3))
1 2 3
8 _ 4
7 6 5
>>> goal("blank-at", 3, 3, cell=0).tiles
(0, 2, 3, 4, 5, 6, 7, 8, 9)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from .board import Board, check_label, check_side, excerpt
from .errors import BoardFormatError, GoalMismatchError


def tile_labels(n_cells: int, blank: int = 0) -> list[int]:
    """The tile labels a preset uses: ``1..N-1``, or ``0..N-1`` without ``blank`` when ``blank`` is one of
    those (tiles 0..7 with 8 as the hole).

    >>> tile_labels(9, 8)
    [0, 1, 2, 3, 4, 5, 6, 7]
    """
    if 1 <= blank <= n_cells - 1:
        return [label for label in range(n_cells) if label != blank]
    return list(range(1, n_cells))


def _check(width: int, height: int, blank: int = 0) -> tuple[int, int, int]:
    """Width and height in 2..MAX_SIDE and an integer blank, checked before any list is built."""
    return check_side(width, "width"), check_side(height, "height"), check_label(blank, "blank")


def _from_order(order: Sequence[int], width: int, height: int, blank: int) -> Board:
    """Tiles placed along ``order`` (a list of cells); the last cell of the order holds the blank."""
    tiles = [0] * (width * height)
    for label, cell in zip(tile_labels(width * height, blank), order[:-1], strict=True):
        tiles[cell] = label
    tiles[order[-1]] = blank
    return Board(tiles, width, height, blank)


def classic(width: int, height: int, blank: int = 0) -> Board:
    """1..N-1 row-major, blank last."""
    width, height, blank = _check(width, height, blank)
    return _from_order(range(width * height), width, height, blank)


def blank_first(width: int, height: int, blank: int = 0) -> Board:
    """Blank in the top-left cell, then 1..N-1 row-major (Korf's goal)."""
    width, height, blank = _check(width, height, blank)
    return Board([blank, *tile_labels(width * height, blank)], width, height, blank)


def snake(width: int, height: int, blank: int = 0) -> Board:
    """Boustrophedon rows: even rows left to right, odd rows right to left; blank last."""
    width, height, blank = _check(width, height, blank)
    order: list[int] = []
    for row in range(height):
        cols = range(width) if row % 2 == 0 else range(width - 1, -1, -1)
        order += [row * width + c for c in cols]
    return _from_order(order, width, height, blank)


def spiral_order(width: int, height: int) -> list[int]:
    """Cells clockwise from the top-left, spiralling inwards."""
    width, height, _ = _check(width, height)
    top, bottom, left, right = 0, height - 1, 0, width - 1
    order: list[int] = []
    while top <= bottom and left <= right:
        order += [top * width + c for c in range(left, right + 1)]
        order += [r * width + right for r in range(top + 1, bottom + 1)]
        if top < bottom:
            order += [bottom * width + c for c in range(right - 1, left - 1, -1)]
        if left < right:
            order += [r * width + left for r in range(bottom - 1, top, -1)]
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return order


def spiral(width: int, height: int, blank: int = 0) -> Board:
    """1..N-1 clockwise from the top-left inwards; the blank ends the spiral."""
    width, height, blank = _check(width, height, blank)
    return _from_order(spiral_order(width, height), width, height, blank)


def column(width: int, height: int, blank: int = 0) -> Board:
    """1..N-1 column-major (down the first column, then the next), blank last."""
    width, height, blank = _check(width, height, blank)
    order = [r * width + c for c in range(width) for r in range(height)]
    return _from_order(order, width, height, blank)


def blank_at(width: int, height: int, cell: int | None = None, blank: int = 0) -> Board:
    """Labels ``1..N`` in row-major order with label ``cell + 1`` missing: the blank stands in ``cell``.

    This is the "missing number" goal of picture puzzles: each tile is named by its home cell (1-based) and
    the piece that was removed leaves the hole. ``cell`` defaults to the last cell.
    """
    width, height, blank = _check(width, height, blank)
    n = width * height
    cell = n - 1 if cell is None else check_label(cell, "blank cell")
    if not 0 <= cell < n:
        raise BoardFormatError(f"blank cell {cell} is outside a {width}x{height} board (0..{n - 1})")
    tiles = [c + 1 for c in range(n)]
    if blank in tiles and blank != cell + 1:
        raise BoardFormatError(f"blank label {blank} clashes with tile {blank} of the blank-at layout")
    tiles[cell] = blank
    return Board(tiles, width, height, blank)


def around_blank(width: int, height: int, cell: int | None = None, blank: int = 0) -> Board:
    """1..N-1 row-major around the blank, which stands in ``cell`` (0-based; the last cell by default).

    Numbered games whose hole belongs elsewhere than the last cell number the tiles around it. The last cell
    gives :func:`classic`, cell 0 :func:`blank_first`; unlike :func:`blank_at` no label is skipped.

    >>> around_blank(3, 2, 2).tiles
    (1, 2, 0, 3, 4, 5)
    >>> around_blank(3, 3, 0) == blank_first(3, 3)
    True
    """
    width, height, blank = _check(width, height, blank)
    n = width * height
    cell = n - 1 if cell is None else check_label(cell, "blank cell")
    if not 0 <= cell < n:
        raise BoardFormatError(f"blank cell {cell} is outside a {width}x{height} board (0..{n - 1})")
    return _from_order([*(c for c in range(n) if c != cell), cell], width, height, blank)


def random_goal(width: int, height: int, seed: int | None = None, blank: int = 0) -> Board:
    """Labels 1..N-1 and the blank in a random arrangement drawn from ``seed``."""
    width, height, blank = _check(width, height, blank)
    if seed is not None:
        seed = check_label(seed, "seed")
        if seed < 0:  # random.Random(-s) is random.Random(s): two names for one goal
            raise BoardFormatError(f"a random goal's seed is 0 or more, got {seed}")
    rng = random.Random(seed)
    tiles = [*tile_labels(width * height, blank), blank]
    rng.shuffle(tiles)
    return Board(tiles, width, height, blank)


LAYOUTS: dict[str, Callable[..., Board]] = {
    "classic": classic,
    "blank-first": blank_first,
    "snake": snake,
    "spiral": spiral,
    "column": column,
    "blank-at": blank_at,
    "random": random_goal,
}
ALIASES = {
    "korf": "blank-first",
    "blank_first": "blank-first",
    "zero-first": "blank-first",
    "boustrophedon": "snake",
    "columns": "column",
    "column-major": "column",
    "missing": "blank-at",
    "blank_at": "blank-at",
    "42": "spiral",
}


def layout_names() -> list[str]:
    return list(LAYOUTS)


def goal(
    layout: str,
    width: int,
    height: int,
    blank: int = 0,
    *,
    cell: int | None = None,
    seed: int | None = None,
) -> Board:
    """The goal board named ``layout`` for a ``width`` × ``height`` board.

    ``layout`` may carry its parameter: ``"blank-at:4"`` (blank in cell 4), ``"random:7"`` (seed 7), or take
    it as ``cell=``/``seed=``; an empty parameter (``"random:"``), a negative seed, a parameter the layout does
    not take or one that disagrees with the keyword is a :class:`BoardFormatError`.
    """
    if not isinstance(layout, str):
        raise TypeError(f"layout must be a layout name such as 'classic', got {type(layout).__name__}")
    name, colon, arg = layout.strip().lower().partition(":")
    if not name:
        raise BoardFormatError(f"empty goal layout {excerpt(layout)}; choose one of {', '.join(LAYOUTS)}")
    name = ALIASES.get(name, name)
    if name not in LAYOUTS:
        raise BoardFormatError(f"unknown goal layout {excerpt(layout)}; choose one of {', '.join(LAYOUTS)}")
    if colon:
        what = {"blank-at": "the blank's cell", "random": "a seed"}.get(name)
        if what is None:
            raise BoardFormatError(f"layout {excerpt(name)} takes no parameter (got {excerpt(layout)})")
        arg = arg.strip()
        # ASCII digits (\d takes any script's), and not empty (that would mean a new goal every run)
        if not re.fullmatch(r"[+-]?[0-9]{1,18}", arg):
            raise BoardFormatError(
                f"{excerpt(layout)} needs {what} after the colon, a whole number such as {name}:4"
            )
        value = int(arg)
        given = cell if name == "blank-at" else seed
        if given is not None and given != value:
            keyword = "cell" if name == "blank-at" else "seed"
            raise BoardFormatError(f"{excerpt(layout)} and {keyword}={given!r} disagree; give one of them")
        if name == "blank-at":
            cell = value
        else:
            seed = value
    if cell is not None and name != "blank-at":
        raise BoardFormatError(f"cell= goes with the blank-at layout, not {excerpt(layout)}")
    if seed is not None and name != "random":
        raise BoardFormatError(f"seed= goes with the random layout, not {excerpt(layout)}")
    if name == "blank-at":
        return blank_at(width, height, cell, blank)
    if name == "random":
        return random_goal(width, height, seed, blank)
    return LAYOUTS[name](width, height, blank)


def goal_for(start: Board, layout: str | Board | Sequence[int] | None = "classic") -> Board:
    """Resolve ``layout`` (a name, a Board or a flat tile list) into a goal matching ``start``'s size and blank.

    A named layout adapts to ``start``'s labels: the non-blank labels are placed along the layout in
    increasing order (so tiles ``0..7`` with hole ``8`` work as well as ``1..8`` with hole ``0``). If
    ``start`` is labelled ``1..N`` with one number missing (a picture puzzle whose tiles are named by their
    home cells), ``classic`` means the ``blank-at`` goal with the hole at the missing number's cell.

    >>> from npuzzle.board import Board
    >>> goal_for(Board([0, 1, 2, 3, 4, 5, 6, 8, 7], 3, 3, blank=8)).tiles
    (0, 1, 2, 3, 4, 5, 6, 7, 8)
    >>> goal_for(Board([1, 2, 0, 4], 2, 2)).tiles
    (1, 2, 0, 4)
    """
    if not isinstance(start, Board):
        raise TypeError(f"start must be a Board (see npuzzle.parse_board), got {type(start).__name__}")
    if layout is None:
        layout = "classic"
    if isinstance(layout, Board):
        result = layout
    elif isinstance(layout, str):
        result = _named_goal_for(start, layout)
    else:
        result = Board(layout, start.width, start.height, start.blank)
    check_same_labels(start, result)
    return result


def _named_goal_for(start: Board, layout: str) -> Board:
    name = layout.strip().lower().partition(":")[0]
    if ALIASES.get(name, name) == "classic":
        missing = _missing_number(start)
        if missing is not None and missing != start.n_cells:
            return blank_at(start.width, start.height, missing - 1, start.blank)
    # A start labelled otherwise than the preset (0..N-2 with blank N-1, 1..N with a hole, ...) gets the
    # same layout with its own labels, in the same order: the k-th smallest label takes the place of the
    # preset's k-th smallest.
    preset = goal(layout, start.width, start.height, 0)
    own = sorted(start.labels - {start.blank})
    theirs = sorted(preset.labels - {preset.blank})
    mapping = {preset.blank: start.blank, **dict(zip(theirs, own, strict=True))}
    return preset.relabel(mapping, blank=start.blank)


def _missing_number(board: Board) -> int | None:
    """If ``board``'s tiles are 1..N with exactly one number absent, that number."""
    n = board.n_cells
    others = set(board.tiles) - {board.blank}
    if len(others) == n - 1 and others <= set(range(1, n + 1)):
        (missing,) = set(range(1, n + 1)) - others
        return missing
    return None


def check_same_labels(start: Board, goal_board: Board) -> None:
    """Raise :class:`GoalMismatchError` unless both boards have the same size, blank and label set."""
    for what, board in (("start", start), ("goal", goal_board)):
        if not isinstance(board, Board):
            raise TypeError(f"{what} must be a Board (see npuzzle.parse_board), got {type(board).__name__}")
    if start.size != goal_board.size:
        raise GoalMismatchError(
            f"start is {start.width}x{start.height} but goal is {goal_board.width}x{goal_board.height}"
        )
    if start.blank != goal_board.blank:
        raise GoalMismatchError(f"start's blank is {start.blank} but goal's blank is {goal_board.blank}")
    if start.labels != goal_board.labels:
        only_start = sorted(start.labels - goal_board.labels)
        only_goal = sorted(goal_board.labels - start.labels)
        raise GoalMismatchError(
            f"start and goal have different labels: only in start {excerpt(only_start)}, "
            f"only in goal {excerpt(only_goal)}"
        )


__all__ = [
    "ALIASES",
    "LAYOUTS",
    "around_blank",
    "blank_at",
    "blank_first",
    "check_same_labels",
    "classic",
    "column",
    "goal",
    "goal_for",
    "layout_names",
    "random_goal",
    "snake",
    "spiral",
    "spiral_order",
    "tile_labels",
]
