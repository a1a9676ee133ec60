//! `scalar` and `rayon`: one padded host grid stepper, run on the calling thread or over row
//! bands on every core.
//!
//! Alive flags live in a `(width + 2) × (height + 2)` byte grid whose one-cell border is
//! refilled before each generation with the opposite edge (torus) or left at zero (dead
//! border), as in the reference article: the inner loop then reads eight neighbours with no
//! bounds checks. Ages live beside it, unpadded, in a host [`World`]. `scalar` is the
//! reference every other strategy is checked against; `rayon` runs the very same row kernel
//! over bands of rows, each band writing only its own rows, so the two are bit-identical.

use rayon::prelude::*;

use super::{StepError, Stepper, Strategy, check_same_size, not_loaded};
use crate::rule::Rule;
use crate::stats::Stats;
use crate::world::{CellEdit, Topology, World, edit_age};

/// How a [`GridStepper`] spreads a generation over threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parallelism {
    /// Row by row on the calling thread (`scalar`).
    Serial,
    /// Row bands on every core (`rayon`).
    Bands,
}

/// The padded-grid stepper behind `scalar` and `rayon`.
pub struct GridStepper {
    parallelism: Parallelism,
    grid: Option<PaddedGrid>,
}

impl GridStepper {
    /// `scalar`: one thread.
    pub fn serial() -> Self {
        GridStepper {
            parallelism: Parallelism::Serial,
            grid: None,
        }
    }

    /// `rayon`: row bands on every core.
    pub fn parallel() -> Self {
        GridStepper {
            parallelism: Parallelism::Bands,
            grid: None,
        }
    }

    fn grid(&mut self) -> Result<&mut PaddedGrid, StepError> {
        self.grid.as_mut().ok_or_else(not_loaded)
    }
}

/// Rows per band: enough bands for load balancing, large enough to amortise scheduling.
fn band_rows(height: usize, width: usize) -> usize {
    let bands = rayon::current_num_threads() * 4;
    let by_count = height.div_ceil(bands);
    let min_rows = (16_384 / width.max(1)).max(1);
    by_count.max(min_rows).min(height)
}

impl Stepper for GridStepper {
    fn strategy(&self) -> Strategy {
        match self.parallelism {
            Parallelism::Serial => Strategy::Scalar,
            Parallelism::Bands => Strategy::Rayon,
        }
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        self.grid = Some(PaddedGrid::from_world(world));
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        let parallelism = self.parallelism;
        let g = self.grid()?;
        let (stride, width, height) = (
            g.stride,
            g.world.width() as usize,
            g.world.height() as usize,
        );
        let band = match parallelism {
            Parallelism::Serial => height,
            Parallelism::Bands => band_rows(height, width),
        };
        for _ in 0..generations {
            g.fill_halo();
            let rule = g.world.rule;
            let cur = &g.cur;
            let next = &mut g.next[stride..stride * (height + 1)];
            let ages = g.world.ages_mut();
            match parallelism {
                Parallelism::Serial => step_rows(cur, stride, rule, 0, next, ages),
                Parallelism::Bands => next
                    .par_chunks_mut(stride * band)
                    .zip(ages.par_chunks_mut(width * band))
                    .enumerate()
                    .for_each(|(i, (next_band, age_band))| {
                        step_rows(cur, stride, rule, i * band, next_band, age_band);
                    }),
            }
            g.finish_generation();
        }
        Ok(())
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        self.grid()?.read_into(world)
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        self.grid()?.apply_edits(edits);
        Ok(())
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        let parallelism = self.parallelism;
        let world = &self.grid()?.world;
        let generation = world.generation;
        Ok(match parallelism {
            Parallelism::Serial => Stats::from_ages(world.ages(), generation, buckets),
            Parallelism::Bands => world
                .ages()
                .par_chunks(1 << 16)
                .map(|chunk| Stats::from_ages(chunk, generation, buckets))
                .reduce(|| Stats::empty(generation, buckets), |a, b| a.merge(&b)),
        })
    }

    fn generation(&self) -> u64 {
        self.grid.as_ref().map_or(0, |g| g.world.generation)
    }

    fn host_world(&self) -> Option<&World> {
        self.grid.as_ref().map(|g| &g.world)
    }
}

/// Padded alive grid (double-buffered) plus the world holding ages.
struct PaddedGrid {
    world: World,
    stride: usize,
    cur: Vec<u8>,
    next: Vec<u8>,
}

impl PaddedGrid {
    /// Build the grid from a world.
    fn from_world(world: &World) -> Self {
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
    fn fill_halo(&mut self) {
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
    fn finish_generation(&mut self) {
        std::mem::swap(&mut self.cur, &mut self.next);
        self.world.generation += 1;
    }

    /// Copy generation and ages into `world`, which must have this grid's size.
    fn read_into(&self, world: &mut World) -> Result<(), StepError> {
        check_same_size(world, self.world.width(), self.world.height())?;
        world.ages_mut().copy_from_slice(self.world.ages());
        world.generation = self.world.generation;
        Ok(())
    }

    /// Apply edits to both alive flags and ages.
    fn apply_edits(&mut self, edits: &[CellEdit]) {
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
fn step_rows(
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
