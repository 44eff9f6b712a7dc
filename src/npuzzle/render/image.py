"""Boards as pictures (Pillow): numbered tiles, or tiles cut from a user's picture.

A :class:`BoardPainter` is built once per goal and picture: it cuts the picture (or draws the numbered
faces), keeps one sprite per tile, and then draws any board of that goal, with tiles part-way through a
slide for animations. :func:`render_board` is the one-call form.

Geometry (pixels): a frame of ``margin`` around a tray; cell ``(row, col)`` has its top-left corner at
``(margin + col * (tile_w + gap), margin + row * (tile_h + gap))``; an optional caption strip sits below the
frame, one line high, or as many lines as :func:`render_board`'s caption needs at the frame's width. Total width and height are always even (MP4 encoders need that), the spare pixel going to the
right / bottom margin.

A picture tile shows the part of the picture that belongs at the tile's *home*: the cell the tile occupies
in the goal. The blank is drawn as an empty cell of the tray.

>>> from npuzzle.board import Board
>>> image = render_board(Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 0, 8]]), highlight=8)
>>> image.size
(438, 438)
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..board import DIRECTION_DELTAS, Board, excerpt
from ..errors import IllegalMoveError, LabelError, PuzzleError
from ..goals import goal_for

if TYPE_CHECKING:  # pragma: no cover
    from typing import BinaryIO

    from PIL import Image as PILImage
    from PIL import ImageFont

RGB = tuple[int, int, int]

BOARD_PIXELS = 400  # default side of a numbered board's tray area, whatever its W×H
MIN_TILE = 24  # pixels: smaller numbered tiles stop being legible
MAX_TILE = 128  # pixels: bigger numbered tiles only waste space
MAX_PICTURE_SIDE = 1200  # pixels: a picture board is scaled down to fit this, never up
MAX_IMAGE_PIXELS = 1 << 26  # 67 Mpx (~200 MB as RGB): a 256x256 board at the smallest tiles is 38 Mpx
PNG_COMPRESS_LEVEL = (
    3  # zlib level: about 3× faster than Pillow's default 6 on pictures, files a few % larger
)
MIN_PICTURE_TILE = 8  # pixels: a picture cut finer than this is not a usable puzzle picture
MAX_CAPTION_LINES = 12  # a caption needing more lines at the board's width is refused, not clipped
CAPTION_LINE_SPACING = 1.25  # baseline to baseline, in font sizes
FONT_FILES = (
    "DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
)


class PictureError(PuzzleError, ValueError):
    """A picture could not be read or used (missing file, not an image, too small), or a render option is
    out of range. Raised by :mod:`npuzzle.render`; the CLI maps it to exit code 2 like any bad input."""


@dataclass(frozen=True)
class Theme:
    """Colours of every drawing (RGB)."""

    frame: RGB = (51, 65, 85)  # board frame and caption strip
    tray: RGB = (30, 41, 59)  # the empty cells and the lines between picture tiles
    tile: RGB = (248, 250, 252)
    tile_shade: RGB = (203, 213, 225)  # the lower edge that gives numbered tiles some depth
    text: RGB = (15, 23, 42)
    caption_text: RGB = (226, 232, 240)
    highlight: RGB = (245, 158, 11)  # outline of the tile about to move, and the arrow
    highlight_tile: RGB = (254, 243, 199)  # face of a highlighted numbered tile
    badge: RGB = (15, 23, 42)  # background of the small numbers on picture tiles
    badge_text: RGB = (255, 255, 255)
    sheet: RGB = (255, 255, 255)  # contact-sheet background
    sheet_text: RGB = (30, 41, 59)


DEFAULT_THEME = Theme()

ARROWS = {"U": "↑", "D": "↓", "L": "←", "R": "→"}
WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}


# -- fonts and pictures ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def get_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans Bold at ``size`` pixels if installed, else Pillow's built-in font at that size."""
    from PIL import ImageFont

    for name in FONT_FILES:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def has_arrow_glyphs(font: object) -> bool:
    """Whether ``font`` draws ← ↑ → ↓ (DejaVu does; Pillow's fallback font may not)."""
    getname = getattr(font, "getname", None)
    return bool(getname and "DejaVu" in (getname()[0] or ""))


def direction_text(direction: str, font: object) -> str:
    """An arrow for ``direction`` (U/D/L/R, where the tile travels) if the font has it, else a word."""
    return ARROWS[direction] if has_arrow_glyphs(font) else WORDS[direction]


