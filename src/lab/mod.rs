//! The GPU-compute Lab: small experiments that reproduce GPU articles (bitonic sort,
//! transpose, subgroup shuffles, coalescing, scans, hashing, box sums) behind one [`Experiment`] trait, so the
//! desktop tab, `golab lab …` and the tests drive every experiment the same way.
//!
//! Every measurement validates the GPU result against a CPU result on fresh random input
//! first, then warms up, then times with timestamp queries (wall clock when the device has
//! none) and reports medians next to the copy bandwidth measured in the same run.

pub mod boxsum;
mod clock;
pub mod coalesce;
mod gpu;
pub mod hashing;
pub mod lookup;
mod permutations;
pub mod report;
pub mod scan;
mod scan_copy;
pub mod scan_shape;
pub mod scan_unrolled;
pub mod scanner;
pub mod shuffle;
pub mod sort;
mod sort_bench;
mod sort_kernels;
pub mod sort_onesweep;
pub mod sort_radix;
pub mod sort_radix8;
mod sort_rw;
mod start;
pub mod transpose;

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use thiserror::Error;

use crate::config::LabTuning;
use crate::gpu::GpuContext;
pub use permutations::shader_permutations;
pub use report::{LabReport, LabRow};
use start::{RunStart, begin, fresh_seed, selected_sizes, selected_variants};
pub use start::{parse_size, size_label};

/// A named variant of an experiment (a kernel or configuration), as listed to users.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Variant {
    /// Short name used on the command line (`--variants`).
    pub name: String,
    /// One line on what it does.
    pub description: String,
}

impl Variant {
    fn new(name: &str, description: &str) -> Variant {
        Variant {
            name: name.into(),
            description: description.into(),
        }
    }
}

/// The largest size an experiment can run on a device, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SizeLimit {
    /// Largest size (same unit as the experiment's sizes).
    pub max: u64,
    /// Which limit decides it.
    pub reason: String,
}

impl SizeLimit {
    /// The largest size whose data (`what`) fits one storage binding of `ctx`: `max_of` turns
    /// the binding's bytes into a size.
    pub fn one_binding(ctx: &GpuContext, what: &str, max_of: impl FnOnce(u64) -> u64) -> SizeLimit {
        let binding = ctx
            .limits
            .max_storage_buffer_binding_size
            .min(ctx.limits.max_buffer_size);
        SizeLimit {
            max: max_of(binding),
            reason: format!(
                "{what} in one storage binding of at most {} MiB",
                binding >> 20
            ),
        }
    }
}

/// What to run: empty lists mean "all variants" / "the experiment's default sizes".
#[derive(Debug, Clone)]
pub struct RunPlan {
    /// Variant names to run (see [`Experiment::variants`]); empty = all.
    pub variants: Vec<String>,
    /// Sizes to run (see [`Experiment::default_sizes`] for the unit); empty = defaults.
    pub sizes: Vec<u64>,
    /// Timed repeats per measurement (the median is reported); at least 1.
    pub repeats: usize,
    /// Sort: descending instead of ascending order (other experiments ignore it).
    pub descending: bool,
    /// The Lab's measuring switches (workgroup-memory zeroing, sort block size), passed in by
    /// the CLI or the app from [`crate::config::Tuning`]; the Lab reads no environment.
    pub tuning: LabTuning,
    /// What else uses the device during the run (the app's simulation), for the report's
    /// `beside` line; `None` when the caller does not know.
    pub beside: Option<String>,
}

impl Default for RunPlan {
    fn default() -> Self {
        RunPlan {
            variants: Vec::new(),
            sizes: Vec::new(),
            repeats: 5,
            descending: false,
            tuning: LabTuning::default(),
            beside: None,
        }
    }
}

/// Why an experiment stopped without a report.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LabError {
    /// The cancel flag was raised; the run stopped between two GPU submissions.
    #[error("cancelled")]
    Cancelled,
    /// A variant name the experiment does not know.
    #[error("unknown variant '{name}' of {experiment}; known: {known}")]
    UnknownVariant {
        /// Experiment name.
        experiment: String,
        /// The bad name.
        name: String,
        /// Comma-separated known names.
        known: String,
    },
    /// A size the experiment or this device cannot run.
    #[error("{0}")]
    BadSize(String),
    /// An experiment name that does not exist.
    #[error(
        "unknown experiment '{0}'; known: sort, transpose, shuffle, coalesce, scan, hashing, boxsum, lookup"
    )]
    UnknownExperiment(String),
    /// wgpu reported an error (validation, out of memory, lost device) caused by the Lab's
    /// own work (other threads' errors on the shared device are theirs).
    #[error("GPU error: {0}")]
    Gpu(String),
    /// A variant this device cannot run (e.g. no subgroups), and why.
    #[error("{0}")]
    Unsupported(String),
}

/// Called with (fraction done, what is running now) on every progress update.
pub type ProgressCallback = Arc<dyn Fn(f32, &str) + Send + Sync>;

