//! The RLE writer: Golly's `#CXRLE` line when the pattern has a position or generation, the
//! comment lines, the header with the rule and its bounded-grid suffix, then the runs.

use super::Pattern;

/// Longest line the writer emits, as the RLE convention asks.
const MAX_LINE: usize = 70;

/// Appends tokens to the body, wrapping lines at [`MAX_LINE`].
struct Wrapper {
    out: String,
    line_len: usize,
}

impl Wrapper {
    /// Append `count` (when above 1) and `tag`, starting a new line first if the token would
    /// pass [`MAX_LINE`]. Digits are written by hand: a large world has tens of millions of
    /// tokens, and formatting each into a `String` would dominate the time.
    fn token(&mut self, count: u32, tag: char) {
        self.token_str(count, tag.encode_utf8(&mut [0; 4]));
    }

    /// [`Wrapper::token`] with a tag of one or two characters (multi-state cells).
    fn token_str(&mut self, count: u32, tag: &str) {
        let digits = if count > 1 {
            count.ilog10() as usize + 1
        } else {
            0
        };
        let len = digits + tag.len();
        if self.line_len > 0 && self.line_len + len > MAX_LINE {
            self.out.push('\n');
            self.line_len = 0;
        }
        let mut buf = [0u8; 10];
        let mut n = count;
        for slot in buf[..digits].iter_mut().rev() {
            *slot = b'0' + (n % 10) as u8;
            n /= 10;
        }
        self.out
            .push_str(std::str::from_utf8(&buf[..digits]).unwrap_or_default());
        self.out.push_str(tag);
        self.line_len += len;
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

/// Golly's multi-state RLE letters of `state` (1..=255): `A`–`X` for 1–24, then `pA`–`pX`
/// for 25–48, … up to `yO` for 255.
fn state_tag(state: u8) -> String {
    let s = u32::from(state);
    if s <= 24 {
        char::from(b'A' + (s - 1) as u8).to_string()
    } else {
        let high = char::from(b'p' + ((s - 25) / 24) as u8);
        let low = char::from(b'A' + ((s - 25) % 24) as u8);
        format!("{high}{low}")
    }
}

/// The runs of `cells` (sorted row-major; `at` gives a cell's x, y and state): `dead` for
/// gaps, `$` for row ends, and `cell` writing a run of `n` cells of one state. One walk for
/// two-state bodies (`b`/`o`) and Generations bodies (`.`/`A`/`B`…).
fn write_runs<T: Copy>(
    body: &mut Wrapper,
    cells: &[T],
    at: impl Fn(T) -> (u32, u32, u8),
    dead: char,
    mut cell: impl FnMut(&mut Wrapper, u32, u8),
) {
    let (mut row, mut col) = (0u32, 0u32);
    let mut i = 0;
    while let Some(&first) = cells.get(i) {
        let (x, y, state) = at(first);
        if y > row {
            body.token(y - row, '$');
            (row, col) = (y, 0);
        }
        if x > col {
            body.token(x - col, dead);
        }
        let mut n = 1;
        while cells
            .get(i + n as usize)
            .is_some_and(|&c| at(c) == (x + n, y, state))
        {
            n += 1;
        }
        cell(body, n, state);
        col = x + n;
        i += n as usize;
    }
}

impl Pattern {
    /// RLE text: `#CXRLE Pos=X,Y Gen=G` when the pattern has a position or generation (Golly
    /// reads it only as the first line, so it comes first), `#N`/`#O`/`#C` lines, the
    /// `x = W, y = H[, rule = R[:T W,H]]` header, then runs wrapped at 70 characters and a
    /// final `!`; a pattern with dying cells is written in Golly's multi-state letters (`.`
    /// dead, `A` alive, `B`… dying). Metadata line breaks become spaces. A bounded grid needs a rule in the
    /// header: B3/S23 is written when the pattern names none.
    pub fn to_rle(&self) -> String {
        let (pattern, cells) = (self, &*self.clean_cells());
        // About two characters per live cell in a soup, plus the line ends: one allocation.
        let mut out = String::with_capacity(cells.len() * 2 + self.height as usize + 256);
        if pattern.position.is_some() || pattern.generation.is_some() {
            out.push_str("#CXRLE");
            if let Some((x, y)) = pattern.position {
                out.push_str(&format!(" Pos={x},{y}"));
            }
            if let Some(generation) = pattern.generation {
                out.push_str(&format!(" Gen={generation}"));
            }
            out.push('\n');
        }
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
        match (pattern.rule, pattern.grid) {
            (Some(rule), None) => out.push_str(&format!(", rule = {rule}")),
            (rule, Some(grid)) => out.push_str(&format!(
                ", rule = {}{}",
                rule.unwrap_or_default(),
                grid.suffix()
            )),
            (None, None) => {}
        }
        out.push('\n');
        let mut body = Wrapper { out, line_len: 0 };
        let dying = self.clean_dying();
        if dying.is_empty() {
            write_runs(
                &mut body,
                cells,
                |(x, y)| (x, y, 1),
                'b',
                |b, n, _| b.token(n, 'o'),
            );
        } else {
            let mut all: Vec<(u32, u32, u8)> = cells.iter().map(|&(x, y)| (x, y, 1)).collect();
            all.extend_from_slice(&dying);
            all.sort_unstable_by_key(|&(x, y, _)| (y, x));
            write_runs(
                &mut body,
                &all,
                |c| c,
                '.',
                |b, n, state| {
                    b.token_str(n, &state_tag(state));
                },
            );
        }
        body.token(1, '!');
        body.out.push('\n');
        body.out
    }
}
