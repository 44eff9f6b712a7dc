"""Helpers shared by every CLI command: loading boards and goals, printing errors, exit codes.

Exit codes (the same for every command): 0 success; 1 unsolvable; 2 bad input; 3 a limit was hit;
4 internal error (an answer failed its replay check: a bug or a damaged pattern database; please report it).
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from ..board import Board
from ..errors import BoardFormatError, InvalidSolutionError, PuzzleError, SearchLimitExceeded, UnsolvableError
from ..goals import ALIASES, LAYOUTS, goal_for
from ..notation import (  # korf_instance_line: imported from here before it moved to notation
    MAX_BOARD_CHARS,
    korf_instance_line,
    parse_board,
    parse_board_or_korf_line,
    parse_integer,
    parse_size,
)

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_LIMIT = 3
EXIT_INTERNAL = 4  # InvalidSolutionError: never a wrong answer with exit 0

def parse_label_option(value: object) -> int:
    """A tile label given as an option (``--blank``, ``--highlight``), by the board text's rule
    (:func:`~npuzzle.notation.parse_integer`): click's own integer type would read ``1_0`` as 10."""
    if not isinstance(value, str):  # the default, already an int
        return value  # type: ignore[return-value]
    label = parse_integer(value.strip())
    if label is None:
        raise typer.BadParameter(f"{value!r} is not a tile label: digits 0-9, an optional sign first")
    return label


# Shared option declarations, so every command spells them the same way.
SizeOption = Annotated[
    str | None, typer.Option("--size", "-s", help="Board size WxH (width x height), e.g. 4x3. Needed only "
                              "when the tile count is not square and the text has no rows.")
]
BlankOption = Annotated[
    int, typer.Option("--blank", "-b", parser=parse_label_option, help="Label of the empty cell.")
]
GoalOption = Annotated[
    str,
    typer.Option(
        "--goal",
        "-g",
        help="Goal: a layout name (classic, blank-first, snake, spiral, column, blank-at:CELL, random:SEED) "
        "or the goal's tiles as text.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print a JSON object.")]
# Solution pictures (solve and solve-screenshot)
GifOption = Annotated[Path | None, typer.Option("--gif", help="Write an animated GIF of the solution.")]
Mp4Option = Annotated[
    Path | None, typer.Option("--mp4", help="Write an MP4 video of the solution (a GIF if MP4 is unavailable).")
]
SheetOption = Annotated[Path | None, typer.Option("--sheet", help="Write all steps on one contact-sheet image.")]
RenderDirOption = Annotated[
    Path | None, typer.Option("--render", help="Write one PNG per step into this directory.")
]
EngineOption = Annotated[
    str,
    typer.Option(
        "--engine",
        help="Where the jobs run: local (processes on this machine) or ray (Ray tasks on this machine, or on a "
        "cluster with --address; needs pip install 'npuzzle[ray]').",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="With --engine ray: the cluster to join (auto, or ray://host:port). Without it Ray starts here.",
    ),
]
SpeedOption = Annotated[float, typer.Option("--speed", help="Moves per second in the GIF and MP4.")]
NumbersOption = Annotated[
    bool,
    typer.Option("--numbers/--no-numbers", help="Small numbers on picture tiles (numbered tiles always)."),
]
BoardArgument = Annotated[
    str,
    typer.Argument(
        help="The board: tiles as text ('1 2 3 / 4 5 6 / 7 8 0', commas, newlines, _ for the blank), "
        "a Tatham id (4x4:1,2,...), a Korf instance line (a number, then the tiles 0..N-1), JSON, a file "
        "path, or - for standard input.",
        show_default=False,
    ),
]


def read_board_text(text: str) -> str:
    """``-`` reads standard input; an existing file path reads the file; anything else is the board text.

    At most one character more than the longest board text is read (:data:`~npuzzle.notation.MAX_BOARD_CHARS`),
    so a huge file is refused by the parser without being loaded.
    """
    if text == "-":
        return sys.stdin.read(MAX_BOARD_CHARS + 1)
    if "\n" not in text and len(text) < 4096:
        try:
            path = Path(text)
            if path.is_file():
                with path.open(encoding="utf-8-sig", errors="replace") as handle:  # -sig: a leading BOM goes
                    return handle.read(MAX_BOARD_CHARS + 1)
            is_dir = path.is_dir()
        except (OSError, ValueError):  # not a usable path: it is board text
            return text
        if looks_like_path(text) or (is_dir and re.fullmatch(r"[^\s,]+", text)):
            raise BoardFormatError(
                f"{text!r} is a folder, not a board file" if is_dir else f"no such file: {text!r}"
            )
    return text


_FILE_SUFFIX = re.compile(r"\.(txt|json|jsonl|csv|tsv|puzzle|puz|board|in|dat|42)$", re.IGNORECASE)


def looks_like_path(text: str) -> bool:
    """True for an argument meant as a file name (``boards/start.txt``, ``~/b.json``), which board text never
    is: a file suffix such as ``.txt``, or a path separator and letters with no spaces (board text has
    digits, ``_``/``.`` blanks and ``x`` only in a Tatham id; rows typed ``1 2 / 3 x`` keep their spaces, and
    a stray letter there is a tile error, not a missing file)."""
    text = text.strip()
    if not text or text[0] in "[{" or re.match(r"^\d+\s*x\s*\d+\s*:", text):  # JSON, a Tatham id
        return False
    if _FILE_SUFFIX.search(text):
        return True
    return bool(re.search(r"[/\\]", text)) and re.search(r"[A-Za-z]", text) is not None and not re.search(r"\s", text)


