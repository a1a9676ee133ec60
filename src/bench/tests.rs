//! Unit tests of the benchmark runner: medians, every strategy × size pair, the settled phase,
//! the birth census, and unavailable strategies as error rows.

use super::*;

#[test]
fn median_of_odd_and_even() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
}

#[test]
fn a_tiny_run_measures_every_pair() {
    let cfg = BenchConfig {
        strategies: vec![Strategy::Scalar, Strategy::Rayon],
        sizes: vec![16, 33],
        gens: Some(3),
        repeats: 3,
        ..BenchConfig::default()
    };
    let report = run(&cfg, &StepperFactory::cpu_only(), |_| {});
    assert_eq!(report.results.len(), 4);
    assert!(report.roofline.is_none(), "no GPU strategy, no roofline");
    for r in &report.results {
        assert!(r.error.is_none(), "{r:?}");
        assert_eq!(r.samples.len(), 3);
        assert!(
            r.gps_min <= r.gps_median && r.gps_median <= r.gps_max,
            "{r:?}"
        );
        assert!(r.gps_min > 0.0);
    }
    let table = markdown_table(&report);
    assert!(table.contains("| scalar |"), "{table}");
    assert!(table.contains("33²"), "{table}");
    for r in &report.results {
        let w = r.window.expect("every measured pair has its window");
        // Every repeat times the same 3 generations of the same soup.
        assert_eq!((w.start.generation, w.end.generation), (0, 3), "{r:?}");
        assert!((0.0..=1.0).contains(&w.start.density), "{w:?}");
    }
    assert!(table.contains("Timed window"), "{table}");
}

#[test]
fn a_settled_phase_times_generations_after_the_settling() {
    let cfg = BenchConfig {
        strategies: vec![Strategy::Rayon],
        sizes: vec![40],
        gens: Some(4),
        repeats: 2,
        settle: 300,
        ..BenchConfig::default()
    };
    let report = run(&cfg, &StepperFactory::cpu_only(), |_| {});
    let w = report.results[0].window.unwrap();
    assert_eq!((w.start.generation, w.end.generation), (300, 304), "{w:?}");
    assert!(
        report.workload.contains("stepped 300 generations first"),
        "{}",
        report.workload
    );
    // The settled world is the same whichever strategy settles it.
    let settled = window::start_world(&StepperFactory::cpu_only(), &cfg, 40).unwrap();
    let mut reference = crate::sim::Simulation::new(
        StepperFactory::cpu_only(),
        {
            let mut w = crate::world::World::new(40, 40, cfg.topology, cfg.rule).unwrap();
            w.fill_random(cfg.density, cfg.seed).unwrap();
            w
        },
        Strategy::Scalar,
    )
    .unwrap();
    reference.step(300).unwrap();
    assert!(
        reference.world().unwrap() == &settled,
        "settled worlds differ"
    );
}

#[test]
fn a_census_counts_live_cells_and_births() {
    // A blinker: after a step, 2 of its 3 cells are newborn.
    let mut world = crate::world::World::new(5, 5, Topology::Torus, Rule::CONWAY).unwrap();
    let edits: Vec<crate::world::CellEdit> = (1..4)
        .map(|x| crate::world::CellEdit {
            x,
            y: 2,
            alive: true,
        })
        .collect();
    world.apply_edits(&edits);
    let mut sim =
        crate::sim::Simulation::new(StepperFactory::cpu_only(), world, Strategy::Scalar).unwrap();
    sim.step(1).unwrap();
    let census = window::Census::of(sim.world().unwrap());
    assert_eq!(census.generation, 1);
    assert_eq!(census.births, 2);
    assert!((census.density - 3.0 / 25.0).abs() < 1e-12);
}

#[test]
fn an_unavailable_strategy_is_an_error_row_not_a_panic() {
    let cfg = BenchConfig {
        strategies: vec![Strategy::GpuResident],
        sizes: vec![16],
        gens: Some(1),
        repeats: 1,
        ..BenchConfig::default()
    };
    let report = run(&cfg, &StepperFactory::cpu_only(), |_| {});
    let error = report.results[0].error.as_deref().unwrap_or_default();
    assert!(error.contains("unavailable"), "{error}");
    assert!(markdown_table(&report).contains("n/a"));
}

#[test]
fn every_repeat_times_the_same_window_and_its_end_is_the_world_stepped_once() {
    let cfg = BenchConfig {
        strategies: vec![Strategy::Rayon],
        sizes: vec![48],
        gens: Some(7),
        repeats: 4,
        settle: 20,
        ..BenchConfig::default()
    };
    let report = run(&cfg, &StepperFactory::cpu_only(), |_| {});
    let r = &report.results[0];
    assert_eq!(r.samples.len(), 4);
    let w = r.window.unwrap();
    let start = window::start_world(&StepperFactory::cpu_only(), &cfg, 48).unwrap();
    let mut sim =
        crate::sim::Simulation::new(StepperFactory::cpu_only(), start, Strategy::Scalar).unwrap();
    sim.step(7).unwrap();
    assert_eq!(w.end, window::Census::of(sim.world().unwrap()));
    assert_eq!(w.end.generation, 27);
}
