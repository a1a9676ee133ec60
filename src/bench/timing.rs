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
const WARM_UP: (f64, f64) = (0.5, 20.0);
/// Longest the warm-up waits for a GPU stepper to choose its shape, in seconds (a repeated
/// window is swept a pass at a time, each pass a reload of the window's world: about 80
/// passes, half a second each at 8192² on the H100).
const TUNING_MOST: f64 = 120.0;
/// Times the repeats are timed again when the stepper started tuning during them.
const RETIMES_MOST: u32 = 2;

/// What the warm-up does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// Run the window from its start, timed ([`WarmUp::window_took`] hears the time).
    Window,
    /// The stepper is tuning: run the window from its start, untimed (the shape is chosen
    /// on the generations the window times: a fresh soup's later generations, settled and
    /// replayed, favour other shapes; the controller carries on across the reload, scoring
    /// each candidate against the batches around it and never across one).
    Restart,
}

/// The bench's warm-up and re-timing, as a state machine driven by the clock and the
/// stepper's [`crate::step::Stepper::tuning`] (so tests drive it with fake timings): while
/// the stepper tunes its shape, the window is run from its start again and again, untimed
/// (the tuner carrying on across the reloads); once it
/// no longer tunes, the window is timed until two consecutive runs agree within 3 % and
/// [`WARM_UP`]'s first bound has passed since the last tuning (at most its second bound).
/// After the repeats, [`WarmUp::retime`] says whether they must be timed anew (the stepper
/// started tuning during them, so some of them timed candidate shapes). Every decision is
/// logged ([`WarmUp::decisions`]; `golab bench --verbose`).
#[derive(Debug)]
pub(super) struct WarmUp {
    /// Clock reading (seconds) when this warm-up began (the first or one after a re-time).
    began: f64,
    /// Clock reading (seconds) when the last tuning ended or the warm-up began.
    settling_since: f64,
    /// The last timed window's seconds (NaN after tuning: nothing to agree with).
    last: f64,
    /// Whether the last step was a tuning one (so its start is logged once).
    tuning: bool,
    retimes: u32,
    decisions: Vec<String>,
}

impl WarmUp {
    /// A warm-up for a window whose first (timed) run took `first` seconds, at clock
    /// reading `now`.
    pub(super) fn new(first: f64, now: f64) -> WarmUp {
        WarmUp {
            began: now,
            settling_since: now,
            last: first,
            tuning: false,
            retimes: 0,
            decisions: Vec::new(),
        }
    }

    /// Start warming up again at clock reading `now`, the window's first run having taken
    /// `first` seconds (after [`WarmUp::retime`]).
    pub(super) fn again(&mut self, first: f64, now: f64) {
        self.began = now;
        self.settling_since = now;
        self.last = first;
        self.tuning = false;
    }

    /// What to do at clock reading `now`, the stepper tuning or not (tuning is waited for
    /// up to [`TUNING_MOST`] seconds a warm-up).
    pub(super) fn next(&mut self, now: f64, tuning: bool) -> Next {
        if tuning && now - self.began < TUNING_MOST {
            if !self.tuning {
                self.log(
                    now,
                    "the stepper is tuning its shape: running the window untimed",
                );
            }
            self.tuning = true;
            self.settling_since = now;
            self.last = f64::NAN;
            return Next::Restart;
        }
        if tuning && self.tuning {
            self.log(
                now,
                &format!("still tuning after {TUNING_MOST:.0} s: timing anyway"),
            );
        }
        self.tuning = false;
        Next::Window
    }

    /// A timed window took `seconds` at clock reading `now`, the stepper tuning after it or
    /// not: whether the stepper is warm (time the repeats) or not (ask [`WarmUp::next`]).
    pub(super) fn window_took(&mut self, now: f64, seconds: f64, tuning: bool) -> bool {
        let agree = (seconds - self.last).abs() <= 0.03 * seconds.max(self.last) && !tuning;
        let last = std::mem::replace(&mut self.last, seconds);
        let settled_for = now - self.settling_since;
        if agree && settled_for >= WARM_UP.0 {
            self.log(
                now,
                &format!(
                    "windows agree ({:.3} ms, {:.3} ms): warm",
                    last * 1e3,
                    seconds * 1e3
                ),
            );
            true
        } else if settled_for >= WARM_UP.1 {
            self.log(now, "windows still disagree after 20 s: timing anyway");
            true
        } else {
            false
        }
    }

    /// Whether the repeats must be timed again: the stepper tuned during them (at most
    /// [`RETIMES_MOST`] times; the warm-up then starts [`WarmUp::again`]).
    pub(super) fn retime(&mut self, now: f64, tuned_meanwhile: bool) -> bool {
        if !tuned_meanwhile || self.retimes == RETIMES_MOST {
            return false;
        }
        self.retimes += 1;
        self.log(
            now,
            "the stepper tuned during the repeats: warming up and timing them again",
        );
        true
    }

