"""Answers for big boards by reduction: solve one outer line of the unsolved rectangle at a time.

The method is the constructive solver's (:mod:`npuzzle.search.constructive`: every tile of a line goes home
along the route needing the fewest blank moves, the last two of a line by the classic trick or a small
window search, the last 3×3 block optimally), run by the compiled kernels of :mod:`npuzzle._kernels.reduce`
so a 100×100 board is answered in about a second (:func:`quick_solution`; on boards over 50×50 the blank's
long walks follow the straight line, see ``QUICK_FAR_WALK``). :func:`solve_reduction` spends a time budget
on shorter answers: it solves the board line by line, and for each line tries several *variants* (which
side of the rectangle to peel, which end of the line to start from, how strongly the blank's walks favour
pushing loose tiles towards home, ``lam``), keeping the one that leaves the least work (moves spent plus an
estimate of the moves the remaining tiles will need); then :func:`smooth_local` re-solves stretches of the
path optimally inside the small box each stretch's blank walks in, which costs the same on any board size.
Only the reduction kernels are loaded before a first answer (the last block has its own small IDA*).

Both return a :class:`~npuzzle.solution.Solution` with ``lower_bound`` the Manhattan distance (an
admissible bound, cheap at any size; single-tile metric only) and ``optimal`` True only when the length
meets that bound.

>>> from npuzzle.goals import classic
>>> from npuzzle.generate import shuffle
>>> board = shuffle(classic(12, 12), seed=1)
>>> s = quick_solution(board, classic(12, 12))
>>> s.replay() == classic(12, 12), s.length > s.lower_bound
(True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..canonical import to_canonical
from ..errors import BoardFormatError, UnsolvableError
from ..solution import SearchStats, Solution
from ..solvability import is_solvable
from .constructive import labels_of, to_slides

FINISH_SIDE = 3  # a region of at most 3×3 cells is finished optimally (IDA*, Manhattan distance)
# The route search considers taking the blank round a tile only by walks of up to this many moves (open
# space needs 4 at most; walls a few more): keeps each search step local on big boards.
AROUND_LIMIT = 12
QUICK_LAM = 7  # the blank-walk weight of the quick answer (of SCALE 8; measured best: bench/bench_anytime.py)
VARIANT_LAMS = (7, 6, 5)  # blank-walk weights a variant may use (of SCALE 8; 0 would be plain shortest walks)
# Estimated moves per unit of Manhattan distance left, when variants of a line are compared by moves spent
# now plus work left; about what the reduction spends per unit on big boards (bench/bench_anytime.py).
WORK_PER_MANHATTAN = 2.7
# The quick answer guides the blank's walks longer than this many cells by the straight-line distance
# (``far_walk`` of npuzzle._kernels.reduce.fill_line: about 40% less time on a 100×100 for about 3% longer
# answers); the improving search keeps the full weighted walks.
QUICK_FAR_WALK = 4
QUICK_FULL_WALK_CELLS = 2_500  # up to 50×50 the quick answer keeps the full walks (a quarter second or less)
# One reduction with full walks takes about this many quick answers (with the straight-line walks) on
# boards over QUICK_FULL_WALK_CELLS (100×100: 1.6-2.0 s against 1.0-1.2 s CPU). solve_reduction tries as
# many variants per line as its share of the time pays for on every line (more variants for the first
# lines only, then the faster walks for the rest, gave longer answers: 2.65 against 2.60 × Manhattan).
FULL_WALK_COST = 1.8
# Seconds per move of the answer kept back from the budget for building the Solution (labels, tuple, the
# replay on construction, the ladder's copy, the last sweep's bookkeeping): about 0.6 s of wall time for 1.7 M
# moves at load 3-4.
FINISH_SECONDS_PER_MOVE = 5e-7
LINES_SHARE = 0.5  # of solve_reduction's time for choosing line variants; the rest smooths the answer
SMOOTH_WINDOWS = (32, 48, 64)  # moves per stretch that smooth_local re-solves, in turn (each until it stalls)
SMOOTH_MARGIN = 1  # cells round the box a stretch's blank walks in that its replacement may use
# a stretch whose box has more cells per move (a long walk of the blank: rarely shortened) stays
SMOOTH_BOX_PER_MOVE = 2
SMOOTH_NODES = 200_000  # IDA* node cap per stretch (a stretch needing more stays as it is)
# Up to this many cells, time left after smooth_local goes to npuzzle.search.bounded.smooth (stretches
# re-solved on the whole board with linear conflict: O(cells) per stretch) at these windows.
FULL_SMOOTH_CELLS = 400
FULL_SMOOTH_WINDOWS = (32, 48)


def manhattan(values: Sequence[int] | np.ndarray, width: int, blank_home: int) -> int:
    """Sum over tiles (not the blank) of the taxicab distance from their cell to their home."""
    array = np.asarray(values, dtype=np.int64)
    cells = np.arange(array.shape[0], dtype=np.int64)
    tiles = array != blank_home
    rows = np.abs(cells // width - array // width)
    cols = np.abs(cells % width - array % width)
    return int((rows + cols)[tiles].sum())


@dataclass
class _Position:
    """The position being reduced (canonical) and the kernels' scratch; see :mod:`npuzzle._kernels.reduce`."""

    values: np.ndarray
    where: np.ndarray
    fixed: np.ndarray
    width: int
    height: int
    blank_home: int
    nbr: np.ndarray
    scratch: np.ndarray
    rscratch: np.ndarray
    stamps: np.ndarray
    out: np.ndarray
    n_out: int = 0

    @classmethod
    def start(cls, values: Sequence[int], width: int, height: int, blank_home: int) -> _Position:
        from .._kernels.reduce import neighbour_table

        n = width * height
        array = np.asarray(values, dtype=np.int32)
        where = np.empty(n, dtype=np.int32)
        where[array] = np.arange(n, dtype=np.int32)
        return cls(
            array.copy(),
            where,
            np.zeros(n, dtype=np.uint8),
            width,
            height,
            blank_home,
            neighbour_table(width, height),
            np.zeros((6, n), dtype=np.int32),
            np.zeros((3, 4 * n), dtype=np.int32),
            np.zeros(2, dtype=np.int64),
            np.empty(max(64, 8 * n), dtype=np.int32),
        )

    def copy(self) -> _Position:
        return _Position(
            self.values.copy(),
            self.where.copy(),
            self.fixed.copy(),
            self.width,
            self.height,
            self.blank_home,
            self.nbr,
            self.scratch,
            self.rscratch,
            self.stamps,
            self.out[: self.n_out].copy(),
            self.n_out,
        )

    def fill(
        self, line: list[int], inward: int, lam: int, far_walk: int = 0, around_limit: int = AROUND_LIMIT
    ) -> None:
        from .._kernels.reduce import fill_line

        out, n_out = fill_line(
            self.values,
            self.where,
            self.fixed,
            self.nbr,
            self.width,
            self.blank_home,
            np.asarray(line, dtype=np.int32),
            inward,
            lam,
            self.scratch,
            self.rscratch,
            self.stamps,
            self.out,
            self.n_out,
            around_limit,
            far_walk,
        )
        if n_out < 0:  # the free cells stay 2-connected: a bug, not bad input
            raise RuntimeError(f"reduction: line {line} could not be filled")
        self.out, self.n_out = out, n_out


