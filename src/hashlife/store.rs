//! The node store of the hashed universe: canonical quadtree nodes in one arena, found by
//! their children through an open-addressed hash table, with a non-moving mark-and-sweep
//! collector ([`super::collect`]) that keeps the store under a memory limit.
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
//! and clears results that point at freed nodes. New nodes take the free slots in id order
//! (a cursor that a collection sends back to 0), then the arena's end.
//!
//! The same store serves the parallel engine ([`super::shared`]): the table's slots and each
//! node's result and mark are atomics, so threads can look up and insert nodes and memoise
//! results at once through a shared reference; everything else (collection, growth) runs
//! while no step is in flight.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};

/// No node: an unset memoised result.
pub const NONE: u32 = u32::MAX;

/// Level of the two-state engine's 8×8 leaves (the multi-state engine's leaves are 2×2,
/// level 1: [`Store::leaf_level`]).
pub const LEAF_LEVEL: u8 = 3;

/// The table grows when more than `LOAD_NUM / LOAD_DEN` of its slots are taken, until it
/// reaches the size the memory limit allows; then it fills to `FULL_NUM / LOAD_DEN`.
pub(super) const LOAD_NUM: usize = 7;
pub(super) const FULL_NUM: usize = 8;
pub(super) const LOAD_DEN: usize = 10;

/// The most nodes a store holds whatever its limit: ids are `u32`, and a limit large enough
/// to pass this (over 90 GiB) holds this many.
pub(super) const MAX_NODES: usize = (u32::MAX as usize) - (1 << 24);

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

/// One node. `level == 0` marks a free slot (no live node has level below 1).
#[derive(Debug)]
pub struct Node {
    /// Children nw, ne, sw, se; for a leaf, its cells (for the two-state leaf the 64 cell
    /// bits: low word, high word, 0, 0).
    pub child: [u32; 4],
    /// The memoised result (the centred square of level `k − 1`, stepped), or [`NONE`].
    pub(super) result: AtomicU32,
    /// The level; 0 for a free slot.
    pub level: u8,
    /// The collection that last found it reachable ([`super::collect`]).
    pub(super) mark: AtomicU8,
}

impl Node {
    /// A new node of `level` with `child`, no result yet.
    #[inline]
    pub(super) fn new(level: u8, child: [u32; 4]) -> Node {
        Node {
            child,
            result: AtomicU32::new(NONE),
            level,
            mark: AtomicU8::new(0),
        }
    }

    /// The 64 cells of a two-state leaf.
    #[inline]
    pub fn bits(&self) -> u64 {
        u64::from(self.child[0]) | u64::from(self.child[1]) << 32
    }

    /// The memoised result, or [`NONE`].
    #[inline]
    pub fn result(&self) -> u32 {
        self.result.load(Relaxed)
    }
}

/// An arena cell. The plain fields of the node inside (children, level) are written only
/// by whoever owns the cell at that moment: the single-threaded store through `&mut`, a
/// worker of the parallel engine for a free cell it took from its own range of ids
/// ([`super::shared`]), a collection while no step runs. The cell is published (its id put
/// in a table slot) only after it is written.
#[repr(transparent)]
pub(super) struct Cell(UnsafeCell<Node>);

// SAFETY: shared access reads the plain fields of published nodes only, which nobody
// writes while they are published (see `Cell`); the fields written concurrently (result,
// mark) are atomics.
unsafe impl Sync for Cell {}

impl Cell {
    fn new(node: Node) -> Cell {
        Cell(UnsafeCell::new(node))
    }

    /// The node, to read.
    #[inline]
    pub(super) fn get(&self) -> &Node {
        // SAFETY: see `Cell`: no write to the plain fields happens while a reference to a
        // published node exists; writers own the cell.
        unsafe { &*self.0.get() }
    }

    /// The node, to change (single-threaded).
    #[inline]
    pub(super) fn get_mut(&mut self) -> &mut Node {
        self.0.get_mut()
    }

    /// Write a whole new node into a cell the caller owns (a free cell from its range).
    ///
    /// # Safety
    /// No other thread may hold a reference to this cell's node or write it: the cell is
    /// free (level 0, in no table slot, named by no node or root) and taken by the caller
    /// alone.
    #[inline]
    pub(super) unsafe fn write(&self, node: Node) {
        // SAFETY: the caller owns the cell (see above).
        unsafe { *self.0.get() = node }
    }
}

