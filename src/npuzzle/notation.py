"""Reading and writing boards and move lists.

Boards
    :func:`parse_board` understands plain text (``"1 2 3 / 4 5 6 / 7 8 0"``, commas, newlines, ``_`` or ``.``
    for the blank), nested and flat lists, JSON, Simon Tatham's game ids (``4x4:1,2,...,0``), the 42-school
    n-puzzle file (``#`` comments, a size line, then rows) and Slidysim rows (``5 3 8 9/0 2 4 1/...``).
    :func:`format_board` writes ``grid``, ``line``, ``json``, ``rows`` (Slidysim), ``tatham``, ``korf`` and ``42``;
    ``parse_board(format_board(b, style), blank=b.blank) == b`` for every style; ``korf`` and ``42`` hold
    only square boards (they carry no size) and refuse others.

Moves
    A move is the label of the tile that slides. Directions are letters for where the **tile** travels
    (``U`` up, ``D`` down, ``L`` left, ``R`` right: the speed-solving convention). Run-length form ``R3D2``
    abbreviates ``RRRDD``. Notations that name the *blank's* direction go through
    :func:`blank_to_tile_directions` explicitly.

>>> b = parse_board("1 2 3 / 4 5 6 / 7 _ 8")
>>> b.tiles
(1, 2, 3, 4, 5, 6, 7, 0, 8)
>>> print(format_board(b))
1 2 3
4 5 6
7 _ 8
>>> format_board(b, "tatham")
'3x3:1,2,3,4,5,6,7,0,8'
>>> directions_to_moves(b, "L")
[8]
>>> moves_to_directions(b, [8])
'L'
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from .board import DIRECTIONS, MAX_SIDE, OPPOSITE, Board, check_label, check_side, excerpt
from .errors import BoardFormatError, IllegalMoveError, LabelError

BLANK_TOKENS = frozenset({"_", ".", "-", "--", "__"})
#: Longest board text read: a 256×256 board (the largest) takes 65,536 labels of up to 6 characters, about
#: 400 KB; longer text is refused before it is split, so parsing never allocates more than a few times this.
MAX_BOARD_CHARS = 1 << 21
#: Most single-tile moves an ``R3D2`` text may expand to (10 MB of letters).
MAX_MOVES_TEXT = 10_000_000
BOARD_STYLES = ("grid", "line", "json", "rows", "tatham", "korf", "42")

# Numbers in user text are ASCII digits, a label or a move with an optional sign. int() alone would also
# take "1_0" (as 10) and other scripts' digits ("٣"), and \d matches those digits too, so a typo would be
# read as another number rather than refused.
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DIGITS = re.compile(r"[0-9]+")
_TATHAM = re.compile(r"^\s*([0-9]+)\s*x\s*([0-9]+)\s*:\s*(.*)$", re.DOTALL)
_SIZE = re.compile(r"^\s*([0-9]+)\s*[xX×*]\s*([0-9]+)\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """``"4x3"`` → ``(4, 3)`` (width × height); a single number ``"4"`` means 4×4.

    >>> parse_size("4x3")
    (4, 3)

    Each side is 2..256 (:data:`npuzzle.board.MAX_SIDE`); anything else is a :class:`BoardFormatError`.
    """
    if not isinstance(text, str):
        raise BoardFormatError(f"size must be text like 4x3, got {excerpt(text)}")
    text = text.strip()
    if len(text) <= 40:  # long text is no size; a regex over 50 MB would only waste time
        match = _SIZE.match(text)
        if match:
            return _side(match.group(1), "width"), _side(match.group(2), "height")
        if _DIGITS.fullmatch(text):
            side = _side(text, "size")
            return side, side
    raise BoardFormatError(f"size must look like WxH (e.g. 4x3), got {excerpt(text)}")


def _side(digits: str, what: str) -> int:
    """A board side from a run of digits, range-checked before ``int`` (no 5,000-digit conversions)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(MAX_SIDE)):
        raise BoardFormatError(f"{what} {excerpt(digits)} is larger than the largest board side, {MAX_SIDE}")
    return check_side(int(digits), what)


