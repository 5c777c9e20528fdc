"""Random Connect Four playouts batched in Rust through the Python package,
against the CLI's own `boardlab bench` (one thread), interleaved round by
round so that both see the same machine. Run from the repository root after
`cargo build --release` and `pip install ./python`:

    python python/benchmarks/batched_vs_cli.py [games] [rounds]
"""

import json
import subprocess
import sys
import time

import boardlab

games = int(sys.argv[1]) if len(sys.argv) > 1 else 1_500_000
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
ratios = []
for r in range(rounds):
    start = time.perf_counter()
    boardlab.random_playouts("connect4", games, 1)
    batched = games / (time.perf_counter() - start)
    bench = subprocess.run(
        ["target/release/boardlab", "bench", "--game", "connect4", "--seconds", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    cli = json.loads(bench.stdout)["games_per_s"]
    ratios.append(batched / cli)
    print(f"round {r}: batched {batched:,.0f} games/s, CLI bench {cli:,.0f} games/s, ratio {batched / cli:.3f}")
ratios.sort()
print(f"median ratio batched / CLI: {ratios[len(ratios) // 2]:.3f}")
