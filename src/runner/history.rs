//! Undo and redo through the one universe interface: each step back is a state the
//! universe kept ([`Universe::keep`]: a copy of a grid, one root of the hashed universe),
//! or, across a conversion (a grid strategy picked after hashlife, an unbounded world made
//! bounded), the whole universe that was replaced. Like Golly, undo returns the world to
//! exactly how it was (cells, ages where kept, generation), within a memory budget for the
//! grid copies.

use std::collections::VecDeque;

use crate::universe::{Kept, Universe};

/// One step back (or forward).
pub enum Entry {
    /// A state of the universe that is current when the entry is reached.
    Kept(Kept),
    /// The universe that was current before a conversion replaced it.
    Universe(Box<dyn Universe>),
}

/// Undo and redo stacks.
pub struct History {
    undo: VecDeque<Entry>,
    redo: Vec<Entry>,
    /// Most bytes of grid copies kept; the oldest undo steps are dropped beyond it.
    pub budget_bytes: usize,
}

impl Default for History {
    fn default() -> Self {
        History::with_budget(768 << 20)
    }
}

impl History {
    /// An empty history keeping at most `budget_bytes` of grid copies.
    pub fn with_budget(budget_bytes: usize) -> Self {
        History {
            undo: VecDeque::new(),
            redo: Vec::new(),
            budget_bytes,
        }
    }

    /// Remember `universe` as it is, before a new change to it; clears redo.
    pub fn record(
        &mut self,
        universe: &mut dyn Universe,
    ) -> Result<(), crate::universe::UniverseError> {
        let kept = universe.keep()?;
        self.clear_redo(universe);
        self.undo.push_back(Entry::Kept(kept));
        self.trim(universe);
        Ok(())
    }

    /// Remember `old`, replaced by `current` (a conversion or an opened file); clears redo.
    pub fn record_replaced(&mut self, old: Box<dyn Universe>, current: &mut dyn Universe) {
        self.clear_redo(current);
        self.undo.push_back(Entry::Universe(old));
        self.trim(current);
    }

    /// Step back: `current` becomes what it was before the last change (or is swapped for
    /// the universe a conversion replaced). Returns whether anything was undone.
    pub fn undo(
        &mut self,
        current: &mut Box<dyn Universe>,
    ) -> Result<bool, crate::universe::UniverseError> {
        let Some(entry) = self.undo.pop_back() else {
            return Ok(false);
        };
        let back = apply(entry, current)?;
        self.redo.push(back);
        Ok(true)
    }

    /// Step forward again after an undo.
    pub fn redo(
        &mut self,
        current: &mut Box<dyn Universe>,
    ) -> Result<bool, crate::universe::UniverseError> {
        let Some(entry) = self.redo.pop() else {
            return Ok(false);
        };
        let forward = apply(entry, current)?;
        self.undo.push_back(forward);
        Ok(true)
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forget everything (the universe they belong to is being dropped).
    pub fn clear(&mut self, current: &mut dyn Universe) {
        self.clear_redo(current);
        for entry in self.undo.drain(..) {
            if let Entry::Kept(k) = entry {
                current.release(k);
            }
        }
    }

    fn clear_redo(&mut self, current: &mut dyn Universe) {
        for entry in self.redo.drain(..) {
            if let Entry::Kept(k) = entry {
                current.release(k);
            }
        }
    }

    /// Drop the oldest steps while the grid copies pass the budget (one step stays).
    fn trim(&mut self, current: &mut dyn Universe) {
        while current.kept_bytes() > self.budget_bytes && self.undo.len() > 1 {
            if let Some(Entry::Kept(k)) = self.undo.pop_front() {
                current.release(k);
            }
        }
    }
}

/// Go to `entry` from `current`, returning the entry that comes back the other way.
fn apply(
    entry: Entry,
    current: &mut Box<dyn Universe>,
) -> Result<Entry, crate::universe::UniverseError> {
    Ok(match entry {
        Entry::Kept(target) => {
            let here = current.keep()?;
            if let Err(e) = current.restore(&target) {
                current.release(here);
                return Err(e);
            }
            current.release(target);
            Entry::Kept(here)
        }
        Entry::Universe(other) => Entry::Universe(std::mem::replace(current, other)),
    })
}
