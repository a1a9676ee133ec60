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
    shape: Shape,
    births: Births,
    range: Range<u64>,
    gens: u64,
    seconds: f64,
    /// One shape and births way, batches end to end, every one timed.
    clean: bool,
    /// An untimed batch came after the first timed one: a timed one after it spoils it.
    frozen: bool,
}

/// Turns batches and loads into [`Event`]s (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Sampler {
    repeating: bool,
    pass: Option<Pass>,
    /// The generations the last pass timed.
    last: Option<Range<u64>>,
}

impl Sampler {
    /// Whether samples are whole passes.
    pub fn repeating(&self) -> bool {
        self.repeating
    }

    /// A batch ran.
    pub fn batch(&mut self, b: Batch) -> Option<Event> {
        match self.pass.as_mut() {
            _ if !b.timed => {
                if let Some(p) = self.pass.as_mut() {
                    p.frozen = true;
                }
            }
            None => {
                self.pass = Some(Pass {
                    shape: b.shape,
                    births: b.births,
                    range: b.start..b.start + b.gens,
                    gens: b.gens,
                    seconds: b.seconds,
                    clean: true,
                    frozen: false,
                });
            }
            Some(p) => {
                p.clean &= !p.frozen
                    && b.start == p.range.end
                    && (b.shape, b.births) == (p.shape, p.births);
                p.range.end = b.start + b.gens;
                p.gens += b.gens;
                p.seconds += b.seconds;
            }
        }
        if !self.repeating {
            return b.timed.then_some(Event::Sample(Sample {
                shape: b.shape,
                births: b.births,
                gens: b.gens,
                seconds: b.seconds,
            }));
        }
        let past = match (&self.pass, &self.last) {
            (Some(p), Some(last)) => p.range.end > last.end,
            _ => false,
        };
        past.then(|| self.stop_repeating())
    }

    /// The world was loaded again (stepping goes on from its generation); `None`: nothing
    /// to learn and nothing broken (a repeated world's pass that timed nothing, or mixed
    /// shapes: the passes around it still compare).
    pub fn load(&mut self) -> Option<Event> {
        let Some(pass) = self.pass.take() else {
            return (!self.repeating).then_some(Event::Break);
        };
        let same = self.last.as_ref() == Some(&pass.range);
        self.last = Some(pass.range.clone());
        Some(match (self.repeating, same) {
            (true, true) if pass.clean => Event::Sample(Sample {
                shape: pass.shape,
                births: pass.births,
                gens: pass.gens,
                seconds: pass.seconds,
            }),
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
        self.pass = None;
        self.stop_repeating()
    }

    fn stop_repeating(&mut self) -> Event {
        self.repeating = false;
        self.pass = None;
        Event::Break
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: Shape = Shape { gens: 6, strip: 35 };

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
        events.extend(s.load());
        events
    }

    #[test]
    fn batches_are_samples_until_two_passes_cover_the_same_generations() {
        let mut s = Sampler::default();
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

    #[test]
    fn a_mixed_pass_says_nothing_and_a_longer_one_ends_the_repeats() {
        let mut s = Sampler::default();
        window(&mut s, &[1994], SHAPE);
        window(&mut s, &[1994], SHAPE);
        let other = Shape { gens: 6, strip: 12 };
        s.batch(batch(0, 6, SHAPE));
        s.batch(batch(6, 994, SHAPE));
        s.batch(batch(1000, 1000, other));
        assert_eq!(s.load(), None, "two shapes in one pass say nothing");
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
    fn an_edit_ends_the_repeats() {
        let mut s = Sampler::default();
        window(&mut s, &[1994], SHAPE);
        window(&mut s, &[1994], SHAPE);
        assert!(s.repeating());
        assert_eq!(s.edited(), Event::Break);
        assert!(!s.repeating());
        // Two more equal passes are needed to repeat again.
        assert_eq!(window(&mut s, &[1994], SHAPE).last(), Some(&Event::Break));
        assert_eq!(
            window(&mut s, &[1994], SHAPE).last(),
            Some(&Event::Repeating)
        );
    }
}
