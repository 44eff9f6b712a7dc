"""Finding the tile grid of a sliding puzzle in a whole screenshot (window chrome, frame, margins, gaps).

Model
    Along each axis the board is ``n`` tiles of side ``t`` repeated every ``p`` pixels (``p - t`` is the gap
    between tiles, 0 when tiles touch): tile ``j`` spans ``[a + j p, a + j p + t)``. Every tile side is a
    straight edge across the whole board, so the board shows as ``2 n`` parallel lines (``n + 1`` when the
    tiles touch) equally spaced — what a window's chrome, text and the picture's own content rarely do.

Method (:func:`locate_grid`)
    1. *Line strength*: a pixel is on a vertical edge when some colour channel changes by more than
       :data:`EDGE_STEP` across it and the edge continues straight for :data:`RUN` pixels; a column's line
       strength is the share of the rows (of a range) on such an edge. Rows likewise.
    2. *Progressions*: the local maxima of line strength are candidate lines; every pair of candidates and
       every count between them proposes a pitch ``p``; the hypothesis is kept if every tile's two sides
       ``a + j p`` and ``a + j p + t`` (``p - MAX_GAP <= t <= p``) are candidate lines. Its score is the sum
       of its lines' strengths, so more tiles and straighter lines win.
    3. *Alternation*: columns are found over all rows, rows over the columns found, columns again over the
       rows found, rows again: each pass sees the board's lines at full strength and less of the window.

A :class:`Grid` holds ``(x, y, tile width, tile height, pitch x, pitch y, width, height)`` in pixels; the
cell boxes it gives are what the reader cuts. ``locate_grid`` raises :class:`GridNotFoundError` when no
grid of at least 2×2 tiles (or of the requested size) is visible.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from .image import PictureError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    from PIL import Image as PILImage

T = TypeVar("T")

EDGE_STEP = 14.0  # 0..255 units: a colour step this large across two pixels is an edge
RUN = 12  # pixels: an edge pixel counts when the edge runs straight this long (text and texture do not)
MIN_TILE = 14  # pixels: smaller tiles are not read
MAX_GAP_SHARE = 0.3  # a gap between tiles is at most this share of the pitch ...
MAX_GAP_PX = 18  # ... and at most this many pixels (8 px at scale 2, with blur)
MAX_TILES = 16  # tiles per side
PEAK_MIN = 0.12  # line strength (share of the range) below which a column is not a candidate line
MAX_PEAKS = 24  # strongest candidate lines kept per axis
SEAM_STEP = 12  # 0..255 units: a step across a boundary must exceed the changes beside it by this much
CELL_BAR = 0.4  # a cell counts for a grid when more than this share of its sides are steps
ALTERNATIVE_SHARE = 0.5  # locate_grids offers other sizes scoring at least this share of the best
# a grid whose tiles hold, on both axes, a line across all of it this strong beside its sides' (median) is
# a repeating pattern's (checks filling a hole, a texture), not the board: on the boards located in dev seeds
# 0-39 of six styles the most was 0.67, against 0.9-1.0 for the checks and textures taken for boards
PATTERN_INNER_LINES = 0.85
PATTERN_FLAT_CELLS = 0.6  # ... or one this share of whose cells are flat (checks, a check a cell; those boards: 0.46)


class GridNotFoundError(PictureError):
    """No tile grid could be found in the screenshot (or none of the requested size)."""


@dataclass(frozen=True)
class Axis:
    """Tiles along one axis: ``count`` tiles of ``tile`` pixels starting at ``start``, every ``pitch``."""

    start: float
    pitch: float
    tile: float
    count: int
    score: float = 0.0
    # each tile's own shift from ``start + j * pitch`` (a game whose gaps differ by a pixel or two from one
    # row or column to the next: :func:`snapped_grid`); () for none, and ignored on an axis of another count
    offsets: tuple[float, ...] = ()

    def offset(self, j: int) -> float:
        return self.offsets[j] if len(self.offsets) == self.count else 0.0

    @property
    def first(self) -> float:
        """Where the first tile starts."""
        return self.start + self.offset(0)

    @property
    def end(self) -> float:
        return self.start + (self.count - 1) * self.pitch + self.tile + self.offset(self.count - 1)

    @property
    def gap(self) -> float:
        return self.pitch - self.tile

    def span(self, j: int) -> tuple[float, float]:
        at = self.start + j * self.pitch + self.offset(j)
        return at, at + self.tile


@dataclass(frozen=True)
class Grid:
    """The tile grid: ``columns`` along x, ``rows`` along y (pixels of the screenshot)."""

    columns: Axis
    rows: Axis

    @property
    def width(self) -> int:
        return self.columns.count

    @property
    def height(self) -> int:
        return self.rows.count

    @property
    def box(self) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of the tile area."""
        return self.columns.first, self.rows.first, self.columns.end, self.rows.end

    def shifted(self, dx: float, dy: float) -> Grid:
        """The same grid ``dx``, ``dy`` pixels further right and down (a grid found in a crop, in the whole)."""
        c, r = self.columns, self.rows
        return Grid(replace(c, start=c.start + dx), replace(r, start=r.start + dy))

    def scaled(self, kx: float, ky: float) -> Grid:
        """The same grid on the image scaled by ``kx`` across and ``ky`` down (a grid found in a shrunk copy,
        in the original)."""

        def axis(a: Axis, k: float) -> Axis:
            return replace(a, start=a.start * k, pitch=a.pitch * k, tile=a.tile * k,
                           offsets=tuple(o * k for o in a.offsets))  # fmt: skip

        return Grid(axis(self.columns, kx), axis(self.rows, ky))

    def cell_boxes(self) -> list[tuple[float, float, float, float]]:
        """``(x0, y0, x1, y1)`` of every cell, row-major (cell = row * width + col)."""
        boxes = []
        for r in range(self.rows.count):
            y0, y1 = self.rows.span(r)
            for c in range(self.columns.count):
                x0, x1 = self.columns.span(c)
                boxes.append((x0, y0, x1, y1))
        return boxes


def _edge_maps(
    pixels: np.ndarray, steps: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Boolean maps of straight edges: ``vertical[y, x]`` between columns x and x+1, ``horizontal`` likewise."""
    import numpy as np

    def runs(e: np.ndarray, axis: int) -> np.ndarray:  # share of the RUN pixels centred here that are edges
        c = np.cumsum(e, axis=axis, dtype=np.float32)
        c = np.concatenate([np.zeros_like(np.take(c, [0], axis=axis)), c], axis=axis)
        n = e.shape[axis]
        lo = np.clip(np.arange(n) - RUN // 2, 0, n)
        hi = np.clip(np.arange(n) + RUN - RUN // 2, 0, n)
        return (np.take(c, hi, axis=axis) - np.take(c, lo, axis=axis)) / RUN  # type: ignore[no-any-return]

    dx, dy = _steps(pixels) if steps is None else steps
    ex = (dx > EDGE_STEP).astype(np.float32)
    ey = (dy > EDGE_STEP).astype(np.float32)
    vertical = runs(ex, 0) > 0.75
    horizontal = runs(ey, 1) > 0.75
    return vertical, horizontal


def _steps(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colour step (largest over the channels, 0..255) between pixels two apart, across and down:
    ``(H, W - 2)`` and ``(H - 2, W)``. Two apart, so that a step spread over two pixels by scaling or JPEG
    still counts whole."""
    import numpy as np

    p = pixels.astype(np.int16)

    def largest(d: np.ndarray) -> np.ndarray:  # faster than .max(axis=2) over three channels
        return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])  # type: ignore[no-any-return]

    return largest(np.abs(p[:, 2:] - p[:, :-2])), largest(np.abs(p[2:] - p[:-2]))


