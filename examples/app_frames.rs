//! Frame benchmark of the real app, offscreen: the whole `GolabApp` (panels, plots, the world
//! view drawn by the simulation thread on the shared device and painted by the app's own
//! wgpu paint callback) rendered through egui_kittest's wgpu renderer, with no window.
//!
//!     cargo run --release --example app_frames -- [SIZE] [STRATEGY] [FRAMES] [SUBMISSION_MS] [--settle=N]
//!     cargo run --release --example app_frames -- 8192 gpu-bitpacked 600 --settle=50000
//!
//! Runs the world at max speed and reports frames per second, frame time p50 / p99, the
//! in-window GPS (the simulation thread's wall GPS while the window draws) and the headless
//! GPS of the same strategy stepped alone for as long **from the same world** (the window's
//! world read at the start of the timed frames), and their ratio; both are effective GPS
//! (replayed strips count as stepped), and the kernel's report (shape, controller state,
//! share of strips replayed) is printed for both. `--settle=N` steps the soup N generations
//! headless first from `golab bench --phase settled`'s soup (50 %, seed 1; the shape controller
//! follows it as the window's would) and opens the settled world in the window. Each frame
//! is one egui pass plus a render into one of three textures, paced as a window's swapchain
//! paces it: at most two frames in flight (wgpu's default frame latency), so a frame waits
//! for the frame before last, never for the whole device. (egui_kittest's own renderer reads
//! every frame back and waits for every submission on the device, the simulation's next one
//! included: that measured the read-back, not the window.)

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use eframe::egui_wgpu::{RenderState, ScreenDescriptor};
use egui_kittest::{Harness, TestRenderer};
use golab::app::{GolabApp, Settings, view_paint};
use golab::config::Tuning;
use golab::gpu::GpuContext;
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};

