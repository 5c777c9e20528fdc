#!/bin/bash
# Split one balance-against-skill study over a Slurm array job, then merge.
#
#   sbatch --array=1-32 experiments/cluster/slurm-balance.sh
#   # when every task is done:
#   boardlab merge runs/balance-hamunaptra/shard-* --out results/balance-hamunaptra
#   boardlab report results/balance-hamunaptra
#
# Every task runs the same command with its own --shard K/N: it plays share K
# of every budget's games and of the Elo ladder's pairs. The merge checks the
# shards are one command's, each once, and writes balance.csv, balance.json
# and balance.md byte for byte as `boardlab balance` on one machine would
# (same games, same stop, same ladder). A shard writes balance-shard.json
# last, so a task that was killed (pre-emption, time limit) left none and is
# simply resubmitted; a finished one is skipped. --until and --max-seconds
# depend on every shard's games, so a sharded study plays a fixed
# --max-games: 1,100 games per budget give ±0.03 (95 %) on a two-player seat
# rate. The BOARDLAB_* variables (exported to the job) replace the defaults.
#SBATCH --job-name=boardlab-balance
#SBATCH --cpus-per-task=8
#SBATCH --time=08:00:00
#SBATCH --output=runs/%x-%A_%a.log
set -euo pipefail

N=${SLURM_ARRAY_TASK_COUNT:?run as an array job}
K=${SLURM_ARRAY_TASK_ID:?run as an array job}
OUT=${BOARDLAB_OUT:-runs/balance-hamunaptra}/shard-$K
[ -f "$OUT/balance-shard.json" ] && exit 0

boardlab balance --game "${BOARDLAB_GAME:-hamunaptra}" \
  --agent "${BOARDLAB_AGENT:-ismcts(max_rollout=20)}" \
  --budgets "${BOARDLAB_BUDGETS:-100,200,400,800}" \
  --max-games "${BOARDLAB_GAMES:-1100}" --ladder-games "${BOARDLAB_LADDER_GAMES:-200}" \
  --seed "${BOARDLAB_SEED:-1}" --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$K/$N" --out "$OUT"
