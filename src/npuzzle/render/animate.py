"""Solutions as pictures: one PNG per step, a contact sheet, an animated GIF and an MP4 with sliding tiles.

Everything streams: frames are drawn one at a time from pre-cut tile sprites and handed to the writer, so a
solution of hundreds of moves on a big board needs the memory of a few frames (the contact sheet, one image
by nature, is scaled so it stays under :data:`MAX_SHEET_PIXELS`).

Timing (:class:`Timing`): ``speed`` moves per second, of which the share ``slide`` is spent sliding (eased
in and out) and the rest holding the new position with the next tile highlighted; ``pause`` seconds on the
solved board at the end. A video of ``n`` moves has ``hold + n * frames_per_move + pause`` frames; the GIF
merges held frames into longer ones, so it has ``1 + n * slide_frames`` frames.

>>> Timing(speed=2, fps=25).frames_per_move, Timing(speed=2, fps=25).slide_frames
(12, 7)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board import Board
from ..solution import Solution
from .image import (
    DEFAULT_THEME,
    IMAGE_SUFFIXES,
    MAX_CAPTION_LINES,
    BoardPainter,
    PictureError,
    Theme,
    atomic_output,
    check_output_dir,
    check_output_file,
    direction_text,
    ease,
    get_font,
    grid_columns,
    moving_tiles,
    save_image,
    wrap_caption,
)

if TYPE_CHECKING:  # pragma: no cover
    from PIL import Image as PILImage

MAX_SHEET_PIXELS = 40_000_000  # a contact sheet larger than this (≈120 MB of RGB) is scaled down
SHEET_THUMB_SIDE = 360  # pixels: frames larger than this are shrunk on the sheet
MAX_SHEET_SIDE = 8192  # pixels; also keeps sheets openable in ordinary viewers
GIF_MAX_SIDE = 420  # pixels: a GIF's longer side; photo tiles compress poorly in LZW, so GIFs stay this small
GIF_MAX_FPS = 12  # GIF frames per second: smooth enough for a slide, and each frame costs a changed tile or two
GIF_SUFFIXES = (".gif",)
MP4_SUFFIXES = (".mp4", ".m4v", ".mov")  # containers ffmpeg writes H.264 into, chosen by the suffix


@dataclass(frozen=True)
class Timing:
    """Animation speed. ``speed`` in moves per second, ``fps`` frames per second, ``slide`` the share of
    each move spent sliding (0 < slide <= 1), ``pause`` seconds on the solved board at the end."""

    speed: float = 2.0
    fps: int = 25
    slide: float = 0.6
    pause: float = 1.5

    def __post_init__(self) -> None:
        if not (self.speed > 0 and math.isfinite(self.speed)):
            raise PictureError(f"speed must be a positive number of moves per second, got {self.speed}")
        if not 1 <= self.fps <= 120:
            raise PictureError(f"fps must be between 1 and 120, got {self.fps}")
        if not 0 < self.slide <= 1:
            raise PictureError(f"slide must be in (0, 1], got {self.slide}")
        if not 0 <= self.pause <= 60:
            raise PictureError(f"pause must be between 0 and 60 seconds, got {self.pause}")

    @property
    def frames_per_move(self) -> int:
        return max(2, round(self.fps / self.speed))

    @property
    def slide_frames(self) -> int:
        """Frames of each slide, the last one showing the tile arrived."""
        return min(self.frames_per_move - 1, max(1, round(self.frames_per_move * self.slide)))

    @property
    def hold_frames(self) -> int:
        """Frames each position is held (with the next tile highlighted) before it slides."""
        return self.frames_per_move - self.slide_frames

    @property
    def pause_frames(self) -> int:
        return round(self.pause * self.fps)

    def n_video_frames(self, n_moves: int) -> int:
        return self.hold_frames + n_moves * self.frames_per_move + self.pause_frames

    def n_gif_frames(self, n_moves: int) -> int:
        return 1 + n_moves * self.slide_frames


@dataclass(frozen=True)
class Step:
    """One position of a solution: ``board`` after ``index`` moves, and the move made next (if any)."""

    index: int
    board: Board
    move: int | None
    moving: tuple[int, ...]  # labels that travel in the next move (several in the multi-tile metric)
    direction: str | None  # where they travel (U/D/L/R)


def solution_steps(solution: Solution) -> Iterator[Step]:
    """``length + 1`` steps, from the start to the goal, each knowing the move that follows it."""
    boards = solution.boards()
    board = next(boards)
    for index, label in enumerate(solution.moves):
        moving, direction = moving_tiles(board, label, solution.metric)
        yield Step(index, board, label, moving, direction)
        board = next(boards)
    yield Step(solution.length, board, None, (), None)


def step_caption(step: Step, n_moves: int, font: object, numbers: bool = True) -> str:
    """``"move 3 of 20: tile 7 ↓"``; ``"solved in 20 moves"`` on the last step."""
    if step.move is None:
        if n_moves == 0:
            return "already solved"
        return f"solved in {n_moves} move{'s' if n_moves != 1 else ''}"
    assert step.direction is not None  # every step with a move has a direction
    arrow = direction_text(step.direction, font)
    what = f"tile {step.move} {arrow}" if numbers else f"slide {arrow}"
    return f"move {step.index + 1} of {n_moves}: {what}"


def make_painter(
    solution: Solution,
    picture: str | Path | PILImage.Image | None = None,
    *,
    numbers: bool = True,
    tile_size: int | None = None,
    captions: bool = True,
    theme: Theme = DEFAULT_THEME,
) -> BoardPainter:
    """A painter for the boards of ``solution`` (picture tiles placed by their cell in the goal), its caption
    strip as many lines high as the widest step caption needs at the board's width (one on most boards)."""
    painter = BoardPainter(
        solution.goal, picture=picture, numbers=numbers, tile_size=tile_size, captions=captions, theme=theme
    )
    lines = _caption_lines(solution, painter)
    if lines == 1:
        return painter
    return BoardPainter(
        solution.goal, picture=picture, numbers=numbers, tile_size=tile_size, captions=captions, theme=theme,
        caption_lines=lines,
    )  # fmt: skip


