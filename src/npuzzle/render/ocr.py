"""Reading the numbers on numbered tiles with Tesseract (Debian's ``tesseract-ocr``, English data).

Why Tesseract: it installs from the distribution (``apt-get install tesseract-ocr``, about 30 MB with the
English data) and reads printed digits reliably once they are clean black on white. It is called as a
program (``tesseract LIST stdout --psm 7 tsv``) through :mod:`subprocess`, which is all the pytesseract
wrapper would do; ``LIST`` names one image per cell, so one process reads the whole board.

Method (:func:`read_numbers`)
    Each cell is cut a little inside its box; its *face* colour is the median colour of the cut (the face
    fills most of it, even when the grid found is a few pixels off and the border shows the gap), and each
    pixel's *inkness* is how far it is from the face (max over channels), so light digits on dark tiles and
    dark digits on light tiles come out alike. Pixels more than :data:`INK_STEP` from the face are ink; ink
    touching the cut's border (a grid line, a bevel, the next tile when the grid is a little off) is not part
    of the number. A cell with almost no number ink is empty (the hole). The inkness around the number is
    cut out, scaled up smoothly to a fixed digit height and only then binarised (Otsu's threshold), so small
    digits keep smooth strokes instead of blocky pixels. Every cell is read at two digit heights
    (:data:`DIGIT_HEIGHTS`, single-line mode, no whitelist: with a digits-only whitelist Tesseract drops many
    a lone 8); the cells whose two readings differ get a third look (:data:`THIRD_LOOK`). A number both
    first looks agree on is *sure*; any other cell keeps every number it was read as (``candidates``) for the
    caller, who knows that the board holds each number 1..N-1 once.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .image import PictureError

if TYPE_CHECKING:  # pragma: no cover
    from PIL import Image as PILImage

INK_STEP = 60.0  # 0..255 (max over channels): a pixel this far from the tile's face colour is ink
EMPTY_INK = 0.004  # a cell with less number ink than this share of its pixels is empty
INSET = 0.1  # share of each side of a cell left out (bevels, gaps)
TIMEOUT = 120  # seconds for one Tesseract run (every cell of a board)
DIGIT_HEIGHTS = (40, 32)  # pixels: the two first looks scale the number to these heights
THIRD_LOOK = (56, True)  # digit height and digits-only whitelist of the look that settles a disagreement
INK_MARGIN = 2  # pixels of the cell kept around the number's ink before scaling
# shapes Tesseract (no whitelist) gives for digits in DejaVu-like fonts: 1 as l/I/|, 0 as O, 8 as B, 5 as S
LOOKALIKES = str.maketrans({"l": "1", "I": "1", "|": "1", "i": "1", "O": "0", "o": "0", "B": "8", "S": "5"})


class OcrUnavailableError(PictureError):
    """Tesseract is not installed."""


@dataclass(frozen=True)
class NumberReading:
    """Per cell: the number read (``None`` for an empty cell or no sure reading) and a confidence 0..1;
    ``candidates`` per cell: every number some look read there (empty tuples when not given)."""

    numbers: tuple[int | None, ...]
    confidence: tuple[float, ...]
    empty: tuple[int, ...]  # cells with no ink
    candidates: tuple[tuple[int, ...], ...] = ()

    def candidates_of(self, cell: int) -> tuple[int, ...]:
        return self.candidates[cell] if self.candidates else ()


def tesseract_path() -> str:
    path = shutil.which("tesseract")
    if path is None:
        raise OcrUnavailableError(
            "reading numbered tiles needs Tesseract OCR: install it with 'apt-get install tesseract-ocr' "
            "(or give --reference for picture tiles)"
        )
    return path


def _inkness(cell: PILImage.Image):  # -> np.ndarray (float32, height x width)
    import numpy as np

    a = np.asarray(cell.convert("RGB")).astype(np.float32)
    face = np.median(a.reshape(-1, 3), axis=0)  # the face fills most of a cell, whatever its border shows
    return np.abs(a - face).max(axis=2)


def ink_mask(cell: PILImage.Image) -> PILImage.Image:
    """``cell`` as black ink on white: pixels far from the face colour (median of the border) are ink."""
    import numpy as np
    from PIL import Image

    return Image.fromarray(np.where(_inkness(cell) > INK_STEP, 0, 255).astype(np.uint8), "L")


def number_ink(inkness):  # (np.ndarray) -> np.ndarray of bool
    """The ink of the number: ink pixels in connected blobs that do not touch the border."""
    import numpy as np
    from scipy import ndimage

    ink = inkness > INK_STEP
    labels, n_blobs = ndimage.label(ink)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    inner = np.setdiff1d(np.arange(1, n_blobs + 1), edge)
    return np.isin(labels, inner)


def _otsu(values) -> float:  # (np.ndarray) -> threshold
    """Otsu's threshold of ``values`` (the one that best splits them into two classes)."""
    import numpy as np

    top = float(values.max()) + 1e-6
    hist, edges = np.histogram(values, bins=256, range=(0.0, top))
    p = hist / max(1, hist.sum())
    w = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    with np.errstate(divide="ignore", invalid="ignore"):
        between = (mu[-1] * w - mu) ** 2 / (w * (1 - w))
    return float(edges[int(np.nanargmax(between)) + 1])


