//! Helpers shared by the integration tests: random soups and the scalar oracle.
#![allow(dead_code)]

use golab::rule::Rule;
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};
use golab::world::{CellEdit, Topology, World};

/// Rules exercised by the equivalence tests: Conway, HighLife, Seeds (no survival) and
/// Day & Night (dense, symmetric).
pub fn test_rules() -> Vec<Rule> {
    ["B3/S23", "B36/S23", "B2/S", "B3678/S34678"]
        .iter()
        .map(|r| r.parse().unwrap())
        .collect()
}

/// A random soup world.
pub fn soup(width: u32, height: u32, topology: Topology, rule: Rule, density: f64, seed: u64) -> World {
    let mut world = World::new(width, height, topology, rule).unwrap();
    world.fill_random(density, seed).unwrap();
    world
}

/// The world after `gens` generations of the scalar reference.
pub fn scalar_after(world: &World, gens: u64) -> World {
    let mut sim = Simulation::new(StepperFactory::cpu_only(), world.clone(), Strategy::Scalar).unwrap();
    sim.step(gens).unwrap();
    sim.world().unwrap().clone()
}

/// Assert two worlds have identical generation and ages, pointing at the first difference.
pub fn assert_same_world(expected: &World, actual: &World, context: &str) {
    assert_eq!(
        (expected.width(), expected.height()),
        (actual.width(), actual.height()),
        "{context}: size differs"
    );
    assert_eq!(expected.generation, actual.generation, "{context}: generation differs");
    if let Some(i) = expected.ages().iter().zip(actual.ages()).position(|(a, b)| a != b) {
        let w = expected.width() as usize;
        panic!(
            "{context}: cell ({}, {}) has age {} but the reference says {} (population {} vs {})",
            i % w,
            i / w,
            actual.ages()[i],
            expected.ages()[i],
            actual.population(),
            expected.population()
        );
    }
}

/// Deterministic pseudo-random edits (paint and erase) over a world.
pub fn scattered_edits(width: u32, height: u32, count: usize, seed: u64) -> Vec<CellEdit> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let r = next();
            CellEdit {
                x: (r % u64::from(width)) as u32,
                y: ((r >> 20) % u64::from(height)) as u32,
                alive: (r >> 40) & 3 != 0,
            }
        })
        .collect()
}
