//! Readouts that mean what they say: GPS reads "paused" when paused (not its last running
//! value), and figures from a software GPU driver are labelled as such.

mod app_harness;
mod common;

use std::time::Duration;

use app_harness::{harness, settings, wait_for};
use egui_kittest::kittest::Queryable;
use golab::step::Strategy;

#[test]
fn gps_reads_paused_when_paused_and_a_number_while_running() {
    let mut harness = harness(settings(64, 64, 30.0));
    assert!(
        harness.query_all_by_label("paused").next().is_some(),
        "paused at start"
    );
    harness.get_by_label("Start").click();
    let _ = wait_for(&mut harness, "a GPS figure", |s| {
        s.running && s.wall_gps > 0.0
    });
    harness.run_steps(2);
    assert!(
        harness.query_all_by_label("paused").next().is_none(),
        "running, GPS shows a figure"
    );
    harness.get_by_label("Stop").click();
    let paused = wait_for(&mut harness, "the pause", |s| !s.running);
    assert_eq!(paused.wall_gps, 0.0, "no stale running figure");
    std::thread::sleep(Duration::from_millis(50));
    harness.run_steps(2);
    assert!(harness.query_all_by_label("paused").next().is_some());
}

#[test]
fn a_software_driver_is_labelled_beside_gpu_figures() {
    let mut with_gpu = settings(64, 64, 30.0);
    with_gpu.strategy = Strategy::GpuResident;
    let mut harness = harness(with_gpu);
    let _ = wait_for(&mut harness, "gpu-resident", |s| {
        s.strategy == Strategy::GpuResident
    });
    harness.run_steps(2);
    let software = harness.state().software_gpu();
    assert_eq!(
        harness.query_by_label("software driver").is_some(),
        software,
        "the label appears exactly on a software driver"
    );
    assert_eq!(
        harness
            .query_by_label_contains("(software driver: GPU figures are CPU figures)")
            .is_some(),
        software
    );
    // A CPU strategy's figures are CPU figures anyway: no label.
    harness.state_mut().switch(Strategy::Scalar);
    let _ = wait_for(&mut harness, "scalar", |s| s.strategy == Strategy::Scalar);
    harness.run_steps(2);
    assert!(harness.query_by_label("software driver").is_none());
}

#[test]
fn the_plots_history_starts_again_on_clear_and_on_a_rule_change() {
    let mut harness = harness(settings(64, 64, 30.0));
    harness.get_by_label("Start").click();
    let _ = wait_for(&mut harness, "some generations", |s| s.generation >= 20);
    harness.get_by_label("Stop").click();
    let _ = wait_for(&mut harness, "the pause", |s| !s.running);
    harness.run_steps(3);
    let before = harness.state().plotted_generations();
    assert!(
        before.len() > 1 && before.last().is_some_and(|&g| g >= 20),
        "{before:?}"
    );
    harness.get_by_label("New").click();
    let _ = wait_for(&mut harness, "the cleared world", |s| {
        s.generation == 0 && s.stats.population == 0
    });
    harness.run_steps(3);
    assert_eq!(
        harness.state().plotted_generations(),
        vec![0],
        "only the cleared world's sample, nothing of the world before"
    );
    // Stepping adds to the new history; a rule change starts another.
    harness
        .state_mut()
        .runner()
        .send(golab::runner::Command::Step(5));
    let _ = wait_for(&mut harness, "five generations", |s| s.generation == 5);
    harness.run_steps(3);
    assert_eq!(harness.state().plotted_generations().first(), Some(&0));
    harness
        .state_mut()
        .runner()
        .send(golab::runner::Command::Rule("B36/S23".parse().unwrap()));
    let _ = wait_for(&mut harness, "the new rule", |s| {
        s.rule.to_string() == "B36/S23"
    });
    harness.run_steps(3);
    assert_eq!(harness.state().plotted_generations(), vec![5]);
}

#[test]
fn a_new_user_starts_on_the_fastest_kind_of_strategy_for_the_device() {
    // Nothing chosen yet: cpu-bitsliced on a software driver (lavapipe, where gpu-resident
    // runs ~10 GPS at 1024²), gpu-bitpacked on a real GPU.
    let fresh = golab::app::Settings {
        width: 64,
        height: 64,
        ..golab::app::Settings::default()
    };
    assert!(!fresh.strategy_chosen);
    let mut harness = harness(fresh);
    let expected = if harness.state().software_gpu() {
        Strategy::CpuBitsliced
    } else {
        Strategy::GpuBitpacked
    };
    let snap = wait_for(&mut harness, "the default strategy", |s| {
        s.strategy == expected
    });
    assert_eq!(snap.strategy, expected);
    // A choice is the user's from then on.
    harness.state_mut().switch(Strategy::Scalar);
    assert!(harness.state().settings.strategy_chosen);
    assert_eq!(harness.state().settings.strategy, Strategy::Scalar);
}
