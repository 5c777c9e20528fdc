#!/usr/bin/env python3
"""Paired differences between two runs played on the same seeds.

Usage: paired_runs.py BASE VARIANT [LABEL]

BASE and VARIANT are run or experiment-cell folders (or their games.csv)
whose game i starts from the same seed (`boardlab run` or `experiment` with
the same master seed and lineup). Prints one Markdown table: for each seat,
each role (the seat holding it in both games), each ending and the length,
the variant's mean minus the base's, game by game, with a normal 95 %
interval on the mean difference. A win counts 1, a draw 1/2.
"""

import csv
import math
import sys
from collections import defaultdict
from pathlib import Path


def load(path):
    p = Path(path)
    if p.is_dir():
        p = p / "games.csv"
    games = defaultdict(list)
    with open(p, newline="") as f:
        for row in csv.DictReader(f):
            games[int(row["game_index"])].append(row)
    return games


def value(row):
    return {"win": 1.0, "draw": 0.5}.get(row["outcome"], 0.0)


def interval(ds):
    n = len(ds)
    m = sum(ds) / n
    if n < 2:
        return m, m, m
    var = sum((d - m) ** 2 for d in ds) / (n - 1)
    h = 1.96 * math.sqrt(var / n)
    return m, m - h, m + h


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base, var = load(sys.argv[1]), load(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) > 3 else "variant"
    common = sorted(set(base) & set(var))
    for i in common:
        if base[i][0]["seed"] != var[i][0]["seed"]:
            sys.exit(f"game {i}: the seeds differ; the runs are not paired")
    rows = defaultdict(lambda: ([], []))  # quantity -> (base values, variant values)
    endings = sorted({g[0]["ending"] for g in base.values()} | {g[0]["ending"] for g in var.values()})
    for i in common:
        b, v = base[i], var[i]
        for rb, rv in zip(sorted(b, key=lambda r: int(r["seat"])), sorted(v, key=lambda r: int(r["seat"]))):
            q = rows[f"seat {rb['seat']} wins"]
            q[0].append(value(rb))
            q[1].append(value(rv))
        vroles = {r["role"]: r for r in v}
        for rb in b:
            rv = vroles.get(rb["role"])
            if rv is not None and len(b) > 1:
                q = rows[f"role {rb['role']} wins"]
                q[0].append(value(rb))
                q[1].append(value(rv))
        for e in endings:
            q = rows[f"ending {e} (share)"]
            q[0].append(float(b[0]["ending"] == e))
            q[1].append(float(v[0]["ending"] == e))
        for k in ("turns", "rounds"):
            if b[0][k] == "" or v[0][k] == "":
                continue
            q = rows[f"{k} (mean)"]
            q[0].append(float(b[0][k]))
            q[1].append(float(v[0][k]))
    print(f"| {len(common)} pairs | base | {label} | difference [95 %] |")
    print("|---|---:|---:|---|")
    for name, (xs, ys) in rows.items():
        m, lo, hi = interval([y - x for x, y in zip(xs, ys)])
        mb, mv = sum(xs) / len(xs), sum(ys) / len(ys)
        wide = "turns" in name or "rounds" in name
        f = "{:+.1f}" if wide else "{:+.3f}"
        g = "{:.1f}" if wide else "{:.3f}"
        sig = lo > 0 or hi < 0
        diff = f"{f.format(m)} [{f.format(lo)}, {f.format(hi)}]"
        if sig:
            diff = f"**{diff}**"
        print(f"| {name} | {g.format(mb)} | {g.format(mv)} | {diff} |")


if __name__ == "__main__":
    main()
