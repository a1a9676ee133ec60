//! GPS benchmarks: every strategy × world size, warm-up excluded, median of repeats.
//!
//! Shared by `golab bench` (tables) and, later, the app. Timing is wall-clock around
//! `Stepper::step`, which for host strategies is the whole cost of a generation.

pub mod hashed;
mod roofline;
mod table;
mod timing;
pub mod window;

use roofline::{add_roofline, measure_roofline};
use timing::{WarmUp, timed, warm_up};

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::gpu::heater::Heater;
use crate::rule::Rule;
use crate::step::{MemoryMode, StepperFactory, Strategy};
use crate::world::Topology;

pub use table::{markdown_table, matrix_table};

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
    /// Buffer size of the roofline measurements.
    pub roofline_bytes: u64,
    /// Generations the soup is stepped before anything is timed (0: a fresh soup; the
    /// `settled` phase steps 50 000).
    pub settle: u64,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            strategies: Strategy::ALL
                .iter()
                .copied()
                .filter(|s| s.in_bench_all())
                .collect(),
            sizes: vec![512, 1024, 2048],
            gens: None,
            repeats: 5,
            target_repeat_time: Duration::from_millis(300),
            density: 50.0,
            seed: 1,
            rule: Rule::CONWAY,
            topology: Topology::Torus,
            roofline_bytes: 256 << 20,
            settle: 0,
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
    /// Median *effective* cell updates per second (`gps_median × size²`: every cell counted
    /// as updated each generation, replayed strips included).
    pub cell_updates_per_s: f64,
    /// Memory mode of a GPU strategy that moves data host↔device.
    pub memory: Option<&'static str>,
    /// Median generations per second of kernel time alone (timestamp queries).
    pub compute_gps_median: Option<f64>,
    /// Kernel-time *effective* cell updates per second (`compute_gps_median × size²`).
    pub compute_cell_updates_per_s: Option<f64>,
    /// Share of the kernel's strips stepped rather than replayed in the last timed window
    /// (`None` where the kernel does not replay).
    pub stepped_share: Option<f64>,
    /// Kernel-time cell updates per second really computed: the effective figure times the
    /// share of strips stepped.
    pub stepped_cell_updates_per_s: Option<f64>,
    /// The least device bytes a generation moves: a u32 age read and written per cell for
    /// the cell-per-word strategies; for `gpu-bitpacked` its state planes read and written
    /// once per dispatch of several generations, for the strips stepped (birth codes, halos
    /// and repeat flags come on top). The roofline columns count only these bytes, so a real
    /// measurement stays at or under 100 %.
    pub device_bytes_per_gen: Option<f64>,
    /// Kernel-time bandwidth as % of the copy-kernel roofline.
    pub compute_roofline_pct: Option<f64>,
    /// Wall-time bandwidth (device bytes) as % of the copy-kernel roofline.
    pub wall_roofline_pct: Option<f64>,
    /// The time the strategy's transfers and device traffic imply at the measured
    /// ceilings, as % of the measured wall time per generation (100% = at the bound).
    pub transfer_bound_pct: Option<f64>,
    /// World-state bytes moved host↔device per generation in the timed repeats, as counted
    /// by the stepper (what defines the article's transfer strategies).
    pub transfer_bytes: Option<TransferBytes>,
    /// Which generations were timed, and the world's density and births at both ends.
    pub window: Option<window::Window>,
    /// The kernel and shape measured, where the strategy has a choice of them.
    pub kernel: Option<String>,
    /// The shape controller's latest decisions (`golab bench --verbose` prints them).
    pub decisions: Vec<String>,
    /// Why this pair could not be measured, if it could not.
    pub error: Option<String>,
}

/// Host↔device bytes per generation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct TransferBytes {
    /// Uploaded per generation.
    pub up: f64,
    /// Downloaded per generation.
    pub down: f64,
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
    /// Bandwidth ceilings measured in this run, when a GPU strategy was measured.
    pub roofline: Option<crate::gpu::roofline::Roofline>,
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

