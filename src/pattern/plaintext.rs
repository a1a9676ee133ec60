//! The plaintext (`.cells`) reader and writer.
//!
//! Lines starting with `!` are comments (`!Name:`, `!Author:` and `!Rule:` set the metadata);
//! every other line is a row: `.` dead, `O` or `*` alive, trailing whitespace ignored,
//! shorter rows padded with dead cells. The width is the longest row. Blank lines before the
//! first row and after the last are not rows; blank lines between rows are dead rows.

use super::rle_write::one_line;
use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError, syntax};
use crate::rule::Rule;

/// `text` without `prefix`, ASCII case-insensitively.
fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| text.get(prefix.len()..))
        .flatten()
}

/// Which metadata tags a file has set so far: a tag's first line sets it, later lines with
/// the same tag are comments (the writer relies on that to keep a comment such as
/// `Name: of the finder` a comment, see [`Pattern::to_plaintext`]).
#[derive(Default)]
struct Tags {
    name: bool,
    author: bool,
    rule: bool,
}

/// Store a comment line's content (`rest` follows the `!` at column 1 of line `line_no`).
/// Tags are recognised after leading whitespace (`! Name: x`), as comments are stored
/// trimmed; an empty `!Rule:` sets no rule.
fn comment_line(
    pattern: &mut Pattern,
    tags: &mut Tags,
    line_no: usize,
    rest: &str,
) -> Result<(), PatternError> {
    let full = rest;
    let rest = rest.trim_start();
    let tag = |seen: bool, name: &str| {
        if seen {
            None
        } else {
            strip_prefix_ci(rest, name)
        }
    };
    if let Some(name) = tag(tags.name, "Name:") {
        tags.name = true;
        pattern.name = Some(name.trim().to_string()).filter(|n| !n.is_empty());
    } else if let Some(author) = tag(tags.author, "Author:") {
        tags.author = true;
        pattern.author = Some(author.trim().to_string()).filter(|a| !a.is_empty());
    } else if let Some(rule) = tag(tags.rule, "Rule:") {
        tags.rule = true;
        if rule.trim().is_empty() {
            return Ok(());
        }
        // Column: '!' + "Rule:" + the leading spaces of the value, 1-based.
        let spaces = |t: &str| t[..t.len() - t.trim_start().len()].chars().count();
        let column = 1 + spaces(full) + "Rule:".len() + spaces(rule) + 1;
        let parsed = rule
            .parse::<Rule>()
            .map_err(|e| syntax(line_no, column, e.to_string()))?;
        pattern.rule = Some(parsed);
    } else if !rest.trim().is_empty() {
        pattern.comments.push(rest.trim().to_string());
    }
    Ok(())
}

/// Parse plaintext (BOM already removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut row: u64 = 0;
    let mut started = false;
    let (mut width, mut height) = (0u64, 0u64);
    let mut tags = Tags::default();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        if let Some(rest) = line.strip_prefix('!') {
            comment_line(&mut pattern, &mut tags, line_no, rest)?;
            continue;
        }
        let cells = line.trim_end();
        if cells.is_empty() && !started {
            continue;
        }
        started = true;
        if !cells.is_empty() && row >= u64::from(MAX_PATTERN_EDGE) {
            return Err(PatternError::TooLarge {
                what: format!("more than {MAX_PATTERN_EDGE} rows"),
                limit: u64::from(MAX_PATTERN_EDGE),
            });
        }
        let mut len = 0u64;
        for (i, c) in cells.chars().enumerate() {
            if len >= u64::from(MAX_PATTERN_EDGE) {
                return Err(PatternError::TooLarge {
                    what: format!(
                        "row {} on line {line_no} is over {MAX_PATTERN_EDGE} cells wide",
                        row + 1
                    ),
                    limit: u64::from(MAX_PATTERN_EDGE),
                });
            }
            match c {
                '.' => {}
                'O' | '*' => {
                    if pattern.cells.len() >= MAX_PATTERN_CELLS {
                        return Err(PatternError::TooLarge {
                            what: format!("more than {MAX_PATTERN_CELLS} live cells"),
                            limit: MAX_PATTERN_CELLS as u64,
                        });
                    }
                    // Both below MAX_PATTERN_EDGE (checked above), so they fit in u32.
                    pattern.cells.push((len as u32, row as u32));
                }
                c => {
                    let message = format!(
                        "unexpected {c:?} in a plaintext row: use '.' for a dead cell and 'O' for a live one"
                    );
                    return Err(syntax(line_no, i + 1, message));
                }
            }
            len += 1;
        }
        row += 1;
        if len > 0 {
            height = row;
            width = width.max(len);
        }
    }
    // Both at most MAX_PATTERN_EDGE (checked while reading).
    pattern.width = width as u32;
    pattern.height = height as u32;
    Ok(pattern)
}

impl Pattern {
    /// Plaintext (`.cells`) text: `!Name:`/`!Author:`/`!Rule:` and `!` comment lines, then
    /// every row in full (`.` dead, `O` alive), so the box size survives a round trip.
    pub fn to_plaintext(&self) -> String {
        let (pattern, cells) = (self, &*self.clean_cells());
        let mut out = String::new();
        // A comment that starts like a tag stays a comment if the tag comes first, even
        // empty: the reader takes only a tag's first line.
        let looks_tagged = |tag: &str| {
            pattern
                .comments
                .iter()
                .flat_map(|c| c.lines())
                .any(|l| strip_prefix_ci(l.trim(), tag).is_some())
        };
        for (tag, text) in [("Name", &pattern.name), ("Author", &pattern.author)] {
            let text = one_line(text.as_deref().unwrap_or_default());
            if !text.is_empty() {
                out.push_str(&format!("!{tag}: {text}\n"));
            } else if looks_tagged(&format!("{tag}:")) {
                out.push_str(&format!("!{tag}:\n"));
            }
        }
        if let Some(rule) = pattern.rule {
            out.push_str(&format!("!Rule: {rule}\n"));
        } else if looks_tagged("Rule:") {
            out.push_str("!Rule:\n");
        }
        for line in pattern
            .comments
            .iter()
            .flat_map(|c| c.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            out.push_str(&format!("!{line}\n"));
        }
        if pattern.width == 0 || pattern.height == 0 {
            if out.is_empty() {
                out.push_str("!\n"); // an empty pattern still needs some text to be a file
            }
            return out;
        }
        let mut next = cells.iter().peekable();
        out.reserve((pattern.width as usize + 1) * pattern.height as usize);
        for y in 0..pattern.height {
            for x in 0..pattern.width {
                out.push(if next.next_if(|&&c| c == (x, y)).is_some() {
                    'O'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_pad_and_blank_edges_are_not_rows() {
        let p = parse("!Name: t\n\n.O\n\nO..\n\n").unwrap();
        assert_eq!((p.width, p.height), (3, 3));
        assert_eq!(p.cells, vec![(1, 0), (0, 2)]);
        assert_eq!(p.to_plaintext(), "!Name: t\n.O.\n...\nO..\n");
    }

    #[test]
    fn metadata_prefixes_are_case_insensitive() {
        let p = parse("!name: x\n!AUTHOR: y\n!rule: highlife\n!hello\nO").unwrap();
        assert_eq!(p.name.as_deref(), Some("x"));
        assert_eq!(p.author.as_deref(), Some("y"));
        assert_eq!(p.rule.map(|r| r.to_string()).as_deref(), Some("B36/S23"));
        assert_eq!(p.comments, vec!["hello".to_string()]);
        assert!(strip_prefix_ci("Nä", "Name:").is_none());
    }
}
