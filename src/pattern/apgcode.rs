//! Catagolue's apgcodes: `xs4_33` (a 4-cell still life), `xp2_7` (a period-2 oscillator),
//! `xq4_153` (a period-4 spaceship), the names apgsearch gives objects in soup censuses.
//!
//! After the prefix and `_` comes the object in extended Wechsler format: the pattern is cut
//! into strips of five rows, top to bottom, separated by `z`; each strip is written column by
//! column, left to right, one character per column for its five cells (`0`–`9`, `a`–`v` =
//! 0–31, bit 0 the strip's top row). Runs of empty columns are abbreviated: `w` is two, `x`
//! three, and `y` followed by `0`–`9`/`a`–`z` is 4 to 39. The canonical code of an object is
//! the shortest such string (ties: the first in ASCII order) over its 8 orientations — and,
//! for oscillators and spaceships, over all its phases ([`classify`] finds those by running
//! it).

use super::{MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError, syntax};

pub use super::apgcode_classify::classify;

/// Digits of the extended Wechsler format: a column's value, or after `y` a run length − 4.
const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// Whether `text` is one apgcode word with a prefix golab reads (`xs`, `xp`, `xq`, then
/// digits, `_`, then extended Wechsler characters).
pub fn looks_like(text: &str) -> bool {
    let Some(rest) = text
        .strip_prefix("xs")
        .or_else(|| text.strip_prefix("xp"))
        .or_else(|| text.strip_prefix("xq"))
    else {
        return false;
    };
    let Some((number, body)) = rest.split_once('_') else {
        return false;
    };
    !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && !body.is_empty()
        && body.bytes().all(|b| DIGITS.contains(&b))
}

/// Parse text holding one apgcode (surrounding whitespace allowed) as [`parse_code`] does,
/// with errors at their line and column.
pub(super) fn parse_text(text: &str) -> Result<Pattern, PatternError> {
    let (index, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or(PatternError::Empty)?;
    let lead = line.chars().take_while(|c| c.is_whitespace()).count();
    if let Some((extra, l)) = text
        .lines()
        .enumerate()
        .skip(index + 1)
        .find(|(_, l)| !l.trim().is_empty())
    {
        let column = l.chars().take_while(|c| c.is_whitespace()).count() + 1;
        return Err(syntax(extra + 1, column, "an apgcode is a single word"));
    }
    decode(line.trim()).map_err(|(at, message)| syntax(index + 1, lead + at + 1, message))
}

/// The object an apgcode names, its box the bounding box of its cells, named by the code.
/// The rule is left unset: Catagolue's plain codes are B3/S23 objects, which is also what
/// golab runs when nothing else is chosen.
pub fn parse_code(code: &str) -> Result<Pattern, PatternError> {
    decode(code).map_err(|(at, message)| syntax(1, at + 1, message))
}

/// Decode a code; errors carry the 0-based character offset.
fn decode(code: &str) -> Result<Pattern, (usize, String)> {
    let prefix_len = 2;
    let kind = code.get(..prefix_len).unwrap_or_default();
    if !matches!(kind, "xs" | "xp" | "xq") {
        let message = format!(
            "'{}' is not an apgcode golab reads: it starts with xs (still life), xp \
             (oscillator) or xq (spaceship), e.g. xs4_33",
            code.chars().take(24).collect::<String>()
        );
        return Err((0, message));
    }
    let rest = &code[prefix_len..];
    let (number, body) = rest.split_once('_').ok_or((
        prefix_len,
        format!("expected {kind}<number>_<cells>, e.g. xs4_33"),
    ))?;
    let value = number
        .parse::<u64>()
        .ok()
        .filter(|n| *n > 0 && number.bytes().all(|b| b.is_ascii_digit()))
        .ok_or((
            prefix_len,
            format!("expected a number after {kind}, found '{number}'"),
        ))?;
    let start = prefix_len + number.len() + 1;
    let cells = wechsler_cells(body).map_err(|(at, m)| (start + at, m))?;
    if cells.is_empty() {
        return Err((start, "the code holds no live cells".to_string()));
    }
    if kind == "xs" && value != cells.len() as u64 {
        let message = format!(
            "{kind}{value} promises {value} cells but the code holds {}",
            cells.len()
        );
        return Err((prefix_len, message));
    }
    Ok(Pattern {
        name: Some(code.to_string()),
        ..Pattern::fitted(cells)
    })
}

/// The live cells of an extended Wechsler string; errors carry the 0-based offset.
pub fn wechsler_cells(body: &str) -> Result<Vec<(u32, u32)>, (usize, String)> {
    let value = |b: u8| DIGITS.iter().position(|&d| d == b);
    let mut cells = Vec::new();
    let (mut x, mut strip) = (0u64, 0u64);
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'w' => x += 2,
            b'x' => x += 3,
            b'y' => {
                let run = bytes.get(i + 1).and_then(|&n| value(n)).ok_or((
                    i,
                    "'y' must be followed by 0-9 or a-z (a run of 4 to 39 empty columns)"
                        .to_string(),
                ))?;
                x += 4 + run as u64;
                i += 1;
            }
            b'z' => (x, strip) = (0, strip + 1),
            _ => {
                let column = value(b).filter(|v| *v < 32).ok_or_else(|| {
                    let c = body[i..].chars().next().unwrap_or('?');
                    (i, format!("unexpected {c:?} in an apgcode (0-9, a-z only)"))
                })?;
                if x >= u64::from(MAX_PATTERN_EDGE) || strip * 5 >= u64::from(MAX_PATTERN_EDGE) {
                    return Err((
                        i,
                        format!("the object is wider or taller than {MAX_PATTERN_EDGE} cells"),
                    ));
                }
                if cells.len() + 5 > MAX_PATTERN_CELLS {
                    return Err((i, format!("more than {MAX_PATTERN_CELLS} live cells")));
                }
                for row in (0..5).filter(|r| column >> r & 1 == 1) {
                    cells.push((x as u32, (strip * 5 + row) as u32));
                }
                x += 1;
            }
        }
        i += 1;
    }
    Ok(cells)
}

