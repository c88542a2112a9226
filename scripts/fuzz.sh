#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ (bodies in crates/jungle-fuzz), each
# for SECONDS (default 600), JOBS at a time (default 2), seeded with the
# inputs kept under tests/data/fuzz/<target>/. New inputs that add coverage
# go to fuzz/corpus/<target>/ (not committed); a crash lands in
# fuzz/artifacts/<target>/: fix it, then copy the file into
# tests/data/fuzz/<target>/ so `cargo test -p jungle-fuzz` replays it on
# stable Rust for good. Prints one line per target: executions, corpus
# size, crashes.
#
# Usage: scripts/fuzz.sh [SECONDS] [JOBS] [TARGET...]
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-600}"
jobs="${2:-2}"
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fen moves player_spec config variant shard checkpoint_json engine suite)
fi

command -v cargo-fuzz > /dev/null || cargo install cargo-fuzz --locked
(cd fuzz && cargo +nightly fuzz build -s none)

logs="fuzz/logs"
mkdir -p "$logs"
run_one() {
  local target="$1"
  mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
  (cd fuzz && cargo +nightly fuzz run -s none "$target" "corpus/$target" \
    "../tests/data/fuzz/$target" -- -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1) \
    > "$logs/$target.txt" 2>&1 || true
}

running=0
for target in "${targets[@]}"; do
  run_one "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

printf '%-16s %12s %10s %8s %s\n' target executions "exec/s" corpus crashes
status=0
for target in "${targets[@]}"; do
  log="$logs/$target.txt"
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  corpus=$(find "fuzz/corpus/$target" -mindepth 1 -maxdepth 1 | wc -l)
  crashes=$(find "fuzz/artifacts/$target" -mindepth 1 -maxdepth 1 | wc -l)
  printf '%-16s %12s %10s %8s %s\n' "$target" "$runs" "$speed" "$corpus" "$crashes"
  if [ "$crashes" -gt 0 ] || ! grep -q 'Done [0-9]* runs' "$log"; then
    status=1
    echo "  see $log and fuzz/artifacts/$target/"
  fi
done
exit $status
