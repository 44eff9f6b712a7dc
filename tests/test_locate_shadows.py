"""The grid finder on numbered boards whose tiles cast drop shadows and are shaded by gradient bevels (issue 12).

The boards are drawn here with Pillow, the way the QA generator of session 39 drew them (its numbers family,
seed 8: a 6x6 of 2 px gaps found as a 4x6, then refused as a picture with advice to give ``--reference``):
each tile's face darkens from 1.15 to 0.85 of its colour top to bottom, and casts a blurred shadow (black at
110/255) 3 px below and to the right, over the narrow gap. Nothing here uses npuzzle's renderer.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter

from npuzzle.render.locate import _seam_maps, locate_grid

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


@pytest.mark.parametrize(("width", "height", "tile", "gap"), [(6, 6, 64, 2), (5, 4, 48, 1), (4, 4, 40, 2)])
def test_grid_of_shadowed_bevelled_tiles_is_found_whole(width: int, height: int, tile: int, gap: int) -> None:
    image, lefts, tops = shadowed_board(width, height, tile, gap)
    grid = locate_grid(image)
    assert (grid.width, grid.height) == (width, height)
    assert abs(grid.columns.start - lefts[0]) <= 2 and abs(grid.rows.start - tops[0]) <= 2
    assert abs(grid.columns.pitch - (tile + gap)) <= 1 and abs(grid.rows.pitch - (tile + gap)) <= 1


@pytest.mark.parametrize("band", [1, 2, 3])
def test_a_thin_band_unlike_both_sides_is_a_seam_on_both_its_sides(band: int) -> None:
    # a face, a shadowed gap ``band`` px wide, the next face: neither side of the gap is a step (the far side
    # lies within the pixels a step is compared with), but both are a tile's side
    row = np.full((40, 60, 3), FACE, dtype=np.uint8)
    row[:, 30 : 30 + band] = (90, 30, 60)
    vertical, _ = _seam_maps(row)
    share = (vertical[-1] - vertical[0]) / 40  # per boundary x, the share of rows where it is a seam
    # (a line counts where it runs straight RUN px: not the band's last few rows at the image's edges)
    assert max(share[29:32]) >= 0.8 and max(share[29 + band : 32 + band]) >= 0.8
    assert share[:27].max() == 0.0 and share[34 + band :].max() == 0.0


def test_a_short_stroke_is_no_seam() -> None:
    # a number's stroke, 2 px wide and 8 px long, on a face: a thin line, but no tile's side
    face = np.full((40, 60, 3), FACE, dtype=np.uint8)
    face[16:24, 30:32] = INK
    vertical, _ = _seam_maps(face)
    assert (vertical[-1] - vertical[0]).max() == 0


def test_texture_stripes_wider_than_a_line_are_no_seams() -> None:
    # smooth stripes (a wood grain, a gradient) change beside every boundary alike: no seam anywhere
    x = np.arange(90)
    level = (128 + 60 * np.sin(x / 6.0)).astype(np.uint8)
    stripes = np.repeat(np.repeat(level[None, :, None], 40, axis=0), 3, axis=2)
    vertical, _ = _seam_maps(stripes)
    assert (vertical[-1] - vertical[0]).max() == 0


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
