"""The HTTP API and the game page: ``create_app(settings)`` builds a FastAPI application.

Routes::

    GET  /                 the game (static files from ``web/static``)
    GET  /limits.js        the board sizes the game offers and the upload cap, from the settings (an ES module
                           the page imports)
    GET  /docs, /redoc     OpenAPI documentation (local assets: they work offline)
    GET  /api/status       whether the start-up work is done; how busy each lane is
    GET  /api/layouts      goal layouts with their boards for ?width=&height=
    POST /api/check        solvability with the reason
    POST /api/generate     a solvable start (shuffle / walk / tile-walk)
    POST /api/solve        the ``npuzzle solve --json`` object
    POST /api/read         the board on a screenshot (base64 JSON, up to ``max_upload_bytes``), with confidences
    POST /api/hint         the next move of the best solution found in time (or of a recent one that
                           passes through this position: :class:`PathCache`)

Boards of 2 to 32 cells each way are checked and generated; 2 to 16 each way (256 cells: ``MAX_SOLVE_SIDE``)
solved, hinted (a solved board too), analysed and read from a screenshot.

Errors, all in one place (:func:`_error_response`), all as ``{"detail": "<sentence>", "kind": "<class>"}``;
``detail`` quotes at most a short excerpt of the input:

* 400: any :class:`~npuzzle.errors.PuzzleError` about the input (bad labels, wrong size, goal mismatch,
  unsolvable, board too large for the API or the method), ``ValueError`` from the library, and a body that
  is not JSON (``MalformedJSON``);
* 404 / 405: an ``/api`` path that does not exist, or exists for other methods (never the static files);
* 408 / 413: a body that did not arrive within ``body_seconds``, or is larger than ``max_body_bytes``
  (refused on its declared size before a byte is read: :mod:`npuzzle.web.guard`);
* 422: the request does not match the schema (missing field, wrong type, out-of-range number; labels are
  strict JSON integers), and :class:`~npuzzle.errors.SearchLimitExceeded` (an algorithm named in the
  request found no solution within the time cap; the body adds ``limit`` and ``stats``). ``auto`` (and every
  hint) always answers a solvable board: its last resort is the constructive solver;
* 500: a bug, logged with its traceback, answered without one;
* 503 with ``Retry-After``: a lane is full (``max_waiting`` queued) or its slots stayed busy for its queue
  time, or a pattern-database table was found damaged (it is being rebuilt).

A refusal of ``/api/read`` adds the board it is about (``width``, ``height``) and the cells (``groups``) as
data when it carries them (:func:`refusal_cells`): ``detail`` is cut to ``MAX_DETAIL_CHARS``, the data never is.

Nothing slow runs on the event loop. Searches go to a thread pool (the numba kernels release the GIL) in two
lanes, each guarded by a semaphore: *light* boards (at most ``light_cells`` cells: 3×3 and smaller, solved in
milliseconds) and *heavy* ones (everything else, each capped at ``max_seconds``). A request waits up to
``queue_seconds`` for a slot in its lane and then gets a 503; so a burst of hard 4×4 requests queues among
themselves, and the 3×3 ones share only the CPU with them (the heavy lane leaves one core free by default).
Check, generate and layouts run in a third, *quick* lane with its own small pool and a short queue. Bodies
are capped at 64 KiB, so parsing one on the event loop costs a few milliseconds at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import sys
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..board import MIN_SIDE, Board
from ..errors import (
    BoardFormatError,
    InvalidSolutionError,
    ProblemTooLargeError,
    PuzzleError,
    SearchLimitExceeded,
    TableError,
)
from ..goals import classic, goal, goal_for, layout_names
from ..search.limits import Limits
from ..solution import Solution
from ..solvability import explain
from .docs import add_offline_docs as _add_offline_docs
from .guard import BodyLimit, SecurityHeaders, excerpt, send_error, shorten
from .schemas import (
    MAX_API_SIDE,
    MAX_SOLVE_CELLS,
    MAX_SOLVE_SIDE,
    AnalyzeResponse,
    BoardRequest,
    CheckResponse,
    ErrorResponse,
    GenerateRequest,
    GenerateResponse,
    HintRequest,
    HintResponse,
    LaneLoad,
    Layout,
    LayoutsResponse,
    ReadRequest,
    ReadResponse,
    SolveRequest,
    SolveResponse,
    StatusResponse,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..render.vision import ScreenshotReading

STATIC_DIR = Path(__file__).parent / "static"
T = TypeVar("T")
_log = logging.getLogger("npuzzle.web")
#: Every error status the API answers with, for the OpenAPI document (all with :class:`ErrorResponse`).
ERROR_STATUSES = {
    400: "Bad input: labels, size, goal, unsolvable board, malformed JSON.",
    404: "No such API path.",
    405: "The path exists for other methods (see Allow).",
    408: "The request body did not arrive in time.",
    413: "The request body is larger than the server accepts.",
    422: "The request does not match the schema, or a named algorithm found nothing in time.",
    500: "A server bug (logged); no details are sent.",
    503: "Busy (see Retry-After), or a server table is being repaired.",
}


@dataclass(frozen=True)
class WebSettings:
    """Server caps. Times in seconds; ``*_cells`` count cells (width × height)."""

    max_seconds: float = 5.0  # hard cap on one solve request, whatever the client asks
    default_seconds: float = 3.0  # solve budget when the request names none
    hint_seconds: float = 3.0  # hard cap (and default) for a hint
    # solve, hint and analyze (and /api/read's schema) take sides 2..16 each way, 256 cells: the page's largest
    # board; larger ones get a 400 from every one of them. Check / generate / layouts go to MAX_API_SIDE.
    max_solve_cells: int = MAX_SOLVE_CELLS
    max_solve_side: int = MAX_SOLVE_SIDE
    light_cells: int = 9  # boards this small (3×3, 2×4) go to the light lane
    light_slots: int = 4  # concurrent light solves
    heavy_slots: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))  # one core stays free
    queue_seconds: float = 20.0  # wait for a free slot before answering 503 (four heavy solves' worth)
    grace_seconds: float = 30.0  # extra wait beyond the budget (first-call JIT compile) before giving up
    max_memory_mb: int = 512  # per search (A* open/closed sets)
    warmup: bool = False  # compile the kernels in the background at startup
    # check / generate / layouts: milliseconds each, run in their own small pool so a flood of them queues
    # briefly and then sheds (503) instead of piling up behind the solves or each other
    quick_slots: int = 4
    quick_queue_seconds: float = 2.0
    max_waiting: int = 64  # requests queued for one lane beyond its slots; more get an immediate 503
    # what a client may send: the body (the largest legal one, a 32×32 board with its goal, is ~12 kB)
    max_body_bytes: int = 64 * 1024
    # /api/read: a screenshot in base64 (4/3 of its bytes) gets its own cap, and its pixels one more (a small
    # PNG can claim a huge canvas: a decompression bomb is refused on its declared size before decoding)
    max_upload_bytes: int = 8 * 1024 * 1024
    max_read_pixels: int = 40_000_000  # an 8K screen is 33 Mpx
    read_seconds: float = 20.0  # budget of one screenshot reading (grid, OCR, matching)
    body_seconds: float = 10.0  # the whole body must arrive within this, else 408
    # the uvicorn server (npuzzle.web.server): request head deadline and size, keep-alive, connections
    head_seconds: float = 10.0
    max_head_bytes: int = 16 * 1024
    keep_alive_seconds: float = 5.0
    max_connections: int = 512  # beyond: uvicorn answers 503 at once
    bank: str | None = None  # a puzzle bank (npuzzle.bank): generate with a length draws from it first

    def __post_init__(self) -> None:
        for name in (
            "max_seconds",
            "default_seconds",
            "hint_seconds",
            "queue_seconds",
            "quick_queue_seconds",
            "body_seconds",
            "read_seconds",
            "head_seconds",
            "keep_alive_seconds",
        ):
            value = getattr(self, name)
            if not value > 0 or value == float("inf"):  # also refuses nan
                raise ValueError(f"WebSettings.{name} must be a positive number of seconds, got {value!r}")
        if self.light_slots < 1 or self.heavy_slots < 1 or self.quick_slots < 1:
            raise ValueError("WebSettings needs at least one light, one heavy and one quick slot")
        for name in (
            "max_waiting",
            "max_body_bytes",
            "max_upload_bytes",
            "max_read_pixels",
            "max_head_bytes",
            "max_connections",
            "max_solve_side",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"WebSettings.{name} must be at least 1, got {getattr(self, name)!r}")


class ServerBusy(Exception):
    """Every slot of a lane stayed busy for ``queue_seconds``."""


@dataclass
class _Lanes:
    """The worker pools and one semaphore per lane; built lazily inside the running event loop.

    Lanes: ``light`` and ``heavy`` solves (see the module docstring) and ``quick`` for check / generate /
    layouts. A lane holds at most its slots' worth of running calls plus ``max_waiting`` queued ones; a
    request beyond that, or one that waited its lane's queue time, gets :class:`ServerBusy` (503)."""

    settings: WebSettings
    executor: ThreadPoolExecutor | None = None
    quick_executor: ThreadPoolExecutor | None = None
    semaphores: dict[str, asyncio.Semaphore] = field(default_factory=dict)
    admitted: dict[str, int] = field(default_factory=dict)

    def pool(self) -> ThreadPoolExecutor:
        if self.executor is None:
            workers = self.settings.light_slots + self.settings.heavy_slots + 1  # + 1 for the warm-up
            self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="npuzzle-solve")
        return self.executor

    def quick_pool(self) -> ThreadPoolExecutor:
        if self.quick_executor is None:
            self.quick_executor = ThreadPoolExecutor(
                max_workers=self.settings.quick_slots, thread_name_prefix="npuzzle-quick"
            )
        return self.quick_executor

    def semaphore(self, lane: str) -> asyncio.Semaphore:
        if not self.semaphores:
            self.semaphores = {
                "light": asyncio.Semaphore(self.settings.light_slots),
                "heavy": asyncio.Semaphore(self.settings.heavy_slots),
                "quick": asyncio.Semaphore(self.settings.quick_slots),
            }
        return self.semaphores[lane]

    def slots(self, lane: str) -> int:
        return {
            "light": self.settings.light_slots,
            "heavy": self.settings.heavy_slots,
            "quick": self.settings.quick_slots,
        }[lane]

    def admit(self, lane: str) -> None:
        """Count one more request in ``lane``, or :class:`ServerBusy` when it holds its slots' worth plus
        ``max_waiting`` already; the caller calls :meth:`leave` when that request is over."""
        slots, admitted = self.slots(lane), self.admitted.get(lane, 0)  # running or waiting in this lane
        if admitted >= slots + self.settings.max_waiting:
            raise ServerBusy(
                f"the {lane} lane is full ({slots} running, {admitted - slots} waiting); try again shortly"
            )
        self.admitted[lane] = admitted + 1

    def leave(self, lane: str) -> None:
        self.admitted[lane] -= 1

    async def acquire(self, lane: str, admit: bool = True) -> Callable[[object], None]:
        """A slot of ``lane``, or :class:`ServerBusy`; returns the function that gives the slot back.
        ``admit=False``: the request was admitted (counted) already, at the door (:class:`QuickAdmission`)."""
        if admit:
            self.admit(lane)
        wait = self.settings.quick_queue_seconds if lane == "quick" else self.settings.queue_seconds
        semaphore = self.semaphore(lane)
        try:
            async with asyncio.timeout(wait):
                await semaphore.acquire()
        except TimeoutError:
            if admit:
                self.leave(lane)
            raise ServerBusy(f"all {lane} slots stayed busy for {wait:g} s; try again shortly") from None
        except BaseException:  # the request was cancelled while it waited
            if admit:
                self.leave(lane)
            raise

        def release(_: object = None) -> None:
            semaphore.release()
            if admit:
                self.leave(lane)

        return release

    async def run(self, lane: str, fn: Callable[[], T], budget: float, work: str = "search") -> T:
        """Run ``fn`` in the pool once ``lane`` has a free slot; the slot is held until ``fn`` returns,
        even when this request gives up or its client goes away. ``work`` names it in the message of a
        request that gives up."""
        release = await self.acquire(lane)
        future = asyncio.get_running_loop().run_in_executor(self.pool(), fn)
        future.add_done_callback(release)
        try:
            return await asyncio.wait_for(asyncio.shield(future), budget + self.settings.grace_seconds)
        except TimeoutError:
            raise SearchLimitExceeded(
                f"the {work} did not finish within its {budget:g} s budget", limit="max_seconds"
            ) from None

    async def quick(self, fn: Callable[[], T]) -> T:
        """Run a millisecond job (check, generate, layouts) off the event loop in the quick lane."""
        release = await self.acquire("quick", admit=False)
        future = asyncio.get_running_loop().run_in_executor(self.quick_pool(), fn)
        future.add_done_callback(release)  # held until the job ends, client or not
        return await asyncio.shield(future)

    def close(self) -> None:
        for executor in (self.executor, self.quick_executor):
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self.executor = self.quick_executor = None


