#!/usr/bin/env python3
"""The probe's validation (docs/probe.md): rank correlation of each probe
metric with the checkpoints' 200-game scores against alphabeta:4.

Reads the scores (a CSV with `checkpoint` and `score_alphabeta4` columns)
and the output of `jungle probe --json` over the same checkpoints (bare
networks and, with --simulations, their searches), and prints a Markdown
table: each checkpoint's score and metrics, then Spearman's rho of each
metric with the score, over every checkpoint and over those trained on the
standard rules alone. Standard library only.

    jungle probe $(cut -d, -f1 scores.csv | tail -n +2) --simulations 64 --json > probe.json
    python3 scripts/probe_validation.py scores.csv probe.json > table.md
"""

import csv
import json
import sys

NETWORK = ["probe_score", "policy_top1", "policy_mass", "value_sign", "value_logloss", "forced_top1"]
PLAYER = ["moves_found", "forced_found"]


def ranks(xs):
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(xs, ys):
    """Spearman's rho: Pearson's correlation of the ranks."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else float("nan")


def mean(row, metric):
    return row["metrics"]["metrics"][metric]["all"]["mean"]


def main():
    scores_path, probe_path = sys.argv[1], sys.argv[2]
    with open(scores_path) as f:
        scores = list(csv.DictReader(f))
    with open(probe_path) as f:
        rows = json.load(f)
    by_name = {}
    for row in rows:
        name = row["name"]
        if row["kind"] == "player":
            # net:CHECKPOINT:SIMS[:KEY=VALUE...]
            name = name[len("net:"):].split(":")[0]
        by_name.setdefault(name, {}).update(
            {m: mean(row, m) for m in row["metrics"]["metrics"]}
        )
    table = []
    for s in scores:
        probe = by_name.get(s["checkpoint"])
        if probe is None:
            sys.exit(f"{probe_path}: no probe of {s['checkpoint']}")
        table.append((s, probe))
    metrics = [m for m in NETWORK + PLAYER if all(m in p for _, p in table)]
    print("| checkpoint | trained on | score vs alphabeta:4 | " + " | ".join(metrics) + " |")
    print("|---|---|---:|" + "---:|" * len(metrics))
    for s, p in table:
        cells = " | ".join(f"{p[m]:.3f}" for m in metrics)
        print(f"| {s['checkpoint']} | {s['rules_trained']} | {float(s['score_alphabeta4']):.4f} | {cells} |")
    print()
    print("| metric | Spearman, all checkpoints | Spearman, standard-trained only |")
    print("|---|---:|---:|")
    for m in metrics:
        sign = -1 if m == "value_logloss" else 1
        cols = []
        for subset in (table, [t for t in table if t[0]["rules_trained"] == "standard"]):
            xs = [sign * p[m] for _, p in subset]
            ys = [float(s["score_alphabeta4"]) for s, _ in subset]
            cols.append(f"{spearman(xs, ys):+.2f} ({len(subset)})")
        print(f"| {m}{' (negated)' if sign < 0 else ''} | {cols[0]} | {cols[1]} |")


if __name__ == "__main__":
    main()
