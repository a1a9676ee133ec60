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
/// Longest the warm-up waits for a GPU stepper to choose its shape.
const TUNING_MOST: Duration = Duration::from_secs(60);
/// Windows' worth of generations a world being tuned runs on past its window's start before
/// it starts from there again: one, so the shape is chosen on the generations the window
/// times (a fresh soup's later generations, settled and replayed, favour other shapes); the
/// controller scores each candidate against the batches around it and never across a reload.
const TUNING_RUN_ON: u64 = 1;

/// Warm `stepper` up before its window of `gens` generations is timed. A CPU strategy runs
/// the window once (caches, thread pool). A GPU strategy steps the window's world (untimed)
/// whenever it is tuning its kernel shape ([`crate::step::Stepper::tuning`]; it may start
/// again when the world's speed moves, as when its births change way), and repeats the window
/// (`window`: its seconds) until two consecutive runs, with no tuning between them, agree
/// within 3 % and [`WARM_UP`]'s first bound has passed, at most its second bound after
/// tuning: a GPU that was idle — it is while the bench builds and reads back worlds — runs
/// compute-bound kernels several times slower for a while, and a window of a fresh soup can
/// be only milliseconds long.
pub(super) fn warm_up(
    gpu: bool,
    stepper: &mut dyn crate::step::Stepper,
    gens: u64,
    window: &mut dyn FnMut(&mut dyn crate::step::Stepper) -> Result<f64, String>,
) -> Result<(), String> {
    let begun = Instant::now();
    let mut last = window(stepper)?;
    if !gpu {
        return Ok(());
    }
    let mut settling = Instant::now();
    // The shape is tuned on the window's world: stepped on from the window's start, and
    // started again from it (the tuner carries on across the reload) once it has run
    // `TUNING_RUN_ON` windows past it, so a soup that settles meanwhile (and speeds up, where
    // strips are replayed) does not pick the shape.
    let mut run_on = u64::MAX;
    loop {
        if stepper.tuning() && begun.elapsed() < TUNING_MOST {
            if run_on >= TUNING_RUN_ON * gens {
                window(stepper)?;
                run_on = gens;
            } else {
                timed(stepper, gens)?;
                run_on += gens;
            }
            settling = Instant::now();
            last = f64::NAN;
            continue;
        }
        run_on = u64::MAX;
        let t = window(stepper)?;
        let agree = (t - last).abs() <= 0.03 * t.max(last) && !stepper.tuning();
        last = t;
        if (agree && settling.elapsed() >= WARM_UP.0) || settling.elapsed() >= WARM_UP.1 {
            return Ok(());
        }
    }
}
