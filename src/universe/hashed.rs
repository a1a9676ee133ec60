//! [`HashedUniverse`]: the hashed universe behind the one interface — HashLife over
//! canonical quadtree nodes ([`Hashed`]: the two-state engine, or up to 256 states),
//! unbounded, or bounded on a torus or a dead border (stepped one generation at a time with
//! the ring Golly copies, hashlife/bounded.rs). Kept states are roots in its own store; a
//! rule change across the two engines moves every kept state along with the live one.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::{
    Bounds, Capabilities, DrawTarget, Kept, MemoryReport, Rect, Universe, UniverseError,
    check_states, next_owner,
};
use crate::hashlife::{self, HashError, Hashed, load};
use crate::pattern::Format;
use crate::rule::Rule;
use crate::stats::Stats;
use crate::step::Strategy;
use crate::step::view::ViewRequest;
use crate::world::{Topology, World};

use crate::hashlife::any::MAX_MOVED_CELLS;

/// The hashed universe as a [`Universe`] (see the module docs).
pub struct HashedUniverse {
    inner: Hashed,
    /// A bounded grid's shape and the plane rectangle its cells fill.
    bound: Option<(Bounds, Rect)>,
    owner: u64,
    kept: HashMap<u64, hashlife::Kept>,
    next_kept: u64,
}

impl HashedUniverse {
    /// The unbounded universe around `inner`.
    pub fn new(inner: Hashed) -> HashedUniverse {
        HashedUniverse {
            inner,
            bound: None,
            owner: next_owner(),
            kept: HashMap::new(),
            next_kept: 0,
        }
    }

    /// An empty unbounded universe running `rule`, collecting garbage at `limit_bytes`.
    pub fn empty(rule: Rule, limit_bytes: usize) -> Result<HashedUniverse, UniverseError> {
        Ok(HashedUniverse::new(Hashed::new(rule, limit_bytes)?))
    }

    /// Bound it to the `width × height` grid whose centre is the origin, on a torus or a
    /// dead border (Golly's HashLife runs those), for two-state rules.
    pub fn bounded(self, bounds: Bounds) -> Result<HashedUniverse, UniverseError> {
        self.bounded_at(bounds, super::centred_frame(bounds))
    }

    /// Bound it to the grid of `bounds` whose cells fill `frame` (plane coordinates).
    pub fn bounded_at(
        mut self,
        bounds: Bounds,
        frame: Rect,
    ) -> Result<HashedUniverse, UniverseError> {
        check_bound(&self.inner.rule(), bounds)?;
        if let Some(cells) = self.inner.bounds()
            && !inside(cells, frame)
        {
            return Err(UniverseError::Limit(format!(
                "the pattern spans ({}, {}) to ({}, {}), outside the {}×{} grid",
                cells.x0, cells.y0, cells.x1, cells.y1, bounds.width, bounds.height
            )));
        }
        self.bound = Some((bounds, frame));
        Ok(self)
    }

    /// The engine underneath (readers, writers, the CLI's reports).
    pub fn hashed(&self) -> &Hashed {
        &self.inner
    }

    /// See [`HashedUniverse::hashed`].
    pub fn hashed_mut(&mut self) -> &mut Hashed {
        &mut self.inner
    }

    /// A rule change across engines: every cell of the live pattern and of each kept state
    /// moves into a new store (dying states dropped going to two states, as on a grid),
    /// refused with the count above [`MAX_MOVED_CELLS`]. On failure nothing changes.
    fn move_engine(&mut self, rule: Rule) -> Result<(), UniverseError> {
        let live = self.inner.keep();
        let moved = self.moved_to(rule);
        self.inner.restore(&live);
        self.inner.release(live);
        let (next, kept) = moved?;
        // The old kept roots go with the old engine's store.
        self.kept = kept;
        self.inner = next;
        Ok(())
    }

