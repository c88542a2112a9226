"""The rules from Python: games played to their end, errors that name the
problem, undo and copies."""

import random

import pytest

import jungle_zero as jz

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"


def play_random(game: jz.Game, seed: int, limit: int = 5000) -> int:
    rng = random.Random(seed)
    plies = 0
    while not game.is_over():
        moves = game.legal_moves()
        assert moves, "a game that is not over has a legal move"
        game.play(rng.choice(moves))
        plies += 1
        assert plies < limit, "a game must end (the quiet-move limit)"
    return plies


@pytest.mark.parametrize("variant", jz.preset_names())
def test_random_games_end_with_a_result_and_a_reason(variant):
    for seed in range(3):
        game = jz.Game(variant)
        plies = play_random(game, seed)
        assert game.result() in ("south", "north", "draw")
        assert game.reason() in ("den", "annihilation", "no_move", "repetition", "quiet_limit")
        assert game.legal_moves() == []
        assert len(game.moves()) == plies


def test_start_position_and_moves():
    game = jz.Game()
    assert game.fen() == START
    assert game.side_to_move() == "south"
    assert len(game.legal_moves()) == 24
    game.play("a3a4")
    assert game.side_to_move() == "north"
    assert game.moves() == ["a3a4"]
    assert game.undo() == "a3a4"
    assert game.fen() == START
    assert game.undo() is None


def test_board_and_repetitions():
    game = jz.Game()
    board = game.board()
    assert len(board) == 63
    assert board[0] == "south tiger" or board[0] == "south lion"
    assert sum(1 for s in board if s) == 16
    for mv in ["a1a2", "g9g8", "a2a1", "g8g9"]:
        game.play(mv)
    assert game.repetitions() == 2


def test_copy_keeps_history_and_is_independent():
    game = jz.Game()
    for mv in ["a3a4", "g7g6"]:
        game.play(mv)
    other = game.copy()
    assert other.moves() == game.moves()
    assert other.fen() == game.fen()
    other.play(other.legal_moves()[0])
    assert len(game.moves()) == 2


def test_bad_input_is_a_value_error_that_names_it():
    with pytest.raises(ValueError, match="rules"):
        jz.Game("no-such-rules")
    with pytest.raises(ValueError, match="position"):
        jz.Game("standard", "not a fen")
    game = jz.Game()
    with pytest.raises(ValueError, match="a3a5"):
        game.play("a3a5")
    assert game.fen() == START


def test_a_rule_set_as_in_model_json(shipped):
    import json

    rules = json.load(open(shipped / "model.json"))["rules"]
    game = jz.Game(json.dumps(rules))
    assert game.fen() == START
    assert json.loads(game.rules_json()) == rules
