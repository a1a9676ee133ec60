//! `cpu-bitsliced`: 64 cells per `u64`, neighbour counts by bitwise full adders, rayon over
//! row bands — with exact ages.
//!
//! Ages are not updated every generation: each cell keeps the generation it was born in
//! (`birth`, written only where a cell is born or painted), and its age at generation `g`
//! is `g - birth + 1`, saturated like the scalar reference's. Births are not even written
//! every generation: a *flush* ([`flush`]) finds, from a stack of consecutive bit planes,
//! the last birth of each cell alive at the top and writes that once, so random writes into
//! the birth array happen once per stack, and only for cells born in it that are still
//! alive at its end.
//!
//! Outer-totalistic Moore rules run on the *block path* ([`block`]): each band of rows
//! steps up to 8 generations in cache with the neighbour-count row kernel ([`rows`]: one
//! body compiled portable and with AVX-512, chosen at run time) and flushes its own levels.
//! Every other rule runs on the *ring path*: its compiled [`Circuit`] over whole rows
//! ([`general`]), a generation at a time into a ring of [`WINDOW`] + 1 planes, flushed every
//! `WINDOW` generations (or before anything reads ages).
//! Generations rules keep their dying states as bit-sliced countdowns beside the ring
//! ([`crate::rule::generations`]); dying cells are not alive in the ring's planes, so births
//! stay exact.

mod block;
mod flush;
mod general;
mod rows;
mod words;

use rayon::prelude::*;

pub use rows::Simd;
use rows::{RowRule, RowShape};
use words::row_cells;

use super::{StepError, Stepper, Strategy, check_same_size, not_loaded};
use crate::rule::generations::{Planes, dying_state, set_dying_state, step_word};
use crate::rule::{Circuit, Totalistic};
use crate::stats::{Stats, bucket_of};
use crate::world::{AGE_MAX, CellEdit, Topology, World, edit_age};

/// Generations between birth flushes (bit planes kept: `WINDOW + 1`).
pub const WINDOW: usize = 8;
const _: () = assert!(WINDOW <= flush::MAX_LEVELS);

/// Bit-packed world with birth generations.
pub struct BitslicedStepper {
    width: usize,
    height: usize,
    words: usize,
    topology: Topology,
    rule: Totalistic,
    /// The rule as bitwise operations, when it is not outer-totalistic Moore.
    circuit: Option<Circuit>,
    /// Generations states C (2 without dying states).
    states: u16,
    /// Countdown planes per word (0 without dying states).
    dying_bits: usize,
    /// Generations' countdowns, `dying_bits` interleaved planes per word
    /// ([`crate::rule::generations::step_word`]).
    dying: Vec<u64>,
    /// Where ages saturate ([`crate::rule::Rule::age_max`]).
    age_max: u32,
    generation: u64,
    /// Ring of bit planes (`WINDOW + 1` on the ring path, 2 on the block path):
    /// `planes[base]` is the state at the last flush, `planes[(base + pending) % len]` the
    /// current one.
    planes: Vec<Vec<u64>>,
    base: usize,
    pending: usize,
    birth: Vec<i64>,
    /// Which compiled copy of the row kernel runs.
    simd: Simd,
}

impl BitslicedStepper {
    /// An empty stepper with the widest row kernel this CPU runs ([`Simd::detect`]); call
    /// [`Stepper::load`] before stepping.
    pub fn new() -> Self {
        Self::with_simd(Simd::detect())
    }

    /// An empty stepper running the row kernel compiled for `simd` (the portable copy where
    /// the CPU lacks it), so tests and benchmarks can compare the copies.
    pub fn with_simd(simd: Simd) -> Self {
        BitslicedStepper {
            width: 0,
            height: 0,
            words: 0,
            topology: Topology::Torus,
            rule: Totalistic::CONWAY,
            circuit: None,
            states: 2,
            dying_bits: 0,
            dying: vec![],
            age_max: AGE_MAX,
            generation: 0,
            planes: vec![],
            base: 0,
            pending: 0,
            birth: vec![],
            simd: if simd.available() {
                simd
            } else {
                Simd::Portable
            },
        }
    }

