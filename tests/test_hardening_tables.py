"""Issue 10: a damaged pattern database never produces an "optimal" wrong answer, builders share one lock,
and a cache folder that cannot be written is detected before any building.

Damage keeps the size and the modification time (bit rot, ``cp -p`` or ``rsync -a`` of a damaged copy), which
the old ``.ok`` stamps trusted. Each test has its own NPUZZLE_CACHE; the good 6-6-3 file comes from the
suite-wide cache (built there once) and is copied in, so the suite's cache is never damaged.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from npuzzle.board import Board
from npuzzle.errors import TableCacheError, TableCorruptError
from npuzzle.goals import goal
from npuzzle.heuristics import store
from npuzzle.heuristics.pdb import build_partition, standard_partition

PART = standard_partition(4, 4, 0, "6-6-3")  # Korf's goal: blank first
SMALL = standard_partition(3, 3, 8, "4-4")  # builds in milliseconds
# Korf's instance with the shortest optimal answer (tests/data/korf100.txt): 41 moves
KORF_TILES = [13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11]
KORF_OPTIMAL = 41
LOAD_IN_CHILD = (
    "from npuzzle.heuristics import store\n"
    "from npuzzle.heuristics.pdb import standard_partition\n"
    "store.load(standard_partition({w}, {h}, {b}, {name!r}))\n"
    "print('loaded')\n"
)


@pytest.fixture(scope="module")
def good_file(shared_table_cache: Path) -> Path:
    """The suite-wide 6-6-3 (blank first) file, built there once if missing; never modified."""
    os.environ["NPUZZLE_CACHE"] = str(shared_table_cache)
    store.load_or_build(PART)
    return store.table_path(PART)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("NPUZZLE_CACHE", str(folder))
    return folder


def _zeroed(data: bytearray) -> None:
    data[store.DATA_OFFSET :] = bytes(len(data) - store.DATA_OFFSET)


def _flipped(data: bytearray) -> None:
    rng = np.random.default_rng(1)
    view = np.frombuffer(data, np.uint8, offset=store.DATA_OFFSET)
    where = rng.choice(view.size, view.size // 100, replace=False)  # 1 % of the entries
    view[where] ^= rng.integers(1, 256, where.size, dtype=np.uint8)


def _inflated(data: bytearray) -> None:
    view = np.frombuffer(data, np.uint8, offset=store.DATA_OFFSET)
    np.minimum(view.astype(np.int64) + 20, 255, out=view, casting="unsafe")


DAMAGE: dict[str, Callable[[bytearray], None]] = {
    "zeroed": _zeroed,
    "flipped": _flipped,
    "inflated": _inflated,
}


def _damage_keeping_mtime(path: Path, how: str) -> None:
    """Damage the data in place (same inode, same size) and put the modification time back."""
    st = path.stat()
    data = bytearray(path.read_bytes())
    DAMAGE[how](data)
    with path.open("r+b") as f:
        f.write(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_mtime_ns == st.st_mtime_ns and path.stat().st_size == st.st_size


def _install(good_file: Path, cache: Path) -> Path:
    """Copy the good file in as ``cp -p`` would, and load it once (the old code then left a ``.ok`` stamp)."""
    cache.mkdir(parents=True, exist_ok=True)
    path = store.table_path(PART)
    shutil.copy2(good_file, path)
    store.load(PART)
    return path


def _child(code: str, env: dict[str, str] | None = None, **popen: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, **(env or {})}, **popen,  # type: ignore[arg-type]
    )  # fmt: skip


@pytest.mark.parametrize("how", list(DAMAGE))
def test_damage_keeping_mtime_is_caught_by_the_next_process(good_file: Path, cache: Path, how: str) -> None:
    path = _install(good_file, cache)
    _damage_keeping_mtime(path, how)
    result = _child(LOAD_IN_CHILD.format(w=4, h=4, b=0, name="6-6-3"))
    assert result.returncode != 0 and "loaded" not in result.stdout
    assert "TableCorruptError" in result.stderr and "damaged data" in result.stderr
    assert "npuzzle pdb build --size 4x4 --blank-cell 0 --partition 6-6-3" in result.stderr


@pytest.mark.parametrize("how", list(DAMAGE))
def test_damaged_table_is_moved_aside_rebuilt_and_the_answer_is_right(
    good_file: Path, cache: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from npuzzle.search.pdb_backend import solve_pdb

    path = _install(good_file, cache)
    _damage_keeping_mtime(path, how)
    monkeypatch.setattr(store, "_VERIFIED", set(), raising=False)  # what a new process starts with
    start, target = Board(KORF_TILES, 4, 4), goal("blank-first", 4, 4)
    with pytest.raises(TableCorruptError, match="rebuild with: npuzzle pdb build"):
        solve_pdb(start, target, partition="6-6-3", build=False)
    assert path.exists()  # not moved when it is not rebuilt
    # the rebuild: the builder has its own tests; here the good values stand in for its 7 s of work
    good = np.fromfile(good_file, np.uint8, offset=store.DATA_OFFSET)
    monkeypatch.setattr(store, "build_partition", lambda partition, progress=None, **kw: good.copy())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        solution = solve_pdb(start, target, partition="6-6-3")
    assert (solution.length, solution.optimal) == (KORF_OPTIMAL, True)
    assert any(str(path) in str(w.message) and "moved aside" in str(w.message) for w in caught)
    aside = list(cache.glob(path.name + ".corrupt-*"))
    assert len(aside) == 1 and aside[0].stat().st_size == path.stat().st_size  # kept, not deleted
    assert list(store.iter_moved_aside()) == aside
    store.verify(path, force=True)
    from npuzzle.cli import main

    assert main(["pdb", "clear"]) == 0
    assert list(cache.iterdir()) == []


def test_the_check_runs_once_per_process_per_file_version(
    good_file: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = store.checksum
    monkeypatch.setattr(store, "checksum", lambda data: calls.append(1) or real(data))
    monkeypatch.setattr(store, "_VERIFIED", set())
    _install(good_file, cache)
    store.load(PART)
    store.load(PART)
    assert len(calls) == 1
    os.utime(store.table_path(PART))  # a new version (touched): checked again
    store.load(PART)
    assert len(calls) == 2


@pytest.mark.slow
def test_issue_repro_through_the_cli_with_a_real_rebuild(good_file: Path, cache: Path) -> None:
    """Issue 10's repro: solve, zero bytes 4096.. keeping the mtime, solve again (a real 6-6-3 rebuild)."""
    path = _install(good_file, cache)
    argv = [sys.executable, "-m", "npuzzle", "solve", " ".join(map(str, KORF_TILES)), "--goal", "blank-first",
            "--algorithm", "pdb"]  # fmt: skip
    env = {**os.environ, "NPUZZLE_CACHE": str(cache)}
    first = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert first.returncode == 0 and first.stdout.startswith(f"{KORF_OPTIMAL} moves (optimal")
    _damage_keeping_mtime(path, "zeroed")
    second = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert second.returncode == 0 and second.stdout.startswith(f"{KORF_OPTIMAL} moves (optimal"), (
        second.stderr
    )
    assert "corrupt" in second.stderr and list(cache.glob("*.corrupt-*"))
    store.verify(path, force=True)


