#!/bin/bash
# The Slurm recipes on a real scheduler: installs Slurm and MUNGE from the
# system's packages (Debian/Ubuntu, as root), starts a one-node cluster on
# this machine (munged, slurmctld and slurmd on localhost, state in a
# temporary directory), submits the array recipes for a small tournament and
# a sharded experiment, waits, merges the shards and compares the result with
# a single-machine run of the same arguments (timing columns aside).
#
#   experiments/cluster/test-slurm.sh [path/to/boardlab]
#
# Exit code 0 when both merged results equal the single-machine ones.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${1:-$(command -v boardlab || echo target/debug/boardlab)}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
[ -x "$BIN" ] || { echo "no boardlab binary at $BIN" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

WORK=$(mktemp -d /tmp/boardlab-slurm.XXXXXX)
chmod 755 "$WORK"
cleanup() {
  local status=$?
  local pids=()
  for f in "$WORK"/slurmctld.pid "$WORK"/slurmd.pid "$WORK"/munged.pid; do
    [ -f "$f" ] && pids+=("$(cat "$f")")
  done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  # Wait for the daemons to exit before removing their state.
  for _ in $(seq 50); do
    local alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  # Logs stay for a failed test.
  if [ "$status" = 0 ]; then rm -rf "$WORK"; else echo "logs in $WORK" >&2; fi
}
trap cleanup EXIT

# MUNGE: its own key and socket, run as the munge user.
# The key and state are private to the munge user; its socket's directory is
# open to all (munged requires it).
mkdir -p "$WORK/munge" "$WORK/munge-run"
mungekey --create --keyfile="$WORK/munge/munge.key" --force
chown -R munge:munge "$WORK/munge" "$WORK/munge-run"
chmod 700 "$WORK/munge"
chmod 755 "$WORK/munge-run"
SOCKET=$WORK/munge-run/munge.socket
runuser -u munge -- munged --key-file="$WORK/munge/munge.key" --socket="$SOCKET" \
  --pid-file="$WORK/munge-run/munged.pid" --log-file="$WORK/munge/munged.log" \
  --seed-file="$WORK/munge/munged.seed"
cp "$WORK/munge-run/munged.pid" "$WORK/munged.pid"

# One node: this machine, as slurmd -C describes it.
NODE=$(slurmd -C | head -1)
HOST=$(hostname -s)
mkdir -p "$WORK/state" "$WORK/spool"
cat >"$WORK/slurm.conf" <<EOF
ClusterName=boardlab-test
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
SlurmctldPort=26817
SlurmdPort=26818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
$NODE State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$WORK/slurm.conf
slurmctld -c
slurmd -c
for _ in $(seq 60); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE '^idle' && break
  sleep 1
done
sinfo -h -o '%T' | grep -qE '^idle' || { echo "the node did not come up" >&2; tail -20 "$WORK"/slurm*.log >&2; exit 1; }

export PATH=$(dirname "$BIN"):$PATH
cd "$WORK"

# Columns that may differ between machines: timing.
untimed() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = ($i !~ /_us$/) }
           { out = ""; for (i = 1; i <= NF; i++) if (keep[i]) out = out (out == "" ? "" : ",") $i; print out }' "$1"
}
same() {
  if ! diff -q <(untimed "$1") <(untimed "$2") >/dev/null; then
    echo "differs: $1 and $2" >&2
    exit 1
  fi
}

# A tournament in 3 array tasks, against one run on this machine.
export BOARDLAB_GAME=connect4 BOARDLAB_AGENTS=random,greedy BOARDLAB_GAMES=60 \
  BOARDLAB_SEED=11 BOARDLAB_OUT=$WORK/run
sbatch --wait --array=1-3 --cpus-per-task=1 --output="$WORK/run-%a.log" \
  "$HERE/slurm-array.sh" >/dev/null
