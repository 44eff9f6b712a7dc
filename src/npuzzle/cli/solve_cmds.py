"""``npuzzle solve``, ``compare`` and ``warmup``.

Kernels are imported inside the commands: ``npuzzle --help`` loads no numba and compiles nothing.
Exit codes (see :mod:`npuzzle.cli.common`): 0 solved, 1 unsolvable, 2 bad input, 3 a limit was hit.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

from ..notation import format_board
from ..search.limits import Limits
from .common import (
    HANDLED,
    BlankOption,
    BoardArgument,
    GoalOption,
    SizeOption,
    fail,
    load_board,
    load_goal,
)

ALGORITHM_HELP = "auto, bfs, bibfs, astar, idastar, wastar, greedy or pdb (auto: the fastest exact method)."
HEURISTIC_HELP = (
    "misplaced, manhattan, linear-conflict or crossings (the multi-tile metric's admissible bound)."
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
    board: BoardArgument,
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
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the solution as one JSON object.")
    ] = False,
    show: Annotated[bool, typer.Option("--show", help="Print every intermediate board.")] = False,
) -> None:
    """Solve a board: optimal by default (exit 0 solved, 1 unsolvable, 2 bad input, 3 limit hit)."""
    try:
        start = load_board(board, size, blank)
        goal_board = load_goal(goal, start)
        limits = _limits(max_seconds, max_nodes, max_memory_mb)
        from ..search.solver import solve

        solution = solve(
            start,
            goal_board,
            algorithm=algorithm,
            heuristic=heuristic,
            weight=weight,
            limits=limits,
            metric=metric,
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
        typer.echo("directions: " + " ".join(tokens))
    if show:
        for i, step in enumerate(solution.boards()):
            typer.echo(
                f"\n{'start' if i == 0 else f'after move {i} ({solution.moves[i - 1]})'}:", err=json_output
            )
            typer.echo(format_board(step, "grid"), err=json_output)


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
