"""The pyspiel-like API over every registered game."""

import pickle
import random

import numpy as np
import pytest

import boardlab

# One spec per game, small variants so a full random game is quick.
SPECS = {
    "tictactoe": "tictactoe",
    "connect4": "connect4",
    "fox": "fox(players=3)",
    "karmaka": "karmaka(players=3)",
    "karmox": "karmox(players=4,max_rounds=15)",
    "hamunaptra": "hamunaptra",
    "kuhn": "kuhn",
    "leduc": "leduc",
    "planted": "planted",
}
HIDDEN = ["fox", "karmaka", "karmox", "hamunaptra", "kuhn", "leduc"]
# Games so short that every state is checked.
SHORT = ["kuhn", "leduc", "planted"]


def test_every_registered_game_is_covered():
    assert sorted(boardlab.games()) == sorted(SPECS)


def random_game(game, seed):
    """Plays one random game; yields each state before its action."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for _ in range(game.max_game_length()):
        if state.is_terminal():
            return state
        yield state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert state.current_player() == boardlab.CHANCE
            assert state.legal_actions() == []
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            assert legal and state.current_player() >= 0
            action = rng.choice(legal)
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", sorted(SPECS))
def test_full_random_game(name):
    game = boardlab.load_game(SPECS[name])
    n = game.num_distinct_actions()
    shape = tuple(game.observation_tensor_shape())
    gen = random_game(game, seed=3)
    steps = 0
    while True:
        try:
            state = next(gen)
        except StopIteration as done:
            final = done.value
            break
        steps += 1
        actions = state.legal_actions() or [a for a, _ in state.chance_outcomes()]
        assert all(0 <= a < n for a in actions)
        assert len(set(actions)) == len(actions)
        if not state.is_chance_node():
            mask = state.legal_actions_mask()
            assert len(mask) == n and sum(mask) == len(actions)
            assert all(mask[a] == 1 for a in actions)
            for a in actions[:3]:
                assert state.action_to_string(state.current_player(), a)
        for p in range(game.num_players()):
            t = state.observation_tensor(p)
            assert t.dtype == np.float32 and t.shape == shape
    assert steps > 0
    if final is not None:
        assert final.is_terminal() and final.current_player() == boardlab.TERMINAL
        assert len(final.returns()) == game.num_players()
        with pytest.raises(ValueError, match="over"):
            final.apply_action(0)


@pytest.mark.parametrize("name", HIDDEN)
def test_views_hide_what_the_seat_cannot_see(name):
    """A state and a determinization of it for a seat give that seat equal
    tensors and info strings, while the true states do differ."""
    game = boardlab.load_game(SPECS[name])
    differed = 0
    for seed in range(3):
        for i, state in enumerate(random_game(game, seed)):
            if i % 5 and name not in SHORT:
                continue
            for p in range(game.num_players()):
                view = state.determinize(p, seed=i)
                assert np.array_equal(state.observation_tensor(p), view.observation_tensor(p))
                assert state.information_state_string(p) == view.information_state_string(p)
                differed += view.to_json() != state.to_json()
    assert differed > 0


@pytest.mark.parametrize("name", sorted(SPECS))
def test_pickle_and_clone(name):
    game = boardlab.load_game(SPECS[name])
    for i, state in enumerate(random_game(game, 5)):
        if i == 3:
            break
    copy = pickle.loads(pickle.dumps(state))
    assert copy.to_json() == state.to_json() and str(copy) == str(state)
    twin = state.clone()
    legal = state.legal_actions() or [state.chance_outcomes()[0][0]]
    twin.apply_action(legal[0])
    assert twin.to_json() != state.to_json()
    assert pickle.loads(pickle.dumps(game)).spec() == game.spec()


def test_action_encoding_round_trips_through_labels():
    game = boardlab.load_game("tictactoe")
    state = game.new_initial_state()
    assert game.num_distinct_actions() == 9
    assert state.legal_actions() == list(range(9))
    assert state.action_to_string(0, 4) == "cell 5 (row 2, column 2)"
    state.apply_action(4)
    assert 4 not in state.legal_actions()
    assert state.observation_tensor(0)[1].reshape(-1)[4] == 1.0


def test_errors_are_value_errors_with_the_cli_message():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        boardlab.load_game("chess")
    with pytest.raises(ValueError, match="players"):
        boardlab.load_game("karmaka(players=9)")
    with pytest.raises(ValueError, match="unknown agent"):
        boardlab.agent("alphazero")
    state = boardlab.load_game("connect4").new_initial_state()
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(99)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(-1)
    with pytest.raises(ValueError, match="seat"):
        state.observation_tensor(5)


def test_builtin_agent_steps():
    game = boardlab.load_game("connect4")
    state = game.new_initial_state()
    bot = boardlab.agent("mcts(iterations=200)", seed=1)
    a = bot.step(state)
    assert a in state.legal_actions()
    kstate = boardlab.load_game("karmaka").new_initial_state(2)
    while kstate.is_chance_node():
        kstate.apply_action(kstate.chance_outcomes()[0][0])
    assert bot.step(kstate) in kstate.legal_actions()


def test_pyspiel_state_methods():
    game = boardlab.load_game("kuhn")
    assert game.has_hidden_information() and game.max_utility() == 2.0
    assert not boardlab.load_game("connect4").has_hidden_information()
    assert boardlab.load_game("connect4").max_utility() is None
    state = game.new_initial_state()
    for _ in range(2):
        state.apply_action(state.chance_outcomes()[-1][0])
    acting = state.current_player()
    assert state.legal_actions(acting) == state.legal_actions() != []
    assert state.legal_actions(1 - acting) == []
    child = state.child(state.legal_actions()[0])
    assert child.history() == state.history() + [state.legal_actions()[0]]
    assert len(state.history()) == 2 and child.current_player() == 1 - acting
    assert state.observation_string(0) == state.information_state_string(0)
    assert state.rewards() == [0.0, 0.0]
    back = boardlab.deserialize_state(child.serialize())
    assert back.to_json() == child.to_json() and str(back) == str(child)
    again = pickle.loads(pickle.dumps(child))
    assert again.history() == child.history()
    while not child.is_terminal():
        child.apply_action(child.legal_actions()[0])
    assert child.rewards() == child.returns() != [0.0, 0.0]
    with pytest.raises(ValueError):
        boardlab.deserialize_state("kuhn")


def test_counts_out_of_range_raise_the_command_lines_message():
    # The same checks as --games and --threads, not an empty result or a hang.
    with pytest.raises(ValueError, match="is not a number of games from 1 to"):
        boardlab.run("tictactoe", agents=["random", "random"], games=2**64 - 1)
    with pytest.raises(ValueError, match="is not a number of games from 1 to"):
        boardlab.run("tictactoe", agents=["random", "random"], games=0)
    with pytest.raises(ValueError, match="is not a thread count from 0"):
        boardlab.run("tictactoe", agents=["random", "random"], games=2, threads=10**6)


def test_an_action_beyond_the_range_is_out_of_range_not_negative():
    state = boardlab.load_game("tictactoe").new_initial_state()
    with pytest.raises(ValueError, match="out of range") as e:
        state.action_to_string(0, 2**40)
    assert "negative" not in str(e.value)
    with pytest.raises(ValueError, match="out of range"):
        state.action_to_string(0, 9)
    with pytest.raises(ValueError, match="negative"):
        state.action_to_string(0, -1)


def test_forged_states_are_refused_on_load():
    with pytest.raises(ValueError, match="not a state of tictactoe"):
        boardlab._state_from_json("tictactoe", '{"marks":[0,0],"to_move":5}')
    with pytest.raises(ValueError, match="not a state of tictactoe"):
        boardlab._state_from_json("tictactoe", '{"marks":[511,511],"to_move":0}')
    with pytest.raises(ValueError, match="not a state of tictactoe"):
        boardlab.deserialize_state('tictactoe\n{"marks":[7,0],"to_move":0}')
    # A reachable state still loads, and plays on.
    state = boardlab._state_from_json("tictactoe", '{"marks":[1,2],"to_move":0}')
    assert state.legal_actions() == [2, 3, 4, 5, 6, 7, 8]


def test_a_human_at_the_end_of_input_raises_eof_error(monkeypatch):
    import os

    r, w = os.pipe()
    os.close(w)
    saved = os.dup(0)
    os.dup2(r, 0)
    try:
        state = boardlab.load_game("tictactoe").new_initial_state()
        with pytest.raises(EOFError, match="standard input ended"):
            boardlab.agent("human").step(state)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(r)
