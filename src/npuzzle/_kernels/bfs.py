"""Breadth-first search over ranked canonical states, one layer per kernel call.

A ``visited`` byte array has one entry per reachable state (``n!/2``, indexed by :func:`.rank.rank_state`):

* ``0``: not seen;
* ``1 + prev`` (``<= 126``): reached from the start's side, the blank came from cell ``prev``;
* ``ROOT_A`` (127): the start itself;
* ``SIDE_B + 1 + prev``: reached from the goal's side; ``ROOT_B`` (255): the goal itself.

Frontiers are ``[count, n_cells]`` arrays of states (no unranking needed). A layer kernel returns how many
new states it wrote, or reports a *meet* (a generated state already seen from the other side). In a layered
bidirectional search the first meet is optimal: before the layer the two balls were disjoint, so the
distance exceeds ``depth_a + depth_b``, and the meet gives ``depth_a + 1 + depth_b``.

The Python drivers here do the layer loop, frontier allocation and limit checks between layers (numba has
no clock), and return plain results; :mod:`npuzzle.search.solver` turns them into a ``Solution``.
"""

from __future__ import annotations

import time

import numpy as np

from ._jit import njit
from .moves import SINGLE, max_step, replay_cells, slide
from .rank import factorials, rank_state

ROOT_A = 127
SIDE_B = 128
ROOT_B = 255
UNSEEN_DEPTH = 255  # depth-table marker for unreached states (depths must stay below 255)
MAX_BFS_CELLS = 125  # prev + 1 must fit in 7 bits


@njit
def _blank_cell(state: np.ndarray, blank_home: int) -> int:
    for cell in range(state.shape[0]):
        if state[cell] == blank_home:
            return cell
    return -1


@njit
def bfs_layer(
    cur: np.ndarray,
    n_cur: int,
    nxt: np.ndarray,
    visited: np.ndarray,
    side_b: bool,
    blank_home: int,
    width: int,
    nbrs: np.ndarray,
    n_nbrs: np.ndarray,
    fact: np.ndarray,
    meet: np.ndarray,
) -> int:
    """Expand ``cur[:n_cur]`` into ``nxt``; returns the number of new states, or ``-1`` on a meet with
    ``meet[0]`` = index in ``cur`` of the parent and ``meet[1]`` = the cell its blank moved to."""
    base = SIDE_B if side_b else 0
    n_next = 0
    for i in range(n_cur):
        state = cur[i]
        b = _blank_cell(state, blank_home)
        for k in range(n_nbrs[b]):
            c = nbrs[b, k]
            slide(state, b, c, width)
            r = rank_state(state, blank_home, fact)
            code = visited[r]
            if code == 0:
                visited[r] = base + 1 + b
                nxt[n_next, :] = state
                n_next += 1
            elif (code >= SIDE_B) != side_b:
                slide(state, c, b, width)
                meet[0] = i
                meet[1] = c
                return -1
            slide(state, c, b, width)
    return n_next


@njit
def depth_layer(
    cur: np.ndarray,
    n_cur: int,
    nxt: np.ndarray,
    depths: np.ndarray,
    depth: int,
    blank_home: int,
    width: int,
    nbrs: np.ndarray,
    n_nbrs: np.ndarray,
    fact: np.ndarray,
) -> int:
    """Expand ``cur[:n_cur]`` (states at ``depth``) and mark unseen neighbours with ``depth + 1``."""
    n_next = 0
    for i in range(n_cur):
        state = cur[i]
        b = _blank_cell(state, blank_home)
        for k in range(n_nbrs[b]):
            c = nbrs[b, k]
            slide(state, b, c, width)
            r = rank_state(state, blank_home, fact)
            if depths[r] == UNSEEN_DEPTH:
                depths[r] = depth + 1
                nxt[n_next, :] = state
                n_next += 1
            slide(state, c, b, width)
    return n_next


@njit
def trace(
    state: np.ndarray, visited: np.ndarray, blank_home: int, width: int, fact: np.ndarray, out: np.ndarray
) -> int:
    """Follow ``visited`` codes from ``state`` to its side's root. Writes the forward moves into ``out``
    and returns their count: on the start's side the moves from the start to ``state`` (blank targets, in
    order); on the goal's side the moves from ``state`` to the goal."""
    work = state.copy()
    n = 0
    side_b = False
    while True:
        code = visited[rank_state(work, blank_home, fact)]
        if code == ROOT_A or code == ROOT_B:  # noqa: SIM109 - kept plain for numba
            break
        side_b = code >= SIDE_B
        prev = (code & 127) - 1
        b = _blank_cell(work, blank_home)
        out[n] = prev if side_b else b
        n += 1
        slide(work, b, prev, width)
    if not side_b:
        out[:n] = out[:n][::-1].copy()
    return n


