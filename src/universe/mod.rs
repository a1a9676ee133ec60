//! What a world is to its callers: a [`Universe`] — cells at plane coordinates, a rule, a
//! generation count, a way to step and to save. Two kinds today, behind one trait:
//!
//! - [`GridUniverse`]: the bounded grid (torus or dead border) stepped by any grid strategy
//!   through a [`Simulation`], with ages; its cell `(x, y)` lies at plane coordinates
//!   `(x − width/2, y − height/2)`, so a pattern placed centred keeps Golly's coordinates
//!   near the origin.
//! - [`Hashed`]: the unbounded plane stepped by HashLife (two-state or multi-state
//!   engine, chosen by the rule), no ages.
//!
//! A caller holds a `Box<dyn Universe>` and never asks which kind it has for stepping,
//! counting, bounds, cells or saving; a third kind (the growing grid Larger than Life
//! needs) implements the same trait. Coordinates are `i128` and counts `u128` everywhere,
//! so the grid's small numbers and the plane's astronomical ones share one interface.
//! (The window and its runner still hold a grid [`Simulation`]; moving them onto this trait
//! is the next step, see docs/architecture.md.)

use std::path::Path;

use thiserror::Error;

use crate::hashlife::{HashError, Hashed, MemoryReport, Rect, load};
use crate::pattern::{Format, Pattern, PatternError};
use crate::rule::Rule;
use crate::sim::{SimError, Simulation};
use crate::world::{CellEdit, World};

/// Why a universe refused a request; the universe is unchanged after any of these.
#[derive(Debug, Error)]
pub enum UniverseError {
    /// The grid's simulation failed.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The hashed universe refused (rule, size).
    #[error(transparent)]
    Hash(#[from] HashError),
    /// Reading or writing a pattern failed.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// A count or coordinate outside what this kind holds.
    #[error("{0}")]
    Limit(String),
}

/// What kind of universe, for titles and reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A bounded grid.
    Grid {
        /// Width in cells.
        width: u32,
        /// Height in cells.
        height: u32,
        /// `torus` or `dead`.
        topology: String,
        /// The strategy stepping it.
        strategy: String,
    },
    /// The unbounded hashed plane.
    Hashed,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Kind::Grid {
                width,
                height,
                topology,
                strategy,
            } => write!(f, "{width}x{height} {topology} grid ({strategy})"),
            Kind::Hashed => f.write_str("unbounded plane (hashlife)"),
        }
    }
}

/// One interface over every kind of universe (see the module docs).
pub trait Universe: Send {
    /// Which kind this is.
    fn kind(&self) -> Kind;
    /// The rule in force.
    fn rule(&self) -> Rule;
    /// The generation reached.
    fn generation(&self) -> u128;
    /// Step `generations`; `cancel` is asked between pieces of work. Returns how many were
    /// stepped (fewer only when cancelled), every cell exact at that generation.
    fn step(&mut self, generations: u128, cancel: &dyn Fn() -> bool)
    -> Result<u128, UniverseError>;
    /// Live cells.
    fn population(&mut self) -> Result<u128, UniverseError>;
    /// The smallest rectangle holding every live cell, in plane coordinates.
    fn bounds(&mut self) -> Result<Option<Rect>, UniverseError>;
    /// The live cells inside `rect`.
    fn cells_in(&mut self, rect: Rect) -> Result<Vec<(i128, i128)>, UniverseError>;
    /// Make one cell alive or dead (outside a grid: refused).
    fn set_cell(&mut self, x: i128, y: i128, alive: bool) -> Result<(), UniverseError>;
    /// Save to `path` in the format of its extension (`.gz` compressed).
    fn save(&mut self, path: &Path, comments: &[String]) -> Result<Format, UniverseError>;
    /// The node store's memory, for kinds that have one.
    fn memory(&self) -> Option<MemoryReport> {
        None
    }
}

impl Universe for Hashed {
    fn kind(&self) -> Kind {
        Kind::Hashed
    }
    fn rule(&self) -> Rule {
        Hashed::rule(self)
    }
    fn generation(&self) -> u128 {
        Hashed::generation(self)
    }
    fn step(
        &mut self,
        generations: u128,
        cancel: &dyn Fn() -> bool,
    ) -> Result<u128, UniverseError> {
        if generations.is_power_of_two() {
            if cancel() {
                return Ok(0);
            }
            self.step_pow2(generations.trailing_zeros())?;
            return Ok(generations);
        }
        Ok(self.advance(generations, cancel)?)
    }
    fn population(&mut self) -> Result<u128, UniverseError> {
        Ok(Hashed::population(self))
    }
    fn bounds(&mut self) -> Result<Option<Rect>, UniverseError> {
        Ok(Hashed::bounds(self))
    }
    fn cells_in(&mut self, rect: Rect) -> Result<Vec<(i128, i128)>, UniverseError> {
        Ok(Hashed::cells_in(self, rect))
    }
    fn set_cell(&mut self, x: i128, y: i128, alive: bool) -> Result<(), UniverseError> {
        Ok(self.set(x, y, alive)?)
    }
    fn save(&mut self, path: &Path, comments: &[String]) -> Result<Format, UniverseError> {
        Ok(load::save(self, path, comments)?)
    }
    fn memory(&self) -> Option<MemoryReport> {
        Some(Hashed::memory(self))
    }
}