def _caption_lines(solution: Solution, painter: BoardPainter) -> int:
    """Lines the widest of ``solution``'s step captions takes under ``painter``'s board (at most
    :data:`~npuzzle.render.image.MAX_CAPTION_LINES`): the last move's number with the largest tile, each
    way, and the closing caption."""
    if painter.caption_font is None:
        return 1
    n = solution.length
    top = max(solution.goal.labels)
    widest = [Step(n - 1, solution.goal, top, (top,), way) for way in "UDLR"] if n else []
    widest.append(Step(n, solution.goal, None, (), None))
    width = painter.layout.caption_width
    return max(
        min(len(wrap_caption(step_caption(step, n, painter.caption_font, painter.numbers), painter.caption_font,
                             width)), MAX_CAPTION_LINES)
        for step in widest
    )  # fmt: skip


def draw_step(painter: BoardPainter, step: Step, n_moves: int, captions: bool = True) -> PILImage.Image:
    """The position of ``step`` with the tile(s) about to move highlighted and an arrow in the blank; the
    last step of a picture puzzle shows the finished picture, missing piece in place."""
    caption = step_caption(step, n_moves, painter.caption_font, painter.numbers) if captions else None
    return painter.draw(
        step.board, highlight=step.moving, direction=step.direction, caption=caption,
        complete=step.move is None,
    )  # fmt: skip


