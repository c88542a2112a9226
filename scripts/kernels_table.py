#!/usr/bin/env python3
"""The tables of scripts/bench_kernels.sh, from its records.

Usage: python3 scripts/kernels_table.py OUT_DIR
Reads OUT_DIR/net.jsonl, onnxruntime.jsonl and selfplay.jsonl and prints,
as markdown: inference positions/s (best of the rounds) for each network,
thread count and batch on each binary or kernel path and onnxruntime, with
each path's ratio to onnxruntime; the training pass; self-play games/hour.
"""

import json
import sys
from collections import defaultdict
from pathlib import Path


def lines(path):
    """The JSON objects of a .jsonl file (none if it is missing)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main():
    out = Path(sys.argv[1])
    net = lines(out / "net.jsonl")
    ort = lines(out / "onnxruntime.jsonl")
    selfplay = lines(out / "selfplay.jsonl")
    if not net:
        sys.exit(f"{out / 'net.jsonl'}: no records")
    order = []
    for record in net + ort:
        if record["run"] not in order:
            order.append(record["run"])
    # best[(net, threads, batch)][run] = positions/s, the best round
    best = defaultdict(dict)
    for record in net + ort:
        for row in record["bench"]["infer"]:
            key = (record["net"], record["threads"], row["batch"])
            best[key][record["run"]] = max(best[key].get(record["run"], 0.0), row["pos_per_s"])
    kernels = [run for run in order if run not in ("old", "onnxruntime")]
    print("Inference, positions/s (best of the rounds):\n")
    header = ["network", "threads", "batch"] + order + [f"{k} / onnxruntime" for k in kernels]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * 3 + "---:|" * (len(header) - 3))
    for (name, threads, batch), runs in sorted(best.items()):
        cells = [name, str(threads), str(batch)]
        cells += [f"{runs[r]:,.0f}" if r in runs else "" for r in order]
        base = runs.get("onnxruntime")
        cells += [f"{runs[k] / base:.2f}x" if base and k in runs else "" for k in kernels]
        print("| " + " | ".join(cells) + " |")

    train = defaultdict(dict)
    for record in net:
        key = record["net"]
        rate = record["bench"]["train_samples_per_s"]
        train[key][record["run"]] = max(train[key].get(record["run"], 0.0), rate)
    runs = [r for r in order if r != "onnxruntime"]
    print("\nTraining pass, samples/s at batch 256 (best of the runs):\n")
    print("| network | " + " | ".join(runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for name, by_run in sorted(train.items()):
        print(f"| {name} | " + " | ".join(f"{by_run.get(r, 0):,.0f}" for r in runs) + " |")

    if selfplay:
        print("\nSelf-play of the default config with networks/bench-4x32:\n")
        print("| run | games/hour | evaluations/s | mean batch |")
        print("|---|---:|---:|---:|")
        for record in selfplay:
            b = record["bench"]
            print(
                f"| {record['run']} | {b['games_per_hour']:,.0f} | {b['evals_per_s']:,.0f} "
                f"| {b['mean_batch']:.1f} |"
            )


if __name__ == "__main__":
    main()
