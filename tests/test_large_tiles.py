"""Screenshots with very large tiles (a 4K or Retina screen, a game zoomed): read on a copy shrunk to tiles
of :data:`~npuzzle.render.vision.MAX_TILE_PX`, the reading's grid and preview put back in the screenshot's
own pixels; tiles of the sizes games draw on ordinary screens are read as they are."""

from __future__ import annotations

import pytest
from PIL.Image import Image

from npuzzle.render.locate import Axis, Grid
from npuzzle.render.vision import MAX_TILE_PX, ScreenshotReading, read_screenshot
from screenshots import Style, game_screenshot


def _large(kind: str = "picture", preview: float = 0.0) -> Style:
    """A 3x3 window drawn at 4x: tiles of 360 px."""
    return Style(width=3, height=3, kind=kind, picture="jacksboro", tile=90, gap=3, frame=8, margin=20,
                 hole="black", scale=4.0, jpeg=80, preview=preview, seed=3)  # fmt: skip


def _read(image: Image) -> tuple[ScreenshotReading, list[str]]:
    """The reading of ``image`` with nothing given, and the steps its progress named."""
    said: list[str] = []
    return read_screenshot(image, progress=said.append), said


def _off(box: tuple[float, float, float, float], x: float, y: float, w: float, h: float) -> float:
    return max(abs(box[0] - x), abs(box[1] - y), abs(box[2] - x - w), abs(box[3] - y - h))


def test_grid_scaled_scales_every_length() -> None:
    grid = Grid(Axis(10.0, 50.0, 46.0, 3, offsets=(0.0, 1.0, -1.0)), Axis(4.0, 30.0, 30.0, 2))
    scaled = grid.scaled(2.0, 0.5)
    assert scaled.columns == Axis(20.0, 100.0, 92.0, 3, offsets=(0.0, 2.0, -2.0))
    assert scaled.rows == Axis(2.0, 15.0, 15.0, 2)
    assert scaled.scaled(0.5, 2.0) == grid


@pytest.mark.parametrize("kind", ["picture", "numbers"])
def test_a_window_of_large_tiles_is_read_shrunk_and_its_grid_put_back(kind: str) -> None:
    shot = game_screenshot(_large(kind))
    reading, said = _read(shot.image)
    assert reading.board == shot.board and reading.goal == shot.goal
    assert any("shrunk" in step for step in said)
    grid = reading.grid
    assert grid is not None and _off(grid.box, *shot.box) <= 0.04 * 360  # within 4 % of a tile
    assert grid.columns.tile > MAX_TILE_PX  # in the screenshot's pixels, not the copy's


def test_a_preview_beside_large_tiles_is_put_back_in_the_screenshots_pixels() -> None:
    style = _large(preview=0.5)
    style.missing = 4  # the middle: only the preview tells where the missing piece belongs
    shot = game_screenshot(style)
    reading, said = _read(shot.image)
    assert reading.board == shot.board and reading.goal == shot.goal
    assert any("shrunk" in step for step in said)
    assert shot.preview is not None and reading.preview is not None
    assert _off(reading.preview, *shot.preview) <= 0.04 * 360


def test_a_crop_to_large_tiles_alone_is_read_shrunk() -> None:
    """A screenshot cut to the board's tiles (framed before reading, :func:`~npuzzle.render.vision._framed`):
    the copy is framed anew, and the grid comes back on the tiles."""
    shot = game_screenshot(_large())
    x, y, w, h = shot.box
    board = shot.image.crop((x, y, x + w, y + h))
    reading, said = _read(board)
    assert reading.board == shot.board and reading.goal == shot.goal
    assert any("shrunk" in step for step in said)
    assert reading.grid is not None and _off(reading.grid.box, 0, 0, w, h) <= 0.04 * 360


def test_a_board_the_shrunk_copy_loses_is_read_at_full_size() -> None:
    """Bench "picture, preview shown" 64319: a 3x3 of 179 px tiles whose hole shows the gaps' colour, a
    preview beside it. Located right at full size, it was read on a copy shrunk to 128 px tiles, where the best
    grid is a 2x2 inside the preview, and refused; a refusal on the copy is read again at full size."""
    from screenshots import random_style

    shot = game_screenshot(random_style(64319, kind="picture", missing_bottom_right=False, preview=True))
    assert shot.style.hole == "background" and shot.style.width == shot.style.height == 3
    reading, said = _read(shot.image)
    assert reading.board == shot.board and reading.goal == shot.goal
    assert any("shrunk" in step for step in said) and any("full size" in step for step in said)


def test_tiles_of_an_ordinary_screen_are_read_as_they_are() -> None:
    style = _large()
    style.scale = 1.3  # tiles of 117 px
    shot = game_screenshot(style)
    reading, said = _read(shot.image)
    assert reading.board == shot.board
    assert not any("shrunk" in step for step in said)


def test_a_boards_colours_are_weighed_alike_on_any_whole_desktop() -> None:
    """Whether a box beside the board may be the game's finished picture hangs on how alike in colour the two
    are (``PREVIEW_ALIKE``). On a whole desktop capture the board's colours are counted at the scale of a
    window's screenshot, whatever the capture's size: shrunk whole, a 4K capture made bench 1001's 229 px
    board 12 px of mixed colours, 0.55 alike its preview (under the bar; the board was then read from its
    seams and refused)."""
    from PIL import Image

    from npuzzle.render.locate import colours_alike
    from npuzzle.render.vision import PREVIEW_ALIKE

    style = Style(width=3, height=3, kind="picture", picture="grace_hopper", tile=70, gap=2, frame=6, margin=20,
                  hole="black", scale=1.0, jpeg=80, preview=0.5, seed=5)  # fmt: skip
    shot = game_screenshot(style)
    assert shot.preview is not None
    bx, by, bw, bh = shot.box
    px, py, pw, ph = shot.preview
    preview = shot.image.crop((px, py, px + pw, py + ph))
    alone = colours_alike(shot.image, (bx, by, bx + bw, by + bh), preview)
    on_screens = []
    for desktop in [(1920, 1080), (3840, 2160), (7680, 4320)]:
        screen = Image.new("RGB", desktop, (40, 70, 110))
        x, y = desktop[0] - shot.image.width - 30, 40  # the window near the top right, as a user left it
        screen.paste(shot.image, (x, y))
        on_screens.append(colours_alike(screen, (x + bx, y + by, x + bx + bw, y + by + bh), preview))
    assert alone >= PREVIEW_ALIKE and max(on_screens) == min(on_screens)
    assert abs(on_screens[0] - alone) <= 0.05  # 0.88 against 0.91 (0.55-0.6 before on the larger captures)