def parse_integer(token: str) -> int | None:
    """``token`` as an integer if it is one written the plain way (ASCII digits, an optional sign), else
    ``None``: ``"1_0"``, ``" 5"``, ``"٣"`` and ``"1e3"``, which ``int()`` or ``float()`` would read, are not.

    >>> parse_integer("-12"), parse_integer("1_0")
    (-12, None)
    """
    if not _INTEGER.fullmatch(token):
        return None
    try:
        return int(token)
    except ValueError:  # more digits than int() converts
        return None


def _token_to_label(token: str, blank: int, source: str) -> int:
    if token in BLANK_TOKENS:
        return blank
    label = parse_integer(token)
    if label is None:
        raise BoardFormatError(
            f"{excerpt(token, 20)} is not a tile number in {_quote(source)}{_number_hint(token)}"
        )
    return label


def _number_hint(token: str) -> str:
    """How to write a number, for a refused token that looks like one was meant (``1_0``, ``٣``)."""
    if _INTEGER.fullmatch(token) or not re.search(r"[\d_]", token):
        return ""
    return " (numbers are written with the digits 0-9 only, an optional sign first)"


def _quote(text: object, limit: int = 60) -> str:
    return excerpt(text if isinstance(text, str) else str(text)[: 4 * limit], limit)


def _infer_size(count: int, width: int | None, height: int | None, source: str) -> tuple[int, int]:
    if count > MAX_SIDE * MAX_SIDE:
        raise BoardFormatError(
            f"{count:,} tiles is more than the largest board ({MAX_SIDE}x{MAX_SIDE}) holds: {_quote(source)}"
        )
    if width is not None and height is not None:
        if width * height != count:
            raise BoardFormatError(
                f"size {width}x{height} needs {width * height} tiles but {count} were given in {_quote(source)}"
            )
        return width, height
    if width is not None or height is not None:
        known = width if width is not None else int(height or 0)
        if known <= 0 or count % known:
            raise BoardFormatError(f"{count} tiles do not fill whole rows of {known} in {_quote(source)}")
        other = count // known
        return (known, other) if width is not None else (other, known)
    side = math.isqrt(count)
    if side * side != count:
        raise BoardFormatError(
            f"{count} tiles is not a square count, so the size is ambiguous: give the size "
            f"(--size WxH, or width= and height=) for {_quote(source)}"
        )
    return side, side


def _check_stated_size(
    stated: tuple[int | None, int | None], given: tuple[int | None, int | None], what: str, src: str
) -> None:
    """Refuse a size given alongside a text that states its own (a Tatham id, a 42 file, a JSON object) when
    the two differ: one of them is a mistake, and taking either without a word would hide it."""
    if all(s is None or g is None or s == g for s, g in zip(stated, given, strict=True)):
        return
    raise BoardFormatError(
        f"{what} says {_size_text(stated)} but the size given (--size) is "
        f"{_size_text(given)}: {_quote(src)}"
    )


def _size_text(size: tuple[int | None, int | None]) -> str:
    width, height = size
    if width is not None and height is not None:
        return f"{width}x{height}"
    return f"width {width}" if width is not None else f"height {height}"


def _board_from_rows(rows: list[list[int]], width: int | None, height: int | None, blank: int, src: str) -> Board:
    lengths = {len(r) for r in rows}
    if len(rows) > 1 and len(lengths) == 1:
        row_w, row_h = len(rows[0]), len(rows)
        if (width is not None and width != row_w) or (height is not None and height != row_h):
            raise BoardFormatError(
                f"the text has {row_h} rows of {row_w} but the size given is {width}x{height}: {_quote(src)}"
            )
        return Board([v for r in rows for v in r], row_w, row_h, blank)
    if len(rows) > 1 and len(lengths) > 1:
        raise BoardFormatError(f"rows have different lengths {sorted(lengths)} in {_quote(src)}")
    flat = [v for r in rows for v in r]
    w, h = _infer_size(len(flat), width, height, src)
    return Board(flat, w, h, blank)


