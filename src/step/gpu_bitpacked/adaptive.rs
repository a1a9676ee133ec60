//! gpu-bitpacked's adaptive controller: before each batch it decides the stream kernel's
//! shape ([`ShapeController`]) and how the batch writes births ([`BirthChooser`]), and it
//! learns from the kernel times of what ran ([`samples`](super::samples): batches, or whole
//! passes where the world is stepped over the same generations again and again), logging
//! every decision in one log. The order is fixed: first the births way ([`Duel`], with the
//! untuned shape), then the shape's sweep in that way, then both watched; while the shape
//! is being tuned no births probe runs and no births timing is compared, so every shape is
//! timed the same way. One controller per world key is kept on the device ([`Kept`]), so a
//! world loaded again (the benchmark's repeats, the app's Reset) goes on where the last one
//! stopped. Submission sizing and the runner's batch bound size batches around it
//! (docs/architecture.md, "adaptive mechanisms").

use std::collections::VecDeque;

use super::births::{BirthChooser, Births};
use super::controller::ShapeController;
use super::duel::Duel;
use super::samples::{Batch, Event, Sampler};
use super::tuner::{KeptByKey, Shape, Space, TuneKey, timed};
use crate::config::BirthChoice;

/// Most births decisions the log keeps.
const LOG_MOST: usize = 16;

/// The shape and births controller of one world (see the module docs).
#[derive(Debug, Clone)]
pub struct Adaptive {
    /// `None` for the tile kernel, whose shape is fixed.
    shape: Option<ShapeController>,
    births: BirthChooser,
    /// The duel choosing the births way before a sweep of the shape (while it runs).
    duel: Option<Duel>,
    sampler: Sampler,
    /// How the batch being timed writes births.
    last: Births,
    /// Samples learnt from (numbers the log where no shape controller does).
    samples: u64,
    /// Births decisions, each prefixed by its sample.
    log: VecDeque<String>,
}

impl Adaptive {
    /// A controller choosing the shape with `shape` (none: fixed) and births with `births`;
    /// where both are chosen, births first.
    pub fn new(shape: Option<ShapeController>, births: BirthChooser) -> Adaptive {
        let duel = (shape.as_ref().is_some_and(ShapeController::tuning) && !births.forced())
            .then(Duel::default);
        Adaptive {
            shape,
            births,
            duel,
            sampler: Sampler::default(),
            last: Births::Direct,
            samples: 0,
            log: VecDeque::new(),
        }
    }

    /// The shape (`fixed` where nothing chooses it) and births way of the next batch of
    /// `gens` generations.
    pub fn for_batch(&mut self, gens: u64, fixed: Shape) -> (Shape, Births) {
        let shape = match (&self.shape, &self.duel) {
            (None, _) => fixed,
            (Some(c), Some(_)) => c.shape(),
            (Some(c), None) => c.for_batch(gens),
        };
        self.last = match &self.duel {
            Some(duel) => duel.way(),
            None => self.births.for_batch(self.tuning()),
        };
        (shape, self.last)
    }

    /// Hear that the batch [`Self::for_batch`] planned ran `shape` over `gens` generations
    /// from generation `start` in `seconds` of kernel time.
    pub fn observe(&mut self, shape: Shape, start: u64, gens: u64, seconds: f64) {
        let batch = Batch {
            shape,
            births: self.last,
            start,
            gens,
            seconds,
            timed: timed(shape, gens, seconds),
        };
        if let Some(event) = self.sampler.batch(batch) {
            self.learn(event);
        }
    }

    /// The world was edited: what follows repeats nothing that came before.
    pub fn edited(&mut self) {
        let event = self.sampler.edited();
        self.learn(event);
    }

    fn learn(&mut self, event: Event) {
        let sample = match event {
            Event::Break => {
                if let Some(c) = self.shape.as_mut() {
                    c.reloaded();
                }
                if let Some(duel) = self.duel.as_mut() {
                    duel.broken();
                }
                return;
            }
            Event::Repeating => {
                self.note("the world repeats: timing whole passes".to_string());
                if let Some(c) = self.shape.as_mut() {
                    c.repeating();
                }
                self.duel_before_a_sweep();
                return;
            }
            Event::Sample(sample) => sample,
        };
        self.samples += 1;
        if let Some(duel) = self.duel.as_mut() {
            if let Some(way) = duel.observe(sample.births, sample.per_gen()) {
                let score = duel.score();
                self.duel = None;
                self.births.start_with(way);
                self.note(format!(
                    "{} before the shape is swept (records took {:.0} % of direct stores' \
                     time)",
                    way.name(),
                    100.0 * score
                ));
            }
            return;
        }
        let tuning = self.tuning();
        let before = self.births.current();
        self.births
            .observe(sample.births, sample.gens, sample.seconds, tuning);
        let now = self.births.current();
        if now != before {
            self.note(format!(
                "{} ({:.3} ms/gen on the probe)",
                now.name(),
                sample.per_gen() * 1e3
            ));
            // The shape was swept for the other way (a soup that settled: records chosen
            // while it was dense, direct stores once replay skips most strips).
            if let Some(c) = self.shape.as_mut() {
                c.sweep_again(&format!("{} now", now.name()));
            }
        }
        if let Some(c) = self.shape.as_mut() {
            let was_sweeping = c.sweeping();
            c.observe(sample.shape, sample.gens, sample.seconds);
            if !was_sweeping {
                self.duel_before_a_sweep();
            }
        }
    }

