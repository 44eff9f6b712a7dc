"""IDA* with an additive pattern-database heuristic, resumable in node-budget chunks.

State (canonical, see the package docstring): ``state`` int8 (n_cells,), ``state[cell]`` = home of the tile
there, the blank is ``blank_home``; ``pos`` int8 (n_cells,), ``pos[home]`` = cell of that tile, the inverse.

Heuristic: ``sum over groups g of table[offsets[g] + rank of g's placement]`` (all groups' tables in one
uint8 array, as stored on disk). A move changes one tile, so only its
group is looked up again. With ``reflect`` the state is also read reflected about a diagonal
(``tmap[cell]`` = reflected cell; the tile with home ``x`` at cell ``c`` reads as the tile with home
``tmap[x]`` at ``tmap[c]``) and the heuristic is the max of the two sums. Both are admissible because the
reflected problem has the same distance (the goal's blank lies on that diagonal, checked by the caller).

The search stack lives in caller-owned arrays, so the kernel can stop after ``budget`` generated nodes and
be called again to resume exactly where it stopped (Python checks time and node limits in between):

* ``blank_cells`` int16 (max_depth + 2,): blank cell at each depth; ``blank_cells[1..depth]`` is the path
  (the cells the blank moved to = the cells of the tiles that slid);
* ``next_dir`` int8 (max_depth + 2,): next direction (0..3, index into ``neighbours``) to try at each depth;
* ``saved`` int16 (max_depth + 2, 6): the normal and mirrored values of the moved tile's groups before
  the move into that depth (restored on the way back), then the children's values read ahead (see
  :func:`read_ahead`);
* ``hg``/``hm`` int16 (n_groups,): current normal / mirrored value of every group;
* ``regs`` int64 (8,): see the ``R_*`` constants.

The previous move is never undone (the blank never returns to the cell it just left). The tables take the
minimum over blank positions, so the heuristic is not consistent: a child can be far above its parent. Such a
child proves ``h(parent) >= h(child) - 1`` (bidirectional pathmax, BPMX); when that lifts the parent's ``f``
above the bound, the parent's remaining children are skipped.
"""

from __future__ import annotations

import numba
import numpy as np

from ._jit import njit, njit_parallel
from .intrinsics import popcount

R_DEPTH = 0  # current depth
R_BOUND = 1  # f bound of this iteration
R_NEXT_BOUND = 2  # smallest f above the bound seen so far (the next iteration's bound)
R_NODES = 3  # nodes generated, all calls of all iterations
R_HSUM = 4  # current normal sum
R_MSUM = 5  # current mirrored sum
R_EXPANDED = 6  # nodes pushed onto the stack (expanded)

RUNNING = 0  # budget spent, call again
FOUND = 1  # goal reached: the path is blank_cells[1..regs[R_DEPTH]]
EXHAUSTED = 2  # no goal within the bound; regs[R_NEXT_BOUND] is the next bound

NO_BOUND = 1 << 30


@njit
def group_rank(
    pos: np.ndarray,
    group_tiles: np.ndarray,
    g: int,
    k: int,
    n_cells: int,
    tmap: np.ndarray,
    mirrored: bool,
    base: int = 0,
) -> int:
    """Rank of group ``g``'s placement (its homes ``group_tiles[g, :k]``; cells in ``pos[base:base + n_cells]``,
    at most 64), normal or mirrored. The group is read from the 2-D array in place: a row view would cost two
    reference-count updates per lookup."""
    rank = 0
    used = np.int64(0)
    for i in range(k):
        home = np.int64(group_tiles[g, i])
        c = np.int64(tmap[pos[base + tmap[home]]]) if mirrored else np.int64(pos[base + home])
        rank = rank * (n_cells - i) + c - popcount(used & ((np.int64(1) << c) - 1))
        used |= np.int64(1) << c
    return rank


@njit
def group_index(
    pos: np.ndarray,
    offsets: np.ndarray,
    g: int,
    group_tiles: np.ndarray,
    group_size: np.ndarray,
    n_cells: int,
    tmap: np.ndarray,
    mirrored: bool,
    base: int = 0,
) -> int:
    """Where group ``g``'s entry (normal or mirrored) for the placement in ``pos[base:base + n_cells]`` is in
    the compact table."""
    return offsets[g] + group_rank(pos, group_tiles, g, group_size[g], n_cells, tmap, mirrored, base)


