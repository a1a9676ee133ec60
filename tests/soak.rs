//! Long runs: many generations per strategy and many live switches with edits in between end
//! in the same world as the scalar reference, without the process growing.

mod common;

use golab::rule::Rule;
use golab::sim::Simulation;
use golab::step::Strategy;
use golab::world::{CellEdit, Topology};

/// Held by each test for its whole run: resident memory is the process's, so the memory
/// test must not measure the other test's devices and worlds coming and going.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Resident memory of this process in bytes (Linux).
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("Linux /proc");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Generations per strategy: 10 000 in CI; `GOLAB_SOAK_GENS=100000` is the full soak
/// (docs/reliability.md records its run).
fn gens() -> u64 {
    std::env::var("GOLAB_SOAK_GENS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

#[test]
fn every_strategy_runs_a_long_soak_to_the_reference_hash() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let start = common::soup(67, 45, Topology::Torus, Rule::CONWAY, 37.0, 11);
    let n = gens();
    let expected = common::scalar_after(&start, n);
    // Every strategy that keeps ages (hashlife keeps states: tests/hashlife.rs).
    for strategy in Strategy::GRID.iter().copied().filter(|s| s.keeps_ages()) {
        let factory = common::gpu_factory(Default::default());
        let mut sim = Simulation::new(factory, start.clone(), strategy).unwrap();
        let mut done = 0;
        while done < n {
            let batch = (n - done).min(9_973);
            sim.step(batch).unwrap();
            done += batch;
        }
        common::assert_same_world(&expected, sim.world().unwrap(), strategy.name());
    }
}

#[test]
fn a_thousand_switches_with_edits_keep_the_world_and_the_memory() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let start = common::soup(53, 41, Topology::DeadBorder, Rule::CONWAY, 33.0, 12);
    let factory = common::gpu_factory(Default::default());
    let mut sim = Simulation::new(factory, start.clone(), Strategy::Scalar).unwrap();
    let mut reference = start.clone();
    let mut baseline = 0;
    let all: Vec<Strategy> = Strategy::GRID
        .iter()
        .copied()
        .filter(|s| s.keeps_ages())
        .collect();
    for i in 0..1000u32 {
        if i == 100 {
            baseline = rss_bytes();
        }
        let strategy = all[(i as usize * 7 + 3) % all.len()];
        sim.switch(strategy).unwrap();
        let edit = CellEdit {
            x: (i * 13) % 53,
            y: (i * 7) % 41,
            alive: i % 3 != 0,
        };
        sim.edit(&[edit]).unwrap();
        reference.apply_edit(edit);
        sim.step(3).unwrap();
        reference = common::scalar_after(&reference, 3);
    }
    common::assert_same_world(&reference, sim.world().unwrap(), "after 1000 switches");
    let grown = rss_bytes().saturating_sub(baseline);
    assert!(
        grown < 64 << 20,
        "resident memory grew by {} MiB over 900 switches",
        grown >> 20
    );
}
