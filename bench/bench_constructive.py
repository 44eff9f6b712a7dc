"""Time and length of the constructive solver (``algorithm="constructive"``) on uniformly random boards.

Run from the repository root::

    python bench/bench_constructive.py            # 4×4, 8×8, 12×12, 20×20; classic and spiral goals
    python bench/bench_constructive.py --quick    # fewer boards, for a smoke test
    python bench/bench_constructive.py --web 8    # also the web API's ladder on 8 shuffled 8×8 boards

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
    parser.add_argument("--web", type=int, default=0, metavar="N", help="N 8×8 boards through solve_within")
    parser.add_argument("--tries", type=int, default=9, help="variants for the best-of row")
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
    best_of(args.tries, 20 if args.quick else 100)
    if args.web:
        web_ladder(args.web)
    return 0


def best_of(tries: int, count: int) -> None:
    """Mean length of one run against the best of ``tries`` variants on 8×8 classic boards."""
    target = goal("classic", 8, 8)
    one, best, seconds = [], [], []
    for seed in range(count):
        start = shuffle(target, seed)
        one.append(solve_constructive(start, target).length)
        solution = solve_constructive(start, target, tries=tries)
        best.append(solution.length)
        seconds.append(solution.stats.seconds)
    print(
        f"\n8×8 classic, {count} boards: one run {statistics.fmean(one):,.0f} moves; best of {tries} variants "
        f"{statistics.fmean(best):,.0f} moves in {1000 * statistics.fmean(seconds):.0f} ms"
    )


def web_ladder(count: int) -> None:
    """The web API's ``auto`` ladder (``solve_within``) on shuffled 8×8 boards, with the hint (3 s) and
    solve (5 s) budgets: who answered, how long, and the constructive answer alone for comparison."""
    from npuzzle.web.app import WebSettings, solve_within

    settings = WebSettings()
    target = goal("classic", 8, 8)
    print("\n| budget s | seed | answered by | moves | constructive alone | seconds |")
    print("|---:|---:|---|---:|---:|---:|")
    for budget in (settings.hint_seconds, settings.max_seconds):
        for seed in range(count):
            start = shuffle(target, 1000 + seed)
            t0 = time.perf_counter()
            solution = solve_within(start, target, budget, max_memory_mb=settings.max_memory_mb)
            took = time.perf_counter() - t0
            alone = solve_constructive(start, target).length
            print(
                f"| {budget:g} | {1000 + seed} | {solution.algorithm} | {solution.length:,} | {alone:,} | {took:.2f} |"
            )


if __name__ == "__main__":
    raise SystemExit(main())
