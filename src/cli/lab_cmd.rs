//! `golab lab`: run a Lab experiment headlessly and print its tables.

use clap::Args;

use super::{CliError, parse_list};
use crate::lab::{self, Progress, RunPlan};

/// Arguments of `golab lab`.
#[derive(Debug, Args)]
pub struct LabArgs {
    /// Experiment: sort, transpose, shuffle, coalesce, scan, hashing, boxsum, lookup; or `list` for every experiment's
    /// variants and sizes.
    pub experiment: String,
    /// Comma-separated sizes (`1024`, `2^20`); default: the experiment's own.
    #[arg(long)]
    pub sizes: Option<String>,
    /// Comma-separated variant names; default: all. Some take a tile shape after `@`
    /// (`gpu-onesweep@512x15`, `decoupled-look-back@256x16`: `golab lab list` says which).
    #[arg(long)]
    pub variants: Option<String>,
    /// Timed repeats per measurement (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,
    /// Sort in descending order (sort only).
    #[arg(long)]
    pub descending: bool,
    /// Print the report as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Print the report as CSV instead of tables.
    #[arg(long)]
    pub csv: bool,
}

/// What shares the device with a `golab lab` run, for the report's `beside` line.
const BESIDE: &str =
    "nothing else of golab's (a CLI run; other programs using the GPU are not visible)";

fn parse_size(text: &str) -> Result<u64, CliError> {
    let bad = || {
        CliError(format!(
            "bad size '{text}': use a number like 1024 or a power like 2^20"
        ))
    };
    lab::parse_size(text).ok_or_else(bad)
}

fn list() {
    for e in lab::experiments() {
        println!("{}: {}", e.name(), e.description());
        let sizes: Vec<String> = e.default_sizes().iter().map(u64::to_string).collect();
        println!("  sizes ({}), default {}", e.size_unit(), sizes.join(","));
        for v in e.variants() {
            println!("  {:<18} {}", v.name, v.description);
        }
    }
}

/// Execute `golab lab`: `GOLAB_*` knobs are read once here ([`crate::config::Tuning`]); a
/// value that does not parse is an error (exit status 2).
pub fn run(args: &LabArgs, tuning: &crate::config::Tuning) -> Result<(), CliError> {
    if args.experiment.eq_ignore_ascii_case("list") {
        list();
        return Ok(());
    }
    let experiment = lab::experiment(&args.experiment)?;
    let plan = RunPlan {
        variants: match &args.variants {
            Some(v) => parse_list(v, |s| Ok(s.to_string()))?,
            None => Vec::new(),
        },
        sizes: match &args.sizes {
            Some(s) => parse_list(s, parse_size)?,
            None => Vec::new(),
        },
        repeats: args.repeats.max(1),
        descending: args.descending,
        tuning: tuning.lab,
        beside: Some(BESIDE.into()),
    };
    let known: Vec<String> = experiment.variants().into_iter().map(|v| v.name).collect();
    if let Some(bad) = plan
        .variants
        .iter()
        .find(|v| experiment.variant(v).is_none())
    {
        return Err(CliError(format!(
            "unknown variant '{bad}' of {}; known: {}",
            experiment.name(),
            known.join(", ")
        )));
    }
    let ctx = crate::gpu::GpuContext::new(&tuning.gpu)?;
    let progress = Progress::with_callback(|fraction, message| {
        eprintln!("[{:>3.0}%] {message}", fraction * 100.0);
    });
    let report = experiment.run(&ctx, &plan, &progress)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else if args.csv {
        print!("{}", report.to_csv());
    } else {
        println!("{}", report.to_markdown());
    }
    if report.all_validated() {
        Ok(())
    } else {
        Err(CliError(
            "some results did not match the CPU reference (✗ above)".into(),
        ))
    }
}