def _optional_side(value: Any, what: str) -> int | None:
    return None if value is None else check_side(value, what)


def _parse_nested(value: Any, width: int | None, height: int | None, blank: int, src: str) -> Board:
    if isinstance(value, dict):
        tiles = value.get("tiles", value.get("board"))
        if tiles is None:
            raise BoardFormatError(f"a JSON board object needs a 'tiles' list: {_quote(src)}")
        if isinstance(tiles, dict):
            raise BoardFormatError(f"'tiles' must be a list, not another object: {_quote(src)}")
        # sizes and blank are checked before anything is built from them
        stated = _optional_side(value.get("width"), "width"), _optional_side(value.get("height"), "height")
        _check_stated_size(stated, (width, height), "the JSON board", src)
        return _parse_nested(
            tiles,
            width if stated[0] is None else stated[0],
            height if stated[1] is None else stated[1],
            check_label(value.get("blank", blank), "blank"),
            src,
        )
    if not isinstance(value, list | tuple) or not value:
        raise BoardFormatError(f"expected a non-empty list of tiles, got {_quote(src)}")
    if len(value) > MAX_SIDE * MAX_SIDE:
        raise BoardFormatError(
            f"{len(value):,} entries is more than the largest board ({MAX_SIDE}x{MAX_SIDE}) holds: {_quote(src)}"
        )
    if all(isinstance(r, list | tuple) for r in value):
        rows = [[_json_label(v, blank, src) for v in r] for r in value]
        return _board_from_rows(rows, width, height, blank, src)
    flat = [_json_label(v, blank, src) for v in value]
    w, h = _infer_size(len(flat), width, height, src)
    return Board(flat, w, h, blank)


def _json_label(value: Any, blank: int, src: str) -> int:
    if value is None:
        return blank
    if isinstance(value, str):
        return _token_to_label(value.strip(), blank, src)
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            import numpy as np

            if isinstance(value, np.integer):
                return int(value)
        except ImportError:  # pragma: no cover
            pass
        raise BoardFormatError(f"{excerpt(value, 20)} is not a tile number in {_quote(src)}")
    return value


def _strip_comments(text: str) -> list[str]:
    lines = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def parse_board(
    source: str | Sequence[Any] | Board,
    width: int | None = None,
    height: int | None = None,
    blank: int = 0,
) -> Board:
    """Parse a board from any supported text or list form (see the module docstring).

    ``width``/``height`` are needed only when the shape cannot be seen (a flat, non-square count).

    >>> parse_board("1,2,3,4,5,0", width=3, height=2).rows()
    [(1, 2, 3), (4, 5, 0)]
    >>> parse_board([[1, 2], [3, 0]]).tiles
    (1, 2, 3, 0)
    >>> parse_board("# a 42 file\\n3\\n1 2 3\\n8 0 4\\n7 6 5").tiles
    (1, 2, 3, 8, 0, 4, 7, 6, 5)
    """
    if isinstance(source, Board):
        return source
    width, height = _optional_side(width, "width"), _optional_side(height, "height")
    blank = check_label(blank, "blank")
    if isinstance(source, bytes | bytearray):
        source = bytes(source).decode("utf-8", errors="replace")
    if isinstance(source, str) and len(source) > MAX_BOARD_CHARS:
        raise BoardFormatError(
            f"board text longer than {MAX_BOARD_CHARS:,} characters, more than any board up to "
            f"{MAX_SIDE}x{MAX_SIDE} needs: {_quote(source)}"
        )
    if not isinstance(source, str) and not hasattr(source, "__iter__"):
        raise BoardFormatError(f"a board is text, a list of labels or a list of rows, not {excerpt(source)}")
    try:
        return _parse_board(source, width, height, blank)
    except LabelError as exc:
        raise LabelError(f"{exc} in {_quote(source if isinstance(source, str) else _short(source))}") from None
    except RecursionError:
        raise BoardFormatError(f"board nested too deeply: {_quote(_short(source))}") from None


