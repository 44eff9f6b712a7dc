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
* ``next_dir`` int8 (max_depth + 2,): next of those children to enter at each depth;
* ``saved`` int16 (max_depth + 2, 2): the normal and mirrored values of the moved tile's groups before
  the move into that depth (restored on the way back);
* ``kids`` int8 (max_depth + 2, 5), ``kid_values`` int16 (max_depth + 2, 4, 3): the children of each node on
  the path that are within the bound, lowest ``h`` first, with their values (see :func:`search`);
* ``hg``/``hm`` int16 (n_groups,): current normal / mirrored value of every group;
* ``regs`` int64 (8,): see the ``R_*`` constants.

The previous move is never undone (the blank never returns to the cell it just left). A node's children are
all evaluated when it is entered and searched lowest ``h`` first. The tables take the minimum over blank
positions, so the heuristic is not consistent: a child can be far above its parent. Such a child proves
``h(parent) >= h(child) - 1`` (bidirectional pathmax, BPMX); when that lifts the parent's ``f`` above the
bound, none of the parent's children is searched.
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
KID_ROW = 5  # kids[d]: count, then up to 4 directions
VALUE_ROW = 12  # kid_values[d]: 4 children x (normal value, mirrored value, h)


@njit
def group_rank(
    pos: np.ndarray,
    group_tiles: np.ndarray,
    g: int,
    k: int,
    n_cells: int,
    tmap: np.ndarray,
    mirrored: bool,
) -> int:
    """Rank of group ``g``'s placement (its homes ``group_tiles[g, :k]``; boards of at most 64 cells), normal
    or mirrored. The group is read from the 2-D array in place: a row view would cost two reference-count
    updates per lookup."""
    rank = 0
    used = np.int64(0)
    for i in range(k):
        home = np.uint64(group_tiles[g, i])  # unsigned indices: no wraparound code
        c = np.int64(tmap[np.uint64(pos[np.uint64(tmap[home])])]) if mirrored else np.int64(pos[home])
        rank = rank * (n_cells - i) + c - popcount(used & ((np.int64(1) << c) - 1))
        used |= np.int64(1) << c
    return rank


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
    return np.int64(table[offsets[g] + group_rank(pos, group_tiles, g, group_size[g], n_cells, tmap, mirrored)])


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
    kids: np.ndarray,
    kid_values: np.ndarray,
    normal: np.ndarray,
    hg: np.ndarray,
    hm: np.ndarray,
    idx: np.ndarray,
    midx: np.ndarray,
    regs: np.ndarray,
    budget: int,
) -> int:
    """Run (or resume) one IDA* iteration for at most ``budget`` generated nodes; returns a status.

    ``table`` uint8: every group's compact values, group ``g`` from ``offsets[g]`` (int64 (n_groups,)).
    ``sparse`` uint8: the groups held in sparse order (see :func:`fill_sparse`), group ``g`` from
    ``sparse_offsets[g]`` (int64 (n_groups,), ``-1`` for a group read from ``table``). ``idx``/``midx``
    int64 (n_groups,): every group's normal / mirrored sparse index (:func:`initial_indices`), kept up to date
    with one add per move: ``stride`` int64 (n_cells,) = ``n_cells ** (k - 1 - i)`` for the ``i``-th home of
    a ``k``-tile group. ``group_of`` int8 (n_cells,): group of each home (``-1`` for ``blank_home``).
    ``group_tiles`` int8 (n_groups, kmax): homes of each group in pattern order; ``group_size`` int64
    (n_groups,). ``neighbours`` int8 (n_cells, 4), ``-1`` off the board. ``kids`` int8 (max_depth + 2, 5): ``kids[d, 0]``
    = number of children of the node at depth ``d`` within the bound (``-1`` before it is expanded),
    ``kids[d, 1 + j]`` = direction of the ``j``-th, lowest ``h`` first; ``kid_values`` int16 (max_depth + 2, 4, 3)
    = its new normal and mirrored group values and ``h``; ``normal`` int64 (4,) scratch. Ordering by ``h``
    changes nothing in an iteration that finds no solution (every kept child is searched) but reaches the
    goal sooner in the last one.
    Before the first call of an iteration the caller sets ``regs[R_DEPTH] = 0``, ``kids[0, 0] = -1``,
    ``blank_cells[0]`` = blank cell, the bound, and ``regs[R_NEXT_BOUND] = NO_BOUND``; ``hg``/``hm``/``R_HSUM``/
    ``R_MSUM`` from :func:`initial_values`. Indices in the expansion and in ranks are cast to ``uint64``:
    numba adds negative-index wraparound code to every signed index (−20 % time per node without it).
    """
    max_depth = blank_cells.shape[0] - 2
    depth = regs[R_DEPTH]
    bound = regs[R_BOUND]
    hsum = regs[R_HSUM]
    msum = regs[R_MSUM]
    generated = 0
    expanded = 0
    status = RUNNING
    n_cells = state.shape[0]
    next_bound = regs[R_NEXT_BOUND]
    kid_flat = kids.ravel()  # read flat with constant row lengths: no stride multiplies
    value_flat = kid_values.ravel()
    while generated < budget:
        d = depth
        ud = np.uint64(d)  # unsigned copies index without numba's negative-index wraparound code
        if kid_flat[ud * KID_ROW] < 0:
            # entering this node: evaluate every child, keep those within the bound, lowest h first. All
            # normal entries are read before any is used (independent loads overlap their cache misses).
            b = np.int64(blank_cells[ud])
            ub = np.uint64(b)
            previous = np.int64(blank_cells[ud - np.uint64(1)]) if d > 0 else -1
            for di in range(4):
                udi = np.uint64(di)
                normal[udi] = -1
                t = np.int64(neighbours[ub, udi])
                if t < 0 or t == previous:
                    continue
                home = np.uint64(state[np.uint64(t)])
                g = np.uint64(group_of[home])
                if sparse_offsets[g] >= 0:
                    normal[udi] = sparse[np.uint64(sparse_offsets[g] + idx[g] + (b - t) * stride[home])]
                else:
                    pos[home] = b
                    normal[udi] = lookup(pos, table, offsets, g, group_tiles, group_size, n_cells, tmap, False)
                    pos[home] = t
            kept = 0
            for di in range(4):
                udi = np.uint64(di)
                new = normal[udi]
                if new < 0:
                    continue
                generated += 1
                t = np.int64(neighbours[ub, udi])
                ut = np.uint64(t)
                home = np.uint64(state[ut])
                g = np.uint64(group_of[home])
                h = hsum + new - hg[g]
                f = d + 1 + h
                mnew = 0
                if f <= bound and reflect:
                    mh = np.uint64(tmap[home])
                    gm = np.uint64(group_of[mh])
                    if sparse_offsets[gm] >= 0:
                        step = (np.int64(tmap[ub]) - np.int64(tmap[ut])) * stride[mh]
                        mnew = np.int64(sparse[np.uint64(sparse_offsets[gm] + midx[gm] + step)])
                    else:
                        pos[home] = b
                        mnew = lookup(pos, table, offsets, gm, group_tiles, group_size, n_cells, tmap, True)
                        pos[home] = t
                    h = max(h, msum + mnew - hm[gm])
                    f = d + 1 + h
                if f > bound:
                    cut = f - 2 > bound  # BPMX: h(node) >= h(child) - 1, so the node's own f exceeds the bound
                    if cut:
                        f -= 2
                    if f < next_bound:
                        next_bound = f
                    if cut:
                        kept = 0
                        break
                    continue
                j = kept  # insertion by h (at most 4 children)
                row = d * VALUE_ROW
                while j > 0 and value_flat[np.uint64(row + 3 * j - 1)] > h:
                    kid_flat[np.uint64(d * KID_ROW + 1 + j)] = kid_flat[np.uint64(d * KID_ROW + j)]
                    value_flat[np.uint64(row + 3 * j)] = value_flat[np.uint64(row + 3 * j - 3)]
                    value_flat[np.uint64(row + 3 * j + 1)] = value_flat[np.uint64(row + 3 * j - 2)]
                    value_flat[np.uint64(row + 3 * j + 2)] = value_flat[np.uint64(row + 3 * j - 1)]
                    j -= 1
                kid_flat[np.uint64(d * KID_ROW + 1 + j)] = di
                value_flat[np.uint64(row + 3 * j)] = new
                value_flat[np.uint64(row + 3 * j + 1)] = mnew
                value_flat[np.uint64(row + 3 * j + 2)] = h
                kept += 1
            kid_flat[ud * KID_ROW] = kept
            next_dir[ud] = 0
            continue
        j = next_dir[d]
        if j >= kid_flat[d * KID_ROW]:
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
        next_dir[d] = j + 1
        b = np.int64(blank_cells[d])
        t = np.int64(neighbours[b, kid_flat[d * KID_ROW + 1 + j]])
        home = np.int64(state[t])
        g = group_of[home]
        old = np.int64(hg[g])
        row = d * VALUE_ROW + 3 * j
        new = np.int64(value_flat[row])
        mold = 0
        if reflect:
            mh = tmap[home]
            gm = group_of[mh]
            mold = np.int64(hm[gm])
            mnew = np.int64(value_flat[row + 1])
            msum += mnew - mold
            hm[gm] = mnew
            midx[gm] += (np.int64(tmap[b]) - np.int64(tmap[t])) * stride[mh]
        state[b] = home
        state[t] = blank_home
        pos[home] = b
        pos[blank_home] = t
        hsum += new - old
        hg[g] = new
        idx[g] += (b - t) * stride[home]
        depth = d + 1
        blank_cells[depth] = t
        saved[depth, 0] = old
        saved[depth, 1] = mold
        if value_flat[row + 2] == 0:
            status = FOUND
            break
        expanded += 1
        next_dir[depth] = 0
        kid_flat[depth * KID_ROW] = -1 if depth < max_depth else 0  # expanded on the next pass
    regs[R_DEPTH] = depth
    regs[R_NEXT_BOUND] = next_bound
    regs[R_HSUM] = hsum
    regs[R_MSUM] = msum
    regs[R_NODES] += generated
    regs[R_EXPANDED] += expanded
    return status