def digit_image(inkness, number, height: int) -> PILImage.Image:
    """The number (``number``: its ink, from :func:`number_ink`) black on white, ``height`` px tall, with a
    white margin of half that: the inkness near the number cut out, scaled smoothly, then binarised."""
    import numpy as np
    from PIL import Image
    from scipy import ndimage

    rows, cols = np.flatnonzero(number.any(axis=1)), np.flatnonzero(number.any(axis=0))
    near = ndimage.binary_dilation(number, iterations=INK_MARGIN)
    r0, r1 = max(0, rows[0] - INK_MARGIN), min(number.shape[0], rows[-1] + 1 + INK_MARGIN)
    c0, c1 = max(0, cols[0] - INK_MARGIN), min(number.shape[1], cols[-1] + 1 + INK_MARGIN)
    cut = np.where(near, inkness, 0.0)[r0:r1, c0:c1].astype(np.float32)
    scale = height / (rows[-1] + 1 - rows[0])
    size = (max(1, round(cut.shape[1] * scale)), max(1, round(cut.shape[0] * scale)))
    smooth = np.asarray(Image.fromarray(cut).resize(size, Image.Resampling.BICUBIC))
    binary = np.where(smooth > _otsu(smooth), 0, 255).astype(np.uint8)
    pad = height // 2
    page = Image.new("L", (binary.shape[1] + 2 * pad, binary.shape[0] + 2 * pad), 255)
    page.paste(Image.fromarray(binary, "L"), (pad, pad))
    return page


def _run_pages(pages: list[PILImage.Image], whitelist: bool) -> list[list[tuple[str, float]]]:
    """Per page, the words Tesseract reads in single-line mode: ``(text, confidence 0..1)``."""
    if not pages:
        return []
    exe = tesseract_path()
    extra = ["-c", "tessedit_char_whitelist=0123456789"] if whitelist else []
    with tempfile.TemporaryDirectory(prefix="npuzzle-ocr-") as tmp:
        names = []
        for index, page in enumerate(pages):
            name = Path(tmp) / f"cell{index:04d}.png"
            page.save(name)
            names.append(str(name))
        listing = Path(tmp) / "cells.txt"
        listing.write_text("\n".join(names) + "\n")
        try:
            done = subprocess.run(
                [exe, str(listing), "stdout", "--psm", "7", "-l", "eng", *extra, "tsv"],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise PictureError(f"Tesseract took over {TIMEOUT} s to read the tiles") from None
    if done.returncode != 0:
        raise OcrUnavailableError(f"Tesseract failed: {' '.join(done.stderr.split())[:300]}")
    words: list[list[tuple[str, float]]] = [[] for _ in pages]
    for line in done.stdout.splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) < 12 or not parts[11].strip():
            continue
        page = int(parts[1]) - 1  # page_num counts from 1
        if 0 <= page < len(pages):
            words[page].append((parts[11].strip(), max(0.0, float(parts[10])) / 100))
    return words


def number_of(words: list[tuple[str, float]]) -> tuple[int | None, float]:
    """The number a look's words spell (look-alike letters taken as digits; one number split in two words
    joined), with the lowest word confidence; ``None`` when they spell anything else."""
    texts = [text.translate(LOOKALIKES) for text, _ in words]
    if not texts or len(texts) > 2 or not all(t.isdigit() for t in texts):
        return None, 0.0
    return int("".join(texts)), min(conf for _, conf in words)


def _number_of_cell(cell: PILImage.Image):  # -> (inkness, number ink), both height x width arrays
    w, h = cell.size
    inner = cell.crop((round(w * INSET), round(h * INSET), round(w * (1 - INSET)), round(h * (1 - INSET))))
    inkness = _inkness(inner)
    return inkness, number_ink(inkness)


