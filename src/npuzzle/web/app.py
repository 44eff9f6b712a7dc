"""The HTTP API and the game page: ``create_app(settings)`` builds a FastAPI application.

Routes::

    GET  /                 the game (static files from ``web/static``)
    GET  /docs             OpenAPI documentation
    GET  /api/layouts      goal layouts with their boards for ?width=&height=
    POST /api/check        solvability with the reason
    POST /api/generate     a solvable start (shuffle / walk / tile-walk)
    POST /api/solve        the ``npuzzle solve --json`` object
    POST /api/hint         the next move of the best solution found in time (or of a recent one that
                           passes through this position: :class:`PathCache`)

Errors, all in one place (:func:`_error_response`), all as ``{"detail": "<sentence>", "kind": "<class>"}``:

* 400: any :class:`~npuzzle.errors.PuzzleError` about the input (bad labels, wrong size, goal mismatch,
  unsolvable, board too large for the API or the method) and ``ValueError`` from the library;
* 422: the request does not match the schema (missing field, wrong type, out-of-range number), and
  :class:`~npuzzle.errors.SearchLimitExceeded` (an algorithm named in the request found no solution within
  the time cap: the input was fine but too hard for the budget; the body adds ``limit`` and ``stats``).
  ``auto`` (and every hint) always answers a solvable board: its last resort is the constructive solver;
* 503 with ``Retry-After``: every solve slot stayed busy for ``queue_seconds``.

Solving never runs on the event loop. Searches go to a thread pool (the numba kernels release the GIL) in two
lanes, each guarded by a semaphore: *light* boards (at most ``light_cells`` cells: 3×3 and smaller, solved in
milliseconds) and *heavy* ones (everything else, each capped at ``max_seconds``). A request waits up to
``queue_seconds`` for a slot in its lane and then gets a 503; so a burst of hard 4×4 requests queues among
themselves, and the 3×3 ones share only the CPU with them (the heavy lane leaves one core free by default).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ..board import Board
from ..errors import BoardFormatError, ProblemTooLargeError, PuzzleError, SearchLimitExceeded
from ..goals import classic, goal, goal_for, layout_names
from ..search.limits import Limits
from ..solution import Solution
from ..solvability import explain
from .schemas import (
    MAX_API_SIDE,
    BoardRequest,
    CheckResponse,
    ErrorResponse,
    GenerateRequest,
    GenerateResponse,
    HintRequest,
    HintResponse,
    Layout,
    LayoutsResponse,
    SolveRequest,
    SolveResponse,
)

STATIC_DIR = Path(__file__).parent / "static"
T = TypeVar("T")


@dataclass(frozen=True)
class WebSettings:
    """Server caps. Times in seconds; ``*_cells`` count cells (width × height)."""

    max_seconds: float = 5.0  # hard cap on one solve request, whatever the client asks
    default_seconds: float = 3.0  # solve budget when the request names none
    hint_seconds: float = 3.0  # hard cap (and default) for a hint
    max_solve_cells: int = 64  # 8×8, the page's largest board; larger boards get a 400
    light_cells: int = 9  # boards this small (3×3, 2×4) go to the light lane
    light_slots: int = 4  # concurrent light solves
    heavy_slots: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))  # one core stays free
    queue_seconds: float = 20.0  # wait for a free slot before answering 503 (four heavy solves' worth)
    grace_seconds: float = 30.0  # extra wait beyond the budget (first-call JIT compile) before giving up
    max_memory_mb: int = 512  # per search (A* open/closed sets)
    warmup: bool = False  # compile the kernels in the background at startup

    def __post_init__(self) -> None:
        for name in ("max_seconds", "default_seconds", "hint_seconds", "queue_seconds"):
            if getattr(self, name) <= 0:
                raise ValueError(f"WebSettings.{name} must be positive, got {getattr(self, name)!r}")
        if self.light_slots < 1 or self.heavy_slots < 1:
            raise ValueError("WebSettings needs at least one light and one heavy slot")


class ServerBusy(Exception):
    """Every slot of a lane stayed busy for ``queue_seconds``."""


@dataclass
class _Lanes:
    """The worker pool and the two semaphores; built lazily inside the running event loop."""

    settings: WebSettings
    executor: ThreadPoolExecutor | None = None
    light: asyncio.Semaphore | None = None
    heavy: asyncio.Semaphore | None = None

    def pool(self) -> ThreadPoolExecutor:
        if self.executor is None:
            workers = self.settings.light_slots + self.settings.heavy_slots + 1  # + 1 for the warm-up
            self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="npuzzle-solve")
        return self.executor

    def semaphore(self, lane: str) -> asyncio.Semaphore:
        if self.light is None or self.heavy is None:
            self.light = asyncio.Semaphore(self.settings.light_slots)
            self.heavy = asyncio.Semaphore(self.settings.heavy_slots)
        return self.light if lane == "light" else self.heavy

    async def run(self, lane: str, fn: Callable[[], T], budget: float) -> T:
        """Run ``fn`` in the pool once ``lane`` has a free slot; the slot is held until ``fn`` returns,
        even when this request gives up or its client goes away."""
        semaphore = self.semaphore(lane)
        try:
            await asyncio.wait_for(semaphore.acquire(), self.settings.queue_seconds)
        except TimeoutError:
            raise ServerBusy(
                f"all {lane} solve slots stayed busy for {self.settings.queue_seconds:g} s; try again shortly"
            ) from None

        def release(_: object) -> None:
            semaphore.release()

        future = asyncio.get_running_loop().run_in_executor(self.pool(), fn)
        future.add_done_callback(release)
        try:
            return await asyncio.wait_for(asyncio.shield(future), budget + self.settings.grace_seconds)
        except TimeoutError:
            raise SearchLimitExceeded(
                f"the search did not finish within its {budget:g} s budget", limit="max_seconds"
            ) from None

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


class PathCache:
    """The positions on recently found solutions, each with the moves left from there to the goal.

    A hint first looks here, so a player who follows hints (or stops an auto-solve and asks for one) gets
    the next move of the same solution at once, instead of a fresh search that may pick another
    non-optimal path. A suffix of a shortest path is a shortest path, so ``optimal`` carries over.
    Bounded by ``max_boards`` positions in all (oldest solutions dropped first); used from the event loop
    thread only, so it needs no lock.
    """

    def __init__(self, max_boards: int = 50_000) -> None:
        self.max_boards = max_boards
        self._paths: OrderedDict[int, tuple[list[tuple[int, ...]], tuple[int, ...], bool]] = OrderedDict()
        self._where: dict[
            tuple[tuple[int, ...], ...], tuple[int, int]
        ] = {}  # (tiles, goal) -> (path id, step)
        self._size = 0
        self._next_id = 0

    @staticmethod
    def _key(board: Board, goal_board: Board) -> tuple[tuple[int, ...], ...]:
        return (board.tiles, goal_board.tiles, (board.width, board.height, board.blank))

    def put(self, solution: Solution) -> None:
        if solution.metric != "single" or solution.length == 0 or solution.length >= self.max_boards:
            return
        keys = [self._key(b, solution.goal) for b in solution.boards()][:-1]
        path_id = self._next_id
        self._next_id += 1
        self._paths[path_id] = (keys, solution.moves, solution.optimal)
        for step, key in enumerate(keys):
            self._where[key] = (path_id, step)
        self._size += len(keys)
        while self._size > self.max_boards:
            old_id, (old_keys, _, _) = self._paths.popitem(last=False)
            self._size -= len(old_keys)
            for key in old_keys:
                if self._where.get(key, (None,))[0] == old_id:
                    del self._where[key]

    def moves_left(self, board: Board, goal_board: Board) -> tuple[tuple[int, ...], bool] | None:
        """The moves from ``board`` to ``goal_board`` on a cached solution, and whether they are optimal."""
        found = self._where.get(self._key(board, goal_board))
        if found is None:
            return None
        path_id, step = found
        _, moves, optimal = self._paths[path_id]
        self._paths.move_to_end(path_id)
        return moves[step:], optimal


# -- the library calls, kept free of HTTP ---------------------------------------------------------------
def _solver() -> Callable[..., Solution]:
    """``npuzzle.search.solve``, imported on first use (it loads numba)."""
    try:
        from ..search import solve  # type: ignore[attr-defined]
    except ImportError:
        from ..search.solver import solve  # type: ignore[import-not-found,no-redef]
    return solve  # type: ignore[no-any-return]


def board_from(request: BoardRequest) -> tuple[Board, Board]:
    """The start and goal boards of a request; width and height are inferred for a square tile count."""
    width, height = request.width, request.height
    n = len(request.board)
    if width is None and height is None:
        side = round(n**0.5)
        if side * side != n:
            raise _size_error(n)
        width = height = side
    elif width is None:
        width = n // height if height and n % height == 0 else 0
    elif height is None:
        height = n // width if n % width == 0 else 0
    if not width or not height:
        raise _size_error(n)
    start = Board(request.board, width, height, request.blank)
    return start, goal_for(start, request.goal)


def _size_error(n: int) -> PuzzleError:
    return BoardFormatError(f"cannot tell the board's size from {n} tiles; give width and height")


def solve_within(
    start: Board,
    goal_board: Board,
    seconds: float,
    *,
    algorithm: str = "auto",
    heuristic: str | None = None,
    weight: float | None = None,
    metric: str = "single",
    max_memory_mb: int | None = None,
) -> Solution:
    """Solve within ``seconds``. ``auto`` is the library's anytime ladder (:mod:`npuzzle.search.anytime`,
    the one the CLI and ``npuzzle.solve`` use): a quick answer first, then the rest of the budget spent on
    exact search or shorter answers, so it always answers a solvable board; the answer's ``optimal`` and
    ``lower_bound`` say what is proven. Other algorithms (or ``auto`` with a heuristic or a weight) run as
    asked, once, and may run out of time."""
    solve = _solver()
    limits = Limits(max_seconds=seconds, max_memory_mb=max_memory_mb)
    return solve(
        start,
        goal_board,
        algorithm=algorithm,
        heuristic=heuristic,
        weight=weight,
        limits=limits,
        metric=metric,
    )


def generate_board(goal_board: Board, method: str, moves: int | None, seed: int) -> Board:
    """A solvable start for ``goal_board`` by ``method`` (shuffle, walk, tile-walk) with the library's
    default walk lengths when ``moves`` is None."""
    from .. import generate as generation

    return generation.generate(goal_board, method, moves=moves, seed=seed)[0]


def layouts_for(width: int, height: int) -> list[Layout]:
    """Every goal layout at this size; parameterised ones with a representative parameter."""
    out = []
    for name in layout_names():
        value = {"blank-at": "blank-at:0", "random": "random:1"}.get(name, name)
        out.append(Layout(name=value, board=list(goal(value, width, height).tiles)))
    return out


# -- the application --------------------------------------------------------------------------------------
def _error_response(request: Request, exc: Exception) -> JSONResponse:
    """The one place that turns an error into an HTTP answer (see the module docstring for the table)."""
    body: dict[str, Any] = {
        "detail": " ".join((str(exc) or exc.__class__.__name__).split()),
        "kind": exc.__class__.__name__,
    }
    headers = None
    if isinstance(exc, ServerBusy):
        status = 503
        headers = {"Retry-After": "2"}
    elif isinstance(exc, SearchLimitExceeded):
        status = 422
        body["limit"] = exc.limit or None
        stats = exc.stats
        body["stats"] = stats.to_dict() if hasattr(stats, "to_dict") else stats
    elif isinstance(exc, RequestValidationError):
        status = 422
        body["detail"] = _validation_sentence(exc)
        body["kind"] = "ValidationError"
    else:  # PuzzleError, ValueError: something about the input
        status = 400
    return JSONResponse(body, status_code=status, headers=headers)


def _validation_sentence(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request does not match the schema"


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The FastAPI application: the JSON API under ``/api``, the docs at ``/docs``, the game at ``/``."""
    settings = settings or WebSettings()
    lanes = _Lanes(settings)
    paths = PathCache()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.warmup:  # compile the kernels while the first player reads the page
            app.state.warmup = lanes.pool().submit(_warm_up)
        yield
        lanes.close()

    app = FastAPI(
        title="npuzzle",
        summary="Sliding-tile puzzles on any W×H board: check, generate, solve, hint.",
        description=__doc__,
        version=_version(),
        lifespan=lifespan,
        responses={400: {"model": ErrorResponse}, 422: {"model": ErrorResponse}},
    )
    app.state.settings = settings
    app.state.lanes = lanes
    app.state.paths = paths
    app.state.warmup = None  # with settings.warmup: a future that is done once the kernels are compiled
    for kind in (PuzzleError, ValueError, ServerBusy, RequestValidationError):
        app.add_exception_handler(kind, _error_response)  # type: ignore[arg-type]

    def lane_for(board: Board) -> str:
        return "light" if board.n_cells <= settings.light_cells else "heavy"

    def check_solve_size(board: Board) -> None:
        if board.n_cells > settings.max_solve_cells:
            raise ProblemTooLargeError(
                f"this server solves boards of at most {settings.max_solve_cells} cells; "
                f"{board.width}x{board.height} has {board.n_cells}"
            )

    @app.get("/api/layouts", response_model=LayoutsResponse, tags=["boards"])
    def layouts(
        width: int = Query(4, ge=2, le=MAX_API_SIDE), height: int = Query(4, ge=2, le=MAX_API_SIDE)
    ) -> LayoutsResponse:
        """The goal layouts (classic, snake, spiral, ...) with their boards for a ``width`` × ``height`` board."""
        return LayoutsResponse(width=width, height=height, layouts=layouts_for(width, height))

    @app.post("/api/check", response_model=CheckResponse, tags=["boards"])
    def check(request: BoardRequest) -> CheckResponse:
        """Can the board reach the goal? With the inversion count and the reason in a sentence."""
        start, goal_board = board_from(request)
        facts = explain(start, goal_board)
        fields = facts.to_dict()
        return CheckResponse(explanation=fields.pop("sentence"), goal=list(goal_board.tiles), **fields)

    @app.post("/api/generate", response_model=GenerateResponse, tags=["boards"])
    def generate(request: GenerateRequest) -> GenerateResponse:
        """A new start position, always solvable for the goal. Without a seed the server draws one and
        returns it, so any board can be reproduced."""
        if isinstance(request.goal, str):  # the layout's own labels (blank-at uses 1..N without one)
            goal_board = goal(request.goal, request.width, request.height, request.blank)
        else:
            goal_board = Board(request.goal, request.width, request.height, request.blank)
        seed = secrets.randbits(32) if request.seed is None else request.seed
        start = generate_board(goal_board, request.method, request.moves, seed)
        return GenerateResponse(
            board=list(start.tiles),
            goal=list(goal_board.tiles),
            width=start.width,
            height=start.height,
            blank=start.blank,
            seed=seed,
        )

    @app.post("/api/solve", response_model=SolveResponse, tags=["solving"])
    async def solve(request: SolveRequest) -> dict[str, Any]:
        """Solve the board: the ``npuzzle solve --json`` object. ``max_seconds`` is clamped to the server's
        cap; ``auto`` falls back to non-optimal methods in time (see ``optimal``) and always answers a
        solvable board; a 422 when an algorithm named in the request found nothing in time."""
        start, goal_board = board_from(request)
        check_solve_size(start)
        budget = min(request.max_seconds or settings.default_seconds, settings.max_seconds)
        solution = await lanes.run(
            lane_for(start),
            lambda: solve_within(
                start,
                goal_board,
                budget,
                algorithm=request.algorithm,
                heuristic=request.heuristic,
                weight=request.weight,
                metric=request.metric,
                max_memory_mb=settings.max_memory_mb,
            ),
            budget,
        )
        paths.put(solution)
        return solution.to_dict()

    @app.post("/api/hint", response_model=HintResponse, tags=["solving"])
    async def hint(request: HintRequest) -> HintResponse:
        """The next move: the first move of an optimal solution when one is found in time, otherwise of
        the best solution found. ``direction`` is where the tile travels."""
        start, goal_board = board_from(request)
        if start == goal_board:
            return HintResponse(move=None, direction=None, remaining=0, optimal=True)
        check_solve_size(start)
        known = paths.moves_left(start, goal_board)
        if known is None:
            budget = min(request.max_seconds or settings.hint_seconds, settings.hint_seconds)
            solution = await lanes.run(
                lane_for(start),
                lambda: solve_within(start, goal_board, budget, max_memory_mb=settings.max_memory_mb),
                budget,
            )
            paths.put(solution)
            known = solution.moves, solution.optimal
        moves, optimal = known
        return HintResponse(
            move=moves[0],
            direction=start.direction_of(moves[0]),  # type: ignore[arg-type]
            remaining=len(moves),
            optimal=optimal,
        )

    app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="static")
    return app


