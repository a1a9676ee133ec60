//! The node store of the hashed universe: canonical quadtree nodes in one arena, found by
//! their children through a chained hash table, with a non-moving mark-and-sweep collector
//! that keeps the store under a memory limit.
//!
//! A node of level `k` is a square of side `2^k`. Level 3 is the leaf: 8×8 cells as one
//! `u64` (bit `y * 8 + x`), kept in the first two child words. Every other node names four
//! children of level `k − 1` (nw, ne, sw, se). Because nodes are canonical (one node per
//! content), equal squares are one node and a node's memoised result serves every place the
//! square occurs.
//!
//! The table is open-addressed: each slot is one `u64` holding a node id and the top 32
//! bits of its hash, so a probe compares tags within one cache line and touches a node only
//! on a likely match (a look-up is about one cache miss for the slot, one for the node).
//!
//! Ids are `u32` indices into the arena and never move: the collector frees what no root,
//! no protected id ([`Store::protect`]) and, on its first pass, no memoised result reaches,
//! and clears results that point at freed nodes.

/// No node: an unset memoised result, the end of a hash chain or of the free list.
pub const NONE: u32 = u32::MAX;

/// Level of the two-state engine's 8×8 leaves (the multi-state engine's leaves are 2×2,
/// level 1: [`Store::leaf_level`]).
pub const LEAF_LEVEL: u8 = 3;

/// The table grows when more than `LOAD_NUM / LOAD_DEN` of its slots are taken, until it
/// reaches the size the memory limit allows; then it fills to `FULL_NUM / LOAD_DEN`.
const LOAD_NUM: usize = 7;
const FULL_NUM: usize = 8;
const LOAD_DEN: usize = 10;

/// The most nodes a store holds whatever its limit: ids are `u32`, and a limit large enough
/// to pass this (over 90 GiB) holds this many.
const MAX_NODES: usize = (u32::MAX as usize) - (1 << 24);

/// How many nodes, and how many table slots at most, fit `limit_bytes`: the largest
/// power-of-two table whose slots and nodes at full load fit, never fewer than 4 096 nodes,
/// never more than [`MAX_NODES`].
fn budget(limit_bytes: usize) -> (usize, usize) {
    let node = std::mem::size_of::<Node>();
    let per_slot = 8 + node * FULL_NUM / LOAD_DEN;
    let mut slots = 1usize << 13;
    while (slots * 2) * per_slot <= limit_bytes {
        slots *= 2;
    }
    let nodes = (slots * FULL_NUM / LOAD_DEN).min(limit_bytes.saturating_sub(slots * 8) / node);
    (nodes.clamp(4096, MAX_NODES), slots)
}

/// The most live nodes a store of `limit_nodes` holds: the limit plus one collection's
/// headroom (a quarter), past which the step in progress gives up ([`Store::is_full`]).
fn hard_cap(limit_nodes: usize) -> usize {
    (limit_nodes + limit_nodes / 4).min(MAX_NODES)
}

/// One node. `level == 0` marks a free slot (no live node has level below 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Children nw, ne, sw, se; for a leaf, the 64 cell bits (low word, high word, 0, 0).
    pub child: [u32; 4],
    /// The memoised result (the centred square of level `k − 1`, stepped), or [`NONE`];
    /// for a free slot, the next free slot.
    pub result: u32,
    /// The level; 0 for a free slot.
    pub level: u8,
    mark: bool,
}

impl Node {
    /// The 64 cells of a leaf.
    #[inline]
    pub fn bits(&self) -> u64 {
        u64::from(self.child[0]) | u64::from(self.child[1]) << 32
    }
}

