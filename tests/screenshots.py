"""Realistic game screenshots for the screenshot reader's tests and benchmark (issue 12).

Nothing here uses npuzzle's own renderer. The pictures are ones that ship inside matplotlib's wheel
(``mpl-data/sample_data``: the Grace Hopper photograph, and the Jacksboro fault elevation model shaded with
matplotlib's ``LightSource``), cut at a random crop; numbered tiles are drawn with matplotlib's fonts (DejaVu
Sans Bold on bevelled tiles; with ``random_style(..., faces=True)`` flat, rounded or outlined tiles in
DejaVu, STIX or Computer Modern fonts).

:func:`game_screenshot` draws a whole game window: a desktop background, a window with a title bar (title
text and buttons), a status line and buttons under the board, a frame around the board, gaps of 0..8 px
between tiles (the board's background shows through them), a hole that is black, a colour, or the board's
background; then scales the whole screenshot by 0.5..2 and saves it as JPEG (quality 40..90) or PNG.
:func:`random_style` draws those choices from a seed; :class:`Shot` carries the image and the truth.

Picture tiles are plain cut pieces unless ``random_style(..., looks=True)``: then each screenshot takes a
game's decoration (:class:`Look`, :func:`random_look`): one in six plain; else a raised bevel (light top/left,
dark bottom/right bands, flat or fading, 1..4 % of the tile), a dark or light 1..2 px border line round each
tile, rounded corners showing the board's background, a soft drop shadow into the gaps and the hole, an inner
highlight line, alone or together. Those choices come from a stream of their own, so every other choice, and
every screenshot without ``looks``, stays as before. (An earlier version drew only a look's drop shadow with
``looks=True``, never its bevels, border lines, rounded corners or highlights on picture tiles: benchmark
figures for the game looks measured before that fix are of nearly plain tiles.)
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from npuzzle.board import Board
from npuzzle.goals import blank_at

SAMPLE_PICTURES = ("grace_hopper", "jacksboro")


def _mpl_data() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path())


@cache
def sample_picture(name: str) -> Image.Image:
    """A picture that ships with matplotlib: ``grace_hopper`` (512×600 photo) or ``jacksboro`` (shaded relief);
    or the picture file at the path ``name``."""
    if name == "grace_hopper":
        return Image.open(_mpl_data() / "sample_data" / "grace_hopper.jpg").convert("RGB")
    if name == "jacksboro":
        from matplotlib import colormaps
        from matplotlib.colors import LightSource

        with np.load(_mpl_data() / "sample_data" / "jacksboro_fault_dem.npz") as data:
            elevation = data["elevation"].astype(np.float64)
        shaded = LightSource(azdeg=315, altdeg=40).shade(
            elevation, cmap=colormaps["gist_earth"], vert_exag=0.05, blend_mode="overlay"
        )
        return Image.fromarray((shaded[..., :3] * 255).astype(np.uint8), "RGB")
    if Path(name).is_file():  # any picture file (a benchmark's held-out pictures)
        return Image.open(name).convert("RGB")
    raise ValueError(f"unknown sample picture {name!r}")


@cache
def font(size: int, bold: bool = True, name: str | None = None) -> ImageFont.FreeTypeFont:
    name = name or ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(_mpl_data() / "fonts" / "ttf" / name), size)


# numbered tiles' faces and fonts beyond the bevelled DejaVu Sans Bold the reader was first tuned on
FACES = ("bevel", "flat", "round", "outline")
FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono-Bold.ttf", "DejaVuSerif-Bold.ttf",
         "DejaVuSerif.ttf", "STIXGeneral.ttf", "STIXGeneralBol.ttf", "cmr10.ttf", "cmss10.ttf")


# how often each decoration is chosen for a screenshot with ``looks`` (several may combine)
LOOK_CHANCES = {"bevel": 0.5, "border": 0.45, "round": 0.25, "shadow": 0.25, "highlight": 0.2}
# how often each hard look is chosen for a screenshot with ``looks="hard"`` (at least one; several may combine)
HARD_CHANCES = {"hole": 0.45, "texture": 0.45, "uneven": 0.45, "sunken": 0.3, "shading": 0.35}
HOLE_FILLS = ("stripes", "checks", "gradient", "noise")
TEXTURES = ("wood", "noise", "gradient")


@dataclass
class Look:
    """How a game decorates its picture tiles; the default is plain cut pieces. Shares are of the tile side
    before scaling."""

    bevel: float = 0.0  # raised bevel: light top/left, dark bottom/right bands this share of the side wide
    bevel_gradient: bool = False  # the bands fade inwards rather than being flat
    bevel_strength: float = 0.4  # how far the bands blend towards white / black, 0..1
    border: int = 0  # a line this many px wide round each tile (0: none)
    border_colour: tuple[int, int, int] = (0, 0, 0)
    radius: float = 0.0  # rounded corners of this share of the side; the board's background shows past them
    shadow: int = 0  # a soft drop shadow this many px down and right, into the gap (0: none)
    shadow_strength: float = 0.5
    highlight: int = 0  # an inner light line this many px inside each tile's edge (0: none)
    # the "hard" looks (random_style(..., looks="hard")), which a lost QA set had and the looks above lack
    sunken: bool = False  # the bevel is inset: dark top/left, light bottom/right
    hole_fill: str = ""  # the hole shows "stripes", "checks", "gradient" or "noise" rather than a flat colour
    texture: str = ""  # the board's background is "wood", "noise" or "gradient" rather than flat
    gap_jitter: int = 0  # each row's and column's gap differs from the style's by up to this many px
    shading: str = ""  # whole tiles shaded: "hover" (one or two tiles lighter or darker) or "vignette"
    shade: float = 0.0  # hover: the factor's distance from 1 (signed: > 0 lighter); vignette: the corners' darkening
    pattern_seed: int = 0  # the textures' and the shaded tiles' own random stream

    @property
    def is_hard(self) -> bool:
        """Any of the hard looks (picture tiles take the decorations above with them)."""
        return bool(self.sunken or self.hole_fill or self.texture or self.gap_jitter or self.shading)

    @property
    def is_plain(self) -> bool:
        return self == Look()


@dataclass
class Style:
    """Everything that varies between screenshots."""

    width: int = 4
    height: int = 4
    kind: str = "picture"  # "picture" or "numbers"
    picture: str = "grace_hopper"
    tile: int = 80  # tile side in pixels before scaling
    gap: int = 2  # pixels between tiles before scaling
    frame: int = 10  # frame thickness around the board
    margin: int = 30  # window border to frame
    hole: str = "black"  # "black", "colour" or "background"
    scale: float = 1.0
    jpeg: int | None = 80
    missing: int | None = None  # home cell of the tile not shown (default: bottom-right)
    seed: int = 0
    colours: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    face: str = "bevel"  # numbered tiles: "bevel", "flat", "round" (rounded corners) or "outline"
    font: str = "DejaVuSans-Bold.ttf"  # numbered tiles: a font file that ships with matplotlib
    digits: float = 0.5  # numbered tiles: a one-digit number's height, as a share of the tile
    preview: float = 0.0  # picture tiles: the finished picture also shown beside the board, at this share of its width
    look: Look = field(default_factory=Look)  # picture tiles: a game's decoration (bevel, border line, ...)


@dataclass
class Shot:
    image: Image.Image
    board: Board  # labels are home cells 1..N, 0 the hole
    goal: Board
    reference: Image.Image | None  # the picture (picture tiles) or None
    box: tuple[int, int, int, int]  # the board's tile area in the final image: x, y, width, height
    style: Style
    preview: tuple[int, int, int, int] | None = None  # the finished picture's box beside the board, if shown
    cells: tuple[tuple[float, float, float, float], ...] = ()  # every cell's (x0, y0, x1, y1) in the final image


def _colour(rng: random.Random, low: int = 0, high: int = 255) -> tuple[int, int, int]:
    return (rng.randint(low, high), rng.randint(low, high), rng.randint(low, high))


def random_style(
    seed: int,
    *,
    kind: str | None = None,
    sizes: tuple[int, ...] = (3, 4, 5, 6),
    jpeg: bool = True,
    missing_bottom_right: bool = True,
    faces: bool = False,
    preview: bool = False,
    looks: bool | str = False,
) -> Style:
    """A random style: size 3×3..6×6 (sometimes not square), gaps 0..8, scale 0.5..2, JPEG 40..90.
    ``faces``: numbered tiles also get a random face (:data:`FACES`), font (:data:`FONTS`) and digit size,
    drawn apart from the rest (the other choices stay those of the same seed without). ``preview``: picture
    tiles also show the finished picture beside the board, 0.25..0.6 of its width (drawn apart too).
    ``looks``: picture tiles also get a game's decoration (:func:`random_look`, drawn apart too).
    ``looks="hard"``: tiles of either kind get hard looks (:func:`random_hard_look`, drawn apart too), picture
    tiles with a game's decoration as well; ``looks="hard:NAME"`` gives exactly the hard look NAME (a key of
    :data:`HARD_CHANCES`), to tell the looks' effects apart."""
    rng = random.Random(seed)
    width = rng.choice(sizes)
    height = width if rng.random() < 0.8 else rng.choice(sizes)
    n = width * height
    style = Style(
        width=width,
        height=height,
        kind=kind or rng.choice(("picture", "numbers")),
        picture=rng.choice(SAMPLE_PICTURES),
        tile=rng.randint(56, 110),
        gap=rng.choice((0, 0, 1, 2, 3, 4, 5, 6, 8)),
        frame=rng.choice((0, 4, 8, 12, 20)),
        margin=rng.randint(8, 60),
        hole=rng.choice(("black", "colour", "background")),
        scale=round(rng.uniform(0.5, 2.0), 2),
        jpeg=rng.randint(40, 90) if jpeg else None,
        missing=None if missing_bottom_right else rng.randrange(n),
        seed=seed,
    )
    # tiles no smaller than 28 px on screen: the smallest a game draws legibly
    style.tile = max(style.tile, int(np.ceil(28 / style.scale)))
    if faces:
        more = random.Random(seed * 104729 + 3)
        style.face, style.font, style.digits = more.choice(FACES), more.choice(FONTS), round(more.uniform(0.3, 0.6), 2)
    if preview:
        style.preview = round(random.Random(seed * 31 + 7).uniform(0.25, 0.6), 2)
    if isinstance(looks, str) and looks.startswith("hard"):
        only = looks.partition(":")[2] or None
        style.look = random_hard_look(seed, picture=style.kind == "picture", only=only)
    elif looks and style.kind == "picture":
        style.look = random_look(seed)
    return style


