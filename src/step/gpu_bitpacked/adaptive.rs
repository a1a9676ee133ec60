//! gpu-bitpacked's adaptive controller: before each batch it decides the stream kernel's
//! shape ([`ShapeController`]) and how the batch writes births ([`BirthChooser`]), and it
//! learns from each batch's kernel time, logging every decision in one log. The two share
//! one rule: while the shape is being tuned no births probe runs and no births timing is
//! compared, so every shape is timed the same way. One controller per world key is kept on
//! the device ([`Kept`]), so a world loaded again (the benchmark's repeats, the app's
//! Reset) goes on where the last one stopped. Submission sizing and the runner's batch
//! bound size batches around it (docs/architecture.md, "adaptive mechanisms").

use std::collections::VecDeque;

use super::births::{BirthChooser, Births};
use super::controller::ShapeController;
use super::tuner::{KeptByKey, Shape, Space, TuneKey};
use crate::config::BirthChoice;

/// Most births decisions the log keeps.
const LOG_MOST: usize = 16;

/// The shape and births controller of one world (see the module docs).
#[derive(Debug, Clone)]
pub struct Adaptive {
    /// `None` for the tile kernel, whose shape is fixed.
    shape: Option<ShapeController>,
    births: BirthChooser,
    /// How the batch being timed writes births.
    last: Births,
    /// Timed batches seen.
    batches: u64,
    /// Births decisions, each prefixed by its batch.
    log: VecDeque<String>,
}

impl Adaptive {
    /// A controller choosing the shape with `shape` (none: fixed) and births with `births`.
    pub fn new(shape: Option<ShapeController>, births: BirthChooser) -> Adaptive {
        Adaptive {
            shape,
            births,
            last: Births::Direct,
            batches: 0,
            log: VecDeque::new(),
        }
    }

    /// The shape (`fixed` where nothing chooses it) and births way of the next batch of
    /// `gens` generations.
    pub fn for_batch(&mut self, gens: u64, fixed: Shape) -> (Shape, Births) {
        let shape = self.shape.as_ref().map_or(fixed, |c| c.for_batch(gens));
        self.last = self.births.for_batch(self.tuning());
        (shape, self.last)
    }

    /// Hear that the batch [`Self::for_batch`] planned ran `shape` over `gens` generations
    /// in `seconds` of kernel time.
    pub fn observe(&mut self, shape: Shape, gens: u64, seconds: f64) {
        let tuning = self.tuning();
        let before = self.births.current();
        self.births.observe(self.last, gens, seconds, tuning);
        let now = self.births.current();
        if now != before {
            let per_gen = seconds / gens.max(1) as f64;
            self.note(format!(
                "batch {}: {} ({:.3} ms/gen on the probe)",
                self.batches,
                now.name(),
                per_gen * 1e3
            ));
        }
        if let Some(c) = self.shape.as_mut() {
            c.observe(shape, gens, seconds);
        }
        self.batches += 1;
    }

    fn note(&mut self, decision: String) {
        if self.log.len() == LOG_MOST {
            self.log.pop_front();
        }
        self.log.push_back(decision);
    }

