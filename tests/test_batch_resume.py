"""Resumable batch results (issue 16 item 2) and process pools that survive numba's OpenMP (issue 10 item 2).

``solve --input FILE --output results.jsonl`` appends each result as it finishes; killed with SIGKILL and
started again with the same command it solves only what is missing: one record per input line, no gaps,
no duplicates.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from npuzzle.batch.results import ResultsFile, ResultsFileError
from npuzzle.cli import main
from npuzzle.generate import generate
from npuzzle.goals import classic
from processes import processes_tagged

ROOT = Path(__file__).resolve().parent.parent


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write_boards(path: Path, count: int, seed: int, bad_every: int = 0) -> int:
    """``count`` solvable 3x3 boards (and a bad line every ``bad_every``); returns the number of lines."""
    lines = []
    for i, board in enumerate(generate(classic(3, 3), count=count, seed=seed)):
        if bad_every and i % bad_every == bad_every - 1:
            lines.append('{"tiles": [1, 2], "width": "ab"}')
        lines.append(" ".join(map(str, board.tiles)))
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def test_results_file_drops_a_torn_last_line_and_refuses_other_inputs(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with ResultsFile(path).open() as results:
        results.append({"index": 1, "line": 2, "key": "b", "length": 3})
        results.append({"index": 0, "line": 1, "key": "a", "error": "x", "error_type": "UnsolvableError"})
    with path.open("ab") as handle:
        handle.write(b'{"index": 2, "line": 3, "le')  # a write cut short by a kill
    results = ResultsFile(path).open()
    try:
        assert results.dropped_torn_line
        assert results.done == {2: ("b", None), 1: ("a", "UnsolvableError")}
        assert results.check(1, "a") and not results.check(3, "c")
        with pytest.raises(ResultsFileError, match="another input"):
            results.check(2, "not-b")
        with pytest.raises(ResultsFileError, match="another npuzzle run"):
            ResultsFile(path).open()  # the lock is held
        results.append({"index": 2, "line": 3, "key": "c", "length": 5})
    finally:
        assert results.close(sort=True)  # out of order: rewritten in input order
    assert [r["line"] for r in _records(path)] == [1, 2, 3]


def test_results_file_refuses_a_damaged_record(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"line": 1, "key": "a", "length": 0}\nnot json\n{"line": 3}\n')
    with pytest.raises(ResultsFileError, match="line 2 is not a results record"):
        ResultsFile(path).open()


@pytest.mark.parametrize(
    "record, missing",
    [
        ('{"line": 3}', '"key"'),
        ('{"line": 3, "length": 2, "moves": [8, 7]}', '"key"'),
        ('{"line": 3, "key": "k"}', "result"),
        ('{"line": 3, "key": "k", "error": "bad"}', "result"),
        ('{"line": 3, "key": "k", "length": "2"}', "result"),
    ],
)
def test_an_incomplete_record_is_refused_not_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: str, missing: str
) -> None:
    # {"line": 3} used to count as done: "(1 already there)", and line 3 was never solved
    boards = tmp_path / "in1.txt"
    boards.write_text("1 2 3 / 4 5 6 / 7 0 8\n# a comment\n1 2 3 / 4 5 6 / 0 7 8\n")
    out = tmp_path / "o.jsonl"
    out.write_text(record + "\n")
    assert main(["solve", "--input", str(boards), "--output", str(out), "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "incomplete results record" in err and missing in err and "input line 3" in err
    assert out.read_text() == record + "\n"  # nothing appended to a file it cannot trust
    out.write_text("")  # the user deletes the record: both boards are solved, each recorded once
    assert main(["solve", "--input", str(boards), "--output", str(out), "--jobs", "1"]) == 0
    assert [(r["line"], r["length"]) for r in _records(out)] == [(1, 1), (3, 2)]


def test_results_file_records_only_complete_records(tmp_path: Path) -> None:
    with ResultsFile(tmp_path / "r.jsonl").open() as results, pytest.raises(ResultsFileError, match="line 4"):
        results.append({"index": 3, "line": 4, "key": "k"})


def test_cli_output_resumes_without_duplicates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards = tmp_path / "boards.txt"
    n_lines = _write_boards(boards, 6, seed=11, bad_every=3)
    out = tmp_path / "results.jsonl"
    argv = ["solve", "--input", str(boards), "--output", str(out), "--jobs", "1", "--algorithm", "astar"]
    assert main(argv) == 2  # the bad lines are recorded and reported, the boards solved
    first = _records(out)
    assert [r["line"] for r in first] == list(range(1, n_lines + 1))
    assert sum("error" in r for r in first) == 2
    # lose the last three records (as if killed), add a torn line, run again: only those are solved
    out.write_text("".join(line + "\n" for line in out.read_text().splitlines()[:-3]) + '{"index": 9, "li')
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "torn" in err and "3 results written" in err
    again = _records(out)
    assert [r["line"] for r in again] == list(range(1, n_lines + 1))
    assert [r.get("moves") for r in again] == [r.get("moves") for r in first]
    # a different command (another goal) refuses to mix results into the file
    assert main([*argv, "--goal", "snake"]) == 2
    assert "another input or other options" in capsys.readouterr().err
    assert _records(out) == again


def _wait_for_records(path: Path, count: int, process: subprocess.Popen[bytes], timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists():
            have = path.read_bytes().count(b"\n")
            if have >= count:
                return have
        time.sleep(0.02)
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])  # 2: ~40 s at load 16
def test_kill_9_then_resume_gives_one_record_per_line(tmp_path: Path, jobs: str) -> None:
    boards = tmp_path / "boards.txt"
    n_lines = _write_boards(boards, 500, seed=3, bad_every=50)
    out = tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "npuzzle", "solve", "--input", str(boards), "--output", str(out), "--jobs", jobs,
            "--algorithm", "astar"]  # fmt: skip
    tag = f"{os.getpid()}-{tmp_path.name}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NPUZZLE_TEST_TAG": tag}
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        seen = _wait_for_records(out, 20, process, timeout=120)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    if process.returncode != -signal.SIGKILL or seen >= n_lines:
        pytest.skip(f"the run ended before it could be killed mid-way ({seen} of {n_lines} records)")
    if sys.platform == "linux":  # the pool's workers notice that the batch process is gone and leave
        deadline = time.monotonic() + 20
        while processes_tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert processes_tagged(tag) == [], "worker processes outlived the killed batch"
    killed_at = len(_records(out)) if out.read_bytes().endswith(b"\n") else None
    assert killed_at is None or 0 < killed_at < n_lines
    finished = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert finished.returncode == 2, finished.stderr  # the bad lines
    records = _records(out)
    assert [r["line"] for r in records] == list(range(1, n_lines + 1))  # no gap, no duplicate, in order
    assert sum("error" in r for r in records) == n_lines // 51
    assert "already there" in finished.stderr


POOL_SCRIPT = """
import json
import sys