def _profile(edges: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Line strength per position along axis 1 of ``edges`` over positions ``lo..hi`` of axis 0."""
    part = edges[max(0, lo) : max(lo + 1, hi)]
    return part.mean(axis=0)  # type: ignore[no-any-return]


def _peaks(profile: np.ndarray, minimum: float) -> tuple[np.ndarray, np.ndarray]:
    """Positions (sub-pixel centres of plateaus) and strengths of the local maxima above ``minimum``."""
    import numpy as np

    positions: list[float] = []
    strengths: list[float] = []
    n = len(profile)
    x = 1
    while x < n - 1:
        v = profile[x]
        if v >= minimum and v >= profile[x - 1]:
            end = x
            while end + 1 < n and profile[end + 1] == v:
                end += 1
            if end + 1 >= n or profile[end + 1] < v:
                positions.append((x + end) / 2)
                strengths.append(float(v))
            x = end + 1
        else:
            x += 1
    pos, st = np.array(positions), np.array(strengths)
    if len(pos) > MAX_PEAKS:
        keep = np.sort(np.argsort(-st)[:MAX_PEAKS])
        pos, st = pos[keep], st[keep]
    return pos, st


def _nearest(pos: np.ndarray, target: float, tol: float) -> int:
    """Index of the candidate line within ``tol`` of ``target``, or -1."""
    import numpy as np

    k = int(np.searchsorted(pos, target))
    best, best_d = -1, tol
    for i in (k - 1, k):
        if 0 <= i < len(pos) and abs(pos[i] - target) <= best_d:
            best, best_d = i, abs(pos[i] - target)
    return best


def _axes(pos: np.ndarray, st: np.ndarray, count: int | None, length: int) -> list[Axis]:
    """Every maximal progression of tiles the candidate lines support, best first."""
    import numpy as np

    found: dict[tuple[int, int, int, int], Axis] = {}
    n_pos = len(pos)
    for i in range(n_pos):
        for k in range(i + 1, n_pos):
            span = pos[k] - pos[i]
            for n in range(1, MAX_TILES + 1):
                p = span / n
                if p < MIN_TILE:
                    break
                tol = 1.6 + 0.012 * p
                a = pos[i]
                if _nearest(pos, a - p, tol) >= 0:
                    continue  # not the first tile: the progression starting earlier covers this one
                lefts = [i]
                while len(lefts) <= MAX_TILES:
                    nxt = _nearest(pos, a + len(lefts) * p, tol)
                    if nxt < 0:
                        break
                    lefts.append(nxt)
                if len(lefts) < 2:
                    continue
                p_fit = (pos[lefts[-1]] - pos[lefts[0]]) / (len(lefts) - 1)
                a_fit = float(pos[lefts[0]])
                options: list[Axis] = []
                # tiles touching: n tiles need n + 1 lines
                options.append(Axis(a_fit, p_fit, p_fit, len(lefts) - 1, float(st[lefts].sum())))
                # tiles with gaps: a right side t after every left side
                max_gap = min(MAX_GAP_PX, MAX_GAP_SHARE * p_fit)
                for r in np.flatnonzero((pos >= a_fit + p_fit - max_gap) & (pos <= a_fit + p_fit - tol)):
                    t = pos[r] - a_fit
                    rights = []
                    for j in range(len(lefts)):
                        m = _nearest(pos, a_fit + j * p_fit + t, tol)
                        if m < 0:
                            break
                        rights.append(m)
                    n_tiles = min(len(rights), len(lefts))
                    used = lefts[:n_tiles] + rights[:n_tiles]
                    options.append(Axis(a_fit, p_fit, float(t), n_tiles, float(st[used].sum())))
                for axis in options:
                    if axis.count < 2 or axis.end > length + 2:
                        continue
                    if count is not None and axis.count < count:
                        continue
                    key = (round(axis.start), round(axis.pitch), round(axis.tile), axis.count)
                    if key not in found or found[key].score < axis.score:
                        found[key] = axis
    return sorted(found.values(), key=lambda ax: -ax.score)


def _axis_candidates(
    edges: np.ndarray, lo: float, hi: float, count: int | None, minimum: float, keep: int
) -> list[Axis]:
    profile = _profile(edges, int(lo), int(hi))
    pos, st = _peaks(profile, minimum)
    # profile[k] compares pixels k and k + 2; a sharp step at boundary x (between pixels x - 1 and x) lights
    # k = x - 2 and k = x - 1, whose plateau centre is x - 1.5
    pos = pos + 1.5
    return _axes(pos, st, count, len(profile) + 2)[:keep]


def _variants(axis: Axis, count: int | None, length: int) -> list[Axis]:
    """``axis`` and the progressions one or two tiles shorter at either end (a stray line extends a run), or
    one tile longer (a tile side too faint to be a candidate line ends a run early), those ending within
    ``length`` pixels (and one): one tile longer may run past the screenshot's edge (held-out 61226, a 6x6 by
    its window's bottom, was offered as a 7x8 reaching 170 px below it)."""
    out = []
    for drop_start in range(-1, 3):
        for drop_end in range(-1, 3):
            if axis.start - axis.pitch < 0 and drop_start < 0:
                continue
            n = axis.count - drop_start - drop_end
            if n < 2 or (count is not None and n != count):
                continue
            variant = Axis(axis.start + drop_start * axis.pitch, axis.pitch, axis.tile, n, axis.score)
            if variant.end <= length + 1:
                out.append(variant)
    return out


def _seam_maps(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative counts of *steps*: ``vertical[y, x]`` counts rows < y where boundary x (between pixels
    x - 1 and x) is a step — a change across it larger than the changes just beside it (a tile's side or the
    seam between two tiles), while texture changes everywhere alike. ``horizontal`` likewise, transposed."""
    import numpy as np

    p = pixels.astype(np.int16)

    def steps(a: np.ndarray) -> np.ndarray:  # along axis 1; result index x = boundary x
        h, w = a.shape[:2]
        out = np.zeros((h, w + 1), dtype=bool)
        x = np.arange(4, w - 3)
        across = np.abs(a[:, x + 1] - a[:, x - 2]).max(axis=2)
        left = np.abs(a[:, x - 2] - a[:, x - 4]).max(axis=2)
        right = np.abs(a[:, x + 3] - a[:, x + 1]).max(axis=2)
        out[:, x] = across > np.maximum(left, right) + SEAM_STEP
        return out

    def cumulate(s: np.ndarray) -> np.ndarray:
        c = np.zeros((s.shape[0] + 1, s.shape[1]), dtype=np.int32)
        np.cumsum(s, axis=0, out=c[1:])
        return c

    return cumulate(steps(p)), cumulate(steps(p.transpose(1, 0, 2)))


def _side(cum: np.ndarray, at: float, lo: float, hi: float) -> float:
    """Share of boundary ``at`` between ``lo`` and ``hi`` (along the other axis) that is a step."""
    x = round(at)
    a, b = max(0, round(lo)), min(cum.shape[0] - 1, round(hi))
    if not 0 <= x < cum.shape[1] or b <= a:
        return 0.0
    # the step may sit one pixel either side after scaling: take the best of three boundaries
    best = 0
    for dx in (-1, 0, 1):
        if 0 <= x + dx < cum.shape[1]:
            best = max(best, int(cum[b, x + dx] - cum[a, x + dx]))
    return best / (b - a)


def _sides(cum: np.ndarray, at: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """:func:`_side` for arrays of boundaries at once (the same arithmetic, vectorised)."""
    import numpy as np

    x = np.rint(at).astype(np.int64)
    a = np.maximum(0, np.rint(lo).astype(np.int64))
    b = np.minimum(cum.shape[0] - 1, np.rint(hi).astype(np.int64))
    valid = (x >= 0) & (x < cum.shape[1]) & (b > a)
    best = np.zeros(len(x), dtype=np.int64)
    for dx in (-1, 0, 1):
        xx = x + dx
        ok = valid & (xx >= 0) & (xx < cum.shape[1])
        xc = np.clip(xx, 0, cum.shape[1] - 1)
        ac, bc = np.clip(a, 0, cum.shape[0] - 1), np.clip(b, 0, cum.shape[0] - 1)
        best = np.maximum(best, np.where(ok, cum[bc, xc] - cum[ac, xc], 0))
    return np.where(valid, best / np.maximum(1, b - a), 0.0)  # type: ignore[no-any-return]


def grid_cell_scores(seams: tuple[np.ndarray, np.ndarray], grid: Grid) -> list[float]:
    """How much each cell of ``grid`` looks like a tile: the mean share of its four sides that are steps."""
    import numpy as np

    return [
        float(v) for v in _box_scores(seams, np.array(grid.cell_boxes(), dtype=np.float64).reshape(-1, 4))
    ]


def grid_score(image: PILImage.Image, grid: Grid, seams: tuple[np.ndarray, np.ndarray] | None = None) -> float:
    """The score :func:`locate_grid` weighs grids by: over the cells, how much each looks like a tile less
    :data:`CELL_BAR` (so cells that look like tiles add and others take away)."""
    import numpy as np

    if seams is None:
        seams = _seam_maps(np.asarray(image.convert("RGB")))
    return float(_grids_score(seams, [grid])[0])


def _grids_score(seams: tuple[np.ndarray, np.ndarray], grids: Sequence[Grid]) -> np.ndarray:
    """Each grid's score (see :func:`grid_score`), every cell of every grid in one vectorised pass."""
    import numpy as np

    boxes = np.array([box for grid in grids for box in grid.cell_boxes()], dtype=np.float64)
    starts = np.cumsum([0] + [g.width * g.height for g in grids[:-1]])
    return np.add.reduceat(_box_scores(seams, boxes) - CELL_BAR, starts)  # type: ignore[no-any-return]


def _box_scores(seams: tuple[np.ndarray, np.ndarray], boxes: np.ndarray) -> np.ndarray:
    """:func:`grid_cell_scores` for an ``(n, 4)`` array of cell boxes (of any number of grids) at once."""
    import numpy as np

    vertical, horizontal = seams
    x0, y0, x1, y1 = boxes.T
    inset_x, inset_y = (x1 - x0) * 0.1, (y1 - y0) * 0.1
    left = _sides(vertical, x0, y0 + inset_y, y1 - inset_y)
    right = _sides(vertical, x1, y0 + inset_y, y1 - inset_y)
    top = _sides(horizontal, y0, x0 + inset_x, x1 - inset_x)
    bottom = _sides(horizontal, y1, x0 + inset_x, x1 - inset_x)
    # a tile has both pairs of sides; a strip of frame or margin taken for a tile has at most one
    return np.minimum(left + right, top + bottom) / 2  # type: ignore[no-any-return]


def locate_grid(
    image: PILImage.Image,
    width: int | None = None,
    height: int | None = None,
) -> Grid:
    """The tile grid in ``image`` (a whole screenshot), of ``width`` × ``height`` tiles if given."""
    scored = _scored_grids(image, width, height)
    if not scored or max(s for s, _ in scored) <= 0:
        raise GridNotFoundError(_not_found(width, height))
    return _best_per_size(scored)[0][1]


_SCORED_CACHE: dict[tuple[object, ...], list[tuple[float, Grid]]] = {}  # the last screenshot's grids


def last_screenshots(cache: dict[tuple[object, ...], T], pixels: np.ndarray, more: tuple[object, ...],
                     work: Callable[[], T]) -> T:  # fmt: skip
    """``work()`` for the screenshot ``pixels`` (and the arguments ``more``), kept in ``cache`` for the last
    screenshot only: a reading asks the same questions about one screenshot many times."""
    import hashlib

    key = (hashlib.blake2b(pixels.tobytes(), digest_size=16).digest(), pixels.shape, *more)
    value = cache.get(key)  # one lookup: another thread (the web server) may clear it meanwhile
    if value is None:
        value = work()
        cache.clear()
        cache[key] = value
    return value


def _scored_grids(image: PILImage.Image, width: int | None, height: int | None) -> list[tuple[float, Grid]]:
    """Every candidate grid with its score (the sum over its cells of how tile-like they are). The last
    screenshot's answer is kept: a reader with a reference asks :func:`locate_grids` and then
    :func:`candidate_grids` about the same screenshot (a second of work each on a large one)."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB"))
    return list(last_screenshots(_SCORED_CACHE, pixels, (width, height), lambda: _score_grids(pixels, width, height)))


def _score_grids(pixels: np.ndarray, width: int | None, height: int | None) -> list[tuple[float, Grid]]:
    import numpy as np

    vertical, horizontal = _edge_maps(pixels)
    horizontal_t = np.ascontiguousarray(horizontal.T)
    h_px, w_px = pixels.shape[:2]
    col_cands = _axis_candidates(vertical, 0, h_px, width, PEAK_MIN * 0.5, 6)
    row_cands = _axis_candidates(horizontal_t, 0, w_px, height, PEAK_MIN * 0.5, 6)
    pairs: set[tuple[Axis, Axis]] = set()
    for cols in col_cands:
        for rows in _axis_candidates(horizontal_t, cols.start, cols.end, height, PEAK_MIN, 3):
            pairs.add((cols, rows))
    for rows in row_cands:
        for cols in _axis_candidates(vertical, rows.start, rows.end, width, PEAK_MIN, 3):
            pairs.add((cols, rows))
    seams = _seam_maps(pixels)
    grids: list[Grid] = []
    for cols, rows in pairs:
        for c in _variants(cols, width, w_px):
            for r in _variants(rows, height, h_px):
                if 0.5 <= c.tile / r.tile <= 2.0:
                    grids.append(Grid(c, r))
    scored: list[tuple[float, Grid]] = []
    if grids:
        totals = _grids_score(seams, grids)
        scored = _without_patterns(pixels, seams, [(float(t), g) for t, g in zip(totals, grids, strict=True)])
    return scored


def _without_patterns(
    pixels: np.ndarray, seams: tuple[np.ndarray, np.ndarray], scored: list[tuple[float, Grid]]
) -> list[tuple[float, Grid]]:
    """``scored`` less the grids of a repeating pattern (:func:`_repeats_a_pattern`, or
    :data:`PATTERN_FLAT_CELLS` of their cells flat). Checks filling a hole make grids whose every cell is a
    perfect tile, many of them: a 3x3's hole of 8x8 checks was located as an 8x8 (dev "hard looks" 59058),
    another's as a 3x8 of checks three by two (59037). Grids are looked at best first, until
    :data:`CANDIDATE_SOURCES` are kept and the rest score under :data:`ALTERNATIVE_SHARE` of the best kept:
    no caller takes one further down (thousands score above 0 on a busy screenshot)."""
    flat = _FlatCells(pixels)
    dropped: set[int] = set()
    kept = 0
    best = 0.0
    for index in sorted(range(len(scored)), key=lambda i: -scored[i][0]):
        score, grid = scored[index]
        if score <= 0 or (kept >= CANDIDATE_SOURCES and score < ALTERNATIVE_SHARE * best):
            break
        if flat.share(grid) >= PATTERN_FLAT_CELLS or _repeats_a_pattern(seams, grid):
            dropped.add(index)
        else:
            best = best if kept else score
            kept += 1
    return [sg for index, sg in enumerate(scored) if index not in dropped]


def _repeats_a_pattern(seams: tuple[np.ndarray, np.ndarray], grid: Grid) -> bool:
    """Whether ``grid``'s tiles hold, on both axes, lines across the whole grid as strong as their sides
    (:data:`PATTERN_INNER_LINES`): a board's tiles, shuffled, break every line of the picture at their sides."""
    vertical, horizontal = seams
    x0, y0, x1, y1 = grid.box
    return (_inner_line_share(vertical, grid.columns, y0, y1) >= PATTERN_INNER_LINES
            and _inner_line_share(horizontal, grid.rows, x0, x1) >= PATTERN_INNER_LINES)  # fmt: skip


def _inner_line_share(cum: np.ndarray, axis: Axis, lo: float, hi: float) -> float:
    """Over ``lo..hi`` on the other axis, the median over ``axis``'s tiles of the strongest step line inside
    a tile (15% in from its sides, past a bevel) as a share of the median of the tiles' sides' strengths."""
    import numpy as np

    a, b = max(0, round(lo)), min(cum.shape[0] - 1, round(hi))
    if b <= a:
        return 0.0
    profile = (cum[b] - cum[a]) / (b - a)
    n = len(profile)

    def strongest(x0: float, x1: float) -> float:
        i0, i1 = max(0, math.ceil(x0)), min(n, math.floor(x1) + 1)
        return float(profile[i0:i1].max()) if i1 > i0 else 0.0

    sides: list[float] = []
    inner: list[float] = []
    for j in range(axis.count):
        start, end = axis.span(j)
        sides += [strongest(start - 1.5, start + 1.5), strongest(end - 1.5, end + 1.5)]
        inset = 0.15 * (end - start)
        inner.append(strongest(start + inset, end - inset))
    return float(np.median(inner)) / max(float(np.median(sides)), 1e-6)


class _FlatCells:
    """Which cells of a grid are flat: their middle (15% in from each side) spreads in colour by less than
    :data:`HOLE_FLAT` (RMS, as :func:`_rms_spread`), from summed-area tables of the screenshot at half size
    (made when first asked)."""

    def __init__(self, pixels: np.ndarray) -> None:
        self._pixels = pixels
        self._tables: tuple[np.ndarray, np.ndarray] | None = None

    def share(self, grid: Grid) -> float:
        """The share of ``grid``'s cells that are flat."""
        import numpy as np

        if self._tables is None:
            half = self._pixels[::2, ::2, :3].astype(np.int64)
            sums = np.zeros((half.shape[0] + 1, half.shape[1] + 1, 3), dtype=np.int64)
            squares = np.zeros_like(sums)
            sums[1:, 1:] = half.cumsum(0).cumsum(1)
            squares[1:, 1:] = (half * half).cumsum(0).cumsum(1)
            self._tables = sums, squares
        sums, squares = self._tables
        h, w = sums.shape[0] - 1, sums.shape[1] - 1
        x0, y0, x1, y1 = np.array(grid.cell_boxes(), dtype=np.float64).T / 2
        ix, iy = 0.15 * (x1 - x0), 0.15 * (y1 - y0)
        xa, xb = (np.clip(np.rint(v), 0, w).astype(np.int64) for v in (x0 + ix, x1 - ix))
        ya, yb = (np.clip(np.rint(v), 0, h).astype(np.int64) for v in (y0 + iy, y1 - iy))
        xb, yb = np.maximum(xb, xa), np.maximum(yb, ya)
        area = (xb - xa) * (yb - ya)

        def total(table: np.ndarray) -> np.ndarray:
            return table[yb, xb] - table[ya, xb] - table[yb, xa] + table[ya, xa]  # type: ignore[no-any-return]

        count = np.maximum(1, area)[:, None]
        mean = total(sums) / count
        variance = np.maximum(0.0, total(squares) / count - mean * mean).mean(axis=1)
        return float(np.mean((np.sqrt(variance) < HOLE_FLAT) & (area > 0)))


def _best_per_size(scored: list[tuple[float, Grid]]) -> list[tuple[float, Grid]]:
    """The best grid of each size, best size first, as ``(score, grid)``."""
    sizes: dict[tuple[int, int], float] = {}
    for score, grid in scored:
        key = (grid.width, grid.height)
        sizes[key] = max(sizes.get(key, -float("inf")), score)
    out = []
    for (w, h), top in sorted(sizes.items(), key=lambda kv: -kv[1]):
        # gaps make the same grid readable from the tiles' sides or shifted onto the gaps' far sides: among
        # near-equal grids of that size prefer the one explaining the most lines (both sides of every tile)
        near = [g for s, g in scored if s >= top - 0.15 * abs(top) and (g.width, g.height) == (w, h)]
        out.append((top, max(near, key=lambda g: g.columns.score + g.rows.score)))
    return out


def locate_grids(
    image: PILImage.Image, width: int | None = None, height: int | None = None, keep: int = 3
) -> list[Grid]:
    """Up to ``keep`` grids of different sizes that :func:`locate_grid` weighed, best first: the first is
    :func:`locate_grid`'s answer; the others (scoring at least :data:`ALTERNATIVE_SHARE` of it) are for a
    reader whose own check rejects the first (part of a board taken for all of it)."""
    scored = _scored_grids(image, width, height)
    if not scored or max(s for s, _ in scored) <= 0:
        raise GridNotFoundError(_not_found(width, height))
    ranked = _best_per_size(scored)
    top = ranked[0][0]
    return [g for s, g in ranked[:keep] if s >= ALTERNATIVE_SHARE * top]


STEP_GRID_AXES = 6  # progressions per axis proposed over the whole screenshot by step_grids


def _step_axis_candidates(
    steps: np.ndarray, lo: float, hi: float, count: int | None, minimum: float, keep: int
) -> list[Axis]:
    """:func:`_axis_candidates` on a cumulative step map (:func:`_seam_maps`; boundary x lies between pixels
    x - 1 and x) instead of the edge map."""
    a, b = max(0, int(lo)), min(steps.shape[0] - 1, max(int(lo) + 1, int(hi)))
    if b <= a:
        return []
    profile = (steps[b] - steps[a]) / (b - a)
    pos, st = _peaks(profile, minimum)
    return _axes(pos, st, count, len(profile) - 1)[:keep]


def step_grids(
    image: PILImage.Image,
    width: int | None = None,
    height: int | None = None,
    keep: int = 3,
    seams: tuple[np.ndarray, np.ndarray] | None = None,
) -> list[Grid]:
    """Up to ``keep`` grids of different sizes whose lines are proposed by the *step* maps
    (:func:`_seam_maps`: a change larger than the changes beside it) instead of the edge maps, best scoring
    first; ``seams`` when the caller has them. In a busy picture (a shaded relief) nearly every pixel is on an
    edge and the tiles' sides drown among the texture's lines, while a step stands out only at a side (unseen
    seeds 27099, 27249). Proposing these for every screenshot made locating half again as slow and let
    texture grids outscore a board's own (dev seed 2 as 10x10), so they are for a reader that found no
    reading on the usual grids."""
    import numpy as np

    if seams is None:
        seams = _seam_maps(np.asarray(image.convert("RGB")))
    vertical, horizontal = seams
    h_px, w_px = vertical.shape[0] - 1, horizontal.shape[0] - 1
    pairs: set[tuple[Axis, Axis]] = set()
    for cols in _step_axis_candidates(vertical, 0, h_px, width, PEAK_MIN * 0.5, STEP_GRID_AXES):
        for rows in _step_axis_candidates(horizontal, cols.start, cols.end, height, PEAK_MIN, 3):
            pairs.add((cols, rows))
    for rows in _step_axis_candidates(horizontal, 0, w_px, height, PEAK_MIN * 0.5, STEP_GRID_AXES):
        for cols in _step_axis_candidates(vertical, rows.start, rows.end, width, PEAK_MIN, 3):
            pairs.add((cols, rows))
    grids = [Grid(c, r) for cols, rows in pairs for c in _variants(cols, width, w_px)
             for r in _variants(rows, height, h_px)
             if 0.5 <= c.tile / r.tile <= 2.0 and c.start >= -1 and r.start >= -1]  # fmt: skip
    if not grids:
        return []
    totals = _grids_score(seams, grids)
    ranked = _best_per_size([(float(t), g) for t, g in zip(totals, grids, strict=True) if t > 0])
    return [g for _, g in ranked[:keep]]

CANDIDATE_SOURCES = 60  # best-scoring located grids that candidate_grids grows and shrinks


def _grown(axis: Axis, fixed: bool) -> list[Axis]:
    """``axis`` with one tile more or fewer at either end (the same count when ``fixed``): a hole showing
    the background at the board's edge, or a frame strip as wide as a tile, moves a found grid by a tile."""
    out = []
    for before in (-1, 0, 1):
        for after in (-1, 0, 1):
            count = axis.count + before + after
            if (fixed and count != axis.count) or count < 2 or count > MAX_TILES:
                continue
            out.append(replace(axis, start=axis.start - before * axis.pitch, count=count))
    return out


def candidate_grids(
    image: PILImage.Image,
    width: int | None,
    height: int | None,
    accept: Callable[[Grid], bool],
    keep: int,
    first: Sequence[Grid] = (),
) -> list[Grid]:
    """Up to ``keep`` grids that ``accept`` allows, best scoring first: those :func:`locate_grids` weighs
    (every size, not just the best of each), ``first`` (grids the caller already has), and each grown or
    shrunk by one tile at either end. For a reader with a strong check of its own (a reference picture whose
    shape tells the tiles' shape), which can afford to try many grids and keep the one that fits."""
    import numpy as np

    w_px, h_px = image.size
    seen: set[Grid] = set()
    grids: list[Grid] = []
    scored = sorted(_scored_grids(image, width, height), key=lambda sg: -sg[0])[:CANDIDATE_SOURCES]
    for grid in [*first, *(g for _, g in scored)]:
        for cols in _grown(grid.columns, width is not None):
            for rows in _grown(grid.rows, height is not None):
                g = Grid(cols, rows)
                x0, y0, x1, y1 = g.box
                if g in seen or x0 < -1 or y0 < -1 or x1 > w_px + 1 or y1 > h_px + 1 or not accept(g):
                    continue
                seen.add(g)
                grids.append(g)
    if not grids:
        return []
    totals = _grids_score(_seam_maps(np.asarray(image.convert("RGB"))), grids)
    order = np.argsort(-totals, kind="stable")  # as _scored_grids weighs them: more tile-like cells win
    return [grids[i] for i in order[:keep]]


REFINE_SHIFT = 8.0  # pixels: how far refine_grid moves a tile side
REFINE_STEP = 0.5  # pixels: the resolution of that search
REFINE_ROUNDS = 3  # times refine_grid nudges a grid from where the last round left it
REFINE_GAP = 3.0  # pixels: a gap this wide one way is also tried the other way (within 1 px)


def _step_profile(pixels: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Mean colour step (max over channels, 0..255) across each boundary x (between pixels x - 1 and x) of
    axis 1, over positions ``lo..hi`` of axis 0; index x, length ``pixels.shape[1] + 1`` (0 at the ends)."""
    import numpy as np

    part = pixels[max(0, round(lo)) : max(round(lo) + 1, round(hi))].astype(np.float32)
    step = np.abs(part[:, 1:] - part[:, :-1]).max(axis=2).mean(axis=0)
    return np.concatenate([[0.0], step, [0.0]])  # type: ignore[no-any-return]


_STEP_CACHE: dict[tuple[object, ...], tuple[np.ndarray, np.ndarray]] = {}  # the last screenshot's step maps


def _step_maps(image: PILImage.Image) -> tuple[np.ndarray, np.ndarray]:
    """The screenshot's colour steps (max over channels) across every boundary, summed down the other axis:
    ``columns[y, x]`` the sum over rows ``< y`` of the step between pixels ``x`` and ``x + 1``; ``rows``
    likewise, transposed. :func:`_step_profile` of any range is then a difference of two rows. The last
    screenshot's are kept: a reading refines tens of grids on one screenshot (a third of a refusal's time)."""
    import numpy as np

    def summed(p: np.ndarray) -> np.ndarray:
        step = np.abs(np.diff(p.astype(np.int16), axis=1)).max(axis=2)
        out = np.zeros((p.shape[0] + 1, p.shape[1] - 1))
        np.cumsum(step, axis=0, out=out[1:])
        return out

    pixels = np.asarray(image.convert("RGB"))
    return last_screenshots(_STEP_CACHE, pixels, (), lambda: (summed(pixels), summed(pixels.transpose(1, 0, 2))))


def _summed_profile(summed: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """:func:`_step_profile` from a map of :func:`_step_maps` (the same numbers: the sums are exact)."""
    import numpy as np

    start, stop, _ = slice(max(0, round(lo)), max(round(lo) + 1, round(hi))).indices(summed.shape[0] - 1)
    if stop <= start:  # (as the mean of no rows)
        return np.concatenate([[0.0], np.full(summed.shape[1], np.nan, dtype=np.float32), [0.0]])  # type: ignore[no-any-return]
    step = ((summed[stop] - summed[start]) / (stop - start)).astype(np.float32)
    return np.concatenate([[0.0], step, [0.0]])  # type: ignore[no-any-return]


def _refine_axis(
    axis: Axis,
    profile: np.ndarray,
    lo: float,
    hi: float,
    other_gap: float = 0.0,
    any_gap: bool = False,
    capped: bool = False,
) -> Axis:
    """``axis`` with start, pitch and tile size moved (by up to :data:`REFINE_SHIFT` px) to where the
    tiles' sides lie on the strongest steps of ``profile`` (see :func:`_step_profile`).

    Each distinct side counts once, less the profile's median over ``lo..hi`` (the board): a side on a
    step adds, a side on mere texture adds about nothing. So touching tiles (``n + 1`` sides, the inner ones
    weak seams in a continuous picture) and tiles with gaps (``2 n`` sides, all strong) are told apart, and a
    tile does not grow over a gap (the gap's far side is the next tile's near side, counted once).
    ``capped``: no side counts more than the median of the ``n + 1`` strongest steps over the board (see
    :func:`refine_grid`)."""
    import numpy as np

    n = axis.count
    gain = _gain(profile, lo, hi)
    if capped:
        inside = gain[max(1, round(lo)) : max(round(lo) + 2, round(hi))]
        peaks = inside[1:-1][(inside[1:-1] >= inside[:-2]) & (inside[1:-1] >= inside[2:])]
        if len(peaks) > n:
            gain = np.minimum(gain, float(np.median(np.sort(peaks)[-(n + 1) :])))
    pitch_shifts = np.arange(-1.5, 1.5 + 1e-9, 0.1)
    tiles = sorted({*(axis.tile + np.arange(-3.0, 3.0 + 1e-9, REFINE_STEP)), axis.pitch})
    # the other axis's gap: games space tiles alike both ways, and a gap taken into this axis's tiles can be
    # more than the nudges above undo (dev seed 157: columns 6 px too wide, rows right)
    alike = other_gap + np.arange(-1.0, 1.0 + 1e-9, REFINE_STEP) if other_gap >= REFINE_GAP else np.empty(0)
    if any_gap:  # (a grid cut evenly from a board's outline: tiles touching by construction, whatever the gaps)
        alike = np.concatenate([alike, np.arange(1.0, min(MAX_GAP_PX, MAX_GAP_SHARE * axis.pitch), REFINE_STEP)])
    sizes = [
        (p, t)
        for p in axis.pitch + pitch_shifts
        for t in [*tiles, *(p - alike), p]
        if not (t < MIN_TILE or t > p + 1e-9 or p - t > MAX_GAP_PX or 0 < p - t < 1.0)
    ]
    return _best_placed(axis, sizes, gain)


def _gain(profile: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """``profile`` less its median over ``lo..hi`` (the board): what a tile side on each boundary adds."""
    import numpy as np

    return profile - float(np.median(profile[max(0, round(lo)) : max(round(lo) + 1, round(hi))]))  # type: ignore[no-any-return]


def _best_placed(axis: Axis, sizes: Sequence[tuple[float, float]], gain: np.ndarray) -> Axis:
    """``axis`` as the best of ``sizes`` (pitch, tile) placed best, its start moved by up to
    :data:`REFINE_SHIFT`: the one whose tiles' distinct sides sum the most ``gain`` (see
    :func:`_refine_axis`); ``axis`` itself when ``sizes`` is empty."""
    return _placed(axis, sizes, gain)[1]


def _placed(axis: Axis, sizes: Sequence[tuple[float, float]], gain: np.ndarray) -> tuple[float, Axis]:
    """:func:`_best_placed` and the ``gain`` its tiles' sides sum (-inf when ``sizes`` is empty)."""
    import numpy as np

    shifts = np.arange(-REFINE_SHIFT, REFINE_SHIFT + 1e-9, REFINE_STEP)
    xs = np.arange(len(gain), dtype=np.float64)
    j = np.arange(axis.count)[:, None]
    own = np.array([axis.offset(k) for k in range(axis.count)])[:, None]  # (each tile's own shift kept)
    best = (-np.inf, axis)
    for p, t in sizes:
        starts = axis.start + shifts[None, :] + j * p + own  # (n, shifts)
        score = np.interp(starts, xs, gain).sum(axis=0)
        if p - t < 1e-9:  # touching: the last tile's far side closes the board
            score = score + np.interp(starts[-1] + p, xs, gain)
        else:
            score = score + np.interp(starts + t, xs, gain).sum(axis=0)
        k = int(np.argmax(score))
        if score[k] > best[0]:
            best = (float(score[k]), Axis(axis.start + float(shifts[k]), p, t, axis.count, axis.score, axis.offsets))
    return best


def _axis_steps(
    maps: tuple[np.ndarray, np.ndarray], grid: Grid, which: str
) -> tuple[Axis, np.ndarray, float, float, float]:
    """``grid``'s ``which`` axis (``"columns"`` or ``"rows"``), the colour steps across it over the board
    (:func:`_summed_profile` of ``maps`` from :func:`_step_maps`, a tenth of a tile in from the other axis's
    ends), its span and the other axis's gap: what refining that axis weighs."""
    x0, y0, x1, y1 = grid.box
    if which == "columns":
        inset = 0.1 * grid.rows.tile
        return grid.columns, _summed_profile(maps[0], y0 + inset, y1 - inset), x0, x1, grid.rows.gap
    inset = 0.1 * grid.columns.tile
    return grid.rows, _summed_profile(maps[1], x0 + inset, x1 - inset), y0, y1, grid.columns.gap


def _sizes_near(tile: float, gap: float) -> list[tuple[float, float]]:
    """``(pitch, tile)`` for tiles within 3 px of ``tile`` (in 0.1 px steps) ``gap`` apart; touching when the
    gap is under a pixel (as :func:`_refine_axis`: a gap under a pixel is no gap)."""
    import numpy as np

    return [(t if gap < 1.0 else t + gap, t) for t in tile + np.arange(-3.0, 3.0 + 1e-9, 0.1) if t >= MIN_TILE]


def with_one_gap(image: PILImage.Image, grid: Grid, recut: str) -> Grid:
    """``grid`` with its ``recut`` axis (``"columns"`` or ``"rows"``) refit to the other axis's gap, start
    and tile size moved to where the tiles' sides lie on the strongest colour steps, as :func:`refine_grid`
    does (up to :data:`REFINE_ROUNDS` times, each by up to 3 px of tile and :data:`REFINE_SHIFT` of start).
    Games space tiles alike both ways, so when a grid's gaps differ this is the other way it may be cut:
    unseen seed 29666, touching tiles whose columns were found with a 4 px gap (and a pitch 4 px too
    long) against the rows' 1 px; cut with a 1 px gap both ways, the columns land on the tiles' sides.
    The first round also tries the tiles grown (or shrunk) to the pitch less that gap, their near or their
    far sides kept: fresh 60192, touching tiles whose columns were found with 10 px gaps, their far sides
    on the tiles' and their near sides on lines in the picture 11 px in."""
    maps = _step_maps(image)
    for attempt in range(REFINE_ROUNDS):
        axis, profile, lo, hi, gap = _axis_steps(maps, grid, recut)
        gain = _gain(profile, lo, hi)
        fits = [_placed(axis, _sizes_near(axis.tile, gap), gain)]
        regrown = axis.pitch - (0.0 if gap < 1.0 else gap)
        if attempt == 0 and abs(regrown - axis.tile) > 3.0:
            for start in (axis.start, axis.start + axis.tile - regrown):  # near sides kept, or far sides
                moved = Axis(start, axis.pitch, regrown, axis.count, axis.score, axis.offsets)
                fits.append(_placed(moved, _sizes_near(regrown, gap), gain))
        fitted = max(fits, key=lambda fit: fit[0])[1]  # (the tiles as found win a tie)
        regrid = Grid(fitted, grid.rows) if recut == "columns" else Grid(grid.columns, fitted)
        if regrid == grid:
            break
        grid = regrid
    return grid


def refine_grid(image: PILImage.Image, grid: Grid, any_gap: bool = False, capped: bool = False) -> Grid:
    """``grid`` with each axis's start, pitch and tile size nudged so that every tile's sides sit on the
    strongest colour steps: a grid found from its lines can be a few pixels off (a frame's or a gap's far
    side taken for a tile's side), which matters when tiles are compared at their edges. Nudged again from
    where it lands, up to :data:`REFINE_ROUNDS` times, as each round moves the pitch and the tile size only
    so far (dev seed 42: a 3x3 first found 1.5 px too wide a pitch and 3 px too large a tile, gaps taken
    into the cells, landed on the true grid in the second round). ``any_gap``: every gap width is tried, not
    only the other axis's (for a grid cut evenly, whose tiles touch whatever the board's gaps). ``capped``: no
    side's step counts more than a typical tile side's (the median of the strongest ``n + 1`` steps): a
    frame's edges, far stronger than the tiles' own sides, otherwise pull the outer tiles over the frame and
    stretch the pitch (dev seed 297: a 5x5 found 2 px early with a pitch 0.5 px too large)."""
    maps = _step_maps(image)
    for _ in range(REFINE_ROUNDS):
        columns = _refine_axis(*_axis_steps(maps, grid, "columns"), any_gap, capped)
        rows = _refine_axis(*_axis_steps(maps, grid, "rows"), any_gap, capped)
        if Grid(columns, rows) == grid:
            break
        grid = Grid(columns, rows)
    return grid


SNAP_SHARE = 0.08  # a row or column of tiles moves on its own from the even grid by up to this share of the pitch, ...
SNAP_PX = 6.0  # ... this many pixels and the gap
SNAP_MIN_GAP = 3.0  # pixels: tiles closer than this stay on the even grid
SNAP_MIN = 1.0  # pixels: a tile moved less than this stays on the even grid ...
SNAP_GAIN = 0.25  # ... and so does one whose sides fit the others' less than this share of a typical misfit better
SNAP_WINDOW = 6  # pixels each way of a side whose steps are matched
SNAP_ROUNDS = 2  # times the shared sides are taken again from where the tiles landed


def snapped_grid(image: PILImage.Image, grid: Grid) -> Grid:
    """``grid`` with each column and each row of tiles moved on its own (by up to :data:`SNAP_SHARE` of the
    pitch) to where the colour steps round its two sides match every tile's, when they match clearly better
    than where the even grid puts it. A game's gaps can differ by a pixel or two from one row or column to
    the next (a layout rounded to the pixel, a board drawn by hand), and the even grid that fits best then
    cuts some tiles several pixels off, a strip of gap taken in on one side and of picture left out on the
    other, which is what the seams are weighed on. Tiles under :data:`SNAP_MIN_GAP` apart stay as they are.
    From the even grid that fits the true cells best, on the screenshots of the hard look "uneven": the worst
    cell 0.81 px off in the median and up to 2.93 (seeds 140-199), moved 0.68 and up to 1.52, none further
    off; held out (300-399) 0.86 and 3.04, moved 0.75 and 2.36. Evenly spaced tiles (game looks 130-169)
    are left where they are."""
    return _each_axis_fitted(image, grid, _snapped_axis)


def _each_axis_fitted(
    image: PILImage.Image, grid: Grid, fit: Callable[[Axis, np.ndarray, float, float], Axis]
) -> Grid:
    """``grid`` with each axis replaced by ``fit`` of it, the colour steps across it over the board, and its
    span (:func:`_axis_steps`)."""
    maps = _step_maps(image)
    return Grid(fit(*_axis_steps(maps, grid, "columns")[:4]), fit(*_axis_steps(maps, grid, "rows")[:4]))


def _snapped_axis(axis: Axis, profile: np.ndarray, lo: float, hi: float) -> Axis:
    """:func:`snapped_grid` along one axis (``profile`` as :func:`_refine_axis` weighs it). Every tile's sides
    look alike (the same gap, the same bevel or line drawn on every tile), so each tile is moved to where the
    steps round its two sides best match those round every tile's, not to its strongest steps: a bevel's or
    a line's step a pixel or two inside the side can be stronger than the side's own."""
    import numpy as np

    if axis.gap < SNAP_MIN_GAP or axis.count < 3:  # (a side's steps blur into the next tile's)
        return axis
    gain = _gain(profile, lo, hi)
    xs = np.arange(len(gain), dtype=np.float64)
    reach = min(SNAP_PX, SNAP_SHARE * axis.pitch, axis.gap)  # (further, a side meets the next tile's)
    shifts = np.arange(-reach, reach + 1e-9, REFINE_STEP)
    still = int(np.argmin(np.abs(shifts)))
    window = np.arange(-SNAP_WINDOW, SNAP_WINDOW + 1e-9, 1.0)
    sides = np.concatenate([window, axis.tile + window])  # where each tile's steps are read, from its start
    starts = np.array([axis.span(j)[0] for j in range(axis.count)])
    # (tiles, shifts, places): the steps round each tile's sides, the tile moved by each shift
    seen = np.interp(starts[:, None, None] + shifts[None, :, None] + sides[None, None, :], xs, gain)
    best = np.full(axis.count, still)
    for _ in range(SNAP_ROUNDS):  # the sides every tile shares, from the tiles where they last landed
        template = np.median(seen[np.arange(axis.count), best], axis=0)
        misfit = np.abs(seen - template).mean(axis=2)  # (tiles, shifts)
        best = np.argmin(misfit, axis=1)
    typical = float(np.median(misfit[:, still]))
    rise = misfit[:, still] - misfit[np.arange(axis.count), best]
    moves = np.where((np.abs(shifts[best]) >= SNAP_MIN) & (rise >= SNAP_GAIN * typical), shifts[best], 0.0)
    if not moves.any():
        return axis
    return replace(axis, offsets=tuple(axis.offset(j) + float(m) for j, m in enumerate(moves)))


SYMMETRY_REACH = 6.0  # pixels: how far either way of where the grid puts it a gap's centre is looked for ...
SYMMETRY_WINDOW = 8  # ... as the place whose colour steps this many pixels either side mirror each other best


def symmetric_grid(image: PILImage.Image, grid: Grid) -> Grid:
    """``grid`` with each axis refit (start and pitch, its gap kept) to where the colour steps round its gaps
    mirror each other: a game draws every tile alike on its two sides (a gap, an inner highlight line, a
    bevel's edge, a border), so the steps of one tile's far side and the next one's near side are a mirror
    image round the gap's centre, wherever the strongest of them lies. An inner highlight line's two steps a
    pixel or two inside each tile can outweigh a thin gap's (fresh "hard looks" 60650, a 5x5 whose columns
    were refined onto the highlight, 3 px off), but they mirror the next tile's round the same centre."""
    return _each_axis_fitted(image, grid, _symmetric_axis)


def _symmetric_axis(axis: Axis, profile: np.ndarray, lo: float, hi: float) -> Axis:
    """:func:`symmetric_grid` along one axis (``profile`` as :func:`_refine_axis` weighs it)."""
    import numpy as np

    if axis.count < 2:
        return axis
    gain = _gain(profile, lo, hi)
    xs = np.arange(len(gain), dtype=np.float64)
    reach = np.arange(-SYMMETRY_REACH, SYMMETRY_REACH + 1e-9, REFINE_STEP / 2)
    apart = np.arange(0.5, SYMMETRY_WINDOW, 1.0)
    centres = []
    for j in range(1, axis.count):
        places = (axis.span(j - 1)[1] + axis.span(j)[0]) / 2 + reach
        before = np.interp(places[:, None] - apart[None, :], xs, gain)
        after = np.interp(places[:, None] + apart[None, :], xs, gain)
        misfit = np.abs(before - after).mean(axis=1) / (np.abs(before).mean(axis=1) + np.abs(after).mean(axis=1) + 1e-9)
        centres.append(float(places[int(np.argmin(misfit))]))
    gap = axis.pitch - axis.tile
    if len(centres) == 1:
        pitch, first = axis.pitch, centres[0] - axis.pitch
    else:
        pitch, first = (float(v) for v in np.polyfit(np.arange(1, axis.count), centres, 1))
    if pitch - gap < MIN_TILE:
        return axis
    return Axis(first + gap / 2, pitch, pitch - gap, axis.count, axis.score)


CONTENT_LOW = 0.2  # a place in the pitch whose strips differ from cell to cell less than this share of a typical ...
CONTENT_KEEP = 0.9  # ... place's (the mean of the cells' deviations, the largest tenth left out) is no tile's
CONTENT_MOVE = 2.0  # pixels: a tile side moved less than this by content_grid stays where it was


def content_grid(image: PILImage.Image, grid: Grid) -> Grid:
    """``grid`` with each axis's tiles cut to what differs from cell to cell: every cell's strips across the
    axis (a pixel wide, over the middle 70 % of the cell the other way) are laid over one pitch, and the
    places where the strips of all cells are alike (:data:`CONTENT_LOW`) are gap, not tile. A gap drawn over
    by the tiles' drop shadows is a soft step that :func:`refine_grid` can take into the tiles, and a gap is
    alike in every cell where the picture is not (session 50: game looks 55017 and 55018, whose shadowed 9.6
    and 13.9 px gaps were cut into the tiles, 55041 a 6.5 px gap with an inner light line). A side falls
    within the place where gap and tile blur together as far as that place differs like the tile beside it
    (56019: a 4.3 px gap cut whole to the pixel kept 0.8 px of it, and was refused). A side moves only
    when the tile shrinks by :data:`CONTENT_MOVE` or more (a thin gap blurred into the tiles looks alike
    in no cell: a grid that left it out is not grown over it), and the pitch never moves."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB"))
    columns = _content_axis(pixels, grid.columns, grid.rows)
    rows = _content_axis(pixels.transpose(1, 0, 2), grid.rows, grid.columns)
    return Grid(columns, rows)


def _content_axis(pixels: np.ndarray, axis: Axis, other: Axis) -> Axis:
    """:func:`content_grid` along one axis (``pixels`` with that axis as axis 1)."""
    import numpy as np

    period = round(axis.pitch)
    if axis.count < 2 or period < MIN_TILE:
        return axis
    offsets = np.arange(period)
    strips = []  # (cells, offsets, 3): the mean colour of every cell's strip at every place in the pitch
    for i in range(other.count):
        lo, hi = other.span(i)
        inset = 0.15 * other.tile
        band = pixels[max(0, round(lo + inset)) : max(1, round(hi - inset))].astype(np.float32)
        if len(band) == 0:
            return axis
        means = band.mean(axis=0)  # (x, 3)
        for j in range(axis.count):
            at = round(axis.span(j)[0]) + offsets  # (past the screenshot's edge: its last pixel)
            strips.append(means[np.clip(at, 0, len(means) - 1)])
    cells = np.stack(strips)
    deviation = np.sort(np.abs(cells - np.median(cells, axis=0)).sum(axis=2), axis=0)
    profile = deviation[: max(1, int(CONTENT_KEEP * len(cells)))].mean(axis=0)
    low = profile < CONTENT_LOW * float(np.median(profile))
    if low.all() or not low.any():
        return axis
    # the longest run of alike places, round the pitch (a gap can straddle the cells' first place)
    first = int(np.argmin(low))  # a place of content: runs start after it
    rolled = np.roll(low, -first)
    best_len, best_end, run = 0, 0, 0
    for k, alike in enumerate(rolled):
        run = run + 1 if alike else 0
        if run > best_len:
            best_len, best_end = run, k + 1
    after = (first + best_end) % period  # the first place of tile after the gap ...
    before = (first + best_end - best_len - 1) % period  # ... and the last before it
    level = float(np.roll(profile, -first)[best_end - best_len : best_end].mean())  # the gap's

    def tile_share(place: int, inner: int) -> float:  # of a place where gap and tile blur together
        rise = float(profile[inner % period]) - level
        return float(np.clip((profile[place] - level) / rise, 0.0, 1.0)) if rise > 0 else 1.0

    lead_in = 1.0 - tile_share(after, after + 1)  # gap at the start of the tile's first place
    tile = (before - after) % period + tile_share(before, before - 1) - lead_in
    gap = axis.pitch - tile
    start = round(axis.start) + after + lead_in
    if start - axis.start > axis.pitch / 2:
        start -= axis.pitch
    end = start + tile
    if tile < MIN_TILE or gap > min(MAX_GAP_PX, MAX_GAP_SHARE * axis.pitch) or tile > axis.tile - CONTENT_MOVE:
        return axis  # (a thin gap blurred into its tiles looks like neither: tiles are only ever cut back)
    if max(abs(start - axis.start), abs(end - axis.start - axis.tile)) > gap + CONTENT_MOVE:
        return axis  # (not the gap the grid found or took in, but a stripe of the picture alike in all cells)
    return replace(axis, start=start, tile=tile)


RECTANGLE_SIDE = 0.6  # share of a board rectangle's side that must lie on a straight edge
RECTANGLE_ALIKE_POWER = 4
HISTOGRAM_BINS = 4  # colour boxes per channel when rectangles are compared with a picture ...
HISTOGRAM_SIDE = 200  # ... counted on the screenshot shrunk to this many pixels a side ...
HISTOGRAM_IMAGE_PX = 1200  # ... or, past this many (a whole desktop), on a box cut out, shrunk alike
RECTANGLE_NEAR = 0.06  # rectangles whose sides are all this close (share of their size) are one
RECTANGLE_ASPECT = 0.08  # |log| of a rectangle's shape over the picture's (gaps widen a board a little)


def board_rectangles(
    image: PILImage.Image, aspect: float, keep: int, like: PILImage.Image | None = None
) -> list[tuple[float, float, float, float]]:
    """Up to ``keep`` rectangles ``(x0, y0, x1, y1)`` of ``aspect`` (width over height) whose four sides lie
    on straight edges, the straightest first or, given the picture the board shows (``like``), those whose
    colours are most like it times their size: where a board of a picture of that shape may be, its frame or its edge
    against the window, when no grid of tiles shows (inner lines as weak as the picture's own texture, or a
    hole showing the background). Boundaries, as :func:`_edge_maps`' columns and rows, are sub-pixel."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB"))
    vertical, horizontal = _edge_maps(pixels)
    cum_v = np.pad(vertical.cumsum(0), ((1, 0), (0, 0)))  # cum_v[y, x]: edge rows < y on column x
    cum_h = np.pad(horizontal.T.cumsum(0), ((1, 0), (0, 0)))
    xs, _ = _peaks(vertical.mean(axis=0), 0.02)
    ys, _ = _peaks(horizontal.mean(axis=1), 0.02)

    def share(cum: np.ndarray, at: float, lo: float, hi: float) -> float:
        k = round(at)
        a, b = max(0, round(lo)), min(cum.shape[0] - 1, round(hi))
        if b <= a:
            return 0.0
        return max(float(cum[b, j] - cum[a, j]) for j in (k - 1, k, k + 1) if 0 <= j < cum.shape[1]) / (b - a)

    found: list[tuple[float, float, tuple[float, float, float, float]]] = []  # (sides, their length, box)
    for i, x0 in enumerate(xs):
        for x1 in xs[i + 1 :]:
            if x1 - x0 < 2 * MIN_TILE:
                continue
            for k, y0 in enumerate(ys):
                for y1 in ys[k + 1 :]:
                    if (
                        y1 - y0 < 2 * MIN_TILE
                        or abs(math.log((x1 - x0) / (y1 - y0) / aspect)) > RECTANGLE_ASPECT
                    ):
                        continue
                    sides = (
                        share(cum_v, x0, y0, y1),
                        share(cum_v, x1, y0, y1),
                        share(cum_h, y0, x0, x1),
                        share(cum_h, y1, x0, x1),
                    )
                    if min(sides) >= RECTANGLE_SIDE:
                        # edges are found two pixels wide: the boundary is 1.5 px on
                        box = (float(x0) + 1.5, float(y0) + 1.5, float(x1) + 1.5, float(y1) + 1.5)
                        found.append((sum(sides), x1 - x0 + y1 - y0, box))
    if not found:
        return []
    boxes = np.array([box for _, _, box in found])
    order = sorted(range(len(found)), key=lambda i: (-found[i][0], -found[i][1]))  # straightest, then longest
    if like is not None:
        # the window and the desktop hold other colours than the picture; a block of tiles inside the board
        # holds the picture's colours too, but is smaller: colours alike (to a power: a rectangle larger
        # than the board by a strip of window is less alike) times size
        alike = _colour_overlaps(image, boxes, like)
        size = boxes[:, 2] - boxes[:, 0] + boxes[:, 3] - boxes[:, 1]
        order = [int(i) for i in np.argsort(-(alike**RECTANGLE_ALIKE_POWER) * size, kind="stable")]
    kept: list[tuple[float, float, float, float]] = []
    for i in order:  # one of each cluster of near-equal rectangles (a frame's two edges, a blur)
        box = found[i][2]
        near = RECTANGLE_NEAR * max(box[2] - box[0], box[3] - box[1])
        if all(max(abs(a - b) for a, b in zip(box, other, strict=True)) > near for other in kept):
            kept.append(box)
            if len(kept) == keep:
                break
    return kept


def _box_histograms(picture: PILImage.Image, boxes: np.ndarray | None) -> np.ndarray:
    """``(len(boxes), HISTOGRAM_BINS³)``: the share of the pixels of each box ``(x0, y0, x1, y1)`` of
    ``picture`` in each colour box (rows sum to 1); the whole picture when ``boxes`` is None. Counted on
    ``picture`` shrunk to at most :data:`HISTOGRAM_SIDE` pixels a side, from one summed table per colour."""
    import numpy as np
    from PIL import Image

    f = min(1.0, HISTOGRAM_SIDE / max(picture.width, picture.height))
    small = picture.convert("RGB").resize(
        (max(1, round(picture.width * f)), max(1, round(picture.height * f))), Image.Resampling.BOX
    )
    bins = np.asarray(small, dtype=np.int64) * HISTOGRAM_BINS // 256
    index = (bins[..., 0] * HISTOGRAM_BINS + bins[..., 1]) * HISTOGRAM_BINS + bins[..., 2]
    h, w = index.shape
    if boxes is None:
        boxes = np.array([[0.0, 0.0, picture.width, picture.height]])
    one_hot = (index[None] == np.arange(HISTOGRAM_BINS**3)[:, None, None]).astype(np.int32)
    table = np.zeros((HISTOGRAM_BINS**3, h + 1, w + 1), dtype=np.int32)
    table[:, 1:, 1:] = one_hot.cumsum(1).cumsum(2)
    x0 = np.clip(np.rint(boxes[:, 0] * f).astype(np.int64), 0, w)
    y0 = np.clip(np.rint(boxes[:, 1] * f).astype(np.int64), 0, h)
    x1 = np.clip(np.rint(boxes[:, 2] * f).astype(np.int64), 0, w)
    y1 = np.clip(np.rint(boxes[:, 3] * f).astype(np.int64), 0, h)
    counts = table[:, y1, x1] - table[:, y0, x1] - table[:, y1, x0] + table[:, y0, x0]  # (bins, boxes)
    return (counts / np.maximum(1, counts.sum(axis=0))).T  # type: ignore[no-any-return]


def colours_alike(image: PILImage.Image, box: Box, picture: PILImage.Image) -> float:
    """How alike in colour (0..1: the overlap of :func:`_box_histograms`) ``box`` of ``image`` and the
    whole of ``picture`` are. A screenshot larger than :data:`HISTOGRAM_IMAGE_PX` (a whole desktop) has the
    box cut out and counted at the scale such a screenshot is: shrunk whole to :data:`HISTOGRAM_SIDE`, a
    3840x2160 capture made a 229 px board 12 px of mixed colours, 0.55 alike its own game's preview (under
    ``PREVIEW_ALIKE``; bench 1001 on a 4K desktop), 0.76 cut out and shrunk so."""
    import numpy as np
    from PIL import Image

    if max(image.width, image.height) <= HISTOGRAM_IMAGE_PX:
        return float(_colour_overlaps(image, np.array([box]), picture)[0])
    x0, y0, x1, y1 = (round(v) for v in box)
    x0, y0 = min(max(0, x0), image.width - 1), min(max(0, y0), image.height - 1)
    cut = image.crop((x0, y0, max(x0 + 1, min(x1, image.width)), max(y0 + 1, min(y1, image.height))))
    f = HISTOGRAM_SIDE / HISTOGRAM_IMAGE_PX
    cut = cut.resize((max(1, round(cut.width * f)), max(1, round(cut.height * f))), Image.Resampling.BOX)
    return float(_colour_overlaps(cut, None, picture)[0])


def _colour_overlaps(image: PILImage.Image, boxes: np.ndarray | None, picture: PILImage.Image) -> np.ndarray:
    """For each box of ``boxes`` (rows ``x0, y0, x1, y1``; None: the whole of ``image``) of ``image``: the
    overlap (0..1) of its colours' histogram with the whole of ``picture``'s."""
    import numpy as np

    return np.minimum(_box_histograms(image, boxes), _box_histograms(picture, None)).sum(axis=1)  # type: ignore[no-any-return]


def _not_found(width: int | None, height: int | None) -> str:
    wanted = f"a {width}x{height} " if width and height else "a "
    return (
        f"could not find {wanted}grid of tiles in the screenshot; give the board's place with "
        "--crop X,Y,W,H (pixels) and its size with --size WxH"
    )


def draw_grid(
    image: PILImage.Image, grid: Grid, colour: tuple[int, int, int] = (255, 0, 64)
) -> PILImage.Image:
    """A copy of ``image`` with every cell of ``grid`` outlined and numbered (0-based, row-major)."""
    from PIL import ImageDraw

    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    line = max(1, round(min(grid.columns.tile, grid.rows.tile) / 40))
    for cell, (x0, y0, x1, y1) in enumerate(grid.cell_boxes()):
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=colour, width=line)
        draw.text((x0 + 3 * line, y0 + 2 * line), str(cell), fill=colour)
    return out


