//! `scalar`: the single-threaded reference strategy every other strategy is checked against.

use super::cpu_grid::{PaddedGrid, stats_of, step_rows};
use super::{StepError, Stepper, Strategy, not_loaded};
use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// Steps one padded host grid row by row on the calling thread.
#[derive(Default)]
pub struct ScalarStepper {
    grid: Option<PaddedGrid>,
}

impl ScalarStepper {
    /// An empty stepper; call [`Stepper::load`] before stepping.
    pub fn new() -> Self {
        Self::default()
    }

    fn grid(&mut self) -> Result<&mut PaddedGrid, StepError> {
        self.grid.as_mut().ok_or_else(not_loaded)
    }
}

impl Stepper for ScalarStepper {
    fn strategy(&self) -> Strategy {
        Strategy::Scalar
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        self.grid = Some(PaddedGrid::from_world(world));
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        let g = self.grid()?;
        let (stride, rows) = (g.stride, g.world.height() as usize);
        for _ in 0..generations {
            g.fill_halo();
            let rule = g.world.rule;
            let next = &mut g.next[stride..stride * (rows + 1)];
            step_rows(&g.cur, stride, rule, 0, next, g.world.ages_mut());
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
        Ok(stats_of(&self.grid()?.world, buckets))
    }

    fn generation(&self) -> u64 {
        self.grid.as_ref().map_or(0, |g| g.world.generation)
    }

    fn host_world(&self) -> Option<&World> {
        self.grid.as_ref().map(|g| &g.world)
    }
}
