//! The desktop app (eframe + egui + wgpu): UI only. Simulation, editing and drawing of
//! the view image happen on the [`crate::runner`] thread; this module turns user input into
//! [`Command`]s and shows the latest [`crate::runner::Snapshot`].

mod actions;
mod browser;
pub mod camera;
pub mod cell_layout;
pub mod colormap;
mod controls;
pub mod crash;
mod files;
mod identify_panel;
mod key_actions;
pub mod keymap;
mod keys;
pub mod lab_tab;
mod launch;
pub mod messages;
pub mod pattern_info;
mod patterns_panel;
pub mod preferences;
mod replies;
mod rule_menu;
pub mod settings;
mod shaped_overlay;
mod state_counts;
mod state_palette;
mod stats_panel;
mod stats_plots;
mod status_line;
mod step_controls;
mod surface_menu;
pub mod view_paint;
pub mod world_view;

use std::sync::Arc;
use std::sync::mpsc::Receiver;

use crate::gpu::GpuContext;
use crate::pattern::Pattern;
use crate::runner::{Command, Runner, Snapshot};
use crate::sim::Simulation;
use crate::step::{StepperFactory, Strategy};
use crate::world::World;

pub use launch::{AppOptions, run};
pub use messages::Severity;
pub use settings::Settings;
use world_view::WorldView;

/// Submissions of the simulation in the app: short, so window frames queued behind them on
/// the shared device wait at most this long.
const APP_SUBMISSION_TARGET: std::time::Duration = std::time::Duration::from_millis(8);

/// Set up golab's device for sharing with a window: the simulation's submissions shrink to
/// [`APP_SUBMISSION_TARGET`] (the CLI's are longer). The app and its frame benchmark
/// (examples/app_frames.rs) both call this, so the benchmark measures the app's setting.
pub fn share_device_with_window(ctx: &GpuContext) {
    ctx.set_submission_target(APP_SUBMISSION_TARGET);
}

/// The two top-level tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// The Life world.
    World,
    /// GPU kernel experiments.
    Lab,
}

/// What a world read back from the simulation thread is for.
enum Pending {
    ExportPng(std::path::PathBuf),
    /// Identify this selection of the world (all of it when `None`).
    Identify(Option<crate::runner::Selection>),
}

/// The whole app state; `show` draws one frame.
pub struct GolabApp {
    runner: Runner,
    /// Persisted choices.
    pub settings: Settings,
    /// The world view (camera, tool, selection, placement).
    pub view: WorldView,
    /// Selected tab.
    pub tab: Tab,
    /// Whether the keyboard help is open.
    pub help_open: bool,
    panel: controls::PanelState,
    stats: stats_panel::StatsHistory,
    lab: lab_tab::LabTab,
    clipboard: Option<Arc<Pattern>>,
    copy_reply: Option<Receiver<Result<Pattern, String>>>,
    bounds_reply: Option<Receiver<Option<crate::runner::Selection>>>,
    save_reply: Option<Receiver<Result<String, String>>>,
    world_reply: Option<(Receiver<Result<World, String>>, Pending)>,
    /// Identify's run in progress or its last report.
    identity: Option<identify_panel::IdentifyState>,
    /// PNG exports encoding on their own threads.
    exports: Vec<Receiver<Result<String, String>>>,
    /// A pattern being opened on its own thread.
    opening: Option<Receiver<files::Opened>>,
    /// The background open is the launch pattern (a failure then shows an empty world).
    opening_launch: bool,
    /// The file being opened, remembered under Recent once it opens.
    opening_file: Option<std::path::PathBuf>,
    /// What the last opened pattern file said about itself (shown, and kept on save).
    pattern_info: Option<pattern_info::PatternInfo>,
    gpu: Option<Arc<GpuContext>>,
    gpu_note: Option<String>,
    errors_seen: u64,
    /// The runner's warnings already shown (its counter).
    warnings_seen: u64,
    sim_dead_reported: bool,
    /// A world saved by the crash handler of the last run, offered for recovery.
    pub recovery_offer: Option<std::path::PathBuf>,
    /// The message area of the status line.
    pub messages: messages::Messages,
    /// The adapter's key and the start-up probe's outcome once the simulation thread has
    /// measured (taken by [`GolabApp::collect_probe`]).
    probe: (String, ProbeSlot),
    /// The preferences window.
    pub prefs: preferences::PrefsState,
    /// The pattern browser on the left.
    browser: browser::Browser,
    /// Whether the pattern info window is open (I).
    pub info_open: bool,
    /// Whether the strategy list window is open (P).
    pub strategy_picker_open: bool,
    /// Select All's or Shrink Selection's box, on its way.
    select_reply: Option<Receiver<Option<crate::runner::Selection>>>,
    /// Fit the selection once the shrunk one arrives.
    fit_selection_after: bool,
    /// When auto fit last looked at the pattern.
    autofit_at: std::time::Instant,
}

