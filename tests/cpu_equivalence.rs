//! Every CPU strategy that keeps ages is bit-identical (alive + age + generation) to
//! `scalar`; hashlife, which keeps states only, is checked cell for cell in tests/hashlife.rs.

mod common;

use common::*;
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};
use golab::world::Topology;

const SIZES: &[(u32, u32)] = &[(3, 3), (17, 5), (5, 17), (1000, 601), (1024, 1024)];

fn cpu_strategies() -> Vec<Strategy> {
    Strategy::GRID
        .iter()
        .copied()
        .filter(|s| !s.is_gpu() && s.keeps_ages() && *s != Strategy::Scalar)
        .collect()
}

#[test]
fn every_cpu_strategy_matches_scalar_on_random_soups() {
    for strategy in cpu_strategies() {
        for &(w, h) in SIZES {
            for topology in [Topology::Torus, Topology::DeadBorder] {
                for (r, rule) in test_rules().into_iter().enumerate() {
                    let gens = if w * h > 100_000 { 200 } else { 300 };
                    let start = soup(w, h, topology, rule, 37.0, 11 + r as u64);
                    let expected = scalar_after(&start, gens);
                    let mut sim =
                        Simulation::new(StepperFactory::cpu_only(), start, strategy).unwrap();
                    // Step in uneven chunks so batching cannot hide a per-generation bug.
                    for chunk in [1, 2, 7, gens - 10] {
                        sim.step(chunk).unwrap();
                    }
                    let context = format!("{strategy} {w}x{h} {topology} {rule}");
                    assert_same_world(&expected, sim.world().unwrap(), &context);
                    let stats = sim.stats(5).unwrap();
                    assert_eq!(stats.population, expected.population(), "{context}");
                }
            }
        }
    }
}

#[test]
fn soups_actually_evolve_so_equivalence_means_something() {
    let start = soup(
        257,
        129,
        Topology::Torus,
        "B3/S23".parse().unwrap(),
        37.0,
        3,
    );
    let later = scalar_after(&start, 200);
    assert_ne!(start.state_hash(), later.state_hash());
    assert!(
        later.population() > 100,
        "soup died out: {}",
        later.population()
    );
    assert!(
        later.ages().iter().any(|&a| a > 50),
        "no old cells after 200 generations"
    );
}

#[test]
fn switching_between_every_pair_keeps_the_world_exactly() {
    let rule = "B3/S23".parse().unwrap();
    for topology in [Topology::Torus, Topology::DeadBorder] {
        let start = soup(131, 77, topology, rule, 40.0, 5);
        let mut sim =
            Simulation::new(StepperFactory::cpu_only(), start.clone(), Strategy::Scalar).unwrap();
        let mut total = 0;
        let cpu: Vec<Strategy> = Strategy::GRID
            .iter()
            .copied()
            .filter(|s| !s.is_gpu() && s.keeps_ages())
            .collect();
        for &from in &cpu {
            for &to in &cpu {
                sim.switch(from).unwrap();
                sim.step(3).unwrap();
                sim.switch(to).unwrap();
                sim.step(4).unwrap();
                total += 7;
            }
        }
        let expected = scalar_after(&start, total);
        assert_same_world(
            &expected,
            sim.world().unwrap(),
            &format!("switch chain {topology}"),
        );
    }
}

#[test]
fn edits_reach_every_strategy_without_losing_state() {
    let rule = "B36/S23".parse().unwrap();
    for strategy in Strategy::GRID
        .iter()
        .copied()
        .filter(|s| !s.is_gpu() && s.keeps_ages())
    {
        let start = soup(99, 61, Topology::Torus, rule, 30.0, 9);
        let edits = scattered_edits(99, 61, 500, 4);
        // Reference: scalar 20 gens, edits applied to the host world, 20 more.
        let mut reference = scalar_after(&start, 20);
        reference.apply_edits(&edits);
        let expected = scalar_after(&reference, 20);

        let mut sim = Simulation::new(StepperFactory::cpu_only(), start, strategy).unwrap();
        sim.step(20).unwrap();
        sim.edit(&edits).unwrap();
        sim.step(20).unwrap();
        assert_same_world(
            &expected,
            sim.world().unwrap(),
            &format!("{strategy} with edits"),
        );
    }
}

