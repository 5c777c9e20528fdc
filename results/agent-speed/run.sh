#!/bin/bash
# Search iterations/s of every agent on every game, one thread, one search
# after another from the game's first decision (boardlab bench --agent), and
# random-playout speed for reference. Run from the repository root after
# `cargo build --release`; writes results/agent-speed/speed.jsonl.
set -euo pipefail
out=results/agent-speed/speed.jsonl
: > "$out"
for game in tictactoe connect4 fox karmaka karmox hamunaptra; do
  target/release/boardlab bench --game "$game" --seconds 2 --json >> "$out"
  for agent in mcts-1k pimc-1k ismcts-1k mcts-1k-h20 ismcts-1k-h20; do
    target/release/boardlab bench --game "$game" --agent "$agent" --seconds 2 --json >> "$out"
  done
done
