"""The sliding-puzzle environment: a board, four tile directions, −1 per move.

Actions follow the toolkit's tile-direction convention (:mod:`npuzzle.notation`): action ``k`` slides the
tile that travels ``ACTIONS[k]`` (``U``, ``D``, ``L``, ``R``) into the blank. A direction no tile can travel
leaves the board as it was and still costs a move; ``info["action_mask"]`` and :meth:`action_masks` say which
directions are legal (``1``) so that masked agents never pick the others.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..board import DIRECTION_DELTAS, Board
from ..errors import UnsolvableError
from ..goals import check_same_labels
from ..goals import goal as named_goal
from ..notation import format_board
from ..solvability import is_solvable

ACTIONS = "UDLR"
SCRAMBLES = ("walk", "shuffle", "tile-walk", "length")
REWARDS = ("step", "distance")
#: The exact distance (for ``reward="distance"``, the oracle and ``info["distance"]``) is computed only up to
#: this many cells, where the optimal solver answers in milliseconds once its tables exist.
MAX_EXACT_CELLS = 16


class SlidingPuzzleEnv(gymnasium.Env[np.ndarray, np.int64]):
    """A ``width`` × ``height`` sliding-tile puzzle to bring to ``goal``.

    Parameters
    ----------
    goal:
        A layout name (``classic``, ``blank-first``, ``snake``, ``spiral``, ``column``, ``blank-at:K``,
        ``random:SEED``) or a :class:`~npuzzle.board.Board`.
    scramble:
        ``walk`` (``scramble_moves`` random moves of the blank, no immediate undo), ``tile-walk``,
        ``shuffle`` (uniform among solvable boards), or ``length`` (optimal distance exactly ``length``, or in
        the band ``length=(low, high)``; set ``length`` alone to choose it).
    observation:
        ``board``: the labels as an ``(height, width)`` array; ``onehot``: ``(cells, height, width)`` with a
        1 where each label (in the goal's order of cells) stands.
    reward:
        ``step``: −1 per move; ``distance``: the change of exact optimal distance (+1 for a move closer,
        −1 for a move away or an illegal one); up to 16 cells.
    max_steps:
        Moves before the episode is truncated (default: 50 per cell).
    render_mode:
        ``rgb_array`` (npuzzle's own board picture) or ``ansi`` (text).
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium's API)

    def __init__(
        self,
        width: int = 3,
        height: int | None = None,
        goal: str | Board = "classic",
        *,
        scramble: str | None = None,
        scramble_moves: int | None = None,
        length: int | tuple[int, int] | None = None,
        observation: str = "board",
        reward: str = "step",
        max_steps: int | None = None,
        render_mode: str | None = None,
        tile_size: int = 48,
    ) -> None:
        height = width if height is None else height
        self.goal_board = goal if isinstance(goal, Board) else named_goal(goal, width, height)
        if self.goal_board.size != (width, height):
            raise ValueError(f"goal is {self.goal_board.width}x{self.goal_board.height}, the board {width}x{height}")
        self.width, self.height = width, height
        n = width * height
        scramble = scramble or ("length" if length is not None else "walk")
        if scramble not in SCRAMBLES:
            raise ValueError(f"unknown scramble {scramble!r}; choose one of: {', '.join(SCRAMBLES)}")
        if (scramble == "length") != (length is not None):
            raise ValueError("scramble='length' goes with length=N or length=(low, high), and length with it")
        if observation not in ("board", "onehot"):
            raise ValueError(f"unknown observation {observation!r}; choose board or onehot")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; choose one of: {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; choose rgb_array or ansi")
        if (reward == "distance" or scramble == "length") and n > MAX_EXACT_CELLS:
            raise ValueError(
                f"exact distances are offered up to {MAX_EXACT_CELLS} cells; this board has {n}: "
                "use reward='step' and a walk or shuffle scramble"
            )
        from ..render.image import MIN_TILE

        if tile_size < MIN_TILE:
            raise ValueError(f"tile_size must be at least {MIN_TILE} pixels to stay legible, got {tile_size}")
        self.scramble = scramble
        self.scramble_moves = 10 * n if scramble_moves is None else int(scramble_moves)
        if self.scramble_moves < 0:
            raise ValueError(f"scramble_moves must be non-negative, got {scramble_moves}")
        if length is None:
            self.band: tuple[int, int] | None = None
        else:
            low, high = (length, length) if isinstance(length, int) else length
            if not 0 <= low <= high:
                raise ValueError(f"length must be N >= 0 or (low, high) with low <= high, got {length}")
            self.band = (int(low), int(high))
        self.observation_kind, self.reward_kind = observation, reward
        self.max_steps = 50 * n if max_steps is None else int(max_steps)
        self.render_mode, self.tile_size = render_mode, tile_size

        goal_tiles = np.array(self.goal_board.tiles, dtype=np.int64)
        self._goal_grid = goal_tiles.reshape(height, width)
        self._labels = goal_tiles  # label k of the one-hot planes: the label the goal keeps in cell k
        self._plane_of = {int(label): index for index, label in enumerate(goal_tiles)}
        self.action_space = spaces.Discrete(4)
        if observation == "board":
            self.observation_space = spaces.Box(
                int(goal_tiles.min()), int(goal_tiles.max()), shape=(height, width), dtype=np.int64
            )
        else:
            self.observation_space = spaces.Box(0, 1, shape=(n, height, width), dtype=np.uint8)
        self._grid = self._goal_grid.copy()
        self._blank = divmod(self.goal_board.blank_cell, width)
        self._steps = 0
        self._distance: int | None = None

    # ------------------------------------------------------------------ state
    @property
    def board(self) -> Board:
        """The current position as a :class:`~npuzzle.board.Board`."""
        return Board(self._grid.ravel().tolist(), self.width, self.height, self.goal_board.blank)

    def _set_board(self, board: Board) -> None:
        self._grid = np.array(board.tiles, dtype=np.int64).reshape(self.height, self.width)
        self._blank = divmod(board.blank_cell, self.width)

    def action_masks(self) -> np.ndarray:
        """1 for each direction a tile can travel now, else 0 (in :data:`ACTIONS` order)."""
        br, bc = self._blank
        mask = np.zeros(4, dtype=np.int8)
        for index, direction in enumerate(ACTIONS):
            dr, dc = DIRECTION_DELTAS[direction]
            tr, tc = br - dr, bc - dc  # the travelling tile stands on the far side of the blank
            mask[index] = 0 <= tr < self.height and 0 <= tc < self.width
        return mask

    def exact_distance(self) -> int:
        """The proven optimal number of moves from the current board to the goal (up to 16 cells)."""
        if self._distance is None:
            self._distance = _exact_distance(self.board, self.goal_board)
        return self._distance

    def _observation(self) -> np.ndarray:
        if self.observation_kind == "board":
            return self._grid.copy()
        planes = np.zeros(self.observation_space.shape, dtype=np.uint8)
        for (row, col), label in np.ndenumerate(self._grid):
            planes[self._plane_of[int(label)], row, col] = 1
        return planes

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks(), "steps": self._steps}
        if self.reward_kind == "distance" or self.scramble == "length":
            info["distance"] = self.exact_distance()
        return info

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new scrambled board (``options={"board": Board}`` starts from that board instead)."""
        super().reset(seed=seed)
        start = (options or {}).get("board")
        if start is None:
            start = self._draw()
        else:
            start = start if isinstance(start, Board) else Board(start, self.width, self.height, self.goal_board.blank)
            check_same_labels(start, self.goal_board)
            if not is_solvable(start, self.goal_board):
                raise UnsolvableError(f"this board cannot reach the goal:\n{format_board(start)}")
        self._set_board(start)
        self._steps = 0
        self._distance = None
        return self._observation(), self._info()

    def _draw(self) -> Board:
        seed = int(self.np_random.integers(0, 2**62))
        if self.scramble == "length":
            from ..analysis.difficulty import generate_length

            assert self.band is not None
            rated = generate_length(self.goal_board, self.band[0], self.band[1], seed=seed)[0]
            self._distance = rated.length
            return rated.board
        from ..generate import generate

        moves = None if self.scramble == "shuffle" else self.scramble_moves
        board = generate(self.goal_board, self.scramble, moves=moves, count=1, seed=seed)[0]
        if board == self.goal_board and self.scramble_moves > 0:  # a walk that came home: step once away
            board = self.goal_board.move(self.goal_board.legal_moves()[0])
        return board

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        action = int(action)
        if not 0 <= action < 4:
            raise ValueError(f"action must be 0..3 ({', '.join(ACTIONS)}), got {action}")
        dr, dc = DIRECTION_DELTAS[ACTIONS[action]]
        br, bc = self._blank
        tr, tc = br - dr, bc - dc
        legal = 0 <= tr < self.height and 0 <= tc < self.width
        before = self.exact_distance() if self.reward_kind == "distance" else 0
        if legal:
            self._grid[br, bc], self._grid[tr, tc] = self._grid[tr, tc], self._grid[br, bc]
            self._blank = (tr, tc)
            self._distance = None
        self._steps += 1
        terminated = bool(np.array_equal(self._grid, self._goal_grid))
        reward = -1.0 if self.reward_kind == "step" or not legal else float(before - self.exact_distance())
        truncated = not terminated and self._steps >= self.max_steps
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            from ..render.image import render_board

            image = render_board(self.board, goal=self.goal_board, tile_size=self.tile_size)
            return np.asarray(image.convert("RGB"))
        if self.render_mode == "ansi":
            return format_board(self.board) + "\n"
        return None


def _exact_distance(board: Board, goal: Board) -> int:
    from ..search.solver import solve

    return solve(board, goal, optimal=True).length


def oracle_action(env: SlidingPuzzleEnv) -> int:
    """The action of the first move of a proven optimal solution from ``env``'s board (the oracle agent).

    Raises ``ValueError`` on the goal itself (nothing to do).
    """
    from ..search.solver import solve

    board = env.board
    solution = solve(board, env.goal_board, optimal=True)
    if not solution.moves:
        raise ValueError("the board is already solved")
    return ACTIONS.index(board.direction_of(solution.moves[0]))


__all__ = ["ACTIONS", "MAX_EXACT_CELLS", "REWARDS", "SCRAMBLES", "SlidingPuzzleEnv", "oracle_action"]
