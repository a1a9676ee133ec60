//! The Lab tab: pick an experiment, its variants and sizes, run it on a background thread
//! with progress and Cancel, then read the results as a table and a log-log plot.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

mod beside;
mod results;
mod sizes;

pub use beside::describe_simulation;
pub use results::save_csv;

use results::{save_csv_dialog, table, time_plot};

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::lab::{
    self, Experiment, LabError, LabReport, Progress, RunPlan, parse_size, size_label,
};

/// A run in flight.
struct Running {
    progress: Progress,
    result: Receiver<Result<LabReport, LabError>>,
    /// The report so far: rows stream in from [`Progress::push_row`] as each one finishes.
    partial: LabReport,
}

/// State of the Lab tab.
pub struct LabTab {
    experiments: Vec<Box<dyn Experiment>>,
    chosen: usize,
    variants: Vec<(String, String, bool)>,
    sizes: Vec<(u64, bool)>,
    /// The experiment whose sizes were last chosen for the device (they are chosen when
    /// the tab first draws with the device at hand).
    sized_for: Option<usize>,
    extra_sizes: String,
    descending: bool,
    repeats: usize,
    running: Option<Running>,
    /// The last finished report.
    pub report: Option<LabReport>,
    status: String,
    /// The Lab's measuring switches every run of this tab uses.
    pub tuning: LabTuning,
    /// What shares the device now (see [`describe_simulation`]), as last drawn.
    beside: Option<String>,
    /// Path field of "Save CSV" when no file dialog is available.
    csv_path: String,
    /// Whether the device is a software driver (its bandwidths are the CPU's).
    software: bool,
}

impl Default for LabTab {
    fn default() -> Self {
        LabTab::new(LabTuning::default())
    }
}

impl LabTab {
    /// A tab whose runs use `tuning` (from [`crate::config::Tuning`], read once at start-up).
    pub fn new(tuning: LabTuning) -> LabTab {
        let mut tab = LabTab {
            experiments: lab::experiments(),
            chosen: 0,
            variants: Vec::new(),
            sizes: Vec::new(),
            sized_for: None,
            extra_sizes: String::new(),
            descending: false,
            repeats: 5,
            running: None,
            report: None,
            status: String::new(),
            tuning,
            beside: None,
            csv_path: String::new(),
            software: false,
        };
        tab.choose(0);
        tab
    }

    fn choose(&mut self, index: usize) {
        self.chosen = index;
        let exp = &self.experiments[index];
        self.variants = exp
            .variants()
            .into_iter()
            .map(|v| (v.name, v.description, true))
            .collect();
        let defaults = exp.default_sizes();
        let small = defaults.iter().copied().min().unwrap_or(0);
        self.sizes = defaults.into_iter().map(|s| (s, s == small)).collect();
        self.sized_for = None;
    }

    /// Whether a run is in progress.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The status line (last outcome or what is running) and the progress message.
    pub fn status(&self) -> String {
        let progress = self
            .running
            .as_ref()
            .map(|r| r.progress.message())
            .unwrap_or_default();
        format!("{} {progress}", self.status)
    }

