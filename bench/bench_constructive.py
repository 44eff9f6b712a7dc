"""Time and length of the constructive solver (``algorithm="constructive"``) on uniformly random boards.

Run from the repository root::

    python bench/bench_constructive.py            # 4×4, 8×8, 12×12, 20×20; classic and spiral goals
    python bench/bench_constructive.py --quick    # fewer boards, for a smoke test

One solve runs first so the IDA* kernel that finishes the last 3×3 is compiled (or loaded from numba's
cache) before timing. Each board is timed once (``solve_constructive``: parity check, canonical form,
solve, labels); the table gives the mean, median and worst time and the mean and worst length. Every
answer is replayed to the goal before it counts.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from npuzzle.generate import shuffle
from npuzzle.goals import goal
from npuzzle.search.constructive import solve_constructive

SIZES = ((4, 4, 200), (8, 8, 100), (12, 12, 40), (20, 20, 20))  # width, height, boards
LAYOUTS = ("classic", "spiral")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the boards")
    args = parser.parse_args(argv)
    solve_constructive(shuffle(goal("classic", 3, 3), 0))  # compile / load the IDA* kernel
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print("| board | goal | boards | mean ms | median ms | max ms | mean moves | max moves |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for width, height, count in SIZES:
        count = max(2, count // 10) if args.quick else count
        for layout in LAYOUTS:
            target = goal(layout, width, height)
            seconds, lengths = [], []
            for seed in range(count):
                start = shuffle(target, seed)
                t0 = time.perf_counter()
                solution = solve_constructive(start, target)
                seconds.append(time.perf_counter() - t0)
                solution.replay()
                lengths.append(solution.length)
            print(
                f"| {width}×{height} | {layout} | {count} | {1000 * statistics.fmean(seconds):.1f} "
                f"| {1000 * statistics.median(seconds):.1f} | {1000 * max(seconds):.1f} "
                f"| {statistics.fmean(lengths):,.0f} | {max(lengths):,} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