def iter_animation(
    solution: Solution, painter: BoardPainter, timing: Timing, captions: bool = True
) -> Iterator[tuple[PILImage.Image, int]]:
    """``(frame, repeat)`` pairs: each frame is shown for ``repeat`` video frames (``repeat`` >= 1).

    Sum of repeats = :meth:`Timing.n_video_frames`; number of pairs = :meth:`Timing.n_gif_frames`.
    """
    n = solution.length
    steps = solution_steps(solution)
    step = next(steps)
    hold, slide = timing.hold_frames, timing.slide_frames
    first_repeat = hold + (timing.pause_frames if n == 0 else 0)
    yield draw_step(painter, step, n, captions), first_repeat
    for following in steps:
        caption = step_caption(step, n, painter.caption_font, painter.numbers) if captions else None
        for k in range(1, slide):
            yield (
                painter.draw(
                    step.board,
                    highlight=step.moving,
                    moving=step.moving,
                    direction=step.direction,
                    progress=ease(k / slide),
                    caption=caption,
                ),
                1,
            )
        repeat = 1 + hold + (timing.pause_frames if following.move is None else 0)
        yield draw_step(painter, following, n, captions), repeat
        step = following


# -- writers ----------------------------------------------------------------------------------------------


def write_steps(
    solution: Solution, directory: str | Path, painter: BoardPainter, captions: bool = True
) -> list[Path]:
    """``step_000.png`` (the start) … ``step_NNN.png`` (the goal), the next tile highlighted in each."""
    out = check_output_dir(directory, "step images")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PictureError(f"cannot write the step images into {str(out)!r}: {exc.strerror or exc}") from None
    digits = max(3, len(str(solution.length)))
    paths = []
    for step in solution_steps(solution):
        path = out / f"step_{step.index:0{digits}d}.png"
        save_image(draw_step(painter, step, solution.length, captions), path)
        paths.append(path)
    return paths


@dataclass(frozen=True)
class SheetLayout:
    """Geometry of a contact sheet: ``columns`` × ``rows`` thumbnails of ``thumb`` pixels, each under a
    label strip ``label_h`` high, ``gap`` pixels apart, ``margin`` around everything."""

    columns: int
    rows: int
    thumb: tuple[int, int]
    gap: int
    label_h: int
    margin: int

    @property
    def size(self) -> tuple[int, int]:
        tw, th = self.thumb
        return (
            2 * self.margin + self.columns * tw + (self.columns - 1) * self.gap,
            2 * self.margin + self.rows * (th + self.label_h) + (self.rows - 1) * self.gap,
        )

    def origin(self, index: int) -> tuple[int, int]:
        """Top-left pixel of frame ``index``'s thumbnail (its label sits just above)."""
        row, col = divmod(index, self.columns)
        tw, th = self.thumb
        return (
            self.margin + col * (tw + self.gap),
            self.margin + row * (th + self.label_h + self.gap) + self.label_h,
        )


def sheet_layout(n_frames: int, frame_size: tuple[int, int], columns: int | None = None) -> SheetLayout:
    """Layout of ``n_frames`` frames of ``frame_size`` pixels, scaled down to fit the sheet limits."""
    if columns is None:
        columns = grid_columns(n_frames)
    columns = max(1, min(columns, n_frames))
    rows = math.ceil(n_frames / columns)
    fw, fh = frame_size
    scale = min(1.0, SHEET_THUMB_SIDE / max(fw, fh))
    for _ in range(40):  # shrink until the sheet fits; gaps and labels shrink with the frames
        tw, th = max(8, round(fw * scale)), max(8, round(fh * scale))
        gap = max(6, round(min(tw, th) * 0.08))
        label_h = max(18, round(min(34, th * 0.12)))
        layout = SheetLayout(columns, rows, (tw, th), gap, label_h, gap)
        w, h = layout.size
        if w * h <= MAX_SHEET_PIXELS and max(w, h) <= MAX_SHEET_SIDE:
            return layout
        scale *= 0.85
    return layout


