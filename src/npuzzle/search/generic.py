"""Readable generic searches for any :class:`~npuzzle.search.problem.Problem`: the versions to learn from.

* :func:`bfs` — fewest actions (ignores step costs).
* :func:`best_first` — a heap on ``g + weight × h`` with a dict of best ``g`` per key and lazy deletion:
  ``weight=1`` is A* (optimal with an admissible heuristic), ``weight=w`` returns a path at most ``w`` times
  optimal (consistent heuristic), ``weight=inf`` is greedy best-first (ordered by ``h`` alone).
* :func:`astar` — ``best_first(weight=1)``.
* :func:`idastar` — depth-first with a growing bound on ``f = g + h``; memory linear in the path length.

Closed sets and parent maps hold ``problem.key(state)`` (compact keys), never whole nodes. Every function
returns a :class:`~npuzzle.search.problem.SearchResult` with the statistics, and raises
:class:`~npuzzle.errors.SearchLimitExceeded` (carrying the statistics) when a limit is hit.

A 3×3 grid maze (``#`` walls), solved by A* with the Manhattan distance:

>>> from npuzzle.search.problem import BaseProblem
>>> class Maze(BaseProblem):
...     rows = ["..#", "#..", "..."]
...     def initial(self): return (0, 0)
...     def is_goal(self, s): return s == (2, 0)
...     def heuristic(self, s): return abs(s[0] - 2) + abs(s[1])
...     def successors(self, s):
...         for name, (dr, dc) in {"D": (1, 0), "U": (-1, 0), "R": (0, 1), "L": (0, -1)}.items():
...             r, c = s[0] + dr, s[1] + dc
...             if 0 <= r < 3 and 0 <= c < 3 and self.rows[r][c] == ".":
...                 yield name, (r, c), 1.0
>>> "".join(astar(Maze()).actions)
'RDDL'
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections import deque
from collections.abc import Hashable
from typing import Any

from ..errors import SearchLimitExceeded
from ..solution import SearchStats
from .limits import Limits
from .problem import Problem, SearchResult


class _Meter:
    """Counts work and enforces :class:`Limits` (the clock is read every 1,024 expansions)."""

    def __init__(self, limits: Limits | None) -> None:
        self.limits = Limits.coerce(limits)
        self.t0 = time.perf_counter()
        self.expanded = self.generated = self.max_open = self.closed = self.iterations = 0

    def stats(self) -> SearchStats:
        return SearchStats(
            self.expanded,
            self.generated,
            self.max_open,
            self.closed,
            time.perf_counter() - self.t0,
            self.iterations,
        )

    def expand(self) -> None:
        self.expanded += 1
        limits = self.limits
        if limits.max_nodes is not None and self.expanded > limits.max_nodes:
            raise SearchLimitExceeded(f"search hit max_nodes={limits.max_nodes:,}", self.stats(), "max_nodes")
        if (
            limits.max_seconds is not None
            and self.expanded % 1024 == 0
            and time.perf_counter() - self.t0 > limits.max_seconds
        ):
            raise SearchLimitExceeded(
                f"search hit max_seconds={limits.max_seconds:g}", self.stats(), "max_seconds"
            )


def _path(parents: dict[Hashable, tuple[Hashable, Any] | None], key: Hashable) -> list[Any]:
    """Actions from the root to ``key``, following ``parents[key] = (parent_key, action)``."""
    actions = []
    link = parents[key]
    while link is not None:
        key, action = link
        actions.append(action)
        link = parents[key]
    actions.reverse()
    return actions


def bfs(problem: Problem[Any, Any], limits: Limits | None = None) -> SearchResult[Any, Any]:
    """Breadth-first search: a path with the fewest actions."""
    meter = _Meter(limits)
    start = problem.initial()
    parents: dict[Hashable, tuple[Hashable, Any] | None] = {problem.key(start): None}
    if problem.is_goal(start):
        return SearchResult(True, [], start, 0.0, meter.stats())
    frontier = deque([start])
    while frontier:
        state = frontier.popleft()
        meter.expand()
        parent_key = problem.key(state)
        for action, nxt, _cost in problem.successors(state):
            meter.generated += 1
            key = problem.key(nxt)
            if key in parents:
                continue
            parents[key] = (parent_key, action)
            if problem.is_goal(nxt):
                meter.closed = len(parents)
                actions = _path(parents, key)
                return SearchResult(True, actions, nxt, float(len(actions)), meter.stats())
            frontier.append(nxt)
        meter.max_open = max(meter.max_open, len(frontier))
    meter.closed = len(parents)
    return SearchResult(False, stats=meter.stats())


def best_first(
    problem: Problem[Any, Any], weight: float = 1.0, limits: Limits | None = None
) -> SearchResult[Any, Any]:
    """Best-first search on ``g + weight * h`` (``weight=math.inf``: on ``h`` alone, greedy)."""
    meter = _Meter(limits)
    start = problem.initial()
    tie = itertools.count()  # equal priorities pop in insertion order; states are never compared

    def priority(g: float, h: float) -> float:
        return h if math.isinf(weight) else g + weight * h

    h0 = problem.heuristic(start)
    heap: list[tuple[float, float, int, float, Any]] = [(priority(0.0, h0), h0, next(tie), 0.0, start)]
    best_g: dict[Hashable, float] = {problem.key(start): 0.0}
    parents: dict[Hashable, tuple[Hashable, Any] | None] = {problem.key(start): None}
    while heap:
        _, _, _, g, state = heapq.heappop(heap)
        key = problem.key(state)
        if g > best_g[key]:
            continue  # a stale entry: a cheaper path to this state was found after it was pushed
        if problem.is_goal(state):
            meter.closed = len(best_g)
            return SearchResult(True, _path(parents, key), state, g, meter.stats())
        meter.expand()
        for action, nxt, cost in problem.successors(state):
            meter.generated += 1
            g2 = g + cost
            key2 = problem.key(nxt)
            if g2 < best_g.get(key2, math.inf):
                best_g[key2] = g2
                parents[key2] = (key, action)
                h2 = problem.heuristic(nxt)
                heapq.heappush(heap, (priority(g2, h2), h2, next(tie), g2, nxt))
        meter.max_open = max(meter.max_open, len(heap))
    meter.closed = len(best_g)
    return SearchResult(False, stats=meter.stats())


def astar(problem: Problem[Any, Any], limits: Limits | None = None) -> SearchResult[Any, Any]:
    """A*: optimal when ``problem.heuristic`` never overestimates."""
    return best_first(problem, 1.0, limits)


def idastar(problem: Problem[Any, Any], limits: Limits | None = None) -> SearchResult[Any, Any]:
    """Iterative-deepening A*: depth-first below a bound on ``f = g + h``, the bound raised to the smallest
    ``f`` that exceeded it. The stack holds one successor iterator per level; states on the current path are
    skipped (no cycles). Optimal with an admissible heuristic; memory linear in the depth."""
    meter = _Meter(limits)
    start = problem.initial()
    bound = problem.heuristic(start)
    while True:
        meter.iterations += 1
        next_bound = math.inf
        path_states = [start]
        path_actions: list[Any] = []
        path_g = [0.0]
        on_path = {problem.key(start)}
        if problem.is_goal(start):
            return SearchResult(True, [], start, 0.0, meter.stats())
        meter.expand()
        stack = [iter(problem.successors(start))]
        while stack:
            step = next(stack[-1], None)
            if step is None:  # this level is exhausted: back up one move
                stack.pop()
                on_path.discard(problem.key(path_states.pop()))
                path_g.pop()
                if path_actions:
                    path_actions.pop()
                continue
            action, nxt, cost = step
            key = problem.key(nxt)
            if key in on_path:
                continue
            meter.generated += 1
            g = path_g[-1] + cost
            f = g + problem.heuristic(nxt)
            if f > bound:
                next_bound = min(next_bound, f)
                continue
            path_actions.append(action)
            if problem.is_goal(nxt):
                return SearchResult(True, list(path_actions), nxt, g, meter.stats())
            path_states.append(nxt)
            path_g.append(g)
            on_path.add(key)
            meter.max_open = max(meter.max_open, len(stack))
            meter.expand()
            stack.append(iter(problem.successors(nxt)))
        if math.isinf(next_bound):
            return SearchResult(False, stats=meter.stats())
        bound = next_bound


__all__ = ["astar", "best_first", "bfs", "idastar"]
