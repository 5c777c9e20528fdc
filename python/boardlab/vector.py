"""``boardlab.VectorEnv``: N games of one spec stepped in Rust per call.

The caller acts for whichever seat is to act in each env (``to_play``): there
are no opponents inside, and chance nodes are resolved in Rust from the env's
own stream. A game that ends is started again at once (automatic reset, as in
gymnasium's vector environments with ``autoreset_mode=SAME_STEP``): the step
that ends env ``i``'s game returns ``done[i] = True``, that game's returns in
``rewards[i]``, and the observation, mask and seat to act of the next game's
first decision.
"""

import numpy as np

from . import _boardlab


class VectorEnv:
    """``n`` games of ``spec`` stepped together.

    Env ``i`` draws its setups and chance outcomes from one stream seeded
    ``seed + i`` (gymnasium's convention), so it plays exactly as the only env
    of ``VectorEnv(spec, 1, seed + i)`` given the same actions.

    * ``reset(seed=None) -> (obs, mask, to_play)``: a new game in every env;
      with ``seed``, the streams start again from ``seed + i``.
    * ``step(actions) -> (obs, mask, rewards, done, to_play)``: ``actions[i]``
      is applied in env ``i``, for the seat ``to_play[i]``.

    Shapes: ``obs[n, obs_len]`` float32 (the observation tensor of the seat to
    act, flattened), ``mask[n, num_actions]`` bool (its legal actions),
    ``rewards[n, players]`` float32 (zeros, except the returns at a game's
    end), ``done[n]`` bool, ``to_play[n]`` int32. ``truncated[n]`` (an
    attribute) marks the games of the last step cut at the game's maximum
    length; they pay zeros. With ``copy=False`` the arrays returned are the
    env's own buffers, overwritten by the next call.
    """

    def __init__(self, spec, n, seed=0, copy=True):
        if hasattr(spec, "spec"):
            spec = spec.spec()
        self._core = _boardlab.VectorCore(spec, n, seed)
        self.game = self._core.game()
        self.num_envs = n
        self.num_players = self.game.num_players()
        self.num_actions = self.game.num_distinct_actions()
        self.obs_len = int(np.prod(self.game.observation_tensor_shape()))
        self.copy = copy
        obs, mask, rewards, done, truncated, to_play = self._core.buffers()
        self._obs = np.frombuffer(obs, dtype=np.float32).reshape(n, self.obs_len)
        self._mask = np.frombuffer(mask, dtype=np.bool_).reshape(n, self.num_actions)
        self._rewards = np.frombuffer(rewards, dtype=np.float32).reshape(n, self.num_players)
        self._done = np.frombuffer(done, dtype=np.bool_)
        self._truncated = np.frombuffer(truncated, dtype=np.bool_)
        self._to_play = np.frombuffer(to_play, dtype=np.int32)

    def _out(self, *arrays):
        return tuple(a.copy() for a in arrays) if self.copy else arrays

    @property
    def truncated(self):
        """Which games the last step cut at the game's maximum length."""
        return self._truncated.copy() if self.copy else self._truncated

    def reset(self, seed=None):
        """A new game in every env; returns ``(obs, mask, to_play)``."""
        self._core.reset(seed)
        return self._out(self._obs, self._mask, self._to_play)

    def step(self, actions):
        """Applies ``actions[i]`` in env ``i``; returns
        ``(obs, mask, rewards, done, to_play)``. An illegal action raises
        ValueError naming the env, and no env moves."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(
                f"actions of shape {a.shape}: give one action per env, shape ({self.num_envs},)"
            )
        if a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and np.all(np.mod(a, 1) == 0):
                pass
            else:
                raise ValueError(f"actions of dtype {a.dtype}: give integer action indices")
        self._core.step(np.ascontiguousarray(a, dtype=np.int64).tobytes())
        return self._out(self._obs, self._mask, self._rewards, self._done, self._to_play)

    def state(self, i):
        """The true state of env ``i`` (a ``boardlab.State``, for analysis and
        tests: it shows what the seat to act cannot see)."""
        return self._core.state(i)

    def __repr__(self):
        return f"boardlab.VectorEnv({self.game.spec()!r}, {self.num_envs})"
