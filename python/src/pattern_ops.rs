//! lifelib's pattern algebra as Python operators and methods: `& | ^ - +` (and their
//! in-place forms), `*` (convolution), comparisons as sets (`==`, `<=` for "is part of"),
//! `shift`, `transform`, calling a pattern (`p("rot90", 3, 4)`), `centre`, `match`,
//! `onecell`, `component_containing` and `components`. The work is done on cell lists
//! (cells.rs); the result lands in the left operand's lifetree and rule.

use pyo3::basic::CompareOp;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::cells::{self, Boolean, TRANSFORMS};
use crate::errors::value_error;
use crate::pattern::Pattern;
use crate::tree::Cell;

/// A pattern, or RLE text read in the left operand's lifetree and rule (lifelib accepts
/// both wherever it matches).
#[derive(FromPyObject)]
pub enum PatternLike<'py> {
    /// A pattern.
    Pattern(PyRef<'py, Pattern>),
    /// RLE (or an apgcode) to read.
    Text(String),
}

impl Pattern {
    /// The cells of `other`, a pattern or text read like `lt.pattern(text, rule)`.
    fn cells_of(&self, py: Python<'_>, other: &PatternLike<'_>) -> PyResult<Vec<Cell>> {
        match other {
            PatternLike::Pattern(p) => p.cells(py),
            PatternLike::Text(text) => {
                // Read as lifelib's `from_rle`: `lt.pattern(text, rule)`.
                let name = crate::session::rule_name(&self.rule);
                let made = self.owner.bind(py).call_method1("pattern", (text, name))?;
                made.extract::<PyRef<'_, Pattern>>()?.cells(py)
            }
        }
    }

    fn boolean(&self, py: Python<'_>, other: &PatternLike<'_>, op: Boolean) -> PyResult<Vec<Cell>> {
        Ok(cells::boolean(
            &self.cells(py)?,
            &self.cells_of(py, other)?,
            op,
        ))
    }

    /// The halo lifelib connects components by: `halo` centred on the origin.
    fn halo(&self, py: Python<'_>, halo: &PatternLike<'_>) -> PyResult<Vec<Cell>> {
        let cells = self.cells_of(py, halo)?;
        let (dx, dy) = cells::centring(&cells);
        Ok(cells::shifted(&cells, dx, dy))
    }

    /// This pattern moved by `(x, y) << exponent`.
    pub fn moved(&self, py: Python<'_>, x: i128, y: i128, exponent: u32) -> PyResult<Pattern> {
        let scale = |v: i128| {
            v.checked_shl(exponent)
                .filter(|s| s >> exponent == v)
                .ok_or_else(|| value_error("shift is too large"))
        };
        let (x, y) = (scale(x)?, scale(y)?);
        self.sibling(py, &cells::shifted(&self.cells(py)?, x, y))
    }
}

