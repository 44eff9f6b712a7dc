"""Benchmarks of issue 16's puzzle bank: fill throughput, draw time on big banks, resume after ``kill -9``.

Usage (set NPUZZLE_CACHE to a folder of your own; the 4x4 tables are built there on first use)::

    python bench/bench_bank.py fill --jobs 1 2 --count 62 --length 30..60 --spread even
    python bench/bench_bank.py fill --jobs 1 2 --count 100 --length 30..60 --spread band
    python bench/bench_bank.py draw --rows 100000 1000000 --draws 2000
    python bench/bench_bank.py resume --count 40 --kill-at 8 18 30

``fill`` measures 4×4 puzzles per second with proven optimal lengths (``--engine`` picks the executor:
``local`` processes; engines added later register in :data:`ENGINES`). ``draw`` builds banks of synthetic
rows (random boards labelled with lengths 30..60 drawn uniformly: they are NOT graded, only the draw's query
cost is measured) and times :meth:`~npuzzle.bank.store.Bank.draw`. ``resume`` runs ``npuzzle bank fill`` in a
subprocess, kills it with SIGKILL when the bank holds each ``--kill-at`` count, and checks the final bank:
one job record per sequence number, no duplicate board, the stored count equal to ``--count``.

Every figure is printed with the load average; counts and node totals are deterministic, times are not.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from npuzzle.analysis.difficulty import parse_band
from npuzzle.bank import fill, open_bank
from npuzzle.bank.store import format_tiles, now_text
from npuzzle.goals import classic

#: ``--engine`` name -> a function of the worker count giving a context manager that yields an executor
#: (``None``: fill's own local processes).
ENGINES: dict[str, Callable[[int], AbstractContextManager[Executor | None]]] = {
    "local": lambda workers: nullcontext(None),
}


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def bench_fill(jobs: list[int], count: int, band: str, spread: str, engine: str, seed: int) -> None:
    goal = classic(4, 4)
    low, high = parse_band(band)
    print(f"4x4 classic bank fill, lengths {band} ({spread}), {count} puzzles, seed {seed}, engine {engine}")
    print(f"{'jobs':>4} {'puzzles/s':>10} {'seconds':>8} {'methods':>28} {'proof nodes':>12}  load before / after")
    for n in jobs:
        with tempfile.TemporaryDirectory() as folder, open_bank(Path(folder) / "b.bank") as bank:
            before = _load()
            with ENGINES[engine](n) as executor:
                t0 = time.perf_counter()
                report = fill(bank, goal, low=low, high=high, count=count, goal_name="classic", seed=seed,
                              spread=spread, n_jobs=n, executor=executor)  # fmt: skip
                dt = time.perf_counter() - t0
            rows = bank.connection.execute(
                "SELECT method, count(*), sum(nodes) FROM puzzles GROUP BY method ORDER BY method"
            ).fetchall()
            methods = " ".join(f"{m}:{c}" for m, c, _ in rows)
            nodes = sum(s or 0 for _, _, s in rows)
            print(f"{n:>4} {report.added / dt:>10.2f} {dt:>8.1f} {methods:>28} {nodes:>12,}  {before} / {_load()}")


def _synthetic_bank(path: Path, rows: int, seed: int) -> None:
    """``rows`` random 4x4 boards with lengths 30..60 drawn uniformly: for timing queries only."""
    goal = classic(4, 4)
    rng = random.Random(seed)
    with open_bank(path) as bank:
        goal_id = bank.goal_id(goal, "classic")
        created = now_text()
        tiles = list(goal.tiles)
        chunk = 50_000
        for start in range(0, rows, chunk):
            batch = []
            for _ in range(min(chunk, rows - start)):
                rng.shuffle(tiles)
                length = rng.randint(30, 60)
                batch.append((4, 4, goal_id, format_tiles(tiles), length, length, length, 1, "synthetic", created))
            bank.connection.execute("BEGIN")
            bank.connection.executemany(
                "INSERT OR IGNORE INTO puzzles (width, height, goal_id, board, length, lower_bound, "
                "upper_bound, optimal, method, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                batch,
            )
            bank.connection.execute("COMMIT")


def bench_draw(sizes: list[int], draws: int, seed: int) -> None:
    goal = classic(4, 4)
    print(f"draw from synthetic 4x4 banks (lengths 30..60 uniform), {draws} draws of a random length each")
    print(f"{'rows':>9} {'build s':>8} {'MB':>6} {'open ms':>8} {'draw median ms':>15} {'p99 ms':>7} {'max ms':>7}  load")
    for rows in sizes:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "synthetic.bank"
            t0 = time.perf_counter()
            _synthetic_bank(path, rows, seed)
            build = time.perf_counter() - t0
            size_mb = path.stat().st_size / 1e6
            t0 = time.perf_counter()
            bank = open_bank(path, create=False)
            opened = (time.perf_counter() - t0) * 1000
            rng = random.Random(seed)
            times = []
            with bank:
                for _ in range(draws):
                    length = rng.randint(30, 60)
                    t0 = time.perf_counter()
                    record = bank.draw(goal, length, rng)
                    times.append((time.perf_counter() - t0) * 1000)
                    if record is None or record.length != length:
                        raise SystemExit(f"draw returned {record} for length {length}")
            times.sort()
            p99 = times[int(0.99 * (len(times) - 1))]
            print(f"{rows:>9,} {build:>8.1f} {size_mb:>6.1f} {opened:>8.2f} {statistics.median(times):>15.3f} "
                  f"{p99:>7.3f} {times[-1]:>7.3f}  {_load()}")  # fmt: skip


def bench_resume(count: int, kill_at: list[int], band: str, jobs: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "resume.bank"
        argv = [sys.executable, "-m", "npuzzle", "bank", "fill", "--size", "4x4", "--length", band, "--count",
                str(count), "--seed", str(seed), "--jobs", str(jobs), "--db", str(db), "--no-progress"]  # fmt: skip
        print(f"4x4 bank fill {band}, count {count}, --jobs {jobs}: SIGKILL when the bank holds {kill_at}")
        for target in kill_at:
            process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while process.poll() is None and _count(db, "puzzles") < target:
                time.sleep(0.05)
            process.send_signal(signal.SIGKILL)
            process.wait()
            print(f"  killed (exit {process.returncode}) with {_count(db, 'puzzles')} puzzles stored, "
                  f"{_count(db, 'fill_jobs')} jobs recorded  load {_load()}")  # fmt: skip
        t0 = time.perf_counter()
        finished = subprocess.run(argv, capture_output=True, text=True, check=False)
        print(f"  resumed: exit {finished.returncode}, {time.perf_counter() - t0:.1f} s; {finished.stderr.strip()}")
        with sqlite3.connect(db) as connection:
            seqs = [s for (s,) in connection.execute("SELECT seq FROM fill_jobs ORDER BY seq")]
            added = connection.execute("SELECT count(*) FROM fill_jobs WHERE status = 'added'").fetchone()[0]
            puzzles = connection.execute("SELECT count(*) FROM puzzles").fetchone()[0]
            distinct = connection.execute("SELECT count(DISTINCT board) FROM puzzles").fetchone()[0]
        gaps = sorted(set(range(len(seqs))) - set(seqs))
        print(f"  final: {puzzles} puzzles ({distinct} distinct boards), {len(seqs)} jobs recorded "
              f"(seq 0..{max(seqs)}), {added} added, gaps {gaps or 'none'}; "
              f"{'OK' if puzzles == distinct == added == count and not gaps else 'MISMATCH'}")  # fmt: skip


def _count(db: Path, table: str) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
            return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("fill")
    p.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    p.add_argument("--count", type=int, default=62)
    p.add_argument("--length", default="30..60")
    p.add_argument("--spread", default="even", choices=("even", "band"))
    p.add_argument("--engine", default="local", choices=sorted(ENGINES))
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("draw")
    p.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--draws", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("resume")
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--kill-at", type=int, nargs="+", default=[8, 18, 30])
    p.add_argument("--length", default="30..60")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.what == "fill":
        bench_fill(args.jobs, args.count, args.length, args.spread, args.engine, args.seed)
    elif args.what == "draw":
        bench_draw(args.rows, args.draws, args.seed)
    else:
        bench_resume(args.count, args.kill_at, args.length, args.jobs, args.seed)


if __name__ == "__main__":
    main()
