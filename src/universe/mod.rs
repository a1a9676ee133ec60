//! golab's `lifealgo`: the one interface every world serves and that the window's runner,
//! the CLI, the bench, the Lab and the file code speak to alone.
//!
//! Two implementations stand behind it:
//!
//! - [`GridUniverse`] (grid.rs): a grid of cells with ages, stepped by any strategy of
//!   [`crate::step`] (scalar, rayon, cpu-bitsliced, the GPU strategies) through a
//!   [`Simulation`]. It is bounded (a torus, a dead border, Golly's other surfaces) or
//!   unbounded: a dead-border grid that grows with its pattern, as Golly's Larger than Life
//!   grows its grid.
//! - [`HashedUniverse`] (hashed.rs): Gosper's HashLife over canonical quadtree nodes
//!   (two-state or up to 256 states), unbounded, or bounded on a torus or dead border.
//!
//! Everything is in **plane coordinates**: `i128` cells, x to the right and y down, the
//! origin where Golly puts it (a bounded grid's centre; a pattern file's own position).
//! Counts are `u128`. Callers never ask which implementation they hold: what differs is
//! said by [`Capabilities`] (ages, the GPU, a bound, hashing, strategies). Moving a world
//! from one implementation to the other is a conversion (convert.rs) that keeps every
//! state.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use thiserror::Error;

use crate::hashlife::HashError;
use crate::pattern::{Format, Pattern, PatternError};
use crate::rule::Rule;
use crate::sim::SimError;
use crate::stats::Stats;
use crate::step::Strategy;
use crate::step::view::ViewRequest;
use crate::world::{Topology, World};

pub mod convert;
mod grid;
mod hashed;

pub use crate::hashlife::{MemoryReport, Rect};
pub use grid::GridUniverse;
pub use hashed::{HashedUniverse, check_bound};

/// Why a universe refused a request; the universe is unchanged after any of these.
#[derive(Debug, Error)]
pub enum UniverseError {
    /// The grid's simulation failed (a stepper, a lost device, a size).
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The hashed universe refused (a rule, a size, its memory limit).
    #[error(transparent)]
    Hash(#[from] HashError),
    /// Reading or writing a pattern failed.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// A count, coordinate or size outside what this universe holds.
    #[error("{0}")]
    Limit(String),
    /// A request this implementation does not serve (the caller converts, or says why).
    #[error("{0}")]
    Unsupported(String),
    /// Stopped by the interrupt flag; the universe stays at the generation it reached.
    #[error("stopped at generation {generation}")]
    Interrupted {
        /// Where it stopped.
        generation: u128,
    },
}

/// A bounded grid's shape: its size and the surface its edges make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Width in cells.
    pub width: u32,
    /// Height in cells.
    pub height: u32,
    /// Torus, dead border or one of Golly's joined surfaces.
    pub topology: Topology,
}

/// What a universe can do beyond the interface every universe serves; the window and the
/// CLI branch on these, never on which implementation they hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// Each live cell keeps its age (generations survived), coloured and counted by age.
    pub ages: bool,
    /// Steps on the GPU.
    pub gpu: bool,
    /// A bounded grid (`None`: the unbounded plane).
    pub bounded: Option<Bounds>,
    /// Hashes: steps of 2^k generations are memoised, so very large steps are cheap.
    pub hashing: bool,
    /// Switches among the grid strategies in place ([`Universe::switch_strategy`]).
    pub strategies: bool,
}

/// A state kept by [`Universe::keep`] for undo and Reset: a handle into the universe that
/// made it (a copy of the grid, or one root of the hashed universe, which shares every node
/// with the live pattern). Valid only on that universe, until released.
#[derive(Debug, PartialEq, Eq)]
pub struct Kept {
    owner: u64,
    id: u64,
    generation: u128,
}

impl Kept {
    /// The generation it was kept at.
    pub fn generation(&self) -> u128 {
        self.generation
    }
}

