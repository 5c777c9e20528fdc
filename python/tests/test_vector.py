"""boardlab.VectorEnv: N games stepped in Rust per call."""

import numpy as np
import pytest

import boardlab

SPECS = ["tictactoe", "connect4", "kuhn", "leduc", "planted", "fox", "karmaka(players=3)", "karmox",
         "hamunaptra"]


def random_actions(rng, mask):
    """One uniformly random legal action per row of ``mask``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


def play(env, steps, seed):
    """``steps`` random steps; every array returned, copied."""
    rng = np.random.default_rng(seed)
    obs, mask, to_play = env.reset()
    trace = [(obs, mask, to_play)]
    for _ in range(steps):
        out = env.step(random_actions(rng, mask))
        obs, mask = out[0], out[1]
        trace.append(out + (env.truncated,))
    return trace


@pytest.mark.parametrize("spec", SPECS)
def test_each_env_plays_as_a_single_env_seeded_seed_plus_index(spec):
    n, steps = 3, 40
    batch = boardlab.VectorEnv(spec, n, seed=10)
    rng = np.random.default_rng(1)
    obs, mask, to_play = batch.reset()
    singles = [boardlab.VectorEnv(spec, 1, seed=10 + i) for i in range(n)]
    firsts = [s.reset() for s in singles]
    for i in range(n):
        assert np.array_equal(obs[i], firsts[i][0][0])
        assert np.array_equal(mask[i], firsts[i][1][0])
        assert to_play[i] == firsts[i][2][0]
    ended = 0
    for _ in range(steps):
        actions = random_actions(rng, mask)
        obs, mask, rewards, done, to_play = batch.step(actions)
        ended += int(done.sum())
        for i, single in enumerate(singles):
            o, m, r, d, t = single.step(actions[i:i + 1])
            assert np.array_equal(obs[i], o[0])
            assert np.array_equal(mask[i], m[0])
            assert np.array_equal(rewards[i], r[0])
            assert done[i] == d[0] and to_play[i] == t[0]
    if spec in ("tictactoe", "kuhn", "leduc"):
        assert ended > 0  # the automatic reset was exercised


@pytest.mark.parametrize("spec", ["connect4", "kuhn", "leduc", "fox", "karmaka(players=3)"])
def test_arrays_are_the_seat_to_acts_view_of_the_true_state(spec):
    env = boardlab.VectorEnv(spec, 4, seed=3)
    game = env.game
    rng = np.random.default_rng(2)
    obs, mask, to_play = env.reset()
    returns_seen = 0
    for _ in range(60):
        for i in range(4):
            state = env.state(i)
            seat = state.current_player()
            assert seat == to_play[i] and seat >= 0
            assert np.array_equal(obs[i], state.observation_tensor(seat).ravel())
            assert np.array_equal(np.flatnonzero(mask[i]), state.legal_actions())
        before = [env.state(i) for i in range(4)]
        actions = random_actions(rng, mask)
        obs, mask, rewards, done, to_play = env.step(actions)
        for i in range(4):
            after = before[i].child(int(actions[i]))
            if done[i]:
                # The env drew the chance outcomes after the action from its
                # own stream, so the finished game cannot be replayed here;
                # its returns lie within the game's bounds.
                bound = game.max_utility() or 1.0
                assert np.all(np.abs(rewards[i]) <= bound + 1e-6)
                if after.is_terminal():
                    assert np.allclose(rewards[i], after.returns())
                returns_seen += 1
            else:
                assert not rewards[i].any()
                if not after.is_chance_node():
                    assert env.state(i).to_json() == after.to_json()
    assert returns_seen > 0 or spec in ("fox", "karmaka(players=3)")


def test_same_seed_same_games_and_reset_with_seed_restarts():
    a = play(boardlab.VectorEnv("leduc", 5, seed=7), 30, seed=0)
    b = play(boardlab.VectorEnv("leduc", 5, seed=7), 30, seed=0)
    for x, y in zip(a, b):
        assert all(np.array_equal(u, v) for u, v in zip(x, y))
    env = boardlab.VectorEnv("leduc", 5, seed=7)
    first = env.reset()
    env.step(random_actions(np.random.default_rng(0), first[1]))
    again = env.reset(seed=7)
    assert all(np.array_equal(u, v) for u, v in zip(first, again))
    other = boardlab.VectorEnv("leduc", 5, seed=8).reset()
    assert not np.array_equal(first[0], other[0])


def test_shapes_and_dtypes():
    env = boardlab.VectorEnv("karmaka(players=3)", 4)
    obs, mask, to_play = env.reset()
    game = boardlab.load_game("karmaka(players=3)")
    assert obs.shape == (4, int(np.prod(game.observation_tensor_shape()))) and obs.dtype == np.float32
    assert mask.shape == (4, game.num_distinct_actions()) and mask.dtype == np.bool_
    assert to_play.shape == (4,) and to_play.dtype == np.int32
    out = env.step(random_actions(np.random.default_rng(0), mask))
    assert out[2].shape == (4, 3) and out[2].dtype == np.float32
    assert out[3].shape == (4,) and out[3].dtype == np.bool_


def test_returned_arrays_are_copies_unless_asked():
    env = boardlab.VectorEnv("connect4", 2)
    obs, mask, _ = env.reset()
    keep = obs.copy()
    env.step(random_actions(np.random.default_rng(0), mask))
    assert np.array_equal(obs, keep)
    shared = boardlab.VectorEnv("connect4", 2, copy=False)
    obs, mask, _ = shared.reset()
    keep = obs.copy()
    shared.step(random_actions(np.random.default_rng(0), mask))
    assert not np.array_equal(obs, keep)


def test_rewards_at_the_end_are_the_games_returns():
    env = boardlab.VectorEnv("tictactoe", 8, seed=1)
    rng = np.random.default_rng(5)
    _, mask, _ = env.reset()
    finished = 0
    for _ in range(30):
        _, mask, rewards, done, _ = env.step(random_actions(rng, mask))
        for i in np.flatnonzero(done):
            assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
            finished += 1
        assert not rewards[~done].any()
    assert finished >= 8


def test_illegal_action_names_the_env_and_moves_nothing():
    env = boardlab.VectorEnv("connect4", 3, seed=2)
    obs, mask, _ = env.reset()
    before = [env.state(i).to_json() for i in range(3)]
    actions = random_actions(np.random.default_rng(0), mask)
    for bad in (-1, 7, 10**12):
        wrong = actions.copy()
        wrong[2] = bad
        with pytest.raises(ValueError, match=r"env 2: action .* is not legal for seat 0 \(legal: \[0, 1, 2"):
            env.step(wrong)
    assert [env.state(i).to_json() for i in range(3)] == before
    with pytest.raises(ValueError, match="one action per env"):
        env.step(actions[:2])
    with pytest.raises(ValueError, match="integer"):
        env.step(np.array([0.5, 1, 2]))
    with pytest.raises(ValueError, match="reset"):
        boardlab.VectorEnv("connect4", 2).step([0, 0])
    with pytest.raises(ValueError, match="between 1 and"):
        boardlab.VectorEnv("connect4", 0)
    with pytest.raises(ValueError):
        boardlab.VectorEnv("nosuchgame", 2)
