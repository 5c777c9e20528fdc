"""Steps per second of boardlab.VectorEnv against the single-game PettingZoo
AEC loop, random legal actions drawn in numpy in both.

    python python/benchmarks/vector.py [seconds]

Prints one line per game: actions/s of the PettingZoo loop, of VectorEnv with
64 envs, and their ratio (each measured for about `seconds`, default 3).
"""

import sys
import time

import numpy as np

import boardlab
import boardlab.pettingzoo


def pettingzoo_rate(spec, seconds):
    env = boardlab.pettingzoo.env(spec)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            actions += 1
        env.reset()
    return actions / (time.perf_counter() - start)


def vector_rate(spec, seconds, n=64):
    env = boardlab.VectorEnv(spec, n, seed=0, copy=False)
    rng = np.random.default_rng(0)
    _, mask, _ = env.reset()
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        chosen = (rng.random(mask.shape) * mask).argmax(axis=1)
        _, mask, _, _, _ = env.step(chosen)
        actions += n
    return actions / (time.perf_counter() - start)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"{'game':<22} {'PettingZoo actions/s':>22} {'VectorEnv(64) actions/s':>24} {'ratio':>7}")
    for spec in ["tictactoe", "connect4", "leduc", "fox", "karmaka"]:
        single = pettingzoo_rate(spec, seconds)
        batched = vector_rate(spec, seconds)
        print(f"{spec:<22} {single:>22,.0f} {batched:>24,.0f} {batched / single:>7.1f}")


if __name__ == "__main__":
    main()