@dataclass(frozen=True)
class _Region:
    """The unsolved rectangle: rows ``top..bottom - 1``, columns ``left..right - 1``."""

    top: int
    bottom: int
    left: int
    right: int

    def done(self) -> bool:
        return self.bottom - self.top <= FINISH_SIDE and self.right - self.left <= FINISH_SIDE


def _peel_choices(region: _Region, width: int, blank_home: int) -> list[tuple[bool, bool]]:
    """The sides that may be peeled next, as (peel a row, from the low end) pairs: the longer dimension is
    shortened (a row when the region is at least as tall as wide); a side holding the blank's home never."""
    top, bottom, left, right = region.top, region.bottom, region.left, region.right
    blank_row, blank_col = divmod(blank_home, width)
    if bottom - top >= right - left:
        return [(True, low) for low, ok in ((True, blank_row != top), (False, blank_row != bottom - 1)) if ok]
    return [(False, low) for low, ok in ((True, blank_col != left), (False, blank_col != right - 1)) if ok]


def _line_of(
    region: _Region, width: int, row: bool, low: bool, reverse: bool
) -> tuple[list[int], int, _Region]:
    """The cells of the side to peel (in filling order), the inward offset and the region left after it."""
    top, bottom, left, right = region.top, region.bottom, region.left, region.right
    if row:
        r = top if low else bottom - 1
        line = [r * width + c for c in range(left, right)]
        inward = width if low else -width
        rest = _Region(top + 1, bottom, left, right) if low else _Region(top, bottom - 1, left, right)
    else:
        c = left if low else right - 1
        line = [r * width + c for r in range(top, bottom)]
        inward = 1 if low else -1
        rest = _Region(top, bottom, left + 1, right) if low else _Region(top, bottom, left, right - 1)
    if reverse:
        line.reverse()
    return line, inward, rest