@njit
def lookup(
    pos: np.ndarray,
    table: np.ndarray,
    offsets: np.ndarray,
    g: int,
    group_tiles: np.ndarray,
    group_size: np.ndarray,
    n_cells: int,
    tmap: np.ndarray,
    mirrored: bool,
) -> int:
    """Value of group ``g`` (normal or mirrored) for the placement in ``pos``."""
    return np.int64(table[group_index(pos, offsets, g, group_tiles, group_size, n_cells, tmap, mirrored)])


@njit
def initial_values(
    pos: np.ndarray,
    table: np.ndarray,
    offsets: np.ndarray,
    group_tiles: np.ndarray,
    group_size: np.ndarray,
    n_cells: int,
    tmap: np.ndarray,
    reflect: bool,
    hg: np.ndarray,
    hm: np.ndarray,
) -> tuple[int, int]:
    """Fill ``hg``/``hm`` for the position in ``pos``; returns ``(normal sum, mirrored sum)``."""
    total = 0
    mtotal = 0
    for g in range(group_size.shape[0]):
        hg[g] = lookup(pos, table, offsets, g, group_tiles, group_size, n_cells, tmap, False)
        total += hg[g]
        if reflect:
            hm[g] = lookup(pos, table, offsets, g, group_tiles, group_size, n_cells, tmap, True)
            mtotal += hm[g]
    return total, mtotal


@njit
def sparse_index(
    pos: np.ndarray, tiles: np.ndarray, k: int, n_cells: int, tmap: np.ndarray, mirrored: bool
) -> int:
    """Sparse (mixed-radix) index of a group's placement: ``sum of cell[i] * n_cells ** (k - 1 - i)``."""
    index = 0
    for i in range(k):
        c = np.int64(tmap[pos[tmap[tiles[i]]]]) if mirrored else np.int64(pos[tiles[i]])
        index = index * n_cells + c
    return index


@njit
def fill_sparse_block(values: np.ndarray, n_cells: int, k: int, first: int, out: np.ndarray) -> None:
    """Spread the placements whose first tile stands on cell ``first`` (see :func:`fill_sparse`).

    Placements are visited in lexicographic order of their cells, which is rank order (a digit grows with
    its cell), so the rank is a counter and the writes move forward through ``out``.
    """
    if k == 1:
        out[first] = values[first]
        return
    block = values.shape[0] // n_cells  # placements per first cell: (n_cells - 1)! / (n_cells - k)!
    rank = first * block
    cells = np.full(k, -1, np.int64)  # the cell chosen at each level, -1 before the first
    prefix = np.zeros(k + 1, np.int64)  # prefix[i]: sparse index of cells[0:i]
    taken = np.zeros(n_cells, np.bool_)
    cells[0] = first
    taken[first] = True
    prefix[1] = first
    level = 1
    while level >= 1:
        c = cells[level]
        if c >= 0:
            taken[c] = False
        c += 1
        while c < n_cells and taken[c]:
            c += 1
        if c == n_cells:
            cells[level] = -1
            level -= 1
            continue
        cells[level] = c
        prefix[level + 1] = prefix[level] * n_cells + c
        if level == k - 1:
            out[prefix[k]] = values[rank]
            rank += 1
        else:
            taken[c] = True
            level += 1


@njit_parallel
def fill_sparse(values: np.ndarray, n_cells: int, k: int, out: np.ndarray) -> None:
    """Spread a compact table into sparse order: ``out[sparse index of p] = values[rank of p]``.

    ``values`` uint8 (n_cells! / (n_cells - k)!,) ranked as in :mod:`npuzzle._kernels.pdb_build`; ``out``
    uint8 (n_cells ** k,), left as it is where a cell repeats (never read). Each thread spreads the
    placements of whole first cells, so the threads write disjoint parts of ``out``.
    """
    for first in numba.prange(n_cells):
        fill_sparse_block(values, n_cells, k, first, out)