def test_pdb_build_waits_for_the_lock_and_then_builds_nothing(cache: Path) -> None:
    """A second builder (here the CLI) waits on the first one's lock, then finds its file: no double work."""
    cache.mkdir(parents=True)
    path = store.table_path(SMALL)
    lock = store._lock(path)
    lock.acquire()
    argv = [sys.executable, "-m", "npuzzle", "pdb", "build", "--size", "3x3", "--partition", "4-4"]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(child.stderr or ()), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while not any("building 3x3" in line for line in seen) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the child is at the lock now
        assert child.poll() is None and not path.exists()  # waiting, not building
        store.write(SMALL, build_partition(SMALL))  # "the first builder" finishes
        inode = path.stat().st_ino
    finally:
        lock.release()
    assert child.wait(timeout=60) == 0
    reader.join(timeout=10)
    assert "built meanwhile by another process" in "".join(seen)
    assert path.stat().st_ino == inode  # the child did not write it again
    store.verify(path, force=True)


def test_cache_under_a_file_fails_before_building(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """NPUZZLE_CACHE pointing below a regular file: the OS refuses the folder (a read-only situation that
    holds for root too); ``pdb build`` says so before building, on-demand builds fall back to memory."""
    from npuzzle.cli import main

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NPUZZLE_CACHE", str(blocker / "cache"))
    built: list[int] = []
    real = store.build_partition
    monkeypatch.setattr(store, "build_partition", lambda *a, **kw: built.append(1) or real(*a, **kw))
    with pytest.raises(TableCacheError, match="NPUZZLE_CACHE"):
        store.build_into_cache(SMALL)
    assert main(["pdb", "build", "--size", "3x3", "--partition", "4-4"]) == 2
    assert built == []  # nothing was built before the refusal
    with pytest.warns(store.TableCacheWarning, match=r"cannot save .* in memory .* NPUZZLE_CACHE"):
        tables = store.load_or_build(SMALL)
    assert built == [1] and np.array_equal(tables.values, real(SMALL))


def _as_unprivileged(check: Callable[[], dict[str, object]]) -> dict[str, object]:
    """Run ``check`` in a forked child that dropped to user ``nobody`` (root ignores mode bits), or in this
    process when it is not root; returns what ``check`` returned (through a pipe, as JSON)."""
    if os.geteuid() != 0:
        return check()
    import json
    import mmap  # noqa: F401 - the child may not read the interpreter's files: import what it needs now

    import filelock  # noqa: F401

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no numba work here (the checks below build nothing), exit without cleanup
        code = 0
        try:
            os.close(read)
            os.setgid(65534)
            os.setuid(65534)
            out = json.dumps(check())
        except BaseException as exc:  # reported to the parent
            out, code = json.dumps({"error": repr(exc)}), 1
        with os.fdopen(write, "w") as f:
            f.write(out)
        os._exit(code)
    os.close(write)
    with os.fdopen(read) as f:
        text = f.read()
    os.waitpid(pid, 0)
    return json.loads(text)  # type: ignore[no-any-return]


def test_read_only_folder_for_real(monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder this process may not write: a present table loads; a missing one is refused before any
    building (``pdb build``) or built in memory with a warning (on-demand)."""
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="npuzzle-ro-"))  # under /tmp, so that user nobody can reach it
    base.chmod(0o755)
    cache = base / "cache"
    monkeypatch.setenv("NPUZZLE_CACHE", str(cache))
    store.write(SMALL, build_partition(SMALL))
    cache.chmod(0o555)
    other = standard_partition(3, 3, 0, "4-4")

    def check() -> dict[str, object]:
        out: dict[str, object] = {"loaded": int(store.load(SMALL).values.size)}
        try:
            store.build_into_cache(other)
        except TableCacheError as exc:
            out["refused"] = str(exc)
        store.build_partition = lambda partition, progress=None, **kw: np.zeros(
            partition.n_entries(), np.uint8
        )  # type: ignore[assignment]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out["in_memory"] = int(store.load_or_build(other).values.size)
        out["warnings"] = [str(w.message) for w in caught]
        return out

    try:
        result = _as_unprivileged(check)
    finally:
        cache.chmod(0o755)
        listing = sorted(p.name for p in cache.iterdir())
        shutil.rmtree(base)
    assert "error" not in result, result
    assert result["loaded"] == SMALL.n_entries() and result["in_memory"] == other.n_entries()
    assert "not writable" in str(result["refused"]) and "NPUZZLE_CACHE" in str(result["refused"])
    assert any("in memory for this process only" in w and "NPUZZLE_CACHE" in w for w in result["warnings"])  # type: ignore[attr-defined]
    assert listing == [store.table_name(SMALL)]