def write_sheet(
    solution: Solution, path: str | Path, painter: BoardPainter, columns: int | None = None
) -> Path:
    """All positions of ``solution`` on one image, numbered, the next tile highlighted in each."""
    from PIL import Image, ImageDraw

    n_frames = solution.length + 1
    layout = sheet_layout(n_frames, painter.layout.board_size, columns)
    theme = painter.theme
    sheet = Image.new("RGB", layout.size, theme.sheet)
    draw = ImageDraw.Draw(sheet)
    font = get_font(max(10, round(layout.label_h * 0.66)))
    for step in solution_steps(solution):
        frame = draw_step(painter, step, solution.length, captions=False)
        frame = frame.crop((0, 0, *painter.layout.board_size))
        if frame.size != layout.thumb:
            frame = frame.resize(layout.thumb, _reducing_filter())
        x, y = layout.origin(step.index)
        sheet.paste(frame, (x, y))
        draw.text(
            (x + 2, y - layout.label_h / 2),
            _sheet_label(step, solution.length, font, painter.numbers),
            fill=theme.sheet_text,
            font=font,
            anchor="lm",
        )
    return save_image(sheet, path)


def _sheet_label(step: Step, n_moves: int, font: object, numbers: bool) -> str:
    if step.move is None:
        return f"{step.index} · solved" if n_moves else "solved"
    assert step.direction is not None
    arrow = direction_text(step.direction, font)
    what = f"tile {step.move} {arrow}" if numbers else arrow
    return f"{'start' if step.index == 0 else step.index} · {what}"


def _reducing_filter() -> Any:
    from PIL import Image

    return Image.Resampling.LANCZOS


class GifStream:
    """A GIF written frame by frame with one global palette (no flicker between frames).

    Only the rectangle that changed since the previous frame is stored (disposal "do not dispose"), so a
    slide costs about one tile of data. Use as a context manager; ``add`` takes RGB frames of one size.
    """

    def __init__(self, path: str | Path, palette_source: PILImage.Image, dither: bool, loop: int = 0) -> None:
        from PIL import Image

        self.path = Path(path)
        self.size = palette_source.size
        self._palette_image = palette_source.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        palette = self._palette_image.getpalette() or []
        self._palette = bytes(palette[:768]).ljust(768, b"\0")
        self._dither = Image.Dither.FLOYDSTEINBERG if dither else Image.Dither.NONE
        self._previous: Any = None
        self.n_frames = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("wb")
        width, height = self.size
        packed = 0x80 | 0x70 | 0x07  # global colour table, 8 bits per primary, 2**(7+1) = 256 entries
        self._file.write(b"GIF89a" + _u16(width) + _u16(height) + bytes([packed, 0, 0]) + self._palette)
        # NETSCAPE2.0 application extension: loop count (0 = for ever)
        self._file.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + _u16(loop) + b"\x00")

    def add(self, frame: PILImage.Image, duration_ms: int) -> None:
        import numpy as np
        from PIL import GifImagePlugin

        if frame.size != self.size:
            raise PictureError(f"GIF frame is {frame.size}, expected {self.size}")
        pixels = np.asarray(frame)
        box = (0, 0, *self.size)
        if self._previous is not None:
            height = pixels.shape[0]
            differs = (pixels != self._previous).reshape(height, -1)  # height × (width * 3)
            rows = np.flatnonzero(differs.any(axis=1))
            if len(rows) == 0:
                box = (0, 0, 1, 1)  # nothing changed: a one-pixel frame still carries the delay
            else:
                columns = np.flatnonzero(differs[rows[0] : rows[-1] + 1].any(axis=0)) // 3
                box = (int(columns[0]), int(rows[0]), int(columns[-1]) + 1, int(rows[-1]) + 1)
        self._previous = pixels
        # only the changed rectangle is quantised, so dithering never disturbs the still parts
        part = frame.crop(box) if box != (0, 0, *self.size) else frame
        indexed = part.quantize(palette=self._palette_image, dither=self._dither)
        chunks = GifImagePlugin.getdata(indexed, offset=box[:2], duration=max(20, duration_ms), disposal=1)
        for chunk in chunks:
            self._file.write(chunk)
        self.n_frames += 1

    def close(self) -> None:
        if not self._file.closed:
            self._file.write(b";")
            self._file.close()

    def __enter__(self) -> GifStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _u16(value: int) -> bytes:
    return int(value).to_bytes(2, "little")


