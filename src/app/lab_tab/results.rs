//! The Lab tab's result views: the log-log time plot and the table of rows.

use std::collections::BTreeMap;

use egui_plot::{Legend, Line, Plot, PlotPoints};

use crate::lab::LabReport;

/// Median ms against size (or repeats), one line per variant, both axes logarithmic.
pub fn time_plot(ui: &mut egui::Ui, report: &LabReport, height: f32) {
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
    // Label the decades only: between them the grid lines of a log axis are uneven.
    let log_ticks = |mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>| {
        if (mark.value - mark.value.round()).abs() > 1e-6 {
            return String::new();
        }
        let v = 10f64.powf(mark.value.round());
        if v >= 1.0 {
            format!("{v:.0}")
        } else {
            format!("{v}")
        }
    };
    Plot::new("lab time plot")
        .height(height)
        .legend(Legend::default())
        .x_axis_label(if by_repeats {
            "repeats (log)"
        } else {
            "size (log)"
        })
        .y_axis_label("ms (log)")
        .x_axis_formatter(log_ticks)
        .y_axis_formatter(log_ticks)
        .show(ui, |plot| {
            for (variant, mut points) in lines {
                points.sort_by(|a, b| a[0].total_cmp(&b[0]));
                plot.line(Line::new(variant, PlotPoints::from(points)));
            }
        });
}

/// Every row of `report` as a striped grid.
pub fn table(ui: &mut egui::Ui, report: &LabReport) {
    egui::Grid::new("lab table").striped(true).show(ui, |ui| {
        for head in [
            "variant",
            "size",
            "ms (median)",
            "GB/s",
            "% of copy",
            "valid",
            "notes",
        ] {
            ui.strong(head);
        }
        ui.end_row();
        let num =
            |v: Option<f64>, digits: usize| v.map_or("-".to_string(), |v| format!("{v:.digits$}"));
        for row in &report.rows {
            ui.label(&row.variant);
            ui.label(&row.size_label);
            ui.monospace(num(row.ms, 3));
            ui.monospace(num(row.gb_per_s, 1));
            ui.monospace(num(row.percent_of_copy, 1));
            if row.validated {
                ui.label("yes");
            } else {
                ui.colored_label(ui.visuals().error_fg_color, "FAILED");
            }
            ui.label(&row.notes);
            ui.end_row();
        }
    });
}
