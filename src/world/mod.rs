//! The host copy of a Life world: size, topology, rule, generation, per-cell age and (under
//! a Generations rule) per-cell dying state.
//!
//! `World` is the canonical state every strategy loads from and reads back into.
//! A cell's age is 0 when not alive, 1 on the generation it is born (or painted / placed),
//! and grows by one for every generation it survives. Under a Generations rule with C > 2
//! states, a cell that stops being alive is *dying*: its age is 0 and its dying state
//! (2..C-1, [`World::dying`]) advances each generation until it wraps to 0 (dead). Under
//! such rules ages saturate 256 earlier ([`crate::rule::Rule::age_max`]). Ages are `u32` and saturate at
//! [`AGE_MAX`] (after 4 294 967 295 generations of survival), so they are exact for every
//! run golab can realistically perform.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::rule::Rule;

mod error;
mod frame;
mod surface;
#[cfg(test)]
mod tests;
mod topology;

use error::check_size;
pub use error::{WorldError, parse_size};
pub use topology::{Join, Topology};

/// Whether a `width × height` world of `topology` can run `rule`: a sphere is square, and
/// Larger than Life runs on a torus or a plane (as in Golly, whose LtL refuses the other
/// surfaces: their one-cell ring of copied edge cells cannot serve a range-r count).
pub fn check_surface(
    topology: Topology,
    width: u32,
    height: u32,
    rule: Rule,
) -> Result<(), WorldError> {
    topology.check_size(width, height)?;
    if topology.is_joined() && rule.is_ltl() {
        return Err(WorldError::SurfaceRule {
            surface: topology.to_string(),
            rule: rule.canonical(),
        });
    }
    Ok(())
}

/// The largest age a cell can reach; older cells stay at this value.
pub const AGE_MAX: u32 = u32::MAX;

/// Smallest world edge: below 3 cells a torus neighbourhood would count a cell twice.
pub const MIN_EDGE: u32 = 3;

/// Largest world edge golab accepts on the host (GPU strategies check their own limits).
pub const MAX_EDGE: u32 = 1 << 16;

/// One cell edit: paint (`alive = true`) or erase a cell. Painting a live cell keeps its age.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CellEdit {
    /// Column, 0 at the left.
    pub x: u32,
    /// Row, 0 at the top.
    pub y: u32,
    /// Paint (true) or erase (false).
    pub alive: bool,
}

/// A Life world held on the host: the reference state every strategy agrees on.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct World {
    width: u32,
    height: u32,
    /// Edge behaviour.
    pub topology: Topology,
    rule: Rule,
    /// Generations stepped since the world was created or last cleared.
    pub generation: u64,
    ages: Vec<u32>,
    /// Dying state per cell (0 = not dying, else 2..C-1) when the rule has dying states;
    /// empty otherwise.
    #[serde(default)]
    dying: Vec<u8>,
    /// Golly's unbounded universe for Larger than Life, and Golly's tubes (`:T0,20`): a grid
    /// that the simulation enlarges (about its centre, along its open sides) before the
    /// pattern can reach an open edge.
    #[serde(default)]
    pub grows: bool,
    /// How far the grid has moved on Golly's plane since it was made, in cells: grid cell
    /// `(x, y)` is plane cell `(x − width/2 + shift.0, y − height/2 + shift.1)`
    /// ([`World::plane_origin`]). Zero for a grid that never moved; a growing world that
    /// follows its pattern (a spaceship) changes it so every cell keeps its plane position.
    #[serde(default)]
    pub shift: (i64, i64),
}

impl fmt::Debug for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("World")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("topology", &self.topology)
            .field("rule", &self.rule.to_string())
            .field("generation", &self.generation)
            .field("population", &self.population())
            .finish()
    }
}

impl World {
    /// An empty world (all cells dead, generation 0) that is to run: refused before anything
    /// is allocated when the host lacks the memory a running world needs
    /// ([`crate::memory::HOST_BYTES_PER_CELL`]).
    pub fn new(
        width: u32,
        height: u32,
        topology: Topology,
        rule: Rule,
    ) -> Result<Self, WorldError> {
        check_size(width.into(), height.into())?;
        let available = crate::memory::available_bytes();
        if let Some(short) = crate::memory::world_shortfall(width, height, available) {
            return Err(WorldError::OutOfMemory {
                width,
                height,
                needed: crate::memory::gib(short.needed),
                available: crate::memory::gib(short.available),
                largest: short.largest_square,
            });
        }
        World::blank(width, height, topology, rule)
    }

