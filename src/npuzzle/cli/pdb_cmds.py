"""``npuzzle pdb build|list|verify|clear``: manage the pattern-database cache.

Heavy imports (numpy, numba kernels) happen inside the commands, so ``npuzzle --help`` compiles nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .common import EXIT_BAD_INPUT

SizeOpt = Annotated[str, typer.Option("--size", "-s", help="Board size WxH.")]
GoalOpt = Annotated[
    str,
    typer.Option(
        "--goal",
        "-g",
        help="Goal layout (classic, blank-first, snake, column, spiral, blank-at:CELL) or its tiles; only "
        "its blank cell matters, since tables are over tiles named by home cell.",
    ),
]
BlankCellOpt = Annotated[
    int | None,
    typer.Option("--blank-cell", help="The goal's blank cell instead of --goal.", show_default=False),
]
PartitionOpt = Annotated[
    str | None,
    typer.Option(
        "--partition",
        "-p",
        help="7-8, 6-6-3, 5-5-5 (4x4), auto, sizes like 6-6-6-6, or groups of labels '1,2,3/4,5,6/...'. "
        "Default: 6-6-3 on 4x4, auto elsewhere.",
        show_default=False,
    ),
]


def _partition(size: str, goal: str, blank_cell: int | None, partition: str | None) -> Any:
    from ..goals import goal as make_goal
    from ..heuristics.pdb import Partition, standard_partition
    from ..notation import parse_board, parse_size
    from .common import is_layout_name

    width, height = parse_size(size)
    goal_board = make_goal(goal, width, height) if is_layout_name(goal) else parse_board(goal, width, height)
    cell = goal_board.blank_cell if blank_cell is None else blank_cell
    name = partition or ("6-6-3" if (width, height) == (4, 4) else "auto")
    if "/" in name or "," in name:  # explicit groups of labels
        groups = tuple(
            tuple(sorted(goal_board.cell_of(int(t)) for t in g.replace(",", " ").split()))
            for g in name.split("/")
            if g.strip()
        )
        return Partition(width, height, cell, groups, "custom")
    return standard_partition(width, height, cell, name)


def build(
    size: SizeOpt = "4x4",
    goal: GoalOpt = "classic",
    blank_cell: BlankCellOpt = None,
    partition: PartitionOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if the file is present.")] = False,
    max_seconds: Annotated[
        float | None,
        typer.Option(
            "--max-seconds",
            help="Give up after this many seconds (exit 3; nothing is written). Default: no limit.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Build a partition's tables into the cache (prints the memory it needs first)."""
    import math
    import time

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..errors import TableCorruptError
    from ..heuristics import store
    from ..heuristics.pdb import build_memory_bytes

    if max_seconds is not None and not (math.isfinite(max_seconds) and max_seconds > 0):
        raise ValueError(f"--max-seconds must be a positive number of seconds, got {max_seconds}")
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    part = _partition(size, goal, blank_cell, partition)
    console = Console(stderr=True)
    path = store.table_path(part)
    if path.exists() and not force:
        try:
            store.verify(path)
        except TableCorruptError as exc:  # moved aside and rebuilt below
            console.print(f"{exc}: rebuilding it")
        else:
            console.print(f"{part.label} tables for {part.width}x{part.height} already built: {path}")
            return
    need = max(build_memory_bytes(part.width, part.height, k) for k in part.sizes)
    console.print(
        f"building {part.width}x{part.height} {part.label} (blank home {part.blank_cell}): "
        f"{part.n_entries():,} entries, file {part.n_entries() / 2**20:,.1f} MB, "
        f"about {need / 2**20:,.0f} MB of memory while building"
    )
    t0 = time.perf_counter()
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
        TimeElapsedColumn(), console=console,
    ) as bar:  # fmt: skip
        task = bar.add_task("starting", total=1)

        def progress(message: str, done: int, total: int) -> None:
            bar.update(task, description=message, completed=done, total=max(total, 1))

        # the same lock as on-demand builds; a cache that cannot hold the file fails before any work
        _, built = store.build_into_cache(part, progress=progress, force=force, deadline=deadline)
    if not built:
        console.print(f"{part.label} tables for {part.width}x{part.height} built meanwhile by another process: {path}")
        return
    console.print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")


