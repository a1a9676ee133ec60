//! lifelib's `Pattern`: a value in a lifetree — a kept state of its rule's hashed universe.
//! This file holds what a pattern is and how it is read and stepped (`p[n]`, `advance`,
//! `p[x, y]`, `population`, `getrect`, `coords`, `rle_string`, files); pattern_ops.rs the
//! algebra (boolean operators, shifts, transformations, matching, components), and
//! pattern_oscar.rs periods and apgcodes.

use golab::rule::Rule;
use golab::universe::{Kept, Universe};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PySlice, PyTuple};

use crate::cells;
use crate::errors::value_error;
use crate::oscar::step_exact;
use crate::session::{Lifetree, rule_name};
use crate::tree::{Cell, rect};

/// lifelib's pattern (see the module docs).
#[pyclass(module = "golab")]
pub struct Pattern {
    pub(crate) owner: Py<Lifetree>,
    pub(crate) rule: Rule,
    pub(crate) kept: Option<Kept>,
    /// Comment lines (lifelib's `comments`), written by `write_rle`.
    #[pyo3(get, set)]
    pub(crate) comments: Vec<String>,
}

impl Drop for Pattern {
    fn drop(&mut self) {
        if let Some(kept) = self.kept.take() {
            self.owner.get().tree.release(self.rule, kept);
        }
    }
}

impl Pattern {
    /// The pattern `kept` of `rule` in `owner`'s tree.
    pub fn new(owner: Py<Lifetree>, rule: Rule, kept: Kept) -> Pattern {
        Pattern {
            owner,
            rule,
            kept: Some(kept),
            comments: Vec::new(),
        }
    }

    /// The same with comment lines.
    pub fn with_comments(mut self, comments: Vec<String>) -> Pattern {
        self.comments = comments;
        self
    }

    fn kept(&self) -> &Kept {
        self.kept.as_ref().expect("a live pattern keeps its state")
    }

    /// Every cell not in state 0, row by row.
    pub fn cells(&self, py: Python<'_>) -> PyResult<Vec<Cell>> {
        let (rule, kept) = (self.rule, self.kept());
        self.owner.get().tree.with(py, |w| w.cells(rule, kept))
    }

    /// A new pattern of this one's rule and tree holding `cells`.
    pub fn sibling(&self, py: Python<'_>, cells: &[Cell]) -> PyResult<Pattern> {
        Lifetree::make(self.owner.bind(py), self.rule, cells)
    }

    /// Replace this pattern's state by `cells` (lifelib's mutating calls).
    pub fn replace(&mut self, py: Python<'_>, cells: &[Cell]) -> PyResult<()> {
        let rule = self.rule;
        let kept = self.owner.get().tree.with(py, |w| w.build(rule, cells))?;
        if let Some(old) = self.kept.replace(kept) {
            self.owner.get().tree.release(rule, old);
        }
        Ok(())
    }

    /// This pattern `generations` later (the universe's hashing does the work).
    pub fn stepped(&self, py: Python<'_>, generations: u128) -> PyResult<Pattern> {
        let (rule, kept) = (self.rule, self.kept());
        let next = self.owner.get().tree.with(py, |w| {
            w.at(rule, kept, |u| {
                step_exact(u, generations)?;
                u.keep()
            })
        })?;
        Ok(Pattern::new(self.owner.clone_ref(py), rule, next))
    }

    /// The pattern as lifelib's RLE (`rle_string()`).
    pub fn rle_text(&self, py: Python<'_>) -> PyResult<String> {
        let layers = self.owner.get().n_layers;
        Ok(crate::rle::write(&self.cells(py)?, &self.rule, layers))
    }

    /// `[x, y, width, height]`, or `None` when empty.
    pub fn rect(&self, py: Python<'_>) -> PyResult<Option<[i128; 4]>> {
        let (rule, kept) = (self.rule, self.kept());
        let b = self
            .owner
            .get()
            .tree
            .with(py, |w| w.at(rule, kept, |u| u.bounds()))?;
        Ok(b.map(|b| [b.x0, b.y0, b.x1 - b.x0 + 1, b.y1 - b.y0 + 1]))
    }

    /// The state of cell `(x, y)`.
    fn state(&self, py: Python<'_>, x: i128, y: i128) -> PyResult<u8> {
        let (rule, kept) = (self.rule, self.kept());
        self.owner
            .get()
            .tree
            .with(py, |w| w.at(rule, kept, |u| u.state(x, y)))
    }

