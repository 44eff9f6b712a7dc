"""Reading a sliding puzzle from a screenshot: :func:`read_screenshot`, the one public entry point.

Input: a screenshot (a whole game window: the grid is found by :mod:`~npuzzle.render.locate`; or the board
alone), optionally the board size W×H and a *reference*: the original picture or a screenshot of the solved
puzzle. Without a reference, numbered tiles are read by OCR (:mod:`~npuzzle.render.ocr`) and picture tiles
are reassembled from their own seams (:mod:`~npuzzle.render.jigsaw`). The matching against a reference is
described below. Output (:class:`ScreenshotReading`): a Board whose
labels are the tiles' home cells ``1..N`` (row-major, 1-based), ``0`` in the empty cell; the goal is the
"missing number" layout :func:`npuzzle.goals.blank_at` with the hole at the missing tile's home. Numbered
tiles keep their numbers, their goal 1..N-1 around the hole's home (:func:`npuzzle.goals.around_blank`); or,
when the tiles go 1..N with one number left out (a "missing number" game), ``blank_at`` of that number's cell.

Method
    Every cell of both images is reduced to a :data:`FEATURE_SIDE`² colour thumbnail of its inner part
    (:data:`TRIM` of each side is ignored: grid lines, bevels, a sloppy crop). Cell ``i`` of the screenshot
    and cell ``j`` of the reference cost their RMS colour difference (0..1 units). One screenshot cell is
    the blank: it costs its own non-uniformity; the reference cell left over (the missing tile) costs
    nothing, whichever it is, so the matched cells alone decide it (a solved screenshot's flat hole is left
    over because no cell matches it better). This is one square assignment problem of
    size ``N + 1`` (a virtual "blank" column and a virtual "left over" row), solved globally with SciPy's
    ``linear_sum_assignment`` (the Hungarian method): tiles are never matched one by one.

    Brightness: a first pass matches the two images' per-channel means and spreads; then a per-channel gain
    and offset is fitted on the matched tiles and the assignment is solved again.

Confidence
    For each cell, the assignment is solved again with that cell's choice forbidden; the rise in total cost
    ``delta`` (how much worse the best alternative is) gives ``confidence = delta / (delta + CONFIDENCE_SCALE)``.
    A rise below :data:`AMBIGUOUS_MARGIN` means two readings are about equally good: the tiles involved are
    too alike to tell apart, and :func:`read_screenshot` raises :class:`AmbiguousTilesError` (or, with
    ``strict=False``, reports them in ``ambiguous``) instead of guessing silently.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board import Board
from ..errors import PuzzleError, SearchLimitExceeded
from ..goals import around_blank, blank_at
from .image import PictureError, cell_boxes, check_picture_size, load_picture
from .locate import Axis, Grid, GridNotFoundError, boxes_meet, candidate_grids, locate_grid, locate_grids

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    from PIL import Image as PILImage

    from .jigsaw import Assembly
    from .locate import Box
    from .ocr import NumberReading

FEATURE_SIDE = 16  # pixels per side of each cell's thumbnail; 16² × 3 colour values per cell
MIN_FEATURE_SIDE = 6  # ... down to this when the reference's pieces are small (reference_side)
TRIM = 0.12  # share of each cell side ignored at every edge
AMBIGUOUS_MARGIN = 0.012  # RMS (0..1 colour units): a reading this close to another is a guess
CONFIDENCE_SCALE = 0.02  # RMS at which confidence is 0.5
MISMATCH_RMS = 0.18  # mean RMS (0..1) of matched tiles above which the reference does not fit the tiles
MIN_CONFIDENCE = 0.5  # a number OCR reads with less confidence than this (0..1) is a guess
GRID_ALTERNATIVES = 3  # grids of different sizes tried, best first, when a reading's own check fails
REFERENCE_GRIDS = 12  # grids matched against a reference picture, best located first
REFERENCE_ASPECT_TOLERANCE = 0.1  # |log| of a grid's tile shape over the reference's pieces' shape
# a match this close is a whole board (parts of one cut as boards matched at 0.12-0.18):
STRONG_MATCH_RMS = 0.10
# required of grids other than the located ones, and before a doubt is settled by parity
REFINE_MATCH_SHARE = 0.06  # first step of _refine_by_match, as a share of the pitch ...
REFINE_MATCH_STEP = 0.5  # ... halved down to this many pixels
REFINE_MATCH_RMS = 0.25  # grids matching no closer than this are not refined (nothing of the board there)
REFINE_MATCH_TRIALS = 120  # grids matched at most by one _refine_by_match (about 5 ms each on a 4x4)
REFINE_GRIDS = 4  # closest-matching grids refined when no grid gives a sure reading
RECTANGLES = 4  # board rectangles cut into every size when no grid of tiles gives a sure reading
RECTANGLE_SIZES = range(2, 9)  # tiles per side tried in a board rectangle when the size is not given
FINER_CUT_KEPT = 0.75  # share of pieces kept beside their home neighbours that marks a board cut too finely
MIN_TILE_PX = 8  # pixels: a refined tile side stays above this
FORBIDDEN = 1e6  # cost of an assignment that must not happen (far above any RMS, which is <= 1)


class AmbiguousTilesError(PuzzleError, ValueError):
    """Some tiles of a screenshot look too alike to tell which is which.

    ``groups`` lists, for each doubt, the screenshot cells (0-based, row-major) whose reading could be
    exchanged; ``reading`` is the best guess, for callers that want it anyway.
    """

    def __init__(self, message: str, groups: tuple[tuple[int, ...], ...], reading: ScreenshotReading) -> None:
        super().__init__(message)
        self.groups = groups
        self.reading = reading


@dataclass(frozen=True)
class ScreenshotReading:
    """What :func:`read_screenshot` saw.

    ``board``: labels are home cells 1..N (picture tiles) or the numbers read (numbered tiles), 0 is the
    empty cell. ``goal``: for picture tiles :func:`~npuzzle.goals.blank_at` with the hole at ``missing`` (the
    home cell, 0-based, of the tile not on the screenshot); for numbered tiles 1..N-1 in reading order around
    the hole's home ``missing`` (:func:`npuzzle.goals.around_blank`), or, numbered 1..N with one left out,
    ``blank_at`` with the hole at that number's cell ``missing``.
    ``confidence``: one value in [0, 1] per screenshot cell, row-major. ``ambiguous``: groups of cells
    whose reading could be exchanged (empty when every tile is clear).
    """

    board: Board
    goal: Board
    confidence: tuple[float, ...]
    missing: int
    ambiguous: tuple[tuple[int, ...], ...] = ()
    kind: str = "picture"  # "picture" (matched against a reference) or "numbers" (read by OCR)
    grid: Grid | None = field(default=None, compare=False)  # where the cells were cut, if located
    # picture tiles read without a reference: the picture put back together from the screenshot's tiles
    # (the missing tile's place filled in from the pieces round it), for drawing the solution
    picture: PILImage.Image | None = field(default=None, compare=False, repr=False)
    # picture tiles matched to the finished picture the game shows beside the board: its box (x0, y0, x1, y1)
    preview: tuple[float, float, float, float] | None = field(default=None, compare=False)
    # picture tiles put back from their seams with the missing piece's home not seen (no reference, no preview,
    # none given): ``missing`` is the bottom-right, or another corner the seams fit clearly better
    home_assumed: bool = field(default=False, compare=False)

    @property
    def blank_cell(self) -> int:
        return self.board.blank_cell

    def to_dict(self) -> dict[str, Any]:
        """The ``npuzzle read --json`` object."""
        return {
            "width": self.board.width,
            "height": self.board.height,
            "tiles": list(self.board.tiles),
            "goal": list(self.goal.tiles),
            "confidence": [round(c, 3) for c in self.confidence],
        }


def cell_features(
    image: PILImage.Image,
    width: int,
    height: int,
    trim: float = TRIM,
    boxes: Sequence[tuple[float, float, float, float]] | None = None,
    side: int = FEATURE_SIDE,
) -> np.ndarray:
    """``(width * height, side² × 3)`` float64 thumbnails (0..1) of the inner part of each cell (cells cut
    from ``boxes`` if given, else an even split of the whole image)."""
    import numpy as np
    from PIL import Image

    out = np.empty((width * height, side * side * 3))
    if boxes is None:
        boxes = cell_boxes(image.width, image.height, width, height)
    for cell, (x0, y0, x1, y1) in enumerate(boxes):
        tx, ty = (x1 - x0) * trim, (y1 - y0) * trim
        # a cell past the screenshot's edge is read as far as it shows (it then matches nothing well)
        left, top = min(max(0.0, x0 + tx), image.width - 1), min(max(0.0, y0 + ty), image.height - 1)
        box = (left, top, max(left + 1, min(image.width, x1 - tx)), max(top + 1, min(image.height, y1 - ty)))
        thumb = image.resize((side, side), Image.Resampling.BOX, box=box)
        out[cell] = np.asarray(thumb, dtype=np.float64).reshape(-1) / 255.0
    return out


def reference_side(ref_image: PILImage.Image, width: int, height: int) -> int:
    """The thumbnail side tiles are compared with ``ref_image``'s pieces at: :data:`FEATURE_SIDE`, or half a
    small piece's trimmed side (at least :data:`MIN_FEATURE_SIDE`). A small reference (a game's preview of
    its picture, 11-20 px pieces) is blurred by its own shrinking; tiles thumbnailed as finely as it would
    differ from it by that blur (dev preview 33211: the right match 0.115 at 16, 0.075 at 8)."""
    return _piece_side(min(ref_image.width / width, ref_image.height / height))


def _piece_side(piece: float) -> int:
    """:func:`reference_side` for pieces of ``piece`` pixels a side."""
    return int(min(FEATURE_SIDE, max(MIN_FEATURE_SIDE, piece * (1 - 2 * TRIM) // 2)))


def _feature_side(features: np.ndarray) -> int:
    """The thumbnail side of ``features`` (rows of side² × 3 values)."""
    return math.isqrt(features.shape[1] // 3)


def _channels(features: np.ndarray) -> np.ndarray:
    """View ``(cells, FEATURE_SIDE² × 3)`` as ``(cells, FEATURE_SIDE², 3)``."""
    return features.reshape(features.shape[0], -1, 3)


def _rms_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``(len(a), len(b))`` RMS differences between feature rows."""
    import numpy as np

    # einsum, not a @ b.T: these products are small (at most 65 x 768 by 65), and a threaded BLAS on a busy
    # machine spent 10-40 ms on each of them against 1-2 ms here
    squared = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * np.einsum("ik,jk->ij", a, b)
    return np.sqrt(np.maximum(squared, 0.0) / a.shape[1])  # type: ignore[no-any-return]


def _flatness(features: np.ndarray) -> np.ndarray:
    """RMS deviation of each cell from its own mean colour (``features``: one row of RGB values per cell, as
    from :func:`cell_features`): 0 for a perfectly flat (blank-like) cell."""
    import numpy as np

    pixels = _channels(features)
    return np.sqrt(((pixels - pixels.mean(1, keepdims=True)) ** 2).mean((1, 2)))  # type: ignore[no-any-return]


def _cost_matrix(shot: np.ndarray, ref: np.ndarray, blank_cell: int | None) -> np.ndarray:
    """The ``(N + 1) × (N + 1)`` problem: rows are screenshot cells then the virtual "left over" row;
    columns are reference cells then the virtual "blank" column."""
    import numpy as np

    n = shot.shape[0]
    cost = np.empty((n + 1, n + 1))
    cost[:n, :n] = _rms_distances(shot, ref)
    cost[:n, n] = _flatness(shot)  # screenshot cell i is the hole
    # reference cell j is the tile nobody shows: the same cost for every j, so the cells alone decide it (its
    # flatness here made a flat piece of the picture the likely missing one: a 6x6 whose background pieces
    # look alike read with a piece left out that was shown, dev seed 99)
    cost[n, :n] = 0.0
    cost[n, n] = FORBIDDEN  # the left-over row must take a reference cell
    if blank_cell is not None:
        others = np.arange(n) != blank_cell
        cost[:n, n][others] = FORBIDDEN
    return cost


def _solve(cost: np.ndarray) -> tuple[np.ndarray, float]:
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(cost)
    return cols[rows.argsort()], float(cost[rows, cols].sum())