def list_tables() -> None:
    """List the tables in the cache."""
    from rich.console import Console
    from rich.table import Table

    from ..errors import TableCorruptError
    from ..heuristics import store

    table = Table(title=f"pattern databases in {store.cache_dir()}")
    for column in ("size", "blank cell", "partition", "entries", "MB", "file"):
        table.add_column(column)
    for path in store.iter_tables():
        try:
            info = store.read_info(path)
        except TableCorruptError as exc:
            table.add_row("?", "?", "corrupt", "", "", f"{path.name}: {exc}")
            continue
        p = info.partition
        table.add_row(
            f"{p.width}x{p.height}", str(p.blank_cell), f"{p.name} ({p.label})", f"{info.count:,}",
            f"{info.file_bytes / 2**20:,.1f}", path.name,
        )  # fmt: skip
    Console().print(table)


def verify(
    size: Annotated[str | None, typer.Option("--size", "-s", help="Only tables of this size WxH.")] = None,
) -> None:
    """Re-check every table's header, size and checksum; exit 2 if any is corrupt."""
    from ..errors import TableCorruptError
    from ..heuristics import store

    bad = 0
    for path in store.iter_tables():
        try:
            info = store.verify(path, force=True)
        except TableCorruptError as exc:
            bad += 1
            typer.echo(f"CORRUPT {exc}")
            continue
        p = info.partition
        if size is None or size == f"{p.width}x{p.height}":
            typer.echo(f"ok      {path.name}")
    if bad:
        typer.echo(
            f"{bad} corrupt file(s); `npuzzle pdb clear` then `npuzzle pdb build` rebuilds them", err=True
        )
        raise typer.Exit(EXIT_BAD_INPUT)


def clear(
    size: Annotated[str | None, typer.Option("--size", "-s", help="Only tables of this size WxH.")] = None,
    partition: Annotated[
        str | None, typer.Option("--partition", "-p", help="Only this partition (e.g. 7-8).")
    ] = None,
) -> None:
    """Delete tables from the cache (all, with the damaged copies kept aside, or those of a size and/or partition)."""
    from ..errors import TableCorruptError
    from ..heuristics import store

    removed = 0
    for path in store.iter_tables():
        try:
            p = store.read_info(path).partition
            keep = (size is not None and size != f"{p.width}x{p.height}") or (
                partition is not None and partition not in (p.name, p.label)
            )
        except TableCorruptError:
            keep = False  # a corrupt file is never worth keeping
        if not keep:
            store.remove(path)
            removed += 1
    if size is None and partition is None:  # damaged tables kept aside when they were replaced
        for path in store.iter_moved_aside():
            path.unlink(missing_ok=True)
            removed += 1
    typer.echo(f"removed {removed} table file(s) from {store.cache_dir()}")


def register(app: typer.Typer) -> None:
    """Add the ``pdb`` command group to ``app``."""
    pdb_app = typer.Typer(
        name="pdb",
        help="Pattern databases for optimal solving: build, list, verify, clear the on-disk cache "
        "($NPUZZLE_CACHE or the user cache folder).",
        no_args_is_help=True,
        add_completion=False,
    )
    app.add_typer(pdb_app, name="pdb")
    pdb_app.command(
        "build",
        epilog="Examples:  npuzzle pdb build   ·   npuzzle pdb build --partition 7-8 --goal blank-first   ·   "
        "npuzzle pdb build --size 5x5 --partition 6-6-6-6",
    )(build)
    pdb_app.command("list")(list_tables)
    pdb_app.command("verify")(verify)
    pdb_app.command("clear")(clear)
