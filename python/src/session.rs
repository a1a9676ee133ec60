//! lifelib's entry points: `load_rules(*rules)` gives a [`Session`] (the rules it was asked
//! for; nothing is compiled: golab's engines run any rule they parse), `sess.lifetree(...)`
//! a [`Lifetree`] (the hashed universes its patterns share), and the lifetree makes
//! patterns from RLE, macrocell, apgcodes, files and apgsearch's soups.

use std::path::PathBuf;
use std::sync::Arc;

use golab::pattern::{self as pat, Format};
use golab::rule::Rule;
use golab::search::Symmetry;
use golab::search::hashsoup::hashsoup;
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;

use crate::errors::value_error;
use crate::pattern::Pattern;
use crate::tree::{Cell, Tree};

/// lifelib's name for a rule: Golly's canonical form, lower case, without the slash for
/// B/S rules (`b3s23`, `b36s23`); other families keep Golly's form.
pub fn rule_name(rule: &Rule) -> String {
    let canonical = rule.canonical();
    if canonical.starts_with('B') && canonical.matches('/').count() == 1 {
        canonical.to_lowercase().replace('/', "")
    } else {
        canonical
    }
}

/// Parse a rule as lifelib and Golly spell it.
pub fn parse_rule(text: &str) -> PyResult<Rule> {
    Rule::parse(text.trim()).map_err(|e| value_error(e.to_string()))
}

/// The number of cell states of `rule` (2 for two-state rules; Golly's `numstates`).
#[pyfunction]
pub fn rule_states(rule: &str) -> PyResult<u16> {
    Ok(parse_rule(rule)?.states().max(2))
}

