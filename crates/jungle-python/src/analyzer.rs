//! `jungle_zero._native.Analyzer`: the analysis server's answer to one
//! query (`jungle analyze --multipv`, `jungle analyze --server`), for any
//! player spec: `net:` over a native checkpoint, `mcts:`, `alphabeta:`.

use crate::error::value_error;
use jungle_net::Compute;
use jungle_play::analysis::{Analyzer, Defaults, Reply};
use pyo3::prelude::*;
use std::sync::Mutex;

/// Players loaded once and kept (the analysis server's cache), answering
/// one query at a time.
#[pyclass(name = "Analyzer", module = "jungle_zero._native")]
pub struct PyAnalyzer {
    analyzer: Mutex<Analyzer>,
}

#[pymethods]
impl PyAnalyzer {
    /// An analyzer whose queries default to `player` and `variant`, each
    /// search's batches judged on `threads` threads (on the CPU).
    #[new]
    #[pyo3(signature = (player, variant = "standard", threads = 1))]
    fn new(player: &str, variant: &str, threads: usize) -> PyResult<PyAnalyzer> {
        if !(1..=256).contains(&threads) {
            return Err(value_error(format!(
                "threads: {threads}, expected 1 to 256"
            )));
        }
        let defaults = Defaults::new(
            Some(player.to_string()),
            variant.to_string(),
            Compute::cpu(),
        );
        Ok(PyAnalyzer {
            analyzer: Mutex::new(Analyzer::new(defaults, threads)),
        })
    }

    /// The answer to `query` (a JSON object as the analysis server reads:
    /// `position`, `moves`, `variant`, `player`, `simulations`, `multipv`,
    /// `analyze_moves`) as JSON text; a refused query raises `ValueError`
    /// with the server's message. Python's other threads run meanwhile.
    fn analyze_json(&self, py: Python<'_>, query: &str) -> PyResult<String> {
        let reply = py.detach(|| {
            let mut analyzer = self
                .analyzer
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            analyzer.analyze_one(query)
        });
        match reply {
            Reply::Answer(answer) => Ok(serde_json::to_string(&answer).expect("answers serialize")),
            Reply::Error { error, .. } => Err(value_error(error)),
        }
    }
}
