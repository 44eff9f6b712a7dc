"""A fast solver that always succeeds, for any W×H board (W, H >= 2) and any goal: the human method.

Not optimal. It reduces the board one outer *line* (a row or a column of the unsolved rectangle) at a time
until at most 3×3 cells are left, then finishes that rectangle optimally with the IDA* kernel:

* The unsolved *region* is always a rectangle holding exactly the tiles whose home is inside it, and always
  the goal's blank cell (so any layout works: the blank's home may be in a corner, an edge or the middle).
  The longer side is shortened first, from the end farther from the blank's home; a region 2 cells deep is
  shortened along its length (the 2×N case: columns of two).
* A line of length ``L`` is filled from one end. Its first ``L - 2`` tiles go straight home: the tile's
  route over the free cells is the one needing the fewest blank moves (an A* over the tile's cell and the
  side the blank is on, so it prefers staircases, 3 moves per cell, to straight runs, 5), and before each
  of its steps the blank walks a shortest path to the cell ahead of it without crossing the tile. The free
  cells (the region minus what is fixed) stay 2-connected, so that walk always exists.
* The last two (``a`` then ``b`` along the line): tile ``a`` goes to ``b``'s cell; then, if tile ``b`` is
  far away, it goes to the cell beside that one, one step inside the region, and two moves rotate both home
  (the classic last-two-of-a-line trick). If tile ``b`` is near (inside the 2 × 3 *window* at the end of the
  line, where the trick can trap the blank in ``a``'s cell), a breadth-first search over the positions of
  ``a``, ``b`` and the blank inside the window finishes the pair: with the window's other three tiles
  interchangeable, every such arrangement is reachable.
* A post-pass drops a move immediately followed by its inverse.

Costs (pure Python, one core): an 8×8 in tens of milliseconds, a 20×20 in about half a second; figures in
BENCHMARKS.md, "Constructive solver". Lengths are far above optimal (about 1.8× on 4×4, and growing with
the size; see the benchmark) but every answer replays to the goal.

>>> from npuzzle.board import Board
>>> s = solve_constructive(Board.from_rows([[5, 1, 3], [4, 0, 2], [7, 8, 6]]))
>>> s.replay() == Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]]), s.optimal, s.algorithm
(True, False, 'constructive')
"""

from __future__ import annotations

import heapq
import random
import time
from collections import deque
from collections.abc import Sequence

from ..board import Board, neighbour_cells
from ..canonical import to_canonical
from ..errors import BoardFormatError, UnsolvableError
from ..goals import goal_for
from ..solution import SearchStats, Solution
from ..solvability import is_solvable

FINISH_SIDE = 3  # regions of at most 3×3 cells (181,440 states) are finished optimally by IDA*
# Moves per cell a tile travels, as the route search estimates them: at least 3 (every push but the first
# needs the blank to come round from behind: 2 moves, then the push), 5 on a straight run. 3 keeps the
# estimate admissible (cheapest routes) but explores widely; 4 is 2.5x faster on a 20×20 for 1% longer
# answers (bench/bench_constructive.py).
PUSH_ESTIMATE = 4
WINDOW_DEPTH = 3  # the last-two window: 2 cells along the line × 3 cells inwards (6 cells, 120 placements)


