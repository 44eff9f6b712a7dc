"""Reading whole-window game screenshots (issue 12): read exactly right / refused / wrong, per style.

Screenshots come from ``tests/screenshots.py`` (matplotlib's sample pictures and DejaVu digits, window
chrome, frame, margins, gaps 0..8 px, scale 0.5..2, JPEG 40..90, hole black/coloured/background, 3×3..6×6).
Seeds used while tuning: 0..199; this benchmark uses 1000 + k (never looked at while tuning). Picture
tiles without a reference have their hole's home at the bottom-right (the reader's default); with a
reference it is anywhere. Per style, then per board size: right / refused / wrong, seconds per read; then the seeds refused.

    python bench/bench_screenshots.py --count 100         # ten styles × 100 screenshots
    python bench/bench_screenshots.py --count 100 --style "picture, game looks"   # one style

"numbers, other faces" draws numbered tiles flat, rounded or outlined (not only bevelled), in DejaVu, STIX
or Computer Modern fonts at several digit sizes: touching tiles whose faces show no lines between them.

"numbers, missing number": numbered tiles 1..N with the one whose home is the hole left out (a 3x3 showing
1, 2, 3, 4, 6, 7, 8, 9 has its hole's home in the middle), that cell anywhere, no hint given to the reader; the
goal is ``goals.blank_at`` of that cell.

"picture, preview shown": the game also shows its finished picture beside the board (a quarter to 0.6 of the
board's width), read without a reference; the missing piece is anywhere, as the preview shows where.

"picture, game looks" draws picture tiles as games decorate them rather than as plain cut pieces
(``random_style(..., looks=True)``): one in six plain; else raised bevels (light top/left, dark bottom/right
bands, flat or fading, 1..4 % of the tile), a dark or light 1..2 px border line round each tile, rounded
corners, a soft drop shadow into the gap, an inner highlight line, alone or together. Read without a
reference, the missing piece at the bottom-right. "picture, game looks, preview": the same looks with the
finished picture (undecorated) shown beside the board, the missing piece anywhere. Both print a breakdown by
decoration (a screenshot counts under each it has; "no decoration" for the plain ones). Before 3bd564e the
generator drew only these looks' drop shadow: figures measured earlier are of nearly plain tiles.

"picture, hard looks" and "numbers, hard looks" (``random_style(..., looks="hard")``) draw the looks a lost QA
set had and the looks above lack: a patterned hole (stripes, checks, gradient, noise), a textured board
background (wood, noise, gradient) in the gaps, uneven gaps (each row's and column's gap a pixel or two off),
sunken bevels, whole tiles shaded (one or two tiles lighter or darker, or a vignette); at least one, several
may combine. Picture tiles also take the game looks' decoration. Read without a reference, the missing piece
at the bottom-right. These styles also print a per-look breakdown (every screenshot counts under each hard look
it has) and each wrong reading's board against the truth. ``--hard-look NAME`` gives those styles exactly one
hard look (hole, texture, uneven, sunken, shading), to tell the looks' effects apart.

``--pictures DIR`` cuts the picture tiles from the pictures in DIR instead of matplotlib's two (pictures the
reader was never tuned on; scikit-image's wheel carries a dozen in ``skimage/data``).

``--crop``: each screenshot is read with the board's box (its tiles, no frame) and its size given, as a user
does who follows a refusal's advice (``--crop X,Y,W,H --size WxH``); with ``--no-size`` too, the box alone.
``--cut-to-board PAD``: each screenshot is first cut to the board's box and PAD pixels round it (0: its tiles
alone, reaching the image's edges), as a user sends a board cropped by hand, and read with nothing given.
``--on-desktop WxH`` (with ``--window-scale S``, default 1): each window is scaled by S (less if it would not fit) and pasted at a seeded
place on a W×H capture of a whole desktop (a gradient wallpaper, a taskbar with icons), as a user on a 4K or
Retina screen sends the whole screen. ``--window-scale S`` alone: each window scaled by S and read alone (a
screenshot of a high-resolution screen, or of a game zoomed; S = 4 makes tiles of 112..880 px).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from PIL import Image

import screenshots
from npuzzle.errors import PuzzleError
from npuzzle.render.vision import read_screenshot
from screenshots import game_screenshot, random_style

STYLES = {  # kind, with a reference, numbered tiles in other faces and fonts, the picture shown beside the board,
    # picture tiles in a game's looks
    "picture, with reference": ("picture", True, False, False, False),
    "numbers, no reference": ("numbers", False, False, False, False),
    "picture, no reference": ("picture", False, False, False, False),
    "numbers, other faces": ("numbers", False, True, False, False),
    "picture, preview shown": ("picture", False, False, True, False),
    "picture, game looks": ("picture", False, False, False, True),
    "picture, game looks, preview": ("picture", False, False, True, True),
    "picture, hard looks": ("picture", False, False, False, "hard"),
    "numbers, hard looks": ("numbers", False, False, False, "hard"),
    "numbers, missing number": ("numbers", False, False, False, False),
}
# styles whose missing tile is anywhere with no reference or preview to show where: numbered tiles 1..N, the
# one whose home is the hole left out (the reader tells it from the numbers alone)
MISSING_ANYWHERE = {"numbers, missing number"}
HARD_LOOKS = ("hole", "texture", "uneven", "sunken", "shading")
GAME_LOOKS = ("bevel", "border", "round", "shadow", "highlight")


def _hard_looks(look: screenshots.Look) -> list[str]:
    """The hard looks a screenshot has, named as :data:`screenshots.HARD_CHANCES` names them."""
    has = {"hole": bool(look.hole_fill), "texture": bool(look.texture), "uneven": bool(look.gap_jitter),
           "sunken": look.sunken, "shading": bool(look.shading)}
    return [name for name in HARD_LOOKS if has[name]]


def _game_looks(look: screenshots.Look) -> list[str]:
    """The game looks' decorations a picture screenshot has, named as :data:`screenshots.LOOK_CHANCES` names
    them, then "decorated"; or "plain"."""
    has = {"bevel": bool(look.bevel), "border": bool(look.border), "round": bool(look.radius),
           "shadow": bool(look.shadow), "highlight": bool(look.highlight)}
    return [name for name in GAME_LOOKS if has[name]] + ["decorated"] if any(has.values()) else ["plain"]


def _rows(board: object) -> str:
    tiles, width = board.tiles, board.width  # type: ignore[attr-defined]
    return " / ".join(" ".join(f"{v:2d}" for v in tiles[r:r + width]) for r in range(0, len(tiles), width))


FIRST_SEED = 1000


def _line(name: str, tally: dict[str, int], seconds: list[float], extra: str = "") -> str:
    seconds = sorted(seconds)
    total = sum(tally.values())
    return (
        f"{name:30s} right {tally['right']:3d}  refused {tally['refused']:3d}  wrong {tally['wrong']:3d}  "
        f"of {total:3d}   median {seconds[len(seconds) // 2]:.1f} s, max {seconds[-1]:.1f} s{extra}"
    )


def on_desktop(window: Image.Image, desktop: tuple[int, int], scale: float, seed: int) -> Image.Image:
    """``window`` scaled by ``scale`` (or less, to fit) on a ``desktop`` (width, height) capture: a wallpaper that fades from top
    to bottom, a taskbar of icons along the bottom, the window at a place drawn from ``seed``."""
    import random

    import numpy as np
    from PIL import ImageDraw

    rng = random.Random(seed)
    width, height = desktop
    bar = max(40, height // 27)
    scale = min(scale, width / window.width, (height - bar) / window.height)  # a window larger than the screen
    if scale != 1:  # is shown smaller, as a window manager does
        window = window.resize((int(window.width * scale), int(window.height * scale)), Image.Resampling.LANCZOS)
    top, bottom = np.array([rng.randrange(256) for _ in range(3)]), np.array([rng.randrange(256) for _ in range(3)])
    fade = np.linspace(0, 1, height)[:, None, None]
    wallpaper = (top * (1 - fade) + bottom * fade).repeat(width, axis=1).astype(np.uint8)
    screen = Image.fromarray(wallpaper)
    draw = ImageDraw.Draw(screen)
    draw.rectangle((0, height - bar, width, height), fill=(32, 32, 36))
    for k in range(rng.randint(4, 12)):
        x = bar // 2 + k * bar * 3 // 2
        draw.rounded_rectangle((x, height - bar * 5 // 6, x + bar * 2 // 3, height - bar // 6), radius=bar // 8,
                               fill=tuple(rng.randrange(60, 256) for _ in range(3)))  # fmt: skip
    screen.paste(window, (rng.randrange(width - window.width + 1), rng.randrange(height - bar - window.height + 1)))
    return screen


def run(count: int, styles: list[str], first_seed: int = FIRST_SEED, crop: bool = False, size: bool = True,
        hard_look: str | None = None, cut_to_board: int | None = None,
        desktop: tuple[int, int] | None = None, window_scale: float = 1.0) -> None:
    given_text = ("; box and size given" if size else "; box given") if crop else ""
    if cut_to_board is not None:
        given_text = f"; cut to the board's box and {cut_to_board} px round it"
    if desktop is not None:
        given_text = f"; the window scaled {window_scale:g} on a {desktop[0]}x{desktop[1]} desktop"
    elif window_scale != 1:
        given_text = f"; the window scaled {window_scale:g}"
    print(f"seeds {first_seed}..{first_seed + count - 1}{given_text}; load average before: "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    for name in styles:
        kind, with_reference, faces, preview, looks = STYLES[name]
        tally = {"right": 0, "refused": 0, "wrong": 0}
        by_size: dict[str, tuple[dict[str, int], list[float]]] = {}
        causes: dict[str, int] = {}
        by_look: dict[str, tuple[dict[str, int], list[float]]] = {}
        seconds = []
        refused = []
        for k in range(count):
            style = random_style(
                first_seed + k, kind=kind, missing_bottom_right=not (with_reference or preview or name in MISSING_ANYWHERE),
                faces=faces,
                preview=preview, looks=f"hard:{hard_look}" if looks == "hard" and hard_look else looks,
            )
            shot = game_screenshot(style)
            image = shot.image
            if cut_to_board is not None:
                x, y, w, h = shot.box
                pad = cut_to_board
                image = image.crop((max(0, x - pad), max(0, y - pad), x + w + pad, y + h + pad))
            if desktop is not None:
                image = on_desktop(image, desktop, window_scale, first_seed + k)
            elif window_scale != 1:  # a screenshot of a high-resolution screen, or a window zoomed
                image = image.resize((round(image.width * window_scale), round(image.height * window_scale)),
                                     Image.Resampling.LANCZOS)
            # the board's size as a key (``size`` is the argument: whether the size is given with --crop)
            board_size = f"{style.width}x{style.height}"
            size_tally, size_seconds = by_size.setdefault(board_size, ({"right": 0, "refused": 0, "wrong": 0}, []))
            t0 = time.perf_counter()
            try:
                given: dict[str, object] = {"crop": shot.box} if crop else {}
                if crop and size:
                    given.update(width=style.width, height=style.height)
                reading = read_screenshot(image, reference=shot.reference if with_reference else None, **given)
            except PuzzleError as exc:
                outcome = "refused"
                refused.append(first_seed + k)
                causes[type(exc).__name__] = causes.get(type(exc).__name__, 0) + 1
            else:
                ok = reading.board == shot.board and reading.goal == shot.goal
                outcome = "right" if ok else "wrong"
                if not ok:
                    print(f"  WRONG: seed {first_seed + k} {style}", flush=True)
                    print(f"    read  {reading.board.width}x{reading.board.height}: {_rows(reading.board)}   goal {_rows(reading.goal)}"
                          f"\n    truth {style.width}x{style.height}: {_rows(shot.board)}   goal {_rows(shot.goal)}",
                          flush=True)
            elapsed = time.perf_counter() - t0
            tally[outcome] += 1
            size_tally[outcome] += 1
            seconds.append(elapsed)
            size_seconds.append(elapsed)
            named = []
            if looks == "hard":
                named += _hard_looks(style.look) + (["alone"] if len(_hard_looks(style.look)) == 1 else [])
            if looks and kind == "picture":
                named += _game_looks(style.look)
            for look_name in named:
                look_tally, look_seconds = by_look.setdefault(look_name, ({"right": 0, "refused": 0, "wrong": 0}, []))
                look_tally[outcome] += 1
                look_seconds.append(elapsed)
        print(_line(name, tally, seconds, f"   refusals: {causes}"), flush=True)
        for board_size in sorted(by_size, key=lambda wh: (int(wh.split("x")[0]) * int(wh.split("x")[1]), wh)):
            print(_line(f"  {board_size}", *by_size[board_size]), flush=True)
        labels = {"alone": "  one hard look only", "decorated": "  any decoration", "plain": "  no decoration"}
        for look_name in [*HARD_LOOKS, "alone", *GAME_LOOKS, "decorated", "plain"]:  # counted under each it has
            if look_name in by_look:
                print(_line(labels.get(look_name, f"  with {look_name}"), *by_look[look_name]), flush=True)
        print(f"  refused seeds: {' '.join(map(str, refused)) or 'none'}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--style", action="append", choices=list(STYLES))
    parser.add_argument("--pictures", type=Path, help="a folder of pictures to cut picture tiles from")
    parser.add_argument("--crop", action="store_true", help="read with the board's box and size given")
    parser.add_argument("--no-size", action="store_true", help="with --crop: the box alone, not the size")
    parser.add_argument("--hard-look", choices=HARD_LOOKS, help="the hard-looks styles with exactly this hard look")
    parser.add_argument("--cut-to-board", type=int, metavar="PAD",
                        help="read each screenshot cut to the board's box and PAD px round it, nothing given")
    parser.add_argument("--on-desktop", metavar="WxH", help="read each window pasted on a WxH desktop capture")
    parser.add_argument("--window-scale", type=float, default=1.0,
                        help="each window scaled so (on the desktop, if one is given)")
    args = parser.parse_args()
    if args.pictures is not None:
        files = sorted(p for p in args.pictures.iterdir() if p.suffix.lower() in {".png", ".jpg", ".jpeg"})
        if not files:
            parser.error(f"no .png or .jpg pictures in {args.pictures}")
        screenshots.SAMPLE_PICTURES = tuple(str(p) for p in files)
    if args.no_size and not args.crop:
        parser.error("--no-size goes with --crop")
    if args.cut_to_board is not None and (args.crop or args.cut_to_board < 0):
        parser.error("--cut-to-board takes a number of pixels (0 or more) and does not go with --crop")
    desktop = None
    if args.on_desktop is not None:
        try:
            desktop = tuple(int(v) for v in args.on_desktop.lower().split("x"))
        except ValueError:
            desktop = ()
        if len(desktop) != 2 or min(desktop) < 1 or args.crop or args.cut_to_board is not None:
            parser.error("--on-desktop takes WxH (e.g. 3840x2160) and goes with neither --crop nor --cut-to-board")
    if not (args.window_scale > 0):
        parser.error("--window-scale takes a positive number")
    run(args.count, args.style or list(STYLES), args.first_seed, args.crop, not args.no_size, args.hard_look,
        args.cut_to_board, desktop, args.window_scale)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
