//! `hashlife` on a bounded grid: the grid's cells in the hashed universe, stepped one
//! generation at a time with the grid's topology kept exactly ([`HashUniverse::step_bounded`],
//! as Golly runs bounded grids on HashLife), so a world switched into hashlife and back keeps
//! every cell. The hashed universe keeps no ages: a live cell read back has age 1 (as if just
//! placed), so the window shows states, not ages, while hashlife runs.

use super::{StepError, Stepper, Strategy, check_same_size, not_loaded};
use crate::hashlife::{HashUniverse, Rect, check_rule, default_memory_limit};
use crate::stats::Stats;
use crate::world::{CellEdit, Topology, World};

/// The grid stepper of the hashed universe.
#[derive(Default)]
pub struct HashGridStepper {
    universe: Option<HashUniverse>,
    width: u32,
    height: u32,
    topology: Option<Topology>,
    generation: u64,
}

impl HashGridStepper {
    /// An empty stepper; [`Stepper::load`] gives it a world.
    pub fn new() -> HashGridStepper {
        HashGridStepper::default()
    }

    fn universe(&mut self) -> Result<&mut HashUniverse, StepError> {
        self.universe.as_mut().ok_or_else(not_loaded)
    }

    fn grid(&self) -> Rect {
        Rect {
            x0: 0,
            y0: 0,
            x1: i128::from(self.width) - 1,
            y1: i128::from(self.height) - 1,
        }
    }
}

fn backend(e: crate::hashlife::HashError) -> StepError {
    StepError::Backend(e.to_string())
}

impl Stepper for HashGridStepper {
    fn strategy(&self) -> Strategy {
        Strategy::Hashlife
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        Strategy::Hashlife.check_loads(world)?;
        check_rule(&world.rule()).map_err(|e| StepError::Unavailable {
            strategy: Strategy::Hashlife.name(),
            reason: e.to_string(),
        })?;
        let mut universe =
            HashUniverse::new(world.rule(), default_memory_limit()).map_err(backend)?;
        let w = world.width() as usize;
        let cells = world
            .ages()
            .iter()
            .enumerate()
            .filter(|&(_, &age)| age > 0)
            .map(|(i, _)| ((i % w) as i128, (i / w) as i128));
        universe.load_cells(cells).map_err(backend)?;
        universe.set_generation(world.generation.into());
        self.universe = Some(universe);
        self.width = world.width();
        self.height = world.height();
        self.topology = Some(world.topology);
        self.generation = world.generation;
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        let (w, h) = (self.width, self.height);
        let topology = self.topology.ok_or_else(not_loaded)?;
        let universe = self.universe()?;
        for _ in 0..generations {
            universe.step_bounded(w, h, topology).map_err(backend)?;
        }
        self.generation += generations;
        Ok(())
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        check_same_size(world, self.width, self.height)?;
        let grid = self.grid();
        let w = self.width as usize;
        let generation = self.generation;
        let cells = self.universe()?.cells_in(grid);
        let ages = world.ages_mut();
        ages.iter_mut().for_each(|a| *a = 0);
        for (x, y) in cells {
            ages[y as usize * w + x as usize] = 1;
        }
        world.generation = generation;
        Ok(())
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        let (w, h) = (self.width, self.height);
        let universe = self.universe()?;
        for e in edits.iter().filter(|e| e.x < w && e.y < h) {
            universe
                .set(i128::from(e.x), i128::from(e.y), e.alive)
                .map_err(backend)?;
        }
        Ok(())
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        let generation = self.generation;
        let population = self.universe()?.population();
        let mut stats = Stats::empty(generation, buckets);
        stats.population = population as u64;
        if let Some(first) = stats.histogram.first_mut() {
            *first = population as u64;
        }
        Ok(stats)
    }

    fn generation(&self) -> u64 {
        self.generation
    }
}
