//! The RLE reader (the writer is in `rle_write.rs`).
//!
//! Layout: `#` lines (`#N` name, `#O` author, `#C`/`#c` comments, Golly's `#CXRLE Pos=X,Y
//! Gen=G`, others ignored), a header `x = W, y = H[, rule = R]` where the rule may carry a
//! bounded-grid suffix (`:T72,48`, `:P100,80`), then a body of runs: an optional count
//! followed by `b` or `.` (dead), `o` (alive), a multi-state cell (`A`–`X`, or `p`–`y` then
//! `A`–`X`: states 1–255) or `$` (end of row), whitespace allowed between tokens, ended by `!`
//! (anything after it is ignored; a missing `!` is accepted). Under a rule of C > 2
//! states (Generations, rule tables, LifeHistory and the other layered rules) `A` is state
//! 1 and `B`… the states 2..C-1; under a two-state rule a state above 1 is an error. Errors name the line and column
//! of the offending character; an error about a run points at the run's first character.

use super::rle_header::{comment_line, parse_header};
use super::rule_text::{CellRead, CellStates};
use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError, syntax};

/// Parse RLE text (BOM already removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut lines = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate();
    let header = loop {
        let Some((index, line)) = lines.next() else {
            let line = text.lines().count() + 1;
            return Err(syntax(
                line,
                1,
                "missing RLE header: expected 'x = WIDTH, y = HEIGHT'",
            ));
        };
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('#') {
            let at = line[..line.len() - t.len()].chars().count() + 2;
            comment_line(&mut pattern, index + 1, at, rest)?;
        } else if !t.is_empty() {
            break (index + 1, line);
        }
    };
    let (width, height, cell_states) = parse_header(header.0, header.1, &mut pattern)?;
    pattern.width = width;
    pattern.height = height;
    let mut body = Body {
        width: u64::from(width),
        height: u64::from(height),
        x: 0,
        y: 0,
        run: None,
        cells: Vec::new(),
        dying: Vec::new(),
        cell_states,
        state: None,
    };
    for (index, line) in lines {
        if body.line(index + 1, line)? {
            break;
        }
    }
    if let Some(run) = body.run {
        return Err(syntax(
            run.line,
            run.column,
            format!(
                "run count {} at the end of the pattern is not followed by b, o or $",
                run.count
            ),
        ));
    }
    if let Some((line, column, _)) = body.state {
        return Err(syntax(
            line,
            column,
            "a multi-state prefix (p-y) at the end of the pattern is not followed by A-X",
        ));
    }
    pattern.cells = body.cells;
    pattern.dying = body.dying;
    Ok(pattern)
}

/// A run count being read, with where it started.
struct Run {
    count: u64,
    line: usize,
    column: usize,
}

/// Body reading state: the cursor and the cells so far.
struct Body {
    width: u64,
    height: u64,
    x: u64,
    y: u64,
    run: Option<Run>,
    cells: Vec<(u32, u32)>,
    /// Dying cells of a Generations rule (states 2..C-1).
    dying: Vec<(u32, u32, u8)>,
    /// How the header's rule reads multi-state cells.
    cell_states: CellStates,
    /// A `p`–`y` state prefix waiting for its `A`–`X`: (line, column, 24 × its rank).
    state: Option<(usize, usize, u32)>,
}

