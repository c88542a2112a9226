//! `jungle_zero._native.BatchedSearch`: the `net:` player's search with
//! the network outside (the browser page's agent): Python asks for the
//! planes of the leaves the search wants judged, runs its network on them
//! and hands the outputs back until the search is done
//! (`jungle_zero.OnnxPlayer` does this with onnxruntime).

use crate::error::value_error;
use crate::game::PyGame;
use crate::little_endian::{from_bytes, to_bytes};
use jungle_wasm::WebAgent;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The search of one game's moves, its network outside.
#[pyclass(name = "BatchedSearch", module = "jungle_zero._native")]
pub struct PyBatchedSearch {
    agent: WebAgent,
}

#[pymethods]
impl PyBatchedSearch {
    /// A search for games under `rules` (a preset name or JSON rule set)
    /// with a network of `encoding_version` (with or without the survival
    /// head), `simulations` a move, the value terms `material` and
    /// `qsearch` (as `net:` specs), its choices fixed by `seed`.
    #[new]
    #[pyo3(signature = (rules, encoding_version, survival_head, simulations = jungle_mcts::PLAYER_SIMULATIONS, material = 0.0, qsearch = 0.0, seed = 0))]
    fn new(
        rules: &str,
        encoding_version: u32,
        survival_head: bool,
        simulations: u32,
        material: f32,
        qsearch: f32,
        seed: u32,
    ) -> PyResult<PyBatchedSearch> {
        let agent = WebAgent::new(
            rules,
            encoding_version,
            survival_head,
            simulations,
            material,
            qsearch,
            seed,
        )
        .map_err(value_error)?;
        Ok(PyBatchedSearch { agent })
    }

    /// Starts the search of `game`'s position (the tree of the moves
    /// played since the last search is kept, as `net:` players keep it).
    fn begin(&mut self, game: &PyGame) -> PyResult<()> {
        self.agent.begin(&game.game).map_err(value_error)
    }

    /// The planes of the next batch as float32 bytes (`n x planes x 9 x 7`,
    /// `n` = `batch_len()`); empty when the search is done.
    fn next_batch<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let planes = self.agent.next_batch().map_err(value_error)?;
        Ok(PyBytes::new(py, &to_bytes(&planes)))
    }

    /// Positions in the batch `next_batch` gave.
    fn batch_len(&self) -> usize {
        self.agent.batch_len()
    }

    /// The network's outputs for that batch as float32 bytes: policy
    /// logits (`n x 252`), win/draw/loss logits (`n x 3`), survival logits
    /// (`n x 32`; may be empty when the material term is off).
    fn apply(&mut self, policy: &[u8], wdl: &[u8], survival: &[u8]) -> PyResult<()> {
        let policy = from_bytes("policy", policy)?;
        let wdl = from_bytes("wdl", wdl)?;
        let survival = from_bytes("survival", survival)?;
        self.agent
            .apply(&policy, &wdl, &survival)
            .map_err(value_error)
    }

    /// Whether the search is done.
    fn is_finished(&self) -> bool {
        self.agent.is_finished()
    }

    /// The finished search's answer as JSON text: `best`, `value` and
    /// `wdl` for the side to move, `pv`, `simulations`, and per root move
    /// its `visits`, `prior` and improved `policy`.
    fn result_json(&mut self) -> PyResult<String> {
        self.agent.result().map_err(value_error)
    }
}
