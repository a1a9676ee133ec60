//! Golly's three Larger than Life notations, read as `ltlalgo::setrule` reads them (case
//! ignored; no spaces): LtL `Rr,Cc,Mm,Smin..max,Bmin..max,Nn`, Kellie Evans'
//! `r,bmin,bmax,smin,smax` (Moore, middle counted) and HROT `Rr,Cc,S…,B…[,Nn]` with comma
//! lists of counts and `a-b` ranges. Errors give the 0-based column of the offending
//! character.

use super::neighbourhood_text::neighbourhood;
use super::shape::Neighbourhood;
use super::{CellGrid, Ltl, MAX_GAUSSIAN_RANGE, MAX_RANGE, Notation};

/// Why a Larger than Life rule was refused: the column and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LtlError {
    /// 0-based character column in the rule text.
    pub column: usize,
    /// What is wrong.
    pub why: String,
}

impl std::fmt::Display for LtlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.column + 1, self.why)
    }
}

/// A cursor over the upper-cased rule text.
pub(super) struct Cursor<'a> {
    pub(super) text: &'a [u8],
    pub(super) at: usize,
}

impl Cursor<'_> {
    pub(super) fn fail<T>(&self, why: impl Into<String>) -> Result<T, LtlError> {
        Err(LtlError {
            column: self.at,
            why: why.into(),
        })
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    pub(super) fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, byte: u8, what: &str) -> Result<(), LtlError> {
        if self.eat(byte) {
            Ok(())
        } else {
            self.fail(format!("expected {what}"))
        }
    }

    pub(super) fn number(&mut self, what: &str) -> Result<i32, LtlError> {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        if start == self.at {
            return self.fail(format!("expected {what} (a whole number)"));
        }
        let digits = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        digits.parse::<i32>().or_else(|_| {
            self.at = start;
            self.fail(format!("{what} {digits} is too large"))
        })
    }

    pub(super) fn done(&self) -> bool {
        self.at >= self.text.len()
    }
}

/// Whether `text` is written in one of the Larger than Life notations (what
/// [`crate::rule::parse`] routes here).
pub fn looks_like_ltl(text: &str) -> bool {
    let t = text.trim().to_ascii_uppercase();
    let evans = t.split(',').count() == 5
        && t.split(',')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    evans
        || (t.starts_with('R')
            && t[1..].starts_with(|c: char| c.is_ascii_digit())
            && t.contains(','))
}

/// Parse a Larger than Life rule (without a bounded-grid suffix).
pub fn parse(text: &str) -> Result<Ltl, LtlError> {
    let upper = text.to_ascii_uppercase();
    let mut c = Cursor {
        text: upper.as_bytes(),
        at: 0,
    };
    if c.peek().is_some_and(|b| b.is_ascii_digit()) {
        return evans(&mut c);
    }
    c.expect(b'R', "R (the range)")?;
    let r_at = c.at;
    let range = c.number("the range after R")?;
    c.expect(b',', "',' after the range")?;
    c.expect(b'C', "C (the number of states)")?;
    let c_at = c.at;
    let states = c.number("the number of states after C")?;
    if !(0..=256).contains(&states) {
        c.at = c_at;
        return c.fail("C must be 0 to 256");
    }
    c.expect(b',', "',' after the states")?;
    let states = states.max(2) as u16;
    if c.peek() == Some(b'M') {
        ltl(&mut c, range, r_at, states)
    } else {
        hrot(&mut c, range, r_at, states)
    }
}

fn check_range(c: &mut Cursor, range: i32, at: usize, n: &Neighbourhood) -> Result<(), LtlError> {
    // Golly doubles a triangular range internally, so its limit is half the others'.
    let max = match n {
        Neighbourhood::Gaussian => MAX_GAUSSIAN_RANGE,
        Neighbourhood::Triangular => MAX_RANGE / 2,
        _ => MAX_RANGE,
    };
    if range < 1 || range > max {
        c.at = at;
        return c.fail(format!(
            "the range must be 1 to {max} for the {} neighbourhood",
            n.name()
        ));
    }
    Ok(())
}

fn evans(c: &mut Cursor) -> Result<Ltl, LtlError> {
    let mut v = [0i32; 5];
    let mut starts = [0usize; 5];
    for (i, name) in ["the range", "bmin", "bmax", "smin", "smax"]
        .iter()
        .enumerate()
    {
        if i > 0 {
            c.expect(b',', "','")?;
        }
        starts[i] = c.at;
        v[i] = c.number(name)?;
    }
    if !c.done() {
        return c.fail("unexpected text after Kellie Evans' five numbers r,bmin,bmax,smin,smax");
    }
    let [r, b1, b2, s1, s2] = v;
    check_range(c, r, starts[0], &Neighbourhood::Moore)?;
    let limits = [s1, s2, b1, b2];
    let notation = Notation::Ltl {
        limits,
        middle: true,
    };
    let starts = [starts[3], starts[4], starts[1], starts[2]];
    finish_ranges(
        c,
        r,
        2,
        Neighbourhood::Moore,
        notation,
        limits,
        starts,
        CellGrid::Square,
    )
}

