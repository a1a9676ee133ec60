//! Rule tables on the padded grid: the same bands as the Life kernels, each cell's next
//! state from the rule's compiled tree over its 3×3 states.

use rayon::prelude::*;

use super::{PaddedGrid, Parallelism, three_rows};
use crate::rule::table::Tree;

impl PaddedGrid {
    /// `generations` generations of a rule table (serially or over row bands).
    pub(super) fn step_table(
        &mut self,
        tree: &Tree,
        band: usize,
        parallelism: Parallelism,
        generations: u64,
    ) {
        let (stride, width) = (self.stride, self.world.width() as usize);
        let height = self.world.height() as usize;
        let age_max = self.world.rule().age_max();
        for _ in 0..generations {
            self.fill_halo();
            let cur = &self.cur;
            let next = &mut self.next[stride..stride * (height + 1)];
            let (ages, states) = self.world.cells_mut();
            let row = |first: usize, next: &mut [u8], ages: &mut [u32], states: &mut [u8]| {
                step_rows_table(cur, stride, tree, age_max, first, next, ages, states);
            };
            match parallelism {
                Parallelism::Serial => row(0, next, ages, states),
                Parallelism::Bands if states.is_empty() => next
                    .par_chunks_mut(stride * band)
                    .zip(ages.par_chunks_mut(width * band))
                    .enumerate()
                    .for_each(|(i, (n, a))| row(i * band, n, a, &mut [])),
                Parallelism::Bands => next
                    .par_chunks_mut(stride * band)
                    .zip(ages.par_chunks_mut(width * band))
                    .zip(states.par_chunks_mut(width * band))
                    .enumerate()
                    .for_each(|(i, ((n, a), s))| row(i * band, n, a, s)),
            }
            self.finish_generation();
        }
    }
}

/// [`step_rows`] for a rule table: `cur` holds every cell's state, the tree gives the next;
/// state-1 cells age (a cell entering state 1 is 1), states 2.. go to `state_rows` (empty
/// for two-state tables).
#[allow(clippy::too_many_arguments)]
fn step_rows_table(
    cur: &[u8],
    stride: usize,
    tree: &Tree,
    age_max: u32,
    first_row: usize,
    next_rows: &mut [u8],
    age_rows: &mut [u32],
    state_rows: &mut [u8],
) {
    let width = stride - 2;
    for (r, (next, ages)) in next_rows
        .chunks_exact_mut(stride)
        .zip(age_rows.chunks_exact_mut(width))
        .enumerate()
    {
        let [up, mid, down] = three_rows(cur, stride, first_row + r + 1);
        let mut states = state_rows.get_mut(r * width..(r + 1) * width);
        for x in 0..width {
            let cells = [
                up[x],
                up[x + 1],
                up[x + 2],
                mid[x],
                mid[x + 1],
                mid[x + 2],
                down[x],
                down[x + 1],
                down[x + 2],
            ];
            let s = tree.next(&cells);
            next[x + 1] = s;
            ages[x] = match (s, mid[x + 1]) {
                (1, 1) => ages[x].saturating_add(1).min(age_max),
                (1, _) => 1,
                _ => 0,
            };
            if let Some(states) = states.as_deref_mut() {
                states[x] = if s >= 2 { s } else { 0 };
            }
        }
    }
}
