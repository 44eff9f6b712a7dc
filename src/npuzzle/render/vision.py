"""Reading a picture puzzle from a screenshot.

Input: a screenshot of the scrambled puzzle cropped to the board, the board size W×H, and a *reference*: the
original picture or a screenshot of the solved puzzle. Output (:class:`ScreenshotReading`): a Board whose
labels are the tiles' home cells ``1..N`` (row-major, 1-based), ``0`` in the empty cell; the goal is the
"missing number" layout :func:`npuzzle.goals.blank_at` with the hole at the missing tile's home.

Method
    Every cell of both images is reduced to a :data:`FEATURE_SIDE`² colour thumbnail of its inner part
    (:data:`TRIM` of each side is ignored: grid lines, bevels, a sloppy crop). Cell ``i`` of the screenshot
    and cell ``j`` of the reference cost their RMS colour difference (0..1 units). One screenshot cell is
    the blank: it costs its own non-uniformity, plus the non-uniformity of the reference cell left over
    (zero when the reference is a solved screenshot whose hole is as flat as the screenshot's; for an
    original picture a constant, the same for every choice). This is one square assignment problem of
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

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board import Board
from ..errors import PuzzleError
from ..goals import blank_at
from .image import PictureError, cell_boxes, check_picture_size, load_picture

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    from PIL import Image as PILImage

FEATURE_SIDE = 16  # pixels per side of each cell's thumbnail; 16² × 3 colour values per cell
TRIM = 0.12  # share of each cell side ignored at every edge
AMBIGUOUS_MARGIN = 0.012  # RMS (0..1 colour units): a reading this close to another is a guess
CONFIDENCE_SCALE = 0.02  # RMS at which confidence is 0.5
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

    ``board``: labels are home cells 1..N, 0 is the empty cell. ``goal``: :func:`~npuzzle.goals.blank_at`
    with the hole at ``missing`` (the home cell, 0-based, of the tile not on the screenshot).
    ``confidence``: one value in [0, 1] per screenshot cell, row-major. ``ambiguous``: groups of cells
    whose reading could be exchanged (empty when every tile is clear).
    """

    board: Board
    goal: Board
    confidence: tuple[float, ...]
    missing: int
    ambiguous: tuple[tuple[int, ...], ...] = ()

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


def cell_features(image: PILImage.Image, width: int, height: int, trim: float = TRIM) -> np.ndarray:
    """``(width * height, FEATURE_SIDE² × 3)`` float64 thumbnails (0..1) of the inner part of each cell."""
    import numpy as np
    from PIL import Image

    out = np.empty((width * height, FEATURE_SIDE * FEATURE_SIDE * 3))
    for cell, (x0, y0, x1, y1) in enumerate(cell_boxes(image.width, image.height, width, height)):
        tx, ty = (x1 - x0) * trim, (y1 - y0) * trim
        thumb = image.resize(
            (FEATURE_SIDE, FEATURE_SIDE), Image.Resampling.BOX, box=(x0 + tx, y0 + ty, x1 - tx, y1 - ty)
        )
        out[cell] = np.asarray(thumb, dtype=np.float64).reshape(-1) / 255.0
    return out


def _channels(features: np.ndarray) -> np.ndarray:
    """View ``(cells, FEATURE_SIDE² × 3)`` as ``(cells, FEATURE_SIDE², 3)``."""
    return features.reshape(features.shape[0], -1, 3)


def _rms_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``(len(a), len(b))`` RMS differences between feature rows."""
    import numpy as np

    squared = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * a @ b.T
    return np.sqrt(np.maximum(squared, 0.0) / a.shape[1])  # type: ignore[no-any-return]


def _flatness(features: np.ndarray) -> np.ndarray:
    """RMS deviation of each cell from its own mean colour: 0 for a perfectly flat (blank-like) cell."""
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
    cost[n, :n] = _flatness(ref)  # reference cell j is the tile nobody shows
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


def read_screenshot(
    screenshot: str | Path | PILImage.Image,
    width: int,
    height: int,
    reference: str | Path | PILImage.Image,
    *,
    strict: bool = True,
    blank_cell: int | None = None,
) -> ScreenshotReading:
    """Read the arrangement of a ``width`` × ``height`` picture puzzle from ``screenshot``.

    ``reference`` is the original picture or a screenshot of the solved puzzle, cropped like ``screenshot``
    (the two may differ in scale). ``blank_cell`` (0-based) tells where the hole is if it is known.
    Raises :class:`AmbiguousTilesError` when some tiles cannot be told apart (``strict=False`` returns the
    best guess with the doubtful cells in ``ambiguous``), :class:`PictureError` for unusable images.
    """
    import numpy as np

    shot_image = load_picture(screenshot, "screenshot")
    ref_image = load_picture(reference, "reference picture")
    check_picture_size(shot_image, width, height, "screenshot")
    check_picture_size(ref_image, width, height, "reference picture")
    n = width * height
    if blank_cell is not None and not 0 <= blank_cell < n:
        raise PictureError(f"blank cell {blank_cell} is outside a {width}x{height} board (0..{n - 1})")

    raw = cell_features(shot_image, width, height)
    ref = cell_features(ref_image, width, height)
    shot = _match_global_stats(raw, ref)
    columns, _ = _solve(_cost_matrix(shot, ref, blank_cell))
    for _ in range(2):  # refit the brightness on what matched, then match again
        shot = _fit_brightness(raw, ref, columns)
        cost = _cost_matrix(shot, ref, blank_cell)
        columns, total = _solve(cost)

    hole = int(np.flatnonzero(columns[:n] == n)[0])
    missing = int(columns[n])
    tiles = [0 if cell == hole else int(columns[cell]) + 1 for cell in range(n)]
    board = Board(tiles, width, height, blank=0)
    goal = blank_at(width, height, missing)

    confidence, groups = _confidence(cost, columns, total)
    reading = ScreenshotReading(board, goal, confidence, missing, groups)
    if groups and strict:
        raise AmbiguousTilesError(_ambiguity_message(groups, width), groups, reading)
    return reading


def _confidence(
    cost: np.ndarray, columns: np.ndarray, total: float
) -> tuple[tuple[float, ...], tuple[tuple[int, ...], ...]]:
    """Per-cell confidence and the groups of cells whose reading an almost-as-good solution changes."""
    n = cost.shape[0] - 1
    confidence = []
    groups: list[tuple[int, ...]] = []
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
    return tuple(confidence), tuple(groups)


def _ambiguity_message(groups: tuple[tuple[int, ...], ...], width: int) -> str:
    def where(cell: int) -> str:
        row, col = divmod(cell, width)
        return f"{cell} (row {row}, column {col})"

    parts = ["cells " + ", ".join(where(c) for c in group) for group in groups[:3]]
    more = f" and {len(groups) - 3} more" if len(groups) > 3 else ""
    return (
        f"tiles look too alike to tell apart: {'; '.join(parts)}{more} (cells count from 0 at the top left); "
        "use a sharper screenshot or a closer reference, or accept the best guess (--allow-ambiguous)"
    )


__all__ = [
    "AMBIGUOUS_MARGIN",
    "FEATURE_SIDE",
    "TRIM",
    "AmbiguousTilesError",
    "ScreenshotReading",
    "cell_features",
    "read_screenshot",
]