/// The arena, its hash table and the collector's roots.
pub struct Store {
    nodes: Vec<Node>,
    /// Open-addressed slots: 0 empty, else `(hash >> 32) << 32 | (id + 1)`.
    slots: Vec<u64>,
    free: u32,
    live: usize,
    empty: Vec<u32>,
    /// Ids the step in progress holds: marked by the collector like roots.
    stack: Vec<u32>,
    /// Roots that outlive a step (the universe's root, the reset point, undo states).
    pub roots: Vec<u32>,
    limit_nodes: usize,
    /// The node count at which the next collection runs: the limit, or more when the last
    /// collection found most of the store alive (then the store grows past its limit
    /// rather than collecting on every allocation).
    collect_at: usize,
    /// The most live nodes: the limit plus one collection's headroom. A node made past it
    /// raises `full`, and the step in progress gives up (the universe stays as it was).
    hard_nodes: usize,
    /// Whether the store passed `hard_nodes` since [`Store::clear_full`].
    full: bool,
    max_slots: usize,
    collections: u64,
    leaf_level: u8,
}

fn hash(level: u8, c: [u32; 4]) -> u64 {
    let mut h = u64::from(level).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for (k, w) in c.into_iter().enumerate() {
        h = (h ^ u64::from(w))
            .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
            .rotate_left(23 + k as u32);
    }
    h ^ (h >> 29)
}

impl Store {
    /// An empty store of 8×8 two-state leaves that collects garbage once it holds
    /// `limit_bytes` worth of nodes (never fewer than 4 096 nodes).
    pub fn new(limit_bytes: usize) -> Store {
        Store::with_leaf_level(limit_bytes, LEAF_LEVEL)
    }

    /// An empty store whose leaves are of `leaf_level` (their cells packed in the four
    /// child words however the leaf kind likes; all-zero words are the empty leaf).
    pub fn with_leaf_level(limit_bytes: usize, leaf_level: u8) -> Store {
        let mut store = Store {
            nodes: Vec::new(),
            slots: vec![0; 1 << 12],
            free: NONE,
            live: 0,
            empty: Vec::new(),
            stack: Vec::new(),
            roots: Vec::new(),
            limit_nodes: budget(limit_bytes).0,
            collect_at: budget(limit_bytes).0,
            hard_nodes: hard_cap(budget(limit_bytes).0),
            full: false,
            max_slots: budget(limit_bytes).1,
            collections: 0,
            leaf_level,
        };
        store.empty = vec![NONE; usize::from(leaf_level)];
        let leaf = store.leaf_of([0; 4]);
        store.empty.push(leaf);
        store
    }

    /// Collect at `limit_bytes` from now on (a smaller limit collects at the next
    /// allocation; the table never shrinks).
    pub fn set_limit(&mut self, limit_bytes: usize) {
        let (nodes, slots) = budget(limit_bytes);
        self.limit_nodes = nodes;
        self.hard_nodes = hard_cap(nodes);
        self.max_slots = slots.max(self.slots.len());
        self.collect_at = nodes;
    }

    /// Whether the store has passed its limit plus one collection's headroom (a collection
    /// could not make room): the step in progress gives up, and the caller says so.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// After a step gave up for want of memory: forget every memoised result and collect,
    /// so the store is back under its limit, and clear [`Store::is_full`].
    pub fn recover_from_full(&mut self) {
        self.clear_results_above(0);
        self.collect([NONE; 4]);
        self.full = false;
    }

    /// The level of this store's leaves.
    #[inline]
    pub fn leaf_level(&self) -> u8 {
        self.leaf_level
    }

    /// The canonical leaf whose four words are `words`.
    pub fn leaf_of(&mut self, words: [u32; 4]) -> u32 {
        self.find_or_insert(self.leaf_level, words)
    }

    /// The node behind `id`.
    #[inline]
    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// Set the memoised result of `id`.
    #[inline]
    pub fn set_result(&mut self, id: u32, result: u32) {
        self.nodes[id as usize].result = result;
    }

    /// The level of `id`.
    #[inline]
    pub fn level(&self, id: u32) -> u8 {
        self.nodes[id as usize].level
    }