def _finish(pos: _Position, region: _Region) -> None:
    """Solve the last block (at most 3×3 cells) optimally, in the reduction kernels themselves (IDA* with
    the Manhattan distance: no other kernel is loaded before a first answer)."""
    from .._kernels.reduce import finish_block

    width = pos.width
    cells = np.asarray(
        [r * width + c for r in range(region.top, region.bottom) for c in range(region.left, region.right)],
        dtype=np.int32,
    )
    out, n_out = finish_block(
        pos.values,
        pos.where,
        cells,
        region.right - region.left,
        region.bottom - region.top,
        pos.blank_home,
        pos.out,
        pos.n_out,
    )
    if n_out < 0:  # a block of at most 3×3 cells always has a solution within BLOCK_DEPTH moves
        raise RuntimeError(f"reduction: the last block {cells.tolist()} could not be solved")
    pos.out, pos.n_out = out, n_out


def _check(width: int, height: int) -> None:
    if width < 2 or height < 2:
        raise BoardFormatError(f"the reduction solver needs at least 2×2 cells, got {width}x{height}")


def reduce_cells(
    values: Sequence[int],
    width: int,
    height: int,
    blank_home: int,
    *,
    variant: int = 0,
    lam: int = 0,
    far_walk: int = 0,
) -> np.ndarray:
    """The cells the blank moves to (canonical form, before cancelling), reducing one line at a time.

    ``variant`` 0 and ``lam`` 0 give exactly :func:`npuzzle.search.constructive.constructive_cells`'s moves
    (the test that the compiled kernels match the pure-Python solver); other variants draw the side to peel
    and the end to start from at random from that seed, as there. ``far_walk`` > 0: walks of the blank
    longer than that many cells are guided by the straight-line distance (faster, a little longer)."""
    _check(width, height)
    pos = _Position.start(values, width, height, blank_home)
    rng = random.Random(variant) if variant else None
    region = _Region(0, height, 0, width)
    blank_row, blank_col = divmod(blank_home, width)
    while not region.done():
        top, bottom, left, right = region.top, region.bottom, region.left, region.right
        if bottom - top >= right - left:
            low = blank_row - top >= bottom - 1 - blank_row
            if rng is not None and top < blank_row < bottom - 1:
                low = rng.random() < 0.5
            row = True
        else:
            low = blank_col - left >= right - 1 - blank_col
            if rng is not None and left < blank_col < right - 1:
                low = rng.random() < 0.5
            row = False
        reverse = rng is not None and rng.random() < 0.5
        line, inward, region = _line_of(region, width, row, low, reverse)
        pos.fill(line, inward, lam, far_walk)
    _finish(pos, region)
    return pos.out[: pos.n_out].copy()


def best_line_cells(
    values: Sequence[int],
    width: int,
    height: int,
    blank_home: int,
    *,
    deadline: float | None = None,
    lams: Sequence[int] = VARIANT_LAMS,
    max_variants: int | None = None,
) -> np.ndarray:
    """Reduce line by line, trying for each line every side that may be peeled, both ends to start from and
    every weight in ``lams``, keeping the variant with the fewest moves now plus ``WORK_PER_MANHATTAN`` per
    unit of Manhattan distance left. Past ``deadline`` (a :func:`time.monotonic` value) only the first
    variant is tried for each remaining line, with the quick answer's faster walks. ``max_variants``: at
    most that many variants per line (the quick answer's weight first)."""
    _check(width, height)
    pos = _Position.start(values, width, height, blank_home)
    region = _Region(0, height, 0, width)
    while not region.done():
        best: tuple[float, _Position, _Region] | None = None
        variants = [
            (row, low, reverse, lam)
            for lam in sorted(lams, key=lambda x: x != QUICK_LAM)  # the quick answer's weight first
            for reverse in (False, True)
            for row, low in _peel_choices(region, width, blank_home)
        ][:max_variants]
        late = deadline is not None and time.monotonic() > deadline
        for row, low, reverse, lam in variants:
            if best is not None and late:
                break
            line, inward, rest = _line_of(region, width, row, low, reverse)
            trial = pos.copy()
            trial.fill(line, inward, lam, QUICK_FAR_WALK if late else 0)
            score = trial.n_out + WORK_PER_MANHATTAN * manhattan(trial.values, width, blank_home)
            if best is None or score < best[0]:
                best = (score, trial, rest)
        assert best is not None
        _, pos, region = best
    _finish(pos, region)
    return pos.out[: pos.n_out].copy()


