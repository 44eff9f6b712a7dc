"""Benchmark: Korf's 100, the 17 80-move positions and Korf & Felner's 24-puzzle instances with additive PDBs.

    python bench/bench_pdb.py --partition 6-6-3                        # Korf's 100, blank-first goal
    python bench/bench_pdb.py --partition 6-6-3 --kinds goal,anywhere  # side by side with format-1 tables
    python bench/bench_pdb.py --partition 7-8 --set hardest            # the 17 80-movers
    python bench/bench_pdb.py --partition 6-6-3 --layout snake         # same instances mapped to another layout
    python bench/bench_pdb.py --set korf24 --partition 6-6-6-6 --instances 1,13,5,16 [--max-nodes N]

Kinds of tables: ``goal`` (format 2, the cache's: searched from the goal with its blank on its own cell) and
``anywhere`` (format 1's: searched with the blank on every free cell at depth 0), built in memory for the run,
not cached (a group that does not wall in the goal's blank has the same table either way and is taken from
the cached goal tables when present), so the two are compared in the same process on the same instances. Node counts are
deterministic; times are CPU seconds of this process (``time.process_time``), one core, after an untimed
warm-up solve (JIT compilation or loading its cache is not counted). Missing cached tables are built into
``$NPUZZLE_CACHE`` (default: the user cache) and the build time is reported. Another layout whose blank sits
in a corner is reached by the board symmetry taking Korf's blank cell (0) to the layout's blank cell, then
relabelling so Korf's goal becomes that layout: optimal lengths must not change. With ``--max-nodes`` an
instance that hits the limit is reported with the bound it proved instead of failing the run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

import numpy as np

from npuzzle.board import Board
from npuzzle.canonical import to_canonical
from npuzzle.errors import SearchLimitExceeded
from npuzzle.goals import blank_first, goal
from npuzzle.heuristics import store
from npuzzle.heuristics.pdb import (
    Partition,
    PartitionTables,
    board_symmetries,
    build_table,
    free_region,
    standard_partition,
)
from npuzzle.search.limits import Limits
from npuzzle.search.pdb_backend import load_partition, partition_present, solve_canonical, sparse_tables

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def _rows(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def read_instances(which: str) -> list[tuple[int, Board]]:
    """(optimal length, board for the blank-first goal)."""
    if which == "korf":
        rows, side = _rows(DATA / "korf100.txt"), 4
    elif which == "korf24":
        rows, side = _rows(DATA / "korf24.txt"), 5
    else:
        text = (DATA / "hardest.txt").read_text()
        section = text.split("# Section B")[1].split("# ==")[0].split("\n", 1)[1]  # after the header line
        rows = [line.split() for line in section.splitlines() if line.strip() and not line.startswith("#")]
        side = 4
    return [(int(r[0]), Board([int(x) for x in r[1 : 1 + side * side]], side, side)) for r in rows]


def to_layout(board: Board, layout: str) -> tuple[Board, Board]:
    """Map a blank-first instance to ``layout`` (blank in a corner) by symmetry and relabelling."""
    w, h = board.width, board.height
    target = goal(layout, w, h)
    korf = blank_first(w, h)
    sym = next(s for s in board_symmetries(w, h) if s[korf.blank_cell] == target.blank_cell)
    moved = [0] * (w * h)
    for cell, label in enumerate(board.tiles):
        moved[sym[cell]] = label
    relabel = {korf.tiles[cell]: target.tiles[sym[cell]] for cell in range(w * h)}
    return Board([relabel[t] for t in moved], w, h), target


def tables_of_kind(part: Partition, kind: str) -> PartitionTables:
    """The cached format-2 tables (built if missing), or format-1 tables built in memory."""
    t0 = time.perf_counter()
    if kind == "goal":
        built = not partition_present(part)
        tables = load_partition(part)
        size_mb = store.table_path(part).stat().st_size / 2**20
        print(f"{part.label} goal tables ({'built' if built else 'loaded'}) in {time.perf_counter() - t0:.2f} s "
              f"wall, {size_mb:.1f} MB")  # fmt: skip
    else:
        # a group that does not wall in the goal's blank has the same table either way: taken from the cache
        n = part.width * part.height
        goal_tables = load_partition(part, build=False).databases() if partition_present(part) else None
        values = []
        for i, g in enumerate(part.groups):
            same = len(free_region(part.width, part.height, part.blank_cell, g)) == n - len(g)
            if same and goal_tables is not None:
                values.append(np.asarray(goal_tables[i].values))
            else:
                values.append(build_table(part.width, part.height, g))
        tables = PartitionTables(part, np.concatenate(values))
        print(f"{part.label} anywhere tables made in memory in {time.perf_counter() - t0:.2f} s wall")
    s0 = time.perf_counter()
    sparse, starts = sparse_tables(tables)
    print(
        f"  groups {[int(s) >= 0 for s in starts]} also held in sparse order ({sparse.nbytes / 2**20:.0f} MB), "
        f"made in {time.perf_counter() - s0:.2f} s wall (once per process)"
    )
    return tables


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--partition", default="6-6-3")
    ap.add_argument("--set", choices=["korf", "hardest", "korf24"], default="korf")
    ap.add_argument("--layout", default="blank-first")
    ap.add_argument("--limit", type=int, default=0, help="only the first N instances")
    ap.add_argument("--instances", default="", help="1-based instance numbers, comma-separated")
    ap.add_argument("--kinds", default="goal", help="goal, anywhere, or both comma-separated")
    ap.add_argument("--max-nodes", type=int, default=0, help="give up an instance after this many nodes")
    ap.add_argument("--no-reflect", action="store_true")
    args = ap.parse_args()
    everything = read_instances(args.set)
    if args.instances:
        numbered = [(int(i), everything[int(i) - 1]) for i in args.instances.split(",")]
    else:
        numbered = list(enumerate(everything, 1))[: args.limit or None]
    _, g = to_layout(numbered[0][1][1], args.layout)
    part = standard_partition(g.width, g.height, g.blank_cell, args.partition)
    limits = Limits(max_nodes=args.max_nodes or None)
    print(f"load average {os.getloadavg()[0]:.2f} at start")
    summary = []
    for kind in args.kinds.split(","):
        tables = tables_of_kind(part, kind)
        # compile (or load the cached machine code of) the kernels and touch the tables before timing
        w0 = time.perf_counter()
        rng = random.Random(0)
        warm = g
        for _ in range(40):
            warm = warm.move(rng.choice(warm.legal_moves()))
        solve_canonical(to_canonical(warm, g), tables, reflect=not args.no_reflect)
        print(f"  warm-up (JIT compile or cache load) {time.perf_counter() - w0:.2f} s wall, not counted")
        times, nodes, expanded, stopped = [], [], [], 0
        for number, (length, board) in numbered:
            start, target = to_layout(board, args.layout)
            c0 = time.process_time()
            try:
                cells, stats = solve_canonical(
                    to_canonical(start, target), tables, reflect=not args.no_reflect, limits=limits
                )
            except SearchLimitExceeded as exc:
                dt = time.process_time() - c0
                stopped += 1
                print(f"{number:3d} {length:3d} {dt:8.3f} s {exc.stats.generated:>15,} nodes: stopped "
                      f"(lower bound {exc.lower_bound})", flush=True)  # fmt: skip
                continue
            dt = time.process_time() - c0
            if len(cells) != length:
                raise SystemExit(f"instance {number}: length {len(cells)}, expected {length}")
            times.append(dt)
            nodes.append(stats.generated)
            expanded.append(stats.expanded)
            print(f"{number:3d} {length:3d} {dt:8.3f} s {stats.generated:>15,} nodes", flush=True)
        reflect = "" if args.no_reflect else "+reflection"
        if times:
            line = (
                f"{args.set} {args.layout} {kind} {part.label}{reflect}: {len(times)} solved optimally"
                f"{f', {stopped} stopped at the node limit' if stopped else ''}, total {sum(times):.2f} s, "
                f"median {statistics.median(times):.3f} s, max {max(times):.2f} s, mean nodes "
                f"{statistics.mean(nodes):,.0f} generated ({statistics.mean(expanded):,.0f} expanded), "
                f"median nodes {statistics.median(nodes):,.0f}, "
                f"{sum(times) / max(sum(nodes), 1) * 1e9:.0f} ns per generated node"
            )
        else:
            line = f"{args.set} {kind} {part.label}{reflect}: none solved ({stopped} stopped)"
        summary.append(line)
        del tables
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
