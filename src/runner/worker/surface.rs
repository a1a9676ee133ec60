//! Which universe holds the world, and when it moves: a strategy picked (a grid strategy,
//! or `hashlife`), a surface chosen (unbounded, or a bounded grid), a rule a universe cannot
//! run, and the unbounded world's own policy — it keeps ages and the user's strategy in a
//! grid that grows with the pattern while that fits, and moves to hashing when the grid
//! would grow past [`GRID_CELLS`], the user steps by [`HASH_STEP`] generations or more, or
//! a Step or Go to would take longer than [`GRID_STEP_SECONDS`] on the grid, saying so in
//! the status line (Larger than Life, which cannot hash, stays on its grid).

use super::Worker;
use crate::rule::Rule;
use crate::runner::Speed;
use crate::sim::SimError;
use crate::step::Strategy;
use crate::universe::{Bounds, GridUniverse, Rect, Universe, UniverseError, convert};
use crate::world::{Topology, World};

/// The most cells an unbounded grid holds before the world moves to hashing (8192²: a
/// quarter of a GiB of ages).
pub const GRID_CELLS: u64 = 1 << 26;

/// A step of at least this many generations (a Step, a Go to, or a running step of this
/// many a second) moves an unbounded grid to hashing, which memoises such steps.
pub const HASH_STEP: u128 = 1 << 16;

/// A Step or Go to whose rest would take longer than this on the unbounded grid (at the
/// last batch's pace) moves to hashing, as Golly's Go to runs hashed: acorn's 5 206
/// generations took minutes on a grid that grows with its gliders.
pub const GRID_STEP_SECONDS: f64 = 2.0;

impl Worker {
    /// The rectangle a grid's cells cover now (plane coordinates), or `None` for the hashed
    /// universe.
    pub(super) fn grid_frame(&mut self) -> Option<Rect> {
        let sim = self.universe.grid()?;
        let (ox, oy) = sim.plane_origin();
        let (w, h) = sim.size();
        Some(Rect {
            x0: ox.into(),
            y0: oy.into(),
            x1: i128::from(ox) + i128::from(w) - 1,
            y1: i128::from(oy) + i128::from(h) - 1,
        })
    }

    /// The grid strategy a conversion back to a grid uses: the one the user last ran.
    fn grid_strategy(&self) -> Strategy {
        self.last_grid_strategy
    }

    /// Replace the world by `next`, keeping the old one whole as one undo step.
    pub(super) fn replace_universe(&mut self, mut next: Box<dyn Universe>) {
        next.set_interrupt(self.shared.interrupt.clone());
        if let Some(limit) = self.memory_limit {
            next.set_memory_limit(limit);
        }
        next.set_threads(self.threads);
        let mut old = std::mem::replace(&mut self.universe, next);
        if let Some(start) = self.start.take() {
            old.release(start);
        }
        self.history.record_replaced(old, self.universe.as_mut());
        self.start_pending = true;
        self.stroke = None;
        if self.universe.capabilities().strategies {
            self.last_grid_strategy = self.universe.strategy();
        }
    }

    /// After undo or redo: a universe swapped in has its own starting pattern, not ours.
    pub(super) fn after_swap(&mut self) {
        if self.universe.id() != self.universe_id {
            self.universe_id = self.universe.id();
            self.start = None;
            self.start_pending = true;
        }
    }

    /// A new grid world (a soup, a cleared grid): in place on a grid, else on a new grid of
    /// the strategy last used.
    pub(super) fn replace_world(&mut self, world: World) -> Result<(), UniverseError> {
        if self.universe.capabilities().strategies {
            self.history.record(self.universe.as_mut())?;
            if let Some(sim) = self.universe.grid() {
                sim.replace_world(world)?;
            }
            return Ok(());
        }
        let sim = crate::sim::Simulation::new(
            self.factory.sharing_device(),
            world,
            self.grid_strategy(),
        )?;
        self.replace_universe(Box::new(GridUniverse::new(sim)));
        Ok(())
    }

