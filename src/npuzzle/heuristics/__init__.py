"""Heuristics: pure-Python references (:mod:`.simple`; :mod:`.multi_pdb` for the multi-tile pattern
databases), pattern databases (:mod:`.pdb`, :mod:`.store`).

Nothing here imports numba; the compiled twins live in :mod:`npuzzle._kernels.heuristics`.
"""

from __future__ import annotations

from .simple import HEURISTICS, crossings, line_conflicts, linear_conflict, manhattan, misplaced

__all__ = ["HEURISTICS", "crossings", "line_conflicts", "linear_conflict", "manhattan", "misplaced"]