def _short(source: object) -> str:
    return excerpt(source, 200) if not isinstance(source, str) else source


def _is_array(value: object) -> bool:
    """A NumPy array (checked by name: notation does not import NumPy)."""
    return type(value).__name__ == "ndarray" and hasattr(value, "tolist")


def _parse_board(source: str | Sequence[Any], width: int | None, height: int | None, blank: int) -> Board:
    if isinstance(source, dict):  # the JSON object form, already decoded
        return _parse_nested(source, width, height, blank, _short(source))
    if isinstance(source, set | frozenset):
        raise BoardFormatError(f"a set has no order, so it cannot be a board: {excerpt(source)}")
    if not isinstance(source, str):
        items = source.tolist() if _is_array(source) else source  # type: ignore[union-attr]
        if not hasattr(items, "__len__"):  # a generator: never more than a board's worth of it
            items = list(itertools.islice(items, MAX_SIDE * MAX_SIDE + 1))
        if len(items) > MAX_SIDE * MAX_SIDE:
            raise BoardFormatError(
                f"{len(items):,} entries is more than the largest board ({MAX_SIDE}x{MAX_SIDE}) holds"
            )
        return _parse_nested(list(items), width, height, blank, _short(source))
    text = source.lstrip("\ufeff").strip()  # a UTF-8 byte-order mark (Windows editors) is no tile
    if not text:
        raise BoardFormatError("empty board text")
    if text[0] in "[{":
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BoardFormatError(f"invalid JSON board ({exc.msg}) in {_quote(text)}") from None
        except RecursionError:
            raise BoardFormatError(f"JSON board nested too deeply: {_quote(text)}") from None
        except ValueError as exc:  # a number with more digits than int() converts
            raise BoardFormatError(f"invalid JSON board ({excerpt(str(exc), 80)}) in {_quote(text)}") from None
        return _parse_nested(value, width, height, blank, text)
    match = _TATHAM.match(text)
    if match:
        board = parse_tatham(text, blank=blank)
        _check_stated_size(board.size, (width, height), "the Tatham game id", text)
        return board
    lines = _strip_comments(text)
    if not lines:
        raise BoardFormatError(f"no tiles in {_quote(text)}")
    # 42-school file: a lone size number, then that many rows of that many tiles
    if len(lines) > 1 and re.fullmatch(r"[0-9]{1,4}", lines[0]):
        n = int(lines[0])
        rest = [line.split() for line in lines[1:]]
        if len(rest) == n and all(len(r) == n for r in rest):
            board = parse_42(text, blank=blank)
            _check_stated_size(board.size, (width, height), "the 42 n-puzzle file", text)
            return board
    body = "\n".join(lines)
    row_texts = [r for r in re.split(r"[/\n|;]+", body) if r.strip()]
    rows = [
        [_token_to_label(tok, blank, text) for tok in re.split(r"[\s,]+", r.strip()) if tok]
        for r in row_texts
    ]
    rows = [r for r in rows if r]
    return _board_from_rows(rows, width, height, blank, text)


def parse_tatham(text: str, blank: int = 0) -> Board:
    """Simon Tatham's Fifteen game id: ``"4x4:1,2,...,0"`` (width x height, 0 = blank).

    >>> parse_tatham("2x2:1,2,0,3").tiles
    (1, 2, 0, 3)
    """
    match = _TATHAM.match(text.strip())
    if not match:
        raise BoardFormatError(f"a Tatham game id looks like 4x4:1,2,...,0; got {_quote(text)}")
    w, h = _side(match.group(1), "width"), _side(match.group(2), "height")
    tokens = [t for t in re.split(r"[\s,]+", match.group(3).strip()) if t]
    labels = [_token_to_label(t, blank, text) for t in tokens]
    if len(labels) != w * h:
        raise BoardFormatError(f"game id says {w}x{h} ({w * h} tiles) but lists {len(labels)}: {_quote(text)}")
    return Board(labels, w, h, blank)


