//! Markdown rendering of benchmark reports, shaped like the reference article's tables:
//! one row per strategy, one column per world size (or memory mode for the matrix).

use super::{BenchReport, BenchResult};

/// Format a GPS figure with about three significant digits.
pub fn format_gps(gps: f64) -> String {
    match gps {
        g if g >= 100.0 => format!("{g:.0}"),
        g if g >= 10.0 => format!("{g:.1}"),
        g => format!("{g:.2}"),
    }
}

fn gb(bytes_per_s: f64) -> String {
    format!("{:.1} GB/s", bytes_per_s / 1e9)
}

fn row_label(r: &BenchResult) -> String {
    match r.memory {
        Some(m) if m != "normal" => format!("{} [{m}]", r.strategy),
        _ => r.strategy.to_string(),
    }
}

fn grid(report: &BenchReport, cell: impl Fn(&BenchResult) -> Option<String>) -> String {
    let mut sizes: Vec<u32> = report.results.iter().map(|r| r.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut rows: Vec<String> = Vec::new();
    for r in &report.results {
        let label = row_label(r);
        if !rows.contains(&label)
            && report
                .results
                .iter()
                .any(|x| row_label(x) == label && cell(x).is_some())
        {
            rows.push(label);
        }
    }
    let mut out = String::from("| strategy |");
    for s in &sizes {
        out.push_str(&format!(" {s}² |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(sizes.len()));
    out.push('\n');
    for label in rows {
        out.push_str(&format!("| {label} |"));
        for size in &sizes {
            let text = report
                .results
                .iter()
                .find(|r| row_label(r) == label && r.size == *size)
                .and_then(&cell)
                .unwrap_or_default();
            out.push_str(&format!(" {text} |"));
        }
        out.push('\n');
    }
    out
}

/// The report as markdown: the roofline line, wall-clock GPS `median (min–max)`, then for
/// GPU strategies kernel-only GPS and the fractions of the measured ceilings.
pub fn markdown_table(report: &BenchReport) -> String {
    let mut out = String::new();
    if let Some(roof) = &report.roofline {
        out.push_str(&format!(
            "Roofline on {}: copy kernel {} (read + write), upload {}, download {} ({} MiB buffers).\n\n",
            roof.device,
            gb(roof.copy_bytes_per_s),
            gb(roof.upload_bytes_per_s),
            gb(roof.download_bytes_per_s),
            roof.buffer_bytes >> 20
        ));
    }
    out.push_str("GPS, wall clock including transfers, median (min–max):\n\n");
    out.push_str(&grid(report, |r| {
        Some(match &r.error {
            Some(e) => format!("n/a ({e})"),
            None => format!(
                "{} ({}–{})",
                format_gps(r.gps_median),
                format_gps(r.gps_min),
                format_gps(r.gps_max)
            ),
        })
    }));
    if report
        .results
        .iter()
        .any(|r| r.compute_gps_median.is_some())
    {
        out.push_str("\nEffective cell updates per second (GPS × cells: every cell counted each generation, replayed strips included), wall clock · kernel time only; then, where the kernel replays, the cell updates it really computed (kernel time × share of strips stepped):\n\n");
        out.push_str(&grid(report, |r| {
            let kernel = r.compute_cell_updates_per_s?;
            let stepped = match (r.stepped_cell_updates_per_s, r.stepped_share) {
                (Some(c), Some(share)) => {
                    format!(" · stepped {c:.2e} ({:.1} % of strips)", 100.0 * share)
                }
                _ => String::new(),
            };
            Some(format!(
                "{:.2e} · {kernel:.2e}{stepped}",
                r.cell_updates_per_s
            ))
        }));
        out.push_str("\nGPU kernel time only (timestamp queries): GPS · % of copy roofline, counting only the bytes really moved (u32 age read + write per cell; gpu-bitpacked: its state planes read + written once per dispatch, stepped strips only; birth codes, halos and replay flags not counted):\n\n");
        out.push_str(&grid(report, |r| {
            let gps = r.compute_gps_median?;
            Some(format!(
                "{} · {:.0}%",
                format_gps(gps),
                r.compute_roofline_pct.unwrap_or(0.0)
            ))
        }));
        out.push_str("\nWall clock vs the bound its transfers imply (upload/download/copy ceilings above): % of bound · device-bytes % of roofline:\n\n");
        out.push_str(&grid(report, |r| {
            let bound = r.transfer_bound_pct?;
            Some(format!(
                "{bound:.0}% · {:.1}%",
                r.wall_roofline_pct.unwrap_or(0.0)
            ))
        }));
    }
    out.push_str(&format!(
        "\nGPS = generations per second; median (min–max) of timed repeats after warm-up; {}; {} CPU threads.\n",
        report.workload, report.threads
    ));
    out.push_str(
        "\nTimed window, the same generations in every repeat (density and births per generation at its start → end):\n\n",
    );
    for r in &report.results {
        if let Some(w) = &r.window {
            out.push_str(&format!(
                "- {} at {}²: {}{}\n",
                r.strategy,
                r.size,
                describe_window(w),
                r.kernel
                    .as_ref()
                    .map(|k| format!("; {k}"))
                    .unwrap_or_default()
            ));
        }
    }
    out
}

/// `generations 5001–145001, density 3.1% → 2.9%, births/gen 1.2e5 → 1.1e5`.
pub fn describe_window(w: &super::window::Window) -> String {
    format!(
        "generations {}–{}, density {:.1}% → {:.1}%, births/gen {:.3e} → {:.3e}",
        w.start.generation,
        w.end.generation,
        100.0 * w.start.density,
        100.0 * w.end.density,
        w.start.births as f64,
        w.end.births as f64
    )
}

/// The article's algorithm × memory-mode table from one report per memory mode:
/// wall GPS median, with kernel-only GPS in brackets.
pub fn matrix_table(reports: &[BenchReport]) -> String {
    let modes: Vec<&str> = reports
        .iter()
        .map(|r| r.results.iter().find_map(|x| x.memory).unwrap_or("normal"))
        .collect();
    let size = reports
        .first()
        .and_then(|r| r.results.first())
        .map_or(0, |r| r.size);
    let mut out = String::new();
    if let Some(roof) = reports.iter().find_map(|r| r.roofline.as_ref()) {
        out.push_str(&format!(
            "Roofline on {}: copy kernel {}, upload {}, download {}.\n\n",
            roof.device,
            gb(roof.copy_bytes_per_s),
            gb(roof.upload_bytes_per_s),
            gb(roof.download_bytes_per_s)
        ));
    }
    out.push_str(&format!(
        "GPS at {size}², wall clock (kernel-only in brackets):\n\n| algorithm |"
    ));
    for m in &modes {
        out.push_str(&format!(" {m} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(modes.len()));
    out.push('\n');
    for strategy in super::MATRIX_STRATEGIES {
        out.push_str(&format!("| {} |", strategy.name()));
        for report in reports {
            let text = report
                .results
                .iter()
                .find(|r| r.strategy == strategy.name())
                .map(|r| match (&r.error, r.compute_gps_median) {
                    (Some(e), _) => format!("n/a ({e})"),
                    (None, Some(c)) => format!("{} ({})", format_gps(r.gps_median), format_gps(c)),
                    (None, None) => format_gps(r.gps_median),
                })
                .unwrap_or_default();
            out.push_str(&format!(" {text} |"));
        }
        out.push('\n');
    }
    out
}
