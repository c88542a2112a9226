//! Floats as little-endian `f32` bytes, the form numpy's
//! `frombuffer(..., dtype="<f4")` and `tobytes()` use.

use crate::error::value_error;
use pyo3::PyResult;

/// `values` as bytes.
pub(crate) fn to_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The floats of `bytes`; `name` names the argument in the error when its
/// length is not a whole number of floats.
pub(crate) fn from_bytes(name: &str, bytes: &[u8]) -> PyResult<Vec<f32>> {
    if !bytes.len().is_multiple_of(4) {
        return Err(value_error(format!(
            "{name}: expected little-endian float32 bytes (a multiple of 4), got {} bytes",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}
