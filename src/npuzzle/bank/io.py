"""Moving puzzles in and out of a bank: export to CSV, JSON lines or Parquet; import CSV or JSON lines.

Every export has the same fields, one puzzle per row, in the bank's id order (:data:`FIELDS`): in JSON lines
``goal``, ``board`` and ``solution`` are lists of labels, in CSV and Parquet texts of labels separated by
spaces; a missing value is ``null`` / an empty CSV cell. Exports are written atomically (a temporary file
beside the target, then ``os.replace``). Importing an export into another bank and exporting again gives the
same file.

Import checks every row before storing it: the board and goal are valid and have the same labels, the board
can reach the goal, ``lower_bound <= upper_bound`` (``length`` given means both equal it), the Manhattan
distance does not exceed the upper bound, an exact length has the parity of the blank's distance from its
home, and a solution (when given) has ``upper_bound`` moves and replays to the goal. A bad row is reported by
its line number and skipped; boards already stored are counted as skipped, never stored twice.
"""

from __future__ import annotations

import contextlib
import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._files import atomic_path
from ..board import Board, excerpt
from ..errors import BankError, PuzzleError
from .store import Bank, PuzzleRecord, format_tiles, now_text

FORMATS = ("csv", "jsonl", "parquet")
IMPORT_FORMATS = ("csv", "jsonl")
FIELDS = (
    "width", "height", "goal_name", "goal", "blank", "board", "length", "lower_bound", "upper_bound", "optimal",
    "solution", "method", "seed", "solver", "nodes", "seconds", "created",
)  # fmt: skip
IMPORT_BATCH = 1000  # rows per transaction while importing
MAX_REPORTED = 20  # bad lines quoted in an ImportReport (all are counted)
_TILE_FIELDS = ("goal", "board", "solution")


def format_for(path: str | Path, given: str | None = None) -> str:
    """The format named by ``given`` or by the file's extension (``.csv``, ``.jsonl`` / ``.ndjson`` /
    ``.json``, ``.parquet``)."""
    if given:
        name = given.strip().lower()
        if name in ("json", "ndjson"):
            name = "jsonl"
        if name not in FORMATS:
            raise ValueError(f"unknown format {given!r}; choose one of {', '.join(FORMATS)}")
        return name
    suffix = Path(path).suffix.lower()
    named = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".parquet": "parquet"}
    if suffix not in named:
        raise ValueError(f"cannot tell the format of {path} from its extension; pass --format csv|jsonl|parquet")
    return named[suffix]


def _flat(record: PuzzleRecord) -> dict[str, Any]:
    """The export row with tile lists as texts (CSV, Parquet)."""
    row = record.to_dict()
    for name in _TILE_FIELDS:
        if row[name] is not None:
            row[name] = format_tiles(row[name])
    return {name: row[name] for name in FIELDS}


def export(bank: Bank, path: str | Path, fmt: str | None = None) -> int:
    """Write every puzzle of ``bank`` to ``path`` (atomically); the number of rows written."""
    fmt = format_for(path, fmt)
    target = Path(path)
    if fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise BankError(
                "Parquet export needs pyarrow: pip install pyarrow (or export --format csv / jsonl)"
            ) from None
        rows = [_flat(r) for r in bank.records()]
        table = pa.Table.from_pylist(rows, schema=_parquet_schema(pa)) if rows else _parquet_schema(pa).empty_table()
        with _atomic(target, binary=True) as handle:
            pq.write_table(table, handle)
        return len(rows)
    n = 0
    with _atomic(target) as handle:
        if fmt == "csv":
            writer = csv.DictWriter(handle, fieldnames=FIELDS, lineterminator="\n")
            writer.writeheader()
            for record in bank.records():
                writer.writerow({k: "" if v is None else v for k, v in _flat(record).items()})
                n += 1
        else:
            for record in bank.records():
                row = record.to_dict()
                handle.write(json.dumps({k: row[k] for k in FIELDS}, separators=(",", ":")) + "\n")
                n += 1
    return n


def _parquet_schema(pa: Any) -> Any:
    ints = ("width", "height", "blank", "length", "lower_bound", "upper_bound", "seed", "nodes")
    types = {name: pa.int64() for name in ints}
    types.update(optimal=pa.bool_(), seconds=pa.float64())
    return pa.schema([(name, types.get(name, pa.string())) for name in FIELDS])


@contextlib.contextmanager
def _atomic(target: Path, binary: bool = False) -> Iterator[Any]:
    """An open file that replaces ``target`` whole when the block ends cleanly (:func:`~npuzzle._files.atomic_path`)."""
    with atomic_path(target) as scratch:
        if binary:
            with scratch.open("wb") as handle:
                yield handle
        else:
            with scratch.open("w", encoding="utf-8", newline="") as handle:
                yield handle


@dataclass
class ImportReport:
    """Rows ``added``, ``skipped`` (already stored) and ``bad`` (with up to :data:`MAX_REPORTED` of them as
    ``(line number, message)``)."""

    added: int = 0
    skipped: int = 0
    bad: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "skipped": self.skipped, "bad": self.bad,
                "errors": [{"line": n, "error": m} for n, m in self.errors]}  # fmt: skip


def _rows(path: Path, fmt: str) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """``(line number, row, error)`` for every data line of the file."""
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        if fmt == "csv":
            reader = csv.DictReader(handle)
            if reader.fieldnames is None:
                return
            for row in reader:
                # a row's line number: the last physical line it was read from
                yield reader.line_num, {k: (None if v in ("", None) else v) for k, v in row.items()}, None
            return
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                yield number, None, f"not JSON ({exc.msg}): {excerpt(line.strip(), 60)}"
                continue
            if not isinstance(value, dict):
                yield number, None, f"a JSON object was expected, got {excerpt(line.strip(), 60)}"
                continue
            yield number, value, None


