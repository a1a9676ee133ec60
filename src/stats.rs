//! Population and age-distribution statistics.
//!
//! The age distribution follows the reference app's normalized age, counted in generations
//! survived: a live cell's *normalized age* is `(age − 1) * 100 / generation` — 0 for a
//! newborn or freshly painted cell at any generation (generation 0 included), 100 for a
//! cell alive since generation 0 — and cells are counted into `buckets` equal brackets of
//! 0..=100. The view colours cells by the same number, so the histogram's bars and the
//! world's colours agree.

use serde::{Deserialize, Serialize};

/// Default number of age brackets, as in the reference app.
pub const DEFAULT_BUCKETS: usize = 5;

/// A snapshot of a world's statistics at one generation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Generation the statistics describe.
    pub generation: u64,
    /// Live cells.
    pub population: u64,
    /// Live cells per normalized-age bracket, youngest first.
    pub histogram: Vec<u64>,
    /// Dying cells (states 2..C-1 of a Generations rule; 0 under other rules). Not part of
    /// `population`, which counts live cells only.
    #[serde(default)]
    pub dying: u64,
    /// Cells per state for states 2 and up (index = state; 0 and 1 stay 0: dead cells are
    /// the rest, state 1 is `population`), up to the highest state present; empty where
    /// the strategy does not count them (gpu-bitpacked's one dying total, the hashed plane).
    #[serde(default)]
    pub per_state: Vec<u64>,
}

/// Normalized age in 0..=100 of a live cell of `age` (≥ 1) at `generation`: the
/// generations it survived, `age − 1`, as a percentage of the generation.
#[inline]
pub fn normalized_age(age: u32, generation: u64) -> u64 {
    (u64::from(age.saturating_sub(1)) * 100 / generation.max(1)).min(100)
}

/// The bracket (0..buckets) a live cell of `age` falls in at `generation`.
#[inline]
pub fn bucket_of(age: u32, generation: u64, buckets: usize) -> usize {
    let buckets = buckets.max(1) as u64;
    (normalized_age(age, generation) * buckets / 100).min(buckets - 1) as usize
}

impl Stats {
    /// Empty statistics with `buckets` brackets.
    pub fn empty(generation: u64, buckets: usize) -> Self {
        Stats {
            generation,
            population: 0,
            histogram: vec![0; buckets.max(1)],
            dying: 0,
            per_state: Vec::new(),
        }
    }

    /// Statistics of a row-major age slice (0 = dead).
    pub fn from_ages(ages: &[u32], generation: u64, buckets: usize) -> Self {
        let mut stats = Stats::empty(generation, buckets);
        stats.add_ages(ages);
        stats
    }

    /// Statistics of a whole host world: its live cells' ages and its dying cells.
    pub fn of_world(world: &crate::world::World, buckets: usize) -> Self {
        let mut stats = Stats::from_ages(world.ages(), world.generation, buckets);
        stats.add_dying(world.dying());
        stats
    }

    /// Count live cells of `ages` into this snapshot.
    pub fn add_ages(&mut self, ages: &[u32]) {
        let buckets = self.histogram.len();
        for &age in ages.iter().filter(|&&a| a > 0) {
            self.population += 1;
            self.histogram[bucket_of(age, self.generation, buckets)] += 1;
        }
    }

    /// Count the cells of a state slice (0 = not in states 2 and up) into this snapshot:
    /// the dying total and [`Stats::per_state`].
    pub fn add_dying(&mut self, dying: &[u8]) {
        let mut counts = [0u64; 256];
        for &d in dying {
            counts[usize::from(d)] += 1;
        }
        counts[0] = 0;
        self.add_per_state(&counts);
    }

    /// Add per-state counts (index = state; entries 0 and 1 ignored).
    pub fn add_per_state(&mut self, counts: &[u64]) {
        let top = counts.iter().rposition(|&c| c > 0).filter(|&t| t >= 2);
        let Some(top) = top else {
            return;
        };
        if self.per_state.len() <= top {
            self.per_state.resize(top + 1, 0);
        }
        for (mine, &c) in self.per_state.iter_mut().zip(counts).skip(2) {
            *mine += c;
            self.dying += c;
        }
    }

    /// Add device counters: for each chunk, `buckets` histogram counts then the population.
    pub fn add_counts(&mut self, counts: &[u32], buckets: usize) {
        for chunk in counts.chunks_exact(buckets + 1) {
            for (h, c) in self.histogram.iter_mut().zip(chunk) {
                *h += u64::from(*c);
            }
            self.population += u64::from(chunk[buckets]);
        }
    }

    /// Add the counters a device statistics kernel leaves: per chunk `buckets` histogram
    /// counts and the population, then one count per state (`states` of them; states 2 and
    /// up are the dying cells).
    pub fn add_device_counts(&mut self, counts: &[u32], buckets: usize, states: usize) {
        let (chunks, per_state) = counts.split_at(counts.len() - states);
        self.add_counts(chunks, buckets);
        let per_state: Vec<u64> = per_state.iter().map(|&c| u64::from(c)).collect();
        self.add_per_state(&per_state);
    }

    /// Add another snapshot of the same generation (used to merge per-band partial counts).
    pub fn merge(mut self, other: &Stats) -> Self {
        self.population += other.population;
        self.dying += other.dying;
        if self.per_state.len() < other.per_state.len() {
            self.per_state.resize(other.per_state.len(), 0);
        }
        for (mine, theirs) in self.per_state.iter_mut().zip(&other.per_state) {
            *mine += theirs;
        }
        for (mine, theirs) in self.histogram.iter_mut().zip(&other.histogram) {
            *mine += theirs;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn current_generation_maps_to_the_top_bracket() {
        // A cell of the initial soup has age generation + 1: it survived every generation.
        assert_eq!(normalized_age(11, 10), 100);
        assert_eq!(normalized_age(12, 10), 100);
        assert_eq!(normalized_age(6, 10), 50);
        // Newborn and painted cells are the youngest at any generation, generation 0 too.
        assert_eq!(normalized_age(1, 0), 0);
        assert_eq!(normalized_age(1, 1000), 0);
        assert_eq!(bucket_of(11, 10, 5), 4);
        assert_eq!(bucket_of(1, 100, 5), 0);
        assert_eq!(bucket_of(21, 100, 5), 1);
        assert_eq!(bucket_of(20, 100, 5), 0);
    }

    #[test]
    fn counts_only_live_cells() {
        let stats = Stats::from_ages(&[0, 1, 0, 51, 101, 101], 100, 5);
        assert_eq!(stats.population, 4);
        assert_eq!(stats.histogram, vec![1, 0, 1, 0, 2]);
        let merged = stats.clone().merge(&stats);
        assert_eq!(merged.population, 8);
    }

    #[test]
    fn counts_each_state_from_2_up() {
        let mut stats = Stats::empty(3, 5);
        stats.add_dying(&[0, 2, 0, 5, 2, 0, 9]);
        assert_eq!(
            (stats.dying, stats.per_state.clone()),
            (4, vec![0, 0, 2, 0, 0, 1, 0, 0, 0, 1])
        );
        // Device counters: 1 chunk of 5 buckets + population, then 4 states.
        let mut device = Stats::empty(3, 5);
        device.add_device_counts(&[1, 0, 0, 0, 2, 3, 0, 0, 6, 1], 5, 4);
        assert_eq!(
            (device.population, device.dying, device.per_state.clone()),
            (3, 7, vec![0, 0, 6, 1])
        );
        let merged = stats.merge(&device);
        assert_eq!(merged.per_state, vec![0, 0, 8, 1, 0, 1, 0, 0, 0, 1]);
    }
}
