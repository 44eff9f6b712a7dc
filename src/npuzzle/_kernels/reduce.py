"""Reduction kernels: bring the tiles of one outer line of the unsolved rectangle home, one line per call.

The same method as :mod:`npuzzle.search.constructive` (read its docstring first), compiled, so a 100×100
board is reduced in well under a second, with one knob more: ``lam`` (``0 <= lam < SCALE``) weighs the
blank's walks. With ``lam == 0`` a walk is a shortest path found breadth-first, exactly as the pure-Python
solver does it (so the two produce the same moves: that is this kernel's pure-Python twin, see
tests/test_reduction.py); with ``lam > 0`` a walk minimises ``SCALE * steps + lam * (change in the Manhattan
distance of the tiles it shifts)`` (Dijkstra): among walks of about the same length it prefers those that
push the loose tiles towards their homes, which shortens the work left for later lines. A second knob,
``far_walk`` (0: off), trades a little length for speed on huge boards: a walk longer than that many cells
is the cheapest *shortest* walk (a sweep over the box between its ends, :func:`_monotone_path`) and the
blank's first approach to a tile is found by A* (:func:`_astar_distance`), not by floods round the blank.
The last block (at most 3×3) is solved optimally by :func:`block_idastar`.

Conventions (canonical form): ``values[cell]`` is the home cell of the tile in ``cell`` (the blank's value is
``blank_home``), ``where`` its inverse, ``fixed[cell]`` 1 for a cell the blank must not enter (placed lines,
tiles held in place). ``nbr`` is ``int32[n_cells * 4]``: the neighbours of each cell in the order up, down,
left, right, padded with -1. ``out`` is an ``int32`` array of the cells the blank moved to; kernels return it
(grown when full) with the new count. Scratch arrays (``mark``, ``dist``, ``parent``, ``queue`` of
``n_cells``; ``rmark``, ``rbest``, ``rparent`` of ``4 * n_cells``) are reused between calls with a stamp
(``stamps[0]`` for cell searches, ``stamps[1]`` for route searches) so no search clears a whole board.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

SCALE = 8  # cost of one blank step in a weighted walk; lam (the Manhattan weight, 0 <= lam < SCALE) is less
WALK_MARGIN = 2  # a weighted walk stays this close to the box round its ends (keeps it local and fast)
# With weighted walks (lam > 0) the route search is greedier: 6 per cell (3x faster on big boards than 4,
# answers no longer; bench/bench_anytime.py).
PUSH_ESTIMATE_WEIGHTED = 6
PUSH_ESTIMATE = 4  # route search: estimated blank moves per cell the tile travels (see constructive.py)
WINDOW_DEPTH = 3  # the last-two window: 2 cells along the line x 3 cells inwards
WINDOW_CELLS = 2 * WINDOW_DEPTH
# Route-search heap keys: f << 47 | cost << 32 | tile << 16 | side; cells below 2**16 (MAX_SIDE 256),
# cost below 2**15 and f below 2**16 (routes cost a few moves per cell of a path across the board).
F_SHIFT = 47
COST_SHIFT = 32
CELL_BITS = 16
CELL_MASK = (1 << CELL_BITS) - 1
COST_MASK = (1 << (F_SHIFT - COST_SHIFT)) - 1
NO_ROUTE = -1
# Far from its destination the blank is guided by the straight-line distance: its first approach to a tile
# (route search) by A* to each side of the tile instead of a breadth-first flood, and its weighted walks by
# a sweep over the shortest (monotone) walks in the box between the ends instead of Dijkstra round it. Both
# visit about as many cells as the walk is long (or the box holds) instead of a disc round the blank: on a
# 100×100 board this is most of the time the reduction took. "Far": more than FAR_WALK cells.
FAR_WALK = 4
G_LIMIT = (1 << CELL_BITS) - 1  # A* keys: f << 32 | (G_LIMIT - g) << 16 | cell (deeper first on ties)
BLOCK_CELLS = 9  # the last block a reduction leaves (at most 3×3) is solved optimally by block_idastar
BLOCK_DEPTH = 64  # above the 3×3 diameter (31)
N_BUCKETS = 16  # above SCALE + lam (at most 15): the weighted walks' bucket queue
BUCKET_MASK = N_BUCKETS - 1
INFINITE = 1 << 30  # above any walk cost; fits the int32 scratch


def neighbour_table(width: int, height: int) -> np.ndarray:
    """``int32[width * height * 4]``: neighbours up, down, left, right of each cell, -1 where off the board."""
    n = width * height
    nbr = np.full(n * 4, -1, dtype=np.int32)
    for cell in range(n):
        row, col = divmod(cell, width)
        k = 0
        for ok, other in (
            (row > 0, cell - width),
            (row < height - 1, cell + width),
            (col > 0, cell - 1),
            (col < width - 1, cell + 1),
        ):
            if ok:
                nbr[cell * 4 + k] = other
                k += 1
    return nbr


@njit
def _grow(out: np.ndarray) -> np.ndarray:
    bigger = np.empty(out.shape[0] * 2 + 16, dtype=np.int32)
    bigger[: out.shape[0]] = out
    return bigger


@njit
def _step(values: np.ndarray, where: np.ndarray, blank_home: int, cell: int, out: np.ndarray, n_out: int):
    """The tile in ``cell`` (next to the blank) slides into the blank; the move is appended to ``out``."""
    blank = where[blank_home]
    home = values[cell]
    values[blank] = home
    where[home] = blank
    values[cell] = blank_home
    where[blank_home] = cell
    if n_out == out.shape[0]:
        out = _grow(out)
    out[n_out] = cell
    return out, n_out + 1


@njit
def _is_target(cell: int, targets: np.ndarray, n_targets: int) -> bool:
    for i in range(n_targets):  # noqa: SIM110 - numba compiles no generators
        if targets[i] == cell:
            return True
    return False


@njit
def _bfs_path(
    source: int,
    targets: np.ndarray,
    n_targets: int,
    avoid: int,
    fixed: np.ndarray,
    nbr: np.ndarray,
    mark: np.ndarray,
    parent: np.ndarray,
    queue: np.ndarray,
    stamps: np.ndarray,
    route: np.ndarray,
) -> int:
    """A shortest path over free cells from ``source`` to one of ``targets[:n_targets]`` not entering
    ``avoid``, breadth-first in neighbour order (the first target generated wins); its cells, ``source``
    excluded, go to ``route``; returns their count, or -1 when there is none."""
    if _is_target(source, targets, n_targets):
        return 0
    stamps[0] += 1
    stamp = stamps[0]
    mark[source] = stamp
    parent[source] = source
    head, tail = 0, 1
    queue[0] = source
    while head < tail:
        cell = queue[head]
        head += 1
        for k in range(4):
            nxt = nbr[cell * 4 + k]
            if nxt < 0:
                break
            if mark[nxt] == stamp or fixed[nxt] != 0 or nxt == avoid:
                continue
            mark[nxt] = stamp
            parent[nxt] = cell
            if _is_target(nxt, targets, n_targets):
                length = 0
                walk = nxt
                while walk != source:
                    route[length] = walk
                    length += 1
                    walk = parent[walk]
                for i in range(length // 2):
                    route[i], route[length - 1 - i] = route[length - 1 - i], route[i]
                return length
            queue[tail] = nxt
            tail += 1
    return -1


@njit
def _grow64(array: np.ndarray) -> np.ndarray:
    bigger = np.empty(array.shape[0] * 2 + 16, dtype=np.int64)
    bigger[: array.shape[0]] = array
    return bigger


@njit
def _heap_push(heap: np.ndarray, size: int, key: int) -> tuple[np.ndarray, int]:
    if size == heap.shape[0]:
        bigger = np.empty(heap.shape[0] * 2, dtype=np.int64)
        bigger[:size] = heap
        heap = bigger
    i = size
    heap[i] = key
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] <= heap[i]:
            break
        heap[up], heap[i] = heap[i], heap[up]
        i = up
    return heap, size + 1


@njit
def _heap_pop(heap: np.ndarray, size: int) -> int:
    """Remove the smallest key (the caller reads ``heap[0]`` first); returns the new size."""
    size -= 1
    heap[0] = heap[size]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        child = left
        if left + 1 < size and heap[left + 1] < heap[left]:
            child = left + 1
        if heap[i] <= heap[child]:
            break
        heap[i], heap[child] = heap[child], heap[i]
        i = child
    return size


@njit
def _taxicab(a: int, b: int, width: int) -> int:
    return abs(a // width - b // width) + abs(a % width - b % width)


@njit
def _beside(row: int, col: int, offset: int, width: int) -> tuple[int, int]:
    """Row and column of the neighbour ``cell + offset`` of the cell at (``row``, ``col``), ``offset`` one
    of ``-width``, ``width``, -1, 1 (no division: the kernels' walks call this for every step)."""
    if offset == -width:
        return row - 1, col
    if offset == width:
        return row + 1, col
    return row, col + offset


@njit
def _astar_distance(
    source: int,
    target: int,
    avoid: int,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    mark: np.ndarray,
    dist: np.ndarray,
    stamps: np.ndarray,
    heap: np.ndarray,
) -> tuple[int, np.ndarray]:
    """Blank moves from ``source`` to ``target`` over free cells not entering ``avoid`` (A* with the
    taxicab distance, deeper first on ties: about as many cells visited as the walk is long in open space);
    -1 when there is no walk."""
    if source == target:
        return 0, heap
    # The taxicab distance is consistent: each cell is expanded once and pushed at most once per neighbour
    # expanded, so 4 * n_cells + 1 entries always suffice. The heap is made that big before the loop, whose
    # body then neither calls a helper taking an array (_heap_pop and _heap_push are written out) nor
    # reassigns one: numba counts references to such arrays on every pass (an atomic incref and decref per
    # array), and this search (the blank's first approach to a far tile) made most of those counts, which
    # took over half the quick answer's time (perf and gdb on a 100×100).
    capacity = 4 * fixed.shape[0] + 1
    if heap.shape[0] < capacity:
        heap = np.empty(capacity, dtype=np.int64)
    stamps[0] += 1
    stamp = stamps[0]
    mark[source] = stamp
    dist[source] = 0
    heap[0] = (np.int64(_taxicab(source, target, width)) << 32) | (np.int64(G_LIMIT) << CELL_BITS) | source
    size = 1
    while size > 0:
        key = heap[0]
        size -= 1
        heap[0] = heap[size]
        i = 0
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and heap[child + 1] < heap[child]:
                child += 1
            if heap[i] <= heap[child]:
                break
            heap[i], heap[child] = heap[child], heap[i]
            i = child
        cell = np.int64(key & CELL_MASK)
        g = G_LIMIT - np.int64((key >> CELL_BITS) & CELL_MASK)
        if g > dist[cell]:
            continue
        if cell == target:
            return g, heap
        for k in range(4):
            nxt = nbr[cell * 4 + k]
            if nxt < 0:
                break
            if fixed[nxt] != 0 or nxt == avoid:
                continue
            ng = g + 1
            if mark[nxt] != stamp or ng < dist[nxt]:
                mark[nxt] = stamp
                dist[nxt] = ng
                f = ng + _taxicab(nxt, target, width)
                j = size
                heap[j] = (np.int64(f) << 32) | (np.int64(G_LIMIT - ng) << CELL_BITS) | nxt
                size += 1
                while j > 0:
                    up = (j - 1) >> 1
                    if heap[up] <= heap[j]:
                        break
                    heap[up], heap[j] = heap[j], heap[up]
                    j = up
    return -1, heap


@njit
def _first_sides(
    tile: int,
    blank: int,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    mark: np.ndarray,
    dist: np.ndarray,
    stamps: np.ndarray,
    heap: np.ndarray,
    found_cells: np.ndarray,
    found_dist: np.ndarray,
) -> tuple[int, np.ndarray]:
    """Blank moves from ``blank`` (far from ``tile``) to each free side of ``tile`` without crossing it, by
    one A* per side; their cells and distances, and the count (as :func:`_around` gives them)."""
    n_found = 0
    for k in range(4):
        c = nbr[tile * 4 + k]
        if c < 0:
            break
        if fixed[c] != 0:
            continue
        d, heap = _astar_distance(blank, c, tile, fixed, nbr, width, mark, dist, stamps, heap)
        if d >= 0:
            found_cells[n_found] = c
            found_dist[n_found] = d
            n_found += 1
    return n_found, heap


@njit
def _monotone_path(
    source: int,
    target: int,
    avoid: int,
    values: np.ndarray,
    fixed: np.ndarray,
    width: int,
    lam: int,
    dist: np.ndarray,
    parent: np.ndarray,
    route: np.ndarray,
) -> int:
    """The cheapest shortest walk (each step towards ``target``) from ``source`` to ``target``, weighed as
    in :func:`_weighted_path`, by one sweep over the box between the two (dynamic programming, no heap); its
    cells go to ``route``. Returns their count, or -1 when fixed cells or ``avoid`` block every such walk."""
    row0, col0 = source // width, source % width
    row1, col1 = target // width, target % width
    dr = 1 if row1 >= row0 else -1
    dc = 1 if col1 >= col0 else -1
    n_rows, n_cols = abs(row1 - row0) + 1, abs(col1 - col0) + 1
    for i in range(n_rows):
        row = row0 + i * dr
        for j in range(n_cols):
            col = col0 + j * dc
            cell = row * width + col
            if i == 0 and j == 0:
                dist[cell] = 0
                parent[cell] = cell
                continue
            dist[cell] = INFINITE
            if fixed[cell] != 0 or cell == avoid:
                continue
            home = values[cell]
            home_row, home_col = home // width, home % width
            here = abs(home_row - row) + abs(home_col - col)  # the tile's distance now; it moves back a cell
            if i > 0:
                before = cell - dr * width
                if dist[before] < INFINITE:
                    cost = (
                        dist[before] + SCALE + lam * (abs(home_row - row + dr) + abs(home_col - col) - here)
                    )
                    dist[cell] = cost
                    parent[cell] = before
            if j > 0:
                before = cell - dc
                if dist[before] < INFINITE:
                    cost = (
                        dist[before] + SCALE + lam * (abs(home_row - row) + abs(home_col - col + dc) - here)
                    )
                    if cost < dist[cell]:
                        dist[cell] = cost
                        parent[cell] = before
    if dist[target] >= INFINITE:
        return -1
    length = n_rows + n_cols - 2
    walk = target
    for i in range(length - 1, -1, -1):
        route[i] = walk
        walk = parent[walk]
    return length


@njit
def _weighted_path(
    source: int,
    targets: np.ndarray,
    n_targets: int,
    avoid: int,
    values: np.ndarray,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    lam: int,
    mark: np.ndarray,
    dist: np.ndarray,
    parent: np.ndarray,
    stamps: np.ndarray,
    route: np.ndarray,
    heap: np.ndarray,
    far_walk: int,
) -> tuple[int, np.ndarray]:
    """Like :func:`_bfs_path`, but cheapest for ``SCALE`` per step plus ``lam`` times the change in the
    Manhattan distance of each tile the walk shifts (every step moves the tile it enters back one cell)."""
    if _is_target(source, targets, n_targets):
        return 0, heap
    if 0 < far_walk < _taxicab(source, targets[0], width) and n_targets == 1:
        length = _monotone_path(source, targets[0], avoid, values, fixed, width, lam, dist, parent, route)
        if length >= 0:
            return length, heap
    # the walk stays within WALK_MARGIN cells of the box round the source and the targets
    row_lo, row_hi = source // width, source // width
    col_lo, col_hi = source % width, source % width
    for i in range(n_targets):
        row_lo = min(row_lo, targets[i] // width)
        row_hi = max(row_hi, targets[i] // width)
        col_lo = min(col_lo, targets[i] % width)
        col_hi = max(col_hi, targets[i] % width)
    row_lo -= WALK_MARGIN
    row_hi += WALK_MARGIN
    col_lo -= WALK_MARGIN
    col_hi += WALK_MARGIN
    # Step costs are positive: each cell is expanded once and entered at most once per neighbour expanded,
    # so 4 * n_cells + 1 entries (two slots each) always suffice; made that big before the loop, which then
    # reassigns no array (numba counts references to a reassigned array on every pass: atomic operations
    # that took much of the quick answer's time).
    capacity = 2 * (4 * fixed.shape[0] + 1)
    if heap.shape[0] < capacity:
        heap = np.empty(capacity, dtype=np.int64)
    stamps[0] += 1
    stamp = stamps[0]
    mark[source] = stamp
    dist[source] = 0
    parent[source] = source
    # Dial's bucket queue: step costs are SCALE ± lam < N_BUCKETS, so the pending distances span fewer
    # than N_BUCKETS values and a circular array of buckets holds them. Entry e: heap[2e] its cell,
    # heap[2e + 1] the next entry of its bucket (-1 ends); heads[d % N_BUCKETS] the bucket's first entry.
    heads = np.full(N_BUCKETS, -1, dtype=np.int64)
    heap[0], heap[1] = source, -1
    heads[0] = 0
    n_entries, pending, d = 1, 1, 0
    while pending > 0:
        bucket = d & BUCKET_MASK
        entry = heads[bucket]
        if entry < 0:
            d += 1
            continue
        heads[bucket] = heap[2 * entry + 1]
        pending -= 1
        cell = heap[2 * entry]
        if dist[cell] != d:  # reached more cheaply since this entry was made
            continue
        is_target = False
        for i in range(n_targets):  # _is_target, written out (no call, no reference counting, per cell)
            if targets[i] == cell:
                is_target = True
                break
        if is_target:
            length = 0
            walk = cell
            while walk != source:
                route[length] = walk
                length += 1
                walk = parent[walk]
            for i in range(length // 2):
                route[i], route[length - 1 - i] = route[length - 1 - i], route[i]
            return length, heap
        cell_row, cell_col = cell // width, cell % width
        for k in range(4):
            nxt = nbr[cell * 4 + k]
            if nxt < 0:
                break
            if fixed[nxt] != 0 or nxt == avoid:
                continue
            row, col = _beside(cell_row, cell_col, nxt - cell, width)  # no division: nxt is a neighbour
            if row < row_lo or row > row_hi or col < col_lo or col > col_hi:
                continue
            home = values[nxt]
            home_row, home_col = home // width, home % width
            # the tile in nxt moves to cell: -1 or +1 to its Manhattan distance
            delta = (
                abs(home_row - cell_row)
                + abs(home_col - cell_col)
                - abs(home_row - row)
                - abs(home_col - col)
            )
            nd = d + SCALE + lam * delta
            if mark[nxt] != stamp or nd < dist[nxt]:
                mark[nxt] = stamp
                dist[nxt] = nd
                parent[nxt] = cell
                heap[2 * n_entries] = nxt
                heap[2 * n_entries + 1] = heads[nd & BUCKET_MASK]
                heads[nd & BUCKET_MASK] = n_entries
                n_entries += 1
                pending += 1
    return -1, heap


@njit
def _blank_to(
    targets: np.ndarray,
    n_targets: int,
    avoid: int,
    values: np.ndarray,
    where: np.ndarray,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    blank_home: int,
    lam: int,
    scratch: np.ndarray,
    stamps: np.ndarray,
    heap: np.ndarray,
    out: np.ndarray,
    n_out: int,
    far_walk: int,
) -> tuple[np.ndarray, int, np.ndarray]:
    """Walk the blank to one of ``targets`` without entering fixed cells or ``avoid``; ``n_out`` is -1
    when no walk exists (a bug: the free cells stay 2-connected)."""
    mark, dist, parent, queue, route = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    blank = where[blank_home]
    if lam == 0:
        length = _bfs_path(blank, targets, n_targets, avoid, fixed, nbr, mark, parent, queue, stamps, route)
    else:
        length, heap = _weighted_path(
            blank,
            targets,
            n_targets,
            avoid,
            values,
            fixed,
            nbr,
            width,
            lam,
            mark,
            dist,
            parent,
            stamps,
            route,
            heap,
            far_walk,
        )
    if length < 0:
        return out, -1, heap
    while out.shape[0] < n_out + length:
        out = _grow(out)
    # _step, written out: a call per move passing arrays costs an incref and a decref per array (atomic)
    blank = where[blank_home]
    for i in range(length):
        cell = route[i]
        home = values[cell]
        values[blank] = home
        where[home] = blank
        values[cell] = blank_home
        where[blank_home] = cell
        out[n_out] = cell
        n_out += 1
        blank = cell
    return out, n_out, heap


@njit
def _open_ring(tile: int, side: int, fixed: np.ndarray, nbr: np.ndarray, width: int) -> bool:
    """Whether ``side`` is next to ``tile`` and the 8 cells round the tile are on the board and free."""
    if nbr[tile * 4 + 3] < 0 or nbr[tile * 4 + 2] < 0 or nbr[tile * 4 + 1] < 0 or nbr[tile * 4] < 0:
        return False  # fewer than 4 neighbours: on the edge (the padding is at the end)
    if abs(side - tile) != 1 and abs(side - tile) != width:
        return False
    for dr in (-width, 0, width):
        for dc in (-1, 0, 1):
            if (dr != 0 or dc != 0) and fixed[tile + dr + dc] != 0:
                return False
    return True


@njit
def _around(
    tile: int,
    side: int,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    mark: np.ndarray,
    dist: np.ndarray,
    queue: np.ndarray,
    stamps: np.ndarray,
    found_cells: np.ndarray,
    found_dist: np.ndarray,
    limit: int,
) -> int:
    """Blank moves from ``side`` to each other free neighbour of ``tile`` without crossing it (breadth-first,
    stopping once every side is reached, or past ``limit`` moves): their cells and distances in discovery
    order; returns the count."""
    if _open_ring(tile, side, fixed, nbr, width):
        # the 8 cells round the tile are free: a side at right angles is 2 moves away, the opposite one 4
        n_found = 0
        for k in range(4):
            c = nbr[tile * 4 + k]
            if c != side:
                found_cells[n_found] = c
                found_dist[n_found] = 4 if c - tile == tile - side else 2
                n_found += 1
        return n_found
    n_sides = 0
    for k in range(4):
        c = nbr[tile * 4 + k]
        if c < 0:
            break
        if fixed[c] == 0 and c != side:
            n_sides += 1
    stamps[0] += 1
    stamp = stamps[0]
    mark[side] = stamp
    dist[side] = 0
    head, tail = 0, 1
    queue[0] = side
    n_found = 0
    while head < tail and n_found < n_sides:
        cell = queue[head]
        head += 1
        if dist[cell] >= limit:
            break
        for k in range(4):
            nxt = nbr[cell * 4 + k]
            if nxt < 0:
                break
            if mark[nxt] == stamp or fixed[nxt] != 0 or nxt == tile:
                continue
            mark[nxt] = stamp
            dist[nxt] = dist[cell] + 1
            for j in range(4):
                if nbr[tile * 4 + j] == nxt:  # nxt is free, not side: one of the sides
                    found_cells[n_found] = nxt
                    found_dist[n_found] = dist[nxt]
                    n_found += 1
                    break
            queue[tail] = nxt
            tail += 1
    return n_found


@njit
def _side_index(tile: int, side: int, nbr: np.ndarray) -> int:
    for k in range(4):
        if nbr[tile * 4 + k] == side:
            return tile * 4 + k
    return -1


@njit
def _estimate(cell: int, target: int, width: int, lam: int) -> int:
    m = _taxicab(cell, target, width)
    per_cell = PUSH_ESTIMATE if lam == 0 else PUSH_ESTIMATE_WEIGHTED
    return per_cell * m - 2 if m > 0 else 0


@njit
def _route(
    home: int,
    target: int,
    where: np.ndarray,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    blank_home: int,
    scratch: np.ndarray,
    rscratch: np.ndarray,
    stamps: np.ndarray,
    heap: np.ndarray,
    route: np.ndarray,
    around_limit: int,
    lam: int,
    far_walk: int,
) -> tuple[int, np.ndarray]:
    """The cells the tile whose home is ``home`` walks through to ``target``, cheapest in blank moves: A*
    over (tile cell, blank cell beside it), as in :meth:`npuzzle.search.constructive._Work.route`.
    Returns their count (``NO_ROUTE`` when there is none) and the heap (possibly grown). A move of the
    blank round the tile longer than ``around_limit`` is not considered (that keeps every step of the search
    local on a big board; the first walk, from wherever the blank is, is not limited)."""
    n_cells = where.shape[0]
    mark, dist, queue = scratch[0], scratch[1], scratch[3]
    rmark, rbest, rparent = rscratch[0], rscratch[1], rscratch[2]
    start = where[home]
    if start == target:
        return 0, heap
    blank = where[blank_home]
    found_cells = np.empty(4, dtype=np.int64)
    found_dist = np.empty(4, dtype=np.int64)
    stamps[1] += 1
    rstamp = stamps[1]
    size = 0
    if 0 < far_walk < _taxicab(start, blank, width):
        n_first, heap = _first_sides(
            start, blank, fixed, nbr, width, mark, dist, stamps, heap, found_cells, found_dist
        )
    else:
        n_first = _around(
            start, blank, fixed, nbr, width, mark, dist, queue, stamps, found_cells, found_dist, n_cells
        )
    for i in range(n_first + 1):
        if i < n_first:
            side, cost = found_cells[i], found_dist[i]
        else:
            if _side_index(start, blank, nbr) < 0:
                continue
            side, cost = blank, 0
        index = _side_index(start, side, nbr)
        if rmark[index] == rstamp and rbest[index] <= cost:
            continue
        rmark[index] = rstamp
        rbest[index] = cost
        rparent[index] = -1
        key = (np.int64(cost + _estimate(start, target, width, lam)) << F_SHIFT) | (
            np.int64(cost) << COST_SHIFT
        )
        heap, size = _heap_push(heap, size, key | (np.int64(start) << CELL_BITS) | side)
    # The search loop calls no helper that takes an array but _around (each such call costs an atomic
    # incref and decref per array): _heap_pop, _side_index and _heap_push written out.
    while size > 0:
        key = heap[0]
        size -= 1
        heap[0] = heap[size]
        i = 0
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and heap[child + 1] < heap[child]:
                child += 1
            if heap[i] <= heap[child]:
                break
            heap[i], heap[child] = heap[child], heap[i]
            i = child
        side = np.int64(key & CELL_MASK)
        tile = np.int64((key >> CELL_BITS) & CELL_MASK)
        cost = np.int64((key >> COST_SHIFT) & COST_MASK)
        index = -1
        for k in range(4):
            if nbr[tile * 4 + k] == side:
                index = tile * 4 + k
                break
        if cost > rbest[index]:
            continue
        if tile == target:
            length = 0
            last = -1
            walk = index
            while walk >= 0:
                cell = walk // 4
                if cell != last:
                    route[length] = cell
                    length += 1
                    last = cell
                walk = rparent[walk]
            # route holds target ... start (repeats dropped); reverse, then drop the start
            for i in range(length // 2):
                route[i], route[length - 1 - i] = route[length - 1 - i], route[i]
            for i in range(length - 1):
                route[i] = route[i + 1]
            return length - 1, heap
        n_found = _around(
            tile, side, fixed, nbr, width, mark, dist, queue, stamps, found_cells, found_dist, around_limit
        )
        for i in range(n_found + 1):
            if i == 0:
                new_tile, new_side, new_cost = side, tile, cost + 1
            else:
                new_tile, new_side, new_cost = tile, found_cells[i - 1], cost + found_dist[i - 1]
            new_index = -1
            for k in range(4):
                if nbr[new_tile * 4 + k] == new_side:
                    new_index = new_tile * 4 + k
                    break
            if rmark[new_index] == rstamp and rbest[new_index] <= new_cost:
                continue
            rmark[new_index] = rstamp
            rbest[new_index] = new_cost
            rparent[new_index] = index
            f = new_cost + _estimate(new_tile, target, width, lam)
            key = (np.int64(f) << F_SHIFT) | (np.int64(new_cost) << COST_SHIFT)
            if size == heap.shape[0]:
                heap = _grow64(heap)
            j = size
            heap[j] = key | (np.int64(new_tile) << CELL_BITS) | new_side
            size += 1
            while j > 0:
                up = (j - 1) >> 1
                if heap[up] <= heap[j]:
                    break
                heap[up], heap[j] = heap[j], heap[up]
                j = up
    return NO_ROUTE, heap


@njit
def _tile_to(
    home: int,
    target: int,
    values: np.ndarray,
    where: np.ndarray,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    blank_home: int,
    lam: int,
    scratch: np.ndarray,
    rscratch: np.ndarray,
    stamps: np.ndarray,
    heap: np.ndarray,
    out: np.ndarray,
    n_out: int,
    around_limit: int,
    far_walk: int,
) -> tuple[np.ndarray, int, np.ndarray]:
    """Bring the tile whose home is ``home`` to ``target`` along :func:`_route`; ``n_out`` -1 on failure."""
    route = scratch[5]
    length, heap = _route(
        home,
        target,
        where,
        fixed,
        nbr,
        width,
        blank_home,
        scratch,
        rscratch,
        stamps,
        heap,
        route,
        around_limit,
        lam,
        far_walk,
    )
    if length < 0:
        return out, -1, heap
    steps = route[:length].copy()  # scratch[5] is reused by the blank walks below
    one = np.empty(1, dtype=np.int32)
    for i in range(length):
        tile_cell = where[home]
        one[0] = steps[i]
        out, n_out, heap = _blank_to(
            one,
            1,
            tile_cell,
            values,
            where,
            fixed,
            nbr,
            width,
            blank_home,
            lam,
            scratch,
            stamps,
            heap,
            out,
            n_out,
            far_walk,
        )
        if n_out < 0:
            return out, -1, heap
        out, n_out = _step(values, where, blank_home, tile_cell, out, n_out)
    return out, n_out, heap


@njit
def _local(window: np.ndarray, cell: int) -> int:
    """The index of ``cell`` in ``window``, -1 when outside."""
    for i in range(WINDOW_CELLS):
        if window[i] == cell:
            return i
    return -1


@njit
def _window_finish(
    a: int,
    b: int,
    window: np.ndarray,
    values: np.ndarray,
    where: np.ndarray,
    nbr: np.ndarray,
    blank_home: int,
    out: np.ndarray,
    n_out: int,
) -> tuple[np.ndarray, int]:
    """Bring tiles ``a`` and ``b`` home by blank moves inside ``window`` (6 cells holding both and the
    blank): breadth-first over (cell of a, cell of b, cell of the blank), as local indices 0..5."""
    n_states = WINDOW_CELLS * WINDOW_CELLS * WINDOW_CELLS
    parent = np.full(n_states, -1, dtype=np.int64)
    via = np.zeros(n_states, dtype=np.int64)
    queue = np.empty(n_states, dtype=np.int64)

    start = (_local(window, where[a]) * WINDOW_CELLS + _local(window, where[b])) * WINDOW_CELLS + _local(
        window, where[blank_home]
    )
    goal_a, goal_b = _local(window, a), _local(window, b)
    parent[start] = start
    head, tail = 0, 1
    queue[0] = start
    while head < tail:
        state = queue[head]
        head += 1
        at_a = state // (WINDOW_CELLS * WINDOW_CELLS)
        at_b = (state // WINDOW_CELLS) % WINDOW_CELLS
        blank = state % WINDOW_CELLS
        if at_a == goal_a and at_b == goal_b:
            length = 0
            walk = state
            while walk != start:
                queue[length] = via[walk]  # the queue is done with; reuse it for the moves (reversed)
                length += 1
                walk = parent[walk]
            for i in range(length - 1, -1, -1):
                out, n_out = _step(values, where, blank_home, window[queue[i]], out, n_out)
            return out, n_out
        for k in range(4):
            cell = nbr[window[blank] * 4 + k]
            if cell < 0:
                break
            j = _local(window, cell)
            if j < 0:
                continue
            na = blank if at_a == j else at_a
            nb = blank if at_b == j else at_b
            nxt = (na * WINDOW_CELLS + nb) * WINDOW_CELLS + j
            if parent[nxt] < 0:
                parent[nxt] = state
                via[nxt] = j
                queue[tail] = nxt
                tail += 1
    return out, -1


@njit
def fill_line(
    values: np.ndarray,
    where: np.ndarray,
    fixed: np.ndarray,
    nbr: np.ndarray,
    width: int,
    blank_home: int,
    line: np.ndarray,
    inward: int,
    lam: int,
    scratch: np.ndarray,
    rscratch: np.ndarray,
    stamps: np.ndarray,
    out: np.ndarray,
    n_out: int,
    around_limit: int,
    far_walk: int,
) -> tuple[np.ndarray, int]:
    """Bring home the tiles of ``line`` (cells in filling order; a line's cells are its tiles' homes) and
    fix them; ``inward`` is the offset from a line cell to its neighbour inside the region (at least 3
    deep). Returns ``out`` and the new count, -1 if a step had no way (a bug, never bad input).
    ``around_limit`` bounds the blank's moves round a tile that the route search considers (see
    :func:`_route`; ``n_cells`` for none)."""
    heap = np.empty(64, dtype=np.int64)
    one = np.empty(1, dtype=np.int32)
    length = line.shape[0]
    for i in range(length - 2):
        cell = line[i]
        out, n_out, heap = _tile_to(
            cell,
            cell,
            values,
            where,
            fixed,
            nbr,
            width,
            blank_home,
            lam,
            scratch,
            rscratch,
            stamps,
            heap,
            out,
            n_out,
            around_limit,
            far_walk,
        )
        if n_out < 0:
            return out, -1
        fixed[cell] = 1
    a, b = line[length - 2], line[length - 1]
    if where[a] != a or where[b] != b:
        out, n_out, heap = _tile_to(
            a,
            b,
            values,
            where,
            fixed,
            nbr,
            width,
            blank_home,
            lam,
            scratch,
            rscratch,
            stamps,
            heap,
            out,
            n_out,
            around_limit,
            far_walk,
        )
        if n_out < 0:
            return out, -1
        window = np.empty(WINDOW_CELLS, dtype=np.int32)
        for k in range(WINDOW_DEPTH):
            window[2 * k] = a + k * inward
            window[2 * k + 1] = b + k * inward
        if _is_target(where[b], window, WINDOW_CELLS):
            fixed[b] = 1  # tile a, while the blank comes into the window
            out, n_out, heap = _blank_to(
                window,
                WINDOW_CELLS,
                where[b],
                values,
                where,
                fixed,
                nbr,
                width,
                blank_home,
                lam,
                scratch,
                stamps,
                heap,
                out,
                n_out,
                far_walk,
            )
            fixed[b] = 0
            if n_out < 0:
                return out, -1
            out, n_out = _window_finish(a, b, window, values, where, nbr, blank_home, out, n_out)
            if n_out < 0:
                return out, -1
        else:
            fixed[b] = 1
            out, n_out, heap = _tile_to(
                b,
                b + inward,
                values,
                where,
                fixed,
                nbr,
                width,
                blank_home,
                lam,
                scratch,
                rscratch,
                stamps,
                heap,
                out,
                n_out,
                around_limit,
                far_walk,
            )
            if n_out < 0:
                return out, -1
            fixed[b + inward] = 1
            one[0] = a
            out, n_out, heap = _blank_to(
                one,
                1,
                -1,
                values,
                where,
                fixed,
                nbr,
                width,
                blank_home,
                lam,
                scratch,
                stamps,
                heap,
                out,
                n_out,
                far_walk,
            )
            if n_out < 0:
                return out, -1
            fixed[b] = 0
            fixed[b + inward] = 0
            out, n_out = _step(values, where, blank_home, b, out, n_out)
            out, n_out = _step(values, where, blank_home, b + inward, out, n_out)
    fixed[a] = 1
    fixed[b] = 1
    return out, n_out


@njit
def block_idastar(local: np.ndarray, width: int, height: int, blank_home: int, moves: np.ndarray) -> int:
    """An optimal solution of a small board (the last block of a reduction, at most ``BLOCK_CELLS`` cells)
    by IDA* with the Manhattan distance, on an explicit stack. ``local`` (``int64[width * height]``,
    canonical: the home cell of the tile in each cell, ``blank_home`` for the blank; restored on return);
    the cells the blank moves to go to ``moves`` (at least ``BLOCK_DEPTH`` long). Returns their count."""
    n = width * height
    blank = 0
    h = 0
    for cell in range(n):
        if local[cell] == blank_home:
            blank = cell
        else:
            h += _taxicab(local[cell], cell, width)
    if h == 0:
        return 0
    blanks = np.empty(BLOCK_DEPTH + 1, dtype=np.int64)
    dirs = np.zeros(BLOCK_DEPTH + 1, dtype=np.int64)
    hs = np.empty(BLOCK_DEPTH + 1, dtype=np.int64)
    blanks[0] = blank
    hs[0] = h
    bound = h
    while bound <= BLOCK_DEPTH:
        next_bound = INFINITE
        depth = 0
        dirs[0] = 0
        while depth >= 0:
            if dirs[depth] == 4:  # every direction tried: take back the move into this depth
                if depth > 0:
                    local[blanks[depth]] = local[blanks[depth - 1]]
                    local[blanks[depth - 1]] = blank_home
                depth -= 1
                continue
            d = dirs[depth]
            dirs[depth] += 1
            b = blanks[depth]
            row, col = b // width, b % width
            if d == 0:
                if row == 0:
                    continue
                nb = b - width
            elif d == 1:
                if row == height - 1:
                    continue
                nb = b + width
            elif d == 2:
                if col == 0:
                    continue
                nb = b - 1
            else:
                if col == width - 1:
                    continue
                nb = b + 1
            if depth > 0 and nb == blanks[depth - 1]:
                continue
            home = local[nb]
            hh = hs[depth] + _taxicab(home, b, width) - _taxicab(home, nb, width)
            if depth + 1 + hh > bound:
                next_bound = min(next_bound, depth + 1 + hh)
                continue
            local[b] = home
            local[nb] = blank_home
            depth += 1
            blanks[depth] = nb
            dirs[depth] = 0
            hs[depth] = hh
            if hh == 0:
                for i in range(depth):
                    moves[i] = blanks[i + 1]
                for i in range(depth, 0, -1):  # restore ``local``
                    local[blanks[i]] = local[blanks[i - 1]]
                    local[blanks[i - 1]] = blank_home
                return depth
        bound = next_bound
    return -1


@njit
def finish_block(
    values: np.ndarray,
    where: np.ndarray,
    cells: np.ndarray,
    width: int,
    height: int,
    blank_home: int,
    out: np.ndarray,
    n_out: int,
) -> tuple[np.ndarray, int]:
    """Solve the last block optimally (:func:`block_idastar`): ``cells`` are its cells row by row
    (``width`` × ``height`` of them, every tile there has its home there). Returns ``out`` and the new count
    (-1 if the block could not be solved: a bug)."""
    n = cells.shape[0]
    local = np.empty(n, dtype=np.int64)
    local_blank = -1
    for i in range(n):
        home = values[cells[i]]
        for j in range(n):
            if cells[j] == home:
                local[i] = j
        if cells[i] == blank_home:
            local_blank = i
    moves = np.empty(BLOCK_DEPTH, dtype=np.int64)
    length = block_idastar(local, width, height, local_blank, moves)
    if length < 0:
        return out, -1
    for i in range(length):
        out, n_out = _step(values, where, blank_home, cells[moves[i]], out, n_out)
    return out, n_out


@njit
def cancel_inverses(start_blank: int, cells: np.ndarray, n_cells: int) -> tuple[np.ndarray, int]:
    """``cells[:n_cells]`` without the moves undone at once by the next one (cascading), as
    :func:`npuzzle.search.constructive.cancel_inverses`; returns a new array and its count."""
    trail = np.empty(n_cells + 1, dtype=np.int32)
    trail[0] = start_blank
    size = 1
    for i in range(n_cells):
        cell = cells[i]
        if size >= 2 and trail[size - 2] == cell:
            size -= 1
        else:
            trail[size] = cell
            size += 1
    return trail[1:size].copy(), size - 1


@njit
def moved_labels(
    values: np.ndarray, blank_home: int, cells: np.ndarray, goal_tiles: np.ndarray
) -> np.ndarray:
    """The goal labels of the tiles that slide (single-tile moves: each cell is next to the blank), replaying
    ``cells`` on a copy of ``values``: ``goal_tiles[home]`` is the user's label of the tile at home ``home``."""
    state = values.copy()
    blank = 0
    for cell in range(state.shape[0]):
        if state[cell] == blank_home:
            blank = cell
    labels = np.empty(cells.shape[0], dtype=np.int64)
    for i in range(cells.shape[0]):
        cell = cells[i]
        labels[i] = goal_tiles[state[cell]]
        state[blank] = state[cell]
        state[cell] = blank_home
        blank = cell
    return labels


__all__ = ["block_idastar", "cancel_inverses", "fill_line", "finish_block", "moved_labels", "neighbour_table"]
