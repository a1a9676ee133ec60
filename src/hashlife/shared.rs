//! The node store shared by the threads of a parallel step ([`super::parallel`]): look-ups
//! and inserts at once through a shared reference, lock-free.
//!
//! - **The table** is the store's open-addressed one. A thread that misses writes its new
//!   node into a cell it owns, then publishes it with a compare-and-swap of the empty slot
//!   its probe stopped at. If another thread filled that slot first, the probe goes on
//!   from there (comparing, in case the other thread made the very same node): slots only
//!   go from empty to full during a step, so two threads probing for one node walk the same
//!   slots, and the first swap wins — nodes stay canonical. A loser gives its cell back.
//! - **Cells** come from ranges of ids each worker claims from a shared cursor (one atomic
//!   add per range, not per node): the free cells left by the last collection, then fresh
//!   ones at the arena's end, added before the step starts. A worker counts what it makes
//!   and adds it to the shared count when it claims its next range.
//! - **A stop**: once the shared count reaches the point where the single-threaded store
//!   would collect, grow its table or give up (or the cells run out), the store raises
//!   `stop` and refuses new ranges; every thread then unwinds ([`super::parallel`]) and the
//!   calling thread collects or grows with no step in flight. Memoised results are written
//!   with plain atomic stores: every thread computing a node's result computes the same
//!   canonical id.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicUsize};

use super::store::{LOAD_DEN, Node, Store, hash, slot_word};

/// The share of the table a parallel step may fill past the single-threaded load limit
/// (the nodes workers make between the count reaching its limit and their unwinding).
const SLACK_TABLE_DEN: usize = 20;

/// A worker's claimed range of cells: `next..end`, and the nodes it made since it last
/// added them to the shared count. Only its own thread touches it (atomics for `Sync`).
#[repr(align(128))]
#[derive(Default)]
struct Worker {
    next: AtomicUsize,
    end: AtomicUsize,
    made: AtomicUsize,
}

/// The store during a parallel step.
pub(super) struct Shared<'s> {
    store: &'s Store,
    workers: Box<[Worker]>,
    /// Start of the next unclaimed range of cells.
    cursor: AtomicUsize,
    /// Cells in the arena (ranges stop there).
    cells: usize,
    /// Cells per claimed range.
    range: usize,
    /// Nodes in use, as far as the workers have told.
    live: AtomicUsize,
    /// The count at which the step stops for the store's sake.
    threshold: usize,
    /// Raised when the store needs the step to stop (or the cells ran out).
    stop: AtomicBool,
}

/// What a parallel step did to the store's counts, to write back once it is over.
pub(super) struct Tally {
    live: usize,
    cursor: usize,
}

impl Store {
    /// Cells per range for `threads` workers: small enough that what all workers hold
    /// stays a small part of the limit, large enough that claims are rare.
    pub(super) fn phase_range(&self, threads: usize) -> usize {
        let scale = self.live.clamp(1 << 12, self.limit_nodes.max(1 << 12));
        (scale / (64 * threads.max(1))).clamp(16, 4096)
    }

    /// Most nodes the workers can make past the shared threshold before they all stop:
    /// each may be a range behind in telling, and finish the range it holds.
    pub(super) fn phase_slack(&self, threads: usize) -> usize {
        2 * threads.max(1) * self.phase_range(threads)
    }

    /// Get ready for a parallel step of `threads` workers, with no step in flight: collect
    /// if the store is due (keeping what `keep` reaches, the sweep on `pool`), make room in
    /// the table for what the step may add past its threshold, and free cells for it.
    /// Returns the threshold (the live count at which the step stops), or `None` when the
    /// store is full (as the single-threaded store would be at this count).
    pub(super) fn prepare_phase(
        &mut self,
        threads: usize,
        keep: &[u32],
        pool: &rayon::ThreadPool,
    ) -> Option<usize> {
        if self.live >= self.collect_at {
            self.collect_with(keep, Some(pool));
        }
        let slack = self.phase_slack(threads);
        if self.live >= self.hard_nodes {
            self.full = true;
            return None;
        }
        while self.table_needs_room(slack) || self.table_tight(slack) {
            self.grow_table();
        }
        let table = self.slots.len() * super::store::FULL_NUM / LOAD_DEN;
        let threshold = self.collect_at.min(self.hard_nodes).min(table);
        // Free cells for the step: what it may make, but touch at most half the arena
        // (or 64 Ki cells) more at a time; running out is a stop like any other.
        let free = self.nodes.len() - self.live;
        let want = (threshold - self.live + slack).min(self.nodes.len() / 2 + (1 << 16));
        if free < want {
            self.extend_free(self.nodes.len() + want - free);
        }
        Some(threshold)
    }

    /// Whether the table would pass its load limit plus a twentieth of its slots.
    fn table_tight(&self, slack: usize) -> bool {
        let table = self.slots.len() * super::store::FULL_NUM / LOAD_DEN;
        self.collect_at.min(self.hard_nodes).min(table) + slack
            > table + self.slots.len() / SLACK_TABLE_DEN
    }

