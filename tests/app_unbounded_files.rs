//! Golly's files run in the window as Golly runs them, unbounded, whatever was open before
//! (#50 item 3): acorn settles at generation 5 206 with 633 cells, the period-52 gun keeps
//! its stream to generation 10^6, and a colony of Langton's loops grows without meeting
//! itself — each population checked against Debian's bgolly on the same file.

mod app_harness;
mod common;

use std::path::Path;

use app_harness::{harness, open, settings, wait_for};
use golab::runner::Snapshot;

/// Open `file` after a small torus, Go to `target` as a user types it, and return the
/// snapshot there (the world stayed unbounded).
fn go_to(file: &Path, target: &str) -> Snapshot {
    // The strategy the start-up probe picks on a CPU without a GPU (and on lavapipe).
    let mut s = settings(64, 48, 30.0);
    s.strategy = golab::step::Strategy::CpuBitsliced;
    let mut h = harness(s);
    open(&mut h, file);
    let snap = wait_for(&mut h, "the file", |s| s.occupied > 0);
    assert_eq!(
        snap.capabilities.bounded,
        None,
        "{} opens unbounded",
        file.display()
    );
    h.state_mut().go_to(target, &snap);
    let want: u128 = target.parse().unwrap();
    let snap = wait_for(&mut h, "the generation typed", |s| {
        s.generation == want && s.busy.is_none()
    });
    assert_eq!(snap.capabilities.bounded, None);
    snap
}

#[test]
fn acorn_settles_at_5206_with_633_cells() {
    let file = Path::new("assets/patterns/acorn.rle");
    let settled = go_to(file, "5206");
    assert_eq!(settled.population, 633);
    assert_eq!(
        common::bgolly_algo_population("HashLife", file, 5206),
        633,
        "Golly agrees"
    );
    // Settled: its 13 gliders fly off and nothing else changes.
    assert_eq!(go_to(file, "6000").population, 633);
}

#[test]
fn the_period_52_gun_keeps_its_stream_to_generation_a_million() {
    let file = Path::new("/usr/share/golly/Patterns/Life/Guns/period-52-glider-gun.rle");
    let snap = go_to(file, "1000000");
    assert_eq!(
        snap.occupied,
        common::bgolly_algo_population("HashLife", file, 1_000_000)
    );
    // A stream of a glider every 52 generations: well over 19 000 gliders of 5 cells.
    assert!(snap.occupied > 5 * 19_000, "{} cells", snap.occupied);
}

#[test]
fn a_colony_of_langtons_loops_grows_without_meeting_itself() {
    let file = Path::new("/usr/share/golly/Patterns/Loops/Langtons-Loops.rle");
    let snap = go_to(file, "1500");
    assert_eq!(
        snap.occupied,
        common::bgolly_algo_population("RuleLoader", file, 1500)
    );
}
