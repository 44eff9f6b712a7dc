"""Lengths, proven lower bounds and seconds of the anytime solvers of issue 11, next to the constructive solver.

Run from the repository root (one process, so one core)::

    python bench/bench_anytime.py big --sizes 10,20,50,100 --boards 3      # reduction vs constructive
    python bench/bench_anytime.py mid --size 5 --boards 10 --budget 5       # bounded solver on 5×5
    python bench/bench_anytime.py mid --size 6 --walk 360 --boards 10 --budget 10   # DeepCubeA-like 6×6
    python bench/bench_anytime.py mid --size 7 --walk 1800 --boards 5 --budget 30   # DeepCubeA-like 7×7

``big``: uniformly random boards (classic goal); for each, the Manhattan distance (the lower bound), the
constructive solver's length and seconds (skipped above ``--constructive-max`` cells on a side: pure Python),
:func:`~npuzzle.search.reduction.quick_solution` and :func:`~npuzzle.search.reduction.solve_reduction`
with a ``--budget`` (default 10 s). Lengths are divided by the Manhattan distance.

``mid``: :func:`~npuzzle.search.bounded.improving_solutions` on uniformly random boards, or random walks of
``--walk`` moves (never undoing the last; 360 moves give a mean Manhattan distance of about 92 on 6×6, 1800
about 195 on 7×7, the DeepCubeA test sets' figures); per board the seconds to the first answer, the length at
the budget, the proven lower bound at the end and the best proven factor.

Kernels are compiled (or loaded from numba's cache) on a small board before timing. Every answer replays to
its goal (``Solution`` checks that on construction). Seconds are wall clock: note the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from npuzzle.canonical import to_canonical
from npuzzle.generate import shuffle, walk
from npuzzle.goals import goal
from npuzzle.search.bounded import improving_solutions
from npuzzle.search.constructive import solve_constructive
from npuzzle.search.reduction import manhattan, quick_solution, solve_reduction


def _load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def big(sizes: list[int], boards: int, budget: float, constructive_max: int) -> None:
    warm = goal("classic", 6, 6)
    quick_solution(shuffle(warm, seed=0), warm)
    solve_reduction(shuffle(warm, seed=0), warm, deadline=time.monotonic() + 1)
    print(f"# big boards, {boards} per size, budget {budget:g} s; {_load()}")
    print("| size | Manhattan | constructive len (×MD) | s | quick len (×MD) | s | reduction len (×MD) | s |")
    print("|---|---|---|---|---|---|---|---|")
    for n in sizes:
        target = goal("classic", n, n)
        rows: list[tuple[float, ...]] = []
        for seed in range(boards):
            board = shuffle(target, seed=1000 + seed)
            md = manhattan(to_canonical(board, target), n, target.blank_cell)
            if n <= constructive_max:
                t0 = time.perf_counter()
                c_len = solve_constructive(board, target).length
                c_s = time.perf_counter() - t0
            else:
                c_len, c_s = float("nan"), float("nan")
            t0 = time.perf_counter()
            q = quick_solution(board, target)
            q_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            r = solve_reduction(board, target, deadline=time.monotonic() + budget)
            r_s = time.perf_counter() - t0
            rows.append((md, c_len, c_s, q.length, q_s, r.length, r_s))
            print(f"<!-- {n}x{n} seed {1000 + seed}: {rows[-1]} -->", flush=True)
        mean = [statistics.mean(col) for col in zip(*rows, strict=True)]
        md, c_len, c_s, q_len, q_s, r_len, r_s = mean
        print(
            f"| {n}×{n} | {md:,.0f} | {c_len:,.0f} ({c_len / md:.2f}) | {c_s:.2f} | {q_len:,.0f} ({q_len / md:.2f}) "
            f"| {q_s:.2f} | {r_len:,.0f} ({r_len / md:.2f}) | {r_s:.2f} |",
            flush=True,
        )
    print(f"# {_load()}")


def mid(size: int, boards: int, budget: float, walk_moves: int, checkpoints: list[float]) -> None:
    target = goal("classic", size, size)
    list(
        improving_solutions(
            shuffle(goal("classic", 4, 4), seed=1), goal("classic", 4, 4), deadline=time.monotonic() + 2
        )
    )
    kind = f"random walks of {walk_moves} moves" if walk_moves else "uniformly random"
    print(f"# {size}×{size} {kind}, {boards} boards, budget {budget:g} s; {_load()}")
    header = " | ".join(f"len at {c:g} s" for c in checkpoints)
    print(
        f"| board | Manhattan | constructive | first answer s | {header} | lower bound | factor | last algorithm |"
    )
    print("|---|---|---|---|" + "---|" * len(checkpoints) + "---|---|---|")
    totals: list[tuple[float, ...]] = []
    for seed in range(boards):
        board = walk(target, walk_moves, seed=seed) if walk_moves else shuffle(target, seed=seed)
        md = manhattan(to_canonical(board, target), size, target.blank_cell)
        constructive = solve_constructive(board, target).length
        t0 = time.monotonic()
        first = None
        timeline: list[tuple[float, int]] = []
        last = None
        for s in improving_solutions(board, target, deadline=t0 + budget):
            now = time.monotonic() - t0
            if first is None:
                first = now
            timeline.append((now, s.length))
            last = s
        assert last is not None and first is not None
        at = [
            min((length for when, length in timeline if when <= c), default=timeline[0][1])
            for c in checkpoints
        ]
        factor = last.suboptimality if last.suboptimality is not None else float("nan")
        totals.append((md, constructive, first, *at, last.lower_bound or 0, factor))
        cells = " | ".join(str(x) for x in at)
        print(
            f"| {seed} | {md} | {constructive} | {first:.2f} | {cells} | {last.lower_bound} | {factor:.3f} | "
            f"{last.algorithm} |",
            flush=True,
        )
    mean = [statistics.mean(col) for col in zip(*totals, strict=True)]
    cells = " | ".join(f"{x:.1f}" for x in mean[3 : 3 + len(checkpoints)])
    print(
        f"| mean | {mean[0]:.1f} | {mean[1]:.1f} | {mean[2]:.2f} | {cells} | {mean[-2]:.1f} | {mean[-1]:.3f} | |"
    )
    print(f"# {_load()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p_big = sub.add_parser("big")
    p_big.add_argument("--sizes", default="10,20,50,100")
    p_big.add_argument("--boards", type=int, default=3)
    p_big.add_argument("--budget", type=float, default=10.0)
    p_big.add_argument("--constructive-max", type=int, default=50)
    p_mid = sub.add_parser("mid")
    p_mid.add_argument("--size", type=int, default=5)
    p_mid.add_argument("--boards", type=int, default=10)
    p_mid.add_argument("--budget", type=float, default=5.0)
    p_mid.add_argument("--walk", type=int, default=0, help="random-walk scrambles of this many moves")
    p_mid.add_argument("--checkpoints", default="1,5")
    args = parser.parse_args(argv)
    if args.what == "big":
        big([int(x) for x in args.sizes.split(",")], args.boards, args.budget, args.constructive_max)
    else:
        checkpoints = sorted({*(float(x) for x in args.checkpoints.split(",")), args.budget})
        mid(args.size, args.boards, args.budget, args.walk, checkpoints)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
