#!/usr/bin/env python3
"""Time onnxruntime on a network exported by `jungle net onnx`.

It exports nothing itself: it runs the ONNX file that `jungle` writes, at the
same batch sizes and thread count as `jungle bench net`, so the two can be
compared on one machine.

Needs:  pip install onnxruntime numpy
Usage:  jungle net init --out /tmp/bench/net
        jungle net onnx --checkpoint /tmp/bench/net --out /tmp/bench/net.onnx
        python3 scripts/bench_onnxruntime.py /tmp/bench/net.onnx --threads 1
        RAYON_NUM_THREADS=1 jungle bench net
"""

import argparse
import json
import time

import numpy as np
import onnxruntime as ort

def rate(session, batch, seconds):
    """Forward passes per second on a fixed random batch (one warm-up pass).
    The input's planes, ranks and files come from the model."""
    model_input = session.get_inputs()[0]
    name = model_input.name
    planes, ranks, files = model_input.shape[1:]
    x = np.random.default_rng(0).random((batch, planes, ranks, files), dtype=np.float32)
    session.run(None, {name: x})
    calls, start = 0, time.perf_counter()
    while calls == 0 or time.perf_counter() - start < seconds:
        session.run(None, {name: x})
        calls += 1
    return calls / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="the .onnx file")
    parser.add_argument("--batches", default="1,8,32,128,256", help="comma-separated batch sizes")
    parser.add_argument("--threads", type=int, default=1, help="intra-op threads")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per batch size")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(args.model, options, providers=["CPUExecutionProvider"])
    rows = []
    for batch in (int(b) for b in args.batches.split(",")):
        rows.append({"batch": batch, "pos_per_s": rate(session, batch, args.seconds) * batch})
    if args.json:
        print(json.dumps({"runtime": "onnxruntime " + ort.__version__, "threads": args.threads, "infer": rows}))
        return
    print(f"onnxruntime {ort.__version__}, {args.threads} thread(s), {args.model}")
    print(f"{'batch':>8} {'positions/s':>14}")
    for row in rows:
        print(f"{row['batch']:>8} {row['pos_per_s']:>14.0f}")


if __name__ == "__main__":
    main()
