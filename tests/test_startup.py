"""Start-up of later solves (issue 14): the sparse table layout cached on disk, numba loaded without SciPy's
BLAS probe, the console script's exit. Figures are in BENCHMARKS.md ("Issue 14: later 4×4 solves")."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from npuzzle.goals import classic
from npuzzle.heuristics import store
from npuzzle.heuristics.pdb import standard_partition
from npuzzle.notation import parse_board
from npuzzle.search import pdb_backend

PART = standard_partition(3, 3, 8, "4-4")


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _fresh_sparse() -> tuple[np.ndarray, np.ndarray]:
    """sparse_tables as a new process sees it: tables mapped again, nothing remembered in memory."""
    pdb_backend._LOADED.clear()
    pdb_backend._SPARSE.clear()
    return pdb_backend.sparse_tables(pdb_backend.load_partition(PART))


def test_sparse_layout_saved_then_mapped_and_identical() -> None:
    store.load_or_build(PART)
    first, starts = _fresh_sparse()  # laid out in memory, then saved
    path = store.layout_path(PART, "sparse")
    assert path.is_file() and path.read_bytes()[:8] == store.LAYOUT_MAGIC
    second, starts2 = _fresh_sparse()  # mapped from the file
    assert np.array_equal(first, second) and np.array_equal(starts, starts2)
    assert second.flags.writeable and second.dtype == np.uint8  # one kernel signature for both
    assert second.base is not None  # a view of the mapping, not a fresh array
    assert path.name not in {p.name for p in store.iter_tables()}
    # the searches agree whichever way the layout came
    board = parse_board("8 6 7 / 2 5 4 / 3 0 1")
    solution = pdb_backend.solve_pdb(board, classic(3, 3), partition=PART)
    assert solution.length == 31 and solution.replay() == solution.goal


def test_damaged_or_stale_layout_is_made_again() -> None:
    store.load_or_build(PART)
    good, starts = _fresh_sparse()
    meta = [9, *map(int, starts)]
    path = store.layout_path(PART, "sparse")
    data = bytearray(path.read_bytes())
    data[store.DATA_OFFSET + int(np.flatnonzero(good)[0])] ^= 0x7F
    time.sleep(0.01)
    path.write_bytes(bytes(data))
    tables = pdb_backend.load_partition(PART)
    assert store.load_layout(tables, "sparse", meta, good.size) is None  # its crc32 fails
    again, _ = _fresh_sparse()  # laid out again, the file replaced
    assert np.array_equal(again, good) and path.read_bytes() != bytes(data)
    assert store.load_layout(pdb_backend.load_partition(PART), "sparse", meta, good.size) is not None
    assert store.load_layout(pdb_backend.load_partition(PART), "sparse", [16, *meta[1:]], good.size) is None
    # a new version of the table (another crc32) makes the saved layout stale
    values = np.asarray(tables.values).copy()
    values[np.flatnonzero(values)[0]] -= 1
    store.write(PART, values)
    assert store.load_layout(pdb_backend.load_partition(PART), "sparse", meta, good.size) is None


def test_remove_deletes_the_layout_with_its_table() -> None:
    store.load_or_build(PART)
    _fresh_sparse()
    path = store.layout_path(PART, "sparse")
    assert path.is_file()
    store.remove(store.table_path(PART))
    assert not path.exists() and not store.table_path(PART).exists()
    with pytest.raises(ValueError, match="unknown table layout"):
        store.layout_path(PART, "dense")


def test_tables_built_in_memory_save_no_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    from npuzzle.heuristics.pdb import PartitionTables, build_partition

    tables = PartitionTables(PART, build_partition(PART))
    assert store.save_layout(tables, "sparse", [9], np.zeros(4, np.uint8)) is None
    assert store.load_layout(tables, "sparse", [9], 4) is None


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "0"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_kernels_load_numba_without_scipy_blas() -> None:
    code = (
        "import sys, npuzzle._kernels\n"
        "from numba.np import arraymath\n"
        "print(arraymath._HAVE_BLAS, 'scipy.linalg' in sys.modules)\n"
        "import scipy.linalg.cython_blas\n"  # still importable afterwards (render.vision uses SciPy)
        "print('scipy ok')\n"
    )
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False", "scipy", "ok"]


def test_console_script_exit_codes_and_full_output() -> None:
    """run() ends the process without the interpreter's teardown: the exit code and every byte of output
    must survive that."""
    code = "import sys\nsys.argv = ['npuzzle'] + sys.argv[1:]\nfrom npuzzle.cli import run\nrun()\n"
    board = "8 6 7 / 2 5 4 / 3 0 1"
    ok = subprocess.run(
        [sys.executable, "-c", code, "solve", board, "--show"], capture_output=True, text=True, timeout=300
    )
    assert ok.returncode == 0, ok.stderr
    lines = ok.stdout.splitlines()
    assert lines[0].startswith("31 moves (optimal") and "after move 31" in ok.stdout
    bad = subprocess.run([sys.executable, "-c", code, "solve", "1 2 / 3 x"], capture_output=True, text=True)
    assert bad.returncode == 2 and "'x' is not a tile number" in bad.stderr
    unsolvable = subprocess.run(
        [sys.executable, "-c", code, "solve", "1 2 3 / 4 5 6 / 8 7 0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert unsolvable.returncode == 1
