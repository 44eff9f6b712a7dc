"""Pictures and screenshots made by the tests themselves (no image files in the repository).

``synthetic_picture`` paints a varied image (gradients, discs, bars, stripes and texture) so every tile of a
cut differs from every other; ``screenshot`` scrambles such a picture as a game would show it, optionally
with grid lines, rescaling, JPEG compression, noise and a brightness change.
"""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
from PIL import Image, ImageDraw

from npuzzle.board import Board
from npuzzle.render.image import cell_boxes


def synthetic_picture(width_px: int = 480, height_px: int = 360, seed: int = 0) -> Image.Image:
    """A colourful RGB picture: two crossed gradients, random discs and bars, stripes, fine noise."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height_px, 0:width_px].astype(np.float64)
    u, v = x / width_px, y / height_px
    base = np.stack(
        [
            0.5 + 0.45 * np.sin(2 * np.pi * (u * 1.3 + v * 0.4) + rng.uniform(0, 6)),
            0.5 + 0.45 * np.sin(2 * np.pi * (v * 1.1 - u * 0.6) + rng.uniform(0, 6)),
            0.3 + 0.6 * u * v,
        ],
        axis=-1,
    )
    image = Image.fromarray((np.clip(base, 0, 1) * 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(image)
    side = min(width_px, height_px)
    for _ in range(18):
        cx, cy = rng.uniform(0, width_px), rng.uniform(0, height_px)
        r = rng.uniform(0.03, 0.12) * side
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(0, 0, 0), width=2)
    for _ in range(10):
        x0, y0 = rng.uniform(0, width_px), rng.uniform(0, height_px)
        w, h = rng.uniform(0.02, 0.3) * width_px, rng.uniform(0.02, 0.3) * height_px
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        draw.rectangle((x0, y0, x0 + w, y0 + h), fill=colour)
    for i in range(0, width_px + height_px, max(8, side // 12)):
        draw.line((i, 0, i - height_px, height_px), fill=(255, 255, 255), width=1)
    array = np.asarray(image).astype(np.float64)
    array += rng.normal(0, 6, array.shape)
    return Image.fromarray(np.clip(array, 0, 255).astype(np.uint8), "RGB")


def screenshot(
    picture: Image.Image,
    board: Board,
    *,
    scale: float = 1.0,
    grid: int = 0,
    blank_colour: tuple[int, int, int] = (20, 20, 24),
    jpeg: int | None = None,
    noise: float = 0.0,
    brightness: float = 1.0,
    seed: int = 0,
) -> Image.Image:
    """``picture`` arranged as ``board`` (labels = home cells 1..N, blank = empty cell), as a game shows it.

    ``grid`` draws lines that many pixels wide between tiles (after scaling); ``brightness`` multiplies
    every pixel; ``noise`` is the standard deviation of added Gaussian noise (0..255 units).
    """
    w, h = board.width, board.height
    boxes = cell_boxes(picture.width, picture.height, w, h)
    out = Image.new("RGB", picture.size, blank_colour)
    for cell, label in enumerate(board.tiles):
        if label == board.blank:
            continue
        piece = picture.crop(boxes[label - 1])
        box = boxes[cell]
        out.paste(piece.resize((box[2] - box[0], box[3] - box[1])), box[:2])
    if scale != 1.0:
        out = out.resize((round(out.width * scale), round(out.height * scale)), Image.Resampling.BILINEAR)
    if grid:
        draw = ImageDraw.Draw(out)
        for x0, y0, x1, y1 in cell_boxes(out.width, out.height, w, h):
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=(90, 90, 90), width=grid)
    array = np.asarray(out).astype(np.float64) * brightness
    if noise:
        array += np.random.default_rng(seed).normal(0, noise, array.shape)
    out = Image.fromarray(np.clip(array, 0, 255).astype(np.uint8), "RGB")
    if jpeg is not None:
        buffer = io.BytesIO()
        out.save(buffer, "JPEG", quality=jpeg)
        buffer.seek(0)
        out = Image.open(buffer).convert("RGB")
    return out


def png_declaring(width: int, height: int) -> bytes:
    """A PNG file whose header declares ``width`` × ``height`` pixels, with almost no pixel data: what a
    decompression bomb looks like before it is decoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0")) + chunk(b"IEND", b"")
