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

Files are written to a temporary name in the same folder and moved in place with ``os.replace``. Every
builder (on-demand builds and ``npuzzle pdb build`` alike, :func:`build_into_cache`) holds one ``filelock``
lock per table, so two at once do not both work: the second waits, then finds the first one's file.

On load the header and size are always checked, and the crc32 of the data once per process for each file
version (device, inode, size, mtime): damage that keeps the size and modification time (bit rot, a ``cp -p``
or ``rsync -a`` of a damaged copy) is caught by the next process that maps the file, before any search reads
it. The cost is a sequential read: about 8 ms for the 11 MB of 6-6-3 and 0.4-0.7 s for the 0.6 GB of 7-8,
next to seconds to minutes of building (see BENCHMARKS.md); the check reads the very mapping the search
then uses (one open file), so what is checked is what is searched. A damaged file is reported with a
warning naming it, moved aside to ``<name>.corrupt-<UTC time>`` (kept for inspection, not deleted) and
rebuilt, or, when building is not allowed, raises :class:`~npuzzle.errors.TableCorruptError` naming the
command that rebuilds it.

A cache folder that cannot be written (read-only, not a folder, no room for the file) is detected before
any building: on-demand builds then build in memory for the process with a :class:`TableCacheWarning`
saying where tables could not be saved and how to set ``NPUZZLE_CACHE``; ``npuzzle pdb build``, whose whole
point is the file, raises :class:`~npuzzle.errors.TableCacheError` at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import tempfile
import time
import warnings
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._files import atomic_path
from ..errors import TableCacheError, TableCorruptError, TableMissingError
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


class TableCacheWarning(UserWarning):
    """The cache folder could not be written: tables were built in memory, for this process only."""


def read_info(path: Path) -> TableInfo:
    """Parse and check a file's header and size; :class:`TableCorruptError` says what is wrong."""
    try:
        with path.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(DATA_OFFSET)
    except OSError as exc:
        raise TableCorruptError(f"{path}: cannot be read ({exc})") from None
    return _parse_header(path, head, size)


def _parse_header(path: Path, head: bytes, size: int) -> TableInfo:
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
    """The ``.ok`` stamp older versions wrote next to a table (no longer trusted; removed with the table)."""
    return path.with_name(path.name + ".ok")


#: Files whose crc32 passed in this process, by (device, inode, size, mtime in ns): each file version is
#: read in full once per process. A new process starts empty, so damage that keeps the mtime is caught.
_VERIFIED: set[tuple[int, int, int, int]] = set()


def _open_checked(path: Path, *, force: bool = False) -> tuple[TableInfo, np.ndarray]:
    """Header, size and crc32 of ``path`` checked through one open file, and the data memory-mapped from
    that same file (so the bytes checked are the bytes searched). The crc32 is skipped when this process
    already checked this file version, unless ``force``. Raises :class:`TableCorruptError`, or
    ``FileNotFoundError`` when there is no file."""
    with path.open("rb") as f:
        st = os.fstat(f.fileno())
        info = _parse_header(path, f.read(DATA_OFFSET), st.st_size)
        values = np.memmap(f, dtype=np.uint8, mode="r", offset=DATA_OFFSET, shape=(info.count,))
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if force or key not in _VERIFIED:
        actual = checksum(values)
        if actual != info.checksum:
            raise TableCorruptError(
                f"{path}: damaged data (checksum {actual:08x}, header says {info.checksum:08x})"
            )
        _VERIFIED.add(key)
    return info, values


def verify(path: Path, *, force: bool = False) -> TableInfo:
    """Check header, size and the data's crc32 (once per process per file version, always with ``force``)."""
    try:
        info, _ = _open_checked(path, force=force)
    except OSError as exc:
        raise TableCorruptError(f"{path}: cannot be read ({exc})") from None
    return info


def _missing(partition: Partition) -> TableMissingError:
    return TableMissingError(
        f"pattern databases {partition.label} for {partition.width}x{partition.height} "
        f"(blank home {partition.blank_cell}) are not built; run: {rebuild_command(partition)}"
    )


def load(partition: Partition) -> PartitionTables:
    """Memory-map a verified file; :class:`TableMissingError` / :class:`TableCorruptError` otherwise."""
    path = table_path(partition)
    try:
        info, values = _open_checked(path)
    except (FileNotFoundError, NotADirectoryError):
        raise _missing(partition) from None
    except OSError as exc:
        raise TableCorruptError(
            f"{path}: cannot be read ({exc}); rebuild with: {rebuild_command(partition)}"
        ) from None
    except TableCorruptError as exc:
        raise TableCorruptError(f"{exc}; rebuild with: {rebuild_command(partition)}") from None
    if info.partition != partition:
        raise TableCorruptError(f"{path}: header describes another partition; rebuild it")
    return PartitionTables(partition, values)


