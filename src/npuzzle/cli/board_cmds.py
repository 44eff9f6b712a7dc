"""``npuzzle show``, ``check`` and ``generate``: the board model's face."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..notation import BOARD_STYLES, format_board
from ..solvability import explain, is_solvable
from .common import (
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
    str,
    typer.Option(
        "--size", "-s", help="Size WxH (width x height) of the boards to make, e.g. 4x3, or 5 for 5x5; sides 2..256."
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


def generate(
    size: GenerateSizeOption = "4x4",
    goal: GoalOption = "classic",
    blank: BlankOption = 0,
    method: Annotated[str, typer.Option("--method", "-m", help="shuffle (uniform), walk or tile-walk.")] = "shuffle",
    moves: Annotated[
        int | None,
        typer.Option("--moves", "-n", help="Random moves for walk; repetitions for tile-walk (default 150)."),
    ] = None,
    count: Annotated[int, typer.Option("--count", "-c", help="How many boards.")] = 1,
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
) -> None:
    """Generate solvable start positions for any size and goal layout."""
    from .. import generate as generation
    from ..goals import classic
    from ..goals import goal as goal_named

    try:
        if count < 1:
            raise ValueError(f"--count must be at least 1, got {count}")
        if moves is not None and moves < 0:
            raise ValueError(f"--moves must not be negative, got {moves}")
        width, height = _size(size)
        if is_layout_name(goal):
            goal_board = goal_named(goal, width, height, blank)
        else:
            goal_board = load_goal(goal, classic(width, height, blank=blank))
        rated = None
        if length is not None or min_length is not None:
            from ..analysis.difficulty import UNIFORMITY, band_for, generate_length

            low, high = band_for(goal_board, length, min_length)
            rated = generate_length(goal_board, low, high, count=count, seed=seed)
            boards = [r.board for r in rated]
            typer.echo(f"npuzzle: length {low}..{high}, {UNIFORMITY[rated[0].strategy]}", err=True)
        else:
            boards = generation.generate(goal_board, method, moves=moves, count=count, seed=seed)
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output and rated is not None:
        typer.echo(
            json.dumps(
                {
                    "width": goal_board.width,
                    "height": goal_board.height,
                    "blank": goal_board.blank,
                    "goal": list(goal_board.tiles),
                    "boards": [list(b.tiles) for b in boards],
                    "lengths": [r.to_dict() for r in rated],
                    "strategy": rated[0].strategy,
                    "uniformity": UNIFORMITY[rated[0].strategy],
                }
            )
        )
    elif json_output:
        typer.echo(
            json.dumps(
                {
                    "width": goal_board.width,
                    "height": goal_board.height,
                    "blank": goal_board.blank,
                    "goal": list(goal_board.tiles),
                    "boards": [list(b.tiles) for b in boards],
                }
            )
        )
    else:
        for b in boards:
            typer.echo(format_board(b, "line"))


def _size(size: str | None) -> tuple[int, int]:
    from ..notation import parse_size

    return parse_size(size or "4x4")