#[test]
fn rule_and_topology_changes_keep_cells_and_generation() {
    let start = soup(64, 48, Topology::Torus, "B3/S23".parse().unwrap(), 35.0, 2);
    let mut sim = Simulation::new(StepperFactory::cpu_only(), start, Strategy::Rayon).unwrap();
    sim.step(10).unwrap();
    let before = sim.world().unwrap().clone();
    sim.set_rule("B36/S23".parse().unwrap()).unwrap();
    sim.set_topology(Topology::DeadBorder).unwrap();
    let after = sim.world().unwrap().clone();
    assert_eq!(before.ages(), after.ages());
    assert_eq!(after.generation, 10);
    assert_eq!(after.rule().to_string(), "B36/S23");
    let mut reference = before.clone();
    reference.set_rule(after.rule()).unwrap();
    reference.topology = Topology::DeadBorder;
    sim.step(15).unwrap();
    assert_same_world(
        &scalar_after(&reference, 15),
        sim.world().unwrap(),
        "after rule change",
    );
}

#[test]
fn ages_saturate_like_the_reference_in_every_cpu_strategy() {
    let start = nearly_saturated_world();
    let expected = scalar_after(&start, 10);
    assert_eq!(expected.age(1, 1), u32::MAX, "the reference saturates");
    for strategy in Strategy::GRID
        .iter()
        .copied()
        .filter(|s| !s.is_gpu() && s.keeps_ages())
    {
        let mut sim = Simulation::new(StepperFactory::cpu_only(), start.clone(), strategy).unwrap();
        sim.step(10).unwrap();
        assert_same_world(
            &expected,
            sim.world().unwrap(),
            &format!("{strategy} saturation"),
        );
        assert_eq!(sim.stats(5).unwrap().population, expected.population());
    }
}

#[test]
fn the_factory_builds_the_strategy_it_is_asked_for() {
    let world = soup(16, 16, Topology::Torus, "B3/S23".parse().unwrap(), 30.0, 1);
    for strategy in Strategy::GRID
        .iter()
        .copied()
        .filter(|s| !s.is_gpu() && s.keeps_ages())
    {
        let stepper = StepperFactory::cpu_only().create(strategy, &world).unwrap();
        assert_eq!(stepper.strategy(), strategy);
    }
}

/// cpu-bitsliced's portable and AVX-512 row kernels (the latter falls back to portable on
/// a CPU without it) both step blocks of generations bit-identical to scalar, ages included.
#[test]
fn cpu_bitsliced_simd_copies_match_scalar() {
    use golab::step::Stepper;
    use golab::step::cpu_bitsliced::{BitslicedStepper, Simd};
    for simd in [Simd::Portable, Simd::Avx512] {
        for &(w, h) in &[(3, 3), (65, 40), (200, 129)] {
            for topology in [Topology::Torus, Topology::DeadBorder] {
                for (r, rule) in test_rules().into_iter().enumerate() {
                    let start = soup(w, h, topology, rule, 37.0, 5 + r as u64);
                    let expected = scalar_after(&start, 61);
                    let mut stepper = BitslicedStepper::with_simd(simd);
                    stepper.load(&start).unwrap();
                    // Blocks of 8, a partial block, and single generations.
                    for chunk in [1, 8, 17, 35] {
                        stepper.step(chunk).unwrap();
                    }
                    let mut world = start.clone();
                    stepper.read_world(&mut world).unwrap();
                    let context = format!("{simd:?} {w}x{h} {topology} {rule}");
                    assert_same_world(&expected, &world, &context);
                }
            }
        }
    }
}
