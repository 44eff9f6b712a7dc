"""Beam search layers over canonical states (single-tile metric), additive pattern-database heuristic.

The twin of :mod:`.beam` with the heuristic of :mod:`.pdb_idastar`: ``h`` is the sum over groups of each
group's table value, or the max of that sum and the sum read reflected about a diagonal through the goal's
blank (``reflect``). One call expands a layer: every state's children (no move back to the blank's previous
cell), each with its group values (only the moved tile's group is looked up again), ``h`` and 64-bit Zobrist
hash. The Python driver (:func:`npuzzle.search.bounded.beam_search`) keeps the ``beam`` children of lowest
``h`` among distinct hashes for the next layer.

Arrays: ``states`` ``int8[count, n_cells]`` (canonical: ``states[i, cell]`` = home of the tile there, the
blank is ``blank_home``), ``blanks``/``came`` ``int32[count]`` (the blank's cell, and the cell it came from or
-1), ``hg``/``hm`` ``int16[count, n_groups]`` (each group's normal / mirrored value; ``hm`` unused without
``reflect``), ``hashes`` ``int64[count]``; ``nbr`` the ``int32[n_cells * 4]`` neighbour table of
:mod:`.reduce` (-1 ends a cell's list); ``zobrist`` ``int64[n_cells * n_cells]`` random keys,
``[cell * n_cells + value]``. Tables as in :func:`.pdb_idastar.lookup`: ``table`` uint8, group ``g`` from
``offsets[g]``; ``group_of`` ``int8[n_cells]`` (the group of each home, -1 for ``blank_home``),
``group_tiles`` ``int8[n_groups, kmax]``, ``group_size`` ``int64[n_groups]``, ``tmap`` ``int8[n_cells]`` the
reflection (identity without ``reflect``). ``pos`` ``int8[n_cells]`` and the ``kid_*`` arrays are scratch. Children go to the ``out_*``
arrays (room for ``4 * count``); ``out_parent`` is the parent's row.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .beam import moved_hash
from .pdb_idastar import group_rank


@njit
def expand_layer_pdb(
    states: np.ndarray,
    count: int,
    blanks: np.ndarray,
    came: np.ndarray,
    hg: np.ndarray,
    hm: np.ndarray,
    hashes: np.ndarray,
    blank_home: int,
    nbr: np.ndarray,
    zobrist: np.ndarray,
    table: np.ndarray,
    offsets: np.ndarray,
    group_of: np.ndarray,
    group_tiles: np.ndarray,
    group_size: np.ndarray,
    tmap: np.ndarray,
    reflect: bool,
    max_f: int,
    depth: int,
    pos: np.ndarray,
    kid_parent: np.ndarray,
    kid_cell: np.ndarray,
    kid_index: np.ndarray,
    out_states: np.ndarray,
    out_blanks: np.ndarray,
    out_came: np.ndarray,
    out_hg: np.ndarray,
    out_hm: np.ndarray,
    out_h: np.ndarray,
    out_hash: np.ndarray,
    out_parent: np.ndarray,
) -> tuple[int, int]:
    """Expand ``states[:count]``; children with ``depth + 1 + h >= max_f`` are dropped (they cannot give
    an answer shorter than ``max_f``). Returns (children written, row of a child at the goal or -1).

    Three passes, so that the table reads (random, mostly cache misses on large tables) are independent of
    each other and overlap: every child's table positions (``kid_index`` ``int64[4 * count, 2]``, normal and
    mirrored; ``kid_parent``/``kid_cell`` ``int32[4 * count]`` scratch), then the reads (into
    ``kid_index``), then the children."""
    n = states.shape[1]
    n_groups = group_size.shape[0]
    kids = 0
    for i in range(count):
        blank = blanks[i]
        for c in range(n):
            pos[states[i, c]] = c
        for k in range(4):
            cell = nbr[blank * 4 + k]
            if cell < 0:
                break
            if cell == came[i]:
                continue
            tile = states[i, cell]  # its home; it slides from cell to blank
            pos[tile] = blank
            g = group_of[tile]
            kid_index[kids, 0] = offsets[g] + group_rank(pos, group_tiles, g, group_size[g], n, tmap, False)
            if reflect:
                gm = group_of[tmap[tile]]
                kid_index[kids, 1] = offsets[gm] + group_rank(
                    pos, group_tiles, gm, group_size[gm], n, tmap, True
                )
            pos[tile] = cell
            kid_parent[kids] = i
            kid_cell[kids] = cell
            kids += 1
    for j in range(kids):
        kid_index[j, 0] = table[kid_index[j, 0]]
        if reflect:
            kid_index[j, 1] = table[kid_index[j, 1]]
    written = 0
    for j in range(kids):
        i = kid_parent[j]
        cell = kid_cell[j]
        blank = blanks[i]
        tile = states[i, cell]
        g = group_of[tile]
        new = kid_index[j, 0]
        hsum = 0
        for q in range(n_groups):
            hsum += hg[i, q]
        h = hsum + new - hg[i, g]
        gm = 0
        mnew = 0
        if reflect:
            gm = group_of[tmap[tile]]
            mnew = kid_index[j, 1]
            msum = 0
            for q in range(n_groups):
                msum += hm[i, q]
            h = max(h, msum + mnew - hm[i, gm])
        if depth + 1 + h >= max_f:
            continue
        row = out_states[written]
        for c in range(n):
            row[c] = states[i, c]
        row[blank] = tile
        row[cell] = blank_home
        for q in range(n_groups):
            out_hg[written, q] = hg[i, q]
            out_hm[written, q] = hm[i, q]
        out_hg[written, g] = new
        if reflect:
            out_hm[written, gm] = mnew
        out_blanks[written] = cell
        out_came[written] = blank
        out_h[written] = h
        out_hash[written] = moved_hash(hashes[i], zobrist, n, tile, cell, blank, blank_home)
        out_parent[written] = i
        written += 1
        if h == 0:  # every group's tiles at home (a table is 0 only there), so the blank too
            at_goal = True
            for c in range(n):
                if row[c] != c:
                    at_goal = False
            if at_goal:
                return written, written - 1
    return written, -1


__all__ = ["expand_layer_pdb"]