    /// An empty world used as a working copy of a world that already runs (its size or
    /// smaller), whose memory [`World::new`] accounted for: only the allocation itself is
    /// checked, and its failure is an error rather than an abort.
    pub(crate) fn blank(
        width: u32,
        height: u32,
        topology: Topology,
        rule: Rule,
    ) -> Result<Self, WorldError> {
        check_size(width.into(), height.into())?;
        check_surface(topology, width, height, rule)?;
        let cells = width as usize * height as usize;
        let mut ages = Vec::new();
        ages.try_reserve_exact(cells)
            .map_err(|_| WorldError::AllocationFailed { width, height })?;
        ages.resize(cells, 0);
        let mut world = World {
            width,
            height,
            topology,
            rule: Rule::CONWAY,
            generation: 0,
            ages,
            dying: Vec::new(),
            grows: false,
            shift: (0, 0),
        };
        world.set_rule(rule)?;
        Ok(world)
    }

    /// The rule the world runs under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Change the rule, keeping ages and generation. Moving to a rule with dying states
    /// allocates the dying plane (all 0); moving to one without drops it, so dying cells
    /// become dead.
    pub fn set_rule(&mut self, rule: Rule) -> Result<(), WorldError> {
        check_surface(self.topology, self.width, self.height, rule)?;
        self.rule = rule;
        if !rule.has_dying_states() {
            self.dying = Vec::new();
            return Ok(());
        }
        let states = rule.states();
        let age_max = rule.age_max();
        for age in &mut self.ages {
            *age = (*age).min(age_max);
        }
        if self.dying.is_empty() {
            let mut dying = Vec::new();
            dying
                .try_reserve_exact(self.ages.len())
                .map_err(|_| WorldError::AllocationFailed {
                    width: self.width,
                    height: self.height,
                })?;
            dying.resize(self.ages.len(), 0);
            self.dying = dying;
        } else {
            // Fewer states now: a state beyond the last one is gone (dead).
            for d in &mut self.dying {
                if u16::from(*d) >= states {
                    *d = 0;
                }
            }
        }
        Ok(())
    }

    /// Dying state per cell, row-major (0 = not dying, else 2..C-1 of the Generations
    /// rule); empty when the rule has no dying states.
    pub fn dying(&self) -> &[u8] {
        &self.dying
    }

    /// Mutable dying states, for strategies reading their state back (empty when the rule
    /// has none). Keep the invariant: a cell with a non-zero age has dying state 0.
    pub fn dying_mut(&mut self) -> &mut [u8] {
        &mut self.dying
    }

    /// Ages and dying states together, mutable (a stepper advancing both at once).
    pub fn cells_mut(&mut self) -> (&mut [u32], &mut [u8]) {
        (&mut self.ages, &mut self.dying)
    }

    /// Copy rule, ages and dying states from a world of the same size (a stepper handing
    /// its state back); the generation is the caller's to set.
    pub fn copy_cells_from(&mut self, other: &World) -> Result<(), WorldError> {
        if self.rule != other.rule {
            self.set_rule(other.rule)?;
        }
        self.ages.copy_from_slice(&other.ages);
        self.dying.copy_from_slice(&other.dying);
        Ok(())
    }

    /// The Generations state of cell `i`: 0 dead, 1 alive, 2..C-1 dying.
    pub fn state_at(&self, i: usize) -> u16 {
        if self.ages[i] > 0 {
            1
        } else {
            self.dying.get(i).map_or(0, |&d| u16::from(d))
        }
    }

    /// Every cell's state ([`World::state_at`]) as a byte, row-major: what steppers that
    /// read states rather than ages start from (Larger than Life).
    pub fn states(&self) -> Vec<u8> {
        (0..self.ages.len())
            .map(|i| self.state_at(i) as u8)
            .collect()
    }

    /// Number of dying cells (0 under rules without dying states).
    pub fn dying_count(&self) -> u64 {
        self.dying.iter().filter(|&&d| d > 0).count() as u64
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.ages.len()
    }

    /// Always false: a world has at least 3×3 cells. Present for clippy's `len` convention.
    pub fn is_empty(&self) -> bool {
        self.ages.is_empty()
    }

    /// Row-major ages, `width * height` entries; 0 means dead.
    pub fn ages(&self) -> &[u32] {
        &self.ages
    }

    /// Mutable row-major ages, for strategies reading their state back into the host copy.
    /// Keep the invariant: 0 means dead, anything else is the age of a live cell.
    pub fn ages_mut(&mut self) -> &mut [u32] {
        &mut self.ages
    }

    #[inline]
    fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// Age of the cell at (x, y); 0 if dead or outside the world.
    pub fn age(&self, x: u32, y: u32) -> u32 {
        if x < self.width && y < self.height {
            self.ages[self.index(x, y)]
        } else {
            0
        }
    }

    /// Whether the cell at (x, y) is alive (false outside the world).
    pub fn is_alive(&self, x: u32, y: u32) -> bool {
        self.age(x, y) > 0
    }

    /// Apply one edit (a painted or erased cell stops dying). Returns false (and changes nothing) for cells outside the world.
    pub fn apply_edit(&mut self, edit: CellEdit) -> bool {
        if edit.x >= self.width || edit.y >= self.height {
            return false;
        }
        let i = self.index(edit.x, edit.y);
        self.ages[i] = edit_age(self.ages[i], edit.alive);
        if let Some(d) = self.dying.get_mut(i) {
            *d = 0;
        }
        true
    }

