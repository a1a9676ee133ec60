//! The plaintext (`.cells`) reader, as lenient as Golly's (the writer is in
//! `plaintext_write.rs`).
//!
//! Lines starting with `!` are comments (`!Name:`, `!Author:` and `!Rule:` set the
//! metadata; a `!Rule:` golab cannot read is skipped with a warning, as Golly ignores every
//! `!` line); every other line is a row. Golly reads two kinds of file, told by the first
//! line that is not blank:
//!
//! - a `.cells` file, whose first line is a `!` comment: `.` dead, `O` alive, a number
//!   before either repeats it (`3O`, David Bell's form). golab reads `*` as alive too, where
//!   Golly ignores it; any other character is ignored without taking a cell's place, as in
//!   Golly. Both with a warning.
//! - a picture of text, with no `!` first line: `.` dead, `O` and `*` alive, and as Golly
//!   reads it (with a warning) `,`, whitespace and characters beyond ASCII dead, `$` ten dead
//!   cells, any other character alive.
//!
//! Trailing whitespace is ignored, shorter rows are padded with dead cells, the width is the
//! longest row. Blank lines before the first row and after the last are not rows; blank
//! lines between rows are dead rows.

use super::notes::Notes;
use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError};
use crate::rule::Rule;

/// `text` without `prefix`, ASCII case-insensitively.
pub(super) fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
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
/// trimmed; an empty `!Rule:` sets no rule, one golab cannot read is noted and skipped.
fn comment_line(
    pattern: &mut Pattern,
    tags: &mut Tags,
    notes: &mut Notes,
    line_no: usize,
    rest: &str,
) {
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
            return;
        }
        // Column: '!' + "Rule:" + the leading spaces of the value, 1-based.
        let spaces = |t: &str| t[..t.len() - t.trim_start().len()].chars().count();
        let column = 1 + spaces(full) + "Rule:".len() + spaces(rule) + 1;
        match rule.parse::<Rule>() {
            Ok(parsed) => pattern.rule = Some(parsed),
            Err(e) => notes.at(
                line_no,
                column,
                format!("!Rule: skipped, as Golly skips every '!' line: {e}"),
            ),
        }
    } else if !rest.trim().is_empty() {
        pattern.comments.push(rest.trim().to_string());
    }
}

/// The rows read so far: their live cells and extent.
struct Rows<'a> {
    cells: &'a mut Vec<(u32, u32)>,
    notes: &'a mut Notes,
    /// This row's index (at most MAX_PATTERN_EDGE - 1 while cells are placed).
    y: u32,
    line_no: usize,
    /// The cursor: cells so far in this row.
    x: u64,
}

impl Rows<'_> {
    /// Move the cursor `n` cells, live or dead, within golab's edge and cell limits.
    fn put(&mut self, n: u64, alive: bool) -> Result<(), PatternError> {
        let edge = u64::from(MAX_PATTERN_EDGE);
        if self.x.saturating_add(n) > edge {
            return Err(PatternError::TooLarge {
                what: format!(
                    "row {} on line {} is over {edge} cells wide",
                    u64::from(self.y) + 1,
                    self.line_no
                ),
                limit: edge,
            });
        }
        if alive {
            if self.cells.len() as u64 + n > MAX_PATTERN_CELLS as u64 {
                return Err(PatternError::TooLarge {
                    what: format!("more than {MAX_PATTERN_CELLS} live cells"),
                    limit: MAX_PATTERN_CELLS as u64,
                });
            }
            // x + n is at most MAX_PATTERN_EDGE (checked above), so it fits in u32.
            let (x, y) = (self.x as u32, self.y);
            self.cells.extend((x..x + n as u32).map(|cx| (cx, y)));
        }
        self.x += n;
        Ok(())
    }

    /// A row of a `.cells` file (first line `!`), as Golly reads it.
    fn cells_row(&mut self, row: &str) -> Result<(), PatternError> {
        let mut run: Option<(u64, usize)> = None;
        for (c, column) in row.chars().zip(1..) {
            if let Some(d) = c.to_digit(10) {
                let (count, _) = run.get_or_insert((0, column));
                *count = (*count * 10 + u64::from(d)).min(u64::from(MAX_PATTERN_EDGE) + 1);
                continue;
            }
            let n = run.take().map_or(1, |(count, _)| count);
            match c {
                '.' => self.put(n, false)?,
                'O' => self.put(n, true)?,
                '*' => {
                    self.notes.skip(
                        self.line_no,
                        column,
                        "'*'",
                        "is read as a live cell (Golly reads only 'O' as alive in a .cells \
                         file and ignores '*', leaving the pattern empty or shifted)",
                    );
                    self.put(n, true)?;
                }
                c => self.notes.skip(
                    self.line_no,
                    column,
                    &format!("{c:?}"),
                    "is not a .cells cell ('.' dead, 'O' alive): ignored without taking a \
                     cell's place, with any count before it, as Golly ignores it",
                ),
            }
        }
        if let Some((count, column)) = run {
            self.notes.skip(
                self.line_no,
                column,
                &format!("'{count}'"),
                "is a count with no '.' or 'O' after it: ignored, as Golly ignores it",
            );
        }
        Ok(())
    }

    /// A row of a picture of text (no `!` first line), as Golly reads it.
    fn picture_row(&mut self, row: &str) -> Result<(), PatternError> {
        for (c, column) in row.chars().zip(1..) {
            match c {
                '.' => self.put(1, false)?,
                'O' | '*' => self.put(1, true)?,
                '$' => {
                    self.notes.skip(
                        self.line_no,
                        column,
                        "'$'",
                        "is read as ten dead cells, as Golly reads a picture of text",
                    );
                    self.put(10, false)?;
                }
                c if c == ',' || c <= ' ' || !c.is_ascii() => {
                    self.notes.skip(
                        self.line_no,
                        column,
                        &format!("{c:?}"),
                        "is read as a dead cell, as Golly reads a picture of text",
                    );
                    self.put(1, false)?;
                }
                c => {
                    self.notes.skip(
                        self.line_no,
                        column,
                        &format!("{c:?}"),
                        "is read as a live cell, as Golly reads any character of a picture \
                         of text but '.', ',', '$' and spaces",
                    );
                    self.put(1, true)?;
                }
            }
        }
        Ok(())
    }
}