def _fit_brightness(shot: np.ndarray, ref: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``shot`` with a per-channel gain and offset fitted (least squares) so matched tiles agree."""
    import numpy as np

    n = shot.shape[0]
    tiles = [i for i in range(n) if columns[i] < n]
    if not tiles:
        return shot
    s = _channels(shot[tiles])
    r = _channels(ref[columns[tiles]])
    out = _channels(shot.copy())
    for channel in range(3):
        x, y = s[..., channel].ravel(), r[..., channel].ravel()
        spread = x.var()
        gain = float(np.cov(x, y, bias=True)[0, 1] / spread) if spread > 1e-9 else 1.0
        gain = min(4.0, max(0.25, gain))  # a real brightness change, not a wild fit
        offset = float(y.mean() - gain * x.mean())
        out[..., channel] = out[..., channel] * gain + offset
    return out.reshape(shot.shape)


def _match_global_stats(shot: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """First guess at the brightness change: equal per-channel mean and spread over the whole image."""
    s, r = _channels(shot), _channels(ref)
    mean_s, mean_r = s.mean((0, 1)), r.mean((0, 1))
    std_s, std_r = s.std((0, 1)), r.std((0, 1))
    gain = (std_r / std_s.clip(1e-6)).clip(0.25, 4.0)
    return ((s - mean_s) * gain + mean_r).reshape(shot.shape)  # type: ignore[no-any-return]


class ReadingError(PictureError):
    """A screenshot was read, but the reading is not one to stand behind; the message names the likely cause.
    ``reading`` is the rejected reading when there is one, else ``None``; ``grid`` the grid the refusal is
    about (the reading's, if any), else ``None`` (both for a debug picture)."""

    def __init__(self, message: str, reading: ScreenshotReading | None = None, grid: Grid | None = None) -> None:
        super().__init__(message)
        self.reading = reading
        self.grid = grid if grid is not None or reading is None else reading.grid


class ReferenceMismatchError(ReadingError):
    """The tiles do not look like pieces of the reference picture."""


class NumbersUnreadableError(ReadingError):
    """The numbers on numbered tiles could not all be read, or do not fit the board. ``cells_needed``: the
    fewest cells the board can have by the numbers read (the largest of them), when they were all larger than
    the grid found allows."""

    cells_needed: int | None = None


class UnsolvableReadingError(ReadingError):
    """The board read cannot reach its goal: some tiles were surely misread."""


class NumbersParityError(UnsolvableReadingError):
    """Numbered tiles read cannot reach their goal with the hole's home taken: the home may be elsewhere."""


class HoleHomeMismatchError(ReadingError):
    """Numbered tiles 1..N with one number left out (a "missing number" game) put the hole's home in that
    number's cell, not in the ``hole_home`` given."""


def refusal_data(exc: BaseException) -> dict[str, Any]:
    """What a refusal of the reader says about the board as data, beside its message: ``width`` and
    ``height`` of the board it is about when it carries one, and ``groups`` (0-based, row-major cells) for
    tiles too alike to tell apart (:class:`AmbiguousTilesError`). Empty for anything else. The faces give
    these whole (``--json``, the web API), where a message may be cut short or worded for people.

    >>> refusal_data(ValueError("not a reading")) == {}
    True
    """
    if isinstance(exc, AmbiguousTilesError):
        groups = [[int(cell) for cell in group] for group in exc.groups]
        reading = exc.reading
        size = {} if reading is None else {"width": reading.board.width, "height": reading.board.height}
        return {**size, "groups": groups}
    if not isinstance(exc, ReadingError):
        return {}
    if exc.grid is not None:
        return {"width": exc.grid.width, "height": exc.grid.height}
    if exc.reading is not None:  # a reading whose cells were not located: its board's size all the same
        return {"width": exc.reading.board.width, "height": exc.reading.board.height}
    return {}


class ReadingTimeoutError(SearchLimitExceeded):
    """Reading a screenshot took longer than its ``max_seconds`` (:func:`read_screenshot`). Not a
    :class:`ReadingError`: no grid is tried after it, and no reading is offered."""


# (deadline on time.monotonic(), the limit in seconds) of the reading under way in this thread, if limited
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("npuzzle_reading_deadline", default=None)


# what the reading under way in this thread says of its steps (read_screenshot's ``progress``), if anyone listens
_PROGRESS: ContextVar[Callable[[str], None] | None] = ContextVar("npuzzle_reading_progress", default=None)


def _say(step: str) -> None:
    """Tell whoever follows the reading under way (``progress`` of :func:`read_screenshot`) what it does now."""
    listener = _PROGRESS.get()
    if listener is not None:
        listener(step)


def _check_time() -> None:
    """Raise :class:`ReadingTimeoutError` once the reading under way is past its limit (called between the
    steps of a reading: a grid located, a grid read, a picture put back together, a box matched)."""
    limit = _DEADLINE.get()
    if limit is not None and time.monotonic() > limit[0]:
        raise ReadingTimeoutError(
            f"reading the screenshot took longer than its {limit[1]:g} s limit; give the board's size "
            "(--size WxH) and place (--crop X,Y,W,H) to narrow the search, or a longer limit (--read-seconds)",
            limit="max_seconds",
        )


def _even_grid(image: PILImage.Image, width: int, height: int, frame: int = 0) -> Grid:
    """The whole image (within a ``frame`` px wide, :func:`_framed`) cut evenly into ``width`` × ``height``
    cells (a screenshot cropped to the board)."""
    return _box_cut(float(frame), float(frame), image.width - 2 * frame, image.height - 2 * frame, width, height)


def _box_cut(x: float, y: float, box_width: float, box_height: float, width: int, height: int) -> Grid:
    """The box at ``x``, ``y`` of ``box_width`` × ``box_height`` pixels cut evenly into ``width`` × ``height``
    touching cells."""
    pw, ph = box_width / width, box_height / height
    return Grid(Axis(x, pw, pw, width), Axis(y, ph, ph, height))


FRAME_PX = 4  # pixels of frame drawn round a screenshot cut to its board (_framed) ...
FRAME_DEPTH = 6  # ... when the outer lines of this many pixels ...
FRAME_STEP = 12.0  # ... step by more than this (0..255, any channel) from one pixel to the next along the edge ...
FRAME_SMOOTH = 15  # ... at FRAME_BUSY of the pixels within this many along it (a picture or tiles reach there) ...
FRAME_BUSY = 0.2
FRAME_BOARD_SHARE = 0.1  # ... at this share of each of three sides or more (a window's title bar: one side)


def _framed(image: PILImage.Image) -> PILImage.Image | None:
    """``image`` inside a :data:`FRAME_PX` wide frame if its tiles seem to reach its edge (a screenshot cut to
    the board, or a pixel or two round it), else None. Steps are read between pixels two apart and lines must
    run straight, so such a board shows no outer sides: its grid lacked its first and last lines and was
    located as a part of itself, or not at all (bench seeds 1000-1039 cut to their boards' tiles: "picture,
    with reference" read 16 right of 40, and 39 framed; "picture, no reference" 23 and 36; numbers 37 and
    40). The edge is
    busy where the outer :data:`FRAME_DEPTH` lines step from pixel to pixel along it (a window's flat
    surround does not, and its title bar's words touch one side at most); beside a busy stretch the frame is
    black or white, whichever stands further (largest channel) from the edge, elsewhere it repeats the edge's
    pixels. A whole-window screenshot is not framed (none of bench seeds 1000-1059 in any style):
    its located grids would shift for no gain (a contrasting frame adds lines the board's compete with; fresh
    60117, a 4x3 in a 281x205 window, was then located as a part of itself). Too narrow to hold a cell."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(image.convert("RGB"))
    h, w = pixels.shape[:2]
    kernel = np.ones(FRAME_SMOOTH) / FRAME_SMOOTH

    def along(values: np.ndarray) -> np.ndarray:  # (n, k) -> each column's mean over FRAME_SMOOTH along n
        padded = np.pad(values.astype(np.float64), ((FRAME_SMOOTH // 2, FRAME_SMOOTH // 2), (0, 0)), mode="edge")
        return np.stack([np.convolve(padded[:, c], kernel, mode="valid") for c in range(values.shape[1])], axis=1)

    depth = min(FRAME_DEPTH, h, w)
    strips = (  # (n, depth, 3) each, the edge's own pixel first: top, bottom, left, right
        pixels[:depth].transpose(1, 0, 2), pixels[::-1][:depth].transpose(1, 0, 2),
        pixels[:, :depth], pixels[:, ::-1][:, :depth],
    )  # fmt: skip
    busy = []
    for strip in strips:
        lines = strip.astype(np.int16)
        steps = np.abs(np.diff(lines, axis=0, prepend=lines[:1])).max(axis=2) > FRAME_STEP  # (n, depth)
        busy.append((along(steps) > FRAME_BUSY).any(axis=1))
    if sorted(float(side.mean()) for side in busy)[1] < FRAME_BOARD_SHARE:  # three sides busy, or none framed
        return None
    f = FRAME_PX
    out = np.pad(pixels, ((f, f), (f, f), (0, 0)), mode="edge")
    colours = []
    for strip in strips:
        smooth = along(strip[:, 0])
        white = 255 - smooth.min(axis=1) > smooth.max(axis=1)
        colours.append(np.where(white[:, None], 255, 0).astype(np.uint8).repeat(3, axis=1))
    (top, bottom, left, right), (c_top, c_bottom, c_left, c_right) = busy, colours
    out[:f, f : f + w][:, top] = c_top[top][None]
    out[f + h :, f : f + w][:, bottom] = c_bottom[bottom][None]
    out[f : f + h, :f][left] = c_left[left][:, None]
    out[f : f + h, f + w :][right] = c_right[right][:, None]
    return Image.fromarray(out)


def _assignment_board(columns: np.ndarray, width: int, height: int) -> tuple[Board, Board, int, int]:
    """The board and goal an assignment of cells to pieces reads (``columns[cell]`` = piece, ``n`` for the
    hole; ``columns[n]`` = the piece not shown), with the hole's cell and the missing piece."""
    import numpy as np

    n = width * height
    hole = int(np.flatnonzero(columns[:n] == n)[0])
    missing = int(columns[n])
    tiles = [0 if cell == hole else int(columns[cell]) + 1 for cell in range(n)]
    return Board(tiles, width, height, blank=0), blank_at(width, height, missing), hole, missing


def _parity_decides(reading: tuple[Board, Board], alternative: tuple[Board, Board]) -> int | None:
    """Which of two near-equal readings (board, goal) a fairly dealt game can show: 0 or 1 when exactly one
    of them can reach its goal (two look-alike tiles swapped flip the parity), else None. Only for the one
    doubt of a reading: with two or more, their combinations may be solvable too."""
    from ..solvability import is_solvable

    solvable = [is_solvable(board, goal) for board, goal in (reading, alternative)]
    return solvable.index(True) if solvable.count(True) == 1 else None


def _match_reference(
    image: PILImage.Image, grid: Grid, ref_image: PILImage.Image, blank_cell: int | None, parity: bool = True
) -> tuple[ScreenshotReading, float]:
    """The global assignment of the cells of ``grid`` to the reference's pieces, and the mean RMS of the
    matched tiles (0..1: how alike the tiles and their pieces are after the brightness fit). A doubt the
    tiles settle beyond the matching's own noise (:func:`_beyond_noise`) is dropped; with ``parity`` a single
    doubt left is settled by solvability (:func:`_parity_decides`). Cells of a dropped doubt keep their low
    confidence."""
    width, height = grid.width, grid.height
    n = width * height
    shot, ref, cost, columns, total = _matched_costs(image, grid, ref_image, blank_cell)
    board, goal, hole, missing = _assignment_board(columns, width, height)
    confidence, groups, alternatives = _confidence(cost, columns, total)
    mismatch = _matched_mean(cost, columns)
    if _match_contrast(cost, columns) > MAX_MATCH_CONTRAST:  # every cell: no tile is told apart
        return ScreenshotReading(board, goal, confidence, missing, (tuple(range(n)),), "picture", grid), mismatch
    if groups and mismatch <= STRONG_MATCH_RMS:  # a doubt settled beyond the matching's own noise is none
        blocks = _block_means(shot), _block_means(ref)
        settled = [_beyond_noise(*blocks, columns, other) for other in alternatives]
        alternatives = [other for other, sure in zip(alternatives, settled, strict=True) if not sure]
        groups = tuple(group for group, sure in zip(groups, settled, strict=True) if not sure)
    if parity and len(groups) == 1 and mismatch <= STRONG_MATCH_RMS:
        alternative = _assignment_board(alternatives[0], width, height)
        decided = _parity_decides((board, goal), alternative[:2])
        if decided is not None:
            board, goal, _, missing = (board, goal, hole, missing) if decided == 0 else alternative
            groups = ()
    return ScreenshotReading(board, goal, confidence, missing, groups, "picture", grid), mismatch


def _matched_costs(
    image: PILImage.Image, grid: Grid, ref_image: PILImage.Image, blank_cell: int | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """What :func:`_match_reference` matches on: the cells' features (brightness fitted), the reference pieces'
    features, the cost of each cell as each piece (:func:`_cost_matrix`), the cheapest assignment and its total."""
    width, height = grid.width, grid.height
    side = reference_side(ref_image, width, height)
    raw = cell_features(image, width, height, boxes=grid.cell_boxes(), side=side)
    ref = cell_features(ref_image, width, height, side=side)
    shot = _match_global_stats(raw, ref)
    columns, _ = _solve(_cost_matrix(shot, ref, blank_cell))
    for _ in range(2):  # refit the brightness on what matched, then match again
        shot = _fit_brightness(raw, ref, columns)
        cost = _cost_matrix(shot, ref, blank_cell)
        columns, total = _solve(cost)
    return shot, ref, cost, columns, total


def _beyond_noise(shot: np.ndarray, ref: np.ndarray, columns: np.ndarray, other: np.ndarray) -> bool:
    """Whether the assignment ``columns`` of the tiles ``shot`` (features, brightness fitted, as
    :func:`_block_means`) to the pieces ``ref`` (the same) beats ``other`` by more than the matching's noise
    could give. A tile that is piece ``p`` differs from piece ``q`` by ``|p - q|²`` plus twice its own error
    along ``p - q``; the error's size along that direction is taken from every other matched tile (their
    errors: JPEG, a brightness misfit, a grid a pixel off). Pieces of a smooth sky differ little, yet by far
    more than that error: an absolute margin (:data:`AMBIGUOUS_MARGIN`) doubts them (held-out rocket.jpg),
    this does not. Weighed on the mean colours of :data:`DOUBT_BLOCKS` squared blocks of each thumbnail: a
    tile's own blur is no error of the other tiles, and a piece copied as a blurred twin looks more like the
    blurred tile than its original does (``test_identical_tiles_are_reported_not_guessed``: read wrong on the
    full thumbnails). The hole's cell, and pieces alike within the noise, stay in doubt."""
    import numpy as np

    n = shot.shape[0]
    hole = int(np.flatnonzero(columns[:n] == n)[0])
    if other[hole] != n:  # another cell as the hole: weighed by flatness, not by pieces' differences
        return False
    changed = [cell for cell in range(n) if other[cell] != columns[cell]]
    if not changed:
        return False
    steady = [cell for cell in range(n) if cell != hole and cell not in changed]
    if len(steady) < DOUBT_SAMPLES:
        return False
    errors = shot[steady] - ref[columns[steady]]
    lead = 0.0  # how much closer the tiles are to their pieces than to the other's, in squared differences
    noise = 0.0
    worst = float(max((errors * errors).sum(axis=1)))
    for cell in changed:
        mine, theirs = shot[cell] - ref[columns[cell]], shot[cell] - ref[other[cell]]
        if float(mine @ mine) > worst:  # a tile unlike its piece (shaded, half hidden) is no evidence here
            return False
        lead += float(theirs @ theirs - mine @ mine)
        step = ref[columns[cell]] - ref[other[cell]]
        noise += float(np.mean((errors @ step) ** 2))
    return lead > 0 and lead >= DOUBT_Z * 2.0 * math.sqrt(noise)


DOUBT_Z = 4.0  # a doubt is settled when the better assignment wins by this many times the noise (_beyond_noise)
DOUBT_SAMPLES = 6  # ... weighed from at least this many other matched tiles ...
DOUBT_BLOCKS = 4  # ... on the mean colours of this many blocks a side of each thumbnail


def _block_means(features: np.ndarray) -> np.ndarray:
    """``features`` (thumbnails, as from :func:`cell_features`) as the mean colours of :data:`DOUBT_BLOCKS`
    squared blocks each (blocks of uneven size when the side does not divide)."""
    import numpy as np

    side = _feature_side(features)
    cells = features.reshape(len(features), side, side, 3)
    bands = np.array_split(np.arange(side), min(DOUBT_BLOCKS, side))
    return np.stack(
        [cells[:, rows][:, :, columns].mean(axis=(1, 2)) for rows in bands for columns in bands], axis=1
    ).reshape(len(features), -1)


def _match_contrast(cost: np.ndarray, columns: np.ndarray) -> float:
    """How little the assignment ``columns`` tells its tiles apart: the mean cost of the matched (tile, piece)
    pairs over the median cost of the unmatched ones (0 for tiles that match only their own piece, 1 for
    matches no closer than any other pair). RMS distances are absolute, so on a dark or plain picture every
    pair is close and a match can look strong while most tiles would fit most pieces (QA, held-out
    hubble_deep_field 3x3: a wrong board at mean RMS 0.06, contrast 0.78; right readings: at most 0.36 on dev
    seeds 0-199, 0.40 on held-out natural pictures)."""
    import numpy as np

    n = cost.shape[0] - 1
    tiles = np.flatnonzero(columns[:n] < n)
    pairs = cost[np.ix_(tiles, np.arange(n))]
    own = columns[tiles]
    unmatched = np.ones(pairs.shape, dtype=bool)
    unmatched[np.arange(len(tiles)), own] = False
    typical = float(np.median(pairs[unmatched])) if unmatched.any() else 0.0
    return float(pairs[np.arange(len(tiles)), own].mean()) / typical if typical > 0 else 1.0


MAX_MATCH_CONTRAST = 0.55  # a reading whose tiles are told apart less than this (see _match_contrast) is a guess


def _hole_is_empty(image: PILImage.Image, reading: ScreenshotReading) -> bool:
    """Whether the cell ``reading`` (with a grid) takes for the hole is flat, as an empty cell is: at most
    :data:`HOLE_MAX_SPREAD` of the other cells' median colour spread (:func:`_flatness`; at most 0.09 on 400
    right readings with a reference). A grid cutting across the hole has no such cell, and its pieces can still
    match (unseen seed 28038: a 3x3 with three tiles at home, cut 2x3 like its reference's pieces, matched
    at 0.12 with a cell half hole, half tile taken for the hole: a wrong 2x3 board). A hole the game fills
    with a plain pattern (:func:`_plain_pattern`: stripes, checks, a gradient) is empty too, flat or not."""
    import numpy as np

    grid = reading.grid
    assert grid is not None
    flatness = _flatness(cell_features(image, grid.width, grid.height, boxes=grid.cell_boxes()))
    hole = reading.board.tiles.index(0)
    if flatness[hole] <= HOLE_MAX_SPREAD * float(np.median(np.delete(flatness, hole))):
        return True
    return _plain_pattern(_cells_of(np.asarray(image.convert("RGB")), grid)[hole])


def _mean_match(image: PILImage.Image, grid: Grid, ref: np.ndarray, blank_cell: int | None) -> float:
    """The mean RMS of the matched tiles when ``grid``'s cells are matched to the pieces ``ref`` (features)."""
    return _matched_mean(*_assignment(image, grid, ref, blank_cell))


def _assignment(
    image: PILImage.Image, grid: Grid, ref: np.ndarray, blank_cell: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """``(cost, columns)``: ``grid``'s cells matched to the pieces ``ref`` (features), their brightness fitted
    to the pieces first matched."""
    raw = cell_features(image, grid.width, grid.height, boxes=grid.cell_boxes(), side=_feature_side(ref))
    columns, _ = _solve(_cost_matrix(_match_global_stats(raw, ref), ref, blank_cell))
    cost = _cost_matrix(_fit_brightness(raw, ref, columns), ref, blank_cell)
    columns, _ = _solve(cost)
    return cost, columns


def _matched_mean(cost: np.ndarray, columns: np.ndarray) -> float:
    """The mean cost of the matched (cell, piece) pairs of the assignment ``columns`` (the hole left out)."""
    import numpy as np

    n = cost.shape[0] - 1
    return float(np.mean([cost[cell, columns[cell]] for cell in range(n) if columns[cell] < n]))


def _on_screenshot(image: PILImage.Image, grid: Grid) -> bool:
    """Whether every cell of ``grid`` lies within ``image``."""
    x0, y0, x1, y1 = grid.box
    return x0 >= 0 and y0 >= 0 and x1 <= image.width and y1 <= image.height


def _moved_axis(axis: Axis, move: str, step: float) -> Axis:
    """``axis`` moved by ``step`` pixels: ``"shift"`` every tile, ``"scale"`` the pitch (the tile in
    proportion, the board's centre kept), or ``"tile"`` the tile size (each tile's centre kept)."""
    if move == "shift":
        return replace(axis, start=axis.start + step)
    if move == "tile":
        return replace(axis, start=axis.start - step / 2, tile=axis.tile + step)
    pitch = axis.pitch + step
    tile = axis.tile * pitch / axis.pitch
    centre = axis.start + ((axis.count - 1) * axis.pitch + axis.tile) / 2
    return replace(axis, start=centre - ((axis.count - 1) * pitch + tile) / 2, pitch=pitch, tile=tile)


def _refine_by_match(
    image: PILImage.Image, grid: Grid, ref_image: PILImage.Image, blank_cell: int | None
) -> Grid:
    """``grid`` with each axis shifted, scaled and its tiles resized (:func:`_moved_axis`; coordinate descent
    with halving steps, a few pixels) to where its cells match the reference's pieces best. A grid found from lines is often a
    frame's width or a gap off at one end, or a pixel off in pitch (a 6x6 grown from a 5x6 ends 9 px out:
    dev seed 38); the size stays, so a grid of the wrong size cannot become a close match this way."""
    side = reference_side(ref_image, grid.width, grid.height)
    ref = cell_features(ref_image, grid.width, grid.height, side=side)
    best = _mean_match(image, grid, ref, blank_cell)
    step = max(1.0, REFINE_MATCH_SHARE * min(grid.columns.pitch, grid.rows.pitch))
    trials = 0
    while step >= REFINE_MATCH_STEP and trials < REFINE_MATCH_TRIALS:
        _check_time()
        improved = False
        for axis_name in ("columns", "rows"):
            for move in ("shift", "scale", "tile"):
                for sign in (-1.0, 1.0):
                    axis = getattr(grid, axis_name)
                    moved = _moved_axis(axis, move, sign * step)
                    if moved.tile < MIN_TILE_PX or moved.tile > moved.pitch + 1e-9:
                        continue
                    trial = replace(grid, **{axis_name: moved})
                    if not _on_screenshot(image, trial):
                        continue
                    value = _mean_match(image, trial, ref, blank_cell)
                    trials += 1
                    if value < best - 1e-4:
                        grid, best, improved = trial, value, True
        if not improved:
            step /= 2
    return grid


def _read_in_rectangles(
    image: PILImage.Image,
    ref_image: PILImage.Image,
    blank_cell: int | None,
    width: int | None,
    height: int | None,
) -> ScreenshotReading | None:
    """A reading from a board found as a whole, not from its inner lines: each rectangle of the picture's
    shape whose sides are straight edges (:func:`~npuzzle.render.locate.board_rectangles`: a frame, a board's
    edge against the window) is cut evenly into every size, the cuts that match closely *and* tell their tiles
    apart (mean RMS times :func:`_match_contrast`) are refined (:func:`_refine_by_match`): on a dark picture a
    cut finer than the board matches as closely as its own size, every dark cell fitting most dark pieces
    (held-out 61471, a Hubble 3x3 located as 2x2: cut 3x8, 2x6, 8x3 or 6x3 at 0.047-0.049 RMS, 3x3 at 0.050,
    fifth; by the product 3x3 is second, behind a 6x3 that is not kept). One is kept only if it matches
    closely, without a doubt, and with its tiles shuffled (a board cut finer than it is keeps each tile's parts
    together: dev seeds 0-199 kept at most half of the neighbours together, a 3x3 cut as a 6x6 keeps more).
    None when no rectangle gives one."""
    from .locate import board_rectangles

    sizes = (
        [(width, height)] if width and height else [(w, h) for w in RECTANGLE_SIZES for h in RECTANGLE_SIZES]
    )
    refs: dict[tuple[int, int], np.ndarray] = {}
    cuts: list[tuple[float, Grid]] = []
    for x0, y0, x1, y1 in board_rectangles(
        image, ref_image.width / ref_image.height, RECTANGLES, like=ref_image
    ):
        _check_time()
        for w, h in sizes:
            grid = _box_cut(x0, y0, x1 - x0, y1 - y0, w, h)
            if min(grid.columns.pitch, grid.rows.pitch) < MIN_TILE_PX * 2 or (
                blank_cell is not None and not 0 <= blank_cell < w * h
            ):
                continue
            if min(ref_image.width // w, ref_image.height // h) < 2:
                continue
            if (w, h) not in refs:
                refs[w, h] = cell_features(ref_image, w, h, side=reference_side(ref_image, w, h))
            cost, columns = _assignment(image, grid, refs[w, h], blank_cell)
            if (mismatch := _matched_mean(cost, columns)) <= REFINE_MATCH_RMS:
                cuts.append((mismatch * _match_contrast(cost, columns), grid))
    cuts.sort(key=lambda c: c[0])
    readings: list[tuple[float, ScreenshotReading]] = []
    for _, grid in cuts[:REFINE_GRIDS]:
        _check_time()
        refined = _refine_by_match(image, grid, ref_image, blank_cell)
        reading, mismatch = _match_reference(image, refined, ref_image, blank_cell, parity=False)
        homes = tuple(t - 1 for t in reading.board.tiles)  # -1: the hole
        if (
            not reading.ambiguous
            and mismatch <= STRONG_MATCH_RMS
            and not _finer_cut(homes, grid.width, grid.height)
            and _hole_is_empty(image, reading)
        ):
            readings.append((mismatch, reading))
    return min(readings, key=lambda r: r[0])[1] if readings else None


def _finer_cut(homes: tuple[int, ...], width: int, height: int) -> bool:
    """Whether the cells read look like a board cut finer than it is: for some ``k`` dividing the width
    (height) and smaller, the cells within blocks of ``k`` columns (rows) hold pieces that are neighbours at
    home, nearly all of them (:data:`FINER_CUT_KEPT`), as when each of the board's tiles was cut in ``k``
    (a 3x3 read as a 6x6 keeps every tile's four quarters together, and matches the pieces' quarters well)."""

    def kept(k: int, along: int, across: int, cell: Callable[[int, int], int], step: int) -> float:
        pairs = kept_pairs = 0
        for i in range(across):
            for j in range(along - 1):
                if j % k == k - 1:
                    continue
                a, b = homes[cell(i, j)], homes[cell(i, j + 1)]
                if a < 0 or b < 0:
                    continue
                pairs += 1
                kept_pairs += int(b == a + step)
        return kept_pairs / pairs if pairs else 0.0

    for k in range(2, width):
        if width % k == 0 and kept(k, width, height, lambda r, c: r * width + c, 1) >= FINER_CUT_KEPT:
            return True
    for k in range(2, height):
        if height % k == 0 and kept(k, height, width, lambda c, r: r * width + c, width) >= FINER_CUT_KEPT:
            return True
    return False


CROP_COVER = 0.5  # share of a crop a located grid must take in to be taken for the board
CROP_CONTEXT = 0.04  # share of a crop's longer side read around it (at least CROP_CONTEXT_PX): its edges show
CROP_CONTEXT_PX = 6


def _layouts(
    image: PILImage.Image,
    width: int | None,
    height: int | None,
    exact: bool,
    board: tuple[float, float, float, float] | None = None,
    frame: int = 0,
) -> tuple[list[Grid], GridNotFoundError | None]:
    """Where the cells may be: the grid located in ``image`` and, when the size is known, the even split of
    the whole image (``exact``: the image is known to be cropped to the board, so only the even split). When
    no grid is located, the board's outlines cut evenly (:func:`_outlines`), for a reader with a reference
    too, which grows and shrinks them to fit it: dev 29 of "picture, with reference", a 3x3 of 33 px tiles,
    is located only as a few cells' worth of its picture's texture, which
    :func:`~npuzzle.render.locate.locate_grids` leaves out as a pattern. ``board``: ``(x, y, width,
    height)`` in ``image`` of the place the user gave for the board (a crop, ``image`` being it with a little
    of the screenshot round it): the even split is of it, and a grid taking in less than :data:`CROP_COVER`
    of it is a part of the picture, not the board. ``frame``: the pixels of :func:`_framed`'s frame round
    ``image``, left out of the even split."""
    grids: list[Grid] = []
    problem = None
    if width is not None and height is not None:
        if board is None:
            even = _even_grid(image, width, height, frame)
        else:
            bx, by, bw, bh = board
            even = _box_cut(bx, by, bw, bh, width, height)
        if board is not None and not exact:
            # the tiles of a crop to the board sit a gap apart, which an even split takes into its cells, a
            # gap more at each step; fitted to the gaps, it cuts the tiles themselves (bench seeds 1000-1099
            # read with their boards' boxes and sizes: two read wrong with exit 0 on grids whose cells took
            # in the gaps, 1094 a 5x5 with 7 px gaps; it is read right on the fitted split)
            from .locate import refine_grid

            grids.append(refine_grid(image, even, any_gap=True))
        grids.append(even)
    if not exact:
        try:
            found = locate_grids(image, width, height, keep=GRID_ALTERNATIVES)
            located = [found[0], *(g for g in found[1:] if _on_screenshot(image, g))]
            if board is not None:
                # the grid best located in a crop may be a few cells' worth of the picture's own lines (bench
                # seed 1007: a 3x4 grid on 1% of a crop to its tiles alone). Bench seeds 1000-1099 read with
                # their boards' boxes and sizes: 68 right, 30 refused, 2 wrong before this, the fitted split
                # above and the crop's context; 86 / 14 / 0 with them (with the box alone: 49 / 51 / 0 ->
                # 85 / 15 / 0)
                located = [g for g in located if _cover(g, board) >= CROP_COVER]
                if not located and not grids:
                    raise GridNotFoundError(
                        "no grid of tiles found takes in most of the crop: check --crop, or give the board's size "
                        "with --size WxH"
                    )
            grids[:0] = located
        except GridNotFoundError as exc:
            problem = exc
            grids.extend(
                g for g in _outlines(image)
                if (width is None or (g.width, g.height) == (width, height))
                and (board is None or _cover(g, board) >= CROP_COVER)
            )
    return grids, problem


def _cover(grid: Grid, board: tuple[float, float, float, float]) -> float:
    """The share of ``board``'s area (``x, y, width, height``) the tiles of ``grid`` take in."""
    x0, y0, x1, y1 = grid.box
    bx, by, bw, bh = board
    overlap_w = max(0.0, min(x1, bx + bw) - max(x0, bx))
    overlap_h = max(0.0, min(y1, by + bh) - max(y0, by))
    return overlap_w * overlap_h / (bw * bh)


_OUTLINES_CACHE: dict[tuple[object, ...], list[Grid]] = {}  # the last screenshot's (asked for twice)


def _outlines(image: PILImage.Image, seams: tuple[np.ndarray, np.ndarray] | None = None) -> list[Grid]:
    """The best board outlines cut evenly (:func:`~npuzzle.render.locate.outline_grids`), each followed by its
    coarser cuts, refined (a busy picture makes quarter tiles look as much like tiles as the tiles). The last
    screenshot's are kept: with no grid located they are the layouts, and a refused reading asks again."""
    import numpy as np

    from .locate import coarser_grids, last_screenshots, outline_grids, refine_grid, square_grids

    def work() -> list[Grid]:
        out: list[Grid] = []
        for outline in outline_grids(image, OUTLINES, seams):
            coarser = [refine_grid(image, grid, any_gap=True) for grid in coarser_grids(outline)]
            for grid in (outline, *coarser):
                # an outline takes in the board's border where the frame's edge outshines the tiles' own: one
                # axis refined onto it, the other onto the tiles (dev seed 201) is recut to the other's tiles
                for candidate in (grid, *(refine_grid(image, square) for square in square_grids(grid))):
                    if candidate not in out:
                        out.append(candidate)
        return out

    return list(last_screenshots(_OUTLINES_CACHE, np.asarray(image.convert("RGB")), (), work))


def read_screenshot(
    screenshot: str | Path | bytes | PILImage.Image,
    width: int | None = None,
    height: int | None = None,
    reference: str | Path | bytes | PILImage.Image | None = None,
    *,
    strict: bool = True,
    blank_cell: int | None = None,
    crop: tuple[int, int, int, int] | None = None,
    exact: bool = False,
    hole_home: int | str | None = None,
    max_seconds: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> ScreenshotReading:
    """Read the arrangement of a sliding puzzle from ``screenshot`` (a whole game window, or the board).

    The tile grid is located in the screenshot (or in ``crop`` = ``(x, y, width, height)`` of it); its size is
    inferred unless ``width`` and ``height`` are given. With a ``reference`` (the original picture, or a
    screenshot of the solved puzzle cropped to the board) the tiles are matched to its pieces; without one the
    tiles' numbers are read by OCR (:mod:`npuzzle.render.ocr`), and picture tiles with no numbers are
    reassembled from their own seams (:mod:`npuzzle.render.jigsaw`), the hole's home being ``hole_home`` (a
    cell 0-based, ``"top-left"`` or ``"bottom-right"``, the default); numbered tiles go 1..N-1 in reading
    order around that home (``"top-left"``: the blank-first goal). When the game shows its finished picture
    beside the board (a preview), the tiles are matched to it first; it also shows where the missing piece
    belongs (the reading's ``preview`` is its box); a picture-like box alike the board that the tiles do not
    match refuses the assumed ``hole_home``. ``blank_cell`` (0-based) tells where the
    hole is if it is known; ``exact`` says the screenshot (or crop) is exactly the board, cut evenly.
    ``max_seconds`` limits the reading's time (None: no limit); past it the reading stops between two of its
    steps (a few seconds at most on a 6x6 picture) with :class:`ReadingTimeoutError`. ``progress``, if given,
    is called with a few words on each step as it starts ("putting the 6x6 picture back together ..."): a
    reading takes from a second to a minute. A screenshot whose tiles are all larger than :data:`MAX_TILE_PX`
    (a 4K screen, a game zoomed) is read on a copy shrunk to tiles that large: the reading's ``grid`` and
    ``preview`` are in the screenshot's own pixels, its ``picture`` at the copy's scale.
    ``screenshot`` and ``reference`` may be paths, Pillow images or the bytes of an image file (an upload).

    This is the one public entry point for reading screenshots (the CLI's ``read``/``solve-screenshot`` and
    the web's upload call it); its signature stays stable.

    Refuses rather than guesses, with the likely cause in the message: :class:`GridNotFoundError` (no grid:
    give ``--crop``/``--size``), :class:`ReferenceMismatchError` (wrong reference, size or crop),
    :class:`NumbersUnreadableError` (numbers missing, repeated or illegible: size, crop, blur, or picture tiles
    without a reference), :class:`UnsolvableReadingError`, :class:`AmbiguousTilesError` (tiles too alike:
    ``strict=False`` returns the best guess with the doubtful cells in ``ambiguous``),
    :class:`PictureReassemblyError` (picture tiles whose seams do not tell one arrangement apart),
    :class:`ReadingTimeoutError` (``max_seconds`` ran out).
    """
    if max_seconds is not None and not (max_seconds > 0 and math.isfinite(max_seconds)):
        raise PictureError(f"the reading's time limit must be a positive number of seconds, got {max_seconds!r}")
    if (width is None) != (height is None):
        raise PictureError("give both the width and the height of the board, or neither")
    _check_cell_options(width, height, blank_cell, hole_home)
    token = _DEADLINE.set(None if max_seconds is None else (time.monotonic() + max_seconds, max_seconds))
    listening = _PROGRESS.set(progress)
    try:
        return _read_screenshot(screenshot, width, height, reference, strict, blank_cell, crop, exact, hole_home)
    finally:
        _PROGRESS.reset(listening)
        _DEADLINE.reset(token)


def _check_cell_options(
    width: int | None, height: int | None, blank_cell: int | None, hole_home: int | str | None
) -> None:
    """Refuse at once a ``blank_cell`` or ``hole_home`` that no board, or not the ``width`` x ``height``
    given, can have, rather than after a reading that may take a minute."""
    from .locate import MAX_TILES

    for name, cell in (("blank cell", blank_cell), ("hole home", _hole_home_cell(hole_home))):
        if cell is None:
            continue
        if cell < 0:
            raise PictureError(f"{name} {cell} is not a cell: cells are numbered from 0, row by row")
        if width is None or height is None:  # past the largest board a grid is located as, it is past any
            outside = _off_the_board(name, cell, MAX_TILES, MAX_TILES, "the largest board read from a screenshot, {size}")
        else:
            outside = _off_the_board(name, cell, width, height)
        if outside is not None:
            raise PictureError(outside)


def _off_the_board(name: str, cell: int, width: int, height: int, board: str = "a {size} board") -> str | None:
    """Why ``cell`` (a ``name`` the user gave) is not a cell of a ``width`` x ``height`` board (``board``
    says which, ``{size}`` standing for its size), or None when it is one."""
    n = width * height
    if 0 <= cell < n:
        return None
    return f"{name} {cell} is outside {board.format(size=f'{width}x{height}')} (cells 0..{n - 1})"


def _read_screenshot(
    screenshot: str | Path | bytes | PILImage.Image,
    width: int | None,
    height: int | None,
    reference: str | Path | bytes | PILImage.Image | None,
    strict: bool,
    blank_cell: int | None,
    crop: tuple[int, int, int, int] | None,
    exact: bool,
    hole_home: int | str | None,
) -> ScreenshotReading:
    """:func:`read_screenshot`'s work, its time limit set."""
    image = load_picture(_from_bytes(screenshot, "screenshot"), "screenshot")
    if isinstance(reference, bytes):
        reference = _from_bytes(reference, "reference picture")
    board = None
    offset = (0, 0)
    if crop is not None:
        x, y, w, h = crop
        if w < 1 or h < 1 or x < 0 or y < 0 or x + w > image.width or y + h > image.height:
            raise PictureError(
                f"crop {x},{y},{w},{h} is not inside the {image.width}x{image.height} screenshot"
            )
        if width is not None and height is not None:  # the crop's own size, not the screenshot's read round it
            check_picture_size(image.crop((x, y, x + w, y + h)), width, height, f"crop {x},{y},{w},{h}")
        # read with a little of the screenshot round it, so that the board's sides show as steps even in a
        # crop to its tiles alone (exact: the crop is the board, cut evenly)
        pad = 0 if exact else max(CROP_CONTEXT_PX, round(CROP_CONTEXT * max(w, h)))
        x0, y0 = max(0, x - pad), max(0, y - pad)
        image = image.crop((x0, y0, min(image.width, x + w + pad), min(image.height, y + h + pad)))
        offset = (x0, y0)
        board = (float(x - x0), float(y - y0), float(w), float(h))
    if width is not None and height is not None:
        check_picture_size(image, width, height, "screenshot")
    framed = None if exact else _framed(image)
    frame = 0 if framed is None else FRAME_PX
    if framed is not None:  # the board reaches the image's edge (a screenshot cut to it): its sides must show
        image = framed
        offset = (offset[0] - frame, offset[1] - frame)
        if board is not None:
            board = (board[0] + frame, board[1] + frame, board[2], board[3])
    try:
        reading = _read_in(image, width, height, reference, strict, blank_cell, exact, hole_home, board, frame)
    except ReadingError as refusal:
        if offset != (0, 0) and refusal.grid is not None:  # for a debug picture of the screenshot
            refusal.grid = refusal.grid.shifted(*offset)
        raise
    if offset != (0, 0):  # back in the screenshot's own pixels
        dx, dy = offset
        preview = reading.preview
        reading = replace(
            reading,
            grid=None if reading.grid is None else reading.grid.shifted(dx, dy),
            preview=None if preview is None else (preview[0] + dx, preview[1] + dy, preview[2] + dx, preview[3] + dy),
        )
    n = reading.board.width * reading.board.height
    unsure = reading.kind == "numbers" and min(reading.confidence) < MIN_CONFIDENCE  # OCR's own doubt
    if strict and (reading.ambiguous or unsure):
        groups = reading.ambiguous or ((int(min(range(n), key=reading.confidence.__getitem__)),),)
        raise AmbiguousTilesError(_ambiguity_message(groups, reading.board.width, n), groups, reading)
    if strict or not reading.ambiguous:  # an accepted guess may be unsolvable; the solver then says so
        _check_solvable(reading)
    return reading


def _read_in(
    image: PILImage.Image,
    width: int | None,
    height: int | None,
    reference: str | Path | bytes | PILImage.Image | None,
    strict: bool,
    blank_cell: int | None,
    exact: bool,
    hole_home: int | str | None,
    board: tuple[float, float, float, float] | None,
    frame: int,
    may_shrink: bool = True,
) -> ScreenshotReading:
    """:func:`_read_screenshot`'s reading of ``image`` (the screenshot, or a crop with a little round it,
    framed ``frame`` px wide): its grids and cells in ``image``'s pixels. ``may_shrink``: a board of large
    tiles is read on a shrunk copy (:func:`_working_scale`; once: not the copy's again)."""
    _say("looking for the grid of tiles")
    grids, problem = _layouts(image, width, height, exact, board=board, frame=frame)
    _check_time()
    if not grids:
        assert problem is not None
        raise problem

    def read_at_this_size() -> ScreenshotReading:
        """The reading of ``image`` itself (not a shrunk copy), on the ``grids`` located in it."""
        if reference is not None:
            reading = _read_with_reference(image, grids, reference, blank_cell, width, height, exact)
        else:
            try:
                reading = _read_beside_preview(
                    image, grids, problem, width, height, hole_home, blank_cell, strict, exact, board
                )
            except PictureReassemblyError as refusal:
                # shaded faces (a bevel's gradient, a shadow) make numbered tiles look like picture tiles: when
                # the grid refused as a picture held numbers, the numbers' refusal names the likely cause (the
                # grid or the size: --size, --crop), where the picture's advises a --reference nobody has
                if refusal.numbers is None:
                    raise
                raise refusal.numbers from None
            if blank_cell is not None:
                _check_blank_cell(reading, blank_cell)
        return reading

    shrink = _working_scale(grids) if may_shrink else 1.0
    if shrink < 1.0:

        def read_copy(copy: PILImage.Image, copy_board: Box | None, copy_frame: int) -> ScreenshotReading:
            return _read_in(
                copy, width, height, reference, strict, blank_cell, exact, hole_home, copy_board, copy_frame, False
            )

        try:
            return _read_shrunk(image, shrink, board, frame, read_copy)
        except HoleHomeMismatchError:  # every number read: the board's own hole home, at any size
            raise
        except (ReadingError, GridNotFoundError) as shrunk_refusal:
            # a shrunk copy can lose the board: bench "picture, preview shown" 64319, a 3x3 of 179 px tiles
            # whose hole is the gaps' colour, is located right at full size and only as a 2x2 inside its
            # preview once shrunk, and refused; read at full size, it is read right. Tiles larger than the
            # seam measures were tuned on are not read at full size
            if MAX_TILE_PX / shrink > TUNED_TILE_PX:
                raise
            _say("refused on the shrunk copy: reading the screenshot at full size")
            try:
                return read_at_this_size()
            except (ReadingError, GridNotFoundError, ReadingTimeoutError):
                raise shrunk_refusal from None
    return read_at_this_size()


MAX_TILE_PX = 128  # pixels: a board whose tiles are all larger is read on a copy shrunk to tiles this large
TUNED_TILE_PX = 220  # ... and read again at full size, if refused so, when none is larger than this


def _working_scale(grids: list[Grid]) -> float:
    """The scale to read a screenshot at whose located ``grids`` are these: 1, or less when even the smallest
    grid's tiles are larger than :data:`MAX_TILE_PX`. The reading's work grows with the tiles' pixels and
    its evidence does not, and the seam measures were tuned on tiles of 28..220 px: bench seeds 1000-1019
    ("picture, no reference") with each window scaled 3x read 14 right, 6 refused in a median 27 s as they
    were, and 17 right, 3 refused in 13.5 s shrunk to 128 px tiles (the windows alone: 18 and 2). Bench
    seeds 1000-1039 as drawn, 12 of them with tiles over 128 px, read the same boards right either way."""
    smallest = min(min(g.columns.tile, g.rows.tile) for g in grids)
    return min(1.0, MAX_TILE_PX / smallest) if smallest > 0 else 1.0


def _read_shrunk(
    image: PILImage.Image,
    scale: float,
    board: Box | None,
    frame: int,
    read_copy: Callable[[PILImage.Image, Box | None, int], ScreenshotReading],
) -> ScreenshotReading:
    """``read_copy`` (:func:`_read_in` with the reading's options) of ``image`` shrunk by ``scale`` (its
    ``frame`` left off, and drawn anew round the copy as :func:`_framed` would; ``board`` moved onto the
    copy), the reading's grid and preview put back in ``image``'s pixels."""
    from PIL import Image

    inner = image if frame == 0 else image.crop((frame, frame, image.width - frame, image.height - frame))
    size = (max(1, round(inner.width * scale)), max(1, round(inner.height * scale)))
    _say(f"the tiles are large: reading the screenshot shrunk to {size[0]}x{size[1]}")
    small = inner.convert("RGB").resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    kx, ky = inner.width / small.width, inner.height / small.height  # the original's pixels per copy's pixel
    small_frame = 0
    if frame:
        framed = _framed(small)
        if framed is not None:
            small, small_frame = framed, FRAME_PX
    if board is not None:
        bx, by, bw, bh = board
        board = ((bx - frame) / kx + small_frame, (by - frame) / ky + small_frame, bw / kx, bh / ky)

    def back(x: float, y: float) -> tuple[float, float]:
        return (x - small_frame) * kx + frame, (y - small_frame) * ky + frame

    def moved(grid: Grid | None) -> Grid | None:
        if grid is None:
            return None
        return grid.shifted(-small_frame, -small_frame).scaled(kx, ky).shifted(frame, frame)

    try:
        reading = read_copy(small, board, small_frame)
    except ReadingError as refusal:  # for a debug picture of the screenshot
        refusal.grid = moved(refusal.grid)
        raise
    preview = reading.preview
    if preview is not None:
        preview = (*back(preview[0], preview[1]), *back(preview[2], preview[3]))
    return replace(reading, grid=moved(reading.grid), preview=preview)


def _check_blank_cell(reading: ScreenshotReading, blank_cell: int) -> None:
    """Refuse a reading made without a reference whose empty cell is not ``blank_cell``, the one the user
    gave (the reference matcher takes it into account; the other readers find the hole themselves)."""
    board = reading.board
    outside = _off_the_board("blank cell", blank_cell, board.width, board.height, "the {size} board read")
    if outside is not None:
        raise PictureError(outside)
    if reading.blank_cell != blank_cell:
        raise ReadingError(
            f"the empty cell was read at cell {reading.blank_cell}, not at cell {blank_cell} as given: check "
            "--blank-cell, --size and --crop",
            reading,
        )


def _read_beside_preview(
    image: PILImage.Image,
    grids: list[Grid],
    problem: GridNotFoundError | None,
    width: int | None,
    height: int | None,
    hole_home: int | str | None,
    blank_cell: int | None,
    strict: bool,
    exact: bool,
    board: tuple[float, float, float, float] | None = None,
) -> ScreenshotReading:
    """A board read without a reference: matched to the finished picture if the game shows it beside the
    board (:func:`_read_with_preview`), else read by OCR or from the tiles' seams and, if the preview matched
    only with doubts, checked against it. When the seams found a board none of the best located grids gave
    (they took in the window: held-out 42001), the preview is looked for once more, alike that board; when
    a box still looks like it but was not matched, the missing piece's home is not assumed
    (:func:`_check_no_unmatched_preview`)."""
    from .locate import outlined_boxes

    outlined = None if exact else outlined_boxes(image)  # worked out once for every look below
    seen: ScreenshotReading | None = None
    doubted: ScreenshotReading | None = None
    if not exact:
        seen, doubted = _read_with_preview(image, grids, width, height, hole_home, blank_cell, outlined=outlined)
    if seen is not None:
        return seen  # the game shows its finished picture beside the board
    if doubted is not None and doubted.ambiguous and not strict:  # the best guess: the preview's
        assert doubted.preview is not None
        return replace(doubted, picture=_drawn_with_preview(image, doubted, _box_picture(image, doubted.preview)))
    home = hole_home
    if (doubted is not None and home is None and doubted.confidence[doubted.blank_cell] >= MIN_CONFIDENCE
            and not any(doubted.blank_cell in group for group in doubted.ambiguous)):  # fmt: skip
        home = doubted.missing  # the preview shows where the missing piece belongs, if not every tile

    def read_seams(home: int | str | None) -> ScreenshotReading:
        try:
            return _read_without_reference(image, grids, problem, width, height, home, strict)
        except ReadingError as refusal:
            if width is None or height is None or exact:
                raise
            return _read_as_if_no_size(image, width, height, home, strict, refusal, board)

    try:
        try:
            reading = read_seams(home)
        except (HoleHomeMismatchError, NumbersParityError):
            if home == hole_home:
                raise
            # numbered tiles were read with the hole's home of a box doubted as the finished picture, which says
            # nothing of where numbered tiles' hole belongs (bench 1016 of "numbers, missing number": 1..N less
            # one put it elsewhere; held-out 53020 of "numbers, other faces": not reachable with it)
            home = hole_home
            reading = read_seams(home)
    except ReadingError as refusal:
        if doubted is None:
            if home is None and isinstance(refusal, PictureReassemblyError):
                reading = replace(_read_with_the_home_top_left(image, read_seams, refusal), home_assumed=True)
                _check_no_home_inside(image, reading, switched=True)
                if not exact:  # as for a reading with the home bottom-right (QA: a 3x5 whose preview above the
                    # board was not found, its missing piece's home inside, read wrong with it top-left)
                    _check_no_unmatched_preview(image, reading, outlined)
                return reading
            raise
        raise _preview_refusal(doubted, "the tiles' seams do not settle them", refusal.reading) from refusal
    if reading.kind != "picture":
        if home != hole_home:  # a picture's preview says nothing of where numbered tiles' hole belongs
            return read_seams(hole_home)  # (bench 1016, "numbers, no reference": read around a doubted box's)
        return reading
    if doubted is None and not exact and reading.grid is not None and reading.grid not in grids[:PREVIEW_BOXES]:
        # every box again, on the board read only (a box tried before may match on it: dev 33229, 33237)
        seen, doubted = _read_with_preview(
            image, [reading.grid], width, height, hole_home, blank_cell, on_grids_only=True, outlined=outlined
        )
        if seen is not None:
            return seen
    if doubted is not None:
        _check_against_preview(reading, doubted)
        return reading
    if hole_home is None and not exact:
        _check_no_unmatched_preview(image, reading, outlined)
    chosen = _with_the_corner_seams_choose(image, reading, hole_home, read_seams)
    if hole_home is None:
        _check_no_home_inside(image, chosen, switched=chosen.missing != reading.missing)
        return replace(chosen, home_assumed=True)
    return chosen


def _check_no_home_inside(image: PILImage.Image, reading: ScreenshotReading, switched: bool) -> None:
    """Raise :class:`PictureReassemblyError` when ``reading``, a picture put back from its seams with the
    missing piece's home assumed at a corner (bottom-right, or, ``switched``, another corner the seams fit
    better), fits better with that home at a cell inside the board (:func:`_best_home_inside`): by more than
    :data:`HOME_INSIDE_SWITCHED` typical seams when switched, :data:`HOME_INSIDE` when not. Read with a corner
    for a home inside, a board comes back with one piece moved, the corner's piece laid in the home's cell,
    and passes every other check: "picture, no reference" with the missing piece's home anywhere read 7 of
    dev seeds 0-37 wrong with exit 0, and 7 of fresh 60000-60029; the true home of 11 of them fitted 0.36-1.63
    typical seams better (dev 5 and 6: 0.14 switched, 0.18 not; fresh 60027, every piece a row off). On the true
    boards of 400 seeds whose home is the bottom-right corner a cell inside fitted better by more than 0.4 on
    one, by 0.26-0.36 on the next four; dev 24, read right with the home bottom-right, fitted its cell 1 0.32
    better as read (refused at 0.3). On 400 whose home is top-left, by more than 0.15 on three."""
    if reading.kind != "picture" or reading.grid is None or reading.ambiguous:
        return
    cell, advantage = _best_home_inside(image, reading)
    if advantage <= (HOME_INSIDE_SWITCHED if switched else HOME_INSIDE):
        return
    corner = _CORNER_NAMES[_corner_of(reading.missing, reading.grid.width, reading.grid.height)]
    raise PictureReassemblyError(
        f"the tiles' seams fit {advantage:.2f} typical seams better with the missing piece's home at cell {cell}, "
        f"inside the board, than at the {corner} (cell {reading.missing}{', assumed' if not switched else ''}): "
        f"give --hole-home {cell} if the missing piece belongs there (or where it does), or the original picture "
        "with --reference",
        reading,
    )


def _best_home_inside(image: PILImage.Image, reading: ScreenshotReading) -> tuple[int, float]:
    """The cell inside the board (no corner) that, as the missing piece's home, fits ``reading`` (a picture
    read from its seams) best, and by how many typical seams its seams cost less than the reading's under
    both seam measures (the lesser gain): the reading with the piece laid in that cell moved to the reading's
    home instead, which is how a board read with a corner for a home inside comes out. Seams are weighed per
    seam (a home inside leaves out four, a corner two), as :func:`_best_other_corner` weighs them."""
    import numpy as np

    grid = reading.grid
    assert grid is not None
    width, height = grid.width, grid.height
    corners = set(_corners(width, height))
    homes = [home for home in range(width * height) if home not in corners and home != reading.missing]
    if not homes:
        return reading.missing, -math.inf
    both = _home_moved_gains(image, reading, homes)
    best = int(np.argmax(both))
    return homes[best], float(both[best])


def _laid_cells(reading: ScreenshotReading) -> list[int]:
    """Per home cell of ``reading`` (a picture), the screenshot cell of the piece laid there; -1 at the missing
    piece's home."""
    laid = [-1] * len(reading.board.tiles)
    for cell, label in enumerate(reading.board.tiles):
        if label:
            laid[label - 1] = cell
    return laid


def _home_moved_gains(image: PILImage.Image, reading: ScreenshotReading, homes: Sequence[int]) -> np.ndarray:
    """For each of ``homes`` (cells other than ``reading.missing``), by how many typical seams the reading with
    that home's piece moved to the reading's missing home, and that home left empty, fits better than the
    reading under both seam measures (the lesser gain; negative: it fits worse). Seams are weighed per seam (a
    home inside leaves out four, a corner two), as :func:`_best_other_corner` weighs them."""
    import numpy as np

    from .jigsaw import arrangement_ratios

    grid = reading.grid
    assert grid is not None
    width, height = grid.width, grid.height
    laid = _laid_cells(reading)
    arrangements = [laid]
    for home in homes:
        moved = list(laid)
        moved[reading.missing], moved[home] = laid[home], -1
        arrangements.append(moved)
    cuts = _seam_cuts(np.asarray(image.convert("RGB")), grid)
    gains = []
    for gradient in (False, True):
        ratios = np.array(arrangement_ratios(cuts, width, height, reading.blank_cell, arrangements, gradient))
        gains.append((ratios[0] - ratios[1:]) * _seam_count(width, height))
    return np.minimum(*gains)  # type: ignore[no-any-return]


def _missing_piece_disputed(
    image: PILImage.Image, reading: ScreenshotReading, preview: PILImage.Image, blank_cell: int | None
) -> tuple[int, int] | None:
    """The cells in dispute (a tile's and the hole's) when the tiles' seams side against the matching on which
    piece is missing, else None. ``reading`` was matched to the finished picture a game shows beside its board
    (``preview``), which shows every piece: the missing one is the piece no tile matched, a choice made by
    elimination. The matching's next choice is a tile taken for that piece instead, its own piece then missing
    (the tile whose move costs the matching least); when the seams fit that arrangement better under both
    measures, the two witnesses disagree. Fresh 64015 ("picture, preview shown", a 4x4 of 28 px preview
    pieces, the grid's columns 2.5 px off): the top-right piece, missing, and the one below it look alike;
    the tile of the one below matched the top-right 0.029 better (next choices of right readings: 0.030 and
    more), and the board came back with the wrong piece missing, exit 0. The seams put the true board 0.06
    and 0.27 typical seams ahead; of 119 right readings of fresh 64000-64099 and "game looks, preview"
    64000-64049, two 3x3s (0.02 ahead under both) had their next choice put ahead so."""
    import numpy as np

    grid = reading.grid
    assert grid is not None
    cost, columns = _matched_costs(image, grid, preview, blank_cell)[2:4]
    laid = _laid_cells(reading)
    homes = [home for home in range(len(laid)) if home != reading.missing]
    if not homes or len(columns) != len(laid) + 1:
        return None
    rises = [float(cost[laid[home], reading.missing] - cost[laid[home], home]) for home in homes]
    home = homes[int(np.argmin(rises))]
    if float(_home_moved_gains(image, reading, [home])[0]) > 0:
        return laid[home], reading.blank_cell
    return None


HOME_INSIDE = 0.4  # typical seams by which a home inside must fit better to refuse the bottom-right assumed ...
HOME_INSIDE_SWITCHED = 0.15  # ... or a corner the seams chose over it (the bottom-right already in doubt)


def _with_the_corner_seams_choose(
    image: PILImage.Image,
    reading: ScreenshotReading,
    hole_home: int | str | None,
    read_seams: Callable[[int | str | None], ScreenshotReading],
) -> ScreenshotReading:
    """``reading`` (from the tiles' seams, the missing piece's home ``hole_home``, or assumed bottom-right)
    unless the picture fits better (by ``HOME_DOUBT``) with that home at another corner
    (:func:`_best_other_corner`).
    Then, with the home assumed and that corner the top-left, the board is read again with the home there
    (``read_seams``), and that reading is kept if the corner it was read with then fits better than every other
    corner by ``HOME_SWITCH`` (:func:`_corner_wins`); a home the user gave is refused. The top-right and the
    bottom-left, corners games seldom use, are never switched to: one within ``HOME_SWITCH`` leaves ``reading``
    standing (the top-left then doubting it if it does), one beyond refuses it.

    A game whose missing piece belongs top-left, read with it assumed bottom-right, came back with a wrong
    board (QA, 2026-11-27; 8 of 24 fresh screenshots 45000-45023): its pieces fill the frame shifted by a
    cell, with a few seams broken where the rows wrap."""
    assert reading.grid is not None
    if reading.ambiguous:  # already not stood behind: refused when strict, else the best guess, marked
        return reading
    corner, advantage = _best_other_corner(image, reading)
    if advantage <= HOME_DOUBT:
        return reading
    if hole_home is None and corner != 0:
        # the seams prefer a corner no common game convention uses (the classic bottom-right, the blank-first
        # top-left): the two seams a corner's home leaves out are evidence too weak to settle the board alone
        # where the pieces near the corners look alike. Fresh 60279 (a 6x6 whose missing piece belongs
        # bottom-right, the flag's starred pieces in the top-right corner) was read with the home switched to
        # the top-right, those pieces shifted down a column, wrong, with exit 0: one poor true seam left out
        # there outweighed the two laid at the bottom-right by 0.50 typical seams. So such a corner is never
        # switched to; within HOME_SWITCH of the bottom-right it does not doubt the board either (fresh
        # 60220-60459: 7 such boards, read right bottom-right, had been refused), unless the top-left does
        _, top_left = _best_other_corner(image, reading, among=(0,))
        if top_left > HOME_DOUBT:
            corner, advantage = 0, top_left
        elif advantage <= HOME_SWITCH:
            return reading
    there = f"the {_CORNER_NAMES[_corner_of(corner, reading.grid.width, reading.grid.height)]} (cell {corner})"
    if hole_home is not None:
        raise PictureReassemblyError(
            f"the tiles' seams fit {advantage:.2f} typical seams better with the missing piece's home at {there} "
            f"than at cell {reading.missing}, the one given: check --hole-home",
            reading,
        )
    advice = f"give --hole-home {corner} if the missing piece belongs at {there}, or the original picture with --reference"
    if corner != 0:
        raise PictureReassemblyError(
            f"the tiles' seams fit {advantage:.2f} typical seams better with the missing piece's home at {there} "
            f"than at the bottom-right (assumed), a corner games seldom leave it at, too little to read the board "
            f"so from the seams alone: {advice}",
            reading,
        )
    try:
        other = read_seams(corner)
    except ReadingError as refusal:
        raise PictureReassemblyError(
            f"the tiles' seams fit better with the missing piece's home at {there} than at the bottom-right "
            f"(assumed), but do not settle the board with it there ({refusal}): {advice}",
            reading,
        ) from refusal
    if other.kind != "picture" or other.grid is None or other.missing != corner:
        raise PictureReassemblyError(
            f"the tiles' seams fit better with the missing piece's home at {there} than at the bottom-right "
            f"(assumed), but the board read with it there differs: {advice}",
            reading,
        )
    if not _corner_wins(image, other):
        raise PictureReassemblyError(
            f"the tiles' seams do not settle which corner the missing piece belongs at: {advice}", reading
        )
    return other


def _read_with_the_home_top_left(
    image: PILImage.Image,
    read_seams: Callable[[int | str | None], ScreenshotReading],
    refusal: PictureReassemblyError,
) -> ScreenshotReading:
    """After the seams refused the board with the missing piece's home assumed bottom-right (``refusal``):
    the board read with it top-left, as blank-first games have it, if that reading passes every check and
    fits better than any other corner by ``HOME_SWITCH`` (:func:`_corner_wins`); else ``refusal`` stands. Such boards
    read with the wrong home fit poorly, so were mostly refused (fresh 45000-45046 with the home top-left:
    25 of 33 refused). A reading that differs from the refused one only by its corner piece
    (:func:`_only_the_corner_piece_moved`) is refused as not telling the two corners apart."""
    _say("trying the missing piece at the top-left")
    try:
        reading = read_seams("top-left")
    except ReadingError:
        raise refusal from None
    # it must fit better than every other corner by HOME_SWITCH, not only no worse: dev seed 429 (a 3x5 of home
    # bottom-right, refused) read wrong with the home top-left, the bottom-right fitting only 0.17 better; the
    # boards read right this way fitted 0.67-0.74 better than any other corner
    if not _corner_wins(image, reading):
        raise refusal
    # the switch must explain more than its corner piece: dev 189 of "picture, no reference" (a 6x5, home
    # bottom-right) was refused bottom-right, another arrangement of five pieces inside fitting almost as well, and
    # read with every piece where that reading laid it but the flag's stars, moved from the top-left corner to the
    # bottom-right (0.52 typical seams better there), wrong, with exit 0; a board whose home is top-left read
    # bottom-right lays more than that piece elsewhere (its pieces shift round the missing corner). Fresh
    # "game looks" 59983 (a 5x5, home bottom-right) was refused bottom-right 0.28 ahead of every other
    # arrangement, then read top-left with its corner piece moved through a cell (0.34 and 0.49 better there),
    # wrong, with exit 0: a switch of a few pieces leaves the refusal standing too when the refused reading was
    # MIN_MARGIN ahead. Blank-first boards read bottom-right lay those few pieces anew just as often, but that
    # reading is in more doubt there: of 30 top-left boards of "game looks" 59840-59899 read right after a
    # refusal, 11 switched two pieces, their refused readings 0.001-0.245 ahead (a narrow line: a board whose
    # home is bottom-right refused less than MIN_MARGIN ahead can still come back switched wrong)
    assumed = refusal.reading
    if _only_the_corner_piece_moved(assumed, reading) or (
        assumed is not None
        and _only_the_corner_piece_moved(assumed, reading, CORNER_MOVE_CELLS)
        and _seam_margin(assumed) >= MIN_MARGIN
    ):
        _check_no_home_inside(image, reading, switched=True)  # the more telling refusal, if it holds
        raise PictureReassemblyError(
            "the tiles' seams do not tell whether the missing piece belongs at the bottom-right (assumed), where "
            "the board was not read with confidence, or at the top-left: all but a few pieces read the same "
            "either way; give --hole-home if you know where it belongs, or the original picture with --reference",
            assumed,
        ) from refusal
    return reading


def _only_the_corner_piece_moved(
    assumed: ScreenshotReading | None, switched: ScreenshotReading, cells: int = 1
) -> bool:
    """Whether ``switched``, a board read with the missing piece's home top-left, lays every piece where
    ``assumed`` (the same board read with the home bottom-right) laid it but at most ``cells``, among them the
    piece ``assumed`` takes for the top-left one and the piece ``switched`` takes for the bottom-right one. The
    home moved from corner to corner flips which arrangements a fair deal can show, so the corner piece may
    have to move with a pair of pieces exchanged, or through a cell on its way (:data:`CORNER_MOVE_CELLS`)."""
    if assumed is None or assumed.kind != "picture" or assumed.blank_cell != switched.blank_cell:
        return False
    before, after = assumed.board.tiles, switched.board.tiles
    if len(before) != len(after):
        return False
    moved = [cell for cell, (was, now) in enumerate(zip(before, after, strict=True)) if was != now]
    return (
        0 < len(moved) <= cells
        and any(before[cell] == 1 for cell in moved)
        and any(after[cell] == len(after) for cell in moved)
    )


CORNER_MOVE_CELLS = 3  # the corner piece, and a pair exchanged to keep the deal fair (or a cell it moved through)


def _seam_margin(reading: ScreenshotReading) -> float:
    """The typical seams by which a picture reading put back from its seams was ahead of every other
    arrangement weighed, from its cells' confidence (:class:`npuzzle.render.jigsaw.Assembly`: a cell's
    confidence is its rise over ``rise + CONFIDENCE_SCALE``; the least is the margin's)."""
    from .jigsaw import CONFIDENCE_SCALE as RISE_SCALE

    least = min(reading.confidence, default=0.0)
    return math.inf if least >= 1.0 else least * RISE_SCALE / (1.0 - least)


def _corner_wins(image: PILImage.Image, reading: ScreenshotReading) -> bool:
    """Whether ``reading``, a picture read from its tiles' seams, fits better with the missing piece's home at
    ``reading.missing`` than at every other corner, by ``HOME_SWITCH`` typical seams (:func:`_best_other_corner`),
    under both seam measures. Corners only: the seams do not tell a home inside the board (on top-left boards
    read right, 45040-45049, a cell inside fitted up to 0.56 better than the true corner; on a wrong one, QA's
    3x5 whose missing piece belongs at cell 7, 0.32). Both measures: fresh 52058, a 3x4 whose missing piece
    belongs bottom-right, read right that way, fitted 0.43 better with it top-left under the first measure
    (the flag's stars tile moved to the bottom-right corner), and came back so, wrong, with exit 0; the gradient
    measure fitted it 0.10 worse there. Boards whose home is top-left that were switched to it right (fresh
    58006, 58007, 58013, 58017) fitted it 0.43-0.89 better under the gradient measure. Every cell that may be
    the hole is weighed at the other corners: fresh 59008 ("hard looks"), a 4x4 whose hole is striped (as busy
    as a tile, so not weighed as the hole), was refused bottom-right, then read with a dark flat piece as the
    hole top-left and the stripes as the bottom-right piece, wrong, with exit 0; the stripes as the hole
    bottom-right, the true board, fit 0.64 and 0.75 typical seams better."""
    if reading.kind != "picture" or reading.grid is None:
        return False
    return all(
        _best_other_corner(image, reading, gradient, any_hole=True, enough=-HOME_SWITCH)[1] <= -HOME_SWITCH
        for gradient in (False, True)
    )


HOME_SWITCH = 0.25  # typical seams by which the corner a board is read with must beat every other corner
# typical seams by which another corner's arrangement must beat the home assumed to doubt it: fresh 45212 (a 3x3,
# home top-left) was read wrong bottom-right, the top-left fitting only 0.11 better; on the right readings of
# dev 0-24 no other corner came within 0.0
HOME_DOUBT = 0.05
_CORNER_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")


def _corners(width: int, height: int) -> tuple[int, int, int, int]:
    """The corner cells of a ``width`` x ``height`` board, in the order of :data:`_CORNER_NAMES`."""
    return (0, width - 1, width * (height - 1), width * height - 1)


def _corner_of(cell: int, width: int, height: int) -> int:
    """The index in :data:`_CORNER_NAMES` of corner ``cell`` of a ``width`` x ``height`` board."""
    return _corners(width, height).index(cell)


def _best_other_corner(
    image: PILImage.Image,
    reading: ScreenshotReading,
    gradient: bool = False,
    any_hole: bool = False,
    enough: float = math.inf,
    among: tuple[int, ...] | None = None,
) -> tuple[int, float]:
    """The corner other than ``reading.missing`` whose arrangement fits best, and by how many typical seams
    (the median seam cost between unrelated pieces) its seams cost less than the arrangement with the missing
    piece's home at ``reading.missing``: each the picture reassembled on the reading's grid with the hole and
    the missing piece's home there, on the same cuts (``gradient``: weighed with the gradient compatibility
    too, :func:`npuzzle.render.jigsaw.seam_costs`). With ``any_hole`` every cell that may be the hole
    (:func:`_hole_candidates`) is weighed as the hole at the other corners, not only the reading's. On the
    right readings of dev seeds 0-60 (missing piece bottom-right) no other corner came within 0.0 of it; read
    with the home wrongly assumed, the true top-left fitted 0.5-1.5 better. The first corner found to fit
    more than ``enough`` better is returned at once, whether or not it is the best (each weighing is a
    reassembly, one for every other corner and cell that may be the hole). ``among``: only these corners."""
    import numpy as np

    grid = reading.grid
    assert grid is not None
    width, height = grid.width, grid.height
    corners = [c for c in sorted(set(_corners(width, height))) if c != reading.missing and (among is None or c in among)]
    if not corners:
        return reading.missing, -math.inf
    cuts = _seam_cuts(np.asarray(image.convert("RGB")), grid)
    holes = [reading.blank_cell]
    if any_hole:
        holes += [cell for cell in _hole_candidates(cuts[0]) if cell != reading.blank_cell]

    def cost(hole: int, home: int) -> float:  # per seam: a hole off a corner has more
        return _dealt_assembly(cuts, width, height, hole, home, gradient).seam_ratio * _seam_count(width, height)

    base = cost(reading.blank_cell, reading.missing)
    best, advantage = reading.missing, -math.inf
    for corner in corners:
        for hole in holes:
            if (gain := base - cost(hole, corner)) > advantage:
                best, advantage = corner, gain
                if advantage > enough:
                    return best, advantage
    return best, advantage


def _previews_alike(
    image: PILImage.Image, board: Box, likes: list[Box], min_area: float = 0.0, outlined: list[Box] | None = None
) -> Iterator[tuple[Box, PILImage.Image]]:
    """Boxes (rounded) beside ``board`` that may show the finished picture
    (:func:`~npuzzle.render.locate.preview_boxes`, of ``outlined`` if given), with their pictures: at least
    ``min_area`` of the board's area, and alike in colour (:data:`PREVIEW_ALIKE`) one of the ``likes`` boxes."""
    from .locate import colours_alike, preview_boxes

    board_area = (board[2] - board[0]) * (board[3] - board[1])
    for found in preview_boxes(image, [board], PREVIEW_BOXES, outlined):
        box = (float(round(found[0])), float(round(found[1])), float(round(found[2])), float(round(found[3])))
        if (box[2] - box[0]) * (box[3] - box[1]) < min_area * board_area:
            continue
        picture = _box_picture(image, box)
        if max(colours_alike(image, like, picture) for like in likes) >= PREVIEW_ALIKE:
            yield box, picture


def _check_no_unmatched_preview(
    image: PILImage.Image, reading: ScreenshotReading, outlined: list[Box] | None = None
) -> None:
    """Raise :class:`PictureReassemblyError` when a box beside a board read from its seams with the missing
    piece's home assumed (bottom-right) looks like the finished picture (:func:`_read_with_preview`'s boxes,
    alike the board in colour) but its tiles could not be matched to it: the game shows where the piece
    belongs, and the assumption may be wrong (held-out 42015: a smooth picture's preview, read unmatched,
    came back with the wrong goal)."""
    assert reading.grid is not None
    # at least PREVIEW_MIN_AREA of the board: not a line of text or a button (the window's own boxes were at
    # most 0.55 alike on dev boards 0-119, and 0.7% of the board's area)
    for box, _ in _previews_alike(image, reading.grid.box, [reading.grid.box], PREVIEW_MIN_AREA, outlined):
        raise PictureReassemblyError(
            f"the game seems to show its finished picture at x {box[0]:.0f}..{box[2]:.0f}, y "
            f"{box[1]:.0f}..{box[3]:.0f}, but the tiles do not match it closely enough to show where the "
            f"missing piece belongs; read from their seams with it at cell {reading.missing}: give the "
            "missing piece's home with --hole-home, or the original picture with --reference",
            reading,
        )


PREVIEW_BOXES = 3  # boxes beside the board tried as the finished picture, largest first
PREVIEW_ALIKE = 0.6  # colour overlap with the board a box needs to be tried (dev previews: 0.74-0.88)
PREVIEW_SHAPE_TOLERANCE = 0.1  # |log| of a preview's shape over the board's picture's
PREVIEW_MIN_CELLS = 9  # boards read from a preview hold at least this many cells
PREVIEW_SMALL_PIECE = 24  # pixels: a preview's pieces smaller than this ...
PREVIEW_SMALL_CONFIDENCE = 0.6  # ... give a reading only if every cell is this sure (else evidence)
PREVIEW_MIN_AREA = 0.02  # share of the board's area a box needs to be taken for an unmatched preview


def _read_with_preview(
    image: PILImage.Image,
    grids: list[Grid],
    width: int | None,
    height: int | None,
    hole_home: int | str | None,
    blank_cell: int | None,
    on_grids_only: bool = False,
    outlined: list[Box] | None = None,
) -> tuple[ScreenshotReading | None, ScreenshotReading | None]:
    """Picture tiles matched to the finished picture when the game shows it beside the board (a preview):
    each box outlined by straight edges and full of detail, apart from the board and alike in colour
    (:func:`~npuzzle.render.locate.preview_boxes`), is taken for the reference picture, its sides nudged to
    where the tiles match its pieces best (:func:`_refined_preview`). A reading is kept only as a reference's
    is, and more: the tiles match their pieces closely (:data:`STRONG_MATCH_RMS`) without a doubt, the cells
    read lie apart from the preview and take more room than it (the board is not taken for the preview), the
    board is solvable, and the missing piece is where ``hole_home`` says (if given; a preview shows where it
    belongs), and, when it is not given, the tiles' seams do not side against the matching on which piece is
    missing (:func:`_missing_piece_disputed`: else a doubt, the hole's cell among its doubts). ``(reading,
    None)``, or ``(None, doubted)``: the first reading that matched a preview closely but with a doubt
    (:func:`_preview_doubt`; its ``preview`` set), or None. ``on_grids_only``: the tiles are matched on
    ``grids`` alone (a board already read), not on others found around them. ``outlined``:
    :func:`~npuzzle.render.locate.outlined_boxes` of ``image``, if worked out already."""
    doubted: ScreenshotReading | None = None
    # only the best grid's box is kept clear: other grids may reach past the board into the preview; alike
    # any of the best grids in colour (the best may take in some window: 42001, a 2x3 of it)
    likes = [g.box for g in grids[:PREVIEW_BOXES]]
    for box, picture in _previews_alike(image, grids[0].box, likes, outlined=outlined):
        # as found; then its sides nudged onto the grid that reading used, and onto the best located grid
        # (a box that lost a side has another shape, and a block of the board that shape matches it best)
        fits: list[tuple[float, float, float, float] | Grid] = [box]
        tried: list[Grid] = []
        while fits:
            _check_time()
            fit = fits.pop(0)
            if isinstance(fit, Grid):
                tried.append(fit)
                fit = _refined_preview(image, fit, box, blank_cell)
            preview = picture if fit == box else _box_picture(image, fit)
            try:
                reading = _read_with_reference(
                    image, [*tried, *grids], preview, blank_cell, width, height, on_grids_only
                )
            except ReferenceMismatchError as exc:
                reading = exc.reading
            except ReadingTimeoutError:
                raise
            except PuzzleError:
                continue
            doubt = _preview_doubt(image, reading, preview, fit, hole_home, blank_cell)
            disputed = None
            if doubt is None and hole_home is None:
                disputed = _missing_piece_disputed(image, reading, preview, blank_cell)
            if disputed is not None:
                doubt, reading = "doubt", replace(reading, ambiguous=(*reading.ambiguous, disputed))
            if doubt is None:
                return replace(reading, picture=_drawn_with_preview(image, reading, preview), preview=fit), None
            if doubt == "doubt" and doubted is None:
                doubted = replace(reading, preview=fit)
            if len(tried) == 0:
                fits.extend(g for g in dict.fromkeys([reading.grid, grids[0]]) if g is not None)
    return None, doubted


def _drawn_with_preview(image: PILImage.Image, reading: ScreenshotReading, preview: PILImage.Image) -> PILImage.Image:
    """The finished picture for drawing the solution: the screenshot's own tiles at their homes (sharper than
    a small preview), the missing piece cut from the preview."""
    import numpy as np

    assert reading.grid is not None
    w, h = reading.board.width, reading.board.height
    row, col = divmod(reading.missing, w)
    pw, ph = preview.width / w, preview.height / h
    piece = preview.crop((round(col * pw), round(row * ph), round((col + 1) * pw), round((row + 1) * ph)))
    cells = _cells_of(np.asarray(image.convert("RGB")), reading.grid)
    return _reassembled(cells, tuple(t - 1 for t in reading.board.tiles), w, h, missing=piece)


def _preview_doubt(
    image: PILImage.Image,
    reading: ScreenshotReading,
    preview: PILImage.Image,
    box: tuple[float, float, float, float],
    hole_home: int | str | None,
    blank_cell: int | None,
) -> str | None:
    """None when a reading matched to a preview is one to stand behind (:func:`_read_with_preview`);
    ``"doubt"`` when the tiles match the preview closely but the reading is not sure (look-alike tiles, a cell
    less than :data:`MIN_CONFIDENCE` sure, or :data:`PREVIEW_SMALL_CONFIDENCE` for small pieces), puts the missing
    piece elsewhere than ``hole_home``, or cannot be solved: evidence to check another reading against;
    ``"no match"`` otherwise."""
    grid = reading.grid
    if grid is None:
        return "no match"
    x0, y0, x1, y1 = grid.box
    if boxes_meet(grid.box, box):  # the preview read as its own board
        return "no match"
    if (box[2] - box[0]) * (box[3] - box[1]) >= (x1 - x0) * (y1 - y0):
        return "no match"  # a preview is smaller than the board (else the board may be taken for it, and it read)
    # the preview shows the whole picture: its shape is the board's picture's. A part of a preview matched
    # to a part of a board (skies, 2x2 and 2x3 blocks: held-out 42020, 42075) has another shape, or shows on
    # fewer than 9 cells (42013: a 3x3's 2x2 corner); a whole board unsure somewhere is doubted (below)
    picture_shape = grid.width * grid.columns.tile / (grid.height * grid.rows.tile)
    if abs(math.log((box[2] - box[0]) / (box[3] - box[1]) / picture_shape)) > PREVIEW_SHAPE_TOLERANCE:
        return "no match"
    if grid.width * grid.height < PREVIEW_MIN_CELLS:
        return "no match"
    if _match_reference(image, grid, preview, blank_cell)[1] > STRONG_MATCH_RMS or not _hole_is_empty(image, reading):
        return "no match"
    if reading.ambiguous or min(reading.confidence) < MIN_CONFIDENCE:
        return "doubt"
    # small pieces are compared as thumbnails of 8 px or fewer, where look-alike textures differ less: more
    # sureness is asked (held-out 43085, a 3x3 of 19 px pieces, two tiles and the missing piece turned round,
    # every cell at least 0.504 sure; right readings of pieces that small were 0.517-0.904 sure)
    small = min((box[2] - box[0]) / grid.width, (box[3] - box[1]) / grid.height) < PREVIEW_SMALL_PIECE
    if small and min(reading.confidence) < PREVIEW_SMALL_CONFIDENCE:
        return "doubt"
    if hole_home is not None and parse_hole_home(hole_home, grid.width, grid.height) != reading.missing:
        return "doubt"
    try:
        _check_solvable(reading)
    except PuzzleError:
        return "doubt"
    return None


def _check_against_preview(reading: ScreenshotReading, preview: ScreenshotReading) -> None:
    """Raise :class:`PictureReassemblyError` unless a picture put back from its seams agrees with the
    finished picture the game shows (matched, but with a doubt): the same goal, and the same tile in every
    cell outside the preview's doubts."""
    if (reading.board.width, reading.board.height) != (preview.board.width, preview.board.height):
        differ = True
    else:
        doubtful = {cell for group in preview.ambiguous for cell in group}
        differ = reading.goal != preview.goal or any(
            a != b and cell not in doubtful
            for cell, (a, b) in enumerate(zip(reading.board.tiles, preview.board.tiles, strict=True))
        )
    if differ:
        raise _preview_refusal(preview, "the tiles' seams put some elsewhere", reading)


def _preview_refusal(
    preview: ScreenshotReading, why: str, reading: ScreenshotReading | None
) -> PictureReassemblyError:
    """The refusal of a board whose tiles match the finished picture shown beside it only with doubts."""
    assert preview.preview is not None
    x0, y0, x1, y1 = preview.preview
    alike = " with doubts (some tiles look alike)" if preview.ambiguous else ""
    return PictureReassemblyError(
        f"the tiles match the finished picture shown at x {x0:.0f}..{x1:.0f}, y {y0:.0f}..{y1:.0f} (the missing "
        f"piece in cell {preview.missing}){alike}, and {why}: give the original picture with --reference, check "
        "--hole-home, or accept the best guess with --allow-ambiguous",
        reading,
    )


def _box_picture(image: PILImage.Image, box: tuple[float, float, float, float]) -> PILImage.Image:
    """The part of ``image`` in ``box`` (sub-pixel), at its own size."""
    from PIL import Image

    x0, y0, x1, y1 = box
    if all(float(v).is_integer() for v in box):
        return image.crop((round(x0), round(y0), round(x1), round(y1)))
    return image.resize((max(1, round(x1 - x0)), max(1, round(y1 - y0))), Image.Resampling.BICUBIC, box=box)


PREVIEW_NUDGE = 0.04  # first step of _refined_preview, as a share of a piece's side ...
PREVIEW_NUDGE_STEP = 0.25  # ... halved down to this many pixels


def _refined_preview(
    image: PILImage.Image, grid: Grid, box: tuple[float, float, float, float], blank_cell: int | None
) -> tuple[float, float, float, float]:
    """``box`` with each side moved (coordinate descent with halving steps) to where ``grid``'s cells match
    its pieces best: a preview's sides are found from edges, and a side a few pixels off (a picture's edge
    as dark as the window) shifts every piece of its row or column. First, when one side was lost (a dark
    picture's bottom on a dark window, 33436), it is put back from the other three and the board's shape,
    if that matches better."""

    def mismatch(b: tuple[float, float, float, float]) -> float:
        pw, ph = (b[2] - b[0]) / grid.width, (b[3] - b[1]) / grid.height
        pieces = [(b[0] + c * pw, b[1] + r * ph, b[0] + (c + 1) * pw, b[1] + (r + 1) * ph)
                  for r in range(grid.height) for c in range(grid.width)]  # fmt: skip
        ref = cell_features(image, grid.width, grid.height, boxes=pieces, side=_piece_side(min(pw, ph)))
        return _mean_match(image, grid, ref, blank_cell)

    shape = grid.width * grid.columns.tile / (grid.height * grid.rows.tile)  # the picture's width / height
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    variants = [box, (x0, y0, x1, y0 + w / shape), (x0, y1 - w / shape, x1, y1),
                (x0, y0, x0 + h * shape, y1), (x1 - h * shape, y0, x1, y1)]  # fmt: skip

    def inside(b: Sequence[float]) -> bool:  # a box cut off the screenshot's edge cannot be cropped
        return b[0] >= 0 and b[1] >= 0 and b[2] <= image.width and b[3] <= image.height

    scored = [(mismatch(v), v) for v in variants if inside(v)]
    best, box = min(scored, key=lambda sv: sv[0])
    step = max(1.0, PREVIEW_NUDGE * min((box[2] - box[0]) / grid.width, (box[3] - box[1]) / grid.height))
    while step >= PREVIEW_NUDGE_STEP:
        improved = False
        for side in range(4):
            for sign in (-1.0, 1.0):
                trial = list(box)
                trial[side] += sign * step
                if trial[2] - trial[0] < 2 * grid.width or trial[3] - trial[1] < 2 * grid.height:
                    continue
                if not inside(trial):
                    continue
                value = mismatch((trial[0], trial[1], trial[2], trial[3]))
                if value < best - 1e-4:
                    box, best, improved = (trial[0], trial[1], trial[2], trial[3]), value, True
        if not improved:
            step /= 2
    return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))


def _read_as_if_no_size(
    image: PILImage.Image,
    width: int,
    height: int,
    hole_home: int | str | None,
    strict: bool,
    refusal: ReadingError,
    board: tuple[float, float, float, float] | None = None,
) -> ScreenshotReading:
    """With the size given and the reading refused, the screenshot read as if the size were not given (every
    grid the reader then tries: grown, fitted to the hole, recut square, the outlines), kept only when it is
    sure and of the size given; else ``refusal`` is raised. Given the size, the reader locates one grid of
    that size, and it can be a few pixels off or elsewhere where the free reading finds the board (dev seeds
    0-199: 19 boards read without the size were refused with it)."""
    grids, problem = _layouts(image, None, None, False, board=board)
    if not grids:
        raise refusal
    try:
        reading = _read_without_reference(image, grids, problem, None, None, hole_home, strict)
    except ReadingError:
        raise refusal from None
    if reading.ambiguous:
        raise refusal
    found = (reading.board.width, reading.board.height)
    if found != (width, height):  # a sure board of another size: the size given is the likely cause
        amended = copy.copy(refusal)
        amended.args = (f"{refusal}; read without --size, the board looks like a {found[0]}x{found[1]}",)
        raise amended from None
    return reading


def _from_bytes(source: str | Path | bytes | PILImage.Image, what: str) -> str | Path | PILImage.Image:
    """An image file's bytes opened as a Pillow image; anything else unchanged."""
    if not isinstance(source, bytes):
        return source
    import io

    from .image import open_image

    return open_image(io.BytesIO(source), f"the {what}")


def _hole_home_cell(hole_home: int | str | None) -> int | None:
    """The cell number ``hole_home`` names, None for a corner named (or none): :class:`PictureError` for
    anything else."""
    if hole_home is None or hole_home in ("top-left", "bottom-right"):
        return None
    try:
        return int(hole_home)
    except (TypeError, ValueError):
        raise PictureError(
            f"hole home {hole_home!r} is not a cell number, 'top-left' or 'bottom-right'"
        ) from None


def parse_hole_home(hole_home: int | str | None, width: int, height: int) -> int:
    """The hole's home cell (0-based) from a cell number, ``"top-left"``, ``"bottom-right"`` or ``None``
    (the bottom-right). :class:`PictureError` for anything else, :class:`ReadingError` for a cell outside
    this ``width`` × ``height`` (the board may be another size)."""
    cell = _hole_home_cell(hole_home)
    if cell is None:
        return 0 if hole_home == "top-left" else width * height - 1
    if (outside := _off_the_board("hole home", cell, width, height)) is not None:
        raise ReadingError(outside)  # a refusal of this size of board: the reader may try others
    return cell


def _read_without_reference(
    image: PILImage.Image,
    grids: list[Grid],
    problem: GridNotFoundError | None,
    width: int | None,
    height: int | None,
    hole_home: int | str | None,
    strict: bool,
) -> ScreenshotReading:
    """Numbers by OCR; when the tiles carry no numbers, the picture reassembled from its tiles. Each grid of
    ``grids`` is tried in turn until one gives a reading that passes its own checks (every number once, a
    confident reassembly, solvable): the first grid's refusal is the one reported."""
    from .ocr import OcrUnavailableError

    if problem is not None and not grids:
        raise problem
    first: ReadingError | None = None
    parts: list[tuple[Grid, NumbersUnreadableError]] = []  # grids read as part of a bigger numbered board
    for index, grid in enumerate(grids):
        _check_time()
        try:
            reading = _read_layout(image, grid, width, height, hole_home, strict, pictures=index == 0)
            if strict or not reading.ambiguous:
                _check_solvable(reading)
            return reading
        except HoleHomeMismatchError:  # every number read: the board's own hole home, not the one given
            raise
        except ReadingError as exc:
            if exc.grid is None:
                exc.grid = grid  # for a debug picture of the grid the refusal is about
            first = first or exc
            if index > 0 and isinstance(exc, NumbersUnreadableError) and exc.cells_needed is not None:
                parts.append((grid, exc))
        except OcrUnavailableError:  # the other grids are read for numbers only: the first refusal stands
            if first is None:
                raise
            raise first from None
    assert first is not None
    if parts and width is None:  # the first grid was searched past already (_read_layout); the largest other part
        grid, exc = max(parts, key=lambda part: part[0].width * part[0].height)
        assert exc.cells_needed is not None
        try:
            reading = _read_numbers_bigger(image, grid, exc, exc.cells_needed, hole_home)
            _check_solvable(reading)
            return reading
        except ReadingError:
            pass
    if width is None:  # no grid located gave a reading: perhaps touching numbered tiles, lines unseen
        try:
            reading = _read_numbers_around_hole(image, grids, hole_home)
        except ReadingError as numbers_refusal:
            # numbers seen on most tiles: that refusal names the cause; none read (a star field's specks taken
            # for ink: held-out 63181, a 4x6 refused as "a 3x2 grid but no numbers"), the first grid's does
            if not isinstance(numbers_refusal, NumbersUnreadableError) or _numbers_seen(numbers_refusal):
                raise numbers_refusal from None
            reading = None
        if reading is not None:
            return reading
    raise first


def _read_layout(
    image: PILImage.Image,
    grid: Grid,
    width: int | None,
    height: int | None,
    hole_home: int | str | None,
    strict: bool,
    pictures: bool = True,
) -> ScreenshotReading:
    """One grid read: numbers, or (``pictures``) picture tiles reassembled. Reassembly is tried on the best
    grid only: a picture's own parts (a block of tiles, half tiles) also form grids, and the tiles of such a
    grid reassemble into a confident but wrong picture (dev seed 42: a 3x3 read through a 2x3 part of it;
    and through a 3x4 grid reaching into the window below the board, a row of flat window cells taken for
    the picture's top row)."""
    if not pictures:
        return _read_numbers(image, grid, None, width, height, hole_home=hole_home)
    if _looks_like_picture(image, grid):  # reassemble first; OCR only if that fails
        from .ocr import OcrUnavailableError

        try:
            return _read_picture(image, grid, hole_home, strict, size_given=width is not None)
        except PictureReassemblyError as exc:
            try:
                return _read_numbers(image, grid, None, width, height, hole_home=hole_home)
            except OcrUnavailableError as ocr_exc:  # the picture's cause first: it is why no reading came
                raise PictureReassemblyError(f"{exc}; numbers could not be looked for ({ocr_exc})", exc.reading) from None
            except NumbersUnreadableError as numbers_exc:
                if _numbers_seen(numbers_exc):
                    numbers_exc.grid = numbers_exc.grid or grid
                    exc.numbers = numbers_exc
                if numbers_exc.cells_needed is None or width is not None:
                    raise exc from None
                try:  # numbers after all, on a part of the board (small tiles with busy edges)
                    return _read_numbers_bigger(image, grid, numbers_exc, numbers_exc.cells_needed, hole_home)
                except NumbersUnreadableError:
                    raise exc from None
    try:
        return _read_numbers(image, grid, None, width, height, hole_home=hole_home)
    except NumbersUnreadableError as exc:
        if exc.cells_needed is not None and width is None:
            return _read_numbers_bigger(image, grid, exc, exc.cells_needed, hole_home)
        if _numbers_seen(exc):  # not a picture puzzle
            raise
        numbers_problem = exc
    try:
        return _read_picture(image, grid, hole_home, strict, size_given=width is not None)
    except PictureReassemblyError as exc:
        raise PictureReassemblyError(f"{exc}; no numbers were read on the tiles either ({numbers_problem})",
                                     exc.reading) from None


BIGGER_SHAPES = 4  # board shapes tried when the numbers read call for a bigger board than the grid found
BIGGER_READS = 6  # grids read by OCR in that search (the others are ruled out first: one empty cell each)
BIGGER_MORE_SHAPES = 2  # board shapes of more cells than the numbers read call for, looked for last
MAX_SIDE = 10  # tiles along a side of the bigger boards tried


def _read_numbers_bigger(
    image: PILImage.Image,
    grid: Grid,
    problem: NumbersUnreadableError,
    cells: int,
    hole_home: int | str | None = None,
) -> ScreenshotReading:
    """The numbers read say the board has at least ``cells`` cells, more than ``grid`` (part of the board
    taken for all of it): look again for a grid of ``cells + 1`` or ``cells`` cells (a "missing number" game
    numbers 1..N over N cells), the shapes closest to the grid found first; then grow the grid found, at its
    own pitch and with its tiles made square (:func:`~npuzzle.render.locate.square_grids`), by whole columns
    and rows on either side into boards of at least ``cells`` cells (the squarest and then smallest first),
    each also with its lines fitted again over its whole extent (:func:`~npuzzle.render.locate.refine_grid`:
    a pitch measured over two rows drifts across six; dev seed 1049 of "numbers, other faces" and of "numbers,
    hard looks"), keeping only those with exactly one empty cell and reading them until
    one passes every check (each number once, the added cells read surely or as the one number missing,
    solvable). Last, the highest number read being only a bound, the box of the grid found is cut into boards of
    more cells (:func:`_read_numbers_recut`: :data:`BIGGER_MORE_SHAPES` shapes, up to twice ``cells``, the
    squarest first). A number too big for any
    board (:data:`MAX_SIDE` squared) is two tiles' numbers read as one: cells twice as wide or tall as the tiles
    (:func:`_read_numbers_split`)."""
    if cells > MAX_SIDE * MAX_SIDE:
        return _read_numbers_split(image, grid, problem, hole_home)
    aspect = grid.width / grid.height

    def shapes_of(counts: Iterable[int]) -> list[tuple[int, int]]:  # closest to the grid's and to square first
        shapes = [(w, n // w) for n in counts for w in range(2, 17) if n % w == 0 and 2 <= n // w <= 16]
        return sorted(shapes, key=lambda wh: abs(wh[0] / wh[1] - aspect) + abs(wh[0] / wh[1] - 1))

    first = shapes_of((cells + 1, cells))[:2]
    for w, h in first:
        try:
            return _read_numbers(image, locate_grid(image, w, h), None, w, h, hole_home=hole_home)
        except (GridNotFoundError, NumbersUnreadableError):
            continue
    if (reading := _read_numbers_grown(image, grid, cells, hole_home)) is not None:
        return reading
    # the highest number read is only a bound: a grid coarser than the tiles (two cells across three tiles) cuts
    # some numbers in half, the highest among them (fresh 64032 of "numbers, other faces", a 3x3 whose outline
    # was cut as a 2x2: numbers up to 7 read, so 8- and 7-cell boards were looked for, never the 3x3)
    more = [shape for shape in shapes_of(range(cells + 2, 2 * cells + 1)) if shape not in first]
    if (reading := _read_numbers_recut(image, grid, more[:BIGGER_MORE_SHAPES], hole_home)) is not None:
        return reading
    raise problem


def _read_numbers_recut(
    image: PILImage.Image, grid: Grid, shapes: list[tuple[int, int]], hole_home: int | str | None
) -> ScreenshotReading | None:
    """``grid``'s box cut evenly into each of ``shapes`` (``(width, height)``), fitted to the tiles' sides
    (:func:`~npuzzle.render.locate.refine_grid`, any gap) and as cut, read by OCR where exactly one cell is
    empty: the first reading that passes every check, else None. For a grid that took in the whole board but
    cut it into fewer cells than it has tiles."""
    from .locate import refine_grid
    from .ocr import empty_cells

    x0, y0, x1, y1 = grid.box
    for w, h in shapes:
        even = _box_cut(x0, y0, x1 - x0, y1 - y0, w, h)
        for candidate in dict.fromkeys([refine_grid(image, even, any_gap=True), even]):
            if len(empty_cells(_crops(image, candidate))) != 1:
                continue
            try:
                return _read_numbers(image, candidate, None, w, h, hole_home=hole_home)
            except NumbersUnreadableError:
                continue
    return None


def _read_numbers_grown(
    image: PILImage.Image, grid: Grid, cells: int, hole_home: int | str | None
) -> ScreenshotReading | None:
    """:func:`_read_numbers_bigger`'s grids grown from ``grid`` to boards of at least ``cells`` cells, read until
    one passes (None if none does within :data:`BIGGER_READS` reads)."""
    from .locate import square_grids
    from .ocr import empty_cells

    # the grid found, and its tiles made square (an axis of two or three tiles measures its pitch poorly)
    bases = [grid, *(g for g in square_grids(grid) if (g.width, g.height) == (grid.width, grid.height))]
    sizes = sorted(
        ((w, h) for w in range(grid.width, MAX_SIDE + 1) for h in range(grid.height, MAX_SIDE + 1)
         if cells <= w * h <= 2 * cells),
        key=lambda wh: (abs(wh[0] - wh[1]), wh[0] * wh[1]),  # games favour square boards
    )  # fmt: skip
    reads = 0
    tried: set[Grid] = set()
    for w, h in sizes[:BIGGER_SHAPES]:
        for before_c in range(w - grid.width + 1):
            for before_r in range(h - grid.height + 1):
                seen = {(r + before_r) * w + c + before_c for r in range(grid.height) for c in range(grid.width)}
                for base in bases:
                    columns, rows = base.columns, base.rows
                    grown = Grid(
                        replace(columns, start=columns.start - before_c * columns.pitch, count=w),
                        replace(rows, start=rows.start - before_r * rows.pitch, count=h),
                    )
                    x0, y0, x1, y1 = grown.box
                    if x0 < -1 or y0 < -1 or x1 > image.width + 1 or y1 > image.height + 1:
                        continue
                    for candidate in _and_refined(image, grown):
                        if candidate in tried or len(empty_cells(_crops(image, candidate))) != 1:
                            continue
                        tried.add(candidate)
                        if reads == BIGGER_READS:
                            return None
                        reads += 1
                        try:
                            return _read_numbers(
                                image, candidate, None, w, h, added=set(range(w * h)) - seen, hole_home=hole_home
                            )
                        except NumbersUnreadableError:
                            continue
    return None


def _and_refined(image: PILImage.Image, grid: Grid) -> Iterator[Grid]:
    """``grid``, then (only if asked for) ``grid`` with its lines fitted again over its whole extent."""
    from .locate import refine_grid

    yield grid
    yield refine_grid(image, grid)


def _read_numbers_split(
    image: PILImage.Image, grid: Grid, problem: NumbersUnreadableError, hole_home: int | str | None = None
) -> ScreenshotReading:
    """``grid``'s cells read a number too big for any board: each cell holds two tiles side by side (or one
    above the other), their numbers read as one (dev seed 1074 of "numbers, hard looks": a 6x6 found as 3x6,
    "29" and "17" read as 2917). Read again with the columns, the rows, or both cut in two, the lines fitted
    again (:func:`~npuzzle.render.locate.refine_grid`), every check as for any grid."""
    from .locate import refine_grid

    columns, rows = grid.columns, grid.rows
    halved_columns, halved_rows = _halved_axis(columns), _halved_axis(rows)
    for split in (Grid(halved_columns, rows), Grid(columns, halved_rows), Grid(halved_columns, halved_rows)):
        if max(split.width, split.height) > MAX_SIDE:
            continue
        try:
            return _read_numbers(image, refine_grid(image, split), None, None, None, hole_home=hole_home)
        except NumbersUnreadableError:
            continue
    raise problem


def _halved_axis(axis: Axis) -> Axis:
    """``axis`` with each cell cut into the two tiles it spans: a cell two tiles wide is two tiles and the
    gap between them, so the tile is the cell less the new pitch."""
    pitch = axis.pitch / 2
    return replace(axis, pitch=pitch, tile=max(1.0, axis.tile - pitch), count=axis.count * 2)


NUMBER_HOLE_GRIDS = 2  # grids fitted to the hole read for numbers at most, the best centred first
NUMBER_CENTRED = 0.12  # a grid whose cells' numbers lie further off centre than this (share of a side) is off


def _read_numbers_around_hole(
    image: PILImage.Image, near: list[Grid], hole_home: int | str | None = None
) -> ScreenshotReading | None:
    """Numbered tiles read on a grid fitted to the hole: numbered tiles that touch, their faces one colour,
    draw no lines between them, so no grid is located (or a board's outline cut evenly cuts across them),
    but the hole still shows one tile's size, and each tile its number in its middle. Each flat rectangle
    near the grids ``near`` (:func:`~npuzzle.render.locate.hole_rectangles`) is taken for one tile, or one
    tile and the gap around it, for every gap up to :data:`~npuzzle.render.locate.MAX_GAP_PX`, and grown while
    the cells beyond hold numbers (:func:`_grown_over_numbers`); the grids whose numbers sit most nearly in
    their cells' middles are read (:func:`_read_numbers`, every check). The rectangles are looked for around
    ``near`` and, seeded by the rarest flat colours, over the whole screenshot
    (:func:`~npuzzle.render.locate.rare_flat_rectangles`: the faces' colour crowds the hole's out of the
    first search). None when no grid shows a number on every cell but one, as for picture tiles; when the
    grids that do fail their checks, the best centred one's refusal. Numbered tiles in fonts and faces the reader
    was not tuned on (held-out seeds 50000-50149: Liberation fonts, flat, rounded and outlined faces) were
    refused 41 times in 150, most as "a 2x2 picture" cut from the board's outline."""
    import numpy as np

    from .locate import MAX_GAP_PX, hole_cells, hole_rectangles, rare_flat_rectangles
    from .ocr import OcrUnavailableError, ink_offsets

    pixels = np.asarray(image.convert("RGB")).astype(np.float32)
    holes = dict.fromkeys([*hole_rectangles(image, near)[:HOLE_RECTANGLES], *rare_flat_rectangles(image)])
    fitted: dict[Grid, float] = {}
    for seed in (cell for hole in holes for cell in hole_cells(hole, map(float, range(int(MAX_GAP_PX) + 1)))):
        grid = _grown_over_numbers(image, seed, pixels)
        if grid.width < 2 or grid.height < 2 or grid in fitted:
            continue
        offsets = [o for o in ink_offsets(_crops(image, grid)) if o is not None]
        if len(offsets) == grid.width * grid.height - 1:  # a number on every cell but the hole
            fitted[grid] = max(offsets)
    centred = sorted((g for g, o in fitted.items() if o <= NUMBER_CENTRED), key=fitted.__getitem__)
    refusal: ReadingError | None = None
    searched_past = False
    for grid in centred[:NUMBER_HOLE_GRIDS]:
        try:
            try:
                reading = _read_numbers(image, grid, None, None, None, hole_home=hole_home)
            except NumbersUnreadableError as exc:
                if exc.cells_needed is None or searched_past:
                    raise
                searched_past = True  # one search past a part of the board (dev seed 1006 of "numbers, no reference")
                reading = _read_numbers_bigger(image, grid, exc, exc.cells_needed, hole_home)
            _check_solvable(reading)
            return reading
        except ReadingError as exc:
            if exc.grid is None:
                exc.grid = grid  # for a debug picture of the grid the refusal is about
            refusal = refusal or exc
        except OcrUnavailableError:
            return None
    if refusal is not None:
        raise refusal
    return None


def _crops(image: PILImage.Image, grid: Grid) -> list[PILImage.Image]:
    """The cells of ``grid`` cut out of ``image``, row by row."""
    return [image.crop(tuple(round(v) for v in box)) for box in grid.cell_boxes()]  # type: ignore[misc]


def _grown_over_numbers(image: PILImage.Image, grid: Grid, pixels: np.ndarray) -> Grid:
    """``grid`` grown a column or row at a time while every cell of one beyond it holds a number's ink
    (:func:`~npuzzle.render.ocr.empty_cells` finds none empty there) on a flat face
    (:func:`_faces_flat`; ``pixels`` the image's, float32 RGB), up to
    :data:`~npuzzle.render.locate.MAX_TILES` a side: the board ends where cells hold none (a frame, the
    window around it), and its one empty cell, the hole, is the one the grid was fitted to."""
    from .locate import MAX_TILES, SIDES, grid_beyond, grid_grown
    from .ocr import empty_cells

    grown = True
    while grown:
        grown = False
        for side in SIDES:
            if (grid.width if side in ("left", "right") else grid.height) >= MAX_TILES:
                continue
            beyond = grid_beyond(grid, side)
            x0, y0, x1, y1 = beyond.box
            if x0 < -1 or y0 < -1 or x1 > image.width + 1 or y1 > image.height + 1:
                continue
            if _faces_flat(pixels, beyond) and not empty_cells(_crops(image, beyond)):
                grid, grown = grid_grown(grid, side), True
    return grid


FACE_RIM = 0.1  # share of a cell's side in from its edge where its rim is looked at ...
FACE_DEVIATION = 8.0  # ... 0..255: the median deviation of a numbered tile's rim from its face colour, at most


def _faces_flat(pixels: np.ndarray, grid: Grid) -> bool:
    """Whether every cell of ``grid`` shows a face of one colour along its rim, :data:`FACE_RIM` in from its
    edges (``pixels``: the image's, float32 RGB): the median deviation from the rim's median colour, which
    a number or a rounded corner reaching the rim leaves alone and a picture does not, is at most
    :data:`FACE_DEVIATION`."""
    return all(_rim_deviation(pixels, box) <= FACE_DEVIATION for box in grid.cell_boxes())


def _rim_deviation(pixels: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """The median deviation (0..255, the largest channel's) from its median colour of the rim of the cell
    ``box`` of ``pixels`` (float32 RGB), :data:`FACE_RIM` in from its edges; infinite for a cell too small or
    cut off by the image's edge."""
    import numpy as np

    x0, y0, x1, y1 = box
    ix, iy = (x1 - x0) * FACE_RIM, (y1 - y0) * FACE_RIM
    a, b, c, d = round(y0 + iy), round(y1 - iy), round(x0 + ix), round(x1 - ix)
    if b - a < 4 or d - c < 4 or a < 0 or c < 0 or b > pixels.shape[0] or d > pixels.shape[1]:
        return math.inf
    cell = pixels[a:b, c:d]
    rim = np.concatenate([cell[0], cell[-1], cell[:, 0], cell[:, -1]])
    return float(np.median(np.abs(rim - np.median(rim, axis=0)), axis=0).max())


PICTURE_RIM = 14.0  # 0..255: tiles whose rims vary more than this (median over cells) are picture tiles


def _looks_like_picture(image: PILImage.Image, grid: Grid) -> bool:
    """Numbered tiles have a flat face around their number; picture tiles do not: the median over cells of
    the colour spread along each cell's rim (just inside its bevel) tells them apart."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB")).astype(np.float32)
    spreads = []
    for x0, y0, x1, y1 in grid.cell_boxes():
        ix, iy = (x1 - x0) * 0.12, (y1 - y0) * 0.12
        a, b, c, d = round(y0 + iy), round(y1 - iy), round(x0 + ix), round(x1 - ix)
        if b - a < 4 or d - c < 4 or a < 0 or c < 0:
            continue
        cell = pixels[a:b, c:d]
        rim = np.concatenate([cell[0], cell[-1], cell[:, 0], cell[:, -1]])
        spreads.append(float(rim.std(axis=0).max()))
    return bool(spreads) and float(np.median(spreads)) > PICTURE_RIM


class PictureReassemblyError(ReadingError):
    """Picture tiles without a reference could not be put back together with confidence. ``numbers``: the
    refusal of the same grid read for numbers when numbers were seen on most of its cells, else None."""

    numbers: NumbersUnreadableError | None = None


def _numbers_seen(refusal: NumbersUnreadableError) -> bool:
    """Whether a numbers refusal saw numbers on most cells (:func:`_read_numbers` words the other case
    "found a ... grid but no numbers")."""
    return not str(refusal).startswith("found a")


HOLE_FLAT = 3.0  # a cell this many times flatter (colour spread) than the next flattest is surely the hole
HOLE_FLAT_BLACK = 1.5  # ... or this many times when it is black (dark picture tiles still show texture)
HOLE_BLACK = 8.0  # 0..255: a cell whose mean colour has no channel above this is black
# cells the seams weigh as the hole when none is surely flattest: JPEG's noise on a saturated hole can make
# flat sky tiles flatter (unseen seed 28770: the hole 4th flattest; taking the 3rd, a wrong 6x6 0.56 ahead)
HOLE_CANDIDATES = 6
HOLE_MAX_SPREAD = 0.3  # the hole's colour spread is at most this share of the other cells' (median) ...
HOLE_FLAT_PX = 6.0  # ... or this RMS spread (0-255) at most, whatever the other cells' ...
PATTERN_BLUR = 6  # ... unless, blurred over 1/this of its side (stripes and checks dissolved), the hole ...
PATTERN_LEFT = 0.12  # ... is a plane (flat or a gradient) to within this share of its colour spread ...
PATTERN_OFF_LINE = 0.05  # ... and at most this share of its colour variance lies off one line (two-tone) ...
PATTERN_TAIL = 0.25  # ... and at most this share along it from pixels 3 deviations out (stars on a dark sky)
PATTERN_INSET = 0.04  # ... all weighed inside a rim of this share of its side (2 px at least)
HOLE_PATTERNS = 2  # cells filled with a plain pattern (not flat) weighed as the hole besides, at most
LONE_HOLE = 1.5  # a cell whose best seam is this many times the median cell's meets no other (_lone_cell) ...
LONE_HOLE_SPREAD = 0.6  # ... weighed as the hole too, if at most this spread (share) when a cell is far the flattest
MIN_CELL_PX = 12  # pixels: cells smaller than this (or cut off by the image's edge) are not compared
PICTURE_MAX_CELLS = 64  # cells of the largest board put back with no reference (8x8: 14 s a hole; 10x10: 77 s)
LONE_MARGIN = 0.35  # the best reassembly must beat every other one by this many typical seams on its own ...
MIN_MARGIN = 0.25  # ... or this many, when the gradient measure puts it first by as much (a witness) ...
WITNESS_MARGIN = 0.125  # ... or even this many, when the gradient measure puts it first by MIN_MARGIN ...
MIN_BUDDIES = 0.5  # ... and this share of its seams join mutual best matches (under both measures) ...
SURE_BUDDIES = 0.4  # ... or this share, when both measures put it first by LONE_MARGIN and it holds on recuts
WITNESS_SECOND = 0.15  # ... the gradient measure's margin may be this, not MIN_MARGIN, when both measures ...
WITNESS_RELATIVE = 0.4  # ... put the arrangement this far ahead weighed relatively (Assembly.relative_margin)
SEAMS_3X3 = 10  # ... on boards with at least a 3x3's seams (12, less the hole's 2); fewer need more
# WITNESS_MARGIN was 0.1: the two wrong boards the second measure vouched for by less than MIN_MARGIN (fresh 57032
# and 59026, both 4x4s of look-alike dark tiles in a 3-cycle) were 0.110 and 0.108 ahead on the first measure;
# the 40 right readings so vouched for (game looks 51000s, 55000s, 56000s; no reference 52000s) 0.141 or more
DOUBT_MARGIN = 0.1  # another arrangement this many typical seams ahead under a measure doubts a reading
MIN_SEAMS = 3  # a board whose pieces meet at fewer seams (a 2x2: 2) is read only with its size given
BORDER_MARGIN = 0.0  # typical seams: the least margin with the sides meeting no piece charged (jigsaw)
MAX_SEAM_RATIO = 0.85  # the reassembly's seams must average below this share of a random pair's
WEAK_SEAMS = 0.7  # ... and a reading narrower than MIN_MARGIN under either measure, below this share
GRID_GOES_ON = 0.4  # cells beyond the grid whose sides are steps this much (median) are tiles too ...
GRID_GOES_ON_SHARE = 0.5  # ... when that is also this share of the grid's own cells' median
GRID_GOES_ON_DOUBT = 0.35  # a grid is grown by GRID_GOES_ON, but its reading is doubted from this much on
MAX_KEPT = 0.45  # at most this share of neighbouring cells may hold neighbouring pieces (:func:`_kept_share`) ...
CUT_SHIFTS = (0.5, -0.5)  # pixels (both axes): the further cuts of the cells whose seam costs are averaged
NEARLY_SOLVED = 0.5  # ... unless the size is given and this share of the tiles is at home


def _read_picture(
    image: PILImage.Image, grid: Grid, hole_home: int | str | None, strict: bool, size_given: bool = False
) -> ScreenshotReading:
    """Picture tiles with no reference: the hole is the flattest cell, the goal arrangement comes from the
    tiles' seams (:func:`npuzzle.render.jigsaw.assemble`). Without the size, a grid that gives no sure
    reading is tried once more as :func:`_grid_on_hole` fits it to the hole. When no grid gives one, a
    second seam measure may still vouch for a reading (:func:`_witnessed_on`), also on grids with one axis
    recut to the other's square tiles (:func:`~npuzzle.render.locate.square_grids`) or, when the gaps differ, to
    the other's gap (:func:`~npuzzle.render.locate.with_one_gap`), or refit to its gaps' mirror centres
    (:func:`~npuzzle.render.locate.symmetric_grid`), and, by the full margin, on the board's outlines cut evenly
    (:func:`_outlines`), and last on grids the step maps propose (:func:`_read_on_step_grids`). A sure reading on
    a grid whose gaps differ across and down stands only if the grid cut with one gap both ways reads no other
    way (:func:`_read_otherwise_with_one_gap`)."""
    memo = _PictureMemo(image)
    reading = _read_picture_on(memo, grid, hole_home, strict, size_given)
    if reading.ambiguous or reading.grid is None:
        return reading
    doubt = _shaded_tile_doubt(memo, reading)
    if doubt is not None:
        if strict:
            raise _unsure_refusal(reading.grid, [doubt], reading)
        return replace(reading, ambiguous=(tuple(range(reading.grid.width * reading.grid.height)),))
    recut = _read_otherwise_with_one_gap(memo, reading, hole_home, size_given)
    if recut is None:
        return reading
    refused = _unlike_gaps(reading.grid, reading, strict, "cut with one gap both ways the tiles read another way")
    if refused is not None:
        raise refused
    return replace(reading, ambiguous=(tuple(range(recut.width * recut.height)),))


SHADE_QUICK = 0.0  # typical seams: when the quick measure puts a shaded tile's 3-cycle this far ahead or more ...
SHADE_DOUBT = 0.1  # ... both full measures weigh it; this far ahead under both, the reading is doubted


def _shaded_tile_doubt(memo: _PictureMemo, reading: ScreenshotReading) -> str | None:
    """Why ``reading`` is doubted as a tile shown lighter or darker as a whole (under the pointer, selected)
    may have been read in another place, or None: with such tiles put back
    (:func:`npuzzle.render.jigsaw.shade_suspects`), a 3-cycle of the reading fits :data:`SHADE_DOUBT` better
    than the reading fits any way, under both seam measures (:func:`npuzzle.render.jigsaw.shaded_rival_margin`).
    Fresh "hard looks" seed 60471, a 6x6 whose top-right piece of flat sky was shown 25 % lighter: it passed
    for the lighter sky two cells down, and the sky pieces between were read in a 3-cycle with exit 0 (both
    measures put it 0.19 and 0.27 ahead, steady on the recuts)."""
    import numpy as np

    from ..solvability import is_solvable
    from .jigsaw import shade_suspects, shaded_rival_margin

    grid = reading.grid
    assert grid is not None
    if not is_solvable(reading.board, reading.goal):  # refused as such, a cause more precise than this one
        return None
    width, height = grid.width, grid.height
    hole = reading.board.blank_cell
    homes = [label - 1 if label else -1 for label in reading.board.tiles]
    cuts = _seam_cuts(np.asarray(memo.image.convert("RGB")), grid)
    suspects, quick = shade_suspects(cuts[0], width, height, hole, homes)
    if quick >= SHADE_QUICK:
        return None
    margins = []
    for gradient in (False, True):
        _check_time()
        margins.append(shaded_rival_margin(cuts, width, height, hole, homes, suspects, gradient))
        if margins[-1] > -SHADE_DOUBT:
            return None
    return (
        "with a tile taken as shown lighter or darker as a whole (under the pointer, selected) and put back, "
        f"another arrangement fits better, {-max(margins):.2f} ahead"
    )


RECUT_GAPS_PX = 1.0  # pixels: a reading's grid whose gaps differ more than this is also cut with one gap


def _read_otherwise_with_one_gap(
    memo: _PictureMemo, reading: ScreenshotReading, hole_home: int | str | None, size_given: bool
) -> Grid | None:
    """A grid ``reading``'s grid becomes with one axis refit to the other's gap
    (:func:`~npuzzle.render.locate.with_one_gap`, each axis in turn) that reads otherwise: surely (the first
    seam measure on its own, or the second vouching by :data:`DOUBT_MARGIN`), or with another arrangement
    first under both measures whose seams fit better than ``reading``'s under both (a lower
    ``seam_ratio``), :data:`DOUBT_MARGIN` ahead under either. None when there is none, or the gaps differ
    by at most :data:`RECUT_GAPS_PX`. Unseen seed 29666, touching tiles whose columns were found with a 4 px
    gap against the rows' 1 px: both measures put one wrong 3x3 first (0.54 and 0.49 ahead); cut with a 1 px
    gap both ways, they read it right, surely. Dev seed 555 (4x4, touching tiles, columns found with 6 px
    gaps, rows 1 px): both measures put a wrong board 0.37 and 0.30 ahead; recut with 1 px gaps the right one
    is first, not surely (0.07 and 0.23 ahead), but with better seams (ratios 0.49 and 0.38 against 0.51 and
    0.41). The 27 right readings recut on dev 0-399 and fresh 29800-30199 read the same way or not surely,
    and where another arrangement came first, with worse seams or by less than the margin."""
    from .locate import with_one_gap

    grid = reading.grid
    assert grid is not None
    if abs(grid.columns.gap - grid.rows.gap) <= RECUT_GAPS_PX:
        return None
    missing = parse_hole_home(hole_home, grid.width, grid.height)
    read_as = (reading.board, reading.goal)
    for axis in ("columns", "rows"):
        recut = with_one_gap(memo.image, grid, axis)
        if recut == grid:
            continue
        try:
            other = _reassembled_on(memo, recut, hole_home, False, size_given)
        except PictureReassemblyError:  # (too many cells or too small ones: no reading at all)
            continue
        if other.ambiguous:
            witnessed = _witnessed_on(memo, recut, hole_home, size_given, DOUBT_MARGIN)
            if witnessed is not None:
                other = witnessed
        if (other.board, other.goal) != read_as and not other.ambiguous:
            return recut
        if _fits_otherwise_better(memo, grid, recut, missing):
            return recut
    return None


def _fits_otherwise_better(memo: _PictureMemo, grid: Grid, recut: Grid, missing: int) -> bool:
    """Whether both seam measures put another arrangement first on ``recut`` than on ``grid`` (the same
    cells cut another way), with a lower ``seam_ratio`` than ``grid``'s best under both and
    :data:`DOUBT_MARGIN` ahead under either (see :func:`_read_otherwise_with_one_gap`)."""
    firsts = []
    for gradient in (False, True):
        best = memo.reassembled(grid, missing, gradient)[1][0]
        other = memo.reassembled(recut, missing, gradient)[1][0]
        if other.homes == best.homes or other.seam_ratio >= best.seam_ratio:
            return False
        firsts.append(other.margin)
    return max(firsts) >= DOUBT_MARGIN


def _read_picture_on(
    memo: _PictureMemo, grid: Grid, hole_home: int | str | None, strict: bool, size_given: bool
) -> ScreenshotReading:
    """:func:`_read_picture` before its last check: the first sure reading of the grids it tries."""
    from .locate import (
        content_grid,
        gaps_alike,
        refine_grid,
        snapped_grid,
        square_grids,
        symmetric_grid,
        with_one_gap,
    )

    image = memo.image
    if not size_given:  # a part of the board taken for all of it: the rows or columns beyond look like tiles
        grid = _grown_while_tiles_go_on(memo, grid, refine=False)
    refined = refine_grid(image, grid)  # tiles are compared at their very edges: refined to the pixel first
    if not size_given:  # refined, a grid can show tiles beyond it that its rough lines hid (dev seed 28)
        refined = _grown_while_tiles_go_on(memo, refined, refine=True)
        refined = _grown_to_the_hole(memo, refined)
    refined = content_grid(image, snapped_grid(image, refined))  # uneven gaps followed; a shadowed gap left out
    refused: PictureReassemblyError | None = None
    try:
        reading = _reassembled_on(memo, refined, hole_home, strict, size_given)
        if not reading.ambiguous and (doubt := _gradient_disagrees(memo, refined, hole_home)) is not None:
            refused = _unsure_refusal(refined, [doubt], reading)
            reading = replace(reading, ambiguous=(tuple(range(refined.width * refined.height)),))
        if not reading.ambiguous:
            if gaps_alike(refined) or _witnessed_on(memo, refined, hole_home, size_given, MIN_MARGIN) is not None:
                return reading
            # gaps unlike across and down (a gap or a frame's strip taken into the tiles one way) and the
            # second measure does not vouch for the reading
            refused = _unlike_gaps(refined, reading, strict)
            reading = replace(reading, ambiguous=(tuple(range(refined.width * refined.height)),))
    except PictureReassemblyError as exc:
        refused = exc
    if size_given:  # one grid, of the size given: only the second measure may still vouch for it
        witnessed = _witnessed_on(memo, refined, hole_home, size_given)
        if witnessed is not None:
            return witnessed
        if refused is not None:
            raise refused
        return reading
    # not one sure arrangement: perhaps the grid is not the board's; a grid that has the hole as a cell is
    # tried once more (only then: a flat piece of picture can pass for the hole and mislead the fit; and a
    # sure reading is not second-guessed by the hole's sides, which JPEG blurs by up to its 8 px blocks)
    tried = [refined]
    fitted = _grid_on_hole(memo, grid)
    if fitted != grid:
        tried.append(refine_grid(image, fitted))
        try:
            other = _reassembled_on(memo, tried[-1], hole_home, strict, size_given)
            if not other.ambiguous and _gradient_disagrees(memo, tried[-1], hole_home) is None:
                return other
        except PictureReassemblyError:
            pass
    # refined with no side counting more than a typical tile side (a frame's edges pull the outer tiles over
    # the frame: dev seed 297), read only when both seam measures agree (below; on its own the first measure
    # read a wrong 3x6 0.26 ahead on such a grid whose columns took the frame's strip in, dev seed 367)
    capped = _grown_while_tiles_go_on(memo, refine_grid(image, grid, capped=True), refine=True, capped=True)
    if gaps_alike(capped) and capped not in tried:
        tried.append(capped)
    # one axis found on other lines than the tiles': the other axis's square tiles, read only when both seam
    # measures agree (below; on its own the first measure put a wrong 3x3 0.26 ahead on such a grid, dev 356)
    for square in square_grids(refined):
        square = _grown_while_tiles_go_on(memo, refine_grid(image, square), refine=True)
        if square not in tried:
            tried.append(square)
    # gaps unlike across and down: each axis refit to the other's gap (as _read_otherwise_with_one_gap doubts a
    # sure reading), read only when the second measure vouches (below). Fresh 60485 of "game looks", a 3x3 whose
    # columns were refined as touching tiles, each taking in the 3.5 px gap on its left as the rows did not
    if not gaps_alike(refined):
        for axis in ("columns", "rows"):
            recut = with_one_gap(image, refined, axis)
            if recut not in tried:
                tried.append(recut)
    # each axis refit to where the steps round its gaps mirror each other (the steps of a tile's inner line
    # can outweigh a thin gap's, but they mirror the next tile's round the gap: fresh "hard looks" 60650, a 5x5
    # whose columns sat on its 1 px highlight lines, 3 px off), read only when the second measure vouches
    symmetric = symmetric_grid(image, refined)
    if symmetric not in tried:
        tried.append(symmetric)
    # still none: a second seam measure may vouch for a reading with a smaller margin (only after every grid
    # was tried: on a grid a few pixels off it can make a wrong arrangement look sure on its own)
    for candidate in tried:
        witnessed = _witnessed_on(memo, candidate, hole_home)
        if witnessed is not None:
            return witnessed
    # last, the board's outer sides cut evenly into square tiles (and coarser: a busy picture makes quarter
    # tiles look as much like tiles), read only when both measures are sure by the full margin; the smallest
    # first, and only so many cells in all (an 8x8 cut of a 5x5 board took 12-16 s to refuse, dev seed 170)
    outlines = sorted(_outlines(image, memo.seams()), key=lambda g: g.width * g.height)
    sure = _sure_reading_among(memo, outlines, tried, hole_home, OUTLINE_CELLS)
    if sure is not None:
        return sure
    # last of all, grids on the step maps' lines rather than the edge maps' (a busy or blurred picture)
    stepped = _read_on_step_grids(memo, tried, hole_home)
    if stepped is not None:
        return stepped
    if refused is not None:  # the first grid's refusal is the one reported
        raise refused
    return reading


STEP_GRIDS = 3  # grids of different sizes proposed by the step maps, read when no other grid gave a reading ...
STEP_CELLS = 64  # ... and cells of them reassembled at most, in all


def _read_on_step_grids(
    memo: _PictureMemo, tried: list[Grid], hole_home: int | str | None
) -> ScreenshotReading | None:
    """A reading on a grid :func:`~npuzzle.render.locate.step_grids` proposes (grown and refined like the
    first grid) that is none of ``tried``, read only when both seam measures are sure by the full
    :data:`MIN_MARGIN`, as the outlines are. Dev seed 266, a 3x3 of grace_hopper tiles at JPEG 43: the
    edge maps show no grid at all and the outlines cut 2x2 leave no cell flat enough for the hole; the step
    maps give the board's own lines (dev 198, 356, 382 likewise, located as a 2x2 part or a few px off).
    Unseen seed 29026, a 6x6 refused: its 6x7 and 7x6 step grids (a row or column of window more) took
    15 s to refuse, hence the :data:`STEP_CELLS` budget."""
    from .locate import refine_grid, step_grids

    grids = (_grown_while_tiles_go_on(memo, refine_grid(memo.image, proposed), refine=True)
             for proposed in step_grids(memo.image, None, None, keep=STEP_GRIDS, seams=memo.seams()))  # fmt: skip
    return _sure_reading_among(memo, grids, tried, hole_home, STEP_CELLS)


def _sure_reading_among(
    memo: _PictureMemo, grids: Iterable[Grid], tried: list[Grid], hole_home: int | str | None, cells: int
) -> ScreenshotReading | None:
    """The first reading of ``grids`` (those not in ``tried``, each then added to it) that both seam measures
    are sure of by the full :data:`MIN_MARGIN` (holding on the recuts under :data:`LONE_MARGIN`) and whose
    cells hold one tile each, reading at most ``cells`` cells in all; None when there is none."""
    budget = cells
    for grid in grids:
        # (a board with too few seams, a 2x2, is never read without its size: it would only spend cells)
        if grid in tried or _seam_count(grid.width, grid.height) < MIN_SEAMS:
            continue
        budget -= grid.width * grid.height
        if budget < 0:
            break
        tried.append(grid)
        # an outline cut evenly or a step map's lines are a guess at the grid: a reading on it that either
        # measure puts less than LONE_MARGIN ahead must hold on the recuts. Dev 187 of "picture, no reference",
        # a 5x4 with 8 px gaps read on its outline cut evenly, came back wrong with exit 0, 0.33 and 0.26 ahead
        # (its bottom row of dark uniform tiles slid a cell along, the plain piece above its start laid at its
        # end); recut a pixel or two, neither measure puts it first
        witnessed = _witnessed_on(memo, grid, hole_home, margin=MIN_MARGIN, hold_below=LONE_MARGIN)
        if witnessed is not None and not _holds_smaller_tiles(memo, grid, hole_home):
            return witnessed
    return None


def _holds_smaller_tiles(memo: _PictureMemo, grid: Grid, hole_home: int | str | None) -> bool:
    """Whether the cells of ``grid`` (the hole's aside) each hold several tiles: their halves or thirds meet
    no better than :data:`INNER_SEAM_RATIO` of a random pair's seam
    (:func:`~npuzzle.render.jigsaw.inner_seam_ratio`). Unseen seed 26290, a 6x6 of touching tiles whose own
    grid gave no sure reading: its outline cut 3x3 put every 2x2 block of tiles in one cell, and both measures
    put a wrong arrangement of those blocks first (0.50 and 0.83 ahead; the cells' halves met at 0.76)."""
    from .jigsaw import inner_seam_ratio, tile_arrays

    missing = parse_hole_home(hole_home, grid.width, grid.height)
    cells, assemblies = memo.reassembled(grid, missing, False)
    tiles = tile_arrays([cell for k, cell in enumerate(cells) if k != assemblies[0].hole])
    return max(inner_seam_ratio(tiles, parts) for parts in (2, 3)) >= INNER_SEAM_RATIO


def _unlike_gaps(
    grid: Grid,
    reading: ScreenshotReading,
    strict: bool,
    why: str = "the second seam measure does not vouch for the reading",
) -> PictureReassemblyError | None:
    """The refusal of a sure ``reading`` on a ``grid`` whose gaps differ across and down (not
    :func:`~npuzzle.render.locate.gaps_alike`, or more than :data:`RECUT_GAPS_PX`), ``why`` it is not stood
    behind; None when not ``strict`` (the reading is then only marked ambiguous). Such a grid took a gap or a
    frame's strip into its cells one way: dev seed 364's columns, 14 px of gap against the rows' 1, read a
    wrong 3x3 0.29 ahead when the seams were averaged over five cuts instead of three (tried, not kept)."""
    if not strict:
        return None
    return PictureReassemblyError(
        f"could not put the {grid.width}x{grid.height} picture back together with confidence (the grid's gaps "
        f"differ across and down, {grid.columns.gap:.1f} and {grid.rows.gap:.1f} px, and {why}): check --size "
        "and --crop, or give the original picture with --reference, or accept the best guess with "
        "--allow-ambiguous",
        reading,
    )


@dataclass
class _PictureMemo:
    """What one picture reading has worked out about its screenshot, kept for another look: the
    screenshot's seam maps (every :func:`_grid_goes_on`; half a second on a 1700 px screenshot) and each
    grid's reassemblies under each seam measure (one hole home)."""

    image: PILImage.Image
    assemblies: dict[tuple[Grid, bool], tuple[list[np.ndarray], list[Assembly]]] = field(default_factory=dict)
    _seams: tuple[np.ndarray, np.ndarray] | None = None

    def seams(self) -> tuple[np.ndarray, np.ndarray]:
        if self._seams is None:
            import numpy as np

            from .locate import _seam_maps

            self._seams = _seam_maps(np.asarray(self.image.convert("RGB")))
        return self._seams

    def goes_on(self, grid: Grid, bar: float = GRID_GOES_ON, loose: bool = False) -> str | None:
        """:func:`_grid_goes_on` of ``grid``."""
        return _grid_goes_on(self.image, grid, self.seams(), bar, loose)

    def has_no_hole(self, grid: Grid) -> bool:
        """Whether not even the flattest cell of ``grid`` is flat enough to be the hole
        (:func:`_flat_enough`, a cause :func:`_picture_causes` refuses any reading for; no other cell
        can be flatter for it) and no cell is a plain pattern (:func:`_plain_pattern`) either, found without
        reassembling: a grid of texture cells (unseen seed 29138, a 3x3 read on 8x6 grids of 16 px cells)
        took half a minute to reassemble and refuse."""
        import numpy as np

        cells = _cells_of(np.asarray(self.image.convert("RGB")), grid)
        if len(cells) > PICTURE_MAX_CELLS or min(min(c.shape[:2]) for c in cells) < MIN_CELL_PX:
            return False  # refused by the reassembly, with its own message
        return not _flat_enough(cells, None) and not any(map(_plain_pattern, cells))

    def reassembled(self, grid: Grid, missing: int, gradient: bool) -> tuple[list[np.ndarray], list[Assembly]]:
        """:func:`_assemblies_on` of ``grid``, worked out once."""
        if (grid, gradient) not in self.assemblies:
            self.assemblies[grid, gradient] = _assemblies_on(self.image, grid, missing, gradient)
        return self.assemblies[grid, gradient]

    def weighed(self, grid: Grid, chosen: Assembly, gradient: bool) -> Assembly:
        """The arrangement ``chosen`` (of ``grid``'s cells) with its evidence under the seam measure
        ``gradient`` (:func:`npuzzle.render.jigsaw.weigh`), among the arrangements a fairly dealt game shows."""
        import numpy as np

        from ..solvability import is_solvable_homes
        from .jigsaw import weigh

        width, height, missing = grid.width, grid.height, chosen.missing
        cells = self.reassembled(grid, missing, False)[0]
        cuts = _seam_cuts(np.asarray(self.image.convert("RGB")), grid, cells)
        return weigh(cuts, width, height, chosen.hole, chosen.homes, missing, gradient=gradient,
                     solvable=lambda homes: is_solvable_homes(homes, width, missing))  # fmt: skip


def _grown_while_tiles_go_on(memo: _PictureMemo, grid: Grid, refine: bool, capped: bool = False) -> Grid:
    """``grid`` grown by a row or column at a time while the cells beyond it look like tiles
    (:func:`_grid_goes_on`), up to :data:`MAX_SIDE` a side; each grown grid refined when ``refine``
    (``capped`` as :func:`~npuzzle.render.locate.refine_grid`)."""
    from .locate import grid_grown, refine_grid

    for _ in range(2 * MAX_SIDE):
        side = memo.goes_on(grid)
        if side is None or max(grid.width, grid.height) >= MAX_SIDE:
            break
        grid = grid_grown(grid, side)
        if refine:
            grid = refine_grid(memo.image, grid, capped=capped)
    return grid


def _grown_to_the_hole(memo: _PictureMemo, grid: Grid) -> Grid:
    """``grid`` grown by the row or column beyond it that holds the hole, when none of its own cells is flat
    enough to be the hole (:meth:`_PictureMemo.has_no_hole`): such a grid is not all of the board, whatever its
    other cells look like. Grown where the cells beyond look like tiles by the lower bar that doubts a reading
    (:data:`GRID_GOES_ON_DOUBT`, placed every way a pitch a few pixels off could have missed them), and kept only
    if the grown grid has a cell for the hole. Dev seed 173 of "picture, no reference", a 5x5 whose hole, top-left,
    shows the window's background: located as its lower 5x4, the top row's four tiles scored under the bar to
    grow by (their upper median 0.33 against 0.4: the hole and the background beside it are one), and the
    board was refused as having no hole."""
    from .locate import grid_grown, refine_grid

    if not memo.has_no_hole(grid) or max(grid.width, grid.height) >= MAX_SIDE:
        return grid
    side = memo.goes_on(grid, GRID_GOES_ON_DOUBT, loose=True)
    if side is None:
        return grid
    grown = refine_grid(memo.image, grid_grown(grid, side))
    return grid if memo.has_no_hole(grown) else grown


def _witnessed_on(
    memo: _PictureMemo,
    grid: Grid,
    hole_home: int | str | None,
    size_given: bool = False,
    margin: float = WITNESS_MARGIN,
    hold_below: float | None = None,
) -> ScreenshotReading | None:
    """A reading of ``grid`` that two seam measures agree on, or None: the prediction measure's best
    arrangement at least ``margin`` ahead (:data:`MIN_MARGIN` on grids trusted less), the same arrangement
    best with the gradient compatibility added (:func:`npuzzle.render.jigsaw.seam_costs`) and
    :data:`MIN_MARGIN` ahead there, :data:`MIN_BUDDIES` of its seams joining mutual best matches under
    both, and every other check passed by both (the hole's cell by the full margin). On a grid 10 px off
    (unseen seed 15022) both measures put one wrong 3x3 first with margins 0.24 and 0.27, but only 30 % of its
    seams joined mutual best matches. With the default ``margin``, the gradient measure needs only
    :data:`WITNESS_SECOND` when both measures put the arrangement :data:`WITNESS_RELATIVE` ahead weighed
    relatively on a board with more seams than a 3x3's (unseen seed 32144, a 3x3 of 33 px tiles: a wrong
    3-cycle of the picture's left column 0.22 and 0.153 ahead; none of 44 right readings so vouched in 2000
    reads was a 3x3): on dev seeds 0-799 every arrangement that passed all else with the gradient measure 0.10 to
    0.25 ahead was right but one (429, a 3x5, relative margins 0.06 and 0.04); unseen seed 26404's wrong 3x4
    (relative margins 1.17 and 1.03) was only 0.106 ahead under the gradient measure. With a ``margin``
    under :data:`MIN_MARGIN`, a reading that either measure puts less than :data:`MIN_MARGIN` ahead must
    still come first under one measure or the other on the grid recut a pixel or two each way
    (:func:`_steady_on_recuts`); with ``hold_below``, one that either puts less than that ahead, whatever
    ``margin``. Nor is any reading either measure puts less than :data:`MIN_MARGIN` ahead vouched for when its
    seams are weak (its seam ratio :data:`WEAK_SEAMS` or more: a texture, look-alike dark tiles), where so
    narrow a margin is within the seams' own noise."""
    width, height = grid.width, grid.height
    missing = parse_hole_home(hole_home, width, height)
    if (grid, False) not in memo.assemblies and memo.has_no_hole(grid):
        return None
    try:
        cells, plain = memo.reassembled(grid, missing, False)
    except PictureReassemblyError:
        return None
    if _picture_causes(memo, grid, plain, size_given, margin):
        return None  # (before the second measure's assembly, which costs as much as the first)
    _, graded = memo.reassembled(grid, missing, True)
    if graded[0].homes != plain[0].homes:
        return None
    second = MIN_MARGIN
    relatively = min(plain[0].relative_margin, graded[0].relative_margin) >= WITNESS_RELATIVE
    if margin < MIN_MARGIN and relatively and _seam_count(width, height) > SEAMS_3X3:
        second = WITNESS_SECOND
    if _picture_causes(memo, grid, graded, size_given, second):
        return None
    # a reading both measures put MIN_MARGIN ahead is taken as it is on a located grid; only a narrower one
    # must hold on the recuts (fresh 59012, a 4x4 with 5 px gaps read right 0.37 ahead under both: cells grown
    # 2 px took the gaps in and tipped the order); on a guessed grid _sure_reading_among asks more (hold_below)
    # (every other check was passed above: only the margins tell a narrow reading)
    if hold_below is None:
        hold_below = MIN_MARGIN if margin < MIN_MARGIN else 0.0
    least = min(plain[0].margin, graded[0].margin)
    scale = _margin_scale(width, height)
    # where the true seams are little better than a random pair's (a texture, look-alike dark tiles), a margin
    # under MIN_MARGIN is within the seams' own noise: fresh "game looks" seed 59341, a 6x5 terrain picture
    # (seam ratio 0.72), was read with three pieces of its right column in a 3-cycle, 0.17 and 0.26 ahead and
    # steady on every recut. Of 360 game-looks boards (59240-59359, 59480-59719) the rule refused five more:
    # 59341 and four read right by margins as narrow (284 right, 1 wrong before; 280 right, none wrong after)
    if least < MIN_MARGIN * scale and plain[0].seam_ratio >= WEAK_SEAMS:
        return None
    if least < hold_below * scale and not _steady_on_recuts(memo, grid, missing, plain[0]):
        return None
    # each cell as sure as the surer measure makes it (the one that vouched puts every rival 0.25 behind)
    confidence = tuple(max(a, b) for a, b in zip(plain[0].confidence, graded[0].confidence, strict=True))
    return replace(_picture_reading(cells, plain[0], grid, missing), confidence=confidence)


RECUTS = ((1.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 2.0), (0.0, 0.0, -2.0))
"""pixels: a grid's cells moved right, left, down, up (x, y) or grown on every side (tile): the recuts a reading
the second measure vouches for by less than :data:`MIN_MARGIN` must not hang on (:func:`_steady_on_recuts`)"""


def _steady_on_recuts(memo: _PictureMemo, grid: Grid, missing: int, best: Assembly) -> bool:
    """Whether on every recut of ``grid`` (:data:`RECUTS`) one seam measure or the other still puts the
    arrangement ``best`` first (its hole kept). A grid found a pixel or two off can tip look-alike tiles into
    a wrong order that both measures favour there, each by a hair: fresh seed 57032, a 4x4 whose three dark
    navy tiles were read in a 3-cycle (0.11 and 0.26 ahead) on a grid 1-2 px off the true one, where the
    true arrangement is tied (margin 0.00); moved a pixel up, or cut 2 px smaller, both measures put yet
    another arrangement first."""
    import numpy as np

    pixels = np.asarray(memo.image.convert("RGB"))
    width, height = grid.width, grid.height
    for dx, dy, grow in RECUTS:
        moved = grid.shifted(dx, dy)
        recut = Grid(_moved_axis(moved.columns, "tile", grow), _moved_axis(moved.rows, "tile", grow))
        cells = _cells_of(pixels, recut)
        if min(min(c.shape[:2]) for c in cells) < MIN_CELL_PX:  # off the screenshot: no evidence either way
            continue
        cuts = _seam_cuts(pixels, recut, cells)
        for gradient in (False, True):
            _check_time()
            if _dealt_assembly(cuts, width, height, best.hole, missing, gradient).homes == best.homes:
                break
        else:
            return False
    return True


def _gradient_disagrees(memo: _PictureMemo, grid: Grid, hole_home: int | str | None) -> str | None:
    """Why the gradient measure (:func:`npuzzle.render.jigsaw.seam_costs`) contradicts the arrangement the
    first measure is sure of on ``grid`` by :data:`LONE_MARGIN`, or None: it puts another arrangement first by
    :data:`DOUBT_MARGIN`, or the same one behind its rivals weighed relatively, or, with the sides that meet no
    piece charged, the reading behind one of its smallest changes (below). Fresh seed 32390, a 5x3 on a
    grid 5 px off at the top: a wrong arrangement 0.39 ahead on the first measure (relative margin 0.21)
    was read with exit 0; the gradient measure put it first by 0.16 but weighed it relatively 0.36 behind.
    Dev seeds 0-799 read the same with this check (723 right, 0 wrong): of the 308 right lone readings of the
    first 406, the least relative margin under the gradient measure was 0.70, and two had another arrangement
    first there, by 0.03 and 0.04."""
    missing = parse_hole_home(hole_home, grid.width, grid.height)
    plain = memo.reassembled(grid, missing, False)[1][0]
    graded = memo.reassembled(grid, missing, True)[1][0]
    if graded.homes != plain.homes and graded.margin >= DOUBT_MARGIN:
        return f"a second seam measure puts another arrangement first, {graded.margin:.2f} ahead"
    if graded.homes == plain.homes and graded.relative_margin < 0:
        return (
            "a second seam measure weighs it behind another arrangement relatively "
            f"(relative margin {graded.relative_margin:.2f})"
        )
    # the first measure's border check (_picture_causes) under the second measure too: fresh 63033 of "game
    # looks" on held-out pictures, a 6x6 whose top-left piece, its right neighbour and the piece above the
    # missing one were read in a 3-cycle, 0.42 ahead under the first measure alone; the second put another
    # arrangement first by 0.07 (under DOUBT_MARGIN), but with the sides meeting no piece charged it put the
    # true board 0.14 ahead of the reading. Against the reading's smallest changes only: the gradient measure's
    # own assembly weighs its runner-up as well, a far-off arrangement that with the border charged can come
    # first (held-out 63011, a 4x4 read right: -0.51 so, +0.34 against its smallest changes)
    weighed = memo.weighed(grid, plain, True)
    if weighed.border_margin < BORDER_MARGIN:
        return (
            "a second seam measure puts another arrangement first once the sides along the picture's border and "
            f"the missing piece's place are weighed too (margin {weighed.border_margin:.2f})"
        )
    return None


def _picture_reading(cells: list[np.ndarray], best: Assembly, grid: Grid, missing: int) -> ScreenshotReading:
    """The reading of the arrangement ``best`` of ``cells`` on ``grid``."""
    width, height = grid.width, grid.height
    board = Board([0 if home < 0 else home + 1 for home in best.homes], width, height, blank=0)
    goal = blank_at(width, height, missing)
    picture = _reassembled(cells, best.homes, width, height)
    return ScreenshotReading(board, goal, best.confidence, missing, (), "picture", grid, picture)


def _assemblies_on(
    image: PILImage.Image, grid: Grid, missing: int, gradient: bool = False
) -> tuple[list[np.ndarray], list[Assembly]]:
    """The cells of ``grid`` and their reassemblies (:func:`npuzzle.render.jigsaw.assemble`, ``gradient`` as
    there) with the hole's home at ``missing``: one for each cell that may be the hole, lowest seam ratio
    first."""
    import numpy as np

    width, height = grid.width, grid.height
    n = width * height
    size = f"{width}x{height}"
    _say(f"putting the {size} picture back together from its seams")
    pixels = np.asarray(image.convert("RGB"))

    def cut(shift: float) -> list[np.ndarray]:
        return _cells_of(pixels, grid, shift)

    if n > PICTURE_MAX_CELLS:
        raise PictureReassemblyError(
            f"a {size} grid has too many pieces to put the picture back together from its seams (at most "
            f"{PICTURE_MAX_CELLS} cells): check --size and --crop, or give the original picture with --reference"
        )
    cells = cut(0.0)
    if min(min(c.shape[:2]) for c in cells) < MIN_CELL_PX:
        raise PictureReassemblyError(
            f"the {size} grid runs off the screenshot or its cells are too small to read: check --size and "
            "--crop"
        )
    cuts = _seam_cuts(pixels, grid, cells)
    holes = _hole_candidates(cuts[0])

    assemblies = []
    for hole in holes:
        _check_time()
        assemblies.append(_dealt_assembly(cuts, width, height, hole, missing, gradient))
    assemblies.sort(key=lambda a: a.seam_ratio)
    return cells, assemblies


def _hole_candidates(tiles: np.ndarray) -> list[int]:
    """The cells of ``tiles`` (as from :func:`npuzzle.render.jigsaw.tile_arrays`) that may be the hole, for the
    seams to decide among: the flattest cell if it is far the flattest, else the flattest few and the smoothest
    (:func:`_least_detailed`); and a cell that meets no other (:func:`_lone_cell`), however busy when no cell is
    far the flattest, and then up to :data:`HOLE_PATTERNS` cells filled with a plain pattern
    (:func:`_plain_pattern`) though not flat, and one more spread less than :data:`HOLE_MAX_SPREAD` of a tile
    but over :data:`HOLE_FLAT_PX` (fresh 60805: faint stripes beside flatter pieces of a uniform).
    Fresh 60028 ("hard looks", a 4x4 whose hole is checked, 0.42 as
    spread as a tile and meeting pieces 1.19 times the median best seam): two flat sky pieces (0.06 and 0.13) were
    the flattest cells, neither far the flattest, the checks not weighed, and the board came back with the home
    switched to the top-left, a sky piece as the hole and the checks as a piece, wrong, with exit 0; with the
    checks as the hole the true board fits 0.99 and 1.37 typical seams ahead. Fresh 59044 ("hard looks", a 6x6
    whose hole is checked, as busy as a tile): the flattest cells were dark pieces of a uniform, none far the
    flattest, and the board came back with one of them as the hole and the checks laid as a piece, wrong, with exit
    0; weighed as the hole, the checks fit 0.93 typical seams better. A hole that is far the flattest is not
    second-guessed by a busy cell (fresh 59004, "game looks": a busy piece as the hole fitted 0.35 better than the
    true black hole)."""
    import numpy as np

    spread = _colour_spreads(tiles)
    flattest = [int(c) for c in np.argsort(spread)]
    inner = tiles[flattest[0], 2:-2, 2:-2].reshape(-1, 3)
    black = float(inner.mean(0).max()) <= HOLE_BLACK  # games often draw the hole black
    sure = bool(spread[flattest[0]] * (HOLE_FLAT_BLACK if black else HOLE_FLAT) <= spread[flattest[1]])
    if sure:
        holes = flattest[:1]
    else:  # a flat piece of picture could be the hole: let the seams decide among the flattest cells ...
        holes = [c for c in flattest[:HOLE_CANDIDATES] if spread[c] <= HOLE_FLAT * spread[flattest[0]]]
        smooth = _least_detailed(tiles)  # ... and the smoothest, as a hole drawn with a gradient is
        if smooth not in holes:
            holes.append(smooth)
    lone = _lone_cell(tiles, spread, any_spread=not sure)
    if lone is not None and lone not in holes:  # a hole drawn with a pattern, not flat: let the seams decide
        holes.append(lone)
    if sure:
        return holes
    typical = float(np.median(spread))

    def first_plain(low: float, high: float, most: int) -> list[int]:
        """The flattest ``most`` cells spread over ``low`` and at most ``high`` filled with a plain pattern."""
        cells = (c for c in flattest if low < spread[c] <= high and c not in holes)
        return list(islice((c for c in cells if _plain_pattern(np.rint(tiles[c]).astype(np.uint8))), most))

    busy = first_plain(HOLE_MAX_SPREAD * typical, math.inf, HOLE_PATTERNS)
    return holes + busy + first_plain(HOLE_FLAT_PX, HOLE_MAX_SPREAD * typical, 1)


def _dealt_assembly(
    cuts: np.ndarray, width: int, height: int, hole: int, missing: int, gradient: bool
) -> Assembly:
    """:func:`npuzzle.render.jigsaw.assemble` of ``cuts`` (as from :func:`_seam_cuts`) with the hole at screenshot
    cell ``hole`` and the missing piece's home at ``missing``, among the arrangements a fairly dealt game
    shows: those that reach the goal."""
    from ..solvability import is_solvable_homes
    from .jigsaw import assemble

    return assemble(cuts, width, height, hole, missing, gradient=gradient,
                    solvable=lambda homes: is_solvable_homes(homes, width, missing))  # fmt: skip


def _least_detailed(tiles: np.ndarray) -> int:
    """The cell of ``tiles`` (as from :func:`npuzzle.render.jigsaw.tile_arrays`) with the least detail inside a
    2 px rim: the smallest mean colour step between neighbouring pixels. A hole the game draws with a gradient
    varies across the cell as much as a dark piece of picture does, so it need not be among the flattest cells
    by colour spread, and a gradient meets a dark piece smoothly, so :func:`_lone_cell` need not name it; but it
    has no detail at all. Bench "picture, hard looks" seed 1004, a 6x6 whose gradient hole was the seventh
    flattest cell, was read wrong (the hole's cell placed as a tile) once seams were weighed in YCbCr; the
    gradient holes of 1004 and 1057 step 0.77 and 1.46 between pixels, their boards' next smoothest cells 3.9
    and 2.8."""
    import numpy as np

    inner = tiles[:, 2:-2, 2:-2].astype(np.float64)
    steps = np.abs(np.diff(inner, axis=1)).mean(axis=(1, 2, 3)) + np.abs(np.diff(inner, axis=2)).mean(axis=(1, 2, 3))
    return int(np.argmin(steps))


def _lone_cell(tiles: np.ndarray, spread: np.ndarray, any_spread: bool = False) -> int | None:
    """The cell of ``tiles`` (as from :func:`npuzzle.render.jigsaw.tile_arrays`; ``spread`` their
    :func:`_colour_spreads`) that meets no other cell, if one does not: a hole the game fills with a pattern
    (a gradient, checks, stripes, noise) rather than flat is not always among the flattest cells, where a
    flat piece of sky can be, but matches no piece of the picture. That is the cell whose best seam
    (:func:`~npuzzle.render.jigsaw.best_seams`) is :data:`LONE_HOLE` times the median cell's or more, and
    whose colour spread is at most :data:`LONE_HOLE_SPREAD` of the other cells' median (a busy piece of
    picture may meet no other piece either). Bench "picture, hard looks" seeds 1057 and 1087, 4x4 boards:
    the gradient-filled and checked holes (best seams 2.6 and 2.4 times the median cell's, 0.25 and 0.32 as
    spread as a tile) were read as tiles and a flat sky tile as the hole, with exit 0. On the boards' own
    cells (dev seeds 0-199) the rule named a cell on 10 of the 200 "hard looks" boards, each time the hole,
    and one the flattest cells had left out, and on none of 400 boards without hard looks. ``any_spread``:
    however spread its colours (a striped hole varies as much as a tile, but so may a busy piece of picture
    that meets no other: on dev "hard looks" 0-199 the least-met piece was 1.5 times the median or more on 35
    boards, up to 2.0)."""
    import numpy as np

    from .jigsaw import best_seams

    best = best_seams(tiles)
    lone = int(np.argmax(best))
    share = float(spread[lone]) / max(1e-9, float(np.median(np.delete(spread, lone))))
    if best[lone] >= LONE_HOLE * float(np.median(best)) and (any_spread or share <= LONE_HOLE_SPREAD):
        return lone
    return None


def _plain_pattern(cell: np.ndarray) -> bool:
    """Whether ``cell`` (RGB pixels) is filled with a plain pattern, as games fill a hole: stripes, checks or a
    gradient between two colours. Inside a rim of :data:`PATTERN_INSET` of its side (2 px at least), blurred over
    1/:data:`PATTERN_BLUR` of its side, it is a plane to within :data:`PATTERN_LEFT` of its colour spread, and
    its colours lie on one line in RGB to within :data:`PATTERN_OFF_LINE` of their variance, spread along it
    evenly rather than by a few outliers
    (:data:`PATTERN_TAIL`: the stars of a dark starfield's pieces, 0.69-0.84 of their variance 3 deviations out,
    where the patterned holes below have at most 0.09). A cell of a grid that takes in the board's frame (unseen
    seed 28073: frame, a flat piece and a face, 0.43 and 0.49) is neither; on the exact grids of dev "hard looks"
    seeds 59000-59199, 54 of the 56 patterned holes that are not flat enough for :data:`HOLE_MAX_SPREAD` are plain
    (at most 0.12 and 0.05), and none of their 4,289 pieces spread as much (5 were, on two boards, before the tail
    was weighed). The rim grows with the cell: a located grid is often a few pixels off, and its hole's cell
    takes in a strip of gap and of the next tile (fresh 60707, a 6x6 whose gradient hole was cut a few pixels
    off, was refused for want of a hole). Of the 110 holes of fresh "hard looks" 60619-60728 cut 3 px off, 23
    were plain inside 2 px and 50 inside this rim, and 1 of their 2,264 pieces (4 cut exactly)."""
    import numpy as np
    from PIL import Image, ImageFilter

    rim = max(2, round(PATTERN_INSET * min(cell.shape[:2])))
    inner = np.ascontiguousarray(cell[rim:-rim, rim:-rim, :3])
    height, width = inner.shape[:2]
    if min(height, width) < MIN_CELL_PX:
        return False
    colours = inner.reshape(-1, 3).astype(np.float64)
    variances, axes = np.linalg.eigh(np.cov(colours.T))  # ascending
    total = float(variances.sum())
    if total <= 0:
        return True
    if float(variances[:2].sum()) > PATTERN_OFF_LINE * total:
        return False
    along = (colours - colours.mean(axis=0)) @ axes[:, -1]
    deviations = (along / max(1e-9, float(along.std()))) ** 2
    if float(deviations[deviations > 9].sum()) > PATTERN_TAIL * float(deviations.sum()):
        return False
    radius = max(2.0, min(height, width) / PATTERN_BLUR)
    blurred = np.asarray(Image.fromarray(inner).filter(ImageFilter.GaussianBlur(radius)), dtype=np.float64)
    ys, xs = np.mgrid[0:height, 0:width]
    plane = np.stack([np.ones(height * width), xs.ravel(), ys.ravel()], axis=1)
    flat = blurred.reshape(-1, 3)
    fitted, *_ = np.linalg.lstsq(plane, flat, rcond=None)
    left = float(np.sqrt(((flat - plane @ fitted) ** 2).sum(axis=1).mean()))
    return left <= PATTERN_LEFT * float(np.sqrt(total))


def _seam_cuts(pixels: np.ndarray, grid: Grid, cells: list[np.ndarray] | None = None) -> np.ndarray:
    """The tiles of ``grid`` (:func:`npuzzle.render.jigsaw.tile_arrays`) cut three ways, half a pixel apart
    (``cells``: the first cut's cells, if already cut), for :func:`npuzzle.render.jigsaw.assemble`: a
    reassembly that hangs on where a pixel's edge falls is not one to stand behind (unseen 6x6: one cut read
    a dark strip in a turned order)."""
    import numpy as np

    from .jigsaw import tile_arrays

    tiles = tile_arrays(_cells_of(pixels, grid) if cells is None else cells)
    return np.stack([tiles, *(tile_arrays(_cells_of(pixels, grid, shift), side=tiles.shape[1]) for shift in CUT_SHIFTS)])


def _cells_of(pixels: np.ndarray, grid: Grid, shift: float = 0.0) -> list[np.ndarray]:
    """The cells of ``grid`` cut from ``pixels``, every side moved ``shift`` pixels right and down."""
    return [pixels[max(0, round(y0 + shift)) : max(0, round(y1 + shift)),
                   max(0, round(x0 + shift)) : max(0, round(x1 + shift))]
            for x0, y0, x1, y1 in grid.cell_boxes()]  # fmt: skip


def _colour_spreads(tiles: np.ndarray) -> np.ndarray:
    """Each tile's RMS colour spread (:func:`_flatness`, 0..255) inside a 2 px rim: ``tiles`` as from
    :func:`npuzzle.render.jigsaw.tile_arrays`. The hole is the flattest cell."""
    return _flatness(tiles[:, 2:-2, 2:-2].reshape(len(tiles), -1))


def _hole_spread(cells: list[np.ndarray], hole: int | None) -> tuple[float, float]:
    """The colour spread (:func:`_colour_spreads`, 0..255) of cell ``hole`` (None: the flattest cell, whose
    share is the smallest), and that spread over the median spread of the other cells."""
    import numpy as np

    from .jigsaw import tile_arrays

    spread = _colour_spreads(tile_arrays(cells))
    if hole is None:
        hole = int(np.argmin(spread))
    return float(spread[hole]), float(spread[hole]) / max(1e-9, float(np.median(np.delete(spread, hole))))


def _hole_spread_share(cells: list[np.ndarray], hole: int | None) -> float:
    """:func:`_hole_spread`'s share: cell ``hole``'s colour spread over the other cells' median."""
    return _hole_spread(cells, hole)[1]


def _flat_enough(cells: list[np.ndarray], hole: int | None) -> bool:
    """Whether cell ``hole`` of ``cells`` (None: the flattest) is flat enough to be the hole: its colour spread
    (:func:`_hole_spread`) at most :data:`HOLE_MAX_SPREAD` of the other cells' median, or at most
    :data:`HOLE_FLAT_PX` whatever theirs. Tiles of a smooth picture (a retina, a sky: median spread 9-13 on
    held-out pictures) leave the JPEG noise of a flat hole (2-5) above the share alone: held-out 61017 ("game
    looks", a 4x4 of retina tiles whose grey hole spread 0.38 as much) was refused for that alone. On the
    sample pictures the tiles' median spread is 39 or more, where the share alone allows more than 6."""
    spread, share = _hole_spread(cells, hole)
    return spread <= HOLE_FLAT_PX or share <= HOLE_MAX_SPREAD


def _reassembled_on(
    memo: _PictureMemo, grid: Grid, hole_home: int | str | None, strict: bool, size_given: bool
) -> ScreenshotReading:
    """:func:`_read_picture` on one grid, cut as it is."""
    width, height = grid.width, grid.height
    n = width * height
    missing = parse_hole_home(hole_home, width, height)
    cells, assemblies = memo.reassembled(grid, missing, False)
    best = assemblies[0]
    groups = (best.uncertain,) if best.uncertain else ()
    reading = _picture_reading(cells, best, grid, missing)
    # on its own the first measure put a wrong 3x4 0.28 ahead on a grid within half a pixel (unseen seed
    # 26404, JPEG quality 40: three flag tiles cycled; 0.24 once seams were averaged along their length, ALONG);
    # no wrong one on dev seeds 0-399 went past 0.31
    causes = _picture_causes(memo, grid, assemblies, size_given, LONE_MARGIN)
    if causes and strict:
        raise _unsure_refusal(grid, causes, reading)
    if causes:
        reading = replace(reading, ambiguous=groups or (tuple(range(n)),))
    return reading


def _unsure_refusal(grid: Grid, causes: list[str], reading: ScreenshotReading) -> PictureReassemblyError:
    """The refusal of ``reading`` on ``grid`` for ``causes`` (each in words)."""
    return PictureReassemblyError(
        f"could not put the {grid.width}x{grid.height} picture back together with confidence "
        f"({'; '.join(causes)}): the tiles may have too few details or large uniform areas, or --size/--crop "
        "is wrong; give the original picture with --reference, or accept the best guess with --allow-ambiguous",
        reading,
    )


def _margin_scale(width: int, height: int) -> float:
    """How many times a margin a ``width`` x ``height`` board's arrangement must be ahead by: 1 from a 3x3's
    seams up, more on smaller boards (fewer seams are less evidence)."""
    return max(1.0, (SEAMS_3X3 / _seam_count(width, height)) ** 0.5)


def _seam_count(width: int, height: int) -> int:
    """The seams between the pieces of a ``width`` x ``height`` picture, the hole's two left out."""
    return width * (height - 1) + height * (width - 1) - 2


def _picture_causes(
    memo: _PictureMemo, grid: Grid, assemblies: list[Assembly], size_given: bool, margin: float = MIN_MARGIN
) -> list[str]:
    """Why the best of ``assemblies`` (one per cell that may be the hole, best first) on ``grid`` is not one
    to stand behind, if it is not: each cause in words. ``margin``: the typical seams by which the best
    arrangement must beat every other one (the hole's cell always needs :data:`MIN_MARGIN`)."""
    width, height = grid.width, grid.height
    n = width * height
    best = assemblies[0]
    causes = []
    # an empty cell is flat (at most 0.12 of a tile's spread on dev seeds 0-399); a grid across the board's
    # frame (unseen seed 28073: a 3x3 whose columns took the frame and window in, 0.38 ahead) has none, and
    # its frame strips stack as smoothly as pieces of one picture
    cells = memo.reassembled(grid, best.missing, False)[0]
    if not _flat_enough(cells, best.hole) and not _plain_pattern(cells[best.hole]):
        share = _hole_spread_share(cells, best.hole)
        causes.append(
            f"no cell is flat enough to be the hole (the one taken for it varies {share:.0%} as much as a "
            "tile), as when the grid cuts across the hole or takes in the frame (check --size and --crop), or "
            "the game fills its hole with a pattern"
        )
    if best.seam_ratio > MAX_SEAM_RATIO:
        causes.append(f"its seams are hardly better than chance (ratio {best.seam_ratio:.2f})")
    # unseen seed 31577, a 3x3 grid 3 px a tile too coarse (its cells took in gap and frame strips): a wrong
    # arrangement 0.39 ahead on the first measure alone, but only 40 % of its seams joined mutual best matches
    few_buddies = f"only {best.buddies:.0%} of its seams join pieces that are each other's best match"
    if best.buddies < MIN_BUDDIES:
        causes.append(few_buddies)
    # fewer seams are less evidence: a 2x2 has 4 seams against a 3x3's 12, so its margin must be larger
    n_seams = _seam_count(width, height)
    if n_seams < MIN_SEAMS and not size_given:
        causes.append(
            f"a {width}x{height} board leaves only {n_seams} seams between its pieces to judge by (if it is one, "
            f"give --size {width}x{height})"
        )
    scale = _margin_scale(width, height)
    if best.margin < margin * scale:
        causes.append(f"another arrangement fits almost as well (margin {best.margin:.2f} < {margin * scale:.2f})")
    elif best.relative_margin < 0:  # unseen seed 26147: a 3x3 grid with the frame in its outer cells, 0.37 ahead
        causes.append(
            f"another arrangement fits better with each seam weighed against its tiles' other matches "
            f"(relative margin {best.relative_margin:.2f})"
        )
    # the seam totals take a side that meets no piece (the border, the hole's home) for free, so a wrong
    # arrangement can win by laying a side that fits nothing there (see jigsaw._open_side_charges): with such
    # sides charged, the arrangement must still come first (unseen seed 48001, a 6x6 whose block of dark suit
    # tiles was read with its rows swapped: -0.18 and -0.20 so; fresh 32714, a 4x4 3-cycle of dark tiles along
    # the border: -0.16 under the first measure)
    if best.border_margin < BORDER_MARGIN:
        causes.append(
            "another arrangement fits better once the sides along the picture's border and the missing piece's "
            "place are weighed too "
            f"(margin {best.border_margin:.2f})"
        )
    # (a lower bar than growing's: dev seed 412, a 5x3 of touching tiles located as its left 3x3, whose dark
    # suit tiles stack 0.67 ahead as a 3x3 picture; the column beyond scored 0.395, under the 0.4 to grow by.
    # The right readings of dev 0-399 score at most 0.33 beyond, where their own cells' median sets the bar)
    side = memo.goes_on(grid, GRID_GOES_ON_DOUBT, loose=True)
    if side is not None:
        causes.append(f"the tiles seem to go on {'to the ' if side in ('left', 'right') else 'at the '}{side}")
    kept = _kept_share(best.homes, width, height)
    at_home = sum(cell == home for cell, home in enumerate(best.homes)) / (n - 1)
    # with the size given, many neighbours kept is a nearly solved board if most tiles are at home; a grid
    # that is not the board's (the even split of a whole window) keeps blocks of the picture together too,
    # but moved (a blurred board, whose lines were not found: rows of the window read one row down)
    if not (size_given and at_home >= NEARLY_SOLVED):
        if kept > MAX_KEPT:
            causes.append(
                f"{kept:.0%} of neighbouring cells would hold neighbouring pieces, as when the grid cuts tiles "
                f"apart or the board is nearly solved (if it is a {width}x{height} board, give --size "
                f"{width}x{height})"
            )
        # each tile cut in two along one axis keeps fewer than half of all neighbours (unseen seed 26341: a
        # 3x5 read as a 6x5, 29 %, 0.47 ahead), but nearly every pair within the halves' blocks
        elif _finer_cut(best.homes, width, height):
            causes.append(
                "the pieces pair up as parts of larger tiles, as when the grid cuts each tile apart (check "
                "--size and --crop)"
            )
    # another cell taken for the hole (another tile left out): its best arrangement must cost more by the
    # same margin, in typical seams (seam_ratio is the mean seam in typical seams)
    if len(assemblies) > 1 and (assemblies[1].seam_ratio - best.seam_ratio) * n_seams < MIN_MARGIN * scale:
        causes.append(f"the hole could be cell {best.hole} or {assemblies[1].hole}")
    if causes == [few_buddies] and _sure_with_few_buddies(memo, grid, best):
        return []
    return causes


def _sure_with_few_buddies(memo: _PictureMemo, grid: Grid, best: Assembly) -> bool:
    """Whether ``best``, an arrangement on ``grid`` whose only fault is that fewer than :data:`MIN_BUDDIES`
    of its seams join mutual best matches, is one to stand behind all the same: at least
    :data:`SURE_BUDDIES` do, both seam measures put it first by :data:`LONE_MARGIN` (scaled to the board),
    and it holds on the grid's recuts (:func:`_steady_on_recuts`). Pieces of a smooth or busy picture have
    several near-equal matches, so few seams join mutual best ones even where the arrangement is plain: on
    dev 0-199 of "picture, no reference", 22 (a 4x4, 46%, 0.40 and 0.56 ahead) and 63 (a 6x6, 47%, 0.65 and
    0.88 ahead) were refused for that alone. Of the arrangements refused for that alone on 460 boards (dev
    "picture, no reference" 0-199 and fresh 60040-60099, "game looks" 59000-59099, "hard looks"
    59000-59059), the four wrong ones were at most 0.23 ahead under the measure that favoured them less."""
    if best.buddies < SURE_BUDDIES:
        return False
    scale = _margin_scale(grid.width, grid.height)
    for gradient in (False, True):
        first = memo.reassembled(grid, best.missing, gradient)[1][0]
        if first.homes != best.homes or first.hole != best.hole or first.margin < LONE_MARGIN * scale:
            return False
    return _steady_on_recuts(memo, grid, best.missing, best)


OUTLINES = 2  # board outlines cut evenly (locate.outline_grids) tried when no other grid gives a reading ...
OUTLINE_CELLS = 64  # ... and cells of them reassembled at most, in all
INNER_SEAM_RATIO = 0.7  # cells whose halves or thirds meet this badly (of a random pair's seam) hold several tiles
HOLE_RECTANGLES = 3  # flat rectangles (where the hole may be) a grid is fitted to


def _grid_on_hole(memo: _PictureMemo, grid: Grid) -> Grid:
    """The best grid that has one of the flat rectangles around ``grid`` (where the hole may be, one tile's
    size) as a cell (:func:`npuzzle.render.locate.grids_around_hole`), when ``grid`` has none of them as a
    cell, or has one but scores lower (a part of the board); else ``grid``. The lines of touching tiles
    drown in a busy picture, and a grid of half tiles or of a part of the board scores well on them (dev
    seeds: 3x3 boards read as 5x4 and 2x2, a 4x4 as 4x7)."""
    from .locate import grid_score, grids_around_hole, holds_hole, hole_rectangles

    image = memo.image
    try:
        located = [grid, *locate_grids(image, None, None, keep=GRID_ALTERNATIVES)]
    except GridNotFoundError:  # the grid came from elsewhere (a crop cut evenly)
        located = [grid]
    holes = hole_rectangles(image, located)[:HOLE_RECTANGLES]
    fitted = [best for hole in holes for best in grids_around_hole(image, hole, located, memo.seams())[:1]]
    if not fitted:
        return grid
    score, best = max(fitted, key=lambda sg: sg[0])
    if any(holds_hole(grid, hole) for hole in holes):  # the grid has the hole: is it all of the board?
        return best if score > grid_score(image, grid, memo.seams()) else grid
    return best if score > 0 else grid


def _grid_goes_on(
    image: PILImage.Image,
    grid: Grid,
    seams: tuple[np.ndarray, np.ndarray] | None = None,
    bar: float = GRID_GOES_ON,
    loose: bool = False,
) -> str | None:
    """The side (``"left"``, ``"right"``, ``"top"``, ``"bottom"``) beyond which one more column or row of
    cells looks as much like tiles as the grid's own (their four sides steps in the picture), or None: a grid
    that is part of the board reassembles part of the picture, sometimes confidently (seed 3013: a 6x6 board
    read as 5x6 with a margin of 0.32 and exit 0). "As much": at least half of those cells score above the
    bar (the upper median: dev seed 103's missed column of a 6x4 had two tiles of detail and two of a dark
    uniform, median 0.33, and its 5x4 part read wrong with a margin of 0.30 when the locator offered it).
    ``seams``: the screenshot's seam maps, if worked out; ``bar``: the upper median's bar (and
    :data:`GRID_GOES_ON_SHARE` of the grid's own). ``loose``: the cells beyond placed every way a pitch a few
    pixels off could have missed them (:func:`~npuzzle.render.locate.grids_beyond`), not only one pitch on
    (unseen seed 31478: a 3x3 located as its left two columns at a 103 px pitch against the true 94, whose
    dark suit tiles stacked as a 2x3 picture with exit 0; one pitch on, the third column's cells straddled
    the tiles and the frame)."""
    import numpy as np

    from .locate import SIDES, _box_scores, _seam_maps, grid_beyond, grid_cell_scores, grids_beyond

    if seams is None:
        seams = _seam_maps(np.asarray(image.convert("RGB")))
    own = float(np.median(grid_cell_scores(seams, grid)))
    for side in SIDES:
        placed = [extra for extra in (grids_beyond(grid, side) if loose else [grid_beyond(grid, side)])
                  if _on_screenshot(image, extra)]  # fmt: skip
        if not placed:
            continue
        boxes = np.array([extra.cell_boxes() for extra in placed], dtype=np.float64)
        scores = np.sort(_box_scores(seams, boxes.reshape(-1, 4)).reshape(boxes.shape[:2]), axis=1)
        if float(scores[:, scores.shape[1] // 2].max()) > max(bar, GRID_GOES_ON_SHARE * own):
            return side
    return None


def _kept_share(homes: tuple[int, ...], width: int, height: int) -> float:
    """The share of the screenshot's pairs of neighbouring cells (the hole left out) whose tiles are
    neighbours in the same direction at home too. A shuffled board keeps few (on dev seeds 0..999 the median
    is 4 %, the largest 50 %, on two 3x3 boards); a grid that cuts every tile in two both ways keeps at least
    half (cut one way only, as few as a third: :func:`_finer_cut` sees those)."""
    kept = total = 0
    for cell, home in enumerate(homes):
        if home < 0:
            continue
        r, c = divmod(cell, width)
        if c + 1 < width and homes[cell + 1] >= 0:
            total += 1
            kept += int(homes[cell + 1] == home + 1 and home % width + 1 < width)
        if r + 1 < height and homes[cell + width] >= 0:
            total += 1
            kept += int(homes[cell + width] == home + width)
    return kept / max(1, total)


def _reassembled(
    cells: list[np.ndarray], homes: tuple[int, ...], width: int, height: int, missing: PILImage.Image | None = None
) -> PILImage.Image:
    """The picture the tiles make at their homes (cells resized to a common size; the hole's home, whose
    tile nobody has seen, filled in smoothly from the pieces round it (:func:`_fill_unseen_piece`), or the
    ``missing`` piece if a preview shows it)."""
    import numpy as np
    from PIL import Image

    tile_w = int(np.median([c.shape[1] for c in cells]))
    tile_h = int(np.median([c.shape[0] for c in cells]))
    shown = [cells[cell] for cell, home in enumerate(homes) if home >= 0]
    mean = tuple(int(v) for v in np.mean([c.reshape(-1, 3).mean(0) for c in shown], axis=0))
    out = Image.new("RGB", (width * tile_w, height * tile_h), mean)  # type: ignore[arg-type]
    for cell, home in enumerate(homes):
        if home >= 0:
            row, col = divmod(home, width)
            tile = Image.fromarray(np.ascontiguousarray(cells[cell])).resize((tile_w, tile_h))
            out.paste(tile, (col * tile_w, row * tile_h))
    hole_home = next(h for h in range(width * height) if h not in homes)
    row, col = divmod(hole_home, width)
    box = (col * tile_w, row * tile_h, (col + 1) * tile_w, (row + 1) * tile_h)
    if missing is not None:
        out.paste(missing.convert("RGB").resize((tile_w, tile_h), Image.Resampling.BICUBIC), box[:2])
        return out
    return Image.fromarray(_fill_unseen_piece(np.asarray(out), box))


FILL_RING_PX = 3  # pixels of the pieces round an unseen piece whose colours it is filled in from


def _fill_unseen_piece(picture: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """``picture`` (``(h, w, 3)`` uint8) with its ``box`` (``x0, y0, x1, y1``) filled in from the pixels just
    outside it. Each side of the box that meets the picture (not its outer border) is carried inward blurred
    along its length, the more the further in (a window as wide as twice the distance, as the smooth surface
    a boundary spans spreads it), and the sides are blended by the inverse square of each pixel's distance to
    them; each side's colours are averaged over :data:`FILL_RING_PX` pixels outward first. The missing piece
    of a game's picture is never on screen: a flat patch there looks unfinished, and a fill that continues
    its neighbours' colours reads as the picture (the animation's last frame). A box with no side inside the
    picture keeps its pixels."""
    import numpy as np

    x0, y0, x1, y1 = box
    height, width = picture.shape[:2]
    pixels = picture.astype(np.float64)
    ring = FILL_RING_PX
    rows, columns = y1 - y0, x1 - x0
    depth_y = np.broadcast_to(np.arange(rows, dtype=np.float64)[:, None] + 0.5, (rows, columns))
    depth_x = np.broadcast_to(np.arange(columns, dtype=np.float64)[None, :] + 0.5, (rows, columns))
    # each side that meets the picture: its colours carried inward (as rows from it: depth x length x 3, turned
    # to the box), and each box pixel's distance to it
    sides = []
    if y0 >= ring:
        sides.append((_carried_inward(pixels[y0 - ring : y0, x0:x1].mean(0), rows), depth_y))
    if y1 + ring <= height:
        sides.append((_carried_inward(pixels[y1 : y1 + ring, x0:x1].mean(0), rows)[::-1], rows - depth_y))
    if x0 >= ring:
        left = _carried_inward(pixels[y0:y1, x0 - ring : x0].mean(1), columns)
        sides.append((left.transpose(1, 0, 2), depth_x))
    if x1 + ring <= width:
        right = _carried_inward(pixels[y0:y1, x1 : x1 + ring].mean(1), columns)[::-1]
        sides.append((right.transpose(1, 0, 2), columns - depth_x))
    if not sides:
        return picture
    weights = [1.0 / distance[..., None] ** 2 for _, distance in sides]
    blend = sum(w * colours for w, (colours, _) in zip(weights, sides, strict=True)) / sum(weights)
    filled = picture.copy()
    filled[y0:y1, x0:x1] = np.clip(np.rint(blend), 0, 255).astype(np.uint8)
    return filled


def _carried_inward(colours: np.ndarray, depth: int) -> np.ndarray:
    """``colours`` along a side (``(length, 3)``) carried ``depth`` pixels inward: row ``k`` is them averaged
    over a window ``2k + 1`` long (cut at the side's ends), ``(depth, length, 3)``."""
    import numpy as np

    length = len(colours)
    summed = np.concatenate([np.zeros((1, 3)), np.cumsum(colours, axis=0)])
    along = np.arange(length)[None, :]
    reach = np.arange(depth)[:, None]
    low = np.clip(along - reach, 0, length)
    high = np.clip(along + reach + 1, 0, length)
    return (summed[high] - summed[low]) / (high - low)[..., None]


def _read_with_reference(
    image: PILImage.Image,
    grids: list[Grid],
    reference: str | Path | PILImage.Image,
    blank_cell: int | None,
    width: int | None,
    height: int | None,
    exact: bool,
) -> ScreenshotReading:
    ref_image = load_picture(reference, "reference picture")
    matches: list[tuple[float, float, ScreenshotReading]] = []  # (mismatch, its limit, reading)

    def best() -> ScreenshotReading | None:
        """The closest match within its limit."""
        within = [m for m in matches if m[0] <= m[1]]
        return min(within, key=lambda m: m[0])[2] if within else None

    def fits(grid: Grid) -> bool:
        """Whether ``grid``'s tiles have the shape of the reference's pieces cut as that grid."""
        ref_tile = (ref_image.width / grid.width) / (ref_image.height / grid.height)
        return abs(math.log(grid.columns.tile / grid.rows.tile / ref_tile)) <= REFERENCE_ASPECT_TOLERANCE

    for grid in grids:  # the located grids: their size errors are the user's to see
        _check_time()
        _say(f"matching a {grid.width}x{grid.height} grid's tiles to the reference")
        check_picture_size(ref_image, grid.width, grid.height, "reference picture")
        if blank_cell is not None and (outside := _off_the_board("blank cell", blank_cell, grid.width, grid.height)):
            raise PictureError(outside)
        reading, mismatch = _match_reference(image, grid, ref_image, blank_cell)
        if STRONG_MATCH_RMS < mismatch <= MISMATCH_RMS and not exact:
            # a loose match is a grid a few pixels off as often as look-alike tiles, and its readings are
            # weak evidence (dev seed 159: a 6x6 of 37 px tiles matched at 0.17, three tiles in a wrong cycle
            # with no doubt): match it again nudged onto the pieces, and keep that if it is close. Not a
            # loose one: a part of a board nudged matches a little better too (dev seed 121: a 3x3's 2x2
            # corner at 0.165 with a doubt, nudged 0.153 without one)
            refined = _refine_by_match(image, grid, ref_image, blank_cell)
            again, closer = _match_reference(image, refined, ref_image, blank_cell)
            if closer <= STRONG_MATCH_RMS:
                reading, mismatch = again, closer
        # a reading whose hole is not empty is no match, but its grid may be refined (below) like any other.
        # A loose match is kept only on tiles of the pieces' shape; on others it must be close, as on any grid
        # not located (fresh held-out 61566: a 5x5 of color.png, its gaps found at a wrong pitch, cut 5x4 in
        # square cells that matched 5x4 pieces a quarter taller at 0.116 with no doubt: a wrong board)
        limit = MISMATCH_RMS if exact or fits(reading.grid or grid) else STRONG_MATCH_RMS
        matches.append((mismatch, limit if _hole_is_empty(image, reading) else -1.0, reading))
    found = best()
    if found is not None and not found.ambiguous and not exact and width is None and blank_cell is None:
        # a part of a board can match as a smaller board, closely on a dark picture (fresh held-out 61645: a
        # 3x3 of retina.jpg's top two rows as a 3x2 at 0.080 with no doubt, the whole 3x3 at 0.029)
        mismatch = min(m for m, _, r in matches if r is found)
        grown, closer = _grown_while_closer(image, found, mismatch, ref_image, fits)
        if grown is not found:
            matches.append((closer, mismatch, grown))
            found = best()
    tried: list[tuple[float, float, Grid]] = [
        (m, limit, r.grid) for m, limit, r in matches if r.grid is not None
    ]
    if not exact and (found is None or found.ambiguous):
        # The reference's shape tells each grid size's tile shape: try other located grids (and each one
        # tile bigger or smaller at either end, for a hole showing the background at the board's edge) whose
        # tiles have that shape. They must match closely, with no doubt that parity leaves (it settles one, as on a
        # located grid: held-out 61434, a 5x5 of rocket.jpg whose last row the locator missed, two pieces of
        # sky alike): a part of the board cut as a smaller board can match loosely (its tiles repeat pieces
        # of the picture), a whole board matches well.
        for grid in candidate_grids(image, width, height, fits, REFERENCE_GRIDS, first=grids):
            n = grid.width * grid.height
            if grid in grids or (blank_cell is not None and not 0 <= blank_cell < n):
                continue
            matched = _match_if_cut(image, grid, ref_image, blank_cell)
            if matched is None:
                continue
            reading, mismatch = matched
            tried.append((mismatch, STRONG_MATCH_RMS, grid))
            if not reading.ambiguous and _hole_is_empty(image, reading):
                matches.append((mismatch, STRONG_MATCH_RMS, reading))
        found = best()
    if not exact and (found is None or found.ambiguous):
        # The closest grids nudged to where their cells match the pieces best (a frame's width or a gap off at
        # one end, a pitch a pixel off): a nudged grid must match closely, with no doubt that parity leaves.
        closest = sorted((t for t in tried if t[0] <= REFINE_MATCH_RMS), key=lambda t: t[0])[:REFINE_GRIDS]
        for _, _, grid in closest:
            refined = _refine_by_match(image, grid, ref_image, blank_cell)
            reading, mismatch = _match_reference(image, refined, ref_image, blank_cell)
            if not reading.ambiguous and _hole_is_empty(image, reading):
                matches.append((mismatch, STRONG_MATCH_RMS, reading))
        found = best()
    if not exact and (found is None or found.ambiguous):
        # no grid of lines gives a sure board. A close match in doubt may be look-alike tiles, or a board cut
        # coarser than it is, whose cells hold several dark tiles each (held-out 61512: a 4x4 of the Hubble
        # deep field with no gaps, located only as 2x2, matched at 0.07 with every cell in doubt): a
        # rectangle cut into a size that matches surely is the board then
        found = _read_in_rectangles(image, ref_image, blank_cell, width, height) or found
    if found is not None and width is None and _seam_count(found.board.width, found.board.height) < MIN_SEAMS:
        # too small a board to stand behind unless the user says it is one (MIN_SEAMS, as with no reference):
        # fresh held-out 61619, a 4x4 of coffee.png whose grid the locator missed, was read as a 2x2 with exit
        # 0, its four cells nudged across tiles (77 px cells, 130 px apart) until they matched the picture's
        # quarters at 0.097 with no doubt. Only refused: a 2x2 kept out of the search lets a part of a board
        # matched as a bigger one through (fresh 61645: a 3x3's top two rows as a 3x2, 0.080 with no doubt,
        # which a 2x2 in doubt at 0.079 had held back)
        size = f"{found.board.width}x{found.board.height}"
        raise ReferenceMismatchError(
            f"the tiles match the reference only when cut as a {size} board, but {_only_with_its_size(size)}", found
        )
    if found is not None:
        return found
    mismatch, limit, reading = min(matches, key=lambda m: m[0])
    size_text = f"{reading.board.width}x{reading.board.height}"
    if limit < 0 and mismatch <= MISMATCH_RMS:  # it matched, but the cell taken for the hole was not empty
        raise ReferenceMismatchError(
            f"no cell is flat enough to be the hole when the screenshot is cut as a {size_text} board (the grid "
            "cuts across the hole or takes in the frame): check --size, and --crop (if given) frames the board",
            reading,
        )
    # the closest grid's own limit: a grid found by its tiles' shape must match closely (QA: "0.16, over 0.18
    # is no match" named the located grids' limit for such a grid)
    threshold = limit if limit > 0 else MISMATCH_RMS
    raise ReferenceMismatchError(
        f"the tiles do not look like pieces of the reference picture (mean difference {mismatch:.2f}, "
        f"over {threshold:.2f} is no match) when cut as a {size_text} board: check that --reference is this "
        "puzzle's picture, that --size is right, and that --crop (if given) frames the board",
        reading,
    )


def _only_with_its_size(size: str) -> str:
    """Why a board of ``size`` (``"2x2"``) found with too few seams (:data:`MIN_SEAMS`) is refused, and what
    to do: the numbers' reader and the reference's say it alike."""
    return (
        f"a board so small is read only with its size given (--size {size}): a {size} grid found alone is more "
        "often a part of a bigger board or cells cut across its tiles; check --size and --crop"
    )


def _match_if_cut(
    image: PILImage.Image, grid: Grid, ref_image: PILImage.Image, blank_cell: int | None
) -> tuple[ScreenshotReading, float] | None:
    """:func:`_match_reference` of ``grid``, or None when the reference is too small to cut to its size."""
    try:
        check_picture_size(ref_image, grid.width, grid.height, "reference picture")
    except PictureError:
        return None
    return _match_reference(image, grid, ref_image, blank_cell)


GROWTH_STEPS = 3  # rows or columns a found grid is grown by, one at a time, while it matches closer


def _grown_while_closer(
    image: PILImage.Image,
    reading: ScreenshotReading,
    mismatch: float,
    ref_image: PILImage.Image,
    accept: Callable[[Grid], bool],
) -> tuple[ScreenshotReading, float]:
    """``reading`` (matched at ``mismatch``) read again on its grid grown by a row or column at one side, the
    side whose grown grid (of a shape ``accept`` allows) matches closest, with no doubt, an empty hole and
    closer than before; again from there, up to :data:`GROWTH_STEPS` times. A whole board matches
    its pieces better than a part of it matches the picture cut smaller; a board's frame or window taken in
    as tiles matches nothing. ``(reading, mismatch)`` itself when no grown grid does."""
    from .locate import SIDES, grid_grown

    for _ in range(GROWTH_STEPS):
        assert reading.grid is not None
        closest: tuple[ScreenshotReading, float] | None = None
        for side in SIDES:
            _check_time()
            grown = grid_grown(reading.grid, side)
            placed = _on_screenshot(image, grown) and accept(grown)
            matched = _match_if_cut(image, grown, ref_image, None) if placed else None
            if matched is None:
                continue
            again, closer = matched
            if again.ambiguous or closer >= mismatch or not _hole_is_empty(image, again):
                continue
            if closest is None or closer < closest[1]:
                closest = again, closer
        if closest is None:
            break
        reading, mismatch = closest
    return reading, mismatch


def _read_numbers(
    image: PILImage.Image,
    grid: Grid | None,
    problem: GridNotFoundError | None,
    width: int | None,
    height: int | None,
    added: Collection[int] = (),
    hole_home: int | str | None = None,
) -> ScreenshotReading:
    """The numbers on the tiles of ``grid`` by OCR, each once, with one empty cell (or a patterned one:
    :func:`_with_patterned_hole`), their goal 1..N-1 around ``hole_home`` (:func:`npuzzle.goals.around_blank`);
    or 1..N with one number left out (:func:`_absent_number`), their goal :func:`npuzzle.goals.blank_at` with
    the hole in that number's cell (a ``hole_home`` given elsewhere refused). Cells not read surely
    may be settled by elimination (:func:`_settle_unsure`), which trusts them to be tiles; the ``added``
    cells (of a grid grown past the cells seen) may not: they must be read surely, or be the empty cell.
    Unseen seed 29085: a 3x3 located as its lower two rows and grown by a row below the board, whose two
    cells of the window's text took the top row's 4 and 8 by parity alone."""
    from .ocr import read_numbers

    if grid is None:
        assert problem is not None
        raise problem
    _check_time()
    _say(f"looking for numbers on a {grid.width}x{grid.height} grid")
    n = grid.width * grid.height
    home = parse_hole_home(hole_home, grid.width, grid.height)
    goal = around_blank(grid.width, grid.height, home)
    got = read_numbers(_crops(image, grid))
    if not got.empty:
        got = _with_patterned_hole(image, grid, got)
    size = f"{grid.width}x{grid.height}"
    legible = [c for c, v in enumerate(got.numbers) if v is not None or got.candidates_of(c)]
    if len(legible) < (n - 1) / 2:
        raise NumbersUnreadableError(
            f"found a {size} grid but no numbers on most of its tiles ({len(legible)} of {n - 1} read): for "
            "picture tiles give the original picture with --reference; for numbered tiles check --size and "
            "--crop, or use a sharper screenshot"
        )
    wanted = set(range(1, n))
    counts: dict[int, list[int]] = {}
    for cell, value in enumerate(got.numbers):
        if value is not None:
            counts.setdefault(value, []).append(cell)
    repeated = {v: cells for v, cells in counts.items() if len(cells) > 1}
    unread = [c for c, v in enumerate(got.numbers) if v is None and c not in got.empty]
    absent = _absent_number(image, grid, got, counts, unread, added)
    if absent is not None:  # a "missing number" game: the tiles go 1..N, the one whose home is the hole left out
        if hole_home is not None and home != absent - 1:
            raise HoleHomeMismatchError(
                f"the numbers read on the {size} grid are 1..{n} without {absent}, so the hole belongs in cell "
                f"{absent - 1}, not in cell {home} as given (--hole-home; cells 0-based): check the hole's home, "
                "--size and --crop"
            )
        home, goal = absent - 1, blank_at(grid.width, grid.height, absent - 1)
        wanted = set(goal.tiles) - {0}
    out_of_range = sorted(v for v in counts if v not in wanted)
    missing = sorted(wanted - set(counts))
    # numbers too large for the grid, and more than one misread could explain: a part of a bigger board
    several = len(out_of_range) == len(missing) or len(out_of_range) > 1
    too_big = all(v > n - 1 for v in out_of_range) and several
    if out_of_range and too_big and not repeated:
        bigger = NumbersUnreadableError(
            f"read numbers up to {max(out_of_range)} on a {size} grid (tiles 1..{n - 1}): the board is bigger "
            "than the grid found; give --size and --crop"
        )
        bigger.cells_needed = max(out_of_range)  # at least: a "missing number" game numbers 1..N over N cells
        raise bigger
    if len(got.empty) != 1:
        where = "no empty cell" if not got.empty else f"{len(got.empty)} empty cells {list(got.empty)}"
        raise NumbersUnreadableError(
            f"found {where} in a {size} grid (one is expected): check --size and --crop (cells 0-based)"
        )
    numbers = list(got.numbers)
    confidence = list(got.confidence)
    # cells added past the cells seen may be settled only as a number the OCR itself read there, never by
    # elimination alone (unseen seed 29085: window text took two missing numbers by parity)
    guessed = [c for c in unread if c in added and not set(got.candidates_of(c)) & set(missing)]
    if unread and not guessed and len(unread) == len(missing) and not out_of_range and not repeated:
        settled = _settle_unsure(numbers, unread, missing, got, goal)
        if settled is None and home != n - 1 and _settle_unsure(numbers, unread, missing, got, None) is not None:
            # the numbers seen settle one way, but not for this goal: the hole's home is the likelier cause
            raise _numbers_parity_refusal(home)
        if settled is not None:
            for cell, value in zip(unread, settled, strict=True):
                numbers[cell] = value
                confidence[cell] = MIN_CONFIDENCE
            unread, missing = [], []
    if out_of_range or repeated or unread or missing:
        parts = []
        if unread:
            seen = [
                f"{c} as {'/'.join(map(str, got.candidates_of(c)))}" for c in unread if got.candidates_of(c)
            ]
            parts.append(f"cells {unread} not read surely" + (f" ({', '.join(seen)})" if seen else ""))
        if repeated:
            parts.append("; ".join(f"{v} read on cells {c}" for v, c in sorted(repeated.items())))
        if out_of_range:
            parts.append(f"numbers {out_of_range} do not belong on a {size} board")
        if missing:
            parts.append(f"numbers {missing} not found")
        raise NumbersUnreadableError(
            f"could not read every number on the {size} grid ({'; '.join(parts)}; cells 0-based): use a sharper "
            "or larger screenshot, or check --size and --crop"
        )
    hole = got.empty[0]
    doubtful = [c for c, v in enumerate(numbers) if v is not None and confidence[c] < MIN_CONFIDENCE]
    if len(doubtful) == 1:
        # every number 1..N-1 was found once and all but one clearly: the doubtful one is the only number
        # left for its tile, so elimination settles it (two doubtful cells could be two misreads: refused)
        confidence[doubtful[0]] = MIN_CONFIDENCE
    if width is None and _seam_count(grid.width, grid.height) < MIN_SEAMS:
        # three numbers are too little evidence that the grid is the board (as for pictures, MIN_SEAMS): bench
        # seed 1014 of "numbers, no reference", a 3x3 window doubled on a 5120x2880 desktop, was read as a
        # 2x2 "missing number" board from its outline cut evenly, each cell across several tiles, with exit 0
        raise NumbersUnreadableError(f"read a {size} board of numbers, but {_only_with_its_size(size)}", grid=grid)
    tiles = [0 if cell == hole else int(numbers[cell] or 0) for cell in range(n)]
    board = Board(tiles, grid.width, grid.height, blank=0)
    return ScreenshotReading(board, goal, tuple(confidence), home, (), "numbers", grid)


PATTERN_RIM = 2.0  # a patterned hole's rim deviates from its median colour this many times a tile's most
PATTERN_UNSURE = 1  # tiles not read surely beside a patterned hole, at most (settled later by elimination)


def _with_patterned_hole(image: PILImage.Image, grid: Grid, got: NumberReading) -> NumberReading:
    """``got`` (the reading of ``grid``'s cells, none of them empty) with its hole found among the cells that
    show something: a hole filled with a pattern (stripes, checks, noise) has ink, so no cell is empty. The
    hole is the one cell whose leaving out leaves a number on every other cell, each once, 1..N-1 or 1..N less
    one (a "missing number" game), and whose rim is unlike every tile's face: deviating from its own median
    colour more than :data:`FACE_DEVIATION` and :data:`PATTERN_RIM` times as much as any of the tiles'
    (:func:`_rim_deviation`; a face is flat around its number). When no cell leaves every other read surely,
    up to :data:`PATTERN_UNSURE` of the others may be not read surely, if some look read a number there (its
    candidates): :func:`_read_numbers` settles them by elimination as it does beside an empty hole (bench 1053
    and 1085, "numbers, hard looks": a striped hole beside one tile whose two looks disagreed). ``got``
    unchanged when no cell or more than one is such (a pattern read as one of the numbers), or the board goes
    on past the grid
    (:func:`_board_goes_on`: a part of a bigger board has no empty cell either)."""
    import numpy as np

    n = grid.width * grid.height

    def leaves(hole: int, unsure_allowed: int) -> bool:  # whether leaving ``hole`` out leaves each number once
        others = [c for c in range(n) if c != hole]
        sure = [int(v) for c in others if (v := got.numbers[c]) is not None]
        unsure = [c for c in others if got.numbers[c] is None]
        return (
            len(set(sure)) == len(sure)
            and all(1 <= v <= n for v in sure)
            and len(unsure) <= unsure_allowed
            and all(got.candidates_of(c) for c in unsure)
        )

    # every other cell read surely; only when no cell leaves that, one not read surely (a hole read unsurely
    # as some number would otherwise let every cell be left out)
    holes = [c for c in range(n) if leaves(c, 0)] or [c for c in range(n) if leaves(c, PATTERN_UNSURE)]
    if len(holes) != 1:
        return got
    hole = holes[0]
    pixels = np.asarray(image.convert("RGB")).astype(np.float32)
    rims = [_rim_deviation(pixels, box) for box in grid.cell_boxes()]
    tiles = max(r for c, r in enumerate(rims) if c != hole)
    if not FACE_DEVIATION < rims[hole] < math.inf or rims[hole] < PATTERN_RIM * tiles or _board_goes_on(image, grid, hole):
        return got
    numbers = tuple(None if c == hole else v for c, v in enumerate(got.numbers))
    confidence = tuple(1.0 if c == hole else v for c, v in enumerate(got.confidence))
    candidates = tuple(() if c == hole else v for c, v in enumerate(got.candidates)) if got.candidates else ()
    return replace(got, numbers=numbers, confidence=confidence, empty=(hole,), candidates=candidates)


def _absent_number(
    image: PILImage.Image,
    grid: Grid,
    got: NumberReading,
    counts: dict[int, list[int]],
    unread: list[int],
    added: Collection[int],
) -> int | None:
    """The number left out when ``got`` reads a "missing number" game on ``grid``: tiles numbered 1..N (N
    cells), the one whose home is the hole left out, so that the N-1 tiles show 1..N less one (less N: the
    usual game). Taken only on such evidence as a part of a bigger board cannot give: one empty cell, every
    other read once and N among them (cells not read surely settled one way only, for one number left out:
    :func:`_settle_unsure`), and the board not going on past the grid (:func:`_board_goes_on`). On a grid
    grown past the cells seen (``added``, a search for a bigger board) every added cell must be read surely
    (dev seed 1046 of "numbers, missing number": a 6x6 found as its top three rows, 1..36 without 11).
    ``counts``: the cells each number was read on; ``unread``: the cells with ink but no sure number. None
    otherwise."""
    n = grid.width * grid.height
    if n not in counts or set(unread) & set(added) or len(got.empty) != 1:
        return None
    if any(len(c) > 1 or v > n for v, c in counts.items()):
        return None
    gaps = sorted(set(range(1, n + 1)) - set(counts))
    if len(gaps) != len(unread) + 1 or _board_goes_on(image, grid, got.empty[0]):
        return None
    if not unread:
        return gaps[0]
    # cells not read surely: the number left out is the one for which they settle one way only, each cell
    # read as some numbers taking one of them
    fits = []
    for a in gaps:
        others = [v for v in gaps if v != a]
        read_as = all(set(got.candidates_of(c)) & set(others) or not got.candidates_of(c) for c in unread)
        if read_as and _settle_unsure(list(got.numbers), unread, others, got, blank_at(grid.width, grid.height, a - 1)):
            fits.append(a)
    return fits[0] if len(fits) == 1 else None


GOES_ON_FACE = 30.0  # 0..255 (largest channel): pixels this close to the tiles' face colour show a face ...
GOES_ON_SHARE = 0.25  # ... and a cell past a grid with this share of them, tiles (a strip of them: a bevel's band)
GOES_ON_EDGE_PX = 3  # a grid with less than this many pixels of the screenshot past a side may go on past its edge
# a tile's number past the grid: its ink this many times as tall as the grid's shortest .. tallest numbers'
# (a one-digit board's next tiles show two digits, 0.84 as tall in the bench's games) ...
GOES_ON_NUMBER = (0.7, 1.4)
GOES_ON_ASPECT = 2.5  # ... and at most this many times as wide as tall (two digits; a line of text is wider)


def _board_goes_on(image: PILImage.Image, grid: Grid, hole: int) -> bool:
    """Whether the board may go on past ``grid`` (its hole cell ``hole``): a part of a bigger board, cut off
    by the screenshot's or the crop's edge or located short, shows the rest of the board, or nothing. So on
    some side: the screenshot ends within :data:`GOES_ON_EDGE_PX` of the next cell's edge (no evidence that
    the board ends there); or the next row or column of cells (at the grid's pitch, the part of each inside
    the screenshot), but for one (the hole may be there) and of at least two, shows tiles: when cut off by the
    screenshot's edge, the tiles' face (at least :data:`GOES_ON_SHARE` of its pixels within
    :data:`GOES_ON_FACE` of the median of the tiles' median colours: a strip of a tile shows a bevel's band
    too); when at least half of each shows, a number near its middle as tall as the grid's own numbers and no
    wider than two digits (:data:`GOES_ON_NUMBER`, :data:`GOES_ON_ASPECT`); when seen whole, the face and
    some number ink. A whole board shows its frame, the window or the desk there. Bench seeds 1019 and 1066
    ("numbers, missing number" and "hard looks") show a window or a desk of nearly the faces' colour past
    the board, but no number; 1024 and 1038 the window's title, or its line of text below the board: ink
    near a cell's middle, but half as tall as a number, or a thin line."""
    import numpy as np

    from .locate import SIDES, grid_beyond
    from .ocr import NumberExtent, ink_offset, number_boxes, number_extents

    pixels = np.asarray(image.convert("RGB")).astype(np.float32)

    def median_colour(box: tuple[float, float, float, float]) -> np.ndarray:
        x0, y0, x1, y1 = (round(v) for v in box)
        cell = pixels[max(0, y0):max(1, y1), max(0, x0):max(1, x1)].reshape(-1, 3)
        return np.median(cell, axis=0) if len(cell) else np.full(3, np.inf)

    face = np.median([median_colour(box) for c, box in enumerate(grid.cell_boxes()) if c != hole], axis=0)

    def face_share(box: tuple[float, float, float, float]) -> float:
        x0, y0, x1, y1 = (round(v) for v in box)
        return float((np.abs(pixels[y0:y1, x0:x1] - face).max(axis=2) <= GOES_ON_FACE).mean())

    own = [b for c, b in enumerate(number_boxes(_crops(image, grid))) if c != hole and b is not None]
    heights = [y1 - y0 for _, y0, _, y1 in own] or [0, math.inf]  # pixels: the grid's numbers' heights
    low, high = GOES_ON_NUMBER[0] * min(heights), GOES_ON_NUMBER[1] * max(heights)

    def like_number(extent: NumberExtent | None) -> bool:  # a number like the grid's shown
        if extent is None:
            return False
        x0, y0, x1, y1 = extent[0]
        tall = y1 - y0
        offset = ink_offset(extent)
        assert offset is not None
        return offset <= NUMBER_CENTRED and low <= tall <= high and x1 - x0 <= GOES_ON_ASPECT * tall

    for side in SIDES:
        boxes = grid_beyond(grid, side).cell_boxes()
        clipped = [(max(0.0, x0), max(0.0, y0), min(float(image.width), x1), min(float(image.height), y1))
                   for x0, y0, x1, y1 in boxes]
        along = 0 if side in ("left", "right") else 1
        depth = min(b[along + 2] - b[along] for b in clipped)
        extent = boxes[0][along + 2] - boxes[0][along]  # a cell's side along the way out
        if depth < GOES_ON_EDGE_PX:
            return True
        if min(b[3 - along] - b[1 - along] for b in clipped) < GOES_ON_EDGE_PX:
            continue  # the cells beside the grid's ends cut off: their row or column not seen
        needed = max(2, len(clipped) - 1)
        alike = [face_share(b) >= GOES_ON_SHARE for b in clipped]
        whole = depth >= extent - GOES_ON_EDGE_PX
        if not whole and sum(alike) >= needed:
            return True
        if depth < 0.5 * extent:
            continue
        seen = [image.crop(tuple(round(v) for v in b)) for b in clipped]  # type: ignore[misc]
        extents = number_extents(seen)
        tiles = [like_number(e) or (whole and a and e is not None) for e, a in zip(extents, alike, strict=True)]
        if sum(tiles) >= needed:
            return True
    return False


MAX_UNSURE = 4  # at most this many cells settled by elimination (4! = 24 arrangements tried)


def _settle_unsure(
    numbers: list[int | None],
    unsure: list[int],
    missing: list[int],
    got: NumberReading,
    goal: Board | None,
) -> tuple[int, ...] | None:
    """The numbers for the ``unsure`` cells when exactly one way of placing the ``missing`` numbers there
    fits: each cell takes one of the numbers it was read as (any missing number when it was read as none of
    them) and the board can reach ``goal`` (a dealt board can, and swapping two numbers flips that; any
    board for ``None``). ``None`` when
    no way or more than one fits, or there are more ``unsure`` cells than cells read surely: then the reading
    is refused. Unseen seed 32058, a 4x4 picture board whose whole window was cut 2x2: not one number read
    on any cell, the three cells were settled by OCR guesses and parity and returned with exit 0."""
    from itertools import permutations

    from ..solvability import is_solvable

    if len(unsure) > min(MAX_UNSURE, sum(v is not None for v in numbers)):
        return None
    allowed = []
    for cell in unsure:
        seen = set(got.candidates_of(cell)) & set(missing)
        allowed.append(seen or set(missing))
    fits = []
    for values in permutations(missing):
        if all(v in ok for v, ok in zip(values, allowed, strict=True)):
            tiles = [int(v or 0) for v in numbers]
            for cell, value in zip(unsure, values, strict=True):
                tiles[cell] = value
            if goal is None or is_solvable(Board(tiles, goal.width, goal.height, blank=0), goal):
                fits.append(values)
    return fits[0] if len(fits) == 1 else None


def _check_solvable(reading: ScreenshotReading) -> None:
    from ..solvability import is_solvable

    if not is_solvable(reading.board, reading.goal):
        if reading.kind == "numbers":
            raise _numbers_parity_refusal(reading.missing)
        raise UnsolvableReadingError(
            "the board read cannot reach its goal (the other parity class), so some tiles must be misread; "
            "check --size, --crop and --reference, or the screenshot is not of a sliding puzzle dealt fairly"
        )


def _numbers_parity_refusal(hole_home: int) -> NumbersParityError:
    return NumbersParityError(
        f"the numbers read cannot reach their goal with the hole in cell {hole_home} (the other parity class): "
        "check where the hole belongs (--hole-home), or some numbers were misread: check --size and --crop "
        "(cells 0-based)"
    )


def _confidence(
    cost: np.ndarray, columns: np.ndarray, total: float
) -> tuple[tuple[float, ...], tuple[tuple[int, ...], ...], list[np.ndarray]]:
    """Per-cell confidence, the groups of cells whose reading an almost-as-good solution changes, and those
    solutions (one per group)."""
    n = cost.shape[0] - 1
    confidence = []
    groups: list[tuple[int, ...]] = []
    alternatives = []
    for cell in range(n + 1):  # the last "cell" is the left-over row: how sure the missing tile is
        trial = cost.copy()
        trial[cell, columns[cell]] = FORBIDDEN
        alternative, alternative_total = _solve(trial)
        delta = max(0.0, alternative_total - total)
        value = delta / (delta + CONFIDENCE_SCALE)
        if cell < n:
            confidence.append(value)
        else:  # a doubt about the missing tile is a doubt about the hole
            hole = int((columns[:n] == n).nonzero()[0][0])
            confidence[hole] = min(confidence[hole], value)
        if delta < AMBIGUOUS_MARGIN:
            changed = tuple(int(c) for c in (alternative[:n] != columns[:n]).nonzero()[0])
            if changed and changed not in groups:
                groups.append(changed)
                alternatives.append(alternative)
    return tuple(confidence), tuple(groups), alternatives


def _ambiguity_message(groups: tuple[tuple[int, ...], ...], width: int, n_cells: int) -> str:
    if any(len(group) == n_cells for group in groups):  # the reading as a whole is in doubt
        return (
            "tiles look too alike to tell apart: the board as a whole is in doubt (a dark, plain or repetitive "
            "picture, a blurred or small screenshot, or a grid found wrong: check --size and --crop); use a "
            "sharper or larger screenshot, give or check the original picture (--reference), or accept the best "
            "guess (--allow-ambiguous)"
        )

    def named(group: tuple[int, ...]) -> str:  # each cell once: "cells 1, 3 and 5"
        cells = [str(cell) for cell in group]
        return f"cell {cells[0]}" if len(cells) == 1 else f"cells {', '.join(cells[:-1])} and {cells[-1]}"

    parts = [named(group) for group in groups[:3]]
    left = len(groups) - 3
    more = f"; and {left} more {'group' if left == 1 else 'groups'}" if left > 0 else ""
    return (
        f"tiles look too alike to tell apart: {'; '.join(parts)}{more} (cells count from 0, row by row from the "
        "top left); "
        "use a sharper screenshot or a closer reference, or accept the best guess (--allow-ambiguous)"
    )


__all__ = [
    "AMBIGUOUS_MARGIN",
    "FEATURE_SIDE",
    "TRIM",
    "AmbiguousTilesError",
    "HoleHomeMismatchError",
    "NumbersUnreadableError",
    "PictureReassemblyError",
    "ReadingError",
    "ReadingTimeoutError",
    "ReferenceMismatchError",
    "ScreenshotReading",
    "UnsolvableReadingError",
    "cell_features",
    "parse_hole_home",
    "read_screenshot",
    "refusal_data",
]