/// The extended Wechsler string of `cells` as given (top-left at 0, 0), strips of five
/// rows. Built from the occupied columns only, so the work and the text grow with the
/// cells, not with the box (a far-flung pair of cells stays cheap).
fn wechsler(cells: &[(u32, u32)]) -> String {
    let mut columns: Vec<(u32, u32, u8)> = cells
        .iter()
        .map(|&(x, y)| (y / 5, x, 1u8 << (y % 5)))
        .collect();
    columns.sort_unstable();
    columns.dedup_by(|b, a| {
        let same = (a.0, a.1) == (b.0, b.1);
        if same {
            a.2 |= b.2;
        }
        same
    });
    let mut out = String::new();
    let (mut strip, mut next_x) = (0u32, 0u32);
    for &(s, x, value) in &columns {
        while strip < s {
            out.push('z');
            (strip, next_x) = (strip + 1, 0);
        }
        let mut zeros = (x - next_x) as usize;
        while zeros >= 40 {
            out.push_str("yz");
            zeros -= 39;
        }
        match zeros {
            0 => {}
            1 => out.push('0'),
            2 => out.push('w'),
            3 => out.push('x'),
            n => {
                out.push('y');
                out.push(char::from(DIGITS[n - 4]));
            }
        }
        out.push(char::from(DIGITS[usize::from(value)]));
        next_x = x + 1;
    }
    if out.is_empty() { "0".to_string() } else { out }
}

/// The better of two representations, as Catagolue compares them: the shorter, then the
/// first in ASCII order.
pub fn better(a: String, b: String) -> String {
    if (b.len(), b.as_bytes()) < (a.len(), a.as_bytes()) {
        b
    } else {
        a
    }
}

/// The canonical extended Wechsler string of a set of cells (any coordinates, any order):
/// the best over the 8 orientations, each moved to its bounding box.
pub fn canonical_wechsler(cells: &[(i64, i64)]) -> String {
    let mut best: Option<String> = None;
    for orientation in 0..8 {
        let moved: Vec<(i64, i64)> = cells
            .iter()
            .map(|&(x, y)| {
                let (x, y) = if orientation & 4 != 0 { (y, x) } else { (x, y) };
                let x = if orientation & 1 != 0 { -x } else { x };
                let y = if orientation & 2 != 0 { -y } else { y };
                (x, y)
            })
            .collect();
        let x0 = moved.iter().map(|c| c.0).min().unwrap_or(0);
        let y0 = moved.iter().map(|c| c.1).min().unwrap_or(0);
        let local: Vec<(u32, u32)> = moved
            .iter()
            .map(|&(x, y)| ((x - x0) as u32, (y - y0) as u32))
            .collect();
        let code = wechsler(&local);
        best = Some(match best {
            None => code,
            Some(b) => better(b, code),
        });
    }
    best.unwrap_or_else(|| "0".to_string())
}

/// `prefix_` and the canonical code of the pattern's cells, for a caller that knows what the
/// object is (e.g. `encode("xs4", &block)` is `xs4_33`).
pub fn encode(prefix: &str, pattern: &Pattern) -> String {
    let cells: Vec<(i64, i64)> = pattern
        .clean_cells()
        .iter()
        .map(|&(x, y)| (i64::from(x), i64::from(y)))
        .collect();
    format!("{prefix}_{}", canonical_wechsler(&cells))
}
