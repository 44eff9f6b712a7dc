"""Exact BFS distances for small boards: the oracle every solver and heuristic is checked against.

Pure Python (no numba, no npuzzle search code), results cached for the whole test session.

* :func:`canonical_distances(width, height, blank_home, metric)` -> ``dict[tuple, int]``: distance to the
  canonical goal ``(0, 1, ..., n-1)`` of every reachable canonical state (``values[cell]`` = home cell of the
  tile in ``cell``; the blank's value is ``blank_home``, the goal's blank cell).
* :func:`bfs_distances(goal, metric)` -> ``dict[tuple, int]``: the same keyed by the user's tile tuples for
  any goal :class:`~npuzzle.board.Board` (labels as in ``goal``).
* :func:`canonical_arrays(width, height, blank_home, metric)` -> ``(states uint8[m, n], depths int32[m])``,
  every reachable canonical state in BFS order, for batch kernels.

``metric`` is ``"single"`` (one tile per move) or ``"multi"`` (a slide of several tiles of the blank's row
or column is one move). Meant for boards up to 3×3 (181,440 states, about a second) or 2×5.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import cache

import numpy as np

from npuzzle.board import Board, line_cells, neighbour_cells


def _targets(blank: int, width: int, height: int, metric: str) -> list[int]:
    return line_cells(blank, width, height) if metric == "multi" else neighbour_cells(blank, width, height)


def _slide(state: tuple[int, ...], blank: int, target: int, width: int) -> tuple[int, ...]:
    tiles = list(state)
    if target // width == blank // width:
        step = 1 if target > blank else -1
    else:
        step = width if target > blank else -width
    cell = blank
    while cell != target:
        tiles[cell] = tiles[cell + step]
        cell += step
    tiles[target] = state[blank]
    return tuple(tiles)


@cache
def canonical_distances(
    width: int, height: int, blank_home: int, metric: str = "single"
) -> dict[tuple[int, ...], int]:
    """Distance to ``(0..n-1)`` of every reachable canonical state (cached)."""
    if metric not in ("single", "multi"):
        raise ValueError(f"metric must be 'single' or 'multi', got {metric!r}")
    n = width * height
    goal = tuple(range(n))
    targets = [_targets(b, width, height, metric) for b in range(n)]
    dist = {goal: 0}
    queue = deque([(goal, blank_home)])
    while queue:
        state, blank = queue.popleft()
        d = dist[state] + 1
        for target in targets[blank]:
            nxt = _slide(state, blank, target, width)
            if nxt not in dist:
                dist[nxt] = d
                queue.append((nxt, target))
    return dist


def bfs_distances(goal: Board, metric: str = "single") -> dict[tuple[int, ...], int]:
    """Distance to ``goal`` of every board that can reach it, keyed by the board's tiles (user labels)."""
    canon = canonical_distances(goal.width, goal.height, goal.blank_cell, metric)
    labels = goal.tiles
    return {tuple(labels[v] for v in state): d for state, d in canon.items()}


@cache
def canonical_arrays(
    width: int, height: int, blank_home: int, metric: str = "single"
) -> tuple[np.ndarray, np.ndarray]:
    """Every reachable canonical state as ``uint8[m, n]`` with its distance as ``int32[m]`` (BFS order)."""
    dist = canonical_distances(width, height, blank_home, metric)
    states = np.array(list(dist.keys()), dtype=np.uint8)
    depths = np.array(list(dist.values()), dtype=np.int32)
    states.setflags(write=False)
    depths.setflags(write=False)
    return states, depths


def depth_histogram(width: int, height: int, blank_home: int, metric: str = "single") -> list[int]:
    """Number of states at each distance (a "perft" line)."""
    depths = canonical_arrays(width, height, blank_home, metric)[1]
    return np.bincount(depths).tolist()


__all__ = ["bfs_distances", "canonical_arrays", "canonical_distances", "depth_histogram"]


def beam_layer(
    states: list[list[int]] | np.ndarray,
    blanks: list[int] | np.ndarray,
    came: list[int] | np.ndarray,
    width: int,
    height: int,
    blank_home: int,
    max_f: int,
    depth: int,
    heuristic: Callable[[list[int]], int],
) -> tuple[list[tuple[list[int], int, int, int, int]], int]:
    """Pure-Python twin of the beam kernels' layer (``npuzzle._kernels.beam``, ``beam_pdb``): every child
    (no move back to the blank's previous cell) with ``depth + 1 + h < max_f``, as (values, blank, came, h,
    parent row), in the kernels' order; and the index of a child at the goal (the layer stops there), or -1."""
    n = width * height
    out = []
    for i, state in enumerate(states):
        for cell in neighbour_cells(int(blanks[i]), width, height):
            if cell == came[i]:
                continue
            child = [int(v) for v in state]
            child[int(blanks[i])], child[cell] = child[cell], blank_home
            h = heuristic(child)
            if depth + 1 + h >= max_f:
                continue
            out.append((child, cell, int(blanks[i]), h, i))
            if child == list(range(n)):
                return out, len(out) - 1
    return out, -1