class _Work:
    """The position being solved and the moves made so far (canonical form, single-tile moves).

    ``values[cell]`` is the home cell of the tile in ``cell``; ``where[home]`` its inverse. ``fixed[cell]``
    is 1 for a cell the blank must not enter: solved lines outside the region, and tiles held in place.
    ``cells`` lists the cells the blank moved to, in order.
    """

    def __init__(self, values: Sequence[int], width: int, height: int, blank_home: int) -> None:
        n = width * height
        self.width, self.height = width, height
        self.values = [int(v) for v in values]
        self.where = [0] * n
        for cell, home in enumerate(self.values):
            self.where[home] = cell
        self.blank_home = blank_home
        self.fixed = bytearray(n)
        self.neighbours = [neighbour_cells(cell, width, height) for cell in range(n)]
        self.cells: list[int] = []

    @property
    def blank(self) -> int:
        return self.where[self.blank_home]

    def step(self, cell: int) -> None:
        """The tile in ``cell`` (next to the blank) slides into the blank."""
        blank = self.where[self.blank_home]
        home = self.values[cell]
        self.values[blank], self.where[home] = home, blank
        self.values[cell], self.where[self.blank_home] = self.blank_home, cell
        self.cells.append(cell)

    def path(self, source: int, targets: set[int] | frozenset[int], avoid: int = -1) -> list[int] | None:
        """A shortest path over free cells from ``source`` to any of ``targets`` (``source`` excluded),
        not entering ``avoid``; None when there is none."""
        if source in targets:
            return []
        parent = {source: source}
        queue = deque((source,))
        fixed, neighbours = self.fixed, self.neighbours
        while queue:
            cell = queue.popleft()
            for nxt in neighbours[cell]:
                if nxt in parent or fixed[nxt] or nxt == avoid:
                    continue
                parent[nxt] = cell
                if nxt in targets:
                    out = [nxt]
                    while (nxt := parent[nxt]) != source:
                        out.append(nxt)
                    out.reverse()
                    return out
                queue.append(nxt)
        return None

    def blank_to(self, targets: set[int] | frozenset[int], avoid: int = -1) -> None:
        """Walk the blank to one of ``targets`` without entering fixed cells or ``avoid``."""
        route = self.path(self.blank, targets, avoid)
        if route is None:  # the region's free cells stay 2-connected; this is a bug, not bad input
            raise RuntimeError(f"constructive solver: no blank path to {sorted(targets)} avoiding {avoid}")
        for cell in route:
            self.step(cell)

    def around(self, tile: int, side: int) -> dict[int, int]:
        """Blank moves from ``side`` (any free cell, usually a neighbour of ``tile``) to each other free
        neighbour of ``tile``, not crossing it: breadth-first, stopping once every side is reached."""
        sides = {c for c in self.neighbours[tile] if not self.fixed[c] and c != side}
        dist = {side: 0}
        out: dict[int, int] = {}
        queue = deque((side,))
        while queue and len(out) < len(sides):
            cell = queue.popleft()
            for nxt in self.neighbours[cell]:
                if nxt in dist or self.fixed[nxt] or nxt == tile:
                    continue
                dist[nxt] = dist[cell] + 1
                if nxt in sides:
                    out[nxt] = dist[nxt]
                queue.append(nxt)
        return out

    def route(self, home: int, target: int) -> list[int] | None:
        """The cells a tile walks through to ``target``, cheapest in blank moves: A* over (tile cell,
        blank cell beside it). A push costs 1; taking the blank to another side costs its walk around the
        tile. The estimate is ``PUSH_ESTIMATE * m - 2`` (``m`` the taxicab distance left): see there."""
        start = self.where[home]
        if start == target:
            return []
        width = self.width
        target_row, target_col = divmod(target, width)

        def estimate(cell: int) -> int:
            row, col = divmod(cell, width)
            m = abs(row - target_row) + abs(col - target_col)
            return PUSH_ESTIMATE * m - 2 if m else 0

        first = self.around(start, self.blank)  # the blank's walks to each side of the tile
        if self.blank in self.neighbours[start]:
            first[self.blank] = 0
        best: dict[tuple[int, int], int] = {}
        parent: dict[tuple[int, int], tuple[int, int] | None] = {}
        heap: list[tuple[int, int, int, int]] = []
        for side, cost in first.items():
            best[(start, side)] = cost
            parent[(start, side)] = None
            heapq.heappush(heap, (cost + estimate(start), cost, start, side))
        memo: dict[tuple[int, int], dict[int, int]] = {}
        while heap:
            _, cost, tile, side = heapq.heappop(heap)
            if cost > best[(tile, side)]:
                continue
            if tile == target:
                cells = []
                state: tuple[int, int] | None = (tile, side)
                while state is not None:
                    cells.append(state[0])
                    state = parent[state]
                out: list[int] = []
                for cell in reversed(cells):  # a tile cell repeats while the blank goes around
                    if not out or out[-1] != cell:
                        out.append(cell)
                return out[1:]
            moves = memo.get((tile, side))
            if moves is None:
                moves = memo[(tile, side)] = self.around(tile, side)
            options = [((side, tile), cost + 1), *(((tile, s), cost + d) for s, d in moves.items())]
            for state, new_cost in options:
                if new_cost < best.get(state, new_cost + 1):
                    best[state] = new_cost
                    parent[state] = (tile, side)
                    heapq.heappush(heap, (new_cost + estimate(state[0]), new_cost, *state))
        return None

    def tile_to(self, home: int, target: int) -> None:
        """Bring the tile whose home is ``home`` to ``target`` over free cells (along :meth:`route`)."""
        route = self.route(home, target)
        if route is None:
            raise RuntimeError(f"constructive solver: no path for tile {home} to cell {target}")
        for cell in route:
            tile_cell = self.where[home]
            self.blank_to(frozenset((cell,)), avoid=tile_cell)
            self.step(tile_cell)


