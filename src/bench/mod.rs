//! GPS benchmarks: every strategy × world size, warm-up excluded, median of repeats.
//!
//! Shared by `golab bench` (tables) and, later, the app. Timing is wall-clock around
//! `Stepper::step`, which for host strategies is the whole cost of a generation.

mod table;

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::rule::Rule;
use crate::step::{StepperFactory, Strategy};
use crate::world::{Topology, World};

pub use table::markdown_table;

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// Strategies to measure (rows).
    pub strategies: Vec<Strategy>,
    /// Square world edges to measure (columns).
    pub sizes: Vec<u32>,
    /// Generations per repeat; `None` picks enough for about `target_repeat_time`.
    pub gens: Option<u64>,
    /// Timed repeats per cell of the table (the median is reported).
    pub repeats: usize,
    /// Wall time one repeat aims for when `gens` is `None`.
    pub target_repeat_time: Duration,
    /// Soup density in percent.
    pub density: f64,
    /// Soup seed.
    pub seed: u64,
    /// Rule to run.
    pub rule: Rule,
    /// Topology to run.
    pub topology: Topology,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            strategies: Strategy::ALL.to_vec(),
            sizes: vec![512, 1024, 2048],
            gens: None,
            repeats: 5,
            target_repeat_time: Duration::from_millis(300),
            density: 50.0,
            seed: 1,
            rule: Rule::CONWAY,
            topology: Topology::Torus,
        }
    }
}

/// One measured (strategy, size) pair.
#[derive(Debug, Clone, Serialize)]
pub struct BenchResult {
    /// Strategy name.
    pub strategy: &'static str,
    /// World edge (the world is `size × size`).
    pub size: u32,
    /// Generations timed per repeat.
    pub gens_per_repeat: u64,
    /// GPS of each timed repeat, in run order.
    pub samples: Vec<f64>,
    /// Slowest repeat, in generations per second.
    pub gps_min: f64,
    /// Median repeat, in generations per second.
    pub gps_median: f64,
    /// Fastest repeat, in generations per second.
    pub gps_max: f64,
    /// Median cell updates per second (`gps_median × size²`).
    pub cell_updates_per_s: f64,
    /// Why this pair could not be measured, if it could not.
    pub error: Option<String>,
}

/// A whole benchmark run.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// Worker threads available to parallel strategies.
    pub threads: usize,
    /// Rule, topology, density of the soups.
    pub workload: String,
    /// One entry per (strategy, size), strategies outermost.
    pub results: Vec<BenchResult>,
}

/// Median of a non-empty slice (mean of the middle two for even lengths).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn measure(factory: &StepperFactory, strategy: Strategy, size: u32, cfg: &BenchConfig) -> Result<BenchResult, String> {
    let mut world = World::new(size, size, cfg.topology, cfg.rule).map_err(|e| e.to_string())?;
    world.fill_random(cfg.density, cfg.seed).map_err(|e| e.to_string())?;
    let mut stepper = factory.create(strategy, &world).map_err(|e| e.to_string())?;
    let mut timed = |gens: u64| -> Result<Duration, String> {
        let start = Instant::now();
        stepper.step(gens).map_err(|e| e.to_string())?;
        stepper.generation(); // host strategies are synchronous; GPU ones finish inside step
        Ok(start.elapsed())
    };
    // Warm-up (caches, thread pool, pipelines) doubles as calibration.
    let one = timed(1)?.max(Duration::from_nanos(1));
    let gens = cfg.gens.unwrap_or_else(|| {
        let fit = cfg.target_repeat_time.as_secs_f64() / one.as_secs_f64();
        (fit as u64).clamp(1, 100_000)
    });
    timed(gens.div_ceil(4))?;
    let samples = (0..cfg.repeats.max(1))
        .map(|_| timed(gens).map(|t| gens as f64 / t.as_secs_f64()))
        .collect::<Result<Vec<_>, _>>()?;
    let gps_median = median(&samples);
    Ok(BenchResult {
        strategy: strategy.name(),
        size,
        gens_per_repeat: gens,
        gps_min: samples.iter().copied().fold(f64::INFINITY, f64::min),
        gps_max: samples.iter().copied().fold(0.0, f64::max),
        gps_median,
        cell_updates_per_s: gps_median * f64::from(size) * f64::from(size),
        samples,
        error: None,
    })
}

/// Run the benchmark; `progress` hears one line per measurement as it starts.
pub fn run(cfg: &BenchConfig, factory: &StepperFactory, mut progress: impl FnMut(&str)) -> BenchReport {
    let mut results = Vec::new();
    for &strategy in &cfg.strategies {
        for &size in &cfg.sizes {
            progress(&format!("measuring {strategy} at {size}x{size}"));
            let result = measure(factory, strategy, size, cfg).unwrap_or_else(|error| BenchResult {
                strategy: strategy.name(),
                size,
                gens_per_repeat: 0,
                samples: vec![],
                gps_min: 0.0,
                gps_median: 0.0,
                gps_max: 0.0,
                cell_updates_per_s: 0.0,
                error: Some(error),
            });
            results.push(result);
        }
    }
    BenchReport {
        threads: rayon::current_num_threads(),
        workload: format!(
            "{} {} soup at {}% density, seed {}",
            cfg.rule, cfg.topology, cfg.density, cfg.seed
        ),
        results,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn a_tiny_run_measures_every_pair() {
        let cfg = BenchConfig {
            sizes: vec![16, 33],
            gens: Some(3),
            repeats: 3,
            ..BenchConfig::default()
        };
        let report = run(&cfg, &StepperFactory::cpu_only(), |_| {});
        assert_eq!(report.results.len(), Strategy::ALL.len() * 2);
        for r in &report.results {
            assert!(r.error.is_none(), "{r:?}");
            assert_eq!(r.samples.len(), 3);
            assert!(r.gps_min <= r.gps_median && r.gps_median <= r.gps_max, "{r:?}");
            assert!(r.gps_min > 0.0);
        }
        let table = markdown_table(&report);
        assert!(table.contains("| scalar |"), "{table}");
        assert!(table.contains("33²"), "{table}");
    }
}
