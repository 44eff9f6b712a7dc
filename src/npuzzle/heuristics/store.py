"""The on-disk cache of pattern databases: explicit, versioned, atomic, memory-mapped files.

Location: ``$NPUZZLE_CACHE`` if set, else the user cache folder (``platformdirs``), sub-folder ``pdb``.
One file per partition, named by format version, board size, goal (its blank cell: tables are over
canonical tiles, so goals with the same blank cell share files) and partition, e.g.
``pdb-v1-4x4-blank0-6-6-3-3f0c1a2b.npdb`` (the last part is a digest of the patterns, so custom partitions
with the same sizes get their own file).

File layout::

    bytes 0..7      MAGIC
    bytes 8..11     header length L (little-endian uint32)
    bytes 12..12+L  JSON header: magic, format, width, height, blank_cell, partition name, groups, dtype,
                    count, checksum (crc32 of the data)
    bytes 4096..    ``count`` uint8 entries: every group's table in turn (see PartitionTables), memory-mapped

Files are written to a temporary name in the same folder and moved in place with ``os.replace``, under a
``filelock`` lock so two processes building the same table do not both write it. On load the header and
size are always checked; the crc32 of the data is checked once per file version (a ``.ok`` stamp records
size, mtime and checksum of the last good check, so a warm start costs milliseconds). A corrupt or
truncated file is reported with a warning naming it, deleted and rebuilt (or, when building is not allowed,
raises :class:`~npuzzle.errors.TableCorruptError` naming the command that rebuilds it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import struct
import warnings
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TableCorruptError, TableMissingError
from .pdb import Partition, PartitionTables, ProgressFn, build_partition

MAGIC = b"NPUZPDB\x00"
FORMAT_VERSION = 2  # 2: tables searched from the goal's blank cell (1: blank anywhere, refused)
DATA_OFFSET = 4096  # the table starts on a page boundary
SUFFIX = ".npdb"
CHUNK = 1 << 24  # bytes per crc32 step (16 MiB)


def cache_dir() -> Path:
    """The folder holding the tables: ``$NPUZZLE_CACHE``, else the user cache folder's ``pdb``."""
    env = os.environ.get("NPUZZLE_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("npuzzle")) / "pdb"


def table_name(partition: Partition) -> str:
    """``pdb-v1-4x4-blank0-6-6-3-3f0c1a2b.npdb``."""
    p = partition
    digest = hashlib.blake2b(repr(p.groups).encode(), digest_size=4).hexdigest()
    return f"pdb-v{FORMAT_VERSION}-{p.width}x{p.height}-blank{p.blank_cell}-{p.label}-{digest}{SUFFIX}"


def table_path(partition: Partition) -> Path:
    return cache_dir() / table_name(partition)


def rebuild_command(partition: Partition) -> str:
    """The CLI command that (re)builds ``partition``'s tables."""
    p = partition
    named = p.name if p.name != "custom" else "/".join(",".join(map(str, g)) for g in p.groups)
    return f"npuzzle pdb build --size {p.width}x{p.height} --blank-cell {p.blank_cell} --partition {named}"


def checksum(data: Any) -> int:
    """crc32 of a byte buffer or array, in 16 MiB steps (a memmap is read once, sequentially)."""
    view = memoryview(data).cast("B")
    crc = 0
    for i in range(0, len(view), CHUNK):
        crc = zlib.crc32(view[i : i + CHUNK], crc)
    return crc


@dataclass(frozen=True)
class TableInfo:
    """What a file's header says, plus where it is and how large it is."""

    path: Path
    partition: Partition
    count: int
    checksum: int
    file_bytes: int

    def to_dict(self) -> dict[str, Any]:
        p = self.partition
        return {
            "path": str(self.path),
            "size": f"{p.width}x{p.height}",
            "blank_cell": p.blank_cell,
            "partition": p.name,
            "sizes": p.label,
            "groups": [list(g) for g in p.groups],
            "entries": self.count,
            "bytes": self.file_bytes,
        }


def _header(partition: Partition, count: int, crc: int) -> bytes:
    p = partition
    head = {
        "magic": MAGIC.rstrip(b"\x00").decode(),
        "format": FORMAT_VERSION,
        "width": p.width,
        "height": p.height,
        "blank_cell": p.blank_cell,
        "partition": p.name,
        "groups": [list(g) for g in p.groups],
        "dtype": "uint8",
        "count": count,
        "checksum": f"crc32:{crc:08x}",
    }
    text = json.dumps(head, sort_keys=True).encode()
    block = MAGIC + struct.pack("<I", len(text)) + text
    if len(block) > DATA_OFFSET:
        raise ValueError(f"pattern database header too long ({len(block)} bytes)")
    return block + b"\x00" * (DATA_OFFSET - len(block))


def read_info(path: Path) -> TableInfo:
    """Parse and check a file's header and size; :class:`TableCorruptError` says what is wrong."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(DATA_OFFSET)
    except OSError as exc:
        raise TableCorruptError(f"{path}: cannot be read ({exc})") from None
    if len(head) < 12 or head[:8] != MAGIC:
        raise TableCorruptError(f"{path}: not a pattern database (bad magic)")
    (length,) = struct.unpack("<I", head[8:12])
    try:
        meta = json.loads(head[12 : 12 + length])
        fmt = int(meta["format"])
        if fmt != FORMAT_VERSION:
            raise TableCorruptError(f"{path}: format {fmt}, this npuzzle reads format {FORMAT_VERSION}")
        partition = Partition(
            int(meta["width"]),
            int(meta["height"]),
            int(meta["blank_cell"]),
            tuple(tuple(int(c) for c in g) for g in meta["groups"]),
            str(meta["partition"]),
        )
        count = int(meta["count"])
        crc = int(str(meta["checksum"]).removeprefix("crc32:"), 16)
    except TableCorruptError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise TableCorruptError(f"{path}: unreadable header ({exc})") from None
    if count != partition.n_entries():
        raise TableCorruptError(f"{path}: header count {count} does not fit partition {partition.groups}")
    if size != DATA_OFFSET + count:
        raise TableCorruptError(f"{path}: {size} bytes, expected {DATA_OFFSET + count} (truncated?)")
    return TableInfo(path, partition, count, crc, size)


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".ok")


def _stamp_text(path: Path, crc: int) -> str:
    st = path.stat()
    return f"{st.st_size} {st.st_mtime_ns} {crc:08x}"


def verify(path: Path, *, force: bool = False) -> TableInfo:
    """Check header, size and (unless a fresh ``.ok`` stamp says it was done) the data's crc32."""
    info = read_info(path)
    stamp = _stamp_path(path)
    if not force:
        try:
            if stamp.read_text() == _stamp_text(path, info.checksum):
                return info
        except OSError:
            pass
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=DATA_OFFSET, shape=(info.count,))
    actual = checksum(data)
    del data
    if actual != info.checksum:
        raise TableCorruptError(f"{path}: checksum {actual:08x}, header says {info.checksum:08x}")
    with contextlib.suppress(OSError):  # a read-only cache is verified again next time
        stamp.write_text(_stamp_text(path, info.checksum))
    return info


