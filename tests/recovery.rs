//! A lost GPU device (injected with GOLAB_FAULT) in the app's simulation thread: the world
//! continues on the CPU from the last recovery copy, bit-identical to the reference.

mod common;

use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use golab::rule::Rule;
use golab::runner::{Command, Runner, Snapshot, Speed};
use golab::sim::Simulation;
use golab::step::Strategy;
use golab::world::{Topology, World};

fn wait_for(runner: &Runner, what: &str, done: impl Fn(&Snapshot) -> bool) -> Snapshot {
    let start = Instant::now();
    loop {
        let snap = runner.snapshot();
        if done(&snap) {
            return snap;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn read(runner: &Runner) -> World {
    let (tx, rx) = channel();
    runner.send(Command::Read(tx));
    rx.recv_timeout(Duration::from_secs(60)).unwrap()
}

#[test]
fn a_lost_device_continues_on_the_cpu_from_the_recovery_copy() {
    // SAFETY: this test binary has one test and sets the variable before any thread reads it.
    unsafe { std::env::set_var("GOLAB_FAULT", "device-lost@gen:40") };
    let start = common::soup(61, 47, Topology::Torus, Rule::CONWAY, 35.0, 4);
    let factory = common::gpu_factory(Default::default());
    let sim = Simulation::new(factory, start.clone(), Strategy::GpuResident).unwrap();
    let runner = Runner::start(sim, None, Box::new(|| {}));
    runner.send(Command::SetSpeed(Speed::PerFrame(1)));
    runner.send(Command::SetRunning(true));
    let snap = wait_for(&runner, "the injected loss", |s| s.error.is_some());
    let message = snap.error.unwrap().1;
    assert!(
        message.contains("GPU device lost") && message.contains("restored generation"),
        "{message}"
    );
    assert_eq!(snap.strategy, Strategy::Rayon);
    assert!(snap.gpu_lost.is_some() && !snap.running);

    let restored = read(&runner);
    assert!(
        restored.generation >= 1 && restored.generation <= 40,
        "{}",
        restored.generation
    );
    common::assert_same_world(
        &restored,
        &common::scalar_after(&start, restored.generation),
        "restored",
    );
    runner.send(Command::Step(25));
    let target = restored.generation + 25;
    wait_for(&runner, "25 more generations", |s| s.generation == target);
    common::assert_same_world(
        &read(&runner),
        &common::scalar_after(&start, target),
        "after recovery",
    );
}
