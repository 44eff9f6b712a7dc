"""Beam search layers over canonical states (single-tile metric), Manhattan distance + linear conflict.

A layer is three calls. :func:`expand_layer` scores every state's children (no move back to the blank's
previous cell) without writing them: each child's parent row and blank cell, its heuristic ``h``
(Manhattan and linear conflict updated from the parent's: a move changes the conflicts of at most one line,
the moved tile's home row or column when it leaves or enters it) and its 64-bit Zobrist hash (updated by the
two cells that changed). :func:`select_children` keeps the ``beam`` distinct children of lowest ``h``, and
:func:`gather_children` writes only those. The Python driver is :func:`npuzzle.search.bounded.beam_search`.

Arrays: ``states`` ``int8``/``int16[count, n_cells]`` (canonical values), ``blanks``/``came``
``int32[count]`` (the blank's cell, and the cell it came from or -1), ``md``/``lc`` ``int32[count]``
(Manhattan distance and linear-conflict count, ``h = md + 2 * lc``); ``codes`` ``int32[count, height +
width]`` each line's code (rows, then columns; see :func:`build_conflict_table`) on boards whose lines have at
most 7 cells, where ``conflict_table`` turns a code into the line's conflicts; elsewhere ``codes`` has no
columns and the changed line is counted again; ``md_table`` ``int32[n * n]`` with
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
def code_changes(
    tile: int, cell: int, blank: int, height: int, row_of: np.ndarray, col_of: np.ndarray
) -> tuple[int, int, int, int]:
    """How ``tile`` sliding from ``cell`` into the blank at ``blank`` changes the line codes (see
    :func:`build_conflict_table`): (the line across the move that the tile leaves or enters, when it is the
    tile's home line, and its code change; the line along the move, when it is the tile's home line, and its
    code change), -1 for no line. Only the first changes conflicts: along the move the order stays."""
    home_row = np.int64(row_of[tile])
    home_col = np.int64(col_of[tile])
    across, across_change, along, along_change = -1, np.int64(0), -1, np.int64(0)
    if col_of[cell] == col_of[blank]:  # up or down: rows across, the column along
        col = np.int64(col_of[cell])
        if home_col == col:
            along = height + col
            along_change = (home_row + 1) * ((1 << (3 * row_of[blank])) - (1 << (3 * row_of[cell])))
        if home_row == row_of[cell]:
            across, across_change = home_row, -((home_col + 1) << (3 * col))
        elif home_row == row_of[blank]:
            across, across_change = home_row, (home_col + 1) << (3 * col)
    else:  # left or right: columns across, the row along
        row = np.int64(row_of[cell])
        if home_row == row:
            along = row
            along_change = (home_col + 1) * ((1 << (3 * col_of[blank])) - (1 << (3 * col_of[cell])))
        if home_col == col_of[cell]:
            across, across_change = height + home_col, -((home_row + 1) << (3 * row))
        elif home_col == col_of[blank]:
            across, across_change = height + home_col, (home_row + 1) << (3 * row)
    return across, across_change, along, along_change


@njit
def build_conflict_table(length: int) -> np.ndarray:
    """Linear conflicts of a line of up to ``length`` (at most 7) cells, by the line's code: 3 bits per cell,
    cell ``i`` (along the line) at bits ``3i``, holding 1 + the tile's home position along the line when the
    tile's home is on this line, else 0. ``int8[8 ** length]``: tiles on their home line minus the longest run
    of them in home order."""
    table = np.zeros(1 << (3 * length), np.int8)
    for code in range(table.shape[0]):
        piles = np.zeros(length, np.int64)
        n_piles = 0
        count = 0
        for i in range(length):
            digit = (code >> (3 * i)) & 7
            if digit == 0:
                continue
            count += 1
            j = 0
            while j < n_piles and piles[j] < digit:
                j += 1
            piles[j] = digit
            if j == n_piles:
                n_piles += 1
        table[code] = count - n_piles
    return table


@njit
def expand_layer(
    states: np.ndarray,
    count: int,
    blanks: np.ndarray,
    came: np.ndarray,
    md: np.ndarray,
    lc: np.ndarray,
    codes: np.ndarray,
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
    conflict_table: np.ndarray,
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
            # only the tile's home line across the move can change its conflicts (entered or left)
            line, delta, _, _ = code_changes(tile, cell, blank, height, row_of, col_of)
            if line >= 0:
                if codes.shape[1] > 0:
                    old = codes[i, line]
                    child_lc += conflict_table[old + delta] - conflict_table[old]
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
    height: int,
    row_of: np.ndarray,
    col_of: np.ndarray,
    codes: np.ndarray,
    new_states: np.ndarray,
    new_blanks: np.ndarray,
    new_came: np.ndarray,
    new_codes: np.ndarray,
) -> None:
    """Write the children ``chosen`` (rows of ``out_parent``/``out_cell``) as the next layer's states, with
    their line codes when ``codes`` has them."""
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
        if codes.shape[1] > 0:
            for line in range(codes.shape[1]):
                new_codes[j, line] = codes[parent, line]
            across, across_change, along, along_change = code_changes(tile, cell, blank, height, row_of, col_of)
            if across >= 0:
                new_codes[j, across] += across_change
            if along >= 0:
                new_codes[j, along] += along_change


__all__ = [
    "build_conflict_table",
    "code_changes",
    "expand_layer",
    "gather_children",
    "moved_hash",
    "select_children",
]
