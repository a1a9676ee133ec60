//! Counting Larger than Life neighbourhoods on the CPU, two ways that must agree:
//!
//! - [`step_naive`]: every counted cell read for every cell, (2r+1)² work at worst — the
//!   reference the tests hold every strategy to;
//! - [`Counter`]: row prefix sums, so a cell's count is two reads per run of its
//!   neighbourhood's rows (O(r) for discs), for the Moore square a running column sum of
//!   the rows' window sums, and for the von Neumann diamond a running sum of diagonal runs
//!   ([`super::diagonal`]) — O(1) per cell whatever r is.
//!
//! Both read the world as one state byte per cell, row-major; beyond the edges a torus
//! wraps and a dead border reads 0.

use super::diagonal::Diagonals;
use super::{Ltl, Shape};

/// A world's states as the counters read them.
#[derive(Clone, Copy)]
pub struct States<'a> {
    /// One state per cell, row-major.
    pub cells: &'a [u8],
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Whether edges wrap.
    pub torus: bool,
    /// Parity of `x + y` of the first cell in its grid (a window cut out of a world at an
    /// odd position): on a triangular grid a cell whose grid `x + y` is odd is upside down.
    pub parity: usize,
}

impl States<'_> {
    /// Whether `shape` is counted upside down at `(x, y)` (an upward triangle).
    #[inline]
    pub fn flipped(&self, shape: &Shape, x: i64, y: i64) -> bool {
        shape.flip && (x + y + self.parity as i64) & 1 == 1
    }

    /// The state at `(x, y)` (any integers: wrapped or dead beyond the edges).
    #[inline]
    pub fn at(&self, x: i64, y: i64) -> u8 {
        let (w, h) = (self.width as i64, self.height as i64);
        if self.torus {
            self.cells[(y.rem_euclid(h) * w + x.rem_euclid(w)) as usize]
        } else if (0..w).contains(&x) && (0..h).contains(&y) {
            self.cells[(y * w + x) as usize]
        } else {
            0
        }
    }
}

/// Golly's count of the cell at `(x, y)` by reading every cell of its neighbourhood.
pub fn count_naive(rule: &Ltl, shape: &Shape, s: &States, x: i64, y: i64) -> i32 {
    let n = &rule.neighbourhood;
    let mut count = 0;
    let flip = s.flipped(shape, x, y);
    for &(dx, dy, weight) in &shape.cells {
        let dy = if flip { -dy } else { dy };
        let state = s.at(x + i64::from(dx), y + i64::from(dy));
        count += weight * n.state_weight(state);
    }
    if n.centre_bonus() && s.at(x, y) != 0 {
        count += 1;
    }
    count
}

/// One generation by naive counting (the test reference): the next state of every cell.
pub fn step_naive(rule: &Ltl, s: &States, odd: bool) -> Vec<u8> {
    let shape = rule.shape();
    let mut out = vec![0u8; s.cells.len()];
    for y in 0..s.height {
        for x in 0..s.width {
            let count = count_naive(rule, &shape, s, x as i64, y as i64);
            out[y * s.width + x] = rule.next(s.cells[y * s.width + x], count, odd);
        }
    }
    out
}

/// Row prefix sums of one generation's state-1 cells, and the rows' next states from them.
pub struct Counter {
    /// Range r.
    r: usize,
    /// Extended row length: `width + 2r + 1` prefix entries.
    stride: usize,
    /// `prefix[y * stride + i]`: state-1 cells among extended columns `0..i` of row y,
    /// where extended column j is world column `j − r` (wrapped or dead).
    prefix: Vec<u32>,
    /// The diamond's diagonal sums (filled instead of `prefix` for a diamond).
    diagonals: Diagonals,
    /// The Gaussian's row tents, `width` a row: Σ (r + 1 − |dx|) state-1 cells of row y
    /// about each column (filled after `prefix` for a tent).
    tents: Vec<u32>,
}

