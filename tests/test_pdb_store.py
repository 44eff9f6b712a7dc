"""The pattern-database cache: atomic versioned files, checksum, corruption recovery, concurrent builders."""

from __future__ import annotations

import multiprocessing
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from npuzzle.errors import TableCorruptError, TableMissingError
from npuzzle.heuristics import store
from npuzzle.heuristics.pdb import build_partition, standard_partition

PART = standard_partition(3, 3, 8, "4-4")


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_round_trip_header_and_memmap() -> None:
    values = build_partition(PART)
    path = store.write(PART, values)
    assert path.name.startswith(f"pdb-v{store.FORMAT_VERSION}-3x3-blank8-4-4-") and path.suffix == ".npdb"
    info = store.read_info(path)
    assert info.partition == PART and info.count == values.size
    assert info.checksum == store.checksum(values)
    loaded = store.load(PART)
    assert isinstance(loaded.values, np.memmap)
    assert np.array_equal(loaded.values, values)
    assert path.read_bytes()[:8] == store.MAGIC


def test_files_written_twice_are_identical() -> None:
    first = store.write(PART, build_partition(PART)).read_bytes()
    second = store.write(PART, build_partition(PART)).read_bytes()
    assert first == second


def test_missing_names_the_command() -> None:
    with pytest.raises(TableMissingError, match="npuzzle pdb build --size 3x3"):
        store.load_or_build(PART, build=False)


def _corrupt(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "flip":
        data[store.DATA_OFFSET + 100] ^= 0xFF
    elif how == "truncate":
        data = data[:-10]
    else:
        data[:8] = b"garbage!"
    time.sleep(0.01)  # a new mtime for the stamp check on coarse clocks
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flip", "truncate", "magic"])
def test_corrupt_file_is_detected_reported_and_rebuilt(how: str) -> None:
    good = build_partition(PART)
    path = store.write(PART, good)
    store.load(PART)  # leaves a verified stamp
    _corrupt(path, how)
    with pytest.raises(TableCorruptError, match="rebuild"):
        store.load(PART)
    with pytest.raises(TableCorruptError):
        store.load_or_build(PART, build=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tables = store.load_or_build(PART)
    assert any(str(path) in str(w.message) and "corrupt" in str(w.message) for w in caught)
    assert np.array_equal(tables.values, good)
    store.verify(path, force=True)


def test_warm_load_is_fast() -> None:
    store.write(PART, build_partition(PART))
    store.load(PART)
    t0 = time.perf_counter()
    for _ in range(20):
        store.load(PART)
    assert (time.perf_counter() - t0) / 20 < 0.05


def _build_in_child(cache: str) -> str:
    import os

    os.environ["NPUZZLE_CACHE"] = cache
    from npuzzle.heuristics import store as s
    from npuzzle.heuristics.pdb import standard_partition as sp

    part = sp(3, 3, 8, "4-4")
    return str(s.checksum(np.asarray(s.load_or_build(part).values)))


def test_concurrent_builders_do_not_corrupt(_cache: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.map(_build_in_child, [str(_cache)] * 2)
    assert len(set(results)) == 1
    info = store.verify(store.table_path(PART), force=True)
    assert str(info.checksum) == results[0]
    assert not list(_cache.glob("*.tmp"))


def test_iter_and_remove() -> None:
    path = store.write(PART, build_partition(PART))
    assert list(store.iter_tables()) == [path]
    store.remove(path)
    assert list(store.iter_tables()) == []


def test_cli_build_list_verify_clear(_cache: Path) -> None:
    from npuzzle.cli import main

    assert main(["pdb", "build", "--size", "3x3", "--partition", "4-4"]) == 0
    assert main(["pdb", "list"]) == 0
    assert main(["pdb", "verify"]) == 0
    _corrupt(next(store.iter_tables()), "flip")
    assert main(["pdb", "verify"]) == 2
    assert main(["pdb", "clear"]) == 0
    assert list(store.iter_tables()) == []
