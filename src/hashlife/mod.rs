//! The unbounded hashed universe (Gosper's HashLife): a quadtree of canonical nodes whose
//! memoised results step any square `2^j` generations at once, with coordinates and counts
//! that do not overflow (cells at `i128` coordinates, populations as `u128`, generations as
//! `u128`), under a memory limit kept by garbage collection.
//!
//! [`HashUniverse`] is the engine behind the `hashlife` strategy: set and read cells, step
//! by `2^j` or by any count, count, find the edges, list the live cells of a rectangle, and
//! read and write macrocell straight from and to the tree. The root is always centred on
//! the origin: a level-`L` root spans `[-2^(L-1), 2^(L-1))` on both axes.
//!
//! Rules: every two-state family golab parses (B/S, Hensel, MAP, hexagonal, von Neumann),
//! evaluated through the same 512-entry [`Rule`] table as every strategy ([`leaf`]); rules
//! with B0 as Golly emulates them ([`b0`]). Generations and rule tables run on the
//! multi-state leaves ([`multi`]).

pub mod any;
pub mod b0;
mod bounded;
mod cells;
mod collect;
pub mod draw;
pub mod leaf;
pub mod leaves;
pub mod load;
mod macrocell;
pub mod multi;
mod parallel;
mod shared;
pub mod step;
pub mod store;
#[cfg(test)]
mod tests;
pub mod threads;

use thiserror::Error;

use crate::rule::Rule;
use leaf::LeafRule;
use leaves::Leaves;
use store::Store;

pub use any::Hashed;
pub use cells::{PopulationMemo, Rect};
pub use multi::MultiLeaves;
pub use threads::Threads;

/// The deepest root: its cells' coordinates still fit an `i128` with room to spare.
pub const MAX_LEVEL: u8 = 120;

/// The largest single step, 2^116 generations (its root needs four levels above it); a
/// larger count is stepped as several of these.
pub const MAX_STEP_EXPONENT: u32 = MAX_LEVEL as u32 - 4;

/// Default memory limit of a hashed universe: a quarter of the memory available now,
/// at least 64 MiB and at most 4 GiB.
pub fn default_memory_limit() -> usize {
    let available = crate::memory::available_bytes().unwrap_or(1 << 32);
    usize::try_from(available / 4)
        .unwrap_or(usize::MAX)
        .clamp(64 << 20, 4 << 30)
}

/// Why the hashed universe refused something.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HashError {
    /// A rule it cannot run, and why.
    #[error("rule {rule} cannot run in the hashed universe: {why}")]
    Rule {
        /// The rule, canonical.
        rule: String,
        /// Why not.
        why: String,
    },
    /// A step or coordinate beyond what the universe represents.
    #[error("{0}")]
    Limit(String),
    /// The step needed more nodes than the memory limit (and one collection's headroom)
    /// holds; the universe is as it was before the step.
    #[error(
        "the step needs more than the hashed universe's memory limit of {} MiB ({nodes} nodes after a collection); the pattern stays at generation {generation}: raise the limit (the step section's memory, `golab run --max-memory`) or step less at once",
        limit_bytes >> 20
    )]
    Memory {
        /// The limit in bytes.
        limit_bytes: usize,
        /// Nodes alive when it gave up.
        nodes: usize,
        /// The generation the universe stays at.
        generation: u128,
    },
    /// The step was interrupted ([`HashUniverse::set_interrupt`]); the universe is as it
    /// was before the step.
    #[error("the step was interrupted; the pattern stays at generation {generation}")]
    Interrupted {
        /// The generation the universe stays at.
        generation: u128,
    },
}

/// Why hashing refuses Larger than Life (both engines).
pub(crate) const LTL_REFUSAL: &str = "Larger than Life counts neighbours over a range beyond the 3×3 window the hashed engines step; it runs on a grid (as Golly's LtL does): scalar, rayon or gpu-resident, in a grid that grows with the pattern when the rule has no bounded grid";

/// Check that `rule` can run hashed.
pub fn check_rule(rule: &Rule) -> Result<(), HashError> {
    let refuse = |why: &str| {
        Err(HashError::Rule {
            rule: rule.canonical(),
            why: why.to_string(),
        })
    };
    if rule.is_ltl() {
        return refuse(LTL_REFUSAL);
    }
    if rule.has_dying_states() || rule.is_table() {
        return refuse(
            "the two-state engine runs two-state rules; Generations rules and rule tables run on the multi-state engine",
        );
    }
    Ok(())
}