def load(partition: Partition) -> PartitionTables:
    """Memory-map a verified file; :class:`TableMissingError` / :class:`TableCorruptError` otherwise."""
    path = table_path(partition)
    if not path.exists():
        raise TableMissingError(
            f"pattern databases {partition.label} for {partition.width}x{partition.height} "
            f"(blank home {partition.blank_cell}) are not built; run: {rebuild_command(partition)}"
        )
    try:
        info = verify(path)
    except TableCorruptError as exc:
        raise TableCorruptError(f"{exc}; rebuild with: {rebuild_command(partition)}") from None
    if info.partition != partition:
        raise TableCorruptError(f"{path}: header describes another partition; rebuild it")
    values = np.memmap(path, dtype=np.uint8, mode="r", offset=DATA_OFFSET, shape=(info.count,))
    return PartitionTables(partition, values)


def write(partition: Partition, values: np.ndarray) -> Path:
    """Write ``values`` atomically (temporary file in the cache folder, fsync, ``os.replace``)."""
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / table_name(partition)
    data = np.ascontiguousarray(values, dtype=np.uint8)
    if data.size != partition.n_entries():
        raise ValueError(
            f"{data.size} entries given, partition {partition.label} has {partition.n_entries()}"
        )
    tmp = folder / f".{path.name}.{os.getpid()}.tmp"
    try:
        with tmp.open("wb") as f:
            f.write(_header(partition, data.size, checksum(data)))
            f.write(memoryview(data))
            f.flush()
            os.fsync(f.fileno())
        _stamp_path(path).unlink(missing_ok=True)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _lock(path: Path) -> Any:
    import filelock

    return filelock.FileLock(str(path) + ".lock")


def load_or_build(
    partition: Partition,
    *,
    build: bool = True,
    progress: ProgressFn | None = None,
    deadline: float | None = None,
) -> PartitionTables:
    """Load the tables, building them first if missing (and ``build``); a corrupt file is reported and rebuilt.

    Concurrent builders serialise on a file lock: the second waits, then loads what the first wrote.
    """
    path = table_path(partition)
    try:
        return load(partition)
    except TableMissingError:
        if not build:
            raise
    except TableCorruptError as exc:
        if not build:
            raise
        warnings.warn(f"pattern database {path} is corrupt ({exc}); rebuilding it", stacklevel=2)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _lock(path):
        try:  # another process may have built it while we waited
            return load(partition)
        except (TableMissingError, TableCorruptError):
            pass
        path.unlink(missing_ok=True)
        write(partition, build_partition(partition, progress, deadline=deadline))
    return load(partition)


def iter_tables() -> Iterator[Path]:
    """Every table file in the cache folder, sorted by name."""
    folder = cache_dir()
    if not folder.is_dir():
        return iter(())
    return iter(sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIX) and p.is_file()))


def remove(path: Path) -> None:
    """Delete a table file with its stamp and lock files."""
    for p in (path, _stamp_path(path), Path(str(path) + ".lock")):
        p.unlink(missing_ok=True)


__all__ = [
    "DATA_OFFSET",
    "FORMAT_VERSION",
    "MAGIC",
    "TableInfo",
    "cache_dir",
    "checksum",
    "iter_tables",
    "load",
    "load_or_build",
    "read_info",
    "rebuild_command",
    "remove",
    "table_name",
    "table_path",
    "verify",
    "write",
]