def write_gif(
    solution: Solution,
    path: str | Path,
    painter: BoardPainter,
    timing: Timing | None = None,
    captions: bool = True,
) -> Path:
    """An animated GIF of ``solution`` with sliding tiles (see :class:`Timing`), looping for ever."""
    timing = timing or Timing()
    if timing.fps > GIF_MAX_FPS:
        timing = Timing(timing.speed, GIF_MAX_FPS, timing.slide, timing.pause)
    frames = iter_animation(solution, painter, timing, captions)
    first = next(frames)
    frame_ms = 1000 / timing.fps
    with atomic_output(path) as scratch, GifStream(scratch, first[0], dither=False) as gif:
        elapsed = 0.0
        shown = 0
        for frame, repeat in itertools.chain([first], frames):
            # durations in whole centiseconds, rounding errors carried forward so the total stays exact
            elapsed += repeat * frame_ms
            duration = round((elapsed - shown) / 10) * 10
            shown += duration
            gif.add(frame, duration)
    return Path(path)


def mp4_available() -> str | None:
    """``None`` if MP4s can be written, else the reason they cannot."""
    try:
        import imageio_ffmpeg

        imageio_ffmpeg.get_ffmpeg_exe()
    except ImportError:
        return "MP4 needs the imageio-ffmpeg package (pip install imageio-ffmpeg)"
    except RuntimeError as exc:
        return f"MP4 needs an ffmpeg binary: {' '.join(str(exc).split())}"
    return None


def write_mp4(
    solution: Solution,
    path: str | Path,
    painter: BoardPainter,
    timing: Timing | None = None,
    captions: bool = True,
) -> Path:
    """An H.264 MP4 (yuv420p, plays everywhere) of ``solution`` at ``timing.fps`` frames per second.

    Raises :class:`PictureError` if no ffmpeg is available (see :func:`mp4_available`).
    """
    reason = mp4_available()
    if reason is not None:
        raise PictureError(reason)
    timing = timing or Timing()
    out = Path(path)
    if out.suffix.lower() not in MP4_SUFFIXES:  # ffmpeg picks the container by the suffix
        raise PictureError(f"cannot write the MP4 to {str(out)!r}: the name must end in {' or '.join(MP4_SUFFIXES)}")
    with atomic_output(out) as scratch:
        try:
            _write_mp4_frames(solution, scratch, painter, timing, captions)
        except (OSError, RuntimeError) as exc:  # ffmpeg's messages quote its whole command line: keep the first
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise PictureError(f"ffmpeg could not write the MP4 {str(out)!r}: {first[:200]}") from None
    return out


def _write_mp4_frames(
    solution: Solution, out: Path, painter: BoardPainter, timing: Timing, captions: bool
) -> None:
    import imageio.v2 as iio
    import numpy as np

    writer = iio.get_writer(
        out,
        format="FFMPEG",  # type: ignore[arg-type]
        mode="I",
        fps=timing.fps,
        codec="libx264",
        pixelformat="yuv420p",
        quality=6,  # libx264 CRF ≈ 20: crisp edges, small files
        macro_block_size=1,  # frames are already even-sized (Layout), no rescaling
        ffmpeg_log_level="error",
        output_params=["-preset", "veryfast"],  # slides of flat tiles need no slow motion search
    )
    try:
        for frame, repeat in iter_animation(solution, painter, timing, captions):
            array = np.asarray(frame)
            for _ in range(repeat):
                writer.append_data(array)
    finally:
        writer.close()