    fn plane_index(&self, age: usize) -> usize {
        (self.base + age) % self.planes.len()
    }

    /// The current state plane.
    fn cur(&self) -> &[u64] {
        &self.planes[self.plane_index(self.pending)]
    }

    /// Write the last birth of every live cell born since the last flush (see the module docs
    /// and [`flush`]).
    fn flush(&mut self) {
        if self.pending == 0 {
            return;
        }
        let (width, words, pending, simd) = (self.width, self.words, self.pending, self.simd);
        let first = self.generation - pending as u64;
        let order: Vec<usize> = (0..=pending).map(|j| self.plane_index(j)).collect();
        let planes = &self.planes;
        self.birth.par_chunks_mut(width).enumerate().for_each_init(
            flush::FlushScratch::default,
            |scratch, (y, births)| {
                let ring: Vec<&[u64]> = order
                    .iter()
                    .map(|&p| &planes[p][y * words..(y + 1) * words])
                    .collect();
                flush::flush_row(simd, &ring, first, births, scratch);
            },
        );
        self.base = self.plane_index(pending);
        self.pending = 0;
    }

    /// Step `generations` on the neighbour-count path in blocks of up to [`block::BLOCK`]
    /// generations ([`block`]): births are resolved within each block, so nothing is pending.
    fn step_blocks(&mut self, generations: u64, shape: RowShape) {
        self.flush();
        let mut left = generations;
        while left > 0 {
            let k = left.min(block::BLOCK as u64) as usize;
            let target = self.plane_index(1);
            let mut next = std::mem::take(&mut self.planes[target]);
            let cur = block::Plane {
                words: &self.planes[self.base],
                height: self.height,
                shape,
            };
            block::step_block(
                self.simd,
                &cur,
                k,
                self.generation,
                &mut next,
                &mut self.birth,
            );
            self.planes[target] = next;
            self.base = target;
            self.generation += k as u64;
            left -= k as u64;
        }
    }

    /// Age of cell `i`; births must be flushed.
    fn age_at(&self, i: usize) -> u32 {
        let word = self.cur()[(i / self.width) * self.words + (i % self.width) / 64];
        if word >> ((i % self.width) % 64) & 1 == 0 {
            return 0;
        }
        let age = self.generation as i64 - self.birth[i] + 1;
        age.clamp(1, i64::from(self.age_max)) as u32
    }

    /// The dying-counter planes of the word holding cell (x, y).
    fn counters(&self, y: usize, x: usize) -> &[u64] {
        let word = y * self.words + x / 64;
        &self.dying[word * self.dying_bits..(word + 1) * self.dying_bits]
    }

    /// Mask of the bits that are inside the world in the last word of a row.
    fn last_mask(&self) -> u64 {
        match self.width % 64 {
            0 => !0,
            r => (1u64 << r) - 1,
        }
    }
}

impl Default for BitslicedStepper {
    fn default() -> Self {
        Self::new()
    }
}