def _window_finish(work: _Work, a: int, b: int, window: list[int]) -> None:
    """Bring tiles ``a`` and ``b`` home by blank moves inside ``window`` (6 cells holding both tiles and
    the blank): breadth-first search over (cell of a, cell of b, cell of the blank)."""
    inside = set(window)
    start = (work.where[a], work.where[b], work.blank)
    parent: dict[tuple[int, int, int], tuple[tuple[int, int, int], int] | None] = {start: None}
    queue = deque((start,))
    while queue:
        state = queue.popleft()
        at_a, at_b, blank = state
        if at_a == a and at_b == b:
            route = []
            while (link := parent[state]) is not None:
                state, cell = link
                route.append(cell)
            for cell in reversed(route):
                work.step(cell)
            return
        for cell in work.neighbours[blank]:
            if cell not in inside:
                continue
            nxt = (blank if at_a == cell else at_a, blank if at_b == cell else at_b, cell)
            if nxt not in parent:
                parent[nxt] = (state, cell)
                queue.append(nxt)
    raise RuntimeError(f"constructive solver: tiles {a}, {b} cannot be arranged in window {window}")


def _fill_line(work: _Work, line: list[int], inward: int) -> None:
    """Bring home the tiles of ``line`` (cells in filling order) and fix them; ``inward`` is the cell
    offset from a line cell to its neighbour inside the region (which is at least 3 cells deep)."""
    for cell in line[:-2]:
        work.tile_to(cell, cell)
        work.fixed[cell] = 1
    a, b = line[-2], line[-1]  # homes, which are also the cells they go to
    if work.where[a] != a or work.where[b] != b:
        work.tile_to(a, b)
        window = [cell + k * inward for k in range(WINDOW_DEPTH) for cell in (a, b)]
        if work.where[b] in window:
            work.fixed[b] = 1  # tile a, while the blank comes into the window
            work.blank_to(frozenset(window), avoid=work.where[b])
            work.fixed[b] = 0
            _window_finish(work, a, b, window)
        else:
            work.fixed[b] = 1
            work.tile_to(b, b + inward)
            work.fixed[b + inward] = 1
            work.blank_to(frozenset((a,)))
            work.fixed[b] = work.fixed[b + inward] = 0
            work.step(b)  # tile a into its home
            work.step(b + inward)  # tile b into its home
    work.fixed[a] = work.fixed[b] = 1


def _finish(work: _Work, top: int, bottom: int, left: int, right: int, compiled: bool = True) -> None:
    """Solve the region rows ``top..bottom - 1`` × columns ``left..right - 1`` (at most 3×3) optimally: with
    the IDA* kernel, or when ``compiled`` is False with its pure-Python twin (the same moves, in tens of
    milliseconds on 9 cells, where a first compile of the kernel takes seconds)."""
    from .solver import Plan, run_canonical

    width = right - left
    cells = [row * work.width + col for row in range(top, bottom) for col in range(left, right)]
    local = {cell: i for i, cell in enumerate(cells)}
    values = [local[work.values[cell]] for cell in cells]  # every tile here has its home here
    if values == list(range(len(cells))):
        return
    if compiled:
        steps, _ = run_canonical(
            values,
            width,
            bottom - top,
            local[work.blank_home],
            Plan("idastar", "linear-conflict", None),
            "single",
        )
    else:
        from .generic import idastar
        from .puzzle_problem import SlidingPuzzleProblem

        blank = local[work.blank_home]
        region = SlidingPuzzleProblem(
            Board(values, width, bottom - top, blank),
            Board(range(len(cells)), width, bottom - top, blank),
            "linear-conflict",
        )
        steps = idastar(region).actions
    for step in steps:
        work.step(cells[int(step)])


def constructive_cells(
    values: Sequence[int], width: int, height: int, blank_home: int, variant: int = 0, compiled: bool = True
) -> list[int]:
    """The cells the blank moves to, one cell at a time, taking canonical ``values`` (``values[cell]`` =
    home cell, blank value ``blank_home``) to ``0, 1, ..., N-1``. The position must be solvable.

    ``variant`` 0 peels the side farther from the blank's home and fills each line from its low end
    (left, top); any other number draws those choices at random from that seed (among the sides that
    keep the blank's home inside), giving another answer of about the same length: the best of a few
    variants is shorter than any one (see :func:`solve_constructive`'s ``tries``). ``compiled`` False
    finishes the last block in pure Python (see :func:`_finish`), for when the IDA* kernel is not compiled
    yet: the same length of answer, with no compile first."""
    if width < 2 or height < 2:
        raise BoardFormatError(f"the constructive solver needs at least 2×2 cells, got {width}x{height}")
    work = _Work(values, width, height, blank_home)
    start_blank = work.blank
    rng = random.Random(variant) if variant else None
    blank_row, blank_col = divmod(blank_home, width)
    top, bottom, left, right = 0, height, 0, width  # the region: rows top..bottom-1, columns left..right-1
    while bottom - top > FINISH_SIDE or right - left > FINISH_SIDE:
        if bottom - top >= right - left:  # a row: peel the one farther from the blank's home
            first = blank_row - top >= bottom - 1 - blank_row
            if rng is not None and top < blank_row < bottom - 1:
                first = rng.random() < 0.5
            row = top if first else bottom - 1
            line = [row * width + col for col in range(left, right)]
            if rng is not None and rng.random() < 0.5:
                line.reverse()
            _fill_line(work, line, width if first else -width)
            top, bottom = (top + 1, bottom) if first else (top, bottom - 1)
        else:
            first = blank_col - left >= right - 1 - blank_col
            if rng is not None and left < blank_col < right - 1:
                first = rng.random() < 0.5
            col = left if first else right - 1
            line = [row * width + col for row in range(top, bottom)]
            if rng is not None and rng.random() < 0.5:
                line.reverse()
            _fill_line(work, line, 1 if first else -1)
            left, right = (left + 1, right) if first else (left, right - 1)
    _finish(work, top, bottom, left, right, compiled)
    return cancel_inverses(start_blank, work.cells)


