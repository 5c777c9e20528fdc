#!/usr/bin/env python3
"""Win rate of every agent in every seat (with its role), from the games.csv
files of an experiment's cells, with 95 % Wilson intervals (draws count half).

Usage: python3 results/tools/by_agent_and_seat.py results/<experiment> > table.md
"""

import csv
import sys
from collections import defaultdict
from pathlib import Path

from wilson import wilson


def main(root):
    print("| cell | agent | seat | role | opponents | games | win rate | 95 % CI |")
    print("|---|---|---|---|---|---:|---:|---|")
    for games in sorted(Path(root, "cells").glob("*/games.csv")):
        cell = games.parent.name
        rows = list(csv.DictReader(open(games)))
        by_game = defaultdict(list)
        for r in rows:
            by_game[r["game_index"]].append(r)
        tally = defaultdict(lambda: [0, 0.0, set(), set()])
        for seat_rows in by_game.values():
            for r in seat_rows:
                others = " + ".join(sorted({o["agent"] for o in seat_rows if o is not r and o["agent"] != r["agent"]}) or [r["agent"]])
                t = tally[(r["agent"], int(r["seat"]))]
                t[0] += 1
                t[1] += {"win": 1.0, "draw": 0.5}.get(r["outcome"], 0.0)
                t[2].add(r["role"].split(":")[0] if r["role"] else "")
                t[3].add(others)
        for (agent, seat), (n, pts, roles, others) in sorted(tally.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            lo, hi = wilson(pts, n)
            print(f"| {cell} | {agent} | {seat} | {'/'.join(sorted(roles))} | {', '.join(sorted(others))} | {n} | {pts / n:.3f} | [{lo:.3f}, {hi:.3f}] |")


if __name__ == "__main__":
    main(sys.argv[1])
