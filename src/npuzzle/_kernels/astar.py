"""A*, weighted A* and greedy best-first over canonical states, resumable in chunks.

Storage (all preallocated by the caller from the memory cap; pages never touched cost nothing):

* node pool: ``states[cap, n]`` (cell dtype), ``parent int32[cap]`` (-1 at the root), ``g int32[cap]``,
  ``h int16[cap]``, ``keys int64[cap]``. A node's move is its own blank cell (the cell the blank moved to).
* closed/open index: ``slots int32[2**k]`` open addressing with linear probing, ``node + 1`` or 0 (empty).
  The key of a state is its exact rank (:func:`.rank.rank_state`) when ``n_cells <= 20`` (``ranked``), so
  equal keys mean equal states; larger boards use a 64-bit FNV-1a hash of the state and compare the stored
  states on a key match (exact, never a false merge).
* binary min-heap ``heap_pri int64[hcap]``, ``heap_node int32[hcap]`` with lazy deletion: an entry is stale
  when its priority no longer matches its node's ``g``.

Priority: ``(g * wd + h * wn) << 16 | h`` for weight ``wn/wd`` (A*: 1/1), ties to the smaller ``h``; greedy
(``wd == 0``): ``h << 16 | min(g, 65535)``. Nodes are reopened when a shorter ``g`` is found.

``regs int64[N_REGS]``: node count, heap size, expanded, generated, largest open list, goal node.
Returns ``FOUND``, ``BUDGET`` (call again), ``EXHAUSTED`` or ``FULL`` (pool or heap out of room).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .heuristics import heuristic
from .moves import slide
from .rank import rank_state

R_NODES = 0
R_HEAP = 1
R_EXPANDED = 2
R_GENERATED = 3
R_MAX_OPEN = 4
R_GOAL = 5
N_REGS = 8

BUDGET = 0
FOUND = 1
EXHAUSTED = 2
FULL = 3

H_BITS = 16
FNV_OFFSET = -3750763034362895579  # 0xcbf29ce484222325 as int64
FNV_PRIME = 1099511628211
MIX = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (Fibonacci hashing)


def bytes_per_node(n_cells: int, itemsize: int) -> float:
    """Memory per stored node: state, parent, g, h, key, two hash slots and 1.25 heap entries."""
    return n_cells * itemsize + 4 + 4 + 2 + 8 + 2 * 4 + 1.25 * (8 + 4)


@njit
def state_key(state: np.ndarray, blank_home: int, fact: np.ndarray, ranked: bool) -> int:
    """Exact rank (``ranked``) or FNV-1a hash of ``state``."""
    if ranked:
        return rank_state(state, blank_home, fact)
    x = FNV_OFFSET
    for i in range(state.shape[0]):
        x = (x ^ np.int64(state[i])) * FNV_PRIME
    return x


@njit
def _priority(g: int, h: int, wn: int, wd: int) -> int:
    g = np.int64(g)  # g and h arrive as int32/int16 array items: widen before shifting
    h = np.int64(h)
    if wd == 0:
        return (h << H_BITS) | min(g, 65535)
    return ((g * wd + h * wn) << H_BITS) | h


@njit
def _heap_push(heap_pri: np.ndarray, heap_node: np.ndarray, size: int, pri: int, node: int) -> int:
    i = size
    while i > 0:
        up = (i - 1) >> 1
        if heap_pri[up] <= pri:
            break
        heap_pri[i] = heap_pri[up]
        heap_node[i] = heap_node[up]
        i = up
    heap_pri[i] = pri
    heap_node[i] = node
    return size + 1


@njit
def _heap_pop(heap_pri: np.ndarray, heap_node: np.ndarray, size: int) -> int:
    """Remove the root (caller read it first); returns the new size."""
    size -= 1
    pri = heap_pri[size]
    node = heap_node[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap_pri[child + 1] < heap_pri[child]:
            child += 1
        if heap_pri[child] >= pri:
            break
        heap_pri[i] = heap_pri[child]
        heap_node[i] = heap_node[child]
        i = child
    heap_pri[i] = pri
    heap_node[i] = node
    return size


@njit
def _same(states: np.ndarray, node: int, state: np.ndarray) -> bool:
    for i in range(state.shape[0]):  # noqa: SIM110 - numba compiles loops, not all() over generators
        if states[node, i] != state[i]:
            return False
    return True


@njit
def astar_run(
    blank_home: int,
    width: int,
    height: int,
    kind: int,
    table: np.ndarray,
    nbrs: np.ndarray,
    n_nbrs: np.ndarray,
    wn: int,
    wd: int,
    fact: np.ndarray,
    ranked: bool,
    states: np.ndarray,
    parent: np.ndarray,
    g: np.ndarray,
    h: np.ndarray,
    keys: np.ndarray,
    slots: np.ndarray,
    heap_pri: np.ndarray,
    heap_node: np.ndarray,
    regs: np.ndarray,
    node_budget: int,
    scratch: np.ndarray,
) -> int:
    """Run until the goal is popped or ``node_budget`` more nodes are expanded (node 0, the start, must be
    stored and pushed by :func:`astar_init`)."""
    n_nodes = regs[R_NODES]
    size = regs[R_HEAP]
    expanded = regs[R_EXPANDED]
    generated = regs[R_GENERATED]
    max_open = regs[R_MAX_OPEN]
    cap = states.shape[0]
    hcap = heap_pri.shape[0]
    mask = slots.shape[0] - 1
    stop_at = expanded + node_budget
    status = EXHAUSTED
    work = np.empty(states.shape[1], dtype=states.dtype)
    while size > 0:
        pri = heap_pri[0]
        node = heap_node[0]
        if pri != _priority(g[node], h[node], wn, wd):
            size = _heap_pop(heap_pri, heap_node, size)
            continue
        if h[node] == 0:
            regs[R_GOAL] = node
            status = FOUND
            break
        if expanded >= stop_at:
            status = BUDGET
            break
        size = _heap_pop(heap_pri, heap_node, size)
        expanded += 1
        work[:] = states[node]
        b = 0
        for cell in range(work.shape[0]):
            if work[cell] == blank_home:
                b = cell
        parent_blank = -1
        if parent[node] >= 0:
            for cell in range(work.shape[0]):
                if states[parent[node], cell] == blank_home:
                    parent_blank = cell
        g_child = g[node] + 1
        for k in range(n_nbrs[b]):
            c = nbrs[b, k]
            if c == parent_blank:
                continue
            slide(work, b, c, width)
            generated += 1
            key = state_key(work, blank_home, fact, ranked)
            slot = ((key * MIX) >> 17) & mask
            found = -1
            while slots[slot] != 0:
                other = slots[slot] - 1
                if keys[other] == key and (ranked or _same(states, other, work)):
                    found = other
                    break
                slot = (slot + 1) & mask
            if found >= 0:
                if g_child < g[found]:  # a shorter way to a known state: reopen it
                    g[found] = g_child
                    parent[found] = node
                    if size >= hcap:
                        slide(work, c, b, width)
                        status = FULL
                        break
                    size = _heap_push(heap_pri, heap_node, size, _priority(g_child, h[found], wn, wd), found)
            else:
                if n_nodes >= cap or size >= hcap:
                    slide(work, c, b, width)
                    status = FULL
                    break
                new = n_nodes
                n_nodes += 1
                states[new] = work
                parent[new] = node
                g[new] = g_child
                hv = heuristic(work, kind, width, height, blank_home, table, scratch)
                h[new] = hv
                keys[new] = key
                slots[slot] = new + 1
                size = _heap_push(heap_pri, heap_node, size, _priority(g_child, hv, wn, wd), new)
            slide(work, c, b, width)
        if status == FULL:
            break
        if size > max_open:
            max_open = size
    regs[R_NODES] = n_nodes
    regs[R_HEAP] = size
    regs[R_EXPANDED] = expanded
    regs[R_GENERATED] = generated
    regs[R_MAX_OPEN] = max_open
    return status


@njit
def astar_init(
    start: np.ndarray,
    blank_home: int,
    width: int,
    height: int,
    kind: int,
    table: np.ndarray,
    wn: int,
    wd: int,
    fact: np.ndarray,
    ranked: bool,
    states: np.ndarray,
    parent: np.ndarray,
    g: np.ndarray,
    h: np.ndarray,
    keys: np.ndarray,
    slots: np.ndarray,
    heap_pri: np.ndarray,
    heap_node: np.ndarray,
    regs: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Store the start as node 0 and push it."""
    states[0] = start
    parent[0] = -1
    g[0] = 0
    hv = heuristic(start, kind, width, height, blank_home, table, scratch)
    h[0] = hv
    key = state_key(start, blank_home, fact, ranked)
    keys[0] = key
    slots[((key * MIX) >> 17) & (slots.shape[0] - 1)] = 1
    heap_pri[0] = _priority(0, hv, wn, wd)
    heap_node[0] = 0
    regs[R_NODES] = 1
    regs[R_HEAP] = 1
    regs[R_MAX_OPEN] = 1


@njit
def astar_path(
    states: np.ndarray, parent: np.ndarray, goal_node: int, blank_home: int, out: np.ndarray
) -> int:
    """Blank targets from the start to ``goal_node`` written into ``out``; returns their number."""
    n = 0
    node = goal_node
    while parent[node] >= 0:
        for cell in range(states.shape[1]):
            if states[node, cell] == blank_home:
                out[n] = cell
        n += 1
        node = parent[node]
    out[:n] = out[:n][::-1].copy()
    return n


__all__ = [
    "BUDGET",
    "EXHAUSTED",
    "FOUND",
    "FULL",
    "N_REGS",
    "R_EXPANDED",
    "R_GENERATED",
    "R_GOAL",
    "R_HEAP",
    "R_MAX_OPEN",
    "R_NODES",
    "astar_init",
    "astar_path",
    "astar_run",
    "bytes_per_node",
    "state_key",
]
