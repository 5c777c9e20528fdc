#!/usr/bin/env python3
"""Measure boardlab against OpenSpiel's C++ core on the same machine, in one run.

A-B-A: boardlab rounds, then OpenSpiel's anchor benchmark (its own round-robin
of 15 timed rounds), then boardlab rounds again. Both sides report their best
sample (the most stable statistic on a noisy shared machine), and the ratios
are printed as JSON.

Usage (from the repository root, after `cargo build --release`):
  python3 results/openspiel-comparison/compare.py \
      --openspiel-python .venv-ospiel/bin/python \
      --anchor ../shared/anchors/openspiel/bench.py > results/openspiel-comparison/latest.json
"""

import argparse
import json
import subprocess
import sys


def boardlab(binary, args):
    out = subprocess.run([binary, "bench", "--json", *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def boardlab_rounds(binary, rounds, seconds):
    playouts, mcts = [], []
    for _ in range(rounds):
        playouts.append(boardlab(binary, ["--game", "connect4", "--seconds", str(seconds)])["games_per_s"])
        mcts.append(
            boardlab(binary, ["--game", "connect4", "--agent", "mcts(iterations=1000,c=2)", "--seconds", str(seconds)])[
                "iterations_per_s"
            ]
        )
    return playouts, mcts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", default="target/release/boardlab")
    p.add_argument("--openspiel-python", required=True)
    p.add_argument("--anchor", required=True)
    p.add_argument("--rounds", type=int, default=8, help="boardlab rounds before and after OpenSpiel")
    p.add_argument("--seconds", type=float, default=0.3)
    a = p.parse_args()

    before = boardlab_rounds(a.binary, a.rounds, a.seconds)
    anchor = subprocess.run(
        [a.openspiel_python, a.anchor, "--strength-games", "0", "--wait-quiet", "0"],
        check=True,
        capture_output=True,
        text=True,
    )
    ospiel = json.loads(anchor.stdout)
    after = boardlab_rounds(a.binary, a.rounds, a.seconds)

    bl_playouts = max(before[0] + after[0])
    bl_mcts = max(before[1] + after[1])
    os_playouts = ospiel["random_playouts"]["connect_four"]["cpp_rollout_evaluator"]["games_per_s"]["max"]
    mcts_cases = ospiel["mcts_from_initial_state"]["connect_four"]["solve_false"]
    os_mcts = max(case["sims_per_s"]["max"] for case in mcts_cases.values())
    result = {
        "what": "connect4, one thread, best sample on each side, measured in one run (A-B-A)",
        "boardlab_random_playouts_games_per_s_best": bl_playouts,
        "openspiel_random_playouts_games_per_s_best": os_playouts,
        "random_playout_ratio": bl_playouts / os_playouts,
        "boardlab_mcts_c2_iterations_per_s_best": bl_mcts,
        "openspiel_mcts_c2_sims_per_s_best": os_mcts,
        "mcts_ratio": bl_mcts / os_mcts,
        "openspiel_contended": ospiel.get("contended"),
        "openspiel_quiet_rounds": ospiel.get("quiet_rounds"),
        "boardlab_samples": {"playouts": before[0] + after[0], "mcts": before[1] + after[1]},
    }
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    sys.exit(main())
