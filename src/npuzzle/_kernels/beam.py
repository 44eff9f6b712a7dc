"""Beam search layers over canonical states (single-tile metric), Manhattan distance + linear conflict.

One call expands a layer: every state's children (no move back to the blank's previous cell), each with its
heuristic ``h`` (Manhattan updated from the parent's, linear conflict recomputed) and its 64-bit Zobrist
hash (updated by the two cells that changed). The Python driver (:func:`npuzzle.search.bounded.beam_search`)
keeps the ``beam`` children of lowest ``h`` among distinct hashes for the next layer.

Arrays: ``states`` ``int16[count, n_cells]`` (canonical values), ``blanks``/``came`` ``int32[count]`` (the
blank's cell, and the cell it came from or -1), ``md`` ``int32[count]``; ``md_table`` ``int32[n * n]`` with
``md_table[home * n + cell]`` the taxicab distance (0 for the blank's home); ``nbr`` the ``int32[n * 4]``
neighbour table of :mod:`.reduce`; ``zobrist`` ``int64[n_cells * n_cells]`` random keys, ``[cell * n + value]``.
Children go to the ``out_*`` arrays (room for ``4 * count``); ``out_parent`` is the parent's row.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .heuristics import line_conflicts


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
    out_states: np.ndarray,
    out_blanks: np.ndarray,
    out_came: np.ndarray,
    out_md: np.ndarray,
    out_h: np.ndarray,
    out_hash: np.ndarray,
    out_parent: np.ndarray,
) -> tuple[int, int]:
    """Expand ``states[:count]``; children with ``depth + 1 + h >= max_f`` are dropped (they cannot give
    an answer shorter than ``max_f``). Returns (children written, row of a child at the goal or -1)."""
    n = width * height
    written = 0
    for i in range(count):
        blank = blanks[i]
        for k in range(4):
            cell = nbr[blank * 4 + k]
            if cell < 0:
                break
            if cell == came[i]:
                continue
            tile = states[i, cell]
            child_md = md[i] + md_table[tile * n + blank] - md_table[tile * n + cell]
            row = out_states[written]
            for c in range(n):
                row[c] = states[i, c]
            row[blank] = tile
            row[cell] = blank_home
            lc = 0
            for line in range(width + height):
                lc += line_conflicts(row, line, width, height, blank_home, tails)
            h = child_md + 2 * lc
            if depth + 1 + h >= max_f:
                continue
            out_blanks[written] = cell
            out_came[written] = blank
            out_md[written] = child_md
            out_h[written] = h
            out_hash[written] = moved_hash(hashes[i], zobrist, n, tile, cell, blank, blank_home)
            out_parent[written] = i
            written += 1
            if child_md == 0:
                return written, written - 1
    return written, -1


__all__ = ["expand_layer", "moved_hash"]
