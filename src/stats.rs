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

    /// Count the dying cells of a dying-state slice (0 = not dying) into this snapshot.
    pub fn add_dying(&mut self, dying: &[u8]) {
        self.dying += dying.iter().filter(|&&d| d > 0).count() as u64;
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
    /// counts and the population, then one dying-cell total.
    pub fn add_device_counts(&mut self, counts: &[u32], buckets: usize) {
        let (chunks, dying) = counts.split_at(counts.len() - 1);
        self.add_counts(chunks, buckets);
        self.dying += u64::from(dying[0]);
    }

    /// Add another snapshot of the same generation (used to merge per-band partial counts).
    pub fn merge(mut self, other: &Stats) -> Self {
        self.population += other.population;
        self.dying += other.dying;
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
}
