"""The encoder from Python equals the Rust one `jungle export` wrote into
the committed test cases, planes and move slots alike."""

import json

import numpy as np
import pytest

import jungle_zero as jz


@pytest.fixture(scope="module")
def model(shipped):
    return json.load(open(shipped / "model.json"))


@pytest.fixture(scope="module")
def cases(shipped):
    return json.load(open(shipped / "testcases.json"))["cases"]


def test_planes_equal_the_exported_test_cases(model, cases):
    version = model["encoding_version"]
    assert len(cases) >= 6
    for case in cases:
        planes = jz.encode(case["fen"], model["rules"], case["repetitions"], version)
        assert planes.shape == (jz.planes(version), 9, 7)
        assert planes.dtype == np.float32
        expected = np.array(case["planes"], dtype=np.float32).reshape(planes.shape)
        assert np.array_equal(planes, expected), case["fen"]


def test_move_slots_equal_the_exported_test_cases(model, cases):
    for case in cases:
        for legal in case["legal_moves"]:
            assert jz.move_slot(case["fen"], legal["move"]) == legal["slot"]
            assert jz.slot_move(case["fen"], legal["slot"], model["rules"]) == legal["move"]
        taken = {m["slot"] for m in case["legal_moves"]}
        free = next(s for s in range(jz.POLICY_SLOTS) if s not in taken)
        assert jz.slot_move(case["fen"], free, model["rules"]) is None


def test_every_encoding_version_and_a_game(model):
    game = jz.Game()
    game.play("a3a4")
    for version in jz.encoding_versions():
        planes = jz.encode_game(game, version)
        assert planes.shape == (jz.planes(version), 9, 7)
        same = jz.encode(game.fen(), "standard", 1, version)
        assert np.array_equal(planes, same)
    assert jz.planes(model["encoding_version"]) == model["input"]["shape"][1]


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="encoding_version 99"):
        jz.encode(jz.Game().fen(), encoding_version=99)
    with pytest.raises(ValueError, match="slot 252"):
        jz.slot_move(jz.Game().fen(), 252)
    with pytest.raises(ValueError, match="a1c3"):
        jz.move_slot(jz.Game().fen(), "a1c3")