/// Where the simulation thread leaves the start-up probe's outcome for the UI.
type ProbeSlot = Arc<std::sync::Mutex<Option<crate::step::probe::ProbeOutcome>>>;

/// A fresh world for `settings`: its size, rule and topology, and a soup of its density.
pub fn initial_world(settings: &Settings, seed: u64) -> World {
    let rule = settings.rule.parse().unwrap_or(crate::rule::Rule::CONWAY);
    let mut world = World::new(settings.width, settings.height, settings.topology, rule)
        .or_else(|_| World::new(1024, 1024, settings.topology, rule))
        .or_else(|_| World::new(1024, 1024, crate::world::Topology::Torus, rule))
        .expect("a 1024x1024 torus runs every rule");
    let _ = world.fill_random(settings.density, seed);
    world
}

impl GolabApp {
    /// Start the app state: a simulation on `gpu` (or CPU only, with `gpu_note` saying why)
    /// with `settings`' world and `tuning`'s kernel shape and injected faults.
    /// `draw_on_device` draws through wgpu (eframe's renderer shares `gpu`); otherwise view
    /// images come back to the host (tests, other renderers).
    pub fn new(
        gpu: Option<Arc<GpuContext>>,
        gpu_note: Option<String>,
        settings: Settings,
        tuning: &crate::config::Tuning,
        draw_on_device: bool,
        repaint: Box<dyn Fn() + Send>,
    ) -> GolabApp {
        // Rule files are found Golly's way in the folders the settings name (`--rules DIR`
        // on the command line stays when the settings name none).
        let mut folders = settings.rule_folders();
        if settings.rules_folder.is_none() {
            folders.user = crate::rule::table::library::folders().user.or(folders.user);
        }
        crate::rule::table::library::install(folders);
        let mut factory = match &gpu {
            Some(ctx) => StepperFactory::with_context(ctx.clone()),
            None => StepperFactory::cpu_only(),
        };
        factory.gpu_settings.memory = settings.memory;
        factory.gpu_settings.readback_interval = settings.readback_interval;
        factory.gpu_settings.bitpacked = tuning.bitpacked;
        factory.cpu_simd = tuning.cpu_simd;
        factory.gpu_settings.fault = tuning.fault;
        let mut messages = messages::Messages::default();
        let info = gpu.as_ref().map(|c| c.adapter.get_info());
        let key = settings::adapter_key(info.as_ref());
        let probed = settings.probed.get(&key).copied();
        // A new user's first launch on this adapter measures; later ones start at once.
        let probe_now = !settings.strategy_chosen && probed.is_none() && tuning.probe;
        let mut strategy = if settings.strategy_chosen {
            settings.strategy
        } else {
            probed
                .unwrap_or_else(|| settings::default_strategy(info.as_ref().map(|i| i.device_type)))
        };
        if let Some(reason) = factory.unavailable_reason(strategy) {
            let note = format!("{} is unavailable ({reason}); using rayon", strategy.name());
            messages.push(Severity::Warning, note);
            strategy = Strategy::Rayon;
        }
        // Allocating, filling and uploading a large remembered world takes seconds: it
        // happens on the simulation thread while the window shows what is being built.
        let rule = settings.rule.parse().unwrap_or(crate::rule::Rule::CONWAY);
        let bounds = crate::universe::Bounds {
            width: settings.width,
            height: settings.height,
            topology: settings.topology,
        };
        let mut placeholder =
            Snapshot::before_start(strategy, factory.gpu_settings, Some(bounds), rule);
        placeholder.busy = Some(if probe_now {
            format!(
                "measuring which strategy runs fastest here (under a second), then building the {}x{} world…",
                settings.width, settings.height
            )
        } else {
            format!(
                "building the {}x{} world on {}…",
                settings.width,
                settings.height,
                strategy.name()
            )
        });
        let world_settings = settings.clone();
        let probe_slot: ProbeSlot = Default::default();
        let probe_out = probe_slot.clone();
        let real_gpu = info
            .as_ref()
            .is_some_and(|i| i.device_type != wgpu::DeviceType::Cpu);
        let build = move || {
            let mut strategy = strategy;
            if probe_now {
                let slice = std::time::Duration::from_millis(120);
                let outcome = crate::step::probe::probe(&factory, real_gpu, slice);
                strategy = outcome.chosen;
                if let Ok(mut slot) = probe_out.lock() {
                    *slot = Some(outcome);
                }
            }
            let world = initial_world(&world_settings, 1);
            let conversions = factory.sharing_device();
            let (sim, note) = match Simulation::new(factory, world.clone(), strategy) {
                Ok(sim) => (sim, None),
                Err(e) => {
                    let note = format!("{}: {e}; using rayon", strategy.name());
                    let sim = Simulation::new(StepperFactory::cpu_only(), world, Strategy::Rayon)
                        .expect("the rayon strategy accepts every valid world");
                    (sim, Some(note))
                }
            };
            let universe: Box<dyn crate::universe::Universe> =
                Box::new(crate::universe::GridUniverse::new(sim));
            (universe, conversions, note)
        };
        let draw_on = gpu.clone().filter(|_| draw_on_device);
        let runner = Runner::start_building(Box::new(build), placeholder, draw_on, repaint);
        let speed = settings
            .step
            .speed(settings.per_frame, settings.max_speed, false);
        runner.send(Command::SetSpeed(speed));
        runner.send(Command::SetHyper(settings.hyperspeed));
        let mut view = WorldView::default();
        view.tool = settings.tool;
        GolabApp {
            runner,
            panel: controls::PanelState::new(&settings),
            settings,
            view,
            tab: Tab::World,
            help_open: false,
            stats: stats_panel::StatsHistory::default(),
            lab: lab_tab::LabTab::new(tuning.lab),
            clipboard: None,
            copy_reply: None,
            bounds_reply: None,
            save_reply: None,
            world_reply: None,
            identity: None,
            exports: Vec::new(),
            opening: None,
            opening_launch: false,
            opening_file: None,
            pattern_info: None,
            gpu,
            gpu_note,
            errors_seen: 0,
            warnings_seen: 0,
            sim_dead_reported: false,
            recovery_offer: None,
            messages,
            probe: (key, probe_slot),
            prefs: Default::default(),
            browser: Default::default(),
            info_open: false,
            strategy_picker_open: false,
            select_reply: None,
            fit_selection_after: false,
            autofit_at: std::time::Instant::now(),
        }
    }

