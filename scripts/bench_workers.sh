#!/usr/bin/env bash
# Games per hour with self-play workers through an S3 server, against the
# trainer's own self-play, on one machine: the default config for MINUTES
# (default 10) of run time each way.
#   1. in-process: jungle train (the default: self-play, then training)
#   2. workers:    jungle train --selfplay external + WORKERS (default 2)
#                  single-thread jungle workers, all through the S3 server
#                  of scripts/s3_server.sh
# Prints each run's games, positions and samples trained, the workers'
# share of time in the store and the trainer's store seconds.
#   scripts/bench_workers.sh [MINUTES] [WORKERS]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-10}"
workers="${2:-2}"
jungle="$PWD/target/release/jungle"
cargo build --release -p jungle-cli --quiet
out="$(mktemp -d /tmp/jungle-bench-workers.XXXXXX)"
scripts/s3_server.sh "$out/s3.env" > /dev/null
# shellcheck source=/dev/null # written just above by s3_server.sh
. "$out/s3.env"
trap 'kill "$JUNGLE_S3_PID" 2>/dev/null || true' EXIT
store="$JUNGLE_TEST_S3_URL/bench-workers-$$"

summary() { # ROOT RUN
    python3 - "$1/checkpoints/$2/state.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"  {s['generation']} generations, {s['games']} games trained on, "
      f"{s['positions_ever']} positions, {s['samples_seen']} samples trained, "
      f"{s['seconds'] / 60:.1f} min: {s['games'] / (s['seconds'] / 3600):.0f} games/hour")
PY
}

echo "in-process self-play, $minutes min:"
"$jungle" train --root "$out/local" --run bench --set "run.minutes=$minutes" > "$out/local.log" 2>&1
summary "$out/local" bench

echo "self-play by $workers single-thread workers through $store, $minutes min:"
"$jungle" train --root "$out/external" --run bench --set "run.minutes=$minutes" \
    --store "$store" --selfplay external > "$out/trainer.log" 2>&1 &
trainer=$!
pids=()
for w in $(seq 1 "$workers"); do
    "$jungle" worker --store "$store" --run bench --threads 1 --id "bench-$w" > "$out/worker-$w.log" 2>&1 &
    pids+=($!)
done
wait "$trainer"
for pid in "${pids[@]}"; do wait "$pid"; done
summary "$out/external" bench
grep -h "stopped" "$out"/worker-*.log | sed 's/^/  /'
python3 - "$out/trainer.log" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
store = sum(float(x) for x in re.findall(r"store ([0-9.]+) s\)", text))
wait = sum(float(x) for x in re.findall(r"self-play ([0-9.]+) s", text))
total = sum(float(x) for x in re.findall(r"\| ([0-9.]+) min \(", text)[-1:]) * 60
print(f"  trainer: {store:.1f} s in the store of {total:.0f} s ({100 * store / max(total, 1e-9):.1f}%), "
      f"{wait:.0f} s waiting for workers' games")
PY
echo "logs in $out"
