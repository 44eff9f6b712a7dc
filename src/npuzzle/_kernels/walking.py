"""Walking distance (Takahashi) and inversion distance as kernels, and IDA* that updates them incrementally.

**Vertical pattern** of a canonical state (``state[cell]`` = home cell of the tile there; the blank's value
is ``blank_home``): ``counts[r, g]`` = tiles of home row ``g`` standing in row ``r`` (the blank not counted),
plus the blank's row. Horizontal moves keep it; a vertical move takes one tile of some home row ``g`` from
the row next to the blank into the blank's row. The vertical walking distance is the BFS distance of a
pattern to the goal's in that (small) pattern graph. The **horizontal** part is the vertical part of the
transposed board (columns by home column). Every move is vertical or horizontal, so the sum is admissible,
and consistent (a move changes one part by at most 1). Any goal layout applies: after relabelling, tile
``t``'s home is cell ``t`` and the goal is ``arange(n)``.

**Pattern key** (exact, no hashing): the mixed-radix number of ``counts[r, g]`` for ``r, g < height - 1``
in base ``width + 1`` (the last row and last home row follow from the row and column sums) times
``height``, plus the blank's row. Keys fit ``int64`` when ``(width + 1) ** ((height - 1) ** 2) * height <
2 ** 62`` (every board up to 5×5 and more; :func:`key_fits`). Pattern *indices* are positions in the sorted
key array, so a from-scratch lookup is a binary search and the pure-Python build can be compared entry by
entry.

**Transition table** ``trans[p * 2 * height + d * height + g]`` (``int32``): the index after a vertical move
from pattern ``p`` that takes a tile of home row ``g`` into the blank's row, the blank going up (``d = 0``)
or down (``d = 1``); ``-1`` when the move does not exist. One lookup per generated node.

**Inversion distance** (Takahashi): read the tiles row by row (blank skipped); the goal has no inversions. A
horizontal move keeps that order; a vertical move carries one tile past the ``width - 1`` tiles between its
cell and the blank's, changing the inversion count by an amount of ``width - 1``'s parity and at most
``width - 1`` in size. So the vertical moves left are at least the fewest such steps from the count to 0:
:func:`steps_to_zero`, a shortest-path distance on the integers, hence consistent. The same over columns
(tiles read column by column, ordered by home cell in column order) bounds the horizontal moves; the sum of
the two is admissible and consistent, and so is ``max(walking distance, inversion distance)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ._jit import njit
from .heuristics import (
    P_BLANK,
    P_HEADER,
    P_HEIGHT,
    P_NH,
    P_NV,
    P_WIDTH,
    find_key,
    inversion_distance,
    inversions,
    pattern_key,
    steps_to_zero,
    vertical_key,
    walking_bound,
)
from .idastar import BUDGET, FOUND, load_regs, next_threshold, row_shift, save_regs
from .moves import SINGLE, neighbour_table

MAX_PATTERNS = 500_000  # larger pattern graphs are refused: reaching this takes about a second (4x4 has
# 24,964 patterns, 2x6 367,560, 3x5 352,560; 4x5, 3x6, 2x7 and 5x5 pass 4,000,000: see BENCHMARKS.md)
KEY_LIMIT = 1 << 62
NARROW_PATTERNS = 0xFFFF  # below this many patterns the search's transition tables are uint16


def key_fits(width: int, height: int) -> bool:
    """True when the vertical pattern key of a ``width`` × ``height`` board fits in ``int64``."""
    return (width + 1) ** ((height - 1) ** 2) * height < KEY_LIMIT


@njit
def decode_key(key: int, width: int, height: int, blank_home_row: int, counts: np.ndarray) -> int:
    """Fill ``counts`` from ``key`` (the inverse of :func:`pattern_key`); returns the blank's row."""
    blank_row = key % height
    key //= height
    for r in range(height - 2, -1, -1):
        for g in range(height - 2, -1, -1):
            counts[r * height + g] = key % (width + 1)
            key //= width + 1
    for r in range(height - 1):  # the last home row: what the row's sum leaves
        s = 0
        for g in range(height - 1):
            s += counts[r * height + g]
        counts[r * height + height - 1] = width - (1 if r == blank_row else 0) - s
    for g in range(height):  # the last row: what the home row's total leaves
        s = 0
        for r in range(height - 1):
            s += counts[r * height + g]
        counts[(height - 1) * height + g] = width - (1 if g == blank_home_row else 0) - s
    return blank_row


