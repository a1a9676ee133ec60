//! The Life 1.05 reader (`#Life 1.05`; golab writes Life 1.06 instead).
//!
//! After the header, `#D` lines describe the pattern, `#N` asks for Conway's rules, `#R`
//! names a rule (`#R 23/3`, survival/birth, or B/S notation), and each `#P X Y` starts a
//! block whose rows of `.` (dead) and `*` (alive) have their top-left cell at (X, Y) in
//! Golly's coordinates (`y` down). Rows before any `#P` start at (0, 0), as in Golly; a file
//! may start with `#P` and no header (WinLifeSearch's clipboard form).

use super::life106::{check_count, hash_line, set_points};
use super::{Pattern, PatternError, syntax};

/// Parse Life 1.05 text (BOM removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut points: Vec<(i64, i64)> = Vec::new();
    let (mut left, mut y) = (0i64, 0i64);
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let t = line.trim_start();
        let at = line[..line.len() - t.len()].chars().count() + 1;
        let t = t.trim_end();
        if t.is_empty() || t.starts_with("#Life") {
            continue;
        }
        if t.starts_with('#') {
            if let Some((bx, by)) = hash_line(&mut pattern, line_no, at, t)? {
                (left, y) = (bx, by);
            }
            continue;
        }
        for (i, c) in t.chars().enumerate() {
            match c {
                '.' => {}
                '*' => {
                    check_count(points.len())?;
                    let x = i64::try_from(i)
                        .ok()
                        .and_then(|i| left.checked_add(i))
                        .ok_or_else(|| {
                            syntax(line_no, at + i, "the cell's column is out of range")
                        })?;
                    points.push((x, y));
                }
                c => {
                    let message = format!(
                        "unexpected {c:?} in a Life 1.05 row: use '.' for a dead cell and '*' \
                         for a live one"
                    );
                    return Err(syntax(line_no, at + i, message));
                }
            }
        }
        y = y
            .checked_add(1)
            .ok_or_else(|| syntax(line_no, at, "the row is out of range"))?;
    }
    set_points(&mut pattern, points)?;
    Ok(pattern)
}
