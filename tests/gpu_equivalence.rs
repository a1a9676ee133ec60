//! Every GPU strategy, in every memory mode it supports, is bit-identical (alive + age +
//! generation) to `scalar`. Runs on lavapipe in CI; fails (never skips) without an adapter.

mod common;

use common::*;
use golab::sim::Simulation;
use golab::step::{GpuSettings, MemoryMode, Strategy};
use golab::world::Topology;

fn gpu_strategies() -> Vec<Strategy> {
    Strategy::GRID
        .iter()
        .copied()
        .filter(|s| s.is_gpu())
        .collect()
}

/// Every (GPU strategy, memory mode) pair the strategy supports.
fn gpu_configs() -> Vec<(Strategy, MemoryMode)> {
    let mut configs = Vec::new();
    for strategy in gpu_strategies() {
        let modes: &[MemoryMode] = if strategy.uses_memory_mode() {
            &MemoryMode::ALL
        } else {
            &[MemoryMode::Normal]
        };
        configs.extend(modes.iter().map(|&m| (strategy, m)));
    }
    configs
}

fn settings(memory: MemoryMode) -> GpuSettings {
    GpuSettings {
        memory,
        ..GpuSettings::default()
    }
}

#[test]
fn every_gpu_strategy_and_memory_mode_matches_scalar_on_small_awkward_soups() {
    for (strategy, memory) in gpu_configs() {
        for (w, h) in [(3, 3), (31, 17), (257, 129)] {
            for topology in [Topology::Torus, Topology::DeadBorder] {
                for (r, rule) in test_rules().into_iter().take(3).enumerate() {
                    let start = soup(w, h, topology, rule, 37.0, 100 + r as u64);
                    let context = format!("{strategy} [{memory}] {w}x{h} {topology} {rule}");
                    assert_matches_scalar(
                        gpu_factory(settings(memory)),
                        strategy,
                        &start,
                        100,
                        &context,
                    );
                }
            }
        }
    }
}

/// The large soups: two awkward sizes and two powers of two, both topologies.
const LARGE: [(u32, u32, Topology, &str); 4] = [
    (1000, 601, Topology::Torus, "B3/S23"),
    (1000, 601, Topology::DeadBorder, "B36/S23"),
    (1024, 1024, Topology::DeadBorder, "B3/S23"),
    (1024, 1024, Topology::Torus, "B2/S"),
];

/// One large soup, 100 generations on `strategy` in `memory` mode against scalar.
fn check_large(
    strategy: Strategy,
    memory: MemoryMode,
    (w, h, topology, rule): (u32, u32, Topology, &str),
) {
    let start = soup(w, h, topology, rule.parse().unwrap(), 37.0, 7);
    let context = format!("{strategy} [{memory}] {w}x{h} {topology} {rule}");
    assert_matches_scalar(
        gpu_factory(settings(memory)),
        strategy,
        &start,
        100,
        &context,
    );
}

/// CI's fixed sample of the large soups: every (strategy, memory mode) on one of them, in
/// rotation, so every soup (awkward sizes and powers of two, both topologies) meets several
/// configurations. The whole cross product is the ignored test below (`scripts/test-full`).
#[test]
fn every_gpu_strategy_and_memory_mode_matches_scalar_on_large_soups() {
    for (k, (strategy, memory)) in gpu_configs().into_iter().enumerate() {
        check_large(strategy, memory, LARGE[k % LARGE.len()]);
    }
}

/// Every (strategy, memory mode) on every large soup: the whole collection, run by
/// `scripts/test-full` (minutes on lavapipe).
#[test]
#[ignore = "the whole collection: scripts/test-full"]
fn every_gpu_strategy_and_memory_mode_matches_scalar_on_every_large_soup() {
    for (strategy, memory) in gpu_configs() {
        for case in LARGE {
            check_large(strategy, memory, case);
        }
    }
}

#[test]
fn worlds_split_into_many_chunks_match_scalar() {
    // A tiny per-chunk limit forces several chunks (as 8192² does on a 128 MiB binding limit),
    // exercising halo packing, halo exchange between chunks and per-chunk edits/statistics.
    for strategy in gpu_strategies() {
        for topology in [Topology::Torus, Topology::DeadBorder] {
            for memory in [MemoryMode::Normal, MemoryMode::Pinned] {
                let settings = GpuSettings {
                    memory,
                    chunk_limit: Some(259 * 4 * 40),
                    ..GpuSettings::default()
                };
                let start = soup(257, 129, topology, "B3/S23".parse().unwrap(), 37.0, 5);
                let context = format!("{strategy} chunked {topology} {memory}");
                assert_matches_scalar(gpu_factory(settings), strategy, &start, 100, &context);
            }
        }
        let one_row_chunks = GpuSettings {
            chunk_limit: Some(5 * 4 * 3),
            ..GpuSettings::default()
        };
        let start = soup(3, 5, Topology::Torus, "B3/S23".parse().unwrap(), 50.0, 8);
        assert_matches_scalar(
            gpu_factory(one_row_chunks),
            strategy,
            &start,
            60,
            &format!("{strategy} one-row chunks"),
        );
    }
}

#[test]
fn readback_interval_does_not_change_results() {
    for interval in [1, 3, 7, 1000] {
        let settings = GpuSettings {
            readback_interval: interval,
            ..GpuSettings::default()
        };
        let start = soup(61, 37, Topology::Torus, "B3/S23".parse().unwrap(), 37.0, 2);
        assert_matches_scalar(
            gpu_factory(settings),
            Strategy::GpuReadbackSkip,
            &start,
            101,
            &format!("interval {interval}"),
        );
    }
}

