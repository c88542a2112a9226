#!/usr/bin/env python3
"""Checks a `jungle shards export` file as a Python user loads it.

Usage: python3 scripts/check_npz.py FILE.npz

Loads FILE.npz with numpy alone (no pickle), checks every array's dtype and
shape against the metadata, that each policy target is a distribution over
the legal moves of its row, that results are win/draw/loss one-hots and value targets distributions, that
the input planes are finite and the piece planes 0/1, and that mirror
images follow their originals. Needs numpy (pip install numpy). The layout
is in docs/guide/python.md.
"""

import json
import sys
import tomllib

import numpy as np


def fail(message):
    print(f"check_npz: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    data = np.load(sys.argv[1], allow_pickle=False)
    meta = json.loads(data["metadata"].tobytes().decode("utf-8"))
    n = meta["rows"]
    planes = len(meta["planes"])
    expected = {
        "planes": (np.float32, (n, planes, 9, 7)),
        "policy": (np.float32, (n, 252)),
        "legal": (np.bool_, (n, 252)),
        "wdl": (np.float32, (n, 3)),
        "plies_left": (np.uint32, (n,)),
        "search_value": (np.float32, (n,)),
        "game": (np.uint32, (n,)),
        "ply": (np.uint32, (n,)),
        "mirrored": (np.bool_, (n,)),
        "search_draw": (np.float32, (n,)),
        "survival": (np.bool_, (n, 32)),
        "fen": (np.uint8, (n, 96)),
        "value_target": (np.float32, (n, 3)),
        "short_term_target": (np.float32, (n, 3)),
        "full_search": (np.bool_, (n,)),
    }
    for name, (dtype, shape) in expected.items():
        if name not in data.files:
            fail(f"no array `{name}` (has {data.files})")
        array = data[name]
        if array.dtype != dtype or array.shape != shape:
            fail(f"`{name}` is {array.dtype} {array.shape}, expected {np.dtype(dtype)} {shape}")
    rules = tomllib.loads(meta["rules"])
    if meta["encoding"] not in (1, 2, 3) or "repetition" not in rules:
        fail(f"metadata: encoding {meta['encoding']}, rules {meta['rules']!r}")

    policy, legal, full = data["policy"], data["legal"], data["full_search"]
    sums = policy.sum(axis=1)
    if not np.allclose(sums[full], 1.0, atol=1e-4):
        fail(f"full searches' policy targets sum to {sums[full].min()}..{sums[full].max()}, not 1")
    if (sums[~full] != 0).any():
        fail("a cheap search's row with a policy target")
    if not meta["all_positions"] and not full.all():
        fail("a cheap search's row in an export made without --all-positions")
    if (policy[~legal] != 0).any():
        fail("a policy target puts mass on an illegal move")
    if (legal.sum(axis=1) == 0).any():
        fail("a row without legal moves")
    wdl = data["wdl"]
    if not ((wdl == 0) | (wdl == 1)).all() or not (wdl.sum(axis=1) == 1).all():
        fail("a result target that is not a win/draw/loss one-hot")
    for name in ("value_target", "short_term_target"):
        value = data[name]
        if (value < -1e-6).any() or not np.allclose(value.sum(axis=1), 1.0, atol=1e-4):
            fail(f"a {name} row that is not a win/draw/loss distribution")
    value = data["value_target"]
    if meta["value_td_lambda"] == 1 and meta["value_search_weight"] == 0 and not np.array_equal(value, wdl):
        fail("value targets with lambda 1 and no search weight that are not the results")
    x = data["planes"]
    if not np.isfinite(x).all():
        fail("input planes that are not finite")
    # Planes 0-15 are one animal of one side each: 0/1, at most one per square.
    pieces = x[:, :16]
    if not ((pieces == 0) | (pieces == 1)).all() or (pieces.sum(axis=1) > 1).any():
        fail("piece planes that are not 0/1 with one piece per square")
    if (data["plies_left"] == 0).any():
        fail("a position with 0 plies left (the final position is not a target)")
    mirrored = data["mirrored"]
    if meta["mirrored_copies"]:
        if not (mirrored[1::2].all() and not mirrored[0::2].any()):
            fail("mirror images do not alternate with their originals")
        if not (data["ply"][0::2] == data["ply"][1::2]).all():
            fail("a mirror image of another ply")
        # A left-right mirror image: the same pieces, files reversed.
        if not np.array_equal(pieces[0::2], pieces[1::2][..., ::-1]):
            fail("a mirror image whose pieces are not the original's reversed")
    elif mirrored.any():
        fail("mirror images in an export made without --mirror")
    draws = data["search_draw"]
    if ((draws < 0) | (draws > 1)).any():
        fail("a search draw probability outside [0, 1]")
    for row in data["fen"][:: max(1, n // 50)]:
        fen = bytes(row).rstrip(b"\0").decode("ascii")
        if fen.count("/") != 8 or fen.split(" ")[1] not in ("w", "b"):
            fail(f"a fen that is not a position: {fen!r}")
    if (np.diff(data["game"].astype(np.int64)) < 0).any():
        fail("game numbers that go back")
    games = len(np.unique(data["game"]))
    print(
        f"check_npz: OK: {n} rows of {games} games ({full.sum()} full searches), encoding "
        f"{meta['encoding']} ({planes} planes), mirror images {meta['mirrored_copies']}, "
        f"value targets lambda {meta['value_td_lambda']}"
    )


if __name__ == "__main__":
    main()