def cancel_inverses(start_blank: int, cells: Sequence[int]) -> list[int]:
    """``cells`` without the moves undone at once by the next one (the blank stepping back where it was
    restores the position, so the cancelling cascades).

    >>> cancel_inverses(0, [1, 2, 1, 0, 3])
    [3]
    """
    trail = [start_blank]  # blank cells after each kept move
    for cell in cells:
        if len(trail) >= 2 and trail[-2] == cell:
            trail.pop()
        else:
            trail.append(cell)
    return trail[1:]


def to_slides(start_blank: int, cells: Sequence[int]) -> list[int]:
    """Single-tile moves (cells the blank moves to) merged into multi-tile slides: consecutive steps in
    one direction become one slide, named by the cell of its farthest tile.

    >>> to_slides(0, [1, 2, 5, 4, 3])
    [2, 5, 3]
    """
    out: list[int] = []
    blank, delta = start_blank, 0
    for cell in cells:
        if out and cell - blank == delta:
            out[-1] = cell
        else:
            out.append(cell)
            delta = cell - blank
        blank = cell
    return out


def labels_of(values: Sequence[int], goal_board: Board, cells: Sequence[int], metric: str) -> tuple[int, ...]:
    """The user's labels of the moving tiles (the farthest tile of each slide in the multi metric), by
    replaying ``cells`` on canonical ``values``: the same answer as
    :func:`npuzzle.canonical.moves_from_cells` without building a Board per move."""
    state = list(values)
    width = goal_board.width
    blank = state.index(goal_board.blank_cell)
    labels = []
    for cell in cells:
        labels.append(goal_board.tiles[state[cell]])
        row_step = (cell - blank) % width == 0 and cell // width != blank // width
        unit = (width if cell > blank else -width) if row_step else (1 if cell > blank else -1)
        while blank != cell:  # one tile at a time, from the blank's side
            state[blank] = state[blank + unit]
            blank += unit
        state[blank] = goal_board.blank_cell
    return tuple(labels)


def solve_constructive(
    board: Board,
    goal: str | Board | None = "classic",
    metric: str = "single",
    tries: int = 1,
    compiled: bool = True,
) -> Solution:
    """Solve ``board`` to ``goal`` by the constructive method (see the module docstring): always an answer,
    in milliseconds, never a guarantee of optimality. Raises :class:`UnsolvableError` first when the
    board cannot reach the goal. ``tries`` > 1 runs that many variants (:func:`constructive_cells`) and
    keeps the shortest: 9 tries save about 5% of the moves for 9× the time. In the multi-tile metric, runs
    of single moves in one direction become one slide. ``compiled`` False: no kernel at all (see
    :func:`constructive_cells`)."""
    if metric not in ("single", "multi"):
        raise ValueError(f"unknown metric {metric!r}; choose single or multi")
    if tries < 1:
        raise ValueError(f"tries must be at least 1, got {tries!r}")
    goal_board = goal_for(board, goal)
    if not is_solvable(board, goal_board):
        raise UnsolvableError(
            f"{' '.join(map(str, board.tiles))} cannot reach the goal {' '.join(map(str, goal_board.tiles))}: "
            "the two lie in different parity classes (see `npuzzle check` for the count)"
        )
    t0 = time.perf_counter()
    values = to_canonical(board, goal_board)
    blank_home = goal_board.blank_cell
    cells = min(
        (
            constructive_cells(values, board.width, board.height, blank_home, variant, compiled)
            for variant in range(tries)
        ),
        key=len,
    )
    if metric == "multi":
        cells = to_slides(values.index(blank_home), cells)
    moves = labels_of(values, goal_board, cells, metric)
    stats = SearchStats(seconds=time.perf_counter() - t0, iterations=tries)
    return Solution(board, goal_board, moves, False, "constructive", None, stats, metric)


__all__ = ["cancel_inverses", "constructive_cells", "labels_of", "solve_constructive", "to_slides"]
