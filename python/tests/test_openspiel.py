"""boardlab's games as OpenSpiel games, checked with OpenSpiel's own algorithms."""

import json
import os
import subprocess

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import boardlab  # noqa: E402
import boardlab.openspiel  # noqa: E402
from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, expected_game_score, ismcts, mcts  # noqa: E402


def test_every_game_is_registered_with_its_parameters():
    names = pyspiel.registered_names()
    for name in boardlab.games():
        assert f"boardlab_{name}" in names
        game = pyspiel.load_game(f"boardlab_{name}")
        native = boardlab.load_game(name)
        assert game.num_players() == native.num_players()
        assert game.num_distinct_actions() == native.num_distinct_actions()
        assert game.max_game_length() == native.max_game_length()
    fox = pyspiel.load_game("boardlab_fox(players=3,alone=guardians)")
    assert fox.num_players() == 3
    assert fox.native().spec() == boardlab.load_game("fox(players=3,alone=guardians)").spec()
    assert fox.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    c4 = pyspiel.load_game("boardlab_connect4")
    assert c4.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert c4.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("boardlab_fox(players=9)")


def test_random_games_respect_the_declared_utilities():
    rng = np.random.default_rng(5)
    for spec in ["tictactoe", "kuhn", "leduc", "planted", "fox(players=4)", "karmaka(players=3)",
                 "karmox(players=3)", "hamunaptra"]:
        game = pyspiel.load_game(f"boardlab_{spec}")
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(int(rng.choice(actions, p=probs)))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
            returns = state.returns()
            assert all(game.min_utility() <= r <= game.max_utility() for r in returns), spec
            if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
                assert sum(returns) == pytest.approx(game.utility_sum()), spec
            assert len(state.history()) > 0


def test_states_clone_and_observe_through_pyspiel():
    game = pyspiel.load_game("boardlab_kuhn")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.chance_outcomes()[1][0])
    child = state.child(state.legal_actions()[1])
    assert child.history() == state.history() + [state.legal_actions()[1]]
    assert child.current_player() == 1 and state.current_player() == 0
    for player in (0, 1):
        native = child.native()
        assert child.information_state_string(player) == native.information_state_string(player)
        np.testing.assert_array_equal(
            np.asarray(child.observation_tensor(player)), native.observation_tensor(player).ravel())
    # The two seats see different cards.
    assert child.information_state_string(0) != child.information_state_string(1)


def test_cfr_solves_kuhn():
    """OpenSpiel's CFR reaches an exploitability under 0.01 and the game value -1/18."""
    game = pyspiel.load_game("boardlab_kuhn")
    solver = cfr.CFRSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert exploitability.exploitability(game, average) < 0.01
    value = expected_game_score.policy_value(game.new_initial_state(), [average] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=0.01)
    assert value[1] == pytest.approx(1 / 18, abs=0.01)


@pytest.mark.parametrize("boardlab_name,openspiel_name", [("kuhn", "kuhn_poker"), ("leduc", "leduc_poker")])
def test_uniform_exploitability_matches_openspiel_and_boardlab(boardlab_name, openspiel_name):
    """The uniform policy's exploitability, computed by OpenSpiel on boardlab's
    game, equals OpenSpiel's on its own C++ game and `boardlab exploitability`'s."""
    ours = pyspiel.load_game(f"boardlab_{boardlab_name}")
    theirs = pyspiel.load_game(openspiel_name)
    e_ours = exploitability.exploitability(ours, policy_lib.UniformRandomPolicy(ours))
    e_theirs = exploitability.exploitability(theirs, policy_lib.UniformRandomPolicy(theirs))
    assert e_ours == pytest.approx(e_theirs, abs=1e-9)
    binary = os.environ.get("BOARDLAB_BIN")
    if binary:
        out = subprocess.run(
            [binary, "exploitability", "--game", boardlab_name, "--agent", "uniform", "--json"],
            check=True, capture_output=True, text=True)
        assert json.loads(out.stdout)["exploitability"] == pytest.approx(e_ours, abs=1e-6)


@pytest.mark.parametrize("spec", ["connect4", "fox"])
def test_python_mcts_plays_whole_games(spec):
    game = pyspiel.load_game(f"boardlab_{spec}")
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=8,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("spec", ["kuhn", "fox(players=3)"])
def test_python_ismcts_plays_whole_games(spec):
    """OpenSpiel's Python ISMCTS samples states through resample_from_infostate
    (boardlab's determinization for the seat)."""
    game = pyspiel.load_game(f"boardlab_{spec}")
    rng = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 10, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            player = state.current_player()
            sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
            assert sample.information_state_string(player) == state.information_state_string(player)
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert len(state.history()) > 2


def test_rl_environment_steps_every_game():
    for name in boardlab.games():
        env = rl_environment.Environment(f"boardlab_{name}")
        env.seed(1)
        rng = np.random.default_rng(2)
        step = env.reset()
        steps = 0
        while not step.last() and steps < 300:
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([int(rng.choice(legal))])
            steps += 1
        assert steps > 0, name
        info = step.observations["info_state"][0]
        native = boardlab.load_game(name)
        shape = native.information_state_tensor_shape() or native.observation_tensor_shape()
        assert len(info) == int(np.prod(shape)), name


