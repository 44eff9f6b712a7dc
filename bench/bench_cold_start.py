"""A machine's first solves, before any kernel is compiled (issue 11: answer first): wall seconds to the
answer, its length and notes, each solve in a fresh process with an empty numba cache.

    python bench/bench_cold_start.py                        # 3x3, 7x7, 12x9 and 30x30 boards
    python bench/bench_cold_start.py --size 12x9 --seconds 5

Point ``PYTHONPATH`` at another checkout's ``src`` to time its code the same way (A/B).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CASES = (("3x3", 10.0), ("7x7", 10.0), ("12x9", 5.0), ("30x30", 10.0))

SOLVE = """
import json, sys, time
from npuzzle.generate import shuffle
from npuzzle.goals import classic
from npuzzle.search.anytime import solve_anytime
width, height, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
goal = classic(width, height)
board = shuffle(goal, seed=5)
started = time.monotonic()
solution = solve_anytime(board, goal, seconds=seconds)
print(json.dumps({"solve": time.monotonic() - started, "length": solution.length,
                  "optimal": solution.optimal, "replays": solution.replay() == goal,
                  "notes": list(solution.notes)}))
"""


def cold_solve(size: str, seconds: float) -> dict:
    width, height = (int(part) for part in size.split("x"))
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-c", SOLVE, str(width), str(height), str(seconds)],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["wall"] = time.monotonic() - started
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", help="WxH (default: the four cases)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the budget given (default 10)")
    args = parser.parse_args()
    cases = [(args.size, args.seconds)] if args.size else list(CASES)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for size, seconds in cases:
        r = cold_solve(size, seconds)
        notes = "; ".join(r["notes"]) or "-"
        print(f"{size:>6} budget {seconds:4.0f} s: wall {r['wall']:6.1f} s (solve {r['solve']:6.1f} s), "
              f"{r['length']} moves{' optimal' if r['optimal'] else ''}, replays {r['replays']}; notes: {notes}",
              flush=True)


if __name__ == "__main__":
    main()
