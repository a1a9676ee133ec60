//! The one adaptive controller of gpu-bitpacked's stream-kernel shape: a sweep when a world
//! starts, then a watch that keeps the shape best while the world changes.
//!
//! ```text
//!   load ──► Sweeping ──(sweep done)──► Checking ──(both neighbours slower)──► Resting
//!               ▲                          │ (a neighbour ≥ 3 % faster: move)      │ │
//!               │                          ▼                                       │ │
//!               │                       Climbing ──(the next one is not)──► Resting │ │
//!               │                          ▲ (faster again: move on)               │ │
//!               │                          └──── every 16th timed batch: probe ◄──┘ │
//!               └─── speed moved over 2× (Drift), births switched, world repeats ───┘
//! ```
//!
//! **Sweeping** is the [`Tuner`]: every candidate shape timed twice, coarse then fine.
//! **Watching** (Checking, Climbing, Resting) times one batch of a *neighbour* shape — strips
//! a quarter more or a fifth fewer — between two batches of the chosen shape, and moves to it
//! when it beat the mean of the two by [`GAIN`] in [`CONFIRM`] probes in a row: a bracket, so
//! a world that speeds up or slows down while it is watched favours neither. After a move it probes on in the same direction
//! (Climbing) until a probe loses; at rest it probes every [`PROBE_EVERY`] timed batches,
//! alternating directions. A soup that settles is the case in point: its best strips go from
//! about 47 rows (fresh) to about 12 (settled, where replay skips nearly every strip and a
//! block lasts as long as its slowest stepped strip), gradually — a sweep at any one moment
//! picks that moment's best, the watch follows. When the chosen shape's own speed moves more
//! than 2× ([`Drift`]) the world is swept again: a far-away shape may now win.
//!
//! It hears samples ([`super::samples`]): batches, or whole passes once the world repeats,
//! when [`ShapeController::repeating`] sweeps again over passes. The births way is chosen
//! before each sweep, by the adaptive controller around it ([`super::duel`]).
//!
//! Every decision is logged ([`ShapeController::decisions`]: `golab bench --verbose` prints
//! them). The controller is kept per world key on the device ([`super::adaptive::Kept`]),
//! so a reloaded world goes on where the last one stopped.

use std::collections::VecDeque;

use super::tuner::{Shape, Space, Tuner, long_enough, timed};

/// How much faster (as a fraction) a neighbour must run than the bracket of the chosen shape's
/// batches around it to be chosen.
pub const GAIN: f64 = 0.03;
/// Timed batches of the chosen shape between probes at rest.
pub const PROBE_EVERY: u32 = 16;
/// How far apart the two batches of the chosen shape around a probe may be (as a fraction of
/// their mean) for the probe to count: a world whose speed changes that fast within three
/// batches (a fresh soup's first generations, in the benchmark's window started again and
/// again) bends the bracket, and the probe in its middle would look faster than it is.
pub const STEADY: f64 = 0.05;
/// Probes in a row a neighbour must win before the controller moves to it (one batch can be
/// slowed or sped by what else the device runs: the window's frames).
pub const CONFIRM: u32 = 2;
/// Decisions kept in the log.
const LOG: usize = 24;
/// The stage the controller is in.
#[derive(Debug, Clone)]
enum Stage {
    Sweeping(Tuner),
    Watching(Watch),
}

/// Chooses and keeps choosing a world's stream-kernel shape from the kernel times of its
/// batches (see the module's documentation for the state machine).
#[derive(Debug, Clone)]
pub struct ShapeController {
    space: Space,
    /// Whether samples are whole passes over a repeated world ([`super::samples`]).
    passes: bool,
    /// The chosen shape (the untuned one while the first sweep runs).
    shape: Shape,
    stage: Stage,
    drift: Drift,
    /// Timed samples seen, for the log (the adaptive controller numbers its own decisions
    /// with it too: [`ShapeController::samples`]).
    samples: u64,
    log: VecDeque<String>,
}

impl ShapeController {
    /// A controller over `space`: sweeping when there is a choice, else resting on the
    /// fixed shape.
    pub fn new(space: Space) -> ShapeController {
        let shape = space.untuned();
        let (stage, first) = match Tuner::new(space.clone()) {
            Some(tuner) => (Stage::Sweeping(tuner), "sweeping".to_string()),
            None => (
                Stage::Watching(Watch {
                    unchecked: Vec::new(),
                    ..Watch::new()
                }),
                format!("shape fixed: {}", describe(shape)),
            ),
        };
        let mut c = ShapeController {
            space,
            shape,
            stage,
            drift: Drift::default(),
            passes: false,
            samples: 0,
            log: VecDeque::new(),
        };
        c.note(first);
        c
    }

