//! The defining behaviour of every transfer strategy and memory mode, observed through the
//! stepper's own byte and submission counts: if gpu-no-upload uploaded every generation, or
//! pinned behaved like normal, these fail (the equivalence suites would not notice).

mod common;

use common::*;
use golab::rule::Rule;
use golab::step::{GpuSettings, MemoryMode, Stepper, Strategy, TransferCounts};
use golab::world::{Topology, World};

const W: u32 = 67;
const H: u32 = 41;
/// World-state bytes of one generation (u32 ages, no halo).
const WORLD: u64 = (W * H * 4) as u64;

fn start() -> World {
    soup(W, H, Topology::Torus, Rule::CONWAY, 40.0, 9)
}

fn stepper(strategy: Strategy, settings: GpuSettings) -> Box<dyn Stepper> {
    gpu_factory(settings).create(strategy, &start()).unwrap()
}

/// Counts added by `gens` generations.
fn counts_of(stepper: &mut dyn Stepper, gens: u64) -> TransferCounts {
    let before = stepper.transfer_counts();
    stepper.step(gens).unwrap();
    let after = stepper.transfer_counts();
    TransferCounts {
        up: after.up - before.up,
        down: after.down - before.down,
        step_submissions: after.step_submissions - before.step_submissions,
        buffers_created: after.buffers_created - before.buffers_created,
    }
}

#[test]
fn host_truth_strategies_upload_and_download_every_generation() {
    for strategy in [Strategy::GpuNaive, Strategy::GpuPadded, Strategy::GpuShared] {
        let mut s = stepper(strategy, GpuSettings::default());
        let c = counts_of(s.as_mut(), 6);
        // Upload: the world plus halo rows (and halo columns for the padded layout).
        let halo_cols = u64::from(strategy == Strategy::GpuPadded) * 2;
        let per_gen_up = (u64::from(W) + halo_cols) * (u64::from(H) + 2) * 4;
        assert_eq!(c.up, 6 * per_gen_up, "{strategy} uploads");
        assert_eq!(
            c.down,
            6 * (u64::from(W) + halo_cols) * u64::from(H) * 4,
            "{strategy} downloads"
        );
        assert_eq!(
            c.step_submissions, 6,
            "{strategy}: one submission a generation"
        );
    }
}

#[test]
fn streamed_makes_eight_strips_a_generation() {
    let mut s = stepper(Strategy::GpuStreamed, GpuSettings::default());
    let c = counts_of(s.as_mut(), 5);
    assert_eq!(c.step_submissions, 5 * 8);
    assert_eq!(c.down, 5 * WORLD);
    // Eight strips, each with its own two halo rows.
    assert_eq!(c.up, 5 * (WORLD + 8 * 2 * u64::from(W) * 4));
}

#[test]
fn no_upload_downloads_every_generation_and_never_uploads() {
    let mut s = stepper(Strategy::GpuNoUpload, GpuSettings::default());
    let c = counts_of(s.as_mut(), 7);
    assert_eq!(c.up, 0, "no upload after load");
    assert_eq!(c.down, 7 * WORLD);
    let edits = scattered_edits(W, H, 30, 3);
    let before = s.transfer_counts().up;
    s.apply_edits(&edits).unwrap();
    assert_eq!(
        s.transfer_counts().up,
        before,
        "edits go to the device as cell lists, not the world"
    );
    let c = counts_of(s.as_mut(), 3);
    assert_eq!((c.up, c.down), (0, 3 * WORLD));
}

#[test]
fn readback_skip_downloads_every_n_generations() {
    for interval in [1u32, 4, 10] {
        let settings = GpuSettings {
            readback_interval: interval,
            ..GpuSettings::default()
        };
        let mut s = stepper(Strategy::GpuReadbackSkip, settings);
        let c = counts_of(s.as_mut(), 40);
        assert_eq!(c.up, 0);
        assert_eq!(
            c.down,
            u64::from(40 / interval) * WORLD,
            "interval {interval}"
        );
    }
}

#[test]
fn resident_strategies_move_nothing_while_stepping() {
    for strategy in [Strategy::GpuResident, Strategy::GpuBitpacked] {
        let mut s = stepper(strategy, GpuSettings::default());
        let c = counts_of(s.as_mut(), 30);
        assert_eq!((c.up, c.down), (0, 0), "{strategy}");
        s.stats(10).unwrap();
        assert_eq!(
            s.transfer_counts().down,
            0,
            "{strategy}: statistics are reduced on the device"
        );
    }
}

#[test]
fn pinned_reuses_its_staging_buffers_and_normal_makes_new_ones() {
    let pinned = GpuSettings {
        memory: MemoryMode::Pinned,
        ..GpuSettings::default()
    };
    let mut s = stepper(Strategy::GpuShared, pinned);
    let c = counts_of(s.as_mut(), 5);
    assert_eq!(c.buffers_created, 0, "pinned: persistent staging only");
    assert_eq!(c.down, 5 * WORLD);
    let mut s = stepper(Strategy::GpuShared, GpuSettings::default());
    let c = counts_of(s.as_mut(), 5);
    assert_eq!(
        c.buffers_created, 5,
        "normal: a fresh read-back buffer per download"
    );
}

#[test]
fn cpu_strategies_move_nothing() {
    let mut s = golab::step::StepperFactory::cpu_only()
        .create(Strategy::Rayon, &start())
        .unwrap();
    assert_eq!(counts_of(s.as_mut(), 3), TransferCounts::default());
}
