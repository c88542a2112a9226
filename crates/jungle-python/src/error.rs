//! Errors raised in Python: bad input is a `ValueError` whose message
//! names what was wrong and what was expected.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// A `ValueError` with `message`.
pub(crate) fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}
