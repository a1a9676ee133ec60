//! The neighbour-count path's row kernel, written once and compiled twice: portable, and
//! with AVX-512 enabled (chosen at run time by [`Simd::detect`]).
//!
//! A row of the next generation is two passes over its words: the horizontal sums
//! (west + centre + east = lo + 2·hi) of the row below, kept in a ring of three, then the
//! 3×3 count planes and the rule. Both passes are branch-free over the row's interior words
//! (the wrap of the first and last word is done apart), so the compiler vectorises them:
//! eight words per instruction with AVX-512, where `vpternlog` is the CPU's `lop3` and folds
//! each full adder's majority into one instruction. The portable build vectorises to SSE2.

use super::words::{count9, west_east};
use crate::rule::Totalistic;

/// Which compiled copy of the row kernel a stepper runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simd {
    /// The baseline target's instructions (SSE2 on x86-64): runs everywhere.
    Portable,
    /// AVX-512 F + VL + BW (x86-64 only; [`Simd::detect`] checks the CPU has them).
    Avx512,
}

impl Simd {
    /// The widest copy this CPU runs.
    pub fn detect() -> Simd {
        if Simd::Avx512.available() {
            Simd::Avx512
        } else {
            Simd::Portable
        }
    }

    /// Whether this CPU can run the copy.
    pub fn available(self) -> bool {
        match self {
            Simd::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Simd::Avx512 => false,
        }
    }

    /// Name for reports (`golab bench`'s notes, docs).
    pub fn name(self) -> &'static str {
        match self {
            Simd::Portable => "portable",
            Simd::Avx512 => "avx512",
        }
    }
}

/// An outer-totalistic rule as the row kernel evaluates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowRule {
    /// B3/S23 in five operations.
    Conway,
    /// Any other: bit `alive | T << 1` of the table is the next state of a cell that is
    /// `alive` with 3×3 count `T` (itself included), evaluated as a tree of 31 selects.
    Table(u32),
}

impl RowRule {
    /// The kernel's form of `rule`.
    pub fn of(rule: Totalistic) -> RowRule {
        if rule == Totalistic::CONWAY {
            return RowRule::Conway;
        }
        let mut table = 0u32;
        for total in 0..=9u32 {
            let born = total <= 8 && (rule.birth >> total) & 1 == 1;
            let kept = total >= 1 && (rule.survive >> (total - 1)) & 1 == 1;
            table |= u32::from(born) << (total << 1);
            table |= u32::from(kept) << ((total << 1) | 1);
        }
        RowRule::Table(table)
    }
}

/// What a band of rows needs besides the rows themselves.
#[derive(Debug, Clone, Copy)]
pub struct RowShape {
    /// Cells per row.
    pub width: usize,
    /// Words per row.
    pub words: usize,
    /// Whether rows wrap (torus) or end in dead cells.
    pub torus: bool,
    /// Bits of the last word inside the world.
    pub last_mask: u64,
    /// The rule.
    pub rule: RowRule,
}

/// Row `y` of `plane` (`height` rows of `words` words) for any `y`: wrapped on a torus,
/// `zero` (a dead row) beyond a dead border. What every band reads its neighbour rows with.
#[inline(always)]
pub fn plane_row<'a>(
    plane: &'a [u64],
    (words, height): (usize, usize),
    torus: bool,
    zero: &'a [u64],
    y: isize,
) -> &'a [u64] {
    if (0..height as isize).contains(&y) || torus {
        let y = y.rem_euclid(height as isize) as usize;
        &plane[y * words..(y + 1) * words]
    } else {
        zero
    }
}