__all__ = [
    "Axis",
    "Grid",
    "GridNotFoundError",
    "boxes_meet",
    "colours_alike",
    "content_grid",
    "draw_grid",
    "locate_grid",
    "locate_grids",
    "outlined_boxes",
    "preview_boxes",
    "refine_grid",
]


# The hole as a ruler: the one cell the board draws flat, exactly one tile (or a tile and the gap around
# it, when the hole shows the board's background through the gaps), whatever the picture and its lines.
HOLE_FLAT = 8.0  # 0..255 RMS: a window of the screenshot this even in colour may lie inside the hole
HOLE_WINDOW = 8  # pixels: the side of those windows
HOLE_COLOUR = 16.0  # 0..255: at most this far (every channel) from the hole's colour is still hole ...
HOLE_NOISE = 4.0  # ... or this many times the seed window's RMS spread, plus 6, if that is further (to 24)
HOLE_RUNS = 9  # runs across the hole, each way, whose ends must mostly agree (a rectangle)
HOLE_RUN_AGREE = 3  # pixels: "agree"
HOLE_RUN_SHARE = 0.66  # share of the runs that must end together (a like-coloured tile lets a few leak)
HOLE_FILL = 0.93  # share of the rectangle's pixels of the hole's colour
HOLE_SEEDS = 40  # flat windows a search starts runs from, at most
HOLE_TRIES = 4  # fitted hypotheses per hole refined and regrown
GAP_ALIKE_PX = 1.5  # pixels, plus GAP_ALIKE_SHARE of the pitch: a fitted grid's gaps agree both ways
GAP_ALIKE_SHARE = 0.02
SIDES_BAR = 0.25  # a row or column of cells is added to a grid when their sides are this much steps ...
TEXTURE_SHARE = 0.35  # ... and they vary in colour this share as much as the grid's tiles (not flat frame)


