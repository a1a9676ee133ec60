//! What gpu-bitpacked's adaptive controller learns from: a timed batch, or — where the world
//! is loaded again and again and stepped over the same generations each time (the
//! benchmark's window, run from its start before every repeat) — a whole pass from one load
//! to the next.
//!
//! Why passes: a fresh soup's speed falls several-fold within a 2 000-generation window, and
//! the window is one to three batches long. Batches scored against the batches around them
//! (a bracket) then compare different parts of the window, and where each candidate lands
//! depends on how the batches happened to be sized: the shape chosen changed from process to
//! process. Passes over the same generations compare the same work: exact brackets, in any
//! order, however the batches inside were sized.
//!
//! ```text
//!   batches ──► Sampler ──(not repeating)──► a sample per timed batch; a load: a break
//!                  │
//!                  └─(two passes, load to load, over the same generations)──► repeating:
//!                     a sample per pass (one shape and births way throughout), at the load
//!                     that ends it; a pass that runs past them or an edit: a break, and
//!                     batches again
//! ```

use std::ops::Range;

use super::births::Births;
use super::tuner::Shape;

/// One batch as it ran.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Batch {
    /// The stream kernel's shape.
    pub shape: Shape,
    /// How it wrote births.
    pub births: Births,
    /// The generation it started at.
    pub start: u64,
    /// Generations stepped.
    pub gens: u64,
    /// Kernel seconds.
    pub seconds: f64,
    /// Whether it says enough to be timed (two dispatches or more, a time reported).
    pub timed: bool,
}

impl Batch {
    /// The batch as a sample (where it is timed).
    fn sample(&self) -> Sample {
        Sample {
            shape: self.shape,
            births: self.births,
            gens: self.gens,
            seconds: self.seconds,
        }
    }
}

/// What the controller learns: one shape and births way over `gens` generations in `seconds`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// The shape throughout.
    pub shape: Shape,
    /// The births way throughout.
    pub births: Births,
    /// Generations timed.
    pub gens: u64,
    /// Their kernel seconds.
    pub seconds: f64,
}

impl Sample {
    /// Seconds per generation.
    pub fn per_gen(&self) -> f64 {
        self.seconds / self.gens.max(1) as f64
    }
}

/// What the sampler says after a batch or a load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// Learn from this.
    Sample(Sample),
    /// What comes next does not compare with what came before (a load, an edit, a repeated
    /// world that stopped repeating): no bracket may span it.
    Break,
    /// The world now repeats (two passes over the same generations): samples are passes
    /// from here on, and what was learnt from batches of it is best started again.
    Repeating,
}

/// The timed batches since the last load.
#[derive(Debug, Clone)]
struct Pass {
    /// The timed batches' shape and births way (the first's) and their generations and
    /// kernel seconds, summed.
    sample: Sample,
    /// From the load's first batch to the last batch's end.
    range: Range<u64>,
    /// One shape and births way, timed batches end to end.
    clean: bool,
    /// An untimed batch came after the first timed one: a timed one after it spoils it.
    frozen: bool,
}

/// Turns batches and loads into [`Event`]s (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Sampler {
    repeating: bool,
    pass: Option<Pass>,
    /// Where the untimed batches since the load began, before any was timed.
    untimed_from: Option<u64>,
    /// The fingerprint of the world the pass under way started from.
    from: Option<u64>,
    /// The generations the last pass covered, and the world it started from.
    last: Option<(Range<u64>, Option<u64>)>,
}

impl Sampler {
    /// Whether samples are whole passes.
    pub fn repeating(&self) -> bool {
        self.repeating
    }

