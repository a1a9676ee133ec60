//! golab in Python: the extension module `golab._golab`, re-exported by the package
//! `golab` (python/golab/__init__.py).
//!
//! - lifelib's pattern API (`load_rules` → session → `lifetree` → patterns), with lifelib's
//!   names, signatures and semantics, over golab's hashed universe ([`HashedUniverse`]
//!   spoken to through the `Universe` trait): session.rs, tree.rs, pattern*.rs, cells.rs,
//!   oscar.rs, rle.rs;
//! - dense worlds on every strategy (`golab.grid`): grid.rs.
//!
//! Every step releases the GIL, and Ctrl-C stops it with the world whole (interrupt.rs).
//!
//! [`HashedUniverse`]: golab::universe::HashedUniverse

use pyo3::prelude::*;

mod cells;
mod errors;
mod grid;
mod interrupt;
mod oscar;
mod pattern;
mod pattern_files;
mod pattern_ops;
mod pattern_oscar;
mod rle;
mod session;
mod tree;

/// The extension module.
#[pymodule]
fn _golab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(session::load_rules, m)?)?;
    m.add_function(wrap_pyfunction!(grid::grid, m)?)?;
    m.add_function(wrap_pyfunction!(session::rule_states, m)?)?;
    m.add_class::<session::Session>()?;
    m.add_class::<session::Lifetree>()?;
    m.add_class::<pattern::Pattern>()?;
    m.add_class::<grid::Grid>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