    /// The cells inside the slices `xs` × `ys` (open ends reach the pattern's edge).
    fn sliced(
        &self,
        py: Python<'_>,
        xs: &Bound<'_, PySlice>,
        ys: &Bound<'_, PySlice>,
    ) -> PyResult<Vec<Cell>> {
        let Some([x, y, w, h]) = self.rect(py)? else {
            return Ok(Vec::new());
        };
        let end = |s: &Bound<'_, PySlice>, name: &str| -> PyResult<(Option<i128>, Option<i128>)> {
            let get = |a: &str| -> PyResult<Option<i128>> {
                let v = s.getattr(a)?;
                if v.is_none() {
                    Ok(None)
                } else {
                    v.extract().map(Some)
                }
            };
            if !s.getattr("step")?.is_none() {
                return Err(value_error(format!("{name} slices take no step")));
            }
            Ok((get("start")?, get("stop")?))
        };
        let (x0, x1) = end(xs, "x")?;
        let (y0, y1) = end(ys, "y")?;
        let r = rect(
            x0.unwrap_or(x).max(x),
            y0.unwrap_or(y).max(y),
            x1.map_or(x + w - 1, |e| e - 1).min(x + w - 1),
            y1.map_or(y + h - 1, |e| e - 1).min(y + h - 1),
        );
        if r.x0 > r.x1 || r.y0 > r.y1 {
            return Ok(Vec::new());
        }
        let (rule, kept) = (self.rule, self.kept());
        self.owner
            .get()
            .tree
            .with(py, |w| w.cells_in(rule, kept, r))
    }
}

/// An `(n, 2)` array of coordinates as cells.
fn coordinates(array: PyReadonlyArray2<'_, i64>) -> PyResult<Vec<(i128, i128)>> {
    let a = array.as_array();
    if a.ncols() != 2 {
        return Err(value_error("coordinates must be an (n, 2) array"));
    }
    Ok(a.rows()
        .into_iter()
        .map(|r| (i128::from(r[0]), i128::from(r[1])))
        .collect())
}

