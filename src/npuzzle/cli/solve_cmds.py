"""``npuzzle solve``, ``compare`` and ``warmup``.

Kernels are imported inside the commands: ``npuzzle --help`` loads no numba and compiles nothing.
Exit codes (see :mod:`npuzzle.cli.common`): 0 solved, 1 unsolvable, 2 bad input, 3 a limit was hit.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ..search.limits import Limits
from ..solution import Solution
from .common import (
    EXIT_BAD_INPUT,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_UNSOLVABLE,
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
    fail,
    is_layout_name,
    load_board,
    load_goal,
    progress_reporter,
)

ALGORITHM_HELP = (
    "auto, bfs, bibfs, astar, idastar, wastar, greedy, pdb or constructive (auto: the fastest exact method; "
    "constructive: any size in milliseconds, far from optimal)."
)
HEURISTIC_HELP = (
    "misplaced, manhattan, linear-conflict, crossings or multi-pdb (the two admissible for --metric multi; "
    "multi-pdb, pattern tables built in about a second, is IDA*'s default there up to 16 cells)."
)

AlgorithmOption = Annotated[str, typer.Option("--algorithm", "-a", help=ALGORITHM_HELP)]
HeuristicOption = Annotated[str | None, typer.Option("--heuristic", "-H", help=HEURISTIC_HELP)]
WeightOption = Annotated[
    float | None, typer.Option("--weight", "-w", help="Weighted A*: path at most WEIGHT x optimal (>= 1).")
]
MetricOption = Annotated[
    str,
    typer.Option(
        "--metric", "-m", help="single (one tile per move) or multi (a slide of a row/column part)."
    ),
]
SecondsOption = Annotated[
    float | None, typer.Option("--max-seconds", help="Give up after this many seconds.")
]
NodesOption = Annotated[
    int | None, typer.Option("--max-nodes", help="Give up after expanding this many nodes.")
]
MemoryOption = Annotated[
    int | None, typer.Option("--max-memory-mb", help="Memory cap for A*/BFS tables in MB (default 2048).")
]


def register(app: typer.Typer) -> None:
    app.command(
        "solve",
        epilog="Examples:  npuzzle solve '8 6 7 / 2 5 4 / 3 0 1' --json   ·   "
        "npuzzle solve '12 13 11 2 4 5 3 14 1 9 15 6 8 7 0 10' --algorithm idastar --heuristic manhattan   ·   "
        "npuzzle solve '3 5 1 / 2 4 6 / 8 7 9' --blank 9 --show --metric multi",
    )(solve_command)
    app.command(
        "compare",
        epilog="Examples:  npuzzle compare '8 6 7 / 2 5 4 / 3 0 1'   ·   "
        "npuzzle compare '8 6 7 / 2 5 4 / 3 0 1' --algorithms astar,idastar --heuristics misplaced,manhattan --json",
    )(compare_command)
    app.command("warmup", epilog="Example:  npuzzle warmup")(warmup_command)


def _limits(max_seconds: float | None, max_nodes: int | None, max_memory_mb: int | None) -> Limits:
    return Limits(max_nodes=max_nodes, max_seconds=max_seconds, max_memory_mb=max_memory_mb)


def solve_command(
    board: Annotated[
        str | None,
        typer.Argument(
            help="The board (text, Tatham id, JSON, a file path or -). Omit it with --input FILE.",
            show_default=False,
        ),
    ] = None,
    goal: GoalOption = "classic",
    size: SizeOption = None,
    blank: BlankOption = 0,
    algorithm: AlgorithmOption = "auto",
    heuristic: HeuristicOption = None,
    weight: WeightOption = None,
    metric: MetricOption = "single",
    max_seconds: SecondsOption = None,
    max_nodes: NodesOption = None,
    max_memory_mb: MemoryOption = None,
    json_output: JsonOption = False,
    show: Annotated[
        bool, typer.Option("--show", help="Draw every intermediate board, the tile about to move highlighted.")
    ] = False,
    input_file: Annotated[
        str | None,
        typer.Option(
            "--input",
            "-i",
            help="Solve every board of FILE (one per line; # comments; a leading number before exactly WxH "
            "tiles, as in Korf's file, is ignored; - for standard input). Prints one JSON object per line.",
        ),
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="With --input: JSON lines output (the default and only form).")
    ] = False,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="With --input: worker processes (default: all cores).")
    ] = None,
    render_dir: RenderDirOption = None,
    picture: Annotated[
        Path | None, typer.Option("--picture", help="Cut the tiles from this image instead of drawing numbers.")
    ] = None,
    gif: GifOption = None,
    mp4: Mp4Option = None,
    sheet: SheetOption = None,
    speed: SpeedOption = 2.0,
    numbers: NumbersOption = True,
) -> None:
    """Solve a board: optimal by default (exit 0 solved, 1 unsolvable, 2 bad input, 3 limit hit)."""
    try:
        limits = _limits(max_seconds, max_nodes, max_memory_mb)
        if input_file is not None:
            if board is not None:
                raise ValueError("give either a BOARD or --input FILE, not both")
            _solve_batch(input_file, size, goal, blank, algorithm, jobs, limits)
            return
        if board is None:
            raise ValueError("missing BOARD (or --input FILE); see npuzzle solve --help")
        start = load_board(board, size, blank)
        goal_board = load_goal(goal, start)
        from ..search.solver import solve

        with progress_reporter() as progress:
            solution = solve(
                start,
                goal_board,
                algorithm=algorithm,
                heuristic=heuristic,
                weight=weight,
                limits=limits,
                metric=metric,
                progress=progress,
            )
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps(solution.to_dict()))
    else:
        tokens = solution.direction_list()
        typer.echo(
            f"{solution.length} moves ({'optimal' if solution.optimal else 'not proven optimal'}, "
            f"{solution.algorithm}{'/' + solution.heuristic if solution.heuristic else ''}, "
            f"{solution.stats.expanded:,} nodes expanded, {solution.stats.seconds:.3f} s)"
        )
        typer.echo("moves:      " + " ".join(map(str, solution.moves)))
        typer.echo("directions: " + " ".join(tokens) + "   (where each tile travels)")
    if show:
        _show_steps(solution, to_stderr=json_output)
    if any((render_dir, gif, mp4, sheet)):
        try:
            from ..render.animate import export_solution

            result = export_solution(
                solution, directory=render_dir, picture=picture, gif=gif, mp4=mp4, sheet=sheet,
                numbers=numbers, speed=speed,
            )  # fmt: skip
        except HANDLED as exc:
            fail(exc)
        for note in result.notes:
            typer.echo(f"npuzzle: {note}", err=True)
        if result.steps:
            typer.echo(f"wrote {len(result.steps)} step images in {result.steps[0].parent}", err=True)
        for path in (result.sheet, result.gif, result.mp4):
            if path is not None:
                typer.echo(f"wrote {path}", err=True)


def _show_steps(solution: Solution, to_stderr: bool) -> None:
    """Every board of the solution as a rich grid, the tile about to move highlighted."""
    from rich.console import Console

    from ..render.text import board_table

    console = Console(stderr=to_stderr)
    for i, step in enumerate(solution.boards()):
        upcoming = solution.moves[i] if i < solution.length else None
        title = "start" if i == 0 else f"after move {i} ({solution.moves[i - 1]})"
        console.print(board_table(step, highlight=upcoming, goal=solution.goal, title=title))


_BATCH_EXIT = {"UnsolvableError": EXIT_UNSOLVABLE, "SearchLimitExceeded": EXIT_LIMIT}


def _solve_batch(
    path: str, size: str | None, goal: str, blank: int, algorithm: str, jobs: int | None, limits: Limits
) -> None:
    """One JSON object per input board, in input order; bad lines are reported and do not stop the rest."""
    from ..batch import solve_file

    goal_spec: str | tuple[int, ...] = goal
    if not is_layout_name(goal):
        goal_spec = tuple(load_board(goal, size, blank).tiles)
    codes = {EXIT_OK}
    for result in solve_file(
        path, size=size, goal=goal_spec, blank=blank, algorithm=algorithm, jobs=jobs, limits=limits
    ):
        typer.echo(json.dumps(result))
        if "error" in result:
            typer.echo(f"npuzzle: line {result['line']}: {result['error']}", err=True)
            codes.add(_BATCH_EXIT.get(result.get("error_type", ""), EXIT_BAD_INPUT))
    # bad input outranks a limit, which outranks an unsolvable board
    worst = next(code for code in (EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_UNSOLVABLE, EXIT_OK) if code in codes)
    if worst != EXIT_OK:
        raise typer.Exit(worst)


def _split(value: str | None) -> list[str] | None:
    if not value:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


def compare_command(
    board: BoardArgument,
    goal: GoalOption = "classic",
    size: SizeOption = None,
    blank: BlankOption = 0,
    algorithms: Annotated[
        str | None, typer.Option("--algorithms", help="Comma-separated algorithms (default: all but pdb).")
    ] = None,
    heuristics: Annotated[
        str | None,
        typer.Option("--heuristics", help="Comma-separated heuristics for astar/idastar/wastar/greedy."),
    ] = None,
    weight: WeightOption = None,
    metric: MetricOption = "single",
    max_seconds: Annotated[float, typer.Option("--max-seconds", help="Time cap per combination.")] = 10.0,
    max_nodes: NodesOption = None,
    max_memory_mb: MemoryOption = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the rows as a JSON list.")] = False,
) -> None:
    """Run several algorithm x heuristic combinations on one board and print length, nodes and time."""
    try:
        start = load_board(board, size, blank)
        goal_board = load_goal(goal, start)
        limits = _limits(max_seconds, max_nodes, max_memory_mb)
        from ..search.compare import compare, default_combos

        combos = default_combos(start, _split(algorithms), _split(heuristics), metric)
        rows = compare(start, goal_board, combos, limits, metric, weight)
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps([row.to_dict() for row in rows]))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{start.width}x{start.height} board, {metric}-tile metric")
    for column in (
        "algorithm",
        "heuristic",
        "length",
        "optimal",
        "expanded",
        "generated",
        "max open",
        "seconds",
    ):
        table.add_column(column, justify="right" if column not in ("algorithm", "heuristic") else "left")
    for row in rows:
        if row.error:
            table.add_row(
                row.algorithm,
                row.heuristic or "-",
                "-",
                "-",
                f"{row.expanded:,}",
                f"{row.generated:,}",
                f"{row.max_open:,}",
                f"{row.seconds:.3f}",
                style="dim",
            )
        else:
            table.add_row(
                row.algorithm,
                row.heuristic or "-",
                str(row.length),
                "yes" if row.optimal else "no",
                f"{row.expanded:,}",
                f"{row.generated:,}",
                f"{row.max_open:,}",
                f"{row.seconds:.3f}",
            )
    Console().print(table)
    for row in rows:
        if row.error:
            typer.echo(f"{row.algorithm}/{row.heuristic or '-'}: {row.error}")


def warmup_command(
    json_output: Annotated[bool, typer.Option("--json", help="Print timings as JSON.")] = False,
) -> None:
    """Compile every search kernel now (numba caches the machine code next to the sources)."""
    from .._kernels.warmup import warmup

    t0 = time.perf_counter()
    timings: dict[str, Any] = warmup()
    total = time.perf_counter() - t0
    if json_output:
        typer.echo(json.dumps({"seconds": total, "kernels": timings}))
    else:
        for name, seconds in timings.items():
            typer.echo(f"{name:<28} {seconds:7.2f} s")
        typer.echo(f"{'total':<28} {total:7.2f} s")