/// Parse plaintext (BOM already removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut notes = Notes::default();
    let cells_file = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.starts_with('!'));
    let (mut row, mut started) = (0u64, false);
    let (mut width, mut height) = (0u64, 0u64);
    let mut tags = Tags::default();
    let mut cells = Vec::new();
    for (line, line_no) in text.lines().zip(1..) {
        if let Some(rest) = line.strip_prefix('!') {
            if started && !cells_file {
                let why = "starts a comment line within a picture of text: read as a comment \
                           (Golly reads it as live cells)";
                notes.skip(line_no, 1, "'!'", why);
            }
            comment_line(&mut pattern, &mut tags, &mut notes, line_no, rest);
            continue;
        }
        let line = line.trim_end();
        if line.is_empty() && !started {
            continue;
        }
        started = true;
        if !line.is_empty() && row >= u64::from(MAX_PATTERN_EDGE) {
            return Err(PatternError::TooLarge {
                what: format!("more than {MAX_PATTERN_EDGE} rows"),
                limit: u64::from(MAX_PATTERN_EDGE),
            });
        }
        let mut rows = Rows {
            cells: &mut cells,
            notes: &mut notes,
            y: row as u32, // below MAX_PATTERN_EDGE when the line holds cells (checked above)
            line_no,
            x: 0,
        };
        if cells_file {
            rows.cells_row(line)?;
        } else {
            rows.picture_row(line)?;
        }
        let len = rows.x;
        row += 1;
        if len > 0 {
            height = row;
            width = width.max(len);
        }
    }
    // Both at most MAX_PATTERN_EDGE (checked while reading).
    pattern.width = width as u32;
    pattern.height = height as u32;
    pattern.cells = cells;
    pattern.warnings = notes.into_warnings();
    Ok(pattern)
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
        assert!(p.warnings.is_empty());
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

    #[test]
    fn cells_files_read_counts_star_and_skip_the_rest() {
        let p = parse("!Name: g\n2.O\n.xO # note\n3*\n").unwrap();
        assert_eq!(p.cells, [(2, 0), (1, 1), (0, 2), (1, 2), (2, 2)]);
        assert_eq!(p.warnings.len(), 2, "{:?}", p.warnings);
        assert!(
            p.warnings[0].starts_with("line 3, column 2: 'x'"),
            "{:?}",
            p.warnings
        );
        assert!(
            p.warnings[1].starts_with("line 4, column 2: '*'"),
            "{:?}",
            p.warnings
        );
        // A !Rule: golab cannot read is skipped, at its column.
        let q = parse("!Rule:  B9\nO").unwrap();
        assert_eq!(q.rule, None);
        assert!(
            q.warnings[0].starts_with("line 1, column 9:"),
            "{:?}",
            q.warnings
        );
    }

    #[test]
    fn pictures_of_text_read_as_golly_reads_them() {
        let p = parse("X.x\n,$o\n").unwrap();
        assert_eq!(p.cells, [(0, 0), (2, 0), (11, 1)]);
        assert_eq!((p.width, p.height), (12, 2));
        assert_eq!(p.warnings.len(), 3, "{:?}", p.warnings);
    }
}
