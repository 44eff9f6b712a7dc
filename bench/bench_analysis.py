"""Benchmarks of issue 15: exact-length generation throughput, the seed's 4x4 simulation, 12-cell statistics.

Usage (set NPUZZLE_CACHE to a folder of your own; the 4x4 tables are built there on first use)::

    python bench/bench_analysis.py generate --bands 30..40 40..50 50..60 60..70 --count 8 --jobs 1 2
    python bench/bench_analysis.py simulate --samples 100 --output sim44     # the seed's chart, 4x4
    python bench/bench_analysis.py stats --size 4x3                          # 239,500,800 states, minutes

Every figure is printed with the load average; lengths and counts are deterministic for a seed, times are not.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from npuzzle.analysis import difficulty
from npuzzle.analysis.distributions import BFS_CELLS, distribution
from npuzzle.analysis.simulate import parse_iterations, simulate, write_outputs
from npuzzle.goals import classic
from npuzzle.notation import parse_size


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def bench_generate(bands: list[str], count: int, seed: int, jobs: list[int]) -> None:
    g = classic(4, 4)
    print(f"4x4 exact-length generation, {count} boards per band, seed {seed}; whole call, worker start-up included")
    print(f"{'band':>8} {'jobs':>4} {'strategy':>10} {'boards/s':>9} {'seconds':>8} {'mean length':>11}  load")
    for text in bands:
        low, high = difficulty.parse_band(text)
        firsts = None
        for n_jobs in jobs:
            t0 = time.perf_counter()
            rated = difficulty.generate_length(g, low, high, count=count, seed=seed, jobs=n_jobs)
            dt = time.perf_counter() - t0
            mean = sum(r.length or 0 for r in rated) / count
            same = "" if firsts is None else ("  same boards" if firsts == rated else "  DIFFERENT BOARDS")
            firsts = firsts or rated
            print(
                f"{text:>8} {n_jobs:>4} {rated[0].strategy:>10} {count / dt:>9.2f} {dt:>8.1f} {mean:>11.2f}  "
                f"{_load()}{same}",
                flush=True,
            )


def bench_simulate(samples: int, iterations: str, output: Path, workers: int | None) -> None:
    g = classic(4, 4)
    sims = []
    for method in ("tile-walk", "walk", "shuffle"):
        t0 = time.perf_counter()
        sim = simulate(g, method, parse_iterations(iterations), samples, seed=0, workers=workers)
        sims.append(sim)
        print(f"{method}: {time.perf_counter() - t0:.0f} s, load {_load()}")
        for r in sim.rows:
            print(f"  {r.iterations:>4} {r.mean:7.2f} ± {r.half_width:.2f}")
    print("wrote", *write_outputs(sims, output))


def bench_stats(size: str, metric: str) -> None:
    width, height = parse_size(size)
    t0 = time.perf_counter()
    d = distribution(classic(width, height), metric, max_cells=BFS_CELLS)
    assert d is not None
    print(
        f"{size} {metric}: {d.n_states:,} positions, diameter {d.diameter} ({d.n_farthest} at it), "
        f"mean {d.mean:.4f}, {time.perf_counter() - t0:.0f} s, load {_load()}"
    )
    print("counts:", list(d.counts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("generate")
    p.add_argument("--bands", nargs="+", default=["30", "40", "45..47", "50", "55", "60..62", "66"])
    p.add_argument("--count", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    p = sub.add_parser("simulate")
    p.add_argument("--samples", type=int, default=100)
    p.add_argument("--iterations", default="0..300:25")
    p.add_argument("--output", type=Path, default=Path("sim44"))
    p.add_argument("--workers", type=int, default=None)
    p = sub.add_parser("stats")
    p.add_argument("--size", default="4x3")
    p.add_argument("--metric", default="single")
    args = parser.parse_args()
    if args.what == "generate":
        bench_generate(args.bands, args.count, args.seed, args.jobs)
    elif args.what == "simulate":
        bench_simulate(args.samples, args.iterations, args.output, args.workers)
    else:
        bench_stats(args.size, args.metric)


if __name__ == "__main__":
    main()
