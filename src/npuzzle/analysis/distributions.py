"""Distributions of optimal solution lengths over all positions of a board: full BFS or published counts.

* :func:`depth_table` runs the exact breadth-first search of :mod:`npuzzle._kernels.bfs` over every position
  that can reach a goal (``n!/2`` states, one byte each: 181,440 for 3×3, 1,814,400 for 2×5,
  239,500,800 for 3×4 / 4×3 / 2×6: about 230 MB and minutes). The table depends only on the board's
  shape, the goal's blank cell and the metric (labels are relabelled away, see :mod:`npuzzle.canonical`).
* :func:`distribution` returns a :class:`Distribution` (counts per distance, mean, diameter, farthest
  positions): from BFS where the space fits ``max_cells``, else the published 4×4 counts (Korf & Schultze
  2005, the data file ``dist_4x4_single.json`` beside this module, blank in a corner, single-tile moves),
  else ``None``.
* :meth:`Distribution.percentile` places a length among random positions (the share strictly shorter).

>>> from npuzzle.goals import classic
>>> d = distribution(classic(2, 2))
>>> d.counts, d.diameter
((1, 2, 2, 2, 2, 2, 1), 6)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from ..board import Board
from ..errors import ProblemTooLargeError

METRICS = ("single", "multi")
BFS_CELLS = 12  # 12!/2 = 239,500,800 states: one byte each, ~230 MB, minutes on one core
DEFAULT_CELLS = 10  # 10!/2 = 1,814,400 states: under a second once compiled
MAX_FARTHEST = 20  # farthest positions kept (4x3 has one position at 53; 3x3 two at 31)
KNOWN_4X4 = "dist_4x4_single.json"


@dataclass(frozen=True)
class Distribution:
    """How many positions of a ``width`` × ``height`` board lie at each optimal distance from a goal.

    ``counts[d]`` = positions at exactly ``d`` moves (``metric``); ``blank_home`` = the goal's blank cell;
    ``source`` says where the numbers come from; ``farthest`` = up to :data:`MAX_FARTHEST` positions at the
    diameter as canonical value tuples (``values[cell]`` = home cell), empty for published counts.
    """

    width: int
    height: int
    blank_home: int
    metric: str
    counts: tuple[int, ...]
    source: str
    farthest: tuple[tuple[int, ...], ...] = field(default=())
    n_farthest: int = 0  # how many positions lie at the diameter (all of them, not only those kept)

    @property
    def n_states(self) -> int:
        return sum(self.counts)

    @property
    def diameter(self) -> int:
        return len(self.counts) - 1

    @property
    def mean(self) -> float:
        return sum(d * c for d, c in enumerate(self.counts)) / self.n_states

    @property
    def median(self) -> int:
        half, seen = self.n_states / 2, 0
        for d, c in enumerate(self.counts):
            seen += c
            if seen >= half:
                return d
        return self.diameter  # pragma: no cover - counts are non-empty

    def fraction_between(self, low: int, high: int) -> float:
        """Share of positions whose distance lies in ``low..high`` (inclusive)."""
        low, high = max(low, 0), min(high, self.diameter)
        return sum(self.counts[low : high + 1]) / self.n_states if low <= high else 0.0

    def percentile(self, length: float) -> float:
        """Percentage of positions strictly shorter than ``length`` (0..100): "harder than P % of positions"."""
        whole = math.ceil(length)
        return 100.0 * sum(self.counts[: max(0, min(whole, len(self.counts)))]) / self.n_states

    def label(self, length: float) -> str:
        """A difficulty word from the percentile: trivial, easy, medium, hard, very hard, extreme."""
        return difficulty_label(self.percentile(length))

    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "blank_home": self.blank_home,
            "metric": self.metric,
            "counts": list(self.counts),
            "n_states": self.n_states,
            "mean": self.mean,
            "median": self.median,
            "diameter": self.diameter,
            "n_farthest": self.n_farthest,
            "source": self.source,
        }


LABELS = ((5.0, "trivial"), (25.0, "easy"), (60.0, "medium"), (90.0, "hard"), (99.0, "very hard"))


def difficulty_label(percentile: float) -> str:
    """The word for a percentile: below 5 trivial, 25 easy, 60 medium, 90 hard, 99 very hard, else extreme."""
    for bound, word in LABELS:
        if percentile < bound:
            return word
    return "extreme"


def n_states(width: int, height: int) -> int:
    """Positions that can reach a goal: ``(w·h)!/2``."""
    return math.factorial(width * height) // 2


@lru_cache(maxsize=4)
def depth_table(width: int, height: int, blank_home: int, metric: str = "single") -> Any:
    """Exact distance of every position (``uint8[n!/2]`` indexed by :func:`npuzzle._kernels.rank.rank_state`
    on canonical states) to the canonical goal whose blank is in ``blank_home``. Cached (4 tables)."""
    from .._kernels import bfs
    from .._kernels.moves import cell_dtype, metric_code, neighbour_table

    _check(width, height, blank_home, metric, BFS_CELLS)
    nbrs, n_nbrs, _ = neighbour_table(width, height, metric_code(metric))
    depths, _sizes = bfs.depth_table(
        blank_home, width, width * height, nbrs, n_nbrs, cell_dtype(width * height)
    )
    depths.setflags(write=False)
    return depths


def _check(width: int, height: int, blank_home: int, metric: str, max_cells: int) -> None:
    if metric not in METRICS:
        raise ValueError(f"metric must be 'single' or 'multi', got {metric!r}")
    if not 0 <= blank_home < width * height:
        raise ValueError(f"blank cell {blank_home} is off a {width}x{height} board")
    if width * height > max_cells:
        raise ProblemTooLargeError(
            f"a {width}x{height} board has {n_states(width, height):,} positions; a full breadth-first search "
            f"is done here up to {max_cells} cells ({n_states(1, max_cells):,} positions)"
        )


def unrank(rank: int, width: int, height: int, blank_home: int) -> tuple[int, ...]:
    """The canonical state of ``rank`` in a :func:`depth_table`."""
    import numpy as np

    from .._kernels.moves import cell_dtype
    from .._kernels.rank import factorials, unrank_state

    n = width * height
    out = np.empty(n, dtype=cell_dtype(n))
    unrank_state(int(rank), n, blank_home, width, factorials(n - 1), out)
    return tuple(int(v) for v in out)


def bfs_distribution(width: int, height: int, blank_home: int, metric: str = "single") -> Distribution:
    """The exact distribution by full BFS (see :func:`depth_table`)."""
    import numpy as np

    depths = depth_table(width, height, blank_home, metric)
    counts = np.bincount(depths, minlength=1)
    diameter = int(np.flatnonzero(counts)[-1])
    far = np.flatnonzero(depths == diameter)
    return Distribution(
        width,
        height,
        blank_home,
        metric,
        tuple(int(c) for c in counts[: diameter + 1]),
        f"breadth-first search over all {n_states(width, height):,} positions",
        tuple(unrank(int(r), width, height, blank_home) for r in far[:MAX_FARTHEST]),
        int(far.size),
    )


@lru_cache(maxsize=1)
def _known_4x4() -> tuple[tuple[int, ...], str]:
    data = json.loads(resources.files(__package__).joinpath(KNOWN_4X4).read_text(encoding="utf-8"))
    return tuple(int(c) for c in data["counts"]), str(data["source"])


def known_distribution(
    width: int, height: int, blank_home: int, metric: str = "single"
) -> Distribution | None:
    """Published counts where we carry them: 4×4, single-tile moves, blank in a corner; else ``None``."""
    corners = {0, width - 1, (height - 1) * width, width * height - 1}
    if (width, height) != (4, 4) or metric != "single" or blank_home not in corners:
        return None
    counts, source = _known_4x4()
    return Distribution(4, 4, blank_home, "single", counts, source)


def distribution(goal: Board, metric: str = "single", max_cells: int = DEFAULT_CELLS) -> Distribution | None:
    """The distance distribution for ``goal``'s shape and blank cell: BFS up to ``max_cells`` cells (at most
    :data:`BFS_CELLS`), the published 4×4 counts, or ``None`` when neither is available."""
    width, height, blank_home = goal.width, goal.height, goal.blank_cell
    known = known_distribution(width, height, blank_home, metric)
    if known is not None:
        return known
    if width * height <= min(max_cells, BFS_CELLS):
        return bfs_distribution(width, height, blank_home, metric)
    if metric not in METRICS:
        raise ValueError(f"metric must be 'single' or 'multi', got {metric!r}")
    return None


__all__ = [
    "BFS_CELLS",
    "DEFAULT_CELLS",
    "Distribution",
    "bfs_distribution",
    "depth_table",
    "difficulty_label",
    "distribution",
    "known_distribution",
    "n_states",
    "unrank",
]