/// Statistics of the node store, for the window and `golab run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryReport {
    /// Nodes in use.
    pub nodes: usize,
    /// Bytes the store holds (arena capacity and hash table).
    pub bytes: usize,
    /// The limit it collects at, in bytes.
    pub limit_bytes: usize,
    /// Garbage collections so far.
    pub collections: u64,
    /// Threads a step uses (1: the single-threaded engine).
    pub threads: usize,
}

/// A state of a [`HashUniverse`] kept alive by [`HashUniverse::keep`].
#[derive(Debug, PartialEq, Eq)]
pub struct Kept {
    root: u32,
    generation: u128,
}

impl Kept {
    /// The generation it was kept at.
    pub fn generation(&self) -> u128 {
        self.generation
    }
}

/// An unbounded universe stepped by HashLife, over leaves of kind `L`: two states
/// ([`LeafRule`], the default) or up to 256 ([`MultiLeaves`]).
pub struct HashUniverse<L: Leaves = LeafRule> {
    engine: step::Stepper<L>,
    rule: Rule,
    root: u32,
    generation: u128,
    limit_bytes: usize,
    /// For a rule whose step depends on the generation's parity (B0 without S8): the
    /// parity the engine's evaluator and memoised results are for.
    odd_evaluator: bool,
    /// Threads to step with.
    threads: Threads,
    /// The pool a parallel step runs on: the caller's ([`HashUniverse::set_thread_pool`]),
    /// or the shared one for the count, fetched on the first parallel step.
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

/// The multi-state hashed universe (Generations; rule tables through the same interface).
pub type MultiUniverse = HashUniverse<MultiLeaves>;

impl HashUniverse {
    /// An empty two-state universe running `rule`, collecting garbage at `limit_bytes`.
    pub fn new(rule: Rule, limit_bytes: usize) -> Result<HashUniverse, HashError> {
        HashUniverse::create(rule, limit_bytes)
    }
}

impl<L: Leaves> HashUniverse<L> {
    /// The smallest root level: the central-quarter test that decides expansion looks
    /// three levels down, to nodes no smaller than a leaf.
    pub(crate) const MIN_ROOT_LEVEL: u8 = L::LEVEL + 3;

    /// An empty universe running `rule`, collecting garbage at `limit_bytes` (for the
    /// two-state universe also [`HashUniverse::new`]).
    pub fn create(rule: Rule, limit_bytes: usize) -> Result<HashUniverse<L>, HashError> {
        let leaves = L::for_rule(&rule)?;
        let mut store = Store::with_leaf_level(limit_bytes, L::LEVEL);
        let root = store.empty(Self::MIN_ROOT_LEVEL);
        store.roots.push(root);
        Ok(HashUniverse {
            engine: step::Stepper::new(store, leaves),
            rule,
            root,
            generation: 0,
            limit_bytes,
            odd_evaluator: false,
            threads: Threads::EVERY_CORE,
            pool: None,
        })
    }

    /// The rule being run.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Change the rule, keeping every cell and the generation.
    pub fn set_rule(&mut self, rule: Rule) -> Result<(), HashError> {
        self.engine.set_rule(L::for_rule(&rule)?);
        self.rule = rule;
        self.odd_evaluator = false;
        Ok(())
    }

    /// For a rule that alternates with the generation's parity, make the evaluator (and the
    /// memo) the one for the current generation's parity: every step of `2^j` starts at
    /// offsets of its own parity (the recursion splits it in even halves), so one evaluator
    /// serves a whole step, and the memo is dropped only when the parity changes.
    fn evaluator_for_parity(&mut self) -> Result<(), HashError> {
        let odd = self.generation % 2 == 1;
        if L::alternates(&self.rule) && odd != self.odd_evaluator {
            self.engine.set_rule(L::for_rule_at(&self.rule, odd)?);
            self.odd_evaluator = odd;
        }
        Ok(())
    }

    /// Generations stepped since the universe was made (or the generation it was given).
    pub fn generation(&self) -> u128 {
        self.generation
    }

    /// Set the generation counter (a pattern file's `#G`, a reset).
    pub fn set_generation(&mut self, generation: u128) {
        self.generation = generation;
    }

    fn set_root(&mut self, root: u32) {
        self.root = root;
        self.engine.store.roots[0] = root;
    }

    /// The root node and its level.
    pub(crate) fn root(&self) -> (u32, u8) {
        (self.root, self.engine.store.level(self.root))
    }