/// The arena, its hash table and the collector's roots.
pub struct Store {
    pub(super) nodes: Vec<Cell>,
    /// Open-addressed slots: 0 empty, else `(hash >> 32) << 32 | (id + 1)`.
    pub(super) slots: Box<[AtomicU64]>,
    /// Ids below it were allocated since the last collection; the next new node takes the
    /// first free id at or past it, else the arena's end.
    pub(super) cursor: usize,
    pub(super) live: usize,
    empty: Vec<u32>,
    /// Ids the step in progress holds: marked by the collector like roots.
    pub(super) stack: Vec<u32>,
    /// Roots that outlive a step (the universe's root, the reset point, undo states).
    pub roots: Vec<u32>,
    pub(super) limit_nodes: usize,
    /// The node count at which the next collection runs: the limit, or more when the last
    /// collection found most of the store alive (then the store grows past its limit
    /// rather than collecting on every allocation).
    pub(super) collect_at: usize,
    /// The most live nodes: the limit plus one collection's headroom. A node made past it
    /// raises `full`, and the step in progress gives up (the universe stays as it was).
    pub(super) hard_nodes: usize,
    /// Whether the store passed `hard_nodes` since [`Store::clear_full`].
    pub(super) full: bool,
    pub(super) max_slots: usize,
    pub(super) collections: u64,
    /// The mark of the last collection (a node is reachable when its mark equals it).
    pub(super) epoch: u8,
    leaf_level: u8,
}

/// The hash of a node of `level` with children `c`.
#[inline]
pub(super) fn hash(level: u8, c: [u32; 4]) -> u64 {
    let mut h = u64::from(level).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for (k, w) in c.into_iter().enumerate() {
        h = (h ^ u64::from(w))
            .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
            .rotate_left(23 + k as u32);
    }
    h ^ (h >> 29)
}

/// A table of `len` empty slots, allocated zeroed (the kernel's zero pages, untouched until
/// used, so huge pages can still back it: [`crate::memory::advise_huge_pages`]).
fn zeroed_slots(len: usize) -> Box<[AtomicU64]> {
    let layout = std::alloc::Layout::array::<AtomicU64>(len).expect("a table under 2^61 slots");
    // SAFETY: the layout is not zero-sized (len ≥ 1), all-zero bytes are a valid
    // `AtomicU64` (an empty slot), and the allocation is handed to a `Box` of exactly that
    // layout, which frees it.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
    }
}

