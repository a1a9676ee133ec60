//! Periods and names of patterns, as lifelib's `oscar()`, `period`, `displacement` and
//! `apgcode` give them (the search itself is in oscar.rs), and the check `lt.pattern` makes
//! of an apgcode it reads.

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::value_error;
use crate::oscar::{self, Periodic};
use crate::pattern::Pattern;

/// Patterns wider than 2^60 are refused, as lifelib refuses them.
const MAX_DIAMETER: i128 = 1 << 60;

/// What `oscar` found: the period and displacement, and the apgcode when asked.
struct Found {
    periodic: Periodic,
    apgcode: Option<String>,
}

impl Pattern {
    /// The least period of this pattern within about `gmax` generations, if it has one.
    pub fn periodic(&self, py: Python<'_>, gmax: u64) -> PyResult<Option<Periodic>> {
        let (rule, kept) = (self.rule, self.kept.as_ref().expect("kept"));
        self.owner.get().tree.with(py, |w| {
            let u = w.universe(rule)?;
            let (found, reached) = oscar::detect(u, kept, gmax)?;
            golab::universe::Universe::release(u, reached);
            Ok(found)
        })
    }

    /// lifelib's search: exponents 8, 10, … `maxexp`, each looking 2^exponent generations
    /// ahead, from where the last one stopped when `eventual` (an eventual oscillator).
    fn search(
        &self,
        py: Python<'_>,
        maxexp: u32,
        eventual: bool,
        verbose: bool,
        name: bool,
    ) -> PyResult<Option<Found>> {
        if let Some([_, _, w, h]) = self.rect(py)?
            && (w > MAX_DIAMETER || h > MAX_DIAMETER)
        {
            return Err(value_error(
                "Pattern is too large for oscillation detection.",
            ));
        }
        let (rule, kept) = (self.rule, self.kept.as_ref().expect("kept"));
        let mut exponent = 8;
        let tree = &self.owner.get().tree;
        let mut from: Option<golab::universe::Kept> = None;
        while exponent <= maxexp.max(8) {
            if verbose && exponent > 8 {
                py.import("builtins")?.call_method1(
                    "print",
                    (format!("Checking periodicity with exponent {exponent}..."),),
                )?;
            }
            let step = tree.with(py, |w| {
                let u = w.universe(rule)?;
                let start = from.as_ref().unwrap_or(kept);
                let (found, reached) = oscar::detect(u, start, 1 << exponent)?;
                let apgcode = match (found, name) {
                    (Some(f), true) => Some(oscar::apgcode(u, start, f)?),
                    _ => None,
                };
                Ok((found, apgcode, reached))
            })?;
            let (found, apgcode, reached) = step;
            let done = found.map(|periodic| Found { periodic, apgcode });
            let previous = if eventual && done.is_none() {
                from.replace(reached)
            } else {
                tree.release(rule, reached);
                None
            };
            if let Some(old) = previous {
                tree.release(rule, old);
            }
            if done.is_some() {
                if let Some(old) = from.take() {
                    tree.release(rule, old);
                }
                return Ok(done);
            }
            exponent += 2;
        }
        if let Some(old) = from.take() {
            tree.release(rule, old);
        }
        if verbose {
            py.import("builtins")?.call_method1(
                "print",
                ("Oscillation not detected (try increasing maxexp?)",),
            )?;
        }
        Ok(None)
    }

    /// Check that `code`, just read into this pattern, has the period (and for still
    /// lifes the population) it claims, and with `canonical` that it is the canonical code.
    pub fn verify_code(&self, py: Python<'_>, code: &str, canonical: bool) -> PyResult<()> {
        let prefix = code.split('_').next().unwrap_or("");
        let kind = prefix.chars().nth(1).unwrap_or('s');
        let number: u128 = prefix
            .get(2..)
            .unwrap_or("")
            .parse()
            .map_err(|_| value_error(format!("{code} is not an apgcode")))?;
        let period = if kind == 's' { 1 } else { number };
        let found = self.search(py, 16, false, false, canonical)?;
        if found.as_ref().map(|f| f.periodic.period) != Some(period) {
            return Err(value_error(
                "Pattern does not have the period implied by its apgcode.",
            ));
        }
        if kind == 's' && self.population(py)? != number {
            return Err(value_error(
                "Pattern does not have the population implied by its apgcode.",
            ));
        }
        if canonical
            && let Some(name) = found.and_then(|f| f.apgcode)
            && name != code
        {
            return Err(value_error(format!(
                "The canonical form of {code} is {name}"
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl Pattern {
    /// lifelib's `oscar`: `{'period': p, 'displacement': (dx, dy)}` (with `'apgcode'` when
    /// `return_apgcode`), or `{}` when no period turns up within 2^maxexp generations. Guns
    /// are not recognised (lifelib's `allow_guns` is accepted and ignored).
    #[pyo3(signature = (maxexp=16, eventual_oscillator=true, verbose=true, return_apgcode=false, allow_guns=true))]
    fn oscar<'py>(
        &self,
        py: Python<'py>,
        maxexp: u32,
        eventual_oscillator: bool,
        verbose: bool,
        return_apgcode: bool,
        allow_guns: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let _ = allow_guns;
        let out = PyDict::new(py);
        if let Some(found) =
            self.search(py, maxexp, eventual_oscillator, verbose, return_apgcode)?
        {
            out.set_item("period", found.periodic.period)?;
            out.set_item("displacement", (found.periodic.dx, found.periodic.dy))?;
            if let Some(code) = found.apgcode {
                out.set_item("apgcode", code)?;
            }
        }
        Ok(out)
    }

    /// The apgcode of a still life, oscillator or spaceship (`KeyError` otherwise, as in
    /// lifelib).
    #[getter]
    fn apgcode(&self, py: Python<'_>) -> PyResult<String> {
        self.search(py, 16, false, false, true)?
            .and_then(|f| f.apgcode)
            .ok_or_else(|| PyKeyError::new_err("apgcode"))
    }

    /// The least period (`KeyError` for a pattern that does not repeat, as in lifelib).
    #[getter]
    fn period(&self, py: Python<'_>) -> PyResult<u128> {
        self.search(py, 16, false, false, false)?
            .map(|f| f.periodic.period)
            .ok_or_else(|| PyKeyError::new_err("period"))
    }

    /// How far it moves over one period.
    #[getter]
    fn displacement(&self, py: Python<'_>) -> PyResult<(i128, i128)> {
        self.search(py, 16, false, false, false)?
            .map(|f| (f.periodic.dx, f.periodic.dy))
            .ok_or_else(|| PyKeyError::new_err("displacement"))
    }
}