    fn plan(&self) -> Result<RunPlan, String> {
        let mut sizes: Vec<u64> = self.sizes.iter().filter(|s| s.1).map(|s| s.0).collect();
        for item in self
            .extra_sizes
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            sizes.push(
                parse_size(item)
                    .ok_or_else(|| format!("'{item}' is not a size (e.g. 5000 or 2^20)"))?,
            );
        }
        if sizes.is_empty() {
            return Err("choose at least one size".into());
        }
        let variants: Vec<String> = self
            .variants
            .iter()
            .filter(|v| v.2)
            .map(|v| v.0.clone())
            .collect();
        if variants.is_empty() {
            return Err("choose at least one variant".into());
        }
        Ok(RunPlan {
            variants,
            sizes,
            repeats: self.repeats,
            descending: self.descending,
            tuning: self.tuning,
            beside: self.beside.clone(),
        })
    }

    /// Start the chosen experiment on `ctx` in a background thread.
    pub fn start(&mut self, ctx: &Arc<GpuContext>, repaint: egui::Context) {
        let plan = match self.plan() {
            Ok(plan) => plan,
            Err(e) => {
                self.status = e;
                return;
            }
        };
        let name = self.experiments[self.chosen].name();
        let Ok(experiment) = lab::experiment(name) else {
            return;
        };
        let progress = Progress::with_callback(move |_, _| repaint.request_repaint());
        let (tx, rx) = channel();
        let ctx_name = ctx.adapter_name();
        let (ctx, thread_progress) = (ctx.clone(), progress.clone());
        let spawned = std::thread::Builder::new()
            .name("golab-lab".into())
            .spawn(move || {
                let _ = tx.send(experiment.run(&ctx, &plan, &thread_progress));
            });
        match spawned {
            Ok(_) => {
                self.status = format!("running {name}…");
                let partial = LabReport {
                    experiment: name.to_string(),
                    device: ctx_name,
                    copy_gb_per_s: f64::NAN,
                    software: self.software,
                    timing: "running".into(),
                    beside: self.beside.clone(),
                    notes: Vec::new(),
                    rows: Vec::new(),
                };
                self.running = Some(Running {
                    progress,
                    result: rx,
                    partial,
                });
            }
            Err(e) => self.status = format!("could not start the run: {e}"),
        }
    }

    /// The report shown: the finished one, or the rows of the run in flight so far.
    pub fn shown_report(&self) -> Option<&LabReport> {
        match &self.running {
            Some(running) if !running.partial.rows.is_empty() => Some(&running.partial),
            _ => self.report.as_ref(),
        }
    }

    fn poll(&mut self) {
        if let Some(running) = &mut self.running {
            let rows = running.progress.rows();
            if rows.len() != running.partial.rows.len() {
                running.partial.rows = rows;
            }
        }
        let Some(running) = &self.running else { return };
        if let Ok(result) = running.result.try_recv() {
            match result {
                Ok(report) => {
                    self.status = if report.all_validated() {
                        "done: every result validated".into()
                    } else {
                        "done, but some results FAILED validation".into()
                    };
                    self.report = Some(report);
                }
                Err(LabError::Cancelled) => self.status = "cancelled".into(),
                Err(e) => self.status = e.to_string(),
            }
            self.running = None;
        }
    }

    /// Draw the tab; `beside` says what shares the device now (see [`describe_simulation`]),
    /// recorded in the report of a run started from here.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        gpu: Option<&Arc<GpuContext>>,
        beside: Option<String>,
    ) {
        self.poll();
        self.beside = beside;
        self.software =
            gpu.is_some_and(|ctx| ctx.adapter.get_info().device_type == wgpu::DeviceType::Cpu);
        let Some(ctx) = gpu else {
            ui.heading("Lab");
            ui.label(format!(
                "The Lab needs a GPU device, and none is available: {}",
                crate::gpu::LAVAPIPE_HINT
            ));
            return;
        };
        egui::Panel::left("lab controls")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls(ui, ctx));
            });
        egui::CentralPanel::default().show(ui, |ui| self.results(ui));
    }

    fn controls(&mut self, ui: &mut egui::Ui, ctx: &Arc<GpuContext>) {
        let idle = self.running.is_none();
        ui.add_enabled_ui(idle, |ui| {
            let mut chosen = self.chosen;
            egui::ComboBox::from_label("experiment")
                .selected_text(self.experiments[chosen].name())
                .show_ui(ui, |ui| {
                    for (i, exp) in self.experiments.iter().enumerate() {
                        ui.selectable_value(&mut chosen, i, exp.name())
                            .on_hover_text(exp.description());
                    }
                });
            if chosen != self.chosen {
                self.choose(chosen);
            }
            let exp = &self.experiments[self.chosen];
            ui.label(egui::RichText::new(exp.description()).weak());
            let limit = exp.size_limit(ctx);
            if self.sized_for != Some(self.chosen) {
                // The sizes this device runs in seconds (a CPU device gets smaller ones).
                let defaults = exp.sizes_for(ctx);
                let small = defaults.iter().copied().min().unwrap_or(0);
                self.sizes = defaults.into_iter().map(|s| (s, s == small)).collect();
                self.sized_for = Some(self.chosen);
            }
            sizes::offer_only_what_fits(&mut self.sizes, limit.max);
            ui.label(
                egui::RichText::new(format!(
                    "largest size here: {} ({})",
                    limit.max, limit.reason
                ))
                .small(),
            );
            ui.separator();
            ui.strong("Variants");
            for (name, description, on) in &mut self.variants {
                ui.checkbox(on, name.as_str())
                    .on_hover_text(description.as_str());
            }
            ui.separator();
            ui.strong(format!("Sizes ({})", exp.size_unit()));
            ui.horizontal_wrapped(|ui| {
                for (size, on) in &mut self.sizes {
                    ui.checkbox(on, size_label(*size));
                }
            });
            let label = ui.label("more sizes");
            ui.add(egui::TextEdit::singleline(&mut self.extra_sizes).hint_text("e.g. 5000, 2^21"))
                .labelled_by(label.id);
            ui.horizontal(|ui| {
                ui.add(
                    egui::DragValue::new(&mut self.repeats)
                        .range(1..=50)
                        .prefix("repeats "),
                );
                if exp.name() == "sort" {
                    ui.checkbox(&mut self.descending, "descending");
                }
            });
        });
        ui.separator();
        ui.horizontal(|ui| {
            if ui.add_enabled(idle, egui::Button::new("Run")).clicked() {
                self.start(ctx, ui.ctx().clone());
            }
            if let Some(running) = &self.running
                && ui.button("Cancel").clicked()
            {
                running.progress.cancel();
            }
        });
        if let Some(running) = &self.running {
            let p = &running.progress;
            ui.add(
                egui::ProgressBar::new(p.fraction())
                    .show_percentage()
                    .text(p.message()),
            );
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        if !self.status.is_empty() {
            ui.label(&self.status);
        }
        if let Some(beside) = &self.beside {
            ui.label(
                egui::RichText::new(format!("beside: {beside}"))
                    .small()
                    .weak(),
            );
        }
    }

    fn results(&mut self, ui: &mut egui::Ui) {
        let running = self.running.is_some();
        let Some(report) = self.shown_report().cloned() else {
            ui.label("Choose an experiment, variants and sizes, then Run. Every kernel is validated against the CPU before it is timed. Rows appear here as they finish.");
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.heading(&report.experiment);
            if running {
                ui.label(format!(
                    "on {} · running: {} rows so far",
                    report.device,
                    report.rows.len()
                ));
            } else {
                let (_, source) = report.header_copy();
                let copy = report.copy_label();
                ui.label(format!("on {} · {copy} · {}", report.device, report.timing))
                    .on_hover_text(format!("copy bandwidth: {source} (read + write bytes)"));
            }
            if self.software {
                ui.colored_label(ui.visuals().warn_fg_color, "software driver")
                    .on_hover_text(
                        "the device is a software driver running on the CPU (lavapipe/llvmpipe): \
                         its times and bandwidths are CPU and CPU-memory figures, not a GPU's",
                    );
            }
        });
        if !running {
            ui.horizontal(|ui| {
                if ui.button("Copy as markdown").clicked() {
                    ui.ctx().copy_text(report.to_markdown());
                    self.status = "copied the table as markdown".into();
                }
                if ui.button("Save CSV…").clicked() {
                    self.status = save_csv_dialog(&report);
                }
                let label = ui.label("CSV path");
                ui.add(
                    egui::TextEdit::singleline(&mut self.csv_path)
                        .hint_text("or type a path")
                        .desired_width(180.0),
                )
                .labelled_by(label.id);
                let path = self.csv_path.trim().to_string();
                if ui
                    .add_enabled(!path.is_empty(), egui::Button::new("Save"))
                    .on_hover_text("write the CSV to the typed path (no dialog needed)")
                    .clicked()
                {
                    self.status = save_csv(&report, std::path::Path::new(&path));
                }
            });
        }
        if let Some(beside) = &report.beside {
            ui.label(egui::RichText::new(format!("beside: {beside}")).small());
        }
        for note in &report.notes {
            ui.label(egui::RichText::new(note).small().weak());
        }
        let plot_height = (ui.available_height() * 0.45).max(160.0);
        time_plot(ui, &report, plot_height);
        table(ui, &report);
    }
}