fn ltl(c: &mut Cursor, range: i32, r_at: usize, states: u16) -> Result<Ltl, LtlError> {
    c.expect(b'M', "M")?;
    let m_at = c.at;
    let m = c.number("0 or 1 after M")?;
    if m > 1 {
        c.at = m_at;
        return c.fail("M must be 0 or 1");
    }
    c.expect(b',', "',' after M")?;
    let ([s1, s2], [s1_at, s2_at]) = limits(c, b'S', "s")?;
    c.expect(b',', "',' before B")?;
    let ([b1, b2], [b1_at, b2_at]) = limits(c, b'B', "b")?;
    let starts = [s1_at, s2_at, b1_at, b2_at];
    c.expect(b',', "',' before N")?;
    c.expect(b'N', "N (the neighbourhood)")?;
    let (n, grid) = neighbourhood(c, range, states)?;
    if !c.done() {
        return c.fail("unexpected text after the neighbourhood");
    }
    check_range(c, range, r_at, &n)?;
    let limits = [s1, s2, b1, b2];
    let notation = Notation::Ltl {
        limits,
        middle: m == 1,
    };
    finish_ranges(c, range, states, n, notation, limits, starts, grid)
}

/// `Smin..max` or `Bmin..max` of the LtL notation: the two limits and their columns.
fn limits(c: &mut Cursor, letter: u8, name: &str) -> Result<([i32; 2], [usize; 2]), LtlError> {
    c.expect(letter, &char::from(letter).to_string())?;
    let min_at = c.at;
    let min = c.number(&format!("{name}min"))?;
    let between = format!("'..' between {name}min and {name}max");
    c.expect(b'.', &between)?;
    c.expect(b'.', &between)?;
    let max_at = c.at;
    let max = c.number(&format!("{name}max"))?;
    Ok(([min, max], [min_at, max_at]))
}

/// LtL limits to flags (Golly turns them into an HROT list `S a-b,B c-d`).
#[allow(clippy::too_many_arguments)]
fn finish_ranges(
    c: &mut Cursor,
    range: i32,
    states: u16,
    n: Neighbourhood,
    notation: Notation,
    [s1, s2, b1, b2]: [i32; 4],
    starts: [usize; 4],
    grid: CellGrid,
) -> Result<Ltl, LtlError> {
    let m = i32::from(matches!(notation, Notation::Ltl { middle: true, .. }));
    let maxn = n.max_count(range);
    let mut flags = |lo: i32, hi: i32, min: i32, max: i32, at: [usize; 2], what: &str| {
        if lo > hi {
            c.at = at[0];
            return c.fail(format!("{what} range min must be less than max"));
        }
        for (v, col) in [(lo, at[0]), (hi, at[1])] {
            if v < min || v > max {
                c.at = col;
                return c.fail(format!(
                    "{what} value {v} is out of range {min}..{max} (the {} neighbourhood of range {range} has {maxn} cells)",
                    n.name()
                ));
            }
        }
        let mut out = vec![false; (max + 1) as usize];
        for v in lo..=hi {
            out[v as usize] = true;
        }
        Ok(out)
    };
    let survive = flags(s1, s2, m, maxn + m, [starts[0], starts[1]], "S")?;
    let birth = flags(b1, b2, 0, maxn + m, [starts[2], starts[3]], "B")?;
    finish(c, range, states, n, notation, birth, survive, grid)
}

#[allow(clippy::too_many_arguments)]
fn finish(
    c: &mut Cursor,
    range: i32,
    states: u16,
    n: Neighbourhood,
    notation: Notation,
    birth: Vec<bool>,
    survive: Vec<bool>,
    grid: CellGrid,
) -> Result<Ltl, LtlError> {
    if birth.first() == Some(&true) && states > 2 {
        c.at = 0;
        return c.fail("B0 is not allowed with more than 2 states (as in Golly)");
    }
    Ok(Ltl::build(range, states, n, notation, birth, survive, grid))
}

fn hrot(c: &mut Cursor, range: i32, r_at: usize, states: u16) -> Result<Ltl, LtlError> {
    // The neighbourhood bounds the lists, so find it first (Golly's strstr(",N")).
    let text = std::str::from_utf8(c.text).unwrap_or("");
    let (n, grid, end) = match text.find(",N") {
        Some(at) => {
            let mut nc = Cursor {
                text: c.text,
                at: at + 2,
            };
            let (n, grid) = neighbourhood(&mut nc, range, states)?;
            if !nc.done() {
                return nc.fail("unexpected text after the neighbourhood");
            }
            (n, grid, at)
        }
        None => (Neighbourhood::Moore, CellGrid::Square, c.text.len()),
    };
    check_range(c, range, r_at, &n)?;
    let maxn = n.max_count(range);
    c.expect(b'S', "S (survival counts)")?;
    let survive = list(c, maxn, end, "S")?;
    c.expect(b'B', "B (birth counts)")?;
    let birth = list(c, maxn, end, "B")?;
    if c.at != end {
        return c.fail("unexpected text before the neighbourhood");
    }
    finish(c, range, states, n, Notation::Hrot, birth, survive, grid)
}

