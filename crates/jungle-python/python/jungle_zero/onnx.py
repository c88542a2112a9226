"""The ``net:`` search over an exported network run by onnxruntime: the
Rust search asks for the leaves it wants judged, onnxruntime judges them,
until the search is done (the browser page's loop, in Python)."""

from __future__ import annotations

import json
import os
from typing import Optional

import numpy as np

from . import _native


class OnnxPlayer:
    """A player over an exported network folder (``jungle export``'s
    ``model.onnx`` and ``model.json``), searching ``simulations`` a move
    with the value terms ``material`` (needs the survival head) and
    ``qsearch``, as the ``net:`` spec
    ``net:PATH:SIMS:material=W:qsearch=W`` plays the native checkpoint."""

    def __init__(self, folder: str, simulations: int = _native.PLAYER_SIMULATIONS, material: float = 0.0, qsearch: float = 0.0,
                 seed: int = 0, session=None):
        with open(os.path.join(folder, "model.json"), encoding="utf-8") as f:
            self.model = json.load(f)
        if self.model.get("format") != "jungle-zero-model":
            raise ValueError(f"{folder}/model.json: format: expected jungle-zero-model, got {self.model.get('format')!r}")
        self.outputs = [o["name"] for o in self.model["outputs"]]
        self.survival_head = "survival" in self.outputs
        self.rules = json.dumps(self.model["rules"])
        self.encoding_version = int(self.model["encoding_version"])
        self.planes = _native.planes(self.encoding_version)
        self.simulations = simulations
        if session is None:
            import onnxruntime

            session = onnxruntime.InferenceSession(os.path.join(folder, "model.onnx"),
                                                   providers=["CPUExecutionProvider"])
        self.session = session
        self.input_name = self.model["input"]["name"]
        self.search = _native.BatchedSearch(self.rules, self.encoding_version, self.survival_head,
                                            simulations, material, qsearch, seed)

    def evaluate(self, planes: np.ndarray) -> dict:
        """The network's outputs for a batch of planes ``(n, planes, 9, 7)``, by name."""
        values = self.session.run(None, {self.input_name: planes.astype(np.float32, copy=False)})
        return dict(zip(self.outputs, values))

    def analyze(self, game: _native.Game) -> dict:
        """The search of ``game``'s position: ``best``, ``value`` and ``wdl``
        for the side to move, ``pv``, ``simulations``, and ``moves`` (per
        root move its ``visits``, ``prior`` and improved ``policy``). The game
        must be under the network's rule set."""
        self.search.begin(game)
        while True:
            data = self.search.next_batch()
            if not data:
                break
            n = self.search.batch_len()
            out = self.evaluate(np.frombuffer(data, dtype="<f4").reshape(n, self.planes, 9, 7))
            survival = out.get("survival", np.zeros((0,), np.float32))
            self.search.apply(as_bytes(out["policy"]), as_bytes(out["wdl"]), as_bytes(survival))
        return json.loads(self.search.result_json())

    def choose(self, game: _native.Game) -> str:
        """The move the search picks in ``game``'s position."""
        return self.analyze(game)["best"]

    def game(self, fen: Optional[str] = None) -> _native.Game:
        """A game under the network's rule set, from its start or ``fen``."""
        return _native.Game(self.rules, fen)


def as_bytes(values: np.ndarray) -> bytes:
    """An array as the native module reads floats: little-endian float32."""
    return np.ascontiguousarray(values, dtype="<f4").tobytes()
