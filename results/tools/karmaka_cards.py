#!/usr/bin/env python3
"""Karmaka: the win rate associated with each card type, from an experiment's
games.csv and metrics.csv: for every card, the win rate (draws half, 95 %
Wilson interval) of the seats that played it at least once, in any mode,
against the seats that did not. An association, not a cause: strong players
also choose which cards to play.

Usage: python3 results/tools/karmaka_cards.py results/<experiment> > cards.md
"""

import csv
import sys
from collections import defaultdict
from pathlib import Path

from wilson import wilson


def main(root):
    played = defaultdict(lambda: [0, 0.0])  # card -> [seats, points] among seats that played it
    others = defaultdict(lambda: [0, 0.0])
    cards = set()
    seats = []
    for games in sorted(Path(root, "cells").glob("*/games.csv")):
        cell = games.parent.name
        used = defaultdict(set)
        for m in csv.DictReader(open(games.parent / "metrics.csv")):
            name = m["metric"]
            if name.startswith("played_") and name.count("_") >= 2 and float(m["value"]) > 0:
                card = name.split("_")[1]
                used[(m["game_index"], m["seat"])].add(card)
                cards.add(card)
        for r in csv.DictReader(open(games)):
            pts = {"win": 1.0, "draw": 0.5}.get(r["outcome"], 0.0)
            seats.append((used[(r["game_index"], r["seat"])], pts))
    for card in sorted(cards):
        for used, pts in seats:
            t = played[card] if card in used else others[card]
            t[0] += 1
            t[1] += pts
    print("| card | seats that played it | their win rate [95 % CI] | other seats | their win rate [95 % CI] |")
    print("|---|---:|---|---:|---|")
    for card in sorted(cards, key=lambda c: (-played[c][1] / max(played[c][0], 1), c)):
        n1, p1 = played[card]
        n0, p0 = others[card]
        l1, h1 = wilson(p1, n1)
        l0, h0 = wilson(p0, n0)
        print(f"| {card} | {n1} | {p1 / max(n1, 1):.3f} [{l1:.3f}, {h1:.3f}] | {n0} | {p0 / max(n0, 1):.3f} [{l0:.3f}, {h0:.3f}] |")


if __name__ == "__main__":
    main(sys.argv[1])
