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


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels(shared_table_cache: Path) -> None:
    """Every kernel group the anytime ladder asks about, compiled (or loaded) before any test. With a budget
    given, the ladder skips a step whose kernels are not compiled yet (tests/test_answer_first.py checks
    that, in processes with an empty numba cache): without this, what a test gets would depend on which
    tests the same worker happened to run before it. A lock per group makes a worker load what another
    compiled instead of compiling it again; the workers take the groups in different orders, so two of them
    compile two groups at once. The reduction's group alone takes as long as the others together (39 s of 81
    on a fresh machine), so one worker starts with it and the other leaves it last."""
    from filelock import FileLock

    from npuzzle._kernels.warmup import GROUPS, warm_group

    shared_table_cache.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    longest_last = tuple(sorted(GROUPS, key=lambda group: group == "reduction"))
    order = longest_last if int(worker.removeprefix("gw") or 0) % 2 == 0 else tuple(reversed(longest_last))
    for group in order:
        with FileLock(str(shared_table_cache / f"kernels-{group}.lock")):
            warm_group(group)
