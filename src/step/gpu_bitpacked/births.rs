//! Which way the stream kernel writes a block's births, chosen while the world runs.
//!
//! - **Direct**: one scattered 4-byte store per newborn cell into its birth code.
//! - **Records**: each word's births blended into its 32-byte epoch record (one coalesced load
//!   and store a word, whatever its number of births), folded into the birth codes at the
//!   end of the batch ([`super::records`]).
//!
//! Both are exact, so the way may change between any two batches. Records win where many
//! cells are born (a fresh soup), direct stores where few are (a settled soup, where a
//! record's load and the fold cost more than a store or two). [`BirthChooser`] times both on
//! the running world: it tries the other way on probe batches, at batch 1, 3, 7, 15, … and
//! then every [`PROBE_MAX`] batches (spaced out as many times as a probe was slower, up to
//! [`PROBE_SPACING_MOST`] times, so probes cost a few % however much slower the other way
//! is; a world whose best way changes then waits that much longer to switch), and switches when that way
//! took less time per generation than the current one's latest batch. Short batches of very
//! different lengths are not compared (a batch's fold is a fixed cost): such a probe is tried
//! again at the next probe. What it learnt outlives the world: the device keeps it per
//! world key with the shape ([`super::adaptive::Kept`]), so a world loaded again (the
//! benchmark before each repeat, the app on Reset) starts with the way last chosen and goes
//! on probing on schedule.

use crate::config::BirthChoice;

/// How a batch writes births.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Births {
    /// A store per newborn cell.
    Direct,
    /// Blended into per-word epoch records, folded at the end of the batch.
    Records,
}

impl Births {
    fn other(self) -> Births {
        match self {
            Births::Direct => Births::Records,
            Births::Records => Births::Direct,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The word the bench and the status line print.
    pub fn name(self) -> &'static str {
        match self {
            Births::Direct => "direct births",
            Births::Records => "births in records",
        }
    }
}

/// Most batches between two probes of the other way.
pub const PROBE_MAX: u64 = 32;

/// Batches of at least this many generations are compared whatever their lengths (a
/// batch's fixed costs, its fold and its first block, are small beside them).
const COMPARABLE_GENS: u64 = 128;

/// Most times its usual spacing a probe that lost waits (see [`BirthChooser::observe`]).
const PROBE_SPACING_MOST: f64 = 64.0;

/// A probe must be this much faster per generation to switch (timing noise is a few %).
pub const SWITCH_BELOW: f64 = 0.97;

/// Chooses [`Births`] per batch (see the module doc).
#[derive(Debug, Clone)]
pub struct BirthChooser {
    /// Forced by [`BirthChoice`], or `None` to choose.
    fixed: Option<Births>,
    current: Births,
    /// Seconds per generation and generations of each way's latest batch.
    latest: [Option<(f64, u64)>; 2],
    /// Batches observed, and the next one that probes.
    batches: u64,
    next_probe: u64,
    /// Batches were stepped while the shape was tuned: the latest timings are of other
    /// shapes and another world, and the first batch after it times the current way anew.
    stale: bool,
}

impl BirthChooser {
    /// A chooser for `choice`; direct stores first (a loaded pattern has few births).
    pub fn new(choice: BirthChoice) -> BirthChooser {
        BirthChooser {
            fixed: match choice {
                BirthChoice::Auto => None,
                BirthChoice::Direct => Some(Births::Direct),
                BirthChoice::Records => Some(Births::Records),
            },
            current: Births::Direct,
            latest: [None; 2],
            batches: 0,
            next_probe: 1,
            stale: false,
        }
    }

    /// The way the next batch writes births. While the kernel's shape is being tuned
    /// (`tuning`) no probe runs, so the shape is tuned in the current way.
    pub fn for_batch(&self, tuning: bool) -> Births {
        match self.fixed {
            Some(fixed) => fixed,
            None if !tuning && !self.stale && self.batches == self.next_probe => {
                self.current.other()
            }
            None => self.current,
        }
    }

    /// Batches write births `way` from now on (decided before the shape was swept:
    /// [`super::duel`]); probes go on as scheduled. A forced way stays.
    pub fn start_with(&mut self, way: Births) {
        self.current = way;
    }

    /// Whether the way is forced ([`BirthChoice`] other than auto) rather than chosen.
    pub fn forced(&self) -> bool {
        self.fixed.is_some()
    }