    /// A batch ran.
    pub fn batch(&mut self, b: Batch) -> Option<Event> {
        let end = b.start + b.gens;
        match self.pass.as_mut() {
            // Untimed batches before the first timed one (the load's first dispatch) start
            // the range: it runs from the load, whatever was timed.
            None if !b.timed => {
                self.untimed_from.get_or_insert(b.start);
            }
            None => {
                let start = self.untimed_from.take().unwrap_or(b.start);
                self.pass = Some(Pass {
                    sample: b.sample(),
                    range: start..end,
                    clean: true,
                    frozen: false,
                });
            }
            Some(p) => {
                if b.timed {
                    p.clean &= !p.frozen
                        && b.start == p.range.end
                        && (b.shape, b.births) == (p.sample.shape, p.sample.births);
                    p.sample.gens += b.gens;
                    p.sample.seconds += b.seconds;
                } else {
                    // A short batch at the end (a runt) leaves the pass clean; one in the
                    // middle spoils it (the timed generations no longer run end to end).
                    p.frozen = true;
                }
                p.range.end = end;
            }
        }
        if !self.repeating {
            return b.timed.then(|| Event::Sample(b.sample()));
        }
        let past = match (&self.pass, &self.last) {
            (Some(p), Some((last, _))) => p.range.end > last.end,
            _ => false,
        };
        past.then(|| self.stop_repeating())
    }

    /// A world fingerprinted `world` was loaded (the first time: nothing to close).
    pub fn loaded(&mut self, world: u64) {
        self.from = Some(world);
    }

    /// A world fingerprinted `world` was loaded again (stepping goes on from its
    /// generation); `None`: nothing to learn and nothing broken (a repeated world's pass
    /// that timed nothing, or mixed shapes: the passes around it still compare).
    pub fn load(&mut self, world: u64) -> Option<Event> {
        self.untimed_from = None;
        let from = self.from.replace(world);
        let Some(pass) = self.pass.take() else {
            return (!self.repeating).then_some(Event::Break);
        };
        let this = (pass.range.clone(), from);
        let same = from.is_some() && self.last.as_ref() == Some(&this);
        self.last = Some(this);
        Some(match (self.repeating, same) {
            (true, true) if pass.clean => Event::Sample(pass.sample),
            (true, true) => return None,
            (true, false) => self.stop_repeating(),
            (false, true) => {
                self.repeating = true;
                Event::Repeating
            }
            (false, false) => Event::Break,
        })
    }

    /// The world was edited: this pass repeats nothing.
    pub fn edited(&mut self) -> Event {
        self.last = None;
        self.from = None;
        self.pass = None;
        self.stop_repeating()
    }

