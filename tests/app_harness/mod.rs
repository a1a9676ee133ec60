//! The egui_kittest harness of the app tests: the real app state and simulation thread on
//! the shared lavapipe/hardware device, and helpers to wait for the simulation. A test file
//! using it declares `mod common; mod app_harness;`.

#![allow(dead_code)]

use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use egui::{Event, Modifiers};
use egui_kittest::Harness;
use golab::app::{AppOptions, GolabApp, Settings};
use golab::runner::{Command, Snapshot};
use golab::step::Strategy;
use golab::world::World;

use crate::common;

/// Settings of a scalar world of `width × height` and a soup of `density` %.
pub fn settings(width: u32, height: u32, density: f64) -> Settings {
    Settings {
        width,
        height,
        density,
        strategy: Strategy::Scalar,
        strategy_chosen: true,
        ..Settings::default()
    }
}

/// The app with `settings`, launched with `launch` (a pattern file, `--run`), in a
/// 1280×800 harness after three frames.
pub fn launched(settings: Settings, launch: &AppOptions) -> Harness<'static, GolabApp> {
    launched_with_dt(settings, launch, 1.0 / 60.0)
}

/// [`launched`], with egui's clock advancing `step_dt` seconds a frame (a tiny step keeps
/// the window's delayed repaints from coming due, so a frame asked for at once is the
/// window's own doing).
pub fn launched_with_dt(
    settings: Settings,
    launch: &AppOptions,
    step_dt: f32,
) -> Harness<'static, GolabApp> {
    let gpu = common::gpu_factory(Default::default())
        .gpu()
        .expect("GPU device")
        .clone();
    let mut app = GolabApp::new(
        Some(gpu),
        None,
        settings,
        &Default::default(),
        false,
        Box::new(|| {}),
    );
    app.launch(launch);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(step_dt)
        .build_ui_state(|ui, app: &mut GolabApp| app.show(ui), app);
    harness.run_steps(3);
    harness
}

/// The app with `settings` and no launch options.
pub fn harness(settings: Settings) -> Harness<'static, GolabApp> {
    launched(settings, &AppOptions::default())
}

/// Step frames until `done` holds for the latest snapshot (or fail after 60 s).
pub fn wait_for(
    harness: &mut Harness<'_, GolabApp>,
    what: &str,
    done: impl Fn(&Snapshot) -> bool,
) -> Snapshot {
    let start = Instant::now();
    loop {
        harness.step();
        let snap = harness.state().runner().snapshot();
        if done(&snap) {
            return snap;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A copy of the simulation's world.
pub fn read_world(harness: &Harness<'_, GolabApp>) -> World {
    let (tx, rx) = channel();
    harness.state().runner().send(Command::Read(tx));
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the simulation thread answers")
        .expect("the world reads back")
}

/// Press and release `key` (no modifiers), then run a frame.
pub fn press(harness: &mut Harness<'_, GolabApp>, key: egui::Key) {
    for pressed in [true, false] {
        harness.event(Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: Modifiers::NONE,
        });
    }
    harness.step();
}

/// A fresh file under the temporary directory holding `text`.
pub fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    // Tests of one binary run as threads of one process, and several write the same name: a
    // number per call keeps one test from removing the file another is about to open.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("golab-ux-{}-{call}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Open `path` as the world (read in the background) and step frames until it is applied.
pub fn open(harness: &mut Harness<'_, GolabApp>, path: &std::path::Path) {
    let snap = harness.state().runner().snapshot();
    harness.state_mut().open_path(path, &snap);
    let start = std::time::Instant::now();
    while harness.state().is_opening() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "timed out opening {}",
            path.display()
        );
        harness.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.run_steps(1);
}
