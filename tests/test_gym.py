"""The Gymnasium environment: API conformance, masks, rewards, the oracle agent, seeding, rendering."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed: pip install 'npuzzle[gym]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from npuzzle.board import Board  # noqa: E402
from npuzzle.errors import UnsolvableError  # noqa: E402
from npuzzle.gym import ACTIONS, ENV_ID, SlidingPuzzleEnv, make_vec, oracle_action  # noqa: E402
from oracle import bfs_distances  # noqa: E402

CONFIGS = [
    {"width": 3},
    {"width": 2, "height": 3, "goal": "blank-first"},
    {"width": 4, "height": 2, "goal": "snake", "observation": "onehot"},
    {"width": 3, "goal": "spiral", "length": (6, 9), "reward": "distance"},
    {"width": 6, "height": 5, "goal": "column", "scramble": "shuffle", "render_mode": "rgb_array"},
    {"width": 3, "render_mode": "ansi", "scramble": "tile-walk", "scramble_moves": 5},
]


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_env_checker_passes(kwargs: dict) -> None:
    env = gymnasium.make(ENV_ID, **kwargs)
    check_env(env.unwrapped)
    observation, info = env.reset(seed=5)
    assert env.observation_space.contains(observation)
    assert info["action_mask"].dtype == np.int8
    env.close()


def test_masks_match_legal_moves_and_illegal_actions_cost_a_move() -> None:
    env = SlidingPuzzleEnv(3, 3, scramble_moves=40)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(200):
        board = env.board
        mask = env.action_masks()
        legal = {board.direction_of(tile) for tile in board.legal_moves()}
        assert {ACTIONS[k] for k in range(4) if mask[k]} == legal
        action = int(rng.integers(4))
        _, reward, terminated, _, _ = env.step(action)
        assert reward == -1.0
        if mask[action]:
            assert env.board == board.move_direction(ACTIONS[action])
        else:
            assert env.board == board
        if terminated:
            env.reset()


def test_oracle_reaches_goal_in_the_optimal_number_of_moves_on_3x3() -> None:
    distances = bfs_distances(Board([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, 3))
    env = SlidingPuzzleEnv(3, 3, scramble="shuffle")
    for seed in range(8):
        _, _ = env.reset(seed=seed)
        optimum = distances[env.board.tiles]
        steps, terminated = 0, optimum == 0
        while not terminated:
            _, _, terminated, truncated, _ = env.step(oracle_action(env))
            steps += 1
            assert not truncated
        assert steps == optimum


def test_exact_length_scramble_and_distance_reward() -> None:
    goal = Board([0, 1, 2, 3, 4, 5, 6, 7, 8], 3, 3)
    distances = bfs_distances(goal)
    env = SlidingPuzzleEnv(3, 3, goal=goal, length=14, reward="distance")
    for seed in range(3):
        _, info = env.reset(seed=seed)
        assert info["distance"] == distances[env.board.tiles] == 14
        for action in range(4):
            before = distances[env.board.tiles]
            legal = bool(env.action_masks()[action])
            _, reward, _, _, info = env.step(action)
            after = distances[env.board.tiles]
            assert reward == (before - after if legal else -1.0)
            assert info["distance"] == after


def test_seeding_repeats_and_differs() -> None:
    first = SlidingPuzzleEnv(4, 4, scramble="shuffle")
    second = SlidingPuzzleEnv(4, 4, scramble="shuffle")
    boards_a = [first.reset(seed=3)[0].tolist(), first.reset()[0].tolist()]
    boards_b = [second.reset(seed=3)[0].tolist(), second.reset()[0].tolist()]
    assert boards_a == boards_b
    assert boards_a[0] != boards_a[1]


def test_truncation_and_render_shapes() -> None:
    env = SlidingPuzzleEnv(4, 3, max_steps=3, render_mode="rgb_array", tile_size=24)
    env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] >= 3 * 24 and frame.shape[1] >= 4 * 24
    truncated = False
    for _ in range(3):
        *_, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert truncated or terminated


def test_reset_from_a_given_board_checks_it() -> None:
    env = SlidingPuzzleEnv(3, 3)
    observation, _ = env.reset(options={"board": Board([1, 2, 3, 4, 5, 6, 7, 0, 8], 3, 3)})
    assert observation.tolist() == [[1, 2, 3], [4, 5, 6], [7, 0, 8]]
    _, _, terminated, _, _ = env.step(ACTIONS.index("L"))
    assert terminated
    with pytest.raises(UnsolvableError):
        env.reset(options={"board": Board([1, 2, 3, 4, 5, 6, 8, 7, 0], 3, 3)})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"width": 3, "observation": "pixels"},
        {"width": 3, "reward": "bonus"},
        {"width": 3, "scramble": "length"},
        {"width": 5, "reward": "distance"},
        {"width": 3, "render_mode": "human"},
        {"width": 3, "tile_size": 10},
    ],
)
def test_bad_options_are_refused(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        SlidingPuzzleEnv(**kwargs)


def test_vector_env_steps_all_copies() -> None:
    envs = make_vec(4, width=3, height=3)
    observations, infos = envs.reset(seed=7)
    assert observations.shape == (4, 3, 3)
    assert infos["action_mask"].shape == (4, 4)
    observations, rewards, *_ = envs.step(np.zeros(4, dtype=np.int64))
    assert rewards.tolist() == [-1.0] * 4
    envs.close()


def test_example_agents_run() -> None:
    import runpy
    from pathlib import Path

    example = runpy.run_path(str(Path(__file__).resolve().parents[1] / "examples" / "gym_agents.py"))
    length, total, solved = example["run"]("oracle", episodes=2)
    assert solved == 1.0 and total == -length
    assert example["run"]("random", episodes=1)[0] > 0
