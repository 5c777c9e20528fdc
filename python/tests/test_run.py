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


def _cli_run(tmp_path, game, agents, games, seed):
    """The command line's run, or None without BOARDLAB_BIN."""
    import os
    import subprocess

    binary = os.environ.get("BOARDLAB_BIN")
    if not binary:
        return None
    out = tmp_path / "cli"
    subprocess.run(
        [binary, "run", "--game", game, "--agents", ",".join(agents), "--games", str(games),
         "--seed", str(seed), "--threads", "2", "--out", str(out)],
        check=True, capture_output=True, text=True)
    return out


def _csv(path, drop=()):
    with open(path) as f:
        return [{k: v for k, v in r.items() if k not in drop} for r in csv.DictReader(f)]


# Columns that measure the machine rather than the game.
TIMING = {"think_us", "wall_us"}


def test_a_large_run_streams_its_rows_and_keeps_only_the_summary(tmp_path, monkeypatch):
    """Beyond ROWS_KEPT_UP_TO games no row is held: they go to games.csv, the
    result keeps the summary, and both are the command line's."""
    monkeypatch.setattr(boardlab, "ROWS_KEPT_UP_TO", 50)
    agents = ["random", "greedy"]
    result = boardlab.run("tictactoe", agents=agents, games=400, seed=11, threads=2,
                          out=tmp_path / "py")
    assert len(result) == 0 and result.rows_kept is False
    assert result.games == 400 and result.errors == 0
    rows = _csv(tmp_path / "py" / "games.csv")
    assert len(rows) == 800
    assert [a["agent"] for a in result.agents] == agents
    assert sum(a["games"] for a in result.agents) == 800
    for a in result.agents:
        mine = [r for r in rows if r["agent"] == a["agent"]]
        assert a["wins"] == sum(r["outcome"] == "win" for r in mine)
        assert a["losses"] == sum(r["outcome"] == "loss" for r in mine)
    kept = boardlab.run("tictactoe", agents=agents, games=400, seed=11, keep_rows=True)
    assert kept.rows_kept and len(kept) == 800
    assert [r["outcome"] for r in kept] == [r["outcome"] for r in rows]
    # Without out, only the summary: the same tallies.
    bare = boardlab.run("tictactoe", agents=agents, games=400, seed=11)
    assert len(bare) == 0 and bare.agents == result.agents and bare.seats == result.seats
    cli = _cli_run(tmp_path, "tictactoe", agents, 400, 11)
    if cli is not None:
        drop = TIMING
        assert _csv(cli / "games.csv", drop) == _csv(tmp_path / "py" / "games.csv", drop)
        summary = _csv(cli / "summary.csv")
        assert [r["agent"] for r in summary] == agents
        for theirs, ours in zip(summary, result.agents):
            for k in ["games", "wins", "draws", "losses"]:
                assert int(theirs[k]) == ours[k]
            for k in ["win_rate", "ci_low", "ci_high", "mean_score"]:
                assert float(theirs[k]) == pytest.approx(ours[k], abs=1e-6)


def test_a_small_run_keeps_its_rows_by_default():
    result = boardlab.run("tictactoe", agents=["random", "random"], games=6, seed=2)
    assert result.rows_kept and len(result) == 12 and result.games == 6
    assert sum(s["games"] for s in result.seats) == 12


def test_memory_stays_flat_over_a_run_that_keeps_no_rows(tmp_path):
    """200,000 games (400,000 rows: about 500 MB as dicts) played with no row
    kept raise the process's peak memory by far less than the rows would take."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = boardlab.run("tictactoe", agents=["random", "random"], games=200_000, seed=1,
                          threads=2, out=tmp_path)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert not result.rows_kept and len(result) == 0 and result.games == 200_000
    assert sum(s["games"] for s in result.seats) == 400_000
    assert grown_mb < 60, f"peak memory grew {grown_mb:.0f} MB"
