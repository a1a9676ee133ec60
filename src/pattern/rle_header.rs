//! The RLE reader's lines before the body: `#` comment lines (with Golly's `#CXRLE`) and
//! the `x = W, y = H, rule = R` header.

use super::rule_text::{CellStates, parse_rule};
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
    line_no: usize,
    at: usize,
    rest: &str,
) -> Result<(), PatternError> {
    if let Some(fields) = rest.strip_prefix("CXRLE") {
        return xrle_line(pattern, line_no, at + 5, fields);
    }
    let mut chars = rest.chars();
    let kind = chars.next();
    let text = chars.as_str().trim();
    if text.is_empty() {
        return Ok(());
    }
    match kind {
        Some('N') => pattern.name = Some(text.to_string()),
        Some('O') => pattern.author = Some(text.to_string()),
        Some('C' | 'c') => pattern.comments.push(text.to_string()),
        _ => {}
    }
    Ok(())
}

/// Golly's `#CXRLE` fields (`fields` follows `#CXRLE`, whose first character after it is at
/// character column `column`): `Pos=X,Y` (the box's top-left) and `Gen=G`; others ignored.
fn xrle_line(
    pattern: &mut Pattern,
    line_no: usize,
    column: usize,
    fields: &str,
) -> Result<(), PatternError> {
    let mut at = 0;
    for word in fields.split(' ') {
        let word_column = column + fields[..at].chars().count();
        at += word.len() + 1;
        let Some((key, value)) = word.split_once('=') else {
            continue;
        };
        let value_column = word_column + key.chars().count() + 1;
        let bad = |what: &str| {
            let message = format!("#CXRLE {key}= needs {what}, found '{}'", excerpt(value));
            syntax(line_no, value_column, message)
        };
        match key {
            "Pos" => {
                let (x, y) = value.split_once(',').ok_or_else(|| bad("X,Y"))?;
                let x = x.parse::<i64>().map_err(|_| bad("X,Y whole numbers"))?;
                let y = y.parse::<i64>().map_err(|_| bad("X,Y whole numbers"))?;
                pattern.position = Some((x, y));
            }
            "Gen" => {
                let generation = value
                    .parse::<u64>()
                    .map_err(|_| bad("a generation count"))?;
                pattern.generation = Some(generation);
            }
            _ => {}
        }
    }
    Ok(())
}

/// 1-based character column of byte offset `at` in `line`.
fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(0, |s| s.chars().count()) + 1
}

/// Parse the header line into (width, height, how its multi-state cells read), setting the pattern's rule and
/// bounded grid.
pub(super) fn parse_header(
    line_no: usize,
    line: &str,
    pattern: &mut Pattern,
) -> Result<(u32, u32, CellStates), PatternError> {
    let start = line.len() - line.trim_start().len();
    if !line.trim_start().starts_with(['x', 'X']) {
        return Err(syntax(
            line_no,
            column(line, start),
            "missing RLE header: expected 'x = WIDTH, y = HEIGHT' before the pattern body",
        ));
    }
    let (mut width, mut height, mut cells) = (None, None, CellStates::default());
    let mut at = start;
    while at < line.len() {
        let rest = line.get(at..).unwrap_or_default();
        let field = rest.split(',').next().unwrap_or_default();
        let key_at = at + (field.len() - field.trim_start().len());
        let Some((key, value)) = field.split_once('=') else {
            let message = format!(
                "expected 'name = value' in the RLE header, found '{}'",
                excerpt(field.trim())
            );
            return Err(syntax(line_no, column(line, key_at), message));
        };
        let value_at = at + key.len() + 1 + (value.len() - value.trim_start().len());
        let key = key.trim().to_ascii_lowercase();
        match key.as_str() {
            "x" => {
                width = Some(dimension(
                    line_no,
                    column(line, value_at),
                    value.trim(),
                    "width x",
                )?)
            }
            "y" => {
                height = Some(dimension(
                    line_no,
                    column(line, value_at),
                    value.trim(),
                    "height y",
                )?)
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
                cells = spec.cell_states();
                break;
            }
            _ => {
                let message = format!(
                    "unknown RLE header field '{}' (expected x = WIDTH, y = HEIGHT, rule = RULE)",
                    excerpt(&key)
                );
                return Err(syntax(line_no, column(line, key_at), message));
            }
        }
        at += field.len() + 1;
    }
    let missing = |what: &str| {
        syntax(
            line_no,
            column(line, start),
            format!("the RLE header has no {what}"),
        )
    };
    Ok((
        width.ok_or_else(|| missing("x = WIDTH"))?,
        height.ok_or_else(|| missing("y = HEIGHT"))?,
        cells,
    ))
}

/// A header dimension: digits only, at most [`MAX_PATTERN_EDGE`].
fn dimension(line: usize, column: usize, text: &str, what: &str) -> Result<u32, PatternError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        let message = format!(
            "the {what} must be a whole number of cells, found '{}'",
            excerpt(text)
        );
        return Err(syntax(line, column, message));
    }
    let digits = text.trim_start_matches('0');
    match digits.parse::<u32>() {
        _ if digits.is_empty() => Ok(0),
        Ok(value) if digits.len() <= 10 && value <= MAX_PATTERN_EDGE => Ok(value),
        _ => Err(PatternError::TooLarge {
            what: format!("declared {what} = {}", excerpt(digits)),
            limit: u64::from(MAX_PATTERN_EDGE),
        }),
    }
}
