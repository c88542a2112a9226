#!/bin/bash
# The CPU kernels side by side in one run: `jungle bench net` on every
# kernel path this processor has (JUNGLE_KERNELS), and optionally an older
# binary, against onnxruntime on the same networks, at batches 1, 32 and 256
# on 1 and 2 threads; then self-play games per hour on each path.
#
# Needs:  a release build (cargo build --release), python3 with onnxruntime
#         and numpy (pip install onnxruntime numpy)
# Usage:  scripts/bench_kernels.sh OUT_DIR [OLD_BINARY] [SELFPLAY_SECONDS]
#         Writes OUT_DIR/cpu.txt (the processor), net.jsonl (one line per
#         binary or path, network and thread count), onnxruntime.jsonl,
#         selfplay.jsonl, and prints the table docs/performance.md keeps.
#         Takes about 15 minutes on 2 cores with an old binary and a
#         45-second self-play (SELFPLAY_SECONDS, default 45; 0 skips it).
set -euo pipefail
out=${1:?usage: scripts/bench_kernels.sh OUT_DIR [OLD_BINARY] [SELFPLAY_SECONDS]}
old=${2:-}
selfplay_seconds=${3:-45}
here=$(cd "$(dirname "$0")/.." && pwd)
jungle="$here/target/release/jungle"
[ -x "$jungle" ] || { echo "no $jungle: run cargo build --release first" >&2; exit 1; }
[ -z "$old" ] || [ -x "$old" ] || { echo "OLD_BINARY $old is not an executable" >&2; exit 1; }
mkdir -p "$out"
: > "$out/net.jsonl"; : > "$out/onnxruntime.jsonl"; : > "$out/selfplay.jsonl"
{ grep -m1 "model name" /proc/cpuinfo || true
  grep -m1 -o -w -E "avx512f|avx2" /proc/cpuinfo | sort -u | tr '\n' ' '; echo
  nproc; } > "$out/cpu.txt"

# The kernel paths this processor runs: `jungle` refuses the others.
paths=()
for p in plain avx2 avx512; do
    if JUNGLE_KERNELS=$p "$jungle" bench net --blocks 1 --filters 8 --batches 1 --no-burn \
        --seconds 0.01 --train-batch 2 --json > /dev/null 2>&1; then paths+=("$p"); fi
done
echo "kernel paths here: ${paths[*]}"

# name  bench-net flags  network config (for the ONNX file)
nets=("4x32|--blocks 4 --filters 32 --tactical-planes --survival-head|blocks = 4
filters = 32
tactical_planes = true
survival_head = true"
"6x64|--blocks 6 --filters 64|blocks = 6
filters = 64
tactical_planes = false
survival_head = false")

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# `bench selfplay --json` prints its object over several lines: one line each.
compact="$tmp/compact"
printf '#!/usr/bin/env python3\nimport json, sys\nprint(json.dumps(json.load(sys.stdin)))\n' > "$compact"
chmod +x "$compact"
for spec in "${nets[@]}"; do
    IFS='|' read -r name flags config <<< "$spec"
    printf '%s\n' "$config" > "$tmp/$name.toml"
    "$jungle" net init --config "$tmp/$name.toml" --out "$tmp/$name" > /dev/null
    "$jungle" net onnx --checkpoint "$tmp/$name" --out "$tmp/$name.onnx" > /dev/null
    for threads in 1 2; do
        if [ -n "$old" ]; then
            # The old binary once (it has no --no-burn, so it also times
            # burn's passes, at about five times the cost).
            echo "== $name, $threads thread(s), old"
            # shellcheck disable=SC2086
            line=$("$old" bench net $flags --batches 1,32,256 --threads "$threads" --seconds 1 --json)
            echo "{\"net\":\"$name\",\"run\":\"old\",\"round\":1,\"threads\":$threads,\"bench\":$line}" >> "$out/net.jsonl"
        fi
        # The paths and onnxruntime alternating, twice, so that the
        # machine's drift falls on all of them alike.
        for round in 1 2; do
            for run in "${paths[@]}"; do
                echo "== $name, $threads thread(s), $run, round $round"
                # shellcheck disable=SC2086
                line=$(JUNGLE_KERNELS=$run "$jungle" bench net $flags --no-burn --batches 1,32,256 \
                    --threads "$threads" --seconds 1 --json)
                echo "{\"net\":\"$name\",\"run\":\"$run\",\"round\":$round,\"threads\":$threads,\"bench\":$line}" >> "$out/net.jsonl"
            done
            echo "== $name, $threads thread(s), onnxruntime, round $round"
            line=$(python3 "$here/scripts/bench_onnxruntime.py" "$tmp/$name.onnx" --batches 1,32,256 \
                --threads "$threads" --seconds 1 --json)
            echo "{\"net\":\"$name\",\"run\":\"onnxruntime\",\"round\":$round,\"threads\":$threads,\"bench\":$line}" >> "$out/onnxruntime.jsonl"
        done
    done
done

if [ "$selfplay_seconds" != 0 ]; then
    runs=()
    [ -z "$old" ] || runs+=("old")
    runs+=("${paths[@]}")
    for run in "${runs[@]}"; do
        echo "== self-play, $run"
        if [ "$run" = old ]; then
            line=$("$old" bench selfplay --seconds "$selfplay_seconds" --json | "$compact")
        else
            line=$(JUNGLE_KERNELS=$run "$jungle" bench selfplay --seconds "$selfplay_seconds" --json | "$compact")
        fi
        echo "{\"run\":\"$run\",\"bench\":$line}" >> "$out/selfplay.jsonl"
    done
fi
python3 "$here/scripts/kernels_table.py" "$out"
