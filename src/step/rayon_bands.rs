//! `rayon`: the scalar kernel run over horizontal row bands on every core.
//!
//! Each band reads the shared current grid (rows above and below included) and writes only
//! its own rows of the next grid and of the ages, so bands never race and the result is
//! bit-identical to `scalar`.

use rayon::prelude::*;

use super::cpu_grid::{PaddedGrid, step_rows};
use super::{StepError, Stepper, Strategy, not_loaded};
use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// Rows per band: enough bands for load balancing, large enough to amortise scheduling.
fn band_rows(height: usize, width: usize) -> usize {
    let bands = rayon::current_num_threads() * 4;
    let by_count = height.div_ceil(bands);
    let min_rows = (16_384 / width.max(1)).max(1);
    by_count.max(min_rows).min(height)
}

/// Parallel CPU stepper over row bands.
#[derive(Default)]
pub struct RayonStepper {
    grid: Option<PaddedGrid>,
}

impl RayonStepper {
    /// An empty stepper; call [`Stepper::load`] before stepping.
    pub fn new() -> Self {
        Self::default()
    }

    fn grid(&mut self) -> Result<&mut PaddedGrid, StepError> {
        self.grid.as_mut().ok_or_else(not_loaded)
    }
}

impl Stepper for RayonStepper {
    fn strategy(&self) -> Strategy {
        Strategy::Rayon
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        self.grid = Some(PaddedGrid::from_world(world));
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        let g = self.grid()?;
        let (stride, width, height) = (
            g.stride,
            g.world.width() as usize,
            g.world.height() as usize,
        );
        let band = band_rows(height, width);
        for _ in 0..generations {
            g.fill_halo();
            let rule = g.world.rule;
            let cur = &g.cur;
            let next = &mut g.next[stride..stride * (height + 1)];
            next.par_chunks_mut(stride * band)
                .zip(g.world.ages_mut().par_chunks_mut(width * band))
                .enumerate()
                .for_each(|(i, (next_band, age_band))| {
                    step_rows(cur, stride, rule, i * band, next_band, age_band);
                });
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
        let world = &self.grid()?.world;
        let generation = world.generation;
        Ok(world
            .ages()
            .par_chunks(1 << 16)
            .map(|chunk| Stats::from_ages(chunk, generation, buckets))
            .reduce(|| Stats::empty(generation, buckets), |a, b| a.merge(&b)))
    }

    fn generation(&self) -> u64 {
        self.grid.as_ref().map_or(0, |g| g.world.generation)
    }

    fn host_world(&self) -> Option<&World> {
        self.grid.as_ref().map(|g| &g.world)
    }
}
