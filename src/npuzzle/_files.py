"""Files written whole or not at all: a scratch file beside the target, moved onto it in one step.

Every output npuzzle writes (pictures, animations, exports, charts, simulation caches) goes through
:func:`atomic_path`, so a crash or ``kill -9`` leaves either the old file or the new one, never half of
one, and a new file gets the permissions any other program's would (the umask's), not a scratch file's
private 0600; a file replaced keeps its own.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

_TRIES = 100  # scratch names tried before giving up (each is random: a clash is a sign of something else)


def _scratch_beside(target: Path, suffix: str) -> Path:
    """A new, empty file beside ``target`` (hidden, random name ending in ``suffix``), created with the
    mode a plain ``open`` would give it."""
    for _ in range(_TRIES):
        scratch = target.with_name(f".{target.stem}-{secrets.token_hex(4)}{suffix}")
        try:
            os.close(os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return scratch
    raise FileExistsError(f"no free scratch name beside {str(target)!r} after {_TRIES} tries")


@contextlib.contextmanager
def atomic_path(path: str | Path, suffix: str = ".tmp") -> Iterator[Path]:
    """A scratch path beside ``path`` (missing folders created) for the block to write; when the block
    succeeds it is flushed to disk and replaces ``path`` in one step, when it fails it is removed.
    ``suffix``: the scratch file's (writers that pick a format by it need ``path``'s own)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = _scratch_beside(target, suffix)
    try:
        yield scratch
        with contextlib.suppress(FileNotFoundError):  # a file replaced keeps its permissions
            os.chmod(scratch, os.stat(target).st_mode & 0o7777)
        descriptor = os.open(scratch, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(scratch, target)
    finally:
        scratch.unlink(missing_ok=True)


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (:func:`atomic_path`)."""
    with atomic_path(path) as scratch:
        scratch.write_bytes(data)


__all__ = ["atomic_path", "write_atomically"]