    /// The decisions so far, oldest first.
    pub(super) fn decisions(&self) -> &[String] {
        &self.decisions
    }

    fn log(&mut self, now: f64, what: &str) {
        self.decisions
            .push(format!("warm-up at {now:.2} s: {what}"));
    }
}

/// Warm `stepper` up before its window is timed ([`WarmUp`]; `window`
/// runs the window from its start and returns its seconds; `clock` reads seconds since the
/// measurement began). A CPU strategy runs the window once (caches, thread pool). A GPU
/// strategy runs the state machine, carried in `machine` from one warm-up of a measurement
/// to the next: a GPU that was idle — it is while the bench builds and reads back worlds —
/// runs compute-bound kernels several times slower for a while, and a window of a fresh
/// soup can be only milliseconds long.
pub(super) fn warm_up(
    gpu: bool,
    stepper: &mut dyn crate::step::Stepper,
    machine: &mut Option<WarmUp>,
    clock: &dyn Fn() -> f64,
    window: &mut dyn FnMut(&mut dyn crate::step::Stepper) -> Result<f64, String>,
) -> Result<(), String> {
    let first = window(stepper)?;
    if !gpu {
        return Ok(());
    }
    let machine = match machine {
        Some(m) => {
            m.again(first, clock());
            m
        }
        None => machine.insert(WarmUp::new(first, clock())),
    };
    loop {
        match machine.next(clock(), stepper.tuning()) {
            Next::Restart => {
                window(stepper)?;
            }
            Next::Window => {
                let t = window(stepper)?;
                if machine.window_took(clock(), t, stepper.tuning()) {
                    return Ok(());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A world that tunes for a while: the warm-up runs the window untimed while it tunes
    /// (logged once), then times windows until two agree and half a second has passed since
    /// the tuning ended.
    #[test]
    fn tuning_steps_the_window_then_timing_waits_for_agreement() {
        let mut w = WarmUp::new(0.010, 0.0);
        let actions: Vec<Next> = (0..4).map(|k| w.next(0.1 * k as f64, true)).collect();
        assert_eq!(actions, [Next::Restart; 4]);
        assert_eq!(w.decisions().len(), 1);
        // Tuning was last seen at 0.3 s.
        assert_eq!(w.next(0.35, false), Next::Window);
        // Noisy windows (a GPU clocking up): 10 ms, 8 ms, 7 ms, 7.1 ms.
        assert!(!w.window_took(0.4, 0.010, false));
        assert!(!w.window_took(0.5, 0.008, false));
        assert!(!w.window_took(0.6, 0.007, false));
        // They agree, but only 0.4 s after tuning ended.
        assert!(!w.window_took(0.7, 0.0071, false));
        assert!(w.window_took(0.9, 0.0070, false));
        let log = w.decisions().join(
            "
",
        );
        assert!(
            log.contains("tuning its shape") && log.contains("agree"),
            "{log}"
        );
    }

    /// A window that never agrees (a settling world) is timed anyway after 20 s, and a
    /// stepper that tunes past two minutes is timed anyway.
    #[test]
    fn warm_up_is_bounded() {
        let mut w = WarmUp::new(0.01, 0.0);
        let mut t = 0.0;
        let mut speed = 0.01;
        let done = loop {
            t += 0.5;
            speed *= 0.9;
            if w.window_took(t, speed, false) {
                break t;
            }
        };
        assert_eq!(done, 20.0);
        let mut v = WarmUp::new(0.01, 0.0);
        assert_eq!(v.next(119.0, true), Next::Restart);
        assert_eq!(v.next(121.0, true), Next::Window);
        assert_eq!(v.next(122.0, true), Next::Window);
        assert_eq!(v.decisions().len(), 2, "logged once");
        assert!(v.decisions().last().unwrap().contains("120 s"));
        // Tuning after a timed window means it does not agree with anything.
        assert!(!v.window_took(121.1, 0.01, true));
        // The bound counts from each warm-up: one begun again at 130 s still waits at 240 s.
        v.again(0.01, 130.0);
        assert_eq!(v.next(240.0, true), Next::Restart);
        assert_eq!(v.next(251.0, true), Next::Window);
    }

    /// Repeats during which the stepper tuned are timed again, twice at most, each time
    /// after a fresh settling period.
    #[test]
    fn repeats_that_saw_tuning_are_timed_again_twice_at_most() {
        let mut w = WarmUp::new(0.01, 0.0);
        assert!(!w.retime(1.0, false));
        assert!(w.retime(2.0, true));
        w.again(0.01, 2.0);
        assert!(w.began == 2.0 && w.settling_since == 2.0);
        assert!(w.retime(3.0, true));
        assert!(!w.retime(4.0, true));
        assert_eq!(w.decisions().len(), 2);
    }
}