    /// Move the world to the hashed universe.
    pub(super) fn hash_it(&mut self) -> Result<(), UniverseError> {
        let limit = self
            .memory_limit
            .unwrap_or_else(crate::hashlife::default_memory_limit);
        let hashed = convert::to_hashed(self.universe.as_mut(), limit)?;
        self.replace_universe(Box::new(hashed));
        self.universe_id = self.universe.id();
        Ok(())
    }

    /// Move the world to a grid stepped by `strategy`: bounded by `bounds`, or unbounded.
    fn onto_grid(
        &mut self,
        strategy: Strategy,
        bounds: Option<Bounds>,
    ) -> Result<(), UniverseError> {
        let grid = convert::to_grid(
            self.universe.as_mut(),
            self.factory.sharing_device(),
            strategy,
            bounds,
        )?;
        self.replace_universe(Box::new(grid));
        self.universe_id = self.universe.id();
        Ok(())
    }

    /// Switch strategy: a grid strategy in place, or across to the other implementation.
    pub(super) fn switch(&mut self, strategy: Strategy) -> Result<(), UniverseError> {
        let caps = self.universe.capabilities();
        match (strategy, caps.strategies) {
            (Strategy::Hashlife, _) if caps.hashing => Ok(()),
            (Strategy::Hashlife, _) => self.hash_it(),
            (_, true) => {
                self.universe.switch_strategy(strategy)?;
                self.last_grid_strategy = strategy;
                Ok(())
            }
            (_, false) => {
                self.onto_grid(strategy, caps.bounded)?;
                self.last_grid_strategy = strategy;
                Ok(())
            }
        }
    }

    /// Make the world unbounded: a grid grows with its pattern (ages kept); a rule only the
    /// hashed universe runs unbounded (B0) moves there; a bounded hashed grid drops its
    /// bound.
    pub(super) fn make_unbounded(&mut self) -> Result<(), UniverseError> {
        let caps = self.universe.capabilities();
        if caps.bounded.is_none() {
            return Ok(());
        }
        let rule = self.universe.rule();
        if caps.strategies && convert::grows_under(&rule) {
            self.history.record(self.universe.as_mut())?;
            if let Some(sim) = self.universe.grid() {
                sim.modify(|w| {
                    let mut next = w.clone();
                    next.topology = Topology::DeadBorder;
                    next.grows = true;
                    Ok(next)
                })?;
            }
            return Ok(());
        }
        let hashed = self.hashed_copy()?;
        self.replace_universe(Box::new(hashed));
        self.universe_id = self.universe.id();
        Ok(())
    }

    /// An unbounded hashed universe holding the world's cells, rule and generation.
    fn hashed_copy(&mut self) -> Result<crate::universe::HashedUniverse, UniverseError> {
        let limit = self
            .memory_limit
            .unwrap_or_else(crate::hashlife::default_memory_limit);
        let mut inner = crate::hashlife::Hashed::new(self.universe.rule(), limit)?;
        inner.load_states(convert::all_states(self.universe.as_mut())?)?;
        inner.set_generation(self.universe.generation());
        Ok(crate::universe::HashedUniverse::new(inner))
    }

    /// Make the world a bounded grid of `bounds`, keeping its cells (and ages, from a grid).
    pub(super) fn make_bounded(&mut self, bounds: Bounds) -> Result<(), UniverseError> {
        let caps = self.universe.capabilities();
        if caps.strategies {
            self.history.record(self.universe.as_mut())?;
            if let Some(sim) = self.universe.grid() {
                sim.modify(|w| {
                    crate::world::check_surface(
                        bounds.topology,
                        bounds.width,
                        bounds.height,
                        w.rule(),
                    )?;
                    // Centred on the plane's origin, as Golly centres a bounded grid.
                    let (ox, oy) = w.plane_origin();
                    let left = -i64::from(bounds.width / 2) - ox;
                    let top = -i64::from(bounds.height / 2) - oy;
                    let mut next = w.reframed(left, top, bounds.width, bounds.height)?;
                    next.topology = bounds.topology;
                    next.grows = false;
                    Ok(next)
                })?;
            }
            return Ok(());
        }
        // Hashed: where hashlife runs the bound, in place; else onto a grid.
        let rule = self.universe.rule();
        if crate::universe::check_bound(&rule, bounds).is_ok() {
            let bounded = self.hashed_copy()?.bounded(bounds)?;
            self.replace_universe(Box::new(bounded));
            self.universe_id = self.universe.id();
            return Ok(());
        }
        self.onto_grid(self.grid_strategy(), Some(bounds))
    }

