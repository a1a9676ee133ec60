//! The Lab and a running simulation share one device: a Lab run started while the app's
//! simulation thread steps a GPU strategy at full speed validates every kernel it times, and
//! the world comes through bit-identical to the scalar reference, for every family of GPU
//! stepper (the transfer layer, the chunked u32-age engine, the bit planes).

mod common;

use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use common::*;
use golab::lab::{self, Progress, RunPlan};
use golab::rule::Rule;
use golab::runner::{Command, Runner, Speed};
use golab::sim::Simulation;
use golab::step::{GpuSettings, Strategy};
use golab::world::Topology;

#[test]
fn a_lab_run_beside_a_running_simulation_leaves_the_world_exact() {
    for strategy in [
        Strategy::GpuShared,
        Strategy::GpuResident,
        Strategy::GpuBitpacked,
    ] {
        let start = soup(123, 77, Topology::Torus, Rule::CONWAY, 40.0, 17);
        let factory = gpu_factory(GpuSettings::default());
        let ctx = factory.gpu().unwrap().clone();
        let sim = Simulation::new(factory, start.clone(), strategy).unwrap();
        let runner = Runner::start(sim, None, Box::new(|| {}));
        runner.send(Command::SetSpeed(Speed::Max));
        runner.send(Command::SetRunning(true));
        let began = Instant::now();
        while runner.snapshot().generation < 20 {
            assert!(
                began.elapsed() < Duration::from_secs(60),
                "{strategy} did not start"
            );
            std::thread::sleep(Duration::from_millis(5));
        }

        let experiment = lab::experiment("sort").unwrap();
        let plan = RunPlan {
            variants: vec!["B2B4+C2".into(), "B2".into()],
            sizes: vec![1 << 12, 5000],
            repeats: 2,
            descending: false,
            tuning: Default::default(),
            beside: Some(format!("the simulation, running {strategy} at max speed")),
        };
        let report = experiment.run(&ctx, &plan, &Progress::new()).unwrap();
        assert!(
            report.all_validated(),
            "{strategy}: {}",
            report.to_markdown()
        );
        let during = runner.snapshot();
        assert!(during.error.is_none(), "{strategy}: {:?}", during.error);
        assert!(during.running, "{strategy} stopped while the Lab ran");

        runner.send(Command::SetRunning(false));
        let (tx, rx) = channel();
        runner.send(Command::Read(tx));
        let world = rx.recv_timeout(Duration::from_secs(60)).unwrap().unwrap();
        assert!(world.generation > 20, "{strategy}: {}", world.generation);
        assert_same_world(
            &scalar_after(&start, world.generation),
            &world,
            &format!("{strategy} after a Lab run beside it"),
        );
    }
}
