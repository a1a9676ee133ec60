//! Drives the app's simulation thread through an injected GPU loss (GOLAB_FAULT) and checks
//! the world it continues from against the scalar reference.

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
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap()
        .expect("the world reads back")
}

/// Run `strategy` with `fault` (a GOLAB_FAULT value firing at generation 40) until the loss,
/// check the restored world and 25 more generations against scalar, and return the snapshot
/// taken right after the recovery (its message, strategy and `gpu_lost`).
pub fn run_through_loss(fault: &str, strategy: Strategy) -> Snapshot {
    let start = super::soup(61, 47, Topology::Torus, Rule::CONWAY, 35.0, 4);
    let factory = super::gpu_factory(golab::step::GpuSettings {
        fault: Some(golab::config::FaultPlan::parse(fault).unwrap()),
        ..Default::default()
    });
    let sim = Simulation::new(factory, start.clone(), strategy).unwrap();
    let runner = Runner::start(sim, None, Box::new(|| {}));
    runner.send(Command::SetSpeed(Speed::PerFrame(1)));
    runner.send(Command::SetRunning(true));
    let snap = wait_for(&runner, "the injected loss", |s| s.error.is_some());
    let message = &snap.error.as_ref().unwrap().1;
    assert!(
        message.contains("GPU device lost") && message.contains("restored generation"),
        "{message}"
    );
    assert!(!snap.running);

    let restored = read(&runner);
    // The copy is the last one taken before generation 40: copies come every 2 s, so on a
    // loaded machine it may be the one taken before the first step (generation 0).
    assert!(restored.generation <= 40, "{}", restored.generation);
    super::assert_same_world(
        &restored,
        &super::scalar_after(&start, restored.generation),
        "restored",
    );
    runner.send(Command::Step(25));
    let target = restored.generation + 25;
    wait_for(&runner, "25 more generations", |s| {
        s.generation == u128::from(target)
    });
    super::assert_same_world(
        &read(&runner),
        &super::scalar_after(&start, target),
        "after recovery",
    );
    snap
}
