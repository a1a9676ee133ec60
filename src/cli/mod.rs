//! The `golab` command line: `run`, `bench`, `patterns` (and, with no subcommand, the app).

mod bench_cmd;
mod lab_cmd;
mod patterns_bench;
mod patterns_cmd;
mod run_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// golab: a Game of Life visualizer and GPU-compute lab.
#[derive(Debug, Parser)]
#[command(name = "golab", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do; with none, the desktop app starts.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of the desktop app (when no subcommand is given).
    #[command(flatten)]
    pub app: crate::app::AppOptions,
    /// GPU adapter to use: a case-insensitive part of its name (also GOLAB_ADAPTER).
    #[arg(long, global = true)]
    pub adapter: Option<String>,
}

impl Cli {
    /// The knobs of this run: the `GOLAB_*` environment read once, with the command-line
    /// flags laid over it.
    pub fn tuning(&self) -> Result<crate::config::Tuning, CliError> {
        let mut tuning = crate::config::Tuning::from_env().map_err(CliError)?;
        if let Some(adapter) = &self.adapter {
            tuning.gpu.adapter = Some(adapter.clone());
        }
        Ok(tuning)
    }
}

/// Options shared by commands that step worlds on the GPU.
#[derive(Debug, Clone, clap::Args)]
pub struct GpuArgs {
    /// Host↔device memory mode of GPU strategies: normal (default), pinned or zero-copy.
    /// With `bench --matrix`, measures only that mode.
    #[arg(long)]
    pub memory: Option<String>,
    /// gpu-readback-skip downloads the world every N generations.
    #[arg(long, default_value_t = 10)]
    pub readback_interval: u32,
}

impl GpuArgs {
    /// A stepper factory for these options with `tuning`'s device, kernels and faults.
    pub fn factory(
        &self,
        tuning: &crate::config::Tuning,
    ) -> Result<crate::step::StepperFactory, CliError> {
        let mut factory = crate::step::StepperFactory::with_gpu(tuning.gpu.clone());
        factory.gpu_settings.bitpacked = tuning.bitpacked;
        factory.cpu_simd = tuning.cpu_simd;
        factory.gpu_settings.fault = tuning.fault;
        if let Some(memory) = &self.memory {
            factory.gpu_settings.memory = memory.parse::<crate::step::MemoryMode>()?;
        }
        factory.gpu_settings.readback_interval = self.readback_interval.max(1);
        Ok(factory)
    }
}

/// golab's subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Step a world headlessly and print generation, population, age histogram and hash.
    Run(run_cmd::RunArgs),
    /// Measure generations per second of strategies × world sizes as a markdown table.
    Bench(bench_cmd::BenchArgs),
    /// List the bundled pattern library.
    Patterns(patterns_cmd::PatternsArgs),
    /// Print the GPU adapter, backend, features and limits golab would use.
    GpuInfo,
    /// Run a GPU-compute Lab experiment (sort, transpose, shuffle, coalesce, scan; `list`).
    Lab(lab_cmd::LabArgs),
}

/// A CLI failure: printed as `error: …` with exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

/// Parse the process arguments and run; the binary's whole `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = cli.tuning().and_then(|tuning| match cli.command {
        Some(Command::Run(args)) => run_cmd::run(&args, &tuning),
        Some(Command::Bench(args)) => bench_cmd::run(&args, &tuning),
        Some(Command::Patterns(args)) => patterns_cmd::run(&args),
        Some(Command::GpuInfo) => gpu_info(&tuning),
        Some(Command::Lab(args)) => lab_cmd::run(&args, &tuning),
        None => crate::app::run(tuning, cli.app).map_err(CliError),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn gpu_info(tuning: &crate::config::Tuning) -> Result<(), CliError> {
    let ctx = crate::gpu::GpuContext::new(&tuning.gpu)?;
    print!("{}", ctx.report());
    Ok(())
}

/// Parse a comma-separated list with `parse_one`, naming the bad item on failure.
fn parse_list<T>(
    text: &str,
    parse_one: impl Fn(&str) -> Result<T, CliError>,
) -> Result<Vec<T>, CliError> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(parse_one)
        .collect()
}
