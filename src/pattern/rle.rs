//! The RLE reader (the writer is in `rle_write.rs`).
//!
//! Layout: `#` lines (`#N` name, `#O` author, `#C`/`#c` comments, Golly's `#CXRLE Pos=X,Y
//! Gen=G`, others ignored), a header `x = W, y = H[, rule = R]` where the rule may carry a
//! bounded-grid suffix (`:T72,48`, `:P100,80`), then a body of runs: an optional count
//! followed by `b` or `.` (dead), `o` (alive), a multi-state cell (`A`–`X`, or `p`–`y` then
//! `A`–`X`: states 1–255) or `$` (end of row), whitespace allowed between tokens, ended by `!`
//! (anything after it is ignored; a missing `!` is accepted). With the `LifeHistory` rule the
//! on-states 1, 3 and 5 are live B3/S23 cells and the others dead, counted in a warning; any
//! other rule is two-state, where a state above 1 is an error. Errors name the line and column
//! of the offending character; an error about a run points at the run's first character.

use super::rule_text::parse_rule;
use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError, syntax};

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
fn comment_line(
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
    let (width, height, history) = parse_header(header.0, header.1, &mut pattern)?;
    pattern.width = width;
    pattern.height = height;
    let mut body = Body {
        width: u64::from(width),
        height: u64::from(height),
        x: 0,
        y: 0,
        run: None,
        cells: Vec::new(),
        history,
        other_states: 0,
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
    if body.other_states > 0 {
        pattern.warnings.push(format!(
            "LifeHistory: {} cell{} in states other than 1, 3 and 5 (history, marked-off or              boundary cells) were read as dead; the live cells run as B3/S23",
            body.other_states,
            if body.other_states == 1 { "" } else { "s" }
        ));
    }
    Ok(pattern)
}

/// 1-based character column of byte offset `at` in `line`.
fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(0, |s| s.chars().count()) + 1
}

/// Parse the header line into (width, height, LifeHistory?), setting the pattern's rule and
/// bounded grid.
fn parse_header(
    line_no: usize,
    line: &str,
    pattern: &mut Pattern,
) -> Result<(u32, u32, bool), PatternError> {
    let start = line.len() - line.trim_start().len();
    if !line.trim_start().starts_with(['x', 'X']) {
        return Err(syntax(
            line_no,
            column(line, start),
            "missing RLE header: expected 'x = WIDTH, y = HEIGHT' before the pattern body",
        ));
    }
    let (mut width, mut height, mut history) = (None, None, false);
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
                history = spec.history;
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
        history,
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
        Ok(value) if digits.len() <= 6 && value <= MAX_PATTERN_EDGE => Ok(value),
        _ => Err(PatternError::TooLarge {
            what: format!("declared {what} = {}", excerpt(digits)),
            limit: u64::from(MAX_PATTERN_EDGE),
        }),
    }
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
    /// LifeHistory: states 1, 3, 5 live, the others dead and counted.
    history: bool,
    /// Cells of a LifeHistory dead state above 0 read as dead.
    other_states: u64,
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
        let live = if self.history {
            matches!(state, 1 | 3 | 5)
        } else if state == 1 {
            true
        } else {
            let message = format!(
                "cell state {state} in a two-state rule (only LifeHistory's states are read; \
                 other multi-state rules are not supported)"
            );
            return Err(syntax(line, column, message));
        };
        if live {
            self.live(n, line, column)
        } else {
            self.other_states = self.other_states.saturating_add(n);
            self.x = self.x.saturating_add(n);
            Ok(())
        }
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
        if self.cells.len() as u64 + n > MAX_PATTERN_CELLS as u64 {
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