def load_board(text: str, size: str | None = None, blank: int = 0) -> Board:
    """Parse the BOARD argument with the ``--size`` and ``--blank`` options."""
    width = height = None
    if size:
        width, height = parse_size(size)
    return parse_board_or_korf_line(read_board_text(text), width, height, blank)


def is_layout_name(text: str) -> bool:
    """True for a word like ``snake`` or ``blank-at:4`` (known or not: unknown names get a clear error)."""
    name = text.strip().lower().partition(":")[0]
    return name in LAYOUTS or name in ALIASES or re.fullmatch(r"[a-z][a-z_-]*(:\d+)?", text.strip().lower()) is not None


def load_goal(goal: str | None, start: Board) -> Board:
    """Resolve ``--goal``: a layout name or tiles, checked to match ``start``'s size and labels."""
    if goal is None:
        return goal_for(start, "classic")
    if not goal.strip():
        raise BoardFormatError(
            "--goal is empty: give a layout (classic, blank-first, snake, spiral, column, blank-at:CELL, "
            "random:SEED) or the goal's tiles"
        )
    if is_layout_name(goal):
        return goal_for(start, goal)
    board = parse_board(read_board_text(goal), start.width, start.height, start.blank)
    return goal_for(start, board)


def check_picture_options(
    render_dir: Path | None, gif: Path | None, mp4: Path | None, sheet: Path | None, speed: float
) -> None:
    """Check the solution-picture options (paths, suffixes, ``--speed``) before any slow work (a solve, a
    screenshot read), so a typo is reported at once rather than after the answer; Pillow is not loaded."""
    from ..render.animate import Timing, check_outputs

    if not (speed > 0 and math.isfinite(speed)):
        raise ValueError(f"--speed must be a positive number of moves per second, got {speed:g}")
    Timing(speed=speed)
    check_outputs(directory=render_dir, gif=gif, mp4=mp4, sheet=sheet)


def exit_code_for(exc: BaseException) -> int:
    if isinstance(exc, UnsolvableError):
        return EXIT_UNSOLVABLE
    if isinstance(exc, SearchLimitExceeded):
        return EXIT_LIMIT
    if isinstance(exc, InvalidSolutionError):
        return EXIT_INTERNAL
    return EXIT_BAD_INPUT


def error_line(exc: BaseException) -> str:
    message = str(exc) or exc.__class__.__name__
    return " ".join(message.split())


def fail(exc: BaseException, json_output: bool = False, extra: dict[str, Any] | None = None) -> NoReturn:
    """Report ``exc`` (one line on stderr, and a JSON object on stdout with ``--json``) and exit."""
    code = exit_code_for(exc)
    if json_output:
        payload: dict[str, Any] = {"error": error_line(exc), "kind": exc.__class__.__name__}
        stats = getattr(exc, "stats", None)
        if stats is not None:
            payload["stats"] = stats.to_dict() if hasattr(stats, "to_dict") else stats
        if extra:
            payload.update(extra)
        typer.echo(json.dumps(payload))
    typer.echo(f"npuzzle: {error_line(exc)}", err=True)
    raise typer.Exit(code)


HANDLED = (PuzzleError, ValueError, OSError)

ProgressCallback = Callable[[str, int, int], None]


@contextmanager
def progress_reporter() -> Iterator[ProgressCallback]:
    """A ``progress(message, done, total)`` callback that opens a rich progress bar on stderr the first
    time it is called (a pattern-database build, say) and closes it on exit; silent if never called (and
    rich is imported only then)."""
    bar: Any = None
    task = None

    def report(message: str, done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            bar = Progress(
                TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
                TimeElapsedColumn(), console=Console(stderr=True), transient=False,
            )  # fmt: skip
            bar.start()
            task = bar.add_task(message, total=max(total, 1))
        if task is not None:
            bar.update(task, description=message, completed=done, total=max(total, 1))

    try:
        yield report
    finally:
        if bar is not None:
            bar.stop()


@contextmanager
def working(message: str) -> Iterator[Callable[[str], None]]:
    """A spinner with ``message`` on stderr while the block runs (gone when it ends; nothing at all when
    stderr is not a terminal): for work of unknown length, such as reading a screenshot (one second to a
    minute), where no bar can say how far it has got. The block gets a function that shows what the work
    does now after ``message`` (a reader's ``progress``)."""
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda step: None
        return
    with console.status(message) as status:
        yield lambda step: status.update(f"{message.removesuffix(' …')}: {step} …")


__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INTERNAL",
    "EXIT_LIMIT",
    "EXIT_OK",
    "EXIT_UNSOLVABLE",
    "HANDLED",
    "BlankOption",
    "BoardArgument",
    "GifOption",
    "GoalOption",
    "JsonOption",
    "Mp4Option",
    "NumbersOption",
    "ProgressCallback",
    "RenderDirOption",
    "SheetOption",
    "SizeOption",
    "SpeedOption",
    "check_picture_options",
    "error_line",
    "exit_code_for",
    "fail",
    "is_layout_name",
    "korf_instance_line",
    "load_board",
    "load_goal",
    "looks_like_path",
    "parse_label_option",
    "progress_reporter",
    "read_board_text",
]