def open_image(source: Path | BinaryIO, label: str) -> PILImage.Image:
    """The image in the file or stream ``source``, decoded; :class:`PictureError` naming ``label`` when it is
    not an image, is damaged or cut short, or declares more pixels than Pillow decodes (a decompression bomb
    guard: about 179 million, a 13,000 × 13,000 screenshot)."""
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(source)
        image.load()
    except Image.DecompressionBombError:
        limit = 2 * (Image.MAX_IMAGE_PIXELS or 0)
        raise PictureError(f"{label} is too large to read: it declares more than {limit:,} pixels; "
                           "send a smaller image") from None  # fmt: skip
    except UnidentifiedImageError:
        raise PictureError(f"{label} is not a readable image (not a picture format Pillow knows)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:  # damaged or cut short
        reason = " ".join(str(exc).split()) or exc.__class__.__name__
        raise PictureError(f"{label} is not a readable image ({reason})") from None
    return image


def load_picture(source: str | Path | PILImage.Image, what: str = "picture") -> PILImage.Image:
    """An RGB image from a path or a Pillow image, the way a viewer shows it: turned as its EXIF orientation
    says (a phone's photo of a screen is stored on its side), 16-bit and float greys scaled to 0..255 rather
    than clipped to white, transparent parts white.

    Raises :class:`PictureError` quoting the path when the file is missing or is not an image.
    """
    from PIL import ExifTags, Image, ImageOps

    if isinstance(source, Image.Image):
        image = source
    else:
        path = Path(source)
        if not path.is_file():
            raise PictureError(f"{what} {str(path)!r} does not exist or is not a file")
        image = open_image(path, f"{what} {str(path)!r}")
    if image.getexif().get(ExifTags.Base.Orientation, 1) != 1:  # 1: shown as stored
        image = ImageOps.exif_transpose(image)
    if image.mode in ("I", "F") or image.mode.startswith("I;16"):
        image = _eight_bit_grey(image)
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return image.convert("RGB")


def _eight_bit_grey(image: PILImage.Image) -> PILImage.Image:
    """A greyscale image of 16-bit or float samples as 8-bit "L": Pillow's own conversion clips every sample
    above 255 to white. 16-bit modes are scaled by 1/257; "I" and "F" by their range (0..1 floats, 0..255,
    or 16-bit values)."""
    import numpy as np
    from PIL import Image

    samples = np.nan_to_num(np.asarray(image, dtype=np.float64))
    top = float(samples.max()) if samples.size else 0.0
    if image.mode.startswith("I;16") or top > 255:
        samples = samples / 257
    elif image.mode == "F" and top <= 1.0:
        samples = samples * 255
    return Image.fromarray(np.clip(samples, 0, 255).round().astype(np.uint8))


def cell_boxes(
    pixel_width: int, pixel_height: int, width: int, height: int
) -> list[tuple[int, int, int, int]]:
    """Pixel boxes ``(left, top, right, bottom)`` of the ``width`` × ``height`` cells of an image, row-major.

    Boundaries are rounded from exact fractions, so pieces differ by at most one pixel.
    """
    xs = [round(c * pixel_width / width) for c in range(width + 1)]
    ys = [round(r * pixel_height / height) for r in range(height + 1)]
    return [(xs[c], ys[r], xs[c + 1], ys[r + 1]) for r in range(height) for c in range(width)]


def check_picture_size(image: PILImage.Image, width: int, height: int, what: str = "picture") -> None:
    """:class:`PictureError` unless ``image`` has at least :data:`MIN_PICTURE_TILE` pixels per cell."""
    if width < 1 or height < 1:
        raise PictureError(f"board size must be positive, got {width}x{height}")
    if image.width < width * MIN_PICTURE_TILE or image.height < height * MIN_PICTURE_TILE:
        raise PictureError(
            f"{what} is {image.width}x{image.height} pixels: too small to cut into {width}x{height} tiles "
            f"(needs at least {MIN_PICTURE_TILE} pixels per tile side)"
        )


def cut_picture(picture: str | Path | PILImage.Image, width: int, height: int) -> list[PILImage.Image]:
    """The picture cut into ``width`` × ``height`` pieces, row-major (piece ``i`` belongs in cell ``i``)."""
    image = load_picture(picture)
    check_picture_size(image, width, height)
    return [image.crop(box) for box in cell_boxes(image.width, image.height, width, height)]


def save_tiles(
    picture: str | Path | PILImage.Image, width: int, height: int, directory: str | Path
) -> list[Path]:
    """Write the pieces of ``picture`` as ``tile_01.png`` … (numbered by home cell, 1-based, row-major).

    These numbers are the labels :func:`npuzzle.render.vision.read_screenshot` gives the tiles.
    """
    out = check_output_dir(directory, "tiles")
    pieces = cut_picture(picture, width, height)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PictureError(f"cannot write the tiles into {str(out)!r}: {exc.strerror or exc}") from None
    digits = max(2, len(str(len(pieces))))
    paths = []
    for cell, piece in enumerate(pieces):
        paths.append(save_image(piece, out / f"tile_{cell + 1:0{digits}d}.png"))
    return paths


# -- layout -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of a drawn board (see the module docstring)."""

    width: int  # cells
    height: int  # cells
    tile_w: int  # pixels
    tile_h: int  # pixels
    gap: int  # pixels between neighbouring tiles
    margin: int  # pixels of frame around the tray
    caption_line_h: int = 0  # pixels of a one-line caption strip below the frame, 0 for none
    caption_lines: int = 1  # lines of text the strip holds

    def __post_init__(self) -> None:
        w, h = self.size
        if w * h > MAX_IMAGE_PIXELS:  # refused before any pixel is allocated (--tile-size 100000)
            raise PictureError(
                f"a {self.width}x{self.height} board with {self.tile_w}x{self.tile_h}-pixel tiles would be a "
                f"{w:,}x{h:,}-pixel image, above the {MAX_IMAGE_PIXELS:,}-pixel limit: use a smaller --tile-size"
            )

    @property
    def board_size(self) -> tuple[int, int]:
        """Size of the frame (board without caption), rounded up to even numbers."""
        w = 2 * self.margin + self.width * self.tile_w + (self.width - 1) * self.gap
        h = 2 * self.margin + self.height * self.tile_h + (self.height - 1) * self.gap
        return w + w % 2, h + h % 2

    @property
    def caption_font_size(self) -> int:
        return max(11, round(self.caption_line_h * 0.5))

    @property
    def caption_line_step(self) -> int:
        """Pixels from one caption line to the next."""
        return round(self.caption_font_size * CAPTION_LINE_SPACING)

    @property
    def caption_h(self) -> int:
        """Pixels of the caption strip (0 for none): one line's strip, and a step per further line; even."""
        if not self.caption_line_h:
            return 0
        h = self.caption_line_h + (self.caption_lines - 1) * self.caption_line_step
        return h + h % 2

    @property
    def caption_width(self) -> int:
        """Pixels a caption line may take: the frame's width less its margins."""
        return self.board_size[0] - 2 * self.margin

    @property
    def size(self) -> tuple[int, int]:
        w, h = self.board_size
        return w, h + self.caption_h

    def cell_origin(self, cell: int) -> tuple[int, int]:
        """Top-left pixel of ``cell``."""
        row, col = divmod(cell, self.width)
        return self.margin + col * (self.tile_w + self.gap), self.margin + row * (self.tile_h + self.gap)

    def cell_box(self, cell: int) -> tuple[int, int, int, int]:
        x, y = self.cell_origin(cell)
        return x, y, x + self.tile_w, y + self.tile_h

    @property
    def pitch(self) -> tuple[int, int]:
        """Pixels from one cell to the next, horizontally and vertically."""
        return self.tile_w + self.gap, self.tile_h + self.gap


def numbered_layout(
    width: int, height: int, tile_size: int | None = None, caption: bool = False, caption_lines: int = 1
) -> Layout:
    """Square numbered tiles sized so the board is about :data:`BOARD_PIXELS` across."""
    if tile_size is None:
        tile_size = min(MAX_TILE, max(MIN_TILE, round(BOARD_PIXELS / max(width, height))))
    elif tile_size < MIN_TILE:
        raise PictureError(f"tile size {tile_size} is below the legible minimum of {MIN_TILE} pixels")
    gap = max(2, round(tile_size / 20))
    margin = max(6, round(tile_size / 6))
    return Layout(
        width, height, tile_size, tile_size, gap, margin, _caption_height(tile_size) if caption else 0,
        caption_lines,
    )  # fmt: skip


def picture_layout(
    picture: PILImage.Image,
    width: int,
    height: int,
    tile_size: int | None = None,
    caption: bool = False,
    caption_lines: int = 1,
) -> Layout:
    """Tiles shaped like the picture's cells; at most :data:`MAX_PICTURE_SIDE` across, never enlarged."""
    check_picture_size(picture, width, height)
    cell_w, cell_h = picture.width / width, picture.height / height
    if tile_size is None:
        scale = min(1.0, MAX_PICTURE_SIDE / max(picture.width, picture.height))
    else:
        if tile_size < MIN_PICTURE_TILE:
            raise PictureError(f"tile size {tile_size} is below the minimum of {MIN_PICTURE_TILE} pixels")
        scale = tile_size / max(cell_w, cell_h)
    tile_w, tile_h = (
        max(MIN_PICTURE_TILE, round(cell_w * scale)),
        max(MIN_PICTURE_TILE, round(cell_h * scale)),
    )
    side = max(tile_w, tile_h)
    gap = max(1, round(side / 60))
    margin = max(4, round(side / 12))
    return Layout(
        width, height, tile_w, tile_h, gap, margin, _caption_height(side) if caption else 0, caption_lines
    )


def _caption_height(tile_side: int) -> int:
    """A one-line caption strip's height; even, so the whole image stays even-sized."""
    return 2 * min(22, max(12, round(tile_side * 0.16)))


# -- the painter ------------------------------------------------------------------------------------------


def moving_tiles(board: Board, label: int, metric: str = "single") -> tuple[tuple[int, ...], str]:
    """The labels that travel when ``label`` is moved, and their direction (U/D/L/R).

    One tile in the single-tile metric; in the multi-tile metric every tile from ``label`` up to the blank.
    """
    direction = board.direction_of(label)
    if metric != "multi":
        board.move(label)  # raises IllegalMoveError unless label is next to the blank
        return (label,), direction
    dr, dc = DIRECTION_DELTAS[direction]
    row, col = board.position_of(label)
    labels = []
    while board.at(row, col) != board.blank:
        labels.append(board.at(row, col))
        row, col = row + dr, col + dc
    return tuple(labels), direction


class BoardPainter:
    """Draws boards of one goal: numbered tiles, or pieces of ``picture`` placed by their home cells.

    ``numbers`` puts small numbers on picture tiles (numbered tiles always show theirs); ``captions``
    reserves a strip under the board for :meth:`draw`'s ``caption``, ``caption_lines`` lines high (a caption
    wider than the board is wrapped onto them; see :func:`caption_lines_for`).
    """

    def __init__(
        self,
        goal: Board,
        *,
        picture: str | Path | PILImage.Image | None = None,
        numbers: bool = True,
        tile_size: int | None = None,
        captions: bool = False,
        theme: Theme = DEFAULT_THEME,
        caption_lines: int = 1,
    ) -> None:
        from PIL import Image, ImageDraw

        self.goal = goal
        self.theme = theme
        self.numbers = numbers
        self._picture = None if picture is None else load_picture(picture)
        if self._picture is None:
            self.layout = numbered_layout(goal.width, goal.height, tile_size, captions, caption_lines)
        else:
            self.layout = picture_layout(
                self._picture, goal.width, goal.height, tile_size, captions, caption_lines
            )
            lay = self.layout
            self._picture = self._picture.resize(
                (lay.tile_w * goal.width, lay.tile_h * goal.height), Image.Resampling.LANCZOS
            )
        self._sprites: dict[tuple[int, bool], PILImage.Image] = {}
        # Board.labels builds a set each call: asked once per sprite it made a 256x256 board quadratic
        self._tile_labels = goal.labels - {goal.blank}
        self._faces: dict[bool, PILImage.Image] = {}  # numbered tiles' blank face, drawn once per highlight
        lay = self.layout
        base = Image.new("RGB", lay.size, theme.frame)
        draw = ImageDraw.Draw(base)
        last = lay.cell_box(goal.n_cells - 1)
        draw.rectangle((lay.margin, lay.margin, last[2] - 1, last[3] - 1), fill=theme.tray)
        self._base = base
        self.caption_font = get_font(lay.caption_font_size) if lay.caption_h else None

    @property
    def size(self) -> tuple[int, int]:
        return self.layout.size

    @property
    def is_picture(self) -> bool:
        """Whether tiles are cut from a picture (rather than numbered faces)."""
        return self._picture is not None

    # sprites: one image per (label, highlighted), drawn on first use
    def sprite(self, label: int, highlighted: bool = False) -> PILImage.Image:
        key = (label, highlighted)
        if key not in self._sprites:
            if label not in self._tile_labels:
                raise LabelError(f"tile {label} is not a tile of the goal {self.goal.tiles}")
            if self._picture is None:
                self._sprites[key] = self._numbered_sprite(label, highlighted)
            else:
                self._sprites[key] = self._picture_sprite(label, highlighted)
        return self._sprites[key]

    def _numbered_face(self, highlighted: bool) -> PILImage.Image:
        """A numbered tile without its number (the same for every label)."""
        from PIL import Image, ImageDraw

        if highlighted not in self._faces:
            lay, theme = self.layout, self.theme
            w, h = lay.tile_w, lay.tile_h
            scale = 4  # draw 4× larger and shrink: smooth rounded corners
            big = Image.new("RGB", (w * scale, h * scale), theme.tray)
            draw = ImageDraw.Draw(big)
            radius = round(min(w, h) * 0.14 * scale)
            face = theme.highlight_tile if highlighted else theme.tile
            edge = theme.highlight if highlighted else theme.tile_shade
            draw.rounded_rectangle((0, 0, w * scale - 1, h * scale - 1), radius, fill=edge)
            draw.rounded_rectangle((0, 0, w * scale - 1, h * scale - 1 - self._shade * scale), radius, fill=face)
            sprite = big.resize((w, h), Image.Resampling.LANCZOS)
            if highlighted:
                outline = max(2, round(min(w, h) / 18))
                ImageDraw.Draw(sprite).rounded_rectangle(
                    (0, 0, w - 1, h - 1), round(min(w, h) * 0.14), outline=theme.highlight, width=outline
                )
            self._faces[highlighted] = sprite
        return self._faces[highlighted]

    @property
    def _shade(self) -> int:
        """The height of a numbered tile's shaded lower edge, in pixels."""
        return max(1, round(self.layout.tile_h * 0.05))

    def _numbered_sprite(self, label: int, highlighted: bool) -> PILImage.Image:
        from PIL import ImageDraw

        w, h = self.layout.tile_w, self.layout.tile_h
        sprite = self._numbered_face(highlighted).copy()
        digits = len(str(label))
        font = get_font(max(8, round(min(w, h) * (0.46 if digits <= 2 else 0.36 if digits == 3 else 0.28))))
        ImageDraw.Draw(sprite).text(
            (w / 2, (h - self._shade) / 2), str(label), fill=self.theme.text, font=font, anchor="mm"
        )
        return sprite

    def _picture_sprite(self, label: int, highlighted: bool) -> PILImage.Image:
        from PIL import Image, ImageDraw

        assert self._picture is not None  # only called in picture mode
        lay, theme = self.layout, self.theme
        home = self.goal.cell_of(label)
        row, col = divmod(home, self.goal.width)
        box = (col * lay.tile_w, row * lay.tile_h, (col + 1) * lay.tile_w, (row + 1) * lay.tile_h)
        sprite = self._picture.crop(box)
        draw = ImageDraw.Draw(sprite)
        side = min(lay.tile_w, lay.tile_h)
        if highlighted:
            sprite = Image.blend(sprite, Image.new("RGB", sprite.size, (255, 255, 255)), 0.22)
            draw = ImageDraw.Draw(sprite)
            width = max(3, round(side / 14))
            draw.rectangle((0, 0, lay.tile_w - 1, lay.tile_h - 1), outline=theme.highlight, width=width)
        if self.numbers and side >= 20:
            font = get_font(max(9, round(side * 0.2)))
            text = str(label)
            left, top, right, bottom = draw.textbbox((0, 0), text, font=font, anchor="lt")
            pad = max(2, round(side * 0.04))
            inset = max(3, round(side / 14)) + 1 if highlighted else pad
            badge = (inset, inset, inset + right - left + 2 * pad, inset + bottom - top + 2 * pad)
            overlay = sprite.convert("RGBA")
            layer = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
            ImageDraw.Draw(layer).rounded_rectangle(badge, radius=pad + 1, fill=(*theme.badge, 170))
            sprite = Image.alpha_composite(overlay, layer).convert("RGB")
            ImageDraw.Draw(sprite).text(
                (badge[0] + pad - left, badge[1] + pad - top),
                text,
                fill=theme.badge_text,
                font=font,
                anchor="lt",
            )
        return sprite

    def draw(
        self,
        board: Board,
        *,
        highlight: Iterable[int] = (),
        moving: Collection[int] = (),
        direction: str | None = None,
        progress: float = 0.0,
        arrow: bool = True,
        caption: str | None = None,
        complete: bool = False,
    ) -> PILImage.Image:
        """``board`` as an RGB image.

        ``complete``: a picture puzzle shown solved gets its missing piece back in the hole (the finished
        picture), as the last frame of an animation.

        ``highlight``: labels drawn highlighted. ``moving`` tiles are drawn ``progress`` (0..1) of the way
        toward ``direction`` (U/D/L/R). With ``arrow`` and a ``direction``, an arrow in the blank points
        the way the highlighted tile will go (drawn only while nothing has moved yet).
        """
        from PIL import ImageDraw

        if board.size != self.goal.size:
            raise LabelError(
                f"board is {board.width}x{board.height} but the painter draws {self.goal.width}x{self.goal.height}"
            )
        lay = self.layout
        image = self._base.copy()
        marked = set(highlight)
        dx = dy = 0
        if direction is not None and moving:
            dr, dc = DIRECTION_DELTAS[direction]
            pitch_x, pitch_y = lay.pitch
            dx, dy = round(dc * pitch_x * progress), round(dr * pitch_y * progress)
        travelling = []
        for cell, label in enumerate(board.tiles):
            if label == board.blank:
                continue
            if label in moving:
                travelling.append((cell, label))
                continue
            image.paste(self.sprite(label, label in marked), lay.cell_origin(cell))
        for cell, label in travelling:
            x, y = lay.cell_origin(cell)
            image.paste(self.sprite(label, label in marked), (x + dx, y + dy))
        if complete and self._picture is not None and board.tiles == self.goal.tiles:
            row, col = divmod(self.goal.blank_cell, self.goal.width)
            piece = self._picture.crop(
                (col * lay.tile_w, row * lay.tile_h, (col + 1) * lay.tile_w, (row + 1) * lay.tile_h)
            )
            image.paste(piece, lay.cell_origin(board.blank_cell))
        elif arrow and direction is not None and progress == 0.0:
            self._draw_arrow(ImageDraw.Draw(image), board.blank_cell, direction)
        if caption is not None and lay.caption_h:
            self._draw_caption(image, caption)
        return image

    def _draw_arrow(self, draw: object, cell: int, direction: str) -> None:
        """A chevron in the empty ``cell`` pointing where the tile will travel."""
        lay = self.layout
        x0, y0, x1, y1 = lay.cell_box(cell)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        r = min(lay.tile_w, lay.tile_h) * 0.22
        dr, dc = DIRECTION_DELTAS[direction]
        # tip in the travel direction, two back corners behind it
        tip = (cx + dc * r, cy + dr * r)
        back = (cx - dc * r * 0.6, cy - dr * r * 0.6)
        side = (-dr * r, dc * r)  # perpendicular to the travel
        points = [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])]
        draw.polygon(points, fill=self.theme.highlight)  # type: ignore[attr-defined]

    def _draw_caption(self, image: PILImage.Image, caption: str) -> None:
        """``caption`` centred in the strip, wrapped onto its lines when it is wider than the board (a
        caption needing more lines than the strip holds is drawn on one line, as before wrapping existed)."""
        from PIL import ImageDraw

        lay = self.layout
        _, top = lay.board_size
        lines = wrap_caption(caption, self.caption_font, lay.caption_width, lay.caption_lines)
        if len(lines) > lay.caption_lines:
            lines = [caption]
        draw = ImageDraw.Draw(image)
        # the block of lines sits where a single line always sat, moved up half a step per further line
        first = top + lay.caption_h / 2 - max(1, lay.margin // 3) - (len(lines) - 1) * lay.caption_line_step / 2
        for i, line in enumerate(lines):
            draw.text(
                (image.width / 2, first + i * lay.caption_line_step),
                line,
                fill=self.theme.caption_text,
                font=self.caption_font,
                anchor="mm",
            )


def wrap_caption(text: str, font: object, max_width: float, max_lines: int = MAX_CAPTION_LINES) -> list[str]:
    """``text`` in lines at most ``max_width`` pixels wide in ``font``, broken at spaces (a word wider than a
    line between characters; a newline in ``text`` always starts a line). Stops once it has ``max_lines + 1``
    lines: a caption that long is refused, and a huge one is not measured to its end."""
    measure = font.getlength  # type: ignore[attr-defined]
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        if measure(paragraph) <= max_width:
            lines.append(paragraph)
        else:
            line = ""
            for word in paragraph.split():
                candidate = f"{line} {word}" if line else word
                if measure(candidate) <= max_width:
                    line = candidate
                    continue
                if line:
                    lines.append(line)
                while len(word) > 1 and measure(word) > max_width and len(lines) <= max_lines:
                    cut = _fitting_prefix(word, measure, max_width)
                    lines.append(word[:cut])
                    word = word[cut:]
                line = word
            lines.append(line)
        if len(lines) > max_lines:
            return lines[: max_lines + 1]
    return lines


def _fitting_prefix(word: str, measure: Callable[[str], float], max_width: float) -> int:
    """Characters of ``word`` that fit in ``max_width`` (at least one, so wrapping always advances)."""
    lo, hi = 1, len(word)  # measure(word[:lo]) fits or lo == 1; measure(word[:hi + 1]) does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(word[:mid]) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def caption_lines_for(caption: str, layout: Layout) -> int:
    """Lines ``caption`` takes under a board of ``layout`` (its one-line caption size), or
    :class:`PictureError` past :data:`MAX_CAPTION_LINES`: clipped text would lose words without a word."""
    font = get_font(layout.caption_font_size)
    lines = wrap_caption(caption, font, layout.caption_width)
    if len(lines) > MAX_CAPTION_LINES:
        raise PictureError(
            f"caption {excerpt(caption)} needs more than {MAX_CAPTION_LINES} lines at this board's width "
            f"({layout.caption_width} pixels): shorten it, or use a larger --tile-size"
        )
    return max(1, len(lines))


def _check_highlight(board: Board, label: int) -> None:
    """:class:`LabelError` unless ``label`` is a tile of ``board``: the blank, or a number not on the board,
    would be drawn as nothing highlighted, without a word."""
    if label != board.blank and label in board.labels:
        return
    tiles = sorted(board.labels - {board.blank})
    named = f"{tiles[0]}..{tiles[-1]}" if tiles[-1] - tiles[0] == len(tiles) - 1 else excerpt(tiles)
    what = "the blank" if label == board.blank else f"not on this {board.width}x{board.height} board"
    raise LabelError(f"highlight {excerpt(label)} is {what}: name a tile to outline ({named})")


def render_board(
    board: Board,
    *,
    goal: Board | None = None,
    picture: str | Path | PILImage.Image | None = None,
    highlight: int | None = None,
    numbers: bool = True,
    tile_size: int | None = None,
    caption: str | None = None,
    theme: Theme = DEFAULT_THEME,
) -> PILImage.Image:
    """``board`` as an RGB image; ``highlight`` outlines that tile and points an arrow from the blank.

    ``goal`` (default: the classic goal for the board, or the "missing number" goal of a picture puzzle)
    says where each picture tile belongs.
    """
    goal = goal_for(board, goal if goal is not None else "classic")
    image = None if picture is None else load_picture(picture)  # loaded once: measured, then painted
    lines = 1
    if caption is not None:
        one_line = (
            numbered_layout(goal.width, goal.height, tile_size, caption=True)
            if image is None
            else picture_layout(image, goal.width, goal.height, tile_size, caption=True)
        )
        lines = caption_lines_for(caption, one_line)
    painter = BoardPainter(
        goal, picture=image, numbers=numbers, tile_size=tile_size, captions=caption is not None, theme=theme,
        caption_lines=lines,
    )  # fmt: skip
    direction: str | None = None
    marked: tuple[int, ...] = ()
    if highlight is not None:
        _check_highlight(board, highlight)
        try:
            marked, direction = moving_tiles(board, highlight, "multi")
        except IllegalMoveError:  # not in the blank's row or column: outline it, no arrow
            marked = (highlight,)
    return painter.draw(board, highlight=marked, direction=direction, caption=caption)


#: Suffixes of the still images :func:`save_image` writes (Pillow picks the format from the suffix).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")


def output_path_problem(path: Path) -> str | None:
    """Why a file cannot be created at ``path`` (``None`` if it can): the nearest existing folder above it
    must be a folder we may create files in. Probed by creating and removing a scratch file there, which
    also catches folders such as ``/proc`` that look writable but are not."""
    import os
    import tempfile

    if path.is_dir():
        return "it is a folder (give a file name)"
    parent = path.parent
    while not parent.exists():
        if parent == parent.parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        return f"{str(parent)!r} is a file, not a folder"
    try:
        fd, scratch = tempfile.mkstemp(prefix=".npuzzle-probe-", dir=parent)
    except OSError as exc:
        return f"cannot create files in {str(parent)!r} ({exc.strerror or exc})"
    os.close(fd)
    os.unlink(scratch)
    return None


def check_output_file(path: str | Path, what: str, suffixes: Collection[str], default: str | None = None) -> Path:
    """The path a ``what`` (``"GIF"``, ``"sheet"``, ...) will be written to, checked before any work starts:
    its suffix is one of ``suffixes`` (a path without one gets ``default`` if given), and the file can be
    created there (missing folders are created when writing). A :class:`PictureError` names the path and the
    cause otherwise."""
    out = Path(path)
    if not out.suffix and default is not None:
        out = out.with_suffix(default)
    if out.suffix.lower() not in suffixes:
        raise PictureError(
            f"cannot write the {what} to {str(path)!r}: "
            f"{'unknown format ' + repr(out.suffix) if out.suffix else 'no file type'} for it "
            f"(name it with {', '.join(suffixes)})"
        )
    problem = output_path_problem(out)
    if problem is not None:
        raise PictureError(f"cannot write the {what} to {str(path)!r}: {problem}")
    return out


def check_output_dir(path: str | Path, what: str) -> Path:
    """A folder ``what`` files will be written into, checked before any work starts (it may not exist yet)."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise PictureError(f"cannot write the {what} into {str(path)!r}: it exists and is not a folder")
    if not out.exists():
        problem = output_path_problem(out / "probe")
        if problem is not None:
            raise PictureError(f"cannot write the {what} into {str(path)!r}: {problem}")
    return out


@contextlib.contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """A scratch path next to ``path`` (same suffix, so writers pick the same format) that replaces ``path``
    in one step when the block succeeds and is removed when it fails: a reader never sees half a file.
    Missing folders are created; an OS error says which path and why."""
    from .._files import atomic_path

    out = Path(path)
    try:
        with atomic_path(out, suffix=out.suffix) as scratch:
            yield scratch
    except OSError as exc:
        raise PictureError(f"cannot write {str(out)!r}: {exc.strerror or exc}") from None


def save_image(image: PILImage.Image, path: str | Path) -> Path:
    """Save ``image`` (format from the suffix, PNG if none), creating the parent directory; written to a
    scratch file first and moved into place, so a failed save leaves no partial file."""
    out = Path(path)
    if not out.suffix:
        out = out.with_suffix(".png")
    options = {"compress_level": PNG_COMPRESS_LEVEL} if out.suffix.lower() == ".png" else {}
    if out.suffix.lower() not in IMAGE_SUFFIXES:
        raise PictureError(
            f"cannot write {str(out)!r}: unknown image format {out.suffix!r}; use {', '.join(IMAGE_SUFFIXES)}"
        )
    if out.is_dir():
        raise PictureError(f"cannot write {str(out)!r}: it is a folder (give a file name)")
    with atomic_output(out) as scratch:
        try:
            image.save(scratch, **options)
        except (KeyError, ValueError) as exc:
            raise PictureError(
                f"cannot write {str(out)!r}: unknown image format {out.suffix!r} ({exc})"
            ) from None
    return out


def ease(t: float) -> float:
    """Smooth start and stop for slides: 0 → 0, 1 → 1, zero speed at both ends."""
    t = min(1.0, max(0.0, t))
    return t * t * (3.0 - 2.0 * t)


def grid_columns(n_frames: int) -> int:
    """Columns of a contact sheet: roughly 4:3, never more than the frames."""
    return max(1, min(n_frames, math.ceil(math.sqrt(n_frames * 4 / 3))))


__all__ = [
    "DEFAULT_THEME",
    "IMAGE_SUFFIXES",
    "MAX_CAPTION_LINES",
    "BoardPainter",
    "Layout",
    "PictureError",
    "Theme",
    "atomic_output",
    "caption_lines_for",
    "cell_boxes",
    "check_output_dir",
    "check_output_file",
    "cut_picture",
    "direction_text",
    "ease",
    "get_font",
    "grid_columns",
    "load_picture",
    "moving_tiles",
    "numbered_layout",
    "output_path_problem",
    "picture_layout",
    "render_board",
    "save_image",
    "save_tiles",
    "wrap_caption",
]
