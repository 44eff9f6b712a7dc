"""Test-wide set-up: pattern databases go to one temporary folder shared by the xdist workers, never to
the user's cache (the file lock in the table store lets two workers wait for one build)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests import oracle.py, strategies.py, pictures.py


@pytest.fixture(scope="session", autouse=True)
def shared_table_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    cache = Path(os.environ.get("NPUZZLE_TEST_CACHE", root / "npuzzle-cache"))
    os.environ["NPUZZLE_CACHE"] = str(cache)
    return cache