EMPTY = -1  # an empty slot of the open-addressing key table (keys are >= 0)
HASH_MULTIPLIER = 0x9E3779B97F4A7C15  # Fibonacci hashing: 2**64 / golden ratio, odd


@njit
def find_slot(slots: np.ndarray, key: int) -> int:
    """The slot of ``key`` in the open-addressing table ``slots`` (``int64``, a power of two long, at most
    half full; linear probing), or the empty slot where it belongs."""
    mask = np.uint64(slots.shape[0] - 1)
    i = ((np.uint64(key) * np.uint64(HASH_MULTIPLIER)) >> np.uint64(32)) & mask
    while slots[i] != EMPTY and slots[i] != key:
        i = (i + np.uint64(1)) & mask
    return np.int64(i)


@njit
def build_vertical(width: int, height: int, blank_home: int, max_patterns: int) -> tuple[np.ndarray, ...]:
    """``(keys int64[P] sorted, dist uint8[P], trans int32[P * 2 * height])`` of the vertical pattern graph
    (BFS from the goal's pattern; moves are reversible). Empty arrays when it has more than
    ``max_patterns`` patterns."""
    hh = height * height
    bh_row = blank_home // width
    counts = np.zeros(hh, dtype=np.int64)
    for g in range(height):
        counts[g * height + g] = width - (1 if g == bh_row else 0)
    slots = np.full(4096, EMPTY, dtype=np.int64)  # key -> BFS id, as an open-addressing table
    slot_ids = np.zeros(4096, dtype=np.int64)
    cap = 1024
    order = np.empty(cap, dtype=np.int64)  # keys in BFS order
    depth = np.empty(cap, dtype=np.uint8)
    start = pattern_key(counts, bh_row, width, height)
    i = find_slot(slots, start)
    slots[i] = start
    slot_ids[i] = 0
    order[0] = start
    depth[0] = 0
    n = 1
    head = 0
    edges = np.empty(cap * 2 * height, dtype=np.int64)  # successor keys in BFS numbering, filled below
    while head < n:
        key = order[head]
        blank_row = decode_key(key, width, height, bh_row, counts)
        if n + 2 * height > cap:
            cap *= 2
            order2 = np.empty(cap, dtype=np.int64)
            order2[:n] = order[:n]
            order = order2
            depth2 = np.empty(cap, dtype=np.uint8)
            depth2[:n] = depth[:n]
            depth = depth2
            edges2 = np.empty(cap * 2 * height, dtype=np.int64)
            edges2[: head * 2 * height] = edges[: head * 2 * height]
            edges = edges2
        for d in range(2):
            row = blank_row - 1 if d == 0 else blank_row + 1
            for g in range(height):
                e = head * 2 * height + d * height + g
                edges[e] = -1
                if row < 0 or row >= height or counts[row * height + g] == 0:
                    continue
                counts[row * height + g] -= 1
                counts[blank_row * height + g] += 1
                nkey = pattern_key(counts, row, width, height)
                counts[row * height + g] += 1
                counts[blank_row * height + g] -= 1
                i = find_slot(slots, nkey)
                if slots[i] == EMPTY:
                    if n >= max_patterns:
                        return np.empty(0, np.int64), np.empty(0, np.uint8), np.empty(0, np.int32)
                    slots[i] = nkey
                    slot_ids[i] = n
                    order[n] = nkey
                    depth[n] = depth[head] + 1
                    n += 1
                    if 2 * n > slots.shape[0]:  # keep the table at most half full: rehash into twice the room
                        slots = np.full(2 * slots.shape[0], EMPTY, dtype=np.int64)
                        slot_ids = np.zeros(slots.shape[0], dtype=np.int64)
                        for j in range(n):
                            s = find_slot(slots, order[j])
                            slots[s] = order[j]
                            slot_ids[s] = j
                        i = find_slot(slots, nkey)
                edges[e] = slot_ids[i]
        head += 1
    perm = np.argsort(order[:n])  # perm[i] = BFS id of the i-th smallest key
    rank = np.empty(n, dtype=np.int64)
    for i in range(n):
        rank[perm[i]] = i
    keys = order[:n][perm]
    dist = depth[:n][perm]
    trans = np.empty(n * 2 * height, dtype=np.int32)
    for i in range(n):
        src = perm[i] * 2 * height
        for j in range(2 * height):
            e = edges[src + j]
            trans[i * 2 * height + j] = -1 if e < 0 else rank[e]
    return keys, dist, trans


