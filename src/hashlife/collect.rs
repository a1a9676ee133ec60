//! Garbage collection of the node store: mark what the roots, the protected ids and (on a
//! first try) the memoised results reach, then one pass over the arena that frees the rest
//! and puts the survivors back in a cleared table — the sweep and the rebuild of the table
//! are one walk of the arena, as in Golly's collector.
//!
//! Marks are epochs: a node is reachable when its mark equals the collection's epoch, so no
//! pass clears marks afterwards (once every 255 collections the epochs wrap and every mark
//! is reset). If the marked nodes (results kept) fill more than half the limit, the memoised
//! results are dropped and the nodes marked again before anything is swept: one sweep
//! either way. With a thread pool the sweep runs on every thread, each over its own range
//! of the arena, putting survivors in the table with compare-and-swap.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::store::{Cell, NONE, Store, hash, slot_word};

/// Cells per piece of a parallel sweep.
const SWEEP_CHUNK: usize = 1 << 14;

impl Store {
    /// Collect now: free what no root, protected id or `also` (the children of the node
    /// about to be made) reaches (single-threaded).
    pub(super) fn collect(&mut self, also: [u32; 4]) {
        self.collect_with(&also, None);
    }

    /// Collect, keeping what the roots, the protected stack and `extra` reach; the sweep on
    /// `pool`'s threads when there is one. Memoised results are kept unless the nodes they
    /// keep fill more than half the limit.
    pub(super) fn collect_with(&mut self, extra: &[u32], pool: Option<&rayon::ThreadPool>) {
        let mut marked = self.mark_all(extra, true);
        let keep_results = marked * 2 <= self.limit_nodes;
        if !keep_results {
            marked = self.mark_all(extra, false);
            self.forget_unmarked_results(pool);
        }
        self.sweep(pool);
        debug_assert_eq!(self.live, marked);
        self.collections += 1;
        self.cursor = 0;
        // A store still fuller than its limit grows on rather than collecting on every
        // allocation (each collection walks the whole store); a step gives up once it passes
        // `hard_nodes` (`full`), so only a pattern larger than the limit holds more.
        self.collect_at = self.limit_nodes.max(self.live + self.live / 4);
    }

    /// After a step gave up for want of memory: forget every memoised result and collect,
    /// so the store is back under its limit, and clear [`Store::is_full`].
    pub fn recover_from_full(&mut self) {
        self.clear_results_above(0);
        self.collect([NONE; 4]);
        self.full = false;
    }

    /// Start a new epoch and mark from every root; the number of nodes marked.
    fn mark_all(&mut self, extra: &[u32], with_results: bool) -> usize {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for cell in &mut self.nodes {
                *cell.get_mut().mark.get_mut() = 0;
            }
            self.epoch = 1;
        }
        let roots: Vec<u32> = self
            .roots
            .iter()
            .chain(&self.stack)
            .chain(self.empties())
            .chain(extra)
            .copied()
            .filter(|&r| r != NONE)
            .collect();
        let mut count = 0;
        let mut pending = Vec::new();
        for r in roots {
            count += self.mark(r, with_results, &mut pending);
        }
        count
    }

    /// Mark `id` and what it reaches (children, and results when `with_results`); the
    /// number newly marked. `pending` is the walk's own stack (no recursion).
    fn mark(&mut self, id: u32, with_results: bool, pending: &mut Vec<u32>) -> usize {
        let (epoch, leaf_level) = (self.epoch, self.leaf_level());
        let mut count = 0;
        pending.push(id);
        while let Some(id) = pending.pop() {
            let n = self.nodes[id as usize].get_mut();
            if *n.mark.get_mut() == epoch {
                continue;
            }
            *n.mark.get_mut() = epoch;
            count += 1;
            if n.level > leaf_level {
                pending.extend(n.child);
            }
            let result = *n.result.get_mut();
            if with_results && result != NONE {
                pending.push(result);
            }
        }
        count
    }

    /// Forget the results of marked nodes that point at unmarked ones (about to be freed).
    fn forget_unmarked_results(&mut self, pool: Option<&rayon::ThreadPool>) {
        let epoch = self.epoch;
        let nodes = &self.nodes;
        let forget = |cell: &Cell| {
            let n = cell.get();
            let r = n.result();
            if n.level != 0
                && n.mark.load(Relaxed) == epoch
                && r != NONE
                && nodes[r as usize].get().mark.load(Relaxed) != epoch
            {
                n.result.store(NONE, Relaxed);
            }
        };
        match pool {
            Some(pool) => {
                pool.install(|| nodes.par_iter().with_min_len(SWEEP_CHUNK).for_each(forget))
            }
            None => nodes.iter().for_each(forget),
        }
    }

    /// Free every unmarked node and put the marked ones in the cleared table.
    fn sweep(&mut self, pool: Option<&rayon::ThreadPool>) {
        let epoch = self.epoch;
        match pool {
            None => {
                self.slots.iter_mut().for_each(|s| *s.get_mut() = 0);
                let mut live = 0;
                for id in 0..self.nodes.len() {
                    let n = self.nodes[id].get_mut();
                    if n.level == 0 {
                        continue;
                    }
                    if *n.mark.get_mut() == epoch {
                        live += 1;
                        let h = hash(n.level, n.child);
                        self.link(id as u32, h);
                    } else {
                        n.level = 0;
                    }
                }
                self.live = live;
            }
            Some(pool) => {
                let slots = &self.slots;
                let nodes = &mut self.nodes;
                self.live = pool.install(|| {
                    slots
                        .par_iter()
                        .with_min_len(SWEEP_CHUNK)
                        .for_each(|s| s.store(0, Relaxed));
                    nodes
                        .par_chunks_mut(SWEEP_CHUNK)
                        .enumerate()
                        .map(|(k, chunk)| sweep_chunk(slots, k * SWEEP_CHUNK, chunk, epoch))
                        .sum()
                });
            }
        }
    }

    /// Forget the memoised results of every node above `level` (their step size changed).
    pub fn clear_results_above(&mut self, level: u8) {
        for cell in &mut self.nodes {
            let n = cell.get_mut();
            if n.level > level {
                *n.result.get_mut() = NONE;
            }
        }
    }
}

/// Sweep the cells of ids `first..` in `chunk`: free the unmarked, link the marked into
/// `slots` (another thread links its own chunk meanwhile); the number kept.
fn sweep_chunk(slots: &[AtomicU64], first: usize, chunk: &mut [Cell], epoch: u8) -> usize {
    let mask = slots.len() - 1;
    let mut live = 0;
    for (i, cell) in chunk.iter_mut().enumerate() {
        let n = cell.get_mut();
        if n.level == 0 {
            continue;
        }
        if *n.mark.get_mut() != epoch {
            n.level = 0;
            continue;
        }
        live += 1;
        let h = hash(n.level, n.child);
        let word = slot_word(h, (first + i) as u32);
        let mut at = (h as usize) & mask;
        while slots[at]
            .compare_exchange(0, word, Relaxed, Relaxed)
            .is_err()
        {
            at = (at + 1) & mask;
        }
    }
    live
}
