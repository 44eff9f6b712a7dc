"""Batch solving: line parsing, order, bad lines, executors."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from npuzzle.batch import parse_jobs, parse_line, run_job, solve_file
from npuzzle.board import Board
from npuzzle.goals import classic

FILE = """# a comment line
1 2 3 4 5 6 7 0 8

31 8 6 7 2 5 4 3 0 1   # Korf style: the length first, then the tiles
1 2 3 x 5 6 7 8 0
2 1 3 4 5 6 7 8 0
1,2,3,4,5,6,0,7,8
"""


def test_parse_line_korf_prefix_and_sizes() -> None:
    assert parse_line("57 1 2 3 0", None, None).tiles == (1, 2, 3, 0)
    assert parse_line("1 2 3 0", 2, 2).tiles == (1, 2, 3, 0)
    assert parse_line("9 1 2 3 4 5 0", 3, 2).size == (3, 2)
    with pytest.raises(Exception, match="square"):
        parse_line("1 2 3 4 5 0", None, None)


def test_parse_jobs_skips_comments_and_blank_lines() -> None:
    jobs = list(parse_jobs(FILE.splitlines()))
    assert [j.line for j in jobs] == [2, 4, 5, 6, 7]
    assert [j.index for j in jobs] == [0, 1, 2, 3, 4]
    assert jobs[1].tiles == (8, 6, 7, 2, 5, 4, 3, 0, 1)
    assert jobs[2].tiles is None and "x" in (jobs[2].error or "")


def test_run_job_is_plain_data() -> None:
    job = next(parse_jobs(["1 2 3 4 5 6 7 0 8"]))
    result = run_job(job)
    assert result["index"] == 0 and result["length"] == 1 and result["moves"] == [8]


@pytest.mark.parametrize("mode", ["inline", "threads", "processes"])
def test_solve_file_in_order_with_errors(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "boards.txt"
    path.write_text(FILE)
    if mode == "threads":
        with ThreadPoolExecutor(2) as ex:
            results = list(solve_file(path, executor=ex))
    else:
        results = list(solve_file(path, jobs=1 if mode == "inline" else 2))
    assert [r["index"] for r in results] == [0, 1, 2, 3, 4]
    assert results[0]["length"] == 1
    assert results[1]["length"] == 31 and results[1]["optimal"]
    assert results[2]["line"] == 5 and "error" in results[2]
    assert results[3]["error_type"] == "UnsolvableError"
    assert results[4]["length"] == 2
    goal = classic(3, 3)
    assert Board([8, 6, 7, 2, 5, 4, 3, 0, 1], 3, 3).apply(results[1]["moves"]) == goal


def test_solve_file_with_size_and_goal(tmp_path: Path) -> None:
    path = tmp_path / "wide.txt"
    path.write_text("0 1 2 3 4 5 6 7 8 9\n7 1 2 3 4 5 6 7 8 9 0\n")
    results = list(solve_file(path, size="5x2", goal="blank-first", jobs=1))
    assert results[0]["length"] == 0
    assert "error" in results[1] or results[1]["length"] > 0