def gaps_alike(grid: Grid) -> bool:
    """Whether ``grid``'s gaps are alike both ways (within :data:`GAP_ALIKE_PX` plus :data:`GAP_ALIKE_SHARE`
    of the pitch), as a board's are: refined axis by axis, a grid can take a gap or a frame's strip into its
    cells one way only."""
    return abs(grid.columns.gap - grid.rows.gap) <= GAP_ALIKE_PX + GAP_ALIKE_SHARE * grid.columns.pitch


def _rms_spread(block: np.ndarray) -> float:
    import numpy as np

    if block.size == 0:
        return 0.0
    flat = block.reshape(-1, 3).astype(np.float32)
    return float(np.sqrt(((flat - flat.mean(0)) ** 2).mean()))


def _run_through(line: np.ndarray, at: int) -> tuple[int, int]:
    """Start and end (exclusive) of the run of True in ``line`` through index ``at`` (empty when False)."""
    import numpy as np

    if not line[at]:
        return at, at
    outside = np.flatnonzero(~line[:at])
    lo = int(outside[-1]) + 1 if len(outside) else 0
    outside = np.flatnonzero(~line[at:])
    hi = at + int(outside[0]) if len(outside) else len(line)
    return lo, hi


Box = tuple[float, float, float, float]


def _flat_rectangle(pixels: np.ndarray, seed: tuple[int, int, int, int]) -> tuple[Box | None, Box]:
    """The rectangle of the seed window's colour around it, if the region is one, and the box the search
    looked at (a seed inside it would find the same region again). ``pixels``: int16 RGB (colours are
    subtracted from them)."""
    import numpy as np

    a0, b0, a1, b1 = seed
    block = pixels[b0:b1, a0:a1]
    tolerance = min(1.5 * HOLE_COLOUR, max(HOLE_COLOUR, HOLE_NOISE * _rms_spread(block) + 6))
    colour = np.median(block.reshape(-1, 3), axis=0).astype(np.int16)
    def mask(part: np.ndarray) -> np.ndarray:  # the pixels of the seed's colour (only those looked at)
        return np.abs(part - colour).max(axis=-1) <= tolerance  # type: ignore[no-any-return]

    sx, sy = (a0 + a1) // 2, (b0 + b1) // 2
    lx, hx = _run_through(mask(pixels[sy]), sx)  # a cross through the seed first ...
    ly, hy = _run_through(mask(pixels[:, sx]), sy)
    looked = (float(min(lx, a0)), float(min(ly, b0)), float(max(hx, a1)), float(max(hy, b1)))
    for _ in range(2):  # ... then runs across the middle half of the rectangle the cross spans
        if hx - lx < MIN_TILE or hy - ly < MIN_TILE:
            return None, looked
        sx, sy = (lx + hx) // 2, (ly + hy) // 2
        rows = np.linspace(ly + 0.25 * (hy - ly), hy - 0.25 * (hy - ly), HOLE_RUNS).astype(int)
        columns = np.linspace(lx + 0.25 * (hx - lx), hx - 0.25 * (hx - lx), HOLE_RUNS).astype(int)
        across = np.array([_run_through(mask(pixels[y]), sx) for y in rows])
        down = np.array([_run_through(mask(pixels[:, x]), sy) for x in columns])
        ends = []
        for end in (across[:, 0], across[:, 1], down[:, 0], down[:, 1]):
            typical = int(np.median(end))
            if np.mean(np.abs(end - typical) <= HOLE_RUN_AGREE) < HOLE_RUN_SHARE:
                return None, looked
            ends.append(typical)
        lx, hx, ly, hy = ends
    if hx - lx < MIN_TILE or hy - ly < MIN_TILE or mask(pixels[ly:hy, lx:hx]).mean() < HOLE_FILL:
        return None, looked
    rectangle = (float(lx), float(ly), float(hx), float(hy))
    return (rectangle if 0.5 <= (hx - lx) / (hy - ly) <= 2.0 else None), rectangle