def test_cpp_mcts_searches_through_mcts_search():
    """pyspiel.MCTSBot.step releases Python's lock before searching, which a
    Python game cannot survive; mcts_search keeps it, and the best child of
    the root it returns is the bot's move."""
    game = pyspiel.load_game("boardlab_tictactoe")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 7)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 200, 10, True, 7, False)
    state = game.new_initial_state()
    while not state.is_terminal():
        root = bot.mcts_search(state)
        action = root.best_child().action
        assert action in state.legal_actions()
        state.apply_action(action)
    # Perfect play from both sides (the solver is on) draws tic-tac-toe.
    assert state.returns() == [0.0, 0.0]


def test_openspiel_bot_takes_a_seat_in_the_runner(tmp_path):
    game = pyspiel.load_game("boardlab_connect4")
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=50,
                       evaluator=mcts.RandomRolloutEvaluator(2, rng), random_state=rng)
    seat = boardlab.openspiel.seat(bot, game)
    rows = boardlab.run("connect4", agents=[seat, "random"], games=4, seed=2, out=tmp_path)
    assert all(r["error"] == "" for r in rows)
    mcts_rows = [r for r in rows if r["agent"] == "python:openspiel-MCTSBot"]
    assert len(mcts_rows) == 4
    # Fifty simulations a move beat random play at Connect Four nearly always.
    assert sum(r["outcome"] == "win" for r in mcts_rows) >= 3


def test_an_openspiel_bot_is_a_member_of_the_meta_game(tmp_path):
    """OpenSpiel's MCTS, a search nobody in boardlab wrote, enters the
    cross-play population beside boardlab's own agents: every cell is played,
    and at Connect Four it is what both sides' equilibrium mixes choose over
    random play and greedy play."""
    game = pyspiel.load_game("boardlab_connect4")
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=60,
                       evaluator=mcts.RandomRolloutEvaluator(2, rng), random_state=rng)
    member = boardlab.openspiel.seat(bot, game)
    solved = boardlab.metagame("connect4", ["random", "greedy", member],
                               out=tmp_path, games=8, seed=4, bootstrap=100)
    name = "python_openspiel-MCTSBot"
    assert solved["population"] == ["random", "greedy", name]
    assert len(list((tmp_path / "cells").iterdir())) == 9
    for side in solved["support"]:
        weight = sum(w["weight"] for w in side if w["agent"] == name)
        assert weight > 0.5, solved["support"]
    # The files are the command's: a second call resumes and reads them.
    again = boardlab.metagame("connect4", ["random", "greedy", member],
                              out=tmp_path, games=8, seed=4, bootstrap=100, resume=True)
    assert again["value"] == solved["value"]
    with pytest.raises(ValueError, match="neither"):
        boardlab.metagame("connect4", ["random", 3], out=tmp_path / "x")


@pytest.mark.parametrize("name, moves", [("kuhn", 2), ("leduc", 3)])
def test_information_state_tensor_is_openspiels_on_random_play(name, moves):
    """boardlab's Kuhn and Leduc information state tensors equal OpenSpiel's own
    C++ games' at every state of random play, for both seats. Actions keep
    OpenSpiel's numbers; boardlab's card outcomes follow the moves."""
    ours_game = pyspiel.load_game(f"boardlab_{name}")
    theirs_game = pyspiel.load_game(f"{name}_poker")
    assert ours_game.get_type().provides_information_state_tensor
    assert ours_game.information_state_tensor_shape() == theirs_game.information_state_tensor_shape()
    rng = np.random.default_rng(5)
    compared = set()
    for _ in range(300):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        while True:
            for p in range(2):
                mine = ours.information_state_tensor(p)
                assert mine == theirs.information_state_tensor(p), (theirs.history(), p)
                compared.add(tuple(mine))
            if theirs.is_terminal():
                assert ours.is_terminal()
                break
            if theirs.is_chance_node():
                card = int(rng.choice([a for a, _ in theirs.chance_outcomes()]))
                ours.apply_action(moves + card)
                theirs.apply_action(card)
            else:
                assert ours.legal_actions() == theirs.legal_actions()
                a = int(rng.choice(theirs.legal_actions()))
                ours.apply_action(a)
                theirs.apply_action(a)
    assert len(compared) > (20 if name == "kuhn" else 200)


def test_rl_environment_hands_out_the_information_state_tensor():
    env = rl_environment.Environment("boardlab_leduc")
    step = env.reset()
    assert len(step.observations["info_state"][0]) == 30


def test_games_without_an_information_state_tensor_say_so():
    game = boardlab.load_game("fox")
    assert game.information_state_tensor_shape() is None
    assert not pyspiel.load_game("boardlab_fox").get_type().provides_information_state_tensor
    with pytest.raises(ValueError, match="no information state tensor"):
        game.new_initial_state().information_state_tensor(0)
    kuhn = boardlab.load_game("kuhn")
    assert kuhn.information_state_tensor_shape() == [11]
    assert kuhn.new_initial_state().information_state_tensor(0).shape == (11,)
