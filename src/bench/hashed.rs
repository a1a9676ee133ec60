//! `golab bench --strategies hashlife`: the unbounded hashed universe timed the way
//! `golab run --strategy hashlife` runs it — a pattern (a file, or a soup of the bench's
//! density in a box of each size) built afresh for every repeat, then stepped to the target
//! generation — with generations reached per wall second and the memory it took.

use std::time::Instant;

use serde::Serialize;

use crate::hashlife::{Hashed, load};
use crate::rule::Rule;
use crate::universe::plane_states;
use crate::world::{Topology, World};

/// What the hashed universe starts from.
#[derive(Debug, Clone)]
pub enum HashSource {
    /// A pattern file, bundled name or apgcode.
    Pattern(String),
    /// A random soup of `density` % in a `size × size` box (seed `seed`).
    Soup {
        /// Box edge.
        size: u32,
        /// Percent of live cells.
        density: f64,
        /// Soup seed.
        seed: u64,
    },
}

/// One hashed measurement: a source stepped to a generation, repeated.
#[derive(Debug, Clone, Serialize)]
pub struct HashBench {
    /// The pattern or soup.
    pub source: String,
    /// Rule, canonical.
    pub rule: String,
    /// Generations stepped from the pattern's own generation.
    pub generations: u128,
    /// Wall seconds of each repeat's stepping (building the universe not included).
    pub samples_s: Vec<f64>,
    /// Median of `samples_s`.
    pub median_s: f64,
    /// Generations reached per wall second, at the median.
    pub gens_per_s: f64,
    /// Live cells at the end (the same in every repeat, checked).
    pub population: u128,
    /// Largest node-store size seen at the end of a repeat, bytes.
    pub store_bytes: usize,
    /// Garbage collections in the median repeat's universe.
    pub collections: u64,
    /// Threads a step used.
    pub threads: usize,
    /// Peak resident memory of the process so far (Linux), bytes.
    pub peak_rss_bytes: Option<u64>,
}

fn build(source: &HashSource, rule: Option<Rule>, limit: usize) -> Result<Hashed, String> {
    match source {
        HashSource::Pattern(name) => load::open(name, rule, limit)
            .map(|(u, _)| u)
            .map_err(|e| format!("{name}: {e}")),
        HashSource::Soup {
            size,
            density,
            seed,
        } => {
            let rule = rule.unwrap_or_default();
            let mut world =
                World::new(*size, *size, Topology::Torus, rule).map_err(|e| e.to_string())?;
            world
                .fill_random(*density, *seed)
                .map_err(|e| e.to_string())?;
            let mut u = Hashed::new(rule, limit).map_err(|e| e.to_string())?;
            u.load_states(plane_states(&world))
                .map_err(|e| e.to_string())?;
            Ok(u)
        }
    }
}

/// Time `source` stepped `generations` (one `2^j` step per set bit, as `golab run`
/// does), `repeats` times from a fresh universe each, under `limit` bytes.
pub fn run(
    source: &HashSource,
    rule: Option<Rule>,
    generations: u128,
    repeats: usize,
    limit: usize,
    threads: crate::hashlife::Threads,
) -> Result<HashBench, String> {
    let mut samples = Vec::new();
    let mut population = None;
    let mut store_bytes = 0;
    let mut collections = Vec::new();
    let mut used = 1;
    let mut canonical = String::new();
    for _ in 0..repeats.max(1) {
        let mut u = build(source, rule, limit)?;
        u.set_threads(threads);
        canonical = u.rule().canonical();
        let start = Instant::now();
        u.advance(generations, &|| false)
            .map_err(|e| e.to_string())?;
        samples.push(start.elapsed().as_secs_f64());
        let p = u.population();
        if population.is_some_and(|q| q != p) {
            return Err(format!(
                "repeats disagree: population {p} after {population:?}"
            ));
        }
        population = Some(p);
        let memory = u.memory();
        store_bytes = store_bytes.max(memory.bytes);
        collections.push(memory.collections);
        used = memory.threads;
    }
    let mut sorted = samples.clone();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    let median_s = sorted[mid];
    let median_at = samples.iter().position(|&s| s == median_s).unwrap_or(0);
    Ok(HashBench {
        source: match source {
            HashSource::Pattern(name) => name.clone(),
            HashSource::Soup {
                size,
                density,
                seed,
            } => format!("soup {size}x{size} {density}% seed {seed}"),
        },
        rule: canonical,
        generations,
        samples_s: samples,
        median_s,
        gens_per_s: generations as f64 / median_s.max(1e-9),
        population: population.unwrap_or(0),
        store_bytes,
        collections: collections[median_at],
        threads: used,
        peak_rss_bytes: crate::memory::peak_rss_bytes(),
    })
}

/// A Markdown table of hashed measurements.
pub fn markdown(results: &[Result<HashBench, String>]) -> String {
    let mut out = String::from(
        "| hashlife: source | rule | threads | generations | median s | gens / s | population | store MiB | GCs | peak RSS MiB |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        match r {
            Ok(b) => out.push_str(&format!(
                "| {} | {} | {} | {} | {:.3} | {:.3e} | {} | {:.1} | {} | {} |\n",
                b.source,
                b.rule,
                b.threads,
                b.generations,
                b.median_s,
                b.gens_per_s,
                b.population,
                b.store_bytes as f64 / 1048576.0,
                b.collections,
                b.peak_rss_bytes
                    .map_or("—".into(), |v| format!("{:.0}", v as f64 / 1048576.0)),
            )),
            Err(e) => out.push_str(&format!("| error: {e} | | | | | | | | | |\n")),
        }
    }
    out
}
