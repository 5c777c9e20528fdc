#!/bin/bash
# Split one tournament over several machines (or cores) with GNU parallel,
# then merge. Rerunning the same line after an interruption resumes each shard.
#
#   experiments/cluster/gnu-parallel.sh 8            # 8 shards, locally
#   # or across hosts: add  --sshloginfile hosts.txt  to the parallel line
set -euo pipefail
N=${1:-4}
OUT=runs/fox-big
mkdir -p "$OUT"
seq 1 "$N" | parallel --jobs "$N" --halt now,fail=1 \
  'd='"$OUT"'/shard-{}; r=; [ -f $d/run.json ] && r=--resume; boardlab run --game "fox(players=4)" --agents ismcts-1k,random,greedy,mcts-1k --games 20000 --seed 7 --threads 1 --shard {}/'"$N"' --out $d --quiet $r'
boardlab merge "$OUT"/shard-* --out "$OUT/merged"
