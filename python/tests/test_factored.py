"""The factored action form of Karmox and Hamunaptra."""

import random

import pytest

import boardlab

SPECS = {"karmox": (8921, (24, 1025, 1025, 1)), "hamunaptra": (122073, (38, 961, 961, 5))}


def decisions(spec, games, seed, max_steps=400):
    """States of random play at which a seat decides."""
    game = boardlab.load_game(spec)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(seed=seed + g)
        for _ in range(max_steps):
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            yield state
            state.apply_action(rng.choice(state.legal_actions()))


def complete(legal, prefix=()):
    """Every tuple reached by choosing each component among boardlab.legal_next's."""
    if len(prefix) == 4:
        return [prefix]
    return [t for v in boardlab.legal_next(legal, prefix) for t in complete(legal, prefix + (v,))]


@pytest.mark.parametrize("spec", SPECS)
def test_factored_round_trips_and_its_legal_structure_is_the_flat_mask(spec):
    game = boardlab.load_game(spec)
    flat, shape = SPECS[spec]
    assert game.num_distinct_actions() == flat
    assert game.factored_shape() == shape
    fields = game.action_fields()
    assert len(fields) == shape[0]
    assert sum(int(__import__("math").prod(f)) for f in fields) == flat
    kinds = set()
    seen = 0
    for state in decisions(spec, games=3, seed=2):
        legal = state.legal_actions()
        factored = state.legal_factored()
        assert [game.to_factored(a) for a in legal] == factored
        assert [game.from_factored(t) for t in factored] == legal
        assert all(all(v < n for v, n in zip(t, shape)) for t in factored)
        # Choosing component by component among the legal values reaches
        # exactly the legal actions.
        assert complete(factored) == factored
        kinds.update(t[0] for t in factored)
        seen += 1
    assert seen > 50 and len(kinds) > 4


def test_every_index_round_trips():
    game = boardlab.load_game("karmox")
    tuples = [game.to_factored(i) for i in range(game.num_distinct_actions())]
    assert tuples == sorted(tuples) and len(set(tuples)) == len(tuples)
    assert [game.from_factored(t) for t in tuples] == list(range(game.num_distinct_actions()))


def test_bad_factored_input_is_a_clear_error():
    game = boardlab.load_game("hamunaptra")
    with pytest.raises(ValueError, match=r"kind 38 is outside 0..38"):
        game.from_factored((38, 0, 0, 0))
    with pytest.raises(ValueError, match=r"field 1 of kind 16 is 961, outside 0..961"):
        game.from_factored((16, 0, 961, 0))
    with pytest.raises(ValueError, match="must be 0"):
        game.from_factored((0, 1, 1, 0))
    with pytest.raises(ValueError, match="not negative"):
        game.from_factored((0, -1))
    with pytest.raises(ValueError, match="1 to 4 components"):
        game.from_factored((0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match="outside 0..122073"):
        game.to_factored(122073)
    assert game.from_factored((1,)) == game.from_factored((1, 0, 0, 0)) == 32
    other = boardlab.load_game("connect4")
    assert other.factored_shape() is None
    with pytest.raises(ValueError, match="no factored action form"):
        other.to_factored(0)
    with pytest.raises(ValueError, match="no factored action form"):
        other.new_initial_state().legal_factored()
