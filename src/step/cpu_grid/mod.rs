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

mod ltl;
mod table;

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
        if let Some(table) = g.world.rule().rule_table() {
            g.step_table(&table.tree, band, parallelism, generations);
            return Ok(());
        }
        if let Some(ltl) = g.world.rule().ltl() {
            g.step_ltl(&ltl, band, parallelism, generations);
            return Ok(());
        }
        let rule = Kernel::new(g.world.rule());
        for _ in 0..generations {
            g.fill_halo();
            let cur = &g.cur;
            let next = &mut g.next[stride..stride * (height + 1)];
            let (ages, dying) = g.world.cells_mut();
            match (parallelism, dying.is_empty()) {
                (Parallelism::Serial, _) => step_rows(cur, stride, &rule, 0, next, ages, dying),
                (Parallelism::Bands, true) => next
                    .par_chunks_mut(stride * band)
                    .zip(ages.par_chunks_mut(width * band))
                    .enumerate()
                    .for_each(|(i, (next_band, age_band))| {
                        step_rows(cur, stride, &rule, i * band, next_band, age_band, &mut []);
                    }),
                (Parallelism::Bands, false) => next
                    .par_chunks_mut(stride * band)
                    .zip(ages.par_chunks_mut(width * band))
                    .zip(dying.par_chunks_mut(width * band))
                    .enumerate()
                    .for_each(|(i, ((next_band, age_band), dying_band))| {
                        step_rows(
                            cur,
                            stride,
                            &rule,
                            i * band,
                            next_band,
                            age_band,
                            dying_band,
                        );
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
        let mut stats = match parallelism {
            Parallelism::Serial => Stats::from_ages(world.ages(), generation, buckets),
            Parallelism::Bands => world
                .ages()
                .par_chunks(1 << 16)
                .map(|chunk| Stats::from_ages(chunk, generation, buckets))
                .reduce(|| Stats::empty(generation, buckets), |a, b| a.merge(&b)),
        };
        stats.add_dying(world.dying());
        Ok(stats)
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
    /// Larger than Life's states and counter, kept between calls.
    ltl: Option<ltl::LtlScratch>,
    /// Whether edits changed the world since Larger than Life's states were taken from it.
    ltl_stale: bool,
    /// A joined surface's ring: (ring cell, edge cell it copies) as indices into `cur`.
    ring: Vec<(u32, u32)>,
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
        if world.rule().is_table() {
            // Rule tables read every state: the second plane holds states 2.. .
            for (y, row) in world.dying().chunks_exact(w).enumerate() {
                let dst = &mut cur[(y + 1) * stride + 1..(y + 1) * stride + 1 + w];
                for (d, &state) in dst.iter_mut().zip(row) {
                    *d = (*d).max(state);
                }
            }
        }
        PaddedGrid {
            world: world.clone(),
            stride,
            next: cur.clone(),
            cur,
            ltl: None,
            ltl_stale: true,
            ring: ring_map(world.topology, w, h),
        }
    }

    /// Refill the border of `cur` for the world's topology.
    fn fill_halo(&mut self) {
        match self.world.topology {
            Topology::DeadBorder => return, // the border is zero from construction and never written
            Topology::Joined(_) => {
                for &(ring, edge) in &self.ring {
                    self.cur[ring as usize] = self.cur[edge as usize];
                }
                return;
            }
            Topology::Torus => {}
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
        world.copy_cells_from(&self.world)?;
        world.generation = self.world.generation;
        Ok(())
    }

    /// Apply edits to both alive flags and ages.
    fn apply_edits(&mut self, edits: &[CellEdit]) {
        self.ltl_stale = true;
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

/// A joined surface's ring of a `w × h` grid padded to `w + 2` columns: each ring cell that
/// copies an edge cell, with that cell ([`Topology::padded_ring`]), as indices into the padded
/// grid. Empty for the torus and the dead border, which [`PaddedGrid::fill_halo`] does by rows.
fn ring_map(topology: Topology, w: usize, h: usize) -> Vec<(u32, u32)> {
    if !topology.is_joined() {
        return Vec::new();
    }
    let index = |(x, y): (u32, u32)| y * (w as u32 + 2) + x;
    topology
        .padded_ring(w as u32, h as u32)
        .filter_map(|(cell, source)| Some((index(cell), index(source?))))
        .collect()
}

/// The rule as the row kernel reads it: next-alive per 9-bit neighbourhood index, and the
/// number of Generations states (2 for two-state rules).
struct Kernel {
    next_alive: [u8; 512],
    states: u16,
    age_max: u32,
}

impl Kernel {
    fn new(rule: Rule) -> Self {
        let mut next_alive = [0u8; 512];
        for (i, n) in next_alive.iter_mut().enumerate() {
            *n = u8::from(rule.next_alive(i as u16));
        }
        let states = if rule.has_dying_states() {
            rule.states()
        } else {
            2
        };
        Kernel {
            next_alive,
            states,
            age_max: rule.age_max(),
        }
    }
}

/// Compute `next` rows for padded rows `first_row + 1 ..` from `cur`, updating the matching
/// age rows (and dying-state rows, empty for rules without dying states) in place.
/// `next_rows` holds whole padded rows (its border bytes are not written), `age_rows` and
/// `dying_rows` the same rows unpadded. Shared by the scalar and rayon strategies so both
/// run the very same arithmetic.
///
/// The neighbourhood index ([`crate::rule::spec`]'s bit order) rolls along the row: moving
/// one cell east shifts the two kept columns west (`<< 1`) and brings in the new east
/// column at bits 6, 3 and 0.
fn step_rows(
    cur: &[u8],
    stride: usize,
    rule: &Kernel,
    first_row: usize,
    next_rows: &mut [u8],
    age_rows: &mut [u32],
    dying_rows: &mut [u8],
) {
    let width = stride - 2;
    let column = |up: &[u8], mid: &[u8], down: &[u8], x: usize| {
        usize::from(up[x]) << 6 | usize::from(mid[x]) << 3 | usize::from(down[x])
    };
    for (r, (next, ages)) in next_rows
        .chunks_exact_mut(stride)
        .zip(age_rows.chunks_exact_mut(width))
        .enumerate()
    {
        let [up, mid, down] = three_rows(cur, stride, first_row + r + 1);
        let next = &mut next[1..=width];
        let mut index = column(up, mid, down, 0) << 1 | column(up, mid, down, 1);
        let dying = dying_rows.get_mut(r * width..(r + 1) * width);
        match dying {
            None => {
                for x in 0..width {
                    index = (index << 1) & 0b110_110_110 | column(up, mid, down, x + 2);
                    let born_or_kept = rule.next_alive[index];
                    next[x] = born_or_kept;
                    ages[x] = ages[x].saturating_add(1) * u32::from(born_or_kept);
                }
            }
            Some(dying) => {
                for x in 0..width {
                    index = (index << 1) & 0b110_110_110 | column(up, mid, down, x + 2);
                    let (alive, d) = (mid[x + 1] == 1, dying[x]);
                    let live_next = d == 0 && rule.next_alive[index] == 1;
                    next[x] = u8::from(live_next);
                    ages[x] = (ages[x].saturating_add(1)).min(rule.age_max) * u32::from(live_next);
                    dying[x] = if d > 0 {
                        ((u16::from(d) + 1) % rule.states) as u8
                    } else if alive && !live_next {
                        2
                    } else {
                        0
                    };
                }
            }
        }
    }
}

/// Padded rows `y - 1`, `y` and `y + 1` of `cur`: the rows a row's cells read.
#[inline]
fn three_rows(cur: &[u8], stride: usize, y: usize) -> [&[u8]; 3] {
    [
        &cur[(y - 1) * stride..y * stride],
        &cur[y * stride..(y + 1) * stride],
        &cur[(y + 1) * stride..(y + 2) * stride],
    ]
}
