#!/usr/bin/env python3
"""Combine chunked `boardlab soak --json` outputs into one row per spec.

Usage: python3 results/tools/soak_table.py DIR...   (each DIR holds *.json chunks)

Each chunk is one `soak --game SPEC --games N --start S --json` run; the table
checks that a spec's chunks cover game indices 0..total exactly once and sums
games, actions, wall seconds and violations.
"""
import glob
import json
import os
import sys


def main(dirs):
    specs = {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.json"))):
            run = json.load(open(path))
            for s in run["specs"]:
                specs.setdefault(s["spec"], []).append((run["start"], s, run["threads"]))
    print("| spec | games | actions | seconds | games/s | actions/s | violations |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    total_games = total_violations = 0
    for spec, chunks in specs.items():
        chunks.sort(key=lambda c: c[0])
        at = 0
        for start, s, _ in chunks:
            if start != at:
                sys.exit(f"{spec}: chunk starting at {start}, expected {at}")
            at += s["games"]
        games = at
        steps = sum(s["steps"] for _, s, _ in chunks)
        secs = sum(s["seconds"] for _, s, _ in chunks)
        viol = sum(s["violations"] for _, s, _ in chunks)
        first = next((s["first_violation"] for _, s, _ in chunks if s["first_violation"]), None)
        total_games += games
        total_violations += viol
        note = f" (first: {first})" if first else ""
        print(f"| `{spec}` | {games:,} | {steps:,} | {secs:,.0f} | {games / secs:,.0f} | {steps / secs:,.0f} | {viol}{note} |")
    print(f"\n{total_games:,} games, {total_violations} violations.")


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
