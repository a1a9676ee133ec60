//! Gosper's recursion on every core: the result of a node needs the results of nine
//! overlapping squares, then of four squares made from those; the ones not memoised yet
//! are computed at once by rayon's work-stealing `join` (above a few levels, where a result
//! is worth a task), over the store shared by every thread ([`super::shared`]).
//!
//! **Stopping the world.** A collection (or a larger table, or more cells) needs every
//! thread out of the recursion. When the store asks for one, each thread's next frame
//! returns `NONE` at once; every frame above it hands the ids it holds (its squares and
//! the results it has) to the *salvage* list and returns `NONE` too, so the whole step
//! unwinds within a few nodes per thread. The calling thread then collects with the salvage
//! as roots — the results computed so far are memoised in nodes it keeps — and starts the
//! step again from the root: the frames that were in flight find their squares and results
//! again with one look-up each. An interrupt unwinds the same way and returns; a store that
//! cannot make room ends the step as full. No thread ever waits for another, so the step
//! shares rayon's pool with anything else without deadlock.
//!
//! Results are bit for bit the single-threaded engine's: nodes are canonical, so whichever
//! thread computes a square's result computes the same node.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::leaves::{Leaves, Words};
use super::shared::Shared;
use super::step::Stepper;
use super::store::NONE;

/// Levels above the leaves from which missing sub-results become tasks (below, a result
/// costs less than handing it to another thread).
const TASK_LEVELS: u8 = 5;

/// Whether a root of `level` is worth the parallel engine (smaller roots spawn no task).
pub(super) fn worth_parallel<L: Leaves>(level: u8) -> bool {
    level >= L::LEVEL + TASK_LEVELS + 2
}

/// A parallel step in flight: the shared store, the evaluator, the step size.
struct Par<'s, L> {
    shared: Shared<'s>,
    leaf_rule: &'s L,
    exponent: u32,
    interrupt: Option<&'s AtomicBool>,
    /// Ids that frames held when the step unwound: the collector's roots.
    salvage: Mutex<Vec<u32>>,
    /// Levels from which missing sub-results become tasks.
    task_level: u8,
}

impl<L: Leaves + Sync> Stepper<L> {
    /// The memoised (or newly computed) result of `id` on `pool`'s threads, equal to
    /// [`Stepper::result`]'s; [`NONE`] when interrupted or when the store is full
    /// ([`super::store::Store::is_full`]).
    pub fn result_parallel(&mut self, id: u32, pool: &rayon::ThreadPool) -> u32 {
        let threads = pool.current_num_threads();
        let mut keep = vec![id];
        loop {
            if self.interrupted() {
                return NONE;
            }
            let Some(threshold) = self.store.prepare_phase(threads, &keep, pool) else {
                return NONE;
            };
            let (r, stopped, tally, salvage) = {
                let par = Par {
                    shared: Shared::new(&self.store, threads, threshold),
                    leaf_rule: self.leaf_rule(),
                    exponent: self.exponent(),
                    interrupt: self.interrupt_flag(),
                    salvage: Mutex::new(Vec::new()),
                    task_level: L::LEVEL + TASK_LEVELS,
                };
                let r = pool.install(|| par.result(id));
                let salvage = par.salvage.into_inner().unwrap_or_else(|e| e.into_inner());
                (r, par.shared.stopping(), par.shared.tally(), salvage)
            };
            self.store.end_phase(tally);
            if r != NONE {
                return r;
            }
            if !stopped && !self.interrupted() {
                // Unwound for no reason the store gave (cannot happen on the pool's own
                // threads): finish on this thread.
                return self.result(id);
            }
            keep.truncate(1);
            keep.extend(salvage);
        }
    }
}

