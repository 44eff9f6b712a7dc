"""``npuzzle render``, ``read``, ``solve-screenshot`` and ``picture cut``: pictures in and out.

Pillow, NumPy and SciPy are imported inside the commands, so ``npuzzle --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import (
    HANDLED,
    BlankOption,
    BoardArgument,
    GifOption,
    GoalOption,
    JsonOption,
    Mp4Option,
    NumbersOption,
    RenderDirOption,
    SheetOption,
    SizeOption,
    SpeedOption,
    check_picture_options,
    fail,
    load_board,
    load_goal,
    parse_label_option,
    working,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..board import Board
    from ..render.animate import ExportResult
    from ..render.locate import Grid
    from ..render.vision import ScreenshotReading
    from ..solution import Solution

ScreenshotArgument = Annotated[
    Path,
    typer.Argument(
        help="Screenshot of the scrambled puzzle: the whole game window, or just the board.", show_default=False
    ),
]
PictureSizeOption = Annotated[
    str, typer.Option("--size", "-s", help="Board size WxH (width x height), e.g. 4x4.")
]
OptionalSizeOption = Annotated[
    str | None,
    typer.Option("--size", "-s", help="Board size WxH, e.g. 4x4 (default: inferred from the grid found)."),
]
ReferenceOption = Annotated[
    Path | None,
    typer.Option(
        "--reference",
        "-r",
        help="The original picture, or a screenshot of the solved puzzle (default: read the tiles' numbers).",
    ),
]
CropOption = Annotated[
    str | None,
    typer.Option("--crop", help="X,Y,W,H: the board's place in the screenshot, in pixels (default: found)."),
]
DebugOption = Annotated[
    Path | None,
    typer.Option("--debug", help="Write the screenshot with the grid found drawn on it to this image."),
]
AllowAmbiguousOption = Annotated[
    bool,
    typer.Option("--allow-ambiguous", help="Use the best guess even when some tiles look too alike."),
]
BlankCellOption = Annotated[
    int | None,
    typer.Option("--blank-cell", help="Cell of the hole (0-based, row-major), if the reading gets it wrong."),
]
HoleHomeOption = Annotated[
    str | None,
    typer.Option(
        "--hole-home",
        help="Where the hole belongs when solved (0-based cell), top-left or bottom-right (default): picture "
        "tiles without --reference (the missing piece's home), or numbered tiles (1..N-1 in order around it).",
    ),
]
SOLVE_SECONDS = 30.0  # solve-screenshot's default budget of the search
READ_SECONDS = 180.0  # default limit of one reading: typical reads take seconds, the slowest refusals about a minute
ReadSecondsOption = Annotated[
    float,
    typer.Option(
        "--read-seconds",
        help="Stop reading the screenshot after this many seconds (exit 3); --size and --crop make it quicker.",
    ),
]
TileSizeOption = Annotated[
    int | None, typer.Option("--tile-size", help="Tile side in pixels (default: fit).")
]


def register(app: typer.Typer) -> None:
    """Add ``render``, ``read``, ``solve-screenshot`` and the ``picture`` group to ``app``."""
    app.command(
        "render",
        epilog="Examples:  npuzzle render '1 2 3 / 4 5 6 / 7 _ 8' -o board.png --highlight 8   ·   "
        "npuzzle render '2 _ 3 / 1 5 6 / 4 7 8' --goal blank-at:8 --picture cat.jpg -o cat.png",
    )(render)
    app.command(
        "read",
        epilog="Examples:  npuzzle read shot.png --size 3x3 --reference picture.png   ·   "
        "npuzzle read window.png --json   ·   npuzzle read shot.jpg -s 4x4 -r solved.png --crop 40,80,400,400",
    )(read)
    app.command(
        "solve-screenshot",
        epilog="Examples:  npuzzle solve-screenshot window.png --gif solution.gif   ·   "
        "npuzzle solve-screenshot shot.png --size 3x3 --reference picture.png "
        "--gif solution.gif --sheet steps.png --render steps/",
    )(solve_screenshot)
    picture_app = typer.Typer(
        name="picture",
        help="Work with puzzle pictures: cut one into tiles.",
        no_args_is_help=True,
        add_completion=False,
    )
    app.add_typer(picture_app, name="picture")
    picture_app.command(
        "cut",
        epilog="Example:  npuzzle picture cut picture.png --size 4x3 -o tiles/   (writes tile_01.png … tile_12.png)",
    )(cut)


def render(
    board: BoardArgument,
    output: Annotated[str, typer.Option("--output", "-o", help="Image to write (.png, .jpg, .webp, ...).")],
    size: SizeOption = None,
    blank: BlankOption = 0,
    goal: GoalOption = "classic",
    picture: Annotated[
        Path | None,
        typer.Option("--picture", "-p", help="Cut the tiles from this picture (placed by the goal)."),
    ] = None,
    highlight: Annotated[
        int | None,
        typer.Option(
            "--highlight", parser=parse_label_option, help="Outline this tile and point an arrow where it would go."
        ),
    ] = None,
    numbers: NumbersOption = True,
    tile_size: TileSizeOption = None,
    caption: Annotated[str | None, typer.Option("--caption", help="Text under the board.")] = None,
) -> None:
    """Draw BOARD as an image: numbered tiles, or tiles cut from --picture."""
    from ..render.image import IMAGE_SUFFIXES, PictureError, check_output_file, render_board, save_image

    try:
        if output.endswith(("/", "\\")) or Path(output).is_dir():
            raise PictureError(
                f"-o {output!r} is a folder: give the image's file name, e.g. {str(Path(output) / 'board.png')!r}"
            )
        check_output_file(output, "image", IMAGE_SUFFIXES, default=".png")
        start = load_board(board, size, blank)
        goal_board = load_goal(goal, start)
        image = render_board(
            start,
            goal=goal_board,
            picture=picture,
            highlight=highlight,
            numbers=numbers,
            tile_size=tile_size,
            caption=caption,
        )
        written = save_image(image, output)
    except HANDLED as exc:
        fail(exc)
    typer.echo(f"wrote {written} ({image.width}x{image.height})")


def _parse_crop(crop: str | None) -> tuple[int, int, int, int] | None:
    from ..notation import parse_integer
    from ..render.image import PictureError

    if crop is None:
        return None
    values = [parse_integer(part) for part in crop.replace(" ", "").split(",")]
    if len(values) != 4 or any(value is None or value < 0 for value in values):
        raise PictureError(f"--crop takes X,Y,W,H in whole pixels, got {crop!r}")
    x, y, w, h = (int(value) for value in values if value is not None)
    return x, y, w, h


def _read(
    screenshot: Path,
    size: str | None,
    reference: Path | None,
    allow_ambiguous: bool,
    blank_cell: int | None,
    crop: str | None = None,
    debug: Path | None = None,
    hole_home: str | None = None,
    read_seconds: float = READ_SECONDS,
) -> ScreenshotReading:
    from ..notation import parse_size
    from ..render.image import IMAGE_SUFFIXES, check_output_file
    from ..render.vision import read_screenshot

    if debug is not None:  # before the read (seconds to a minute), not after it
        check_output_file(debug, "debug picture", IMAGE_SUFFIXES, default=".png")
    width, height = parse_size(size) if size is not None else (None, None)
    try:
        with working(f"reading {screenshot.name} …") as say:
            reading = read_screenshot(
                screenshot, width, height, reference, strict=not allow_ambiguous, blank_cell=blank_cell,
                crop=_parse_crop(crop), hole_home=hole_home, max_seconds=read_seconds, progress=say,
            )  # fmt: skip
    except HANDLED as exc:
        refused_grid = getattr(exc, "grid", None)  # a refusal's grid, with or without a rejected reading
        if debug is not None and refused_grid is not None:
            _write_debug(screenshot, refused_grid, debug)
        elif debug is not None:  # asked for, so say why there is none
            typer.echo(f"wrote no {debug}: the reading stopped before any grid was found to draw", err=True)
        raise
    if debug is not None and reading.grid is not None:
        _write_debug(screenshot, reading.grid, debug)
    return reading


def _write_debug(screenshot: Path, grid: Grid, path: Path) -> None:
    from ..render.image import load_picture, save_image
    from ..render.locate import draw_grid

    save_image(draw_grid(load_picture(screenshot, "screenshot"), grid), path)
    typer.echo(f"wrote {path} (the grid found)", err=True)


def _refusal_extra(exc: BaseException) -> dict[str, Any] | None:
    """A refusal's data for ``--json`` (:func:`~npuzzle.render.vision.refusal_data`: the board's size, the
    groups of look-alike cells), the groups also as ``ambiguous``, as before."""
    from ..render.vision import refusal_data

    data = refusal_data(exc)
    if "groups" in data:
        data["ambiguous"] = data["groups"]
    return data or None


def _describe(reading: ScreenshotReading) -> list[str]:
    """The board as a grid, the goal, and any doubts, as lines of text."""
    from ..notation import format_board

    lines = [format_board(reading.board, "grid")]
    lines.append(f"goal: {format_board(reading.goal, 'line')}  (the hole belongs in cell {reading.missing})")
    if reading.home_assumed:
        lines.append(
            f"note: cell {reading.missing} as the missing piece's home is assumed (no finished picture seen): if the "
            "game's finished picture has its gap elsewhere, give --hole-home or --reference"
        )
    worst = min(range(len(reading.confidence)), key=reading.confidence.__getitem__)
    lines.append(f"lowest confidence: {reading.confidence[worst]:.2f} (cell {worst})")
    if reading.grid is not None:
        x0, y0, x1, y1 = reading.grid.box
        lines.append(f"grid: {reading.board.width}x{reading.board.height} tiles at x {x0:.0f}..{x1:.0f}, "
                     f"y {y0:.0f}..{y1:.0f} ({'numbers read by OCR' if reading.kind == 'numbers' else 'picture'})")
    if reading.preview is not None:
        x0, y0, x1, y1 = reading.preview
        lines.append(f"tiles matched to the finished picture shown at x {x0:.0f}..{x1:.0f}, y {y0:.0f}..{y1:.0f}")
    for group in reading.ambiguous:
        lines.append(f"warning: cells {', '.join(map(str, group))} look alike; this reading is a guess")
    return lines


def read(
    screenshot: ScreenshotArgument,
    size: OptionalSizeOption = None,
    reference: ReferenceOption = None,
    crop: CropOption = None,
    json_output: JsonOption = False,
    allow_ambiguous: AllowAmbiguousOption = False,
    blank_cell: BlankCellOption = None,
    debug: DebugOption = None,
    hole_home: HoleHomeOption = None,
    read_seconds: ReadSecondsOption = READ_SECONDS,
) -> None:
    """Read the board from a SCREENSHOT of a sliding puzzle (the whole window is fine: the grid is found).
    Numbered tiles are read by OCR; picture tiles are matched to --reference, or without one put back
    together from their seams (the hole's home: --hole-home). Tiles are named by their home cell (1..N,
    row-major), 0 is the empty cell; the goal has the hole where the missing tile belongs. Refuses (exit 2,
    naming the likely cause) rather than return a board it is not sure of."""
    try:
        reading = _read(screenshot, size, reference, allow_ambiguous, blank_cell, crop, debug, hole_home, read_seconds)
    except HANDLED as exc:
        fail(exc, json_output, _refusal_extra(exc))
    if json_output:
        typer.echo(json.dumps(reading.to_dict()))
    else:
        typer.echo("\n".join(_describe(reading)))


def _solve(reading: ScreenshotReading, algorithm: str, max_seconds: float | None = None) -> Solution:
    from ..search import Limits, solve
    from .common import progress_reporter

    if max_seconds is None and algorithm == "auto":  # its own budget: a first compile comes first, said
        _compile_first(reading.board, reading.goal)
    seconds = SOLVE_SECONDS if max_seconds is None else max_seconds
    with progress_reporter() as progress:
        return solve(
            reading.board,
            goal=reading.goal,
            algorithm=algorithm,
            limits=Limits(max_seconds=seconds),
            progress=progress,
        )


def _compile_first(board: Board, goal_board: Board) -> None:
    """On a machine's first solve, compile the solvers for a board of this size before the budget starts
    (else the ladder skips what does not fit in it: a 6×6 got 404 moves where ~220 is usual), saying so."""
    from ..search.anytime import compile_kernels, uncompiled_kernels

    cold, seconds = uncompiled_kernels(board, goal_board=goal_board)
    if cold:
        typer.echo(
            f"npuzzle: compiling the solvers for a {board.width}x{board.height} board (first use on this machine, "
            f"about {seconds:.0f} s) ...",
            err=True,
        )
        note = compile_kernels(board, goal_board=goal_board)
        if note:
            typer.echo(f"npuzzle: {note}", err=True)


def _check_solver_options(algorithm: str, max_seconds: float | None) -> None:
    from ..search.solver import ALGORITHMS

    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown --algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if max_seconds is not None and not max_seconds > 0:  # NaN fails too
        raise ValueError(f"--max-seconds must be a positive number of seconds, got {max_seconds}")


def solve_screenshot(
    screenshot: ScreenshotArgument,
    size: OptionalSizeOption = None,
    reference: ReferenceOption = None,
    crop: CropOption = None,
    gif: GifOption = None,
    sheet: SheetOption = None,
    mp4: Mp4Option = None,
    render_dir: RenderDirOption = None,
    numbers: NumbersOption = True,
    speed: SpeedOption = 2.0,
    algorithm: Annotated[
        str, typer.Option("--algorithm", "-a", help="Solver algorithm (auto picks).")
    ] = "auto",
    allow_ambiguous: AllowAmbiguousOption = False,
    blank_cell: BlankCellOption = None,
    json_output: JsonOption = False,
    max_seconds: Annotated[
        float | None,
        typer.Option(
            "--max-seconds",
            help=f"Time budget of the search; the best solution found by then (default {SOLVE_SECONDS:g}; "
            "without it, a machine's first compile of the solvers comes first, outside the budget).",
        ),
    ] = None,
    debug: DebugOption = None,
    hole_home: HoleHomeOption = None,
    read_seconds: ReadSecondsOption = READ_SECONDS,
) -> None:
    """Read a SCREENSHOT of a sliding puzzle (numbered, or picture tiles), print the board
    read, solve it, and draw the solution (the next tile to move outlined in every step)."""
    from ..render.animate import export_solution

    try:
        # everything that does not need the board is checked before the read and the search (each can take
        # a minute), so a typo in an option is reported at once
        check_picture_options(render_dir, gif, mp4, sheet, speed)
        _check_solver_options(algorithm, max_seconds)
        reading = _read(screenshot, size, reference, allow_ambiguous, blank_cell, crop, debug, hole_home, read_seconds)
        if not json_output:  # the board read, before the search starts
            typer.echo("\n".join(_describe(reading)))
            typer.echo("solving…", err=True)
        solution = _solve(reading, algorithm, max_seconds)
        result = export_solution(
            solution,
            directory=render_dir,
            picture=(reference or reading.picture) if reading.kind == "picture" else None,
            gif=gif,
            mp4=mp4,
            sheet=sheet,
            numbers=numbers,
            speed=speed,
        )
    except HANDLED as exc:
        fail(exc, json_output, _refusal_extra(exc))
    _report(reading, solution, result, json_output)


def _report(reading: ScreenshotReading, solution: Solution, result: ExportResult, json_output: bool) -> None:
    from ..notation import format_moves

    for note in result.notes:
        typer.echo(f"npuzzle: {note}", err=True)
    if json_output:
        payload = {
            "reading": reading.to_dict(),
            "solution": solution.to_dict(),
            "files": [str(p) for p in result.files()],
        }
        typer.echo(json.dumps(payload))
        return
    lines = []
    quality = "optimal" if solution.optimal else "not proven optimal"
    lines.append(f"solution: {solution.length} moves ({quality}): {solution.directions() or '-'}")
    lines.append(f"tiles to move: {format_moves(solution.moves) or '-'}")
    if result.steps:
        lines.append(f"wrote {len(result.steps)} step images in {result.steps[0].parent}")
    lines += [f"wrote {p}" for p in (result.sheet, result.gif, result.mp4) if p is not None]
    typer.echo("\n".join(lines))


def cut(
    picture: Annotated[Path, typer.Argument(help="The picture to cut.", show_default=False)],
    size: PictureSizeOption,
    output: Annotated[Path, typer.Option("--output", "-o", help="Directory for the tile images.")],
) -> None:
    """Cut PICTURE into WxH tiles, saved as tile_01.png … numbered by home cell (row-major, from 1)."""
    from ..notation import parse_size
    from ..render.image import save_tiles

    try:
        width, height = parse_size(size)
        paths = save_tiles(picture, width, height, output)
    except HANDLED as exc:
        fail(exc)
    typer.echo(f"wrote {len(paths)} tiles to {output}")


__all__ = ["cut", "read", "register", "render", "solve_screenshot"]
