//! A lifetree: the hashed universes behind a set of patterns, one per rule, each a
//! [`HashedUniverse`] spoken to through the [`Universe`] trait. A pattern is a kept state
//! ([`Kept`]) of its rule's universe: it shares every node with the other patterns of that
//! rule, costs one root, and never changes (lifelib's patterns are values; the few
//! mutating calls replace the pattern's kept state with a new one).
//!
//! Everything that touches a universe goes through [`Tree::with`], which takes the tree's
//! lock with the GIL released (a step may hold the lock for long; another Python thread
//! waiting for it must not hold the GIL meanwhile).

use std::sync::{Arc, Mutex};

use golab::hashlife::default_memory_limit;
use golab::rule::Rule;
use golab::universe::{HashedUniverse, Kept, Rect, Universe, UniverseError};
use pyo3::prelude::*;

use crate::errors::to_py;
use crate::interrupt;

/// One cell and its state, in plane coordinates (x right, y down).
pub type Cell = (i128, i128, u8);

/// One rule's universe and the kept empty state new patterns start from.
struct RuleWorld {
    rule: Rule,
    universe: HashedUniverse,
    empty: Kept,
}

/// The universes of one lifetree (see the module docs).
pub struct Worlds {
    rules: Vec<RuleWorld>,
    limit_bytes: usize,
}

impl Worlds {
    /// The universe running `rule`, made on first use.
    pub fn universe(&mut self, rule: Rule) -> Result<&mut HashedUniverse, UniverseError> {
        Ok(&mut self.entry(rule)?.universe)
    }

    fn entry(&mut self, rule: Rule) -> Result<&mut RuleWorld, UniverseError> {
        let at = match self.rules.iter().position(|w| w.rule == rule) {
            Some(at) => at,
            None => {
                let mut universe = HashedUniverse::empty(rule, self.limit_bytes)?;
                universe.set_interrupt(interrupt::FLAG.clone());
                let empty = universe.keep()?;
                self.rules.push(RuleWorld {
                    rule,
                    universe,
                    empty,
                });
                self.rules.len() - 1
            }
        };
        Ok(&mut self.rules[at])
    }

    /// A new kept state of `rule` holding `cells` (states 0 skipped), at generation 0.
    pub fn build(&mut self, rule: Rule, cells: &[Cell]) -> Result<Kept, UniverseError> {
        let world = self.entry(rule)?;
        world.universe.restore(&world.empty)?;
        let live: Vec<Cell> = cells.iter().copied().filter(|c| c.2 != 0).collect();
        world.universe.set_states(&live)?;
        world.universe.keep()
    }

    /// Put `kept` (of `rule`) in the universe and run `f` on it; what `f` leaves behind is
    /// not kept unless `f` keeps it.
    pub fn at<T>(
        &mut self,
        rule: Rule,
        kept: &Kept,
        f: impl FnOnce(&mut HashedUniverse) -> Result<T, UniverseError>,
    ) -> Result<T, UniverseError> {
        let universe = self.universe(rule)?;
        universe.restore(kept)?;
        f(universe)
    }

    /// Every cell of `kept` not in state 0, row by row.
    pub fn cells(&mut self, rule: Rule, kept: &Kept) -> Result<Vec<Cell>, UniverseError> {
        self.at(rule, kept, |u| match u.bounds()? {
            Some(b) => u.states_in(b),
            None => Ok(Vec::new()),
        })
    }

    /// The cells of `kept` inside `rect`, row by row.
    pub fn cells_in(
        &mut self,
        rule: Rule,
        kept: &Kept,
        rect: Rect,
    ) -> Result<Vec<Cell>, UniverseError> {
        self.at(rule, kept, |u| u.states_in(rect))
    }

    /// Let `kept` go (a pattern was dropped).
    pub fn release(&mut self, rule: Rule, kept: Kept) {
        if let Ok(u) = self.universe(rule) {
            u.release(kept);
        }
    }
}

/// A lifetree's shared universes.
pub struct Tree {
    worlds: Mutex<Worlds>,
}

impl Tree {
    /// A tree collecting garbage at `memory_mib` MiB (lifelib's `memory`), each rule's
    /// universe alike.
    pub fn new(memory_mib: Option<u64>) -> Arc<Tree> {
        let limit_bytes = memory_mib
            .map(|m| usize::try_from(m.saturating_mul(1 << 20)).unwrap_or(usize::MAX))
            .unwrap_or_else(default_memory_limit);
        Arc::new(Tree {
            worlds: Mutex::new(Worlds {
                rules: Vec::new(),
                limit_bytes,
            }),
        })
    }

    /// Run `f` on the universes, with the GIL released and Ctrl-C watched; its error becomes
    /// a Python exception.
    pub fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Worlds) -> Result<T, UniverseError> + Send,
    ) -> PyResult<T> {
        interrupt::run(py, || {
            let mut worlds = self.worlds.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut worlds)
        })?
        .map_err(to_py)
    }

    /// Let a dropped pattern's state go (without Python: drops may run anywhere).
    pub fn release(&self, rule: Rule, kept: Kept) {
        let mut worlds = self.worlds.lock().unwrap_or_else(|e| e.into_inner());
        worlds.release(rule, kept);
    }
}

/// The rectangle from `(x0, y0)` to `(x1, y1)` inclusive.
pub fn rect(x0: i128, y0: i128, x1: i128, y1: i128) -> Rect {
    Rect { x0, y0, x1, y1 }
}
