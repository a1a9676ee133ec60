//! Writing patterns to files as lifelib's `write_rle`, `write_file` and `save` do: RLE as
//! `rle_string()` gives it (between a header and a footer, comments as `#C` lines), or
//! macrocell through the hashed universe's own writer (golab's `[M2]`, which Golly and
//! lifelib read); a name ending in `.gz` is compressed.

use std::path::{Path, PathBuf};

use golab::universe::Universe;
use pyo3::prelude::*;

use crate::errors::value_error;
use crate::pattern::Pattern;

impl Pattern {
    /// Macrocell of this pattern at `path` (`.mc` or `.mc.gz`) with `comments`.
    fn write_macrocell(&self, py: Python<'_>, path: &Path, comments: Vec<String>) -> PyResult<()> {
        let meta = golab::pattern::Pattern {
            comments,
            ..Default::default()
        };
        let (rule, kept) = (self.rule, self.kept.as_ref().expect("kept"));
        let path = path.to_path_buf();
        self.owner
            .get()
            .tree
            .with(py, move |w| w.at(rule, kept, |u| u.save(&path, &meta)))?;
        Ok(())
    }
}

/// `path` with the extension `.mc` (and `.gz` when compressed) when it lacks it; the
/// universe's writer picks the format from the name.
fn macrocell_path(path: &Path, compressed: bool) -> PathBuf {
    let name = path.to_string_lossy();
    let base = name.strip_suffix(".gz").unwrap_or(&name);
    let mut named = if base.ends_with(".mc") {
        base.to_string()
    } else {
        format!("{base}.mc")
    };
    if compressed {
        named.push_str(".gz");
    }
    PathBuf::from(named)
}

#[pymethods]
impl Pattern {
    /// Write RLE (or macrocell when `file_format` ends in `mc`) to `filename`: `header`,
    /// the comments as `#C` lines, the pattern, `footer`.
    #[pyo3(signature = (filename, header=None, footer=None, comments=None, file_format="rle", save_comments=true))]
    #[allow(clippy::too_many_arguments)]
    fn write_rle(
        &self,
        py: Python<'_>,
        filename: PathBuf,
        header: Option<String>,
        footer: Option<String>,
        comments: Option<Bound<'_, PyAny>>,
        file_format: &str,
        save_comments: bool,
    ) -> PyResult<()> {
        let lines: Vec<String> = match (&comments, save_comments) {
            (_, false) => Vec::new(),
            (None, true) => self.comments.clone(),
            (Some(c), true) => match c.extract::<String>() {
                Ok(text) => text.lines().map(str::to_string).collect(),
                Err(_) => c.extract()?,
            },
        };
        let compressed = filename.to_string_lossy().ends_with(".gz");
        if file_format.to_lowercase().ends_with("mc") {
            let path = if filename.to_string_lossy().contains(".mc") {
                filename
            } else {
                macrocell_path(&filename, compressed)
            };
            return self.write_macrocell(py, &path, lines);
        }
        let mut text = header.unwrap_or_default();
        for line in lines {
            let line = if line.starts_with("#C ") {
                line
            } else {
                format!("#C {line}")
            };
            text.push_str(&line);
            text.push('\n');
        }
        text.push_str(&self.rle_text(py)?);
        text.push_str(&footer.unwrap_or_default());
        text.push('\n');
        golab::pattern::write_text(&text, &filename).map_err(|e| value_error(e.to_string()))
    }

    /// Write `filename` in the format its name gives (`.rle`, `.mc`, either `.gz`), or
    /// `file_format`.
    #[pyo3(signature = (filename, file_format="deduce", compressed=false, tempfile="tempfile", **kwargs))]
    fn write_file(
        &self,
        py: Python<'_>,
        filename: PathBuf,
        file_format: &str,
        compressed: bool,
        tempfile: &str,
        kwargs: Option<Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<()> {
        let _ = (compressed, tempfile, kwargs);
        let name = filename.to_string_lossy().to_string();
        let format = if file_format == "deduce" {
            let base = name.strip_suffix(".gz").unwrap_or(&name);
            base[base.len().saturating_sub(3)..].to_string()
        } else {
            file_format.trim_end_matches(".gz").to_string()
        };
        self.write_rle(py, filename, None, None, None, &format, true)
    }

    /// See `write_file`.
    #[pyo3(signature = (filename, file_format="deduce", compressed=false, tempfile="tempfile", **kwargs))]
    fn save(
        &self,
        py: Python<'_>,
        filename: PathBuf,
        file_format: &str,
        compressed: bool,
        tempfile: &str,
        kwargs: Option<Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<()> {
        self.write_file(py, filename, file_format, compressed, tempfile, kwargs)
    }
}