/// The live cells of a grid `world` at plane coordinates: cell `(x, y)` at
/// `(x − width/2, y − height/2)`, the grid's centre at the origin (as [`GridUniverse`] and a
/// pattern saved from a grid place it).
pub fn plane_cells(world: &World) -> impl Iterator<Item = (i128, i128)> + '_ {
    plane_states(world).filter_map(|(x, y, state)| (state == 1).then_some((x, y)))
}

/// Every cell of a grid `world` not in state 0, with its state (1 live, 2.. dying under
/// Generations), at plane coordinates as [`plane_cells`] places them.
pub fn plane_states(world: &World) -> impl Iterator<Item = (i128, i128, u8)> + '_ {
    let w = world.width() as usize;
    let (ox, oy) = (
        i128::from(world.width() / 2),
        i128::from(world.height() / 2),
    );
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
            (state != 0).then(|| ((i % w) as i128 - ox, (i / w) as i128 - oy, state))
        })
}

/// The bounded grid as a [`Universe`]: a [`Simulation`] and the plane offset of its cells.
pub struct GridUniverse {
    sim: Simulation,
}

impl GridUniverse {
    /// The grid `sim` runs.
    pub fn new(sim: Simulation) -> GridUniverse {
        GridUniverse { sim }
    }

    /// The simulation (strategy switches, statistics with ages, the grid's own reports).
    pub fn simulation(&mut self) -> &mut Simulation {
        &mut self.sim
    }

    /// Plane coordinates of grid cell (0, 0).
    fn origin(&self) -> (i128, i128) {
        let (w, h) = self.sim.size();
        (-i128::from(w / 2), -i128::from(h / 2))
    }
}

impl Universe for GridUniverse {
    fn kind(&self) -> Kind {
        let (width, height) = self.sim.size();
        Kind::Grid {
            width,
            height,
            topology: match (self.sim.grows(), self.sim.topology()) {
                (true, crate::world::Topology::Joined(join)) => format!("{join}, growing"),
                (true, _) => "growing".to_string(),
                (false, topology) => topology.to_string(),
            },
            strategy: self.sim.strategy().name().to_string(),
        }
    }
    fn rule(&self) -> Rule {
        self.sim.rule()
    }
    fn generation(&self) -> u128 {
        self.sim.generation().into()
    }
    fn step(
        &mut self,
        generations: u128,
        cancel: &dyn Fn() -> bool,
    ) -> Result<u128, UniverseError> {
        let room = u64::MAX - self.sim.generation();
        let total = u64::try_from(generations)
            .ok()
            .filter(|&g| g <= room)
            .ok_or_else(|| {
                UniverseError::Limit(format!(
                    "a grid counts generations up to 2^64 - 1; {generations} more would pass it (the hashed universe counts to 2^128)"
                ))
            })?;
        // Pieces of at most 2^16 generations, so a cancel is seen.
        let mut done = 0u64;
        while done < total && !cancel() {
            let piece = (total - done).min(1 << 16);
            self.sim.step(piece)?;
            done += piece;
        }
        Ok(done.into())
    }
    fn population(&mut self) -> Result<u128, UniverseError> {
        Ok(self.sim.world()?.population().into())
    }
    fn bounds(&mut self) -> Result<Option<Rect>, UniverseError> {
        Ok(plane_cells(self.sim.world()?).fold(None, |rect, (x, y)| {
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
        }))
    }
    fn cells_in(&mut self, rect: Rect) -> Result<Vec<(i128, i128)>, UniverseError> {
        Ok(plane_cells(self.sim.world()?)
            .filter(|&(x, y)| x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1)
            .collect())
    }
    fn set_cell(&mut self, x: i128, y: i128, alive: bool) -> Result<(), UniverseError> {
        let (ox, oy) = self.origin();
        let (w, h) = self.sim.size();
        let (gx, gy) = (x - ox, y - oy);
        if gx < 0 || gy < 0 || gx >= i128::from(w) || gy >= i128::from(h) {
            return Err(UniverseError::Limit(format!(
                "cell ({x}, {y}) is outside the {w}x{h} grid"
            )));
        }
        let edit = CellEdit {
            x: gx as u32,
            y: gy as u32,
            alive,
        };
        Ok(self.sim.edit(&[edit])?)
    }
    fn save(&mut self, path: &Path, comments: &[String]) -> Result<Format, UniverseError> {
        let mut pattern = Pattern::of_world(self.sim.world()?);
        pattern.comments = comments.to_vec();
        Ok(crate::pattern::save_file(&pattern, path)?)
    }
}

#[cfg(test)]
mod tests;
