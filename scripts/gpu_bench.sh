#!/usr/bin/env bash
# The GPU measurement of docs/gpu.md, in one go, beside the same figures on
# the CPU of the same machine:
#
#   1. `bench net` on the GPU at batches 256-4096 for the default network
#      (4 x 32) and a 10-block x 128-filter one, training at batch 512;
#   2. `bench selfplay` (games/hour) on the GPU and on the CPU;
#   3. MINUTES of `jungle train` on the GPU and MINUTES on the CPU, then each
#      last checkpoint against alphabeta:4 (GAMES games, 200 simulations).
#
# Usage: scripts/gpu_bench.sh JUNGLE_BINARY OUT_DIR [DEVICE]
#   JUNGLE_BINARY  built with `cargo build --release --features cuda` (or wgpu)
#   DEVICE         cuda (default) or wgpu
#   MINUTES=10 GAMES=100 SELFPLAY_SECONDS=60 in the environment change the sizes;
#   STEPS (default "net selfplay train") picks the parts and TRAIN_ON (default
#   "DEVICE cpu") where training runs, so a measurement can be split over
#   calls that each fit a time limit: e.g. STEPS="net selfplay" (about 5
#   minutes), then STEPS=train TRAIN_ON=cuda MINUTES=8, and the CPU's
#   training on any machine.
# Every figure lands in OUT_DIR as JSON or text; summary.txt collects them.
# Run it from the repository root (bench selfplay plays networks/bench-4x32).
set -euo pipefail
jungle="$1"
out="$2"
device="${3:-cuda}"
minutes="${MINUTES:-10}"
games="${GAMES:-100}"
selfplay_seconds="${SELFPLAY_SECONDS:-60}"
steps="${STEPS:-net selfplay train}"
train_on="${TRAIN_ON:-$device cpu}"
wants() { [[ " $steps " == *" $1 "* ]]; }
mkdir -p "$out"
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

say "== $(date -u +%FT%TZ) on $(hostname): device $device, $(nproc) cores"
if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary" || true
fi

for shape in "4 32" "10 128"; do
    wants net || break
    # shellcheck disable=SC2086 # the shape is split into blocks and filters on purpose
    set -- $shape
    say "== bench net ${1}x${2} on $device"
    "$jungle" bench net --device "$device" --blocks "$1" --filters "$2" --survival-head --tactical-planes \
        --batches 256,512,1024,2048,4096 --train-batch 512 --seconds 2 --threads "$(nproc)" \
        | tee "$out/bench-net-${1}x${2}-$device.txt" | tee -a "$summary"
    say "== bench net ${1}x${2} on the cpu"
    "$jungle" bench net --device cpu --blocks "$1" --filters "$2" --survival-head --tactical-planes \
        --batches 256,1024 --train-batch 512 --seconds 2 --threads "$(nproc)" \
        | tee "$out/bench-net-${1}x${2}-cpu.txt" | tee -a "$summary"
done

for where in "$device" cpu; do
    wants selfplay || break
    say "== bench selfplay on $where ($selfplay_seconds s)"
    "$jungle" bench selfplay --device "$where" --seconds "$selfplay_seconds" --config configs/gpu.toml \
        | tee "$out/bench-selfplay-$where.txt" | tee -a "$summary"
done

for where in $train_on; do
    wants train || break
    say "== $minutes minutes of jungle train on $where"
    started=$(date +%s)
    "$jungle" train --root "$out/root" --run "train-$where" --device "$where" --config configs/gpu.toml \
        --set "run.minutes=$minutes" > "$out/train-$where.log" 2>&1
    tail -n 25 "$out/train-$where.log" | tee -a "$summary"
    say "wall: $(( $(date +%s) - started )) s"
    # Checkpoints are named by their zero-padded step: the glob's last is the newest.
    last=""
    for f in "$out/root/checkpoints/train-$where"/[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9].json; do
        [ -f "$f" ] && last="$f"
    done
    if [ -z "$last" ]; then
        say "== train-$where wrote no checkpoint: see $out/train-$where.log"
        continue
    fi
    say "== ${last%.json} against alphabeta:4, $games games"
    "$jungle" arena --device "$where" --a "net:${last%.json}:200:material=0.6:qsearch=0.5" --b alphabeta:4 \
        --games "$games" --seed 0 | tee "$out/arena-$where.txt" | tee -a "$summary"
done
say "== done $(date -u +%FT%TZ)"