    /// The new engine's universe under `rule` holding the kept states (by id) and, last,
    /// the live one (restore the live root of `self.inner` afterwards: this walks the kept
    /// ones through it).
    fn moved_to(
        &mut self,
        rule: Rule,
    ) -> Result<(Hashed, HashMap<u64, hashlife::Kept>), UniverseError> {
        let live = self.inner.keep();
        let mut total = self.inner.occupied();
        for kept in self.kept.values() {
            self.inner.restore(kept);
            total = total.saturating_add(self.inner.occupied());
        }
        if total > MAX_MOVED_CELLS {
            self.inner.restore(&live);
            self.inner.release(live);
            return Err(UniverseError::Limit(format!(
                "changing {} to {rule} moves every cell into the other hashed engine: {total} cells (with the undo and Reset states) is over the {MAX_MOVED_CELLS} a rule change moves; save the pattern and open it under the new rule instead",
                self.inner.rule()
            )));
        }
        let two_state = !hashlife::any::needs_multi(&rule);
        let states = rule.states().max(2);
        let mut next = Hashed::new(rule, self.inner.memory().limit_bytes)?;
        self.inner.pass_threads(&mut next);
        let copy = |from: &Hashed, into: &mut Hashed| -> Result<(), HashError> {
            let cells = from.bounds().map(|b| from.states_in(b)).unwrap_or_default();
            into.load_states(
                cells
                    .into_iter()
                    .filter(|c| (!two_state || c.2 == 1) && u16::from(c.2) < states),
            )?;
            into.set_generation(from.generation());
            Ok(())
        };
        let mut kept = HashMap::new();
        let ids: Vec<u64> = self.kept.keys().copied().collect();
        for id in ids {
            self.inner.restore(&self.kept[&id]);
            copy(&self.inner, &mut next)?;
            kept.insert(id, next.keep());
        }
        self.inner.restore(&live);
        self.inner.release(live);
        copy(&self.inner, &mut next)?;
        Ok((next, kept))
    }

    fn step_bounded(
        &mut self,
        generations: u128,
        cancel: &dyn Fn() -> bool,
    ) -> Result<u128, UniverseError> {
        let (bounds, frame) = self.bound.expect("bounded");
        let mut done = 0u128;
        while done < generations && !cancel() {
            let u = self.inner.two_state().ok_or_else(|| {
                UniverseError::Unsupported("a bounded hashed grid runs two-state rules".into())
            })?;
            u.step_bounded_at(frame, bounds.topology)?;
            done += 1;
        }
        Ok(done)
    }
}

/// Whether `inner` lies inside `outer`.
fn inside(inner: Rect, outer: Rect) -> bool {
    inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1
}

/// Whether the hashed universe runs a grid of `bounds` under `rule`.
pub fn check_bound(rule: &Rule, bounds: Bounds) -> Result<(), UniverseError> {
    if !matches!(bounds.topology, Topology::Torus | Topology::DeadBorder) {
        return Err(UniverseError::Unsupported(format!(
            "hashlife runs bounded grids on a torus or a dead border, not a {}; the grid strategies run every surface",
            bounds.topology
        )));
    }
    if hashlife::any::needs_multi(rule) {
        return Err(UniverseError::Unsupported(format!(
            "hashlife runs bounded grids under two-state rules; {rule} runs unbounded on hashlife, or on a grid strategy"
        )));
    }
    if rule.next_alive(0) {
        // Golly's emulation of B0 is for the infinite plane; a bounded grid runs B0 as it is.
        return Err(UniverseError::Unsupported(format!(
            "{rule} has B0: on a bounded grid it runs on the grid strategies (hashlife emulates B0 only on the unbounded plane)"
        )));
    }
    Ok(())
}

impl Universe for HashedUniverse {
    fn id(&self) -> u64 {
        self.owner
    }