def _flat_windows(part: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The windows of :data:`HOLE_WINDOW` px a side, half a side apart, over ``part`` (float64 RGB): their
    left and top edges (``xs``, ``ys``, raveled), RMS colour spread and mean colour (``(k, 3)``)."""
    import numpy as np

    side = HOLE_WINDOW

    def integral(a: np.ndarray) -> np.ndarray:
        out = np.zeros((a.shape[0] + 1, a.shape[1] + 1, 3))
        out[1:, 1:] = a.cumsum(0).cumsum(1)
        return out

    ys, xs = np.meshgrid(np.arange(0, part.shape[0] - side + 1, side // 2),
                         np.arange(0, part.shape[1] - side + 1, side // 2), indexing="ij")  # fmt: skip

    def window_sums(c: np.ndarray) -> np.ndarray:
        return c[ys + side, xs + side] - c[ys, xs + side] - c[ys + side, xs] + c[ys, xs]  # type: ignore[no-any-return]

    count = side * side
    mean = window_sums(integral(part)) / count
    variance = (window_sums(integral(part * part)) / count - mean**2).mean(-1)
    spread = np.sqrt(np.maximum(variance, 0.0)).ravel()
    return xs.ravel(), ys.ravel(), spread, mean.reshape(-1, 3)


def hole_rectangles(image: PILImage.Image, near: Sequence[Grid]) -> list[Box]:
    """Rectangles of one flat colour in and around the grids ``near`` (``(x0, y0, x1, y1)``, end exclusive):
    where a board's hole may be. Searched from the flattest small windows out; window chrome and frames
    are flat too but not rectangles of a tile's size, and are passed over."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB"))
    h_px, w_px = pixels.shape[:2]
    if not near:
        return []
    pad = 0.5 * max(max(g.columns.pitch, g.rows.pitch) for g in near)
    x_lo = max(0, int(min(g.box[0] for g in near) - pad))
    y_lo = max(0, int(min(g.box[1] for g in near) - pad))
    x_hi = min(w_px, int(max(g.box[2] for g in near) + pad))
    y_hi = min(h_px, int(max(g.box[3] for g in near) + pad))
    part = pixels[y_lo:y_hi, x_lo:x_hi].astype(np.float64)
    side = HOLE_WINDOW
    if part.shape[0] < side or part.shape[1] < side:
        return []
    xs, ys, spread, _ = _flat_windows(part)
    centre_x, centre_y = xs + x_lo + side / 2, ys + y_lo + side / 2
    inside = np.zeros(len(spread), dtype=bool)
    for grid in near:
        x0, y0, x1, y1 = grid.box
        inside |= (centre_x >= x0) & (centre_x < x1) & (centre_y >= y0) & (centre_y < y1)
    wide = pixels.astype(np.int16)
    looked: list[Box] = []
    found: list[Box] = []
    seeds = 0
    # windows on the located grids first (the window's chrome is flatter than a compressed hole)
    flat = np.flatnonzero(spread <= HOLE_FLAT)
    for k in flat[np.lexsort((spread[flat], ~inside[flat]))]:
        if seeds >= HOLE_SEEDS:
            break
        x, y = int(xs[k]) + x_lo, int(ys[k]) + y_lo
        cx, cy = x + side / 2, y + side / 2
        if any(a <= cx < c and b <= cy < d for a, b, c, d in looked):
            continue
        seeds += 1
        rectangle, box = _flat_rectangle(wide, (x, y, x + side, y + side))
        looked.append(box)
        if rectangle is not None and rectangle not in found:
            found.append(rectangle)
    return found


HOLE_COLOUR_BIN = 24.0  # 0..255: flat windows whose mean colours fall in one box this wide are one colour


def rare_flat_rectangles(image: PILImage.Image) -> list[Box]:
    """Rectangles of one flat colour anywhere in ``image``, as :func:`hole_rectangles` finds them, but
    seeded once per colour, the colours that fewest flat windows show first (at most
    :data:`HOLE_SEEDS` seeds). On a board of numbered tiles with flat faces of one colour the faces are
    most of the flat windows, and a search from the flattest out spends every seed on them (or on the
    window around the board) before it reaches the hole, a colour seen over one tile only."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB"))
    side = HOLE_WINDOW
    if pixels.shape[0] < side or pixels.shape[1] < side:
        return []
    xs, ys, spread, mean = _flat_windows(pixels.astype(np.float64))
    flat = np.flatnonzero(spread <= HOLE_FLAT)
    if not len(flat):
        return []
    colours = np.floor(mean[flat] / HOLE_COLOUR_BIN).astype(np.int64) @ np.array([1 << 16, 1 << 8, 1])
    keys, counts = np.unique(colours, return_counts=True)
    seeds = []
    for key in keys[np.argsort(counts, kind="stable")][:HOLE_SEEDS]:
        members = flat[colours == key]
        seeds.append(int(members[np.argmin(spread[members])]))
    wide = pixels.astype(np.int16)
    found: list[Box] = []
    for k in seeds:
        x, y = int(xs[k]), int(ys[k])
        rectangle, _ = _flat_rectangle(wide, (x, y, x + side, y + side))
        if rectangle is not None and rectangle not in found:
            found.append(rectangle)
    return found


def _axis_holds(axis: Axis, lo: float, hi: float) -> bool:
    tolerance = 2.0 + 0.05 * axis.pitch
    gap = max(0.0, axis.gap)
    return any(lo - tolerance <= a <= lo + gap + tolerance and hi - gap - tolerance <= b <= hi + tolerance
               for a, b in map(axis.span, range(axis.count)))  # fmt: skip


def holds_hole(grid: Grid, hole: Box) -> bool:
    """Whether one cell of ``grid`` is ``hole``: the same rectangle, or inside it by at most the gap."""
    x0, y0, x1, y1 = hole
    return _axis_holds(grid.columns, x0, x1) and _axis_holds(grid.rows, y0, y1)


SIDES = ("left", "right", "top", "bottom")  # the sides of a grid, as grid_beyond and grid_grown name them


def grid_beyond(grid: Grid, side: str) -> Grid:
    """The one column or row of cells just past ``grid`` at ``side`` (one of :data:`SIDES`)."""
    c, r = grid.columns, grid.rows
    if side in ("left", "right"):
        return Grid(replace(c, start=c.start - c.pitch if side == "left" else c.start + c.count * c.pitch, count=1), r)
    return Grid(c, replace(r, start=r.start - r.pitch if side == "top" else r.start + r.count * r.pitch, count=1))


BEYOND_SIDES = (0.8, 1.1, 7)  # a column or row placed past a grid loosely: tile sides from/to this share ...
BEYOND_SLACK = 2.0  # ... starting from the grid's edge out to one gap and this many pixels further


def grids_beyond(grid: Grid, side: str) -> list[Grid]:
    """One column or row of cells past ``grid`` at ``side`` placed every way a grid whose pitch is a few
    pixels off could have missed it: starting from the grid's outer edge out to one gap and
    :data:`BEYOND_SLACK` px further, 1 px apart, with tiles :data:`BEYOND_SIDES` of the grid's tile side
    wide (:func:`grid_beyond`'s placement among them)."""
    import numpy as np

    c, r = grid.columns, grid.rows
    axis = c if side in ("left", "right") else r
    gap = max(0.0, axis.gap)
    offsets = sorted({*np.arange(0.0, gap + BEYOND_SLACK + 1e-9, 1.0).tolist(), gap})
    lo, hi, count = BEYOND_SIDES
    sides = sorted({*np.linspace(lo * axis.tile, hi * axis.tile, count).tolist(), axis.tile})
    out = []
    for offset in offsets:
        for tile in sides:
            start = axis.start - offset - tile if side in ("left", "top") else axis.end + offset
            placed = Axis(start, tile + gap, tile, 1)
            out.append(Grid(placed, r) if side in ("left", "right") else Grid(c, placed))
    return out


def grid_grown(grid: Grid, side: str) -> Grid:
    """``grid`` with one more column or row of cells at ``side`` (one of :data:`SIDES`)."""
    c, r = grid.columns, grid.rows
    if side in ("left", "right"):
        return Grid(replace(c, start=c.start - c.pitch if side == "left" else c.start, count=c.count + 1), r)
    return Grid(c, replace(r, start=r.start - r.pitch if side == "top" else r.start, count=r.count + 1))


OUTLINE_LINES = 12  # strongest lines per axis whose pairs may be a board's outer sides ...
OUTLINE_LINE_MIN = 0.02  # ... among those straight over at least this share of the screenshot
OUTLINE_SIZES = range(2, 9)  # tiles per side an outline is cut into
OUTLINE_SQUARE = 0.04  # |relative difference| of an outline's cells' width and height


def outline_grids(
    image: PILImage.Image, keep: int, seams: tuple[np.ndarray, np.ndarray] | None = None
) -> list[Grid]:
    """Up to ``keep`` grids cut evenly into square cells between two strong lines each way (a board's outer
    sides against its frame or the window), the most tile-like first (:func:`grid_score`), each refined
    (:func:`refine_grid`). For boards whose inner lines drown in the picture's texture (touching tiles of a
    shaded relief: dev seeds 121, 338), where :func:`locate_grid` finds a finer grid of the texture; a
    busy picture can make a board cut finer than it is score best here too (see :func:`coarser_grids`)."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB"))
    vertical, horizontal = _edge_maps(pixels)

    def axes(edges: np.ndarray) -> list[tuple[float, Axis]]:  # (pitch, axis), by pitch
        pos, strength = _peaks(_profile(edges, 0, edges.shape[0]), OUTLINE_LINE_MIN)
        if len(pos) > OUTLINE_LINES:
            pos = pos[np.sort(np.argsort(-strength)[:OUTLINE_LINES])]
        out = []
        for i, first in enumerate(pos):
            for last in pos[i + 1 :]:
                for n in OUTLINE_SIZES:
                    pitch = float(last - first) / n
                    if pitch >= MIN_TILE:  # edges are found two pixels wide: the boundary is 1.5 px on
                        out.append((pitch, Axis(float(first) + 1.5, pitch, pitch, n)))
        return sorted(out, key=lambda pa: pa[0])

    columns = axes(vertical)
    rows = axes(np.ascontiguousarray(horizontal.T))
    row_pitches = np.array([pitch for pitch, _ in rows])
    grids = []
    for pitch, cols in columns:
        lo = int(np.searchsorted(row_pitches, pitch * (1 - OUTLINE_SQUARE)))
        hi = int(np.searchsorted(row_pitches, pitch * (1 + OUTLINE_SQUARE)))
        grids.extend(Grid(cols, axis) for _, axis in rows[lo:hi])
    if not grids:
        return []
    scores = _grids_score(seams if seams is not None else _seam_maps(pixels), grids)
    out: list[Grid] = []
    for k in np.argsort(-scores, kind="stable"):
        grid = refine_grid(image, grids[int(k)], any_gap=True)
        if grid not in out:
            out.append(grid)
            if len(out) == keep:
                break
    return out


def coarser_grids(grid: Grid) -> list[Grid]:
    """``grid`` cut ``k`` times coarser both ways (``k`` dividing its width and its height, at least 2x2
    left), the cells touching (:func:`refine_grid` finds any gaps): the board a grid of quarter tiles (or
    ninths) was cut from."""
    c, r = grid.columns, grid.rows
    out = []
    for k in range(2, min(c.count, r.count) // 2 + 1):
        if c.count % k == 0 and r.count % k == 0:
            columns = Axis(c.start, c.pitch * k, c.pitch * (k - 1) + c.tile, c.count // k, c.score)
            rows = Axis(r.start, r.pitch * k, r.pitch * (k - 1) + r.tile, r.count // k, r.score)
            out.append(Grid(columns, rows))
    return out


SQUARE_PX = 1.5  # pixels: axes whose pitches differ by more than this are not yet a grid of square tiles


def square_grids(grid: Grid) -> list[Grid]:
    """``grid`` with one axis re-cut to the other's pitch and tile size (each way round), over the same
    middle and as many tiles as fit its span: most games cut square tiles, and an axis found on a frame's
    or the window's lines instead of the tiles' (a pitch a few pixels off, or rows merged in pairs) is
    told by the other axis what its tiles are. Empty when the tiles already are square."""
    c, r = grid.columns, grid.rows
    if abs(c.pitch - r.pitch) <= SQUARE_PX:
        return []

    def recut(axis: Axis, like: Axis) -> Axis | None:
        count = round((axis.end - axis.start + like.gap) / like.pitch)
        if count < 2 or count > MAX_TILES:
            return None
        middle = (axis.start + axis.end) / 2
        start = middle - ((count - 1) * like.pitch + like.tile) / 2
        return Axis(start, like.pitch, like.tile, count, axis.score)

    out = []
    rows = recut(r, c)
    if rows is not None:
        out.append(Grid(c, rows))
    columns = recut(c, r)
    if columns is not None:
        out.append(Grid(columns, r))
    return out


def _cell_spreads(pixels: np.ndarray, grid: Grid) -> np.ndarray:
    import numpy as np

    spreads = []
    for x0, y0, x1, y1 in grid.cell_boxes():
        ix, iy = 0.15 * (x1 - x0), 0.15 * (y1 - y0)
        spreads.append(_rms_spread(pixels[max(0, round(y0 + iy)) : max(0, round(y1 - iy)),
                                          max(0, round(x0 + ix)) : max(0, round(x1 - ix))]))  # fmt: skip
    return np.array(spreads)


def _grown_over_tiles(seams: tuple[np.ndarray, np.ndarray], pixels: np.ndarray, grid: Grid) -> Grid:
    """``grid`` grown a row or column at a time, at the side whose new cells look most like tiles (sides
    that are steps, colours that vary like the grid's tiles: not a flat frame or window), while any do."""
    import numpy as np

    h_px, w_px = pixels.shape[:2]
    while True:
        spreads = np.sort(_cell_spreads(pixels, grid))
        texture = float(np.median(spreads[1:])) if len(spreads) > 1 else 2 * HOLE_FLAT / TEXTURE_SHARE
        counts = {"left": grid.width, "right": grid.width, "top": grid.height, "bottom": grid.height}
        best: tuple[float, Grid] | None = None
        for side in SIDES:
            if counts[side] >= MAX_TILES:
                continue
            added = grid_beyond(grid, side)
            x0, y0, x1, y1 = added.box
            if x0 < -1 or y0 < -1 or x1 > w_px + 1 or y1 > h_px + 1:
                continue
            sides = float(np.median(_box_scores(seams, np.array(added.cell_boxes(), dtype=np.float64))))
            varied = float(np.median(_cell_spreads(pixels, added)))
            if sides >= SIDES_BAR and varied >= TEXTURE_SHARE * texture and (best is None or sides > best[0]):
                best = (sides, grid_grown(grid, side))
        if best is None:
            return grid
        grid = best[1]


def hole_cells(hole: Box, gaps: Iterable[float]) -> list[Grid]:
    """One-cell grids, for each of ``gaps``, with ``hole`` as the tile, and (gaps over zero) as the tile with
    the gap around it, as wide as the gap; none whose tile is under :data:`MIN_TILE`. Where a board's
    grid may lie when the hole is all that shows its tiles' size."""
    x0, y0, x1, y1 = hole
    out = []
    for gap in gaps:
        for inset in (0.0, gap) if gap else (0.0,):
            tile_w, tile_h = x1 - x0 - 2 * inset, y1 - y0 - 2 * inset
            if min(tile_w, tile_h) >= MIN_TILE:
                out.append(Grid(Axis(x0 + inset, tile_w + gap, tile_w, 1), Axis(y0 + inset, tile_h + gap, tile_h, 1)))
    return out


def grids_around_hole(
    image: PILImage.Image,
    hole: Box,
    located: Sequence[Grid] = (),
    seams: tuple[np.ndarray, np.ndarray] | None = None,
) -> list[tuple[float, Grid]]:
    """Grids with ``hole`` as one cell, best scoring first (as :func:`locate_grid` scores them): the hole is
    one tile, or one tile and the gap around it, for every gap up to :data:`MAX_GAP_PX` (and those of the
    ``located`` grids); each grows from the hole over the cells that look like tiles, and the best few
    are refined (:func:`refine_grid`) and grown again. For boards whose lines the picture drowns (touching
    tiles, a picture with lines of its own), where the hole still shows one tile's size."""
    import numpy as np

    pixels = np.asarray(image.convert("RGB"))
    if seams is None:  # (the screenshot's, as a reader may have them already)
        seams = _seam_maps(pixels)
    gaps = sorted({float(g) for g in range(int(MAX_GAP_PX) + 1)}
                  | {round(max(0.0, g.columns.gap), 1) for g in located})  # fmt: skip
    first: list[tuple[float, Grid]] = []
    for seed in hole_cells(hole, gaps):
        grid = _grown_over_tiles(seams, pixels, seed)
        if grid.width >= 2 and grid.height >= 2:
            first.append((float(_grids_score(seams, [grid])[0]), grid))
    first.sort(key=lambda sg: -sg[0])
    out: dict[Grid, float] = {}
    for _, grid in first[:HOLE_TRIES]:
        for _ in range(2):
            grid = _grown_over_tiles(seams, pixels, refine_grid(image, grid))
        # refined axis by axis, a grid can take the gaps into its cells one way only (the gaps of a board
        # are alike both ways: dev seed 139, columns cut gap and tile together, read wrong)
        if grid.width >= 2 and grid.height >= 2 and gaps_alike(grid) and holds_hole(grid, hole):
            out[grid] = float(_grids_score(seams, [grid])[0])
    return sorted(((s, g) for g, s in out.items()), key=lambda sg: -sg[0])


# A preview: many picture puzzles show the finished picture, small, beside the board. On a plain window it
# is a block of busy pixels, or of colours unlike the window's, apart from the board, its sides straight edges.
PREVIEW_JOINS = (1, 3)  # pixels: straight edges this close are one outline (a dark corner breaks it: 42015)
PREVIEW_MIN_SIDE = 12  # pixels a preview must have each way, at least (two pieces of 6)
PREVIEW_MAX_SHAPE = 3.0  # a preview is at most this many times wider than high, or higher than wide
PREVIEW_FILL = 0.3  # share of a block's 8-pixel squares holding a busy pixel, at least: a picture fills its box
PREVIEW_NEAR = 4  # pixels: boxes whose sides are all this close are one
PREVIEW_SNAP = 16  # pixels: how far a side moves onto a straight edge (JPEG's colour ringing spreads 16 px)


def preview_boxes(
    image: PILImage.Image, avoid: Sequence[Box], keep: int, outlined: list[Box] | None = None
) -> list[Box]:
    """Up to ``keep`` boxes ``(x0, y0, x1, y1)``, largest first, of :func:`outlined_boxes` (``outlined``, if
    worked out already) meeting none of the ``avoid`` boxes (the board), one of each near-equal few: where a
    game may show its finished picture. A block touching the board is not found."""
    kept: list[Box] = []
    for box in outlined_boxes(image) if outlined is None else outlined:
        if any(boxes_meet(box, b) for b in avoid):
            continue
        if all(max(abs(a - b) for a, b in zip(box, other, strict=True)) > PREVIEW_NEAR for other in kept):
            kept.append(box)  # one of near-equal boxes (two joins, a frame)
            if len(kept) == keep:
                break
    return kept


def outlined_boxes(image: PILImage.Image) -> list[Box]:
    """Boxes ``(x0, y0, x1, y1)``, largest first, outlined by straight edges (as :func:`_edge_maps` finds
    them, joined across gaps of up to :data:`PREVIEW_JOINS` pixels) and filled with busy pixels (colour steps
    of :data:`EDGE_STEP`) or colours unlike the window around them, at least :data:`PREVIEW_MIN_SIDE` a side
    and at most :data:`PREVIEW_MAX_SHAPE` times longer one way; then, largest first, those outlined by edges
    that touch, found no other way. A JPEG's ringing beside a preview's side can join its outline to the
    window's title bar 13 px away (bench "picture, preview shown" seed 4: no preview was found, and the
    seams' reading, its missing piece assumed at a corner, came back wrong with exit 0)."""
    import numpy as np
    from scipy import ndimage

    pixels = np.asarray(image.convert("RGB"))
    dx, dy = _steps(pixels)
    busy = np.zeros(pixels.shape[:2], dtype=bool)
    # a step between pixels i and i+1 marks both (pixels two apart compared)
    busy[:, 1:-1] |= dx > EDGE_STEP
    busy[1:-1] |= dy > EDGE_STEP
    vertical, horizontal = _edge_maps(pixels, (dx, dy))
    straight = np.zeros(pixels.shape[:2], dtype=bool)
    straight[:, 1:-1] |= vertical
    straight[1:-1] |= horizontal
    squares = _squares(pixels, busy)
    by_join: dict[Box, float] = {}  # outlines joined across gaps
    by_touch: dict[Box, float] = {}  # outlines of edges that touch
    for join in (*PREVIEW_JOINS, 0):
        found = by_touch if join == 0 else by_join
        # iterations=0 would dilate until nothing changes
        edges = ndimage.binary_dilation(straight, iterations=join) if join else straight
        labels, _ = ndimage.label(edges, structure=np.ones((3, 3), dtype=bool))
        for where in ndimage.find_objects(labels):
            if where is None:
                continue
            y0, y1, x0, x1 = where[0].start, where[0].stop - 1, where[1].start, where[1].stop - 1
            if min(y1 - y0, x1 - x0) < PREVIEW_MIN_SIDE or _filled(pixels, squares, x0, y0, x1, y1) < PREVIEW_FILL:
                continue
            left = _snapped(vertical, x0, y0, y1, +1)
            right = _snapped(vertical, x1, y0, y1, -1)
            top = _snapped(horizontal.T, y0, x0, x1, +1)
            bottom = _snapped(horizontal.T, y1, x0, x1, -1)
            w, h = right - left, bottom - top
            if min(w, h) < PREVIEW_MIN_SIDE or abs(math.log(w / h)) > math.log(PREVIEW_MAX_SHAPE):
                continue
            found[(left, top, right, bottom)] = w * h
    touching = {box: area for box, area in by_touch.items() if box not in by_join}
    return sorted(by_join, key=lambda box: -by_join[box]) + sorted(touching, key=lambda box: -touching[box])


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether boxes ``(x0, y0, x1, y1)`` ``a`` and ``b`` share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _filled(pixels: np.ndarray, blocks: tuple[np.ndarray, np.ndarray], x0: int, y0: int, x1: int, y1: int) -> float:
    """The share of the 8-pixel squares (``blocks``: whether each holds a busy pixel, and its mean colour)
    under a block of ``pixels`` that hold a busy pixel or are unlike in colour the ring of pixels around the
    block (a smooth picture has few busy pixels, but is not the window: color.png, 42015)."""
    import numpy as np

    h, w = pixels.shape[:2]
    ring = np.concatenate([pixels[max(0, y0 - 3), x0 : x1 + 1], pixels[min(h - 1, y1 + 3), x0 : x1 + 1],
                           pixels[y0 : y1 + 1, max(0, x0 - 3)], pixels[y0 : y1 + 1, min(w - 1, x1 + 3)]])  # fmt: skip
    rows, columns = slice(y0 // 8, y1 // 8 + 1), slice(x0 // 8, x1 // 8 + 1)
    busy, means = blocks[0][rows, columns], blocks[1][rows, columns]
    unlike = np.abs(means - np.median(ring, axis=0)).max(axis=2) > EDGE_STEP
    return float((busy | unlike).mean())


def _squares(pixels: np.ndarray, busy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per 8-pixel square of the image: whether it holds a busy pixel, and its mean colour."""
    import numpy as np

    h, w = busy.shape
    h8, w8 = -(-h // 8), -(-w // 8)
    padded = np.zeros((h8 * 8, w8 * 8), dtype=bool)
    padded[:h, :w] = busy
    colours = np.zeros((h8 * 8, w8 * 8, 3), dtype=np.float32)
    colours[:h, :w] = pixels
    return padded.reshape(h8, 8, w8, 8).any(axis=(1, 3)), colours.reshape(h8, 8, w8, 8, 3).mean(axis=(1, 3))


def _snapped(edges: np.ndarray, at: int, lo: int, hi: int, inward: int) -> float:
    """The boundary (sub-pixel, as :func:`board_rectangles` gives it) of a block's side first marked busy at
    column ``at`` (rows ``lo..hi``): the first straight edge of ``edges`` from there up to
    :data:`PREVIEW_SNAP` pixels ``inward`` (+1: rightwards), else the mark itself."""
    import numpy as np

    columns = [c for c in (at - 1 + inward * k for k in range(PREVIEW_SNAP + 1)) if 0 <= c < edges.shape[1]]
    if not columns or hi <= lo:
        return at + 0.5 + 0.5 * inward
    share = np.array([edges[lo:hi, c].mean() for c in columns])
    if share.max() < RECTANGLE_SIDE:
        return at + 0.5 + 0.5 * inward
    on = share >= share.max() - 0.1
    first = int(np.argmax(on))
    last = first
    while last + 1 < len(columns) and on[last + 1]:
        last += 1
    return (columns[first] + columns[last]) / 2 + 1.5  # an edge is marked on the two columns before a step
