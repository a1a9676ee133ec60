//! Statistics: counters (generation, population, GPS, FPS) and egui_plot plots of the
//! current age histogram, population and age-bracket history, and GPS history.

use std::collections::VecDeque;
use std::time::Instant;

use egui_plot::{Bar, BarChart, Corner, Legend, Line, Plot, PlotPoints};

use super::colormap::BUCKET_COLOURS;
use super::stats_plots::{
    AXIS_WIDTH, format_count, format_gps, nice_steps, runs_by_strategy, stairs, strategy_colour,
};
use crate::runner::{STAT_BUCKETS, Snapshot};
use crate::step::Strategy;

/// Samples kept for the history plots.
pub const HISTORY: usize = 500;

/// One point of the history plots.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Seconds since the app started.
    pub t: f64,
    /// Generation.
    pub generation: u64,
    /// Live cells.
    pub population: u64,
    /// Live cells in each of the five age brackets.
    pub brackets: [u64; 5],
    /// Wall-clock generations per second.
    pub wall_gps: f64,
    /// Kernel-time generations per second (GPU strategies).
    pub gpu_gps: Option<f64>,
    /// Strategy at that moment.
    pub strategy: Strategy,
}

/// History of samples plus the frame clock.
pub struct StatsHistory {
    /// When the current history began (its time axis starts at 0 there).
    start: Instant,
    /// Recorded samples, oldest first, all of one [`Snapshot::epoch`].
    pub samples: VecDeque<Sample>,
    /// The epoch the samples belong to.
    epoch: Option<u64>,
    frames: VecDeque<Instant>,
}

impl Default for StatsHistory {
    fn default() -> Self {
        StatsHistory {
            start: Instant::now(),
            samples: VecDeque::new(),
            epoch: None,
            frames: VecDeque::new(),
        }
    }
}

/// Seconds the history plots span at least (so generation 0 has an axis from 0 up).
const MIN_SPAN_S: f64 = 10.0;

/// The five reference brackets from [`STAT_BUCKETS`] finer buckets.
pub fn brackets(histogram: &[u64]) -> [u64; 5] {
    let per = (histogram.len() / 5).max(1);
    std::array::from_fn(|b| histogram.iter().skip(b * per).take(per).sum())
}

impl StatsHistory {
    /// Count a frame and add a sample when the statistics moved on.
    pub fn record(&mut self, snap: &Snapshot) {
        let now = Instant::now();
        self.frames.push_back(now);
        while self.frames.len() > 2 && now.duration_since(self.frames[0]).as_secs_f64() > 1.0 {
            self.frames.pop_front();
        }
        if self.epoch != Some(snap.epoch) {
            // Clear, open, resize, rule change, Reset, undo: a new history from time 0.
            self.epoch = Some(snap.epoch);
            self.samples.clear();
            self.start = now;
        }
        let last = self.samples.back();
        let moved = last.is_none_or(|s| {
            s.generation != snap.stats.generation
                || s.population != snap.stats.population
                || s.strategy != snap.strategy
        });
        if moved && snap.stats.histogram.len() == STAT_BUCKETS {
            self.samples.push_back(Sample {
                t: now.duration_since(self.start).as_secs_f64(),
                generation: snap.stats.generation,
                population: snap.stats.population,
                brackets: brackets(&snap.stats.histogram),
                wall_gps: snap.wall_gps,
                gpu_gps: snap.gpu_gps,
                strategy: snap.strategy,
            });
            if self.samples.len() > HISTORY {
                self.samples.pop_front();
            }
        }
    }

    /// Frames per second over the last second, and the last frame's time in ms.
    pub fn fps(&self) -> (f64, f64) {
        let n = self.frames.len();
        if n < 2 {
            return (0.0, 0.0);
        }
        let span = self.frames[n - 1]
            .duration_since(self.frames[0])
            .as_secs_f64();
        let last = self.frames[n - 1]
            .duration_since(self.frames[n - 2])
            .as_secs_f64();
        ((n - 1) as f64 / span.max(1e-9), last * 1000.0)
    }

