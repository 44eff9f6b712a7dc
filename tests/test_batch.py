"""Batch solving: line parsing, order, bad lines, executors."""

from __future__ import annotations

import io
import itertools
import json
import time
import tracemalloc
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from npuzzle.batch import InputLine, parse_jobs, parse_line, read_lines, run_batch, run_job, solve_file
from npuzzle.batch.jobs import SolveJob, job_key
from npuzzle.board import Board
from npuzzle.cli import main
from npuzzle.cli.common import load_board
from npuzzle.errors import BoardFormatError
from npuzzle.goals import classic
from npuzzle.search.limits import Limits

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


def test_parse_line_drops_a_leading_number_only_by_the_cli_board_rule() -> None:
    """Only a Korf line (a number, then exactly the tiles 0..N-1) loses its first number, as BOARD does."""
    assert parse_line("31 8 6 7 2 5 4 3 0 1", None, None) == load_board("31 8 6 7 2 5 4 3 0 1")
    # a typed board with a typo or a number too many was read without its first number
    for text, size in (("3 5 6 7 0", None), ("1 2 3 4 0", (2, 2)), ("9 1 2 / 0 3", None)):
        width, height = size or (None, None)
        with pytest.raises(BoardFormatError):
            parse_line(text, width, height)


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


# -- streaming, bad lines, order (issue 10 item 3) -------------------------------------------------------


def test_read_lines_skips_an_overlong_line_in_bounded_memory() -> None:
    huge = b"1 2 3 " + b"7 " * 2_500_000  # 5 MB on one line
    stream = io.BytesIO(b"1 2 3 0\n" + huge + b"\n2 1 3 0\n")
    tracemalloc.start()
    try:
        lines = list(read_lines(stream, max_bytes=4096))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [line.number for line in lines] == [1, 2, 3]
    assert lines[0].text == "1 2 3 0" and lines[2].text == "2 1 3 0"
    assert lines[1].error is not None and "longer than 4,096 bytes" in lines[1].error
    assert len(lines[1].error) < 200 and len(lines[1].text) <= 80
    assert peak < 1_000_000  # the 5 MB line was never held


def test_read_lines_handles_crlf_no_final_newline_and_bad_utf8() -> None:
    lines = list(read_lines(io.BytesIO(b"1 2 3 0\r\n\xff\xfe 1\n2 1 3 0")))
    assert [line.text for line in lines] == ["1 2 3 0", "\ufffd\ufffd 1", "2 1 3 0"]


BAD_LINES = [
    '{"tiles":[1,2,3,0],"width":"ab","height":100000000}',
    '{"tiles":[1,2,3,0],"width":2.5,"height":2}',
    '{"tiles":[1,2,3,0],"blank":"x"}',
    "[" * 100_000 + "]" * 100_000,
    "1 2 3 " + "9" * 5000,
    "4x0:1,2",
]


def test_bad_json_lines_become_error_jobs_and_the_rest_go_on() -> None:
    jobs = list(parse_jobs(["1 2 3 0", *BAD_LINES, "2 1 0 3"]))
    assert [j.line for j in jobs] == list(range(1, len(BAD_LINES) + 3))
    assert jobs[0].tiles == (1, 2, 3, 0) and jobs[-1].tiles == (2, 1, 0, 3)
    for job in jobs[1:-1]:
        assert job.tiles is None and job.error
        assert len(job.error) <= 300 and len(job.text) <= 80, job.error


def _lines_forever() -> Iterator[InputLine]:
    for number in itertools.count(1):
        yield InputLine(number, "1 2 0 3" if number % 2 else "not a board")


@pytest.mark.parametrize("mode", ["inline", "threads"])
def test_results_start_before_the_input_ends(mode: str) -> None:
    """An endless input still gives results: nothing reads the whole input before solving."""
    jobs = parse_jobs(_lines_forever(), size=(2, 2))
    if mode == "threads":
        with ThreadPoolExecutor(2) as ex:
            first = list(itertools.islice(run_batch(jobs, executor=ex, window=4), 5))
    else:
        first = list(itertools.islice(run_batch(jobs, n_jobs=1), 5))
    assert [job.line for job, _ in first] == [1, 2, 3, 4, 5]
    assert first[0][1]["length"] == 1 and "error" in first[1][1]


def _slow_then_fast(job: SolveJob) -> dict[str, object]:
    time.sleep(0.2 if job.index == 0 else 0.0)
    return {"index": job.index, "line": job.line}


