//! The RLE reader's lines before the body: `#` comment lines (with Golly's `#CXRLE` and
//! XLife's `#r`) and the `x = W, y = H, rule = R` header.
//!
//! As in Golly, only a bad rule is refused here: the header's `x` and `y` are hints (the
//! box grows to hold the cells), so a value that is not a whole number, a field golab does
//! not know or a missing `y` is skipped with a warning; so is a `#CXRLE` field it cannot
//! read. Sizes over [`MAX_PATTERN_EDGE`] stay refused, a limit against hostile files.

use super::notes::Notes;
use super::rule_text::{CellStates, RuleSpec, parse_rule};
use super::{MAX_PATTERN_EDGE, Pattern, PatternError, syntax};

/// At most 24 characters of `text`, for quoting user input in messages.
fn excerpt(text: &str) -> String {
    let mut out: String = text.chars().take(24).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Store a `#` line's content in `pattern` (`rest` is the text after the `#` at character
/// column `at` of line `line_no`).
pub(super) fn comment_line(
    pattern: &mut Pattern,
    notes: &mut Notes,
    line_no: usize,
    at: usize,
    rest: &str,
) {
    if let Some(fields) = rest.strip_prefix("CXRLE") {
        return xrle_line(pattern, notes, line_no, at + 5, fields);
    }
    let mut chars = rest.chars();
    let kind = chars.next();
    let text = chars.as_str().trim();
    if text.is_empty() {
        return;
    }
    match kind {
        Some('N') => pattern.name = Some(text.to_string()),
        Some('O') => pattern.author = Some(text.to_string()),
        Some('C' | 'c') => pattern.comments.push(text.to_string()),
        // "# text": a comment line in Golly's own files (its Info shows every '#' line).
        Some(c) if c.is_whitespace() => pattern.comments.push(text.to_string()),
        _ => {}
    }
}

/// XLife's `#r RULE` line (`rest` follows the `#r` at character column `at`): the rule,
/// its first word, refused at its column when Golly would refuse it; `None` when empty.
pub(super) fn hash_r(
    line_no: usize,
    at: usize,
    rest: &str,
) -> Result<Option<RuleSpec>, PatternError> {
    let word = rest.split_whitespace().next().unwrap_or_default();
    if word.is_empty() {
        return Ok(None);
    }
    let column = at + rest[..rest.find(word).unwrap_or(0)].chars().count();
    let spec = parse_rule(word).map_err(|(offset, message)| {
        syntax(line_no, column + offset, format!("in #r: {message}"))
    })?;
    Ok(Some(spec))
}

/// Golly's `#CXRLE` fields (`fields` follows `#CXRLE`, whose first character after it is at
/// character column `column`): `Pos=X,Y` (the box's top-left) and `Gen=G`; others ignored,
/// and so is a value that does not read (with a warning), as Golly reads them.
fn xrle_line(
    pattern: &mut Pattern,
    notes: &mut Notes,
    line_no: usize,
    column: usize,
    fields: &str,
) {
    let mut at = 0;
    for word in fields.split(' ') {
        let word_column = column + fields[..at].chars().count();
        at += word.len() + 1;
        let Some((key, value)) = word.split_once('=') else {
            continue;
        };
        let value_column = word_column + key.chars().count() + 1;
        let mut bad = |what: &str| {
            let message = format!(
                "#CXRLE {key}= needs {what}, found '{}': ignored, as Golly reads what it can",
                excerpt(value)
            );
            notes.at(line_no, value_column, message)
        };
        match key {
            "Pos" => {
                let xy = value
                    .split_once(',')
                    .and_then(|(x, y)| Some((x.parse::<i64>().ok()?, y.parse::<i64>().ok()?)));
                match xy {
                    Some(xy) => pattern.position = Some(xy),
                    None => bad("X,Y whole numbers"),
                }
            }
            "Gen" => match value.parse::<u64>() {
                Ok(generation) => pattern.generation = Some(generation),
                Err(_) => bad("a generation count"),
            },
            _ => {}
        }
    }
}

/// 1-based character column of byte offset `at` in `line`.
fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(0, |s| s.chars().count()) + 1
}

/// Whether a line (leading whitespace removed) is the header: Golly's test, an `x` then
/// whitespace or `=` (golab also takes `X`, with a warning).
pub(super) fn is_header(line: &str) -> bool {
    let mut chars = line.chars();
    matches!(chars.next(), Some('x' | 'X'))
        && chars.next().is_none_or(|c| c.is_whitespace() || c == '=')
}

