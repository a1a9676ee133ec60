//! Progress for slow commands: while the simulation thread resizes a large world, the
//! snapshot says so and the status line shows it with a spinner; afterwards both are gone.

mod app_harness;
mod common;

use std::time::{Duration, Instant};

use app_harness::{harness, settings, wait_for};
use egui_kittest::kittest::Queryable;
use golab::runner::Command;

#[test]
fn a_slow_resize_is_announced_in_the_status_line_until_done() {
    let mut harness = harness(settings(2048, 2048, 30.0));
    let _ = wait_for(&mut harness, "the first statistics", |s| {
        s.stats.population > 0
    });
    harness
        .state()
        .runner()
        .send(Command::Bounded(golab::universe::Bounds {
            width: 8192,
            height: 8192,
            topology: golab::world::Topology::Torus,
        }));
    let start = Instant::now();
    let (mut busy_seen, mut label_seen) = (false, false);
    loop {
        let snap = harness.state().runner().snapshot();
        if snap.grid_size() == Some((8192, 8192)) && snap.busy.is_none() {
            break;
        }
        if snap.busy.as_deref() == Some("changing the grid…") {
            busy_seen = true;
            harness.step();
            label_seen |= harness.query_by_label("changing the grid…").is_some();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the resize did not finish"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(busy_seen, "the snapshot never said the thread was resizing");
    assert!(label_seen, "the status line never showed the resize");
    harness.run_steps(2);
    assert!(harness.query_by_label("changing the grid…").is_none());
}

#[test]
fn a_large_remembered_world_is_built_while_the_window_already_shows_progress() {
    let start = Instant::now();
    let mut harness = harness(settings(8192, 8192, 30.0));
    harness.step();
    let first_frame = start.elapsed();
    let building = "building the 8192x8192 world on scalar…";
    let shown = harness.query_by_label(building).is_some();
    // The world takes seconds to allocate and fill; the first frame does not wait for it.
    assert!(
        shown,
        "the first frame did not say the world was being built"
    );
    assert!(
        first_frame < Duration::from_secs(1),
        "the first frame took {first_frame:?}: the world was built on the UI thread"
    );
    let snap = wait_for(&mut harness, "the built world", |s| s.stats.population > 0);
    assert_eq!(snap.grid_size(), Some((8192, 8192)));
    harness.run_steps(2);
    assert!(harness.query_by_label(building).is_none());
}
