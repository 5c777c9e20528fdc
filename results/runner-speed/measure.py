#!/usr/bin/env python3
"""Runner speed against the simulator, per game: `boardlab bench` (random
playouts, one thread) and `boardlab run --quiet` of random agents at one and
two threads, interleaved round by round so a load change hits every column.

    python3 results/runner-speed/measure.py [BOARDLAB[,BOARDLAB...]] [ROUNDS] [SECONDS]

Prints a Markdown table: games/s per CPU second (bench and one-thread run,
so a busy machine's descheduling does not count), their ratio, the same
ratio in wall games/s, and from one to two threads the wall-time speed-up and the CPU seconds per game. Several
binaries (before and after a change) are measured in the same rounds, one
after the other for each game, and get a table each.
"""
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

BINS = (sys.argv[1] if len(sys.argv) > 1 else "target/release/boardlab").split(",")
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
GAMES = ["connect4", "fox", "karmaka", "karmox", "hamunaptra"]
# The runs' output directory: RUNNER_SPEED_DIR (e.g. a tmpfs, to leave the
# disk's write-back out of the figures), else a temporary directory.
OUT = tempfile.mkdtemp(prefix="runner-speed-", dir=os.environ.get("RUNNER_SPEED_DIR"))


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(game, games, threads, BIN=BINS[0]):
    """Wall and CPU seconds of one run."""
    args = [BIN, "run", "--game", game, "--agents", "random,random", "--games", str(games),
            "--seed", "1", "--threads", str(threads), "--quiet", "--force",
            "--out", os.path.join(OUT, game)]
    c, t = cpu(), time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t, cpu() - c


def bench(game, BIN):
    out = subprocess.run([BIN, "bench", "--game", game, "--seconds", str(SECONDS), "--json"],
                         check=True, capture_output=True, text=True).stdout
    v = json.loads(out)
    return v.get("games_per_cpu_s", v["games_per_s"]), v["games_per_s"]


# Size each run to about SECONDS of one thread.
size = {}
for g in GAMES:
    n = 2000
    while True:
        wall, c = run(g, n, 1)
        if c >= 0.3 or n >= 10_000_000:
            break
        n *= 4
    size[g] = max(2, int(n * SECONDS / max(c, 1e-3)) // 2 * 2)

rows = {(b, g): [] for b in BINS for g in GAMES}
load = [os.getloadavg()[0]]
for _ in range(ROUNDS):
    for g in GAMES:
        for BIN in BINS:
            b, bw = bench(g, BIN)
            w1, c1 = run(g, size[g], 1, BIN)
            w2, c2 = run(g, size[g], 2, BIN)
            rows[BIN, g].append((b, size[g] / c1, w1 / w2, c2 / c1, (size[g] / w1) / bw))
    load.append(os.getloadavg()[0])
shutil.rmtree(OUT, ignore_errors=True)

med = statistics.median
for BIN in BINS:
    print(f"\n{BIN}\n")
    print(f"| game | bench, games/CPU s | run 1 thread, games/CPU s | run / bench | "
          f"run / bench, games/s | 1 → 2 threads, wall speed-up | CPU s at 2 threads / 1 thread |")
    print("|---|---|---|---|---|---|---|")
    for g in GAMES:
        b, r, s, e, wr = (med(x[i] for x in rows[BIN, g]) for i in range(5))
        ratios = [x[1] / x[0] for x in rows[BIN, g]]
        print(f"| {g} | {b:,.0f} | {r:,.0f} | {med(ratios):.2f} "
              f"({min(ratios):.2f}–{max(ratios):.2f}) | {wr:.2f} | {s:.2f} | {e:.2f} |")
print(f"\n{ROUNDS} interleaved rounds, medians (range of the ratio over rounds); "
      f"runs of {', '.join(f'{g} {size[g]}' for g in GAMES)} games; "
      f"1-minute load average {min(load):.1f}–{max(load):.1f}.")
