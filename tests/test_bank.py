"""The puzzle bank (issue 16 items 1 and 4): schema, fill, draw, stats, export/import, serve --bank.

Small boards (2×4, 3×3) keep these fast; every stored length is checked against exact BFS (tests/oracle.py).
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from npuzzle.bank import export, fill, import_file, open_bank
from npuzzle.bank.store import SCHEMA_VERSION, PuzzleRecord
from npuzzle.board import Board
from npuzzle.cli import main
from npuzzle.errors import BankError, BankVersionError, NotABankError
from npuzzle.goals import classic, snake
from oracle import bfs_distances as _bfs_distances

_DISTANCES: dict[Board, dict[tuple[int, ...], int]] = {}


def bfs_distances(goal: Board) -> dict[tuple[int, ...], int]:
    """tests/oracle.py's exact distances, kept per goal (building the 3x3 dict takes a second)."""
    if goal not in _DISTANCES:
        _DISTANCES[goal] = _bfs_distances(goal)
    return _DISTANCES[goal]


def _check_against_bfs(bank_path: Path) -> int:
    """Every stored exact length equals the BFS distance and every solution replays; the row count."""
    n = 0
    with open_bank(bank_path, create=False) as bank:
        for record in bank.records():
            distances = bfs_distances(record.goal)
            assert record.optimal and record.length == distances[record.board.tiles]
            assert record.solution is not None and len(record.solution) == record.length
            assert record.board.apply(record.solution) == record.goal
            n += 1
    return n


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bank with 2x4 classic (lengths 3..14), 2x4 snake (5..8) and 3x3 classic (20..22) puzzles."""
    path = tmp_path_factory.mktemp("bank") / "filled.bank"
    with open_bank(path) as bank:
        report = fill(bank, classic(4, 2), low=3, high=14, count=36, goal_name="classic", seed=1)
        assert report.stopped == "done" and report.added == 36
        fill(bank, snake(4, 2), low=5, high=8, count=12, goal_name="snake", seed=2)
        fill(bank, classic(3, 3), low=20, high=22, count=9, goal_name="classic", seed=3)
    return path


def test_fill_stores_proven_lengths_evenly_and_once(filled: Path) -> None:
    assert _check_against_bfs(filled) == 36 + 12 + 9
    with open_bank(filled, create=False) as bank:
        assert bank.lengths(classic(4, 2)) == {d: 3 for d in range(3, 15)}  # even spread: 3 per length
        assert bank.lengths(snake(4, 2)) == {d: 3 for d in range(5, 9)}
        boards = [(r.goal.tiles, r.board.tiles) for r in bank.records()]
        assert len(boards) == len(set(boards))
        assert bank.schema_version == SCHEMA_VERSION
        mode = bank.connection.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"


def test_draw_respects_size_goal_and_length(filled: Path) -> None:
    rng = random.Random(5)
    with open_bank(filled, create=False) as bank:
        for goal, lengths in ((classic(4, 2), range(3, 15)), (snake(4, 2), range(5, 9)), (classic(3, 3), (20, 22))):
            for length in lengths:
                seen = set()
                for _ in range(12):
                    record = bank.draw(goal, length, rng)
                    assert record is not None and record.goal == goal and record.length == length
                    assert (record.board.width, record.board.height) == (goal.width, goal.height)
                    assert bfs_distances(goal)[record.board.tiles] == length
                    seen.add(record.board.tiles)
                assert len(seen) >= 2  # random among the three stored, not always the first
        record = bank.draw(classic(4, 2), (5, 6), rng)
        assert record is not None and record.length in (5, 6)
        assert bank.draw(classic(4, 2), 15, rng) is None  # nothing stored at 15
        assert bank.draw(classic(2, 4), 5, rng) is None  # another size
        assert bank.draw(snake(4, 2), 3, rng) is None  # another goal's length


def test_export_import_round_trip(filled: Path, tmp_path: Path) -> None:
    with open_bank(filled, create=False) as bank:
        originals = [r.to_dict() for r in bank.records()]
        for fmt in ("csv", "jsonl"):
            first = tmp_path / f"first.{fmt}"
            assert export(bank, first) == len(originals)
            with open_bank(tmp_path / f"copy-{fmt}.bank") as copy:
                report = import_file(copy, first)
                assert (report.added, report.skipped, report.bad) == (len(originals), 0, 0)
                assert [r.to_dict() for r in copy.records()] == originals
                again = tmp_path / f"again.{fmt}"
                export(copy, again)
                assert again.read_bytes() == first.read_bytes()
                report = import_file(copy, first)  # a second import stores nothing twice
                assert (report.added, report.skipped) == (0, len(originals))


def test_parquet_export_or_a_clear_message(filled: Path, tmp_path: Path) -> None:
    target = tmp_path / "bank.parquet"
    with open_bank(filled, create=False) as bank:
        try:
            import pyarrow.parquet as pq
        except ImportError:
            with pytest.raises(BankError, match="pip install pyarrow"):
                export(bank, target)
            assert not target.exists()
            return
        assert export(bank, target) == bank.count()
        assert pq.read_table(target).num_rows == bank.count()


def test_import_reports_bad_lines_by_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    goal = classic(3, 3)
    good = PuzzleRecord(Board((1, 2, 3, 4, 5, 6, 7, 0, 8), 3, 3), goal, "classic", 1, 1, True, (8,)).to_dict()
    lines = [
        json.dumps(good),
        json.dumps({**good, "board": [1, 1, 3, 4, 5, 6, 7, 0, 8]}),  # 2: duplicate label
        json.dumps({**good, "board": [2, 1, 3, 4, 5, 6, 7, 8, 0], "length": 2, "lower_bound": 2,
                    "upper_bound": 2, "solution": None}),  # 3: unsolvable
        json.dumps({**good, "length": 2, "lower_bound": 2, "upper_bound": 2, "solution": None}),  # 4: parity
        json.dumps({**good, "solution": [7]}),  # 5: the solution does not reach the goal
        "not json at all",  # 6
        "",
        json.dumps({**good, "board": [1, 2, 3, 4, 5, 6, 0, 7, 8], "length": 2, "lower_bound": 2,
                    "upper_bound": 2, "solution": None}),  # 8: good
        json.dumps({**good, "lower_bound": 3, "upper_bound": 2, "length": None}),  # 9: bounds reversed
        json.dumps(good),  # 10: a duplicate board: skipped, not bad
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    with open_bank(tmp_path / "b.bank") as bank:
        report = import_file(bank, source)
        assert (report.added, report.skipped, report.bad) == (2, 1, 6)
        assert [n for n, _ in report.errors] == [2, 3, 4, 5, 6, 9]
        assert "twice" in report.errors[0][1] or "7" in report.errors[0][1] or "1" in report.errors[0][1]
        assert "parity" in report.errors[2][1] and "does not lead" in report.errors[3][1]
    code = main(["bank", "import", str(source), "--db", str(tmp_path / "c.bank")])
    err = capsys.readouterr().err
    assert code == 2 and "line 6:" in err and "2 added, 1 already stored, 6 bad lines" in err


def test_a_file_that_is_not_a_bank_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, not a database\n" * 100)
    with pytest.raises(NotABankError, match="not an SQLite database"):
        open_bank(text)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE things (x)")
    with pytest.raises(NotABankError, match="not a puzzle bank"):
        open_bank(other)
    newer = tmp_path / "newer.bank"
    open_bank(newer).close()
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(BankVersionError, match="newer npuzzle"):
        open_bank(newer)
    with pytest.raises(BankError, match="no bank at"):
        open_bank(tmp_path / "missing.bank", create=False)
    assert main(["bank", "stats", "--db", str(text)]) == 2
    assert "not a puzzle bank" in capsys.readouterr().err
    assert text.read_text().startswith("hello")  # left as it was


def test_fill_stops_when_the_band_runs_out_of_positions(tmp_path: Path) -> None:
    goal = classic(4, 2)
    with open_bank(tmp_path / "small.bank") as bank:
        report = fill(bank, goal, low=0, high=1, count=10, goal_name="classic")
        # one position at 0 moves, two at 1: the even plan leaves out lengths already full
        assert report.stopped == "exhausted" and report.stored == 3
        assert bank.lengths(goal) == {0: 1, 1: 2}
        with pytest.raises(ValueError, match="farthest"):
            fill(bank, goal, low=40, high=45, count=1)
        with pytest.raises(ValueError, match="count"):
            fill(bank, goal, low=3, high=4, count=-1)


def test_fill_resumes_and_extends_a_stream(tmp_path: Path) -> None:
    goal = classic(4, 2)
    path = tmp_path / "s.bank"
    with open_bank(path) as bank:
        assert fill(bank, goal, low=4, high=12, count=10, seed=9).added == 10
        assert fill(bank, goal, low=4, high=12, count=10, seed=9).added == 0  # complete: nothing repeated
        assert fill(bank, goal, low=4, high=12, count=16, seed=9).added == 6  # extended
        extended = {(r.seq, r.board.tiles) for r in bank.records()}
    with open_bank(tmp_path / "t.bank") as bank:  # one run of 16 makes the same boards
        fill(bank, goal, low=4, high=12, count=16, seed=9)
        assert {(r.seq, r.board.tiles) for r in bank.records()} == extended


def test_the_earliest_job_of_a_stream_keeps_a_board_whatever_order_jobs_finish_in(tmp_path: Path) -> None:
    """Two fill workers finish jobs out of order, so a board two jobs drew went to whichever finished first,
    and a stream killed and restarted (or run with another number of workers) made another bank than one
    run in order (tests/test_bank_resume.py, under -m slow). The earliest job now keeps it."""
    goal = classic(4, 2)
    board = Board((1, 2, 3, 4, 5, 6, 0, 7), 4, 2)  # 1 move from the goal

    def record(seq: int, seed: int, method: str = "walk", fill_id: int | None = None) -> PuzzleRecord:
        return PuzzleRecord(board, goal, "classic", 1, 1, True, (7,), method, seed, "bfs", 3, 0.01,
                            fill_id=fill_id, seq=seq)  # fmt: skip

    with open_bank(tmp_path / "order.bank") as bank:
        goal_id = bank.goal_id(goal, "classic")
        stream = bank.fill_stream({"test": "order"})
        assert bank.record_fill_result(stream, 5, record(5, 55, fill_id=stream), goal_id) == "added"
        assert bank.record_fill_result(stream, 2, record(2, 22, fill_id=stream), goal_id) == "duplicate"
        assert bank.record_fill_result(stream, 7, record(7, 77, fill_id=stream), goal_id) == "duplicate"
        assert bank.record_fill_result(stream, 2, record(2, 22, fill_id=stream), goal_id) == "done-before"
        (stored,) = list(bank.records())
        assert (stored.seq, stored.seed, stored.board) == (2, 22, board)
        jobs = sorted(bank.connection.execute("SELECT seq, status, puzzle_id FROM fill_jobs"))
        assert jobs == [(2, "added", stored.id), (5, "duplicate", None), (7, "duplicate", None)]
        assert bank.fill_progress(stream) == ({2, 5, 7}, 1)
        other = bank.fill_stream({"test": "other"})  # a board another stream stored stays that stream's
        assert bank.record_fill_result(other, 0, record(0, 1, fill_id=other), goal_id) == "duplicate"
        assert [(r.fill_id, r.seq) for r in bank.records()] == [(stream, 2)]


def test_cli_fill_draw_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.bank")
    assert main(["bank", "fill", "--size", "4x2", "--length", "6..9", "--count", "8", "--db", db, "--no-progress"]) == 0
    assert "8 puzzles added" in capsys.readouterr().err
    assert main(["bank", "draw", "--size", "4x2", "--length", "7", "--db", db, "--json"]) == 0
    drawn = json.loads(capsys.readouterr().out)
    assert drawn["length"] == 7 and drawn["goal"] == list(classic(4, 2).tiles)
    assert bfs_distances(classic(4, 2))[tuple(drawn["board"])] == 7
    assert main(["bank", "draw", "--size", "4x2", "--length", "20", "--db", db]) == 2
    assert "lengths stored for it: 6..9" in capsys.readouterr().err
    chart = tmp_path / "lengths.png"
    assert main(["bank", "stats", "--db", db, "--json", "--chart", str(chart)]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["total"] == 8 and {g["length"]: g["count"] for g in stats["groups"]} == {6: 2, 7: 2, 8: 2, 9: 2}
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["bank", "fill", "--size", "4x2", "--count", "0", "--db", db]) == 2
    assert main(["bank", "draw", "--size", "4x2", "--db", str(tmp_path / "none.bank")]) == 2
    assert not (tmp_path / "none.bank").exists()  # draw never makes a bank


def test_serve_bank_answers_generate_from_the_bank(filled: Path) -> None:
    from fastapi.testclient import TestClient

    from npuzzle.web.app import WebSettings, create_app

    with TestClient(create_app(WebSettings(bank=str(filled)))) as client:
        with open_bank(filled, create=False) as bank:
            stored = {r.board.tiles for r in bank.records()}
        for length in ("7", "20", "5..6"):
            body = client.post("/api/generate", json={"width": 4, "height": 2, "length": length, "seed": 4}
                               if length != "20" else {"width": 3, "height": 3, "length": length}).json()  # fmt: skip
            assert body["source"] == "bank" and tuple(body["board"]) in stored
            goal = Board(body["goal"], body["width"], body["height"])
            assert bfs_distances(goal)[tuple(body["board"])] == body["optimal_length"]
        again = client.post("/api/generate", json={"width": 4, "height": 2, "length": "7", "seed": 4}).json()
        assert again == client.post("/api/generate", json={"width": 4, "height": 2, "length": "7", "seed": 4}).json()
        # not in the bank: today's generator answers
        body = client.post("/api/generate", json={"width": 3, "height": 3, "length": "10", "seed": 1}).json()
        assert body["source"] == "generator" and bfs_distances(classic(3, 3))[tuple(body["board"])] == 10
        body = client.post("/api/generate", json={"width": 4, "height": 2}).json()
        assert body["source"] == "generator" and body["optimal_length"] is None
    with pytest.raises(NotABankError):
        create_app(WebSettings(bank=str(Path(__file__))))


@pytest.mark.slow
def test_fill_4x4_proven_optimal(tmp_path: Path) -> None:
    """4×4: every stored length proven by the pattern-database solver, the solution replayed."""
    goal = classic(4, 4)
    with open_bank(tmp_path / "4x4.bank") as bank:
        report = fill(bank, goal, low=44, high=47, count=4, goal_name="classic", seed=5)
        assert report.stopped == "done" and report.added == 4
        records = list(bank.records())
    assert sorted(r.length for r in records) == [44, 45, 46, 47]
    for r in records:
        assert r.optimal and r.solution is not None and r.board.apply(r.solution) == goal
        assert r.method in ("rejection", "climb") and r.solver is not None and r.nodes is not None
