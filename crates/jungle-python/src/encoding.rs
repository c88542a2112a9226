//! The network's contract: the input planes of a position in every
//! encoding version and the move <-> policy slot mapping
//! (`jungle-encoding`, through the page's functions).

use crate::error::value_error;
use crate::little_endian::to_bytes;
use jungle_encoding::Encoding;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The input planes of the position `fen` (occurring for the
/// `repetitions`-th time) under `rules` (a preset name or JSON rule set)
/// in encoding `encoding_version`, as little-endian float32 bytes laid out
/// `planes x 9 x 7` (`model.json`'s layout).
#[pyfunction]
#[pyo3(signature = (fen, rules = "standard", repetitions = 1, encoding_version = 2))]
pub fn encode_position<'py>(
    py: Python<'py>,
    fen: &str,
    rules: &str,
    repetitions: u32,
    encoding_version: u32,
) -> PyResult<Bound<'py, PyBytes>> {
    let planes = jungle_wasm::encode_position(fen, rules, repetitions, encoding_version)
        .map_err(value_error)?;
    Ok(PyBytes::new(py, &to_bytes(&planes)))
}

/// The policy slot (0-251) of `move` (`a1a2`) played by the side to move
/// in `fen`.
#[pyfunction]
#[pyo3(signature = (fen, r#move))]
pub fn move_slot(fen: &str, r#move: &str) -> PyResult<u32> {
    jungle_wasm::move_slot(fen, r#move).map_err(value_error)
}

/// The legal move (under `rules`) of policy slot `slot` in `fen`, or `None`.
#[pyfunction]
#[pyo3(signature = (fen, slot, rules = "standard"))]
pub fn slot_move(fen: &str, slot: u32, rules: &str) -> PyResult<Option<String>> {
    jungle_wasm::slot_move(fen, rules, slot).map_err(value_error)
}

/// Input planes of encoding `encoding_version`.
#[pyfunction]
pub fn planes(encoding_version: u32) -> PyResult<usize> {
    Encoding::from_version(encoding_version)
        .map(Encoding::planes)
        .ok_or_else(|| {
            value_error(format!(
                "encoding_version {encoding_version}: expected one of {:?}",
                encoding_versions()
            ))
        })
}

/// The encoding versions this build knows.
#[pyfunction]
pub fn encoding_versions() -> Vec<u32> {
    Encoding::ALL.iter().map(|e| e.version()).collect()
}
