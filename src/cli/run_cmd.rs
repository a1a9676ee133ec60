//! `golab run`: step a world headlessly and report its state.

use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::CliError;
use crate::pattern::{self, Placement};
use crate::rule::Rule;
use crate::sim::Simulation;
use crate::stats::DEFAULT_BUCKETS;
use crate::step::Strategy;
use crate::universe::{GridUniverse, Universe};
use crate::world::{Topology, World, parse_size};

/// Arguments of `golab run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// World size, WIDTHxHEIGHT or a single edge (default: the bounded grid the pattern's
    /// rule names, as Golly runs it, else 256x256).
    #[arg(long)]
    pub size: Option<String>,
    /// Edge behaviour: torus (wrap) or dead (outside is dead) (default: the pattern's
    /// bounded grid's, else torus).
    #[arg(long)]
    pub topology: Option<String>,
    /// Rule in any notation Golly accepts (B3/S23, B2-a/S12, /2/3, B2/S34H, MAP…, HighLife…). Default: the pattern's rule, else B3/S23.
    #[arg(long)]
    pub rule: Option<String>,
    /// A bundled pattern name (see `golab patterns`) or a .rle / .cells file, placed centred.
    #[arg(long, conflicts_with = "soup")]
    pub pattern: Option<String>,
    /// Random soup density in percent (the default when no pattern is given: 50).
    #[arg(long)]
    pub soup: Option<f64>,
    /// Seed of the random soup.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Generations to step: a count (`1000`) or a power of two (`2^30`); up to 2^64 − 1 on
    /// grids and 2^100 on the hashed universe.
    #[arg(long, default_value = "100", value_parser = parse_count)]
    pub gens: u128,
    /// Strategy stepping the world; `hashlife` runs the pattern in the unbounded hashed
    /// universe (no --size, --topology or soup). Default: a pattern without --size or
    /// --topology runs as Golly runs it — its bounded grid if its rule names one, else the
    /// unbounded plane (hashed; Larger than Life and rules the hashed universe does not run:
    /// scalar on a grid that grows or holds the pattern's reach); anything else scalar.
    #[arg(long)]
    pub strategy: Option<String>,
    /// Step in increments of this many generations (a count or `2^k`; default: all of
    /// --gens at once, as bgolly does).
    #[arg(long, value_parser = parse_count)]
    pub step: Option<u128>,
    /// Print `generation: population` every N generations, as bgolly does.
    #[arg(long, value_parser = parse_count)]
    pub every: Option<u128>,
    /// hashlife: collect garbage above this many MiB of nodes (default: a quarter of the
    /// available memory, at most 4 GiB).
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<usize>,
    /// hashlife: threads a step uses (default: every core; 1 runs the single-threaded
    /// engine; 0 or `all`: every core). Results are the same whatever the count.
    #[arg(long, value_name = "N", default_value = "all")]
    pub threads: crate::hashlife::Threads,
    /// Write the final pattern here, in the format of the extension (.mc, .rle, .cells,
    /// .lif, .apg, + .gz).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Age brackets in the histogram.
    #[arg(long, default_value_t = DEFAULT_BUCKETS)]
    pub buckets: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// GPU options.
    #[command(flatten)]
    pub gpu: super::GpuArgs,
}

/// What `golab run --json` prints.
#[derive(Debug, Serialize)]
pub struct RunReport {
    /// Generation reached.
    pub generation: u64,
    /// Live cells.
    pub population: u64,
    /// Dying cells (states 2..C-1 of a Generations rule, or of a rule table; 0 under
    /// two-state rules).
    pub dying: u64,
    /// Cells not in state 0 (live and dying): the population Golly reports.
    pub occupied: u64,
    /// Live cells per normalized-age bracket, youngest first.
    pub histogram: Vec<u64>,
    /// Stable 64-bit hash of size and ages, as 16 hex digits.
    pub hash: String,
    /// Strategy that stepped the world.
    pub strategy: String,
    /// Wall time of the stepping, in seconds.
    pub elapsed_s: f64,
    /// Generations per second over the stepping.
    pub gps: f64,
    /// Where the time before and during the stepping went.
    pub startup: super::startup::StartUp,
    /// World width.
    pub width: u32,
    /// World height.
    pub height: u32,
    /// Rule in Golly's canonical form.
    pub rule: String,
    /// torus, dead, or growing (unbounded Larger than Life: a dead-border grid that grew
    /// with the pattern to the size reported).
    pub topology: String,
    /// World-state bytes uploaded and downloaded while stepping (GPU strategies; 0 on the CPU).
    pub transfer_bytes: TransferTotals,
    /// Warnings (e.g. a clipped pattern).
    pub warnings: Vec<String>,
}

/// Host↔device bytes moved while the generations ran.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct TransferTotals {
    /// Uploaded.
    pub up: u64,
    /// Downloaded.
    pub down: u64,
}

