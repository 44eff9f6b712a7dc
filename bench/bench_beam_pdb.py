"""Lengths, proven lower bounds and seconds of ``npuzzle.solve`` on 5×5 boards: the bounded solver's beam
guided by pattern databases against the linear-conflict beam (issue 11's 5×5 target: mean length at most
1.05 × optimal within 5 s).

Run from the repository root (one process, so one core), with the tables already in the cache::

    NPUZZLE_CACHE=... python bench/bench_beam_pdb.py --set korf24 --mode lc --budget 5
    NPUZZLE_CACHE=... python bench/bench_beam_pdb.py --set korf24 --mode pdb --partition 6-6-6-6 --budget 5
    NPUZZLE_CACHE=... python bench/bench_beam_pdb.py --set random --boards 20 --mode pdb --partition auto

``--set korf24``: Korf & Felner's 50 random 24-puzzle instances (goal blank-first, optima given; from the
shared data folder, else ``tests/data``); ``--set random``: uniformly random boards (``shuffle``, seeds
1000 on), same goal. ``--mode lc``: no pattern tables (the linear-conflict beam, the solver before the PDB
beam); ``--mode pdb``: the tables ``--partition`` names (default: what the solver picks itself). Each board
gets one ``npuzzle.solve(board, goal, limits=Limits(max_seconds=budget))``; the first answer's time comes
from ``on_update``. A solve on another board first loads the tables and the kernels (not timed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import npuzzle
from npuzzle.board import Board
from npuzzle.canonical import to_canonical
from npuzzle.generate import shuffle, walk
from npuzzle.goals import blank_first
from npuzzle.heuristics.pdb import standard_partition
from npuzzle.search import bounded
from npuzzle.search.limits import Limits
from npuzzle.search.pdb_backend import load_partition

ROOT = Path(__file__).resolve().parents[1]
DATA = [
    ROOT.parent / "shared" / "data" / "korf24.txt",
    Path("/work/shared/data/korf24.txt"),
    ROOT / "tests" / "data" / "korf24.txt",
]


def _load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def korf24() -> list[tuple[int | None, Board]]:
    path = next(p for p in DATA if p.is_file())
    rows = [
        line.split() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]
    return [(int(r[0]), Board([int(x) for x in r[1:26]], 5, 5)) for r in rows]


def use_mode(mode: str, partition: str | None, blank: int) -> str:
    """Set the bounded solver up for ``mode``; returns a label."""
    if mode == "lc":
        bounded.PDB_MAX_CELLS = 0  # no tables: the linear-conflict beam
        return "linear-conflict beam"
    if partition is None:
        return "PDB beam (solver's choice)"
    t = time.monotonic()
    tables = bounded.beam_tables(load_partition(standard_partition(5, 5, blank, partition), build=False))
    print(f"# loaded {tables.label} in {time.monotonic() - t:.1f} s")
    bounded._pdb_tables = lambda *args: (tables, "")  # type: ignore[assignment]
    return f"PDB beam {tables.label}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=("korf24", "random"), default="korf24")
    ap.add_argument("--boards", type=int, default=20, help="random boards (--set random)")
    ap.add_argument("--instances", default=None, help="korf24 instance numbers, 1-based: 1,5,7 or 1-10")
    ap.add_argument("--mode", choices=("lc", "pdb"), default="pdb")
    ap.add_argument("--partition", default=None, help="6-6-6-6, auto, ... (--mode pdb)")
    ap.add_argument("--budget", type=float, default=5.0)
    args = ap.parse_args()
    target = blank_first(5, 5)
    if args.set == "korf24":
        boards = korf24()
        numbers = list(range(1, len(boards) + 1))
        if args.instances:
            numbers = []
            for part in args.instances.split(","):
                lo, _, hi = part.partition("-")
                numbers += list(range(int(lo), int(hi or lo) + 1))
        chosen = [(i, *boards[i - 1]) for i in numbers]
    else:
        chosen = [(i, None, shuffle(target, seed=1000 + i)) for i in range(args.boards)]
    label = use_mode(args.mode, args.partition, target.blank_cell)
    # load the tables and compile (or load) every kernel of the ladder: a short walk runs to a proof
    list(bounded.improving_solutions(walk(target, 30, seed=2), target, deadline=time.monotonic() + 60))
    npuzzle.solve(shuffle(target, seed=1), target, limits=Limits(max_seconds=2))
    tables, _ = bounded._pdb_tables(5, 5, target.blank_cell, time.monotonic() + 60)
    if tables is not None:  # the PDB beam's kernel (the short walk above is proven optimal before the beam)
        values = to_canonical(shuffle(target, seed=1), target)
        bounded.beam_search(values, 5, 5, target.blank_cell, 100, 1000, time.monotonic() + 60, tables)
    print(f"# {args.set}, {len(chosen)} boards, {label}, budget {args.budget:g} s; {_load()}")
    print("| board | optimum | length | lower bound | first answer s | s | heuristic |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for number, optimum, board in chosen:
        first: list[float] = []

        def hear(update, first=first) -> None:
            if update.best_length is not None and not first:
                first.append(update.elapsed)

        t = time.monotonic()
        solution = npuzzle.solve(board, target, limits=Limits(max_seconds=args.budget), on_update=hear)
        seconds = time.monotonic() - t
        assert solution.replay() == target and solution.lower_bound <= solution.length
        if optimum is not None:
            assert solution.lower_bound <= optimum <= solution.length, (number, optimum, solution.length)
        rows.append((optimum, solution.length, solution.lower_bound, first[0], seconds))
        print(
            f"| {number} | {optimum or '-'} | {solution.length} | {solution.lower_bound} | {first[0]:.2f} | "
            f"{seconds:.2f} | {solution.heuristic} |",
            flush=True,
        )
    mean = statistics.fmean
    length = mean(r[1] for r in rows)
    lower = mean(r[2] for r in rows)
    print(f"# {_load()}")
    summary = (
        f"mean length {length:.2f}, mean lower bound {lower:.2f}, length / lower bound "
        f"{mean(r[1] / r[2] for r in rows):.4f}, first answer max {max(r[3] for r in rows):.2f} s, "
        f"seconds mean {mean(r[4] for r in rows):.2f}"
    )
    if all(r[0] is not None for r in rows):
        opt = mean(r[0] for r in rows)  # type: ignore[misc]
        summary += (
            f"; mean optimum {opt:.2f}, length / optimum {mean(r[1] / r[0] for r in rows):.4f} "  # type: ignore[operator]
            f"(ratio of means {length / opt:.4f}), optimal {sum(r[1] == r[0] for r in rows)}/{len(rows)}"
        )
    print(f"# {label}: {summary}")


if __name__ == "__main__":
    main()