#[pymethods]
impl Pattern {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let population = self.population(py)?;
        Ok(format!(
            "<Pattern(population={population}, rule={}) in golab>",
            rule_name(&self.rule)
        ))
    }

    /// lifelib's rule name (`b3s23`).
    fn getrule(&self) -> String {
        rule_name(&self.rule)
    }

    /// `numgens << exponent` generations later; a negative count is accepted for
    /// oscillators and spaceships (lifelib's `advance`).
    #[pyo3(signature = (numgens, exponent=0))]
    fn advance(&self, py: Python<'_>, numgens: i128, exponent: u32) -> PyResult<Pattern> {
        let generations = numgens
            .checked_shl(exponent)
            .filter(|g| g >> exponent == numgens)
            .ok_or_else(|| value_error("Number of generations is too large"))?;
        if generations >= 0 {
            return self.stepped(py, generations as u128);
        }
        let found = self.periodic(py, 1 << 24)?.ok_or_else(|| {
            value_error("a negative number of generations needs an oscillator or spaceship")
        })?;
        let p = found.period as i128;
        let rest = generations.rem_euclid(p);
        let laps = (generations - rest) / p;
        let cells = self.stepped(py, rest as u128)?.cells(py)?;
        self.sibling(
            py,
            &cells::shifted(&cells, laps * found.dx, laps * found.dy),
        )
    }

    /// `p[n]` (advance), `p[x, y]` (a cell's state), `p[x0:x1, y0:y1]` (a rectangle) or
    /// `p[coords]` (the states at an `(n, 2)` array, as a uint64 array).
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(n) = key.extract::<i128>() {
            return Ok(Bound::new(py, self.advance(py, n, 0)?)?.into_any());
        }
        if let Ok(t) = key.cast::<PyTuple>()
            && t.len() == 2
        {
            let (a, b) = (t.get_item(0)?, t.get_item(1)?);
            if let (Ok(x), Ok(y)) = (a.extract::<i128>(), b.extract::<i128>()) {
                return Ok(self.state(py, x, y)?.into_pyobject(py)?.into_any());
            }
            if let (Ok(xs), Ok(ys)) = (a.cast::<PySlice>(), b.cast::<PySlice>()) {
                let cells = self.sliced(py, xs, ys)?;
                return Ok(Bound::new(py, self.sibling(py, &cells)?)?.into_any());
            }
        }
        if let Ok(array) = key.extract::<PyReadonlyArray2<'_, i64>>() {
            let wanted = coordinates(array)?;
            let (rule, kept) = (self.rule, self.kept());
            let states = self.owner.get().tree.with(py, |w| {
                w.at(rule, kept, |u| {
                    wanted
                        .iter()
                        .map(|&(x, y)| u.state(x, y).map(u64::from))
                        .collect::<Result<Vec<_>, _>>()
                })
            })?;
            return Ok(PyArray1::from_vec(py, states).into_any());
        }
        Err(PyTypeError::new_err(
            "operator[] accepts either a generation (int) or a pair of slices",
        ))
    }

    /// `p[x, y] = state`, `p[x0:x1, y0:y1] = state` (a filled rectangle; 0 clears), or
    /// `p[coords] = states` for an `(n, 2)` array and as many states.
    fn __setitem__(
        &mut self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let mut edits: Vec<Cell> = Vec::new();
        if let Ok(array) = key.extract::<PyReadonlyArray2<'_, i64>>() {
            let at = coordinates(array)?;
            let states: PyReadonlyArray1<'_, u64> = value.extract()?;
            let states = states.as_slice()?;
            if states.len() != at.len() {
                return Err(value_error("Incompatible shapes for setcells."));
            }
            for (&(x, y), &s) in at.iter().zip(states) {
                edits.push((
                    x,
                    y,
                    u8::try_from(s).map_err(|_| value_error(format!("no state {s}")))?,
                ));
            }
        } else {
            let t = key
                .cast::<PyTuple>()
                .map_err(|_| PyTypeError::new_err("p[x, y] = state"))?;
            if t.len() != 2 {
                return Err(PyIndexError::new_err("p[x, y] takes two coordinates"));
            }
            let state: u8 = value.extract()?;
            let range = |v: Bound<'_, PyAny>| -> PyResult<(i128, i128)> {
                if let Ok(i) = v.extract::<i128>() {
                    return Ok((i, i + 1));
                }
                let s = v
                    .cast::<PySlice>()
                    .map_err(|_| PyTypeError::new_err("coordinates are ints or slices"))?;
                let (a, b) = (s.getattr("start")?, s.getattr("stop")?);
                if a.is_none() || b.is_none() {
                    return Err(value_error(
                        "a filled rectangle needs both ends of each slice",
                    ));
                }
                Ok((a.extract()?, b.extract()?))
            };
            let (x0, x1) = range(t.get_item(0)?)?;
            let (y0, y1) = range(t.get_item(1)?)?;
            if (x1 - x0).max(0) * (y1 - y0).max(0) > 1 << 26 {
                return Err(value_error("a filled rectangle of more than 2^26 cells"));
            }
            for y in y0..y1 {
                for x in x0..x1 {
                    edits.push((x, y, state));
                }
            }
        }
        let (rule, kept) = (self.rule, self.kept());
        let next = self.owner.get().tree.with(py, |w| {
            w.at(rule, kept, |u| {
                u.set_states(&edits)?;
                u.keep()
            })
        })?;
        if let Some(old) = self.kept.replace(next) {
            self.owner.get().tree.release(rule, old);
        }
        Ok(())
    }

    /// Cells not in state 0 (lifelib counts every layer).
    #[getter]
    pub fn population(&self, py: Python<'_>) -> PyResult<u128> {
        let (rule, kept) = (self.rule, self.kept());
        self.owner.get().tree.with(py, |w| {
            w.at(rule, kept, |u| {
                let stats = u.stats(0)?;
                Ok(u128::from(stats.population) + u128::from(stats.dying))
            })
        })
    }

    /// `[x, y, width, height]` of the bounding box, `None` when empty.
    fn getrect(&self, py: Python<'_>) -> PyResult<Option<Vec<i128>>> {
        Ok(self.rect(py)?.map(|r| r.to_vec()))
    }

    /// See [`Pattern::getrect`].
    #[getter]
    fn bounding_box(&self, py: Python<'_>) -> PyResult<Option<Vec<i128>>> {
        self.getrect(py)
    }

    /// `[x, y]` of the first cell row by row (`[0, 0]` when empty).
    #[getter]
    fn firstcell(&self, py: Python<'_>) -> PyResult<Vec<i128>> {
        Ok(self
            .cells(py)?
            .first()
            .map_or(vec![0, 0], |c| vec![c.0, c.1]))
    }

    /// The live cells as an `(n, 2)` int64 array of `(x, y)`, row by row.
    fn coords<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let cells = self.cells(py)?;
        let mut flat = Vec::with_capacity(cells.len() * 2);
        for (x, y, _) in cells {
            flat.push(i64::try_from(x).map_err(|_| value_error("coordinates beyond int64"))?);
            flat.push(i64::try_from(y).map_err(|_| value_error("coordinates beyond int64"))?);
        }
        let n = flat.len() / 2;
        PyArray1::from_vec(py, flat).reshape([n, 2])
    }

    /// Whether any cell is not in state 0.
    fn nonempty(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.rect(py)?.is_some())
    }

    /// Whether every cell is in state 0.
    fn empty(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.rect(py)?.is_none())
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        self.nonempty(py)
    }

    /// The pattern as lifelib writes RLE.
    #[pyo3(signature = (filename=None, autoremove=true))]
    fn rle_string(
        &self,
        py: Python<'_>,
        filename: Option<&str>,
        autoremove: bool,
    ) -> PyResult<String> {
        let _ = (filename, autoremove);
        self.rle_text(py)
    }

    /// A copy (patterns are values: the copy shares every node).
    fn __copy__(&self, py: Python<'_>) -> PyResult<Pattern> {
        self.stepped(py, 0)
            .map(|p| p.with_comments(self.comments.clone()))
    }
}
