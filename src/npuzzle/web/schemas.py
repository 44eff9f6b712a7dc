"""Request and response models of the HTTP API (pydantic), shared by the routes and the OpenAPI docs.

Boards travel as flat row-major label lists (``cell = row * width + col``) with ``width`` and ``height``;
``goal`` is a layout name (``"classic"``, ``"snake"``, ``"blank-at:4"``, ...) or the goal's own label list.
Sizes are checked here only against the API's hard caps; everything about the labels themselves is checked
by :class:`~npuzzle.board.Board` so the messages are the library's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Largest side the API accepts for check/generate/layouts (a 32×32 board has 1,024 cells).
MAX_API_SIDE = 32
MAX_API_CELLS = MAX_API_SIDE * MAX_API_SIDE
#: Largest side of a board the API solves, hints, analyses and reads from a screenshot: the game page's
#: largest board (served to it as ``/limits.js``). ``WebSettings`` may lower it for one server.
MAX_SOLVE_SIDE = 16
MAX_SOLVE_CELLS = MAX_SOLVE_SIDE * MAX_SOLVE_SIDE  # 256
#: Longest random walk ``/api/generate`` performs (cells × 100 on a 10×10 board).
MAX_WALK_MOVES = 10_000

#: Longest goal layout name (``"random:18446744073709551615"`` is 27 characters).
MAX_GOAL_NAME = 64

Goal = (
    Annotated[str, Field(min_length=1, max_length=MAX_GOAL_NAME)]
    | Annotated[list[int], Field(min_length=4, max_length=MAX_API_CELLS)]
)


class BoardRequest(BaseModel):
    """A position: the tiles, the board's size, the goal and the blank's label.

    Strict types: a label or a size is a JSON integer (``false``, ``1.0`` and ``"1"`` are refused)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [{"board": [1, 2, 3, 4, 5, 6, 7, 0, 8], "width": 3, "height": 3, "goal": "classic"}]
        },
    )

    board: list[int] = Field(
        min_length=4, max_length=MAX_API_CELLS, description="Row-major labels; the blank is `blank`."
    )
    width: int | None = Field(
        default=None, ge=2, le=MAX_API_SIDE, description="Columns; inferred for a square tile count."
    )
    height: int | None = Field(
        default=None, ge=2, le=MAX_API_SIDE, description="Rows; inferred for a square tile count."
    )
    goal: Goal = Field(default="classic", description="A layout name or the goal's row-major labels.")
    blank: int = Field(default=0, description="Label of the empty cell.")


