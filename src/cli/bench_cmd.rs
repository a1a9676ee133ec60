//! `golab bench`: the GPS table of strategies × world sizes.

use clap::Args;

use super::{CliError, parse_list};
use crate::bench::{self, BenchConfig};
use crate::rule::Rule;
use crate::step::Strategy;

const DEFAULT_SIZES: &str = "512,1024,2048";

/// Arguments of `golab bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Comma-separated strategy names, or `all`.
    #[arg(long, default_value = "all")]
    pub strategies: String,
    /// Comma-separated square world edges.
    #[arg(long, default_value = DEFAULT_SIZES)]
    pub sizes: String,
    /// Generations per timed repeat (default: enough for ~0.3 s); for hashlife, the
    /// generation each repeat steps to (a count or `2^k`; default 1024).
    #[arg(long)]
    pub gens: Option<String>,
    /// hashlife: the pattern to run on the unbounded plane (a file, bundled name or
    /// apgcode) instead of a soup in a box of each size.
    #[arg(long)]
    pub pattern: Option<String>,
    /// hashlife: the node store's memory limit in MiB (bgolly's -M; default a quarter of
    /// the memory available).
    #[arg(long)]
    pub max_memory: Option<usize>,
    /// hashlife: threads a step uses (default: every core; 1 runs the single-threaded
    /// engine; 0 or `all`: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<crate::hashlife::Threads>,
    /// Timed repeats per measurement (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,
    /// Rule to run.
    #[arg(long, default_value = "B3/S23")]
    pub rule: String,
    /// Soup density in percent.
    #[arg(long, default_value_t = 50.0)]
    pub density: f64,
    /// The world's state when timing starts: `fresh` (the soup itself) or `settled` (the soup
    /// stepped `--settle` generations first, by the fastest strategy available).
    #[arg(long, default_value = "fresh")]
    pub phase: String,
    /// Generations stepped before timing in the `settled` phase.
    #[arg(long, default_value_t = 50_000)]
    pub settle: u64,
    /// First timed generation: the soup is stepped this many generations first (default 0
    /// in the `fresh` phase, `--settle` in the `settled` phase). Every repeat times the same
    /// generations from there.
    #[arg(long)]
    pub from: Option<u64>,
    /// gpu-bitpacked without birth codes (ages are then wrong): measures what exact ages cost.
    #[arg(long)]
    pub no_ages: bool,
    /// Print the full report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// After the table, print each measurement's adaptive decisions: the warm-up's, the
    /// shape controller's (sweeps, probes, moves, re-sweeps) and the submissions' pacing
    /// (docs/architecture.md draws their states).
    #[arg(long)]
    pub verbose: bool,
    /// Print the reference article's 6 algorithms × 3 memory modes table (at the first size,
    /// default 8192) instead of the strategy × size table.
    #[arg(long)]
    pub matrix: bool,
    /// GPU options.
    #[command(flatten)]
    pub gpu: super::GpuArgs,
}

fn parse_strategies(text: &str) -> Result<Vec<Strategy>, CliError> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(Strategy::ALL
            .iter()
            .copied()
            .filter(|s| s.in_bench_all())
            .collect());
    }
    parse_list(text, |s| s.parse::<Strategy>().map_err(CliError::from))
}

fn parse_sizes(text: &str) -> Result<Vec<u32>, CliError> {
    parse_list(text, |s| {
        let (w, h) = crate::world::parse_size(s)?;
        if w == h {
            Ok(w)
        } else {
            Err(CliError(format!("bench sizes are square edges; got '{s}'")))
        }
    })
}

