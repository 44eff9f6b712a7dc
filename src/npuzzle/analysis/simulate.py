"""How many random iterations mix a board? Mean optimal length against walk length / tile-walk iterations.

:func:`simulate` generates ``samples`` boards per iteration count with :func:`npuzzle.generate.generate`
(``walk``: random moves, ``tile-walk``: repetitions of "walk the blank to a random tile", ``shuffle``: the
uniform baseline, one row) and measures each board's optimal distance: by lookup in the exact BFS table on
boards up to :data:`~npuzzle.analysis.difficulty.LAYER_CELLS` cells (3×3: every figure exact per board), else
with the optimal solver on all cores (``forkserver``/``spawn`` workers, see :mod:`npuzzle.batch.runner`).
Solved boards can be kept in a JSON cache file (written atomically) so an interrupted run resumes.

Each row gives the mean, the standard deviation and a 95 % confidence interval of the mean (normal
approximation, ``1.96·sd/√n``). :func:`write_outputs` writes ``PREFIX.csv``, ``PREFIX.png`` and
``PREFIX.svg`` (matplotlib): the mean with its band, the uniform mean (all positions) as a reference line.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._files import write_atomically
from ..board import Board
from ..generate import _GAMMA, _MASK_64, _method, _mix64, generate, seed_key
from .difficulty import LAYER_CELLS, OPTIMAL_CELLS
from .distributions import distribution

Z_95 = 1.96  # two-sided 95 % normal quantile
CHUNK = 16  # boards per worker task


@dataclass(frozen=True)
class Row:
    """Optimal lengths of ``n`` boards made with ``iterations`` (moves / repetitions; 0 for shuffle)."""

    iterations: int
    n: int
    mean: float
    sd: float

    @property
    def half_width(self) -> float:
        return Z_95 * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0


@dataclass(frozen=True)
class Simulation:
    goal: Board
    method: str
    samples: int
    rows: tuple[Row, ...]
    uniform_mean: float | None  # mean over all positions (BFS or published), None when unknown
    exact: bool  # distances from the BFS table (else from the optimal solver: also exact, per board)

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": f"{self.goal.width}x{self.goal.height}",
            "method": self.method,
            "samples": self.samples,
            "uniform_mean": self.uniform_mean,
            "rows": [
                {"iterations": r.iterations, "n": r.n, "mean": r.mean, "sd": r.sd, "ci95": r.half_width}
                for r in self.rows
            ],
        }


def parse_iterations(text: str) -> list[int]:
    """``"150"`` -> [150]; ``"0..300"`` -> 31 points (step 10); ``"0..300:25"`` -> step 25; ``"5,10,20"``."""
    text = str(text).strip()
    try:
        if "," in text:
            values = [int(p) for p in text.split(",")]
        elif ".." in text:
            span, _, step_text = text.partition(":")
            a, b = (int(p) for p in span.split(".."))
            step = int(step_text) if step_text else max(1, (b - a) // 30)
            if step <= 0 or b < a:
                raise ValueError
            values = list(range(a, b + 1, step))
            if values[-1] != b:
                values.append(b)
        else:
            values = [int(text)]
    except ValueError:
        raise ValueError(f"iterations must be N, A..B, A..B:STEP or N,M,..., got {text!r}") from None
    if any(v < 0 for v in values):
        raise ValueError(f"iterations must not be negative, got {text!r}")
    return values


def _row_seed(key: int, iterations: int) -> int:
    return _mix64((key + (iterations + 1) * _GAMMA * 3) & _MASK_64)


def _solve_chunk(
    goal_tiles: tuple[int, ...], width: int, height: int, blank: int, boards: list[tuple[int, ...]]
) -> list[int]:
    """Worker: optimal distances of ``boards`` to the goal (module level so that spawn can pickle it)."""
    from .difficulty import optimal_distance

    goal = Board(goal_tiles, width, height, blank)
    return [optimal_distance(Board(t, width, height, blank), goal) for t in boards]


def simulate(
    goal: Board,
    method: str,
    iterations: Sequence[int],
    samples: int,
    *,
    seed: int | None = 0,
    workers: int | None = None,
    cache: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Simulation:
    """Mean optimal length of ``samples`` boards per entry of ``iterations`` (see the module docstring)."""
    name = _method(method)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if goal.n_cells > OPTIMAL_CELLS:
        raise ValueError(
            f"optimal lengths of {goal.width}x{goal.height} boards take too long to simulate; sizes up to "
            f"{OPTIMAL_CELLS} cells are supported"
        )
    points = [0] if name == "shuffle" else list(iterations)
    key = seed_key(seed)
    boards = {
        it: generate(
            goal, name, moves=None if name == "shuffle" else it, count=samples, seed=_row_seed(key, it)
        )
        for it in points
    }
    wanted = list(dict.fromkeys(b.tiles for bs in boards.values() for b in bs))
    known: dict[str, int] = {}
    if cache is not None and cache.exists():
        stored = json.loads(cache.read_text(encoding="utf-8"))
        if stored.get("goal") == list(goal.tiles) and stored.get("size") == [goal.width, goal.height]:
            known = {k: int(v) for k, v in stored.get("distances", {}).items()}
    exact_table = goal.n_cells <= LAYER_CELLS
    todo = [t for t in wanted if _key(t) not in known]
    done = len(wanted) - len(todo)
    if progress:
        progress(done, len(wanted))
    if exact_table:
        _from_table(goal, todo, known)
        if progress:
            progress(len(wanted), len(wanted))
    elif todo:
        _from_solver(goal, todo, known, workers, cache, done, len(wanted), progress)
    if cache is not None:
        _save_cache(cache, goal, known)
    rows = []
    for it in points:
        ds = [known[_key(b.tiles)] for b in boards[it]]
        mean = sum(ds) / len(ds)
        sd = math.sqrt(sum((d - mean) ** 2 for d in ds) / (len(ds) - 1)) if len(ds) > 1 else 0.0
        rows.append(Row(it, len(ds), mean, sd))
    dist = distribution(goal)
    return Simulation(goal, name, samples, tuple(rows), dist.mean if dist else None, exact_table)


def _key(tiles: tuple[int, ...]) -> str:
    return ",".join(map(str, tiles))


def _from_table(goal: Board, todo: list[tuple[int, ...]], known: dict[str, int]) -> None:
    import numpy as np

    from .._kernels.moves import cell_dtype
    from .._kernels.rank import factorials, rank_batch
    from ..canonical import to_canonical
    from .distributions import depth_table

    if not todo:
        return
    depths = depth_table(goal.width, goal.height, goal.blank_cell, "single")
    n = goal.n_cells
    states = np.array(
        [to_canonical(Board(t, goal.width, goal.height, goal.blank), goal) for t in todo], dtype=cell_dtype(n)
    )
    ranks = rank_batch(states, goal.blank_cell, factorials(n - 1))
    for t, r in zip(todo, ranks, strict=True):
        known[_key(t)] = int(depths[r])


def _save_cache(cache: Path, goal: Board, known: dict[str, int]) -> None:
    payload = {"size": [goal.width, goal.height], "goal": list(goal.tiles), "distances": known}
    write_atomically(cache, json.dumps(payload).encode())


def _from_solver(
    goal: Board,
    todo: list[tuple[int, ...]],
    known: dict[str, int],
    workers: int | None,
    cache: Path | None,
    done: int,
    total: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    import multiprocessing

    from ..batch.runner import start_method

    n_workers = workers or os.cpu_count() or 1
    chunks = [todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK)]
    args = (tuple(goal.tiles), goal.width, goal.height, goal.blank)
    if n_workers <= 1:
        for chunk in chunks:
            for t, d in zip(chunk, _solve_chunk(*args, chunk), strict=True):
                known[_key(t)] = d
            done += len(chunk)
            if progress:
                progress(done, total)
        return
    context = multiprocessing.get_context(start_method())
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=context) as pool:
        futures = {pool.submit(_solve_chunk, *args, chunk): chunk for chunk in chunks}
        for n_finished, future in enumerate(as_completed(futures), 1):
            chunk = futures[future]
            for t, d in zip(chunk, future.result(), strict=True):
                known[_key(t)] = d
            done += len(chunk)
            if progress:
                progress(done, total)
            if cache is not None and n_finished % 8 == 0:  # resumable: solved samples reach the disk
                _save_cache(cache, goal, known)


def write_outputs(sims: Sequence[Simulation], prefix: Path) -> list[Path]:
    """``PREFIX.csv``, ``PREFIX.png`` and ``PREFIX.svg`` for one or more simulations of one board."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = ["method,iterations,n,mean,sd,ci95"]
    for sim in sims:
        lines += [
            f"{sim.method},{r.iterations},{r.n},{r.mean:.4f},{r.sd:.4f},{r.half_width:.4f}" for r in sim.rows
        ]
    paths = [prefix.with_name(prefix.name + ".csv")]
    write_atomically(paths[0], ("\n".join(lines) + "\n").encode())
    fig, ax = plt.subplots(figsize=(8, 4.8))
    goal = sims[0].goal
    uniform = sims[0].uniform_mean
    for sim in sims:
        if sim.method == "shuffle":
            r = sim.rows[0]
            ax.axhline(
                r.mean,
                color="tab:green",
                linestyle=":",
                label=f"shuffle: {r.mean:.2f} ± {r.half_width:.2f} (n={r.n})",
            )
            continue
        xs = [r.iterations for r in sim.rows]
        ys = [r.mean for r in sim.rows]
        ax.plot(xs, ys, marker=".", label=f"{sim.method} (n={sim.samples} per point)")
        ax.fill_between(
            xs,
            [y - r.half_width for y, r in zip(ys, sim.rows, strict=True)],
            [y + r.half_width for y, r in zip(ys, sim.rows, strict=True)],
            alpha=0.25,
        )
    if uniform is not None:
        ax.axhline(uniform, color="black", linestyle="--", label=f"all positions: mean {uniform:.2f}")
    ax.set_xlabel("iterations (tile-walk repetitions / walk moves)")
    ax.set_ylabel("mean optimal solution length (moves)")
    ax.set_title(f"{goal.width}x{goal.height}: mean optimal length of generated boards (95 % band)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    for ext in ("png", "svg"):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=ext, dpi=120)
        path = prefix.with_name(prefix.name + "." + ext)
        write_atomically(path, buffer.getvalue())
        paths.append(path)
    plt.close(fig)
    return paths


def plot_distribution(counts: Sequence[int], title: str, path: Path) -> Path:
    """A histogram of ``counts`` (positions per distance) written atomically to ``path`` (png/svg by suffix)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(range(len(counts)), counts, color="tab:blue")
    ax.set_xlabel("optimal distance (moves)")
    ax.set_ylabel("positions")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=path.suffix.lstrip(".") or "png", dpi=120)
    plt.close(fig)
    write_atomically(path, buffer.getvalue())
    return path


__all__ = ["Row", "Simulation", "parse_iterations", "plot_distribution", "simulate", "write_outputs"]