    /// Open the launch pattern and start running if asked to.
    pub fn launch(&mut self, launch: &AppOptions) {
        if launch.plane {
            self.make_unbounded();
            self.switch(crate::step::Strategy::Hashlife);
        }
        self.send_memory_limit();
        if let Some(path) = &launch.pattern {
            let snap = self.runner.snapshot();
            // Read in the background; if it fails, the user asked for a file, not for the
            // remembered soup: `files::collect_opened` shows an empty world beside the error
            // rather than something that looks like the file.
            self.open_path(path, &snap);
            self.opening_launch = true;
        }
        if launch.run {
            self.runner.send(Command::SetRunning(true));
        }
    }

    /// Whether a pattern is being read in the background (tests wait for it).
    pub fn is_opening(&self) -> bool {
        self.opening.is_some()
    }

    /// The Lab tab's state (tests read its report).
    pub fn lab_tab(&self) -> &lab_tab::LabTab {
        &self.lab
    }

    /// Whether the GPU is a software driver (lavapipe/llvmpipe, `wgpu::DeviceType::Cpu`):
    /// its "GPU" figures are then labelled as CPU figures.
    pub fn software_gpu(&self) -> bool {
        self.gpu
            .as_ref()
            .is_some_and(|ctx| ctx.adapter.get_info().device_type == wgpu::DeviceType::Cpu)
    }

    /// The generations of the statistics history's samples, oldest first: what the plots
    /// draw (tests check that Clear, Open and rule changes start it again).
    pub fn plotted_generations(&self) -> Vec<u64> {
        self.stats.samples.iter().map(|s| s.generation).collect()
    }