def _warm_up() -> None:
    """Compile (or load from numba's cache) every kernel a request may use, before the first player asks:
    otherwise the first hard request spends its whole budget compiling and answers 422."""
    from .._kernels.warmup import warmup

    near_3x3 = Board([1, 2, 3, 4, 5, 6, 7, 0, 8], 3, 3)
    near_4x4 = Board([*range(1, 14), 14, 0, 15], 4, 4)  # takes the pattern-database path when tables exist
    steps: list[Callable[[], object]] = [
        warmup,
        lambda: solve_within(near_3x3, classic(3, 3), 300.0),
        lambda: solve_within(near_4x4, classic(4, 4), 300.0),
        lambda: _prepare_tables(near_4x4, classic(4, 4)),  # exact 4×4 hints within the budget from now on
    ]
    for step in steps:
        # warm-up only: a failure here shows up again, with its reason, on a real request
        with contextlib.suppress(Exception):
            step()


def _prepare_tables(start: Board, goal_board: Board) -> None:
    from ..search.anytime import prepare_tables

    prepare_tables(start, goal_board)


def _version() -> str:
    from .. import __version__

    return __version__


__all__ = [
    "STATIC_DIR",
    "PathCache",
    "ServerBusy",
    "WebSettings",
    "board_from",
    "create_app",
    "generate_board",
    "layouts_for",
    "solve_within",
]
