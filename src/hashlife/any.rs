//! [`Hashed`]: a hashed universe of the engine its rule needs — two-state rules on the
//! bit-parallel leaves, Generations on the multi-state ones — behind one set of methods,
//! for the window's plane, `golab run`, `golab bench` and the file readers and writers.
//! A rule change across the two moves every cell to the other engine.

use super::{HashError, HashUniverse, Kept, MemoryReport, MultiUniverse, Rect};
use crate::rule::Rule;
use crate::step::view::ViewRequest;

/// Most cells a rule change across the two engines moves (the live pattern and, in a
/// [`crate::universe::HashedUniverse`], every kept state together); above it the change
/// is refused with the count.
pub const MAX_MOVED_CELLS: u128 = 1 << 24;

/// A hashed universe of either engine.
pub enum Hashed {
    /// Two states: the fast engine.
    Two(HashUniverse),
    /// Up to 256 states (Generations).
    Multi(MultiUniverse),
}

/// `$body` with `$u` bound to the engine inside `$self`.
macro_rules! each {
    ($self:expr, $u:ident => $body:expr) => {
        match $self {
            Hashed::Two($u) => $body,
            Hashed::Multi($u) => $body,
        }
    };
}

impl Hashed {
    /// An empty universe of the engine `rule` needs, collecting garbage at `limit_bytes`.
    pub fn new(rule: Rule, limit_bytes: usize) -> Result<Hashed, HashError> {
        Ok(if needs_multi(&rule) {
            Hashed::Multi(MultiUniverse::create(rule, limit_bytes)?)
        } else {
            Hashed::Two(HashUniverse::new(rule, limit_bytes)?)
        })
    }

    /// Whether the hashed universe runs `rule` (on the engine it needs), and why not.
    pub fn check(rule: &Rule) -> Result<(), HashError> {
        if needs_multi(rule) {
            super::multi::check_rule(rule)
        } else {
            super::check_rule(rule)
        }
    }

    /// The rule being run.
    pub fn rule(&self) -> Rule {
        each!(self, u => u.rule())
    }

    /// Change the rule, keeping the cells and the generation; across engines the cells
    /// move (dying cells are dropped going to a two-state rule, as on a grid), and states
    /// kept for Reset and undo are lost (the caller drops them first).
    pub fn set_rule(&mut self, rule: Rule) -> Result<(), HashError> {
        let multi = needs_multi(&rule);
        if multi == matches!(self, Hashed::Multi(_)) {
            return each!(self, u => u.set_rule(rule));
        }
        let occupied = self.occupied();
        if occupied > MAX_MOVED_CELLS {
            return Err(HashError::Limit(format!(
                "changing {} to {} moves every cell into the other hashed engine: {occupied} cells is over the {MAX_MOVED_CELLS} a rule change moves; save the pattern and open it under the new rule instead",
                self.rule(),
                rule
            )));
        }
        let mut next = Hashed::new(rule, self.memory().limit_bytes)?;
        self.pass_threads(&mut next);
        let cells = match self.bounds() {
            Some(b) => self.states_in(b),
            None => Vec::new(),
        };
        let keep = cells.into_iter().filter(|c| multi || c.2 == 1);
        next.load_states(keep)?;
        next.set_generation(self.generation());
        *self = next;
        Ok(())
    }

    /// The generation.
    pub fn generation(&self) -> u128 {
        each!(self, u => u.generation())
    }

    /// Set the generation counter.
    pub fn set_generation(&mut self, generation: u128) {
        each!(self, u => u.set_generation(generation))
    }

    /// The node store's memory.
    pub fn memory(&self) -> MemoryReport {
        each!(self, u => u.memory())
    }

    /// Live cells (state 1).
    pub fn population(&self) -> u128 {
        each!(self, u => u.population())
    }

    /// Cells in any state but 0.
    pub fn occupied(&self) -> u128 {
        each!(self, u => u.occupied())
    }

    /// Cells per state for states 2 and up ([`HashUniverse::state_counts`]).
    pub fn state_counts(&self) -> Vec<u128> {
        each!(self, u => u.state_counts())
    }

    /// The box of the cells not in state 0.
    pub fn bounds(&self) -> Option<Rect> {
        each!(self, u => u.bounds())
    }

    /// The state of one cell.
    pub fn state(&self, x: i128, y: i128) -> u8 {
        each!(self, u => u.state(x, y))
    }

