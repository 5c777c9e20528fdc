"""Python agents in tournaments through boardlab's runner."""

import csv

import pytest

import boardlab


def first_legal(view, legal):
    assert isinstance(view, boardlab.State)
    return legal[0]


def test_python_agent_in_a_tournament(tmp_path):
    rows = boardlab.run("tictactoe", agents=[first_legal, "random"], games=4, seed=7, out=tmp_path)
    assert len(rows) == 8
    assert {r["agent"] for r in rows} == {"python:first_legal", "random"}
    assert all(r["error"] == "" for r in rows)
    for name in ["games.csv", "metrics.csv", "summary.csv", "seats.csv", "run.json"]:
        assert (tmp_path / name).exists(), name
    with open(tmp_path / "games.csv") as f:
        assert len(list(csv.DictReader(f))) == 8
    game = boardlab.load_game("tictactoe")
    again = boardlab.run(game, agents=[first_legal, "random"], games=4, seed=7, threads=2)
    assert [r["outcome"] for r in again] == [r["outcome"] for r in rows]


def test_agent_sees_a_view_of_its_seat():
    seen = []

    def spy(view, legal):
        seen.append((view.current_player(), sorted(legal) == view.legal_actions()))
        return legal[-1]

    rows = boardlab.run("karmaka(players=2)", agents=[spy, "random"], games=2, seed=1)
    assert all(r["error"] == "" for r in rows)
    assert seen and all(ok for _, ok in seen)


def test_a_raising_agent_stops_the_run_with_its_own_exception(tmp_path):
    calls = []

    def broken(view, legal):
        calls.append(1)
        raise LookupError("boom")

    with pytest.raises(LookupError, match="boom"):
        boardlab.run("connect4", agents=[broken, "random"], games=2, seed=3, out=tmp_path)
    # Nothing of the game it stopped is recorded as a forfeit.
    with open(tmp_path / "games.csv") as f:
        assert list(csv.DictReader(f)) == []
    assert len(calls) == 1


def test_an_interrupt_inside_an_agent_interrupts_the_run():
    def interrupted(view, legal):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        boardlab.run("tictactoe", agents=["random", interrupted], games=4, seed=1)


def test_illegal_answer_forfeits_the_game():
    rows = boardlab.run("connect4", agents=[lambda v, l: 10**6, "random"], games=2, seed=3)
    assert all(r["error"] for r in rows)


def test_ctrl_c_interrupts_a_run_of_builtin_agents(tmp_path):
    import os
    import signal
    import threading
    import time

    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        boardlab.run("connect4", agents=["random", "random"], games=10**9, seed=1, out=tmp_path)
    assert time.monotonic() - start < 60
    timer.join()
    # The games played before it are kept, as after a kill.
    with open(tmp_path / "games.csv") as f:
        assert len(list(csv.DictReader(f))) > 0