@njit
def _meet_path(
    parent: np.ndarray,
    c: int,
    side_b: bool,
    visited: np.ndarray,
    blank_home: int,
    width: int,
    fact: np.ndarray,
    out: np.ndarray,
    cells: np.ndarray,
) -> int:
    """The path through a meet (``parent`` on the expanding side, its blank moved to ``c``), written into
    ``cells`` as blank targets from the start to the goal; returns its length. Same as :func:`bfs_path`."""
    b = _blank_cell(parent, blank_home)
    child = parent.copy()
    slide(child, b, c, width)
    first, second, middle = (child, parent, b) if side_b else (parent, child, c)
    k1 = trace(first, visited, blank_home, width, fact, out)
    cells[:k1] = out[:k1]
    cells[k1] = middle
    k2 = trace(second, visited, blank_home, width, fact, out)
    cells[k1 + 1 : k1 + 1 + k2] = out[:k2]
    return k1 + 1 + k2


@njit
def bfs_batch(
    starts: np.ndarray,
    blank_home: int,
    width: int,
    metric: int,
    nbrs: np.ndarray,
    n_nbrs: np.ndarray,
    fact: np.ndarray,
    bidirectional: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Shortest paths from every row of ``starts`` (``[m, n_cells]`` canonical states, all solvable) to
    ``arange(n_cells)``, by the same layers as :func:`bfs_path` (which side grows next, meets, tracing).

    ``nbrs``/``n_nbrs`` are ``metric``'s tables, ``fact`` is ``factorials(n_cells - 1)``. Returns
    ``(lengths int32[m], ok bool[m])``: ``lengths[i] = -1`` if the search ran dry (unsolvable start);
    ``ok[i]`` iff the path replays to the goal inside the kernel (single-tile steps only when ``metric ==
    SINGLE``). One ``visited`` array (``n!/2`` bytes) and one frontier store per side are reused, so the
    store holds every state a side has reached, layer after layer (``lo:hi`` is the current layer).
    """
    m, n = starts.shape
    n_states = n * fact[n - 1] // 2
    lengths = np.full(m, -1, dtype=np.int32)
    ok = np.zeros(m, dtype=np.bool_)
    goal = np.arange(n).astype(starts.dtype)
    visited = np.zeros(n_states, dtype=np.uint8)
    store_a = np.empty((n_states, n), dtype=starts.dtype)
    store_b = np.empty((n_states, n), dtype=starts.dtype)
    meet = np.zeros(2, dtype=np.int64)
    out = np.zeros(n_states, dtype=np.int64)
    cells = np.zeros(n_states, dtype=np.int64)
    for i in range(m):
        start = starts[i]
        if rank_state(start, blank_home, fact) == rank_state(goal, blank_home, fact):
            lengths[i] = 0
            ok[i] = True
            continue
        visited[:] = 0
        visited[rank_state(start, blank_home, fact)] = ROOT_A
        visited[rank_state(goal, blank_home, fact)] = ROOT_B
        store_a[0] = start
        store_b[0] = goal
        lo_a, hi_a, lo_b, hi_b = 0, 1, 0, 1
        while True:
            side_b = bidirectional and hi_b - lo_b < hi_a - lo_a
            store = store_b if side_b else store_a
            lo, hi = (lo_b, hi_b) if side_b else (lo_a, hi_a)
            if hi == lo:  # dry: cannot happen for a solvable start
                break
            n_next = bfs_layer(
                store[lo:hi],
                hi - lo,
                store[hi:],
                visited,
                side_b,
                blank_home,
                width,
                nbrs,
                n_nbrs,
                fact,
                meet,
            )
            if n_next < 0:
                parent = store[lo + meet[0]].copy()
                length = _meet_path(parent, meet[1], side_b, visited, blank_home, width, fact, out, cells)
                lengths[i] = length
                ok[i] = replay_cells(start, cells, length, blank_home, width) and (
                    metric != SINGLE or max_step(cells, length, _blank_cell(start, blank_home), width) <= 1
                )
                break
            if side_b:
                lo_b, hi_b = hi_b, hi_b + n_next
            else:
                lo_a, hi_a = hi_a, hi_a + n_next
    return lengths, ok


def _capacity(n_cur: int, degree: int, remaining: int) -> int:
    return max(1, min(n_cur * degree, remaining))


def bfs_path(
    start: np.ndarray,
    blank_home: int,
    width: int,
    nbrs: np.ndarray,
    n_nbrs: np.ndarray,
    bidirectional: bool,
    max_nodes: int | None = None,
    deadline: float | None = None,
) -> tuple[str, np.ndarray, dict[str, int]]:
    """Shortest path from ``start`` to the canonical goal (``arange``).

    Returns ``(status, cells, stats)``: status ``"found"`` (``cells`` = blank targets), ``"nodes"`` or
    ``"time"`` (a limit hit between layers; ``cells`` empty). ``stats`` has expanded, generated, max_open,
    closed, iterations (layers)."""
    n = start.shape[0]
    fact = factorials(n - 1)
    n_states = n * int(fact[n - 1]) // 2
    goal = np.arange(n, dtype=start.dtype)
    stats = {"expanded": 0, "generated": 0, "max_open": 1, "closed": 0, "iterations": 0}
    if np.array_equal(start, goal):
        return "found", np.zeros(0, dtype=np.int64), stats
    visited = np.zeros(n_states, dtype=np.uint8)
    visited[rank_state(start, blank_home, fact)] = ROOT_A
    visited[rank_state(goal, blank_home, fact)] = ROOT_B
    frontiers = [start.reshape(1, n).copy(), goal.reshape(1, n).copy()]
    sizes = [1, 1]
    seen = 2
    degree = nbrs.shape[1] - 1
    meet = np.zeros(2, dtype=np.int64)
    while True:
        if max_nodes is not None and stats["expanded"] >= max_nodes:
            return "nodes", np.zeros(0, dtype=np.int64), stats
        if deadline is not None and time.perf_counter() > deadline:
            return "time", np.zeros(0, dtype=np.int64), stats
        side = 1 if bidirectional and sizes[1] < sizes[0] else 0
        cur, n_cur = frontiers[side], sizes[side]
        if n_cur == 0:  # cannot happen for a solvable start; callers check solvability first
            return "exhausted", np.zeros(0, dtype=np.int64), stats
        nxt = np.empty((_capacity(n_cur, degree, n_states - seen), n), dtype=start.dtype)
        n_next = bfs_layer(cur, n_cur, nxt, visited, side == 1, blank_home, width, nbrs, n_nbrs, fact, meet)
        stats["iterations"] += 1
        if n_next < 0:
            stats["expanded"] += int(meet[0]) + 1
            parent = cur[int(meet[0])].copy()
            b = int(np.flatnonzero(parent == blank_home)[0])
            c = int(meet[1])
            child = parent.copy()
            slide(child, b, c, width)
            out = np.zeros(n_states if n_states < 4096 else 4096, dtype=np.int64)
            if side == 0:
                k1 = trace(parent, visited, blank_home, width, fact, out)
                first = out[:k1].copy()
                k2 = trace(child, visited, blank_home, width, fact, out)
                cells = np.concatenate([first, [c], out[:k2]])
            else:
                k1 = trace(child, visited, blank_home, width, fact, out)
                first = out[:k1].copy()
                k2 = trace(parent, visited, blank_home, width, fact, out)
                cells = np.concatenate([first, [b], out[:k2]])
            stats["closed"] = seen
            return "found", cells.astype(np.int64), stats
        stats["expanded"] += n_cur
        stats["generated"] += n_next
        seen += n_next
        stats["closed"] = seen
        frontiers[side], sizes[side] = nxt, n_next
        stats["max_open"] = max(stats["max_open"], sizes[0] + sizes[1])


def depth_table(
    blank_home: int, width: int, n_cells: int, nbrs: np.ndarray, n_nbrs: np.ndarray, dtype: type
) -> tuple[np.ndarray, list[int]]:
    """Exact distance to the canonical goal of every reachable state: ``uint8[n!/2]`` indexed by
    :func:`.rank.rank_state` (``UNSEEN_DEPTH`` never remains for a full search), and the layer sizes."""
    fact = factorials(n_cells - 1)
    n_states = n_cells * int(fact[n_cells - 1]) // 2
    depths = np.full(n_states, UNSEEN_DEPTH, dtype=np.uint8)
    cur = np.arange(n_cells, dtype=dtype).reshape(1, n_cells)
    depths[rank_state(cur[0], blank_home, fact)] = 0
    n_cur = 1
    sizes = [1]
    seen = 1
    degree = nbrs.shape[1] - 1
    depth = 0
    while n_cur:
        if depth + 1 >= UNSEEN_DEPTH:
            raise OverflowError("BFS depth reached 255; the depth table stores one byte per state")
        nxt = np.empty((_capacity(n_cur, degree, n_states - seen), n_cells), dtype=dtype)
        n_next = depth_layer(cur, n_cur, nxt, depths, depth, blank_home, width, nbrs, n_nbrs, fact)
        seen += n_next
        if n_next:
            sizes.append(n_next)
        cur, n_cur = nxt, n_next
        depth += 1
    return depths, sizes


__all__ = [
    "MAX_BFS_CELLS",
    "ROOT_A",
    "ROOT_B",
    "SIDE_B",
    "UNSEEN_DEPTH",
    "bfs_batch",
    "bfs_layer",
    "bfs_path",
    "depth_layer",
    "depth_table",
    "trace",
]
