//! How a benchmark window is timed: one timed run (wall time, kernel time, traffic) and the
//! warm-up before the repeats.

use std::time::{Duration, Instant};

/// One timed run: wall time, kernel time (timestamps), host↔device bytes while stepping.
pub(super) struct Run {
    /// Wall time of the `step` call.
    pub(super) wall: Duration,
    /// Kernel seconds (timestamp queries), where the stepper reports them.
    pub(super) kernel: Option<f64>,
    /// World-state bytes uploaded while stepping.
    pub(super) up: u64,
    /// World-state bytes downloaded while stepping.
    pub(super) down: u64,
}

/// Step `gens` generations, timed.
pub(super) fn timed(stepper: &mut dyn crate::step::Stepper, gens: u64) -> Result<Run, String> {
    stepper.take_gpu_seconds();
    let before = stepper.transfer_counts();
    let start = Instant::now();
    stepper.step(gens).map_err(|e| e.to_string())?; // synchronous: GPU work is finished
    let wall = start.elapsed();
    let after = stepper.transfer_counts();
    Ok(Run {
        wall,
        kernel: stepper.take_gpu_seconds(),
        up: after.up - before.up,
        down: after.down - before.down,
    })
}

/// Least wall time a GPU strategy is kept stepping before it is timed, and the most.
const WARM_UP: (Duration, Duration) = (Duration::from_millis(500), Duration::from_secs(20));

/// Warm `stepper` up before its window of `gens` generations is timed. A CPU strategy runs
/// the window once (caches, thread pool). A GPU strategy first steps on (untimed) while it is
/// still tuning its kernel shape ([`crate::step::Stepper::tuning`]), then repeats the window
/// (`window`: its seconds) for at least [`WARM_UP`]'s first bound and until two consecutive
/// runs agree within 3 %, at most the second bound: a GPU that was idle — it is while the
/// bench builds and reads back worlds — runs compute-bound kernels several times slower for
/// a while, and a window of a fresh soup can be only milliseconds long.
pub(super) fn warm_up(
    gpu: bool,
    stepper: &mut dyn crate::step::Stepper,
    gens: u64,
    window: &mut dyn FnMut(&mut dyn crate::step::Stepper) -> Result<f64, String>,
) -> Result<(), String> {
    let begun = Instant::now();
    while gpu && stepper.tuning() && begun.elapsed() < WARM_UP.1 {
        timed(stepper, gens.max(64))?;
    }
    let mut last = window(stepper)?;
    if !gpu {
        return Ok(());
    }
    let settling = Instant::now();
    loop {
        let t = window(stepper)?;
        let agree = (t - last).abs() <= 0.03 * t.max(last);
        last = t;
        if (agree && settling.elapsed() >= WARM_UP.0) || begun.elapsed() >= WARM_UP.1 {
            return Ok(());
        }
    }
}