    /// The chosen shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The shape a batch of `gens` generations runs with: the sweep's candidate or a due
    /// probe where the batch is long enough to time it (two dispatches or more), else the
    /// chosen shape — a world stepped a generation at a time (the window at low speed)
    /// never times anything and should not run a poor candidate meanwhile.
    pub fn for_batch(&self, gens: u64) -> Shape {
        match &self.stage {
            Stage::Sweeping(tuner) => tuner.for_batch(gens),
            Stage::Watching(watch) => match watch.probe {
                Some(p) if p.seconds.is_none() && long_enough(p.shape, gens) => p.shape,
                _ => self.shape,
            },
        }
    }

    /// Fewest generations per dispatch a batch may run with now (sizes the batch).
    pub fn least_gens(&self) -> u32 {
        match &self.stage {
            Stage::Sweeping(tuner) => tuner.least_gens(),
            Stage::Watching(_) => self.shape.gens,
        }
    }

    /// Whether the shape is still being found: sweeping, checking the neighbours or
    /// climbing (its speed now is not its steady speed: benchmarks keep warming up).
    pub fn tuning(&self) -> bool {
        match &self.stage {
            Stage::Sweeping(_) => true,
            Stage::Watching(w) => {
                w.climbing.is_some() || w.confirming.is_some() || !w.unchecked.is_empty()
            }
        }
    }

    /// Where it stands, in words (`"sweeping: 12 of 48 timed"`, `"watching"`…).
    pub fn state(&self) -> String {
        match &self.stage {
            Stage::Sweeping(t) => {
                format!("sweeping: {} of {} timed", t.progress().0, t.progress().1)
            }
            Stage::Watching(w) if !w.unchecked.is_empty() => "checking neighbours".into(),
            Stage::Watching(w) if w.climbing.is_some() || w.confirming.is_some() => {
                "climbing".into()
            }
            Stage::Watching(_) => "tuned".into(),
        }
    }

    /// The latest decisions, oldest first, each prefixed by the timed sample it was made at.
    pub fn decisions(&self) -> impl Iterator<Item = &str> {
        self.log.iter().map(String::as_str)
    }

    /// What comes next does not compare with what came before (a world of this key loaded
    /// again, an edit): no bracket spans it. A reloaded world's first batch, which steps
    /// every strip (replay has no flags yet), is one dispatch, too short to be timed.
    pub fn reloaded(&mut self) {
        // A break ends a repeated world's passes: samples are batches again, and a sweep by
        // passes (several candidates a bracket, fine only for the same work each) starts
        // again by batches.
        let was_passes = std::mem::take(&mut self.passes);
        // The drift watch compares medians of consecutive batches: none may span a reload
        // (the benchmark's window starts again: slow dense generations after fast late ones).
        self.drift.forget_recent();
        if was_passes && self.sweeping() {
            self.start_sweep("the world no longer repeats: sweeping again by batches".into());
            return;
        }
        match &mut self.stage {
            Stage::Sweeping(tuner) => tuner.reloaded(),
            Stage::Watching(w) => {
                w.probe = None;
            }
        }
    }

    /// The world now repeats ([`super::samples`]): samples are whole passes from here on,
    /// and the shape is swept again over them (what was learnt from batches bracketed
    /// different parts of the repeated stretch, and the passes are what is timed).
    pub fn repeating(&mut self) {
        self.passes = true;
        self.drift = Drift::default();
        if !self.start_sweep("sweeping again over whole passes".into())
            && let Stage::Watching(w) = &mut self.stage
        {
            w.probe = None;
        }
    }

    /// Sweep again now, for the reason given (the births way changed: the best strip
    /// depends on it); a sweep under way goes on.
    pub fn sweep_again(&mut self, why: &str) {
        if !self.sweeping() {
            self.start_sweep(format!("{why}: sweeping again"));
        }
    }

    /// Start a new sweep (by passes where samples are), logging `why`; false where the
    /// space is closed (nothing to sweep).
    fn start_sweep(&mut self, why: String) -> bool {
        let Some(tuner) = self.begin_sweep(why) else {
            return false;
        };
        self.stage = Stage::Sweeping(tuner);
        true
    }

    /// A new sweep's tuner, logging `why` and forgetting the drift watch's history; `None`
    /// (and nothing logged) where the space is closed.
    fn begin_sweep(&mut self, why: String) -> Option<Tuner> {
        let tuner = self.sweep()?;
        self.note(why);
        self.drift = Drift::default();
        Some(tuner)
    }

    /// Timed samples seen so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Whether a sweep is under way.
    pub fn sweeping(&self) -> bool {
        matches!(self.stage, Stage::Sweeping(_))
    }

    /// A new sweep over this space (none where it is closed), by passes where samples are.
    fn sweep(&self) -> Option<Tuner> {
        let tuner = Tuner::new(self.space.clone())?;
        Some(if self.passes {
            tuner.by_passes()
        } else {
            tuner
        })
    }

