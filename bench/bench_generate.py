"""Boards per second of batch generation (``generate_array``) and of the pure-Python ``generate``.

Run from the repository root::

    python bench/bench_generate.py            # all cases, best of 5 runs each
    python bench/bench_generate.py --quick    # smaller batches, for a smoke test

Every case is called once first so numba's compile (or cache load) is not timed; the figure is the best
of ``--repeat`` timed runs (the least disturbed by other work on the machine).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from npuzzle.generate import DEFAULT_WALK_MOVES_PER_CELL, generate, generate_array
from npuzzle.goals import classic


@dataclass(frozen=True)
class Case:
    name: str
    width: int
    height: int
    method: str
    moves: int | None
    count: int  # boards per timed run
    batch: bool  # generate_array (numba) or generate (pure Python)


def cases(quick: bool) -> list[Case]:
    scale = 10 if quick else 1
    out = []
    for width, height in ((4, 4), (10, 10)):
        n_cells = width * height
        default_walk = DEFAULT_WALK_MOVES_PER_CELL * n_cells
        out += [
            Case("shuffle", width, height, "shuffle", None, 2_000_000 // scale, True),
            Case("walk 100 moves", width, height, "walk", 100, 400_000 // scale, True),
            Case(f"walk {default_walk} moves (default)", width, height, "walk", None, 40_000 // scale, True),
            Case("tile-walk 150 reps", width, height, "tile-walk", None, 40_000 // scale, True),
            Case("shuffle, pure Python", width, height, "shuffle", None, 20_000 // scale, False),
        ]
    return out


def run(case: Case, repeat: int) -> float:
    """Best boards/second over ``repeat`` timed runs."""
    goal = classic(case.width, case.height)
    call: Callable[[int, int], object]
    if case.batch:

        def call(count: int, seed: int) -> object:
            return generate_array(goal, case.method, count=count, moves=case.moves, seed=seed)
    else:

        def call(count: int, seed: int) -> object:
            return generate(goal, case.method, count=count, moves=case.moves, seed=seed)

    call(16, 0)  # compile or load from cache
    best = float("inf")
    for seed in range(1, repeat + 1):
        start = time.perf_counter()
        call(case.count, seed)
        best = min(best, time.perf_counter() - start)
    return case.count / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case (best is kept)")
    parser.add_argument("--quick", action="store_true", help="batches 10x smaller")
    args = parser.parse_args(argv)
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} · {platform.processor() or platform.machine()} · "
        f"{os.cpu_count()} cores · Python {platform.python_version()} · numpy {np.__version__} · "
        f"numba {numba.__version__} · load average {os.getloadavg()[0]:.2f}"
    )
    print(f"{'board':>6}  {'case':<34} {'boards/s':>14}")
    for case in cases(args.quick):
        rate = run(case, args.repeat)
        board = f"{case.width}x{case.height}"
        print(f"{board:>6}  {case.name:<34} {rate:>14,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
