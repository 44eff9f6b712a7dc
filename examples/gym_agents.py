"""A random agent and the optimal-solver "oracle" agent on npuzzle's Gymnasium environment.

Run: ``python examples/gym_agents.py`` (needs ``pip install 'npuzzle[gym]'``). Nothing is trained: the two
agents bracket what a learned policy should reach (the oracle's episode length is the optimum).
"""

from __future__ import annotations

import gymnasium
import numpy as np

from npuzzle.gym import ENV_ID, oracle_action


def run(agent: str, episodes: int = 20, seed: int = 0) -> tuple[float, float, float]:
    """Mean episode length, mean return and share of solved episodes for ``agent`` (random or oracle)."""
    env = gymnasium.make(ENV_ID, width=3, height=3, scramble_moves=30, max_steps=200)
    rng = np.random.default_rng(seed)
    lengths, returns, solved = [], [], 0
    _, info = env.reset(seed=seed)
    for _ in range(episodes):
        total, steps, done = 0.0, 0, False
        while not done:
            if agent == "oracle":
                action = oracle_action(env.unwrapped)
            else:  # a uniformly random legal direction
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            total, steps, done = total + reward, steps + 1, terminated or truncated
        solved += int(terminated)
        lengths.append(steps)
        returns.append(total)
        _, info = env.reset()
    env.close()
    return float(np.mean(lengths)), float(np.mean(returns)), solved / episodes


if __name__ == "__main__":
    print(f"{'agent':8} {'mean length':>12} {'mean return':>12} {'solved':>7}")
    for name in ("random", "oracle"):
        length, ret, share = run(name)
        print(f"{name:8} {length:12.1f} {ret:12.1f} {share:7.0%}")