    /// Change the rule; a rule the universe cannot run moves the world to one that can
    /// (Larger than Life off hashing onto a growing grid, B0 off a growing grid onto
    /// hashing).
    pub(super) fn set_rule(&mut self, rule: Rule) -> Result<(), UniverseError> {
        let caps = self.universe.capabilities();
        if caps.hashing && rule.is_ltl() {
            let strategy = match self.grid_strategy() {
                s if s.supports(&rule).is_ok() => s,
                _ => Strategy::Rayon,
            };
            self.onto_grid(strategy, caps.bounded)?;
        } else if caps.strategies && caps.bounded.is_none() && !convert::grows_under(&rule) {
            self.hash_it()?;
        }
        self.universe.set_rule(rule)
    }

    /// Before a batch of `want` generations: an unbounded grid asked for a huge step moves
    /// to hashing (`true`: moved, step on the next loop).
    pub(super) fn hash_before(&mut self, want: u128) -> bool {
        let caps = self.universe.capabilities();
        if caps.hashing || caps.bounded.is_some() || self.universe.rule().is_ltl() {
            return false;
        }
        let asked = if self.pending > 0 {
            self.pending
        } else {
            match self.speed {
                Speed::PerFrame(n) if self.running => u128::from(n) * 60,
                _ => want,
            }
        };
        let grid_seconds = self
            .pending_seconds_per_gen
            .filter(|_| self.pending > 0)
            .map(|s| s * self.pending as f64);
        if let Some(seconds) = grid_seconds.filter(|&s| s > GRID_STEP_SECONDS) {
            return self.move_hash_it(format!(
                "moved to hashlife: the {} generations left would take about {seconds:.0} s on the grid (the grid keeps ages; pick a grid strategy to go back)",
                self.pending
            ));
        }
        if asked < HASH_STEP {
            return false;
        }
        self.move_hash_it(format!(
            "moved to hashlife: a step of {asked} generations runs fastest hashed (the grid keeps ages; pick a grid strategy to go back)"
        ))
    }

    /// After a failed step: an unbounded grid that outgrew the largest grid moves to
    /// hashing (`true`: moved).
    pub(super) fn hash_after(&mut self, error: &UniverseError) -> bool {
        let outgrown = matches!(error, UniverseError::Sim(SimError::Outgrown(_)));
        if !outgrown || self.universe.rule().is_ltl() {
            return false;
        }
        self.move_hash_it(format!("moved to hashlife: {error}"))
    }

    /// After a batch: an unbounded grid past [`GRID_CELLS`] moves to hashing.
    pub(super) fn move_to_hashing_if_outgrown(&mut self) {
        let caps = self.universe.capabilities();
        if caps.hashing || caps.bounded.is_some() || self.universe.rule().is_ltl() {
            return;
        }
        let Some(sim) = self.universe.grid() else {
            return;
        };
        let (w, h) = sim.size();
        if u64::from(w) * u64::from(h) <= GRID_CELLS {
            return;
        }
        self.move_hash_it(format!(
            "moved to hashlife: the pattern outgrew a {w}×{h} grid (the unbounded grid keeps at most {GRID_CELLS} cells); pick a grid strategy to go back while it fits"
        ));
    }

    fn move_hash_it(&mut self, why: String) -> bool {
        match self.hash_it() {
            Ok(()) => {
                self.note_warning(why);
                true
            }
            Err(_) => false,
        }
    }
}