    /// The way batches write births now (probes aside).
    pub fn current(&self) -> Births {
        self.fixed.unwrap_or(self.current)
    }

    /// Hear that a batch written `way` stepped `gens` generations in `seconds`. Batches
    /// stepped while the kernel's shape is still being tuned (`tuning`) are not compared.
    pub fn observe(&mut self, way: Births, gens: u64, seconds: f64, tuning: bool) {
        if self.fixed.is_some() || gens == 0 {
            return;
        }
        if tuning {
            self.stale = true;
            return;
        }
        if std::mem::take(&mut self.stale) {
            // This batch (the current way: no probe runs while stale) is the reference the
            // next probe is compared with, not a time from before the tuning.
            self.latest = [None; 2];
            self.next_probe = self.next_probe.max(self.batches + 1);
        }
        let per_gen = seconds / gens as f64;
        let reference = self.latest[self.current.index()];
        self.latest[way.index()] = Some((per_gen, gens));
        if self.batches == self.next_probe && way != self.current {
            match reference {
                Some((time, length))
                    if length.max(gens) <= 2 * length.min(gens)
                        || length.min(gens) >= COMPARABLE_GENS =>
                {
                    // A probe that lost by a factor costs that factor in batches of the
                    // current way: the next waits as many times longer (replayed strips make
                    // direct stores many times faster than records on a settled soup).
                    // (A zero time's NaN counts as 1.)
                    let ratio = per_gen / time;
                    let lost_by = if ratio.is_nan() {
                        1.0
                    } else {
                        ratio.clamp(1.0, PROBE_SPACING_MOST)
                    };
                    let spacing = (self.next_probe + 1).min(PROBE_MAX) as f64 * lost_by;
                    self.next_probe += (spacing.ceil() as u64).max(1);
                    if per_gen < time * SWITCH_BELOW {
                        self.current = way;
                    }
                }
                // Nothing comparable yet: probe again, on the usual schedule (the engine
                // sizes a batch by the one before, so a probe after a much faster or slower
                // way is as long as that one's batches: a probe every other batch would
                // never be comparable and run the slower way half the time).
                _ => self.next_probe += (self.next_probe + 1).min(PROBE_MAX),
            }
        }
        self.batches += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run `batches` batches of 100 generations taking `cost(way, batch)` seconds each; the
    /// ways the batches were written.
    fn run(
        chooser: &mut BirthChooser,
        batches: u64,
        cost: impl Fn(Births, u64) -> f64,
    ) -> Vec<Births> {
        (0..batches)
            .map(|b| {
                let way = chooser.for_batch(false);
                chooser.observe(way, 100, cost(way, b), false);
                way
            })
            .collect()
    }

    /// The batches of `ways` written into records.
    fn records_batches(ways: &[Births]) -> Vec<usize> {
        (0..ways.len())
            .filter(|&i| ways[i] == Births::Records)
            .collect()
    }

    #[test]
    fn probes_early_then_every_few_batches() {
        let mut c = BirthChooser::new(BirthChoice::Auto);
        let probes = records_batches(&run(&mut c, 200, |_, _| 1.0));
        assert_eq!(&probes[..6], &[1, 3, 7, 15, 31, 63]);
        assert_eq!(probes[6] - probes[5], PROBE_MAX as usize);
        assert_eq!(
            c.current(),
            Births::Direct,
            "equal times keep the current way"
        );
    }

    #[test]
    fn batches_timed_at_zero_seconds_keep_the_probes_going() {
        // A device that reports no kernel time for a batch (nothing pending) gives 0 / 0.
        let mut c = BirthChooser::new(BirthChoice::Auto);
        let probes = records_batches(&run(&mut c, 300, |_, _| 0.0)).len();
        assert!(probes >= 8, "{probes} probes in 300 batches");
    }

    #[test]
    fn a_probe_far_slower_than_the_current_way_waits_as_many_times_longer() {
        // Records 20× slower (direct stores replaying a settled soup): after the early
        // probes, they take a few % of the time, not 20 / 32 of it.
        let mut c = BirthChooser::new(BirthChoice::Auto);
        let cost = |way, _| if way == Births::Records { 20.0 } else { 1.0 };
        let ways = run(&mut c, 4000, cost);
        let probes = records_batches(&ways);
        assert_eq!(&probes[..3], &[1, 41, 681], "{probes:?}");
        let time: f64 = ways.iter().map(|&w| cost(w, 0)).sum();
        let probe_time = 20.0 * probes.len() as f64;
        assert!(
            probe_time < 0.06 * time,
            "probes took {probe_time} of {time}"
        );
        assert_eq!(c.current(), Births::Direct);
    }

    #[test]
    fn switches_to_the_faster_way_and_back_when_the_world_changes() {
        let mut c = BirthChooser::new(BirthChoice::Auto);
        // A fresh soup: records take half the time; it settles at batch 100, where direct
        // stores take two thirds of the records' time.
        let ways = run(&mut c, 300, |way, b| match (way, b < 100) {
            (Births::Records, true) => 0.5,
            (Births::Direct, true) => 1.0,
            (Births::Records, false) => 1.5,
            (Births::Direct, false) => 1.0,
        });
        assert_eq!(ways[1], Births::Records, "the first probe");
        // Direct stores lose each probe by 2×, so probes come twice as far apart: 4 × 2,
        // 12 × 2, then 32 × 2 batches.
        let probes = [3, 11, 35, 99];
        for (b, way) in ways.iter().enumerate().take(100).skip(2) {
            let expected = if probes.contains(&b) {
                Births::Direct
            } else {
                Births::Records
            };
            assert_eq!(*way, expected, "batch {b}");
        }
        let back = ways[100..]
            .iter()
            .position(|w| *w == Births::Direct)
            .unwrap()
            + 100;
        assert!(
            back <= 100 + 2 * PROBE_MAX as usize + 1,
            "switched back at {back}"
        );
        assert!(
            ways[back + 2..]
                .iter()
                .filter(|w| **w == Births::Records)
                .count()
                <= 300 / PROBE_MAX as usize
        );
    }

    #[test]
    fn batches_of_very_different_lengths_are_not_compared() {
        let mut c = BirthChooser::new(BirthChoice::Auto);
        // Batch 0 steps one generation, the probe at batch 1 two hundred: not comparable,
        // so the probe is tried again at batch 3, after a batch of the current way.
        c.observe(c.for_batch(false), 1, 10.0, false);
        assert_eq!(c.for_batch(false), Births::Records);
        c.observe(Births::Records, 200, 200.0 * 5.0, false);
        assert_eq!(
            c.current(),
            Births::Direct,
            "no switch on an unfair comparison"
        );
        assert_eq!(c.for_batch(false), Births::Direct);
        c.observe(Births::Direct, 200, 200.0, false);
        assert_eq!(c.for_batch(false), Births::Records, "probed again");
        c.observe(Births::Records, 200, 100.0, false);
        assert_eq!(c.current(), Births::Records);
    }

    #[test]
    fn a_forced_way_is_kept_and_tuning_batches_are_not_compared() {
        let mut forced = BirthChooser::new(BirthChoice::Records);
        assert!(
            run(&mut forced, 50, |w, _| if w == Births::Records {
                9.0
            } else {
                1.0
            })
            .iter()
            .all(|w| *w == Births::Records)
        );
        let mut c = BirthChooser::new(BirthChoice::Auto);
        c.observe(c.for_batch(false), 100, 1.0, false);
        assert_eq!(c.for_batch(false), Births::Records, "batch 1 probes");
        assert_eq!(c.for_batch(true), Births::Direct, "but not while tuning");
        for _ in 0..40 {
            let way = c.for_batch(true);
            c.observe(
                way,
                100,
                if way == Births::Records { 0.1 } else { 1.0 },
                true,
            );
        }
        assert_eq!(c.current(), Births::Direct);
        // The probe waits for the tuning to end, and for one batch of the current way after
        // it: the time it is compared with is of the tuned shape, not one from before.
        assert_eq!(
            c.for_batch(false),
            Births::Direct,
            "a fresh reference first"
        );
        c.observe(Births::Direct, 100, 100.0 * 0.5, false);
        assert_eq!(c.for_batch(false), Births::Records, "then the probe");
        // Records at 0.6 s/gen would have beaten the 1.0 recorded before the tuning; against
        // the fresh 0.5 they lose.
        c.observe(Births::Records, 100, 100.0 * 0.6, false);
        assert_eq!(c.current(), Births::Direct);
    }
}
