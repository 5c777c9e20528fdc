#!/bin/sh
# Runs a long soak in chunks that survive interruption: for each spec (one per
# line of SPECS), chunk k plays games k*SIZE .. (k+1)*SIZE - 1 and writes
# OUT/<spec>.<k>.json. Finished chunks are skipped, so rerunning the script
# after a crash or a reboot carries on where it stopped; a chunk still running
# is a .part file and is played again. Check and sum the chunks with
#   python3 results/tools/soak_table.py OUT
#
# Usage: soak_chunks.sh SPECS OUT [CHUNKS] [SIZE]
#   CHUNKS per spec (default 10), SIZE games per chunk (default 100000).
#   BOARDLAB (default target/release/boardlab), SEED (1), THREADS (0: one per core).
set -eu

specs=${1:?usage: soak_chunks.sh SPECS OUT [CHUNKS] [SIZE]}
out=${2:?usage: soak_chunks.sh SPECS OUT [CHUNKS] [SIZE]}
chunks=${3:-10}
size=${4:-100000}
bin=${BOARDLAB:-target/release/boardlab}
seed=${SEED:-1}
threads=${THREADS:-0}

mkdir -p "$out"
while read -r spec; do
  case $spec in '' | '#'*) continue ;; esac
  # Spec characters outside [A-Za-z0-9=] become '_' in the file name.
  safe=$(printf '%s' "$spec" | tr -c 'a-zA-Z0-9=' '_')
  k=0
  while [ "$k" -lt "$chunks" ]; do
    file="$out/$safe.$k.json"
    if [ ! -s "$file" ]; then
      # A violation exits non-zero: keep the report, stop the run.
      "$bin" soak --game "$spec" --games "$size" --start $((k * size)) \
        --seed "$seed" --threads "$threads" --json > "$file.part"
      mv "$file.part" "$file"
    fi
    k=$((k + 1))
  done
done < "$specs"