    fn stop_repeating(&mut self) -> Event {
        self.repeating = false;
        self.pass = None;
        self.untimed_from = None;
        Event::Break
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: Shape = Shape { gens: 6, strip: 35 };
    /// The fingerprint of the world loaded.
    const WORLD: u64 = 7;

    fn batch(start: u64, gens: u64, shape: Shape) -> Batch {
        Batch {
            shape,
            births: Births::Direct,
            start,
            gens,
            seconds: gens as f64 * 1e-5,
            timed: gens >= 12,
        }
    }

    /// A window of `gens` generations from a load: one untimed dispatch, then batches of
    /// the given lengths, with `shape`; the events.
    fn window(s: &mut Sampler, lengths: &[u64], shape: Shape) -> Vec<Event> {
        let mut at = 6;
        let mut events: Vec<Event> = s.batch(batch(0, 6, shape)).into_iter().collect();
        for &n in lengths {
            events.extend(s.batch(batch(at, n, shape)));
            at += n;
        }
        events.extend(s.load(WORLD));
        events
    }

    #[test]
    fn batches_are_samples_until_two_passes_cover_the_same_generations() {
        let mut s = Sampler::default();
        s.loaded(WORLD);
        let first = window(&mut s, &[700, 1294], SHAPE);
        assert!(matches!(
            first[..],
            [Event::Sample(_), Event::Sample(_), Event::Break]
        ));
        let second = window(&mut s, &[1994], SHAPE);
        assert!(matches!(second[..], [Event::Sample(_), Event::Repeating]));
        assert!(s.repeating());
        // Now a pass is one sample however its batches are sized.
        let third = window(&mut s, &[500, 1494], SHAPE);
        assert_eq!(
            third,
            vec![Event::Sample(Sample {
                shape: SHAPE,
                births: Births::Direct,
                gens: 1994,
                seconds: 1994.0 * 1e-5,
            })]
        );
    }

    /// A sampler that has seen two equal passes from [`WORLD`]: repeating.
    fn repeating() -> Sampler {
        let mut s = Sampler::default();
        s.loaded(WORLD);
        window(&mut s, &[1994], SHAPE);
        window(&mut s, &[1994], SHAPE);
        s
    }

    #[test]
    fn a_mixed_pass_says_nothing_and_a_longer_one_ends_the_repeats() {
        let mut s = repeating();
        let other = Shape { gens: 6, strip: 12 };
        s.batch(batch(0, 6, SHAPE));
        s.batch(batch(6, 994, SHAPE));
        s.batch(batch(1000, 1000, other));
        assert_eq!(s.load(WORLD), None, "two shapes in one pass say nothing");
        assert!(s.repeating(), "but the generations were the same");
        // An untimed batch in the middle spoils a pass too.
        assert_eq!(window(&mut s, &[994, 6, 994], SHAPE), vec![]);
        // A pass that runs past the window's end: the world no longer repeats.
        let events = window(&mut s, &[1994, 600], SHAPE);
        assert_eq!(events[0], Event::Break);
        assert!(!s.repeating());
        assert_eq!(events[1], Event::Break, "the load after it");
    }

    #[test]
    fn a_pass_runs_from_the_load_whatever_was_timed() {
        // A first dispatch of 8 generations one time and 6 another, a runt at the end: the
        // same generations from load to load, so the world repeats.
        let mut s = Sampler::default();
        s.loaded(WORLD);
        let untimed = |start, gens| Batch {
            timed: false,
            ..batch(start, gens, SHAPE)
        };
        assert_eq!(s.batch(untimed(0, 8)), None);
        s.batch(batch(8, 1992, SHAPE));
        assert_eq!(s.load(WORLD), Some(Event::Break));
        s.batch(untimed(0, 6));
        s.batch(batch(6, 1990, SHAPE));
        s.batch(untimed(1996, 4));
        assert_eq!(s.load(WORLD), Some(Event::Repeating));
        s.batch(untimed(0, 6));
        s.batch(batch(6, 1994, SHAPE));
        assert!(
            matches!(s.load(WORLD), Some(Event::Sample(p)) if p.gens == 1994),
            "a runt at the end leaves the pass clean"
        );
    }

    #[test]
    fn another_world_over_the_same_generations_is_no_repeat() {
        let mut s = Sampler::default();
        s.loaded(WORLD);
        window(&mut s, &[1994], SHAPE);
        s.batch(batch(0, 6, SHAPE));
        s.batch(batch(6, 1994, SHAPE));
        // A second pass from world 7, then another world (8) of the same size is loaded.
        assert_eq!(s.load(8), Some(Event::Repeating));
        s.batch(batch(0, 6, SHAPE));
        s.batch(batch(6, 1994, SHAPE));
        assert_eq!(s.load(WORLD), Some(Event::Break), "from world 8: no repeat");
        assert!(!s.repeating());
        assert_eq!(window(&mut s, &[1994], SHAPE).last(), Some(&Event::Break));
        assert_eq!(
            window(&mut s, &[1994], SHAPE).last(),
            Some(&Event::Repeating)
        );
    }

    #[test]
    fn an_edit_ends_the_repeats() {
        let mut s = repeating();
        assert!(s.repeating());
        assert_eq!(s.edited(), Event::Break);
        assert!(!s.repeating());
        // The pass after the edit started from no known world: two more passes from the
        // loaded one are needed to repeat again.
        assert_eq!(window(&mut s, &[1994], SHAPE).last(), Some(&Event::Break));
        assert_eq!(window(&mut s, &[1994], SHAPE).last(), Some(&Event::Break));
        assert_eq!(
            window(&mut s, &[1994], SHAPE).last(),
            Some(&Event::Repeating)
        );
    }
}
