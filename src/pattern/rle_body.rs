//! The RLE body, read as Golly reads it: runs of an optional count and `b` or `.` (dead),
//! `o` (alive), a multi-state cell (`A`–`X`, or `p`–`y` then `A`–`X`: states 1–255) or `$`
//! (end of row), ended by `!`. Spaces and tabs between runs are ignored; any other
//! character is ignored too, with the count before it (a warning says so), and a `p`–`y`
//! prefix without its letter is state 1, as in Golly. Refused as Golly 5 refuses them: a
//! count followed by whitespace or the end of its line, a count starting with 0, a state
//! the rule does not have. Live cells beyond the header's size are kept (the caller widens
//! the box); only golab's limits bound them.

use super::notes::Notes;
use super::rule_text::{CellRead, CellStates};
use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, PatternError, syntax};

/// A run count being read, with where it started.
struct Run {
    count: u64,
    column: usize,
}

/// Body reading state: the cursor and the cells so far.
pub(super) struct Body {
    x: u64,
    y: u64,
    /// The live and dying cells' extent: one past the largest column and row.
    pub span: (u64, u64),
    /// Live cells, row-major as read.
    pub cells: Vec<(u32, u32)>,
    /// Dying cells of a many-state rule (states 2..C-1).
    pub dying: Vec<(u32, u32, u8)>,
    /// How the rule reads multi-state cells.
    cell_states: CellStates,
}

impl Body {
    /// An empty body whose multi-state cells read as `cell_states` says.
    pub fn new(cell_states: CellStates) -> Body {
        Body {
            x: 0,
            y: 0,
            span: (0, 0),
            cells: Vec::new(),
            dying: Vec::new(),
            cell_states,
        }
    }

    /// Read one body line; `Ok(true)` once the `!` ending the pattern is seen.
    pub fn line(
        &mut self,
        line_no: usize,
        line: &str,
        notes: &mut Notes,
    ) -> Result<bool, PatternError> {
        if line.trim_start().starts_with('#') {
            return Ok(false);
        }
        let mut run: Option<Run> = None;
        let mut chars = line.chars().zip(1..).peekable();
        while let Some((c, column)) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                self.digit(&mut run, u64::from(d), line_no, column)?;
                continue;
            }
            if matches!(c, ' ' | '\t') {
                if let Some(r) = run {
                    let message = format!(
                        "whitespace after the run count {}: write the count right before its \
                         b, o, $ or state letter (Golly 5 refuses this too)",
                        r.count
                    );
                    return Err(syntax(line_no, column, message));
                }
                continue;
            }
            let (n, at) = run.take().map_or((1, column), |r| (r.count, r.column));
            match c {
                'b' | '.' => self.x = self.x.saturating_add(n),
                '$' => (self.x, self.y) = (0, self.y.saturating_add(n)),
                '!' => return Ok(true),
                'o' => self.cell_run(n, 1, line_no, at)?,
                'A'..='X' => self.cell_run(n, u32::from(c as u8 - b'A') + 1, line_no, at)?,
                'p'..='y' => {
                    let high = 24 * u32::from(c as u8 - b'o');
                    match chars.next_if(|&(d, _)| d.is_ascii_uppercase() && d <= 'X') {
                        Some((d, _)) => {
                            let state = high + u32::from(d as u8 - b'A') + 1;
                            self.cell_run(n, state, line_no, at)?;
                        }
                        None => {
                            notes.skip(
                                line_no,
                                column,
                                &format!("{c:?}"),
                                "is a multi-state prefix (p-y) without A-X after it: read as \
                                 state 1 (alive), as Golly reads it",
                            );
                            self.cell_run(n, 1, line_no, at)?;
                        }
                    }
                }
                c => notes.skip(
                    line_no,
                    column,
                    &format!("{c:?}"),
                    "is not part of an RLE body: ignored with any run count before it, as \
                     Golly ignores it",
                ),
            }
        }
        if let Some(r) = run {
            let message = format!(
                "run count {} at the end of the line: a count must be on the same line as its \
                 b, o, $ or state letter (Golly 5 refuses this too)",
                r.count
            );
            return Err(syntax(line_no, r.column, message));
        }
        Ok(false)
    }

    /// One more digit `d` of a run count at `column`.
    fn digit(
        &mut self,
        run: &mut Option<Run>,
        d: u64,
        line_no: usize,
        column: usize,
    ) -> Result<(), PatternError> {
        let Some(r) = run else {
            if d == 0 {
                let message = "a run count may not start with 0: a run count of 0 means \
                               nothing, and Golly 5 refuses a leading zero";
                return Err(syntax(line_no, column, message));
            }
            *run = Some(Run { count: d, column });
            return Ok(());
        };
        r.count = r.count * 10 + d;
        if r.count > u64::from(MAX_PATTERN_EDGE) {
            let message = format!(
                "run count is too large: patterns are at most {MAX_PATTERN_EDGE} cells on a side"
            );
            return Err(syntax(line_no, r.column, message));
        }
        Ok(())
    }

    /// A run of `n` cells in `state` (1..=255); the run starts at `line`, `column`.
    fn cell_run(
        &mut self,
        n: u64,
        state: u32,
        line: usize,
        column: usize,
    ) -> Result<(), PatternError> {
        let read = self.cell_states.read(u64::from(state));
        match read.map_err(|message| syntax(line, column, message))? {
            CellRead::Live => self.live(n, line, column),
            CellRead::Dying(state) => {
                let (x, y, before) = (self.x, self.y, self.cells.len());
                self.live(n, line, column)?;
                self.cells.truncate(before);
                self.dying
                    .extend((x as u32..(x + n) as u32).map(|cx| (cx, y as u32, state)));
                Ok(())
            }
            CellRead::Dead => {
                self.x = self.x.saturating_add(n);
                Ok(())
            }
        }
    }

    /// Add a run of `n` live cells at the cursor, within golab's edge and cell limits.
    fn live(&mut self, n: u64, line: usize, column: usize) -> Result<(), PatternError> {
        let edge = u64::from(MAX_PATTERN_EDGE);
        if self.y >= edge || self.x.saturating_add(n) > edge {
            return Err(PatternError::TooLarge {
                what: format!(
                    "live cells at line {line}, column {column} lie beyond {edge} cells from the \
                     pattern's top-left"
                ),
                limit: edge,
            });
        }
        if (self.cells.len() + self.dying.len()) as u64 + n > MAX_PATTERN_CELLS as u64 {
            return Err(PatternError::TooLarge {
                what: format!("more than {MAX_PATTERN_CELLS} live cells"),
                limit: MAX_PATTERN_CELLS as u64,
            });
        }
        // Both fit in u32: they are at most MAX_PATTERN_EDGE.
        let (x, y) = (self.x as u32, self.y as u32);
        self.cells.extend((x..x + n as u32).map(|cx| (cx, y)));
        self.x += n;
        self.span = (self.span.0.max(self.x), self.span.1.max(self.y + 1));
        Ok(())
    }
}
