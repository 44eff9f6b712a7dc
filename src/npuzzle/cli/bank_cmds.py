"""``npuzzle bank fill|draw|stats|export|import``: a file of graded puzzles (:mod:`npuzzle.bank`).

Every command takes ``--db PATH`` (default ``$NPUZZLE_BANK``, else ``npuzzle.bank`` in the user data folder).
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import (
    EXIT_BAD_INPUT,
    EXIT_LIMIT,
    EXIT_OK,
    HANDLED,
    AddressOption,
    BlankOption,
    EngineOption,
    JsonOption,
    fail,
    progress_reporter,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..bank.store import Bank
    from ..board import Board

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="The bank file (default: $NPUZZLE_BANK, else npuzzle.bank in the user data folder).",
                 show_default=False),
]  # fmt: skip
BankSizeOption = Annotated[str, typer.Option("--size", "-s", help="Board size WxH.")]
BankGoalOption = Annotated[
    str,
    typer.Option("--goal", "-g", help="Goal layout (classic, blank-first, snake, spiral, column, blank-at:CELL) "
                 "or the goal's tiles as text."),
]  # fmt: skip


def _goal(size: str, goal: str, blank: int) -> tuple[Board, str]:
    """The goal board and the name it is stored under (the layout name, or ``custom`` for tiles)."""
    from ..goals import classic
    from ..goals import goal as goal_named
    from ..notation import parse_size
    from .common import is_layout_name, load_goal

    width, height = parse_size(size)
    if is_layout_name(goal):
        return goal_named(goal, width, height, blank), goal.strip().lower()
    return load_goal(goal, classic(width, height, blank=blank)), "custom"


def _open(db: Path | None, create: bool) -> Bank:
    from ..bank.store import open_bank

    return open_bank(db, create=create)


def fill(
    size: BankSizeOption = "4x4",
    goal: BankGoalOption = "classic",
    blank: BlankOption = 0,
    length: Annotated[
        str, typer.Option("--length", "-l", help="Optimal length N or band A..B of the puzzles to make.")
    ] = "30..60",
    count: Annotated[
        int, typer.Option("--count", "-c", help="Puzzles this fill stream should hold in total (run the same "
                          "command again to resume; a larger count extends it).")
    ] = 100,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Local worker processes (default: one per usable core).")
    ] = None,
    engine: EngineOption = "local",
    address: AddressOption = None,
    seed: Annotated[int, typer.Option("--seed", help="The stream's seed: another seed, other boards.")] = 0,
    spread: Annotated[
        str,
        typer.Option("--spread", help="even: the same number of puzzles per length of the band; band: uniform "
                     "over all positions of the band (lengths in their natural proportions)."),
    ] = "even",
    max_seconds: Annotated[
        float | None, typer.Option("--max-seconds", help="Stop after this long (run again to go on).")
    ] = None,
    db: DbOption = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")] = True,
    json_output: JsonOption = False,
) -> int:
    """Generate and grade puzzles into the bank; each is stored as soon as it is proven, so a killed fill
    loses nothing: start the same command again to resume."""
    from ..analysis.difficulty import parse_band
    from ..bank.fill import MAX_COUNT
    from ..bank.fill import fill as fill_bank
    from ..batch.ray_engine import engine_executor

    try:
        if not 1 <= count <= MAX_COUNT:
            raise ValueError(f"--count must be in 1..{MAX_COUNT:,}, got {count}")
        if jobs is not None and not 1 <= jobs <= 256:
            raise ValueError(f"--jobs must be in 1..256, got {jobs}")
        if max_seconds is not None and not max_seconds > 0:
            raise ValueError(f"--max-seconds must be positive, got {max_seconds}")
        goal_board, goal_name = _goal(size, goal, blank)
        low, high = parse_band(length)
        with (
            engine_executor(engine, address=address, n_jobs=jobs) as executor,
            _open(db, create=True) as bank,
            (progress_reporter() if progress and not json_output else nullcontext(None)) as report,
        ):
            result = fill_bank(
                bank, goal_board, low=low, high=high, count=count, goal_name=goal_name, seed=seed, spread=spread,
                n_jobs=jobs, max_seconds=max_seconds, executor=executor,
                progress=(lambda done, total: report("filling", done, total)) if report else None,
            )  # fmt: skip
            path = bank.path
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps({**result.to_dict(), "db": str(path)}))
    for message in result.errors:
        typer.echo(f"npuzzle: {message}", err=True)
    rate = result.added / result.seconds if result.seconds > 0 else 0.0
    typer.echo(
        f"npuzzle: {result.added} puzzle{'s' if result.added != 1 else ''} added to {path} "
        f"({result.stored} of {count} in this stream; {result.duplicates} duplicates skipped; "
        f"{result.seconds:.1f} s, {rate:.2f}/s)",
        err=True,
    )
    if result.stopped == "done":
        if result.added == 0:
            typer.echo("npuzzle: this stream was already complete: a larger --count extends it, another "
                       "--seed starts another one", err=True)  # fmt: skip
        return EXIT_OK
    why = {
        "time": "--max-seconds ran out; run the same command again to go on",
        "exhausted": "the last jobs only found boards already stored: the band holds few more positions",
        "errors": "jobs kept failing (see above)",
    }[result.stopped]
    typer.echo(f"npuzzle: stopped before {count}: {why}", err=True)
    return EXIT_BAD_INPUT if result.stopped == "errors" else EXIT_LIMIT


def draw(
    size: BankSizeOption = "4x4",
    goal: BankGoalOption = "classic",
    blank: BlankOption = 0,
    length: Annotated[int | None, typer.Option("--length", "-l", help="Exact optimal length.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Draw reproducibly.")] = None,
    db: DbOption = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print a JSON object (board, goal, length, bounds, solution, ...).")
    ] = False,
) -> None:
    """A random stored puzzle of the size, goal and optimal length asked for."""
    import random

    from ..errors import BankError
    from ..notation import format_board

    try:
        goal_board, _ = _goal(size, goal, blank)
        with _open(db, create=False) as bank:
            record = bank.draw(goal_board, length, random.Random(seed) if seed is not None else None)
            if record is None:
                stored = bank.lengths(goal_board)
                have = (
                    f"lengths stored for it: {_ranges(sorted(stored))}" if stored else "none stored for it"
                )
                raise BankError(
                    f"no {goal_board.width}x{goal_board.height} {goal} puzzle"
                    + (f" of length {length}" if length is not None else "")
                    + f" in {bank.path} ({have}); add some with npuzzle bank fill"
                )
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps({"id": record.id, **record.to_dict()}))
        return
    typer.echo(format_board(record.board, "grid"))
    if record.optimal:
        typer.echo(f"optimal length {record.length}")
    else:
        typer.echo(f"length between {record.lower_bound} and {record.upper_bound}")


def _ranges(values: list[int]) -> str:
    """``[3, 4, 5, 9]`` -> ``3..5, 9``."""
    parts: list[str] = []
    start = previous = None
    for v in [*values, None]:
        if v is not None and previous is not None and v == previous + 1:
            previous = v
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}..{previous}")
        start = previous = v
    return ", ".join(parts)


def stats(
    db: DbOption = None,
    json_output: JsonOption = False,
    chart: Annotated[
        Path | None, typer.Option("--chart", help="Write a histogram (PNG, SVG or PDF) of the counts per length.")
    ] = None,
) -> None:
    """How many puzzles the bank holds per size, goal and optimal length."""
    try:
        with _open(db, create=False) as bank:
            rows = bank.stats()
            path = bank.path
        if chart is not None:
            _chart(rows, chart)
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps({"db": str(path), "total": sum(r["count"] for r in rows), "groups": rows}))
        return
    if not rows:
        typer.echo(f"{path}: empty")
        return
    groups: dict[tuple[int, int, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        key = (row["width"], row["height"], row["goal_name"], " ".join(map(str, row["goal"])))
        groups.setdefault(key, []).append(row)
    typer.echo(f"{path}: {sum(r['count'] for r in rows):,} puzzles")
    for (width, height, name, tiles), items in groups.items():
        total = sum(r["count"] for r in items)
        typer.echo(f"{width}x{height} {name} (goal {tiles}): {total:,}")
        for r in items:
            what = f"length {r['length']:>3}" if r["length"] is not None else (
                f"bounds {r['min_lower_bound']}..{r['max_upper_bound']}"
            )  # fmt: skip
            typer.echo(f"  {what}: {r['count']:,}")
    if chart is not None:
        typer.echo(f"npuzzle: chart written to {chart}", err=True)


def _chart(rows: list[dict[str, Any]], path: Path) -> None:
    """One bar chart of puzzles per optimal length, a bar series per size and goal; written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._files import atomic_path

    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg", ".pdf"):
        raise ValueError(f"--chart {path}: give a .png, .svg or .pdf file")
    groups: dict[str, dict[int, int]] = {}
    for row in rows:
        if row["length"] is None:
            continue
        label = f"{row['width']}x{row['height']} {row['goal_name']}"
        groups.setdefault(label, {})[row["length"]] = groups.get(label, {}).get(row["length"], 0) + row["count"]
    figure, axes = plt.subplots(figsize=(8, 4.5))
    n = max(len(groups), 1)
    for k, (label, counts) in enumerate(sorted(groups.items())):
        xs = sorted(counts)
        axes.bar([x + (k - (n - 1) / 2) * 0.8 / n for x in xs], [counts[x] for x in xs], width=0.8 / n, label=label)
    axes.set_xlabel("optimal length (moves)")
    axes.set_ylabel("puzzles")
    axes.set_title("Puzzle bank: puzzles per optimal length")
    if groups:
        axes.legend()
    try:
        with atomic_path(path, suffix=suffix) as scratch:
            figure.savefig(scratch, dpi=100)
    finally:
        plt.close(figure)


