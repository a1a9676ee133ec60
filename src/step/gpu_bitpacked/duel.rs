//! The births way chosen before the shape is swept: the best shape depends on it (on a fresh
//! 8192² soup on the H100, 35-row strips win with births in records and lose badly with
//! direct stores, where shorter strips win), and the births chooser ([`super::births`])
//! probes only once the shape is tuned. Swept in the way the chooser would abandon a hundred
//! batches later, the shape was chosen for the wrong kernel.
//!
//! The duel times the two ways with the untuned shape, each records sample between two
//! direct ones (a bracket: a world whose speed moves under it favours neither), and picks
//! records when they took less than [`super::births::SWITCH_BELOW`] of the brackets on
//! average over [`ROUNDS`] rounds. The chooser then starts from that way and goes on
//! probing as usual once the shape is tuned.

use super::births::{Births, SWITCH_BELOW};

/// Records samples, each between two direct ones, before the way is decided.
pub const ROUNDS: usize = 2;
/// Samples ignored first (the GPU's clock may still be rising).
const SKIP: u32 = 1;

/// A duel between the two births ways (see the module documentation).
#[derive(Debug, Clone)]
pub struct Duel {
    skip: u32,
    /// Seconds per generation of the last direct sample.
    before: Option<f64>,
    /// Seconds per generation of the records sample after it, until the next direct one.
    pending: Option<f64>,
    /// Records over the mean of their brackets.
    scores: Vec<f64>,
}

impl Default for Duel {
    fn default() -> Self {
        Duel {
            skip: SKIP,
            before: None,
            pending: None,
            scores: Vec::new(),
        }
    }
}

impl Duel {
    /// The way the next batch writes births.
    pub fn way(&self) -> Births {
        if self.skip == 0 && self.before.is_some() && self.pending.is_none() {
            Births::Records
        } else {
            Births::Direct
        }
    }

    /// A sample written `way` ran at `per_gen` seconds a generation: the way chosen once
    /// the duel is over.
    pub fn observe(&mut self, way: Births, per_gen: f64) -> Option<Births> {
        if per_gen.is_nan() || per_gen <= 0.0 {
            return None;
        }
        match way {
            Births::Direct if self.skip > 0 => self.skip -= 1,
            Births::Direct => {
                if let (Some(records), Some(before)) = (self.pending.take(), self.before) {
                    self.scores.push(records / (0.5 * (before + per_gen)));
                }
                self.before = Some(per_gen);
            }
            Births::Records if self.before.is_some() && self.pending.is_none() => {
                self.pending = Some(per_gen)
            }
            Births::Records => {}
        }
        (self.scores.len() >= ROUNDS).then(|| {
            if self.score() < SWITCH_BELOW {
                Births::Records
            } else {
                Births::Direct
            }
        })
    }

    /// Records' time over direct stores', the mean of the rounds so far.
    pub fn score(&self) -> f64 {
        self.scores.iter().sum::<f64>() / self.scores.len().max(1) as f64
    }

    /// No bracket may span what just happened (a load, an edit).
    pub fn broken(&mut self) {
        self.before = None;
        self.pending = None;
    }

    /// A duel on a device already warm (a sweep starting again): no sample skipped.
    pub fn warm() -> Duel {
        Duel {
            skip: 0,
            ..Duel::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run the duel with `direct` and `records` seconds a generation (times `drift` after
    /// each sample, a world speeding up or slowing down); the way chosen and the samples.
    fn run(direct: f64, records: f64, drift: f64) -> (Births, Vec<Births>) {
        let mut duel = Duel::default();
        let mut ways = Vec::new();
        let mut scale = 1.0;
        for _ in 0..20 {
            let way = duel.way();
            ways.push(way);
            let t = scale
                * if way == Births::Records {
                    records
                } else {
                    direct
                };
            scale *= drift;
            if let Some(chosen) = duel.observe(way, t) {
                return (chosen, ways);
            }
        }
        panic!("no decision in 20 samples: {ways:?}");
    }

    #[test]
    fn records_win_where_they_are_faster_direct_stores_otherwise() {
        use Births::{Direct as D, Records as R};
        // Skipped, then D R D R D.
        assert_eq!(run(2.0, 1.0, 1.0), (R, vec![D, D, R, D, R, D]));
        assert_eq!(run(1.0, 2.0, 1.0).0, D);
        assert_eq!(run(1.0, 0.99, 1.0).0, D, "within the noise: keep direct");
        // A world slowing down 30 % a sample (a soup thinning out runs faster, a pattern
        // growing slower) favours neither way: the brackets take it out.
        assert_eq!(run(1.0, 0.9, 1.3).0, R);
        assert_eq!(run(1.0, 1.1, 1.3).0, D);
        assert_eq!(run(1.0, 0.9, 0.7).0, R);
        assert_eq!(run(1.0, 1.1, 0.7).0, D);
    }

    #[test]
    fn a_bracket_never_spans_a_break() {
        let mut duel = Duel::default();
        assert_eq!(duel.observe(Births::Direct, 1.0), None);
        assert_eq!(duel.observe(Births::Direct, 1.0), None);
        assert_eq!(duel.way(), Births::Records);
        assert_eq!(duel.observe(Births::Records, 0.1), None);
        duel.broken();
        // The records sample had no closing bracket: it is run again.
        assert_eq!(duel.way(), Births::Direct);
        assert_eq!(duel.observe(Births::Direct, 1.0), None);
        assert_eq!(duel.way(), Births::Records);
        assert!(duel.scores.is_empty());
    }
}