fn main() -> Result<(), String> {
    let (flags, args): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.starts_with("--"));
    let mut settle = 0u64;
    for flag in &flags {
        match flag.strip_prefix("--settle=") {
            Some(n) => settle = n.parse().map_err(|e| format!("--settle: {e}"))?,
            None => return Err(format!("unknown flag {flag}")),
        }
    }
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
    let submission_ms: Option<u64> = args
        .get(3)
        .map(|s| s.parse())
        .transpose()
        .map_err(|e| format!("submission ms: {e}"))?;
    let tuning = Tuning::from_env()?;
    let gpu = GpuContext::new(&tuning.gpu).map_err(|e| e.to_string())?;
    // The app's submission size while the window draws; `golab bench`'s for the headless run.
    let cli_target = gpu.submission_target();
    golab::app::share_device_with_window(&gpu);
    if let Some(ms) = submission_ms {
        gpu.set_submission_target(Duration::from_millis(ms));
    }
    println!(
        "device: {}; simulation submissions of ~{} ms",
        gpu.adapter_name(),
        gpu.submission_target().as_millis()
    );
    let settings = Settings {
        width: size,
        height: size,
        // A settled world is `golab bench --phase settled`'s: a 50 % soup, seed 1.
        density: if settle > 0 { 50.0 } else { 30.0 },
        strategy,
        max_speed: true,
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
    let renderer = SwapchainRenderer::new(render_state);
    let waited = renderer.waited.clone();
    let app = GolabApp::new(
        Some(gpu.clone()),
        None,
        settings.clone(),
        &tuning,
        true,
        Box::new(|| {}),
    );
    // The settled world, stepped headless on the same device (the shape controller, kept
    // per device and world key, follows it as the window's would), then opened in the window.
    let settled = if settle > 0 {
        let t = Instant::now();
        let factory = StepperFactory::with_context(gpu.clone());
        let world = golab::app::initial_world(&settings, 1);
        let mut sim = Simulation::new(factory, world, strategy).map_err(|e| e.to_string())?;
        sim.step(settle).map_err(|e| e.to_string())?;
        let world = sim.world().map_err(|e| e.to_string())?.clone();
        println!(
            "settled {settle} generations headless in {:.1} s: {}",
            t.elapsed().as_secs_f64(),
            report(&mut sim)
        );
        Some(world)
    } else {
        None
    };
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .renderer(renderer)
        .build_ui_state(|ui, app: &mut GolabApp| app.show(ui), app);
    if let Some(world) = settled {
        harness
            .state()
            .runner()
            .send(golab::runner::Command::Replace(world));
    }
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
    // At least 3 s, and until the kernel has been tuned and nothing compiled in the
    // background for a second (a first launch compiles pipelines and sweeps its shape
    // meanwhile; the timed frames measure the speed after that, its time reported apart),
    // at most 2 minutes.
    let warm = Instant::now();
    let mut tuned_since: Option<Instant> = None;
    while warm.elapsed() < Duration::from_secs(120) {
        harness.step();
        harness.render()?;
        let tuning = harness.state().runner().snapshot().tuning || gpu.background_compilers() > 0;
        tuned_since = if tuning {
            None
        } else {
            tuned_since.or(Some(Instant::now()))
        };
        let tuned_for = tuned_since.map_or(Duration::ZERO, |t| t.elapsed());
        if warm.elapsed() >= Duration::from_secs(3) && tuned_for >= Duration::from_secs(1) {
            break;
        }
    }
    println!(
        "warm-up and tuning: {:.1} s{}",
        warm.elapsed().as_secs_f64(),
        if tuned_since.is_none() {
            " (still tuning: timed anyway)"
        } else {
            ""
        }
    );
    // The world the timed frames start from (read between two batches), for the headless run.
    let (tx, rx) = std::sync::mpsc::channel();
    harness
        .state()
        .runner()
        .send(golab::runner::Command::Read(tx));
    let start_world = loop {
        harness.step();
        if let Ok(world) = rx.try_recv() {
            break world?;
        }
    };
    println!(
        "window kernel after warm-up: {}",
        harness
            .state()
            .runner()
            .snapshot()
            .kernel
            .unwrap_or_default()
    );
    let g0 = u128::from(start_world.generation);
    let start = Instant::now();
    let mut times = Vec::with_capacity(frames);
    let mut ui_ms = Vec::with_capacity(frames);
    let mut wait_ms = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t = Instant::now();
        harness.step();
        ui_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let before = waited.get();
        harness.render()?;
        wait_ms.push((waited.get() - before).as_secs_f64() * 1e3);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let elapsed = start.elapsed();
    let end = harness.state().runner().snapshot();
    let generations = end.generation - g0;
    println!(
        "window kernel at the end: {}",
        end.kernel.clone().unwrap_or_default()
    );
    if let Some((_, error)) = &end.error {
        println!("simulation error during the run: {error}");
    }
    if !end.running {
        println!("the simulation was not running at the end");
    }
    drop(harness);

    // The same world and strategy stepped alone for as long, as `golab bench` steps it, from
    // the world the window's timed frames started from.
    gpu.set_submission_target(cli_target);
    let factory = StepperFactory::with_context(gpu.clone());
    let mut sim = Simulation::new(factory, start_world, strategy).map_err(|e| e.to_string())?;
    let multiple = sim.batch_multiple().max(1);
    let mut batch = multiple;
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
    println!("headless kernel: {}", report(&mut sim));
    // The controller is kept per device and world key: its log holds the window's decisions
    // and the headless run's.
    if let Ok(Some(r)) = sim.take_report() {
        for d in r.decisions {
            println!("  decision {d}");
        }
    }

    let window_gps = generations as f64 / elapsed.as_secs_f64();
    println!("{size}² {} at max speed, {frames} frames", strategy.name());
    println!("FPS: {:.1}", frames as f64 / elapsed.as_secs_f64());
    for (what, values) in [
        ("frame time", &mut times),
        ("  of it the UI pass", &mut ui_ms),
        ("  of it waiting for the frame before last", &mut wait_ms),
    ] {
        values.sort_by(f64::total_cmp);
        let pct = |p: f64| values[((values.len() - 1) as f64 * p).round() as usize];
        println!("{what} p50: {:.2} ms, p99: {:.2} ms", pct(0.5), pct(0.99));
    }
    println!("in-window GPS (effective): {window_gps:.1}");
    println!("headless GPS (effective, same start world): {headless_gps:.1}");
    println!(
        "in-window / headless: {:.0} %",
        100.0 * window_gps / headless_gps
    );
    Ok(())
}

