"""``bank fill`` killed with SIGKILL and started again (issue 16 item 2): no gaps, no duplicates, right lengths.

The killed-and-resumed bank must equal the bank one uninterrupted run makes: every job sequence number
``0..n-1`` recorded once, the same board for each, and every length equal to the exact BFS distance.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from npuzzle.bank import fill, open_bank
from npuzzle.goals import classic
from oracle import bfs_distances
from processes import processes_tagged

ROOT = Path(__file__).resolve().parent.parent
BAND = (10, 27)  # 3x3 lengths holding at least 286 positions each: few duplicates


def _stored(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as connection:
            return int(connection.execute("SELECT count(*) FROM puzzles").fetchone()[0])
    except sqlite3.Error:  # the bank is being made
        return 0


def _kill_resume(tmp_path: Path, count: int, kill_at: list[int], jobs: str) -> None:
    db = tmp_path / "killed.bank"
    argv = [sys.executable, "-m", "npuzzle", "bank", "fill", "--size", "3x3", "--length", f"{BAND[0]}..{BAND[1]}",
            "--count", str(count), "--seed", "7", "--jobs", jobs, "--db", str(db), "--no-progress"]  # fmt: skip
    tag = f"{os.getpid()}-{tmp_path.name}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NPUZZLE_TEST_TAG": tag}
    killed = []
    for target in kill_at:
        process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while process.poll() is None and _stored(db) < target and time.monotonic() < deadline:
                time.sleep(0.02)
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
        if process.returncode == -signal.SIGKILL:
            killed.append(_stored(db))
    if not killed or killed[-1] >= count:
        pytest.skip(f"the runs ended before they could be killed mid-way (stored {killed} of {count})")
    assert all(0 < k < count for k in killed)
    if sys.platform == "linux":  # pool workers notice that the fill is gone and leave
        deadline = time.monotonic() + 20
        while processes_tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert processes_tagged(tag) == [], "worker processes outlived the killed fill"
    finished = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert finished.returncode == 0, finished.stderr
    assert f"{count} of {count} in this stream" in finished.stderr

    # one uninterrupted run of the same stream, in this process
    reference = tmp_path / "reference.bank"
    with open_bank(reference) as bank:
        report = fill(bank, classic(3, 3), low=BAND[0], high=BAND[1], count=count, goal_name="classic", seed=7)
        assert report.stored == count
        expected = {(r.seq, r.board.tiles) for r in bank.records()}
        expected_jobs = sorted(bank.connection.execute("SELECT seq, status FROM fill_jobs"))

    distances = bfs_distances(classic(3, 3))
    with open_bank(db, create=False) as bank:
        records = list(bank.records())
        jobs_done = sorted(bank.connection.execute("SELECT seq, status FROM fill_jobs"))
    assert len(records) == count  # nothing lost, nothing stored twice
    assert len({r.board.tiles for r in records}) == count
    assert [seq for seq, _ in jobs_done] == list(range(len(jobs_done)))  # no gap in the job numbering
    assert jobs_done == expected_jobs  # the same jobs: duplicates where the uninterrupted run had them
    assert {(r.seq, r.board.tiles) for r in records} == expected  # and the same boards
    for r in records:
        assert r.optimal and distances[r.board.tiles] == r.length and BAND[0] <= r.length <= BAND[1]
        assert r.solution is not None and r.board.apply(r.solution) == r.goal


def test_fill_killed_once_resumes_without_gaps_or_duplicates(tmp_path: Path) -> None:
    _kill_resume(tmp_path, count=200, kill_at=[40], jobs="1")


@pytest.mark.slow  # three kills and restarts of a two-worker fill: ~30-60 s under load
def test_fill_killed_three_times_with_two_workers(tmp_path: Path) -> None:
    _kill_resume(tmp_path, count=1200, kill_at=[80, 400, 800], jobs="2")