/// Next generation of the rows `y0 .. y0 + next.len() / words` into `next`; `row(y)` gives
/// row `y` of the current generation for `y0 - 1 ..= last + 1` (wrapped or dead already).
pub fn step_band<'a>(
    simd: Simd,
    shape: &RowShape,
    row: impl Fn(isize) -> &'a [u64],
    y0: isize,
    next: &mut [u64],
) {
    match simd {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 if Simd::Avx512.available() => {
            // SAFETY: the CPU has the features the function is compiled for (checked above).
            unsafe { step_band_avx512(shape, row, y0, next) }
        }
        _ => step_band_body(shape, row, y0, next),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw")]
fn step_band_avx512<'a>(
    shape: &RowShape,
    row: impl Fn(isize) -> &'a [u64],
    y0: isize,
    next: &mut [u64],
) {
    step_band_body(shape, row, y0, next)
}

#[inline(always)]
fn step_band_body<'a>(
    shape: &RowShape,
    row: impl Fn(isize) -> &'a [u64],
    y0: isize,
    next: &mut [u64],
) {
    let words = shape.words;
    let mut lo = [vec![0u64; words], vec![0u64; words], vec![0u64; words]];
    let mut hi = [vec![0u64; words], vec![0u64; words], vec![0u64; words]];
    row_sums(row(y0 - 1), shape, &mut lo[0], &mut hi[0]);
    row_sums(row(y0), shape, &mut lo[1], &mut hi[1]);
    for (r, out) in next.chunks_exact_mut(words).enumerate() {
        let y = y0 + r as isize;
        let [lo0, lo1, lo2] = &mut lo;
        let [hi0, hi1, hi2] = &mut hi;
        row_sums(row(y + 1), shape, lo2, hi2);
        let mid = row(y);
        match shape.rule {
            RowRule::Conway => {
                for_each_word(mid, [lo0, lo1, lo2], [hi0, hi1, hi2], out, |alive, t| {
                    !t[3] & ((t[0] & t[1] & !t[2]) | (alive & !t[0] & !t[1] & t[2]))
                })
            }
            RowRule::Table(table) => {
                let leaf: [u64; 32] =
                    std::array::from_fn(|i| 0u64.wrapping_sub(u64::from((table >> i) & 1)));
                for_each_word(mid, [lo0, lo1, lo2], [hi0, hi1, hi2], out, |alive, t| {
                    select_tree(&leaf, [alive, t[0], t[1], t[2], t[3]])
                })
            }
        }
        out[words - 1] &= shape.last_mask;
        lo.rotate_left(1);
        hi.rotate_left(1);
    }
}

/// `out[k] = next(mid[k], count planes of word k)` over a row, slices cut to one length so
/// the loop has no bounds checks and vectorises.
#[inline(always)]
fn for_each_word(
    mid: &[u64],
    lo: [&mut Vec<u64>; 3],
    hi: [&mut Vec<u64>; 3],
    out: &mut [u64],
    next: impl Fn(u64, [u64; 4]) -> u64,
) {
    let n = out.len();
    let (mid, lo0, lo1, lo2) = (&mid[..n], &lo[0][..n], &lo[1][..n], &lo[2][..n]);
    let (hi0, hi1, hi2) = (&hi[0][..n], &hi[1][..n], &hi[2][..n]);
    for k in 0..n {
        let t = count9((lo0[k], hi0[k]), (lo1[k], hi1[k]), (lo2[k], hi2[k]));
        out[k] = next(mid[k], t);
    }
}

/// The table's entry for inputs `v` (bit `i` of the index is `v[i]`), 64 cells at once.
#[inline(always)]
fn select_tree(leaf: &[u64; 32], v: [u64; 5]) -> u64 {
    let select = |s: u64, one: u64, zero: u64| (s & one) | (!s & zero);
    let l1: [u64; 16] = std::array::from_fn(|j| select(v[0], leaf[2 * j + 1], leaf[2 * j]));
    let l2: [u64; 8] = std::array::from_fn(|j| select(v[1], l1[2 * j + 1], l1[2 * j]));
    let l3: [u64; 4] = std::array::from_fn(|j| select(v[2], l2[2 * j + 1], l2[2 * j]));
    let l4: [u64; 2] = std::array::from_fn(|j| select(v[3], l3[2 * j + 1], l3[2 * j]));
    select(v[4], l4[1], l4[0])
}