    /// The store (for readers, writers and statistics in this module).
    pub(crate) fn store(&self) -> &Store {
        &self.engine.store
    }

    /// The store, to make room in it ([`Store::recover_from_full`]).
    pub(crate) fn engine_store_mut(&mut self) -> &mut Store {
        &mut self.engine.store
    }

    /// Memory in use and collections.
    pub fn memory(&self) -> MemoryReport {
        let store = &self.engine.store;
        MemoryReport {
            nodes: store.live(),
            bytes: store.bytes(),
            limit_bytes: self.limit_bytes,
            collections: store.collections(),
            threads: self.threads(),
        }
    }

    /// Step with `threads` threads (every core unless set: [`Threads`]). Results are the
    /// same whatever the count.
    pub fn set_threads(&mut self, threads: Threads) {
        if threads != self.threads {
            self.threads = threads;
            self.pool = None;
        }
    }

    /// Step on `pool`, a rayon pool the caller built, with as many threads as it has.
    pub fn set_thread_pool(&mut self, pool: std::sync::Arc<rayon::ThreadPool>) {
        self.threads = Threads::count(pool.current_num_threads());
        self.pool = Some(pool);
    }

    /// The threads setting ([`HashUniverse::set_threads`]).
    pub fn threads_setting(&self) -> Threads {
        self.threads
    }

    /// The caller's pool, if one was given ([`HashUniverse::set_thread_pool`]).
    pub fn thread_pool(&self) -> Option<std::sync::Arc<rayon::ThreadPool>> {
        self.pool.clone()
    }

    /// The threads a step uses now.
    pub fn threads(&self) -> usize {
        self.threads.get()
    }

    /// The pool for a parallel step, or `None` for the single-threaded engine.
    fn step_pool(&mut self) -> Option<std::sync::Arc<rayon::ThreadPool>> {
        if self.pool.is_none() {
            self.pool = threads::pool(self.threads());
        }
        self.pool.clone()
    }

    /// Wrap the root in an empty border: one level up, same cells, still centred.
    fn expand(&mut self) -> Result<(), HashError> {
        let (root, level) = self.root();
        if level >= MAX_LEVEL {
            return Err(HashError::Limit(format!(
                "the universe would pass 2^{MAX_LEVEL} cells a side"
            )));
        }
        let store = &mut self.engine.store;
        let base = store.stack_len();
        let e = store.empty(level - 1);
        let [nw, ne, sw, se] = store.node(root).child;
        let a = store.join([e, e, e, nw]);
        store.protect(a);
        let b = store.join([e, e, ne, e]);
        store.protect(b);
        let c = store.join([e, sw, e, e]);
        store.protect(c);
        let d = store.join([se, e, e, e]);
        let up = store.join([a, b, c, d]);
        store.truncate(base);
        self.set_root(up);
        Ok(())
    }

    /// Whether every live cell lies in the root's centred square of a quarter its side
    /// (so `2^(L-3)` generations of growth at light speed stay inside the result).
    fn centred_in_quarter(&self) -> bool {
        let store = &self.engine.store;
        let (root, _) = self.root();
        let children = store.node(root).child;
        // For each quadrant, the grandchild nearest the centre, then its child nearest it.
        (0..4).all(|q| {
            let quadrant = store.node(children[q]);
            let inner = 3 - q;
            (0..4).all(|k| k == inner || store.is_empty(quadrant.child[k]))
                && (0..4).all(|k| {
                    k == inner || store.is_empty(store.node(quadrant.child[inner]).child[k])
                })
        })
    }

    /// Whether every live cell lies in the root's centred half.
    fn centred_in_half(&self) -> bool {
        let store = &self.engine.store;
        let children = store.node(self.root).child;
        (0..4).all(|q| {
            let quadrant = store.node(children[q]);
            (0..4).all(|k| k == 3 - q || store.is_empty(quadrant.child[k]))
        })
    }

    /// Step `2^exponent` generations at once. A step that fails (interrupted, out of
    /// memory, too large) leaves the universe exactly as it was: the same root node.
    pub fn step_pow2(&mut self, exponent: u32) -> Result<(), HashError> {
        let before = self.root;
        // Kept through the step's collections, to go back to.
        self.engine.store.roots.push(before);
        let stepped = self.step_pow2_from(exponent);
        let kept = self.engine.store.roots.pop();
        debug_assert_eq!(kept, Some(before));
        if stepped.is_err() {
            self.set_root(before);
        }
        stepped
    }