    /// A sweep of the shape starts (the world repeats, or its speed moved: see
    /// [`ShapeController`]): the births way is chosen again first, on the world as it is now.
    fn duel_before_a_sweep(&mut self) {
        if self.shape.as_ref().is_some_and(ShapeController::sweeping) && !self.births.forced() {
            self.duel = Some(Duel::warm());
        }
    }

    /// Log `decision`, numbered like the shape controller's (timed samples it saw; the
    /// samples learnt here where there is none), so the two logs merge in order.
    fn note(&mut self, decision: String) {
        if self.log.len() == LOG_MOST {
            self.log.pop_front();
        }
        let at = self
            .shape
            .as_ref()
            .map_or(self.samples, ShapeController::samples);
        self.log.push_back(format!("sample {at}: {decision}"));
    }

    /// Whether the births way or the shape is still being found (births probes then wait).
    pub fn tuning(&self) -> bool {
        self.duel.is_some() || self.shape.as_ref().is_some_and(ShapeController::tuning)
    }

    /// The chosen shape (`fixed` where nothing chooses it).
    pub fn shape(&self, fixed: Shape) -> Shape {
        self.shape.as_ref().map_or(fixed, ShapeController::shape)
    }

    /// Fewest generations per dispatch a batch may run with now (`fixed` likewise).
    pub fn least_gens(&self, fixed: u32) -> u32 {
        self.shape
            .as_ref()
            .map_or(fixed, ShapeController::least_gens)
    }

    /// The controller's state in words, or "fixed"; "(by passes)" where samples are whole
    /// passes over a repeated world.
    pub fn state(&self) -> String {
        let state = match (&self.shape, &self.duel) {
            (None, _) => "fixed".to_string(),
            (Some(_), Some(_)) => "choosing births".to_string(),
            (Some(c), None) => c.state(),
        };
        if self.sampler.repeating() {
            format!("{state} (by passes)")
        } else {
            state
        }
    }

    /// How batches write births now (probes aside).
    pub fn births(&self) -> Births {
        self.births.current()
    }

    /// The latest decisions, the shape's and the births', in the order of the samples they
    /// were made at (at one sample, the shape's first).
    pub fn decisions(&self) -> Vec<String> {
        let at = |d: &String| -> u64 {
            d.strip_prefix("sample ")
                .and_then(|rest| rest.split(':').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        let mut all: Vec<String> = self
            .shape
            .iter()
            .flat_map(|c| c.decisions())
            .map(str::to_string)
            .chain(self.log.iter().cloned())
            .collect();
        // Stable: the shape's first where both decided at one sample.
        all.sort_by_key(at);
        all
    }

    /// A world of this key was loaded again (`world`: its fingerprint).
    fn reloaded(&mut self, world: u64) {
        if let Some(event) = self.sampler.load(world) {
            self.learn(event);
        }
    }
}

/// Each world key's controller on one device (a [`crate::gpu::GpuContext`] resource).
#[derive(Debug, Default)]
pub struct Kept(KeptByKey<Adaptive>);

impl Kept {
    /// The controller for a world of `key`: the one last kept for it goes on (its shape
    /// and, when births are left to timing, its births way and latest timings), else a new
    /// one over `space` (`None`: the tile kernel's fixed shape). `world` fingerprints the
    /// world loaded: passes repeat one another only from the same world.
    pub fn controller(
        &self,
        key: &TuneKey,
        space: Option<Space>,
        births: BirthChoice,
        world: u64,
    ) -> Adaptive {
        let new_births = || BirthChooser::new(births);
        match self.0.get(key) {
            Some(mut kept) => {
                kept.reloaded(world);
                // A forced way is never carried over: it would stop later worlds choosing.
                if births != BirthChoice::Auto || kept.births.forced() {
                    kept.births = new_births();
                    kept.duel = None;
                }
                kept
            }
            None => {
                let mut new = Adaptive::new(space.map(ShapeController::new), new_births());
                new.sampler.loaded(world);
                new
            }
        }
    }

    /// Keep `controller` for `key`. A forced births way is not kept over a chosen one: the
    /// next world that chooses goes on from what the last choosing world learnt.
    pub fn keep(&self, key: TuneKey, controller: &Adaptive) {
        // Looked up only for a forced way (keeping runs after every batch).
        let chosen = controller
            .births
            .forced()
            .then(|| self.0.get(&key))
            .flatten()
            .map(|kept| (kept.births, kept.duel))
            .filter(|births| !births.0.forced());
        match chosen {
            // (The chosen world's duel only while a sweep still waits for it.)
            Some(births) => self.0.keep(
                key,
                &Adaptive {
                    births: births.0,
                    duel: births.1.filter(|_| {
                        controller
                            .shape
                            .as_ref()
                            .is_some_and(ShapeController::sweeping)
                    }),
                    ..controller.clone()
                },
            ),
            None => self.0.keep(key, controller),
        }
    }
}

#[cfg(test)]
mod tests;
