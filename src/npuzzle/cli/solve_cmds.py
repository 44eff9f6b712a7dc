"""``npuzzle solve``, ``compare`` and ``warmup``.

Kernels are imported inside the commands: ``npuzzle --help`` loads no numba and compiles nothing.
Exit codes (see :mod:`npuzzle.cli.common`): 0 solved, 1 unsolvable, 2 bad input, 3 a limit was hit.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import PuzzleError, SearchLimitExceeded, SolverOptionError
from ..search.limits import Limits
from ..solution import Solution
from .common import (
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_UNSOLVABLE,
    HANDLED,
    AddressOption,
    BlankOption,
    BoardArgument,
    EngineOption,
    GifOption,
    GoalOption,
    JsonOption,
    Mp4Option,
    NumbersOption,
    ProgressCallback,
    RenderDirOption,
    SheetOption,
    SizeOption,
    SpeedOption,
    check_picture_options,
    fail,
    is_layout_name,
    load_board,
    load_goal,
    progress_reporter,
)

ALGORITHM_HELP = (
    "auto, bfs, bibfs, astar, idastar, wastar, greedy, pdb or constructive (auto: a quick answer, then the "
    "rest of the time budget improving it, optimal when proven in time; with --optimal the fastest exact "
    "method; constructive: any size in milliseconds, far from optimal)."
)
HEURISTIC_HELP = (
    "misplaced, manhattan, linear-conflict, walking-distance (boards up to 4x4, 2x6, 3x5; single metric), "
    "crossings or multi-pdb (the two admissible for --metric multi; "
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
    float | None,
    typer.Option(
        "--max-seconds",
        help="Time budget. auto answers within it (default 10 s) with the best solution found; named "
        "algorithms and --optimal give up when it runs out (exit 3).",
    ),
]
OptimalOption = Annotated[
    bool,
    typer.Option("--optimal", help="Insist on a proven optimal answer (exit 3 if a limit is hit first)."),
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
    optimal: OptimalOption = False,
    json_output: JsonOption = False,
    partition: Annotated[
        str | None,
        typer.Option(
            "--partition",
            help="With --algorithm pdb: the pattern databases to use (7-8, 6-6-3, 5-5-5 on 4x4, 6-6-6-6 on "
            "5x5, auto); they must be built (`npuzzle pdb build`). Default: the best built.",
            show_default=False,
        ),
    ] = None,
    show: Annotated[
        bool, typer.Option("--show", help="Draw every intermediate board, the tile about to move highlighted.")
    ] = False,
    input_file: Annotated[
        str | None,
        typer.Option(
            "--input",
            "-i",
            help="Solve every board of FILE (one per line, read like BOARD, so a Korf instance line's leading "
            "number is ignored; # comments; - for standard input). Prints one JSON object per line. "
            "Exit code: 0 when every board was solved, else the worst over all lines (2 a bad line, then 3 a "
            "limit hit, then 1 unsolvable), the same when a run is resumed with --output.",
        ),
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="With --input: JSON lines output (the default and only form).")
    ] = False,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="With --input: worker processes (default: all cores).")
    ] = None,
    engine: EngineOption = "local",
    address: AddressOption = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="With --input: append each result to this JSON-lines file as it finishes (each record carries "
            "its input \"line\"); run the same command again after an interruption and it solves only the "
            "lines not there yet. The file ends in input order once every line is done.",
        ),
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
    """Solve a board: the best answer within the time budget, optimal when proven (exit 0 solved,
    1 unsolvable, 2 bad input, 3 a limit hit by a named algorithm or --optimal)."""
    try:
        limits = _limits(max_seconds, max_nodes, max_memory_mb)
        check_picture_options(render_dir, gif, mp4, sheet, speed)  # before the search, not after it
        if input_file is not None:
            if board is not None:
                raise ValueError("give either a BOARD or --input FILE, not both")
            drawn = [name for name, value in (("--gif", gif), ("--mp4", mp4), ("--sheet", sheet),
                     ("--render", render_dir), ("--show", show)) if value]  # fmt: skip
            if drawn:  # they were ignored without a word
                raise ValueError(f"{', '.join(drawn)} draw one board's solution: use them without --input")
            unused = [f"{name} {value}" for name, value in (("--heuristic", heuristic), ("--weight", weight),
                      ("--partition", partition), ("--metric", None if metric == "single" else metric))
                      if value is not None]  # fmt: skip
            if unused:  # batch jobs carry none of them: they were ignored without a word too
                raise SolverOptionError(
                    f"{', '.join(unused)}: not available with --input, whose boards are solved by --algorithm "
                    "with its default heuristic in the single-tile metric; solve one BOARD to use them"
                )
            _solve_batch(input_file, size, goal, blank, algorithm, jobs, limits, output, optimal, engine, address)
            return
        if engine != "local" or address is not None:
            raise ValueError("--engine and --address go with --input FILE (one board is solved here)")
        if output is not None:
            raise ValueError("--output goes with --input FILE (a single board's answer goes to standard output)")
        if board is None:
            raise ValueError("missing BOARD (or --input FILE); see npuzzle solve --help")
        start = load_board(board, size, blank)
        goal_board = load_goal(goal, start)
        from ..search.solver import choose_algorithm, solve

        if partition is not None and algorithm != "pdb":
            raise ValueError(f"--partition {partition} picks pattern databases: use it with --algorithm pdb")
        if partition is not None:  # solve_pdb takes no heuristic: refuse one as solve() would
            choose_algorithm(start, algorithm, heuristic, weight, metric)
        with live_reporter() as (progress, on_update):
            if partition is not None:
                from ..search.pdb_backend import solve_pdb

                solution = solve_pdb(
                    start, goal_board, limits=limits, metric=metric, progress=progress, partition=partition,
                    build=False,
                )  # fmt: skip
            else:
                solution = solve(
                    start,
                    goal_board,
                    algorithm=algorithm,
                    heuristic=heuristic,
                    weight=weight,
                    limits=limits,
                    metric=metric,
                    progress=progress,
                    optimal=optimal,
                    on_update=on_update,
                    interruptible=True,
                )
    except HANDLED as exc:
        fail(exc, json_output)
    except KeyboardInterrupt:  # before the first answer (after it, the best so far is printed)
        fail(SearchLimitExceeded("interrupted before a first answer", None, "interrupt"), json_output)
    if json_output:
        typer.echo(json.dumps(solution.to_dict()))
    else:
        tokens = solution.direction_list()
        typer.echo(f"{solution.length} moves ({summary(solution)})")
        typer.echo("moves:      " + " ".join(map(str, solution.moves)))
        typer.echo("directions: " + " ".join(tokens) + "   (where each tile travels)")
        for note in solution.notes:
            typer.echo(f"note:       {note}")
    if show:
        _show_steps(solution, to_stderr=json_output)
    if algorithm == "auto" and metric == "single" and max_seconds is None:  # a budget given: no extra wait
        _prepare_later_solves(start, goal_board)
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


def summary(solution: Solution) -> str:
    """What kind of answer it is and what it cost: ``optimal, pdb/..., 1,234 nodes expanded, search 0.12 s,
    start-up 0.30 s`` or ``at most 87, at least 53 (not proven optimal), ...``."""
    if solution.optimal:
        kind = "optimal"
    elif solution.lower_bound is not None:
        kind = f"at most {solution.length}, at least {solution.lower_bound}: not proven optimal"
    else:
        kind = "not proven optimal"
    method = f"{solution.algorithm}{'/' + solution.heuristic if solution.heuristic else ''}"
    stats = solution.stats
    timing = f"search {stats.seconds:.3f} s"
    if stats.startup_seconds:
        timing += f", start-up {stats.startup_seconds:.3f} s"
    return f"{kind}, {method}, {stats.expanded:,} nodes expanded, {timing}"


@contextmanager
def live_reporter() -> Iterator[tuple[ProgressCallback, Callable[[Any], None]]]:
    """``(progress, on_update)`` callbacks for :func:`npuzzle.search.solve`. On a terminal, one live line on
    stderr shows the step running, the best length and the proven bound (and a bar while tables are built);
    elsewhere only one-time work (a table build) is announced, one plain line on stderr."""
    import sys

    if not sys.stderr.isatty():  # checked before importing rich: a piped or scripted solve starts sooner
        console = None
    else:
        from rich.console import Console

        console = Console(stderr=True)
    if console is None or not console.is_terminal:
        announced: set[str] = set()

        def plain_progress(message: str, done: int, total: int) -> None:
            if message.startswith("building") and message not in announced and len(announced) < 3:
                announced.add(message)
                typer.echo(f"npuzzle: {message}", err=True)

        yield plain_progress, lambda update: None
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    bar = Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
        console=console, transient=True,
    )  # fmt: skip
    task = bar.add_task("solving", total=None)
    state = {"best": "", "step": "solving"}

    def show() -> None:
        bar.update(task, description=f"{state['step']}{state['best']}")

    def progress(message: str, done: int, total: int) -> None:
        state["step"] = message
        bar.update(task, completed=done, total=total if total > 0 else None)
        show()

    def on_update(update: Any) -> None:
        state["step"] = update.step
        if update.best_length is not None:
            state["best"] = f" · best {update.best_length} moves, optimum at least {update.lower_bound}"
        bar.update(task, total=None)
        show()

    bar.start()
    try:
        yield progress, on_update
    finally:
        bar.stop()


def _prepare_later_solves(start: Any, goal_board: Any) -> None:
    """After the answer is out: build the pattern tables later solves of this size use (4×4 and 5×5-sized
    boards, first run only), saying so on stderr. Failing here never fails the solve."""
    from ..search.anytime import prepare_tables, tables_for_later

    missing = tables_for_later(start, goal_board)
    if missing is None:
        return
    partition, seconds = missing
    typer.echo(
        f"npuzzle: building the {start.width}x{start.height} {partition.label} pattern tables for later "
        f"solves (first run only, about {max(seconds, 1):.0f} s) ...",
        err=True,
    )
    with progress_reporter() as progress:
        try:
            note = prepare_tables(start, goal_board, progress)
        except (ImportError, PuzzleError, ValueError, OSError, MemoryError) as exc:
            typer.echo(f"npuzzle: could not build pattern tables for later solves: {exc}", err=True)
            return
    if note:
        typer.echo(f"npuzzle: {note}", err=True)


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
    path: str,
    size: str | None,
    goal: str,
    blank: int,
    algorithm: str,
    jobs: int | None,
    limits: Limits,
    output: str | None = None,
    optimal: bool = False,
    engine: str = "local",
    address: str | None = None,
) -> None:
    """One JSON object per input board in input order, or appended to a resumable ``--output`` file; bad lines
    are reported by number and do not stop the rest (see :mod:`npuzzle.cli.batch_run`)."""
    from ..notation import parse_size
    from .batch_run import solve_batch

    if jobs is not None and jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    goal_spec: str | tuple[int, ...] = goal
    if not is_layout_name(goal):
        goal_spec = tuple(load_board(goal, size, blank).tiles)
    worst = solve_batch(
        path, size=parse_size(size) if size else None, goal=goal_spec, blank=blank, algorithm=algorithm,
        jobs=jobs, limits=limits, output=output, optimal=optimal, engine=engine, address=address,
    )  # fmt: skip
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
    """Run several algorithm x heuristic combinations on one board and print length, nodes and time (each
    kernel is loaded or compiled first on a one-move board: start-up is shown apart from search time)."""
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
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{start.width}x{start.height} board, {metric}-tile metric", box=box.SIMPLE_HEAD)
    for column in (
        "algorithm",
        "heuristic",
        "length",
        "proven",
        "expanded",
        "generated",
        "max open",
        "seconds",
        "start-up",
    ):
        text = column in ("algorithm", "heuristic")
        table.add_column(column, justify="left" if text else "right", no_wrap=True)
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
                f"{row.startup_seconds:.3f}",
                style="dim",
            )
        else:
            table.add_row(
                row.algorithm,
                row.heuristic or "-",
                str(row.length),
                "yes" if row.proven_optimal else "no",
                f"{row.expanded:,}",
                f"{row.generated:,}",
                f"{row.max_open:,}",
                f"{row.seconds:.3f}",
                f"{row.startup_seconds:.3f}",
            )
    console = Console()
    # not a terminal (a file, a pipe): wide enough for every column, whatever COLUMNS says
    (console if console.is_terminal else Console(width=max(console.width, 120))).print(table)
    for row in rows:
        if row.error:
            typer.echo(f"{row.algorithm}/{row.heuristic or '-'}: {row.error}")


def warmup_command(
    json_output: Annotated[bool, typer.Option("--json", help="Print timings as JSON.")] = False,
) -> None:
    """Compile every kernel now, the search and the picture reassembly (numba caches the machine code next to
    the sources)."""
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