    /// Draw counters and plots. `software` says the GPU is a software driver (lavapipe,
    /// llvmpipe: `wgpu::DeviceType::Cpu`), whose "GPU" figures are CPU figures; `exact`
    /// shows every digit of big counts (Golly's Show Exact Numbers).
    pub fn show(&self, ui: &mut egui::Ui, snap: &Snapshot, software: bool, exact: bool) {
        let (fps, frame_ms) = self.fps();
        let count = |n: u128| count_text(n, exact);
        ui.horizontal_wrapped(|ui| {
            counter(ui, "generation", count(snap.generation))
                .on_hover_text(snap.generation.to_string());
            if snap.rule.states() > 2 {
                counter(ui, "population", count(snap.occupied)).on_hover_text(
                    "cells not in state 0, as Golly counts a many-state rule's population",
                );
                counter(ui, "state 1", count(snap.population))
                    .on_hover_text("cells in state 1");
            } else {
                counter(ui, "population", count(snap.population))
                    .on_hover_text(format!("live cells: {}", snap.population));
            }
            if let Some(m) = snap.memory {
                counter(
                    ui,
                    "memory",
                    format!(
                        "{:.1} of {:.0} MiB",
                        m.bytes as f64 / 1048576.0,
                        m.limit_bytes as f64 / 1048576.0
                    ),
                )
                .on_hover_text(format!(
                    "the hashed universe's node store: {} nodes, {} garbage collections; it collects at the limit (a quarter of the memory available when golab started; the step section sets it, `golab run --max-memory` for the CLI)",
                    m.nodes, m.collections
                ));
            }
            if let Some(b) = snap.bounds {
                counter(ui, "pattern", format!("{} × {}", b.width(), b.height())).on_hover_text(
                    format!("the cells' box, from ({}, {}) to ({}, {})", b.x0, b.y0, b.x1, b.y1),
                );
            }
            if snap.rule.has_dying_states() && !snap.rule.is_table() {
                counter(ui, "dying", snap.stats.dying.to_string()).on_hover_text(format!(
                    "cells in dying states 2..{} of the Generations rule",
                    snap.rule.states() - 1
                ));
            }
            let wall = if snap.running {
                format!("{:.1}", snap.wall_gps)
            } else {
                "paused".to_string()
            };
            counter(ui, "GPS (wall)", wall)
                .on_hover_text("generations per second, wall clock, transfers included");
            let kernel = match (snap.running, snap.gpu_gps) {
                (false, _) => "paused".to_string(),
                (true, Some(g)) => format!("{g:.1}"),
                (true, None) => "—".to_string(),
            };
            // On a software driver the "kernel" is CPU code: say so in the label itself.
            let kernel_label = if software && snap.strategy.is_gpu() {
                "GPS (kernel, CPU time)"
            } else {
                "GPS (kernel)"
            };
            counter(ui, kernel_label, kernel)
                .on_hover_text("generations per second of GPU kernel time (timestamp queries)");
            if software && snap.strategy.is_gpu() {
                ui.colored_label(ui.visuals().warn_fg_color, "software driver")
                    .on_hover_text(
                        "the GPU is a software driver running on the CPU (lavapipe/llvmpipe): \
                         its GPS and kernel times are CPU figures, not a GPU's",
                    );
            }
            if !snap.capabilities.ages {
                ui.colored_label(ui.visuals().warn_fg_color, "hashed: no ages")
                    .on_hover_text(
                        "the hashed universe keeps cell states, not ages: cells are coloured by \
                         how full each pixel is (one live cell: the darkest shade; a full \
                         pixel: the newborn colour), and a many-state rule's cells by state; \
                         cells moved back into a grid start at age 1",
                    );
            }
            counter(ui, "FPS", format!("{fps:.0}"));
            // The window draws only when something changes: a long gap since the last
            // frame is idling, not a slow frame.
            let frame = if frame_ms > 1000.0 {
                "idle".to_string()
            } else {
                format!("{frame_ms:.1} ms")
            };
            counter(ui, "frame", frame)
                .on_hover_text("time since the frame before; the window draws only when something changes");
        });
        // What the kernel is doing, on a line of its own (cut to the panel's width).
        if let Some(k) = snap.kernel.as_deref() {
            ui.add(
                egui::Label::new(egui::RichText::new(format!("kernel: {k}")).small()).truncate(),
            )
            .on_hover_text(format!(
                "{k}\n\nwhat the kernel is doing: its shape (generations per dispatch, strip \
                     height) and whether the shape controller is still choosing it, how births \
                     are written, and the share of strips replayed over the last half second \
                     (a settled region repeats and is not stepped again; GPS counts every \
                     generation of every cell, replayed or stepped)"
            ));
        }
        if !snap.decisions.is_empty() {
            // The adaptive controller's log (the debug view of what it decided and why).
            egui::CollapsingHeader::new(
                egui::RichText::new(format!("decisions ({})", snap.decisions.len())).small(),
            )
            .id_salt("adaptive decisions")
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(120.0)
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for d in &snap.decisions {
                            ui.label(egui::RichText::new(d).small().monospace());
                        }
                    });
            })
            .header_response
            .on_hover_text(
                "what the adaptive parts decided, latest last: the kernel's shape controller \
                 and births chooser, the generations each GPU submission holds and each of \
                 the simulation thread's batches (docs/architecture.md draws how they meet)",
            );
        }
        super::state_counts::show(ui, snap);
        let height = (ui.available_height() - 4.0).max(170.0);
        let width = ui.available_width() / 3.0 - 8.0;
        ui.horizontal(|ui| {
            ui.allocate_ui(egui::vec2(width, height), |ui| {
                self.histogram(ui, snap, height)
            });
            ui.allocate_ui(egui::vec2(width, height), |ui| self.history(ui, height));
            ui.allocate_ui(egui::vec2(width, height), |ui| {
                self.gps(ui, height, software)
            });
        });
    }

    fn histogram(&self, ui: &mut egui::Ui, snap: &Snapshot, height: f32) {
        if !snap.capabilities.ages {
            ui.vertical_centered(|ui| {
                ui.add_space(height / 3.0);
                ui.weak("no age distribution while the world hashes:");
                ui.weak("HashLife keeps states, not ages");
            });
            return;
        }
        let n = snap.stats.histogram.len().max(1);
        let bars: Vec<Bar> = snap
            .stats
            .histogram
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let centre = (i as f64 + 0.5) * 100.0 / n as f64;
                Bar::new(centre, c as f64)
                    .width(100.0 / n as f64 * 0.9)
                    .fill(BUCKET_COLOURS[(i * 5 / n).min(4)])
            })
            .collect();
        Plot::new("age histogram")
            .height(height)
            .x_axis_label("normalized age %")
            .y_axis_label("live cells")
            .y_axis_min_width(AXIS_WIDTH)
            .y_axis_formatter(|mark, _| format_count(mark.value))
            .y_grid_spacer(egui_plot::uniform_grid_spacer(nice_steps))
            .include_y(0.0)
            .include_x(0.0)
            .include_x(100.0)
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .show(ui, |plot| plot.bar_chart(BarChart::new("live cells", bars)));
    }

    fn history(&self, ui: &mut egui::Ui, height: f32) {
        let series = |f: &dyn Fn(&Sample) -> f64| -> PlotPoints<'static> {
            stairs(self.samples.iter().map(|s| [s.t, f(s)])).into()
        };
        Plot::new("population history")
            .height(height)
            .x_axis_label("seconds")
            .y_axis_min_width(AXIS_WIDTH)
            .y_axis_formatter(|mark, _| format_count(mark.value))
            .y_grid_spacer(egui_plot::uniform_grid_spacer(nice_steps))
            .x_grid_spacer(egui_plot::uniform_grid_spacer(nice_steps))
            .include_x(0.0)
            .include_x(self.span())
            .include_y(0.0)
            .legend(Legend::default().position(Corner::LeftTop))
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(
                    Line::new("population", series(&|s| s.population as f64))
                        .color(egui::Color32::WHITE),
                );
                // Age brackets mean nothing where no ages are kept (hashlife, the plane).
                let ages = self.samples.back().is_none_or(|s| s.strategy.keeps_ages());
                for (b, colour) in BUCKET_COLOURS.iter().enumerate().filter(|_| ages) {
                    let name = format!("{}–{} %", b * 20, b * 20 + 20);
                    plot.line(Line::new(name, series(&|s| s.brackets[b] as f64)).color(*colour));
                }
            });
    }

    /// The history's time axis: from 0 to the last sample, at least [`MIN_SPAN_S`].
    fn span(&self) -> f64 {
        self.samples.back().map_or(0.0, |s| s.t).max(MIN_SPAN_S)
    }

    /// GPS on a log scale (kernel GPS on a software driver can be 1000× the wall GPS), one
    /// line segment per run of one strategy, named and coloured by the strategy: paused
    /// stretches and switches are gaps, not lines. Kernel GPS is drawn dashed, and labelled
    /// CPU time on a software driver.
    fn gps(&self, ui: &mut egui::Ui, height: f32, software: bool) {
        let wall = runs_by_strategy(
            self.samples
                .iter()
                .map(|s| (s.t, s.strategy, Some(s.wall_gps))),
        );
        let kernel = runs_by_strategy(self.samples.iter().map(|s| (s.t, s.strategy, s.gpu_gps)));
        Plot::new("gps history")
            .height(height)
            .x_axis_label("seconds")
            .y_axis_label("GPS (log scale)")
            .y_axis_min_width(AXIS_WIDTH)
            .y_axis_formatter(|mark, _| format_gps(10f64.powf(mark.value)))
            .x_grid_spacer(egui_plot::uniform_grid_spacer(nice_steps))
            .include_x(0.0)
            .include_x(self.span())
            .include_y(0.0)
            .include_y(1.0)
            .legend(Legend::default().position(Corner::LeftTop))
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .show(ui, |plot| {
                for (strategy, segment) in wall {
                    plot.line(
                        Line::new(strategy.name(), PlotPoints::from(segment))
                            .color(strategy_colour(strategy)),
                    );
                }
                for (strategy, segment) in kernel {
                    let name = if software && strategy.is_gpu() {
                        format!("{} kernel (CPU time)", strategy.name())
                    } else {
                        format!("{} kernel", strategy.name())
                    };
                    plot.line(
                        Line::new(name, PlotPoints::from(segment))
                            .color(strategy_colour(strategy))
                            .style(egui_plot::LineStyle::dashed_loose()),
                    );
                }
            });
    }
}