    /// Put cell `(x, y)` in `state`: 0 dead, 1 alive (a live cell keeps its age), 2 and up
    /// a many-state rule's state (a rule table's, a Generations rule's dying state). `false`
    /// outside the world or for a state the rule does not have.
    pub fn set_state(&mut self, x: u32, y: u32, state: u8) -> bool {
        if state < 2 {
            return self.apply_edit(CellEdit {
                x,
                y,
                alive: state == 1,
            });
        }
        if x >= self.width || y >= self.height || u16::from(state) >= self.rule.states() {
            return false;
        }
        let i = self.index(x, y);
        match self.dying.get_mut(i) {
            Some(d) => {
                *d = state;
                self.ages[i] = 0;
                true
            }
            None => false,
        }
    }

    /// Apply a batch of edits in order; returns how many landed inside the world.
    pub fn apply_edits(&mut self, edits: &[CellEdit]) -> usize {
        edits.iter().filter(|e| self.apply_edit(**e)).count()
    }

    /// Kill every cell and reset the generation counter.
    pub fn clear(&mut self) {
        self.ages.fill(0);
        self.dying.fill(0);
        self.generation = 0;
    }

    /// Number of live cells.
    pub fn population(&self) -> u64 {
        self.ages.iter().filter(|&&a| a > 0).count() as u64
    }

    /// Fill with a random soup: each cell alive with probability `density_percent / 100`,
    /// drawn from ChaCha8 seeded with `seed`, one 32-bit draw per cell in row-major order,
    /// so the same seed gives the same world on every machine. Live cells get age 1. Under
    /// a rule table or a Larger than Life rule of more than two states the non-empty cells
    /// take any of its states.
    pub fn fill_random(&mut self, density_percent: f64, seed: u64) -> Result<(), WorldError> {
        if !(0.0..=100.0).contains(&density_percent) {
            return Err(WorldError::BadDensity(density_percent));
        }
        use rayon::prelude::*;
        let threshold = (density_percent / 100.0 * 4_294_967_296.0) as u64;
        let rng = ChaCha8Rng::seed_from_u64(seed);
        // ChaCha's stream is seekable: each chunk starts at its first cell's word, so the
        // chunks fill in parallel (fresh pages touched on every core) and the soup is the
        // sequential one, draw for draw.
        const CHUNK: usize = 1 << 16;
        self.ages
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(i, chunk)| {
                let mut rng = rng.clone();
                rng.set_word_pos((i * CHUNK) as u128);
                for age in chunk {
                    *age = u32::from(u64::from(rng.next_u32()) < threshold);
                }
            });
        let mut rng = rng;
        rng.set_word_pos(self.ages.len() as u128);
        self.dying.fill(0);
        // A rule table's soup holds all its states: each non-empty cell takes one of the
        // states 1..n-1 uniformly (a second draw per non-empty cell, in row-major order).
        let states = u64::from(self.rule.states());
        if (self.rule.is_table() || self.rule.is_ltl()) && states > 2 {
            for (age, state) in self.ages.iter_mut().zip(&mut self.dying) {
                if *age > 0 {
                    let s = 1 + u64::from(rng.next_u32()) * (states - 1) / 4_294_967_296;
                    if s >= 2 {
                        *age = 0;
                        *state = s as u8;
                    }
                }
            }
        }
        Ok(())
    }

    /// A stable 64-bit hash of size and every cell's age (hence alive state too):
    /// XXH3-64 over width, height and the ages as little-endian `u32`s, then the dying
    /// states when the rule has them.
    pub fn state_hash(&self) -> u64 {
        if self.dying.is_empty() {
            return state_hash(self.width, self.height, &self.ages);
        }
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(&state_hash(self.width, self.height, &self.ages).to_le_bytes());
        hasher.update(&self.dying);
        hasher.digest()
    }
}

/// The age a cell gets from an edit: painting a dead cell gives a newborn (age 1), painting a
/// live one keeps its age, erasing gives 0. Every strategy applies edits through this rule.
#[inline]
pub fn edit_age(current: u32, alive: bool) -> u32 {
    match (alive, current) {
        (false, _) => 0,
        (true, 0) => 1,
        (true, age) => age,
    }
}

/// [`World::state_hash`] over raw parts, for strategies that hold ages elsewhere.
pub fn state_hash(width: u32, height: u32, ages: &[u32]) -> u64 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&width.to_le_bytes());
    hasher.update(&height.to_le_bytes());
    let mut chunk = Vec::with_capacity(4 * 4096);
    for block in ages.chunks(4096) {
        chunk.clear();
        chunk.extend(block.iter().flat_map(|a| a.to_le_bytes()));
        hasher.update(&chunk);
    }
    hasher.digest()
}