class QuickAdmission:
    """Admission to the quick lane at the door, before the body is read or parsed: under a flood of checks
    the event loop itself is the bottleneck (parsing, validating, answering), so counting requests only once
    they reach the lane would let every one in and make them all slow. A request to a quick path beyond
    ``quick_slots + max_waiting`` in progress gets a 503 at once, for the price of a few bytes."""

    PATHS = frozenset({"/api/check", "/api/generate", "/api/layouts"})

    def __init__(self, app: Any, lanes: _Lanes) -> None:
        self.app = app
        self.lanes = lanes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") not in self.PATHS:
            await self.app(scope, receive, send)
            return
        try:
            self.lanes.admit("quick")
        except ServerBusy as exc:
            await send_error(send, 503, str(exc), "ServerBusy", {"Retry-After": "2"})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.lanes.leave("quick")


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


def manhattan_bound(start: Board, goal_board: Board) -> int:
    """Sum over tiles of rows plus columns to their goal cell: a lower bound on any single-tile solution."""
    home = {label: cell for cell, label in enumerate(goal_board.tiles)}
    width = start.width
    return sum(
        abs(cell // width - home[label] // width) + abs(cell % width - home[label] % width)
        for cell, label in enumerate(start.tiles)
        if label != start.blank
    )


def usable_first_move(start: Board, moves: tuple[int, ...]) -> bool:
    """Whether ``moves`` starts with a tile that can slide on ``start`` (single-tile metric)."""
    return bool(moves) and moves[0] in start.legal_moves()


def generate_board(goal_board: Board, method: str, moves: int | None, seed: int) -> Board:
    """A solvable start for ``goal_board`` by ``method`` (shuffle, walk, tile-walk) with the library's
    default walk lengths when ``moves`` is None."""
    from .. import generate as generation

    return generation.generate(goal_board, method, moves=moves, seed=seed)[0]


#: Image formats ``/api/read`` decodes (Pillow's names); anything else is refused before decoding.
READ_FORMATS = frozenset({"PNG", "JPEG", "WEBP", "GIF", "BMP"})


def decode_picture(text: str, what: str, max_pixels: int) -> Any:
    """A Pillow RGB image from base64 text or a ``data:`` URL; :class:`PictureError` naming what is wrong
    (not base64, not an image, a format not offered, more than ``max_pixels`` pixels, checked on the
    declared size before any pixel is decoded)."""
    import base64
    import binascii
    import io
    import warnings

    from PIL import Image, UnidentifiedImageError

    from ..render.image import PictureError, load_picture

    if text.startswith("data:"):
        head, _, text = text.partition(",")
        if not head.endswith(";base64"):
            raise PictureError(f"the {what} is a data: URL without ;base64 ({excerpt(head)})")
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise PictureError(f"the {what} is not base64 text (nor a data: URL)") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(raw))
            if image.format not in READ_FORMATS:
                raise PictureError(f"the {what} is a {image.format} image; send PNG, JPEG, WebP, GIF or BMP")
            w, h = image.size
            if w * h > max_pixels:
                raise PictureError(
                    f"the {what} is {w:,}x{h:,} pixels, more than this server reads ({max_pixels:,}): "
                    "send a smaller screenshot"
                )
            image.load()
    except PictureError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PictureError(f"the {what} declares too many pixels to decode (a decompression bomb?)") from None
    except UnidentifiedImageError:
        raise PictureError(f"the {what} is not an image file (send PNG, JPEG, WebP, GIF or BMP)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:  # a damaged or truncated image
        reason = " ".join(str(exc).split())[:120] or exc.__class__.__name__
        raise PictureError(f"the {what} is not a readable image ({reason})") from None
    return load_picture(image, what)


def read_now(request: ReadRequest, max_pixels: int, max_seconds: float | None = None) -> ReadResponse:
    """The ``/api/read`` work: decode, call the reader (stopping it after ``max_seconds``), shape the answer."""
    from ..render.vision import read_screenshot

    shot = decode_picture(request.screenshot, "screenshot", max_pixels)
    reference = (
        None if request.reference is None else decode_picture(request.reference, "reference", max_pixels)
    )
    options: dict[str, Any] = {
        "strict": not request.allow_ambiguous, "blank_cell": request.blank_cell, "max_seconds": max_seconds,
    }
    if request.crop is not None:
        options["crop"] = tuple(request.crop)
    if request.hole_home is not None and reference is None:  # a reference shows where the hole belongs
        options["hole_home"] = request.hole_home
    reading = read_screenshot(shot, request.width, request.height, reference, **options)  # cells checked first
    grid = getattr(reading, "grid", None)
    return ReadResponse(
        width=reading.board.width,
        height=reading.board.height,
        tiles=list(reading.board.tiles),
        goal=list(reading.goal.tiles),
        confidence=[round(float(c), 3) for c in reading.confidence],
        kind=reading.kind,
        missing=reading.missing,
        home_assumed=reading.home_assumed,
        ambiguous=[list(g) for g in reading.ambiguous],
        cells=None if grid is None else [[round(float(v), 1) for v in box] for box in grid.cell_boxes()],
        preview=None if reading.preview is None else [round(float(v), 1) for v in reading.preview],
        picture=None if reference is not None or reading.picture is None else finished_picture_url(reading),
        image_width=shot.width,
        image_height=shot.height,
    )


PICTURE_PIECE_PX = 120  # the widest a piece of the finished picture /api/read sends is (as the page draws it)


def finished_picture_url(reading: ScreenshotReading) -> str:
    """The picture ``reading``'s tiles make at their homes (its ``picture``), shrunk to at most
    :data:`PICTURE_PIECE_PX` a piece, as a JPEG data URL: the page's finished picture for the board read."""
    import base64
    import io

    assert reading.picture is not None
    picture = reading.picture.convert("RGB")
    side = max(picture.width / reading.board.width, picture.height / reading.board.height)
    if side > PICTURE_PIECE_PX:
        scale = PICTURE_PIECE_PX / side
        picture = picture.resize((max(1, round(picture.width * scale)), max(1, round(picture.height * scale))))
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", quality=90)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode()


def layouts_for(width: int, height: int) -> list[Layout]:
    """Every goal layout at this size; parameterised ones with a representative parameter."""
    out = []
    for name in layout_names():
        value = {"blank-at": "blank-at:0", "random": "random:1"}.get(name, name)
        out.append(Layout(name=value, board=list(goal(value, width, height).tiles)))
    return out


# -- the application --------------------------------------------------------------------------------------
#: Every field a request can carry: library messages name CLI flags (``--hole-home``), the API names these.
REQUEST_FIELDS = frozenset(
    name for model in (SolveRequest, HintRequest, GenerateRequest, ReadRequest) for name in model.model_fields
)
#: A command to run, quoted in a message (``npuzzle pdb build --size 4x4 ...``): kept as written.
_COMMAND = re.compile(r"`[^`]*`|\bnpuzzle [a-z][^;`()]*")
#: A flag the way library messages write one: a python keyword beside it (``blank=... / --blank``), the
#: size with its placeholder or value (``--size WxH``, ``--size 4x4``), the crop's placeholder, any other.
_FLAG = re.compile(
    r"\b(?P<keyword>\w+)=\.\.\. / --(?P=keyword)\b"
    r"|(?<![\w-])--size(?: WxH| (?P<width>\d+)x(?P<height>\d+))?\b"
    r"|(?<![\w-])--crop X,Y,W,H"
    r"|(?<![\w-])--(?P<flag>[a-z][a-z-]*)"
)


def field_words(sentence: str) -> str:
    """``sentence`` with the CLI flags it names put as the request fields a web client sets instead
    (``--crop X,Y,W,H`` -> ``crop [x, y, w, h]``, ``--size 4x4`` -> ``width 4 and height 4``, ``--hole-home``
    -> ``hole_home``); a flag with no such field, and a quoted command to run, stay as written."""

    def field(match: re.Match[str]) -> str:
        text = match.group(0)
        if match.group("keyword"):
            return match.group("keyword")
        if match.group("width"):
            return f"width {match.group('width')} and height {match.group('height')}"
        if text.startswith("--size"):
            return "width and height"
        if text.startswith("--crop X"):
            return "crop [x, y, w, h]"
        name = match.group("flag").replace("-", "_")
        return name if name in REQUEST_FIELDS else text

    out, done = [], 0
    for command in _COMMAND.finditer(sentence):
        out += [_FLAG.sub(field, sentence[done : command.start()]), command.group(0)]
        done = command.end()
    return "".join([*out, _FLAG.sub(field, sentence[done:])])


def _error_response(request: Request, exc: Exception) -> JSONResponse:
    """The one place that turns an error into an HTTP answer (see the module docstring for the table).
    ``detail`` is one sentence of at most ``MAX_DETAIL_CHARS``: input quoted in a message is cut short, CLI
    flags named in a library message are put as request fields (:func:`field_words`)."""
    body: dict[str, Any] = {
        "detail": shorten(field_words(str(exc) or exc.__class__.__name__)),
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
    elif isinstance(exc, InvalidSolutionError):  # a solver produced a path that does not check out: our bug
        status = 500
        body["detail"] = "internal error: the solver's answer failed its own check (logged; please report it)"
        _log.error("invalid solution while answering %s: %s", request.url.path, exc)
    elif isinstance(exc, TableError):  # the server's own table store: not the client's fault, and temporary
        status = 503
        headers = {"Retry-After": "10"}
        _log.error("table problem while answering %s: %s", request.url.path, exc)
    elif isinstance(exc, RequestValidationError):
        if _is_malformed_json(exc):
            status = 400
            body["kind"] = "MalformedJSON"
        else:
            status = 422
            body["kind"] = "ValidationError"
        body["detail"] = _validation_sentence(exc)
    else:  # PuzzleError, ValueError: something about the input
        status = 400
        body.update(refusal_cells(exc))
    return JSONResponse(body, status_code=status, headers=headers)


def refusal_cells(exc: Exception) -> dict[str, Any]:
    """:func:`npuzzle.render.vision.refusal_data` for a refusal of the screenshot reader (``width``,
    ``height``, ``groups``): the page names the cells from these in its own counting rather than from the
    sentence's wording. Empty for anything else."""
    # not loaded: no screenshot has been read in this process, so ``exc`` cannot be one of its refusals
    vision = sys.modules.get("npuzzle.render.vision")
    return {} if vision is None else vision.refusal_data(exc)


def _is_malformed_json(exc: RequestValidationError) -> bool:
    return any(error.get("type") == "json_invalid" for error in exc.errors())


def _validation_sentence(exc: RequestValidationError) -> str:
    """The schema errors in one sentence: at most five, each place named by a short excerpt."""
    errors = exc.errors()
    parts = []
    for error in errors[:5]:
        if error.get("type") == "json_invalid":
            reason = (error.get("ctx") or {}).get("error", "invalid JSON")
            where = error.get("loc", ("body", "?"))[-1]
            parts.append(f"the body is not valid JSON ({reason} at character {where})")
            continue
        where = ".".join(excerpt(str(p)) for p in error.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    if len(errors) > 5:
        parts.append(f"and {len(errors) - 5} more")
    return shorten("; ".join(parts) or "the request does not match the schema")


def _http_error_response(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """Starlette's own 4xx (404 from the static files, 400 for a body FastAPI could not parse) in the
    API's shape."""
    kind = {400: "BadRequest", 404: "NotFound", 405: "MethodNotAllowed"}.get(exc.status_code, "HTTPError")
    detail = exc.detail if isinstance(exc.detail, str) else "the request was refused"
    if exc.status_code == 400 and "parsing the body" in detail:  # json.loads raised something not JSON's own
        kind, detail = "MalformedJSON", _unparsable_body_sentence(exc.__cause__)
    return JSONResponse(
        {"detail": shorten(field_words(detail)), "kind": kind},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def _unparsable_body_sentence(cause: BaseException | None) -> str:
    """Why ``json.loads`` failed on a body with something other than a ``JSONDecodeError`` (those are
    :func:`_validation_sentence`'s, with their position): bytes that are not UTF-8, a number longer than
    Python converts, or nesting deeper than the parser recurses."""
    if isinstance(cause, UnicodeDecodeError):
        return f"the body is not UTF-8 text ({cause.reason} at byte {cause.start:,}): send the JSON encoded as UTF-8"
    if isinstance(cause, RecursionError):
        return "the body's JSON is nested too deeply to parse (arrays or objects inside one another)"
    if isinstance(cause, ValueError) and "digits" in str(cause):  # int(): sys.get_int_max_str_digits()
        found = re.search(r"value has (\d+) digits", str(cause))
        has = f" ({int(found.group(1)):,} digits)" if found else ""
        return (
            f"a number in the body is too long to read{has}: this server reads numbers of at most "
            f"{sys.get_int_max_str_digits():,} digits (labels, sizes and seeds are short integers)"
        )
    reason = cause.__class__.__name__ if cause is not None else "no reason given"
    return f"the body could not be parsed as JSON ({reason})"


def _unexpected_response(request: Request, exc: Exception) -> JSONResponse:
    """A bug: logged with its traceback here, answered without one."""
    _log.error("unexpected error answering %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse(
        {
            "detail": "the server failed to answer this request; the error has been logged",
            "kind": "InternalError",
        },
        status_code=500,
    )


def limits_js(settings: WebSettings) -> str:
    """``/limits.js``: the sides the game page offers (those this server solves and hints), the largest
    board it deals by an exact optimal length and the largest ``/api/read`` body it takes (the cap
    :class:`~npuzzle.web.guard.BodyLimit` enforces there), as ES module constants."""
    from ..analysis.difficulty import OPTIMAL_CELLS

    return (
        "// Served by npuzzle.web.app (limits_js) from this server's settings; not a file in static/.\n"
        f"export const MIN_SIDE = {MIN_SIDE};\n"
        f"export const MAX_SIDE = {settings.max_solve_side};\n"
        f"export const LENGTH_CELLS = {OPTIMAL_CELLS}; // exact-length deals and automatic analysis\n"
        f"export const MAX_UPLOAD_BYTES = {settings.max_upload_bytes}; // a whole /api/read request body\n"
    )


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The FastAPI application: the JSON API under ``/api``, the docs at ``/docs``, the game at ``/``."""
    settings = settings or WebSettings()
    lanes = _Lanes(settings)
    paths = PathCache()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.warmup:  # compile the kernels while the first player reads the page
            app.state.warmup = lanes.pool().submit(_warm_up, app.state.warming)
        yield
        app.state.warming.stop_helpers()
        lanes.close()

    app = FastAPI(
        title="npuzzle",
        summary="Sliding-tile puzzles on any W×H board: check, generate, solve, hint.",
        description=__doc__,
        version=_version(),
        lifespan=lifespan,
        responses={
            code: {"model": ErrorResponse, "description": why} for code, why in ERROR_STATUSES.items()
        },
        docs_url=None,  # served below from local assets (fastapi-offline), not from a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.lanes = lanes
    app.state.paths = paths
    app.state.warmup = None  # with settings.warmup: a future that is done once the kernels are compiled
    app.state.warming = WarmUpState()  # what the warm-up is doing now
    for kind in (PuzzleError, ValueError, ServerBusy, RequestValidationError):
        app.add_exception_handler(kind, _error_response)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error_response)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _unexpected_response)
    # outermost first: headers on every answer, then the body cap before anything reads the body (the upload
    # cap is also in /limits.js: the page sizes a screenshot by it)
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        read_seconds=settings.body_seconds,
        path_caps={"/api/read": settings.max_upload_bytes},
    )
    app.add_middleware(QuickAdmission, lanes=lanes)  # before the body is read
    app.add_middleware(SecurityHeaders)
    _add_offline_docs(app)

    def lane_for(board: Board) -> str:
        return "light" if board.n_cells <= settings.light_cells else "heavy"

    def check_solve_size(board: Board) -> None:
        side = settings.max_solve_side
        if board.width > side or board.height > side or board.n_cells > settings.max_solve_cells:
            raise ProblemTooLargeError(
                f"this server solves and hints boards of 2 to {side} cells each way (at most "
                f"{settings.max_solve_cells} cells); {board.width}x{board.height} is larger"
            )

    @app.get("/api/status", response_model=StatusResponse, tags=["server"])
    async def status() -> StatusResponse:
        """Whether the start-up work is done (``warm``) and how many requests each lane holds."""
        slots = {"light": settings.light_slots, "heavy": settings.heavy_slots, "quick": settings.quick_slots}
        warmup = app.state.warmup
        warming: WarmUpState = app.state.warming
        done = None if warmup is None else warmup.done()
        return StatusResponse(
            version=_version(),
            warm=done,
            hints_ready=None if warmup is None else done or warming.hints_ready,
            stage=None if warmup is None else "done" if done else warming.stage,
            stage_seconds=dict(warming.seconds),
            lanes={
                lane: LaneLoad(slots=n, admitted=lanes.admitted.get(lane, 0)) for lane, n in slots.items()
            },
        )

    @app.get("/api/layouts", response_model=LayoutsResponse, tags=["boards"])
    async def layouts(
        width: int = Query(4, ge=2, le=MAX_API_SIDE), height: int = Query(4, ge=2, le=MAX_API_SIDE)
    ) -> LayoutsResponse:
        """The goal layouts (classic, snake, spiral, ...) with their boards for a ``width`` × ``height`` board."""
        found = await lanes.quick(lambda: layouts_for(width, height))
        return LayoutsResponse(width=width, height=height, layouts=found)

    def check_now(request: BoardRequest) -> CheckResponse:
        start, goal_board = board_from(request)
        fields = explain(start, goal_board).to_dict()
        return CheckResponse(explanation=fields.pop("sentence"), goal=list(goal_board.tiles), **fields)

    @app.post("/api/check", response_model=CheckResponse, tags=["boards"])
    async def check(request: BoardRequest) -> CheckResponse:
        """Can the board reach the goal? With the inversion count and the reason in a sentence."""
        return await lanes.quick(lambda: check_now(request))

    if settings.bank is not None:  # a bad --bank fails at start-up, not at the first request
        from ..bank import open_bank

        open_bank(settings.bank, create=False).close()

    def from_bank(request: GenerateRequest) -> GenerateResponse | None:
        """A stored puzzle of the asked size, goal and optimal length (band), or None (not stored)."""
        import random

        from ..analysis.difficulty import parse_band
        from ..bank import open_bank

        if isinstance(request.goal, str):
            goal_board = goal(request.goal, request.width, request.height, request.blank)
        else:
            goal_board = Board(request.goal, request.width, request.height, request.blank)
        seed = secrets.randbits(32) if request.seed is None else request.seed
        with open_bank(settings.bank, create=False) as bank:
            record = bank.draw(goal_board, parse_band(request.length or ""), random.Random(seed))
        if record is None:
            return None
        return GenerateResponse(
            board=list(record.board.tiles), goal=list(goal_board.tiles), width=goal_board.width,
            height=goal_board.height, blank=goal_board.blank, seed=seed, optimal_length=record.length,
            source="bank",
        )  # fmt: skip

    def generate_now(request: GenerateRequest) -> GenerateResponse:
        if isinstance(request.goal, str):  # the layout's own labels (blank-at uses 1..N without one)
            goal_board = goal(request.goal, request.width, request.height, request.blank)
        else:
            goal_board = Board(request.goal, request.width, request.height, request.blank)
        seed = secrets.randbits(32) if request.seed is None else request.seed
        length = None
        if request.length is not None:  # issue 15: a proven optimal length band, boards up to 16 cells
            from ..analysis.difficulty import OPTIMAL_CELLS, generate_length, parse_band

            if goal_board.n_cells > OPTIMAL_CELLS:
                raise ValueError(f"length is offered for boards up to {OPTIMAL_CELLS} cells")
            low, high = parse_band(request.length)
            try:
                rated = generate_length(goal_board, low, high, seed=seed, max_seconds=settings.max_seconds)[0]
            except SearchLimitExceeded as exc:
                band = f"{low}" if low == high else f"{low} to {high}"
                raise SearchLimitExceeded(
                    f"no {goal_board.width}x{goal_board.height} board whose shortest solution is {band} moves "
                    f"was found and proven within this server's {settings.max_seconds:g} s (long solutions are "
                    f"rare and slow to prove): try a shorter band, or `npuzzle generate --size "
                    f"{goal_board.width}x{goal_board.height} --length {request.length}` on your own machine",
                    limit="max_seconds",
                    stats=exc.stats,
                ) from None
            start, length = rated.board, rated.length
        else:
            start = generate_board(goal_board, request.method, request.moves, seed)
        return GenerateResponse(
            board=list(start.tiles),
            goal=list(goal_board.tiles),
            width=start.width,
            height=start.height,
            blank=start.blank,
            seed=seed,
            optimal_length=length,
        )

    @app.post("/api/analyze", response_model=AnalyzeResponse, tags=["solving"])
    async def analyze(request: BoardRequest) -> dict[str, Any]:
        """How hard the board is: optimal length (or proven bounds within the server's budget), Manhattan
        and linear-conflict bounds, percentile among random positions and a difficulty label."""
        from ..analysis.difficulty import analyze as analyze_board

        start, goal_board = board_from(request)
        check_solve_size(start)
        if not explain(start, goal_board).solvable:
            from ..errors import UnsolvableError

            raise UnsolvableError("this board cannot reach the goal: the two lie in different parity classes")
        budget = min(settings.default_seconds, settings.max_seconds)
        result = await lanes.run(
            lane_for(start), lambda: analyze_board(start, goal_board, seconds=budget), budget
        )
        return result.to_dict()

    @app.post("/api/generate", response_model=GenerateResponse, tags=["boards"])
    async def generate(request: GenerateRequest) -> GenerateResponse:
        """A new start position, always solvable for the goal. Without a seed the server draws one and
        returns it, so any board can be reproduced. With ``length`` its optimal length is proven."""
        if request.length is not None and settings.bank is not None:  # issue 16: the bank answers at once
            answer = await lanes.quick(lambda: from_bank(request))
            if answer is not None:
                return answer
        if request.length is not None:  # solver work: a solving lane, not the quick one
            lane = "light" if request.width * request.height <= settings.light_cells else "heavy"
            return await lanes.run(lane, lambda: generate_now(request), settings.max_seconds)
        return await lanes.quick(lambda: generate_now(request))

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
        check_solve_size(start)  # a solved board too: the same sizes as /api/solve, whatever the position
        if start == goal_board:
            return HintResponse(move=None, direction=None, remaining=0, optimal=True, lower_bound=0)
        budget = min(request.max_seconds or settings.hint_seconds, settings.hint_seconds)
        bound = manhattan_bound(start, goal_board)
        known = paths.moves_left(start, goal_board)
        if known is not None:
            moves, optimal = known
            lower = len(moves) if optimal else bound
        else:
            try:
                solution = await lanes.run(
                    lane_for(start),
                    lambda: solve_within(start, goal_board, budget, max_memory_mb=settings.max_memory_mb),
                    budget,
                )
            except TableError as exc:  # a damaged table must not cost the player a hint
                _log.error("hint: table problem, answering from the constructive solver: %s", exc)
                solution = None
            if solution is not None and usable_first_move(start, solution.moves):
                paths.put(solution)
                moves, optimal = solution.moves, solution.optimal
                lower = max(bound, solution.lower_bound or 0, len(moves) if optimal else 0)
            else:
                if solution is not None:  # never the client's fault: a solver bug or a damaged table
                    _log.error(
                        "hint: the solver's answer does not start at %s; using the constructive one", start
                    )
                fallback = await lanes.run(
                    lane_for(start),
                    lambda: solve_within(start, goal_board, budget, algorithm="constructive"),
                    budget,
                )
                moves, optimal, lower = fallback.moves, False, bound
        if not usable_first_move(start, moves):
            raise RuntimeError(f"no usable hint for {start!r}")  # answered as a logged 500
        return HintResponse(
            move=moves[0],
            direction=start.direction_of(moves[0]),  # type: ignore[arg-type]
            remaining=len(moves),
            optimal=optimal,
            lower_bound=lower,
        )

    @app.post("/api/read", response_model=ReadResponse, tags=["boards"])
    async def read(request: ReadRequest) -> ReadResponse:
        """Read the board from a screenshot of a sliding puzzle (the whole game window is fine: the grid is
        found), with a confidence per cell. Refuses (400, ``detail`` naming the likely cause: size, crop,
        reference, an unreadable number) rather than answer a board it does not stand behind; a refusal
        about the board's cells carries them as data too (``width``, ``height``, ``groups``), all of them
        even where ``detail`` is cut short."""
        return await lanes.run(
            "heavy",
            # the reading stops itself when the request gives up, so its slot is not held on after the answer
            lambda: read_now(request, settings.max_read_pixels, settings.read_seconds + settings.grace_seconds),
            settings.read_seconds,
            "screenshot reading",
        )

    @app.api_route(
        "/api/{rest:path}",
        methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        include_in_schema=False,
    )
    async def no_such_api(request: Request, rest: str) -> JSONResponse:
        """Anything under /api that no route above takes: a JSON 404 or 405, never the static files."""
        path = request.url.path
        allowed = sorted(
            method
            for route in app.router.routes
            if isinstance(route, APIRoute) and route.path == path and route.endpoint is not no_such_api
            for method in route.methods
        )
        if allowed:
            return JSONResponse(
                {
                    "detail": f"{path} takes {', '.join(allowed)}, not {request.method}",
                    "kind": "MethodNotAllowed",
                },
                status_code=405,
                headers={"Allow": ", ".join(allowed)},
            )
        return JSONResponse(
            {"detail": f"there is no API endpoint {excerpt(path)}; see /docs", "kind": "NotFound"},
            status_code=404,
        )

    @app.get("/limits.js", include_in_schema=False)
    async def limits_module() -> Response:
        """The board sizes this server plays and its upload cap, as the ES module the page imports
        (``static/deal.js``, ``static/app.js``, ``static/reader.js``): the page keeps no copy of its own, so it
        offers no board this server refuses and sends no screenshot larger than it takes."""
        return Response(
            limits_js(settings),
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},  # another server (other settings) may answer next time
        )

    app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="static")
    return app


@dataclass
class WarmUpState:
    """What the start-up work is doing (``stage``, a phrase for ``/api/status``) and whether 3×3 and 4×4
    hints are optimal from now on (``hints_ready``). Written by the warm-up thread, read by the event loop:
    plain attribute assignments, no lock needed."""

    stage: str = "starting"
    hints_ready: bool = False
    seconds: dict[str, float] = field(default_factory=dict)  # stage -> seconds it took
    helpers: list[Any] = field(default_factory=list)  # helper processes (killed when the server stops)
    stopping: bool = False  # the server is stopping: no further stage starts, nothing is done in-process
    lock: threading.Lock = field(default_factory=threading.Lock)  # helpers start or stop, not both at once

    def stop_helpers(self) -> None:
        with self.lock:
            self.stopping = True
        for process in self.helpers:
            if process.poll() is None:
                process.kill()
                process.wait()


#: The small 4×4 tables built first on a fresh machine (a few seconds): 4×4 hints are exact within their
#: budget with them while the stronger FIRST_TABLES build in the background.
QUICK_TABLES = "5-5-5"
FIRST_TABLES = "6-6-3"


def _warm_up(state: WarmUpState | None = None) -> None:
    """The start-up work, in the order players need it (issue 14: optimal 3×3/4×4 hints within 20 s of
    starting on a fresh machine). A helper process builds the 4×4 5-5-5 tables when no 4×4 tables are cached
    (seconds) and compiles the pattern-database search kernel into numba's cache, while this process compiles
    the 3×3 solver: two cores at work. Then this process loads the 4×4 kernel from the cache, and 3×3/4×4
    hints are optimal from there on. Then a helper builds the 6-6-3 tables (tens of seconds; hints use them
    once they are written) and this process compiles every other kernel. A step that fails is done here
    instead, or skipped: it shows up again, with its reason, on a real request."""
    import time

    state = state or WarmUpState()
    near_3x3 = Board([1, 2, 3, 4, 5, 6, 7, 0, 8], 3, 3)

    def stage(name: str, step: Callable[[], object]) -> None:
        if state.stopping:  # the server stops: exit promptly (a stage under way finishes first)
            return
        state.stage = name
        t = time.monotonic()
        with contextlib.suppress(Exception):
            step()
        state.seconds[name] = round(time.monotonic() - t, 2)

    helper = _start_helper(QUICK_TABLES, state)
    stage("compiling the 3x3 solver", lambda: solve_within(near_3x3, classic(3, 3), 300.0))
    stage(
        f"building the 4x4 {QUICK_TABLES} pattern tables and compiling their search (first run only)",
        lambda: _finish_helper(helper, QUICK_TABLES, state),
    )
    stage("loading the 4x4 search kernel", _warm_tables_4x4)
    state.hints_ready = True
    helper = _start_helper(FIRST_TABLES, state)
    stage("loading the bigger boards' solvers", _warm_bigger_boards)  # while the helper builds the tables
    stage(
        f"building the 4x4 {FIRST_TABLES} pattern tables (first run only; hints are optimal meanwhile)",
        lambda: _finish_helper(helper, FIRST_TABLES, state),
    )
    stage("compiling the other kernels", _warm_kernels)
    state.stage = "done"


def _start_helper(tables: str, state: WarmUpState) -> Any:
    """A process running :func:`_warm_tables_4x4` for ``tables`` (``None`` when one cannot be started)."""
    import subprocess
    import sys

    code = f"from npuzzle.web.app import _warm_tables_4x4; _warm_tables_4x4({tables!r})"
    with state.lock:  # never a helper started after the server began to stop (it would outlive it)
        if state.stopping:
            return None
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        except OSError:
            return None
        state.helpers.append(process)
    return process


def _finish_helper(process: Any, tables: str, state: WarmUpState) -> None:
    """Wait for a helper; if it failed (or none started), do its work in this process, unless the server is
    stopping (then the helper was killed on purpose)."""
    import subprocess

    if process is not None:
        try:
            if process.wait(timeout=600) == 0:
                return
        except subprocess.TimeoutExpired:  # a helper that hangs is killed and its work done here
            process.kill()
            process.wait()
    if not state.stopping:
        _warm_tables_4x4(tables)


def _warm_tables_4x4(tables: str | None = None) -> None:
    """Build the classic 4×4 goal's ``tables`` partition unless as strong a one is cached, then solve a
    board one move from the goal: that compiles (or loads from numba's cache) the search kernel that reads
    them. Run in a helper process by :func:`_warm_up`, and in the server itself to load the kernel."""
    goal_4x4 = classic(4, 4)
    if tables is not None:
        from ..heuristics.pdb import standard_partition
        from ..search.pdb_backend import load_partition, partition_present, strongest_partition

        partition = standard_partition(4, 4, goal_4x4.blank_cell, tables)
        strongest = strongest_partition(4, 4, goal_4x4.blank_cell)
        if not (partition_present(strongest) and strongest.n_entries() >= partition.n_entries()):
            load_partition(partition, build=True)
    near_4x4 = Board([*range(1, 14), 14, 0, 15], 4, 4)  # takes the pattern-database path when tables exist
    solve_within(near_4x4, goal_4x4, 300.0)


def _warm_bigger_boards() -> None:
    from .._kernels.warmup import warm_anytime

    warm_anytime()  # hints on 5×5 to 16×16 keep their budget from here on


def _warm_kernels() -> None:
    from .._kernels.warmup import warmup

    warmup()


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
    "field_words",
    "generate_board",
    "layouts_for",
    "limits_js",
    "solve_within",
]