def random_hard_look(seed: int, *, picture: bool = True, only: str | None = None) -> Look:
    """Hard looks, from a stream of their own: a patterned hole, a textured board background, uneven gaps, a
    sunken bevel, whole tiles shaded; each by its chance (:data:`HARD_CHANCES`), at least one, or exactly
    ``only``. Picture tiles also take :func:`random_look`'s decoration (plain one in six)."""
    rng = random.Random(seed * 3571 + 43)
    look = random_look(seed) if picture else Look()
    if only is not None:
        if only not in HARD_CHANCES:
            raise ValueError(f"unknown hard look {only!r}")
        chosen = {only}
    else:
        while True:
            chosen = {name for name, chance in HARD_CHANCES.items() if rng.random() < chance}
            if chosen:
                break
    look.pattern_seed = rng.randrange(2**31)
    if "hole" in chosen:
        look.hole_fill = rng.choice(HOLE_FILLS)
    if "texture" in chosen:
        look.texture = rng.choice(TEXTURES)
    if "uneven" in chosen:
        look.gap_jitter = rng.choice((1, 1, 2))
    if "sunken" in chosen:
        look.sunken = True
        if picture and not look.bevel:  # an inset needs a bevel to show it
            look.bevel = round(rng.uniform(0.015, 0.04), 3)
            look.bevel_gradient = rng.random() < 0.5
            look.bevel_strength = round(rng.uniform(0.25, 0.6), 2)
    if "shading" in chosen:
        look.shading = rng.choice(("hover", "hover", "vignette"))
        if look.shading == "hover":
            look.shade = round(rng.choice((-1, 1)) * rng.uniform(0.15, 0.35), 2)
        else:
            look.shade = round(rng.uniform(0.15, 0.35), 2)
    return look