@njit
def move_tables(
    width: int, height: int, nbrs: np.ndarray, k_shift: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(flat_nbrs, move_kind, between, tile_ckey, tile_row, tile_col)`` for :func:`idastar_wd`, flat over ``(b << k_shift) + k``.

    ``move_kind``: 0/1 the blank goes up/down (vertical), 2/3 left/right (horizontal). ``between[(b <<
    k_shift) + k, :]`` are the cells whose tiles the moved tile passes in row order (vertical) or column
    order (horizontal): ``width - 1`` or ``height - 1`` of them. ``tile_ckey[t]``: tile ``t``'s home cell
    in column order."""
    n = width * height
    rows = 1 << k_shift
    end = nbrs[0, nbrs.shape[1] - 1]
    flat_nbrs = np.full(n * rows, end, dtype=nbrs.dtype)
    move_kind = np.zeros(n * rows, dtype=np.uint8)
    span = max(width, height)
    between = np.zeros((n * rows, span), dtype=nbrs.dtype)
    for b in range(n):
        for k in range(nbrs.shape[1]):
            c = nbrs[b, k]
            flat_nbrs[(b << k_shift) + k] = c
            if c == end:
                continue
            c = np.int64(c)
            i = (b << k_shift) + k
            if c == b - width or c == b + width:
                move_kind[i] = 0 if c < b else 1
                lo = min(b, c)
                for j in range(width - 1):
                    between[i, j] = lo + 1 + j
            else:
                move_kind[i] = 2 if c < b else 3
                pb = (b % width) * height + b // width
                pc = (c % width) * height + c // width
                lo = min(pb, pc)
                for j in range(height - 1):
                    p = lo + 1 + j
                    between[i, j] = (p % height) * width + p // height
    tile_ckey = np.zeros(n, dtype=np.int64)
    tile_row = np.zeros(n, dtype=np.int64)
    tile_col = np.zeros(n, dtype=np.int64)
    for t in range(n):
        tile_ckey[t] = (t % width) * height + t // width
        tile_row[t] = t // width
        tile_col[t] = t % width
    return flat_nbrs, move_kind, between, tile_ckey, tile_row, tile_col


@njit
def idastar_wd(
    state: np.ndarray,
    blank_home: int,
    width: int,
    height: int,
    path: np.ndarray,
    child: np.ndarray,
    hvals: np.ndarray,
    regs: np.ndarray,
    node_budget: int,
    wd_stack: np.ndarray,
    vdist: np.ndarray,
    vtrans: np.ndarray,
    hdist: np.ndarray,
    htrans: np.ndarray,
    flat_nbrs: np.ndarray,
    move_kind: np.ndarray,
    between: np.ndarray,
    tile_ckey: np.ndarray,
    tile_row: np.ndarray,
    tile_col: np.ndarray,
    idv: np.ndarray,
    idh: np.ndarray,
    k_shift: int,
    use_id: bool,
) -> int:
    """IDA* in the single-tile metric with ``h = max(walking distance, inversion distance)`` (``use_id``
    False: walking distance alone), updated incrementally: per generated child one transition lookup
    (``vtrans`` or ``htrans``, see the module docstring) and one distance lookup; with ``use_id`` also
    ``width - 1`` or ``height - 1`` comparisons for the inversion change and one ``idv``/``idh`` lookup
    (:func:`steps_to_zero` tabled by inversion count).

    Stack as :mod:`.idastar` (``path``, ``child``, ``hvals``, ``regs``), plus ``wd_stack``
    (``int32[capacity + 2, 4]``): the vertical pattern index, horizontal pattern index, row-order and
    column-order inversion counts at each depth (row ``depth + 1``; row 1 filled by the caller,
    :func:`new_wd_stack`). The trailing arguments are :func:`cached_wd_args`. ``state`` is modified in place and
    equals the node at ``regs[R_DEPTH]`` on return."""
    one = np.uint64(1)
    ks = np.uint64(k_shift)
    sv = np.int64(2 * height)  # vtrans row stride
    sh = np.int64(2 * width)
    wm1 = width - 1
    hm1 = height - 1
    end = np.uint64(flat_nbrs[(1 << k_shift) - 1])  # row 0's last entry: the end marker (padding)
    depth, threshold, excess, generated, expanded, iterations, deepest = load_regs(regs)
    stop_at = expanded + node_budget
    capacity = path.shape[0] - 2
    status = BUDGET
    b = np.uint64(path[depth + 1])
    parent = np.uint64(path[depth])
    k = np.uint64(child[depth + 1])
    vi = np.int64(wd_stack[depth + 1, 0])
    hi = np.int64(wd_stack[depth + 1, 1])
    iv = np.int64(wd_stack[depth + 1, 2])
    ih = np.int64(wd_stack[depth + 1, 3])
    room = threshold - depth - 1
    if k == 0:
        if expanded >= stop_at:
            return BUDGET
        expanded += 1
    while True:
        i = (b << ks) + k
        c = np.uint64(flat_nbrs[i])
        if c != end:
            k += one
            if c == parent:
                continue
            t = np.int64(state[c])
            kind = move_kind[i]
            nvi = vi
            nhi = hi
            niv = iv
            nih = ih
            if kind < 2:  # vertical: the tile's home row picks the transition
                nvi = np.int64(vtrans[vi * sv + kind * height + tile_row[t]])
            else:
                nhi = np.int64(htrans[hi * sh + (kind - 2) * width + tile_col[t]])
            nh = np.int64(vdist[nvi]) + np.int64(hdist[nhi])
            generated += 1
            if nh > room and nh - room >= excess:
                continue  # pruned, and the inversion distance could not lower the next threshold
            if use_id:  # the inversion change: compare with the tiles the moved one passes
                less = 0
                if kind < 2:
                    for j in range(wm1):
                        less += np.int64(state[between[i, j]]) < t
                    # kind 0: the blank goes up, so the tile goes down, after the tiles it passes
                    niv = iv + (wm1 - 2 * less if kind == 0 else 2 * less - wm1)
                else:
                    kt = tile_ckey[t]
                    for j in range(hm1):
                        less += tile_ckey[state[between[i, j]]] < kt
                    nih = ih + (hm1 - 2 * less if kind == 2 else 2 * less - hm1)
                nid = np.int64(idv[niv]) + np.int64(idh[nih])
                if nid > nh:
                    nh = nid
            if nh > room:
                if nh - room < excess:
                    excess = nh - room
                continue
            child[depth + 1] = k
            state[b] = t
            state[c] = blank_home
            depth += 1
            room -= 1
            path[depth + 1] = c
            hvals[depth + 1] = nh
            wd_stack[depth + 1, 0] = nvi
            wd_stack[depth + 1, 1] = nhi
            wd_stack[depth + 1, 2] = niv
            wd_stack[depth + 1, 3] = nih
            vi = nvi
            hi = nhi
            iv = niv
            ih = nih
            parent = b
            b = c
            k = np.uint64(0)
            if nh == 0:
                status = FOUND
                break
            if expanded >= stop_at:
                break
            expanded += 1
        elif depth > 0:
            state[b] = state[parent]
            state[parent] = blank_home
            depth -= 1
            room += 1
            b = parent
            parent = np.uint64(path[depth])
            k = np.uint64(child[depth + 1])
            vi = np.int64(wd_stack[depth + 1, 0])
            hi = np.int64(wd_stack[depth + 1, 1])
            iv = np.int64(wd_stack[depth + 1, 2])
            ih = np.int64(wd_stack[depth + 1, 3])
        else:
            iterations += 1
            status, threshold, excess = next_threshold(threshold, excess, capacity)
            room = threshold - 1
            k = np.uint64(0)
            if status != BUDGET or expanded >= stop_at:
                break
            expanded += 1
    child[depth + 1] = k
    deepest = max(deepest, depth)
    save_regs(regs, depth, threshold, excess, generated, expanded, iterations, deepest)
    return status


def vertical_tables(width: int, height: int, blank_home: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`build_vertical` with checks: ``ValueError`` naming the limit when the key does not fit
    ``int64`` or the graph has more than :data:`MAX_PATTERNS` patterns."""
    if not key_fits(width, height):
        raise ValueError(
            f"walking distance on {width}x{height}: its pattern keys do not fit 64 bits "
            f"((width+1)^((height-1)^2) * height >= 2^62)"
        )
    keys, dist, trans = build_vertical(width, height, blank_home, MAX_PATTERNS)
    if keys.shape[0] == 0:
        raise ValueError(f"walking distance on {width}x{height}: more than {MAX_PATTERNS:,} patterns")
    return keys, dist, trans


def transposed_blank(blank_home: int, width: int, height: int) -> int:
    """The goal blank's cell on the transposed board (``height`` wide)."""
    return (blank_home % width) * height + blank_home // width


@lru_cache(maxsize=8)
def cached_tables(width: int, height: int, blank_home: int) -> tuple[np.ndarray, ...]:
    """``(vkeys, vdist, vtrans, hkeys, hdist, htrans)`` for a board and goal blank, built once per process
    (read-only); the horizontal ones are the vertical tables of the transposed board."""
    v = vertical_tables(width, height, blank_home)
    h = vertical_tables(height, width, transposed_blank(blank_home, width, height))
    out = (*v, *h)
    for array in out:
        array.flags.writeable = False
    return out


@lru_cache(maxsize=32)
def fits(width: int, height: int) -> bool:
    """True when walking distance is available on a ``width`` × ``height`` board: its keys fit ``int64`` and
    neither pattern graph passes :data:`MAX_PATTERNS` (found by building the tables, with the goal blank in
    the last cell: at most about a second, once per process)."""
    try:
        cached_tables(width, height, width * height - 1)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=8)
