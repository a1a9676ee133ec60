//! The Life 1.05 and 1.06 reader: one for both, as in Golly, so their lines may mix (golab
//! writes Life 1.06, see `life106.rs`).
//!
//! After the `#Life 1.05` or `#Life 1.06` header, `#D` lines describe the pattern, `#N`
//! asks for Conway's rules, `#R` names a rule (`#R 23/3`, survival/birth, or B/S notation),
//! each `#P X Y` starts a block whose rows of `.` (dead) and `*` (alive) have their top-left
//! cell at (X, Y) in Golly's coordinates (`y` down), and an `X Y` line is one live cell. Rows
//! before any `#P` start at (0, 0), as in Golly; a file may start with `#P` and no header
//! (WinLifeSearch's clipboard form).
//!
//! As Golly reads them, with a warning: text after a cell's two numbers is ignored, a row's
//! characters other than `*` are dead, and any other line is skipped. Where Golly makes
//! nothing of a file, golab reads what it means, also with a warning: `O` in a row is alive
//! (Golly: dead), and `X Y` lines with no header are cells (Golly reads them as a picture of
//! text). Refused: a rule golab cannot read, and golab's limits.

use super::life106::{check_count, hash_line, set_points, two_numbers};
use super::notes::Notes;
use super::{Pattern, PatternError, syntax};

/// Parse Life 1.05 or 1.06 text (BOM removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut notes = Notes::default();
    let mut points: Vec<(i64, i64)> = Vec::new();
    let (mut left, mut y) = (0i64, 0i64);
    // Golly reads `X Y` lines only below a `#Life` or `#P` first line.
    let headed = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with("#Li") || l.starts_with("#P"));
    let mut cells_headerless = false;
    for (line, line_no) in text.lines().zip(1..) {
        let t = line.trim_start();
        let at = line[..line.len() - t.len()].chars().count() + 1;
        let t = t.trim_end();
        match t.chars().next() {
            None => {}
            Some('#') if t.starts_with("#Life") => {}
            Some('#') => {
                if let Some((bx, by)) = hash_line(&mut pattern, &mut notes, line_no, at, t)? {
                    (left, y) = (bx, by);
                }
            }
            Some('-' | '0'..='9') => match two_numbers(t) {
                Some((x, cy, rest)) => {
                    check_count(points.len())?;
                    points.push((x, cy));
                    if !rest.is_empty() {
                        let why = "after a cell's two numbers: ignored, as Golly ignores it";
                        notes.skip(line_no, at, &format!("'{rest}'"), why);
                    }
                    if !headed && !cells_headerless {
                        cells_headerless = true;
                        notes.line(
                            line_no,
                            "'X Y' cells with no #Life 1.06 header: read as Life 1.06 (Golly \
                             reads such a file as a picture of text)",
                        );
                    }
                }
                None => {
                    let why = "is not an 'X Y' cell (two whole numbers): skipped (Golly reads \
                               what numbers it can)";
                    notes.skip(line_no, at, &format!("'{t}'"), why);
                }
            },
            Some('.' | '*' | 'O') => {
                row(&mut points, &mut notes, (line_no, at), t, (left, y))?;
                y = y
                    .checked_add(1)
                    .ok_or_else(|| syntax(line_no, at, "the row is out of range"))?;
            }
            Some(_) => {
                let why = "starts a line that is neither a row, an 'X Y' cell nor a # line: \
                           skipped, as Golly skips it";
                let first = t.chars().next().unwrap_or_default();
                notes.skip(line_no, at, &format!("{first:?}"), why);
            }
        }
    }
    set_points(&mut pattern, points)?;
    pattern.warnings = notes.into_warnings();
    Ok(pattern)
}

/// A row of cells starting at (`left`, `y`); the row's text `t` starts at (`line_no`, `at`).
fn row(
    points: &mut Vec<(i64, i64)>,
    notes: &mut Notes,
    (line_no, at): (usize, usize),
    t: &str,
    (left, y): (i64, i64),
) -> Result<(), PatternError> {
    for (i, c) in t.chars().enumerate() {
        let alive = match c {
            '.' => false,
            '*' => true,
            'O' => {
                let why = "is read as a live cell (Golly reads only '*' as alive in Life 1.05)";
                notes.skip(line_no, at + i, "'O'", why);
                true
            }
            c => {
                let why = "is read as a dead cell, as Golly reads any character of a row but '*'";
                notes.skip(line_no, at + i, &format!("{c:?}"), why);
                false
            }
        };
        if alive {
            check_count(points.len())?;
            let x = i64::try_from(i)
                .ok()
                .and_then(|i| left.checked_add(i))
                .ok_or_else(|| syntax(line_no, at + i, "the cell's column is out of range"))?;
            points.push((x, y));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_cells_mix_and_odd_lines_are_skipped() {
        let p = parse("#Life 1.05\n#P 0 0\n*.O\n5 5 extra\n7\nhello\n").unwrap();
        assert_eq!(p.position, Some((0, 0)));
        assert_eq!(p.cells, [(0, 0), (2, 0), (5, 5)]);
        assert_eq!(p.warnings.len(), 4, "{:?}", p.warnings);
        assert!(
            p.warnings[0].starts_with("line 3, column 3: 'O'"),
            "{:?}",
            p.warnings
        );
    }

    #[test]
    fn headerless_cells_are_read_with_a_warning() {
        let p = parse("1 0\n2 1\n0 2\n1 2\n2 2\n").unwrap();
        assert_eq!((p.width, p.height, p.population()), (3, 3, 5));
        assert_eq!(p.warnings.len(), 1);
        assert!(parse("#Life 1.06\n1 0\n").unwrap().warnings.is_empty());
    }
}