@njit
def initial_indices(
    pos: np.ndarray,
    group_tiles: np.ndarray,
    group_size: np.ndarray,
    n_cells: int,
    tmap: np.ndarray,
    idx: np.ndarray,
    midx: np.ndarray,
) -> None:
    """Fill ``idx``/``midx`` int64 (n_groups,) with every group's normal / mirrored sparse index."""
    for g in range(group_size.shape[0]):
        idx[g] = sparse_index(pos, group_tiles[g], group_size[g], n_cells, tmap, False)
        midx[g] = sparse_index(pos, group_tiles[g], group_size[g], n_cells, tmap, True)


@njit
def read_ahead(
    state: np.ndarray,
    neighbours: np.ndarray,
    blank: int,
    previous: int,
    group_of: np.ndarray,
    sparse: np.ndarray,
    sparse_offsets: np.ndarray,
    stride: np.ndarray,
    idx: np.ndarray,
    saved: np.ndarray,
    depth: int,
) -> None:
    """Look up every child's normal value of a node at once (independent loads overlap their cache misses).

    ``saved[depth, 2 + direction]`` int16 = the new value of the moved tile's group for the child in that
    direction, or ``-1`` (off the board, back to ``previous``, or a compact group: looked up when the child is
    made). (``saved`` and ``depth`` rather than a row: a row view would cost two reference-count updates.)
    """
    for di in range(4):
        u = np.int64(neighbours[blank, di])
        v = -1
        if u >= 0 and u != previous:
            home = state[u]
            g = group_of[home]
            if sparse_offsets[g] >= 0:
                v = np.int64(sparse[sparse_offsets[g] + idx[g] + (blank - u) * stride[home]])
        saved[depth, 2 + di] = v