    /// A batch of `gens` generations ran with `shape` in `seconds` of kernel time. Batches
    /// too short to time (fewer than two dispatches) and batches of shapes not asked for are
    /// ignored.
    pub fn observe(&mut self, shape: Shape, gens: u64, seconds: f64) {
        if !timed(shape, gens, seconds) {
            return;
        }
        self.samples += 1;
        let per_gen = seconds / gens as f64;
        let stage = std::mem::replace(&mut self.stage, Stage::Watching(Watch::new()));
        self.stage = match stage {
            Stage::Sweeping(mut tuner) => match tuner.observe(shape, gens, seconds) {
                Some(best) => {
                    self.note(format!("swept: {}", describe(best)));
                    self.shape = best;
                    self.drift = Drift::default();
                    Stage::Watching(Watch::new())
                }
                None => Stage::Sweeping(tuner),
            },
            Stage::Watching(watch) => self.watch(watch, shape, per_gen),
        };
    }

    fn watch(&mut self, mut w: Watch, shape: Shape, per_gen: f64) -> Stage {
        if let Some(p) = w
            .probe
            .as_mut()
            .filter(|p| p.shape == shape && p.seconds.is_none())
        {
            p.seconds = Some(per_gen);
            return Stage::Watching(w);
        }
        if shape != self.shape {
            return Stage::Watching(w);
        }
        if let Some(Probe {
            shape: probed,
            direction,
            before,
            seconds: Some(seconds),
        }) = w.probe.take()
        {
            let bracket = 0.5 * (before + per_gen);
            if (before - per_gen).abs() > STEADY * bracket {
                // The world's speed moved under the probe: it says nothing. That direction
                // counts as checked (a world that never holds still is not tuned forever);
                // the next probe at rest tries again.
                let busy = w.climbing.take().is_some() | w.confirming.take().is_some();
                if busy || !w.unchecked.is_empty() {
                    self.note(format!(
                        "probe of {} discarded: the speed moved {:.0} % under it",
                        describe(probed),
                        100.0 * (before - per_gen).abs() / bracket
                    ));
                }
                w.unchecked.retain(|&d| d != direction);
                w.since_probe = 0;
                return Stage::Watching(w);
            }
            let won = seconds < (1.0 - GAIN) * bracket;
            let wins = match w.confirming.take() {
                Some((d, n)) if d == direction => n,
                _ => 0,
            } + u32::from(won);
            if won && wins < CONFIRM {
                w.confirming = Some((direction, wins));
            }
            w.unchecked
                .retain(|&d| d != direction || w.confirming.is_some());
            if won && wins >= CONFIRM {
                self.note(format!(
                    "moved {} → {} ({:.1} % faster)",
                    describe(self.shape),
                    describe(probed),
                    100.0 * (bracket / seconds - 1.0)
                ));
                self.shape = probed;
                self.drift = Drift::default();
                w.unchecked.clear();
                w.climbing = Some(direction);
                w.since_probe = 0;
                return Stage::Watching(w);
            }
            // (A first win is probed again before moving.)
            if !won && (w.climbing.take().is_some() || w.unchecked.is_empty()) {
                self.note(format!(
                    "kept {} ({} took {:+.1} %)",
                    describe(self.shape),
                    describe(probed),
                    100.0 * (seconds / bracket - 1.0)
                ));
            }
        } else if w.climbing.is_none()
            && w.unchecked.is_empty()
            && self.drift.observe(per_gen)
            && let Some(tuner) = self.begin_sweep(format!(
                "speed of {} moved more than {RETUNE_FACTOR}×: sweeping again",
                describe(self.shape)
            ))
        {
            // (observe sets the stage this returns.)
            return Stage::Sweeping(tuner);
        }
        w.since_probe += 1;
        while let Some(direction) = w.due() {
            match neighbour(self.shape, direction, self.space.rows) {
                Some(next) if self.space.strip.is_none() => {
                    w.probe = Some(Probe {
                        shape: next,
                        direction,
                        before: per_gen,
                        seconds: None,
                    });
                    w.since_probe = 0;
                    break;
                }
                // Nothing that way (the end of the range, or a strip the user fixed).
                _ => {
                    w.unchecked.retain(|&d| d != direction);
                    if w.climbing.take().is_none() {
                        w.since_probe = 0;
                        break;
                    }
                }
            }
        }
        Stage::Watching(w)
    }

    fn note(&mut self, what: String) {
        if self.log.len() == LOG {
            self.log.pop_front();
        }
        self.log
            .push_back(format!("sample {}: {what}", self.samples));
    }
}

fn describe(shape: Shape) -> String {
    format!("{} gens × {}-row strips", shape.gens, shape.strip)
}

mod drift;
mod watch;

#[cfg(test)]
use drift::DRIFT_WINDOW;
pub use drift::{Drift, RETUNE_FACTOR};
#[cfg(test)]
use watch::{Direction, MIN_STRIP};
use watch::{Probe, Watch, neighbour};

#[cfg(test)]
mod tests;
