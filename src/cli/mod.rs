//! The `golab` command line: `run`, `bench`, `patterns` (and, with no subcommand, the app).

mod bench_cmd;
pub mod identify_cmd;
mod lab_cmd;
mod patterns_bench;
mod patterns_cmd;
mod run_cmd;
mod run_hashed;
pub mod script_cmd;
pub mod search_cmd;
pub mod startup;

pub use run_cmd::parse_count;

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
    /// Your own rules folder: `Name.rule` files found before golab's bundled rules and an
    /// installed Golly's `Rules` folder (Golly's "Your rules").
    #[arg(long, global = true, value_name = "DIR")]
    pub rules: Option<std::path::PathBuf>,
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
    GpuInfo(GpuInfoArgs),
    /// Run a GPU-compute Lab experiment (sort, transpose, shuffle, coalesce, scan, hashing, boxsum, lookup; `list`).
    Lab(lab_cmd::LabArgs),
    /// apgsearch's soup search: the same soups and census object for object, written as
    /// its local log (`--haul`).
    Search(search_cmd::SearchArgs),
    /// Identify a pattern: still life, oscillator, spaceship, gun or puffer, with its
    /// period, speed, populations, box, heat, temperature, volatility and apgcode.
    Identify(identify_cmd::IdentifyArgs),
    /// Run a Golly script (`.py`) headless through golab's Python package: `import golly`
    /// gets golab's `golly` module; what `g.show`/`g.note` say is printed.
    Script(script_cmd::ScriptArgs),
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
    startup::PROCESS_START.get_or_init(std::time::Instant::now);
    let cli = Cli::parse();
    if let Some(dir) = &cli.rules {
        if !dir.is_dir() {
            eprintln!("error: --rules {}: not a folder", dir.display());
            return ExitCode::from(2);
        }
        crate::rule::table::library::install(crate::rule::table::library::RuleFolders::detect(
            Some(dir.clone()),
        ));
    }
    let result = cli.tuning().and_then(|tuning| match cli.command {
        Some(Command::Run(args)) => run_cmd::run(&args, &tuning),
        Some(Command::Bench(args)) => bench_cmd::run(&args, &tuning),
        Some(Command::Patterns(args)) => patterns_cmd::run(&args),
        Some(Command::GpuInfo(args)) => gpu_info(&args, &tuning),
        Some(Command::Lab(args)) => lab_cmd::run(&args, &tuning),
        Some(Command::Identify(args)) => identify_cmd::run(&args),
        Some(Command::Search(args)) => search_cmd::run(&args),
        Some(Command::Script(args)) => script_cmd::run(&args),
        None => crate::app::run(tuning, cli.app).map_err(CliError),
    });
    // Worlds are gone by now, so background compilers stop after their current pipeline:
    // no thread is left inside the driver while the process exits.
    crate::gpu::wait_for_background_compiles(std::time::Duration::from_secs(10));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Options of `golab gpu-info`.
#[derive(Debug, Clone, clap::Args)]
pub struct GpuInfoArgs {
    /// Also print what the driver compiled golab's kernels into (registers, spills, shared
    /// memory … as the Vulkan driver reports them), for the modules whose label contains
    /// FILTER (all with an empty one: `--kernels ''`).
    #[arg(long, value_name = "FILTER")]
    pub kernels: Option<String>,
    /// Also run the window's start-up probe on this adapter and print what it measured
    /// and the strategy a new user's window would start on (under a second).
    #[arg(long)]
    pub probe: bool,
}

fn gpu_info(args: &GpuInfoArgs, tuning: &crate::config::Tuning) -> Result<(), CliError> {
    let ctx = crate::gpu::GpuContext::new(&tuning.gpu)?;
    print!("{}", ctx.report());
    if args.probe {
        let real_gpu = ctx.info.device_type != wgpu::DeviceType::Cpu;
        let factory = crate::step::StepperFactory::with_context(ctx.clone());
        let slice = std::time::Duration::from_millis(120);
        let outcome = crate::step::probe::probe(&factory, real_gpu, slice);
        println!(
            "\n## Start-up probe\n\na new user's window starts on {}: {}",
            outcome.chosen.name(),
            outcome.summary()
        );
    }
    if let Some(filter) = &args.kernels {
        let modules: Vec<(String, String)> = every_shader_module()
            .into_iter()
            .filter(|(label, _)| label.contains(filter.as_str()))
            .collect();
        if modules.is_empty() {
            return Err(CliError(format!(
                "no kernel module's label contains '{filter}'"
            )));
        }
        let compiler = crate::gpu::kernel_stats::KernelStatistics::open(&ctx)?;
        println!("\n## Kernels as compiled by the driver\n");
        println!("| module | entry point | executable | statistics |\n|---|---|---|---|");
        for (k, (label, source)) in modules.iter().enumerate() {
            eprintln!("[{:3.0}%] {label}", 100.0 * k as f32 / modules.len() as f32);
            // A module the driver cannot build gets its row; the listing goes on.
            match compiler.module(label, source) {
                Ok(stats) => print!("{}", kernel_rows(&stats)),
                Err(e) => println!("| {label} | | | error: {} |", e.replace('\n', " ")),
            }
            std::io::Write::flush(&mut std::io::stdout())?;
        }
    }
    Ok(())
}

/// A list of (label, WGSL) of every module one area of golab builds.
pub type ShaderProvider = fn() -> Vec<(String, String)>;

/// Each area's modules in every permutation: the GPU core's, the Lab's, the app's and the
/// steppers' (the Life kernels: both rule paths, every halo of both bit-packed step kernels,
/// strip/group/prefetch shapes, the generated walks). tests/shaders.rs validates them all.
pub const SHADER_AREAS: &[(&str, ShaderProvider)] = &[
    ("gpu", crate::gpu::shader::shader_permutations),
    ("lab", crate::lab::shader_permutations),
    ("app", crate::app::view_paint::shader_permutations),
    ("step", crate::step::shader_permutations),
];

/// Every WGSL module golab builds, in every permutation, as (label, source).
pub fn every_shader_module() -> Vec<(String, String)> {
    SHADER_AREAS.iter().flat_map(|(_, list)| list()).collect()
}

/// The driver's statistics as markdown table rows: one per kernel executable.
fn kernel_rows(stats: &[crate::gpu::kernel_stats::KernelStats]) -> String {
    let mut out = String::new();
    for k in stats {
        if let Some(why) = &k.skipped {
            out += &format!("| {} | {} | | {why} |\n", k.module, k.entry);
        }
        for (executable, values) in &k.executables {
            let values: Vec<String> = values.iter().map(|(n, v)| format!("{n}: {v}")).collect();
            out += &format!(
                "| {} | {} | {executable} | {} |\n",
                k.module,
                k.entry,
                values.join("; ")
            );
        }
    }
    out
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
