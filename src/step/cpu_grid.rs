//! The padded host grid shared by the CPU strategies.
//!
//! Alive flags live in a `(width + 2) × (height + 2)` byte grid whose one-cell border is
//! refilled before each generation with the opposite edge (torus) or left at zero (dead
//! border), as in the reference article: the inner loop then reads eight neighbours with no
//! bounds checks. Ages live beside it, unpadded, in a host [`World`].

use super::{StepError, check_same_size};
use crate::rule::Rule;
use crate::stats::Stats;
use crate::world::{CellEdit, Topology, World, edit_age};

/// Padded alive grid (double-buffered) plus the world holding ages.
pub(crate) struct PaddedGrid {
    pub(crate) world: World,
    pub(crate) stride: usize,
    pub(crate) cur: Vec<u8>,
    pub(crate) next: Vec<u8>,
}

impl PaddedGrid {
    /// Build the grid from a world.
    pub(crate) fn from_world(world: &World) -> Self {
        let (w, h) = (world.width() as usize, world.height() as usize);
        let stride = w + 2;
        let mut cur = vec![0u8; stride * (h + 2)];
        for (y, row) in world.ages().chunks_exact(w).enumerate() {
            let dst = &mut cur[(y + 1) * stride + 1..(y + 1) * stride + 1 + w];
            for (d, &age) in dst.iter_mut().zip(row) {
                *d = u8::from(age > 0);
            }
        }
        PaddedGrid {
            world: world.clone(),
            stride,
            next: cur.clone(),
            cur,
        }
    }

    /// Refill the border of `cur` for the world's topology.
    pub(crate) fn fill_halo(&mut self) {
        if self.world.topology == Topology::DeadBorder {
            return; // the border is zero from construction and never written
        }
        let (w, h, s) = (
            self.world.width() as usize,
            self.world.height() as usize,
            self.stride,
        );
        self.cur.copy_within(h * s..(h + 1) * s, 0);
        self.cur.copy_within(s..2 * s, (h + 1) * s);
        for row in self.cur.chunks_exact_mut(s) {
            row[0] = row[w];
            row[w + 1] = row[1];
        }
    }

    /// Finish a generation: swap buffers and bump the counter.
    pub(crate) fn finish_generation(&mut self) {
        std::mem::swap(&mut self.cur, &mut self.next);
        self.world.generation += 1;
    }

    /// Copy generation and ages into `world`, which must have this grid's size.
    pub(crate) fn read_into(&self, world: &mut World) -> Result<(), StepError> {
        check_same_size(world, self.world.width(), self.world.height())?;
        world.ages_mut().copy_from_slice(self.world.ages());
        world.generation = self.world.generation;
        Ok(())
    }

    /// Apply edits to both alive flags and ages.
    pub(crate) fn apply_edits(&mut self, edits: &[CellEdit]) {
        let w = self.world.width() as usize;
        for e in edits {
            if self.world.apply_edit(*e) {
                let i = e.y as usize * w + e.x as usize;
                let age = self.world.ages()[i];
                debug_assert_eq!(age, edit_age(age, e.alive));
                self.cur[(e.y as usize + 1) * self.stride + e.x as usize + 1] = u8::from(e.alive);
            }
        }
    }
}

/// Compute `next` rows for padded rows `first_row + 1 ..` from `cur`, updating the matching
/// age rows in place. `next_rows` holds whole padded rows (its border bytes are not written),
/// `age_rows` the same rows unpadded. Shared by the scalar and rayon strategies so both run
/// the very same arithmetic.
pub(crate) fn step_rows(
    cur: &[u8],
    stride: usize,
    rule: Rule,
    first_row: usize,
    next_rows: &mut [u8],
    age_rows: &mut [u32],
) {
    let width = stride - 2;
    let table = rule.packed();
    for (r, (next, ages)) in next_rows
        .chunks_exact_mut(stride)
        .zip(age_rows.chunks_exact_mut(width))
        .enumerate()
    {
        let y = first_row + r + 1;
        let up = &cur[(y - 1) * stride..y * stride];
        let mid = &cur[y * stride..(y + 1) * stride];
        let down = &cur[(y + 1) * stride..(y + 2) * stride];
        let next = &mut next[1..=width];
        for x in 0..width {
            let n = u32::from(up[x] + up[x + 1] + up[x + 2] + mid[x] + mid[x + 2])
                + u32::from(down[x] + down[x + 1] + down[x + 2]);
            let alive = u32::from(mid[x + 1]);
            let born_or_kept = (table >> (n + 9 * alive)) & 1;
            next[x] = born_or_kept as u8;
            ages[x] = ages[x].saturating_add(1) * born_or_kept;
        }
    }
}

/// Statistics of a grid's ages (serial).
pub(crate) fn stats_of(world: &World, buckets: usize) -> Stats {
    Stats::from_ages(world.ages(), world.generation, buckets)
}