    /// Write back what a parallel step made.
    pub(super) fn end_phase(&mut self, tally: Tally) {
        self.live = tally.live;
        self.cursor = tally.cursor;
    }
}

impl<'s> Shared<'s> {
    /// The store shared by `threads` workers until `threshold` nodes are live.
    pub(super) fn new(store: &'s Store, threads: usize, threshold: usize) -> Shared<'s> {
        Shared {
            store,
            workers: (0..threads).map(|_| Worker::default()).collect(),
            cursor: AtomicUsize::new(store.cursor),
            cells: store.nodes.len(),
            range: store.phase_range(threads),
            live: AtomicUsize::new(store.live),
            threshold,
            stop: AtomicBool::new(false),
        }
    }

    /// The store underneath (reading nodes).
    #[inline]
    pub(super) fn store(&self) -> &'s Store {
        self.store
    }

    /// Whether the store asked the step to stop.
    #[inline]
    pub(super) fn stopping(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// The counts once every worker is done.
    pub(super) fn tally(&self) -> Tally {
        let mut live = self.live.load(Relaxed);
        // The first cell no worker looked at: cells below it are all in use.
        let mut cursor = self.cursor.load(Relaxed).min(self.cells);
        for w in self.workers.iter() {
            live += w.made.load(Relaxed);
            let (next, end) = (w.next.load(Relaxed), w.end.load(Relaxed));
            if next < end {
                cursor = cursor.min(next);
            }
        }
        Tally { live, cursor }
    }

    /// This thread's worker, or `None` outside the pool the step runs on.
    #[inline]
    fn worker(&self) -> Option<&Worker> {
        self.workers.get(rayon::current_thread_index()?)
    }

    /// A free cell holding `node`, from this worker's range; `None` when the store needs
    /// the step to stop.
    fn alloc(&self, node: Node) -> Option<u32> {
        let w = self.worker()?;
        let nodes = &self.store.nodes;
        loop {
            let (mut i, end) = (w.next.load(Relaxed), w.end.load(Relaxed));
            while i < end {
                if nodes[i].get().level == 0 {
                    // SAFETY: cell `i` lies in this worker's range (claimed by it alone
                    // from the shared cursor) and is free: in no slot, named by no node, so
                    // no other thread reads or writes it.
                    unsafe { nodes[i].write(node) };
                    w.next.store(i + 1, Relaxed);
                    w.made.store(w.made.load(Relaxed) + 1, Relaxed);
                    return Some(i as u32);
                }
                i += 1;
            }
            w.next.store(end, Relaxed);
            // Tell the shared count, then claim the next range unless the store is due.
            let made = w.made.swap(0, Relaxed);
            let live = self.live.fetch_add(made, Relaxed) + made;
            if live >= self.threshold || self.stopping() {
                self.stop.store(true, Relaxed);
                return None;
            }
            let start = self.cursor.fetch_add(self.range, Relaxed);
            if start >= self.cells {
                self.stop.store(true, Relaxed);
                return None;
            }
            w.next.store(start, Relaxed);
            w.end.store((start + self.range).min(self.cells), Relaxed);
        }
    }

    /// Give back the cell of a node that lost the race to publish (never published).
    fn give_back(&self, id: u32) {
        if let Some(w) = self.worker() {
            // SAFETY: the cell was taken by this worker and never published: nobody else
            // knows its id.
            unsafe { self.store.nodes[id as usize].write(Node::new(0, [0; 4])) };
            w.made
                .store(w.made.load(Relaxed).saturating_sub(1), Relaxed);
            if w.next.load(Relaxed) == id as usize + 1 {
                w.next.store(id as usize, Relaxed);
            }
        }
    }

    /// The canonical node of `level` with `child`, found or made; `None` when the store
    /// needs the step to stop.
    pub(super) fn find_or_insert(&self, level: u8, child: [u32; 4]) -> Option<u32> {
        let store = self.store;
        let h = hash(level, child);
        let tag = h >> 32 << 32;
        let mask = store.slots.len() - 1;
        let mut at = (h as usize) & mask;
        let mut made: Option<u32> = None;
        loop {
            let mut slot = store.slots[at].load(Acquire);
            if slot == 0 {
                let id = match made {
                    Some(id) => id,
                    None => {
                        let id = self.alloc(Node::new(level, child))?;
                        made = Some(id);
                        id
                    }
                };
                match store.slots[at].compare_exchange(0, slot_word(h, id), Release, Acquire) {
                    Ok(_) => return Some(id),
                    Err(now) => slot = now,
                }
            }
            if slot & !0xffff_ffff == tag {
                let id = (slot as u32).wrapping_sub(1);
                let n = store.node(id);
                if n.child == child && n.level == level {
                    if let Some(mine) = made {
                        self.give_back(mine);
                    }
                    return Some(id);
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// The memoised result of `id`, or `NONE`.
    #[inline]
    pub(super) fn result_of(&self, id: u32) -> u32 {
        self.store.node(id).result.load(Acquire)
    }

    /// Memoise `result` for `id` (racing threads store the same canonical id).
    #[inline]
    pub(super) fn set_result(&self, id: u32, result: u32) {
        self.store.node(id).result.store(result, Release);
    }
}
