"""The puzzle bank's SQLite file: schema, opening (create / migrate / validate), writing and drawing.

One file, standard-library :mod:`sqlite3`, WAL journal (readers never block the one writer), a busy timeout
(:data:`BUSY_SECONDS`) so two processes sharing a bank wait for each other instead of failing.

Schema (version :data:`SCHEMA_VERSION`)::

    meta(key TEXT PRIMARY KEY, value TEXT)     application = 'npuzzle.bank', schema_version = '1', created
    goals(id, width, height, name, tiles, blank)            one row per goal layout; UNIQUE(width, height, tiles)
    puzzles(id, width, height, goal_id -> goals.id,
            board,                 canonical text: the labels row-major, separated by single spaces
            length,                the optimal length when proven (optimal = 1), else NULL
            lower_bound, upper_bound,  proven bounds (equal to length when optimal)
            optimal,               1 when length is proven optimal, else 0
            solution,              a solution of upper_bound moves (labels of the tiles that slide) or NULL
            method, seed,          how the board was made: generator strategy and its seed ('import': imported)
            fill_id, seq,          the fill stream and its sequence number that made it (NULL when imported)
            solver, nodes, seconds,    the solver that proved the length and its statistics
            created)               UTC time, ISO 8601
        UNIQUE(goal_id, board)     a board is stored once per goal (the goal fixes the size)
        INDEX (width, height, goal_id, length)      draw and stats
    fills(id, key UNIQUE, params)                       one row per fill stream (its parameters as JSON)
    fill_jobs(fill_id, seq, status, puzzle_id)          every finished job of a stream: 'added' or 'duplicate'
        PRIMARY KEY(fill_id, seq)

A puzzle row and its ``fill_jobs`` row are written in one transaction, so a fill killed at any moment has
either both or neither: a restarted fill skips exactly the sequence numbers already recorded.

A file that is not an SQLite database, or is one without the bank's ``meta`` rows, raises
:class:`~npuzzle.errors.NotABankError`; a bank written by a newer npuzzle (a higher ``schema_version``)
raises :class:`~npuzzle.errors.BankVersionError`; older versions are migrated on opening (:data:`MIGRATIONS`).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..board import Board
from ..errors import BankError, BankVersionError, NotABankError

SCHEMA_VERSION = 1
APPLICATION = "npuzzle.bank"
BUSY_SECONDS = 30.0  # how long a writer waits for another process's transaction before giving up
DEFAULT_FILE = "npuzzle.bank"

_SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE goals (
    id INTEGER PRIMARY KEY,
    width INTEGER NOT NULL CHECK (width >= 2),
    height INTEGER NOT NULL CHECK (height >= 2),
    name TEXT NOT NULL,
    tiles TEXT NOT NULL,
    blank INTEGER NOT NULL,
    UNIQUE (width, height, tiles)
);
CREATE TABLE puzzles (
    id INTEGER PRIMARY KEY,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    goal_id INTEGER NOT NULL REFERENCES goals(id),
    board TEXT NOT NULL,
    length INTEGER,
    lower_bound INTEGER NOT NULL,
    upper_bound INTEGER NOT NULL,
    optimal INTEGER NOT NULL CHECK (optimal IN (0, 1)),
    solution TEXT,
    method TEXT NOT NULL,
    seed INTEGER,
    fill_id INTEGER REFERENCES fills(id),
    seq INTEGER,
    solver TEXT,
    nodes INTEGER,
    seconds REAL,
    created TEXT NOT NULL,
    CHECK (lower_bound <= upper_bound),
    CHECK ((optimal = 1 AND length = lower_bound AND length = upper_bound) OR (optimal = 0 AND length IS NULL)),
    UNIQUE (goal_id, board)
);
CREATE INDEX puzzles_draw ON puzzles (width, height, goal_id, length);
CREATE TABLE fills (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, params TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE fill_jobs (
    fill_id INTEGER NOT NULL REFERENCES fills(id),
    seq INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('added', 'duplicate')),
    puzzle_id INTEGER REFERENCES puzzles(id),
    PRIMARY KEY (fill_id, seq)
) WITHOUT ROWID;
"""

#: ``MIGRATIONS[v]`` turns a version-``v`` bank into version ``v + 1`` (inside one transaction).
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {}

Length = int | tuple[int, int] | None  # an exact optimal length, a band (low, high), or any

