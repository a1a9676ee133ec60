//! The series behind the statistics plots (src/app/stats_panel.rs): step lines, runs
//! broken at pauses and strategy switches, each strategy's colour, and axis labels that fit.

use super::colormap::SERIES_COLOURS;
use crate::step::Strategy;

/// Width kept for the plots' y-axis labels, so they never vanish for want of room.
pub const AXIS_WIDTH: f32 = 44.0;

/// A strategy's colour in the GPS plot: distinct for every strategy, the same every time.
pub fn strategy_colour(strategy: Strategy) -> egui::Color32 {
    let index = Strategy::ALL
        .iter()
        .position(|&s| s == strategy)
        .unwrap_or(0);
    SERIES_COLOURS[index % SERIES_COLOURS.len()]
}

/// Runs of positive values of one strategy as `(strategy, [t, log10(v)] points)`: a missing
/// or zero value (paused, no kernel timing) or a switch of strategy ends a run, so no line
/// bridges a pause or joins two strategies.
pub fn runs_by_strategy(
    values: impl IntoIterator<Item = (f64, Strategy, Option<f64>)>,
) -> Vec<(Strategy, Vec<[f64; 2]>)> {
    let mut out: Vec<(Strategy, Vec<[f64; 2]>)> = Vec::new();
    let mut open = false;
    for (t, strategy, v) in values {
        match v.filter(|&v| v > 0.0) {
            Some(v) => {
                match out.last_mut() {
                    Some((s, points)) if open && *s == strategy => points.push([t, v.log10()]),
                    _ => out.push((strategy, vec![[t, v.log10()]])),
                }
                open = true;
            }
            None => open = false,
        }
    }
    out
}

/// Grid steps of 1, 2 or 5 × 10^k for a linear axis (each of the three), the largest about
/// a third of the visible span, so that at least two marks are labelled (egui_plot's default steps are
/// powers of ten: an axis from 0 to 80 000 had one label, "0").
pub fn nice_steps(input: egui_plot::GridInput) -> [f64; 3] {
    let span = (input.bounds.1 - input.bounds.0).abs().max(1e-9);
    let large = nice_up(span / 3.0);
    // The middle step is again 1, 2 or 5 × 10^k (never 2.5, which labels read as 2 or 3).
    let mantissa = large / 10f64.powf(large.log10().floor());
    let middle = if (mantissa - 5.0).abs() < 1e-9 {
        large / 5.0
    } else {
        large / 2.0
    };
    [large / 10.0, middle, large]
}

/// The smallest 1, 2 or 5 × 10^k at least `v` (> 0).
fn nice_up(v: f64) -> f64 {
    let power = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= v * (1.0 - 1e-12))
        .unwrap_or(10.0 * power)
}

/// A count for an axis: k / M / G for thousands, millions, billions.
pub fn format_count(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.3}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.3}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// A step line through `points`: each value holds until the next sample (samples are taken
/// when the statistics change), so an instant Clear drops at once instead of ramping down
/// over the seconds to the next sample.
pub fn stairs(points: impl IntoIterator<Item = [f64; 2]>) -> Vec<[f64; 2]> {
    let mut out: Vec<[f64; 2]> = Vec::new();
    for p in points {
        if let Some(&[_, y]) = out.last() {
            out.push([p[0], y]);
        }
        out.push(p);
    }
    out
}

/// One entry of a plot's legend: a swatch of the line and its name.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// What the line shows.
    pub name: String,
    /// The line's colour.
    pub colour: egui::Color32,
    /// Whether the line is dashed.
    pub dashed: bool,
}

/// A plot's legend as rows of small labels above the plot, wrapped at the plot's width: it
/// never covers the lines (egui_plot's legend sits on the plot and grows with every
/// strategy a session tries) and an entry that does not fit on a row starts the next one
/// whole. Each entry is one label, "— name" (a dashed line: "- - name"), the dash in the
/// line's colour.
pub fn legend_rows(ui: &mut egui::Ui, entries: &[LegendEntry]) {
    ui.horizontal_wrapped(|ui| {
        for e in entries {
            ui.add(egui::Label::new(legend_text(ui, e)).wrap_mode(egui::TextWrapMode::Extend));
        }
    });
}