def parse_42(text: str, blank: int = 0) -> Board:
    """The 42-school n-puzzle file: ``#`` comments, a size line ``N``, then ``N`` rows of ``N`` numbers.

    Its goal convention is the ``spiral`` layout.
    """
    lines = _strip_comments(text)
    if not lines or not _DIGITS.fullmatch(lines[0]):
        raise BoardFormatError(f"a 42 n-puzzle file starts with a size line; got {_quote(text)}")
    n = _side(lines[0], "size")
    rows = [[_token_to_label(t, blank, text) for t in line.split()] for line in lines[1:]]
    if len(rows) != n or any(len(r) != n for r in rows):
        raise BoardFormatError(f"the size line says {n} but the rows do not form {n}x{n}: {_quote(text)}")
    return Board([v for r in rows for v in r], n, n, blank)


def parse_korf(line: str, width: int = 4, height: int = 4, blank: int = 0) -> Board:
    """One of Korf's instance lines: ``width*height`` numbers, optionally preceded by an id and/or a length.

    >>> parse_korf("1 57 14 13 15 4 7 0 8 1 11 9 6 3 12 10 5 2").tiles[:4]
    (14, 13, 15, 4)
    """
    tokens = [t for t in re.split(r"[\s,]+", line.split("#", 1)[0].strip()) if t]
    n = width * height
    if not n <= len(tokens) <= n + 2:
        raise BoardFormatError(
            f"a Korf line has {n} tiles, optionally after an id and a length; got {len(tokens)} numbers "
            f"in {_quote(line)}"
        )
    labels = [_token_to_label(t, blank, line) for t in tokens[-n:]]
    return Board(labels, width, height, blank)


def korf_instance_line(text: str, width: int | None, height: int | None, blank: int = 0) -> Board | None:
    """A line of Korf's instance files (an instance number, then the tiles ``0..N-1`` of a square board, or
    of ``width`` x ``height``) read as its board, or ``None`` if ``text`` is not one. Only tiles exactly
    ``0..N-1`` count, so a typed board with one number too many is still refused rather than read without its
    first number.

    >>> korf_instance_line("1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None, None).tiles[:3]
    (14, 13, 15)
    """
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if "\n" in text.strip() or len(tokens) < 5 or not all(re.fullmatch(r"[0-9]{1,6}", t) for t in tokens):
        return None
    n = len(tokens) - 1
    if width is not None and height is not None:
        if width * height != n:
            return None
    elif width is not None or height is not None or math.isqrt(n) ** 2 != n:
        return None
    tiles = [int(t) for t in tokens[1:]]
    if sorted(tiles) != list(range(n)) or blank not in tiles:
        return None
    side = math.isqrt(n)
    return Board(tiles, width or side, height or side, blank)


def parse_board_or_korf_line(
    text: str, width: int | None = None, height: int | None = None, blank: int = 0
) -> Board:
    """:func:`parse_board`, or else a Korf instance line (:func:`korf_instance_line`): the one rule for a
    board typed or read from a file by the CLI and by batch solving. A text that is neither gets
    :func:`parse_board`'s error.

    >>> parse_board_or_korf_line("7 1 2 3 0").tiles
    (1, 2, 3, 0)
    """
    try:
        return parse_board(text, width, height, blank)
    except BoardFormatError:
        korf = korf_instance_line(text, width, height, blank) if isinstance(text, str) else None
        if korf is None:
            raise
        return korf


def _label_text(board: Board, label: int, blank_token: str | None) -> str:
    if label == board.blank and blank_token is not None:
        return blank_token
    return str(label)