impl Counter {
    /// An empty counter for range `r` (fill it with [`Counter::fill_rows`]).
    pub fn new(r: usize, width: usize, height: usize) -> Counter {
        let stride = width + 2 * r + 1;
        Counter {
            r,
            stride,
            prefix: vec![0; stride * height],
            diagonals: Diagonals::default(),
            tents: Vec::new(),
        }
    }

    /// The sums `shape` counts from (prefix rows, or a diamond's diagonal sums; then a
    /// Gaussian's row tents) of `s`, serially or over every core (the counter takes `s`'s
    /// size).
    pub fn fill(&mut self, shape: &Shape, s: &States, parallel: bool) {
        use rayon::prelude::*;
        if shape.diamond {
            self.diagonals.fill(s, self.r, parallel);
            return;
        }
        self.stride = s.width + 2 * self.r + 1;
        self.prefix.resize(self.stride * s.height, 0);
        let (r, stride) = (self.r, self.stride);
        let row = |(y, out): (usize, &mut [u32])| fill_row(s, r, y, out);
        if parallel {
            self.prefix.par_chunks_mut(stride).enumerate().for_each(row);
        } else {
            self.prefix.chunks_mut(stride).enumerate().for_each(row);
        }
        if !shape.tent {
            return;
        }
        // Each row's tent once a generation (bands would each redo the 2r rows about them):
        // the windows of half-width 0..=r added up.
        self.tents.resize(s.width * s.height, 0);
        let prefix = &self.prefix;
        let tent = |(y, out): (usize, &mut [u32])| {
            let row = &prefix[y * stride..(y + 1) * stride];
            out.fill(0);
            for k in 0..=r {
                for (x, t) in out.iter_mut().enumerate() {
                    *t += row[x + r + k + 1] - row[x + r - k];
                }
            }
        };
        if parallel {
            self.tents
                .par_chunks_mut(s.width)
                .enumerate()
                .for_each(tent);
        } else {
            self.tents.chunks_mut(s.width).enumerate().for_each(tent);
        }
    }

    /// Range r.
    pub fn range(&self) -> usize {
        self.r
    }