_COLUMNS = (
    "p.id, p.width, p.height, g.name, g.tiles, g.blank, p.board, p.lower_bound, p.upper_bound, p.optimal, "
    "p.solution, p.method, p.seed, p.solver, p.nodes, p.seconds, p.created, p.fill_id, p.seq"
)


def default_path() -> Path:
    """``$NPUZZLE_BANK`` if set, else ``npuzzle.bank`` in the user data folder (``platformdirs``)."""
    env = os.environ.get("NPUZZLE_BANK")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("npuzzle")) / DEFAULT_FILE


def now_text() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def format_tiles(tiles: Iterable[int]) -> str:
    """The canonical text of a board or goal: labels row-major, separated by single spaces."""
    return " ".join(str(int(t)) for t in tiles)


def parse_tiles(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.split())


@dataclass(frozen=True)
class PuzzleRecord:
    """One stored puzzle: ``board`` with proven ``lower_bound <= distance <= upper_bound`` to ``goal``
    (equal, and ``optimal``, when the length is exact); ``solution`` (labels of the tiles that slide, or
    ``None``) has ``upper_bound`` moves."""

    board: Board
    goal: Board
    goal_name: str
    lower_bound: int
    upper_bound: int
    optimal: bool
    solution: tuple[int, ...] | None = None
    method: str = "import"
    seed: int | None = None
    solver: str | None = None
    nodes: int | None = None
    seconds: float | None = None
    created: str = field(default_factory=now_text)
    id: int | None = None
    fill_id: int | None = None
    seq: int | None = None

    @property
    def length(self) -> int | None:
        """The optimal length when proven, else ``None``."""
        return self.lower_bound if self.optimal else None

    def to_dict(self) -> dict[str, Any]:
        """The export/``draw --json`` object (JSON types only; ``board`` and ``goal`` as tile lists)."""
        return {
            "width": self.board.width,
            "height": self.board.height,
            "goal_name": self.goal_name,
            "goal": list(self.goal.tiles),
            "blank": self.board.blank,
            "board": list(self.board.tiles),
            "length": self.length,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "optimal": self.optimal,
            "solution": None if self.solution is None else list(self.solution),
            "method": self.method,
            "seed": self.seed,
            "solver": self.solver,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "created": self.created,
        }


def _record(row: tuple[Any, ...]) -> PuzzleRecord:
    (pid, width, height, name, goal_tiles, blank, board, low, high, optimal, solution, method, seed,
     solver, nodes, seconds, created, fill_id, seq) = row  # fmt: skip
    return PuzzleRecord(
        board=Board(parse_tiles(board), width, height, blank),
        goal=Board(parse_tiles(goal_tiles), width, height, blank),
        goal_name=name,
        lower_bound=low,
        upper_bound=high,
        optimal=bool(optimal),
        solution=None if solution is None else parse_tiles(solution),
        method=method,
        seed=seed,
        solver=solver,
        nodes=nodes,
        seconds=seconds,
        created=created,
        id=pid,
        fill_id=fill_id,
        seq=seq,
    )


