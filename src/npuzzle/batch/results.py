"""A resumable, lossless JSON-lines results file (``solve --input FILE --output results.jsonl``).

Each record is one JSON object on one line, written with a single ``write`` of the complete line to a file
opened for appending, as soon as its job finishes; the file is fsynced at most once a second and on close.
So a run killed at any moment (``kill -9``, a crash, power loss) leaves whole records, plus at most one torn
last line, which the next run drops. Records are keyed by the input's line number: a run started again
with the same command skips every line already recorded (results and error records alike) and solves only
the rest, so nothing is lost and nothing is written twice. A record counts only when it is complete (its job
``"key"`` and a result or an error, :func:`incomplete`); a file holding any other record is refused, naming
the record, rather than skip that line or record it twice.

Order: records are appended as they finish, so an interrupted file may be out of order; every record
carries ``"line"`` (1-based input line) and ``"index"`` (0-based among board lines). When a run completes
with every record present, the file is rewritten in input order (atomically: a temporary file, then
``os.replace``). Each record also carries ``"key"``, a fingerprint of its line's text and the solving options
(:func:`~npuzzle.batch.jobs.job_key`): a resumed run that reads a different input or was started with other
options refuses to mix its results into the file. A file lock keeps two runs from writing one file at once.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .._files import atomic_path
from ..board import excerpt

#: Seconds between fsyncs while records are appended (every record is written at once regardless).
FSYNC_INTERVAL = 1.0


def incomplete(record: dict[str, Any]) -> str | None:
    """What a results record lacks to count as done (``None`` if nothing): its job ``"key"`` (text) and either
    a result (an integer ``"length"``) or an error (``"error"`` and ``"error_type"``, both text)."""
    if not isinstance(record.get("key"), str):
        return '"key"'
    length = record.get("length")
    if isinstance(length, int) and not isinstance(length, bool):
        return None
    if isinstance(record.get("error"), str) and isinstance(record.get("error_type"), str):
        return None
    return 'result ("length") or error ("error" and "error_type")'


class ResultsFileError(ValueError):
    """The results file cannot be resumed into (another input, a damaged record, another run holds it)."""


def _lock(handle: IO[bytes], path: Path) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory lock
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise ResultsFileError(f"another npuzzle run is writing {path}; wait for it or use another --output") from None


class ResultsFile:
    """Append-only results keyed by input line; open with :meth:`open`, which reads what is already there.

    ``done`` maps each recorded line number to its ``(key, error_type)`` (``error_type`` ``None`` for a
    solved board).
    """

    def __init__(self, path: str | Path, fsync_interval: float = FSYNC_INTERVAL) -> None:
        self.path = Path(path)
        self.fsync_interval = fsync_interval
        self.done: dict[int, tuple[str | None, str | None]] = {}
        self.dropped_torn_line = False
        self.in_order = True  # records so far are in increasing line order
        self._last_line = 0
        self._handle: IO[bytes] | None = None
        self._last_sync = 0.0
        self._dirty = False

    # -- opening: read what an earlier run left ---------------------------------------------------------
    def open(self) -> ResultsFile:
        self._handle = open(self.path, "a+b")  # noqa: SIM115 - closed by close()
        try:
            _lock(self._handle, self.path)
            self._load()
        except BaseException:
            self._handle.close()
            self._handle = None
            raise
        return self

    def _load(self) -> None:
        assert self._handle is not None
        handle = self._handle
        handle.seek(0)
        good_end = 0
        number = 0
        while True:
            raw = handle.readline()
            if not raw:
                break
            number += 1
            if not raw.endswith(b"\n"):  # torn by a kill in mid-write: the job runs again
                self.dropped_torn_line = True
                break
            try:
                record = json.loads(raw)
                line = record["line"]
                if not isinstance(line, int) or isinstance(line, bool):
                    raise TypeError("line is not an integer")
            except (ValueError, KeyError, TypeError, RecursionError):
                raise ResultsFileError(
                    f"{self.path} line {number} is not a results record ({excerpt(raw.decode('utf-8', 'replace'))}); "
                    "give another --output or delete the file"
                ) from None
            missing = incomplete(record)
            if missing:
                # trusting it would skip that input line for ever; solving it again would record it twice
                raise ResultsFileError(
                    f"{self.path} line {number} is an incomplete results record (no {missing}): "
                    f"{excerpt(raw.decode('utf-8', 'replace').strip(), 60)}; it was not written by "
                    "npuzzle solve --output: delete that line (input line "
                    f"{record['line']} is then solved again) or give another --output"
                )
            self._remember(record)
            good_end = handle.tell()
        if self.dropped_torn_line:
            handle.truncate(good_end)
            os.fsync(handle.fileno())
        handle.seek(0, os.SEEK_END)

    def _remember(self, record: dict[str, Any]) -> None:
        line = record["line"]
        self.done[line] = (record.get("key"), record.get("error_type"))
        if line <= self._last_line:
            self.in_order = False
        self._last_line = max(self._last_line, line)

    # -- appending ------------------------------------------------------------------------------------------
    def check(self, line: int, key: str) -> bool:
        """True when ``line`` is already recorded (for the same input and options, else an error)."""
        hit = self.done.get(line)
        if hit is None:
            return False
        if hit[0] != key:
            raise ResultsFileError(
                f"{self.path} holds a result for line {line} of another input or other options; "
                "resume with the same command, or give another --output"
            )
        return True

    def append(self, record: dict[str, Any]) -> None:
        """Write ``record`` as one complete line in one ``write`` (fsynced within ``fsync_interval``); it must
        be complete (see :func:`incomplete`), as the next run trusts it."""
        if self._handle is None:
            raise ResultsFileError("results file is not open")
        missing = incomplete(record)
        if missing:
            raise ResultsFileError(f"refusing to record line {record.get('line')} without its {missing}")
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        fd = self._handle.fileno()
        written = os.write(fd, data)
        while written < len(data):  # a short write (rare on a regular file): finish the same line
            written += os.write(fd, data[written:])
        self._remember(record)
        self._dirty = True
        now = time.monotonic()
        if now - self._last_sync >= self.fsync_interval:
            os.fsync(fd)
            self._last_sync, self._dirty = now, False

    def close(self, sort: bool = False) -> bool:
        """Flush to disk and release the file; with ``sort``, first put the records in input-line order
        (atomically) if they are not. True when the file was rewritten."""
        if self._handle is None:
            return False
        try:
            if self._dirty:
                os.fsync(self._handle.fileno())
                self._dirty = False
            return self._sort_by_line() if sort else False
        finally:
            self._handle.close()
            self._handle = None

    def __enter__(self) -> ResultsFile:
        return self if self._handle is not None else self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- finishing ----------------------------------------------------------------------------------------
    def _sort_by_line(self) -> bool:
        """Rewrite the file in input-line order (atomically) if it is not already, while the lock is held;
        memory: one offset per record."""
        if self.in_order or self._handle is None:
            return False
        handle = self._handle
        handle.flush()
        offsets: list[tuple[int, int, int]] = []  # (line, start, length)
        handle.seek(0)
        position = 0
        for raw in iter(handle.readline, b""):
            offsets.append((json.loads(raw)["line"], position, len(raw)))
            position += len(raw)
        offsets.sort()
        with atomic_path(self.path) as scratch, scratch.open("wb") as out:
            for _, start, length in offsets:
                handle.seek(start)
                out.write(handle.read(length))
        self.in_order = True
        return True

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record of the file, in file order (for tests and tools)."""
        with open(self.path, "rb") as handle:
            for raw in handle:
                if raw.endswith(b"\n"):
                    yield json.loads(raw)


__all__ = ["FSYNC_INTERVAL", "ResultsFile", "ResultsFileError", "incomplete"]
