//! Golly's step model: a step is base^exponent generations (base 10 on grids, 8 where the
//! world hashes — HashLife's default, whose steps are then powers of two that its memo
//! keeps), and a negative exponent is a delay between single generations (250 ms at −1,
//! doubling to 2 s at −4). Faster and slower move the exponent; the window's step control,
//! its keys (+ − Tab) and the scripting layer's `setbase`/`setstep` all speak this one
//! value.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::Speed;

/// Golly's default shortest delay (exponent −1).
pub const MIN_DELAY: Duration = Duration::from_millis(250);
/// Golly's default longest delay; the exponent goes no lower than the one reaching it.
pub const MAX_DELAY: Duration = Duration::from_millis(2000);
/// The lowest exponent with Golly's default delays: 250, 500, 1000, 2000 ms at −1..−4.
pub const MIN_EXPONENT: i32 = -4;
/// The largest step golab takes: 2^120 generations (the hashed universe counts to 2^128).
pub const MAX_INCREMENT: u128 = 1 << 120;
/// Golly's smallest and largest base.
pub const BASES: std::ops::RangeInclusive<u32> = 2..=2_000_000_000;

/// A step: base^exponent generations, or a delay when the exponent is negative.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StepModel {
    /// The base; `None` uses the world's default ([`StepModel::default_base`]).
    pub base: Option<u32>,
    /// The exponent (negative: a delay of 250 ms × 2^(−exponent − 1)).
    pub exponent: i32,
}

impl StepModel {
    /// The default base: 8 where the world hashes (HashLife's), 10 on a grid (QuickLife's).
    pub fn default_base(hashing: bool) -> u32 {
        if hashing { 8 } else { 10 }
    }

    /// The base in force for a world that hashes or not.
    pub fn base_for(&self, hashing: bool) -> u32 {
        self.base
            .unwrap_or_else(|| StepModel::default_base(hashing))
    }

    /// Generations one step advances: base^exponent (1 at exponents ≤ 0), at most
    /// [`MAX_INCREMENT`].
    pub fn increment(&self, hashing: bool) -> u128 {
        if self.exponent <= 0 {
            return 1;
        }
        let base = u128::from(self.base_for(hashing));
        let mut n: u128 = 1;
        for _ in 0..self.exponent {
            n = n.saturating_mul(base).min(MAX_INCREMENT);
        }
        n
    }

    /// The largest exponent whose step stays within [`MAX_INCREMENT`].
    pub fn max_exponent(&self, hashing: bool) -> i32 {
        let base = f64::from(self.base_for(hashing));
        (MAX_INCREMENT as f64).log(base).floor() as i32
    }

    /// The delay between generations at a negative exponent (`None` at 0 and up).
    pub fn delay(&self) -> Option<Duration> {
        (self.exponent < 0).then(|| {
            let doublings = (-self.exponent - 1).min(16) as u32;
            (MIN_DELAY * 2u32.pow(doublings)).min(MAX_DELAY)
        })
    }

    /// One exponent up (Golly's Faster), within [`StepModel::max_exponent`].
    pub fn faster(&mut self, hashing: bool) {
        self.exponent = (self.exponent + 1).min(self.max_exponent(hashing));
    }

    /// One exponent down (Golly's Slower), to [`MIN_EXPONENT`] at most.
    pub fn slower(&mut self) {
        self.exponent = (self.exponent - 1).max(MIN_EXPONENT);
    }

    /// Set the base (Golly's Set Base Step; `setbase`): within [`BASES`].
    pub fn set_base(&mut self, base: u32) -> Result<(), String> {
        if !BASES.contains(&base) {
            return Err(format!(
                "the base step must be from {} to {}, not {base}",
                BASES.start(),
                BASES.end()
            ));
        }
        self.base = Some(base);
        Ok(())
    }

    /// What the status line says: "step 10^3", "delay 0.5 s".
    pub fn describe(&self, hashing: bool) -> String {
        match self.delay() {
            Some(d) => format!("delay {:.2} s", d.as_secs_f64()),
            None => format!("step {}^{}", self.base_for(hashing), self.exponent),
        }
    }

    /// The running speed: `per_frame` steps a frame (golab's speed) of base^exponent each,
    /// or one generation per delay, or as fast as possible (`max`).
    pub fn speed(&self, per_frame: u32, max: bool, hashing: bool) -> Speed {
        if max {
            return Speed::Max;
        }
        match self.delay() {
            Some(delay) => Speed::Every(delay),
            None => {
                let step = self.increment(hashing);
                let gens = step.saturating_mul(u128::from(per_frame.max(1)));
                Speed::PerFrame(u64::try_from(gens).unwrap_or(u64::MAX))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_base_to_the_exponent_and_negative_exponents_are_golly_delays() {
        let mut step = StepModel::default();
        assert_eq!(step.increment(false), 1);
        step.exponent = 3;
        assert_eq!(step.increment(false), 1000);
        assert_eq!(step.increment(true), 512);
        assert_eq!(step.describe(false), "step 10^3");
        let delays: Vec<_> = (-4..=-1)
            .rev()
            .map(|e| {
                StepModel {
                    base: None,
                    exponent: e,
                }
                .delay()
                .unwrap()
            })
            .collect();
        assert_eq!(
            delays,
            [250, 500, 1000, 2000].map(Duration::from_millis).to_vec()
        );
        for _ in 0..10 {
            step.slower();
        }
        assert_eq!(step.exponent, MIN_EXPONENT);
        assert_eq!(step.speed(1, false, false), Speed::Every(MAX_DELAY));
        assert_eq!(step.describe(false), "delay 2.00 s");
    }

    #[test]
    fn faster_stops_at_the_largest_step_and_bases_are_checked() {
        let mut step = StepModel::default();
        step.set_base(2).unwrap();
        for _ in 0..200 {
            step.faster(true);
        }
        assert_eq!(step.exponent, 120);
        assert_eq!(step.increment(true), MAX_INCREMENT);
        assert!(step.set_base(1).is_err());
        assert_eq!(step.base, Some(2));
        assert_eq!(step.speed(3, false, true), Speed::PerFrame(u64::MAX));
        step.exponent = 4;
        assert_eq!(step.speed(3, false, true), Speed::PerFrame(48));
        assert_eq!(step.speed(3, true, true), Speed::Max);
    }
}
