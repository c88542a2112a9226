#!/usr/bin/env python3
"""Checks an exported jungle-zero model against the Rust outputs.

Usage: python3 scripts/check_onnx.py EXPORT_DIR

Loads EXPORT_DIR/model.onnx with onnxruntime, checks its input and output
names and shapes against EXPORT_DIR/model.json, runs every position of
EXPORT_DIR/testcases.json (all in one batch, then one at a time: the batch
axis is dynamic) and fails if any output differs from the Rust output by
more than the tolerance written in testcases.json (1e-4). First, every
file model.json records (format 2 on: size and SHA-256) must match it, so a
folder left by an export killed part-way is refused. Needs numpy and
onnxruntime (pip install numpy onnxruntime).
"""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort


def fail(message):
    print(f"check_onnx: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check_files(root, model):
    """Each file model.json records has its recorded size and SHA-256."""
    for name, record in model.get("files", {}).items():
        data = (root / name).read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if len(data) != record["bytes"] or digest != record["sha256"]:
            fail(f"{root / name} is not the file model.json records ({len(data)} bytes, SHA-256 "
                 f"{digest[:16]}; expected {record['bytes']} bytes, {record['sha256'][:16]}): the folder "
                 "mixes two exports, perhaps one killed part-way; export again")
    if model.get("format_version", 1) >= 2 and not model.get("files"):
        fail("model.json is format 2 and records no files")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    root = Path(sys.argv[1])
    model = json.loads((root / "model.json").read_text())
    check_files(root, model)
    tests = json.loads((root / "testcases.json").read_text())
    session = ort.InferenceSession(str(root / "model.onnx"), providers=["CPUExecutionProvider"])

    inputs = session.get_inputs()
    outputs = session.get_outputs()
    if [i.name for i in inputs] != [model["input"]["name"]]:
        fail(f"inputs {[i.name for i in inputs]}, model.json says {model['input']['name']}")
    expected_outputs = [o["name"] for o in model["outputs"]]
    if [o.name for o in outputs] != expected_outputs:
        fail(f"outputs {[o.name for o in outputs]}, model.json says {expected_outputs}")
    if isinstance(inputs[0].shape[0], int):
        fail(f"the batch axis is fixed ({inputs[0].shape}), expected a dynamic one")
    if list(inputs[0].shape[1:]) != model["input"]["shape"][1:]:
        fail(f"input shape {inputs[0].shape}, model.json says {model['input']['shape']}")

    shape = model["input"]["shape"][1:]
    cases = tests["cases"]
    tolerance = float(tests["tolerance"])
    planes = np.array([c["planes"] for c in cases], dtype=np.float32).reshape([len(cases)] + shape)
    expected = {
        "policy": np.array([c["policy"] for c in cases], dtype=np.float32),
        "wdl": np.array([c["wdl"] for c in cases], dtype=np.float32),
        "moves_left": np.array([[c["moves_left"]] for c in cases], dtype=np.float32),
    }
    # The optional heads' outputs, where model.json lists them.
    for name in ("survival", "short_term_wdl"):
        if name in expected_outputs:
            if not all(name in c for c in cases):
                fail(f"model.json lists a `{name}` output, testcases.json has no {name} values")
            expected[name] = np.array([c[name] for c in cases], dtype=np.float32)

    def compare(got, rows, label):
        worst = 0.0
        for name, value in zip(expected_outputs, got):
            want = expected[name][rows]
            if value.shape != want.shape:
                fail(f"{label}: `{name}` has shape {value.shape}, expected {want.shape}")
            diff = float(np.max(np.abs(value - want)))
            worst = max(worst, diff)
            if diff > tolerance:
                fail(f"{label}: `{name}` differs from the Rust output by {diff:.2e} (> {tolerance:.0e})")
        return worst

    worst = compare(session.run(None, {inputs[0].name: planes}), slice(None), "batch")
    for i, case in enumerate(cases):
        got = session.run(None, {inputs[0].name: planes[i : i + 1]})
        worst = max(worst, compare(got, slice(i, i + 1), f"case {i} ({case['fen']})"))
        # The legal moves' slots are in range and distinct.
        slots = [m["slot"] for m in case["legal_moves"]]
        if len(set(slots)) != len(slots) or not all(0 <= s < model["moves"]["slots"] for s in slots):
            fail(f"case {i}: bad legal-move slots {slots}")
    print(
        f"check_onnx: OK: {len(cases)} positions, batch and one by one, "
        f"largest difference {worst:.1e} (tolerance {tolerance:.0e}), onnxruntime {ort.__version__}"
    )


if __name__ == "__main__":
    main()
