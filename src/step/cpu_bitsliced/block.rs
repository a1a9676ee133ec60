//! Temporal blocking of the neighbour-count path: a band of rows steps [`BLOCK`]
//! generations in cache before anything goes back to memory.
//!
//! A band of `R` rows reads `R + 2k` rows of the current plane (the halo a k-generation light
//! cone needs), computes level `j` (generation `g + j`) on `R + 2(k - j)` rows from level
//! `j - 1` with the row kernel ([`super::rows`]), resolves the births of the band's cells
//! from the `k + 1` levels it holds ([`super::flush`]) and writes only level `k`'s `R` rows
//! and those births. A generation therefore costs `2 / k` plane passes of memory traffic
//! instead of two plus a flush's re-read of the ring: the stepper stays compute-bound on a
//! world far larger than the caches. The band's levels are sized to stay in a core's L2.

use rayon::prelude::*;

use super::flush::{FlushScratch, flush_row};
use super::rows::{RowShape, Simd, plane_row, step_band};

/// Generations a band steps in cache per block.
pub const BLOCK: usize = 8;

/// Words of level buffers a band aims at (768 KiB: in a core's L2 beside the flush's rows).
const BAND_WORDS: usize = 96 * 1024;

/// One world plane and its geometry, as the block step reads it.
pub struct Plane<'a> {
    /// The rows, `shape.words` words each.
    pub words: &'a [u64],
    /// Rows.
    pub height: usize,
    /// Row geometry, topology and rule.
    pub shape: RowShape,
}

/// A band's reusable level buffers.
#[derive(Default)]
struct BandScratch {
    /// Levels 1 .. k - 1 (index 0 unused: level 0 is the current plane).
    levels: Vec<Vec<u64>>,
    /// A dead row, read beyond a dead border.
    zero: Vec<u64>,
    flush: FlushScratch,
}

/// Step `cur` by `k` (1 ..= [`BLOCK`]) generations into `next` (same size), writing into
/// `births` (one per cell, row-major) the birth generation of every cell alive at the end
/// and born during the block; `first` is the generation of `cur`.
pub fn step_block(
    simd: Simd,
    cur: &Plane,
    k: usize,
    first: u64,
    next: &mut [u64],
    births: &mut [i64],
) {
    assert!(
        (1..=BLOCK).contains(&k),
        "a block steps 1 ..= {BLOCK} generations"
    );
    let (words, width) = (cur.shape.words, cur.shape.width);
    let threads = rayon::current_num_threads().max(1);
    let fit = (BAND_WORDS / (words * (k + 1))).saturating_sub(2 * k);
    let rows = fit
        .min(cur.height.div_ceil(threads * 4))
        .max(2 * k)
        .min(cur.height);
    next.par_chunks_mut(words * rows)
        .zip(births.par_chunks_mut(width * rows))
        .enumerate()
        .for_each_init(BandScratch::default, |scratch, (b, (out, births))| {
            step_band_block(simd, cur, k, first, b * rows, out, births, scratch)
        });
}

/// One band: rows `y0 ..` of `out` (and their births), `k` generations on. Level 0 is read
/// from `cur` and level `k` written straight into `out`; levels between live in `scratch`.
#[allow(clippy::too_many_arguments)]
fn step_band_block(
    simd: Simd,
    cur: &Plane,
    k: usize,
    first: u64,
    y0: usize,
    out: &mut [u64],
    births: &mut [i64],
    scratch: &mut BandScratch,
) {
    let (shape, height) = (&cur.shape, cur.height as isize);
    let words = shape.words;
    let rows = out.len() / words;
    // Buffer row `i` of every level is world row `y0 - k + i`.
    let span = rows + 2 * k;
    let world_row = |i: usize| y0 as isize - k as isize + i as isize;
    let BandScratch {
        levels,
        zero,
        flush,
    } = scratch;
    zero.resize(words, 0);
    let size = (words, cur.height);
    let level0 = |i: isize| plane_row(cur.words, size, shape.torus, zero, world_row(i as usize));
    levels.resize_with(k, Vec::new);
    for level in levels.iter_mut().skip(1) {
        level.resize(span * words, 0);
    }
    for j in 1..=k {
        let (before, after) = levels.split_at_mut(j);
        // Level j is exact on buffer rows j .. span - j (its light cone fits in the halo).
        let this: &mut [u64] = if j == k {
            out
        } else {
            &mut after[0][j * words..(span - j) * words]
        };
        if j == 1 {
            step_band(simd, shape, level0, 1, this);
        } else {
            let prev = &before[j - 1];
            let row = |i: isize| &prev[i as usize * words..(i as usize + 1) * words];
            step_band(simd, shape, row, j as isize, this);
        }
        if !shape.torus && j < k {
            // Rows beyond a dead border stay dead at every generation.
            for i in j..span - j {
                if !(0..height).contains(&world_row(i)) {
                    let at = (i - j) * words;
                    this[at..at + words].fill(0);
                }
            }
        }
    }
    let mut ring: Vec<&[u64]> = Vec::with_capacity(k + 1);
    let cells = shape.width;
    for r in 0..rows {
        let i = k + r;
        ring.clear();
        ring.push(level0(i as isize));
        ring.extend(levels[1..].iter().map(|l| &l[i * words..(i + 1) * words]));
        ring.push(&out[r * words..(r + 1) * words]);
        let births = &mut births[r * cells..(r + 1) * cells];
        flush_row(simd, &ring, first, births, flush);
    }
}
