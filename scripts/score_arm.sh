#!/usr/bin/env bash
# Scores a training run's final checkpoint with the experiment protocol of
# experiments/README.md: 200 games against `alphabeta:4` (two opening
# sets of 100 paired games, --seed 0 and 1) and 100 games head to head
# against each other checkpoint named, all at 200 simulations with the
# evaluation's play-time terms. Each match's `jungle arena --json` answer is
# kept in OUT_DIR (a match whose answer is there already is not played
# again, so a killed scoring resumes); the end prints one markdown table.
#
# Usage: scripts/score_arm.sh CHECKPOINT OUT_DIR [OPPONENT ...]
#   CHECKPOINT  a checkpoint (its path without `.bpk`) or a run's checkpoint
#               folder (its last checkpoint is taken)
#   OPPONENT    checkpoints to play head to head (paths without `.bpk`)
# JUNGLE=PATH uses that binary (default: target/release/jungle, built here
# if missing); THREADS=N (default 2); GAMES=N plays N games a match, not
# 100 (a smoke test; the protocol is 100). Needs python3. Takes 30-70 s per
# 100 games against alphabeta:4 and 2-4 minutes per head-to-head match on
# 2 cores.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
ckpt="$1"
out="$2"
shift 2
threads="${THREADS:-2}"
games="${GAMES:-100}"
terms="material=0.6:qsearch=0.5"

repo="$(cd "$(dirname "$0")/.." && pwd)"
jungle="${JUNGLE:-$repo/target/release/jungle}"
if [ ! -x "$jungle" ]; then
  (cd "$repo" && cargo build --release --quiet -p jungle-cli)
fi

# A folder names its run: take its highest-numbered checkpoint (not the
# optimiser's state beside it).
if [ -d "$ckpt" ]; then
  # Checkpoints are named by their zero-padded step (the optimiser's
  # NNNNNNNN.optim.bpk does not match), so the glob's last is the newest.
  last=""
  for f in "$ckpt"/[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9].bpk; do
    [ -f "$f" ] && last="$f"
  done
  if [ -z "$last" ]; then
    echo "score_arm: $ckpt holds no checkpoint (NNNNNNNN.bpk)" >&2
    exit 1
  fi
  ckpt="${last%.bpk}"
fi
for c in "$ckpt" "$@"; do
  if [ ! -f "$c.bpk" ]; then
    echo "score_arm: no checkpoint at $c.bpk (name checkpoints without .bpk)" >&2
    exit 1
  fi
done

mkdir -p "$out"
# match NAME ARENA_ARGS...: plays one match unless its answer is kept.
match() {
  local name="$1"
  shift
  if [ -s "$out/$name.json" ]; then
    echo "$name: kept from an earlier scoring"
    return
  fi
  local start=$SECONDS
  "$jungle" arena "$@" --threads "$threads" --json > "$out/$name.json.part"
  mv "$out/$name.json.part" "$out/$name.json"
  echo "$name: $((SECONDS - start)) s"
}

echo "scoring $ckpt into $out"
for seed in 0 1; do
  match "ab4-s$seed" --a "net:$ckpt:200:$terms" --b alphabeta:4 --games "$games" --seed "$seed"
done
# Each head-to-head match is named after its opponent's folder and step;
# the table gets the same names, as NAME=OPPONENT.
h2h=()
for opp in "$@"; do
  name="h2h-$(basename "$(dirname "$opp")")-$(basename "$opp")"
  match "$name" --a "net:$ckpt:200:$terms" --b "net:$opp:200:$terms" --games "$games" --seed 0
  h2h+=("$name=$opp")
done

python3 - "$out" "${h2h[@]}" <<'EOF'
import json, math, os, sys

out, h2h = sys.argv[1], sys.argv[2:]

def load(name):
    with open(os.path.join(out, name + ".json")) as f:
        return json.load(f)

def row(label, m):
    lo, hi = m["score_ci95"]
    return (f"| {label} | {m['a_wins']}-{m['draws']}-{m['b_wins']} | "
            f"{m['score']:.4f} | {lo:.3f}-{hi:.3f} | {m['reasons']['repetition']} |")

print("\n| match | W-D-L | score | 95% | repetition draws |")
print("|---|---:|---:|---:|---:|")
w = d = l = 0
for seed in (0, 1):
    m = load(f"ab4-s{seed}")
    print(row(f"vs alphabeta:4, --seed {seed}", m))
    w, d, l = w + m["a_wins"], d + m["draws"], l + m["b_wins"]
n = w + d + l
score = (w + d / 2) / n
# Two standard errors of a score over n games (draws counted as halves).
var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / n
half = 2 * math.sqrt(var / n)
print(f"| **vs alphabeta:4, {n} games** | {w}-{d}-{l} | **{score:.4f}** | "
      f"{max(score - half, 0):.3f}-{min(score + half, 1):.3f} | |")
for pair in h2h:
    name, opp = pair.split("=", 1)
    print(row(f"vs {opp}", load(name)))
EOF