/// An HROT list up to `end`: counts and `a-b` ranges separated by commas, ending with the
/// comma before the next letter (or at `end`).
fn list(c: &mut Cursor, maxn: i32, end: usize, what: &str) -> Result<Vec<bool>, LtlError> {
    let mut out = vec![false; (maxn + 1) as usize];
    while c.at < end && c.peek().is_some_and(|b| b.is_ascii_digit()) {
        let at = c.at;
        let lo = c.number("a count")?;
        let hi = if c.eat(b'-') {
            c.number("the end of a range")?
        } else {
            lo
        };
        if lo > hi {
            c.at = at;
            return c.fail(format!("{what} range {lo}-{hi} runs backwards"));
        }
        if hi > maxn {
            c.at = at;
            return c.fail(format!(
                "{what} count {hi} is above the neighbourhood's {maxn} cells"
            ));
        }
        for v in lo..=hi {
            out[v as usize] = true;
        }
        if c.at < end && !c.eat(b',') {
            return c.fail(format!("expected ',' after an {what} count"));
        }
    }
    if c.at < end && what == "S" && !c.eat(b',') && c.peek() != Some(b'B') {
        return c.fail("expected ',' before B");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_follow_golly() {
        for (text, canon) in [
            ("R5,C0,M1,S34..58,B34..45,NM", "R5,C0,M1,S34..58,B34..45,NM"),
            ("r5,c2,m1,s34..58,b34..45,nm", "R5,C0,M1,S34..58,B34..45,NM"),
            ("5,34,45,34,58", "R5,C0,M1,S34..58,B34..45,NM"),
            ("R10,C255,M1,S2..3,B3..3,NM", "R10,C255,M1,S2..3,B3..3,NM"),
            ("R1,C0,S2-3,B3", "R1,C0,S2-3,B3"),
            ("R1,C0,S2,3,B3,NM", "R1,C0,S2-3,B3"),
            (
                "R3,C2,S0,7-12,27,B8,12,20-27,N2",
                "R3,C0,S0,7-12,27,B8,12,20-27,N2",
            ),
            ("R2,C0,S,B3,N+", "R2,C0,S,B3,N+"),
            ("R2,C3,S1-2,B,NN", "R2,C3,S1-2,B,NN"),
            ("R2,C0,S2,B3,N@891891", "R2,C0,S2,B3,N@891891"),
        ] {
            let rule = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(rule.canonical(), canon, "{text}");
            assert_eq!(parse(canon).unwrap(), rule, "{canon} reads back");
        }
    }

    #[test]
    fn errors_name_the_column() {
        for (text, column) in [
            ("R501,C0,M1,S1..1,B1..1,NM", 1),
            ("R5,C300,M1,S1..1,B1..1,NM", 4),
            ("R5,C0,M1,S34..58,B34..45,NQ", 26),
            ("R1,C0,M0,S2..9,B3..3,NM", 13),
            ("R251,C0,S2-3,B3,NL", 1),
            ("R1,C3,S2,B0,NM", 0),
            ("R2,C0,S2,B3,N@89189", 19),
        ] {
            let error = parse(text).unwrap_err();
            assert_eq!(error.column, column, "{text}: {error}");
        }
    }

    #[test]
    fn custom_cells_follow_the_help_example() {
        // Golly's help: 10001 / 00100 / 01c10 / 00100 / 10001 is N@891891.
        let rule = parse("R2,C0,S1,B1,N@891891").unwrap();
        let Neighbourhood::Custom { cells, .. } = &rule.neighbourhood else {
            panic!("custom expected");
        };
        let mut want = vec![
            (-2, -2),
            (2, -2),
            (0, -1),
            (-1, 0),
            (0, 0),
            (1, 0),
            (0, 1),
            (-2, 2),
            (2, 2),
        ];
        want.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(cells, &want);
        let w = parse("R1,C0,S1,B1,NW123401323").unwrap();
        let Neighbourhood::Weighted { weights, .. } = &w.neighbourhood else {
            panic!("weighted expected");
        };
        assert_eq!(weights, &[1, 2, 3, 4, 0, 1, 3, 2, 3]);
        let w2 = parse("R1,C0,S1,B1,NW0810080a850a081008").unwrap();
        let Neighbourhood::Weighted { weights, .. } = &w2.neighbourhood else {
            panic!("weighted expected");
        };
        assert_eq!(weights, &[8, 16, 8, 10, -5, 10, 8, 16, 8]);
    }
}
