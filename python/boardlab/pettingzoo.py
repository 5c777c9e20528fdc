"""A PettingZoo AEC environment over any boardlab game.

Agents are ``player_0`` ... ``player_{n-1}``. Observations are dicts with the
seat's ``observation`` tensor (float32, only what the seat may see) and an
``action_mask`` (int8) over ``range(num_distinct_actions())``. Chance nodes are
resolved inside the environment from its seed, so an agent is only asked to act
at its own decisions. Rewards are the game's returns, given at the end.
"""

import functools
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

import boardlab


def env(spec, render_mode=None):
    """The AEC environment of the game ``spec`` (e.g. ``"connect4"``)."""
    return BoardlabEnv(spec, render_mode=render_mode)


def parallel_env(spec, render_mode=None):
    """The same game as a PettingZoo ``ParallelEnv``: every live agent gives an
    action at each step, and only the seat to act's is applied (the others'
    action masks are all zeros and their actions are ignored), since every
    boardlab game takes turns."""
    return BoardlabParallelEnv(spec, render_mode=render_mode)


class BoardlabEnv(AECEnv):
    """PettingZoo AEC wrapper of a boardlab game."""

    metadata = {"render_modes": ["human", "ansi"], "name": "boardlab_v0", "is_parallelizable": False}

    def __init__(self, spec, render_mode=None):
        super().__init__()
        self.game = boardlab.load_game(spec)
        self.metadata = dict(self.metadata, name=f"boardlab_{self.game.spec()}")
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        shape = tuple(self.game.observation_tensor_shape())
        actions = self.game.num_distinct_actions()
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(actions)
        self.state = None
        self._rng = random.Random(0)

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self._obs_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self._act_space

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(self._rng.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._steps = 0
        self._advance()

    def _advance(self):
        """Resolves chance nodes, then points agent_selection at the seat to act."""
        while self.state.is_chance_node():
            outcomes = self.state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            weights = [p for _, p in outcomes]
            self.state.apply_action(self._rng.choices(actions, weights)[0])
            self._steps += 1
        if self.state.is_terminal() or self._steps >= self.game.max_game_length():
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                if self.state.is_terminal():
                    self.terminations[a] = True
                else:
                    self.truncations[a] = True
            self._accumulate_rewards()
            if self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.state.apply_action(int(action))
        self._steps += 1
        self._advance()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass


class BoardlabParallelEnv(ParallelEnv):
    """PettingZoo parallel wrapper of a boardlab game, over the AEC environment."""

    def __init__(self, spec, render_mode=None):
        self._aec = BoardlabEnv(spec, render_mode=render_mode)
        self.metadata = dict(self._aec.metadata, is_parallelizable=True)
        self.render_mode = render_mode
        self.possible_agents = list(self._aec.possible_agents)
        self.agents = []

    def observation_space(self, agent):
        return self._aec.observation_space(agent)

    def action_space(self, agent):
        return self._aec.action_space(agent)

    def reset(self, seed=None, options=None):
        self._aec.reset(seed=seed, options=options)
        self.agents = list(self._aec.agents)
        return {a: self._aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions):
        aec = self._aec
        aec.step(actions[aec.agent_selection])
        agents = self.agents
        observations = {a: aec.observe(a) for a in agents}
        rewards = {a: aec.rewards[a] for a in agents}
        terminations = {a: aec.terminations[a] for a in agents}
        truncations = {a: aec.truncations[a] for a in agents}
        infos = {a: {} for a in agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def game_state(self):
        """The game's true state (boardlab's ``State``): for analysis, not for agents."""
        return self._aec.state

    def render(self):
        return self._aec.render()

    def close(self):
        self._aec.close()
