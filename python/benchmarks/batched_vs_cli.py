"""Random Connect Four playouts batched in Rust through the Python package,
against the CLI's own `boardlab bench` (one thread), interleaved round by
round so that both see the same machine. Both sides are timed in CPU
seconds of the thread that plays (the batched call runs on the calling
thread, so the process's CPU time is its own; `bench` reports
`games_per_cpu_s`), which keeps the ratio meaningful on a loaded machine.
Run from the repository root after `cargo build --release` and
`pip install ./python`:

    python python/benchmarks/batched_vs_cli.py [games] [rounds]
"""

import json
import statistics
import subprocess
import sys
import time

import boardlab

games = int(sys.argv[1]) if len(sys.argv) > 1 else 1_500_000
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
ratios = []
for r in range(rounds):
    cpu = time.process_time()
    wall = time.perf_counter()
    boardlab.random_playouts("connect4", games, 1)
    batched = games / (time.process_time() - cpu)
    batched_wall = games / (time.perf_counter() - wall)
    bench = subprocess.run(
        ["target/release/boardlab", "bench", "--game", "connect4", "--seconds", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(bench.stdout)
    cli = report["games_per_cpu_s"]
    ratios.append(batched / cli)
    print(
        f"round {r}: batched {batched:,.0f} games/CPU s ({batched_wall:,.0f} /s wall), "
        f"CLI bench {cli:,.0f} games/CPU s ({report['games_per_s']:,.0f} /s wall), "
        f"ratio {batched / cli:.3f}"
    )
ratios.sort()
print(
    f"batched / CLI over {rounds} rounds: median {statistics.median(ratios):.3f}, "
    f"min {ratios[0]:.3f}, max {ratios[-1]:.3f}"
)
