"""The anytime ladder end to end (``npuzzle.solve(board)``, ``npuzzle solve BOARD``), and the first run.

    python bench/bench_ladder.py --korf 10 --seconds 10          # Korf's 15-puzzles: how many proven optimal
    python bench/bench_ladder.py --sizes 5,6,10,30 --count 3 --seconds 5
    python bench/bench_ladder.py --first-run                      # README's first command, cold caches
    python bench/bench_ladder.py --big 10x10,20x20,50x50,100x100,200x50 --count 2 --seconds 10

``--first-run`` runs the README's set-up example (``npuzzle solve <4x4> --show``) in a fresh process with an
empty numba cache (``NUMBA_CACHE_DIR``) and an empty table cache (``NPUZZLE_CACHE``), timing when the
answer line appears and when the process ends (it builds the 4×4 tables after answering), then a second and
a third 4×4 solve with the caches the first left. Prints one line per board; figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from npuzzle import Board, Limits, solve
from npuzzle.generate import generate
from npuzzle.goals import classic

ROOT = Path(__file__).resolve().parent.parent
README_BOARD = "12 13 11 2 / 4 5 3 14 / 1 9 15 6 / 8 7 0 10"


def korf(count: int, seconds: float) -> None:
    rows = [
        line.split()
        for line in (ROOT / "tests" / "data" / "korf100.txt").read_text().splitlines()
        if line and line[0].isdigit()
    ]
    proven = 0
    for i, row in enumerate(rows[:count], 1):
        start = Board([int(v) for v in row[1:]], 4, 4)
        t = time.perf_counter()
        s = solve(start, "blank-first", limits=Limits(max_seconds=seconds))
        wall = time.perf_counter() - t
        proven += s.optimal
        print(
            f"korf #{i:3d} optimum {row[0]:>3}: length {s.length:3d} bound {s.lower_bound:3d} "
            f"optimal {s.optimal!s:5} {s.algorithm:12} search {s.stats.seconds:6.2f} s "
            f"start-up {s.stats.startup_seconds:5.2f} s wall {wall:6.2f} s"
        )
    print(f"proven optimal: {proven}/{count} within {seconds:g} s each")


def sizes(sides: list[int], count: int, seconds: float) -> None:
    for side in sides:
        ratios, lengths, walls = [], [], []
        for seed in range(count):
            target = classic(side, side)
            start = generate(target, "shuffle", seed=seed)[0]
            t = time.perf_counter()
            s = solve(start, target, limits=Limits(max_seconds=seconds))
            walls.append(time.perf_counter() - t)
            assert s.replay() == target and s.lower_bound
            lengths.append(s.length)
            ratios.append(s.length / s.lower_bound)
            print(
                f"{side}x{side} seed {seed}: length {s.length} bound {s.lower_bound} "
                f"(length/bound {s.length / s.lower_bound:.3f}) {s.algorithm} optimal {s.optimal} "
                f"wall {walls[-1]:.2f} s"
            )
        print(
            f"{side}x{side}: mean length {statistics.mean(lengths):.1f}, mean length/bound "
            f"{statistics.mean(ratios):.3f}, mean wall {statistics.mean(walls):.2f} s, max {max(walls):.2f} s"
        )


def big(shapes: list[tuple[int, int]], count: int, seconds: float, constructive_max: int) -> None:
    """Issue 11's big boards: per uniformly random board (classic goal) the Manhattan distance (the proven
    bound), the constructive solver's length (pure Python; boards of up to ``constructive_max`` cells), the
    ladder's first answer and its answer at the budget, with wall and CPU seconds of each; lengths are
    divided by the Manhattan distance. One process, one core; kernels loaded on a small board first."""
    from npuzzle.canonical import to_canonical
    from npuzzle.search.anytime import Update, solve_anytime
    from npuzzle.search.constructive import solve_constructive
    from npuzzle.search.reduction import manhattan

    warm = classic(12, 12)
    solve_anytime(generate(warm, "shuffle", seed=0)[0], warm, seconds=1.0)
    print(
        "| board | Manhattan | constructive (×MD) | s | first answer (×MD) | wall s | CPU s "
        "| at the budget (×MD) | wall s | CPU s | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for width, height in shapes:
        target = classic(width, height)
        for seed in range(count):
            start = generate(target, "shuffle", seed=seed)[0]
            md = manhattan(to_canonical(start, target), width, target.blank_cell)
            if width * height <= constructive_max:
                t = time.process_time()
                c_length = solve_constructive(start, target).length
                c_len, c_s = f"{c_length:,} ({c_length / md:.2f})", f"{time.process_time() - t:.2f}"
            else:
                c_len, c_s = "–", "–"
            first: list[tuple[int, float, float]] = []
            t0, c0 = time.monotonic(), time.process_time()

            def heard(
                update: Update, first: list[tuple[int, float, float]] = first, t0: float = t0, c0: float = c0
            ) -> None:
                if update.best_length is not None and not first:
                    first.append((update.best_length, time.monotonic() - t0, time.process_time() - c0))

            s = solve_anytime(start, target, seconds=seconds, on_update=heard)
            wall, cpu = time.monotonic() - t0, time.process_time() - c0
            assert s.lower_bound is not None and s.lower_bound >= md
            f_len, f_wall, f_cpu = first[0]
            print(
                f"| {width}×{height} #{seed} | {md:,} | {c_len} | {c_s} | {f_len:,} ({f_len / md:.2f}) "
                f"| {f_wall:.2f} | {f_cpu:.2f} | {s.length:,} ({s.length / md:.2f}) | {wall:.2f} | {cpu:.2f} "
                f"| {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


def _timed_run(argv: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """Seconds to the first line on stdout (the answer) and to the end, CPU seconds (user + system) of the
    whole run (steadier than wall time on a busy machine), and that line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    answered = time.perf_counter() - t
    proc.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return answered, time.perf_counter() - t, cpu, first.strip()


