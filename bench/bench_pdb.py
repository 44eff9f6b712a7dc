"""Benchmark: Korf's 100 instances and the 17 80-move positions with additive pattern databases.

    python bench/bench_pdb.py --partition 6-6-3                 # Korf's 100, blank-first goal
    python bench/bench_pdb.py --partition 7-8 --set hardest     # the 17 80-movers
    python bench/bench_pdb.py --partition 6-6-3 --layout snake  # same instances mapped to another layout

Times are CPU seconds of this process (``time.process_time``), one core, after an untimed warm-up solve (JIT
compilation or loading its cache is not counted). Tables are built into
``$NPUZZLE_CACHE`` (default: the user cache) if missing, and the build time is reported.
Another layout whose blank sits in a corner is reached by the board symmetry taking Korf's blank cell (0)
to the layout's blank cell, then relabelling so Korf's goal becomes that layout: optimal lengths must not
change.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from npuzzle.board import Board
from npuzzle.goals import blank_first, goal
from npuzzle.heuristics import store
from npuzzle.heuristics.pdb import board_symmetries, standard_partition
from npuzzle.search.limits import Limits
from npuzzle.search.pdb_backend import load_partition, partition_present, solve_pdb, sparse_tables

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def read_instances(which: str) -> list[tuple[int, Board]]:
    """(optimal length, board for the blank-first goal)."""
    if which == "korf":
        lines = (DATA / "korf100.txt").read_text().splitlines()
        rows = [line.split() for line in lines if line.strip() and not line.startswith("#")]
    else:
        text = (DATA / "hardest.txt").read_text()
        section = text.split("# Section B")[1].split("# ==")[0].split("\n", 1)[1]  # after the header line
        rows = [line.split() for line in section.splitlines() if line.strip() and not line.startswith("#")]
    return [(int(r[0]), Board([int(x) for x in r[1:17]], 4, 4)) for r in rows]


def to_layout(board: Board, layout: str) -> tuple[Board, Board]:
    """Map a blank-first instance to ``layout`` (blank in a corner) by symmetry and relabelling."""
    target = goal(layout, 4, 4)
    korf = blank_first(4, 4)
    sym = next(s for s in board_symmetries(4, 4) if s[korf.blank_cell] == target.blank_cell)
    moved = [0] * 16
    for cell, label in enumerate(board.tiles):
        moved[sym[cell]] = label
    relabel = {korf.tiles[cell]: target.tiles[sym[cell]] for cell in range(16)}
    return Board([relabel[t] for t in moved], 4, 4), target


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--partition", default="6-6-3")
    ap.add_argument("--set", choices=["korf", "hardest"], default="korf")
    ap.add_argument("--layout", default="blank-first")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--no-reflect", action="store_true")
    args = ap.parse_args()
    instances = read_instances(args.set)[: args.limit or None]
    _, g = to_layout(instances[0][1], args.layout)
    part = standard_partition(4, 4, g.blank_cell, args.partition)
    t0 = time.perf_counter()
    built = not partition_present(part)
    tables = load_partition(part)
    load_s = time.perf_counter() - t0
    size_mb = store.table_path(part).stat().st_size / 2**20
    print(
        f"{args.partition} tables ({'built' if built else 'loaded'}) in {load_s:.2f} s wall, {size_mb:.1f} MB"
    )
    s0 = time.perf_counter()
    sparse, starts = sparse_tables(tables)
    print(
        f"groups {[int(s) >= 0 for s in starts]} also held in sparse order ({sparse.nbytes / 2**20:.0f} MB), "
        f"made in {time.perf_counter() - s0:.2f} s wall (once per process; includes compiling the spreader)"
    )
    # compile (or load the cached machine code of) the kernels and touch the tables before timing
    w0 = time.perf_counter()
    rng = random.Random(0)
    warm = g
    for _ in range(40):
        warm = warm.move(rng.choice(warm.legal_moves()))
    solve_pdb(warm, g, limits=Limits(), partition=part, reflect=not args.no_reflect)
    print(f"warm-up (JIT compile or cache load) {time.perf_counter() - w0:.2f} s wall, not counted")
    times, nodes, expanded = [], [], []
    for i, (length, board) in enumerate(instances, 1):
        start, target = to_layout(board, args.layout)
        c0 = time.process_time()
        sol = solve_pdb(start, target, limits=Limits(), partition=part, reflect=not args.no_reflect)
        dt = time.process_time() - c0
        if sol.length != length:
            raise SystemExit(f"instance {i}: length {sol.length}, expected {length}")
        times.append(dt)
        nodes.append(sol.stats.generated)
        expanded.append(sol.stats.expanded)
        print(f"{i:3d} {length:3d} {dt:8.3f} s {sol.stats.generated:>13,} nodes", flush=True)
    del tables
    print(
        f"{args.set} {args.layout} {sol.heuristic}: "
        f"{len(times)} solved optimally, total {sum(times):.1f} s, median {statistics.median(times):.3f} s, "
        f"max {max(times):.2f} s, mean nodes {statistics.mean(nodes):,.0f} generated "
        f"({statistics.mean(expanded):,.0f} expanded), median nodes {statistics.median(nodes):,.0f}, "
        f"{sum(times) / max(sum(nodes), 1) * 1e9:.0f} ns per generated node"
    )


if __name__ == "__main__":
    main()
