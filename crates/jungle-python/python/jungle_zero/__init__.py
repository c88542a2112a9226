"""Jungle (Dou Shou Qi) from jungle-zero's own Rust, for Python.

- :class:`Game`: the rules (legal moves, play, undo, result, FEN) of any
  rule set (``preset_names()``, or a rule set as in ``model.json``);
- :func:`encode`, :func:`encode_game`, :func:`move_slot`, :func:`slot_move`:
  the network's input planes of every encoding version (numpy arrays) and
  the move <-> policy slot mapping;
- :class:`Analyzer` and :func:`analyze`: what any player spec makes of a
  position (``net:`` over a native checkpoint, ``mcts:``, ``alphabeta:``),
  the same answer as ``jungle analyze --multipv K --json``;
- :class:`OnnxPlayer`: the ``net:`` search over an exported network
  (``model.onnx`` + ``model.json``) that onnxruntime runs.

See docs/guide/python.md.
"""

from __future__ import annotations

import json
from typing import Iterable, Optional, Union

import numpy as np

from . import _native
from ._native import (Game, preset_names, encoding_versions, planes, POLICY_SLOTS, DEFAULT_PLAYER,
                      PLAYER_SIMULATIONS, MAX_SIMULATIONS)
from .onnx import OnnxPlayer

__all__ = [
    "Game",
    "preset_names",
    "encoding_versions",
    "planes",
    "encode",
    "encode_game",
    "move_slot",
    "slot_move",
    "Analyzer",
    "analyze",
    "OnnxPlayer",
    "POLICY_SLOTS",
    "DEFAULT_PLAYER",
    "PLAYER_SIMULATIONS",
    "MAX_SIMULATIONS",
]

Rules = Union[str, dict]


def rules_text(rules: Rules) -> str:
    """A rule set as the native module reads it: a preset name, or a rule
    set (a dict, as ``model.json``'s ``rules``) as JSON text."""
    if isinstance(rules, dict):
        return json.dumps(rules)
    if isinstance(rules, str):
        return rules
    raise TypeError(f"rules: expected a preset name or a dict, got {type(rules).__name__}")


def floats(data: bytes, shape) -> np.ndarray:
    """Little-endian float32 bytes from the native module as an array."""
    return np.frombuffer(data, dtype="<f4").reshape(shape)


def encode(fen: str, rules: Rules = "standard", repetitions: int = 1, encoding_version: int = 2) -> np.ndarray:
    """The input planes of ``fen`` (occurring for the ``repetitions``-th
    time) under ``rules`` in encoding ``encoding_version``: a float32 array
    of shape ``(planes, 9, 7)``, ``[plane][rank][file]`` seen by the side to
    move, as ``model.json`` describes."""
    data = _native.encode_position(fen, rules_text(rules), repetitions, encoding_version)
    return floats(data, (planes(encoding_version), 9, 7))


def encode_game(game: Game, encoding_version: int = 2) -> np.ndarray:
    """:func:`encode` of ``game``'s current position, with its rule set
    and repetition count."""
    return encode(game.fen(), game.rules_json(), game.repetitions(), encoding_version)


def move_slot(fen: str, move: str) -> int:
    """The policy slot (0-251) of ``move`` played by the side to move in ``fen``."""
    return _native.move_slot(fen, move)


def slot_move(fen: str, slot: int, rules: Rules = "standard") -> Optional[str]:
    """The legal move of policy slot ``slot`` in ``fen``, or ``None``."""
    return _native.slot_move(fen, slot, rules_text(rules))


class Analyzer:
    """Answers analysis queries as ``jungle analyze --server`` does, with
    the players loaded once and kept.

    ``player`` is any player spec (``net:PATH[:SIMS][:material=W][:qsearch=W]``
    over a native checkpoint or a run's folder, ``mcts:N``, ``alphabeta:D``);
    the default is the shipped network, found through ``$JUNGLE_NETWORKS``,
    ``./networks`` or the source tree the package was built from.
    """

    def __init__(self, player: str = DEFAULT_PLAYER, variant: str = "standard", threads: int = 1):
        self._native = _native.Analyzer(player, variant, threads)

    def analyze(
        self,
        position: Optional[str] = None,
        moves: Iterable[str] = (),
        *,
        player: Optional[str] = None,
        variant: Optional[str] = None,
        simulations: Optional[int] = None,
        multipv: int = 1,
        analyze_moves: Iterable[str] = (),
    ) -> dict:
        """The analysis of the position after ``moves`` from ``position``
        (default: the start): ``best``, ``value``, ``wdl``, ``simulations``
        and ``lines`` (per move: ``move``, ``visits``, ``value``, ``wdl``,
        ``prior``, ``policy``, ``pv``). A refused query raises ``ValueError``."""
        query = {"id": 0, "position": position, "moves": list(moves), "multipv": multipv,
                 "analyze_moves": list(analyze_moves)}
        for key, value in (("player", player), ("variant", variant), ("simulations", simulations)):
            if value is not None:
                query[key] = value
        return json.loads(self._native.analyze_json(json.dumps(query)))


def analyze(position: Optional[str] = None, moves: Iterable[str] = (), *, player: str = DEFAULT_PLAYER,
            variant: str = "standard", **options) -> dict:
    """One analysis with a fresh :class:`Analyzer` (which loads the player
    again each call: keep an Analyzer for many)."""
    return Analyzer(player, variant).analyze(position, moves, **options)
