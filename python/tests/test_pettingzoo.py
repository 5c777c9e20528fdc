"""The PettingZoo AEC environment passes PettingZoo's own API test."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import boardlab.pettingzoo


@pytest.mark.parametrize("spec", ["tictactoe", "connect4", "fox(players=3)", "karmaka"])
def test_api(spec):
    api_test(boardlab.pettingzoo.env(spec), num_cycles=200)


def test_masked_random_play_ends_with_returns():
    env = boardlab.pettingzoo.env("connect4")
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])
