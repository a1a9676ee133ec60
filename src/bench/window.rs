//! What state the measured world was in: a benchmark's speed depends on it (a fresh 50 %
//! soup is busy, a settled one is sparse), so every result says which generations were
//! timed, the density and the births per generation at both ends of that window.

use serde::Serialize;

use super::BenchConfig;
use crate::step::{Stepper, StepperFactory, Strategy};
use crate::world::World;

/// The world at one end of the timed window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Census {
    /// Generation.
    pub generation: u64,
    /// Live cells ÷ cells.
    pub density: f64,
    /// Cells born in the generation that produced this one (age 1).
    pub births: u64,
}

impl Census {
    /// Count `world`.
    pub fn of(world: &World) -> Census {
        let (live, births) = world.ages().iter().fold((0u64, 0u64), |(l, b), &a| {
            (l + u64::from(a > 0), b + u64::from(a == 1))
        });
        Census {
            generation: world.generation,
            density: live as f64 / world.len().max(1) as f64,
            births,
        }
    }

    /// Count the world `stepper` holds (a read-back for GPU strategies, outside any timing).
    pub fn read(stepper: &mut dyn Stepper, like: &World) -> Result<Census, String> {
        if let Some(world) = stepper.host_world() {
            return Ok(Census::of(world));
        }
        let mut world = like.clone();
        stepper.read_world(&mut world).map_err(|e| e.to_string())?;
        Ok(Census::of(&world))
    }
}

/// The timed generations and the world at their start and end.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Window {
    /// Before the first timed generation.
    pub start: Census,
    /// After the last timed generation.
    pub end: Census,
}

/// The soup of `cfg` at `size`, stepped `cfg.settle` generations first (by the fastest
/// strategy that can: every strategy gives the same world, bit for bit).
pub fn start_world(
    factory: &StepperFactory,
    cfg: &BenchConfig,
    size: u32,
) -> Result<World, String> {
    let mut world = World::new(size, size, cfg.topology, cfg.rule).map_err(|e| e.to_string())?;
    world
        .fill_random(cfg.density, cfg.seed)
        .map_err(|e| e.to_string())?;
    if cfg.settle == 0 {
        return Ok(world);
    }
    let fastest = [
        Strategy::GpuBitpacked,
        Strategy::CpuBitsliced,
        Strategy::GpuResident,
        Strategy::Rayon,
    ]
    .into_iter()
    .find(|&s| factory.unavailable_reason(s).is_none() && s.supports(&cfg.rule).is_ok())
    .unwrap_or(Strategy::Rayon);
    let mut stepper = factory.create(fastest, &world).map_err(|e| e.to_string())?;
    stepper.step(cfg.settle).map_err(|e| e.to_string())?;
    stepper.read_world(&mut world).map_err(|e| e.to_string())?;
    Ok(world)
}
