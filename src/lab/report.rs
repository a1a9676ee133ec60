//! The result of one experiment run: typed rows plus markdown, CSV and JSON renderings.

use serde::Serialize;

/// One measured (variant, size) cell.
#[derive(Debug, Clone, Serialize)]
pub struct LabRow {
    /// Variant name.
    pub variant: String,
    /// Size in the experiment's unit.
    pub size: u64,
    /// How the size reads in a table (e.g. `2^20`, `8192²`, `256³ ×50`).
    pub size_label: String,
    /// Median kernel time in milliseconds (None when not timed).
    pub ms: Option<f64>,
    /// Effective bandwidth in GB/s by the experiment's byte count, when meaningful.
    pub gb_per_s: Option<f64>,
    /// `gb_per_s` as a percentage of the copy bandwidth measured in the same run.
    pub percent_of_copy: Option<f64>,
    /// Whether the GPU result matched the CPU reference.
    pub validated: bool,
    /// Anything else (pass counts, rates, why something was skipped).
    pub notes: String,
    /// Where the row sits on the Lab plot's x axis when that is not its size (coalescing
    /// plots time against repeats); `None` plots it at `size`, and rows that summarise a
    /// sweep (fits) are left off the plot with `Some(NaN)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plot_x: Option<f64>,
}

impl LabRow {
    /// A row for `variant` at `size` whose GPU result `checked` against the CPU (its error, if
    /// any, becomes the notes); the timing columns are filled once it is timed.
    pub fn checked(
        variant: impl Into<String>,
        size: u64,
        size_label: String,
        checked: Result<(), String>,
    ) -> LabRow {
        LabRow {
            variant: variant.into(),
            size,
            size_label,
            ms: None,
            gb_per_s: None,
            percent_of_copy: None,
            validated: checked.is_ok(),
            notes: checked.err().unwrap_or_default(),
            plot_x: None,
        }
    }

    /// Fill the timing of a run of `seconds` moving `bytes`, against the same experiment's
    /// copy variant (`copy_seconds`) and the roofline copy kernel (`roofline`, bytes per second).
    pub fn time_against_copy(
        &mut self,
        seconds: f64,
        bytes: f64,
        copy_seconds: f64,
        roofline: f64,
    ) {
        self.ms = Some(seconds * 1e3);
        self.gb_per_s = Some(bytes / seconds / 1e9);
        self.percent_of_copy = Some(100.0 * copy_seconds / seconds);
        self.notes = format!(
            "{:.0}% of the roofline copy kernel",
            100.0 * bytes / seconds / roofline
        );
    }
}

/// A bandwidth for a header: three significant digits (a software driver's 3.8 GB/s is not
/// "4 GB/s", a GPU's 2 950 GB/s needs no decimals).
pub fn gb_per_s(value: f64) -> String {
    match value {
        v if !v.is_finite() => "- GB/s".into(),
        v if v >= 100.0 => format!("{v:.0} GB/s"),
        v if v >= 10.0 => format!("{v:.1} GB/s"),
        v => format!("{v:.2} GB/s"),
    }
}

/// Everything one run of an experiment measured.
#[derive(Debug, Clone, Serialize)]
pub struct LabReport {
    /// Experiment name.
    pub experiment: String,
    /// Adapter the run used.
    pub device: String,
    /// Copy-kernel bandwidth (read + write) measured in this run, GB/s.
    pub copy_gb_per_s: f64,
    /// Whether the device is a software driver (lavapipe): its timestamps time the CPU's
    /// work, and the roofline copy is not shown beside rows it was not measured like.
    pub software: bool,
    /// "timestamp queries" or "wall clock (no timestamp queries)".
    pub timing: String,
    /// What shared the device during the run (e.g. "the simulation, running gpu-bitpacked
    /// on 8192² at max speed …"), so a reader can tell a quiet device from a busy one:
    /// kernel times are the Lab's own, wall times include waiting behind that work.
    /// `None` when the caller did not say.
    pub beside: Option<String>,
    /// Run-wide notes (seed, limits, skipped variants and why).
    pub notes: Vec<String>,
    /// Measured cells, in run order.
    pub rows: Vec<LabRow>,
}

impl LabReport {
    /// An empty report of `experiment` on `ctx`: the copy bandwidth measured in this run
    /// (bytes per second), how `clock` times, what `plan` says runs beside it, and `notes`.
    pub fn new(
        experiment: &str,
        ctx: &crate::gpu::GpuContext,
        copy_bytes_per_s: f64,
        clock: &super::gpu::Clock,
        plan: &super::RunPlan,
        notes: Vec<String>,
    ) -> LabReport {
        LabReport {
            experiment: experiment.into(),
            device: ctx.adapter_name(),
            copy_gb_per_s: copy_bytes_per_s / 1e9,
            software: ctx.info.device_type == wgpu::DeviceType::Cpu,
            timing: clock.description(),
            beside: plan.beside.clone(),
            notes,
            rows: Vec::new(),
        }
    }
}