/// The kernel's report in one line (empty where the strategy has none).
fn report(sim: &mut Simulation) -> String {
    match sim.take_report() {
        Ok(Some(r)) => r.summary(),
        Ok(None) => String::new(),
        Err(e) => format!("(report failed: {e})"),
    }
}

/// Frames a window's swapchain lets the CPU run ahead of the GPU (wgpu's default
/// `desired_maximum_frame_latency`).
const FRAMES_IN_FLIGHT: usize = 2;

/// egui's wgpu renderer drawing into rotating offscreen textures, paced like a swapchain:
/// before a frame is submitted, the frame [`FRAMES_IN_FLIGHT`] back must have finished.
struct SwapchainRenderer {
    state: RenderState,
    targets: Vec<wgpu::TextureView>,
    next: usize,
    in_flight: VecDeque<wgpu::SubmissionIndex>,
    /// Time spent waiting for earlier frames, in total.
    waited: std::rc::Rc<std::cell::Cell<Duration>>,
}

impl SwapchainRenderer {
    fn new(state: RenderState) -> SwapchainRenderer {
        SwapchainRenderer {
            state,
            targets: Vec::new(),
            next: 0,
            in_flight: VecDeque::new(),
            waited: Default::default(),
        }
    }

    fn target(&mut self, size: [u32; 2]) -> wgpu::TextureView {
        if self.targets.is_empty() {
            self.targets = (0..=FRAMES_IN_FLIGHT)
                .map(|_| {
                    self.state
                        .device
                        .create_texture(&wgpu::TextureDescriptor {
                            label: Some("frame"),
                            size: wgpu::Extent3d {
                                width: size[0],
                                height: size[1],
                                depth_or_array_layers: 1,
                            },
                            mip_level_count: 1,
                            sample_count: 1,
                            dimension: wgpu::TextureDimension::D2,
                            format: self.state.target_format,
                            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                            view_formats: &[],
                        })
                        .create_view(&Default::default())
                })
                .collect();
        }
        self.next = (self.next + 1) % self.targets.len();
        self.targets[self.next].clone()
    }
}

impl TestRenderer for SwapchainRenderer {
    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        let mut renderer = self.state.renderer.write();
        for (id, images) in std::mem::take(&mut delta.set) {
            for image in images {
                renderer.update_texture(&self.state.device, &self.state.queue, id, &image);
            }
        }
        for id in std::mem::take(&mut delta.free) {
            renderer.free_texture(&id);
        }
    }

    fn render(
        &mut self,
        ctx: &egui::Context,
        output: &egui::FullOutput,
    ) -> Result<image::RgbaImage, String> {
        if self.in_flight.len() >= FRAMES_IN_FLIGHT {
            let oldest = self.in_flight.pop_front().expect("a frame in flight");
            let t = Instant::now();
            self.state
                .device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(oldest),
                    timeout: Some(Duration::from_secs(10)),
                })
                .map_err(|e| format!("waiting for a frame: {e}"))?;
            self.waited.set(self.waited.get() + t.elapsed());
        }
        let size = ctx.content_rect().size() * ctx.pixels_per_point();
        let screen = ScreenDescriptor {
            pixels_per_point: ctx.pixels_per_point(),
            size_in_pixels: [size.x.round() as u32, size.y.round() as u32],
        };
        let view = self.target(screen.size_in_pixels);
        let tessellated = ctx.tessellate(output.shapes.clone(), ctx.pixels_per_point());
        let mut renderer = self.state.renderer.write();
        let mut encoder = self
            .state
            .device
            .create_command_encoder(&Default::default());
        let user = renderer.update_buffers(
            &self.state.device,
            &self.state.queue,
            &mut encoder,
            &tessellated,
            &screen,
        );
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("frame"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                        depth_slice: None,
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            renderer.render(&mut pass, &tessellated, &screen);
        }
        let index = self
            .state
            .queue
            .submit(user.into_iter().chain(std::iter::once(encoder.finish())));
        self.in_flight.push_back(index);
        Ok(image::RgbaImage::new(1, 1))
    }
}