fn measure(
    factory: &StepperFactory,
    strategy: Strategy,
    size: u32,
    cfg: &BenchConfig,
) -> Result<BenchResult, String> {
    // Every repeat times the same generations: the world at the window's start is kept and
    // loaded again before each run, so the median compares like with like (a fresh soup's
    // speed changes from one window of generations to the next).
    let snapshot = window::start_world(factory, cfg, size)?;
    let mut stepper = factory
        .create(strategy, &snapshot)
        .map_err(|e| e.to_string())?;
    // The GPU is kept busy while the host re-loads the window's world (see gpu::heater): a
    // window of a fresh soup lasts milliseconds, and it would otherwise start on an idle,
    // clocked-down GPU.
    // (A CPU strategy opens no device: no adapter probing, no driver messages.)
    let heat = if strategy.is_gpu() {
        factory.gpu().ok().cloned()
    } else {
        None
    };
    let window_run = |stepper: &mut dyn crate::step::Stepper, gens: u64| {
        let heater = heat.clone().map(Heater::start);
        stepper.load(&snapshot).map_err(|e| e.to_string())?;
        if let Some(heater) = heater {
            heater.stop()?;
        }
        timed(stepper, gens)
    };
    // Warm-up (caches, thread pool, pipelines) doubles as calibration.
    let one = timed(stepper.as_mut(), 1)?
        .wall
        .max(Duration::from_nanos(1));
    let gens = cfg.gens.unwrap_or_else(|| {
        let fit = cfg.target_repeat_time.as_secs_f64() / one.as_secs_f64();
        (fit as u64).clamp(1, 100_000)
    });
    // Keep pathological configurations (zero-copy over PCIe, scalar at 16384²) bounded:
    // when one generation takes over a second, the calibration run was the warm-up.
    let warm = one <= Duration::from_secs(1);
    let begun = Instant::now();
    let clock = || begun.elapsed().as_secs_f64();
    let mut machine: Option<WarmUp> = None;
    let warm_up_again = |stepper: &mut dyn crate::step::Stepper, machine: &mut Option<WarmUp>| {
        if !warm {
            return Ok(());
        }
        warm_up(strategy.is_gpu(), stepper, machine, &clock, &mut |s| {
            window_run(s, gens).map(|r| r.kernel.unwrap_or(r.wall.as_secs_f64()))
        })
    };
    warm_up_again(stepper.as_mut(), &mut machine)?;
    let repeats = match one.as_secs_f64() {
        s if s > 5.0 => 1,
        s if s > 1.0 => cfg.repeats.clamp(1, 3),
        _ => cfg.repeats.max(1),
    };
    // A stepper that starts tuning again during the repeats (its world's speed moved) timed
    // candidate shapes: warm up again and time them all anew (WarmUp::retime says when).
    let mut runs = Vec::new();
    loop {
        runs.clear();
        let mut tuned_meanwhile = false;
        for _ in 0..repeats {
            runs.push(window_run(stepper.as_mut(), gens)?);
            tuned_meanwhile |= stepper.tuning();
        }
        let again = machine
            .as_mut()
            .is_some_and(|m| m.retime(clock(), tuned_meanwhile));
        if !again {
            break;
        }
        warm_up_again(stepper.as_mut(), &mut machine)?;
    }
    let start = window::Census::of(&snapshot);
    let end = window::Census::read(stepper.as_mut(), &snapshot)?;
    let timed_gens = (gens * repeats as u64) as f64;
    let transfer_bytes = strategy.is_gpu().then(|| TransferBytes {
        up: runs.iter().map(|r| r.up).sum::<u64>() as f64 / timed_gens,
        down: runs.iter().map(|r| r.down).sum::<u64>() as f64 / timed_gens,
    });
    let samples: Vec<f64> = runs
        .iter()
        .map(|r| gens as f64 / r.wall.as_secs_f64())
        .collect();
    let compute: Vec<f64> = runs
        .iter()
        .filter_map(|r| r.kernel)
        .filter(|g| *g > 0.0)
        .map(|g| gens as f64 / g)
        .collect();
    let gps_median = median(&samples);
    // The counters belong to the world loaded for the last repeat: its window.
    let report = stepper.take_report().map_err(|e| e.to_string())?;
    let compute_cells =
        (!compute.is_empty()).then(|| median(&compute) * f64::from(size) * f64::from(size));
    let stepped_share = report
        .as_ref()
        .filter(|r| r.replayed.is_some())
        .map(|r| r.stepped_share());
    let device_bytes_per_gen = report.as_ref().and_then(|r| r.bytes_per_gen_floor());
    Ok(BenchResult {
        strategy: strategy.name(),
        size,
        gens_per_repeat: gens,
        gps_min: samples.iter().copied().fold(f64::INFINITY, f64::min),
        gps_max: samples.iter().copied().fold(0.0, f64::max),
        gps_median,
        cell_updates_per_s: gps_median * f64::from(size) * f64::from(size),
        samples,
        transfer_bytes,
        window: Some(window::Window { start, end }),
        kernel: report.as_ref().and_then(|r| r.described()),
        decisions: machine
            .iter()
            .flat_map(|m| m.decisions().iter().cloned())
            .chain(report.map(|r| r.decisions).unwrap_or_default())
            .collect(),
        error: None,
        memory: None,
        compute_gps_median: (!compute.is_empty()).then(|| median(&compute)),
        compute_cell_updates_per_s: compute_cells,
        stepped_share,
        stepped_cell_updates_per_s: compute_cells.zip(stepped_share).map(|(c, s)| c * s),
        device_bytes_per_gen,
        compute_roofline_pct: None,
        wall_roofline_pct: None,
        transfer_bound_pct: None,
    })
}