def pack_tables(width: int, height: int, blank_home: int) -> np.ndarray:
    """The ``int64[1, L]`` table :func:`.heuristics.walking_bound` reads (flat): header (``P_*``), vertical
    keys and distances, horizontal keys and distances (2-D like the other kinds' tables, so
    :func:`.heuristics.heuristic` types every branch)."""
    vkeys, vdist, _, hkeys, hdist, _ = cached_tables(width, height, blank_home)
    nv, nh = vkeys.shape[0], hkeys.shape[0]
    packed = np.zeros(P_HEADER + 2 * nv + 2 * nh, dtype=np.int64)
    packed[[P_WIDTH, P_HEIGHT, P_BLANK, P_NV, P_NH]] = width, height, blank_home, nv, nh
    packed[P_HEADER : P_HEADER + nv] = vkeys
    packed[P_HEADER + nv : P_HEADER + 2 * nv] = vdist
    packed[P_HEADER + 2 * nv : P_HEADER + 2 * nv + nh] = hkeys
    packed[P_HEADER + 2 * nv + nh :] = hdist
    packed = packed.reshape(1, -1)
    packed.flags.writeable = False
    return packed


def steps_table(n_cells: int, step: int) -> np.ndarray:
    """:func:`steps_to_zero` for every inversion count of ``n_cells - 1`` tiles (``uint8``)."""
    max_inv = (n_cells - 1) * (n_cells - 2) // 2
    return np.array([steps_to_zero(i, step) for i in range(max_inv + 1)], dtype=np.uint8)