/// The text of one legend entry: the swatch in the line's colour, the name in the text's.
fn legend_text(ui: &egui::Ui, e: &LegendEntry) -> egui::text::LayoutJob {
    let font = egui::TextStyle::Small.resolve(ui.style());
    let mut job = egui::text::LayoutJob::default();
    let swatch = if e.dashed { "- - " } else { "— " };
    job.append(
        swatch,
        0.0,
        egui::TextFormat::simple(font.clone(), e.colour),
    );
    job.append(
        &e.name,
        0.0,
        egui::TextFormat::simple(font, ui.visuals().text_color()),
    );
    job
}

/// The strategies of a history in order of first appearance, each once: the GPS plot's
/// legend, which names exactly the strategies whose lines are in view.
pub fn strategies_in_view(history: impl IntoIterator<Item = Strategy>) -> Vec<Strategy> {
    let mut seen = Vec::new();
    for s in history {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen
}

/// A GPS figure for an axis: about 3 significant digits, k / M for thousands and millions.
pub fn format_gps(v: f64) -> String {
    let (v, unit) = if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let decimals = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.decimals$}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stairs_hold_each_value_until_the_next_sample() {
        let points = stairs([[0.0, 100.0], [13.0, 0.0], [14.0, 5.0]]);
        assert_eq!(
            points,
            vec![
                [0.0, 100.0],
                [13.0, 100.0],
                [13.0, 0.0],
                [14.0, 0.0],
                [14.0, 5.0]
            ]
        );
    }

    #[test]
    fn runs_break_at_pauses_and_switches_and_use_a_log_scale() {
        use Strategy::{CpuBitsliced as B, Scalar as S};
        let samples = [
            (0.0, S, Some(10.0)),
            (1.0, S, Some(1000.0)),
            (2.0, S, Some(0.0)),
            (3.0, S, None),
            (4.0, S, Some(100.0)),
            (5.0, B, Some(1000.0)),
            (6.0, B, Some(10.0)),
        ];
        assert_eq!(
            runs_by_strategy(samples),
            vec![
                (S, vec![[0.0, 1.0], [1.0, 3.0]]),
                (S, vec![[4.0, 2.0]]),
                (B, vec![[5.0, 3.0], [6.0, 1.0]])
            ]
        );
        assert_eq!(format_gps(12_345.0), "12.3k");
        assert_eq!(format_gps(53.7), "53.7");
        assert_eq!(format_count(20_000_000.0), "20.000M");
        assert_eq!(format_count(12_345.0), "12k");
        assert_eq!(format_count(8.0), "8");
    }

    #[test]
    fn axes_get_steps_of_one_two_or_five_and_at_least_two_labels() {
        let steps = |lo: f64, hi: f64| {
            nice_steps(egui_plot::GridInput {
                bounds: (lo, hi),
                base_step_size: 1.0,
            })
        };
        assert_eq!(steps(0.0, 80_000.0), [5_000.0, 10_000.0, 50_000.0]);
        assert_eq!(steps(0.0, 10.0), [0.5, 1.0, 5.0]);
        assert_eq!(steps(-3.0, 3.0), [0.2, 1.0, 2.0]);
        assert_eq!(steps(0.0, 300.0), [10.0, 50.0, 100.0]);
        for hi in [1.0, 7.0, 99.0, 12_345.0, 2e7] {
            assert!(hi / steps(0.0, hi)[2] >= 1.0, "{hi}");
        }
    }

    #[test]
    fn the_legend_names_each_strategy_in_view_once_in_order_of_appearance() {
        use Strategy::{CpuBitsliced as B, Rayon as R, Scalar as S};
        assert_eq!(strategies_in_view([S, S, R, S, B, R]), vec![S, R, B]);
        assert!(strategies_in_view([]).is_empty());
    }

    #[test]
    fn every_strategy_has_its_own_colour() {
        let colours: std::collections::HashSet<_> =
            Strategy::ALL.iter().map(|&s| strategy_colour(s)).collect();
        assert_eq!(colours.len(), Strategy::ALL.len());
    }
}