def random_look(seed: int) -> Look:
    """A game's decoration of picture tiles, from its own stream so that ``looks`` changes nothing else: plain
    (one in six), else each of bevel, border line, rounded corners, drop shadow and inner highlight line by its
    own chance, at least one of them."""
    rng = random.Random(seed * 6151 + 29)
    if rng.random() < 1 / 6:
        return Look()
    while True:
        chosen = {name for name, chance in LOOK_CHANCES.items() if rng.random() < chance}
        if chosen:
            break
    look = Look()
    if "bevel" in chosen:
        look.bevel = round(rng.uniform(0.01, 0.04), 3)
        look.bevel_gradient = rng.random() < 0.5
        look.bevel_strength = round(rng.uniform(0.25, 0.6), 2)
    if "border" in chosen:
        look.border = rng.choice((1, 1, 2))
        look.border_colour = _colour(rng, 0, 60) if rng.random() < 0.7 else _colour(rng, 200, 255)
    if "round" in chosen:
        look.radius = round(rng.uniform(0.04, 0.12), 3)
    if "shadow" in chosen:
        look.shadow = rng.randint(2, 5)
        look.shadow_strength = round(rng.uniform(0.3, 0.7), 2)
    if "highlight" in chosen:
        look.highlight = rng.randint(1, 3)
    return look