@lru_cache(maxsize=8)
def cached_wd_args(width: int, height: int, blank_home: int) -> tuple[object, ...]:
    """The trailing arguments of :func:`idastar_wd` from ``vdist`` to ``k_shift``."""
    _, vdist, vtrans, _, hdist, htrans = cached_tables(width, height, blank_home)
    if max(vdist.shape[0], hdist.shape[0]) < NARROW_PATTERNS:  # half the cache footprint (4x4: 2 x 400 KB)
        vtrans, htrans = vtrans.astype(np.uint16), htrans.astype(np.uint16)  # -1 (no move) wraps, never read
    nbrs, _, _ = neighbour_table(width, height, SINGLE)
    k_shift = int(row_shift(nbrs.shape[1]))
    moves = move_tables(width, height, nbrs, k_shift)
    n = width * height
    idv = steps_table(n, width - 1)
    idh = steps_table(n, height - 1)
    return vdist, vtrans, hdist, htrans, *moves, idv, idh, k_shift


def new_wd_stack(state: np.ndarray, width: int, height: int, blank_home: int, capacity: int) -> np.ndarray:
    """``int32[capacity + 2, 4]`` with row 1 holding ``state``'s pattern indices and inversion counts."""
    vkeys, _, _, hkeys, _, _ = cached_tables(width, height, blank_home)
    stack = np.zeros((capacity + 2, 4), dtype=np.int32)
    scratch = np.zeros(max(width, height) ** 2, dtype=np.int64)
    stack[1, 0] = find_key(vkeys, vertical_key(state, width, height, blank_home, scratch, False))
    stack[1, 1] = find_key(hkeys, vertical_key(state, width, height, blank_home, scratch, True))
    stack[1, 2] = inversions(state, width, height, blank_home, False)
    stack[1, 3] = inversions(state, width, height, blank_home, True)
    if stack[1, 0] < 0 or stack[1, 1] < 0:
        raise ValueError("walking distance: the state's pattern is not reachable from the goal (unsolvable?)")
    return stack