def format_board(board: Board, style: str = "grid") -> str:
    """Write ``board`` as text; ``style`` is one of :data:`BOARD_STYLES`.

    ``grid`` aligns columns and shows the blank as ``_``; ``line`` is one line with ``/`` between rows;
    ``rows`` is Slidysim's row form; ``json`` is self-describing (size and blank included).

    >>> print(format_board(Board([10, 2, 3, 0], 2, 2)))
    10  2
     3  _
    >>> format_board(Board([1, 2, 3, 0], 2, 2), "line")
    '1 2 / 3 0'
    """
    _need_board(board)
    if not isinstance(style, str):
        raise TypeError(f"style must be one of {', '.join(BOARD_STYLES)}, got {type(style).__name__}")
    style = style.lower()
    if style == "grid":
        cells = [_label_text(board, t, "_") for t in board.tiles]
        width = max(len(c) for c in cells)
        lines = []
        for r in range(board.height):
            row = cells[r * board.width : (r + 1) * board.width]
            lines.append(" ".join(c.rjust(width) for c in row))
        return "\n".join(lines)
    if style == "line":
        return " / ".join(" ".join(str(t) for t in row) for row in board.rows())
    if style == "rows":
        return "/".join(" ".join(str(t) for t in row) for row in board.rows())
    if style == "json":
        return json.dumps(
            {"width": board.width, "height": board.height, "blank": board.blank, "tiles": list(board.tiles)}
        )
    if style == "tatham":
        return f"{board.width}x{board.height}:" + ",".join(str(t) for t in board.tiles)
    if style == "korf":
        if board.width != board.height:
            # a Korf line is tiles only: read back, a non-square count is refused and a square one (8x2 has
            # 16 tiles) comes back as another shape, so refuse here rather than change the board
            raise BoardFormatError(
                f"the korf format only holds square boards (it has no size), not {board.width}x{board.height}; "
                "use line, grid, rows, tatham or json"
            )
        return " ".join(str(t) for t in board.tiles)
    if style == "42":
        if board.width != board.height:
            raise BoardFormatError(
                f"the 42 n-puzzle format only holds square boards, not {board.width}x{board.height}; "
                "use line, grid, rows, tatham or json"
            )
        width = max(len(str(t)) for t in board.tiles)
        body = "\n".join(" ".join(str(t).rjust(width) for t in row) for row in board.rows())
        return f"# npuzzle board\n{board.width}\n{body}\n"
    raise BoardFormatError(f"unknown board style {excerpt(style)}; choose one of {', '.join(BOARD_STYLES)}")


def _need_board(board: object) -> Board:
    if not isinstance(board, Board):
        raise TypeError(f"expected a Board (see parse_board), got {type(board).__name__}")
    return board


def _need_text(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be text, got {type(text).__name__}")
    return text


# -- moves ----------------------------------------------------------------------------------------------

_RUN = re.compile(r"([UDLR])([0-9]*)", re.IGNORECASE)


def expand_run_length(text: str) -> str:
    """``"R3D2"`` → ``"RRRDD"``; plain letters pass through; spaces and commas are ignored.

    >>> expand_run_length("R3 D2 L")
    'RRRDDL'
    """
    compact = re.sub(r"[\s,]+", "", _need_text(text, "directions"))
    out: list[str] = []
    pos = 0
    total = 0
    for match in _RUN.finditer(compact):
        if match.start() != pos:
            raise IllegalMoveError(
                f"cannot read direction {excerpt(compact[pos : match.start()], 20)} in {_quote(text)}"
            )
        digits = match.group(2)
        count = 1 if not digits else int(digits) if len(digits) <= 8 else MAX_MOVES_TEXT + 1
        total += count
        if total > MAX_MOVES_TEXT:
            raise IllegalMoveError(f"more than {MAX_MOVES_TEXT:,} moves in {_quote(text)}")
        out.append(match.group(1).upper() * count)
        pos = match.end()
    if pos != len(compact):
        raise IllegalMoveError(
            f"cannot read direction {excerpt(compact[pos:], 20)} in {_quote(text)}; use U, D, L, R"
        )
    return "".join(out)


def format_run_length(directions: str) -> str:
    """``"RRRDDL"`` → ``"R3D2L"``.

    >>> format_run_length("RRRDDL")
    'R3D2L'
    """
    out = []
    for match in re.finditer(r"(U+|D+|L+|R+)", _need_text(directions, "directions").upper()):
        run = match.group(0)
        out.append(run[0] if len(run) == 1 else f"{run[0]}{len(run)}")
    return "".join(out)


def blank_to_tile_directions(directions: str) -> str:
    """Convert letters that name where the *blank* goes into npuzzle's tile-travel letters.

    Some programs write ``U`` for "the blank moves up", which is the tile *above* the blank moving down.
    npuzzle always names the tile's travel, so each letter flips.

    >>> blank_to_tile_directions("UULR")
    'DDRL'
    """
    expanded = expand_run_length(directions)
    return "".join(OPPOSITE[d] for d in expanded)


tile_to_blank_directions = blank_to_tile_directions  # the conversion is its own inverse


def directions_to_moves(board: Board, directions: str) -> list[int]:
    """Labels of the tiles that slide for tile-travel letters (run-length allowed), single-tile metric."""
    _need_board(board)
    labels = []
    for i, letter in enumerate(expand_run_length(directions)):
        try:
            label = board.tile_for_direction(letter)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"direction {i + 1} ({letter}): {exc}") from None
        labels.append(label)
        board = board.move(label)
    return labels