fn build_world(args: &RunArgs, warnings: &mut Vec<String>) -> Result<World, CliError> {
    let explicit_rule = args.rule.as_deref().map(str::parse::<Rule>).transpose()?;
    let size = |grid: Option<crate::pattern::Grid>| -> Result<(u32, u32, Topology), CliError> {
        let (width, height) = match (&args.size, grid) {
            (Some(size), _) => parse_size(size)?,
            (None, Some(g)) => (g.width, g.height),
            (None, None) => (256, 256),
        };
        let topology = match (&args.topology, grid) {
            (Some(t), _) => t.parse()?,
            (None, Some(g)) => g.topology,
            (None, None) => Topology::Torus,
        };
        Ok((width, height, topology))
    };
    match &args.pattern {
        Some(name) => {
            let pattern = pattern::resolve(name)?;
            warnings.extend(pattern.warnings.iter().cloned());
            let rule = explicit_rule.or(pattern.rule).unwrap_or_default();
            let unbounded =
                pattern.grid.is_none() && args.size.is_none() && args.topology.is_none();
            if unbounded && rule.is_ltl() {
                // Golly's unbounded Larger than Life: a grid that grows with the pattern.
                let (world, warning) = crate::sim::growth::world_for(&pattern, rule)?;
                warnings.extend(warning);
                return Ok(world);
            }
            if unbounded {
                return plane_grid(&pattern, rule, args.gens, warnings);
            }
            if args.size.is_none() && args.topology.is_none() {
                // The file's grid as Golly runs it; a tube's open side with room for --gens.
                if let Some(opened) =
                    pattern.open_in_grid(rule, u64::try_from(args.gens).unwrap_or(u64::MAX))
                {
                    let (world, report) = opened.map_err(CliError)?;
                    warnings.extend(report.warning());
                    return Ok(world);
                }
            }
            let (width, height, topology) = size(pattern.grid)?;
            let mut world = World::new(width, height, topology, rule)?;
            let report = pattern.place(&mut world, Placement::Centred);
            warnings.extend(report.warning());
            Ok(world)
        }
        None => {
            let (width, height, topology) = size(None)?;
            let mut world = World::new(width, height, topology, explicit_rule.unwrap_or_default())?;
            world.fill_random(args.soup.unwrap_or(50.0), args.seed)?;
            Ok(world)
        }
    }
}

/// The unbounded plane for `gens` generations of `pattern` on a grid strategy: a dead-border
/// grid holding the pattern and everything it can reach in that time (the rule's range a
/// generation each way), where the border never matters — or a clear error naming the size
/// needed.
fn plane_grid(
    pattern: &crate::pattern::Pattern,
    rule: Rule,
    gens: u128,
    warnings: &mut Vec<String>,
) -> Result<World, CliError> {
    let (w, h) = (pattern.width, pattern.height);
    let reach = u128::from(rule.range().max(1)) * gens + 1;
    let side = |n: u32| u128::from(n.max(1)) + 2 * reach;
    let (width, height) = (side(w), side(h));
    let fits = u32::try_from(width).ok().zip(u32::try_from(height).ok());
    let world = fits.ok_or_else(String::new).and_then(|(width, height)| {
        World::new(width, height, Topology::DeadBorder, rule).map_err(|e| e.to_string())
    });
    let mut world = world.map_err(|why| {
        CliError(format!(
            "{gens} generations of this {w}x{h} pattern on the unbounded plane need a {width}x{height} grid \
             (it spreads up to {} a generation each way){}: leave out --strategy to run it \
             hashed, or give --size for a torus",
            match rule.range().max(1) {
                1 => "1 cell".to_string(),
                r => format!("{r} cells"),
            },
            if why.is_empty() { String::new() } else { format!(", and {why}") }
        ))
    })?;
    let report = pattern.place(&mut world, Placement::Centred);
    warnings.extend(report.warning());
    warnings.push(format!(
        "the unbounded plane as a {width}x{height} dead-border grid: room for {gens} generations of growth"
    ));
    Ok(world)
}

/// A generation count: decimal digits (`_` allowed) or `2^k`.
pub fn parse_count(text: &str) -> Result<u128, String> {
    let t = text.trim().replace('_', "");
    if let Some(k) = t.strip_prefix("2^") {
        let k: u32 = k
            .parse()
            .map_err(|_| format!("'{text}': write a power of two as 2^k, k a whole number"))?;
        return 1u128
            .checked_shl(k)
            .filter(|_| k < 128)
            .ok_or_else(|| format!("'{text}': at most 2^127"));
    }
    t.parse::<u128>()
        .map_err(|_| format!("'{text}' is not a generation count (1000 or 2^30)"))
}

