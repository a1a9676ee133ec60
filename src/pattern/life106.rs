//! Life 1.06 (`#Life 1.06`, one `x y` live cell per line) writer, and the parts of the Life
//! 1.05/1.06 reader (`life_read.rs`) about lines: the `#` lines, the `X Y` numbers and
//! turning a list of cells into a [`Pattern`].
//!
//! `#D` and `#C` lines are comments (`#D Name: …` and `#D Author: …` set the name and
//! author, as golab writes them; a `#C` line is always a comment), `#N` means Conway's rules (Golly reads it so), `#R` names
//! the rule (with an optional bounded-grid suffix); other `#` lines are ignored. Coordinates
//! are Golly's (`y` down); the pattern's box is the cells' bounding box and
//! [`Pattern::position`] its top-left.

use super::notes::Notes;
use super::rle_write::one_line;
use super::rule_text::parse_rule;
use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError, syntax};
use crate::rule::Rule;

/// Handle a `#` line of a Life 1.05/1.06 file (`line` trimmed of leading whitespace,
/// starting at character column `at`). Returns `Some((x, y))` for a `#P x y` block start
/// (`None` for a bare `#P`, and for one whose numbers do not read, noted: the block starts
/// where the rows already are).
pub(super) fn hash_line(
    pattern: &mut Pattern,
    notes: &mut Notes,
    line_no: usize,
    at: usize,
    line: &str,
) -> Result<Option<(i64, i64)>, PatternError> {
    let rest = &line[1..];
    let mut chars = rest.chars();
    let kind = chars.next();
    let text = chars.as_str();
    match kind {
        Some('C') => {
            let text = text.trim();
            if !text.is_empty() {
                pattern.comments.push(text.to_string());
            }
        }
        Some('D') => {
            let text = text.trim();
            if let Some(name) = text.strip_prefix("Name:") {
                pattern.name = Some(name.trim().to_string()).filter(|n| !n.is_empty());
            } else if let Some(author) = text.strip_prefix("Author:") {
                pattern.author = Some(author.trim().to_string()).filter(|a| !a.is_empty());
            } else if !text.is_empty() {
                pattern.comments.push(text.to_string());
            }
        }
        Some('N') => {
            pattern.rule = Some(Rule::CONWAY);
            let text = text.trim();
            if !text.is_empty() {
                pattern.name = Some(text.to_string());
            }
        }
        Some('R') => {
            let value = text.trim();
            let column = at + 2 + (text.chars().count() - text.trim_start().chars().count());
            let spec = parse_rule(value).map_err(|(offset, message)| {
                syntax(line_no, column + offset, format!("in #R: {message}"))
            })?;
            pattern.rule = Some(spec.rule);
            pattern.grid = spec.grid;
        }
        // A bare `#P`, as Golly writes some files, keeps the position where it is.
        Some('P') if text.trim().is_empty() => {}
        Some('P') => match two_numbers(text) {
            Some((x, y, _)) => return Ok(Some((x, y))),
            None => notes.at(
                line_no,
                at,
                "#P needs 'X Y' (two whole numbers): read as a bare #P, the block starting \
                 below the last, as Golly reads what it can",
            ),
        },
        _ => {}
    }
    Ok(None)
}

/// The two whitespace-separated whole numbers `text` starts with, and what follows them.
pub(super) fn two_numbers(text: &str) -> Option<(i64, i64, &str)> {
    let mut rest = text;
    let mut values = [0i64; 2];
    for value in &mut values {
        let t = rest.trim_start_matches([' ', '\t']);
        let end = t.find([' ', '\t']).unwrap_or(t.len());
        *value = t[..end].parse().ok()?;
        rest = &t[end..];
    }
    Some((values[0], values[1], rest.trim()))
}

/// Set `pattern`'s box, cells and position from absolute cell coordinates (duplicates
/// allowed), refusing a bounding box over [`MAX_PATTERN_EDGE`] with the size it needs.
pub(super) fn set_points(
    pattern: &mut Pattern,
    mut points: Vec<(i64, i64)>,
) -> Result<(), PatternError> {
    if points.is_empty() {
        return Ok(());
    }
    let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    for &(x, y) in &points {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let width = i128::from(x1) - i128::from(x0) + 1;
    let height = i128::from(y1) - i128::from(y0) + 1;
    check_box(width, height)?;
    points.sort_unstable_by_key(|&(x, y)| (y, x));
    points.dedup();
    pattern.cells = points
        .into_iter()
        .map(|(x, y)| ((x - x0) as u32, (y - y0) as u32))
        .collect();
    (pattern.width, pattern.height) = (width as u32, height as u32);
    pattern.position = Some((x0, y0));
    Ok(())
}

/// Refuse a bounding box golab cannot hold, naming what it needs and the largest it holds.
pub(super) fn check_box(width: i128, height: i128) -> Result<(), PatternError> {
    let limit = i128::from(MAX_PATTERN_EDGE);
    if width > limit || height > limit {
        return Err(PatternError::TooLarge {
            what: format!(
                "the pattern needs a {width}x{height} box; the largest golab holds is \
                 {MAX_PATTERN_EDGE}x{MAX_PATTERN_EDGE}"
            ),
            limit: u64::from(MAX_PATTERN_EDGE),
        });
    }
    Ok(())
}

/// Refuse one more cell beyond [`MAX_PATTERN_CELLS`].
pub(super) fn check_count(count: usize) -> Result<(), PatternError> {
    if count >= MAX_PATTERN_CELLS {
        return Err(PatternError::TooLarge {
            what: format!("more than {MAX_PATTERN_CELLS} live cells"),
            limit: MAX_PATTERN_CELLS as u64,
        });
    }
    Ok(())
}

impl Pattern {
    /// Life 1.06 text: the `#Life 1.06` header, `#D Name:`/`#D Author:`/`#D` comment lines,
    /// `#R` with the rule (and bounded grid) when the pattern has one, then one `x y` line per
    /// live cell in Golly's coordinates ([`Pattern::origin`] plus the cell's place in the box).
    pub fn to_life106(&self) -> String {
        let cells = self.clean_cells();
        let mut out = String::from("#Life 1.06\n");
        for (tag, text) in [("Name", &self.name), ("Author", &self.author)] {
            let text = one_line(text.as_deref().unwrap_or_default());
            if !text.is_empty() {
                out.push_str(&format!("#D {tag}: {text}\n"));
            }
        }
        for line in self
            .comments
            .iter()
            .flat_map(|c| c.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            // A comment that reads like a tag goes on a #C line, which is never a tag.
            let tag = if line.starts_with("Name:") || line.starts_with("Author:") {
                "#C"
            } else {
                "#D"
            };
            out.push_str(&format!("{tag} {line}\n"));
        }
        if self.rule.is_some() || self.grid.is_some() {
            let rule = self.rule.unwrap_or_default();
            let suffix = self.grid.map(|g| g.suffix()).unwrap_or_default();
            out.push_str(&format!("#R {rule}{suffix}\n"));
        }
        let (ox, oy) = self.origin();
        for &(x, y) in cells.iter() {
            let (x, y) = (
                i128::from(ox) + i128::from(x),
                i128::from(oy) + i128::from(y),
            );
            out.push_str(&format!("{x} {y}\n"));
        }
        out
    }
}
