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
    harness.state().runner().send(Command::Resize(8192, 8192));
    let start = Instant::now();
    let (mut busy_seen, mut label_seen) = (false, false);
    loop {
        let snap = harness.state().runner().snapshot();
        if snap.size == (8192, 8192) && snap.busy.is_none() {
            break;
        }
        if snap.busy.as_deref() == Some("resizing…") {
            busy_seen = true;
            harness.step();
            label_seen |= harness.query_by_label("resizing…").is_some();
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
    assert!(harness.query_by_label("resizing…").is_none());
}
