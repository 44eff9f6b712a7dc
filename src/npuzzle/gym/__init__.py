"""A Gymnasium environment for sliding-tile puzzles (optional extra: ``pip install 'npuzzle[gym]'``).

Importing this module registers ``npuzzle/SlidingPuzzle-v0``; ``gymnasium.make("npuzzle.gym:npuzzle/SlidingPuzzle-v0")``
imports and registers in one step. Any W×H board and goal layout; scrambles by random walk, uniform shuffle or
exact optimal length; actions are the four tile directions; see :class:`SlidingPuzzleEnv`.

>>> import gymnasium
>>> from npuzzle.gym import SlidingPuzzleEnv, oracle_action
>>> env = gymnasium.make("npuzzle/SlidingPuzzle-v0", width=3, height=3, length=5)
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["distance"])
((3, 3), 5)
>>> steps = 0
>>> terminated = False
>>> while not terminated:
...     observation, reward, terminated, truncated, info = env.step(oracle_action(env.unwrapped))
...     steps += 1
>>> steps
5
"""

from __future__ import annotations

from typing import Any

import gymnasium

from .env import ACTIONS, SlidingPuzzleEnv, oracle_action

ENV_ID = "npuzzle/SlidingPuzzle-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="npuzzle.gym.env:SlidingPuzzleEnv")


def make_vec(num_envs: int, *, vectorization_mode: str = "sync", **kwargs: Any) -> gymnasium.vector.VectorEnv:
    """``num_envs`` copies of the environment stepped together (``sync`` in this process, ``async`` in
    subprocesses); ``kwargs`` go to :class:`SlidingPuzzleEnv`."""
    return gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode=vectorization_mode, **kwargs)


__all__ = ["ACTIONS", "ENV_ID", "SlidingPuzzleEnv", "make_vec", "oracle_action"]