def first_run() -> None:
    npuzzle = str(Path(sys.executable).with_name("npuzzle"))
    with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as tables:
        env = {**os.environ, "NUMBA_CACHE_DIR": numba_cache, "NPUZZLE_CACHE": tables}
        for label, board, extra in (
            ("first run (README command)", README_BOARD, ["--show"]),
            ("second run, same board", README_BOARD, []),
            ("third run, Korf #88 relabelled", "0 15 2 12 11 14 13 9 5 1 3 8 7 10 6 4", []),
        ):
            answered, ended, cpu, line = _timed_run([npuzzle, "solve", board, *extra], env)
            print(
                f"{label}: answer after {answered:.1f} s, process ended after {ended:.1f} s "
                f"(CPU {cpu:.1f} s, load {os.getloadavg()[0]:.1f}): {line}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--korf", type=int, default=0, metavar="N", help="the first N of Korf's 100")
    parser.add_argument("--sizes", default="", help="comma-separated sides of random square boards")
    parser.add_argument("--count", type=int, default=3, help="boards per size")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per board")
    parser.add_argument("--first-run", action="store_true", help="the README command with cold caches")
    parser.add_argument("--big", default="", help="issue 11's big boards, WxH comma-separated: 10x10,100x100")
    parser.add_argument(
        "--constructive-max",
        type=int,
        default=2500,
        help="cells up to which --big runs the constructive solver",
    )
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} at start")
    if args.first_run:
        first_run()
    if args.korf:
        korf(args.korf, args.seconds)
    if args.big:
        shapes = [tuple(int(x) for x in shape.split("x")) for shape in args.big.split(",")]
        big([(w, h) for w, h in shapes], args.count, args.seconds, args.constructive_max)
    if args.sizes:
        sizes([int(s) for s in args.sizes.split(",")], args.count, args.seconds)
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
