//! The Lab tab's result views: the log-log time plot and the table of rows.

use std::collections::BTreeMap;

use egui_plot::{Bar, BarChart, Line, MarkerShape, Plot, PlotPoints, Points};

use crate::app::colormap::SERIES_COLOURS;
use crate::lab::LabReport;

/// Marker shapes, cycled with the colours so lines stay apart in grey too.
const MARKERS: [MarkerShape; 6] = [
    MarkerShape::Circle,
    MarkerShape::Square,
    MarkerShape::Diamond,
    MarkerShape::Up,
    MarkerShape::Down,
    MarkerShape::Cross,
];

/// A plotted series: its name and its points `[log10 x, log10 ms]`, by x.
type Series = (String, Vec<[f64; 2]>);

/// The plotted series of `report`: one per variant (and per size when the x axis is not the
/// size), points `[log10 x, log10 ms]`, and whether x is repeats rather than size.
fn series(report: &LabReport) -> (Vec<Series>, bool) {
    let mut lines: BTreeMap<String, Vec<[f64; 2]>> = BTreeMap::new();
    let mut by_repeats = false;
    for row in &report.rows {
        let x = match row.plot_x {
            Some(x) => {
                by_repeats = true;
                x
            }
            None => row.size as f64,
        };
        if let Some(ms) = row.ms.filter(|&ms| ms > 0.0 && x > 0.0) {
            // One line per variant and size when the x axis is not the size.
            let name = if row.plot_x.is_some() {
                format!(
                    "{} {}",
                    row.variant,
                    row.size_label.split(' ').next().unwrap_or("")
                )
            } else {
                row.variant.clone()
            };
            lines.entry(name).or_default().push([x.log10(), ms.log10()]);
        }
    }
    let mut lines: Vec<_> = lines.into_iter().collect();
    for (_, points) in &mut lines {
        points.sort_by(|a, b| a[0].total_cmp(&b[0]));
    }
    (lines, by_repeats)
}

/// The colour of series `i`: the palette's sixteen, then hues a golden angle apart, so no
/// two series of a run share one.
pub fn series_colour(i: usize) -> egui::Color32 {
    match SERIES_COLOURS.get(i) {
        Some(&c) => c,
        None => {
            let hue = (i as f32 * 0.618_034).fract();
            egui::ecolor::Hsva::new(hue, 0.65, 0.95, 1.0).into()
        }
    }
}

/// The Lab's plot of `report`, with its legend beside it (never over the data): median ms
/// against size (or repeats), both axes logarithmic, one line with markers per variant —
/// or, when every row has the same size, one bar per variant (a line of one point says
/// nothing). Each series has its own colour and marker.
pub fn time_plot(ui: &mut egui::Ui, report: &LabReport, height: f32) {
    let (lines, by_repeats) = series(report);
    let mut xs: Vec<f64> = lines
        .iter()
        .flat_map(|l| l.1.iter().map(|p| p[0]))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let legend_width = 190.0;
    ui.horizontal_top(|ui| {
        let plot_width = (ui.available_width() - legend_width - 12.0).max(200.0);
        ui.allocate_ui(egui::vec2(plot_width, height), |ui| {
            if xs.len() == 1 && !by_repeats {
                bar_plot(ui, &lines, xs[0], height);
            } else {
                line_plot(ui, &lines, by_repeats, height);
            }
        });
        egui::ScrollArea::vertical()
            .id_salt("lab legend")
            .max_height(height)
            .show(ui, |ui| {
                ui.vertical(|ui| {
                    ui.set_width(legend_width);
                    for (i, (name, _)) in lines.iter().enumerate() {
                        ui.horizontal(|ui| {
                            let (rect, _) = ui
                                .allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                            ui.painter().rect_filled(rect, 2.0, series_colour(i));
                            ui.label(format!("{} {name}", i + 1));
                        });
                    }
                });
            });
    });
}