class Bank:
    """An open bank file. Use :func:`open_bank` (or ``Bank.open``) and close it (it is a context manager)."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self._goal_ids: dict[tuple[int, int, str], int] = {}

    # -- opening -------------------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path | None = None, *, create: bool = True) -> Bank:
        """Open (``create``: or make) the bank at ``path`` (default :func:`default_path`), migrating an older
        schema; :class:`~npuzzle.errors.NotABankError` / :class:`~npuzzle.errors.BankVersionError` otherwise."""
        target = Path(path) if path is not None else default_path()
        if target.is_dir():
            raise NotABankError(f"{target} is a folder, not a bank file; give a file path with --db")
        if not target.exists():
            if not create:
                raise BankError(f"no bank at {target}; make one with: npuzzle bank fill --db {target} ...")
            target.parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = sqlite3.connect(target, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise BankError(f"cannot open bank {target}: {exc}") from None
        try:
            _prepare(connection, target)
        except BaseException:
            connection.close()
            raise
        return cls(connection, target)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Bank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        row = self.connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0])

    # -- writing -------------------------------------------------------------------------------------------
    def _transaction(self) -> _Transaction:
        return _Transaction(self.connection)

    def goal_id(self, goal: Board, name: str) -> int:
        """The id of ``goal`` (made on first use; ``name`` is the layout name it was asked by)."""
        key = (goal.width, goal.height, format_tiles(goal.tiles))
        cached = self._goal_ids.get(key)
        if cached is not None:
            return cached
        with self._transaction():
            self.connection.execute(
                "INSERT OR IGNORE INTO goals (width, height, tiles, name, blank) VALUES (?, ?, ?, ?, ?)",
                (*key, name, goal.blank),
            )
            row = self.connection.execute(
                "SELECT id FROM goals WHERE width = ? AND height = ? AND tiles = ?", key
            ).fetchone()
        self._goal_ids[key] = int(row[0])
        return int(row[0])

    def find_goal(self, goal: Board) -> int | None:
        """The id of ``goal`` if the bank has it."""
        row = self.connection.execute(
            "SELECT id FROM goals WHERE width = ? AND height = ? AND tiles = ?",
            (goal.width, goal.height, format_tiles(goal.tiles)),
        ).fetchone()
        return None if row is None else int(row[0])

    def _insert(self, record: PuzzleRecord, goal_id: int) -> int | None:
        """Insert inside the caller's transaction; the new row's id, or ``None`` for a board already stored."""
        cursor = self.connection.execute(
            "INSERT OR IGNORE INTO puzzles (width, height, goal_id, board, length, lower_bound, upper_bound, "
            "optimal, solution, method, seed, fill_id, seq, solver, nodes, seconds, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.board.width, record.board.height, goal_id, format_tiles(record.board.tiles),
                record.length, record.lower_bound, record.upper_bound, int(record.optimal),
                None if record.solution is None else format_tiles(record.solution), record.method,
                record.seed, record.fill_id, record.seq, record.solver, record.nodes, record.seconds,
                record.created,
            ),
        )  # fmt: skip
        return cursor.lastrowid if cursor.rowcount == 1 else None

    def add(self, records: Iterable[PuzzleRecord]) -> tuple[int, int]:
        """Store ``records`` in one transaction; ``(added, skipped)`` (skipped: boards already stored)."""
        added = skipped = 0
        pending = list(records)
        ids = [self.goal_id(r.goal, r.goal_name) for r in pending]
        with self._transaction():
            for record, goal_id in zip(pending, ids, strict=True):
                if self._insert(record, goal_id) is None:
                    skipped += 1
                else:
                    added += 1
        return added, skipped

    def fill_stream(self, params: dict[str, Any]) -> int:
        """The id of the fill stream with these parameters (made on first use)."""
        key = json.dumps(params, sort_keys=True, separators=(",", ":"))
        with self._transaction():
            self.connection.execute(
                "INSERT OR IGNORE INTO fills (key, params, created) VALUES (?, ?, ?)", (key, key, now_text())
            )
            row = self.connection.execute("SELECT id FROM fills WHERE key = ?", (key,)).fetchone()
        return int(row[0])

    def fill_progress(self, fill_id: int) -> tuple[set[int], int]:
        """``(sequence numbers finished, puzzles added)`` of a fill stream."""
        rows = self.connection.execute("SELECT seq, status FROM fill_jobs WHERE fill_id = ?", (fill_id,))
        done: set[int] = set()
        added = 0
        for seq, status in rows:
            done.add(int(seq))
            added += status == "added"
        return done, added

    def record_fill_result(self, fill_id: int, seq: int, record: PuzzleRecord, goal_id: int) -> str:
        """Store one fill job's puzzle and mark job ``seq`` done, atomically: ``'added'``, ``'duplicate'``
        (the board was already stored) or ``'done-before'`` (another run recorded this job first).

        A board a later job of the same stream stored first passes to this job, and that job becomes the
        duplicate: the earliest job keeps each board whatever order the jobs finish in, so a stream makes
        the same bank with any number of workers, killed and restarted or not. (Its count of added puzzles
        is unchanged: the call says ``'duplicate'``.)"""
        with self._transaction():
            seen = self.connection.execute(
                "SELECT 1 FROM fill_jobs WHERE fill_id = ? AND seq = ?", (fill_id, seq)
            ).fetchone()
            if seen is not None:
                return "done-before"
            puzzle_id = self._insert(record, goal_id)
            status = "duplicate" if puzzle_id is None else "added"
            job_status = status
            if puzzle_id is None:
                puzzle_id = self._take_from_a_later_job(fill_id, seq, record, goal_id)
                job_status = "duplicate" if puzzle_id is None else "added"
            self.connection.execute(
                "INSERT INTO fill_jobs (fill_id, seq, status, puzzle_id) VALUES (?, ?, ?, ?)",
                (fill_id, seq, job_status, puzzle_id),
            )
        return status

    def _take_from_a_later_job(self, fill_id: int, seq: int, record: PuzzleRecord, goal_id: int) -> int | None:
        """Inside the caller's transaction: the id of ``record``'s board when a job of stream ``fill_id``
        after ``seq`` stored it, the row now ``record``'s and that job a duplicate; else ``None``."""
        owner = self.connection.execute(
            "SELECT id, seq FROM puzzles WHERE goal_id = ? AND board = ? AND fill_id = ?",
            (goal_id, format_tiles(record.board.tiles), fill_id),
        ).fetchone()
        if owner is None or owner[1] is None or owner[1] <= seq:
            return None
        puzzle_id, later = int(owner[0]), int(owner[1])
        self.connection.execute(
            "UPDATE puzzles SET length = ?, lower_bound = ?, upper_bound = ?, optimal = ?, solution = ?, "
            "method = ?, seed = ?, seq = ?, solver = ?, nodes = ?, seconds = ? WHERE id = ?",
            (
                record.length, record.lower_bound, record.upper_bound, int(record.optimal),
                None if record.solution is None else format_tiles(record.solution), record.method,
                record.seed, seq, record.solver, record.nodes, record.seconds, puzzle_id,
            ),
        )  # fmt: skip
        self.connection.execute(
            "UPDATE fill_jobs SET status = 'duplicate', puzzle_id = NULL WHERE fill_id = ? AND seq = ?",
            (fill_id, later),
        )
        return puzzle_id

    # -- reading -------------------------------------------------------------------------------------------
    def count(self, width: int | None = None, height: int | None = None, goal: Board | None = None,
              length: Length = None) -> int:  # fmt: skip
        """Stored puzzles, optionally of one size, goal and optimal length."""
        where, args = self._where(width, height, goal, length)
        if where is None:
            return 0
        return int(self.connection.execute(f"SELECT count(*) FROM puzzles p {where}", args).fetchone()[0])

    def _where(self, width: int | None, height: int | None, goal: Board | None,
               length: Length) -> tuple[str | None, list[Any]]:  # fmt: skip
        clauses: list[str] = []
        args: list[Any] = []
        if goal is not None:
            width, height = goal.width, goal.height
        if width is not None:
            clauses.append("p.width = ?")
            args.append(width)
        if height is not None:
            clauses.append("p.height = ?")
            args.append(height)
        if goal is not None:
            goal_id = self.find_goal(goal)
            if goal_id is None:
                return None, []
            clauses.append("p.goal_id = ?")
            args.append(goal_id)
        if isinstance(length, tuple):
            clauses.append("p.length BETWEEN ? AND ?")
            args.extend(length)
        elif length is not None:
            clauses.append("p.length = ?")
            args.append(length)
        return ("WHERE " + " AND ".join(clauses)) if clauses else "", args

    def draw(self, goal: Board, length: Length = None, rng: random.Random | None = None) -> PuzzleRecord | None:
        """A uniformly random stored puzzle for ``goal`` (of optimal ``length``, or ``(low, high)``: a length
        in that band, if given), or ``None``.

        Two indexed queries, whatever the bank's size: the count of matching rows (a range of the
        ``(width, height, goal_id, length)`` index) and the row at a random offset in that range.
        """
        where, args = self._where(None, None, goal, length)
        if where is None:
            return None
        n = int(self.connection.execute(f"SELECT count(*) FROM puzzles p {where}", args).fetchone()[0])
        if n == 0:
            return None
        offset = (rng or random.SystemRandom()).randrange(n)
        row = self.connection.execute(
            f"SELECT p.id FROM puzzles p {where} ORDER BY p.length, p.id LIMIT 1 OFFSET ?", (*args, offset)
        ).fetchone()
        return self.get(int(row[0]))

    def get(self, puzzle_id: int) -> PuzzleRecord:
        row = self.connection.execute(
            f"SELECT {_COLUMNS} FROM puzzles p JOIN goals g ON g.id = p.goal_id WHERE p.id = ?", (puzzle_id,)
        ).fetchone()
        if row is None:
            raise BankError(f"no puzzle with id {puzzle_id} in {self.path}")
        return _record(row)

    def records(self, batch: int = 1000) -> Iterator[PuzzleRecord]:
        """Every stored puzzle in id order, read ``batch`` rows at a time."""
        last = 0
        while True:
            rows = self.connection.execute(
                f"SELECT {_COLUMNS} FROM puzzles p JOIN goals g ON g.id = p.goal_id WHERE p.id > ? "
                "ORDER BY p.id LIMIT ?",
                (last, batch),
            ).fetchall()
            if not rows:
                return
            for row in rows:
                yield _record(row)
            last = rows[-1][0]

    def stats(self) -> list[dict[str, Any]]:
        """Counts per size, goal and optimal length (``length`` ``None``: rows with bounds only)."""
        rows = self.connection.execute(
            "SELECT p.width, p.height, g.name, g.tiles, p.length, count(*), min(p.lower_bound), "
            "max(p.upper_bound) FROM puzzles p JOIN goals g ON g.id = p.goal_id "
            "GROUP BY p.width, p.height, p.goal_id, p.length ORDER BY p.width, p.height, p.goal_id, p.length"
        )
        return [
            {"width": w, "height": h, "goal_name": name, "goal": list(parse_tiles(tiles)), "length": length,
             "count": n, "min_lower_bound": low, "max_upper_bound": high}
            for w, h, name, tiles, length, n, low, high in rows
        ]  # fmt: skip

    def lengths(self, goal: Board) -> dict[int, int]:
        """``{optimal length: stored puzzles}`` for ``goal``."""
        goal_id = self.find_goal(goal)
        if goal_id is None:
            return {}
        rows = self.connection.execute(
            "SELECT length, count(*) FROM puzzles WHERE width = ? AND height = ? AND goal_id = ? "
            "AND length IS NOT NULL GROUP BY length",
            (goal.width, goal.height, goal_id),
        )
        return {int(length): int(n) for length, n in rows}


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on an exception): the write lock is taken up front, so
    two writers queue on the busy timeout instead of failing half-way."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> None:
        _retry(lambda: self.connection.execute("BEGIN IMMEDIATE"))

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.connection.execute("COMMIT")
        else:
            self.connection.execute("ROLLBACK")


