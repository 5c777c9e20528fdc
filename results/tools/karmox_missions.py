#!/usr/bin/env python3
"""How hard each Karmox mission card is to complete, read from the traces of a
one-character-per-side run (`boardlab run ... --trace DIR`).

    python3 results/tools/karmox_missions.py TRACE_DIR [TRACE_DIR...]

Each side holds one card at a time in these modes: the first draws are dealt
in seat order, and a later draw belongs to the side whose action completed a
card (the player of the last decision before it). For each card: how often
it was drawn, the share of draws completed before the game ended, the mean
number of the holder's own rounds it was held when completed, and how often
it was still held by a side when the game stopped at the round cap.
"""
import collections, json, os, sys

drawn = collections.Counter()
completed = collections.Counter()
held_rounds = collections.defaultdict(list)
held_at_cap = collections.Counter()
held_at_end = collections.Counter()
games = capped = 0
for d in sys.argv[1:]:
    for f in sorted(os.listdir(d)):
        lines = [json.loads(l) for l in open(os.path.join(d, f))]
        head, end = lines[0], lines[-1]
        if "outcomes" not in end:
            continue
        n = len(head["agents"])
        games += 1
        capped += bool(end["truncated"])
        hand, since, dealt, last = {}, {}, 0, None
        turns = collections.Counter()  # each side's turns so far
        for s in lines[1:-1]:
            label = s.get("label", "")
            if label.startswith("draw mission"):
                card = label.split()[-1]
                side = dealt if dealt < n else last
                dealt += dealt < n
                if side in hand:  # the card it held was completed
                    completed[hand[side]] += 1
                    held_rounds[hand[side]].append(turns[side] - since[side])
                hand[side], since[side] = card, turns[side]
                drawn[card] += 1
            elif s.get("player") is not None:
                last = s["player"]
                if label == "end turn":
                    turns[last] += 1
        for card in hand.values():
            held_at_end[card] += 1
            if end["truncated"]:
                held_at_cap[card] += 1

print(f"{games} games, {capped} stopped at the round cap ({capped / max(games, 1):.3f})\n")
print("| card | drawn | completed | share completed | mean own turns to complete | held when capped |")
print("|---|---:|---:|---:|---:|---:|")
for card in sorted(drawn, key=lambda c: completed[c] / drawn[c]):
    r = held_rounds[card]
    mean = f"{sum(r) / len(r):.1f}" if r else "-"
    print(f"| {card} | {drawn[card]} | {completed[card]} | {completed[card] / drawn[card]:.2f} | {mean} | {held_at_cap[card]} |")
