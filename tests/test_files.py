"""Files written whole or not at all (npuzzle._files), and the writers that go through it."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from npuzzle._files import atomic_path, write_atomically
from npuzzle.bank import export, open_bank
from npuzzle.render.image import save_image


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _save_picture(path: Path) -> None:
    save_image(Image.new("RGB", (4, 4)), path)


def _export_bank(path: Path) -> None:
    with open_bank(path.with_name("bank.sqlite")) as bank:
        export(bank, path)


@pytest.mark.parametrize(
    ("name", "write"),
    [("data.bin", lambda p: write_atomically(p, b"new")), ("picture.png", _save_picture), ("bank.csv", _export_bank)],
)
@pytest.mark.usefixtures("umask_022")
def test_a_new_file_gets_the_umasks_mode_not_a_scratch_files(
    name: str, write: Callable[[Path], None], tmp_path: Path
) -> None:
    """Written through mkstemp, pictures, exports and charts came out 0600, readable by their owner alone."""
    write(tmp_path / name)
    assert _mode(tmp_path / name) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_file_replaced_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_bytes(b"old")
    target.chmod(0o600)
    write_atomically(target, b"new")
    assert target.read_bytes() == b"new" and _mode(target) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_scratch(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_path(target) as scratch:
        scratch.write_bytes(b"half")
        raise RuntimeError("the writer failed")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_missing_folders_are_made_and_the_scratch_keeps_the_suffix(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "out.gif"
    with atomic_path(target, suffix=target.suffix) as scratch:
        assert scratch.parent == target.parent and scratch.suffix == ".gif" and scratch.exists()
        scratch.write_bytes(b"GIF89a")
    assert target.read_bytes() == b"GIF89a"
