#!/usr/bin/env bash
# Scores a ladder run's final checkpoint with the ladder's protocol
# (experiments/ladder/README.md) and keeps its records where `jungle
# ladder` reads them: experiments/ladder/CONFIG/RUNG-sSEED/ gets the
# checkpoint, state.json, matches.jsonl, elo.csv, the probe's plot,
# probe.json (`jungle probe --json`) and 4 x 100 games of
# `net:CK:200:material=0.6:qsearch=0.5` against alphabeta:4 and
# alphabeta:6 (--seed 0 and 1), each match's answer and its games
# (`--record`). A match whose answer is there already is not played again.
#
# Usage (from the repository root): experiments/ladder/score.sh RUN CONFIG RUNG SEED
#   RUN     the run's name (its checkpoints in checkpoints/RUN)
#   CONFIG  the config's folder name (td0.9, st, ...), RUNG e.g. 0.25h
# JUNGLE=PATH picks the binary (default target/release/jungle). Two
# matches run at once on one thread each: about 7 minutes on 2 quiet cores.
set -euo pipefail
if [ $# -ne 4 ]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
run=$1 cfg=$2 rung=$3 seed=$4
jungle=${JUNGLE:-target/release/jungle}
src=checkpoints/$run
dst=experiments/ladder/$cfg/$rung-s$seed
last=""
for f in "$src"/[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9].bpk; do
  [ -f "$f" ] && last=$f
done
if [ -z "$last" ]; then
  echo "score.sh: $src holds no checkpoint (NNNNNNNN.bpk)" >&2
  exit 1
fi
ck=${last%.bpk}
mkdir -p "$dst"
cp "$last" "$ck.json" "$src/state.json" "$src/matches.jsonl" "$src/elo.csv" "$dst/"
cp "$src/probe.png" "$src/probe.svg" "$dst/" 2>/dev/null || true
[ -s "$dst/probe.json" ] || "$jungle" probe "$ck" --json > "$dst/probe.json"
play() {
  local b=$1 s=$2
  local f=$dst/vs-alphabeta$b-seed$s.json
  [ -s "$f" ] && return
  "$jungle" arena --a "net:$ck:200:material=0.6:qsearch=0.5" --b "alphabeta:$b" \
    --games 100 --threads 1 --seed "$s" --json \
    --record "$dst/games-vs-alphabeta$b-seed$s.jsonl" > "$f.part"
  mv "$f.part" "$f"
}
# Two at a time; a failed match fails the scoring.
for b in 4 6; do
  play "$b" 0 & first=$!
  play "$b" 1 & second=$!
  wait "$first"
  wait "$second"
done
echo "scored $dst"
