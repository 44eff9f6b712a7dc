"""Streaming input for batch work: one line at a time, never the whole file, never a whole huge line.

A line longer than :data:`MAX_LINE_BYTES` is skipped in chunks (memory stays bounded by the cap, whatever
the line's length) and reported with a short excerpt of its start. Bytes that are not UTF-8 become U+FFFD
and the board parser rejects them with the line number, like any other bad character.

>>> import io
>>> [(line.number, line.text) for line in read_lines(io.BytesIO(b"1 2 3 0\\n\\n2 1 3 0"))]
[(1, '1 2 3 0'), (2, ''), (3, '2 1 3 0')]
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..board import excerpt

#: Longest line read as a board: a 256×256 board (the largest :class:`~npuzzle.board.Board`) written as
#: text takes 65,536 labels × at most 6 characters ≈ 393 KB, in JSON a little more; 1 MiB leaves room.
MAX_LINE_BYTES = 1 << 20
_SKIP_CHUNK = 1 << 16  # bytes read at a time while skipping the rest of an over-long line


@dataclass(frozen=True)
class InputLine:
    """Line ``number`` (1-based) of the input; ``error`` says why ``text`` (then an excerpt) is not the line."""

    number: int
    text: str
    error: str | None = None


def read_lines(stream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[InputLine]:
    """Every line of ``stream`` as it is read (``\\n``, ``\\r\\n`` or a last line without a newline)."""
    number = 0
    while True:
        chunk = stream.readline(max_bytes + 1)
        if not chunk:
            return
        number += 1
        if len(chunk) > max_bytes and not chunk.endswith(b"\n"):
            head = chunk[:200].decode("utf-8", errors="replace")
            skipped = len(chunk)
            while chunk and not chunk.endswith(b"\n"):  # drop the rest of the line without keeping it
                chunk = stream.readline(_SKIP_CHUNK)
                skipped += len(chunk)
            yield InputLine(
                number,
                excerpt(head),
                f"line is longer than {max_bytes:,} bytes ({skipped:,} bytes); starts {excerpt(head)}",
            )
            continue
        yield InputLine(number, chunk.decode("utf-8", errors="replace").rstrip("\r\n"))


@contextmanager
def open_input(path: str | Path) -> Iterator[BinaryIO]:
    """``path`` opened for binary reading; ``-`` is standard input (left open)."""
    if str(path) == "-":
        yield sys.stdin.buffer
        return
    with open(path, "rb") as stream:
        yield stream


__all__ = ["MAX_LINE_BYTES", "InputLine", "open_input", "read_lines"]
