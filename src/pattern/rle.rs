//! The RLE reader and writer.
//!
//! Layout: `#` lines (`#N` name, `#O` author, `#C`/`#c` comments, others ignored), a header
//! `x = W, y = H[, rule = R]`, then a body of runs: an optional count followed by `b` or `.`
//! (dead), `o` (alive) or `$` (end of row), whitespace allowed between tokens, ended by `!`
//! (anything after it is ignored; a missing `!` is accepted). Errors name the line and column
//! of the offending character; an error about a run points at the run's first character.

use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError, syntax};
use crate::rule::Rule;

/// Longest line the writer emits, as the RLE convention asks.
const MAX_LINE: usize = 70;

/// At most 24 characters of `text`, for quoting user input in messages.
fn excerpt(text: &str) -> String {
    let mut out: String = text.chars().take(24).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Store a `#` line's content in `pattern` (`rest` is the text after the `#`).
fn comment_line(pattern: &mut Pattern, rest: &str) {
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
        _ => {}
    }
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
            comment_line(&mut pattern, rest);
        } else if !t.is_empty() {
            break (index + 1, line);
        }
    };
    let (width, height) = parse_header(header.0, header.1, &mut pattern)?;
    pattern.width = width;
    pattern.height = height;
    let mut body = Body {
        width: u64::from(width),
        height: u64::from(height),
        x: 0,
        y: 0,
        run: None,
        cells: Vec::new(),
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
    pattern.cells = body.cells;
    Ok(pattern)
}

/// 1-based character column of byte offset `at` in `line`.
fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(0, |s| s.chars().count()) + 1
}

/// Parse the header line into (width, height), setting the pattern's rule.
fn parse_header(
    line_no: usize,
    line: &str,
    pattern: &mut Pattern,
) -> Result<(u32, u32), PatternError> {
    let start = line.len() - line.trim_start().len();
    if !line.trim_start().starts_with(['x', 'X']) {
        return Err(syntax(
            line_no,
            column(line, start),
            "missing RLE header: expected 'x = WIDTH, y = HEIGHT' before the pattern body",
        ));
    }
    let (mut width, mut height) = (None, None);
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
                // The rest of the line (some rule notations contain commas), less a Golly
                // bounded-grid suffix such as `:T100,100`, which golab's worlds replace.
                let text = line.get(value_at..).unwrap_or_default();
                let text = text.split(':').next().unwrap_or_default().trim_end();
                let rule = text
                    .parse::<Rule>()
                    .map_err(|e| syntax(line_no, column(line, value_at), e.to_string()))?;
                pattern.rule = Some(rule);
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
}

impl Body {
    /// Read one body line; `Ok(true)` once the `!` ending the pattern is seen.
    fn line(&mut self, line_no: usize, line: &str) -> Result<bool, PatternError> {
        if line.trim_start().starts_with('#') {
            return Ok(false);
        }
        for (i, c) in line.chars().enumerate() {
            let column = i + 1;
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
                        "unexpected '{c}' in the RLE body: golab reads two-state patterns, \
                         where b or . is a dead cell and o a live one"
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

/// Appends tokens to the body, wrapping lines at [`MAX_LINE`].
struct Wrapper {
    out: String,
    line_len: usize,
}

impl Wrapper {
    fn token(&mut self, count: u32, tag: char) {
        let token = if count > 1 {
            format!("{count}{tag}")
        } else {
            tag.to_string()
        };
        if self.line_len > 0 && self.line_len + token.len() > MAX_LINE {
            self.out.push('\n');
            self.line_len = 0;
        }
        self.line_len += token.len();
        self.out.push_str(&token);
    }
}

/// Metadata text on one line (line breaks become spaces).
pub(super) fn one_line(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Pattern {
    /// RLE text: `#N`/`#O`/`#C` lines, the `x = W, y = H[, rule = R]` header, then runs
    /// wrapped at 70 characters and a final `!`. Metadata line breaks become spaces.
    pub fn to_rle(&self) -> String {
        let (pattern, cells) = (self, &*self.clean_cells());
        let mut out = String::new();
        for (tag, text) in [("#N", &pattern.name), ("#O", &pattern.author)] {
            let text = one_line(text.as_deref().unwrap_or_default());
            if !text.is_empty() {
                out.push_str(&format!("{tag} {text}\n"));
            }
        }
        for line in pattern
            .comments
            .iter()
            .flat_map(|c| c.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            out.push_str(&format!("#C {line}\n"));
        }
        out.push_str(&format!("x = {}, y = {}", pattern.width, pattern.height));
        if let Some(rule) = pattern.rule {
            out.push_str(&format!(", rule = {rule}"));
        }
        out.push('\n');
        let mut body = Wrapper { out, line_len: 0 };
        let (mut row, mut col) = (0u32, 0u32);
        let mut i = 0;
        while let Some(&(x, y)) = cells.get(i) {
            if y > row {
                body.token(y - row, '$');
                (row, col) = (y, 0);
            }
            if x > col {
                body.token(x - col, 'b');
            }
            let mut n = 1;
            while cells.get(i + n as usize) == Some(&(x + n, y)) {
                n += 1;
            }
            body.token(n, 'o');
            col = x + n;
            i += n as usize;
        }
        body.token(1, '!');
        body.out.push('\n');
        body.out
    }
}
