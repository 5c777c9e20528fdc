"""The PettingZoo AEC environment passes PettingZoo's own API test."""

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

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


@pytest.mark.parametrize("spec", ["tictactoe", "kuhn", "fox(players=3)", "karmaka"])
def test_parallel_api(spec):
    parallel_api_test(boardlab.pettingzoo.parallel_env(spec), num_cycles=200)


def test_parallel_random_play_pays_the_returns():
    env = boardlab.pettingzoo.parallel_env("fox(players=4)")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(1)
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    while env.agents:
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1
        actions = {a: 0 for a in env.agents}
        actions[acting[0]] = int(rng.choice(np.flatnonzero(obs[acting[0]]["action_mask"])))
        obs, rewards, term, trunc, _ = env.step(actions)
        for a, r in rewards.items():
            total[a] += r
        steps += 1
    assert steps > 1
    returns = env.game_state().returns()
    assert [total[a] for a in env.possible_agents] == returns