    /// Next states of rows `first..first + out.len() / width` into `out`.
    pub fn next_rows(
        &self,
        rule: &Ltl,
        shape: &Shape,
        s: &States,
        odd: bool,
        first: usize,
        out: &mut [u8],
    ) {
        let w = s.width;
        let rows = out.len() / w;
        if shape.tent {
            return self.tent_rows(rule, s, odd, first, out);
        }
        if !shape.plain {
            for (i, row) in out.chunks_exact_mut(w).enumerate() {
                let y = (first + i) as i64;
                for (x, cell) in row.iter_mut().enumerate() {
                    let count = count_naive(rule, shape, s, x as i64, y);
                    *cell = rule.next(s.cells[(first + i) * w + x], count, odd);
                }
            }
            return;
        }
        let r = self.r;
        let prefix_row = |y: i64| self.prefix_row(s, y);
        if shape.diamond {
            let mut columns = vec![0i32; w];
            self.diagonals.diamonds(first, &mut columns);
            for i in 0..rows {
                let y = first + i;
                if i > 0 {
                    self.diagonals.slide(y, &mut columns);
                }
                let cells = &s.cells[y * w..(y + 1) * w];
                for ((out, &state), &count) in
                    out[i * w..(i + 1) * w].iter_mut().zip(cells).zip(&columns)
                {
                    *out = rule.next(state, count, odd);
                }
            }
            return;
        }
        if shape.square {
            // Running column sums of the rows' window sums: add the row entering the window,
            // subtract the one leaving it.
            let window = |row: &[u32], x: usize| row[x + 2 * r + 1] - row[x];
            let mut columns = vec![0u32; w];
            for dy in -(r as i64)..=r as i64 {
                if let Some(row) = prefix_row(first as i64 + dy) {
                    for (x, c) in columns.iter_mut().enumerate() {
                        *c += window(row, x);
                    }
                }
            }
            for i in 0..rows {
                let y = first + i;
                if i > 0 {
                    if let Some(row) = prefix_row(y as i64 + r as i64) {
                        for (x, c) in columns.iter_mut().enumerate() {
                            *c += window(row, x);
                        }
                    }
                    if let Some(row) = prefix_row(y as i64 - r as i64 - 1) {
                        for (x, c) in columns.iter_mut().enumerate() {
                            *c -= window(row, x);
                        }
                    }
                }
                let cells = &s.cells[y * w..(y + 1) * w];
                for ((out, &state), &count) in
                    out[i * w..(i + 1) * w].iter_mut().zip(cells).zip(&columns)
                {
                    *out = rule.next(state, count as i32, odd);
                }
            }
            return;
        }
        let mut counts = vec![0u32; w];
        for i in 0..rows {
            let y = (first + i) as i64;
            counts.fill(0);
            // On a triangular grid every other cell reads the runs upside down: upright
            // cells from `upright`, flipped ones from `1 - upright`, every second cell.
            let upright = usize::from(s.flipped(shape, 0, y));
            for &(dy, lo, hi) in &shape.runs {
                let (lo, hi) = ((lo + r as i32) as usize, (hi + r as i32 + 1) as usize);
                let add = |row: &[u32], c: &mut u32, x: usize| *c += row[x + hi] - row[x + lo];
                let (first_cell, step) = if shape.flip { (upright, 2) } else { (0, 1) };
                if let Some(row) = prefix_row(y + i64::from(dy)) {
                    let cells = counts.iter_mut().enumerate().skip(first_cell);
                    for (x, c) in cells.step_by(step) {
                        add(row, c, x);
                    }
                }
                if shape.flip
                    && let Some(row) = prefix_row(y - i64::from(dy))
                {
                    let cells = counts.iter_mut().enumerate().skip(1 - upright);
                    for (x, c) in cells.step_by(2) {
                        add(row, c, x);
                    }
                }
            }
            let row = first + i;
            let cells = &s.cells[row * w..(row + 1) * w];
            for ((out, &state), &count) in
                out[i * w..(i + 1) * w].iter_mut().zip(cells).zip(&counts)
            {
                *out = rule.next(state, count as i32, odd);
            }
        }
    }
}

impl Counter {
    /// The index of world row `y` (wrapped on a torus; `None` beyond a dead border).
    fn row_index(s: &States, y: i64) -> Option<usize> {
        let h = s.height as i64;
        if s.torus {
            Some(y.rem_euclid(h) as usize)
        } else {
            (0..h).contains(&y).then_some(y as usize)
        }
    }

    /// The prefix row of world row `y` (wrapped on a torus; `None` beyond a dead border).
    fn prefix_row<'a>(&'a self, s: &States, y: i64) -> Option<&'a [u32]> {
        let at = Self::row_index(s, y)? * self.stride;
        Some(&self.prefix[at..at + self.stride])
    }

    /// Golly's Gaussian on rows `first..`: each cell's tent of its rows' tents,
    /// Σ (r + 1 − |dy|) H(y + dy) ([`Counter::fill`] made the row tents H), plus one for an
    /// occupied cell — O(r) a cell where reading every weighted cell costs O(r²).
    fn tent_rows(&self, rule: &Ltl, s: &States, odd: bool, first: usize, out: &mut [u8]) {
        let (w, r) = (s.width, self.r as i64);
        let mut count = vec![0u32; w];
        for (i, out) in out.chunks_exact_mut(w).enumerate() {
            let y = first + i;
            count.fill(0);
            for dy in -r..=r {
                let Some(at) = Self::row_index(s, y as i64 + dy) else {
                    continue;
                };
                let weight = (r + 1 - dy.abs()) as u32;
                for (c, &t) in count.iter_mut().zip(&self.tents[at * w..(at + 1) * w]) {
                    *c += weight * t;
                }
            }
            let cells = &s.cells[y * w..(y + 1) * w];
            for ((o, &state), &c) in out.iter_mut().zip(cells).zip(&count) {
                *o = rule.next(state, c as i32 + i32::from(state != 0), odd);
            }
        }
    }
}