    /// Whether the shape is still being found (births then stay as they are).
    pub fn tuning(&self) -> bool {
        self.shape.as_ref().is_some_and(ShapeController::tuning)
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

    /// The shape controller's state in words, or "fixed".
    pub fn state(&self) -> String {
        self.shape
            .as_ref()
            .map_or_else(|| "fixed".to_string(), ShapeController::state)
    }

    /// How batches write births now (probes aside).
    pub fn births(&self) -> Births {
        self.births.current()
    }

    /// The latest decisions: the shape's, then the births'.
    pub fn decisions(&self) -> Vec<String> {
        let shape = self.shape.iter().flat_map(|c| c.decisions());
        shape
            .map(str::to_string)
            .chain(self.log.iter().cloned())
            .collect()
    }

    /// A world of this key was loaded again (see [`ShapeController::reloaded`]).
    fn reloaded(&mut self) {
        if let Some(c) = self.shape.as_mut() {
            c.reloaded();
        }
    }
}

/// Each world key's controller on one device (a [`crate::gpu::GpuContext`] resource).
#[derive(Debug, Default)]
pub struct Kept(KeptByKey<Adaptive>);

impl Kept {
    /// The controller for a world of `key`: the one last kept for it goes on (its shape
    /// and, when births are left to timing, its births way and latest timings), else a new
    /// one over `space` (`None`: the tile kernel's fixed shape).
    pub fn controller(&self, key: &TuneKey, space: Option<Space>, births: BirthChoice) -> Adaptive {
        let new_births = || BirthChooser::new(births);
        match self.0.get(key) {
            Some(mut kept) => {
                kept.reloaded();
                // A forced way is never carried over: it would stop later worlds choosing.
                if births != BirthChoice::Auto || kept.births.forced() {
                    kept.births = new_births();
                }
                kept
            }
            None => Adaptive::new(space.map(ShapeController::new), new_births()),
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
            .map(|kept| kept.births)
            .filter(|births| !births.forced());
        match chosen {
            Some(births) => self.0.keep(
                key,
                &Adaptive {
                    births,
                    ..controller.clone()
                },
            ),
            None => self.0.keep(key, controller),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::gpu_bitpacked::kernel::StepKernel;

    fn key() -> TuneKey {
        TuneKey {
            width: 512,
            height: 512,
            rule: crate::rule::Rule::CONWAY,
            torus: true,
            kernel: StepKernel::Tile,
            fixed: (None, None),
        }
    }

    /// Batches of 96 generations: records cost `records`, direct stores `direct` seconds
    /// per generation, whatever the shape; the ways the batches wrote births.
    fn run(c: &mut Adaptive, batches: usize, direct: f64, records: f64) -> Vec<(bool, Births)> {
        (0..batches)
            .map(|_| {
                let (shape, births) = c.for_batch(96, Shape { gens: 6, strip: 12 });
                let per_gen = if births == Births::Records {
                    records
                } else {
                    direct
                };
                let tuning = c.tuning();
                c.observe(shape, 96, per_gen * 96.0);
                (tuning, births)
            })
            .collect()
    }

    #[test]
    fn births_wait_for_the_shape_then_switch_to_the_faster_way_and_say_so() {
        let space = Space::new(6, Some(6), None, 2048);
        let mut c = Adaptive::new(
            Some(ShapeController::new(space)),
            BirthChooser::new(BirthChoice::Auto),
        );
        // Records twice as fast: no probe while the shape tunes, then a switch, logged.
        let ways = run(&mut c, 400, 2e-5, 1e-5);
        assert!(
            ways.iter().filter(|w| w.0).all(|w| w.1 == Births::Direct),
            "a probe ran while the shape was tuning"
        );
        assert!(ways.iter().any(|w| w.0), "the shape tuned for a while");
        assert_eq!(c.births(), Births::Records);
        assert!(
            c.decisions()
                .iter()
                .any(|d| d.contains("births in records")),
            "{:?}",
            c.decisions()
        );
    }

    #[test]
    fn a_world_loaded_again_goes_on_where_the_last_one_stopped() {
        let kept = Kept::default();
        let space = Space::new(6, Some(6), None, 2048);
        let mut first = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto);
        run(&mut first, 400, 2e-5, 1e-5);
        kept.keep(key(), &first);
        let again = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto);
        assert_eq!(
            (again.births(), again.state()),
            (Births::Records, first.state())
        );
        // A forced way starts a chooser of its own; the shape still goes on. Kept, it does
        // not stop the next world from choosing.
        let forced = kept.controller(&key(), Some(space.clone()), BirthChoice::Direct);
        assert_eq!(
            (forced.births(), forced.state()),
            (Births::Direct, first.state())
        );
        kept.keep(key(), &forced);
        let after = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto);
        assert_eq!(
            after.births(),
            Births::Records,
            "the chosen way outlives a forced world"
        );
        // A forced way kept where nothing was chosen is not carried to a choosing world.
        let fresh = Kept::default();
        fresh.keep(key(), &forced);
        let mut choosing = fresh.controller(&key(), Some(space), BirthChoice::Auto);
        let ways = run(&mut choosing, 60, 2e-5, 1e-5);
        assert!(
            ways.iter().any(|w| w.1 == Births::Records),
            "it probes again"
        );
        // The tile kernel's shape is fixed: births are chosen from the first batch.
        let mut tile = Adaptive::new(None, BirthChooser::new(BirthChoice::Auto));
        run(&mut tile, 40, 2e-5, 1e-5);
        assert_eq!(
            (tile.births(), tile.state()),
            (Births::Records, "fixed".to_string())
        );
    }
}
