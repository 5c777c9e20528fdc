#!/bin/bash
# Split one tournament over a Slurm array job, then merge the shards.
#
#   sbatch --array=1-16 experiments/cluster/slurm-array.sh
#   # when every task is done:
#   boardlab merge runs/karmaka-big/shard-* --out runs/karmaka-big/merged
#
# Every task runs the same command with its own --shard K/N; a task that was
# killed (pre-emption, time limit) can simply be resubmitted: --resume keeps its
# finished games. The merged result equals a single-machine run. The
# BOARDLAB_* variables (exported to the job) replace the defaults below;
# experiments/cluster/test-slurm.sh runs this recipe on a one-node cluster.
#SBATCH --job-name=boardlab
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=runs/%x-%A_%a.log
set -euo pipefail

N=${SLURM_ARRAY_TASK_COUNT:?run as an array job}
K=${SLURM_ARRAY_TASK_ID:?run as an array job}
OUT=${BOARDLAB_OUT:-runs/karmaka-big}/shard-$K
RESUME=()
[ -f "$OUT/run.json" ] && RESUME=(--resume)

boardlab run --game "${BOARDLAB_GAME:-karmaka(players=2)}" \
  --agents "${BOARDLAB_AGENTS:-ismcts-1k,greedy}" \
  --games "${BOARDLAB_GAMES:-100000}" --seed "${BOARDLAB_SEED:-2026}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$K/$N" --out "$OUT" --max-errors 100 --quiet "${RESUME[@]}"
