#!/usr/bin/env python3
"""Search iterations per CPU second of two builds, interleaved: for every
(game, agent) pair each round runs `boardlab bench --agent` with the base
build, then the new one (A B A B ...), so a change of the machine's load
hits both. Prints one JSON line per sample and a Markdown table of the
median ratio new / base per pair, with the range over rounds.

    python3 results/search-speed/measure.py BASE NEW [ROUNDS] [SECONDS]
"""
import json, statistics, subprocess, sys

BASE, NEW = sys.argv[1], sys.argv[2]
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
SECONDS = sys.argv[4] if len(sys.argv) > 4 else "1"
PAIRS = [
    ("connect4", "mcts(iterations=1000,c=2)"),
    ("fox", "ismcts(iterations=1000,max_rollout=20)"),
    ("karmaka", "ismcts(iterations=1000,max_rollout=20)"),
    ("karmox", "ismcts(iterations=1000,max_rollout=20)"),
    ("hamunaptra", "ismcts(iterations=1000,max_rollout=20)"),
    ("karmaka", "moismcts(iterations=1000,max_rollout=20)"),
    ("hamunaptra", "moismcts(iterations=1000,max_rollout=20)"),
    ("karmaka", "pimc(iterations=1000,max_rollout=20)"),
    ("hamunaptra", "ismcts(iterations=1000,max_rollout=20,widen=0.5,rollout=mast,eval=race)"),
]


def rate(binary, game, agent):
    out = subprocess.run([binary, "bench", "--game", game, "--agent", agent,
                          "--seconds", SECONDS, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["iterations_per_cpu_s"]


ratios = {pair: [] for pair in PAIRS}
rates = {pair: ([], []) for pair in PAIRS}
for r in range(ROUNDS):
    for pair in PAIRS:
        base = rate(BASE, *pair)
        new = rate(NEW, *pair)
        rates[pair][0].append(base)
        rates[pair][1].append(new)
        ratios[pair].append(new / base)
        print(json.dumps({"round": r, "game": pair[0], "agent": pair[1],
                          "base": base, "new": new}), flush=True)

print("\n| game | agent | base it/CPU-s | new it/CPU-s | new / base (median) | range |")
print("|---|---|---:|---:|---:|---|")
for pair in PAIRS:
    x = ratios[pair]
    print(f"| {pair[0]} | `{pair[1]}` | {statistics.median(rates[pair][0]):,.0f} "
          f"| {statistics.median(rates[pair][1]):,.0f} | **{statistics.median(x):.2f}×** "
          f"| {min(x):.2f}–{max(x):.2f} |")
