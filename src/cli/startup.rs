//! Where a `golab run`'s time went before and during its stepping: world, device, load
//! (packing and upload), the pipelines compiled on this thread, the stepping itself, and
//! the time from process start — the figures of a first launch.

use std::sync::OnceLock;
use std::time::Instant;

use serde::Serialize;

/// When `golab` started (set first thing in [`super::main`]).
pub static PROCESS_START: OnceLock<Instant> = OnceLock::new();

/// Seconds since [`PROCESS_START`].
pub fn since_start() -> f64 {
    PROCESS_START
        .get_or_init(Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// A run's start-up, in seconds.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StartUp {
    /// Building the world (soup, pattern, size).
    pub world_s: f64,
    /// Opening the GPU device (adapter, device, pipeline cache), on its own thread while
    /// the world is built; 0 for CPU strategies.
    pub device_s: f64,
    /// Loading the world into the strategy: packing, upload, the kernels it needs at once.
    pub load_s: f64,
    /// Of load and stepping, seconds spent compiling pipelines on this thread (the rest
    /// compile on a background thread).
    pub compile_s: f64,
    /// The stepping (`--gens`), its compiles included.
    pub stepping_s: f64,
    /// From process start to the last generation done.
    pub total_s: f64,
}

impl StartUp {
    /// One line for the text report.
    pub fn line(&self) -> String {
        format!(
            "world {:.2} s · device {:.2} s · load {:.2} s · stepping {:.2} s · of which compiling {:.2} s · {:.2} s from start",
            self.world_s, self.device_s, self.load_s, self.stepping_s, self.compile_s, self.total_s
        )
    }
}