    fn describe(&self) -> String {
        match self.bound.map(|b| b.0) {
            Some(b) => format!("{}×{} {} grid (hashlife)", b.width, b.height, b.topology),
            None => "unbounded, hashed (hashlife)".to_string(),
        }
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            ages: false,
            gpu: false,
            bounded: self.bound.map(|b| b.0),
            hashing: true,
            strategies: false,
        }
    }

    fn strategy(&self) -> Strategy {
        Strategy::Hashlife
    }

    fn rule(&self) -> Rule {
        self.inner.rule()
    }

    fn set_rule(&mut self, rule: Rule) -> Result<(), UniverseError> {
        if let Some((bounds, _)) = self.bound {
            check_bound(&rule, bounds)?;
        }
        let same_engine =
            hashlife::any::needs_multi(&rule) == hashlife::any::needs_multi(&self.inner.rule());
        if !same_engine {
            return self.move_engine(rule);
        }
        // States the new rule lacks become 0, in the live pattern and every kept one.
        let states = rule.states().max(2);
        let drop_missing = |u: &mut Hashed| -> Result<(), HashError> {
            let Some(b) = u.bounds() else {
                return Ok(());
            };
            for (x, y, s) in u.states_in(b) {
                if u16::from(s) >= states {
                    u.set_state(x, y, 0)?;
                }
            }
            Ok(())
        };
        if self.inner.rule().states().max(2) > states {
            let live = self.inner.keep();
            let mut renewed = HashMap::new();
            for (&id, kept) in &self.kept {
                self.inner.restore(kept);
                drop_missing(&mut self.inner)?;
                renewed.insert(id, self.inner.keep());
            }
            self.inner.restore(&live);
            self.inner.release(live);
            drop_missing(&mut self.inner)?;
            for (id, old) in std::mem::replace(&mut self.kept, renewed) {
                let _ = id;
                self.inner.release(old);
            }
        }
        Ok(self.inner.set_rule(rule)?)
    }

    fn generation(&self) -> u128 {
        self.inner.generation()
    }

    fn set_generation(&mut self, generation: u128) -> Result<(), UniverseError> {
        self.inner.set_generation(generation);
        Ok(())
    }

    fn step(
        &mut self,
        generations: u128,
        cancel: &dyn Fn() -> bool,
    ) -> Result<u128, UniverseError> {
        if generations == 0 {
            return Ok(0);
        }
        if self.inner.generation().checked_add(generations).is_none() {
            return Err(UniverseError::Limit(format!(
                "{generations} more generations would pass generation 2^128 - 1, the largest golab counts"
            )));
        }
        if self.bound.is_some() {
            return self.step_bounded(generations, cancel);
        }
        // A step that fails part way (the plane's edge, the memory limit) leaves the
        // universe where it was: the start is kept and restored.
        let start = self.inner.keep();
        let stepped = self.inner.advance(generations, cancel);
        match stepped {
            Ok(done) => {
                self.inner.release(start);
                Ok(done)
            }
            Err(HashError::Interrupted { generation }) => {
                self.inner.release(start);
                Err(UniverseError::Interrupted { generation })
            }
            Err(e) => {
                self.inner.restore(&start);
                self.inner.release(start);
                Err(e.into())
            }
        }
    }

    fn population(&mut self) -> Result<u128, UniverseError> {
        Ok(self.inner.population())
    }

    fn bounds(&mut self) -> Result<Option<Rect>, UniverseError> {
        Ok(self.inner.bounds())
    }

    fn state(&mut self, x: i128, y: i128) -> Result<u8, UniverseError> {
        Ok(self.inner.state(x, y))
    }

    fn set_states(&mut self, cells: &[(i128, i128, u8)]) -> Result<(), UniverseError> {
        check_states(&self.inner.rule(), cells)?;
        if let Some((bounds, frame)) = self.bound
            && let Some(&(x, y, _)) = cells
                .iter()
                .find(|c| c.0 < frame.x0 || c.0 > frame.x1 || c.1 < frame.y0 || c.1 > frame.y1)
        {
            return Err(UniverseError::Limit(format!(
                "cell ({x}, {y}) lies outside the {}×{} grid",
                bounds.width, bounds.height
            )));
        }
        let start = self.inner.keep();
        for &(x, y, state) in cells {
            if let Err(e) = self.inner.set_state(x, y, state) {
                self.inner.restore(&start);
                self.inner.release(start);
                return Err(e.into());
            }
        }
        if self.inner.is_full() {
            // More cells than the memory limit holds: back to where it was.
            self.inner.restore(&start);
            self.inner.release(start);
            let memory = self.inner.memory();
            self.inner.recover_from_full();
            return Err(HashError::Memory {
                limit_bytes: memory.limit_bytes,
                nodes: memory.nodes,
                generation: self.inner.generation(),
            }
            .into());
        }
        self.inner.release(start);
        Ok(())
    }

    fn states_in(&mut self, rect: Rect) -> Result<Vec<(i128, i128, u8)>, UniverseError> {
        let mut cells = self.inner.states_in(rect);
        cells.sort_unstable_by_key(|&(x, y, _)| (y, x));
        Ok(cells)
    }

    fn next_in_row(&mut self, x: i128, y: i128) -> Result<Option<(i128, u8)>, UniverseError> {
        let Some(b) = self.inner.bounds() else {
            return Ok(None);
        };
        if y < b.y0 || y > b.y1 || x > b.x1 {
            return Ok(None);
        }
        let row = Rect {
            x0: x.max(b.x0),
            y0: y,
            x1: b.x1,
            y1: y,
        };
        Ok(self.states_in(row)?.first().map(|&(x, _, s)| (x, s)))
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, UniverseError> {
        let generation = u64::try_from(self.inner.generation()).unwrap_or(u64::MAX);
        let mut stats = Stats::empty(generation, buckets);
        let saturate = |v: u128| u64::try_from(v).unwrap_or(u64::MAX);
        stats.population = saturate(self.inner.population());
        stats.dying = saturate(
            self.inner
                .occupied()
                .saturating_sub(self.inner.population()),
        );
        stats.per_state = self
            .inner
            .state_counts()
            .into_iter()
            .map(saturate)
            .collect();
        Ok(stats)
    }

    fn draw(
        &mut self,
        request: &ViewRequest,
        target: DrawTarget<'_>,
    ) -> Result<bool, UniverseError> {
        match target {
            DrawTarget::Device(_) => Ok(false),
            DrawTarget::Host(out) => {
                self.inner.draw(request, out);
                Ok(true)
            }
        }
    }

    fn keep(&mut self) -> Result<Kept, UniverseError> {
        let kept = self.inner.keep();
        let generation = kept.generation();
        self.next_kept += 1;
        self.kept.insert(self.next_kept, kept);
        Ok(Kept {
            owner: self.owner,
            id: self.next_kept,
            generation,
        })
    }

    fn restore(&mut self, kept: &Kept) -> Result<(), UniverseError> {
        let root = (kept.owner == self.owner)
            .then(|| self.kept.get(&kept.id))
            .flatten()
            .ok_or_else(|| {
                UniverseError::Limit("that state was not kept by this universe".into())
            })?;
        self.inner.restore(root);
        Ok(())
    }

    fn release(&mut self, kept: Kept) {
        if kept.owner == self.owner
            && let Some(root) = self.kept.remove(&kept.id)
        {
            self.inner.release(root);
        }
    }

    fn save(
        &mut self,
        path: &Path,
        meta: &crate::pattern::Pattern,
    ) -> Result<Format, UniverseError> {
        Ok(load::save(&self.inner, path, meta)?)
    }

    fn memory(&self) -> Option<MemoryReport> {
        Some(self.inner.memory())
    }

    fn set_memory_limit(&mut self, bytes: usize) {
        self.inner.set_memory_limit(bytes);
    }

    fn set_threads(&mut self, threads: crate::hashlife::Threads) {
        self.inner.set_threads(threads);
    }

    fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.inner.set_interrupt(Some(flag));
    }

    fn to_world(&mut self) -> Result<World, UniverseError> {
        let bounds = self.bound.map(|b| b.0);
        super::convert::world_of(self, bounds)
    }
}