def export(
    output: Annotated[Path, typer.Option("--output", "-o", help="The file to write (replaced atomically).")],
    fmt: Annotated[
        str | None, typer.Option("--format", "-f", help="csv, jsonl or parquet (default: from the extension).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Write every stored puzzle to a CSV, JSON-lines or Parquet file."""
    from ..bank.io import export as export_bank
    from ..render.image import output_path_problem

    try:
        problem = output_path_problem(output)
        if problem is not None:
            raise ValueError(f"cannot write the export to {str(output)!r}: {problem}")
        with _open(db, create=False) as bank:
            try:
                n = export_bank(bank, output, fmt)
            except OSError as exc:  # its message would name the scratch file, not the user's path
                raise ValueError(f"cannot write the export to {str(output)!r}: {exc.strerror or exc}") from None
    except HANDLED as exc:
        fail(exc)
    typer.echo(f"npuzzle: {n:,} puzzle{'s' if n != 1 else ''} written to {output}", err=True)


def import_(
    file: Annotated[Path, typer.Argument(help="A CSV (with a header) or JSON-lines file, as bank export writes.")],
    fmt: Annotated[
        str | None, typer.Option("--format", "-f", help="csv or jsonl (default: from the extension).")
    ] = None,
    db: DbOption = None,
    json_output: JsonOption = False,
) -> int:
    """Add the puzzles of a file to the bank: each row is checked, bad lines are reported by number and
    skipped, boards already stored are skipped."""
    from ..bank.io import import_file

    try:
        with _open(db, create=True) as bank:
            report = import_file(bank, file, fmt)
    except HANDLED as exc:
        fail(exc, json_output)
    if json_output:
        typer.echo(json.dumps(report.to_dict()))
    for number, message in report.errors:
        typer.echo(f"npuzzle: line {number}: {message}", err=True)
    if report.bad > len(report.errors):
        typer.echo(f"npuzzle: ... and {report.bad - len(report.errors)} more bad lines", err=True)
    typer.echo(
        f"npuzzle: {report.added} added, {report.skipped} already stored, {report.bad} bad line"
        f"{'s' if report.bad != 1 else ''}",
        err=True,
    )
    return EXIT_BAD_INPUT if report.bad else EXIT_OK


def register(app: typer.Typer) -> None:
    """Add the ``bank`` command group to ``app``."""
    bank_app = typer.Typer(
        name="bank",
        help="A puzzle bank: graded puzzles in one SQLite file, drawn by size, goal and optimal length.",
        no_args_is_help=True,
        add_completion=False,
    )
    app.add_typer(bank_app, name="bank")
    bank_app.command(
        "fill",
        epilog="Examples:  npuzzle bank fill --size 4x4 --length 30..60 --count 1000 --jobs 2   ·   "
        "npuzzle bank fill --size 3x3 --length 20 --count 50 --db levels.bank",
    )(fill)
    bank_app.command("draw", epilog="Example:  npuzzle bank draw --size 4x4 --length 45 --json")(draw)
    bank_app.command("stats", epilog="Example:  npuzzle bank stats --chart lengths.png")(stats)
    bank_app.command("export", epilog="Example:  npuzzle bank export --format jsonl --output bank.jsonl")(export)
    bank_app.command("import", epilog="Example:  npuzzle bank import bank.csv --db other.bank")(import_)


__all__ = ["draw", "export", "fill", "import_", "register", "stats"]
