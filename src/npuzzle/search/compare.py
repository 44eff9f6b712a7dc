"""Run several algorithm × heuristic combinations on one board (``npuzzle compare``).

Each combination first solves a board one move from the goal (same size, same goal, same method): that
loads or compiles its kernel (and builds its tables), timed apart as ``startup_seconds``, so ``seconds``
and the time limit count the search alone. ``proven_optimal`` says whether the method proves its answer
optimal (a weighted answer that happens to be shortest is not proven).

>>> from npuzzle.board import Board
>>> rows = compare(Board.from_rows([[1, 2, 3], [4, 5, 6], [0, 7, 8]]), combos=[("bfs", None), ("astar", "manhattan")])
>>> [(r.algorithm, r.length) for r in rows]
[('bfs', 2), ('astar', 2)]
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .._kernels.walking import fits as walking_fits
from ..board import Board, neighbour_cells
from ..errors import ProblemTooLargeError, SearchLimitExceeded
from ..goals import goal_for
from .limits import Limits
from .solver import multi_heuristic, solve

HEURISTIC_ALGORITHMS = ("astar", "idastar", "wastar", "greedy")


@dataclass(frozen=True)
class CompareRow:
    """One combination's outcome; ``error`` says why it has no solution (limit hit, too large).
    ``proven_optimal``: the method proves its answer shortest; ``seconds`` the search alone,
    ``startup_seconds`` loading or compiling its kernel and tables first."""

    algorithm: str
    heuristic: str | None
    length: int | None
    proven_optimal: bool | None
    expanded: int
    generated: int
    max_open: int
    seconds: float
    error: str | None = None
    startup_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def default_combos(
    board: Board,
    algorithms: Sequence[str] | None = None,
    heuristics: Sequence[str] | None = None,
    metric: str = "single",
) -> list[tuple[str, str | None]]:
    """Every requested algorithm, heuristic-driven ones crossed with every requested heuristic.

    Defaults: bfs, bibfs, astar, idastar, wastar, greedy; misplaced, manhattan, linear-conflict, and
    walking-distance where its tables fit (:func:`npuzzle._kernels.walking.fits`: up to 4×4, 2×6, 3×5) (in
    the multi-tile metric the admissible ones: crossings, and multi-pdb where its tables fit).
    """
    algorithms = list(algorithms or ("bfs", "bibfs", "astar", "idastar", "wastar", "greedy"))
    if heuristics is None and metric == "multi":
        best = multi_heuristic(board.width, board.height)  # multi-pdb where its tables fit, else crossings
        heuristics = ("crossings",) if best == "crossings" else ("crossings", best)
    elif heuristics is None:
        heuristics = ("misplaced", "manhattan", "linear-conflict")
        if walking_fits(board.width, board.height):
            heuristics += ("walking-distance",)
    combos: list[tuple[str, str | None]] = []
    for algorithm in algorithms:
        if algorithm in HEURISTIC_ALGORITHMS:
            combos += [(algorithm, h) for h in heuristics]
        else:
            combos.append((algorithm, None))
    return combos


def compare(
    board: Board,
    goal: str | Board | None = "classic",
    combos: Iterable[tuple[str, str | None]] | None = None,
    limits: Limits | None = None,
    metric: str = "single",
    weight: float | None = None,
) -> list[CompareRow]:
    """Solve ``board`` with every combination; a combination that hits a limit or cannot run gets a row
    with ``error`` set (unsolvable boards and bad names still raise)."""
    rows = []
    goal_board = goal_for(board, goal)
    for algorithm, heuristic in combos if combos is not None else default_combos(board, metric=metric):
        startup = warm_up(goal_board, algorithm, heuristic, metric, weight, limits)
        try:
            s = solve(
                board,
                goal,
                algorithm=algorithm,
                heuristic=heuristic,
                limits=limits,
                metric=metric,
                weight=weight if algorithm == "wastar" else None,
            )
        except (SearchLimitExceeded, ProblemTooLargeError) as exc:
            st = getattr(exc, "stats", None)
            rows.append(
                CompareRow(
                    algorithm,
                    heuristic,
                    None,
                    None,
                    getattr(st, "expanded", 0),
                    getattr(st, "generated", 0),
                    getattr(st, "max_open", 0),
                    getattr(st, "seconds", 0.0),
                    " ".join(str(exc).split()),
                    startup,
                )
            )
            continue
        rows.append(
            CompareRow(
                algorithm,
                s.heuristic,
                s.length,
                s.optimal,
                s.stats.expanded,
                s.stats.generated,
                s.stats.max_open,
                s.stats.seconds,
                None,
                startup,
            )
        )
    return rows


def warm_up(
    goal_board: Board,
    algorithm: str,
    heuristic: str | None,
    metric: str,
    weight: float | None,
    limits: Limits | None,
) -> float:
    """Seconds to solve a board one move from ``goal_board`` with this combination (loading or compiling its
    kernel, building its tables). BFS warms up on a 2×2 board (its kernel is the same; its visited array is
    not). Failures are left for the real run to report."""
    target = goal_board
    if algorithm in ("bfs", "bibfs"):
        target = goal_for(Board([1, 2, 3, 0], 2, 2), "classic")
    near = target.move(target.tiles[neighbour_cells(target.blank_cell, target.width, target.height)[0]])
    t = time.perf_counter()
    with contextlib.suppress(SearchLimitExceeded, ProblemTooLargeError, ValueError):
        solve(
            near,
            target,
            algorithm=algorithm,
            heuristic=heuristic,
            limits=limits,
            metric=metric,
            weight=weight if algorithm == "wastar" else None,
        )
    return time.perf_counter() - t


__all__ = ["CompareRow", "compare", "default_combos", "warm_up"]
