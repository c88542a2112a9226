"""The `net:` search from Python answers as `jungle analyze` does: over the
native checkpoint (the analysis server's answer) and over the exported
ONNX network (the page's search, onnxruntime judging)."""

import json
import subprocess

import pytest

import jungle_zero as jz

PLAYER = "net:default:64:material=0.6:qsearch=0.5"
MOVES = ["a3a4", "g7g6", "g3g4"]


def cli_analyze(jungle, repo, multipv):
    out = subprocess.run(
        [jungle, "analyze", "--player", PLAYER, "--moves", " ".join(MOVES), "--multipv", str(multipv), "--json"],
        cwd=repo, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def without_time(answer):
    return {k: v for k, v in answer.items() if k not in ("ms", "id")}


def test_native_analysis_equals_jungle_analyze(jungle, repo, monkeypatch):
    monkeypatch.chdir(repo)
    expected = cli_analyze(jungle, repo, 3)
    analyzer = jz.Analyzer(PLAYER)
    got = analyzer.analyze(moves=MOVES, multipv=3)
    assert without_time(got) == without_time(expected)
    assert len(got["lines"]) == 3
    assert got["simulations"] == 64
    # A second query reuses the loaded player and answers the same.
    assert without_time(analyzer.analyze(moves=MOVES, multipv=3)) == without_time(expected)


def test_onnx_player_plays_as_the_native_checkpoint(shipped, repo, monkeypatch):
    monkeypatch.chdir(repo)
    native = jz.Analyzer(PLAYER).analyze(moves=MOVES, multipv=30)
    player = jz.OnnxPlayer(str(shipped), simulations=64, material=0.6, qsearch=0.5)
    game = player.game()
    for mv in MOVES:
        game.play(mv)
    answer = player.analyze(game)
    assert answer["simulations"] == 64
    assert answer["best"] == native["best"]
    assert abs(answer["value"] - native["value"]) < 1e-3
    visits = {line["move"]: line["visits"] for line in native["lines"]}
    got = {m["move"]: m["visits"] for m in answer["moves"] if m["visits"] > 0}
    assert got == {m: v for m, v in visits.items() if v > 0}
    # The same seed chooses the same move (a new player: a player keeps its
    # tree, so searching the position again adds to it).
    again = jz.OnnxPlayer(str(shipped), simulations=64, material=0.6, qsearch=0.5)
    assert again.choose(game) == answer["best"]


def test_a_game_played_to_its_end_by_two_players(shipped):
    player = jz.OnnxPlayer(str(shipped), simulations=8)
    game = player.game()
    while not game.is_over() and len(game.moves()) < 400:
        game.play(player.choose(game))
    if not game.is_over():
        pytest.fail(f"no result after 400 plies: {game.fen()}")
    assert game.result() in ("south", "north", "draw")


def test_refusals_name_the_problem(shipped, tmp_path):
    with pytest.raises(ValueError, match="nosuch"):
        jz.Analyzer("net:nosuch").analyze()
    with pytest.raises(ValueError, match="a3a5"):
        jz.Analyzer("alphabeta:1").analyze(moves=["a3a5"])
    search = jz._native.BatchedSearch("standard", 2, False, 16)
    with pytest.raises(ValueError, match="begin"):
        search.next_batch()
    search.begin(jz.Game())
    search.next_batch()
    with pytest.raises(ValueError, match="policy"):
        search.apply(b"\0" * 4, b"", b"")
    (tmp_path / "model.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="format"):
        jz.OnnxPlayer(str(tmp_path))


def test_the_simulation_budget_is_the_native_players(shipped):
    # One home for the default and the ceiling: the Rust search's.
    assert jz.PLAYER_SIMULATIONS == 200
    assert jz.MAX_SIMULATIONS == 1_000_000
    assert jz.OnnxPlayer(str(shipped)).simulations == jz.PLAYER_SIMULATIONS
    with pytest.raises(ValueError, match="simulations"):
        jz._native.BatchedSearch("standard", 2, False, jz.MAX_SIMULATIONS + 1)
    with pytest.raises(ValueError, match="simulations"):
        jz._native.BatchedSearch("standard", 2, False, 0)