/// Label the decades only: between them the grid lines of a log axis are uneven.
fn log_ticks(mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    if (mark.value - mark.value.round()).abs() > 1e-6 {
        return String::new();
    }
    let v = 10f64.powf(mark.value.round());
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

fn line_plot(ui: &mut egui::Ui, lines: &[Series], by_repeats: bool, height: f32) {
    Plot::new("lab time plot")
        .height(height)
        .x_axis_label(if by_repeats {
            "repeats (log)"
        } else {
            "size (log)"
        })
        .y_axis_label("ms (log)")
        .x_axis_formatter(log_ticks)
        .y_axis_formatter(log_ticks)
        .show(ui, |plot| {
            for (i, (variant, points)) in lines.iter().enumerate() {
                let colour = series_colour(i);
                let marker = MARKERS[i % MARKERS.len()];
                plot.points(
                    Points::new(variant.clone(), PlotPoints::from(points.clone()))
                        .shape(marker)
                        .radius(4.0)
                        .color(colour),
                );
                plot.line(
                    Line::new(variant.clone(), PlotPoints::from(points.clone())).color(colour),
                );
            }
        });
}

/// One bar per series at the single size `x` (log10), its height the median ms (linear, from
/// 0); bars are numbered as the legend is.
fn bar_plot(ui: &mut egui::Ui, lines: &[Series], x: f64, height: f32) {
    let size = 10f64.powf(x);
    let bars: Vec<Bar> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, (name, points))| {
            let ms = 10f64.powf(points.first()?[1]);
            Some(
                Bar::new((i + 1) as f64, ms)
                    .name(format!("{} {name}", i + 1))
                    .fill(series_colour(i))
                    .width(0.7),
            )
        })
        .collect();
    let count = lines.len();
    Plot::new("lab bar plot")
        .height(height)
        .x_axis_label(format!("variant (numbered as the legend), size {size:.0}"))
        .y_axis_label("ms")
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 1.0 && i <= count as f64 {
                format!("{i:.0}")
            } else {
                String::new()
            }
        })
        .include_y(0.0)
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        .show(ui, |plot| plot.bar_chart(BarChart::new("median ms", bars)));
}

/// Widths of the table's fixed columns (the notes column takes the rest and wraps).
const COLUMNS: [(&str, f32); 6] = [
    ("variant", 150.0),
    ("size", 90.0),
    ("ms (median)", 90.0),
    ("GB/s", 70.0),
    ("% of copy", 70.0),
    ("valid", 55.0),
];

/// Every row of `report`: a header that stays put above rows that scroll, and a notes
/// column that wraps in the width left rather than being cut off.
pub fn table(ui: &mut egui::Ui, report: &LabReport) {
    let fixed: f32 = COLUMNS.iter().map(|c| c.1).sum::<f32>() + 8.0 * COLUMNS.len() as f32;
    let notes_width = (ui.available_width() - fixed - 24.0).max(160.0);
    let cell = |ui: &mut egui::Ui, width: f32, text: egui::WidgetText| {
        ui.add_sized(
            [width, 18.0],
            egui::Label::new(text).wrap_mode(egui::TextWrapMode::Truncate),
        );
    };
    egui::Grid::new("lab table header").show(ui, |ui| {
        for (head, width) in COLUMNS {
            cell(ui, width, egui::RichText::new(head).strong().into());
        }
        ui.add_sized(
            [notes_width, 18.0],
            egui::Label::new(egui::RichText::new("notes").strong()),
        );
        ui.end_row();
    });
    let num =
        |v: Option<f64>, digits: usize| v.map_or("-".to_string(), |v| format!("{v:.digits$}"));
    egui::ScrollArea::vertical()
        .id_salt("lab table rows")
        .show(ui, |ui| {
            egui::Grid::new("lab table").striped(true).show(ui, |ui| {
                for row in &report.rows {
                    let w = |i: usize| COLUMNS[i].1;
                    cell(ui, w(0), row.variant.as_str().into());
                    cell(ui, w(1), row.size_label.as_str().into());
                    cell(
                        ui,
                        w(2),
                        egui::RichText::new(num(row.ms, 3)).monospace().into(),
                    );
                    cell(
                        ui,
                        w(3),
                        egui::RichText::new(num(row.gb_per_s, 1)).monospace().into(),
                    );
                    let percent = num(row.percent_of_copy, 1);
                    cell(ui, w(4), egui::RichText::new(percent).monospace().into());
                    let valid = if row.validated {
                        egui::RichText::new("yes")
                    } else {
                        egui::RichText::new("FAILED").color(ui.visuals().error_fg_color)
                    };
                    cell(ui, w(5), valid.into());
                    ui.scope(|ui| {
                        ui.set_width(notes_width);
                        ui.add(egui::Label::new(&row.notes).wrap());
                    });
                    ui.end_row();
                }
            });
        });
}

/// Save `report` as CSV at `path`; what happened, for the status line.
pub fn save_csv(report: &LabReport, path: &std::path::Path) -> String {
    match std::fs::write(path, report.to_csv()) {
        Ok(()) => format!("saved {}", path.display()),
        Err(e) => format!("could not write {}: {e}", path.display()),
    }
}

pub(super) fn save_csv_dialog(report: &LabReport) -> String {
    let picked = rfd::FileDialog::new()
        .add_filter("CSV", &["csv"])
        .set_file_name(format!("golab-{}.csv", report.experiment))
        .save_file();
    match picked {
        Some(path) => save_csv(report, &path),
        None => {
            "not saved: no file chosen (no dialog? type a path beside Save CSV… and press Save)"
                .into()
        }
    }
}
