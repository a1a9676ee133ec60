//! The text after `N` in a Larger than Life rule, as Golly's `setrule`, `read_custom` and
//! `read_weighted` read it: a neighbourhood letter, and for `@` and `W` their hex digits
//! (with an optional `H` or `L` grid suffix).

use super::CellGrid;
use super::parse::{Cursor, LtlError};
use super::shape::Neighbourhood;

/// The neighbourhood after `N`: a letter, and the digits of `@` and `W` (with an optional
/// `H` or `L` grid suffix). Returns it and the grid it asks for.
pub(super) fn neighbourhood(
    c: &mut Cursor,
    range: i32,
    states: u16,
) -> Result<(Neighbourhood, CellGrid), LtlError> {
    let at = c.at;
    let Some(letter) = c.peek() else {
        return c.fail("expected a neighbourhood letter after N (M, N, C, 2, +, X, *, #, B, D, H, A, 3, G, @, W)");
    };
    c.at += 1;
    let n = match letter {
        b'M' => Neighbourhood::Moore,
        b'N' => Neighbourhood::VonNeumann,
        b'C' => Neighbourhood::Circular,
        b'2' => Neighbourhood::L2,
        b'+' => Neighbourhood::Cross,
        b'X' => Neighbourhood::Saltire,
        b'*' => Neighbourhood::Star,
        b'#' => Neighbourhood::Hash,
        b'B' => Neighbourhood::Checkerboard,
        b'D' => Neighbourhood::AlignedCheckerboard,
        b'H' => Neighbourhood::Hexagonal,
        b'A' => Neighbourhood::Asterisk,
        b'3' => Neighbourhood::Tripod,
        b'G' => Neighbourhood::Gaussian,
        b'L' => return Ok((Neighbourhood::Triangular, CellGrid::Triangular)),
        b'@' => return custom(c, range),
        b'W' => return weighted(c, range, states),
        other => {
            c.at = at;
            return c.fail(format!(
                "unknown neighbourhood '{}' (Golly's are M, N, C, 2, +, X, *, #, B, D, H, A, 3, L, G, @ and W)",
                char::from(other)
            ));
        }
    };
    let grid = match n {
        Neighbourhood::Hexagonal | Neighbourhood::Asterisk | Neighbourhood::Tripod => {
            CellGrid::Hexagonal
        }
        _ => CellGrid::Square,
    };
    Ok((n, grid))
}

fn hex_digit(b: u8) -> Option<i32> {
    (b as char).to_digit(16).map(|d| d as i32)
}

/// An `H` (hexagonal grid) or `L` (triangular grid) after custom or weighted digits.
fn grid_suffix(c: &mut Cursor) -> CellGrid {
    if c.eat(b'H') {
        CellGrid::Hexagonal
    } else if c.eat(b'L') {
        CellGrid::Triangular
    } else {
        CellGrid::Square
    }
}

fn custom(c: &mut Cursor, range: i32) -> Result<(Neighbourhood, CellGrid), LtlError> {
    let side = 2 * range + 1;
    let needed = ((side * side - 1) / 4) as usize;
    let start = c.at;
    let digits: Vec<i32> = c.text[start..]
        .iter()
        .take(needed)
        .map_while(|&b| hex_digit(b))
        .collect();
    if digits.len() != needed || (side * side - 1) % 4 != 0 {
        c.at = start + digits.len();
        return c.fail(format!(
            "a custom neighbourhood of range {range} needs {needed} hex digits, found {}",
            digits.len()
        ));
    }
    c.at = start + needed;
    let hex = std::str::from_utf8(&c.text[start..c.at])
        .unwrap_or("")
        .to_string();
    // Bits most significant first, row-major, the centre cell left out (and always counted).
    let mut cells = Vec::new();
    let mut bit = 0;
    for y in 0..side {
        for x in 0..side {
            let (dx, dy) = (x - range, y - range);
            if dx == 0 && dy == 0 {
                cells.push((0, 0));
                continue;
            }
            let d = digits[bit / 4];
            if d >> (3 - bit % 4) & 1 == 1 {
                cells.push((dx, dy));
            }
            bit += 1;
        }
    }
    Ok((Neighbourhood::Custom { hex, cells }, grid_suffix(c)))
}

fn weighted(
    c: &mut Cursor,
    range: i32,
    states: u16,
) -> Result<(Neighbourhood, CellGrid), LtlError> {
    let side = (2 * range + 1) as usize;
    let needed = side * side;
    let start = c.at;
    let run = c.text[start..]
        .iter()
        .take(2 * needed)
        .take_while(|&&b| hex_digit(b).is_some())
        .count();
    let weights: Vec<i32> = if run == needed {
        c.text[start..start + needed]
            .iter()
            .map(|&b| {
                let d = hex_digit(b).unwrap_or(0);
                if d & 8 != 0 { -(d & 7) } else { d }
            })
            .collect()
    } else if run == 2 * needed {
        c.text[start..start + 2 * needed]
            .chunks(2)
            .map(|p| {
                let d = hex_digit(p[0]).unwrap_or(0) << 4 | hex_digit(p[1]).unwrap_or(0);
                if d & 128 != 0 { -(d & 127) } else { d }
            })
            .collect()
    } else {
        c.at = start + run;
        return c.fail(format!(
            "a weighted neighbourhood of range {range} needs {needed} or {} hex digits, found {run}",
            2 * needed
        ));
    };
    c.at = start + run;
    let mut state_weights = None;
    if c.eat(b',') {
        let s0 = c.at;
        let found: Vec<i32> = c.text[s0..].iter().map_while(|&b| hex_digit(b)).collect();
        if found.len() != usize::from(states) {
            return c.fail(format!(
                "{} state weights given for {states} states",
                found.len()
            ));
        }
        c.at = s0 + found.len();
        state_weights = Some(found);
    }
    let hex = std::str::from_utf8(&c.text[start..c.at])
        .unwrap_or("")
        .to_string();
    let grid = grid_suffix(c);
    Ok((
        Neighbourhood::Weighted {
            hex,
            weights,
            state_weights,
        },
        grid,
    ))
}