/// Execute `golab run`.
pub fn run(args: &RunArgs, tuning: &crate::config::Tuning) -> Result<(), CliError> {
    let named = args.strategy.as_deref().map(str::trim);
    if named.is_some_and(|s| s.eq_ignore_ascii_case("hashlife")) {
        return super::run_hashed::run(args);
    }
    let mut warnings = Vec::new();
    if let (None, Some(source), None, None, None) =
        (named, &args.pattern, &args.size, &args.topology, args.soup)
    {
        // As Golly runs a pattern: the unbounded plane, unless it belongs on a grid.
        match super::run_hashed::open(source, args) {
            Ok(opened) => return super::run_hashed::run_opened(args, opened),
            Err(super::run_hashed::OpenError::BoundedGrid(_)) => {}
            Err(super::run_hashed::OpenError::NeedsGrid(why)) => {
                warnings.push(format!("on a grid: {why}"));
            }
            Err(super::run_hashed::OpenError::Other(e)) => return Err(e),
        }
    }
    if args.max_memory.is_some() {
        // A file that lands on a grid (its own bounded grid, a size given) holds no node
        // store: the limit does nothing there, and the run goes on saying so.
        warnings.push("--max-memory limits the hashed universe; this run is on a grid".into());
    }
    let strategy: Strategy = named.unwrap_or("scalar").parse()?;
    let mut startup = super::startup::StartUp::default();
    let mut factory = args.gpu.factory(tuning)?;
    // A run needs only the pipelines its batches use, and exits when they are done.
    factory.gpu_settings.background_compile = false;
    // The device opens on its own thread while the world is built (a missing device is
    // reported by the load below).
    let world = std::thread::scope(|scope| {
        let device = strategy.is_gpu().then(|| {
            scope.spawn(|| {
                let clock = Instant::now();
                let _ = factory.gpu();
                clock.elapsed().as_secs_f64()
            })
        });
        let clock = Instant::now();
        let world = build_world(args, &mut warnings);
        startup.world_s = clock.elapsed().as_secs_f64();
        if let Some(device) = device {
            startup.device_s = device.join().unwrap_or(0.0);
        }
        world
    })?;
    let compiled = crate::gpu::compile_seconds_here();
    let clock = Instant::now();
    let sim = Simulation::new(factory, world, strategy)?;
    startup.load_s = clock.elapsed().as_secs_f64();
    let before = sim.transfer_counts();
    let mut universe = GridUniverse::new(sim);
    let stepping = super::run_hashed::drive(&mut universe, args)?;
    startup.stepping_s = stepping;
    startup.compile_s = crate::gpu::compile_seconds_here() - compiled;
    startup.total_s = super::startup::since_start();
    let start = Instant::now();
    if let Some(path) = &args.out {
        universe.save(path, &Default::default())?;
    }
    let sim = universe.simulation();
    let after = sim.transfer_counts();
    let stats = sim.stats(args.buckets)?;
    let elapsed = stepping + start.elapsed().as_secs_f64();
    let running = sim.strategy();
    let grows = sim.grows();
    let world = sim.world()?;
    let report = RunReport {
        generation: stats.generation,
        population: stats.population,
        dying: stats.dying,
        occupied: stats.population + stats.dying,
        histogram: stats.histogram,
        hash: format!("{:016x}", world.state_hash()),
        strategy: running.name().to_string(),
        elapsed_s: elapsed,
        gps: if elapsed > 0.0 {
            args.gens as f64 / elapsed
        } else {
            0.0
        },
        width: world.width(),
        height: world.height(),
        rule: world.rule().to_string(),
        topology: match (grows, world.topology) {
            (true, Topology::Joined(join)) => format!("{join}, growing"),
            (true, _) => "growing".to_string(),
            (false, topology) => topology.to_string(),
        },
        transfer_bytes: TransferTotals {
            up: after.up - before.up,
            down: after.down - before.down,
        },
        warnings,
        startup,
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_text(&report);
    }
    Ok(())
}

fn print_text(r: &RunReport) {
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    println!(
        "world       {}x{} {} {}",
        r.width, r.height, r.topology, r.rule
    );
    println!("strategy    {}", r.strategy);
    println!("generation  {}", r.generation);
    println!("population  {}", r.population);
    if r.dying > 0 {
        println!("dying       {}", r.dying);
        println!(
            "occupied    {} (live and dying: Golly's population)",
            r.occupied
        );
    }
    let n = r.histogram.len();
    let brackets: Vec<String> = r
        .histogram
        .iter()
        .enumerate()
        .map(|(i, count)| format!("{}-{}%: {count}", i * 100 / n, (i + 1) * 100 / n))
        .collect();
    println!("ages        {}", brackets.join("  "));
    println!("hash        {}", r.hash);
    println!("elapsed     {:.3} s ({:.1} GPS)", r.elapsed_s, r.gps);
    println!("start-up    {}", r.startup.line());
}