def _int(row: dict[str, Any], name: str, default: int | None = None) -> int | None:
    value = row.get(name)
    if value is None:
        return default
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"{name} must be an integer, got {excerpt(str(value), 40)}") from None


def _tiles(value: Any, name: str) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
    elif isinstance(value, list):
        parts = value
    else:
        raise ValueError(f"{name} must be a list of labels or a text of labels, got {excerpt(str(value), 40)}")
    try:
        return tuple(int(p) if not isinstance(p, bool) else int("x") for p in parts)
    except (ValueError, TypeError):
        raise ValueError(f"{name} holds something that is not an integer label: {excerpt(str(value), 60)}") from None


def _bool(value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes"):
        return True
    if text in ("0", "false", "no"):
        return False
    raise ValueError(f"optimal must be true or false, got {excerpt(text, 20)}")


def parse_row(row: dict[str, Any]) -> PuzzleRecord:
    """A checked :class:`~npuzzle.bank.store.PuzzleRecord` from an export row (see the module docstring)."""
    from ..canonical import to_canonical
    from ..goals import goal as named_goal
    from ..goals import goal_for
    from ..heuristics.simple import manhattan
    from ..solvability import is_solvable

    width, height = _int(row, "width"), _int(row, "height")
    if width is None or height is None:
        raise ValueError("width and height are needed")
    blank = _int(row, "blank", 0) or 0
    tiles = _tiles(row.get("board"), "board")
    if tiles is None:
        raise ValueError("board is missing")
    board = Board(tiles, width, height, blank)
    goal_name = str(row.get("goal_name") or "").strip()
    goal_tiles = _tiles(row.get("goal"), "goal")
    if goal_tiles is not None:
        goal = goal_for(board, Board(goal_tiles, width, height, blank))
        goal_name = goal_name or "custom"
    elif goal_name:
        goal = goal_for(board, named_goal(goal_name, width, height, blank))
    else:
        raise ValueError("goal (its tiles) or goal_name is needed")
    if not is_solvable(board, goal):
        raise ValueError("the board cannot reach the goal (the other parity class)")
    length = _int(row, "length")
    low, high = _int(row, "lower_bound", length), _int(row, "upper_bound", length)
    if low is None or high is None:
        raise ValueError("length, or lower_bound and upper_bound, are needed")
    if length is not None and not low == high == length:
        raise ValueError(f"length {length} disagrees with lower_bound {low} / upper_bound {high}")
    if not 0 <= low <= high:
        raise ValueError(f"bounds need 0 <= lower_bound <= upper_bound, got {low}..{high}")
    optimal = _bool(row.get("optimal"))
    if optimal and low != high:
        raise ValueError(f"optimal is true but the bounds differ ({low}..{high})")
    optimal = low == high if optimal is None else optimal and low == high
    values = to_canonical(board, goal)
    distance = manhattan(values, width, height, goal.blank_cell)
    if high < distance:
        raise ValueError(f"upper_bound {high} is below the board's Manhattan distance {distance}")
    blank_row, blank_col = divmod(board.blank_cell, width)
    home_row, home_col = divmod(goal.blank_cell, width)
    parity = (abs(blank_row - home_row) + abs(blank_col - home_col)) % 2
    if optimal and low % 2 != parity:
        raise ValueError(f"length {low} has the wrong parity for this board (every solution is {parity} mod 2)")
    solution = _tiles(row.get("solution"), "solution")
    if solution is not None:
        if len(solution) != high:
            raise ValueError(f"the solution has {len(solution)} moves, upper_bound is {high}")
        if board.apply(solution) != goal:
            raise ValueError("the solution does not lead to the goal")
    seed = _int(row, "seed")
    nodes = _int(row, "nodes")
    seconds = row.get("seconds")
    return PuzzleRecord(
        board=board,
        goal=goal,
        goal_name=goal_name,
        lower_bound=low,
        upper_bound=high,
        optimal=bool(optimal),
        solution=solution,
        method=str(row.get("method") or "import"),
        seed=seed,
        solver=None if row.get("solver") is None else str(row["solver"]),
        nodes=nodes,
        seconds=None if seconds is None else float(seconds),
        created=str(row.get("created") or now_text()),
    )


def import_file(bank: Bank, path: str | Path, fmt: str | None = None) -> ImportReport:
    """Store every good row of ``path`` (CSV with a header, or JSON lines); see the module docstring."""
    fmt = format_for(path, fmt)
    if fmt not in IMPORT_FORMATS:
        raise ValueError(f"import reads {' and '.join(IMPORT_FORMATS)} files, not {fmt}")
    report = ImportReport()
    pending: list[PuzzleRecord] = []
    for number, row, error in _rows(Path(path), fmt):
        if error is None and row is not None:
            try:
                pending.append(parse_row(row))
            except (PuzzleError, ValueError, TypeError, OverflowError) as exc:
                error = " ".join(str(exc).split()) or type(exc).__name__
        if error is not None:
            report.bad += 1
            if len(report.errors) < MAX_REPORTED:
                report.errors.append((number, error))
        if len(pending) >= IMPORT_BATCH:
            _flush(bank, pending, report)
    _flush(bank, pending, report)
    return report


def _flush(bank: Bank, pending: list[PuzzleRecord], report: ImportReport) -> None:
    if pending:
        added, skipped = bank.add(pending)
        report.added += added
        report.skipped += skipped
        pending.clear()


__all__ = ["FIELDS", "FORMATS", "IMPORT_FORMATS", "ImportReport", "export", "format_for", "import_file", "parse_row"]