def moves_to_directions(board: Board, moves: Iterable[int]) -> str:
    """Tile-travel letters for a list of single-tile moves (labels)."""
    _need_board(board)
    if isinstance(moves, str | bytes):
        raise TypeError("moves must be a list of tile labels (parse_moves reads text)")
    out = []
    for label in moves:
        out.append(board.direction_of(label))
        board = board.move(label)
    return "".join(out)


def run_length_to_slides(board: Board, text: str) -> list[int]:
    """Multi-tile metric: each token ``R3`` is ONE slide of three tiles to the right; returns the labels of
    the farthest tile of each slide (what :meth:`Board.slide` takes)."""
    _need_board(board)
    compact = re.sub(r"[\s,]+", "", _need_text(text, "slides"))
    labels = []
    for match in _RUN.finditer(compact):
        digits = match.group(2)
        count = 1 if not digits else int(digits) if len(digits) <= 8 else max(board.width, board.height)
        label = board.tile_for_direction(match.group(1).upper(), count)
        labels.append(label)
        board = board.slide(label)
    return labels


def parse_moves(text: str, board: Board | None = None) -> list[int]:
    """Moves from text: labels (``"8 5 2"``) or, given ``board``, tile-travel letters (``"LUR"``/``"L2U"``).

    >>> parse_moves("8, 5 2")
    [8, 5, 2]
    """
    stripped = _need_text(text, "moves").strip()
    if not stripped:
        return []
    if re.fullmatch(r"[-+\d_\s,]+", stripped):  # \d and _: "1_0" and "٣" are refused below, not read as letters
        moves = []
        for token in re.split(r"[\s,]+", stripped):
            if not token:
                continue
            label = parse_integer(token)
            if label is None:  # "1_0", a lone "-", "5-3", or more digits than int() converts
                raise IllegalMoveError(
                    f"moves are tile labels (integers): {excerpt(token, 20)} is not one in {_quote(text)}"
                    f"{_number_hint(token)}"
                )
            moves.append(label)
        return moves
    if board is not None:
        _need_board(board)
    if board is None:
        raise IllegalMoveError(f"direction letters need the board they start from: {_quote(text)}")
    return directions_to_moves(board, stripped)


def format_moves(moves: Iterable[int]) -> str:
    """``[8, 5, 2]`` → ``"8 5 2"``."""
    if isinstance(moves, str | bytes):
        raise TypeError("moves must be a list of tile labels, not text")
    return " ".join(str(check_label(m, "a move")) for m in moves)


__all__ = [
    "BOARD_STYLES",
    "DIRECTIONS",
    "blank_to_tile_directions",
    "directions_to_moves",
    "expand_run_length",
    "format_board",
    "format_moves",
    "format_run_length",
    "korf_instance_line",
    "moves_to_directions",
    "parse_42",
    "parse_board",
    "parse_board_or_korf_line",
    "parse_integer",
    "parse_korf",
    "parse_moves",
    "parse_size",
    "parse_tatham",
    "run_length_to_slides",
    "tile_to_blank_directions",
]