impl Stepper for BitslicedStepper {
    fn strategy(&self) -> Strategy {
        Strategy::CpuBitsliced
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        Strategy::CpuBitsliced.check_loads(world)?;
        let (w, h) = (world.width() as usize, world.height() as usize);
        self.width = w;
        self.height = h;
        self.words = w.div_ceil(64);
        self.topology = world.topology;
        let rule = world.rule();
        self.rule = rule.as_totalistic().unwrap_or(Totalistic::CONWAY);
        self.circuit = match rule.as_totalistic() {
            Some(_) if !rule.has_dying_states() => None,
            _ => Some(Circuit::for_rule(&rule)),
        };
        self.states = if rule.has_dying_states() {
            rule.states()
        } else {
            2
        };
        self.dying_bits = Planes::countdown_bits(self.states);
        self.dying = vec![0; self.words * h * self.dying_bits];
        self.age_max = rule.age_max();
        for (i, &d) in world.dying().iter().enumerate().filter(|(_, d)| **d > 0) {
            let word = (i / w) * self.words + (i % w) / 64;
            let planes = &mut self.dying[word * self.dying_bits..(word + 1) * self.dying_bits];
            set_dying_state(planes, self.states, ((i % w) % 64) as u32, u16::from(d));
        }
        self.generation = world.generation;
        // The block path keeps no levels between calls: the current plane and the next.
        let levels = if self.circuit.is_some() { WINDOW } else { 1 };
        self.planes = vec![vec![0; self.words * h]; levels + 1];
        self.base = 0;
        self.pending = 0;
        let now = world.generation as i64;
        self.birth = world
            .ages()
            .iter()
            .map(|&a| now + 1 - i64::from(a))
            .collect();
        for (i, &age) in world.ages().iter().enumerate() {
            if age > 0 {
                self.planes[0][(i / w) * self.words + (i % w) / 64] |= 1 << ((i % w) % 64);
            }
        }
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        if self.planes.is_empty() {
            return Err(not_loaded());
        }
        let (width, height, words) = (self.width, self.height, self.words);
        let torus = self.topology == Topology::Torus;
        let mask = self.last_mask();
        // Taken out for the loop (the flush below borrows the stepper mutably).
        let Some(owned_circuit) = self.circuit.take() else {
            let shape = RowShape {
                width,
                words,
                torus,
                last_mask: mask,
                rule: RowRule::of(self.rule),
            };
            self.step_blocks(generations, shape);
            return Ok(());
        };
        let circuit = &owned_circuit;
        let counts = circuit.uses_counts();
        let (states, bits) = (self.states, self.dying_bits);
        let band = height.div_ceil(rayon::current_num_threads() * 4).max(8);
        let zero = vec![0u64; words];
        for _ in 0..generations {
            let target = self.plane_index(self.pending + 1);
            let mut next = std::mem::take(&mut self.planes[target]);
            let cur = &self.planes[self.plane_index(self.pending)];
            let row = |y| rows::plane_row(cur, (words, height), torus, &zero, y);
            // One band of rows: `dying_rows` holds the band's dying counters (empty without).
            let step_band = |b: usize, next_rows: &mut [u64], dying_rows: &mut [u64]| {
                let y0 = (b * band) as isize;
                let mut cells = [
                    vec![(0, 0, 0); words],
                    vec![(0, 0, 0); words],
                    vec![(0, 0, 0); words],
                ];
                let mut inputs = general::RowInputs::new(words);
                row_cells(row(y0 - 1), width, torus, &mut cells[0]);
                row_cells(row(y0), width, torus, &mut cells[1]);
                for (r, next_row) in next_rows.chunks_exact_mut(words).enumerate() {
                    let y = y0 + r as isize;
                    row_cells(row(y + 1), width, torus, &mut cells[2]);
                    inputs.eval(circuit, counts, [&cells[0], &cells[1], &cells[2]], next_row);
                    if bits > 0 {
                        let mid = row(y);
                        let counters = &mut dying_rows[r * words * bits..(r + 1) * words * bits];
                        for (k, word) in next_row.iter_mut().enumerate() {
                            let planes = &mut counters[k * bits..(k + 1) * bits];
                            *word = step_word(planes, mid[k], *word, states);
                        }
                    }
                    next_row[words - 1] &= mask;
                    cells.rotate_left(1);
                }
            };
            if bits == 0 {
                next.par_chunks_mut(words * band)
                    .enumerate()
                    .for_each(|(b, next_rows)| step_band(b, next_rows, &mut []));
            } else {
                next.par_chunks_mut(words * band)
                    .zip(self.dying.par_chunks_mut(words * band * bits))
                    .enumerate()
                    .for_each(|(b, (next_rows, dying_rows))| step_band(b, next_rows, dying_rows));
            }
            self.planes[target] = next;
            self.pending += 1;
            self.generation += 1;
            if self.pending == WINDOW {
                self.flush();
            }
        }
        self.circuit = Some(owned_circuit);
        Ok(())
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        check_same_size(world, self.width as u32, self.height as u32)?;
        self.flush();
        let this = &*self;
        world
            .ages_mut()
            .par_chunks_mut(this.width)
            .enumerate()
            .for_each(|(y, ages)| {
                for (x, age) in ages.iter_mut().enumerate() {
                    *age = this.age_at(y * this.width + x);
                }
            });
        if this.dying_bits > 0 {
            world
                .dying_mut()
                .par_chunks_mut(this.width)
                .enumerate()
                .for_each(|(y, states)| {
                    for (x, state) in states.iter_mut().enumerate() {
                        let lane = (x % 64) as u32;
                        *state = dying_state(this.counters(y, x), this.states, lane) as u8;
                    }
                });
        }
        world.generation = self.generation;
        Ok(())
    }

