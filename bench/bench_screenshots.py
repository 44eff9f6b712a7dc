"""Reading whole-window game screenshots (issue 12): read exactly right / refused / wrong, per style.

Screenshots come from ``tests/screenshots.py`` (matplotlib's sample pictures and DejaVu digits, window
chrome, frame, margins, gaps 0..8 px, scale 0.5..2, JPEG 40..90, hole black/coloured/background, 3×3..6×6).
Seeds used while tuning: 0..99 and 100..199; this benchmark uses 1000 + k (never looked at while tuning).

    python bench/bench_screenshots.py --count 30          # three styles × 30 screenshots
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from npuzzle.errors import PuzzleError
from npuzzle.render.vision import read_screenshot
from screenshots import game_screenshot, random_style

STYLES = {
    "picture, with reference": ("picture", True),
    "numbers, no reference": ("numbers", False),
    "picture, no reference": ("picture", False),
}
FIRST_SEED = 1000


def run(count: int, styles: list[str]) -> None:
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for name in styles:
        kind, with_reference = STYLES[name]
        tally = {"right": 0, "refused": 0, "wrong": 0}
        causes: dict[str, int] = {}
        seconds = []
        for k in range(count):
            style = random_style(FIRST_SEED + k, kind=kind, missing_bottom_right=not with_reference)
            shot = game_screenshot(style)
            t0 = time.perf_counter()
            try:
                reading = read_screenshot(shot.image, reference=shot.reference if with_reference else None)
            except PuzzleError as exc:
                tally["refused"] += 1
                causes[type(exc).__name__] = causes.get(type(exc).__name__, 0) + 1
            else:
                ok = reading.board == shot.board and reading.goal == shot.goal
                tally["right" if ok else "wrong"] += 1
                if not ok:
                    print(f"  WRONG: seed {FIRST_SEED + k} {style}", flush=True)
            seconds.append(time.perf_counter() - t0)
        seconds.sort()
        print(
            f"{name:26s} right {tally['right']:3d}  refused {tally['refused']:3d}  wrong {tally['wrong']:3d}  "
            f"of {count}   median {seconds[len(seconds) // 2]:.1f} s, max {seconds[-1]:.1f} s   "
            f"refusals: {causes}",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--style", action="append", choices=list(STYLES))
    args = parser.parse_args()
    run(args.count, args.style or list(STYLES))


if __name__ == "__main__":
    main()