def test_run_batch_keeps_order_or_yields_as_finished() -> None:
    lines = [InputLine(n, "1 2 0 3") for n in range(1, 7)]
    with ThreadPoolExecutor(3) as ex:
        ordered = [r["index"] for _, r in run_batch(parse_jobs(lines), executor=ex, runner=_slow_then_fast)]
        finished = [r["index"] for _, r in run_batch(parse_jobs(lines), executor=ex, runner=_slow_then_fast,
                                                     ordered=False)]  # fmt: skip
    assert ordered == [0, 1, 2, 3, 4, 5]
    assert sorted(finished) == [0, 1, 2, 3, 4, 5] and finished[0] != 0  # the slow first job came later


def test_cli_batch_reports_bad_lines_by_number_and_keeps_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = "1 " * 1_000_000  # 2 MB on one line: above the line cap, must not be echoed
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(["1 2 3 4 5 6 7 0 8", *BAD_LINES, huge, "1 2 3 4 5 6 0 7 8"]) + "\n")
    code = main(["solve", "--input", str(path), "--jobs", "1"])
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [r["line"] for r in records] == list(range(1, len(BAD_LINES) + 4))
    assert records[0]["length"] == 1 and records[-1]["length"] == 2
    assert all("error" in r for r in records[1:-1])
    assert "line 2:" in err and f"line {len(BAD_LINES) + 2}:" in err
    assert "longer than" in err
    assert len(out) + len(err) < 10_000  # no line echoed in full
    assert all(len(line) < 500 for line in err.splitlines())


def test_cli_batch_says_which_goal_fits_when_every_board_is_unsolvable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "blank_first_boards.txt"
    path.write_text("0 1 2 3\n1 0 2 3\n2 1 0 3\n")  # 2x2 boards of the blank-first class
    code = main(["solve", "--input", str(path), "--jobs", "1"])
    _, err = capsys.readouterr()
    assert code == 1
    assert "--goal blank-first" in err
    code = main(["solve", "--input", str(path), "--jobs", "1", "--goal", "blank-first"])
    _, err = capsys.readouterr()
    assert code == 0 and "unsolvable" not in err


def test_cli_batch_no_hint_when_some_board_is_solvable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("0 1 2 3\n1 2 0 3\n")
    assert main(["solve", "--input", str(path), "--jobs", "1"]) == 1
    assert "--goal" not in capsys.readouterr().err


def test_optimal_jobs_insist_on_a_proof_and_plain_jobs_answer_anyway() -> None:
    """``solve --input --optimal``: a job that runs out of its limit is an error entry, never an unproven answer
    passed off as the batch's usual optimal one; without the option the anytime answer comes back, flagged."""
    korf_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # 57 moves, far beyond 2,000 nodes
    tight = Limits(max_nodes=2_000, max_seconds=5)
    (insist,) = parse_jobs([korf_1], goal="blank-first", limits=tight, optimal=True)
    (plain,) = parse_jobs([korf_1], goal="blank-first", limits=tight)
    assert insist.optimal and not plain.optimal
    assert job_key(insist) != job_key(plain)  # a resumed --output run cannot mix the two kinds
    refused = run_job(insist)
    assert refused["error_type"] == "SearchLimitExceeded"
    answered = run_job(plain)
    assert "error" not in answered and answered["length"] >= 57
    assert answered["lower_bound"] <= 57  # proven bounds never exceed Korf's optimum
    assert answered["length"] == 57 or not answered["optimal"]


@pytest.mark.parametrize(("lines", "compiled"), [(["1 2 3 / 4 0 5", "1 2 3 / 0 4 5"], 1), (["1 2 3 / 4 0 5"], 0)])
def test_a_batch_compiles_the_ladders_kernels_once_before_its_jobs(
    lines: list[str], compiled: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each job's budget may be too small for a first compile, and the ladder then skips the step that needs
    it on every board of the batch: the kernels are compiled once, before the jobs. A single board is left to
    its own ladder (answer first)."""
    from npuzzle.search import anytime

    sizes: list[tuple[int, int]] = []
    monkeypatch.setattr(anytime, "compile_kernels", lambda board, metric="single", goal_board=None: sizes.append(board.size))
    jobs = parse_jobs([InputLine(n, text) for n, text in enumerate(lines, 1)])
    results = [result for _, result in run_batch(jobs, n_jobs=1)]
    assert all(result["length"] >= 1 for result in results) and sizes == [(3, 2)] * compiled