def _retry(step: Callable[[], object], seconds: float = BUSY_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise BankError(f"the bank is busy (another process holds it): {exc}") from None
            time.sleep(0.05)


def _prepare(connection: sqlite3.Connection, path: Path) -> None:
    """Check the file is a bank (or empty: make one), migrate it, set WAL and the busy timeout."""
    try:
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise NotABankError(f"{path} is not a puzzle bank (not an SQLite database: {exc})") from None
    if not tables:
        connection.execute("PRAGMA journal_mode = WAL")
        values = ", ".join(
            f"('{k}', '{v}')" for k, v in (("application", APPLICATION), ("schema_version", SCHEMA_VERSION),
                                           ("created", now_text()))
        )  # fmt: skip
        try:
            connection.executescript(
                "BEGIN IMMEDIATE;" + _SCHEMA_V1 + f"INSERT INTO meta (key, value) VALUES {values}; COMMIT;"
            )
        except sqlite3.OperationalError as exc:  # another process made the bank at the same moment
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if "already exists" not in str(exc):
                raise BankError(f"cannot make a bank at {path}: {exc}") from None
            _prepare(connection, path)
        return
    meta: dict[str, str] = {}
    if "meta" in tables:
        try:
            meta = dict(connection.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError:
            meta = {}
    if meta.get("application") != APPLICATION or "schema_version" not in meta:
        raise NotABankError(
            f"{path} is an SQLite database but not a puzzle bank (no npuzzle.bank meta table); "
            "give another --db path"
        )
    try:
        version = int(meta["schema_version"])
    except ValueError:
        raise NotABankError(f"{path}: schema_version {meta['schema_version']!r} is not a number") from None
    if version > SCHEMA_VERSION:
        raise BankVersionError(
            f"{path} is a version-{version} bank, written by a newer npuzzle (this one reads up to version "
            f"{SCHEMA_VERSION}); upgrade npuzzle: pip install -U npuzzle"
        )
    connection.execute("PRAGMA journal_mode = WAL")
    while version < SCHEMA_VERSION:
        migrate = MIGRATIONS.get(version)
        if migrate is None:
            raise BankVersionError(f"{path}: no migration from bank schema version {version}")
        with _Transaction(connection):
            migrate(connection)
            connection.execute(
                "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version + 1),)
            )
        version += 1


def open_bank(path: str | Path | None = None, *, create: bool = True) -> Bank:
    """:meth:`Bank.open`."""
    return Bank.open(path, create=create)


__all__ = [
    "APPLICATION",
    "BUSY_SECONDS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Bank",
    "PuzzleRecord",
    "default_path",
    "format_tiles",
    "open_bank",
    "parse_tiles",
]