def _scramble(width: int, height: int, missing: int, rng: random.Random) -> tuple[Board, Board]:
    goal = blank_at(width, height, missing)
    board = goal
    previous = None
    for _ in range(30 * width * height):
        moves = [m for m in board.legal_moves() if m != previous]
        previous = rng.choice(moves)
        board = board.move(previous)
    if board == goal:
        board = board.move(board.legal_moves()[0])
    return board, goal


def _picture_for(style: Style, rng: random.Random) -> Image.Image:
    source = sample_picture(style.picture)
    w_px, h_px = style.width * style.tile, style.height * style.tile
    aspect = w_px / h_px
    crop_w = min(source.width, source.height * aspect) * rng.uniform(0.7, 1.0)
    crop_h = crop_w / aspect
    x0 = rng.uniform(0, source.width - crop_w)
    y0 = rng.uniform(0, source.height - crop_h)
    picture = source.resize((w_px, h_px), Image.Resampling.LANCZOS, box=(x0, y0, x0 + crop_w, y0 + crop_h))
    if rng.random() < 0.5:
        picture = picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return picture


def _number_tile(
    label: int, side: int, face: tuple[int, int, int], ink: tuple[int, int, int], style: Style,
    background: tuple[int, int, int],
) -> Image.Image:
    """One numbered tile in ``style``'s face and font; ``background`` shows past a rounded tile's corners."""
    tile = Image.new("RGB", (side, side), background if style.face == "round" else face)
    draw = ImageDraw.Draw(tile)
    if style.face == "bevel":
        bevel = max(1, side // 25)
        light = tuple(min(255, c + 40) for c in face)
        dark = tuple(max(0, c - 50) for c in face)
        if style.look.sunken:  # inset: the light falls on the bottom/right bands
            light, dark = dark, light
        draw.rectangle((0, 0, side - 1, bevel - 1), fill=light)
        draw.rectangle((0, 0, bevel - 1, side - 1), fill=light)
        draw.rectangle((0, side - bevel, side - 1, side - 1), fill=dark)
        draw.rectangle((side - bevel, 0, side - 1, side - 1), fill=dark)
    elif style.face == "round":
        draw.rounded_rectangle((0, 0, side - 1, side - 1), radius=side // 6, fill=face)
    elif style.face == "outline":
        draw.rectangle((0, 0, side - 1, side - 1), outline=ink, width=max(1, side // 30))
    text = str(label)
    size = int(side * (style.digits if len(text) == 1 else style.digits * 0.84))
    draw.text((side / 2, side / 2), text, fill=ink, font=font(size, name=style.font), anchor="mm")
    return tile


def _decorate(tile: Image.Image, look: Look, background: tuple[int, int, int]) -> Image.Image:
    """A picture tile drawn in ``look``: bevel, highlight and border line over the picture, then the corners
    rounded off to ``background``."""
    pixels = np.asarray(tile, dtype=np.float64).copy()
    side = pixels.shape[0]
    if look.bevel:
        band = max(1, round(look.bevel * side))
        for k in range(band):
            # a flat band blends every row alike; a gradient fades from the edge inwards
            a = look.bevel_strength * ((band - k) / band if look.bevel_gradient else 1.0)
            # raised: lit top/left, dark bottom/right; sunken the other way round
            for where, lit_band in (((k, slice(k, side - k)), not look.sunken),
                                    ((slice(k + 1, side - k), k), not look.sunken),
                                    ((side - 1 - k, slice(k + 1, side - k)), look.sunken),
                                    ((slice(k + 1, side - 1 - k), side - 1 - k), look.sunken)):
                band_pixels = pixels[where]
                pixels[where] = band_pixels + (255 - band_pixels) * a if lit_band else band_pixels * (1 - a)
    if look.highlight:
        inset = look.highlight
        mask = np.zeros((side, side), dtype=bool)
        mask[inset, inset:side - inset] = mask[side - 1 - inset, inset:side - inset] = True
        mask[inset:side - inset, inset] = mask[inset:side - inset, side - 1 - inset] = True
        pixels[mask] = pixels[mask] + (255 - pixels[mask]) * 0.5
    if look.border:
        b = look.border
        for rows, cols in ((slice(0, b), slice(None)), (slice(side - b, side), slice(None)),
                           (slice(None), slice(0, b)), (slice(None), slice(side - b, side))):
            pixels[rows, cols] = look.border_colour
    out = Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8), "RGB")
    if look.radius:
        mask_image = Image.new("L", (side, side), 0)
        ImageDraw.Draw(mask_image).rounded_rectangle((0, 0, side - 1, side - 1), radius=look.radius * side, fill=255)
        out = Image.composite(out, Image.new("RGB", (side, side), background), mask_image)
    return out


def _drop_shadows(image: Image.Image, cells: list[tuple[int, int]], side: int, look: Look,
                  board: tuple[int, int, int, int]) -> Image.Image:
    """``image`` with a soft shadow under each tile at ``cells`` (top-left corners), kept inside ``board``."""
    from PIL import ImageChops, ImageFilter

    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    d = look.shadow
    for x, y in cells:
        draw.rectangle((x + d, y + d, x + side - 1 + d, y + side - 1 + d), fill=round(255 * look.shadow_strength))
    mask = mask.filter(ImageFilter.GaussianBlur(d / 2))
    x0, y0, x1, y1 = board
    inside = Image.new("L", image.size, 0)
    ImageDraw.Draw(inside).rectangle((x0, y0, x1, y1), fill=255)
    mask = ImageChops.multiply(mask, inside)
    return Image.composite(Image.new("RGB", image.size, (0, 0, 0)), image, mask)


def _texture(kind: str, width: int, height: int, base: tuple[int, int, int], rng: np.random.Generator) -> Image.Image:
    """A board background or hole fill of ``kind`` around the colour ``base``: "wood" (wavy grain in browns),
    "noise" (blurred speckle), "gradient" (two colours across), "stripes" or "checks" (two colours)."""
    from PIL import ImageFilter

    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    base_a = np.array(base, dtype=np.float64)
    # the second colour lighter than a dark base, darker than a light one, so that the pattern always shows
    share = rng.uniform(0.2, 0.55)
    other = base_a + (255 - base_a) * share if sum(base) < 384 else base_a * (1 - share)
    if kind == "wood":
        brown = np.array(rng.choice([(150, 100, 55), (120, 75, 40), (190, 140, 90), (95, 60, 35)]), dtype=np.float64)
        period = rng.uniform(5, 14)
        wave = np.sin((y + 6 * np.sin(x / rng.uniform(40, 120)) + rng.normal(0, 1.2, (height, width))) * 2 * np.pi
                      / period)
        grain = 0.5 + 0.5 * wave
        pixels = brown * (0.75 + 0.3 * grain[..., None])
    elif kind == "noise":
        noise = rng.normal(0, rng.uniform(10, 28), (height, width))
        blurred = np.asarray(Image.fromarray(np.clip(noise + 128, 0, 255).astype(np.uint8), "L")
                             .filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 2.0))), dtype=np.float64) - 128
        pixels = base_a + blurred[..., None] * 1.6
    elif kind == "gradient":
        angle = rng.uniform(0, np.pi)
        along = x * np.cos(angle) + y * np.sin(angle)
        along = (along - along.min()) / max(1e-9, np.ptp(along))
        pixels = base_a + (other - base_a) * along[..., None]
    elif kind == "stripes":
        period = rng.integers(6, 16)
        on = ((x + y) // (period / 2)) % 2 == 0
        pixels = np.where(on[..., None], base_a, other)
    elif kind == "checks":
        step = int(rng.integers(5, 14))
        on = ((x // step + y // step) % 2) == 0
        pixels = np.where(on[..., None], base_a, other)
    else:
        raise ValueError(f"unknown texture {kind!r}")
    return Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8), "RGB")


def _shade(tile: Image.Image, factor: float) -> Image.Image:
    """``tile`` darker as a whole (factor < 1) or lighter, towards white (factor > 1)."""
    pixels = np.asarray(tile, dtype=np.float64)
    pixels = pixels * factor if factor <= 1 else pixels + (255 - pixels) * (factor - 1)
    return Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8), "RGB")


