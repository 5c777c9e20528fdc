#!/bin/bash
# usage: measure_mem.sh BIN LABEL GAMES  -> prints "LABEL GAMES step maxrss_kB cpu_s"
BIN=$1; L=$2; N=$3; D=/tmp/mem-$L-$N
rm -rf $D; mkdir -p $D
t() { local step=$1; shift; /usr/bin/time -f "%M %U %S" -o $D/time.$step nice -n 19 "$@" > $D/out.$step 2>&1 || echo "FAIL $step"; read rss u s < $D/time.$step; echo "$L $N $step $rss $(echo "$u + $s" | bc)"; }
A="--game connect4 --agents random,random --games $N --threads 1 --quiet --seed 5"
t run $BIN run $A --out $D/full
t summarize $BIN summarize $D/full
t shard1 $BIN run $A --shard 1/2 --out $D/s1
t shard2 $BIN run $A --shard 2/2 --out $D/s2
t merge $BIN merge --out $D/merged $D/s1 $D/s2
rm -rf $D/s1 $D/s2
# an interrupted run: cut games.csv to its first 90 % of lines, then resume
mkdir -p $D/res; cp $D/full/run.json $D/res/ 2>/dev/null; cp $D/full/*.csv $D/res/
lines=$(wc -l < $D/full/games.csv); head -n $((lines*9/10)) $D/full/games.csv > $D/res/games.csv
rm -f $D/res/summary.csv $D/res/seats.csv
t resume $BIN run $A --resume --out $D/res
cmp <(cut -d, -f1-19 $D/res/games.csv) <(cut -d, -f1-19 $D/full/games.csv) && echo "$L $N resume-identical"
rm -rf $D/res