    fn alive_at(&mut self, cells: &[(u32, u32)]) -> Result<Option<Vec<bool>>, StepError> {
        let cur = self.cur();
        let bit = |(x, y): (u32, u32)| {
            let (x, y) = (x as usize, y as usize);
            x < self.width && y < self.height && (cur[y * self.words + x / 64] >> (x % 64)) & 1 == 1
        };
        Ok(Some(cells.iter().map(|&c| bit(c)).collect()))
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        self.flush();
        let current = self.plane_index(0);
        for e in edits {
            let (x, y) = (e.x as usize, e.y as usize);
            if x >= self.width || y >= self.height {
                continue;
            }
            let i = y * self.width + x;
            if self.dying_bits > 0 {
                let word = y * self.words + x / 64;
                let bits = self.dying_bits;
                let planes = &mut self.dying[word * bits..(word + 1) * bits];
                set_dying_state(planes, self.states, (x % 64) as u32, 0);
            }
            let age = edit_age(self.age_at(i), e.alive);
            let word = &mut self.planes[current][y * self.words + x / 64];
            if age == 0 {
                *word &= !(1 << (x % 64));
            } else {
                *word |= 1 << (x % 64);
                self.birth[i] = self.generation as i64 + 1 - i64::from(age);
            }
        }
        Ok(())
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        self.flush();
        let generation = self.generation;
        let this = &*self;
        Ok((0..this.height)
            .into_par_iter()
            .map(|y| {
                let mut stats = Stats::empty(generation, buckets);
                let mut per_state = [0u64; 256];
                let brackets = stats.histogram.len();
                for (k, &word) in this.cur()[y * this.words..(y + 1) * this.words]
                    .iter()
                    .enumerate()
                {
                    let mut live = word;
                    while live != 0 {
                        let x = k * 64 + live.trailing_zeros() as usize;
                        let age = this.age_at(y * this.width + x);
                        stats.population += 1;
                        stats.histogram[bucket_of(age, generation, brackets)] += 1;
                        live &= live - 1;
                    }
                    if this.dying_bits > 0 {
                        let planes = this.counters(y, k * 64);
                        let mut dying = planes.iter().fold(0, |acc, p| acc | p);
                        while dying != 0 {
                            let lane = dying.trailing_zeros();
                            per_state[dying_state(planes, this.states, lane) as usize] += 1;
                            dying &= dying - 1;
                        }
                    }
                }
                stats.add_per_state(&per_state);
                stats
            })
            .reduce(|| Stats::empty(generation, buckets), |a, b| a.merge(&b)))
    }

    fn generation(&self) -> u64 {
        self.generation
    }
}
