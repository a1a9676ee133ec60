//! Statistics: counters (generation, population, GPS, FPS) and egui_plot plots of the
//! current age histogram, population and age-bracket history, and GPS history.

use std::collections::VecDeque;
use std::time::Instant;

use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};

use super::colormap::BUCKET_COLOURS;
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
    start: Instant,
    /// Recorded samples, oldest first.
    pub samples: VecDeque<Sample>,
    frames: VecDeque<Instant>,
}

impl Default for StatsHistory {
    fn default() -> Self {
        StatsHistory {
            start: Instant::now(),
            samples: VecDeque::new(),
            frames: VecDeque::new(),
        }
    }
}

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

    /// Draw counters and plots.
    pub fn show(&self, ui: &mut egui::Ui, snap: &Snapshot) {
        let (fps, frame_ms) = self.fps();
        ui.horizontal_wrapped(|ui| {
            counter(ui, "generation", snap.generation.to_string());
            counter(ui, "population", snap.stats.population.to_string());
            counter(ui, "GPS (wall)", format!("{:.1}", snap.wall_gps))
                .on_hover_text("generations per second, wall clock, transfers included");
            let kernel = snap.gpu_gps.map_or("—".to_string(), |g| format!("{g:.1}"));
            counter(ui, "GPS (kernel)", kernel)
                .on_hover_text("generations per second of GPU kernel time (timestamp queries)");
            counter(ui, "FPS", format!("{fps:.0}"));
            counter(ui, "frame", format!("{frame_ms:.1} ms"));
        });
        let height = (ui.available_height() - 4.0).max(170.0);
        let width = ui.available_width() / 3.0 - 8.0;
        ui.horizontal(|ui| {
            ui.allocate_ui(egui::vec2(width, height), |ui| {
                self.histogram(ui, snap, height)
            });
            ui.allocate_ui(egui::vec2(width, height), |ui| self.history(ui, height));
            ui.allocate_ui(egui::vec2(width, height), |ui| self.gps(ui, height));
        });
    }

    fn histogram(&self, ui: &mut egui::Ui, snap: &Snapshot, height: f32) {
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
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .show(ui, |plot| plot.bar_chart(BarChart::new("live cells", bars)));
    }

    fn history(&self, ui: &mut egui::Ui, height: f32) {
        let series = |f: &dyn Fn(&Sample) -> f64| -> PlotPoints<'static> {
            self.samples.iter().map(|s| [s.t, f(s)]).collect()
        };
        Plot::new("population history")
            .height(height)
            .x_axis_label("seconds")
            .legend(Legend::default())
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(
                    Line::new("population", series(&|s| s.population as f64))
                        .color(egui::Color32::WHITE),
                );
                for (b, colour) in BUCKET_COLOURS.iter().enumerate() {
                    let name = format!("{}–{} %", b * 20, b * 20 + 20);
                    plot.line(Line::new(name, series(&|s| s.brackets[b] as f64)).color(*colour));
                }
            });
    }

    fn gps(&self, ui: &mut egui::Ui, height: f32) {
        let wall: PlotPoints = self.samples.iter().map(|s| [s.t, s.wall_gps]).collect();
        let kernel: PlotPoints = self
            .samples
            .iter()
            .filter_map(|s| s.gpu_gps.map(|g| [s.t, g]))
            .collect();
        Plot::new("gps history")
            .height(height)
            .x_axis_label("seconds")
            .legend(Legend::default())
            .include_y(0.0)
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(Line::new("GPS (wall)", wall));
                plot.line(Line::new("GPS (kernel)", kernel));
            });
    }
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
    fn twenty_buckets_fold_into_five_brackets() {
        let histogram: Vec<u64> = (0..20).collect();
        assert_eq!(brackets(&histogram), [6, 22, 38, 54, 70]);
    }
}