def move_aside(path: Path) -> Path | None:
    """Rename a damaged table to ``<name>.corrupt-<UTC time>`` (kept for inspection, never silently
    deleted); ``None`` when it cannot be renamed."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        os.replace(path, target)
    except OSError:
        return None
    _stamp_path(path).unlink(missing_ok=True)
    return target


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
    with atomic_path(path) as scratch, scratch.open("wb") as f:
        f.write(_header(partition, data.size, checksum(data)))
        f.write(memoryview(data))
    _stamp_path(path).unlink(missing_ok=True)
    return path


def _lock(path: Path) -> Any:
    import filelock

    return filelock.FileLock(str(path) + ".lock")


def unwritable_reason(partition: Partition) -> str | None:
    """Why ``partition``'s table could not be saved in the cache folder, or ``None`` when it can: the folder
    is created if needed and a probe file written and removed (an honest test, also as root, where
    permission bits alone say nothing), and the free space must hold the file."""
    folder = table_path(partition).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"the folder cannot be created ({exc.strerror or exc})"
    try:
        fd, probe = tempfile.mkstemp(prefix=".npuzzle-probe-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"the folder is not writable ({exc.strerror or exc})"
    need = DATA_OFFSET + partition.n_entries()
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    if free < need:
        return f"{free / 2**20:,.0f} MB free, the file needs {need / 2**20:,.0f} MB"
    return None


def _tell(progress: ProgressFn | None, message: str) -> None:
    if progress is not None:
        progress(message, 0, 0)


def _in_memory(partition: Partition, reason: str, values: np.ndarray | None, progress: ProgressFn | None,
               deadline: float | None) -> PartitionTables:  # fmt: skip
    folder = table_path(partition).parent
    warnings.warn(
        f"cannot save pattern databases in {folder} ({reason}): the {partition.width}x{partition.height} "
        f"{partition.label} tables are built in memory for this process only; set NPUZZLE_CACHE to a writable "
        "folder to keep them",
        TableCacheWarning,
        stacklevel=4,
    )
    if values is None:
        values = build_partition(partition, progress, deadline=deadline)
    return PartitionTables(partition, values)


def build_into_cache(
    partition: Partition,
    *,
    progress: ProgressFn | None = None,
    deadline: float | None = None,
    force: bool = False,
    fallback: bool = False,
    damage: str | None = None,
) -> tuple[PartitionTables, bool]:
    """Build ``partition``'s tables and save them in the cache, holding the table's file lock, as every
    builder does (on-demand builds and ``npuzzle pdb build``): a second builder waits, then finds the first
    one's file and builds nothing. Returns ``(tables, built)``; ``built`` is false when a good file was there
    (or appeared while waiting: also with ``force``, which otherwise rebuilds a good file). A damaged file
    is reported, moved aside (:func:`move_aside`) and rebuilt.

    The folder is checked before any work (:func:`unwritable_reason`; the lock file too): if the table
    cannot be saved, ``fallback`` builds it in memory with a :class:`TableCacheWarning`, otherwise
    :class:`~npuzzle.errors.TableCacheError` is raised at once. ``damage``: what the caller found wrong with
    the file (reported if the file cannot be replaced).
    """
    path = table_path(partition)
    reason = unwritable_reason(partition)
    lock = None
    if reason is None:
        lock = _lock(path)
        try:
            before = path.stat()
        except OSError:
            before = None
        try:
            _acquire(lock, path, progress)
        except OSError as exc:
            reason = f"its lock file {path}.lock cannot be created ({exc.strerror or exc})"
    if reason is not None or lock is None:
        reason = reason or "no lock"
        if not fallback:
            raise TableCacheError(
                f"cannot save pattern databases in {path.parent}: {reason}; set NPUZZLE_CACHE to a writable "
                "folder with room for the file"
            )
        if damage is not None:
            warnings.warn(
                f"pattern database {path} is corrupt ({damage}); it cannot be replaced", stacklevel=3
            )
        return _in_memory(partition, reason, None, progress, deadline), True
    try:
        try:
            now = path.stat()
        except OSError:
            now = None
        changed = (
            before is None
            or now is None
            or (now.st_ino, now.st_mtime_ns) != (before.st_ino, before.st_mtime_ns)
        )
        if now is not None and (not force or changed):
            try:  # built by another process while we waited, or there all along
                return load(partition), False
            except TableMissingError:
                pass
            except TableCorruptError as exc:
                aside = move_aside(path)
                where = (
                    f"moved aside to {aside.name} (`npuzzle pdb clear` deletes it)"
                    if aside is not None
                    else "it could not be moved aside"
                )
                what = str(exc).split("; rebuild with:")[0].removeprefix(f"{path}: ")
                warnings.warn(
                    f"pattern database {path} is corrupt ({what}); {where}; rebuilding it", stacklevel=3
                )
        values = build_partition(partition, progress, deadline=deadline)
        try:
            write(partition, values)
        except OSError as exc:
            if not fallback:
                raise TableCacheError(
                    f"cannot save pattern databases in {path.parent}: {exc.strerror or exc}; set NPUZZLE_CACHE "
                    "to a writable folder with room for the file"
                ) from None
            return _in_memory(
                partition, f"writing failed: {exc.strerror or exc}", values, progress, deadline
            ), True
        return load(partition), True
    finally:
        lock.release()


def _acquire(lock: Any, path: Path, progress: ProgressFn | None) -> None:
    """Take ``lock``, saying so (through ``progress``) when another builder holds it."""
    import filelock

    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        _tell(progress, f"waiting for another process building {path.name}")
        lock.acquire()


def load_or_build(
    partition: Partition,
    *,
    build: bool = True,
    progress: ProgressFn | None = None,
    deadline: float | None = None,
) -> PartitionTables:
    """Load the tables, building them first if missing (and ``build``); a damaged file is reported, moved
    aside and rebuilt (:func:`build_into_cache`; in memory, with a warning, when the cache folder cannot be
    written). Concurrent builders serialise on a file lock: the second waits, then loads what the first wrote.
    """
    damage = None
    try:
        return load(partition)
    except TableMissingError:
        if not build:
            raise
    except TableCorruptError as exc:
        if not build:
            raise
        damage = str(exc).split("; rebuild with:")[0]
    tables, _ = build_into_cache(
        partition, progress=progress, deadline=deadline, fallback=True, damage=damage
    )
    return tables


#: Derived layouts of a table (the search's sparse copy of its small groups) are cached beside it up to
#: this size: larger ones (7-8's 256 MiB) cost more to read and check than to lay out again in memory.
LAYOUT_MAGIC = b"NPUZLAY\x00"
LAYOUT_VERSION = 1
LAYOUT_MAX_BYTES = 1 << 26  # 64 MiB: 6-6-3's sparse 6-tile group is 16**6 = 16,777,216 bytes
LAYOUT_KINDS = ("sparse",)  # file name suffixes of layouts (search.pdb_backend.sparse_tables)
_LAYOUT_VERIFIED: set[tuple[int, int, int, int]] = set()  # as _VERIFIED, for layout files


def layout_path(partition: Partition, kind: str) -> Path:
    """``<table file>.<kind>``: a layout derived from the table, e.g. ``pdb-v2-4x4-...-6-6-3-….npdb.sparse``
    (not a table: :func:`iter_tables` skips it, :func:`remove` deletes it with its table)."""
    if kind not in LAYOUT_KINDS:
        raise ValueError(f"unknown table layout {kind!r} (known: {', '.join(LAYOUT_KINDS)})")
    return table_path(partition).with_name(f"{table_name(partition)}.{kind}")


def _table_file_of(tables: PartitionTables) -> Path | None:
    """The cache file ``tables`` is mapped from, or ``None`` (built in memory, or mapped from elsewhere)."""
    name = getattr(tables.values, "filename", None)
    path = table_path(tables.partition)
    if name is None or Path(name).resolve() != path.resolve():
        return None
    return path


def _layout_header(kind: str, table_crc: int, meta: list[int], count: int, crc: int) -> bytes:
    head = {
        "magic": LAYOUT_MAGIC.rstrip(b"\x00").decode(),
        "format": LAYOUT_VERSION,
        "kind": kind,
        "table_checksum": f"crc32:{table_crc:08x}",
        "meta": meta,
        "dtype": "uint8",
        "count": count,
        "checksum": f"crc32:{crc:08x}",
    }
    text = json.dumps(head, sort_keys=True).encode()
    block = LAYOUT_MAGIC + struct.pack("<I", len(text)) + text
    if len(block) > DATA_OFFSET:
        raise ValueError(f"layout header too long ({len(block)} bytes)")
    return block + b"\x00" * (DATA_OFFSET - len(block))


def load_layout(tables: PartitionTables, kind: str, meta: list[int], count: int) -> np.ndarray | None:
    """A layout of ``tables`` saved by :func:`save_layout`, memory-mapped copy-on-write (a writable array, the
    same type as a fresh one, so kernels see one signature), or ``None`` when there is none that fits.

    It fits when its header names this ``kind``, ``meta`` (the caller's description, e.g. group offsets),
    ``count`` bytes and the crc32 of the very table file ``tables`` is mapped from, and its own crc32 holds
    (checked once per process per file version). A layout that does not fit is simply made again by the
    caller and replaces it: it is derived data, never trusted over its table.
    """
    table = _table_file_of(tables)
    if table is None or count == 0 or count > LAYOUT_MAX_BYTES:
        return None
    path = layout_path(tables.partition, kind)
    try:
        table_crc = read_info(table).checksum
        with path.open("rb") as f:
            st = os.fstat(f.fileno())
            head = f.read(DATA_OFFSET)
            if len(head) < 12 or head[:8] != LAYOUT_MAGIC or st.st_size != DATA_OFFSET + count:
                return None
            (length,) = struct.unpack("<I", head[8:12])
            info = json.loads(head[12 : 12 + length])
            expected = (LAYOUT_VERSION, kind, f"crc32:{table_crc:08x}", meta, count)
            if (info["format"], info["kind"], info["table_checksum"], info["meta"], info["count"]) != expected:
                return None
            crc = int(str(info["checksum"]).removeprefix("crc32:"), 16)
            data = np.memmap(f, dtype=np.uint8, mode="c", offset=DATA_OFFSET, shape=(count,))
    except (OSError, ValueError, KeyError, TypeError, TableCorruptError):
        return None
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if key not in _LAYOUT_VERIFIED:
        if checksum(data) != crc:
            return None
        _LAYOUT_VERIFIED.add(key)
    return data.view(np.ndarray)


def save_layout(tables: PartitionTables, kind: str, meta: list[int], data: np.ndarray) -> Path | None:
    """Save a layout of ``tables`` beside its table file, atomically (temporary file, ``os.replace``), for
    :func:`load_layout` in later processes. Best effort: returns ``None`` (nothing written) when the tables
    have no file, the layout is larger than :data:`LAYOUT_MAX_BYTES` or the folder cannot be written."""
    table = _table_file_of(tables)
    flat = np.ascontiguousarray(data, dtype=np.uint8)
    if table is None or flat.size == 0 or flat.size > LAYOUT_MAX_BYTES:
        return None
    path = layout_path(tables.partition, kind)
    try:
        table_crc = read_info(table).checksum
        with atomic_path(path) as scratch, scratch.open("wb") as f:
            f.write(_layout_header(kind, table_crc, meta, flat.size, checksum(flat)))
            f.write(memoryview(flat))
    except (OSError, TableCorruptError):
        return None
    return path


def iter_tables() -> Iterator[Path]:
    """Every table file in the cache folder, sorted by name."""
    folder = cache_dir()
    if not folder.is_dir():
        return iter(())
    return iter(sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIX) and p.is_file()))


def iter_moved_aside() -> Iterator[Path]:
    """Damaged tables kept by :func:`move_aside` (``*.corrupt-<time>``), sorted by name."""
    folder = cache_dir()
    if not folder.is_dir():
        return iter(())
    return iter(sorted(p for p in folder.iterdir() if f"{SUFFIX}.corrupt-" in p.name and p.is_file()))


def remove(path: Path) -> None:
    """Delete a table file with its stamp, lock and layout files."""
    layouts = [path.with_name(f"{path.name}.{kind}") for kind in LAYOUT_KINDS]
    for p in (path, _stamp_path(path), Path(str(path) + ".lock"), *layouts):
        p.unlink(missing_ok=True)


__all__ = [
    "DATA_OFFSET",
    "FORMAT_VERSION",
    "MAGIC",
    "TableCacheWarning",
    "TableInfo",
    "build_into_cache",
    "cache_dir",
    "checksum",
    "iter_moved_aside",
    "iter_tables",
    "layout_path",
    "load",
    "load_layout",
    "load_or_build",
    "move_aside",
    "read_info",
    "rebuild_command",
    "remove",
    "save_layout",
    "table_name",
    "table_path",
    "unwritable_reason",
    "verify",
    "write",
]
