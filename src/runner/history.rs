//! Undo and redo of world changes, as whole-world snapshots within a memory budget.
//!
//! Like Golly, undo returns the world to exactly how it was before a change (cells, ages,
//! generation). Snapshots are whole worlds, so the history keeps as many as fit in
//! [`History::budget_bytes`]: hundreds at 1024², one or two at 8192².

use std::collections::VecDeque;

use crate::world::World;

/// Undo and redo stacks of world snapshots.
#[derive(Debug)]
pub struct History {
    undo: VecDeque<World>,
    redo: Vec<World>,
    /// Most bytes of snapshots kept; the oldest undo steps are dropped beyond it.
    pub budget_bytes: usize,
}

fn bytes_of(world: &World) -> usize {
    world.len() * std::mem::size_of::<u32>()
}

impl Default for History {
    fn default() -> Self {
        History::with_budget(768 << 20)
    }
}

impl History {
    /// An empty history keeping at most `budget_bytes` of snapshots.
    pub fn with_budget(budget_bytes: usize) -> Self {
        History {
            undo: VecDeque::new(),
            redo: Vec::new(),
            budget_bytes,
        }
    }

    /// Remember `before`, the world as it was before a new change; clears redo.
    pub fn record(&mut self, before: World) {
        self.redo.clear();
        self.undo.push_back(before);
        self.trim();
    }

    /// The world to go back to, given the `current` one (which becomes redoable).
    pub fn undo(&mut self, current: World) -> Option<World> {
        let previous = self.undo.pop_back()?;
        self.redo.push(current);
        self.trim();
        Some(previous)
    }

    /// The world to go forward to, given the `current` one (which becomes undoable).
    pub fn redo(&mut self, current: World) -> Option<World> {
        let next = self.redo.pop()?;
        self.undo.push_back(current);
        self.trim();
        Some(next)
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    fn used(&self) -> usize {
        self.undo.iter().chain(&self.redo).map(bytes_of).sum()
    }

    fn trim(&mut self) {
        while self.used() > self.budget_bytes && self.undo.len() > 1 {
            self.undo.pop_front();
        }
        while self.used() > self.budget_bytes && self.redo.len() > 1 {
            self.redo.remove(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;
    use crate::world::Topology;

    fn world(generation: u64) -> World {
        let mut w = World::new(10, 10, Topology::Torus, Rule::CONWAY).unwrap();
        w.generation = generation;
        w
    }

    #[test]
    fn undo_then_redo_walks_back_and_forth() {
        let mut h = History::default();
        h.record(world(1));
        h.record(world(2));
        assert_eq!(h.undo(world(3)).unwrap().generation, 2);
        assert_eq!(h.undo(world(2)).unwrap().generation, 1);
        assert!(!h.can_undo());
        assert_eq!(h.redo(world(1)).unwrap().generation, 2);
        h.record(world(7));
        assert!(!h.can_redo());
    }

    #[test]
    fn the_budget_drops_the_oldest_snapshots() {
        let mut h = History::with_budget(3 * 400);
        for g in 0..10 {
            h.record(world(g));
        }
        assert_eq!(h.undo.len(), 3);
        assert_eq!(h.undo(world(10)).unwrap().generation, 9);
    }
}
