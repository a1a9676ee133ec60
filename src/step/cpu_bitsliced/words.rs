//! Word arithmetic of the bit-sliced stepper: 64 cells per `u64`, full adders, the 3×3 count
//! planes, the count-path rule and the neighbour words of a row with the topology's wrap.

#[cfg(test)]
use crate::rule::Totalistic;

/// Sum `x + y + z` of three one-bit planes as (low bit, high bit), 64 cells at once.
#[inline(always)]
pub(super) fn full(x: u64, y: u64, z: u64) -> (u64, u64) {
    let xy = x ^ y;
    (xy ^ z, (x & y) | (z & xy))
}

/// The 3×3 count T (the cell included, 0..=9) as bit planes b0..b3 from the horizontal sums
/// `lo + 2·hi` of the rows above, at and below.
#[inline(always)]
pub(super) fn count9(up: (u64, u64), mid: (u64, u64), down: (u64, u64)) -> [u64; 4] {
    let (b0, carry) = full(up.0, mid.0, down.0);
    let (m0, m1) = full(up.1, mid.1, down.1);
    let (b1, c) = (carry ^ m0, carry & m0);
    [b0, b1, m1 ^ c, m1 & c]
}

/// Next-generation bits for `alive` with 3×3 count planes `t` (cell included) under `rule`,
/// a word at a time: the reference the row kernel ([`super::rows`]) is tested against.
#[cfg(test)]
pub(super) fn apply_rule(rule: Totalistic, alive: u64, t: [u64; 4]) -> u64 {
    if rule == Totalistic::CONWAY {
        // T = 3: born or survives with 2; T = 4: survives with 3.
        return !t[3] & ((t[0] & t[1] & !t[2]) | (alive & !t[0] & !t[1] & t[2]));
    }
    let mut next = 0;
    for total in 0..=9u32 {
        let born = total <= 8 && (rule.birth >> total) & 1 == 1;
        let kept = total >= 1 && (rule.survive >> (total - 1)) & 1 == 1;
        if !born && !kept {
            continue;
        }
        let bit = |i: u32, plane: u64| if (total >> i) & 1 == 1 { plane } else { !plane };
        let eq = bit(0, t[0]) & bit(1, t[1]) & bit(2, t[2]) & bit(3, t[3]);
        let who = match (born, kept) {
            (true, true) => !0,
            (true, false) => !alive,
            _ => alive,
        };
        next |= eq & who;
    }
    next
}

/// The (west, centre, east) neighbour words of every word of `row`.
#[inline(always)]
pub(super) fn row_cells(row: &[u64], width: usize, torus: bool, out: &mut [(u64, u64, u64)]) {
    for (k, cells) in out.iter_mut().enumerate() {
        let (west, east) = west_east(row, k, width, torus);
        *cells = (west, row[k], east);
    }
}

/// Horizontal sums (west + centre + east = lo + 2·hi) of every word of `row`, a word at a
/// time: the reference of the row kernel's sums.
#[cfg(test)]
pub(super) fn row_sums(row: &[u64], width: usize, torus: bool, out: &mut [(u64, u64)]) {
    for (k, sums) in out.iter_mut().enumerate() {
        let (west, east) = west_east(row, k, width, torus);
        let c = row[k];
        let x = west ^ c;
        *sums = (x ^ east, (west & c) | (east & x));
    }
}

/// Per-row neighbour words: west and east shifted copies with the topology's wrap.
#[inline(always)]
pub(super) fn west_east(row: &[u64], k: usize, width: usize, torus: bool) -> (u64, u64) {
    let n = row.len();
    let w = row[k];
    let carry_in = if k > 0 {
        row[k - 1] >> 63
    } else if torus {
        (row[(width - 1) / 64] >> ((width - 1) % 64)) & 1
    } else {
        0
    };
    let mut east = (w >> 1) | if k + 1 < n { row[k + 1] << 63 } else { 0 };
    if k == n - 1 && torus {
        east |= (row[0] & 1) << ((width - 1) % 64);
    }
    ((w << 1) | carry_in, east)
}