boardlab merge "$WORK"/run/shard-* --out "$WORK/run/merged" >/dev/null
boardlab run --game connect4 --agents random,greedy --games 60 --seed 11 \
  --threads 1 --out "$WORK/single" -q >/dev/null
for f in games.csv metrics.csv summary.csv seats.csv; do
  same "$WORK/run/merged/$f" "$WORK/single/$f"
done

# An experiment in 2 array tasks, against the whole experiment.
cat >"$WORK/exp.toml" <<EOF
description = "Slurm test"
game = "tictactoe"
games = 30
seed = 5
lineups = [["random"], ["random", "greedy"]]
EOF
export BOARDLAB_EXPERIMENT=$WORK/exp.toml BOARDLAB_OUT=$WORK/exp
sbatch --wait --array=1-2 --cpus-per-task=1 --output="$WORK/exp-%a.log" \
  "$HERE/slurm-experiment.sh" >/dev/null
boardlab merge "$WORK"/exp/shard-* --out "$WORK/exp/merged" >/dev/null
boardlab experiment "$WORK/exp.toml" --out "$WORK/exp-single" --threads 1 -q >/dev/null
for f in cells.csv summary.csv seats.csv comparisons.csv \
  cells/c000/games.csv cells/c001/games.csv cells/c001/metrics.csv; do
  same "$WORK/exp/merged/$f" "$WORK/exp-single/$f"
done
# A meta-game's cells in 2 array tasks, solved by a last --resume, against
# one machine's meta-game.
export BOARDLAB_GAME=tictactoe BOARDLAB_AGENTS=random,greedy BOARDLAB_GAMES=20 \
  BOARDLAB_SEED=7 BOARDLAB_OUT=$WORK/mg
sbatch --wait --array=1-2 --cpus-per-task=1 --output="$WORK/mg-%a.log" \
  "$HERE/slurm-metagame.sh" >/dev/null
boardlab metagame --game tictactoe --agents random,greedy --games 20 --seed 7 \
  --threads 1 --out "$WORK/mg" --resume --quiet >/dev/null
boardlab metagame --game tictactoe --agents random,greedy --games 20 --seed 7 \
  --threads 1 --out "$WORK/mg-single" --quiet >/dev/null
for f in matrix.csv metagame.json; do
  cmp -s "$WORK/mg/$f" "$WORK/mg-single/$f" || { echo "differs: mg/$f" >&2; exit 1; }
done
# Matched CPU: calibrated once, then the array's tasks play the kept
# members; the solve equals one machine's meta-game of those members.
export BOARDLAB_AGENTS='greedy,mcts(iterations=20)' BOARDLAB_OUT=$WORK/mgc BOARDLAB_MATCH_CPU=1
boardlab metagame --game tictactoe --agents "$BOARDLAB_AGENTS" --games 20 --seed 7 \
  --match-cpu 1 --calibration-games 1 --calibrate-only --out "$WORK/mgc" --quiet >/dev/null
sbatch --wait --array=1-2 --cpus-per-task=1 --output="$WORK/mgc-%a.log" \
  "$HERE/slurm-metagame.sh" >/dev/null
boardlab metagame --game tictactoe --agents "$BOARDLAB_AGENTS" --games 20 --seed 7 \
  --match-cpu 1 --threads 1 --out "$WORK/mgc" --resume --quiet >/dev/null
mkdir -p "$WORK/mgc-single"
cp "$WORK/mgc/calibration.json" "$WORK/mgc-single/"
boardlab metagame --game tictactoe --agents "$BOARDLAB_AGENTS" --games 20 --seed 7 \
  --match-cpu 1 --threads 1 --out "$WORK/mgc-single" --quiet >/dev/null
for f in matrix.csv metagame.json; do
  cmp -s "$WORK/mgc/$f" "$WORK/mgc-single/$f" || { echo "differs: mgc/$f" >&2; exit 1; }
done
unset BOARDLAB_MATCH_CPU
echo "slurm: merged tournament, experiment and meta-game (matched CPU too) equal the single-machine runs"