/// Prefix sums of row `y`'s state-1 cells over its extended columns: the r columns left of
/// the world (wrapped or dead), the row itself (no bounds checks), the r columns right.
fn fill_row(s: &States, r: usize, y: usize, out: &mut [u32]) {
    let w = s.width;
    let row = &s.cells[y * w..(y + 1) * w];
    let beyond =
        |x: i64| -> u32 { u32::from(s.torus && row[x.rem_euclid(w as i64) as usize] == 1) };
    let mut sum = 0u32;
    out[0] = 0;
    let (left, rest) = out[1..].split_at_mut(r);
    for (j, o) in left.iter_mut().enumerate() {
        sum += beyond(j as i64 - r as i64);
        *o = sum;
    }
    let (body, right) = rest.split_at_mut(w);
    for (o, &state) in body.iter_mut().zip(row) {
        sum += u32::from(state == 1);
        *o = sum;
    }
    for (j, o) in right.iter_mut().enumerate() {
        sum += beyond((w + j) as i64);
        *o = sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::ltl::parse::parse;

    fn soup(w: usize, h: usize, states: u8, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..w * h)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x.is_multiple_of(3) {
                    (x >> 8) as u8 % states
                } else {
                    0
                }
            })
            .collect()
    }

    #[test]
    fn prefix_counts_equal_naive_counts() {
        for (rule, w, h) in [
            ("R3,C0,M1,S10..20,B8..14,NM", 13, 9),
            ("R2,C4,M0,S3..6,B4..5,NN", 11, 7),
            ("R9,C0,M1,S20..60,B25..50,NN", 23, 150),
            ("R70,C0,M1,S2000..6000,B2500..5000,NN", 141, 200),
            ("R3,C0,S5-12,B6-9,NC", 17, 10),
            ("R2,C0,S2-5,B3-4,NX", 9, 12),
            ("R3,C0,S2-5,B3-4,N#", 9, 12),
            ("R2,C0,S2-5,B3-4,NB", 10, 11),
            ("R2,C3,S2-5,B3-4,NH", 10, 11),
            ("R2,C0,S9-20,B10-30,NG", 8, 9),
            ("R20,C3,S9000-60000,B12000-40000,NG", 45, 43),
            ("R1,C3,S2-9,B3-5,NW1234f1323,012", 8, 9),
            ("R7,C0,M1,S30..90,B40..80,NM", 5, 4),
            ("R2,C0,S5-14,B6-9,NL", 13, 10),
            ("R3,C4,S10-30,B12-20,NL", 16, 9),
            ("R2,C0,S2-5,B3-4,N@96a4e1L", 9, 12),
            ("R1,C3,S2-9,B3-5,NW1234f1323,012L", 8, 9),
        ] {
            let ltl = parse(rule).unwrap();
            let shape = ltl.shape();
            for torus in [false, true] {
                let cells = soup(w, h, ltl.states.min(255) as u8, w as u64 * 31 + h as u64);
                let s = States {
                    cells: &cells,
                    width: w,
                    height: h,
                    torus,
                    parity: 0,
                };
                let naive = step_naive(&ltl, &s, false);
                let mut counter = Counter::new(ltl.reach() as usize, w, h);
                counter.fill(&shape, &s, false);
                let mut fast = vec![0u8; w * h];
                counter.next_rows(&ltl, &shape, &s, false, 0, &mut fast);
                assert_eq!(fast, naive, "{rule} torus={torus}");
                // A band starting mid-world computes the same rows.
                let mut band = vec![0u8; w * 2];
                counter.next_rows(&ltl, &shape, &s, false, 1, &mut band);
                assert_eq!(band, naive[w..3 * w], "{rule} band");
            }
        }
    }
}
