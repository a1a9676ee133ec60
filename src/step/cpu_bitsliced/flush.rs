//! The birth flush: for every cell alive now and born since the last flush, the generation
//! of its last birth, found from the ring of bit planes a row at a time.
//!
//! A cell alive at the last level whose last 0 → 1 transition is at level `j` was born at
//! generation `first + j` and has lived since. Per row, one branch-free pass per level keeps
//! the latest birth level of every cell as four bit planes (levels 1 ..= 8) and whether it
//! was born at all; only then are the births of the cells alive now written, one scattered
//! store each. Every level's row is read once, eight words per instruction with AVX-512
//! (the same [`Simd`] choice as the row kernel).

use super::rows::Simd;

/// Levels a flush can resolve: the birth level is kept in this many bit planes.
const LEVEL_BITS: usize = 4;

/// The most generations between flushes that [`flush_row`] resolves.
pub const MAX_LEVELS: usize = (1 << LEVEL_BITS) - 1;

/// Per-row scratch of [`flush_row`], reused across rows of one worker.
#[derive(Default)]
pub struct FlushScratch {
    any: Vec<u64>,
    level: [Vec<u64>; LEVEL_BITS],
}

/// Write into `births` (the row's cells) the birth generation of every cell of the row that
/// is alive at the last level of `ring` and was born after its first level; `ring[j]` is the
/// row's words at generation `first + j`.
pub fn flush_row(
    simd: Simd,
    ring: &[&[u64]],
    first: u64,
    births: &mut [i64],
    scratch: &mut FlushScratch,
) {
    assert!(
        ring.len() - 1 <= MAX_LEVELS,
        "too many levels for one flush"
    );
    match simd {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 if Simd::Avx512.available() => {
            // SAFETY: the CPU has the features the function is compiled for (checked above).
            unsafe { flush_row_avx512(ring, first, births, scratch) }
        }
        _ => flush_row_body(ring, first, births, scratch),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw")]
fn flush_row_avx512(ring: &[&[u64]], first: u64, births: &mut [i64], scratch: &mut FlushScratch) {
    flush_row_body(ring, first, births, scratch)
}

#[inline(always)]
fn flush_row_body(ring: &[&[u64]], first: u64, births: &mut [i64], scratch: &mut FlushScratch) {
    let words = ring[0].len();
    let FlushScratch { any, level } = scratch;
    any.resize(words, 0);
    for plane in level.iter_mut() {
        plane.resize(words, 0);
    }
    for j in 1..ring.len() {
        let (now, before) = (&ring[j][..words], &ring[j - 1][..words]);
        let any = &mut any[..words];
        let bits: [u64; LEVEL_BITS] =
            std::array::from_fn(|b| 0u64.wrapping_sub((j as u64 >> b) & 1));
        let [l0, l1, l2, l3] = level;
        let (l0, l1, l2, l3) = (
            &mut l0[..words],
            &mut l1[..words],
            &mut l2[..words],
            &mut l3[..words],
        );
        // The first level overwrites the scratch (no clearing pass); later ones update it.
        let keep = if j == 1 { 0 } else { !0u64 };
        for k in 0..words {
            let born = now[k] & !before[k];
            any[k] = (any[k] & keep) | born;
            let stay = keep & !born;
            l0[k] = (l0[k] & stay) | (born & bits[0]);
            l1[k] = (l1[k] & stay) | (born & bits[1]);
            l2[k] = (l2[k] & stay) | (born & bits[2]);
            l3[k] = (l3[k] & stay) | (born & bits[3]);
        }
    }
    let alive = ring[ring.len() - 1];
    for k in 0..words {
        let mut write = alive[k] & any[k];
        while write != 0 {
            let bit = write.trailing_zeros();
            let j = (0..LEVEL_BITS).fold(0u64, |j, b| j | ((level[b][k] >> bit) & 1) << b);
            births[k * 64 + bit as usize] = (first + j) as i64;
            write &= write - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both copies write exactly the last births a cell-by-cell walk finds, and nothing
    /// else, for 1 … MAX_LEVELS levels of random rows (with a partial last word).
    #[test]
    fn flush_matches_a_cell_by_cell_walk() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for levels in 1..=MAX_LEVELS {
            let width: usize = 64 * 3 + 5;
            let words = width.div_ceil(64);
            let ring: Vec<Vec<u64>> = (0..=levels)
                .map(|_| (0..words).map(|_| next() & next()).collect())
                .collect();
            let views: Vec<&[u64]> = ring.iter().map(Vec::as_slice).collect();
            let first = 1000 + levels as u64;
            let mut expected = vec![-1i64; words * 64];
            for (cell, birth) in expected.iter_mut().enumerate() {
                let bit = |j: usize| ring[j][cell / 64] >> (cell % 64) & 1 == 1;
                if !bit(levels) {
                    continue;
                }
                if let Some(j) = (1..=levels).rev().find(|&j| bit(j) && !bit(j - 1)) {
                    *birth = (first + j as u64) as i64;
                }
            }
            for simd in [Simd::Portable, Simd::Avx512] {
                let mut births = vec![-1i64; words * 64];
                flush_row(
                    simd,
                    &views,
                    first,
                    &mut births,
                    &mut FlushScratch::default(),
                );
                assert_eq!(births, expected, "{simd:?}, {levels} levels");
            }
        }
    }
}
