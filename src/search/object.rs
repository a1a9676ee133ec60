//! Small patterns on their own: a two-state rule's steps, apgsearch's periodicity test
//! (which samples the evolution at growing intervals up to a limit), the exact period and
//! displacement, and the apgcode (the best extended Wechsler code over phases and the
//! eight orientations, `ov_` when too large).

use std::collections::HashMap;
use std::sync::Arc;

use crate::pattern::apgcode::canonical_wechsler;
use crate::rule::circuit::Circuit;
use crate::rule::synth::compile;

/// A two-state Moore rule as a 512-entry table: bit `i` says whether a cell whose
/// neighbourhood index is `i` (bit 8 the north-west cell … 4 the centre … 0 the
/// south-east, golab's [`crate::rule::Rule::table`]) lives next generation; with the same
/// rule as a bitwise circuit, to step 64 cells at a time.
#[derive(Debug, Clone)]
pub struct Table {
    bits: [u64; 8],
    circuit: Arc<Circuit>,
}

impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.bits == other.bits
    }
}

impl Table {
    /// The rule of `bits` (golab's table layout).
    pub fn new(bits: [u64; 8]) -> Table {
        Table {
            bits,
            circuit: Arc::new(compile(&bits)),
        }
    }

    /// Next state of the centre of neighbourhood `index`.
    #[inline]
    pub fn next(&self, index: usize) -> bool {
        self.bits[index >> 6] >> (index & 63) & 1 == 1
    }
}

/// Live cells, sorted by row then column.
pub type Cells = Vec<(i64, i64)>;

/// One generation of `cells` under `rule` (no birth from nothing: B0 rules are not
/// searched): on a bitmap of their box when it is small enough, else cell by cell.
pub fn step(cells: &[(i64, i64)], rule: &Table) -> Cells {
    let Some((x0, y0, w, h)) = bbox(cells) else {
        return Vec::new();
    };
    let words = (w as usize + 2).div_ceil(64);
    let rows = h as usize + 2;
    if words * rows > 1 << 16 {
        return step_sparse(cells, rule);
    }
    // Row r, bit b: cell (x0 − 1 + 64·k + b, y0 − 1 + r).
    let mut grid = vec![0u64; words * rows];
    for &(x, y) in cells {
        let (c, r) = ((x - x0 + 1) as usize, (y - y0 + 1) as usize);
        grid[r * words + c / 64] |= 1 << (c % 64);
    }
    let at = |r: isize, k: isize| -> u64 {
        if r < 0 || r >= rows as isize || k < 0 || k >= words as isize {
            0
        } else {
            grid[r as usize * words + k as usize]
        }
    };
    let mut out = Vec::with_capacity(cells.len() + 8);
    for r in 0..rows as isize {
        for k in 0..words as isize {
            // Each of the nine planes holds, at bit b, the cell at that offset from b.
            let row = |dr: isize| {
                let (lo, mid, hi) = (at(r + dr, k - 1), at(r + dr, k), at(r + dr, k + 1));
                (mid << 1 | lo >> 63, mid, mid >> 1 | hi << 63)
            };
            let (nw, n, ne) = row(-1);
            let (we, c, e) = row(0);
            let (sw, s, se) = row(1);
            let next = rule.circuit.eval_cells(&[se, s, sw, e, c, we, ne, n, nw]);
            let mut bits = next;
            while bits != 0 {
                let b = bits.trailing_zeros() as i64;
                out.push((x0 - 1 + 64 * k as i64 + b, y0 - 1 + r as i64));
                bits &= bits - 1;
            }
        }
    }
    out
}

/// [`step`] through a map of neighbourhoods, for far-flung cells.
fn step_sparse(cells: &[(i64, i64)], rule: &Table) -> Cells {
    // Each live cell adds its bit to the neighbourhood index of the nine cells around it.
    let mut index: HashMap<(i64, i64), u16> = HashMap::with_capacity(cells.len() * 9);
    for &(x, y) in cells {
        for dy in -1..=1i64 {
            for dx in -1..=1i64 {
                // The live cell is at offset (−dx, −dy) from (x + dx, y + dy).
                let bit = 8 - ((1 - dy) * 3 + (1 - dx));
                *index.entry((x + dx, y + dy)).or_insert(0) |= 1 << bit;
            }
        }
    }
    let mut out: Cells = index
        .into_iter()
        .filter(|&(_, i)| rule.next(usize::from(i)))
        .map(|(c, _)| c)
        .collect();
    out.sort_unstable_by_key(|&(x, y)| (y, x));
    out
}

/// `cells` after `n` generations.
pub fn advance(cells: &[(i64, i64)], n: u64, rule: &Table) -> Cells {
    let mut c = cells.to_vec();
    for _ in 0..n {
        if c.is_empty() {
            break;
        }
        c = step(&c, rule);
    }
    c
}