    /// Put one cell in `state`.
    pub fn set_state(&mut self, x: i128, y: i128, state: u8) -> Result<(), HashError> {
        each!(self, u => u.set_state(x, y, state))
    }

    /// Make one cell alive or empty.
    pub fn set(&mut self, x: i128, y: i128, alive: bool) -> Result<(), HashError> {
        self.set_state(x, y, u8::from(alive))
    }

    /// Replace every cell by live `cells`.
    pub fn load_cells(
        &mut self,
        cells: impl IntoIterator<Item = (i128, i128)>,
    ) -> Result<(), HashError> {
        each!(self, u => u.load_cells(cells))
    }

    /// Replace every cell by `cells` with their states.
    pub fn load_states(
        &mut self,
        cells: impl IntoIterator<Item = (i128, i128, u8)>,
    ) -> Result<(), HashError> {
        each!(self, u => u.load_states(cells))
    }

    /// The cells not in state 0 inside `rect`, with their states.
    pub fn states_in(&self, rect: Rect) -> Vec<(i128, i128, u8)> {
        each!(self, u => u.states_in(rect))
    }

    /// The cells not in state 0 inside `rect`.
    pub fn cells_in(&self, rect: Rect) -> Vec<(i128, i128)> {
        each!(self, u => u.cells_in(rect))
    }

    /// Draw a view (see [`HashUniverse::draw`]; pixels are shaded by occupied cells).
    pub fn draw(&self, request: &ViewRequest, out: &mut [u32]) {
        each!(self, u => u.draw(request, out))
    }

    /// Whether the node store passed its limit and headroom ([`super::store::Store::is_full`]).
    pub fn is_full(&self) -> bool {
        each!(self, u => u.store().is_full())
    }

    /// Make room again after the store passed its limit (memoised results dropped).
    pub fn recover_from_full(&mut self) {
        each!(self, u => u.engine_store_mut().recover_from_full())
    }

    /// Step with `threads` threads ([`HashUniverse::set_threads`]).
    pub fn set_threads(&mut self, threads: super::Threads) {
        each!(self, u => u.set_threads(threads))
    }

    /// Step on a pool the caller built ([`HashUniverse::set_thread_pool`]).
    pub fn set_thread_pool(&mut self, pool: std::sync::Arc<rayon::ThreadPool>) {
        each!(self, u => u.set_thread_pool(pool))
    }

    /// Give `next` (a universe replacing this one) the same threads, and pool if any.
    pub fn pass_threads(&self, next: &mut Hashed) {
        match each!(self, u => u.thread_pool()) {
            Some(pool) => next.set_thread_pool(pool),
            None => next.set_threads(each!(self, u => u.threads_setting())),
        }
    }

    /// Collect garbage at `limit_bytes` from now on.
    pub fn set_memory_limit(&mut self, limit_bytes: usize) {
        each!(self, u => u.set_memory_limit(limit_bytes))
    }

    /// Abandon steps while `flag` is raised ([`HashUniverse::set_interrupt`]).
    pub fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        each!(self, u => u.set_interrupt(flag))
    }

    /// Keep the current state for Reset or undo.
    pub fn keep(&mut self) -> Kept {
        each!(self, u => u.keep())
    }

    /// Go back to a kept state.
    pub fn restore(&mut self, kept: &Kept) {
        each!(self, u => u.restore(kept))
    }

    /// Let a kept state go.
    pub fn release(&mut self, kept: Kept) {
        each!(self, u => u.release(kept))
    }

    /// Step `2^exponent` generations.
    pub fn step_pow2(&mut self, exponent: u32) -> Result<(), HashError> {
        each!(self, u => u.step_pow2(exponent))
    }

    /// Step `generations`, asking `cancel` between pieces.
    pub fn advance(
        &mut self,
        generations: u128,
        cancel: &dyn Fn() -> bool,
    ) -> Result<u128, HashError> {
        each!(self, u => u.advance(generations, cancel))
    }

    /// The two-state engine, where that is the one running (macrocell reading and
    /// writing, bounded grids).
    pub fn two_state(&mut self) -> Option<&mut HashUniverse> {
        match self {
            Hashed::Two(u) => Some(u),
            Hashed::Multi(_) => None,
        }
    }
}

/// Whether `rule` runs on the multi-state engine: Generations rules with dying states and
/// every rule table (the two-state engine's leaves are B/S tables).
pub fn needs_multi(rule: &Rule) -> bool {
    rule.has_dying_states() || rule.is_table()
}