/// The hashed universe's measurements: the pattern, or a soup in a box of each size, to
/// generation `target` (default 1024).
fn run_hashed(args: &BenchArgs, target: Option<u128>) -> Result<(), CliError> {
    use crate::bench::hashed::{self, HashSource};
    let limit = args
        .max_memory
        .map_or_else(crate::hashlife::default_memory_limit, |mib| mib << 20);
    let rule = args.rule.parse::<Rule>()?;
    let sources: Vec<HashSource> = match &args.pattern {
        Some(p) => vec![HashSource::Pattern(p.clone())],
        None => parse_sizes(&args.sizes)?
            .into_iter()
            .map(|size| HashSource::Soup {
                size,
                density: args.density,
                seed: 1,
            })
            .collect(),
    };
    // A pattern's own rule unless --rule was given explicitly.
    let explicit = (args.pattern.is_none() || args.rule != "B3/S23").then_some(rule);
    let generations = target.unwrap_or(1024);
    let mut results = Vec::new();
    for source in &sources {
        if !args.json {
            eprintln!("hashlife: {source:?} to generation {generations}…");
        }
        results.push(hashed::run(
            source,
            explicit,
            generations,
            args.repeats,
            limit,
            args.threads.unwrap_or_default(),
        ));
    }
    if args.json {
        let json: Vec<_> = results
            .iter()
            .map(|r| match r {
                Ok(b) => serde_json::to_value(b).unwrap_or_default(),
                Err(e) => serde_json::json!({ "error": e }),
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!("{}", hashed::markdown(&results));
    }
    if let Some(Err(e)) = results.iter().find(|r| r.is_err()) {
        return Err(CliError(e.clone()));
    }
    Ok(())
}

/// Execute `golab bench`.
pub fn run(args: &BenchArgs, tuning: &crate::config::Tuning) -> Result<(), CliError> {
    let mut strategies = parse_strategies(&args.strategies)?;
    let hashed = strategies.contains(&Strategy::Hashlife);
    strategies.retain(|&s| s != Strategy::Hashlife);
    let target = args
        .gens
        .as_deref()
        .map(super::parse_count)
        .transpose()
        .map_err(CliError)?;
    if hashed {
        run_hashed(args, target)?;
        if strategies.is_empty() {
            return Ok(());
        }
    } else if args.pattern.is_some() || args.max_memory.is_some() || args.threads.is_some() {
        return Err(CliError(
            "--pattern, --max-memory and --threads measure hashlife: add it to --strategies".into(),
        ));
    }
    let gens = target
        .map(|g| {
            u64::try_from(g).map_err(|_| CliError(format!("--gens {g}: a grid counts to 2^64 - 1")))
        })
        .transpose()?;
    let cfg = BenchConfig {
        strategies,
        sizes: parse_sizes(&args.sizes)?,
        gens,
        repeats: args.repeats,
        rule: args.rule.parse::<Rule>()?,
        density: args.density,
        settle: match args.phase.trim() {
            "fresh" => args.from.unwrap_or(0),
            "settled" => args.from.unwrap_or(args.settle),
            other => {
                return Err(CliError(format!(
                    "unknown phase '{other}': use fresh or settled"
                )));
            }
        },
        ..BenchConfig::default()
    };
    if cfg.strategies.is_empty() || cfg.sizes.is_empty() {
        return Err(CliError(
            "nothing to measure: give at least one strategy and one size".into(),
        ));
    }
    let quiet = args.json;
    let mut tuning = tuning.clone();
    tuning.bitpacked.skip_ages |= args.no_ages;
    let mut factory = args.gpu.factory(&tuning)?;
    let progress = |line: &str| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    if args.matrix {
        let size = if args.sizes == DEFAULT_SIZES {
            8192
        } else {
            cfg.sizes[0]
        };
        let cfg = BenchConfig {
            sizes: vec![size],
            ..cfg
        };
        let json = args.json;
        let modes = match &args.gpu.memory {
            Some(_) => vec![factory.gpu_settings.memory],
            None => crate::step::MemoryMode::ALL.to_vec(),
        };
        let reports = bench::run_matrix(&cfg, &modes, &mut factory, progress, |so_far| {
            if !json {
                println!("{}", bench::matrix_table(so_far));
            }
        });
        if json {
            println!("{}", serde_json::to_string_pretty(&reports)?);
        }
        return Ok(());
    }
    let report = bench::run(&cfg, &factory, progress);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{}", bench::markdown_table(&report));
        if args.verbose {
            for r in report.results.iter().filter(|r| !r.decisions.is_empty()) {
                println!("Adaptive decisions, {} at {}²:", r.strategy, r.size);
                for d in &r.decisions {
                    println!("- {d}");
                }
            }
        }
    }
    Ok(())
}