    /// The simulation thread handle (tests read snapshots through it).
    pub fn runner(&self) -> &Runner {
        &self.runner
    }

    /// Keep the start-up probe's choice for this adapter and say what it measured, once
    /// the simulation thread has run it.
    fn collect_probe(&mut self) {
        let outcome = self.probe.1.lock().ok().and_then(|mut slot| slot.take());
        if let Some(outcome) = outcome {
            self.settings
                .probed
                .insert(self.probe.0.clone(), outcome.chosen);
            if !self.settings.strategy_chosen {
                self.settings.strategy = outcome.chosen;
            }
            self.messages.push(
                Severity::Info,
                format!(
                    "started on {}: {} (kept for this adapter; a strategy you pick is remembered instead)",
                    outcome.chosen.name(),
                    outcome.summary()
                ),
            );
        }
    }

    /// Draw one frame of the whole app into `ui`.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.collect_probe();
        let snap = self.runner.snapshot();
        self.collect_replies(ui.ctx());
        if let Some((count, message)) = &snap.error
            && *count > self.errors_seen
        {
            self.errors_seen = *count;
            self.messages.push(Severity::Error, message.clone());
        }
        if let Some((count, message)) = &snap.warning
            && *count > self.warnings_seen
        {
            self.warnings_seen = *count;
            self.messages.push(Severity::Warning, message.clone());
        }
        if !self.runner.is_alive() && !self.sim_dead_reported {
            self.sim_dead_reported = true;
            let note = "the simulation thread crashed: its last world copy and a crash report were saved for the next launch";
            self.messages.push(Severity::Error, note);
        }
        // While the thread builds or replaces the world its figures are stale (a placeholder
        // 0 before the first world): the plots skip them instead of drawing a ramp from 0.
        if snap.busy.is_none() {
            self.stats.record(&snap);
        }
        files::handle_dropped_files(self, ui.ctx(), &snap);
        keys::handle(self, ui.ctx(), &snap);
        self.auto_fit(&snap);
        self.view.grid_lines = self.settings.grid_lines;
        egui::Panel::top("tabs").show(ui, |ui| self.top_bar(ui, &snap));
        egui::Panel::bottom("status line").show(ui, |ui| status_line::show(self, ui, &snap));
        match self.tab {
            Tab::World => {
                if self.settings.show_files {
                    egui::Panel::left("pattern browser")
                        .resizable(true)
                        .default_size(220.0)
                        .show(ui, |ui| browser::show(self, ui));
                }
                egui::Panel::left("controls")
                    .resizable(true)
                    .default_size(270.0)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical().show(ui, |ui| controls::show(self, ui, &snap));
                    });
                egui::Panel::bottom("stats")
                    .resizable(true)
                    .default_size(230.0)
                    .show(ui, |ui| {
                        self.stats
                            .show(ui, &snap, self.software_gpu(), self.settings.exact_numbers)
                    });
                egui::CentralPanel::default()
                    .frame(egui::Frame::NONE)
                    .show(ui, |ui| {
                        self.view.hex_cells = self.settings.hex_cells;
                        let look = view_paint::Look {
                            map: self.settings.colormap,
                            rule_colours: self.settings.rule_colours,
                            invert: self.settings.invert,
                        };
                        self.view.show(ui, &snap, &self.runner, look)
                    });
            }
            Tab::Lab => {
                let beside = lab_tab::describe_simulation(&snap);
                egui::CentralPanel::default()
                    .show(ui, |ui| self.lab.show(ui, self.gpu.as_ref(), Some(beside)));
            }
        }
        keys::help_window(self, ui.ctx());
        preferences::show(self, ui.ctx());
        self.info_window(ui.ctx());
        self.strategy_picker(ui.ctx(), &snap);
        // New frames come with news: the simulation thread asks for one whenever it
        // publishes (a batch, statistics, a drawn view). The window never asks for frames
        // of its own while the thread is busy, or it would spin a core redrawing the same
        // picture; it only refreshes the "waiting for the stepper…" line now and then.
        if snap.running || self.runner.stepper_state().batch.is_some() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(250));
        }
    }

    fn top_bar(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tab, Tab::World, "World");
            ui.selectable_value(&mut self.tab, Tab::Lab, "Lab");
            ui.separator();
            let device = match &self.gpu {
                Some(ctx) if self.software_gpu() => {
                    format!(
                        "{} (software driver: GPU figures are CPU figures)",
                        ctx.adapter_name()
                    )
                }
                Some(ctx) => ctx.adapter_name(),
                None => format!("no GPU: {}", self.gpu_note.as_deref().unwrap_or("CPU only")),
            };
            ui.label(egui::RichText::new(device).weak());
            ui.separator();
            ui.label(format!("{} · {}", snap.describe, snap.rule))
                .on_hover_text(
                    "the world (its surface and the strategy stepping it) and the rule in force",
                );
            if let Some(path) = self.recovery_offer.clone() {
                ui.separator();
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "golab closed unexpectedly last time:",
                );
                if ui.button("Recover its world").clicked() {
                    files::start_open(self, &path.to_string_lossy(), snap, true);
                    self.recovery_offer = None;
                }
                if ui.button("Discard").clicked() {
                    let _ = std::fs::remove_file(&path);
                    self.recovery_offer = None;
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Help (F1)").clicked() {
                    self.help_open = !self.help_open;
                }
                if ui
                    .button("Preferences")
                    .on_hover_text(", : folders (your rules, Golly's) and keys")
                    .clicked()
                {
                    self.prefs.open = !self.prefs.open;
                }
                ui.toggle_value(&mut self.settings.show_files, "Files")
                    .on_hover_text("the pattern browser on the left (Golly's Show Files)");
            });
        });
    }

    /// Auto fit (T): while running, frame the pattern again every half second.
    fn auto_fit(&mut self, snap: &Snapshot) {
        let due = self.autofit_at.elapsed() >= std::time::Duration::from_millis(500);
        if self.settings.autofit && snap.running && due && self.bounds_reply.is_none() {
            self.autofit_at = std::time::Instant::now();
            self.fit_pattern();
        }
    }

    /// The pattern info window (I): the opened file's name, author and comments.
    fn info_window(&mut self, ctx: &egui::Context) {
        let mut open = self.info_open;
        egui::Window::new("Pattern info")
            .open(&mut open)
            .default_width(420.0)
            .vscroll(true)
            .show(ctx, |ui| match &self.pattern_info {
                Some(_) => pattern_info::show(ui, self.pattern_info.as_ref()),
                None => {
                    ui.weak("no pattern file opened yet");
                }
            });
        self.info_open = open;
    }

    /// The strategy list as a window (P), beside the panel's list.
    fn strategy_picker(&mut self, ctx: &egui::Context, snap: &Snapshot) {
        let mut open = self.strategy_picker_open;
        let mut picked = None;
        egui::Window::new("Strategy")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                for &strategy in crate::step::Strategy::ALL {
                    let why = strategy.supports(&snap.rule).err();
                    let item = egui::Button::selectable(snap.strategy == strategy, strategy.name());
                    let response = ui
                        .add_enabled(why.is_none(), item)
                        .on_hover_text(strategy.description())
                        .on_disabled_hover_text(why.unwrap_or_default());
                    if response.clicked() {
                        picked = Some(strategy);
                    }
                }
            });
        if let Some(strategy) = picked {
            self.switch(strategy);
            open = false;
        }
        self.strategy_picker_open = open;
    }

    /// Show a note in the status line for a few seconds.
    pub fn notify(&mut self, message: impl Into<String>) {
        self.messages.push(Severity::Info, message);
    }

    /// Show a warning in the status line (it stays longer than a note).
    pub fn warn(&mut self, message: impl Into<String>) {
        self.messages.push(Severity::Warning, message);
    }

    /// Show an error in the status line until it is dismissed or superseded.
    pub fn error(&mut self, message: impl Into<String>) {
        self.messages.push(Severity::Error, message);
    }
}

impl eframe::App for GolabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        let snap = self.runner.snapshot();
        if snap.capabilities.strategies {
            self.settings.strategy = snap.strategy;
        }
        if let Some(b) = snap.capabilities.bounded {
            (self.settings.width, self.settings.height) = (b.width, b.height);
        }
        self.settings.tool = self.view.tool;
        eframe::set_value(storage, settings::STORAGE_KEY, &self.settings);
    }
}