fn opt(value: Option<f64>, decimals: usize) -> String {
    value
        .filter(|v| v.is_finite())
        .map(|v| format!("{v:.decimals$}"))
        .unwrap_or_else(|| "–".into())
}

fn ms(value: Option<f64>) -> String {
    match value {
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) if v >= 1.0 => format!("{v:.2}"),
        Some(v) if v.is_finite() => format!("{v:.4}"),
        _ => "–".into(),
    }
}

impl LabReport {
    /// Whether every row validated.
    pub fn all_validated(&self) -> bool {
        self.rows.iter().all(|r| r.validated)
    }

    /// The copy bandwidth the report's header shows, and what measured it: the experiment's
    /// own copy variant at its largest validated size where it has one (the rows' "% of
    /// copy" stand beside that very measurement), else the roofline copy kernel measured at
    /// the start of the run.
    pub fn header_copy(&self) -> (f64, &'static str) {
        let copy = self
            .rows
            .iter()
            .filter(|r| r.validated && r.plot_x.is_none() && r.variant == "copy")
            .filter_map(|r| r.gb_per_s.map(|g| (r.size, g)))
            .max_by_key(|&(size, _)| size);
        match copy {
            Some((_, gb)) => (gb, "this run's copy variant, largest size"),
            // Timed apart from the rows on a software driver, the roofline copy has read 50x
            // the rows' own copies there (the window's Lab: 193-241 GB/s on two CPU cores).
            None if self.software => (
                f64::NAN,
                "not shown on a software driver: this experiment has no copy variant, and a copy kernel timed apart from its rows is no yardstick there",
            ),
            None => (
                self.copy_gb_per_s,
                "roofline copy kernel, measured in this run",
            ),
        }
    }

    /// The header's copy bandwidth with what measured it, e.g. "copy 3.80 GB/s (read +
    /// write; this run's copy variant, largest size)".
    pub fn copy_phrase(&self) -> String {
        match self.header_copy() {
            (gb, source) if gb.is_finite() => {
                format!("{} (read + write; {source})", self.copy_label())
            }
            (_, why) => format!("copy bandwidth {why}"),
        }
    }

    /// The header's copy bandwidth in short, for the window: "copy 3.80 GB/s", or "copy
    /// bandwidth not shown" ([`Self::header_copy`] says why).
    pub fn copy_label(&self) -> String {
        match self.header_copy().0 {
            gb if gb.is_finite() => format!("copy {}", gb_per_s(gb)),
            _ => "copy bandwidth not shown".to_string(),
        }
    }

