//! Launching the window: command-line choices for the app and eframe's start-up on golab's
//! own GPU device.

use super::{GolabApp, Settings, crash, view_paint};
use crate::gpu::GpuContext;

/// Command-line choices for the app; they override the remembered settings for this launch.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AppOptions {
    /// Pattern to open as the world: a file (RLE, plaintext, Life 1.05/1.06, macrocell,
    /// gzip-compressed or not), a bundled pattern name or an apgcode.
    pub pattern: Option<std::path::PathBuf>,
    /// World size, e.g. 8192 or 4096x2048.
    #[arg(long)]
    pub size: Option<String>,
    /// Strategy to start with (see `golab bench --help` for the names).
    #[arg(long)]
    pub strategy: Option<String>,
    /// Rule to start with, in any notation Golly accepts: B36/S23, B2-a/S12, B2/S34H, /2/3, MAP…
    #[arg(long)]
    pub rule: Option<String>,
    /// Start running at once.
    #[arg(long)]
    pub run: bool,
    /// Run as fast as possible rather than one generation per frame.
    #[arg(long)]
    pub max_speed: bool,
    /// Start on the unbounded hashed universe (HashLife) instead of the torus soup;
    /// macrocell files open there anyway.
    #[arg(long)]
    pub plane: bool,
    /// Golly's step exponent: each step is base^n generations (base 10 on a grid, 8 hashed);
    /// negative: a delay between generations (−1 to −4: 0.25 s to 2 s).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub step_exp: Option<i32>,
    /// Where the world hashes, let the step grow while steps stay fast (Golly's hyperspeed).
    #[arg(long)]
    pub hyperspeed: bool,
    /// The hashed universe's memory limit in MiB (bgolly's -M; default a quarter of the
    /// memory available).
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u32>,
}

impl AppOptions {
    /// Apply the options to `settings`; a bad value is an error naming it.
    pub fn apply(&self, settings: &mut Settings) -> Result<(), String> {
        if let Some(size) = &self.size {
            (settings.width, settings.height) =
                crate::world::parse_size(size).map_err(|e| e.to_string())?;
        }
        if let Some(name) = &self.strategy {
            settings.strategy = name
                .parse()
                .map_err(|e: crate::step::UnknownStrategy| e.to_string())?;
            settings.strategy_chosen = true;
        }
        if let Some(rule) = &self.rule {
            let rule: crate::rule::Rule = rule
                .parse()
                .map_err(|e: crate::rule::RuleError| e.to_string())?;
            settings.rule = rule.to_string();
        }
        if self.max_speed {
            settings.max_speed = true;
        }
        if let Some(n) = self.step_exp {
            let most = settings.step.max_exponent(false);
            let least = crate::runner::step_model::MIN_EXPONENT;
            if !(least..=most).contains(&n) {
                return Err(format!("--step-exp {n}: from {least} to {most}"));
            }
            settings.step.exponent = n;
        }
        settings.hyperspeed |= self.hyperspeed;
        if let Some(mib) = self.max_memory {
            if mib < 16 {
                return Err(format!("--max-memory {mib}: at least 16 MiB"));
            }
            settings.plane_memory_mib = mib;
        }
        Ok(())
    }
}

/// Open the window: golab's GPU device (when there is one) is shared by eframe's renderer
/// and the simulation; without one the app runs CPU strategies only.
pub fn run(tuning: crate::config::Tuning, launch: AppOptions) -> Result<(), String> {
    AppOptions::apply(&launch, &mut Settings::default())?;
    let gpu = GpuContext::new(&tuning.gpu);
    let (gpu, note) = match gpu {
        Ok(ctx) => {
            super::share_device_with_window(&ctx);
            (Some(ctx), None)
        }
        Err(e) => (None, Some(e.to_string())),
    };
    let mut options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("golab")
            .with_inner_size([1400.0, 900.0])
            .with_min_inner_size([800.0, 500.0])
            .with_drag_and_drop(true),
        persist_window: true,
        ..Default::default()
    };
    if let Some(ctx) = &gpu {
        options.wgpu_options.wgpu_setup =
            eframe::egui_wgpu::WgpuSetup::Existing(eframe::egui_wgpu::WgpuSetupExisting {
                instance: ctx.instance.clone(),
                adapter: ctx.adapter.clone(),
                device: ctx.device.clone(),
                queue: ctx.queue.clone(),
            });
    }
    eframe::run_native(
        "golab",
        options,
        Box::new(move |cc| {
            let mut settings = Settings::load(cc.storage);
            let _ = launch.apply(&mut settings);
            let draws = cc.wgpu_render_state.is_some();
            if let Some(render_state) = &cc.wgpu_render_state {
                view_paint::ViewPainter::install(render_state);
            }
            let egui_ctx = cc.egui_ctx.clone();
            let repaint = Box::new(move || egui_ctx.request_repaint());
            let mut app = GolabApp::new(gpu, note, settings, &tuning, draws, repaint);
            if let Some(dir) = crash::data_dir() {
                app.recovery_offer = crash::pending(&dir);
                crash::install_hook(dir, app.runner.last_copy());
            }
            app.launch(&launch);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("could not open the window: {e}"))
}