def empty_cells(cells: list[PILImage.Image]) -> list[int]:
    """The cells with (almost) no number on them, as :func:`read_numbers` finds them, without any OCR."""
    return [index for index, cell in enumerate(cells) if _number_of_cell(cell)[1].mean() < EMPTY_INK]


def _number_extent(cell: PILImage.Image) -> NumberExtent | None:
    """The box ``(x0, y0, x1, y1)`` round ``cell``'s number ink and the ``(height, width)`` of the cut it
    lies in (the cell :data:`INSET` in from its sides), in pixels; None for an empty cell."""
    import numpy as np

    _, number = _number_of_cell(cell)
    if number.mean() < EMPTY_INK:
        return None
    ys, xs = np.nonzero(number)
    return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1), number.shape


NumberExtent = tuple[tuple[int, int, int, int], tuple[int, int]]  # (ink box, the cut's (height, width))


def number_extents(cells: list[PILImage.Image]) -> list[NumberExtent | None]:
    """:func:`_number_extent` of each cell, for a caller that asks both :func:`number_boxes` and
    :func:`ink_offsets` of the same cells (the ink is found once)."""
    return [_number_extent(cell) for cell in cells]


def number_boxes(cells: list[PILImage.Image]) -> list[tuple[int, int, int, int] | None]:
    """The box ``(x0, y0, x1, y1)`` round each cell's number ink, in pixels of the cell cut :data:`INSET` in
    from its sides (None for an empty cell): its height tells a tile's number from a line of text."""
    return [None if extent is None else extent[0] for extent in number_extents(cells)]


def ink_offset(extent: NumberExtent | None) -> float | None:
    """How far the centre of a cell's number ink (its :func:`_number_extent`) lies from the cell's centre,
    as a share of the cell's side (None for an empty cell)."""
    if extent is None:
        return None
    (x0, y0, x1, y1), (h, w) = extent
    return float(max(abs((x0 + x1) / 2 / w - 0.5), abs((y0 + y1) / 2 / h - 0.5)))


def ink_offsets(cells: list[PILImage.Image]) -> list[float | None]:
    """:func:`ink_offset` of each cell: games centre a tile's number, so a grid off the tiles shows it here."""
    return [ink_offset(extent) for extent in number_extents(cells)]


def read_numbers(cells: list[PILImage.Image]) -> NumberReading:
    """The number on each of ``cells`` (images of single cells): two or three Tesseract runs in all."""
    inked: list[int] = []
    empty: list[int] = []
    prepared = []
    for index, cell in enumerate(cells):
        inkness, number = _number_of_cell(cell)
        if number.mean() < EMPTY_INK:
            empty.append(index)
            continue
        inked.append(index)
        prepared.append((inkness, number))

    looks = [
        [number_of(words) for words in _run_pages([digit_image(i, m, h) for i, m in prepared], False)]
        for h in DIGIT_HEIGHTS
    ]
    disputed = [k for k in range(len(inked)) if looks[0][k][0] is None or looks[0][k][0] != looks[1][k][0]]
    third: dict[int, tuple[int | None, float]] = {}
    if disputed:
        height, whitelist = THIRD_LOOK
        pages = [digit_image(*prepared[k], height) for k in disputed]
        third = dict(zip(disputed, (number_of(w) for w in _run_pages(pages, whitelist)), strict=True))

    numbers: list[int | None] = [None] * len(cells)
    confidence = [1.0] * len(cells)  # empty cells: sure
    candidates: list[tuple[int, ...]] = [()] * len(cells)
    for k, cell in enumerate(inked):
        seen = [look[k] for look in looks] + ([third[k]] if k in third else [])
        candidates[cell] = tuple(sorted({v for v, _ in seen if v is not None}))
        if k not in third:  # both first looks read the same number: as doubtful as both looks together
            numbers[cell] = seen[0][0]
            confidence[cell] = 1.0 - (1.0 - seen[0][1]) * (1.0 - seen[1][1])
        else:
            confidence[cell] = 0.0
    return NumberReading(tuple(numbers), tuple(confidence), tuple(empty), tuple(candidates))


__all__ = [
    "NumberExtent",
    "NumberReading",
    "OcrUnavailableError",
    "empty_cells",
    "ink_mask",
    "ink_offset",
    "ink_offsets",
    "number_boxes",
    "number_extents",
    "read_numbers",
    "tesseract_path",
]