/// Progress reporting and cancellation shared between a running experiment and its
/// caller (the app's progress bar and Cancel button, or the CLI's stderr lines).
#[derive(Clone, Default)]
pub struct Progress {
    cancel: Arc<AtomicBool>,
    fraction_bits: Arc<AtomicU32>,
    message: Arc<Mutex<String>>,
    callback: Option<ProgressCallback>,
    rows: Arc<Mutex<Vec<LabRow>>>,
}

impl Progress {
    /// A progress with no callback: poll [`Progress::fraction`] and [`Progress::message`].
    pub fn new() -> Progress {
        Progress::default()
    }

    /// A progress that also calls `callback(fraction, message)` on every update.
    pub fn with_callback(callback: impl Fn(f32, &str) + Send + Sync + 'static) -> Progress {
        Progress {
            callback: Some(Arc::new(callback)),
            ..Progress::default()
        }
    }

    /// The flag that cancels the run when set (share it with a Cancel button).
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// Ask the run to stop; it returns [`LabError::Cancelled`] after the current submission.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether cancellation was requested.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once cancellation was requested.
    pub fn check(&self) -> Result<(), LabError> {
        if self.is_cancelled() {
            Err(LabError::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Fraction of the run done, 0..=1.
    pub fn fraction(&self) -> f32 {
        f32::from_bits(self.fraction_bits.load(Ordering::Relaxed))
    }

    /// What the run is doing now.
    pub fn message(&self) -> String {
        self.message.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Add a finished row to the report being built, and share a copy with the caller so it
    /// can show rows as they come (the app's Lab table and plot stream through this).
    pub fn push_row(&self, rows: &mut Vec<LabRow>, row: LabRow) {
        if let Ok(mut shared) = self.rows.lock() {
            shared.push(row.clone());
        }
        rows.push(row);
        if let Some(cb) = &self.callback {
            cb(self.fraction(), &self.message());
        }
    }

    /// The rows finished so far, in run order.
    pub fn rows(&self) -> Vec<LabRow> {
        self.rows.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Record progress (called by experiments).
    pub fn update(&self, fraction: f32, message: &str) {
        let fraction = fraction.clamp(0.0, 1.0);
        self.fraction_bits
            .store(fraction.to_bits(), Ordering::Relaxed);
        if let Ok(mut m) = self.message.lock() {
            m.clear();
            m.push_str(message);
        }
        if let Some(cb) = &self.callback {
            cb(fraction, message);
        }
    }
}

/// One Lab experiment: its variants and sizes, and a run that validates and times them.
pub trait Experiment: Send + Sync {
    /// Short name (`sort`, `transpose`, `shuffle`, `coalesce`).
    fn name(&self) -> &'static str;
    /// One paragraph on what it measures.
    fn description(&self) -> &'static str;
    /// Kernels / configurations, in table order.
    fn variants(&self) -> Vec<Variant>;
    /// The variant called `name` (case-insensitive): one of [`Experiment::variants`], or a
    /// shaped form of one that the experiment also accepts (`gpu-onesweep@512x15`,
    /// `decoupled-look-back@256x16`: tile shapes to compare in one run); `None` when it
    /// knows no such variant.
    fn variant(&self, name: &str) -> Option<Variant> {
        self.variants()
            .into_iter()
            .find(|v| v.name.eq_ignore_ascii_case(name.trim()))
    }
    /// What a size means for this experiment (e.g. "elements", "matrix edge").
    fn size_unit(&self) -> &'static str;
    /// Sizes run when the plan names none.
    fn default_sizes(&self) -> Vec<u64>;
    /// Sizes run when the plan names none on a CPU device (lavapipe): the defaults, unless
    /// an experiment would take minutes there.
    fn cpu_device_sizes(&self) -> Vec<u64> {
        self.default_sizes()
    }
    /// The sizes run when the plan names none on `ctx`: [`Experiment::default_sizes`] on a
    /// GPU, [`Experiment::cpu_device_sizes`] on a CPU device, so that a default run there
    /// shows its first row within seconds.
    fn sizes_for(&self, ctx: &GpuContext) -> Vec<u64> {
        if ctx.info.device_type == wgpu::DeviceType::Cpu {
            self.cpu_device_sizes()
        } else {
            self.default_sizes()
        }
    }
    /// Largest size this device allows, and the limit that decides it.
    fn size_limit(&self, ctx: &GpuContext) -> SizeLimit;
    /// Validate and time the planned variants × sizes on `ctx`.
    fn run(
        &self,
        ctx: &std::sync::Arc<GpuContext>,
        plan: &RunPlan,
        progress: &Progress,
    ) -> Result<LabReport, LabError>;
}

/// Every experiment, in the Lab's order.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![
        Box::new(sort::SortExperiment),
        Box::new(transpose::TransposeExperiment),
        Box::new(shuffle::ShuffleExperiment),
        Box::new(coalesce::CoalesceExperiment),
        Box::new(scan::ScanExperiment),
        Box::new(hashing::HashingExperiment),
        Box::new(boxsum::BoxSumExperiment),
        Box::new(lookup::LookupExperiment),
    ]
}

/// The experiment called `name` (case-insensitive).
pub fn experiment(name: &str) -> Result<Box<dyn Experiment>, LabError> {
    experiments()
        .into_iter()
        .find(|e| e.name().eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| LabError::UnknownExperiment(name.to_string()))
}