def cancel_inverses(start_blank: int, cells: np.ndarray, n_cells: int) -> tuple[np.ndarray, int]:
    """:func:`npuzzle._kernels.reduce.cancel_inverses` (compiled; imported when first needed)."""
    from .._kernels.reduce import cancel_inverses as kernel

    return kernel(start_blank, np.asarray(cells, dtype=np.int32), n_cells)  # type: ignore[no-any-return]


def smooth_local(
    values: Sequence[int],
    width: int,
    height: int,
    blank_home: int,
    cells: Sequence[int],
    deadline: float,
    *,
    windows: Sequence[int] = SMOOTH_WINDOWS,
    margin: int = SMOOTH_MARGIN,
    max_nodes: int = SMOOTH_NODES,
) -> list[int]:
    """``cells`` (a canonical solution: the cells the blank moves to) shortened stretch by stretch: each
    stretch of ``window`` moves is replaced by an optimal path between its two ends *inside the box* its
    blank walks in (plus ``margin`` cells, within the board), when that is shorter. The box is a small board
    of its own (tiles outside it do not move), so each IDA* (Manhattan distance, at most ``max_nodes`` nodes,
    else the stretch stays; boxes over ``SMOOTH_BOX_PER_MOVE`` cells per move of the window are skipped:
    long walks of the blank) costs the same on a 100×100 as on a 10×10; the sweep streams over the path
    (memory: the path and one board). Sweeps alternate the cut points by half a window until two in a row
    gain nothing, then the next of ``windows`` is tried, until ``deadline`` (a :func:`time.monotonic`
    value) passes, checked before every stretch."""
    from .limits import Limits
    from .solver import Plan, run_canonical

    plan = Plan("idastar", "manhattan", None)  # linear conflict builds a table per box shape (0.1-0.2 s)
    limits = Limits(max_nodes=max_nodes)
    path = [int(c) for c in cells]
    start_blank = list(values).index(blank_home)
    for window in windows:
        max_box = SMOOTH_BOX_PER_MOVE * window
        sweep, idle = 0, 0
        while idle < 2 and len(path) > 2 and time.monotonic() < deadline:
            offset = (window // 2) * (sweep % 2)
            sweep += 1
            state = list(values)
            blank = start_blank
            out: list[int] = []
            gained = False
            i = 0
            while i < len(path):
                stretch = path[i : i + (window if i or not offset else offset)]
                i += len(stretch)
                if time.monotonic() >= deadline:  # keep the rest as it is, without replaying it
                    out.extend(stretch)
                    out.extend(path[i:])
                    break
                if len(stretch) > 2:
                    shorter = _shorter_in_box(
                        state, width, height, blank, stretch, margin, max_box, plan, limits, run_canonical
                    )
                    if shorter is not None:
                        stretch = shorter
                        gained = True
                for cell in stretch:
                    state[blank], state[cell] = state[cell], blank_home
                    blank = cell
                out.extend(stretch)
            path = cancel_inverses(start_blank, np.asarray(out, dtype=np.int32), len(out))[0].tolist()
            idle = 0 if gained else idle + 1
    return path


def _shorter_in_box(
    state: list[int],
    width: int,
    height: int,
    blank: int,
    stretch: list[int],
    margin: int,
    max_box: int,
    plan: object,
    limits: object,
    run_canonical: Callable[..., tuple[list[int], object]],
) -> list[int] | None:
    """An optimal replacement for ``stretch`` (blank at ``blank`` in ``state``) inside its box, or ``None``
    when it is not shorter (or the search hit its node cap)."""
    from ..errors import SearchLimitExceeded

    rows = [blank // width] + [c // width for c in stretch]
    cols = [blank % width] + [c % width for c in stretch]
    top, bottom = max(min(rows) - margin, 0), min(max(rows) + margin, height - 1)
    left, right = max(min(cols) - margin, 0), min(max(cols) + margin, width - 1)
    box_width, box_height = right - left + 1, bottom - top + 1
    if box_width < 2 or box_height < 2 or box_width * box_height > max_box:
        return None
    box = [r * width + c for r in range(top, bottom + 1) for c in range(left, right + 1)]
    local_of = {cell: k for k, cell in enumerate(box)}
    moved = {cell: cell for cell in box}  # cell -> where the tile there is at the stretch's end
    end_blank = blank
    for cell in stretch:
        moved[end_blank], moved[cell] = moved[cell], moved[end_blank]
        end_blank = cell
    # moved[c] is the cell whose tile ends in c; invert: the tile in cell c ends in where[c]
    where = {origin: cell for cell, origin in moved.items()}
    local = [local_of[where[cell]] for cell in box]
    try:
        steps, _ = run_canonical(local, box_width, box_height, local_of[end_blank], plan, "single", limits)
    except SearchLimitExceeded:
        return None
    if len(steps) >= len(stretch):
        return None
    return [box[int(k)] for k in steps]


def _solution(
    board: Board,
    goal_board: Board,
    values: list[int],
    cells: np.ndarray,
    metric: str,
    algorithm: str,
    t0: float,
    iterations: int,
) -> Solution:
    from .._kernels.reduce import moved_labels

    blank_home = goal_board.blank_cell
    start_blank = values.index(blank_home)
    kept, n_kept = cancel_inverses(start_blank, cells, len(cells))
    if metric == "multi":
        slides = to_slides(start_blank, kept[:n_kept].tolist())
        moves = labels_of(values, goal_board, slides, metric)
    else:
        goal_tiles = np.asarray(goal_board.tiles, dtype=np.int64)
        moves = tuple(
            moved_labels(np.asarray(values, dtype=np.int32), blank_home, kept[:n_kept], goal_tiles).tolist()
        )
    bound = manhattan(values, board.width, blank_home) if metric == "single" else None
    stats = SearchStats(seconds=time.perf_counter() - t0, iterations=iterations)
    optimal = len(moves) == (0 if bound is None else bound)  # proven: the length meets an admissible bound
    return Solution(
        board,
        goal_board,
        moves,
        optimal,
        algorithm,
        None,
        stats,
        metric,
        lower_bound=bound,
        suboptimality=1.0 if optimal else None,
    )


def _prepare(board: Board, goal_board: Board, metric: str) -> list[int]:
    if metric not in ("single", "multi"):
        raise ValueError(f"unknown metric {metric!r}; choose single or multi")
    if not is_solvable(board, goal_board):
        raise UnsolvableError(
            f"{' '.join(map(str, board.tiles))} cannot reach the goal {' '.join(map(str, goal_board.tiles))}: "
            "the two lie in different parity classes (see `npuzzle check` for the count)"
        )
    _check(board.width, board.height)
    return to_canonical(board, goal_board)


def quick_cells(values: Sequence[int], width: int, height: int, blank_home: int) -> np.ndarray:
    """The quick answer's moves (canonical: the cells the blank moves to, before cancelling): the reduction
    with weighted walks, guided by the straight-line distance on boards over ``QUICK_FULL_WALK_CELLS``."""
    far_walk = QUICK_FAR_WALK if width * height > QUICK_FULL_WALK_CELLS else 0
    return reduce_cells(values, width, height, blank_home, lam=QUICK_LAM, far_walk=far_walk)


def solution_from_cells(
    board: Board, goal_board: Board, cells: np.ndarray, metric: str = "single"
) -> Solution:
    """The :class:`Solution` of canonical ``cells`` (as :func:`quick_cells` gives them) from ``board``."""
    t0 = time.perf_counter()
    values = to_canonical(board, goal_board)
    return _solution(board, goal_board, values, cells, metric, "reduction", t0, 1)


def quick_solution(board: Board, goal_board: Board, *, metric: str = "single") -> Solution:
    """Any solvable board (2×2 up to 256×256), in about a second or less on a 100×100 once the kernels are
    compiled; ``optimal`` only when the length meets ``lower_bound``, the Manhattan distance.
    In the multi-tile metric, runs of single moves in one direction become one slide (the bound stays the
    single-tile Manhattan distance only in the single metric; in the multi metric it is not filled)."""
    t0 = time.perf_counter()
    values = _prepare(board, goal_board, metric)
    cells = quick_cells(values, board.width, board.height, goal_board.blank_cell)
    return _solution(board, goal_board, values, cells, metric, "reduction", t0, 1)


def solve_reduction(
    board: Board,
    goal_board: Board,
    *,
    deadline: float,
    metric: str = "single",
    quick: np.ndarray | None = None,
    quick_seconds: float | None = None,
    on_better: Callable[[Solution], object] | None = None,
) -> Solution:
    """A shorter answer for a big board, returned by about ``deadline`` (a :func:`time.monotonic` value):
    the better of the quick answer (``quick``: its cells when the caller has them, from
    :func:`quick_cells`, and the seconds it took) and :func:`best_line_cells` (given ``LINES_SHARE`` of the
    time, less what finishing the remaining lines may take, about one quick answer; once that is spent the
    remaining lines take the first variant), then shortened by :func:`smooth_local` until the deadline
    (then, on boards of up to ``FULL_SMOOTH_CELLS``, by :func:`npuzzle.search.bounded.smooth`). Never
    longer than :func:`quick_solution`'s. ``on_better`` hears the answer before smoothing
    (so a caller interrupted while it smooths keeps it)."""
    t0 = time.perf_counter()
    values = _prepare(board, goal_board, metric)
    width, height, blank_home = board.width, board.height, goal_board.blank_cell
    if quick is None or quick_seconds is None:
        started = time.monotonic()
        quick = quick_cells(values, width, height, blank_home)
        quick_seconds = time.monotonic() - started
    best = quick
    remaining = deadline - time.monotonic()
    share = min(
        LINES_SHARE * remaining, remaining - 1.5 * quick_seconds - FINISH_SECONDS_PER_MOVE * len(quick)
    )
    # one pass of full walks costs about FULL_WALK_COST quick answers where those took the faster walks
    full_pass = quick_seconds * (FULL_WALK_COST if width * height > QUICK_FULL_WALK_CELLS else 1.0)
    # at least one variant: lines done after the share take the faster walks (a mix, still shorter)
    variants = max(1, int(share / full_pass)) if full_pass > 0 else None
    if share > 0:
        best = best_line_cells(
            values, width, height, blank_home, deadline=time.monotonic() + share, max_variants=variants
        )
    start_blank = values.index(blank_home)
    quick, n_quick = cancel_inverses(start_blank, quick, len(quick))
    best, n_best = cancel_inverses(start_blank, best, len(best))
    cells = (quick[:n_quick] if n_quick <= n_best else best[:n_best]).tolist()
    if on_better is not None and n_best < n_quick:
        on_better(
            _solution(
                board, goal_board, values, np.asarray(cells, dtype=np.int32), metric, "reduction", t0, 1
            )
        )
    # building the answer (labels, the Solution's replay, the caller's copy) takes time too
    deadline -= FINISH_SECONDS_PER_MOVE * len(cells)
    if time.monotonic() < deadline:
        cells = smooth_local(values, width, height, blank_home, cells, deadline)
    if time.monotonic() < deadline and width * height <= FULL_SMOOTH_CELLS:
        from .bounded import smooth  # whole-board stretches, linear conflict: finds what the boxes miss

        for window in FULL_SMOOTH_WINDOWS:
            if time.monotonic() < deadline:
                cells = smooth(values, width, height, blank_home, cells, deadline, window=window)
    return _solution(
        board,
        goal_board,
        values,
        np.asarray(cells, dtype=np.int32),
        metric,
        "reduction",
        t0,
        1 + len(VARIANT_LAMS),
    )


__all__ = [
    "best_line_cells",
    "manhattan",
    "quick_cells",
    "quick_solution",
    "reduce_cells",
    "smooth_local",
    "solution_from_cells",
    "solve_reduction",
]
