//! Memory goes back to the OS when a world shrinks (#54): a window shrunk from an 8192²
//! world to 512×256 stayed at the big world's resident size.

mod common;

use std::time::{Duration, Instant};

use common::*;
use golab::rule::Rule;
use golab::runner::{Command, Runner};
use golab::sim::Simulation;
use golab::step::{GpuSettings, Strategy};
use golab::universe::Bounds;
use golab::world::Topology;

fn rss() -> f64 {
    golab::memory::rss_bytes().expect("Linux reports VmRSS") as f64 / 1048576.0
}

fn wait(runner: &Runner, what: &str, done: impl Fn(&golab::runner::Snapshot) -> bool) {
    let began = Instant::now();
    while !done(&runner.snapshot()) {
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn shrinking_an_8192_square_world_returns_its_memory() {
    let before = rss();
    let start = soup(8192, 8192, Topology::Torus, Rule::CONWAY, 30.0, 7);
    let factory = gpu_factory(GpuSettings::default());
    let sim = Simulation::new(factory, start, Strategy::Rayon).unwrap();
    let runner = Runner::start(sim, None, Box::new(|| {}));
    runner.send(Command::Step(2));
    wait(&runner, "two generations", |s| s.generation == 2);
    let big = rss();
    runner.send(Command::Bounded(Bounds {
        width: 512,
        height: 256,
        topology: Topology::Torus,
    }));
    wait(&runner, "the shrink", |s| {
        s.grid_size() == Some((512, 256)) && s.busy.is_none()
    });
    std::thread::sleep(Duration::from_millis(300));
    let small = rss();
    // The live world's ages alone: four bytes a cell. Undo keeps one copy of the big world
    // and Reset its start (Golly keeps both too); the stepper's buffers, the soup's working
    // copies and the freed heap must go.
    let world = 8192.0 * 8192.0 * 4.0 / 1048576.0;
    eprintln!("before {before:.0} MiB, big {big:.0} MiB, small {small:.0} MiB");
    assert!(
        small <= big - 2.0 * world,
        "resident {big:.0} MiB with the 8192² world, {small:.0} MiB after shrinking to 512×256"
    );
}