def grow_wd_stack(wd_stack: np.ndarray, capacity: int) -> np.ndarray:
    """A copy of ``wd_stack`` with room for ``capacity`` moves."""
    out = np.zeros((capacity + 2, 4), dtype=wd_stack.dtype)
    out[: wd_stack.shape[0]] = wd_stack
    return out


def start_h(state: np.ndarray, width: int, height: int, blank_home: int, use_id: bool = True) -> int:
    """``h`` of ``state`` as :func:`idastar_wd` computes it (from scratch)."""
    if use_id:
        return int(walking_bound(state, pack_tables(width, height, blank_home)))
    _, vdist, _, _, hdist, _ = cached_tables(width, height, blank_home)
    stack = new_wd_stack(state, width, height, blank_home, 0)
    return int(vdist[stack[1, 0]]) + int(hdist[stack[1, 1]])


def run_wd(
    state: np.ndarray,
    blank_home: int,
    width: int,
    height: int,
    path: np.ndarray,
    child: np.ndarray,
    hvals: np.ndarray,
    regs: np.ndarray,
    node_budget: int,
    wd_stack: np.ndarray,
    use_id: bool = True,
) -> int:
    """:func:`idastar_wd` with the tables of :func:`cached_wd_args`."""
    return int(
        idastar_wd(
            state,
            blank_home,
            width,
            height,
            path,
            child,
            hvals,
            regs,
            node_budget,
            wd_stack,
            *cached_wd_args(width, height, blank_home),
            use_id,
        )
    )


__all__ = [
    "MAX_PATTERNS",
    "build_vertical",
    "cached_tables",
    "cached_wd_args",
    "decode_key",
    "find_key",
    "fits",
    "grow_wd_stack",
    "idastar_wd",
    "inversion_distance",
    "inversions",
    "key_fits",
    "move_tables",
    "new_wd_stack",
    "pack_tables",
    "pattern_key",
    "run_wd",
    "start_h",
    "steps_table",
    "steps_to_zero",
    "vertical_key",
    "vertical_tables",
    "walking_bound",
]
