#!/bin/bash
# Split one experiment over a Slurm array job, then merge the shards.
#
#   sbatch --array=1-8 experiments/cluster/slurm-experiment.sh
#   # when every task is done:
#   boardlab merge runs/fox-tile-sets/shard-* --out runs/fox-tile-sets/merged
#
# Every task plays its share of every cell (--shard K/N); merge combines each
# cell and writes the experiment's combined outputs and report, equal to
# those of a single-machine run. BOARDLAB_EXPERIMENT and BOARDLAB_OUT
# (exported to the job) replace the defaults below.
#SBATCH --job-name=boardlab-experiment
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=runs/%x-%A_%a.log
set -euo pipefail

N=${SLURM_ARRAY_TASK_COUNT:?run as an array job}
K=${SLURM_ARRAY_TASK_ID:?run as an array job}
OUT=${BOARDLAB_OUT:-runs/fox-tile-sets}/shard-$K
RESUME=()
[ -f "$OUT/cells/c000/run.json" ] && RESUME=(--resume)

boardlab experiment "${BOARDLAB_EXPERIMENT:-experiments/fox-tile-sets.toml}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --shard "$K/$N" --out "$OUT" \
  --quiet "${RESUME[@]}"
