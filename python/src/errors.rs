//! golab's errors as Python exceptions: a refused count, size or state is a `ValueError`,
//! the hashed universe's memory limit a `MemoryError`, a stopped step `KeyboardInterrupt`,
//! a failed stepper (a GPU strategy without an adapter, a lost device) a `RuntimeError`
//! with golab's message (which says how to install lavapipe where no GPU driver exists).

use golab::hashlife::HashError;
use golab::universe::UniverseError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// `error` as the Python exception a caller expects for it.
pub fn to_py(error: UniverseError) -> PyErr {
    let message = error.to_string();
    match error {
        UniverseError::Interrupted { .. } | UniverseError::Hash(HashError::Interrupted { .. }) => {
            PyKeyboardInterrupt::new_err(message)
        }
        UniverseError::Hash(HashError::Memory { .. }) => PyMemoryError::new_err(message),
        UniverseError::Sim(_) => PyRuntimeError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// A `ValueError` saying `message`.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}
