"""boardlab's games, agents and tournaments from Python.

The rules run in Rust (the boardlab crate); this package is a thin, pyspiel-like
API over them:

    >>> import boardlab
    >>> game = boardlab.load_game("connect4")
    >>> state = game.new_initial_state(seed=1)
    >>> while not state.is_terminal():
    ...     state.apply_action(state.legal_actions()[0])

Actions are integers in ``range(game.num_distinct_actions())``; chance nodes
have ``current_player() == -1`` and terminal states ``-4``, as in pyspiel.

The submodules ``boardlab.pettingzoo`` (needs ``pettingzoo``) and
``boardlab.openspiel`` (needs ``open_spiel``) are imported on first use, so
``import boardlab`` needs neither.
"""

import importlib as _importlib
import json as _json

from ._boardlab import (  # noqa: F401
    BuiltinAgentObj as Agent,
    GameObj as Game,
    State,
    _state_from_json,
    agent,
    deserialize_state,
    games,
    load_game,
)
from . import _boardlab
from .vector import VectorEnv  # noqa: F401

CHANCE = -1
TERMINAL = -4


#: ``run`` keeps the rows of at most this many games in memory unless told
#: otherwise (``keep_rows``): beyond it they go only to ``out``.
ROWS_KEPT_UP_TO = 100_000


class RunResult(list):
    """What ``run`` returns: games.csv's rows as dicts (one per seat and game)
    when they were kept, empty otherwise, with the run's summary.

    * ``rows_kept``: whether the list holds the rows;
    * ``games``, ``played``, ``errors``, ``capped``: counts, as in run.json;
    * ``agents``: summary.csv's rows (``agent_index``, ``agent``, ``games``,
      ``wins``, ``draws``, ``losses``, ``win_rate``, ``ci_low``, ``ci_high``,
      ``mean_score``); ``seats``: seats.csv's (``seat`` and the same tallies);
    * ``out``: the folder written, or None.
    """

    def __init__(self, rows, summary, rows_kept, out):
        super().__init__(rows)
        self.rows_kept = rows_kept
        self.games = summary["games"]
        self.played = summary["played"]
        self.errors = summary["errors"]
        self.capped = summary["capped"]
        self.agents = summary["agents"]
        self.seats = summary["seats"]
        self.out = out


def run(game, agents, games=1, seed=0, threads=1, out=None, force=False, keep_rows=None):
    """Plays a tournament through boardlab's runner and returns games.csv's rows.

    ``game`` is a spec (``"fox(players=3)"``) or a Game from ``load_game``.
    ``agents`` holds one entry per seat: an agent spec or preset name (as on the
    command line, e.g. ``"ismcts-1k"``) or a Python callable
    ``f(view, legal_actions) -> action`` that gets a State determinized for its
    seat and the legal action indices. Seatings rotate as in the CLI; an agent
    that returns an illegal action forfeits that game (the row's ``error``
    says why), and one that raises stops the run with its exception. With
    ``out``, the same files as ``boardlab run --out`` are written there, each
    game's rows as it ends.

    Returns a ``RunResult``: a list of dicts, one per seat and game, with the
    summary as attributes (``agents``, ``seats``, ``games``, ``errors``). The
    rows are kept in memory when ``keep_rows`` is true, by default for runs
    of at most ``ROWS_KEPT_UP_TO`` games; a larger run keeps only its summary
    (the list is empty, ``rows_kept`` False), its rows going to ``out`` when
    given, so that its memory stays flat however many games it plays.
    """
    if hasattr(game, "spec"):
        game = game.spec()
    if keep_rows is None:
        keep_rows = games <= ROWS_KEPT_UP_TO
    rows, summary = _boardlab._run(
        game,
        list(agents),
        games=games,
        seed=seed,
        threads=threads,
        out=None if out is None else str(out),
        force=force,
        keep_rows=bool(keep_rows),
    )
    return RunResult(_json.loads(rows), _json.loads(summary), bool(keep_rows), out)


def metagame(game, agents, out, games=60, seed=0, threads=1, payoff="win",
             bootstrap=1000, resume=False, force=False, match_cpu=None,
             calibration_games=4):
    """Cross-play of a population, as ``boardlab metagame`` plays it, with
    Python callables allowed as members (an OpenSpiel bot through
    ``boardlab.openspiel.seat``): a player nobody in boardlab wrote.

    ``agents`` holds agent specs and callables ``f(view, legal_actions) ->
    action``; a callable is named ``python_<its __name__>`` in the results.
    Every cell is written under ``out`` as the command writes it
    (``cells/``, ``matrix.csv``, ``metagame.json``, ``metagame.md``);
    ``match_cpu`` calibrates the built-in searches to that many CPU
    milliseconds per decision (callables are kept as they are). Returns
    metagame.json as a dict: ``value``, ``ci_low``, ``ci_high``, ``support``,
    ``best_single``, ``self_play``…
    """
    if hasattr(game, "spec"):
        game = game.spec()
    text = _boardlab._metagame(
        game,
        list(agents),
        str(out),
        games=games,
        seed=seed,
        threads=threads,
        payoff=payoff,
        bootstrap=bootstrap,
        resume=resume,
        force=force,
        match_cpu=match_cpu,
        calibration_games=calibration_games,
    )
    return _json.loads(text)


def legal_next(legal, prefix=()):
    """The values the next component of a factored action can take: among the
    legal factored actions ``legal`` (``state.legal_factored()``) those that
    start with ``prefix``, their component ``len(prefix)``, ascending. With no
    prefix, the legal kinds; with ``(kind,)``, the legal first fields of that
    kind, and so on: the legal structure an autoregressive policy samples
    component by component."""
    k = len(prefix)
    prefix = tuple(prefix)
    return sorted({t[k] for t in legal if tuple(t[:k]) == prefix})


def random_playouts(game, n, seed=0):
    """Plays ``n`` uniformly random games in Rust; returns the total number of actions."""
    return _boardlab._random_playouts(game, n, seed)


_SUBMODULES = ("pettingzoo", "openspiel")


def __getattr__(name):
    """Imports an optional submodule on first use (``boardlab.pettingzoo.env``)."""
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