#[pymethods]
impl Pattern {
    fn __and__(&self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<Pattern> {
        let cells = self.boolean(py, &other, Boolean::And)?;
        self.sibling(py, &cells)
    }

    fn __or__(&self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<Pattern> {
        let cells = self.boolean(py, &other, Boolean::Or)?;
        self.sibling(py, &cells)
    }

    fn __add__(&self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<Pattern> {
        self.__or__(py, other)
    }

    fn __xor__(&self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<Pattern> {
        let cells = self.boolean(py, &other, Boolean::Xor)?;
        self.sibling(py, &cells)
    }

    fn __sub__(&self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<Pattern> {
        let cells = self.boolean(py, &other, Boolean::Minus)?;
        self.sibling(py, &cells)
    }

    fn __iand__(&mut self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<()> {
        let cells = self.boolean(py, &other, Boolean::And)?;
        self.replace(py, &cells)
    }

    fn __ior__(&mut self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<()> {
        let cells = self.boolean(py, &other, Boolean::Or)?;
        self.replace(py, &cells)
    }

    fn __iadd__(&mut self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<()> {
        self.__ior__(py, other)
    }

    fn __ixor__(&mut self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<()> {
        let cells = self.boolean(py, &other, Boolean::Xor)?;
        self.replace(py, &cells)
    }

    fn __isub__(&mut self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<()> {
        let cells = self.boolean(py, &other, Boolean::Minus)?;
        self.replace(py, &cells)
    }

    /// The convolution: a copy of `other` at every live cell of this pattern.
    fn __mul__(&self, py: Python<'_>, other: PatternLike<'_>) -> PyResult<Pattern> {
        self.convolve(py, other, false)
    }

    /// The convolution; `exclusive` keeps the cells covered an odd number of times.
    #[pyo3(signature = (other, exclusive=false))]
    fn convolve(
        &self,
        py: Python<'_>,
        other: PatternLike<'_>,
        exclusive: bool,
    ) -> PyResult<Pattern> {
        let cells = cells::convolve(&self.cells(py)?, &self.cells_of(py, &other)?, exclusive);
        self.sibling(py, &cells)
    }

    /// The union, or with `exclusive` the symmetric difference.
    #[pyo3(signature = (other, exclusive=false))]
    fn disjunct(
        &self,
        py: Python<'_>,
        other: PatternLike<'_>,
        exclusive: bool,
    ) -> PyResult<Pattern> {
        let op = if exclusive { Boolean::Xor } else { Boolean::Or };
        let cells = self.boolean(py, &other, op)?;
        self.sibling(py, &cells)
    }

    /// Equality of cells and states (`==`), and lifelib's subset order (`<=`: every cell
    /// of this pattern is in the other).
    fn __richcmp__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        let Ok(other) = other.extract::<PatternLike<'_>>() else {
            return Ok(py.NotImplemented());
        };
        let (a, b) = (self.cells(py)?, self.cells_of(py, &other)?);
        let meet = cells::boolean(&a, &b, Boolean::And);
        let answer = match op {
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
            CompareOp::Le => meet == a,
            CompareOp::Ge => meet == b,
            CompareOp::Lt => a != b && meet == a,
            CompareOp::Gt => a != b && meet == b,
        };
        Ok(answer.into_pyobject(py)?.to_owned().into_any().unbind())
    }

    /// This pattern moved by `(x, y) << exponent`.
    #[pyo3(signature = (x, y, exponent=0))]
    fn shift(&self, py: Python<'_>, x: i128, y: i128, exponent: u32) -> PyResult<Pattern> {
        self.moved(py, x, y, exponent)
    }

    /// lifelib's transformation `tfm` about the origin: `flip`/`rot180`, `identity`,
    /// `transpose`/`swap_xy`, `flip_x`, `flip_y`, `rot90`/`rccw`, `rot270`/`rcw`,
    /// `swap_xy_flip`.
    fn transform(&self, py: Python<'_>, tfm: &str) -> PyResult<Pattern> {
        let f = cells::transform_of(tfm)
            .ok_or_else(|| value_error(format!("Transformation must be one of {TRANSFORMS:?}")))?;
        self.sibling(py, &cells::transformed(&self.cells(py)?, f))
    }

    /// `p(x, y)` shifts, `p(tfm)` transforms, `p(tfm, x, y)` does both.
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: Vec<Bound<'_, PyAny>>) -> PyResult<Pattern> {
        let usage = || {
            PyTypeError::new_err(
                "Usage: pattern(8, -5) or pattern('rccw') or pattern('rot90', 7, 3)",
            )
        };
        let mut out = self.stepped(py, 0)?;
        if args.len() > 3 {
            return Err(usage());
        }
        if args.len() % 2 == 1 {
            out = out.transform(py, &args[0].extract::<String>().map_err(|_| usage())?)?;
        }
        if args.len() >= 2 {
            let x: i128 = args[args.len() - 2].extract()?;
            let y: i128 = args[args.len() - 1].extract()?;
            out = out.moved(py, x, y, 0)?;
        }
        Ok(out)
    }

    /// Moved so that its bounding box's centre (rounded up and left) is the origin.
    fn centre(&self, py: Python<'_>) -> PyResult<Pattern> {
        let cells = self.cells(py)?;
        let (dx, dy) = cells::centring(&cells);
        self.sibling(py, &cells::shifted(&cells, dx, dy))
    }

    /// Where `live` occurs with none of `dead` (or, with `halo`, none of the cells of
    /// `live` convolved with the centred halo) alive: one live cell per offset.
    #[pyo3(signature = (live, dead=None, halo=None))]
    fn r#match(
        &self,
        py: Python<'_>,
        live: PatternLike<'_>,
        dead: Option<PatternLike<'_>>,
        halo: Option<PatternLike<'_>>,
    ) -> PyResult<Pattern> {
        let live = self.cells_of(py, &live)?;
        let dead = match (halo, dead) {
            (Some(h), _) => cells::convolve(&live, &self.halo(py, &h)?, false),
            (None, Some(d)) => self.cells_of(py, &d)?,
            (None, None) => Vec::new(),
        };
        let corona = cells::boolean(&dead, &live, Boolean::Minus);
        self.sibling(py, &cells::matches(&self.cells(py)?, &live, &corona))
    }

    /// One cell of the pattern: the first in lifelib's quadtree order.
    fn onecell(&self, py: Python<'_>) -> PyResult<Pattern> {
        let one: Vec<Cell> = cells::one_cell(&self.cells(py)?).into_iter().collect();
        self.sibling(py, &one)
    }

    /// The cells reached from `seed` (a pattern, an `(x, y)` pair, or the first cell)
    /// through `halo`.
    #[pyo3(signature = (seed=None, halo=PatternLike::Text("ooo$ooo$ooo!".into())))]
    fn component_containing(
        &self,
        py: Python<'_>,
        seed: Option<&Bound<'_, PyAny>>,
        halo: PatternLike<'_>,
    ) -> PyResult<Pattern> {
        let cells = self.cells(py)?;
        let seed: Vec<Cell> = match seed {
            None => cells::one_cell(&cells).into_iter().collect(),
            Some(s) => match s.extract::<(i128, i128)>() {
                Ok((x, y)) => vec![(x, y, 1)],
                Err(_) => self.cells_of(py, &s.extract::<PatternLike<'_>>()?)?,
            },
        };
        let halo = self.halo(py, &halo)?;
        self.sibling(py, &cells::component(&cells, &seed, &halo))
    }

    /// The connected components (cells joined through `halo`), in lifelib's order.
    #[pyo3(signature = (halo=PatternLike::Text("ooo$ooo$ooo!".into())))]
    fn components(&self, py: Python<'_>, halo: PatternLike<'_>) -> PyResult<Vec<Pattern>> {
        let halo = self.halo(py, &halo)?;
        cells::components(&self.cells(py)?, &halo)
            .iter()
            .map(|c| self.sibling(py, c))
            .collect()
    }
}