/// A count as the counters show it: every digit in groups of three when `exact` (Golly's
/// Show Exact Numbers, Ctrl+E), else from a billion up four significant digits and the
/// power of ten (`1.235e12`).
pub fn count_text(n: u128, exact: bool) -> String {
    if !exact && n >= 1_000_000_000 {
        let digits = n.to_string();
        let power = digits.len() - 1;
        let mantissa: f64 = format!("{}.{}", &digits[..1], &digits[1..digits.len().min(8)])
            .parse()
            .unwrap_or(0.0);
        let shown = format!("{mantissa:.3}");
        // 9.9996e12 rounds up to 10.000: carry into the power.
        return if shown.starts_with("10") {
            format!("1.000e{}", power + 1)
        } else {
            format!("{shown}e{power}")
        };
    }
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn counter(ui: &mut egui::Ui, label: &str, value: String) -> egui::Response {
    ui.label(egui::RichText::new(format!("{label}: ")).weak());
    let response = ui.label(egui::RichText::new(value).monospace().strong());
    ui.add_space(12.0);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_group_digits_or_show_the_power_of_ten() {
        assert_eq!(count_text(0, false), "0");
        assert_eq!(count_text(999, true), "999");
        assert_eq!(count_text(1_234_567, false), "1,234,567");
        assert_eq!(count_text(999_999_999, false), "999,999,999");
        assert_eq!(count_text(1_234_567_890_123, true), "1,234,567,890,123");
        assert_eq!(count_text(1_234_567_890_123, false), "1.235e12");
        assert_eq!(count_text(9_999_600_000, false), "1.000e10");
        assert_eq!(count_text(1u128 << 100, false), "1.268e30");
    }

    #[test]
    fn twenty_buckets_fold_into_five_brackets() {
        let histogram: Vec<u64> = (0..20).collect();
        assert_eq!(brackets(&histogram), [6, 22, 38, 54, 70]);
    }
}
