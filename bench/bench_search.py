"""Search benchmarks (issue 3): IDA* nodes per second on Korf's instances, A* memory per node, full BFS.

Run:  python bench/bench_search.py [--korf 1,2,3] [--skip-3x4] [--c]

Each instance runs Manhattan then linear conflict (the incremental kernel ``idastar_lc``, issue 17) back to
back, so both see the same machine load (printed beside each row: ``os.getloadavg()``).

``--c`` also compiles and runs bench/ida_manhattan.c (needs gcc) on the same instances, the reference
"minimal C IDA*" the numba kernel is compared with: both must report the same generated-node counts.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from npuzzle._kernels import astar as ka
from npuzzle._kernels import bfs as kb
from npuzzle._kernels import heuristics as kh
from npuzzle._kernels import idastar as ki
from npuzzle._kernels.moves import neighbour_table
from npuzzle.board import Board
from npuzzle.search import Limits
from npuzzle.search.solver import astar_capacity, solve

ROOT = Path(__file__).resolve().parent.parent
KORF = ROOT / "tests" / "data" / "korf100.txt"


def korf(numbers: list[int]) -> list[tuple[int, int, list[int]]]:
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    return [(k, int(rows[k - 1][0]), [int(v) for v in rows[k - 1][1:]]) for k in numbers]


def ida_run(tiles: list[int], heuristic: str) -> tuple[int, int, float]:
    """(length, generated, seconds) of the raw kernel (Korf's goal is canonical: blank home 0)."""
    state = np.array(tiles, dtype=np.uint8)
    nbrs, _, _ = neighbour_table(4, 4)
    kind = kh.heuristic_code(heuristic)
    table = kh.table_for(kind, 4, 4, 0)
    h0 = int(kh.heuristic(state, kind, 4, 4, 0, table, np.zeros(20, np.int32)))
    path, child, hvals, regs = ki.new_stack(200, 16, tiles.index(0), h0)
    padded = kh.padded_rows(nbrs, table)
    lc_args = ki.lc_work(state, 4, 4, 0, 200)
    t0 = time.perf_counter()
    while True:
        if kind == kh.LINEAR_CONFLICT:
            status = ki.idastar_lc(state, 0, 4, 4, nbrs, table, path, child, hvals, regs, 1 << 26, *lc_args)
        else:
            status = ki.idastar_table(state, 0, *padded, path, child, hvals, regs, 1 << 26)
        if status == ki.FOUND:
            break
    return int(regs[ki.R_DEPTH]), int(regs[ki.R_GENERATED]), time.perf_counter() - t0


def bench_ida(numbers: list[int], use_c: bool) -> None:
    ida_run(korf([2])[0][2], "manhattan")  # compile outside the timings
    ida_run(korf([2])[0][2], "linear-conflict")
    binary = None
    if use_c and shutil.which("gcc"):
        binary = Path(tempfile.mkdtemp()) / "ida"
        subprocess.run(
            ["gcc", "-O3", "-march=native", "-o", str(binary), str(ROOT / "bench" / "ida_manhattan.c")],
            check=True,
        )
    print(
        "| instance | optimal | heuristic | generated | seconds | M nodes/s | ns/node | load | C M nodes/s |"
    )
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    totals: dict[str, list[float]] = {}
    for k, optimal, tiles in korf(numbers):
        for heuristic in ("manhattan", "linear-conflict"):
            length, generated, seconds = ida_run(tiles, heuristic)
            assert length == optimal, (k, length, optimal)
            c_rate = ""
            if binary is not None and heuristic == "manhattan":
                out = subprocess.run(
                    [str(binary), *map(str, tiles)], capture_output=True, text=True, check=True
                ).stdout
                c_generated, c_mps = int(out.split()[3]), float(out.split()[4])
                assert c_generated == generated, (c_generated, generated)
                c_rate = f"{c_mps:.1f}"
            rate = generated / seconds / 1e6
            totals.setdefault(heuristic, [0, 0])
            totals[heuristic][0] += generated
            totals[heuristic][1] += seconds
            load = os.getloadavg()[0]
            print(
                f"| {k} | {optimal} | {heuristic} | {generated:,} | {seconds:.2f} | {rate:.1f} | "
                f"{1e9 * seconds / generated:.0f} | {load:.1f} | {c_rate} |"
            )
    for heuristic, (generated, seconds) in totals.items():
        print(
            f"\n{heuristic}: {generated:,.0f} nodes in {seconds:.2f} s = {generated / seconds / 1e6:.1f} M nodes/s "
            f"({1e9 * seconds / generated:.0f} ns/node)"
        )


def bench_astar() -> None:
    start = Board([12, 13, 11, 2, 4, 5, 3, 14, 1, 9, 15, 6, 8, 7, 0, 10], 4, 4)
    solve(Board([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15], 4, 4), algorithm="astar")
    t0 = time.perf_counter()
    s = solve(start, algorithm="astar", heuristic="linear-conflict", limits=Limits(max_memory_mb=4096))
    seconds = time.perf_counter() - t0
    per_node = ka.bytes_per_node(16, 1)
    print(
        f"\nA* + linear conflict, 57-move 4x4 seed: {s.length} moves, {s.stats.closed:,} nodes stored, "
        f"{s.stats.expanded:,} expanded, {seconds:.2f} s; {per_node:.0f} bytes per stored node "
        f"(16 state + 4 parent + 4 g + 2 h + 8 key + 8 hash slots + 15 heap) = "
        f"{s.stats.closed * per_node / 2**20:,.0f} MB used; a 2 GB cap holds {astar_capacity(16, 2048):,} nodes"
    )


def bench_bfs(skip_3x4: bool) -> None:
    for width, height in ((3, 3), (4, 3)) if not skip_3x4 else ((3, 3),):
        for metric in ("single", "multi"):
            n = width * height
            nbrs, n_nbrs, _ = neighbour_table(width, height, 0 if metric == "single" else 1)
            t0 = time.perf_counter()
            depths, sizes = kb.depth_table(n - 1, width, n, nbrs, n_nbrs, np.uint8)
            seconds = time.perf_counter() - t0
            print(
                f"\nfull BFS {width}x{height} {metric}: {sum(sizes):,} states, max depth {len(sizes) - 1}, "
                f"{seconds:.2f} s ({sum(sizes) / seconds / 1e6:.1f} M states/s), table {depths.nbytes / 2**20:,.0f} MB"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--korf", default="1,2,3,55,79", help="Korf instance numbers (1-based)")
    parser.add_argument("--skip-3x4", action="store_true", help="skip the 239,500,800-state BFS")
    parser.add_argument("--c", action="store_true", help="also run the C reference (gcc)")
    args = parser.parse_args()
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')}  {platform.processor() or platform.machine()}  "
        f"python {platform.python_version()}"
    )
    bench_ida([int(k) for k in args.korf.split(",")], args.c)
    bench_astar()
    bench_bfs(args.skip_3x4)


if __name__ == "__main__":
    main()
