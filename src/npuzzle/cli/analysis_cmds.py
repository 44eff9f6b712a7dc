"""``npuzzle stats``, ``analyze`` and ``simulate``: the numbers behind difficulty."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .common import (
    HANDLED,
    BlankOption,
    BoardArgument,
    GoalOption,
    JsonOption,
    SizeOption,
    fail,
    is_layout_name,
    load_board,
    load_goal,
)

MetricOption = Annotated[
    str, typer.Option("--metric", help="single (one tile per move) or multi (a row slide is one move).")
]
StatsSizeOption = Annotated[str, typer.Option("--size", "-s", help="Board size WxH, e.g. 3x3, 2x5, 4x4.")]


def register(app: typer.Typer) -> None:
    app.command(
        "stats",
        epilog="Examples:  npuzzle stats --size 3x3   ·   npuzzle stats --size 2x5 --metric multi --json   ·   "
        "npuzzle stats --size 4x4 --chart dist.png",
    )(stats)
    app.command(
        "analyze",
        epilog="Examples:  npuzzle analyze '8 6 7 / 2 5 4 / 3 0 1'   ·   npuzzle analyze 4x4:... --json",
    )(analyze)
    app.command(
        "simulate",
        epilog="Examples:  npuzzle simulate --size 3x3 --method tile-walk --iterations 0..60 --samples 500 "
        "--output sim   ·   npuzzle simulate --size 4x4 --method tile-walk --iterations 0..300:25 --samples 200",
    )(simulate)


def _goal_for_size(size: str, goal: str, blank: int):  # type: ignore[no-untyped-def]
    from ..goals import classic
    from ..goals import goal as goal_named
    from ..notation import parse_size

    width, height = parse_size(size)
    if is_layout_name(goal):
        return goal_named(goal, width, height, blank)
    return load_goal(goal, classic(width, height, blank=blank))


def stats(
    size: StatsSizeOption = "3x3",
    goal: GoalOption = "classic",
    blank: BlankOption = 0,
    metric: MetricOption = "single",
    chart: Annotated[
        Path | None, typer.Option("--chart", help="Write a histogram (PNG or SVG by suffix).")
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Positions at each optimal distance, the mean and the diameter (God's number) over a whole board.

    Full breadth-first search up to 12 cells (3x4, 4x3, 2x6: 239,500,800 positions, ~230 MB and minutes);
    the 4x4 (blank's home in a corner, single-tile moves) from the published counts (Korf & Schultze 2005)."""
    from ..analysis.distributions import BFS_CELLS, distribution
    from ..canonical import from_canonical

    try:
        goal_board = _goal_for_size(size, goal, blank)
        dist = distribution(goal_board, metric, max_cells=BFS_CELLS)
        if dist is None:
            raise ValueError(
                f"no distance distribution for a {goal_board.width}x{goal_board.height} board with this goal: "
                f"full search is done up to {BFS_CELLS} cells, and published counts are carried for the 4x4 "
                "with the blank's home in a corner (single-tile moves)"
            )
        farthest = [list(from_canonical(v, goal_board).tiles) for v in dist.farthest]
        if chart is not None:
            from ..analysis.simulate import plot_distribution

            plot_distribution(
                dist.counts, f"{dist.width}x{dist.height} ({dist.metric}): {dist.n_states:,} positions", chart
            )
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps({**dist.to_dict(), "goal": list(goal_board.tiles), "farthest": farthest}))
        return
    typer.echo(
        f"{dist.width}x{dist.height}, {dist.metric}-tile moves, goal {' '.join(map(str, goal_board.tiles))}"
    )
    typer.echo(f"source: {dist.source}")
    typer.echo(f"{'distance':>8} {'positions':>20} {'cumulative %':>13}")
    seen = 0
    for d, c in enumerate(dist.counts):
        seen += c
        typer.echo(f"{d:>8} {c:>20,} {100 * seen / dist.n_states:>12.4f}%")
    typer.echo(
        f"positions {dist.n_states:,} · mean {dist.mean:.4f} · median {dist.median} · diameter {dist.diameter} "
        f"({dist.n_farthest:,} position{'s' if dist.n_farthest != 1 else ''} at it)"
    )
    for tiles in farthest:
        typer.echo("farthest: " + " ".join(map(str, tiles)))


