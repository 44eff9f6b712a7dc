"""Beam search layers over canonical states (single-tile metric), Manhattan distance + linear conflict.

A layer is three calls. :func:`expand_layer` scores every state's children (no move back to the blank's
previous cell) without writing them: each child's parent row and blank cell, its heuristic ``h``
(Manhattan and linear conflict updated from the parent's: a move changes the conflicts of at most one line,
the moved tile's home row or column when it leaves or enters it) and its 64-bit Zobrist hash (updated by the
two cells that changed). :func:`select_children` keeps the ``beam`` distinct children of lowest ``h``, and
:func:`gather_children` writes only those. The Python driver is :func:`npuzzle.search.bounded.beam_search`.

Arrays: ``states`` ``int8``/``int16[count, n_cells]`` (canonical values), ``blanks``/``came``
``int32[count]`` (the blank's cell, and the cell it came from or -1), ``md``/``lc`` ``int32[count]``
(Manhattan distance and linear-conflict count, ``h = md + 2 * lc``); ``keys`` ``int32[count, height +
width]`` each line's key into ``lctab`` (see :func:`.idastar.lc_tables`: ``code``/``line_of`` give a move's key
changes) on boards whose lines have at most 7 cells; elsewhere ``keys`` has no columns and the changed line
is counted again; ``md_table`` ``int32[n * n]`` with
``md_table[home * n + cell]`` the taxicab distance (0 for the blank's home); ``nbr`` the ``int32[n * 4]``
neighbour table of :mod:`.reduce`; ``row_of``/``col_of`` ``int32[n]`` each cell's row and column;
``zobrist`` ``int64[n_cells * n_cells]`` random keys, ``[cell * n + value]``.
Children go to the ``out_*`` arrays (room for ``4 * count``).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .heuristics import line_conflicts_tab


@njit
def moved_hash(parent: int, zobrist: np.ndarray, n: int, tile: int, cell: int, blank: int, blank_home: int) -> int:
    """The Zobrist hash of a state after ``tile`` slides from ``cell`` into the blank at ``blank``: only those
    two cells change (``zobrist[cell * n + value]`` is the key of ``value`` on ``cell``)."""
    return (  # type: ignore[no-any-return]
        parent
        ^ zobrist[cell * n + tile]
        ^ zobrist[blank * n + tile]
        ^ zobrist[blank * n + blank_home]
        ^ zobrist[cell * n + blank_home]
    )


@njit
def expand_layer(
    states: np.ndarray,
    count: int,
    blanks: np.ndarray,
    came: np.ndarray,
    md: np.ndarray,
    lc: np.ndarray,
    keys: np.ndarray,
    hashes: np.ndarray,
    width: int,
    height: int,
    blank_home: int,
    md_table: np.ndarray,
    nbr: np.ndarray,
    zobrist: np.ndarray,
    max_f: int,
    depth: int,
    tails: np.ndarray,
    row_of: np.ndarray,
    col_of: np.ndarray,
    lctab: np.ndarray,
    code: np.ndarray,
    line_of: np.ndarray,
    out_parent: np.ndarray,
    out_cell: np.ndarray,
    out_md: np.ndarray,
    out_lc: np.ndarray,
    out_h: np.ndarray,
    out_hash: np.ndarray,
) -> tuple[int, int]:
    """Score the children of ``states[:count]`` (``out_cell``: the blank's new cell); children with
    ``depth + 1 + h >= max_f`` are dropped (they cannot give an answer shorter than ``max_f``). Returns
    (children written, row of a child at the goal or -1). ``states`` is changed while a child is scored
    and restored."""
    n = width * height
    written = 0
    for i in range(count):
        blank = blanks[i]
        row = states[i]
        for k in range(4):
            cell = nbr[blank * 4 + k]
            if cell < 0:
                break
            if cell == came[i]:
                continue
            tile = row[cell]
            child_md = md[i] + md_table[tile * n + blank] - md_table[tile * n + cell]
            child_lc = lc[i]
            # only the tile's home row and column can change, and only the one across the move its conflicts
            for o in range(2):  # 0: the tile's home row, 1: its home column
                change = code[o * n + tile, blank] - code[o * n + tile, cell]
                if change == 0:
                    continue
                line = line_of[o * n + tile]
                if keys.shape[1] > 0:
                    key = keys[i, line]
                    child_lc += (lctab[key + change] - lctab[key]) // 2
                else:
                    child_lc -= line_conflicts_tab(row, line, width, height, blank_home, tails, row_of, col_of)
                    row[blank] = tile
                    row[cell] = blank_home
                    child_lc += line_conflicts_tab(row, line, width, height, blank_home, tails, row_of, col_of)
                    row[cell] = tile
                    row[blank] = blank_home
            h = child_md + 2 * child_lc
            if depth + 1 + h >= max_f:
                continue
            out_parent[written] = i
            out_cell[written] = cell
            out_md[written] = child_md
            out_lc[written] = child_lc
            out_h[written] = h
            out_hash[written] = moved_hash(hashes[i], zobrist, n, tile, cell, blank, blank_home)
            written += 1
            if child_md == 0:
                return written, written - 1
    return written, -1


@njit
def select_children(h: np.ndarray, hashes: np.ndarray, written: int, beam: int, seen: np.ndarray) -> np.ndarray:
    """The rows (ascending) of the ``beam`` children of lowest ``h`` among ``h[:written]``, one per distinct
    hash (its first row), ties going to lower rows. ``seen`` ``int64[m]`` is scratch for an open-addressing
    set, ``m`` at least twice ``written``; a hash of 0 is stored as 1 (0 marks an empty slot:
    two states colliding so are already indistinguishable to the hash)."""
    size = 1
    while size < 2 * written:  # a set twice the children: short probes, and no more to clear than needed
        size <<= 1
    mask = size - 1
    seen[:size] = 0
    first = np.empty(written, np.int64)
    n_first = 0
    top = 0
    for k in range(written):
        key = hashes[k]
        if key == 0:
            key = 1
        slot = (key ^ (key >> 29)) & mask
        while seen[slot] != 0 and seen[slot] != key:
            slot = (slot + 1) & mask
        if seen[slot] == key:
            continue
        seen[slot] = key
        first[n_first] = k
        n_first += 1
        if h[k] > top:
            top = h[k]
    if n_first <= beam:
        return first[:n_first]
    counts = np.zeros(top + 2, np.int64)
    for j in range(n_first):
        counts[h[first[j]]] += 1
    threshold = 0  # the lowest h whose children, with all lower ones, fill the beam
    total = counts[0]
    while total < beam:
        threshold += 1
        total += counts[threshold]
    room_at_threshold = beam - (total - counts[threshold])
    chosen = np.empty(beam, np.int64)
    n_chosen = 0
    for j in range(n_first):
        k = first[j]
        if h[k] < threshold:
            chosen[n_chosen] = k
            n_chosen += 1
        elif h[k] == threshold and room_at_threshold > 0:
            chosen[n_chosen] = k
            n_chosen += 1
            room_at_threshold -= 1
    return chosen


@njit
def gather_children(
    states: np.ndarray,
    blanks: np.ndarray,
    out_parent: np.ndarray,
    out_cell: np.ndarray,
    chosen: np.ndarray,
    blank_home: int,
    code: np.ndarray,
    line_of: np.ndarray,
    keys: np.ndarray,
    new_states: np.ndarray,
    new_blanks: np.ndarray,
    new_came: np.ndarray,
    new_keys: np.ndarray,
) -> None:
    """Write the children ``chosen`` (rows of ``out_parent``/``out_cell``) as the next layer's states, with
    their lines' keys when ``keys`` has them."""
    for j in range(chosen.shape[0]):
        k = chosen[j]
        parent = out_parent[k]
        cell = out_cell[k]
        blank = blanks[parent]
        row = new_states[j]
        for c in range(states.shape[1]):
            row[c] = states[parent, c]
        tile = states[parent, cell]
        row[blank] = tile
        row[cell] = blank_home
        new_blanks[j] = cell
        new_came[j] = blank
        if keys.shape[1] > 0:
            for line in range(keys.shape[1]):
                new_keys[j, line] = keys[parent, line]
            n = states.shape[1]
            for o in range(2):
                new_keys[j, line_of[o * n + tile]] += code[o * n + tile, blank] - code[o * n + tile, cell]


__all__ = ["expand_layer", "gather_children", "moved_hash", "select_children"]