impl Body {
    /// Read one body line; `Ok(true)` once the `!` ending the pattern is seen.
    fn line(&mut self, line_no: usize, line: &str) -> Result<bool, PatternError> {
        if line.trim_start().starts_with('#') {
            return Ok(false);
        }
        for (i, c) in line.chars().enumerate() {
            let column = i + 1;
            if let Some((l, col, high)) = self.state.take() {
                if !c.is_ascii_uppercase() || c > 'X' {
                    let message =
                        format!("a multi-state prefix (p-y) must be followed by A-X, found {c:?}");
                    return Err(syntax(l, col, message));
                }
                self.cell_run(high + u32::from(c as u8 - b'A') + 1, l, col)?;
                continue;
            }
            if let Some(d) = c.to_digit(10) {
                let run = self.run.get_or_insert(Run {
                    count: 0,
                    line: line_no,
                    column,
                });
                run.count = run.count * 10 + u64::from(d);
                if run.count > u64::from(MAX_PATTERN_EDGE) {
                    let message = format!(
                        "run count is too large: patterns are at most {MAX_PATTERN_EDGE} cells on a side"
                    );
                    return Err(syntax(run.line, run.column, message));
                }
                continue;
            }
            if c.is_whitespace() {
                continue;
            }
            let run = self.run.take();
            let (start_line, start_column) = run
                .as_ref()
                .map_or((line_no, column), |r| (r.line, r.column));
            let n = run.as_ref().map_or(1, |r| r.count);
            if n == 0 && matches!(c, 'b' | '.' | 'o' | '$') {
                // `0$` would rewind to the start of the same row and repeat its cells.
                let message = format!("a run count of 0 is not allowed before '{c}'");
                return Err(syntax(start_line, start_column, message));
            }
            match c {
                'b' | '.' => self.x = self.x.saturating_add(n),
                'o' => self.live(n, start_line, start_column)?,
                'A'..='X' => {
                    self.run = run;
                    self.cell_run(u32::from(c as u8 - b'A') + 1, line_no, column)?;
                }
                'p'..='y' => {
                    self.run = run;
                    self.state = Some((line_no, column, 24 * u32::from(c as u8 - b'o')));
                }
                '$' => (self.x, self.y) = (0, self.y.saturating_add(n)),
                '!' => {
                    if let Some(run) = run {
                        let message =
                            format!("run count {} is not followed by b, o or $", run.count);
                        return Err(syntax(run.line, run.column, message));
                    }
                    return Ok(true);
                }
                c if c.is_alphabetic() => {
                    let message = format!(
                        "unexpected '{c}' in the RLE body: cells are b or . (dead), o (alive), \
                         A-X or p-y then A-X (multi-state)"
                    );
                    return Err(syntax(line_no, column, message));
                }
                c => {
                    let message = format!(
                        "unexpected '{c}' in the RLE body (expected a run count, b, o, $ or !)"
                    );
                    return Err(syntax(line_no, column, message));
                }
            }
        }
        Ok(false)
    }

    /// A run of multi-state cells in `state` (1..=255), its count still in `self.run`; the
    /// token's letter is at `line`, `column` (the run, if any, starts earlier).
    fn cell_run(&mut self, state: u32, line: usize, column: usize) -> Result<(), PatternError> {
        let run = self.run.take();
        let (line, column) = run.as_ref().map_or((line, column), |r| (r.line, r.column));
        let n = run.as_ref().map_or(1, |r| r.count);
        if n == 0 {
            return Err(syntax(line, column, "a run count of 0 is not allowed"));
        }
        let read = self.cell_states.read(u64::from(state));
        match read.map_err(|message| syntax(line, column, message))? {
            CellRead::Live => self.live(n, line, column),
            CellRead::Dying(state) => self.dying_run(n, state, line, column),
            CellRead::Dead => {
                self.x = self.x.saturating_add(n);
                Ok(())
            }
        }
    }

    /// Add a run of `n` dying cells in `state` at the cursor (the box and limit checked as
    /// for live cells).
    fn dying_run(
        &mut self,
        n: u64,
        state: u8,
        line: usize,
        column: usize,
    ) -> Result<(), PatternError> {
        let (x, y, before) = (self.x, self.y, self.cells.len());
        self.live(n, line, column)?;
        self.cells.truncate(before);
        self.dying
            .extend((x as u32..(x + n) as u32).map(|cx| (cx, y as u32, state)));
        Ok(())
    }

    /// Add a run of `n` live cells at the cursor, checking the declared box and the limit.
    fn live(&mut self, n: u64, line: usize, column: usize) -> Result<(), PatternError> {
        if self.y >= self.height {
            let message = format!(
                "live cells in row {} are below the declared height y = {}",
                self.y.saturating_add(1),
                self.height
            );
            return Err(syntax(line, column, message));
        }
        if self.x.saturating_add(n) > self.width {
            let message = format!(
                "live cells reach column {} past the declared width x = {}",
                self.x.saturating_add(n),
                self.width
            );
            return Err(syntax(line, column, message));
        }
        if (self.cells.len() + self.dying.len()) as u64 + n > MAX_PATTERN_CELLS as u64 {
            return Err(PatternError::TooLarge {
                what: format!("more than {MAX_PATTERN_CELLS} live cells"),
                limit: MAX_PATTERN_CELLS as u64,
            });
        }
        // Both fit in u32: they are below the declared size, itself at most MAX_PATTERN_EDGE.
        let (x, y) = (self.x as u32, self.y as u32);
        self.cells.extend((x..x + n as u32).map(|cx| (cx, y)));
        self.x += n;
        Ok(())
    }
}