/// Horizontal sums of `row` into `lo`, `hi`: the first and last word with the topology's
/// wrap, the words between them in one branch-free loop.
#[inline(always)]
fn row_sums(row: &[u64], shape: &RowShape, lo: &mut [u64], hi: &mut [u64]) {
    let n = row.len();
    let sum = |west: u64, c: u64, east: u64| {
        let x = west ^ c;
        (x ^ east, (west & c) | (east & x))
    };
    for k in [0, n - 1] {
        let (west, east) = west_east(row, k, shape.width, shape.torus);
        (lo[k], hi[k]) = sum(west, row[k], east);
    }
    if n <= 2 {
        return;
    }
    let inner = n - 2;
    let (left, mid, right) = (&row[..inner], &row[1..=inner], &row[2..n]);
    let (lo, hi) = (&mut lo[1..=inner], &mut hi[1..=inner]);
    for k in 0..inner {
        let c = mid[k];
        let west = (c << 1) | (left[k] >> 63);
        let east = (c >> 1) | (right[k] << 63);
        (lo[k], hi[k]) = sum(west, c, east);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::cpu_bitsliced::words::{apply_rule, row_sums as reference_sums};

    fn random_words(n: usize, seed: u64) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect()
    }

    /// Both compiled copies give the word-at-a-time reference's rows, for B3/S23 and table
    /// rules, on a torus and a dead border, at widths around the word size. (On a CPU
    /// without AVX-512 the AVX-512 request runs the portable copy: the fallback is what is
    /// tested there, and the test says so.)
    #[test]
    fn both_copies_match_the_reference() {
        if !Simd::Avx512.available() {
            eprintln!("no AVX-512 on this CPU: its request is checked to fall back to portable");
        }
        let rules = [
            Totalistic::CONWAY,
            Totalistic {
                birth: 0b100_1000,
                survive: 0b1100,
            },
            Totalistic {
                birth: 0b1_1111_1111,
                survive: 0b1_0000_0001,
            },
        ];
        for width in [1usize, 63, 64, 65, 127, 128, 200, 1000] {
            for torus in [true, false] {
                for rule in rules {
                    let words = width.div_ceil(64);
                    let height = 7;
                    let last_mask = match width % 64 {
                        0 => !0,
                        r => (1u64 << r) - 1,
                    };
                    let mut cur = random_words(words * height, width as u64 * 31 + 7);
                    for r in 0..height {
                        cur[r * words + words - 1] &= last_mask;
                    }
                    let zero = vec![0u64; words];
                    let row = |y| plane_row(&cur, (words, height), torus, &zero, y);
                    let mut expected = vec![0u64; words * height];
                    let mut sums = vec![vec![(0, 0); words]; 3];
                    for y in 0..height as isize {
                        for (d, s) in sums.iter_mut().enumerate() {
                            reference_sums(row(y + d as isize - 1), width, torus, s);
                        }
                        for k in 0..words {
                            let t = count9(sums[0][k], sums[1][k], sums[2][k]);
                            expected[y as usize * words + k] = apply_rule(rule, row(y)[k], t);
                        }
                        expected[y as usize * words + words - 1] &= last_mask;
                    }
                    let shape = RowShape {
                        width,
                        words,
                        torus,
                        last_mask,
                        rule: RowRule::of(rule),
                    };
                    for simd in [Simd::Portable, Simd::Avx512] {
                        let mut next = vec![0u64; words * height];
                        // Two bands, so a band that starts inside the world is covered.
                        let (a, b) = next.split_at_mut(3 * words);
                        step_band(simd, &shape, row, 0, a);
                        step_band(simd, &shape, row, 3, b);
                        assert_eq!(
                            next, expected,
                            "{simd:?} width {width} torus {torus} {rule:?}"
                        );
                    }
                }
            }
        }
    }
}