/// The slot word naming `id` under hash `h`.
#[inline]
pub(super) fn slot_word(h: u64, id: u32) -> u64 {
    h >> 32 << 32 | u64::from(id + 1)
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
        let (limit_nodes, max_slots) = budget(limit_bytes);
        let mut store = Store {
            nodes: Vec::new(),
            slots: zeroed_slots(1 << 12),
            cursor: 0,
            live: 0,
            empty: Vec::new(),
            stack: Vec::new(),
            roots: Vec::new(),
            limit_nodes,
            collect_at: limit_nodes,
            hard_nodes: hard_cap(limit_nodes),
            full: false,
            max_slots,
            collections: 0,
            epoch: 0,
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
        self.nodes[id as usize].get()
    }

    /// Set the memoised result of `id`.
    #[inline]
    pub fn set_result(&mut self, id: u32, result: u32) {
        self.nodes[id as usize].get_mut().result = AtomicU32::new(result);
    }

    /// The level of `id`.
    #[inline]
    pub fn level(&self, id: u32) -> u8 {
        self.node(id).level
    }

    /// The canonical empty node of `level` (≥ the leaf level), made on first use.
    pub fn empty(&mut self, level: u8) -> u32 {
        while self.empty.len() <= usize::from(level) {
            let below = *self.empty.last().expect("the empty leaf exists");
            let next = self.join([below; 4]);
            self.empty.push(next);
        }
        self.empty[usize::from(level)]
    }

    /// The empty nodes made so far, by level (the collector keeps them).
    pub(super) fn empties(&self) -> &[u32] {
        &self.empty
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

    /// The canonical node of four children of one level (above the leaves).
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

    /// The node of `level` with `child`, found in the table or made (single-threaded).
    fn find_or_insert(&mut self, level: u8, child: [u32; 4]) -> u32 {
        let h = hash(level, child);
        let tag = h >> 32 << 32;
        let mask = self.slots.len() - 1;
        let mut at = (h as usize) & mask;
        loop {
            let slot = self.slots[at].load(Relaxed);
            if slot == 0 {
                break;
            }
            if slot & !0xffff_ffff == tag {
                let id = (slot as u32).wrapping_sub(1);
                let n = self.node(id);
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
        if self.table_needs_room(1) {
            self.grow_table();
            empty_slot = None;
        }
        let id = self.alloc(Node::new(level, child));
        self.live += 1;
        match empty_slot {
            Some(at) => *self.slots[at].get_mut() = slot_word(h, id),
            None => self.link(id, h),
        }
        id
    }

    /// Whether `more` nodes past the live ones would load the table past its limit.
    #[inline]
    pub(super) fn table_needs_room(&self, more: usize) -> bool {
        let load = if self.slots.len() >= self.max_slots {
            FULL_NUM
        } else {
            LOAD_NUM
        };
        (self.live + more) * LOAD_DEN > self.slots.len() * load
    }

    /// Put `node` in the first free cell at or past the cursor, or at the arena's end.
    fn alloc(&mut self, node: Node) -> u32 {
        while self.cursor < self.nodes.len() {
            let id = self.cursor;
            self.cursor += 1;
            let cell = self.nodes[id].get_mut();
            if cell.level == 0 {
                *cell = node;
                return id as u32;
            }
        }
        self.reserve_nodes(1);
        self.nodes.push(Cell::new(node));
        self.cursor = self.nodes.len();
        // Below MAX_NODES (hard_nodes caps the live count, and free cells are reused
        // before the arena grows), so an id always fits.
        (self.nodes.len() - 1) as u32
    }

    /// Make room for `more` cells past the arena's end without moving it while a step
    /// runs: grow towards the limit, not past it (a doubling would touch twice the memory
    /// the limit allows), then by half.
    pub(super) fn reserve_nodes(&mut self, more: usize) {
        let need = self.nodes.len() + more;
        let cap = self.nodes.capacity();
        if need <= cap {
            return;
        }
        let target = if cap < self.limit_nodes {
            (cap * 2).clamp(1024, self.limit_nodes + 1024)
        } else {
            cap + cap / 2
        };
        self.nodes
            .reserve_exact(target.max(need) - self.nodes.len());
    }

    /// Add free cells at the arena's end until it holds `len` (the parallel engine's
    /// workers then take them by id).
    pub(super) fn extend_free(&mut self, len: usize) {
        if len > self.nodes.len() {
            self.reserve_nodes(len - self.nodes.len());
            self.nodes
                .resize_with(len, || Cell::new(Node::new(0, [0; 4])));
        }
    }

    /// Put `id` in the table (single-threaded; it is not there yet).
    pub(super) fn link(&mut self, id: u32, h: u64) {
        let mask = self.slots.len() - 1;
        let mut at = (h as usize) & mask;
        while *self.slots[at].get_mut() != 0 {
            at = (at + 1) & mask;
        }
        *self.slots[at].get_mut() = slot_word(h, id);
    }

    /// Double the table and put every node back in it.
    pub(super) fn grow_table(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = zeroed_slots(size);
        crate::memory::advise_huge_pages(self.slots.as_ptr().cast(), size * 8);
        self.relink();
    }

    /// Rebuild the table from the nodes in use.
    pub(super) fn relink(&mut self) {
        self.slots.iter_mut().for_each(|s| *s.get_mut() = 0);
        for id in 0..self.nodes.len() {
            let n = self.nodes[id].get_mut();
            if n.level != 0 {
                let h = hash(n.level, n.child);
                self.link(id as u32, h);
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

    /// Nodes in use.
    pub fn live(&self) -> usize {
        self.live
    }

    /// Bytes the store holds now (the arena's cells in use and the hash table).
    pub fn bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>() + self.slots.len() * 8
    }

    /// Collections so far.
    pub fn collections(&self) -> u64 {
        self.collections
    }
}