/// Left, top, width and height of the live cells (`None` when empty).
pub fn bbox(cells: &[(i64, i64)]) -> Option<(i64, i64, i64, i64)> {
    let x0 = cells.iter().map(|c| c.0).min()?;
    let x1 = cells.iter().map(|c| c.0).max()?;
    let y0 = cells.iter().map(|c| c.1).min()?;
    let y1 = cells.iter().map(|c| c.1).max()?;
    Some((x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

/// The cells moved by (dx, dy).
pub fn shifted(cells: &[(i64, i64)], dx: i64, dy: i64) -> Cells {
    cells.iter().map(|&(x, y)| (x + dx, y + dy)).collect()
}

/// The cells moved so that their box starts at (0, 0).
pub fn normalized(cells: &[(i64, i64)]) -> Cells {
    match bbox(cells) {
        Some((x0, y0, _, _)) => shifted(cells, -x0, -y0),
        None => Vec::new(),
    }
}

/// A period apgsearch's test finds: the pattern returns to itself (moved by dx, dy) after
/// `dt` generations, a multiple of its period. Sampled at 8, 16, … generations, the step
/// doubling as the samples grow, compared by shape, up to `gmax` generations; `None`
/// when no return is seen (or the pattern dies, or becomes periodic only later).
pub fn find_return(cells: &[(i64, i64)], gmax: u64, rule: &Table) -> Option<(u64, i64, i64)> {
    if cells.is_empty() {
        return Some((1, 0, 0));
    }
    let (ox, oy, _, _) = bbox(cells)?;
    let mut x = advance(cells, 8, rule);
    if x == cells {
        return Some((8, 0, 0));
    }
    let mut lowbits = 30u32;
    while ((1u64 << lowbits) << lowbits) > gmax {
        lowbits -= 1;
    }
    let (mut g, mut i) = (8u64, 8u64);
    let mut seen: HashMap<Cells, u64> = HashMap::new();
    while g < gmax {
        let Some((bx, by, _, _)) = bbox(&x) else {
            break;
        };
        let shape = shifted(&x, ox - bx, oy - by);
        match seen.get(&shape) {
            Some(&g2) => {
                let delta = g - g2;
                let y = advance(cells, delta, rule);
                if let Some((yx, yy, _, _)) = bbox(&y)
                    && shifted(&y, ox - yx, oy - yy) == cells
                {
                    return Some((delta, yx - ox, yy - oy));
                }
                if normalized(&advance(cells, g, rule)) == normalized(&advance(cells, g2, rule)) {
                    // Periodic from some generation on, so never back to the start.
                    return None;
                }
            }
            None => {
                seen.insert(shape, g);
            }
        }
        x = advance(&x, i, rule);
        g += i;
        if (i << lowbits) == 0 {
            break;
        }
        if g % (i << lowbits) == 0 {
            i *= 2;
        }
    }
    None
}

/// The exact period and displacement of a periodic pattern (found within `gmax`
/// generations), else `None`.
pub fn period(cells: &[(i64, i64)], gmax: u64, rule: &Table) -> Option<(u64, i64, i64)> {
    let (dt, _, _) = find_return(cells, gmax, rule)?;
    exact_period(cells, dt, rule)
}

/// The exact period and displacement of a pattern that returns to itself after `dt`
/// generations (a multiple of its period).
pub fn exact_period(cells: &[(i64, i64)], dt: u64, rule: &Table) -> Option<(u64, i64, i64)> {
    let (ox, oy, _, _) = bbox(cells)?;
    let mut phase = cells.to_vec();
    for p in 1..=dt {
        phase = step(&phase, rule);
        if !dt.is_multiple_of(p) {
            continue;
        }
        if let Some((bx, by, _, _)) = bbox(&phase)
            && shifted(&phase, ox - bx, oy - by) == cells
        {
            return Some((p, bx - ox, by - oy));
        }
    }
    None
}

/// apgsearch's name for a periodic pattern of period `p` and displacement (dx, dy): the
/// best code over its phases (those of at most 1280 characters, with boxes of at most
/// 40 000 cells counting a margin of one), `ov_…` without one.
pub fn apgcode_of(cells: &[(i64, i64)], p: u64, dx: i64, dy: i64, rule: &Table) -> String {
    if cells.is_empty() {
        return "xs0_0".to_string();
    }
    let mut rep: Option<String> = None;
    let mut phase = cells.to_vec();
    for t in 0..p {
        if t != 0 {
            phase = step(&phase, rule);
        }
        let Some((_, _, w, h)) = bbox(&phase) else {
            continue;
        };
        if (w + 2) * (h + 2) > 40_000 {
            continue;
        }
        let code = canonical_wechsler(&phase);
        if code.len() <= 1280 {
            rep = Some(match rep {
                None => code,
                Some(best) => better(best, code),
            });
        }
    }
    let kind = if p == 1 && dx == 0 && dy == 0 {
        format!("s{}", cells.len())
    } else if dx == 0 && dy == 0 {
        format!("p{p}")
    } else {
        format!("q{p}")
    };
    match rep {
        Some(rep) => format!("x{kind}_{rep}"),
        None => format!("ov_{kind}"),
    }
}

/// The shorter code, then the first in byte order.
fn better(a: String, b: String) -> String {
    if (b.len(), b.as_bytes()) < (a.len(), a.as_bytes()) {
        b
    } else {
        a
    }
}

/// The apgcode of `cells` if periodic within `gmax` generations.
pub fn apgcode(cells: &[(i64, i64)], gmax: u64, rule: &Table) -> Option<String> {
    if cells.is_empty() {
        return Some("xs0_0".to_string());
    }
    let (p, dx, dy) = period(cells, gmax, rule)?;
    Some(apgcode_of(cells, p, dx, dy, rule))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn life() -> Table {
        let rule = crate::rule::Rule::parse("B3/S23").unwrap();
        Table::new(*rule.table())
    }

    #[test]
    fn common_objects() {
        let rule = life();
        let block = vec![(0, 0), (1, 0), (0, 1), (1, 1)];
        assert_eq!(apgcode(&block, 1024, &rule).unwrap(), "xs4_33");
        let blinker = vec![(0, 0), (1, 0), (2, 0)];
        assert_eq!(apgcode(&blinker, 1024, &rule).unwrap(), "xp2_7");
        let glider = vec![(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)];
        assert_eq!(apgcode(&glider, 1024, &rule).unwrap(), "xq4_153");
        assert_eq!(apgcode(&[(0, 0), (5, 5)], 1024, &rule), None);
    }
}