#[test]
fn switching_between_every_pair_keeps_the_world_exactly() {
    for topology in [Topology::Torus, Topology::DeadBorder] {
        let start = soup(61, 37, topology, "B3/S23".parse().unwrap(), 40.0, 5);
        let mut sim = Simulation::new(
            gpu_factory(GpuSettings::default()),
            start.clone(),
            Strategy::Scalar,
        )
        .unwrap();
        let mut total = 0;
        // Strategies that keep ages; hashlife (states only) switches in tests/hashlife.rs.
        let all: Vec<Strategy> = Strategy::GRID
            .iter()
            .copied()
            .filter(|s| s.keeps_ages())
            .collect();
        for &from in &all {
            for &to in &all {
                sim.switch(from).unwrap();
                sim.step(2).unwrap();
                sim.switch(to).unwrap();
                sim.step(3).unwrap();
                total += 5;
            }
        }
        assert_same_world(
            &scalar_after(&start, total),
            sim.world().unwrap(),
            &format!("switch chain {topology}"),
        );
    }
}

#[test]
fn edits_reach_every_gpu_strategy_without_losing_state() {
    // Star Wars: edits end dying states (paint makes a newborn, erase a dead cell).
    for (strategy, rule) in gpu_strategies()
        .into_iter()
        .flat_map(|s| [(s, "B36/S23"), (s, "345/2/4")])
    {
        for chunk_limit in [None, Some(99 * 4 * 20)] {
            let settings = GpuSettings {
                chunk_limit,
                readback_interval: 4,
                ..GpuSettings::default()
            };
            let start = soup(99, 61, Topology::Torus, rule.parse().unwrap(), 30.0, 9);
            // Repeated edits of the same cells exercise the in-order folding of a batch.
            let mut edits = scattered_edits(99, 61, 400, 4);
            edits.extend(scattered_edits(99, 61, 400, 4).into_iter().map(|mut e| {
                e.alive = !e.alive;
                e
            }));
            edits.extend(scattered_edits(99, 61, 200, 4));
            let mut reference = scalar_after(&start, 21);
            reference.apply_edits(&edits);
            let expected = scalar_after(&reference, 19);

            let mut sim = Simulation::new(gpu_factory(settings), start, strategy).unwrap();
            sim.step(21).unwrap();
            sim.edit(&edits).unwrap();
            sim.step(19).unwrap();
            let context = format!("{strategy} {rule} edits, chunk limit {chunk_limit:?}");
            assert!(
                expected.dying_count() > 0 || rule == "B36/S23",
                "{context}: no dying cells"
            );
            assert_eq!(
                sim.stats(5).unwrap(),
                expected_stats(&expected, strategy),
                "{context}"
            );
            assert_same_world(&expected, sim.world().unwrap(), &context);
        }
    }
}

#[test]
fn gpu_statistics_reduction_matches_the_host() {
    let start = soup(
        203,
        97,
        Topology::Torus,
        "B3/S23".parse().unwrap(),
        45.0,
        13,
    );
    let mut sim = Simulation::new(
        gpu_factory(GpuSettings::default()),
        start.clone(),
        Strategy::GpuResident,
    )
    .unwrap();
    let mut host = Simulation::new(
        golab::step::StepperFactory::cpu_only(),
        start,
        Strategy::Scalar,
    )
    .unwrap();
    for gens in [0, 1, 6, 40, 153] {
        sim.step(gens).unwrap();
        host.step(gens).unwrap();
        for buckets in [1, 5, 7, 64] {
            assert_eq!(
                sim.stats(buckets).unwrap(),
                host.stats(buckets).unwrap(),
                "gen {} buckets {buckets}",
                host.generation()
            );
        }
    }
}

#[test]
fn a_world_beyond_the_device_limits_is_a_clear_error_and_nothing_is_lost() {
    let settings = GpuSettings {
        chunk_limit: Some(64),
        ..GpuSettings::default()
    };
    let start = soup(31, 17, Topology::Torus, "B3/S23".parse().unwrap(), 40.0, 3);
    for strategy in gpu_strategies() {
        let err = Simulation::new(gpu_factory(settings), start.clone(), strategy)
            .err()
            .expect("must not fit");
        let message = err.to_string();
        assert!(
            message.contains("does not fit") && message.contains("widest world that fits"),
            "{message}"
        );
    }
    // A running simulation keeps its world when a switch fails.
    let mut factory = gpu_factory(GpuSettings::default());
    factory.gpu_settings.chunk_limit = Some(64);
    let mut sim = Simulation::new(factory, start.clone(), Strategy::Scalar).unwrap();
    sim.step(5).unwrap();
    assert!(sim.switch(Strategy::GpuResident).is_err());
    assert_eq!(sim.strategy(), Strategy::Scalar);
    assert_same_world(
        &scalar_after(&start, 5),
        sim.world().unwrap(),
        "after failed switch",
    );
}

#[test]
fn ages_saturate_like_the_reference_in_every_gpu_strategy() {
    let start = common::nearly_saturated_world();
    let expected = scalar_after(&start, 10);
    for strategy in gpu_strategies() {
        let mut sim =
            Simulation::new(gpu_factory(GpuSettings::default()), start.clone(), strategy).unwrap();
        sim.step(10).unwrap();
        assert_same_world(
            &expected,
            sim.world().unwrap(),
            &format!("{strategy} saturation"),
        );
    }
}

#[test]
fn the_factory_builds_every_gpu_strategy_it_is_asked_for() {
    let world = soup(16, 16, Topology::Torus, "B3/S23".parse().unwrap(), 30.0, 1);
    for (strategy, memory) in gpu_configs() {
        let stepper = gpu_factory(settings(memory))
            .create(strategy, &world)
            .unwrap();
        assert_eq!(stepper.strategy(), strategy, "{memory}");
    }
}
