#!/bin/bash
# CPU profiles of the searches, one per game, with perf's software clock
# (hardware counters are not available on the machine these were made on).
# Run from the repository root after `cargo build --profile profiling` (the
# release build with debug info, for `perf annotate`; BOARDLAB=path picks
# another build, e.g. target/release/boardlab, whose profile names functions
# but not lines); writes perf data and the top of each profile into DIR
# (default: a temporary directory) and prints the tops.
set -euo pipefail
bin=${BOARDLAB:-target/profiling/boardlab}
dir=${1:-$(mktemp -d)}
profile() {
  local name=$1 game=$2 agent=$3
  perf record -q -e cpu-clock -F 2000 -g -o "$dir/$name.data" \
    "$bin" bench --game "$game" --agent "$agent" --seconds 3 --json > /dev/null
  perf report -i "$dir/$name.data" --no-children --stdio 2> /dev/null \
    | grep -E '^ +[0-9]+\.[0-9]+%' | head -12 > "$dir/$name.top"
  echo "== $name"; cat "$dir/$name.top"
}
profile connect4-mcts connect4 'mcts(iterations=1000,c=2)'
for game in fox karmaka karmox hamunaptra; do
  profile "$game-ismcts" "$game" 'ismcts(iterations=1000,max_rollout=20)'
done
profile karmaka-moismcts karmaka 'moismcts(iterations=1000,max_rollout=20)'
