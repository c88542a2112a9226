#!/usr/bin/env bash
# Kill -9 soak of `jungle train`: a tiny run is killed with SIGKILL at KILLS
# random moments (default 20), restarted each time, then run to its end and
# checked:
#   - every shard reads and no game is in the shards twice
#     (`jungle shards stats --json`), nothing went to quarantine/;
#   - state.json's game count equals the games of its generations, one
#     published folder per generation and no partial one left;
#   - every line of matches.jsonl parses and no pairing has more games than
#     the config asks for (an evaluation is never repeated);
#   - every checkpoint state.json names loads (exported to ONNX);
#   - the run finished all its generations.
# Each kill is reported with the phase it hit, read from the files left.
#
# Usage: scripts/soak.sh [KILLS] [SEED]   (needs python3; builds the binary;
# SOAK_GENS=N sets the generations of a run, default 24; JUNGLE=PATH uses
# that binary instead of building one)
# Exit status 0 when every check passes.
set -euo pipefail
cd "$(dirname "$0")/.."

kills="${1:-20}"
seed="${2:-$RANDOM}"
# JUNGLE names a binary built already (CI's, from its test step: a
# `cargo build -p jungle-cli` there would rebuild the dependencies with
# other features); otherwise the binary is built here.
jungle="${JUNGLE:-}"
if [ -z "$jungle" ]; then
  cargo build --release --quiet -p jungle-cli
  jungle="$PWD/target/release/jungle"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The tiny config, longer: GENS generations of eight games, so a run lasts
# several seconds and a kill can land in any phase.
gens="${SOAK_GENS:-24}"
# `exec`, so that under `&` the background process is `jungle` itself and
# the SIGKILL reaches it.
train() {
  run_tiny "$run"
}
run_tiny() {
  exec "$jungle" train --config configs/tiny.toml --set "run.generations=$gens" \
    --set run.games_per_generation=8 --set run.seed=3 \
    --run "$1" --root "$work"
}

# The phase a kill hit, from what it left on disk.
phase() {
  python3 - "$work" "$run" <<'PY'
import json, os, sys
root, run = sys.argv[1], sys.argv[2]
shards = os.path.join(root, "data", run, "shards")
ck = os.path.join(root, "checkpoints", run)
state_path = os.path.join(ck, "state.json")
if not os.path.exists(state_path):
    print("start-up (no state.json yet)")
    sys.exit()
state = json.load(open(state_path))
gen = state["generation"]
folders = os.listdir(shards) if os.path.isdir(shards) else []
if any(f.endswith(".partial") for f in folders):
    print(f"self-play of generation {gen + 1}")
elif f"gen-{gen + 1:06d}" in folders:
    print(f"training of generation {gen + 1}")
else:
    print(f"evaluation or checkpoint writing after generation {gen}")
PY
}

echo "soak: $kills kills, delays drawn with seed $seed, run in $work"
# A first full run of the same config, timed, bounds the kill delays.
start=$(date +%s%N)
(run_tiny timing > /dev/null 2>&1)
full_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "an unkilled run takes ${full_ms} ms"

# The checks of the files a finished run left (see the top).
check_files() {
python3 - "$work" "$gens" "$run" <<'PY' || exit 1
import collections, json, os, sys
root = sys.argv[1]
gens = int(sys.argv[2])
run = sys.argv[3]
stats = json.load(open(os.path.join(root, "stats.json")))
state = json.load(open(os.path.join(root, "checkpoints", run, "state.json")))
shards = os.path.join(root, "data", run, "shards")
failures = []
def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
check(stats["bad_files"] == [] and stats["duplicate_games"] == 0,
      f"{stats['good_files']} shards read, {len(stats['bad_files'])} bad, "
      f"{stats['duplicate_games']} repeated games")
quarantine = os.path.join(root, "data", run, "quarantine")
check(not os.path.exists(quarantine) or os.listdir(quarantine) == [],
      "nothing quarantined")
check(state["generation"] == gens, f"the run finished: generation {state['generation']} of {gens}")
folders = sorted(os.listdir(shards))
check(folders == [f"gen-{g:06d}" for g in range(1, gens + 1)], f"generation folders {folders}")
check(state["games"] == stats["games"] == gens * 8,
      f"games: state.json {state['games']}, shards {stats['games']}, config {gens * 8}")
check(sum(g["games"] for g in state["selfplay"]) == state["games"],
      "per-generation game counts add up to the total")
pairs = collections.Counter()
with open(os.path.join(root, "checkpoints", run, "matches.jsonl")) as f:
    for n, line in enumerate(f, 1):
        m = json.loads(line)
        pairs[(m["a"], m["b"])] += 1
cfg = state["config"]["eval"]
over = {p: n for p, n in pairs.items()
        if n > (cfg["games_vs_previous"] if p[1].startswith("step:") else cfg["games_vs_anchors"])}
check(not over, f"{sum(pairs.values())} evaluation games in {len(pairs)} pairings, none repeated {over or ''}")
steps = [c["step"] for c in state["checkpoints"]]
check(len(steps) == len(set(steps)) == gens + 1, f"checkpoints {steps} (all load)")
sys.exit(1 if failures else 0)
PY
}

# Lets run $run finish, then checks it (a function so that every run of
# the soak is checked).
finish_and_check() {
  echo "finishing run $run"
  if ! (train > "$work/log-$run-final.txt" 2>&1); then
    cat "$work/log-$run-final.txt"
    exit 1
  fi
  if grep -q "warning" "$work"/log-*.txt; then
    echo "FAIL: a restart warned:"; grep -h "warning" "$work"/log-*.txt; exit 1
  fi
  echo "checking run $run"
  "$jungle" shards stats --json "$work/data/$run/shards" > "$work/stats.json" \
    || { echo "FAIL: shards stats"; cat "$work/stats.json"; exit 1; }
  for ck in $(python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["checkpoints"]:
    print("%08d" % c["step"])' "$work/checkpoints/$run/state.json"); do
    "$jungle" net onnx --checkpoint "$work/checkpoints/$run/$ck" --out "$work/check.onnx" > /dev/null \
      || { echo "FAIL: checkpoint $ck does not load"; exit 1; }
  done
  check_files
}

RANDOM=$seed
spread=$(( kills > 20 ? kills : 20 ))
run_number=1
run="soak-$run_number"
k=1
while [ "$k" -le "$kills" ]; do
  # Spread so that the kills cover the whole run (a restart repeats the
  # start-up and the interrupted phase's unfinished part); a short soak
  # (CI's 5 kills) stays in the first part of the run.
  delay_ms=$(( 50 + RANDOM % (2 * full_ms / spread + 1) ))
  train > "$work/log-$run-$k.txt" 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  if kill -9 "$pid" 2> /dev/null; then
    wait "$pid" 2> /dev/null || true
    printf 'kill %2d after %5d ms (%s): %s\n' "$k" "$delay_ms" "$run" "$(phase)"
    k=$((k + 1))
  else
    wait "$pid" || { echo "$run failed:"; cat "$work/log-$run-$k.txt"; exit 1; }
    # The run went faster than the timed one: check it, go on with another.
    echo "$run finished before kill $k: checking it and starting another run"
    finish_and_check
    run_number=$((run_number + 1))
    run="soak-$run_number"
  fi
done
finish_and_check
echo "soak passed: $kills kills in $run_number run(s)"
