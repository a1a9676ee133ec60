//! Markdown rendering of a benchmark report, shaped like the reference article's GPS
//! table: one row per strategy, one column per world size.

use super::BenchReport;

/// Format a GPS figure with three significant digits (no exponent for table readability).
pub fn format_gps(gps: f64) -> String {
    match gps {
        g if g >= 100.0 => format!("{g:.0}"),
        g if g >= 10.0 => format!("{g:.1}"),
        g => format!("{g:.2}"),
    }
}

/// The report as a markdown table; each cell is `median (min–max)` GPS.
pub fn markdown_table(report: &BenchReport) -> String {
    let mut sizes: Vec<u32> = report.results.iter().map(|r| r.size).collect();
    sizes.dedup();
    sizes.sort_unstable();
    sizes.dedup();
    let mut strategies: Vec<&str> = Vec::new();
    for r in &report.results {
        if !strategies.contains(&r.strategy) {
            strategies.push(r.strategy);
        }
    }
    let mut out = String::new();
    out.push_str("| strategy |");
    for s in &sizes {
        out.push_str(&format!(" {s}² |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(sizes.len()));
    out.push('\n');
    for strategy in strategies {
        out.push_str(&format!("| {strategy} |"));
        for size in &sizes {
            let cell = report
                .results
                .iter()
                .find(|r| r.strategy == strategy && r.size == *size)
                .map(|r| match &r.error {
                    Some(e) => format!("n/a ({e})"),
                    None => format!(
                        "{} ({}–{})",
                        format_gps(r.gps_median),
                        format_gps(r.gps_min),
                        format_gps(r.gps_max)
                    ),
                })
                .unwrap_or_default();
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "\nGPS = generations per second, median (min–max) of timed repeats after warm-up; {}; {} threads.\n",
        report.workload, report.threads
    ));
    out
}
