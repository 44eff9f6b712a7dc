"""Render and screenshot-reading speed (issue 5): ``python bench/bench_render.py``.

Times each export on its own (one run each: these take seconds, and the machine is shared) and reports
frames per second and the process's peak resident memory after each case, to show that long animations
stream rather than pile up frames.
"""

from __future__ import annotations

import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from npuzzle.board import Board
from npuzzle.goals import blank_at, classic
from npuzzle.render.animate import Timing, export_solution
from npuzzle.render.vision import read_screenshot
from npuzzle.solution import Solution
from pictures import screenshot, synthetic_picture


def walk_solution(goal: Board, n_moves: int, seed: int = 0) -> Solution:
    rng = random.Random(seed)
    board, walk, previous = goal, [], None
    for _ in range(n_moves):
        label = rng.choice([m for m in board.legal_moves() if m != previous])
        board, previous = board.move(label), label
        walk.append(label)
    return Solution(board, goal, tuple(reversed(walk)), False, "walk", None)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    out = Path(tempfile.mkdtemp(prefix="bench_render_"))
    cases = [
        ("4×4 numbered, 60 moves", walk_solution(classic(4, 4), 60, 1), None),
        (
            "5×5 picture 800×800, 100 moves",
            walk_solution(blank_at(5, 5, 24), 100, 2),
            synthetic_picture(800, 800, 2),
        ),
        ("10×10 numbered, 500 moves", walk_solution(classic(10, 10), 500, 3), None),
    ]
    timing = Timing()
    print("| case | output | frames | seconds | frames/s | peak RSS MB |\n|---|---|---:|---:|---:|---:|")
    for name, solution, picture in cases:
        for kind in ("steps", "sheet", "gif", "mp4"):
            target = {"directory" if kind == "steps" else kind: out / f"{len(solution.moves)}.{kind}"}
            if kind in ("sheet",):
                target = {"sheet": out / f"{len(solution.moves)}_sheet.png"}
            start = time.perf_counter()
            export_solution(solution, picture=picture, **target)  # type: ignore[arg-type]
            seconds = time.perf_counter() - start
            frames = {
                "steps": solution.length + 1,
                "sheet": solution.length + 1,
                "gif": timing.n_gif_frames(solution.length),
                "mp4": timing.n_video_frames(solution.length),
            }[kind]
            print(
                f"| {name} | {kind} | {frames} | {seconds:.1f} | {frames / seconds:.0f} | {peak_mb():.0f} |"
            )
    for size in (5, 10):
        picture = synthetic_picture(1000, 1000, size)
        goal = blank_at(size, size, size * size - 1)
        board = walk_solution(goal, 40 * size * size, size).start
        shot = screenshot(picture, board, grid=2, scale=0.7, jpeg=70)
        start = time.perf_counter()
        reading = read_screenshot(shot, size, size, picture)
        seconds = time.perf_counter() - start
        print(
            f"| read_screenshot {size}×{size} (700 px, JPEG) | exact: {reading.board == board} | | {seconds:.2f} | | |"
        )


if __name__ == "__main__":
    main()