    /// The canonical empty node of `level` (≥ 3), made on first use.
    pub fn empty(&mut self, level: u8) -> u32 {
        while self.empty.len() <= usize::from(level) {
            let below = *self.empty.last().expect("the empty leaf exists");
            let next = self.join([below; 4]);
            self.empty.push(next);
        }
        self.empty[usize::from(level)]
    }

    /// Whether `id` is the empty node of its level.
    #[inline]
    pub fn is_empty(&self, id: u32) -> bool {
        let level = usize::from(self.level(id));
        self.empty.get(level) == Some(&id)
    }

    /// The canonical two-state leaf holding `bits`.
    pub fn leaf(&mut self, bits: u64) -> u32 {
        self.leaf_of([bits as u32, (bits >> 32) as u32, 0, 0])
    }

    /// The canonical node of four children of one level (≥ 3).
    pub fn join(&mut self, children: [u32; 4]) -> u32 {
        let level = self.level(children[0]) + 1;
        debug_assert!(children.iter().all(|&c| self.level(c) + 1 == level));
        self.find_or_insert(level, children)
    }

    /// Start loading the table slot where the node of `level` with `child` would be, so
    /// a look-up made soon after finds it in cache (several in flight at once).
    #[inline]
    pub fn prefetch(&self, level: u8, child: [u32; 4]) {
        let at = (hash(level, child) as usize) & (self.slots.len() - 1);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint; the address is inside the slot table.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch(self.slots.as_ptr().add(at).cast::<i8>(), _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
    }

    fn find_or_insert(&mut self, level: u8, child: [u32; 4]) -> u32 {
        let h = hash(level, child);
        let tag = h >> 32 << 32;
        let mask = self.slots.len() - 1;
        let mut at = (h as usize) & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                break;
            }
            if slot & !0xffff_ffff == tag {
                let id = (slot as u32).wrapping_sub(1);
                let n = &self.nodes[id as usize];
                if n.child == child && n.level == level {
                    return id;
                }
            }
            at = (at + 1) & mask;
        }
        // The empty slot the probe stopped at takes the new node, unless a collection or a
        // larger table moves the slots first.
        let mut empty_slot = Some(at);
        if self.live >= self.collect_at {
            // A new inner node's children must survive the collection it triggers.
            self.collect(if level > self.leaf_level {
                child
            } else {
                [NONE; 4]
            });
            empty_slot = None;
        }
        if self.live >= self.hard_nodes {
            // Past the limit and its headroom: this node is still made (callers hold ids,
            // never NONE), and the step in progress sees `full` and gives up within a few
            // nodes.
            self.full = true;
        }
        let load = if self.slots.len() >= self.max_slots {
            FULL_NUM
        } else {
            LOAD_NUM
        };
        if (self.live + 1) * LOAD_DEN > self.slots.len() * load {
            self.grow_table();
            empty_slot = None;
        }
        let node = Node {
            child,
            result: NONE,
            level,
            mark: false,
        };
        let id = if self.free != NONE {
            let id = self.free;
            self.free = self.nodes[id as usize].result;
            self.nodes[id as usize] = node;
            id
        } else {
            if self.nodes.len() == self.nodes.capacity() {
                // Grow towards the limit, not past it: a doubling would touch twice the
                // memory the limit allows.
                let cap = self.nodes.capacity();
                let target = if cap < self.limit_nodes {
                    (cap * 2).clamp(1024, self.limit_nodes + 1024)
                } else {
                    cap + cap / 2
                };
                self.nodes.reserve_exact(target - cap);
            }
            self.nodes.push(node);
            // Below MAX_NODES (hard_nodes caps the live count, and freed slots are reused
            // before the arena grows), so an id always fits.
            (self.nodes.len() - 1) as u32
        };
        self.live += 1;
        match empty_slot {
            Some(at) => self.slots[at] = h >> 32 << 32 | u64::from(id + 1),
            None => self.link(id, h),
        }
        id
    }

    fn link(&mut self, id: u32, h: u64) {
        let mask = self.slots.len() - 1;
        let mut at = (h as usize) & mask;
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        self.slots[at] = h >> 32 << 32 | u64::from(id + 1);
    }

    fn grow_table(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        crate::memory::advise_huge_pages(self.slots.as_ptr().cast(), size * 8);
        self.relink();
    }

    /// Rebuild the table from the nodes in use.
    fn relink(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = 0);
        for id in 0..self.nodes.len() as u32 {
            let n = self.nodes[id as usize];
            if n.level != 0 {
                self.link(id, hash(n.level, n.child));
            }
        }
    }

    /// Keep `id` (and what it reaches) alive through collections until the protected
    /// stack is cut back below it ([`Store::stack_len`], [`Store::truncate`]).
    #[inline]
    pub fn protect(&mut self, id: u32) -> u32 {
        self.stack.push(id);
        id
    }

    /// Height of the protected stack.
    #[inline]
    pub fn stack_len(&self) -> usize {
        self.stack.len()
    }

    /// Drop protections down to `len`.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.stack.truncate(len);
    }

    /// Collect now: free what no root, protected id or `also` (the children of the node
    /// about to be made) reaches. Memoised results are kept on a first pass; if that frees
    /// less than half the store, a second pass drops the results too.
    fn collect(&mut self, also: [u32; 4]) {
        let keep_also = |store: &mut Store| {
            for c in also.into_iter().filter(|&c| c != NONE) {
                store.mark(c, false);
            }
        };
        self.collect_pass(true, &keep_also);
        if self.live * 2 > self.limit_nodes {
            self.collect_pass(false, &keep_also);
        }
        self.collections += 1;
        // A store still fuller than its limit grows on rather than collecting on every
        // allocation (each collection walks the whole store); a step gives up once it passes
        // `hard_nodes` (`full`), so only a pattern larger than the limit holds more.
        self.collect_at = self.limit_nodes.max(self.live + self.live / 4);
    }

    fn collect_pass(&mut self, keep_results: bool, keep_also: &dyn Fn(&mut Store)) {
        let roots: Vec<u32> = self
            .roots
            .iter()
            .chain(self.stack.iter())
            .chain(self.empty.iter())
            .copied()
            .filter(|&r| r != NONE)
            .collect();
        for r in roots {
            self.mark(r, keep_results);
        }
        keep_also(self);
        // Results that point at nodes about to be freed are forgotten.
        for i in 0..self.nodes.len() {
            let n = self.nodes[i];
            if n.level != 0 && n.mark && n.result != NONE && !self.nodes[n.result as usize].mark {
                self.nodes[i].result = NONE;
            }
        }
        self.free = NONE;
        self.live = 0;
        for i in (0..self.nodes.len()).rev() {
            let n = &mut self.nodes[i];
            if n.level != 0 && n.mark {
                n.mark = false;
                self.live += 1;
            } else {
                n.level = 0;
                n.result = self.free;
                self.free = i as u32;
            }
        }
        self.relink();
    }

    fn mark(&mut self, id: u32, with_results: bool) {
        let n = &mut self.nodes[id as usize];
        if n.mark {
            return;
        }
        n.mark = true;
        let n = *n;
        if n.level > self.leaf_level {
            for c in n.child {
                self.mark(c, with_results);
            }
        }
        if with_results && n.result != NONE {
            self.mark(n.result, with_results);
        }
    }

    /// Forget the memoised results of every node above `level` (their step size changed).
    pub fn clear_results_above(&mut self, level: u8) {
        for n in &mut self.nodes {
            if n.level > level {
                n.result = NONE;
            }
        }
    }

    /// Nodes in use.
    pub fn live(&self) -> usize {
        self.live
    }

    /// Bytes the store holds now (arena capacity and hash table).
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.slots.capacity() * 8
    }

    /// Collections so far.
    pub fn collections(&self) -> u64 {
        self.collections
    }
}