def analyze(
    board: BoardArgument,
    goal: GoalOption = "classic",
    size: SizeOption = None,
    blank: BlankOption = 0,
    seconds: Annotated[float, typer.Option("--seconds", help="Search budget for the optimal length.")] = 10.0,
    json_output: JsonOption = False,
) -> None:
    """How hard BOARD is: optimal length (or proven bounds), heuristic bounds, percentile among random positions."""
    from ..analysis.difficulty import analyze as run_analysis
    from ..errors import UnsolvableError
    from ..solvability import is_solvable

    try:
        start = load_board(board, size, blank)
        goal_board = load_goal(goal, start)
        if not is_solvable(start, goal_board):
            raise UnsolvableError("this board cannot reach the goal (see `npuzzle check --explain`)")
        result = run_analysis(start, goal_board, seconds=seconds)
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps(result.to_dict()))
        return
    if result.exact:
        typer.echo(f"optimal length: {result.lower_bound}")
    else:
        typer.echo(f"optimal length: between {result.lower_bound} and {result.upper_bound} (proven bounds)")
    typer.echo(f"Manhattan bound: {result.manhattan} · linear-conflict bound: {result.linear_conflict}")
    if result.percentile is not None:
        typer.echo(
            f"harder than {_percent(result.percentile)} % of positions (mean {result.distribution_mean:.2f}): {result.label}"
        )
    else:
        typer.echo("no distance distribution is known for this size and goal: no percentile")


def simulate(
    size: StatsSizeOption = "4x4",
    goal: GoalOption = "classic",
    blank: BlankOption = 0,
    method: Annotated[
        list[str], typer.Option("--method", "-m", help="tile-walk, walk or shuffle (repeat for several).")
    ] = ["tile-walk"],  # noqa: B006 - typer reads the default, never mutates it
    iterations: Annotated[
        str, typer.Option("--iterations", "-i", help="N, A..B (about 30 points), A..B:STEP or N,M,...")
    ] = "0..300",
    samples: Annotated[int, typer.Option("--samples", "-n", help="Boards per point.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same boards.")] = 0,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes (default: all cores).")] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write PREFIX.csv, PREFIX.png, PREFIX.svg.")
    ] = None,
    cache: Annotated[
        Path | None, typer.Option("--cache", help="JSON file of solved boards: a rerun resumes.")
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Mean optimal length of generated boards against the number of iterations (the seed article's chart)."""
    from ..analysis.simulate import parse_iterations, write_outputs
    from ..analysis.simulate import simulate as run_simulation

    try:
        goal_board = _goal_for_size(size, goal, blank)
        points = parse_iterations(iterations)
        sims = []
        for name in method:
            sims.append(
                _with_progress(
                    name,
                    lambda p, name=name: run_simulation(  # type: ignore[misc]
                        goal_board, name, points, samples, seed=seed, workers=workers, cache=cache, progress=p
                    ),
                    json_output,
                )
            )
        paths = write_outputs(sims, output) if output is not None else []
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps({"simulations": [s.to_dict() for s in sims], "files": [str(p) for p in paths]}))
        return
    for sim in sims:
        typer.echo(f"{sim.method} on {size}, {sim.samples} boards per point")
        typer.echo(f"{'iterations':>10} {'mean':>8} {'±95%':>7} {'sd':>6}")
        for r in sim.rows:
            typer.echo(f"{r.iterations:>10} {r.mean:>8.2f} {r.half_width:>7.2f} {r.sd:>6.2f}")
    if sims and sims[0].uniform_mean is not None:
        typer.echo(f"mean over all positions: {sims[0].uniform_mean:.4f}")
    for p in paths:
        typer.echo(f"wrote {p}")


def _with_progress(name, run, quiet):  # type: ignore[no-untyped-def]
    if quiet:
        return run(None)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(f"{name}: solving", total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run(tick)


def _percent(value: float) -> str:
    """One decimal, more near the ends (99.9989 must not print as 100.0)."""
    text = f"{value:.1f}"
    return f"{value:.4f}".rstrip("0") if text in ("0.0", "100.0") and 0 < value < 100 else text
