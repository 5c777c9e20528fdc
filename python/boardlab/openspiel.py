"""Every boardlab game as an OpenSpiel game.

Importing this module registers each game with pyspiel as ``boardlab_<name>``,
through pyspiel's Python-game API (a ``pyspiel.Game`` and ``pyspiel.State``
subclass), so that OpenSpiel's own algorithms run on it unmodified::

    import pyspiel
    import boardlab.openspiel
    game = pyspiel.load_game("boardlab_fox(players=3)")

Parameters pass through to the boardlab spec. A parameter whose boardlab
default is not a value (``mode=by players``, ``tiles=embedded ...``) is
declared as a string whose default ``""`` means boardlab's default. Games
whose setup shuffles (rather than dealing at chance nodes) draw it from the
parameter ``rng_seed`` and a count of the states made so far, so a program
makes the same games each time it runs.

The rules, legal actions, returns, information state strings and observation
tensors all come from the Rust core; this module only translates. OpenSpiel's
C++ bots release Python's lock while they search, which Python games cannot
survive; see python/README.md for the routes that work.
"""

import numpy as np
import pyspiel

import boardlab

PREFIX = "boardlab_"

# Games whose two seats' returns always sum to zero; every other game (and
# every game with more than two seats) is general-sum.
_ZERO_SUM_TWO_PLAYER = {"tictactoe", "connect4", "kuhn", "leduc", "planted", "fox", "karmaka"}
# Games whose returns lie in [0, 1] (a win is 1, a draw shared) rather than [-1, 1].
_NON_NEGATIVE = {"karmox"}


def _typed_default(text):
    """A boardlab default as an OpenSpiel parameter value: int, float, bool or string."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    # Defaults that are descriptions (by players, embedded <file>) are no values.
    return "" if " " in text else text


def _players(text):
    low, _, high = text.partition("-")
    return int(low), int(high or low)


class BoardlabGame(pyspiel.Game):
    """A boardlab game behind pyspiel's Game interface; each game is a subclass
    naming it (``_NAME``, ``_TYPE``, ``_DEFAULTS``), made by ``_register``."""

    _NAME = _TYPE = _DEFAULTS = None

    def __init__(self, params=None):
        name, game_type, defaults = self._NAME, self._TYPE, self._DEFAULTS
        params = dict(params or {})
        spec_params = []
        for key, value in params.items():
            if key == "rng_seed" or value == defaults.get(key):
                continue
            text = str(value).lower() if isinstance(value, bool) else str(value)
            spec_params.append(f"{key}={text}")
        spec = f"{name}({','.join(spec_params)})" if spec_params else name
        self._native = boardlab.load_game(spec)
        self._seed = int(params.get("rng_seed", 0))
        self._made = 0
        n = self._native.num_players()
        bound = self._native.max_utility() or 1.0
        zero_sum = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self._native.num_distinct_actions(),
            max_chance_outcomes=self._native.num_distinct_actions(),
            num_players=n,
            min_utility=0.0 if name in _NON_NEGATIVE else -bound,
            max_utility=bound,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self._native.max_game_length(),
        )
        super().__init__(game_type, info, params)

    def native(self):
        """The boardlab Game underneath."""
        return self._native

    def new_initial_state(self):
        seed = self._seed + self._made
        self._made += 1
        return BoardlabState(self, self._native.new_initial_state(seed=seed))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if isinstance(iig_obs_type, dict):  # called as make_py_observer(params)
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = getattr(iig_obs_type, "perfect_recall", False)
        if perfect_recall:
            shape = self._native.information_state_tensor_shape()
        else:
            shape = self._native.observation_tensor_shape()
        return _Observer(shape, perfect_recall)


class BoardlabState(pyspiel.State):
    """A boardlab state behind pyspiel's State interface."""

    def __init__(self, game, native):
        super().__init__(game)
        self._s = native

    def native(self):
        """The boardlab State underneath."""
        return self._s

    def current_player(self):
        # boardlab's chance (-1) and terminal (-4) ids are pyspiel's.
        return self._s.current_player()

    def _legal_actions(self, player):
        return self._s.legal_actions()

    def chance_outcomes(self):
        return self._s.chance_outcomes()

    def _apply_action(self, action):
        self._s.apply_action(action)

    def _action_to_string(self, player, action):
        return self._s.action_to_string(player, action)

    def is_terminal(self):
        return self._s.is_terminal()

    def returns(self):
        return self._s.returns()

    def __str__(self):
        return str(self._s)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state consistent with what ``player_id`` knows, hidden parts
        resampled (boardlab's determinization, seeded from the sampler);
        OpenSpiel's Python ``ismcts.ISMCTSBot`` calls it."""
        seed = int(probability_sampler() * 2**63)
        return BoardlabState(self.get_game(), self._s.determinize(player_id, seed=seed))


class _Observer:
    """pyspiel's PyObserver interface: boardlab's information state string
    and, for perfect recall, its information state tensor where the game has
    one (Kuhn, Leduc; none elsewhere); its observation tensor (the seat's
    view) otherwise."""

    def __init__(self, shape, perfect_recall):
        self._perfect_recall = perfect_recall
        if shape is None:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            key = "info_state" if perfect_recall else "observation"
            self.dict = {key: self.tensor.reshape(shape)}

    def set_from(self, state, player):
        if self.tensor is None:
            return
        native = state.native()
        if self._perfect_recall:
            self.tensor[:] = native.information_state_tensor(player).ravel()
        else:
            self.tensor[:] = native.observation_tensor(player).ravel()

    def string_from(self, state, player):
        return state.native().information_state_string(player)


def seat(bot, game):
    """An OpenSpiel bot (anything with ``step(state) -> action``, such as
    ``mcts.MCTSBot``) as an agent for ``boardlab.run``.

    ``game`` is the ``boardlab_<name>`` pyspiel game the bot was made for. At
    each decision the bot is handed the runner's view for its seat (a state
    determinized for it, never the true state) as a pyspiel state of ``game``;
    that state's ``history()`` starts empty, as the view has none. The
    runner's rows name the agent ``python:openspiel-<bot class>``.
    """

    def act(view, legal):
        return int(bot.step(BoardlabState(game, view)))

    act.__name__ = f"openspiel-{type(bot).__name__}"
    return act


def _register(name):
    players, param_defaults = boardlab._boardlab._game_info(name)
    low, high = _players(players)
    defaults = {key: _typed_default(text) for key, text in param_defaults}
    specification = dict(defaults)
    specification["rng_seed"] = 0
    probe = boardlab.load_game(name)
    hidden = probe.has_hidden_information()
    game_type = pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"boardlab {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if name in _ZERO_SUM_TWO_PLAYER and low == high == 2
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=probe.information_state_tensor_shape() is not None,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=specification,
    )

    # A class, as OpenSpiel's own Python games register: pyspiel keeps the
    # creator until after the interpreter has shut down, and a class (which
    # refers to itself) is never freed then, where a function would be, without
    # the interpreter's lock, and abort the process at exit.
    game_class = type(
        f"BoardlabGame_{name}",
        (BoardlabGame,),
        {"_NAME": name, "_TYPE": game_type, "_DEFAULTS": defaults},
    )
    pyspiel.register_game(game_type, game_class)


def registered():
    """The pyspiel names of boardlab's games."""
    return [PREFIX + name for name in boardlab.games()]


for _name in boardlab.games():
    if PREFIX + _name not in pyspiel.registered_names():
        _register(_name)
