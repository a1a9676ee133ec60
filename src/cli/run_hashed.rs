//! `golab run --strategy hashlife`: a pattern in the unbounded hashed universe, stepped by
//! `--step` (default: all of `--gens` at once), printing the exact generation and
//! population — and [`drive`], the stepping loop (`--step`, bgolly's `--every` lines) that
//! `golab run` uses for every kind of universe.

use std::time::Instant;

use serde::Serialize;

use super::CliError;
use super::run_cmd::RunArgs;
use crate::hashlife::{self, Hashed, load};
use crate::rule::Rule;
use crate::universe::Universe;

/// What `golab run --strategy hashlife --json` prints.
#[derive(Debug, Serialize)]
pub struct HashRunReport {
    /// Generation reached, exact.
    pub generation: u128,
    /// Live cells (state 1), exact.
    pub population: u128,
    /// Cells in any state but 0 (live and dying): what Golly reports as the population of
    /// a Generations pattern; equal to `population` under two-state rules.
    pub occupied: u128,
    /// Bounding box `[x0, y0, x1, y1]` (inclusive), absent when empty.
    pub bounds: Option<[i128; 4]>,
    /// Always `hashlife`.
    pub strategy: &'static str,
    /// Rule, canonical.
    pub rule: String,
    /// Wall seconds of the stepping (loading not included).
    pub elapsed_s: f64,
    /// Wall seconds of reading the pattern.
    pub load_s: f64,
    /// Nodes in the store at the end.
    pub nodes: usize,
    /// Bytes the store holds at the end.
    pub memory_bytes: usize,
    /// The store's limit in bytes.
    pub memory_limit_bytes: usize,
    /// Garbage collections while running.
    pub collections: u64,
    /// Threads a step used.
    pub threads: usize,
    /// Peak resident memory of the process (Linux), bytes.
    pub peak_rss_bytes: Option<u64>,
}

/// Execute `golab run --strategy hashlife`.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let Some(source) = &args.pattern else {
        return Err(CliError(
            "--strategy hashlife runs a pattern: give --pattern NAME|FILE (a soup belongs on a grid)".into(),
        ));
    };
    if args.soup.is_some() {
        return Err(CliError("--soup needs a grid strategy".into()));
    }
    let opened = open(source, args)?;
    run_opened(args, opened)
}

/// A pattern opened in the hashed universe, with the seconds reading it took.
pub struct Opened {
    universe: Hashed,
    meta: crate::pattern::Pattern,
    load_s: f64,
}

/// Open `source` in the hashed universe under `args`' rule and memory limit: the universe,
/// or why it cannot hold the pattern (a bounded grid, a rule it does not run, …).
pub fn open(source: &str, args: &RunArgs) -> Result<Opened, OpenError> {
    let limit = args
        .max_memory
        .map_or_else(hashlife::default_memory_limit, |mib| mib << 20);
    let rule = args
        .rule
        .as_deref()
        .map(str::parse::<Rule>)
        .transpose()
        .map_err(|e| OpenError::Other(e.into()))?;
    let load_start = Instant::now();
    let (mut universe, meta) = load::open(source, rule, limit).map_err(|e| match e {
        load::LoadError::BoundedGrid { .. } => OpenError::BoundedGrid(e.to_string()),
        load::LoadError::Hash(_) => OpenError::NeedsGrid(e.to_string()),
        other => OpenError::Other(other.into()),
    })?;
    universe.set_threads(args.threads);
    Ok(Opened {
        universe,
        meta,
        load_s: load_start.elapsed().as_secs_f64(),
    })
}

/// Why [`open`] failed.
pub enum OpenError {
    /// The pattern's rule names a bounded grid: it runs on that grid.
    BoundedGrid(String),
    /// The hashed universe does not run the pattern's rule (the reason): it needs a grid.
    NeedsGrid(String),
    /// Anything else (an unreadable file, an unknown rule, …).
    Other(CliError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::BoundedGrid(why) | OpenError::NeedsGrid(why) => f.write_str(why),
            OpenError::Other(e) => f.write_str(&e.0),
        }
    }
}

/// Step and report a pattern [`open`]ed in the hashed universe.
pub fn run_opened(args: &RunArgs, opened: Opened) -> Result<(), CliError> {
    let Opened {
        universe,
        meta,
        load_s,
    } = opened;
    for w in &meta.warnings {
        eprintln!("warning: {w}");
    }
    let mut hashed = crate::universe::HashedUniverse::new(universe);
    let elapsed_s = drive(&mut hashed, args)?;
    if let Some(path) = &args.out {
        Universe::save(&mut hashed, path, &meta)?;
    }
    let universe = hashed.hashed();
    let memory = universe.memory();
    let report = HashRunReport {
        generation: universe.generation(),
        population: universe.population(),
        occupied: universe.occupied(),
        bounds: universe.bounds().map(|b| [b.x0, b.y0, b.x1, b.y1]),
        strategy: "hashlife",
        rule: universe.rule().canonical(),
        elapsed_s,
        load_s,
        nodes: memory.nodes,
        memory_bytes: memory.bytes,
        memory_limit_bytes: memory.limit_bytes,
        collections: memory.collections,
        threads: memory.threads,
        peak_rss_bytes: crate::memory::peak_rss_bytes(),
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_text(&report);
    }
    Ok(())
}

/// Step `args.gens` generations in pieces of `--step`, printing bgolly's `generation:
/// population` lines every `--every` generations: the loop `golab run` drives every kind of
/// universe with. Returns the wall seconds it took.
pub fn drive(universe: &mut dyn Universe, args: &RunArgs) -> Result<f64, CliError> {
    let start = Instant::now();
    let step = args.step.unwrap_or(args.gens).max(1);
    let target = universe.generation().saturating_add(args.gens);
    let mut next_print = args.every.map(|e| universe.generation().saturating_add(e));
    if args.every.is_some() {
        println!("{}: {}", universe.generation(), universe.population()?);
    }
    while universe.generation() < target {
        let mut amount = step.min(target - universe.generation());
        if let Some(p) = next_print {
            amount = amount.min(p - universe.generation());
        }
        universe.step(amount, &|| false)?;
        if let (Some(p), Some(e)) = (next_print, args.every)
            && universe.generation() == p
        {
            println!("{}: {}", universe.generation(), universe.population()?);
            next_print = Some(p.saturating_add(e));
        }
    }
    Ok(start.elapsed().as_secs_f64())
}

fn print_text(r: &HashRunReport) {
    println!("universe    unbounded, hashed {}", r.rule);
    println!("strategy    {} ({} threads)", r.strategy, r.threads);
    println!("generation  {}", r.generation);
    println!("population  {}", r.population);
    if r.occupied != r.population {
        println!(
            "occupied    {} (live and dying: Golly's population)",
            r.occupied
        );
    }
    match r.bounds {
        Some([x0, y0, x1, y1]) => println!(
            "bounds      x {x0}..{x1}, y {y0}..{y1} ({} x {})",
            x1 - x0 + 1,
            y1 - y0 + 1
        ),
        None => println!("bounds      empty"),
    }
    println!(
        "memory      {} nodes, {:.1} MiB of {:.0} MiB, {} collections",
        r.nodes,
        r.memory_bytes as f64 / 1048576.0,
        r.memory_limit_bytes as f64 / 1048576.0,
        r.collections
    );
    if let Some(rss) = r.peak_rss_bytes {
        println!("peak rss    {:.1} MiB", rss as f64 / 1048576.0);
    }
    println!("load        {:.3} s", r.load_s);
    println!("elapsed     {:.3} s", r.elapsed_s);
}
