"""Heuristic benchmarks (issue 17): IDA* with Manhattan, linear conflict and walking distance on Korf's 15-puzzle
instances (blank-first goal), one core, side by side in one process.

Run:  python bench/bench_heuristics.py --ab 1-10 [--rounds 2]     Manhattan / LC / WD alternated per instance
      python bench/bench_heuristics.py --wd 1-100 [--md 1-10]      walking distance on a set (and Manhattan)
      python bench/bench_heuristics.py --tables                    walking-distance table build / load times

Every row prints the load average beside it (``os.getloadavg()``); node counts are deterministic, times are
not. Each solution's length is checked against Korf's optimal length.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from npuzzle._kernels import heuristics as kh
from npuzzle._kernels import idastar as ki
from npuzzle._kernels import walking as kw
from npuzzle._kernels.moves import neighbour_table

ROOT = Path(__file__).resolve().parent.parent
KORF = ROOT / "tests" / "data" / "korf100.txt"
CHUNK = 1 << 26  # expansions per kernel call


def korf(numbers: list[int]) -> list[tuple[int, int, list[int]]]:
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    return [(k, int(rows[k - 1][0]), [int(v) for v in rows[k - 1][1:]]) for k in numbers]


def parse_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def run(tiles: list[int], heuristic: str) -> tuple[int, int, float]:
    """(length, generated, seconds of the kernel calls) of IDA* with ``heuristic`` on a Korf instance."""
    state = np.array(tiles, dtype=np.uint8)
    nbrs, _, _ = neighbour_table(4, 4)
    kind = kh.heuristic_code(heuristic)
    table = kh.table_for(kind, 4, 4, 0)
    h0 = int(kh.heuristic(state, kind, 4, 4, 0, table, np.zeros(20, np.int32)))
    path, child, hvals, regs = ki.new_stack(200, 16, tiles.index(0), h0)
    step: Callable[[], int]
    if kind == kh.WALKING:
        wd_stack = kw.new_wd_stack(state, 4, 4, 0, 200)
        args = kw.cached_wd_args(4, 4, 0)

        def step() -> int:
            return int(kw.idastar_wd(state, 0, 4, 4, path, child, hvals, regs, CHUNK, wd_stack, *args, True))
    elif kind == kh.LINEAR_CONFLICT:
        lc_args = ki.lc_work(state, 4, 4, 0, 200)

        def step() -> int:
            return ki.idastar_lc(state, 0, 4, 4, nbrs, table, path, child, hvals, regs, CHUNK, *lc_args)
    else:
        padded = kh.padded_rows(nbrs, table)

        def step() -> int:
            return int(ki.idastar_table(state, 0, *padded, path, child, hvals, regs, CHUNK))

    t0 = time.perf_counter()
    while (status := step()) != ki.FOUND:
        assert status == ki.BUDGET, status
    seconds = time.perf_counter() - t0
    assert state.tolist() == list(range(16))
    return int(regs[ki.R_DEPTH]), int(regs[ki.R_GENERATED]), seconds


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def warm() -> None:
    for heuristic in ("manhattan", "linear-conflict", "walking-distance"):
        run([1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], heuristic)


def bench_ab(numbers: list[int], rounds: int, heuristics: list[str]) -> None:
    """Each instance: the heuristics in turn, ``rounds`` times (ABC ABC...), so all see the same load."""
    warm()
    totals = {h: [0, 0.0] for h in heuristics}
    print(f"{'#':>3} {'len':>3}  " + "  ".join(f"{h:>34}" for h in heuristics))
    for k, optimal, tiles in korf(numbers):
        best: dict[str, tuple[int, float]] = {}
        for _ in range(rounds):
            for h in heuristics:
                length, generated, seconds = run(tiles, h)
                assert length == optimal, (k, h, length, optimal)
                prev = best.get(h)
                best[h] = (generated, min(seconds, prev[1]) if prev else seconds)
        cells = []
        for h in heuristics:
            generated, seconds = best[h]
            totals[h][0] += generated
            totals[h][1] += seconds
            cells.append(f"{generated:>14,} {seconds:7.3f}s {generated / seconds / 1e6:6.1f}M/s")
        print(f"{k:>3} {optimal:>3}  " + "  ".join(cells) + f"   {load()}", flush=True)
    print("total    " + "  ".join(f"{g:>14,} {s:7.2f}s {g / s / 1e6:6.1f}M/s" for g, s in totals.values()))
    for h, (g, s) in totals.items():
        print(f"  {h}: {s / g * 1e9:.2f} ns per generated node")


def bench_set(numbers: list[int], heuristic: str) -> tuple[int, float]:
    warm()
    total_g, total_s = 0, 0.0
    for k, optimal, tiles in korf(numbers):
        length, generated, seconds = run(tiles, heuristic)
        assert length == optimal, (k, length, optimal)
        total_g += generated
        total_s += seconds
        print(f"{heuristic} #{k:>3} {optimal} {generated:>14,} {seconds:8.3f}s   {load()}", flush=True)
    print(f"{heuristic} total over {len(numbers)}: {total_g:,} generated, {total_s:.2f} s ({load()})")
    return total_g, total_s


TABLES_SCRIPT = """
import time
t = time.perf_counter()
from npuzzle._kernels import walking as kw
t1 = time.perf_counter()
kw.build_vertical(2, 2, 3, 100)  # loads the compiled build from numba's cache
t2 = time.perf_counter()
kw.cached_tables(4, 4, 0)
t3 = time.perf_counter()
from npuzzle.heuristics.walking import vertical_table
vertical_table(4, 4, 0)
t4 = time.perf_counter()
print(f"import {t1 - t:.3f} s, load compiled build {t2 - t1:.3f} s, build 4x4 tables (both) {t3 - t2:.4f} s, "
      f"pure-Python 4x4 table {t4 - t3:.3f} s")
"""


def bench_tables() -> None:
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", TABLES_SCRIPT], capture_output=True, text=True, check=True
        )
        print(out.stdout.strip(), f"({load()})")
    for w, h in ((3, 3), (4, 3), (3, 4), (4, 4), (5, 2), (2, 5), (3, 5), (2, 6)):
        t = time.perf_counter()
        try:
            tables = kw.cached_tables(w, h, w * h - 1)
            sizes = f"{len(tables[0]):,} + {len(tables[3]):,} patterns"
        except ValueError as exc:
            sizes = str(exc)
        print(f"{w}x{h}: {sizes}, {time.perf_counter() - t:.3f} s ({load()})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ab", help="instances for the alternated comparison, e.g. 1-10")
    parser.add_argument("--rounds", type=int, default=2, help="alternations per instance (best time kept)")
    parser.add_argument("--heuristics", default="manhattan,linear-conflict,walking-distance")
    parser.add_argument("--wd", help="instances for walking distance alone, e.g. 1-100")
    parser.add_argument("--md", help="instances for Manhattan alone (the same subset as --wd, or part of it)")
    parser.add_argument("--tables", action="store_true", help="walking-distance table times")
    args = parser.parse_args()
    if args.tables:
        bench_tables()
    if args.ab:
        bench_ab(parse_range(args.ab), args.rounds, args.heuristics.split(","))
    if args.wd:
        bench_set(parse_range(args.wd), "walking-distance")
    if args.md:
        bench_set(parse_range(args.md), "manhattan")


if __name__ == "__main__":
    main()