def check_outputs(
    *,
    directory: str | Path | None = None,
    gif: str | Path | None = None,
    mp4: str | Path | None = None,
    sheet: str | Path | None = None,
) -> None:
    """Check the paths :func:`export_solution` would write, before any slow work: each name has its format's
    suffix (``.gif``; ``.mp4``/``.m4v``/``.mov``; a still image for the sheet, PNG if no suffix) and each file
    can be created where it is asked for. Raises :class:`PictureError` naming the path and the cause."""
    if directory is not None:
        check_output_dir(directory, "step images")
    if sheet is not None:
        check_output_file(sheet, "contact sheet", IMAGE_SUFFIXES, default=".png")
    if gif is not None:
        check_output_file(gif, "GIF", GIF_SUFFIXES)
    if mp4 is not None:
        check_output_file(mp4, "MP4", MP4_SUFFIXES)


# -- the one call the CLI makes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportResult:
    """What :func:`export_solution` wrote, and anything the user should be told (e.g. an MP4 fallback)."""

    steps: tuple[Path, ...] = ()
    sheet: Path | None = None
    gif: Path | None = None
    mp4: Path | None = None
    notes: tuple[str, ...] = field(default=())

    def files(self) -> list[Path]:
        return [*self.steps, *(p for p in (self.sheet, self.gif, self.mp4) if p is not None)]


def export_solution(
    solution: Solution,
    *,
    directory: str | Path | None = None,
    picture: str | Path | PILImage.Image | None = None,
    gif: str | Path | None = None,
    mp4: str | Path | None = None,
    sheet: str | Path | None = None,
    numbers: bool = True,
    speed: float = 2.0,
    fps: int = 25,
    pause: float = 1.5,
    tile_size: int | None = None,
    captions: bool = True,
    theme: Theme = DEFAULT_THEME,
) -> ExportResult:
    """Write any of: one PNG per step into ``directory``, a contact ``sheet``, a ``gif``, an ``mp4``.

    ``picture`` cuts tiles from an image (placed by their cell in ``solution.goal``); ``numbers`` puts small
    numbers on picture tiles. ``speed`` is moves per second in the animations. If MP4 cannot be written,
    a GIF goes next to the requested path instead and ``notes`` says why.
    """
    timing = Timing(speed=speed, fps=fps, pause=pause)
    check_outputs(directory=directory, gif=gif, mp4=mp4, sheet=sheet)
    painter = make_painter(
        solution, picture, numbers=numbers, tile_size=tile_size, captions=captions, theme=theme
    )
    steps: tuple[Path, ...] = ()
    notes: list[str] = []
    sheet_path = gif_path = mp4_path = None
    if directory is not None:
        steps = tuple(write_steps(solution, directory, painter, captions))
    if sheet is not None:
        sheet_path = write_sheet(solution, sheet, painter)
    gif_painter = painter
    if (gif is not None or mp4 is not None) and max(painter.size) > GIF_MAX_SIDE and tile_size is None:
        side = max(16, GIF_MAX_SIDE // max(solution.goal.width, solution.goal.height))
        gif_painter = make_painter(
            solution, picture, numbers=numbers, tile_size=side, captions=captions, theme=theme
        )
    if gif is not None:
        gif_path = write_gif(solution, gif, gif_painter, timing, captions)
    if mp4 is not None:
        reason = mp4_available()
        if reason is None:
            mp4_path = write_mp4(solution, mp4, painter, timing, captions)
        else:
            fallback = Path(mp4).with_suffix(".gif")
            if gif_path is None or fallback != gif_path:
                write_gif(solution, fallback, gif_painter, timing, captions)
            gif_path = gif_path or fallback
            notes.append(f"{reason}; wrote the animation as GIF {fallback} instead")
    return ExportResult(steps, sheet_path, gif_path, mp4_path, tuple(notes))


__all__ = [
    "ExportResult",
    "GifStream",
    "SheetLayout",
    "Step",
    "Timing",
    "check_outputs",
    "draw_step",
    "export_solution",
    "iter_animation",
    "make_painter",
    "mp4_available",
    "sheet_layout",
    "solution_steps",
    "step_caption",
    "write_gif",
    "write_mp4",
    "write_sheet",
    "write_steps",
]