    /// Header line, the full table, and (for several sizes × variants) the article-shaped
    /// grid of milliseconds with sizes as rows and variants as columns.
    pub fn to_markdown(&self) -> String {
        let mut out = format!(
            "**{}** on {}: {}; timing by {}.\n\n",
            self.experiment,
            self.device,
            self.copy_phrase(),
            self.timing
        );
        if let Some(beside) = &self.beside {
            out.push_str(&format!("beside: {beside}\n\n"));
        }
        for note in &self.notes {
            out.push_str(&format!("- {note}\n"));
        }
        if !self.notes.is_empty() {
            out.push('\n');
        }
        out.push_str("| variant | size | ms (median) | GB/s | % of copy | valid | notes |\n");
        out.push_str("|---|---|---|---|---|---|---|\n");
        for r in &self.rows {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |\n",
                r.variant,
                r.size_label,
                ms(r.ms),
                opt(r.gb_per_s, 1),
                opt(r.percent_of_copy, 1),
                if r.validated { "✓" } else { "✗" },
                r.notes
            ));
        }
        let grid = self.ms_grid();
        if !grid.is_empty() {
            out.push('\n');
            out.push_str(&grid);
        }
        out
    }

    /// Sizes as rows, variants as columns, median ms in the cells (empty for one column).
    pub fn ms_grid(&self) -> String {
        let mut variants: Vec<&str> = Vec::new();
        let mut sizes: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !variants.contains(&r.variant.as_str()) {
                variants.push(&r.variant);
            }
            if !sizes.contains(&r.size_label.as_str()) {
                sizes.push(&r.size_label);
            }
        }
        if variants.len() < 2 || sizes.len() < 2 {
            return String::new();
        }
        let mut out = String::from("ms (median):\n\n| size |");
        for v in &variants {
            out.push_str(&format!(" {v} |"));
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(variants.len()));
        out.push('\n');
        for s in &sizes {
            out.push_str(&format!("| {s} |"));
            for v in &variants {
                let cell = self
                    .rows
                    .iter()
                    .find(|r| r.variant == *v && r.size_label == *s)
                    .map(|r| ms(r.ms))
                    .unwrap_or_default();
                out.push_str(&format!(" {cell} |"));
            }
            out.push('\n');
        }
        out
    }

    /// One line per row: `experiment,device,variant,size,ms,gb_per_s,percent_of_copy,validated,notes,beside`
    /// (`beside` repeats [`LabReport::beside`] on every row, empty when unknown).
    pub fn to_csv(&self) -> String {
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        let beside = quote(self.beside.as_deref().unwrap_or(""));
        let mut out = String::from(
            "experiment,device,variant,size,ms,gb_per_s,percent_of_copy,validated,notes,beside\n",
        );
        for r in &self.rows {
            let num = |v: Option<f64>| v.filter(|x| x.is_finite()).map(|x| x.to_string());
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{beside}\n",
                quote(&self.experiment),
                quote(&self.device),
                quote(&r.variant),
                r.size,
                num(r.ms).unwrap_or_default(),
                num(r.gb_per_s).unwrap_or_default(),
                num(r.percent_of_copy).unwrap_or_default(),
                r.validated,
                quote(&r.notes)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(variant: &str, size: u64, ms: Option<f64>, validated: bool) -> LabRow {
        LabRow {
            variant: variant.into(),
            size,
            size_label: format!("2^{}", size.trailing_zeros()),
            ms,
            gb_per_s: ms.map(|m| 1.0 / m),
            percent_of_copy: ms.map(|m| 10.0 / m),
            validated,
            notes: "a \"quoted\" note".into(),
            plot_x: None,
        }
    }

    #[test]
    fn markdown_has_a_row_per_measurement_and_an_article_shaped_grid() {
        let report = LabReport {
            experiment: "sort".into(),
            device: "dev".into(),
            copy_gb_per_s: 100.0,
            software: false,
            timing: "timestamp queries".into(),
            beside: Some("the simulation, running gpu-resident".into()),
            notes: vec!["seed 1".into()],
            rows: vec![
                row("B2", 1024, Some(2.0), true),
                row("B2+C2", 1024, Some(1.0), true),
                row("B2", 2048, Some(4.0), true),
                row("B2+C2", 2048, None, false),
            ],
        };
        let md = report.to_markdown();
        assert!(md.contains("| B2+C2 | 2^11 | – | – | – | ✗ |"), "{md}");
        assert!(
            md.contains("beside: the simulation, running gpu-resident\n"),
            "{md}"
        );
        assert!(md.contains("| size | B2 | B2+C2 |\n"), "{md}");
        assert!(md.contains("| 2^10 | 2.00 | 1.00 |\n"), "{md}");
        assert!(!report.all_validated());
        let csv = report.to_csv();
        assert_eq!(csv.lines().count(), 5);
        assert!(
            csv.contains(
                "\"B2\",1024,2,0.5,5,true,\"a \"\"quoted\"\" note\",\"the simulation, running gpu-resident\""
            ),
            "{csv}"
        );
    }

    /// The header's copy bandwidth is the copy variant's own at its largest size where the
    /// experiment has one, the roofline kernel's otherwise.
    #[test]
    fn the_header_shows_the_copy_variants_own_bandwidth() {
        let mut report = LabReport {
            experiment: "scan".into(),
            device: "dev".into(),
            copy_gb_per_s: 400.0,
            software: false,
            timing: "timestamp queries".into(),
            beside: None,
            notes: Vec::new(),
            rows: Vec::new(),
        };
        assert_eq!(report.header_copy().0, 400.0);
        for (size, gb) in [(1 << 10, 2.5), (1 << 20, 3.8)] {
            let mut row = LabRow::checked("copy", size, format!("{size}"), Ok(()));
            row.gb_per_s = Some(gb);
            report.rows.push(row);
        }
        let (gb, source) = report.header_copy();
        assert_eq!(gb, 3.8);
        assert!(source.contains("copy variant"));
        assert!(
            report.to_markdown().contains("copy 3.80 GB/s"),
            "{}",
            report.to_markdown()
        );
        // On a software driver a roofline copy timed apart from the rows is not shown.
        report.rows.clear();
        report.software = true;
        assert!(report.header_copy().0.is_nan());
        assert!(
            report.to_markdown().contains("copy bandwidth not shown"),
            "{}",
            report.to_markdown()
        );
    }
}