/// Run the benchmark; `progress` hears one line per measurement as it starts.
pub fn run(
    cfg: &BenchConfig,
    factory: &StepperFactory,
    mut progress: impl FnMut(&str),
) -> BenchReport {
    let mut results = Vec::new();
    let roofline = measure_roofline(cfg, factory, &mut progress);
    for &strategy in &cfg.strategies {
        for &size in &cfg.sizes {
            progress(&format!("measuring {strategy} at {size}x{size}"));
            let result =
                measure(factory, strategy, size, cfg).unwrap_or_else(|error| BenchResult {
                    strategy: strategy.name(),
                    size,
                    gens_per_repeat: 0,
                    samples: vec![],
                    gps_min: 0.0,
                    gps_median: 0.0,
                    gps_max: 0.0,
                    cell_updates_per_s: 0.0,
                    transfer_bytes: None,
                    window: None,
                    kernel: None,
                    decisions: Vec::new(),
                    error: Some(error),
                    memory: None,
                    compute_gps_median: None,
                    compute_cell_updates_per_s: None,
                    stepped_share: None,
                    stepped_cell_updates_per_s: None,
                    device_bytes_per_gen: None,
                    compute_roofline_pct: None,
                    wall_roofline_pct: None,
                    transfer_bound_pct: None,
                });
            let mut result = result;
            if let (Some(roof), true) = (&roofline, result.error.is_none() && strategy.is_gpu()) {
                add_roofline(&mut result, strategy, factory, roof);
            }
            progress(&format!(
                "  {strategy} at {size}²: {} GPS wall{}{}",
                table::format_gps(result.gps_median),
                result
                    .compute_gps_median
                    .map(|c| format!(", {} GPS kernel", table::format_gps(c)))
                    .unwrap_or_default(),
                result
                    .window
                    .map(|w| format!("; {}", table::describe_window(&w)))
                    .unwrap_or_default()
                    + &result
                        .kernel
                        .as_ref()
                        .map(|k| format!("; {k}"))
                        .unwrap_or_default()
            ));
            results.push(result);
        }
    }
    BenchReport {
        threads: rayon::current_num_threads(),
        workload: format!(
            "{} {} soup at {}% density, seed {}, {}",
            cfg.rule,
            cfg.topology,
            cfg.density,
            cfg.seed,
            match cfg.settle {
                0 => "fresh".to_string(),
                n => format!("stepped {n} generations first"),
            }
        ),
        results,
        roofline,
    }
}

/// The reference article's six algorithms (rows of `--matrix`).
pub const MATRIX_STRATEGIES: [Strategy; 6] = [
    Strategy::GpuNaive,
    Strategy::GpuPadded,
    Strategy::GpuShared,
    Strategy::GpuStreamed,
    Strategy::GpuNoUpload,
    Strategy::GpuReadbackSkip,
];

/// The article's algorithms × memory modes at one size: one report per memory mode.
/// `on_mode` hears the reports so far after each mode (partial tables survive a time-out).
pub fn run_matrix(
    cfg: &BenchConfig,
    modes: &[MemoryMode],
    factory: &mut StepperFactory,
    mut progress: impl FnMut(&str),
    mut on_mode: impl FnMut(&[BenchReport]),
) -> Vec<BenchReport> {
    let mut reports = Vec::new();
    for &mode in modes {
        factory.gpu_settings.memory = mode;
        if let Some(reason) = factory.unavailable_reason(Strategy::GpuNaive) {
            progress(&format!("memory mode {mode} unavailable: {reason}"));
        }
        let cfg = BenchConfig {
            strategies: MATRIX_STRATEGIES.to_vec(),
            ..cfg.clone()
        };
        reports.push(run(&cfg, factory, &mut progress));
        on_mode(&reports);
    }
    reports
}

#[cfg(test)]
mod tests;
