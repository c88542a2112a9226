//! # jungle-python
//!
//! The native half of the Python package `jungle_zero` (PyO3, built into a
//! wheel with maturin; `crates/jungle-python/python/jungle_zero` is the
//! Python half, which turns the bytes below into numpy arrays and drives an
//! exported ONNX network). Every function is this workspace's own code,
//! the same the `jungle` binary and the browser page run:
//!
//! - [`PyGame`]: a game under a rule set (jungle-wasm's game);
//! - [`encode_position`], [`move_slot`], [`slot_move`]: the input planes of
//!   every encoding version, the move <-> policy slot mapping;
//! - [`PyBatchedSearch`]: the `net:` player's search with the network
//!   outside (the page's agent), for a network Python runs itself;
//! - [`PyAnalyzer`]: the analysis server's answer for any player spec,
//!   a native checkpoint's `net:` search among them.
//!
//! Floats cross as little-endian `f32` bytes, which numpy reads and writes
//! without a copy per element.

mod analyzer;
mod batched_search;
mod encoding;
mod error;
mod game;
mod little_endian;

pub use analyzer::PyAnalyzer;
pub use batched_search::PyBatchedSearch;
pub use encoding::{encode_position, encoding_versions, move_slot, planes, slot_move};
pub use game::PyGame;

use pyo3::prelude::*;

/// The module `jungle_zero._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyBatchedSearch>()?;
    m.add_class::<PyAnalyzer>()?;
    m.add_function(wrap_pyfunction!(encode_position, m)?)?;
    m.add_function(wrap_pyfunction!(move_slot, m)?)?;
    m.add_function(wrap_pyfunction!(slot_move, m)?)?;
    m.add_function(wrap_pyfunction!(planes, m)?)?;
    m.add_function(wrap_pyfunction!(encoding_versions, m)?)?;
    m.add_function(wrap_pyfunction!(game::preset_names, m)?)?;
    m.add("POLICY_SLOTS", jungle_encoding::POLICY_SLOTS)?;
    m.add("DEFAULT_PLAYER", jungle_play::shipped::DEFAULT_PLAYER)?;
    m.add("PLAYER_SIMULATIONS", jungle_mcts::PLAYER_SIMULATIONS)?;
    m.add("MAX_SIMULATIONS", jungle_mcts::MAX_SIMULATIONS)?;
    Ok(())
}