def _shaded(tiles: dict[int, Image.Image], board: Board, corners: list[tuple[int, int]], look: Look,
            pattern: np.random.Generator, area: tuple[int, int, int, int], side: int) -> dict[int, Image.Image]:
    """``tiles`` with whole tiles shaded by ``look``: one or two of those shown lighter or darker (a hover or a
    selection), or every tile darker by its distance from the board's centre (a vignette, flat per tile)."""
    shown = [(label, corner) for label, corner in zip(board.tiles, corners, strict=True) if label]
    out = dict(tiles)
    if look.shading == "hover":
        picked = pattern.choice(len(shown), size=min(len(shown), int(pattern.integers(1, 3))), replace=False)
        for k in picked:
            label = shown[int(k)][0]
            out[label] = _shade(tiles[label], 1 + look.shade)
    else:
        x0, y0, width, height = area
        cx, cy = x0 + width / 2, y0 + height / 2
        for label, (x, y) in shown:
            d = np.hypot((x + side / 2 - cx) / (width / 2), (y + side / 2 - cy) / (height / 2)) / np.sqrt(2)
            out[label] = _shade(tiles[label], 1 - look.shade * d**2)
    return out


def game_screenshot(style: Style) -> Shot:
    """Draw one screenshot of a game window showing a scrambled board in ``style``."""
    rng = random.Random(style.seed * 7919 + 17)
    w, h, t, g = style.width, style.height, style.tile, style.gap
    n = w * h
    look = style.look
    # the hard looks draw from a stream of their own so that every other choice stays that of the seed
    pattern = np.random.default_rng(look.pattern_seed)
    # gaps before each column and row and after the last: uneven by a pixel or two as games' rounding gives
    col_gaps, row_gaps = [g] * (w + 1), [g] * (h + 1)
    if look.gap_jitter:
        col_gaps = [max(0, g + int(pattern.integers(-look.gap_jitter, look.gap_jitter + 1))) for _ in range(w + 1)]
        row_gaps = [max(0, g + int(pattern.integers(-look.gap_jitter, look.gap_jitter + 1))) for _ in range(h + 1)]
    missing = n - 1 if style.missing is None else style.missing
    board, goal = _scramble(w, h, missing, rng)

    desk = _colour(rng, 20, 235)
    window = _colour(rng, 170, 250) if rng.random() < 0.6 else _colour(rng, 25, 90)
    title = _colour(rng, 30, 220)
    board_bg = _colour(rng, 10, 245)
    frame_colour = _colour(rng, 10, 245)
    if style.hole == "black":
        hole_colour = (0, 0, 0)
    elif style.hole == "colour":
        hole_colour = _colour(rng, 0, 255)
    else:
        hole_colour = board_bg

    board_w, board_h = w * t + sum(col_gaps), h * t + sum(row_gaps)
    f, m = style.frame, style.margin
    title_h = rng.randint(24, 36)
    status_h = rng.randint(40, 70)
    win_w = board_w + 2 * (f + m) + rng.randint(0, 120)
    win_h = title_h + board_h + 2 * (f + m) + status_h
    desk_pad = (rng.randint(0, 80), rng.randint(0, 60))
    shows_preview = style.preview > 0 and style.kind == "picture"
    preview_box = None
    preview_w = round(w * t * style.preview) if shows_preview else 0
    preview_h = round(h * t * style.preview) if shows_preview else 0
    board_area_w = win_w
    if shows_preview:  # the board keeps its place; the preview sits to its right, in a wider window
        win_w += preview_w + m + 12
        win_h = max(win_h, title_h + m + preview_h + status_h)
    image = Image.new("RGB", (win_w + 2 * desk_pad[0], win_h + 2 * desk_pad[1]), desk)
    draw = ImageDraw.Draw(image)
    wx, wy = desk_pad
    draw.rectangle((wx, wy, wx + win_w - 1, wy + win_h - 1), fill=window)
    draw.rectangle((wx, wy, wx + win_w - 1, wy + title_h - 1), fill=title)
    ink = (255, 255, 255) if sum(title) < 380 else (0, 0, 0)
    draw.text((wx + 10, wy + title_h // 2), "Sliding Puzzle", fill=ink, font=font(14, False), anchor="lm")
    for k in range(3):
        cx = wx + win_w - 16 - 22 * k
        draw.ellipse((cx - 6, wy + title_h // 2 - 6, cx + 6, wy + title_h // 2 + 6), fill=_colour(rng))
    bx = wx + m + f + rng.randint(0, board_area_w - board_w - 2 * (f + m))
    by = wy + title_h + m + f
    if f:
        draw.rectangle((bx - f, by - f, bx + board_w + f - 1, by + board_h + f - 1), fill=frame_colour)
    draw.rectangle((bx, by, bx + board_w - 1, by + board_h - 1), fill=board_bg)
    if look.texture:
        image.paste(_texture(look.texture, board_w, board_h, board_bg, pattern), (bx, by))
    text_ink = (0, 0, 0) if sum(window) > 380 else (230, 230, 230)
    sy = by + board_h + f + m // 2 + 4
    draw.text((wx + 12, sy), f"Moves: {rng.randint(0, 99)}   Time: 0:{rng.randint(10, 59)}", fill=text_ink,
              font=font(15, False))
    draw.rectangle((wx + win_w - 110, sy, wx + win_w - 20, sy + 26), fill=_colour(rng), outline=text_ink)
    draw.text((wx + win_w - 65, sy + 13), "Shuffle", fill=text_ink, font=font(13, False), anchor="mm")

    if style.kind == "picture":
        picture = _picture_for(style, rng)
        reference: Image.Image | None = picture
        tiles = {label: picture.crop(((label - 1) % w * t, (label - 1) // w * t,
                                      (label - 1) % w * t + t, (label - 1) // w * t + t))
                 for label in range(1, n + 1)}
    else:
        reference = None
        face = _colour(rng, 0, 255)
        digits = (0, 0, 0) if sum(face) > 400 else (255, 255, 255) if sum(face) < 300 else \
            rng.choice([(0, 0, 0), (255, 255, 255), (150, 20, 20)])
        tiles = {label: _number_tile(label, t, face, digits, style, board_bg) for label in range(1, n + 1)}
        if not style.look.is_plain:
            tiles = {label: _decorate(tile, style.look, board_bg) for label, tile in tiles.items()}
    # a look decorates picture tiles; rounded corners are cut when pasting, so that what lies under a tile (a
    # drop shadow, a textured background) shows past them
    tile_mask = None
    if style.kind == "picture" and not look.is_plain:
        tiles = {label: _decorate(tile, replace(look, radius=0.0), board_bg) for label, tile in tiles.items()}
        if look.radius:
            tile_mask = Image.new("L", (t, t), 0)
            ImageDraw.Draw(tile_mask).rounded_rectangle((0, 0, t - 1, t - 1), radius=look.radius * t, fill=255)
    if shows_preview and reference is not None:
        image.paste(reference.resize((preview_w, preview_h), Image.Resampling.LANCZOS), (wx + board_area_w, by))
        preview_box = (wx + board_area_w, by, preview_w, preview_h)
    xs = [bx + sum(col_gaps[:c + 1]) + c * t for c in range(w)]
    ys = [by + sum(row_gaps[:r + 1]) + r * t for r in range(h)]
    corners = [(xs[cell % w], ys[cell // w]) for cell in range(n)]
    for (x, y), label in zip(corners, board.tiles, strict=True):
        if label == 0:
            if look.hole_fill:
                image.paste(_texture(look.hole_fill, t, t, hole_colour if style.hole != "background" else
                                     _colour(random.Random(look.pattern_seed), 0, 255), pattern), (x, y))
            elif not (look.texture and style.hole == "background"):  # else the texture shows through
                draw.rectangle((x, y, x + t - 1, y + t - 1), fill=hole_colour)
    if look.shading:
        tiles = _shaded(tiles, board, corners, look, pattern, (bx, by, board_w, board_h), t)
    if style.kind == "picture" and style.look.shadow:  # shadows fall on the gaps and the hole, under the tiles
        image = _drop_shadows(image, [xy for xy, label in zip(corners, board.tiles, strict=True) if label], t,
                              style.look, (bx, by, bx + board_w - 1, by + board_h - 1))
    for (x, y), label in zip(corners, board.tiles, strict=True):
        if label:
            image.paste(tiles[label], (x, y), tile_mask)

    s = style.scale
    if s != 1.0:
        image = image.resize((round(image.width * s), round(image.height * s)), Image.Resampling.BICUBIC)
    box = (round((bx + col_gaps[0]) * s), round((by + row_gaps[0]) * s), round((w * t + sum(col_gaps[1:w])) * s),
           round((h * t + sum(row_gaps[1:h])) * s))
    if style.jpeg is not None:
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=style.jpeg)
        buffer.seek(0)
        image = Image.open(buffer).convert("RGB")
    # labels: numbered tiles show their number, which is their home cell + 1 in the classic goal
    preview = None if preview_box is None else tuple(round(v * s) for v in preview_box)
    cells = tuple((x * s, y * s, (x + t) * s, (y + t) * s) for x, y in corners)
    return Shot(image, board, goal, reference, box, style, preview, cells)  # type: ignore[arg-type]


__all__ = [
    "FACES", "FONTS", "HARD_CHANCES", "HOLE_FILLS", "LOOK_CHANCES", "SAMPLE_PICTURES", "TEXTURES", "Look", "Shot",
    "Style", "game_screenshot", "random_hard_look", "random_look", "random_style", "sample_picture",
]