/// What the header line says: the size hints it gives and the rule's cells, if it names one.
#[derive(Debug, Default)]
pub(super) struct Header {
    /// `x = W`, when it reads.
    pub width: Option<u32>,
    /// `y = H`, when it reads.
    pub height: Option<u32>,
    /// How the header's rule reads multi-state cells (`None` when it names no rule).
    pub cells: Option<CellStates>,
}

/// Parse the header line, setting the pattern's rule and bounded grid. Only a bad rule (and
/// a size over the limit) is an error; what else does not read is noted and skipped.
pub(super) fn parse_header(
    line_no: usize,
    line: &str,
    pattern: &mut Pattern,
    notes: &mut Notes,
) -> Result<Header, PatternError> {
    let start = line.len() - line.trim_start().len();
    if line[start..].starts_with('X') {
        notes.at(
            line_no,
            column(line, start),
            "the header starts with 'X': golab reads it as 'x', Golly reads a header only with \
             a lowercase 'x' (and this file as a picture of text)",
        );
    }
    let mut header = Header::default();
    // Which sizes the header names, read or not (one it names is not also "missing").
    let mut named = [false; 2];
    let mut at = start;
    while at < line.len() {
        let rest = line.get(at..).unwrap_or_default();
        let field = rest.split(',').next().unwrap_or_default();
        let key_at = at + (field.len() - field.trim_start().len());
        at += field.len() + 1;
        let Some((key, value)) = field.split_once('=') else {
            if !field.trim().is_empty() {
                let message = format!(
                    "'{}' in the RLE header is not 'name = value': ignored, as Golly ignores it",
                    excerpt(field.trim())
                );
                notes.at(line_no, column(line, key_at), message);
            }
            continue;
        };
        let value_at =
            key_at + key.trim_start().len() + 1 + (value.len() - value.trim_start().len());
        let key = key.trim().to_ascii_lowercase();
        let hint = |what| (line_no, column(line, value_at), value.trim(), what);
        match key.as_str() {
            "x" => {
                named[0] = true;
                header.width = dimension(hint("width x"), notes)?;
            }
            "y" => {
                named[1] = true;
                header.height = dimension(hint("height y"), notes)?;
            }
            "rule" => {
                // The rest of the line: some rule notations and the bounded-grid suffix
                // (`:T100,80`) contain commas.
                let text = line.get(value_at..).unwrap_or_default().trim_end();
                let spec = parse_rule(text).map_err(|(offset, message)| {
                    syntax(line_no, column(line, value_at) + offset, message)
                })?;
                pattern.rule = Some(spec.rule);
                pattern.grid = spec.grid;
                header.cells = Some(spec.cell_states());
                break;
            }
            _ => {
                let message = format!(
                    "unknown RLE header field '{}': ignored, as Golly ignores it (golab reads \
                     x = WIDTH, y = HEIGHT, rule = RULE)",
                    excerpt(&key)
                );
                notes.at(line_no, column(line, key_at), message);
            }
        }
    }
    for (named, what) in named.into_iter().zip(["x = WIDTH", "y = HEIGHT"]) {
        if !named {
            let message = format!(
                "the RLE header gives no {what}: the box is taken from the cells, as Golly \
                 takes the size as a hint only"
            );
            notes.at(line_no, column(line, start), message);
        }
    }
    Ok(header)
}

/// A header dimension at (`line`, `column`): digits only, at most [`MAX_PATTERN_EDGE`];
/// anything else is a hint that does not read, noted and skipped (`None`).
fn dimension(
    (line, column, text, what): (usize, usize, &str, &str),
    notes: &mut Notes,
) -> Result<Option<u32>, PatternError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        let message = format!(
            "the {what} is not a whole number of cells ('{}'): ignored, as the size is only a \
             hint to Golly",
            excerpt(text)
        );
        notes.at(line, column, message);
        return Ok(None);
    }
    let digits = text.trim_start_matches('0');
    match digits.parse::<u32>() {
        _ if digits.is_empty() => Ok(Some(0)),
        Ok(value) if digits.len() <= 10 && value <= MAX_PATTERN_EDGE => Ok(Some(value)),
        _ => Err(PatternError::TooLarge {
            what: format!("declared {what} = {}", excerpt(digits)),
            limit: u64::from(MAX_PATTERN_EDGE),
        }),
    }
}
