#!/usr/bin/env python3
"""Win rate of every role pooled over all cells of an experiment, with 95 %
Wilson intervals (draws count half), and the fair share 1/seats.

Usage: python3 results/tools/by_role.py results/<experiment> > roles.md
"""

import csv
import sys
from collections import defaultdict
from pathlib import Path

from wilson import wilson


def main(root):
    tally = defaultdict(lambda: [0, 0.0, defaultdict(int)])
    seats = set()
    for games in sorted(Path(root, "cells").glob("*/games.csv")):
        for r in csv.DictReader(open(games)):
            t = tally[r["role"]]
            t[0] += 1
            t[1] += {"win": 1.0, "draw": 0.5}.get(r["outcome"], 0.0)
            t[2][int(r["seat"])] += 1
            seats.add(int(r["seat"]))
    points = sum(t[1] for t in tally.values())
    n = sum(t[0] for t in tally.values())
    print(f"Pooled rate {points / n if n else 0:.3f}: what every role would score with no advantage "
          f"(draws count half, so it exceeds 1/{len(seats)} when games are drawn).\n")
    print("| role | games | win rate | 95 % CI | games per seat |")
    print("|---|---:|---:|---|---|")
    for role, (n, pts, per_seat) in sorted(tally.items(), key=lambda kv: -kv[1][1] / kv[1][0]):
        lo, hi = wilson(pts, n)
        spread = ", ".join(f"{s}: {per_seat[s]}" for s in sorted(per_seat))
        print(f"| {role or '(none)'} | {n} | {pts / n:.3f} | [{lo:.3f}, {hi:.3f}] | {spread} |")


if __name__ == "__main__":
    main(sys.argv[1])