import numba
import numpy as np

from npuzzle._kernels._jit import njit_parallel
from npuzzle.batch import parse_jobs, run_batch, run_job


@njit_parallel
def parallel_sum(values):
    total = 0.0
    for i in numba.prange(values.shape[0]):
        total += values[i]
    return total


def solve_after_a_parallel_kernel(job):
    parallel_sum(np.ones(4096))  # each worker runs OpenMP threads too (a table mapped, a layer expanded)
    return run_job(job)


if __name__ == "__main__":
    parallel_sum(np.ones(4096))  # the parent has used OpenMP before the pool starts (a table built)
    print("threading layer", numba.threading_layer(), file=sys.stderr)
    jobs = parse_jobs(["1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 0 7 8", "1 2 0 3"], algorithm="astar")
    for _, result in run_batch(jobs, n_jobs=2, runner=solve_after_a_parallel_kernel):
        print(json.dumps(result))
"""


def test_process_pool_after_the_parent_used_openmp(tmp_path: Path) -> None:
    """Forked workers of a process that has run numba's parallel (GNU OpenMP) kernels die as soon as they run
    one ("fork() called from a process already using GNU OpenMP", BrokenProcessPool): the pool must start
    its workers another way."""
    script = tmp_path / "pool_after_openmp.py"
    script.write_text(POOL_SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300,
                            check=False)  # fmt: skip
    assert result.returncode == 0 and "OpenMP" not in result.stderr, result.stderr[-2000:]
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["length"]) for r in records] == [(1, 1), (2, 2), (3, 1)]


@pytest.mark.slow
def test_cli_process_pool_from_cold_caches(tmp_path: Path) -> None:
    """A fresh install: nothing compiled, no tables. ``solve --input --jobs 2`` on Korf lines builds the 4x4
    tables in the parent with parallel kernels, then starts the pool (about a minute on two cores)."""
    korf = [line for line in (ROOT / "tests" / "data" / "korf100.txt").read_text().splitlines()
            if line and not line.startswith("#")]  # fmt: skip
    easiest = sorted(korf, key=lambda line: int(line.split()[0]))[:3]
    boards = tmp_path / "korf3.txt"
    boards.write_text("\n".join(easiest) + "\n")
    env = {**os.environ, "NPUZZLE_CACHE": str(tmp_path / "tables"), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "PYTHONPATH": str(ROOT / "src")}  # fmt: skip
    argv = [sys.executable, "-m", "npuzzle", "solve", "--input", str(boards), "--jobs", "2", "--goal", "blank-first",
            "--algorithm", "pdb"]  # fmt: skip
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert "OpenMP" not in result.stderr and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 0, result.stderr[-2000:]
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["length"] for r in records] == [int(line.split()[0]) for line in easiest]
    assert all(r["optimal"] for r in records)


def test_output_may_not_be_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards = tmp_path / "boards.txt"
    boards.write_text("1 2 0 3\n")
    assert main(["solve", "--input", str(boards), "--output", str(tmp_path / "." / "boards.txt")]) == 2
    assert "input file itself" in capsys.readouterr().err
    assert boards.read_text() == "1 2 0 3\n"
