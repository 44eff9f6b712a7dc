"""Refusals of numbered boards whose tiles cast drop shadows and are shaded by gradient bevels (issue 12).

The boards are drawn here with Pillow, the way the QA generator of session 39 drew them (its numbers family,
seed 8: a 6x6 of 2 px gaps found as a 4x6, then refused as a picture with advice to give ``--reference``):
each tile's face darkens from 1.15 to 0.85 of its colour top to bottom, and casts a blurred shadow (black at
110/255) 3 px below and to the right, over the narrow gap. Nothing here uses npuzzle's renderer.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter

FRAME = (176, 79, 133)
FACE = (194, 58, 132)
INK = (197, 193, 234)


def shadowed_board(width: int, height: int, tile: int, gap: int, margin: int = 30) -> tuple[Image.Image, list[int], list[int]]:
    """A window with a ``width`` x ``height`` board of numbered tiles (the last cell the hole) on a frame of
    nearly the faces' colour, and the tiles' left and top sides in pixels."""
    from screenshots import font

    board_w, board_h = width * (tile + gap) + gap, height * (tile + gap) + gap
    image = Image.new("RGB", (board_w + 2 * margin, board_h + 2 * margin + 40), (205, 15, 235))
    draw = ImageDraw.Draw(image)
    draw.rectangle((margin, margin + 30, margin + board_w - 1, margin + 30 + board_h - 1), fill=FRAME)
    draw.text((margin, 8), "Moves: 359   Time: 20:23", fill=(0, 0, 0))
    lefts = [margin + gap + c * (tile + gap) for c in range(width)]
    tops = [margin + 30 + gap + r * (tile + gap) for r in range(height)]
    shade = np.linspace(1.15, 0.85, tile)[:, None, None]
    face = np.clip(np.full((tile, tile, 3), FACE, dtype=np.float64) * shade, 0, 255).astype(np.uint8)
    shadow = Image.new("L", (tile + 8, tile + 8), 0)
    ImageDraw.Draw(shadow).rectangle((4, 4, tile + 3, tile + 3), fill=110)
    shadow = shadow.filter(ImageFilter.GaussianBlur(2))
    numbers = font(int(tile * 0.5), bold=False)
    for cell in range(width * height - 1):
        x, y = lefts[cell % width], tops[cell // width]
        image.paste((0, 0, 0), (x - 1, y - 1), shadow)
        tile_image = Image.fromarray(face)
        ImageDraw.Draw(tile_image).text((tile / 2, tile / 2), str(cell + 1), fill=INK, font=numbers, anchor="mm")
        image.paste(tile_image, (x, y))
    return image, lefts, tops


def test_a_numbered_board_refused_as_a_picture_is_refused_for_its_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # shaded faces pass for picture tiles; when the picture and then the numbers are refused on a grid whose
    # cells held numbers, the refusal is the numbers' (the grid, --size, --crop), not advice to give --reference
    from npuzzle.render import vision

    def no_picture(*args: object, **kwargs: object) -> vision.ScreenshotReading:
        raise vision.PictureReassemblyError(
            "could not put the 6x6 picture back together with confidence: give the original picture with --reference"
        )

    def misread(*args: object, **kwargs: object) -> vision.ScreenshotReading:
        raise vision.NumbersUnreadableError(
            "could not read every number on the 6x6 grid (numbers [11] not found): use a sharper or larger "
            "screenshot, or check --size and --crop"
        )

    monkeypatch.setattr(vision, "_looks_like_picture", lambda image, grid: True)
    monkeypatch.setattr(vision, "_read_picture", no_picture)
    monkeypatch.setattr(vision, "_read_numbers", misread)
    image, _, _ = shadowed_board(4, 4, 40, 2)
    with pytest.raises(vision.NumbersUnreadableError) as refusal:
        vision.read_screenshot(image)
    assert "--reference" not in str(refusal.value) and "--size" in str(refusal.value)
    assert refusal.value.grid is not None