@njit
def search(
    state: np.ndarray,
    pos: np.ndarray,
    blank_home: int,
    neighbours: np.ndarray,
    table: np.ndarray,
    offsets: np.ndarray,
    sparse: np.ndarray,
    sparse_offsets: np.ndarray,
    stride: np.ndarray,
    group_of: np.ndarray,
    group_tiles: np.ndarray,
    group_size: np.ndarray,
    tmap: np.ndarray,
    reflect: bool,
    blank_cells: np.ndarray,
    next_dir: np.ndarray,
    saved: np.ndarray,
    hg: np.ndarray,
    hm: np.ndarray,
    idx: np.ndarray,
    midx: np.ndarray,
    regs: np.ndarray,
    budget: int,
) -> int:
    """Run (or resume) one IDA* iteration for at most ``budget`` generated nodes; returns a status.

    ``table`` uint8: every group's compact values, group ``g`` from ``offsets[g]`` (int64 (n_groups,)).
    ``sparse`` uint8: the groups small enough for sparse order (see :func:`fill_sparse`), group ``g`` from
    ``sparse_offsets[g]`` (int64 (n_groups,), ``-1`` for a group read from ``table``). ``idx``/``midx``
    int64 (n_groups,): every group's normal / mirrored sparse index (:func:`initial_indices`), kept up to date
    with one add per move: ``stride`` int64 (n_cells,) = ``n_cells ** (k - 1 - i)`` for the ``i``-th home of
    a ``k``-tile group. ``group_of`` int8 (n_cells,): group of each home (``-1`` for ``blank_home``).
    ``group_tiles`` int8 (n_groups, kmax): homes of each group in pattern order; ``group_size`` int64
    (n_groups,). ``neighbours`` int8 (n_cells, 4), ``-1`` off the board. Before the first call of an
    iteration the caller sets ``regs[R_DEPTH] = 0``, ``next_dir[0] = 0``, ``blank_cells[0]`` = blank cell,
    the bound, and ``regs[R_NEXT_BOUND] = NO_BOUND``; ``hg``/``hm``/``R_HSUM``/``R_MSUM`` from
    :func:`initial_values`.
    """
    n_cells = state.shape[0]
    max_depth = blank_cells.shape[0] - 2
    depth = regs[R_DEPTH]
    bound = regs[R_BOUND]
    next_bound = regs[R_NEXT_BOUND]
    hsum = regs[R_HSUM]
    msum = regs[R_MSUM]
    generated = 0
    expanded = 0
    status = RUNNING
    if depth == 0 and next_dir[0] == 0:  # a fresh iteration: read the root's children ahead
        read_ahead(
            state, neighbours, blank_cells[0], -1, group_of, sparse, sparse_offsets, stride, idx, saved, 0
        )
    while generated < budget:
        d = depth
        di = next_dir[d]
        if di >= 4:
            if d == 0:
                status = EXHAUSTED
                break
            # back up: the tile standing on blank_cells[d - 1] returns to blank_cells[d]
            b = np.int64(blank_cells[d])
            t = np.int64(blank_cells[d - 1])
            home = np.int64(state[t])
            state[b] = home
            state[t] = blank_home
            pos[home] = b
            pos[blank_home] = t
            g = group_of[home]
            idx[g] += (b - t) * stride[home]
            hsum += saved[d, 0] - hg[g]
            hg[g] = saved[d, 0]
            if reflect:
                mh = tmap[home]
                gm = group_of[mh]
                midx[gm] += (np.int64(tmap[b]) - np.int64(tmap[t])) * stride[mh]
                msum += saved[d, 1] - hm[gm]
                hm[gm] = saved[d, 1]
            depth = d - 1
            continue
        next_dir[d] = di + 1
        b = np.int64(blank_cells[d])
        t = np.int64(neighbours[b, di])
        if t < 0 or (d > 0 and t == blank_cells[d - 1]) or d >= max_depth:
            continue
        # the tile on t would slide into the blank on b; the state changes only if the child is kept
        home = np.int64(state[t])
        generated += 1
        g = group_of[home]
        nidx = idx[g] + (b - t) * stride[home]
        old = np.int64(hg[g])
        new = np.int64(saved[d, 2 + di])  # read ahead when d was entered (sparse groups)
        if new < 0:
            pos[home] = b
            new = lookup(pos, table, offsets, g, group_tiles, group_size, n_cells, tmap, False)
            pos[home] = t
        f = d + 1 + hsum + new - old
        if f > bound:
            # pruned on the normal sum alone: the mirrored lookup is not needed
            if f - 2 > bound:
                # BPMX: h(parent) >= h(child) - 1, so the parent's f is at least f - 2 > bound: skip the
                # remaining siblings
                f -= 2
                next_dir[d] = 4
            if f < next_bound:
                next_bound = f
            continue
        h = hsum + new - old
        mold = 0
        if reflect:
            mh = tmap[home]
            gm = group_of[mh]
            mnidx = midx[gm] + (np.int64(tmap[b]) - np.int64(tmap[t])) * stride[mh]
            mold = np.int64(hm[gm])
            if sparse_offsets[gm] >= 0:
                mnew = np.int64(sparse[sparse_offsets[gm] + mnidx])
            else:
                pos[home] = b
                mnew = lookup(pos, table, offsets, gm, group_tiles, group_size, n_cells, tmap, True)
                pos[home] = t
            if msum + mnew - mold > h:
                h = msum + mnew - mold
            f = d + 1 + h
            if f > bound:
                if f - 2 > bound:  # BPMX, as above
                    f -= 2
                    next_dir[d] = 4
                if f < next_bound:
                    next_bound = f
                continue
            msum += mnew - mold
            hm[gm] = mnew
            midx[gm] = mnidx
        state[b] = home
        state[t] = blank_home
        pos[home] = b
        pos[blank_home] = t
        hsum += new - old
        hg[g] = new
        idx[g] = nidx
        depth = d + 1
        blank_cells[depth] = t
        if h == 0:
            status = FOUND
            break
        expanded += 1
        next_dir[depth] = 0
        saved[depth, 0] = old
        saved[depth, 1] = mold
        read_ahead(state, neighbours, t, b, group_of, sparse, sparse_offsets, stride, idx, saved, depth)
    regs[R_DEPTH] = depth
    regs[R_NEXT_BOUND] = next_bound
    regs[R_HSUM] = hsum
    regs[R_MSUM] = msum
    regs[R_NODES] += generated
    regs[R_EXPANDED] += expanded
    return status
