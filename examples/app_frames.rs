//! Frame benchmark of the real app, offscreen: the whole `GolabApp` (panels, plots, the world
//! view drawn by the simulation thread on the shared device and painted by the app's own
//! wgpu paint callback) rendered through egui_kittest's wgpu renderer, with no window.
//!
//!     cargo run --release --example app_frames -- [SIZE] [STRATEGY] [FRAMES]
//!     cargo run --release --example app_frames -- 8192 gpu-bitpacked 600
//!
//! Runs the world at max speed and reports frames per second, frame time p50 / p99, the
//! in-window GPS (the simulation thread's wall GPS while the window draws) and the headless
//! GPS of the same strategy and world stepped alone for as long, and their ratio. Each frame
//! is one egui pass plus a render and read-back of the image (`Harness::render`), so the
//! frame times are an upper bound of what a window's present costs.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use golab::app::{GolabApp, Settings, view_paint};
use golab::config::Tuning;
use golab::gpu::GpuContext;
use golab::runner::Speed;
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: u32 = args
        .first()
        .map_or(Ok(1024), |s| s.parse())
        .map_err(|e| format!("size: {e}"))?;
    let strategy: Strategy = args
        .get(1)
        .map_or(Ok(Strategy::GpuResident), |s| s.parse())
        .map_err(|e: golab::step::UnknownStrategy| e.to_string())?;
    let frames: usize = args
        .get(2)
        .map_or(Ok(300), |s| s.parse())
        .map_err(|e| format!("frames: {e}"))?;
    let tuning = Tuning::from_env()?;
    let gpu = GpuContext::new(&tuning.gpu).map_err(|e| e.to_string())?;
    // The app's submission size while the window draws; `golab bench`'s for the headless run.
    let cli_target = gpu.submission_target();
    golab::app::share_device_with_window(&gpu);
    println!(
        "device: {}; simulation submissions of ~{} ms",
        gpu.adapter_name(),
        gpu.submission_target().as_millis()
    );
    let settings = Settings {
        width: size,
        height: size,
        density: 30.0,
        strategy,
        speed: Speed::Max,
        ..Settings::default()
    };

    // The renderer shares golab's device, as eframe does in the app.
    let setup = eframe::egui_wgpu::WgpuSetup::Existing(eframe::egui_wgpu::WgpuSetupExisting {
        instance: gpu.instance.clone(),
        adapter: gpu.adapter.clone(),
        device: gpu.device.clone(),
        queue: gpu.queue.clone(),
    });
    let render_state = egui_kittest::wgpu::create_render_state(setup, Default::default());
    view_paint::ViewPainter::install(&render_state);
    let app = GolabApp::new(
        Some(gpu.clone()),
        None,
        settings.clone(),
        &tuning,
        true,
        Box::new(|| {}),
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .renderer(egui_kittest::wgpu::WgpuTestRenderer::from_render_state(
            render_state,
        ))
        .build_ui_state(|ui, app: &mut GolabApp| app.show(ui), app);
    harness
        .state()
        .runner()
        .send(golab::runner::Command::SetRunning(true));

    // The simulation thread builds a large world while the window already runs: wait for
    // it (the snapshot's busy label goes), then warm up (pipelines, first statistics,
    // clocks) and time each frame.
    let built = Instant::now();
    while harness.state().runner().snapshot().busy.is_some() {
        if built.elapsed() > Duration::from_secs(300) {
            return Err("the world was not built within 5 minutes".into());
        }
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    println!("world built in {:.1} s", built.elapsed().as_secs_f64());
    let warm = Instant::now();
    while warm.elapsed() < Duration::from_secs(3) {
        harness.step();
        harness.render()?;
    }
    let g0 = harness.state().runner().snapshot().generation;
    let start = Instant::now();
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t = Instant::now();
        harness.step();
        harness.render()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let elapsed = start.elapsed();
    let end = harness.state().runner().snapshot();
    let generations = end.generation - g0;
    if let Some((_, error)) = &end.error {
        println!("simulation error during the run: {error}");
    }
    if !end.running {
        println!("the simulation was not running at the end");
    }
    drop(harness);

    // The same world and strategy stepped alone for as long, as `golab bench` steps it.
    gpu.set_submission_target(cli_target);
    let factory = StepperFactory::with_context(gpu.clone());
    let world = golab::app::initial_world(&settings, 1);
    let mut sim = Simulation::new(factory, world, strategy).map_err(|e| e.to_string())?;
    let mut batch = 1u64;
    let headless_start = Instant::now();
    let mut headless = 0u64;
    while headless_start.elapsed() < elapsed {
        let t = Instant::now();
        sim.step(batch).map_err(|e| e.to_string())?;
        headless += batch;
        if t.elapsed() < Duration::from_millis(10) {
            batch *= 2;
        }
    }
    let headless_gps = headless as f64 / headless_start.elapsed().as_secs_f64();

    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    let window_gps = generations as f64 / elapsed.as_secs_f64();
    println!("{size}² {} at max speed, {frames} frames", strategy.name());
    println!("FPS: {:.1}", frames as f64 / elapsed.as_secs_f64());
    println!(
        "frame time p50: {:.2} ms, p99: {:.2} ms",
        pct(0.5),
        pct(0.99)
    );
    println!("in-window GPS: {window_gps:.1}");
    println!("headless GPS: {headless_gps:.1}");
    println!(
        "in-window / headless: {:.0} %",
        100.0 * window_gps / headless_gps
    );
    Ok(())
}
