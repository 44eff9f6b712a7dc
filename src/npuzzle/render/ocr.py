"""Reading the numbers on numbered tiles with Tesseract (Debian's ``tesseract-ocr``, English data).

Why Tesseract: it installs from the distribution (``apt-get install tesseract-ocr``, about 30 MB with the
English data), reads printed digits reliably once they are clean black on white, and reads a whole board in
one call. It is called as a program (``tesseract IMAGE stdout --psm 11 tsv``) through :mod:`subprocess`, which
is all the pytesseract wrapper would do.

Method (:func:`read_numbers`)
    Each cell is cut a little inside its box; its *face* colour is the median colour of its border, and a
    pixel is *ink* when it differs from the face by more than :data:`INK_STEP` — so light digits on dark
    tiles and dark digits on light tiles come out alike, black on white. A cell with almost no ink is empty
    (the hole). The ink cells are scaled to a common height and laid out on one white sheet, far apart, and
    Tesseract (sparse-text mode, digits only) reads the sheet once; each word found belongs to the cell
    whose place on the sheet contains it. Cells read as anything other than one number get a second chance
    alone (single-line mode).
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
EMPTY_INK = 0.004  # a cell with less ink than this share of its pixels is empty
CELL_HEIGHT = 72  # pixels: each cell on the sheet (digits ≈ 30..40 px tall, Tesseract's favourite range)
INSET = 0.1  # share of each side of a cell left out (bevels, gaps)
TIMEOUT = 60  # seconds for one Tesseract run
DIGIT_HEIGHT = 40  # pixels: digits' height in the second looks
RETRY_SHARE = 0.3  # cells are retried one by one only when the sheet read this share of them clearly


class OcrUnavailableError(PictureError):
    """Tesseract is not installed."""


@dataclass(frozen=True)
class NumberReading:
    """Per cell: the number read (``None`` for an empty cell or nothing legible) and a confidence 0..1."""

    numbers: tuple[int | None, ...]
    confidence: tuple[float, ...]
    empty: tuple[int, ...]  # cells with no ink


def tesseract_path() -> str:
    path = shutil.which("tesseract")
    if path is None:
        raise OcrUnavailableError(
            "reading numbered tiles needs Tesseract OCR: install it with 'apt-get install tesseract-ocr' "
            "(or give --reference for picture tiles)"
        )
    return path


def ink_mask(cell: PILImage.Image) -> PILImage.Image:
    """``cell`` as black ink on white: pixels far from the face colour (median of the border) are ink."""
    import numpy as np
    from PIL import Image

    a = np.asarray(cell.convert("RGB")).astype(np.float32)
    border = np.concatenate([a[0], a[-1], a[:, 0], a[:, -1]])
    face = np.median(border, axis=0)
    ink = np.abs(a - face).max(axis=2) > INK_STEP
    return Image.fromarray(np.where(ink, 0, 255).astype(np.uint8), "L")


def _run(image: PILImage.Image, psm: int) -> list[tuple[str, float, tuple[int, int, int, int]]]:
    """Words Tesseract finds in ``image``: ``(text, confidence 0..1, (left, top, width, height))``."""
    exe = tesseract_path()
    with tempfile.TemporaryDirectory(prefix="npuzzle-ocr-") as tmp:
        source = Path(tmp) / "sheet.png"
        image.save(source)
        try:
            done = subprocess.run(
                [exe, str(source), "stdout", "--psm", str(psm), "-l", "eng",
                 "-c", "tessedit_char_whitelist=0123456789", "tsv"],
                capture_output=True, text=True, timeout=TIMEOUT, check=False,
            )
        except subprocess.TimeoutExpired:
            raise PictureError(f"Tesseract took over {TIMEOUT} s to read the tiles") from None
    if done.returncode != 0:
        raise OcrUnavailableError(f"Tesseract failed: {' '.join(done.stderr.split())[:300]}")
    words = []
    for line in done.stdout.splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) < 12 or not parts[11].strip():
            continue
        left, top, width, height = (int(v) for v in parts[6:10])
        words.append((parts[11].strip(), max(0.0, float(parts[10])) / 100, (left, top, width, height)))
    return words


def _variants(mask: PILImage.Image) -> list[PILImage.Image]:
    """Second looks at a cell's ink: cut to the ink's bounding box, scaled to :data:`DIGIT_HEIGHT` px tall on
    a white margin, as it is and with its strokes thickened by a pixel."""
    import numpy as np
    from PIL import Image, ImageFilter

    ink = np.asarray(mask) == 0
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if len(rows) == 0:
        return []
    tight = mask.crop((int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1))
    scale = DIGIT_HEIGHT / tight.height
    tight = tight.resize((max(1, round(tight.width * scale)), DIGIT_HEIGHT), Image.Resampling.LANCZOS)
    out = []
    for image in (tight, tight.filter(ImageFilter.MinFilter(3))):
        sheet = Image.new("L", (image.width + DIGIT_HEIGHT, 2 * DIGIT_HEIGHT), 255)
        sheet.paste(image, (DIGIT_HEIGHT // 2, DIGIT_HEIGHT // 2))
        out.append(sheet)
    return out


def read_numbers(cells: list[PILImage.Image]) -> NumberReading:
    """The number on each of ``cells`` (images of single cells), in one Tesseract run plus retries."""
    import numpy as np
    from PIL import Image

    masks: list[PILImage.Image | None] = []
    empty = []
    for index, cell in enumerate(cells):
        w, h = cell.size
        inner = cell.crop((round(w * INSET), round(h * INSET), round(w * (1 - INSET)), round(h * (1 - INSET))))
        mask = ink_mask(inner)
        if (np.asarray(mask) == 0).mean() < EMPTY_INK:
            empty.append(index)
            masks.append(None)
            continue
        scale = CELL_HEIGHT / mask.height
        masks.append(mask.resize((max(1, round(mask.width * scale)), CELL_HEIGHT), Image.Resampling.LANCZOS))

    n = len(cells)
    per_row = max(1, int(np.ceil(np.sqrt(n))))
    slot_w = max((m.width for m in masks if m is not None), default=CELL_HEIGHT) + CELL_HEIGHT
    slot_h = 2 * CELL_HEIGHT
    sheet = Image.new("L", (per_row * slot_w + CELL_HEIGHT, ((n - 1) // per_row + 1) * slot_h + CELL_HEIGHT), 255)
    for index, mask in enumerate(masks):
        if mask is not None:
            r, c = divmod(index, per_row)
            sheet.paste(mask, (CELL_HEIGHT // 2 + c * slot_w + (slot_w - mask.width) // 2,
                               CELL_HEIGHT // 2 + r * slot_h + CELL_HEIGHT // 2))
    found: list[list[tuple[str, float]]] = [[] for _ in range(n)]
    for text, conf, (left, top, width, height) in _run(sheet, 11):
        cx, cy = left + width / 2 - CELL_HEIGHT // 2, top + height / 2 - CELL_HEIGHT // 2
        c, r = int(cx // slot_w), int(cy // slot_h)
        index = r * per_row + c
        if 0 <= c < per_row and 0 <= index < n:
            found[index].append((text, conf))

    numbers: list[int | None] = []
    confidence: list[float] = []
    inked = [i for i, m in enumerate(masks) if m is not None]
    clear = sum(1 for i in inked if len(found[i]) == 1 and found[i][0][0].isdigit())
    # retries cost one Tesseract run per cell: worth it for a few cells of a numbered board, not when the
    # sheet showed numbers on almost none of the tiles (picture tiles, or not a puzzle)
    retry = clear >= RETRY_SHARE * len(inked)
    for index, mask in enumerate(masks):
        words = found[index]
        if retry and mask is not None and (len(words) != 1 or not words[0][0].isdigit()):
            padded = Image.new("L", (mask.width + 2 * CELL_HEIGHT, 3 * CELL_HEIGHT), 255)
            padded.paste(mask, (CELL_HEIGHT, CELL_HEIGHT))
            for variant, psm in ((padded, 7), (padded, 10), *((v, 8) for v in _variants(mask))):
                # one line, one character; then the ink alone, tightly cut and rescaled, thin and thickened
                words = [(t, c) for t, c, _ in _run(variant, psm)]
                if len(words) == 1 and words[0][0].isdigit():
                    break
            if len(words) > 1:  # one number split in two words: digits side by side
                words = [("".join(t for t, _ in words), min(c for _, c in words))]
        if mask is None or len(words) != 1 or not words[0][0].isdigit():
            numbers.append(None)
            confidence.append(0.0 if mask is not None else 1.0)
        else:
            numbers.append(int(words[0][0]))
            confidence.append(words[0][1])
    return NumberReading(tuple(numbers), tuple(confidence), tuple(empty))


__all__ = ["NumberReading", "OcrUnavailableError", "ink_mask", "read_numbers", "tesseract_path"]
