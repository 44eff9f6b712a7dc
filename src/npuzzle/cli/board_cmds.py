"""``npuzzle show``, ``check`` and ``generate``: the board model's face."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ..notation import BOARD_STYLES, format_board
from ..solvability import explain, is_solvable
from .common import (
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_UNSOLVABLE,
    HANDLED,
    BlankOption,
    BoardArgument,
    GoalOption,
    SizeOption,
    fail,
    is_layout_name,
    load_board,
    load_goal,
)

GenerateSizeOption = Annotated[
    str | None,
    typer.Option(
        "--size", "-s", help="Size WxH (width x height) of the boards to make, e.g. 4x3, or 5 for 5x5; sides 2..256 "
        "(default: the size of a --goal given as tiles, else 4x4).", show_default=False,
    ),
]
FormatOption = Annotated[
    str, typer.Option("--format", "-f", help=f"Output style: {', '.join(BOARD_STYLES)} (rich grid if omitted).")
]


def register(app: typer.Typer) -> None:
    app.command(
        "show",
        epilog="Examples:  npuzzle show '1 2 3 / 4 5 6 / 7 _ 8'   ·   npuzzle show 4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15 -f json",
    )(show)
    app.command(
        "check",
        epilog="Examples:  npuzzle check '1 2 3 / 4 5 6 / 8 7 0' --explain   ·   "
        "npuzzle check '8 1 2 / 0 4 3 / 7 6 5' --goal spiral --json",
    )(check)
    app.command(
        "generate",
        epilog="Examples:  npuzzle generate --size 4x4 --count 3 --seed 1   ·   "
        "npuzzle generate --size 5x3 --goal snake --method walk --moves 40 --json",
    )(generate)


def show(
    board: BoardArgument,
    size: SizeOption = None,
    blank: BlankOption = 0,
    fmt: FormatOption = "",
) -> None:
    """Draw a board (or convert it to another notation with --format)."""
    try:
        parsed = load_board(board, size, blank)
        if fmt:
            typer.echo(format_board(parsed, fmt))
            return
    except HANDLED as exc:
        fail(exc)
    _print_board(parsed)


def _print_board(board: object, highlight: int | None = None) -> None:
    """Rich grid when the renderer is available, plain text otherwise."""
    try:
        from rich.console import Console

        from ..render.text import board_table
    except ImportError:
        typer.echo(str(board))
        return
    Console().print(board_table(board, highlight=highlight))  # type: ignore[arg-type]


def check(
    board: BoardArgument,
    goal: GoalOption = "classic",
    size: SizeOption = None,
    blank: BlankOption = 0,
    explain_: Annotated[bool, typer.Option("--explain", "-e", help="Say why, in a sentence.")] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """Say whether BOARD can reach the goal. Exit 0 solvable, 1 unsolvable, 2 bad input."""
    try:
        start = load_board(board, size, blank)
        goal_board = load_goal(goal, start)
        facts = explain(start, goal_board)
        if facts.solvable != is_solvable(start, goal_board):  # two derivations of one fact must agree
            raise RuntimeError("solvability tests disagree; please report this board")
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        payload = {"explanation": facts.sentence, **facts.to_dict(), "goal": list(goal_board.tiles)}
        payload.pop("sentence")
        typer.echo(json.dumps(payload))
    else:
        typer.echo("solvable" if facts.solvable else "unsolvable")
        if explain_:
            typer.echo(facts.sentence)
    raise typer.Exit(EXIT_OK if facts.solvable else EXIT_UNSOLVABLE)


MAX_JSON_BOARDS = 100_000  # --json prints one object, held in memory (~5 MB of 4x4 boards per 100,000)


def generate(
    size: GenerateSizeOption = None,
    goal: GoalOption = "classic",
    blank: BlankOption = 0,
    method: Annotated[str, typer.Option("--method", "-m", help="shuffle (uniform), walk or tile-walk.")] = "shuffle",
    moves: Annotated[
        int | None,
        typer.Option(
            "--moves",
            "-n",
            help="Random moves for walk (default 25 per cell, at most 10,000,000); repetitions for tile-walk "
            "(default 150, at most 1,000,000).",
        ),
    ] = None,
    count: Annotated[
        int,
        typer.Option(
            "--count",
            "-c",
            help="How many boards. Printed one per line as they are made, in constant memory (with --json: "
            f"at most {MAX_JSON_BOARDS:,}).",
        ),
    ] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="Same seed, same boards.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    length: Annotated[
        str | None,
        typer.Option(
            "--length",
            "-l",
            help="Optimal length N or band A..B, proven (replaces --method). Exactly uniform among all boards of "
            "the band up to 10 cells (BFS) and for common 4x4 bands (rejection from shuffles); otherwise a walk "
            "outward by proven moves (biased); above 16 cells by a walk and a proven lower bound (bounds shown).",
        ),
    ] = None,
    min_length: Annotated[
        int | None, typer.Option("--min-length", help="At least N optimal moves (up to the diameter).")
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            help="With --length/--min-length: worker processes trying candidates (0: all cores). The same "
            "boards as --jobs 1 for a seed, only sooner.",
        ),
    ] = 1,
    max_seconds: Annotated[
        float | None,
        typer.Option(
            "--max-seconds",
            help="Stop after this long: the boards made so far are printed, then exit 3 (a limit was hit).",
        ),
    ] = None,
) -> None:
    """Generate solvable start positions for any size and goal layout."""
    import time

    from .. import generate as generation
    from ..errors import SearchLimitExceeded
    from ..goals import classic
    from ..goals import goal as goal_named

    try:
        if count < 1:
            raise ValueError(f"--count must be at least 1, got {count}")
        if json_output and count > MAX_JSON_BOARDS:
            raise ValueError(
                f"--count {count:,} with --json is above {MAX_JSON_BOARDS:,} (one JSON object is held in "
                "memory): leave out --json to stream one board per line, or ask for fewer"
            )
        if moves is not None and moves < 0:
            raise ValueError(f"--moves must not be negative, got {moves}")
        if max_seconds is not None and not max_seconds > 0:
            raise ValueError(f"--max-seconds must be positive, got {max_seconds}")
        if jobs < 0:
            raise ValueError(f"--jobs must be 0 (all cores) or more, got {jobs}")
        if size is None and not is_layout_name(goal):  # a goal typed as tiles has the size itself
            typed = load_board(goal, None, blank)
            width, height = typed.width, typed.height
        else:
            width, height = _size(size)
        if is_layout_name(goal):
            goal_board = goal_named(goal, width, height, blank)
        else:
            goal_board = load_goal(goal, classic(width, height, blank=blank))
        rated_stream = None
        if length is not None or min_length is not None:
            from ..analysis.difficulty import UNIFORMITY, band_for, choose_strategy, iter_length
            from ..batch.runner import default_workers

            low, high = band_for(goal_board, length, min_length)
            rated_stream = iter_length(
                goal_board, low, high, seed=seed, max_seconds=max_seconds, jobs=jobs or default_workers()
            )
            strategy = choose_strategy(goal_board, low, high)
            typer.echo(f"npuzzle: length {low}..{high}, {UNIFORMITY[strategy]}", err=True)
            board_stream = None
        else:
            board_stream = generation.iter_generate(goal_board, method, moves=moves, count=count, seed=seed)
    except HANDLED as exc:
        fail(exc, json_output)

    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    boards: list[Any] = []  # --json only
    rated: list[Any] = []
    made = 0
    stopped: BaseException | None = None
    try:
        while made < count:
            if rated_stream is not None:
                r = next(rated_stream)
                board = r.board
                if json_output:
                    rated.append(r)
            else:
                if deadline is not None and time.monotonic() > deadline:
                    raise SearchLimitExceeded(f"--max-seconds {max_seconds:g} reached", None, "max_seconds")
                board = next(board_stream)  # type: ignore[arg-type]
            made += 1
            if json_output:
                boards.append(board)
            else:
                typer.echo(format_board(board, "line"))
    except SearchLimitExceeded as exc:
        stopped = exc
    except HANDLED as exc:
        fail(exc, json_output)
    finally:
        if rated_stream is not None:
            rated_stream.close()
    if json_output:
        payload = {
            "width": goal_board.width,
            "height": goal_board.height,
            "blank": goal_board.blank,
            "goal": list(goal_board.tiles),
            "boards": [list(b.tiles) for b in boards],
        }
        if rated_stream is not None:
            payload["lengths"] = [r.to_dict() for r in rated]
            payload["strategy"] = strategy
            payload["uniformity"] = UNIFORMITY[strategy]
        if stopped is not None:
            payload["stopped"] = f"{stopped}: {made} of {count} boards made"
        typer.echo(json.dumps(payload))
    if stopped is not None:
        typer.echo(f"npuzzle: {stopped}: {made} of {count} boards made", err=True)
        raise typer.Exit(EXIT_LIMIT)


def _size(size: str | None) -> tuple[int, int]:
    from ..notation import parse_size

    return parse_size(size or "4x4")