/// lifelib's `load_rules(*rules)`: a session for these rules (the first is the default
/// for headerless RLE). Each is checked now, so a typo fails here as it does in lifelib.
#[pyfunction]
#[pyo3(signature = (*rules, **_kwargs))]
pub fn load_rules(
    rules: Vec<String>,
    _kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<Session> {
    let rules = if rules.is_empty() {
        vec!["b3s23".to_string()]
    } else {
        rules
    };
    let names = rules
        .iter()
        .map(|r| parse_rule(r).map(|rule| rule_name(&rule)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Session { rules: names })
}

/// lifelib's session: the rules it serves.
#[pyclass(module = "golab", frozen)]
pub struct Session {
    /// The rules, by lifelib's names.
    #[pyo3(get)]
    rules: Vec<String>,
}

#[pymethods]
impl Session {
    /// A lifetree collecting garbage at `memory` MiB; `n_layers` is lifelib's layer count
    /// (one layer writes RLE with `b`/`o`, more with `.`/`A`, as lifelib).
    #[pyo3(signature = (memory=1000, n_layers=None))]
    fn lifetree(&self, memory: u64, n_layers: Option<u32>) -> Lifetree {
        Lifetree {
            tree: Tree::new(Some(memory)),
            rules: self.rules.clone(),
            n_layers: n_layers.unwrap_or(4),
        }
    }

    fn __repr__(&self) -> String {
        format!("<golab Session for rules {:?}>", self.rules)
    }
}

/// lifelib's lifetree: where patterns live.
#[pyclass(module = "golab", frozen)]
pub struct Lifetree {
    pub(crate) tree: Arc<Tree>,
    rules: Vec<String>,
    /// lifelib's number of layers.
    #[pyo3(get)]
    pub(crate) n_layers: u32,
}

/// The cells of a parsed pattern file, its box's top-left at `at`.
fn cells_of(p: &pat::Pattern, at: (i128, i128)) -> Vec<Cell> {
    let mut cells: Vec<Cell> = p
        .cells
        .iter()
        .map(|&(x, y)| (at.0 + i128::from(x), at.1 + i128::from(y), 1))
        .collect();
    cells.extend(
        p.dying
            .iter()
            .map(|&(x, y, s)| (at.0 + i128::from(x), at.1 + i128::from(y), s)),
    );
    crate::cells::sorted(cells)
}

/// Where a parsed file's box goes: macrocell keeps its position (its root is centred on
/// the origin, as in lifelib), other formats start at the origin as lifelib reads RLE.
fn placement(p: &pat::Pattern, format: Format) -> (i128, i128) {
    match (format, p.position) {
        (Format::Macrocell, Some((x, y))) => (x.into(), y.into()),
        _ => (0, 0),
    }
}

impl Lifetree {
    /// The session's rule for headerless text, or `rule` checked against the session.
    fn session_rule(&self, rule: Option<&str>) -> PyResult<Rule> {
        let name = match rule {
            Some(r) => r.to_string(),
            None if self.rules.len() == 1 => self.rules[0].clone(),
            None => {
                return Err(PyTypeError::new_err(
                    "For headerless RLE, rule must be specified unless session has a unique rule",
                ));
            }
        };
        let parsed = parse_rule(&name)?;
        let canonical = rule_name(&parsed);
        let plain = canonical.strip_suffix("history").unwrap_or(&canonical);
        if !self.rules.iter().any(|r| r == plain || r == &canonical) {
            return Err(value_error(format!(
                "Rule {canonical} is not in the configured rules {:?} for this session",
                self.rules
            )));
        }
        Ok(parsed)
    }

    /// A pattern of `rule` holding `cells`.
    pub fn make(slf: &Bound<'_, Lifetree>, rule: Rule, cells: &[Cell]) -> PyResult<Pattern> {
        let py = slf.py();
        let kept = slf.get().tree.with(py, |w| w.build(rule, cells))?;
        Ok(Pattern::new(slf.clone().unbind(), rule, kept))
    }

    /// Parse `text` (a file's contents, headerless RLE or an apgcode) into cells and rule.
    fn parse(&self, text: &str, rule: Option<&str>) -> PyResult<(Rule, Vec<Cell>, bool)> {
        if text.contains('=') || text.contains('[') {
            let p = pat::parse(text, None).map_err(|e| value_error(e.to_string()))?;
            let format = pat::detect_format(text).unwrap_or(Format::Rle);
            let rule = match (rule, p.rule) {
                (Some(r), _) => parse_rule(r)?,
                (None, Some(r)) => r,
                (None, None) => Rule::CONWAY,
            };
            return Ok((rule, cells_of(&p, placement(&p, format)), false));
        }
        let rule = self.session_rule(rule)?;
        let code = text.contains('_') && !text.contains('!');
        if code {
            if !text.starts_with('x') {
                return Err(value_error(
                    "Only apgcodes beginning with 'x' contain sufficient information to reconstruct the pattern.",
                ));
            }
            let p = pat::apgcode::parse_code(text).map_err(|e| value_error(e.to_string()))?;
            return Ok((rule, cells_of(&p, (0, 0)), true));
        }
        if text.trim().is_empty() {
            return Ok((rule, Vec::new(), false));
        }
        let headed = format!("x = 0, y = 0, rule = {}\n{text}", rule.canonical());
        let p = pat::parse(&headed, Some(Format::Rle)).map_err(|e| value_error(e.to_string()))?;
        Ok((rule, cells_of(&p, (0, 0)), false))
    }
}

#[pymethods]
impl Lifetree {
    /// lifelib's `lt.pattern(rle="", rule=None, ...)`: a pattern from RLE (with or without
    /// a header), macrocell, or an apgcode (checked against its period and population
    /// unless `verify_apgcode` is false; `"canonical"` also wants the canonical code).
    #[pyo3(signature = (rle="", rule=None, tempfile="tempfile", verify_apgcode=None))]
    fn pattern(
        slf: &Bound<'_, Lifetree>,
        rle: &str,
        rule: Option<&str>,
        tempfile: &str,
        verify_apgcode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Pattern> {
        let _ = tempfile;
        let (rule, cells, code) = slf.get().parse(rle, rule)?;
        let made = Lifetree::make(slf, rule, &cells)?;
        let verify = match verify_apgcode {
            None => Some(false),
            Some(v) if v.extract::<String>().ok().as_deref() == Some("canonical") => Some(true),
            Some(v) => v.is_truthy()?.then_some(false),
        };
        if let (true, Some(canonical)) = (code && !rle.starts_with("xg"), verify) {
            made.verify_code(slf.py(), rle, canonical)?;
        }
        Ok(made)
    }

    /// lifelib's `lt.hashsoup(rule, symmetry, seed)`: the soup apgsearch runs for `seed`
    /// (`k_abc12345`) under `symmetry`, at apgsearch's coordinates.
    fn hashsoup(
        slf: &Bound<'_, Lifetree>,
        rule: &str,
        symmetry: &str,
        seed: &str,
    ) -> PyResult<Pattern> {
        let rule = parse_rule(rule)?;
        let sym: Symmetry = symmetry.parse().map_err(value_error)?;
        let cells: Vec<Cell> = hashsoup(seed, sym)
            .cells()
            .into_iter()
            .map(|(x, y)| (i128::from(x), i128::from(y), 1))
            .collect();
        Lifetree::make(slf, rule, &crate::cells::sorted(cells))
    }

    /// lifelib's `lt.load(filename)`: a pattern file in any format golab reads (`.gz`
    /// included), under the rule it names.
    #[pyo3(signature = (filename, compressed="deduce", tempfile="tempfile"))]
    fn load(
        slf: &Bound<'_, Lifetree>,
        filename: PathBuf,
        compressed: &str,
        tempfile: &str,
    ) -> PyResult<Pattern> {
        let _ = (compressed, tempfile);
        if !filename.is_file() {
            return Err(PyOSError::new_err(format!(
                "{} does not exist or is not a regular file",
                filename.display()
            )));
        }
        let file = pat::read_text(&filename).map_err(|e| value_error(e.to_string()))?;
        let p = file
            .parse(file.format)
            .map_err(|e| value_error(e.to_string()))?;
        let rule = p.rule.unwrap_or(Rule::CONWAY);
        let made = Lifetree::make(
            slf,
            rule,
            &cells_of(&p, placement(&p, file.format.unwrap_or(Format::Rle))),
        )?;
        Ok(made.with_comments(p.comments.clone()))
    }

    fn __repr__(&self) -> String {
        format!("<golab Lifetree for rules {:?}>", self.rules)
    }
}
