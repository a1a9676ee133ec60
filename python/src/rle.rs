//! RLE text as lifelib's `rle_string()` writes it, so that scripts comparing strings keep
//! working: a `#CLL state-numbering golly` line, the header with Golly's rule name, runs of
//! `b`/`o` for a one-layer tree and `.`/`A`/`B`… otherwise, lines broken before 66
//! characters would be passed, `!` at the end.

use golab::rule::Rule;

use crate::tree::Cell;

/// Longest run of characters on one line before a break.
const LINE: usize = 66;

/// The letters of `state` (Golly's multi-state RLE: `.`, `A`…`X`, then `pA`… prefixes), or
/// `b`/`o` when `two_letter`.
fn letters(state: u64, two_letter: bool) -> String {
    match state {
        0 => (if two_letter { "b" } else { "." }).into(),
        1 => (if two_letter { "o" } else { "A" }).into(),
        _ => {
            let mut d = state - 1;
            let mut out = String::from(char::from(b'A' + (d % 24) as u8));
            d /= 24;
            while d > 0 {
                out.insert(0, char::from(b'p' + ((d + 10) % 11) as u8));
                d /= 11;
            }
            out
        }
    }
}

/// Builds the body, breaking lines as lifelib does.
struct Writer {
    out: String,
    line: usize,
    two_letter: bool,
}

impl Writer {
    fn add(&mut self, piece: &str) {
        if self.line + piece.len() > LINE {
            self.out.push('\n');
            self.line = 0;
        }
        self.out.push_str(piece);
        self.line += piece.len();
    }

    fn run(&mut self, n: u128, what: &str) {
        match n {
            0 => {}
            1 => self.add(what),
            _ => self.add(&format!("{n}{what}")),
        }
    }
}

/// `cells` (row by row) as lifelib's RLE under `rule`; `layers` is the lifetree's number
/// of layers (one layer writes `b`/`o`).
pub fn write(cells: &[Cell], rule: &Rule, layers: u32) -> String {
    let mut text = String::from("#CLL state-numbering golly\n");
    let name = rule.canonical();
    let Some(x0) = cells.iter().map(|c| c.0).min() else {
        text.push_str(&format!("x = 1, y = 1, rule = {name}\nb!\n"));
        return text;
    };
    let x1 = cells.iter().map(|c| c.0).max().unwrap_or(x0);
    let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let y1 = cells.iter().map(|c| c.1).max().unwrap_or(y0);
    text.push_str(&format!(
        "x = {}, y = {}, rule = {name}\n",
        x1 - x0 + 1,
        y1 - y0 + 1
    ));
    let two_letter = layers == 1;
    let mut w = Writer {
        out: String::new(),
        line: 0,
        two_letter,
    };
    let (mut last_x, mut last_y, mut last_state, mut run) = (0i128, 0i128, 0u8, 0u128);
    for &(x, y, state) in cells {
        let (x, y) = (x - x0, y - y0);
        if y > last_y || x > last_x || state != last_state {
            let what = letters(last_state.into(), w.two_letter);
            w.run(run, &what);
            run = 0;
            if y > last_y {
                w.run((y - last_y) as u128, "$");
                last_y = y;
                last_x = 0;
            }
            if x > last_x {
                let blank = letters(0, w.two_letter);
                w.run((x - last_x) as u128, &blank);
            }
        }
        run += 1;
        last_x = x + 1;
        last_state = state;
    }
    let what = letters(last_state.into(), w.two_letter);
    w.run(run, &what);
    w.out.push('!');
    text.push_str(&w.out);
    text.push('\n');
    text
}
