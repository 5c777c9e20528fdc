#!/bin/bash
# Split one meta-game's cells over a Slurm array job, then solve.
#
#   sbatch --array=1-16 experiments/cluster/slurm-metagame.sh
#   # when every task is done, the same command without --shard:
#   boardlab metagame --game fox --agents ... --games 400 --seed 2026 --out runs/metagame-fox --resume
#
# Task K plays cells i with i mod N = K - 1 into the shared --out folder
# (each cell is an ordinary run in cells/, held under its own lock); a killed
# task is resubmitted as is (--resume keeps every finished game). The final
# command reads every finished cell and writes matrix.csv, metagame.json and
# metagame.md, equal to a single-machine run's. The BOARDLAB_* variables
# (exported to the job) replace the defaults below. With BOARDLAB_MATCH_CPU=MS
# (matched CPU per decision), calibrate once before the array job, so that
# every task plays the same members:
#   boardlab metagame --game fox --agents ... --match-cpu MS --calibrate-only --out runs/metagame-fox
#SBATCH --job-name=boardlab-metagame
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=runs/%x-%A_%a.log
set -euo pipefail

N=${SLURM_ARRAY_TASK_COUNT:?run as an array job}
K=${SLURM_ARRAY_TASK_ID:?run as an array job}
OUT=${BOARDLAB_OUT:-runs/metagame-fox}
RESUME=()
[ -d "$OUT/cells" ] && RESUME=(--resume)
MATCH=()
[ -n "${BOARDLAB_MATCH_CPU:-}" ] && MATCH=(--match-cpu "$BOARDLAB_MATCH_CPU")

boardlab metagame --game "${BOARDLAB_GAME:-fox}" \
  --agents "${BOARDLAB_AGENTS:-greedy,ismcts(iterations=1600,max_rollout=20),ismcts(iterations=1600),moismcts(iterations=1600,max_rollout=20),pimc(iterations=1600,max_rollout=20)}" \
  --games "${BOARDLAB_GAMES:-400}" --seed "${BOARDLAB_SEED:-2026}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$K/$N" --out "$OUT" --quiet "${RESUME[@]}" "${MATCH[@]}"