class SolveRequest(BoardRequest):
    """A position to solve, with the algorithm and a time budget (clamped to the server's cap)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "board": [1, 2, 3, 4, 5, 6, 0, 7, 8],
                    "width": 3,
                    "height": 3,
                    "goal": "classic",
                    "algorithm": "auto",
                    "max_seconds": 2,
                }
            ]
        },
    )

    algorithm: Literal["auto", "bfs", "bibfs", "astar", "idastar", "wastar", "greedy", "constructive"] = (
        Field(
            default="auto",
            description="`auto` tries the fastest exact method, then falls back to the constructive solver and "
            "weighted A* within the time cap, and always answers a solvable board (the answer says whether it "
            "is optimal). `constructive` alone: milliseconds on any board, far from optimal.",
        )
    )
    heuristic: Literal["misplaced", "manhattan", "linear-conflict", "crossings", "multi-pdb"] | None = None
    weight: float | None = Field(
        default=None, ge=1, le=100, description="Weighted A*: at most weight × optimal."
    )
    metric: Literal["single", "multi"] = "single"
    max_seconds: float | None = Field(
        default=None, gt=0, description="Time budget in seconds; clamped to the server's maximum."
    )


class HintRequest(BoardRequest):
    """A position to hint; the search gets ``max_seconds`` (clamped to the server's hint cap)."""

    max_seconds: float | None = Field(
        default=None, gt=0, description="Time budget in seconds; clamped to the server's maximum."
    )


class CheckResponse(BaseModel):
    solvable: bool
    explanation: str
    inversions: int
    blank_row: int
    goal_blank_row: int
    width: int
    height: int
    width_even: bool
    goal: list[int]


class GenerateRequest(BaseModel):
    """A new start position, always solvable for the goal."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"width": 4, "height": 4, "goal": "classic", "method": "shuffle"}]},
    )

    width: int = Field(ge=2, le=MAX_API_SIDE)
    height: int = Field(ge=2, le=MAX_API_SIDE)
    goal: Goal = "classic"
    blank: int = 0
    method: Literal["shuffle", "walk", "tile-walk"] = Field(
        default="shuffle",
        description="`shuffle`: uniform over solvable positions; `walk`: `moves` random moves from the goal "
        "(never undoing the previous one); `tile-walk`: `moves` repetitions of the tile walk.",
    )
    moves: int | None = Field(default=None, ge=0, le=MAX_WALK_MOVES)
    seed: int | None = Field(default=None, ge=0, lt=2**63, description="Same seed, same board.")
    length: str | None = Field(
        default=None,
        pattern=r"^[0-9]{1,3}([.][.][0-9]{1,3})?$",
        description="A proven optimal length `N` or band `A..B` (boards up to 16 cells; replaces `method`).",
    )


class GenerateResponse(BaseModel):
    board: list[int]
    goal: list[int]
    width: int
    height: int
    blank: int
    seed: int
    optimal_length: int | None = None
    source: Literal["generator", "bank"] = Field(
        default="generator", description="`bank`: drawn from the server's puzzle bank (serve --bank)."
    )


class SolveResponse(BaseModel):
    """The ``npuzzle solve --json`` object."""

    length: int
    moves: list[int]
    directions: str
    optimal: bool
    algorithm: str
    heuristic: str | None
    metric: str
    lower_bound: int | None = Field(default=None, description="A proven lower bound on the optimal length.")
    suboptimality: float | None = Field(
        default=None, description="A proven factor w: length <= w × optimal (1 when optimal)."
    )
    notes: list[str] = Field(default_factory=list, description="What else happened, in words.")
    stats: dict[str, Any]


class HintResponse(BaseModel):
    """The next move: ``move`` is the tile's label, ``direction`` where that tile travels (U/D/L/R).

    On a solved board ``move`` and ``direction`` are null and ``remaining`` is 0.
    """

    move: int | None
    direction: Literal["U", "D", "L", "R"] | None
    remaining: int = Field(description="Moves left on the solution the hint comes from, this one included.")
    optimal: bool = Field(description="True when that solution is a shortest one.")
    lower_bound: int | None = Field(
        default=None,
        description="A proven lower bound on the moves left (equal to `remaining` when optimal): "
        "the optimum lies between `lower_bound` and `remaining`.",
    )


class Layout(BaseModel):
    name: str = Field(description="The value to send as `goal`.")
    board: list[int]


class LayoutsResponse(BaseModel):
    width: int
    height: int
    layouts: list[Layout]


class LaneLoad(BaseModel):
    slots: int = Field(description="Requests of this kind that run at once.")
    admitted: int = Field(description="Requests running or queued now.")


class StatusResponse(BaseModel):
    """The server's state: whether its start-up work is done, and how busy each lane is."""

    version: str
    warm: bool | None = Field(
        description="True once the start-up work (compiling the kernels, the 4×4 tables) is done; null when "
        "the server does no such work (it happens on first use instead)."
    )
    hints_ready: bool | None = Field(
        default=None,
        description="True once 3×3 and 4×4 hints are optimal within their budget (the start-up work may go on "
        "building stronger tables); null without start-up work.",
    )
    stage: str | None = Field(default=None, description="What the start-up work is doing now, in words.")
    stage_seconds: dict[str, float] = Field(
        default_factory=dict, description="Seconds each finished start-up stage took."
    )
    lanes: dict[str, LaneLoad]


class ErrorResponse(BaseModel):
    """Every 4xx/5xx answer: ``detail`` is one readable sentence; ``kind`` names the error class. A refusal
    of ``/api/read`` about a board or some of its cells adds them as data (absent when it carries none)."""

    detail: str
    kind: str
    limit: str | None = None
    stats: dict[str, Any] | None = None
    width: int | None = Field(
        default=None, description="/api/read refusals: the board the refusal is about, tiles across."
    )
    height: int | None = Field(default=None, description="/api/read refusals: ... and tiles down.")
    groups: list[list[int]] | None = Field(
        default=None,
        description="/api/read refusals (AmbiguousTilesError): the cells it is about, 0-based and row-major on "
        "the `width` × `height` board, in groups of cells whose reading could be exchanged (one cell: read "
        "unsurely; every cell: the board as a whole in doubt). All of them, when `detail` is cut short.",
    )


class AnalyzeResponse(BaseModel):
    """How hard a position is (``npuzzle analyze --json``): the optimal length, or proven bounds when the
    search budget ran out; where it falls among random positions of its size when that is known."""

    tiles: list[int]
    goal: list[int]
    optimal_length: int | None = None
    lower_bound: int | None = None
    upper_bound: int | None = None
    manhattan: int
    linear_conflict: int
    percentile: float | None = Field(default=None, description="Share of positions strictly shorter, in %.")
    label: str | None = None
    mean_of_random_positions: float | None = None
    distribution_source: str | None = None


#: Largest side of a board read from a screenshot (``/api/read``): one the API then solves and hints.
MAX_READ_SIDE = MAX_SOLVE_SIDE


class ReadRequest(BaseModel):
    """A screenshot of a sliding puzzle to read (issue 12): the whole game window or just the board."""

    model_config = ConfigDict(extra="forbid", strict=True)

    screenshot: str = Field(
        min_length=1,
        description="The image (PNG, JPEG, WebP, GIF, BMP) in base64, or a `data:image/...;base64,` URL.",
    )
    reference: str | None = Field(
        default=None,
        description="The puzzle's finished picture, same encoding; without it the tiles' numbers are read "
        "(OCR), or the picture is put back together from the tiles where the reader can do that.",
    )
    width: int | None = Field(default=None, ge=2, le=MAX_READ_SIDE, description="Board width if known.")
    height: int | None = Field(default=None, ge=2, le=MAX_READ_SIDE, description="Board height if known.")
    blank_cell: int | None = Field(
        default=None, ge=0, lt=MAX_READ_SIDE**2, description="Cell of the hole on the screenshot (0-based)."
    )
    hole_home: int | None = Field(
        default=None,
        ge=0,
        lt=MAX_READ_SIDE**2,
        description="Home cell (0-based) of the missing piece when no reference is given; default the last.",
    )
    crop: list[int] | None = Field(
        default=None, min_length=4, max_length=4, description="`[x, y, w, h]` of the board in the screenshot."
    )
    allow_ambiguous: bool = Field(
        default=False, description="Answer the best guess (with `ambiguous` cells) instead of refusing."
    )


class ReadResponse(BaseModel):
    """The board read from a screenshot: labels are the tiles' home cells 1..N, 0 the hole."""

    width: int
    height: int
    tiles: list[int]
    goal: list[int]
    confidence: list[float] = Field(description="Per cell, row-major, 0..1.")
    kind: str = Field(description="`picture` (matched to the reference / reassembled) or `numbers` (OCR).")
    missing: int = Field(description="Home cell (0-based) of the piece not on the screenshot.")
    home_assumed: bool = Field(
        default=False,
        description="Picture tiles put back from their seams with that home not seen (no reference, no finished "
        "picture beside the board, no `hole_home`): assumed, the bottom-right unless the seams clearly fit "
        "the top-left (a blank-first game).",
    )
    ambiguous: list[list[int]] = Field(
        default_factory=list,
        description="Groups of cells whose reading could be exchanged (allow_ambiguous).",
    )
    cells: list[list[float]] | None = Field(
        default=None,
        description="Where each cell was cut, `[left, top, right, bottom]` in screenshot pixels, row-major.",
    )
    preview: list[float] | None = Field(
        default=None,
        description="Picture tiles matched to the finished picture the game shows beside the board: its box "
        "`[left, top, right, bottom]` in screenshot pixels.",
    )
    picture: str | None = Field(
        default=None,
        description="Picture tiles read without a reference: the finished picture they make, a "
        "`data:image/jpeg;base64,` URL (each piece at most 120 px a side). The missing piece is the one the game "
        "shows beside the board, else (never seen) its place is filled in from the pieces round it.",
    )
    image_width: int
    image_height: int


__all__ = [
    "MAX_API_CELLS",
    "MAX_API_SIDE",
    "MAX_READ_SIDE",
    "MAX_SOLVE_CELLS",
    "MAX_SOLVE_SIDE",
    "MAX_WALK_MOVES",
    "AnalyzeResponse",
    "BoardRequest",
    "CheckResponse",
    "ErrorResponse",
    "GenerateRequest",
    "GenerateResponse",
    "HintRequest",
    "HintResponse",
    "LaneLoad",
    "Layout",
    "LayoutsResponse",
    "ReadRequest",
    "ReadResponse",
    "SolveRequest",
    "SolveResponse",
    "StatusResponse",
]