impl<L: Leaves + Sync> Par<'_, L> {
    /// Whether the step is unwinding (the store's stop, or the interrupt).
    #[inline]
    fn unwinding(&self) -> bool {
        self.shared.stopping() || self.interrupt.is_some_and(|f| f.load(Relaxed))
    }

    /// Hand the ids a frame holds to the collector, and unwind.
    fn salvage(&self, held: &[&[u32]]) -> u32 {
        let mut list = self.salvage.lock().unwrap_or_else(|e| e.into_inner());
        for ids in held {
            list.extend(ids.iter().copied().filter(|&id| id != NONE));
        }
        NONE
    }

    #[inline]
    fn join(&self, level: u8, child: [u32; 4]) -> u32 {
        self.shared.find_or_insert(level, child).unwrap_or(NONE)
    }

    /// The leaf of `words`.
    #[inline]
    fn leaf(&self, words: Words) -> u32 {
        self.join(L::LEVEL, words)
    }

    /// The result of `id` (see [`Stepper::result`]), or `NONE` to unwind.
    fn result(&self, id: u32) -> u32 {
        let r = self.shared.result_of(id);
        if r != NONE {
            return r;
        }
        let store = self.shared.store();
        let node = store.node(id);
        let (level, child) = (node.level, node.child);
        let r = if level == L::LEVEL + 1 {
            let leaves = child.map(|c| store.node(c).child);
            let gens = 1u32 << self.exponent.min(u32::from(L::LEVEL) - 1);
            self.leaf(self.leaf_rule.step(leaves, gens))
        } else {
            self.inner(id, level)
        };
        if r != NONE {
            self.shared.set_result(id, r);
        }
        r
    }

    /// The result of a node of `level` above the leaves' parents.
    fn inner(&self, id: u32, level: u8) -> u32 {
        if self.unwinding() {
            return NONE;
        }
        let store = self.shared.store();
        let [nw, ne, sw, se] = store.node(id).child;
        let [a, b, c, d] = [nw, ne, sw, se].map(|q| store.node(q).child);
        let below = level - 1;
        // The five straddling squares (in the nine's slots 1, 3, 4, 5, 7), their slots
        // loaded together.
        let straddles = [
            [a[1], b[0], a[3], b[2]],
            [a[2], a[3], c[0], c[1]],
            [a[3], b[2], c[1], d[0]],
            [b[2], b[3], d[0], d[1]],
            [c[1], d[0], c[3], d[2]],
        ];
        for s in straddles {
            store.prefetch(below, s);
        }
        let mut nine = [nw, NONE, ne, NONE, NONE, NONE, sw, NONE, se];
        for (slot, s) in [1, 3, 4, 5, 7].into_iter().zip(straddles) {
            nine[slot] = self.join(below, s);
            if nine[slot] == NONE {
                return self.salvage(&[&nine]);
            }
        }
        let mut r = [NONE; 9];
        if !self.results(&nine, &mut r, level) {
            return self.salvage(&[&nine, &r]);
        }
        let fours: [[u32; 4]; 4] = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| {
            let at = |x: usize, y: usize| r[(dy + y) * 3 + dx + x];
            [at(0, 0), at(1, 0), at(0, 1), at(1, 1)]
        });
        let mut quarter = [NONE; 4];
        if u32::from(level) - 2 <= self.exponent {
            for four in fours {
                store.prefetch(below, four);
            }
            let mut squares = [NONE; 4];
            for (square, four) in squares.iter_mut().zip(fours) {
                *square = self.join(below, four);
                if *square == NONE {
                    return self.salvage(&[&nine, &r, &squares]);
                }
            }
            if !self.results(&squares, &mut quarter, level) {
                return self.salvage(&[&nine, &r, &squares, &quarter]);
            }
        } else {
            for (q, four) in quarter.iter_mut().zip(fours) {
                *q = self.centre_of(four, level - 2);
                if *q == NONE {
                    return self.salvage(&[&nine, &r, &quarter]);
                }
            }
        }
        let out = self.join(below, quarter);
        if out == NONE {
            return self.salvage(&[&nine, &r, &quarter]);
        }
        out
    }

    /// The centred square (of `level`) of the square four nodes of `level` make.
    fn centre_of(&self, q: [u32; 4], level: u8) -> u32 {
        let store = self.shared.store();
        let [nw, ne, sw, se] = q.map(|c| store.node(c).child);
        if level == L::LEVEL {
            return self.leaf(L::centre([nw, ne, sw, se]));
        }
        self.join(level, [nw[3], ne[2], sw[1], se[0]])
    }

    /// The results of `ids` into `out` (memoised ones read, the others computed: as tasks
    /// from `task_level` up); `false` to unwind.
    fn results(&self, ids: &[u32], out: &mut [u32], level: u8) -> bool {
        let mut todo = [0u32; 9];
        let mut at = [0usize; 9];
        let mut n = 0;
        for (i, (o, &id)) in out.iter_mut().zip(ids).enumerate() {
            *o = self.shared.result_of(id);
            if *o == NONE {
                todo[n] = id;
                at[n] = i;
                n += 1;
            }
        }
        if n == 0 {
            return true;
        }
        if level < self.task_level || n == 1 {
            for k in 0..n {
                out[at[k]] = self.result(todo[k]);
                if out[at[k]] == NONE {
                    return false;
                }
            }
            return true;
        }
        let mut got = [NONE; 9];
        let ok = self.tasks(&todo[..n], &mut got[..n]);
        for k in 0..n {
            out[at[k]] = got[k];
        }
        ok
    }

    /// The results of `ids` into `out`, split in halves run by rayon's `join`.
    fn tasks(&self, ids: &[u32], out: &mut [u32]) -> bool {
        if ids.len() == 1 {
            out[0] = self.result(ids[0]);
            return out[0] != NONE;
        }
        let mid = ids.len() / 2;
        let (first, second) = out.split_at_mut(mid);
        let (a, b) = rayon::join(
            || self.tasks(&ids[..mid], first),
            || self.tasks(&ids[mid..], second),
        );
        a && b
    }
}