/// A fresh identity for a universe (the owner of its [`Kept`] states).
fn next_owner() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Where a view was drawn.
pub enum DrawTarget<'a> {
    /// Into a device buffer of `request.pixels()` u32 values, where the state lives on the
    /// device; a universe that cannot draw there answers `Ok(false)`.
    Device(&'a wgpu::Buffer),
    /// Into host memory, at least `request.pixels()` long.
    Host(&'a mut [u32]),
}

/// The interface every world serves (see the module docs).
pub trait Universe: Send {
    /// What it is, for titles and reports: "512×256 torus grid (rayon)", "unbounded, hashed".
    fn describe(&self) -> String;
    /// Which universe this is: the owner of its [`Kept`] states, the same for its lifetime.
    fn id(&self) -> u64;
    /// What it can do beyond this interface.
    fn capabilities(&self) -> Capabilities;
    /// The strategy stepping it: a grid strategy, or [`Strategy::Hashlife`].
    fn strategy(&self) -> Strategy;

    /// The rule in force.
    fn rule(&self) -> Rule;
    /// Change the rule, keeping every cell and the generation; cells in states the new rule
    /// lacks become state 0 (as Golly clears them). Kept states stay valid.
    fn set_rule(&mut self, rule: Rule) -> Result<(), UniverseError>;

    /// The generation reached.
    fn generation(&self) -> u128;
    /// Set the generation counter (a file's `#G`, a script's `setgen`).
    fn set_generation(&mut self, generation: u128) -> Result<(), UniverseError>;
    /// Step `generations`, asking `cancel` between pieces of work. Returns how many were
    /// stepped: fewer only when cancelled, every cell exact at the generation reached.
    /// A count it cannot reach is refused before any step, leaving the universe unchanged.
    fn step(&mut self, generations: u128, cancel: &dyn Fn() -> bool)
    -> Result<u128, UniverseError>;

    /// Cells in state 1.
    fn population(&mut self) -> Result<u128, UniverseError>;
    /// The smallest rectangle holding every cell not in state 0.
    fn bounds(&mut self) -> Result<Option<Rect>, UniverseError>;
    /// The state of one cell (0 outside a bounded grid).
    fn state(&mut self, x: i128, y: i128) -> Result<u8, UniverseError>;
    /// Put cells in states (0 clears), in order: a cell named twice takes its last state.
    /// Painting a live cell live keeps its age. Cells outside a bounded grid are refused,
    /// before any is set; states the rule lacks likewise.
    fn set_states(&mut self, cells: &[(i128, i128, u8)]) -> Result<(), UniverseError>;
    /// The cells not in state 0 inside `rect`, with their states, row by row.
    fn states_in(&mut self, rect: Rect) -> Result<Vec<(i128, i128, u8)>, UniverseError>;
    /// The first cell not in state 0 in row `y` at column `x` or right of it, with its
    /// state (Golly's `nextcell`).
    fn next_in_row(&mut self, x: i128, y: i128) -> Result<Option<(i128, u8)>, UniverseError>;

    /// Statistics at the current generation: population, cells per state, and the age
    /// histogram in `buckets` brackets where ages are kept (empty brackets elsewhere).
    fn stats(&mut self, buckets: usize) -> Result<Stats, UniverseError>;
    /// Draw `request` (plane coordinates) into `target`; `Ok(false)` when it cannot draw
    /// into that kind of target (a host-side universe asked for a device buffer).
    fn draw(
        &mut self,
        request: &ViewRequest,
        target: DrawTarget<'_>,
    ) -> Result<bool, UniverseError>;

    /// Keep the current state for undo or Reset.
    fn keep(&mut self) -> Result<Kept, UniverseError>;
    /// Go back to a kept state's cells and generation (it stays kept); the rule in force
    /// stays, and states it lacks clear.
    fn restore(&mut self, kept: &Kept) -> Result<(), UniverseError>;
    /// Let a kept state go.
    fn release(&mut self, kept: Kept);
    /// Bytes the kept states hold beyond the live world (grid copies; the hashed universe's
    /// kept roots share its nodes and cost nothing here).
    fn kept_bytes(&self) -> usize {
        0
    }

    /// Save to `path` in the format its extension names (`.gz` compressed; macrocell
    /// straight from the hashed tree), with `meta`'s name, author and comments (its cells
    /// are not read).
    fn save(&mut self, path: &Path, meta: &Pattern) -> Result<Format, UniverseError>;

    /// Memory in use and the limit, where the universe keeps one.
    fn memory(&self) -> Option<MemoryReport>;
    /// Collect garbage at `bytes` from now on, where the universe has a limit.
    fn set_memory_limit(&mut self, bytes: usize);
    /// Step with `threads` threads, where the universe's engine takes a count (the hashed
    /// one; a grid's strategy decides its own threads, so the default ignores it).
    fn set_threads(&mut self, threads: crate::hashlife::Threads) {
        let _ = threads;
    }
    /// Abandon a step in progress while `flag` is raised (a Stop button on another thread).
    fn set_interrupt(&mut self, flag: Arc<AtomicBool>);

    /// Switch to another grid strategy in place (only with [`Capabilities::strategies`]);
    /// on failure the old one keeps running.
    fn switch_strategy(&mut self, strategy: Strategy) -> Result<(), UniverseError> {
        Err(UniverseError::Unsupported(format!(
            "{} has no grid strategies to switch to {}",
            self.describe(),
            strategy.name()
        )))
    }

    /// The grid behind it, for what only a grid does (GPU settings, the kernel's report,
    /// resizing); `None` for the hashed universe.
    fn grid(&mut self) -> Option<&mut crate::sim::Simulation> {
        None
    }

    /// The whole world as a host grid covering `bounds` (or the universe's own grid),
    /// for writers and tests; refused with the size when it would be too large.
    fn to_world(&mut self) -> Result<World, UniverseError>;
}

/// The plane rectangle of a bounded grid centred on the origin (Golly's convention: grid
/// cell `(0, 0)` at `(−width/2, −height/2)`).
pub fn centred_frame(bounds: Bounds) -> Rect {
    let (x0, y0) = (
        -i128::from(bounds.width / 2),
        -i128::from(bounds.height / 2),
    );
    Rect {
        x0,
        y0,
        x1: x0 + i128::from(bounds.width) - 1,
        y1: y0 + i128::from(bounds.height) - 1,
    }
}

/// `rule`'s states as Golly counts them (2 for two-state rules).
pub fn states_of(rule: &Rule) -> u16 {
    rule.states()
}

/// Whether `state` exists under `rule`.
pub fn state_exists(rule: &Rule, state: u8) -> bool {
    u16::from(state) < rule.states().max(2)
}

/// Refuse `cells` whose state `rule` lacks, naming the first.
fn check_states(rule: &Rule, cells: &[(i128, i128, u8)]) -> Result<(), UniverseError> {
    match cells.iter().find(|c| !state_exists(rule, c.2)) {
        Some(&(x, y, s)) => Err(UniverseError::Limit(format!(
            "state {s} at ({x}, {y}) does not exist under {rule} ({} states)",
            rule.states().max(2)
        ))),
        None => Ok(()),
    }
}

/// The smallest rectangle holding `cells` (`None` when empty).
pub fn rect_of_cells(cells: impl IntoIterator<Item = (i128, i128)>) -> Option<Rect> {
    cells.into_iter().fold(None, |rect, (x, y)| {
        Some(match rect {
            None => Rect {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            },
            Some(r) => Rect {
                x0: r.x0.min(x),
                y0: r.y0.min(y),
                x1: r.x1.max(x),
                y1: r.y1.max(y),
            },
        })
    })
}

/// The live cells of a grid `world` at plane coordinates ([`World::plane_origin`]).
pub fn plane_cells(world: &World) -> impl Iterator<Item = (i128, i128)> + '_ {
    plane_states(world).filter_map(|(x, y, state)| (state == 1).then_some((x, y)))
}

/// Every cell of a grid `world` not in state 0, with its state (1 live, 2.. the second
/// plane), at plane coordinates: grid cell `(x, y)` lies at [`World::plane_origin`]
/// `+ (x, y)`.
pub fn plane_states(world: &World) -> impl Iterator<Item = (i128, i128, u8)> + '_ {
    let w = world.width() as usize;
    let (ox, oy) = world.plane_origin();
    let (ox, oy) = (i128::from(ox), i128::from(oy));
    let dying = world.dying();
    world
        .ages()
        .iter()
        .enumerate()
        .filter_map(move |(i, &age)| {
            let state = if age > 0 {
                1
            } else {
                dying.get(i).copied().unwrap_or(0)
            };
            (state != 0).then(|| (ox + (i % w) as i128, oy + (i / w) as i128, state))
        })
}

#[cfg(test)]
mod tests;