    /// [`HashUniverse::step_pow2`], leaving the root expanded when it fails.
    fn step_pow2_from(&mut self, exponent: u32) -> Result<(), HashError> {
        if exponent > MAX_STEP_EXPONENT {
            return Err(HashError::Limit(format!(
                "a step of 2^{exponent} generations needs a root wider than 2^{MAX_LEVEL}"
            )));
        }
        let gens = 1u128 << exponent;
        let Some(next_generation) = self.generation.checked_add(gens) else {
            return Err(HashError::Limit(
                "the generation count would pass 2^128".into(),
            ));
        };
        self.evaluator_for_parity()?;
        self.engine.set_exponent(exponent);
        let least = (exponent + 3).max(u32::from(Self::MIN_ROOT_LEVEL));
        while u32::from(self.root().1) < least || !self.centred_in_quarter() {
            self.expand()?;
        }
        if self.engine.store.is_full() {
            // A load or an edit passed the limit: make room before stepping.
            self.engine.store.recover_from_full();
        }
        let pool = match parallel::worth_parallel::<L>(self.root().1) {
            true => self.step_pool(),
            false => None,
        };
        let next = match pool {
            Some(pool) => self.engine.result_parallel(self.root, &pool),
            None => self.engine.result(self.root),
        };
        if next == store::NONE {
            if self.engine.store.is_full() {
                let nodes = self.engine.store.live();
                self.engine.store.recover_from_full();
                return Err(HashError::Memory {
                    limit_bytes: self.limit_bytes,
                    nodes,
                    generation: self.generation,
                });
            }
            return Err(HashError::Interrupted {
                generation: self.generation,
            });
        }
        self.set_root(next);
        self.generation = next_generation;
        self.expand()?;
        while self.root().1 > Self::MIN_ROOT_LEVEL && self.centred_in_half() {
            let inner = self.engine.centre(self.root);
            self.set_root(inner);
        }
        Ok(())
    }

    /// Step `generations` generations: one `2^j` step for each set bit of the count, the
    /// smallest first. `cancel` is asked between steps; a cancelled advance stops at a
    /// generation boundary with every cell exact.
    pub fn advance(
        &mut self,
        generations: u128,
        cancel: &dyn Fn() -> bool,
    ) -> Result<u128, HashError> {
        let mut done = 0u128;
        for bit in 0..128u32 {
            if generations >> bit & 1 == 1 {
                // Bits above the largest single step are that many largest steps.
                let (exponent, times) = if bit > MAX_STEP_EXPONENT {
                    (MAX_STEP_EXPONENT, 1u128 << (bit - MAX_STEP_EXPONENT))
                } else {
                    (bit, 1)
                };
                for _ in 0..times {
                    if cancel() {
                        return Ok(done);
                    }
                    self.step_pow2(exponent)?;
                    done += 1u128 << exponent;
                }
            }
        }
        Ok(done)
    }

    /// Collect garbage at `limit_bytes` from now on (the window's memory setting).
    pub fn set_memory_limit(&mut self, limit_bytes: usize) {
        self.engine.store.set_limit(limit_bytes);
        self.limit_bytes = limit_bytes;
    }

    /// Abandon any step while `flag` is raised (another thread raises it: a Stop button);
    /// the step returns [`HashError::Interrupted`] with the universe unchanged.
    pub fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.engine.set_interrupt(flag);
    }

    /// Keep the current state (root and generation) for a later [`HashUniverse::restore`]:
    /// Reset and undo on the plane cost one root each, whatever the pattern's size, because
    /// the kept root shares every node with the live one. It survives collections until
    /// [`HashUniverse::release`]d.
    pub fn keep(&mut self) -> Kept {
        let root = self.root;
        self.engine.store.roots.push(root);
        Kept {
            root,
            generation: self.generation,
        }
    }

    /// Go back to a kept state (it stays kept).
    pub fn restore(&mut self, kept: &Kept) {
        self.set_root(kept.root);
        self.generation = kept.generation;
    }

    /// Let a kept state's nodes be collected.
    pub fn release(&mut self, kept: Kept) {
        let roots = &mut self.engine.store.roots;
        if let Some(i) = roots.iter().skip(1).position(|&r| r == kept.root) {
            roots.remove(i + 1);
        }
    }

    /// Drop every cell (the rule, limit and generation stay).
    pub fn clear(&mut self) {
        let empty = self.engine.store.empty(Self::MIN_ROOT_LEVEL);
        self.set_root(empty);
    }
}
