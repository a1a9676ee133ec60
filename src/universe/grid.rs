//! [`GridUniverse`]: the grid behind the one interface — a [`Simulation`] (every grid
//! strategy, ages, live switching) whose cell `(x, y)` lies at plane coordinates
//! [`World::plane_origin`] `+ (x, y)`. Bounded (a torus, a dead border, Golly's joined
//! surfaces) or unbounded: a dead-border grid that grows with its pattern (growth.rs), so
//! an unbounded world keeps ages and the user's strategy, GPU ones included, while it fits.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{
    Bounds, Capabilities, DrawTarget, Kept, MemoryReport, Rect, Universe, UniverseError,
    check_states, next_owner, rect_of_cells,
};
use crate::pattern::{Format, Pattern};
use crate::rule::Rule;
use crate::sim::Simulation;
use crate::stats::Stats;
use crate::step::Strategy;
use crate::step::view::ViewRequest;
use crate::world::{CellEdit, World};

/// Generations a grid steps between looks at the interrupt flag and the cancel question.
const PIECE: u64 = 1 << 16;

/// The grid as a [`Universe`] (see the module docs).
pub struct GridUniverse {
    sim: Simulation,
    owner: u64,
    kept: HashMap<u64, World>,
    next_kept: u64,
    interrupt: Option<Arc<AtomicBool>>,
}

impl GridUniverse {
    /// The grid `sim` runs.
    pub fn new(sim: Simulation) -> GridUniverse {
        GridUniverse {
            sim,
            owner: next_owner(),
            kept: HashMap::new(),
            next_kept: 0,
            interrupt: None,
        }
    }

    /// The simulation (strategy switches, statistics with ages, the grid's own reports).
    pub fn simulation(&mut self) -> &mut Simulation {
        &mut self.sim
    }

    /// Take the simulation out.
    pub fn into_simulation(self) -> Simulation {
        self.sim
    }

    /// Plane coordinates of grid cell (0, 0).
    fn origin(&self) -> (i128, i128) {
        let (x, y) = self.sim.plane_origin();
        (i128::from(x), i128::from(y))
    }

    /// The grid cell at plane `(x, y)`, if it lies in the grid.
    fn cell(&self, x: i128, y: i128) -> Option<(u32, u32)> {
        let (ox, oy) = self.origin();
        let (w, h) = self.sim.size();
        let (gx, gy) = (x - ox, y - oy);
        (gx >= 0 && gy >= 0 && gx < i128::from(w) && gy < i128::from(h))
            .then_some((gx as u32, gy as u32))
    }

    /// The grid's rectangle in plane coordinates.
    fn frame(&self) -> Rect {
        let (ox, oy) = self.origin();
        let (w, h) = self.sim.size();
        Rect {
            x0: ox,
            y0: oy,
            x1: ox + i128::from(w) - 1,
            y1: oy + i128::from(h) - 1,
        }
    }

    fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

impl Universe for GridUniverse {
    fn id(&self) -> u64 {
        self.owner
    }

    fn describe(&self) -> String {
        let (w, h) = self.sim.size();
        let strategy = self.sim.strategy().name();
        if self.sim.grows() {
            format!("unbounded, a growing {w}×{h} grid ({strategy})")
        } else {
            format!("{w}×{h} {} grid ({strategy})", self.sim.topology())
        }
    }

    fn capabilities(&self) -> Capabilities {
        let (width, height) = self.sim.size();
        let strategy = self.sim.strategy();
        Capabilities {
            ages: strategy.keeps_ages(),
            gpu: strategy.is_gpu(),
            bounded: (!self.sim.grows()).then_some(Bounds {
                width,
                height,
                topology: self.sim.topology(),
            }),
            hashing: false,
            strategies: true,
        }
    }

    fn strategy(&self) -> Strategy {
        self.sim.strategy()
    }

    fn rule(&self) -> Rule {
        self.sim.rule()
    }

    fn set_rule(&mut self, rule: Rule) -> Result<(), UniverseError> {
        Ok(self.sim.set_rule(rule)?)
    }

    fn generation(&self) -> u128 {
        self.sim.generation().into()
    }

    fn set_generation(&mut self, generation: u128) -> Result<(), UniverseError> {
        let generation = u64::try_from(generation).map_err(|_| {
            UniverseError::Limit(format!(
                "a grid counts generations up to 2^64 - 1, not {generation}"
            ))
        })?;
        Ok(self.sim.modify(|w| {
            let mut next = w.clone();
            next.generation = generation;
            Ok(next)
        })?)
    }

    fn step(
        &mut self,
        generations: u128,
        cancel: &dyn Fn() -> bool,
    ) -> Result<u128, UniverseError> {
        let room = u64::MAX - self.sim.generation();
        let total = u64::try_from(generations)
            .ok()
            .filter(|&g| g <= room)
            .ok_or_else(|| {
                UniverseError::Limit(format!(
                    "a grid counts generations up to 2^64 - 1; {generations} more would pass it (the hashed universe counts to 2^128 - 1)"
                ))
            })?;
        let mut done = 0u64;
        while done < total && !cancel() && !self.interrupted() {
            let piece = (total - done).min(PIECE);
            self.sim.step(piece)?;
            done += piece;
        }
        Ok(done.into())
    }

    fn population(&mut self) -> Result<u128, UniverseError> {
        Ok(self.sim.stats(1)?.population.into())
    }

    fn bounds(&mut self) -> Result<Option<Rect>, UniverseError> {
        let (ox, oy) = self.origin();
        Ok(self.sim.world()?.occupied_box().map(|(x, y, w, h)| Rect {
            x0: ox + i128::from(x),
            y0: oy + i128::from(y),
            x1: ox + i128::from(x) + i128::from(w) - 1,
            y1: oy + i128::from(y) + i128::from(h) - 1,
        }))
    }

    fn state(&mut self, x: i128, y: i128) -> Result<u8, UniverseError> {
        let Some((gx, gy)) = self.cell(x, y) else {
            return Ok(0);
        };
        let world = self.sim.world()?;
        let i = gy as usize * world.width() as usize + gx as usize;
        Ok(world.state_at(i) as u8)
    }

    fn set_states(&mut self, cells: &[(i128, i128, u8)]) -> Result<(), UniverseError> {
        if cells.is_empty() {
            return Ok(());
        }
        check_states(&self.sim.rule(), cells)?;
        if self.sim.grows()
            && let Some(rect) = rect_of_cells(cells.iter().map(|c| (c.0, c.1)))
        {
            self.sim.include(rect)?;
        }
        // A cell named twice takes its last state, as set one after another.
        let mut last: HashMap<(i128, i128), usize> = HashMap::with_capacity(cells.len());
        for (i, &(x, y, _)) in cells.iter().enumerate() {
            last.insert((x, y), i);
        }
        let mut edits = Vec::with_capacity(cells.len());
        let mut by_state: HashMap<u8, Vec<(u32, u32)>> = HashMap::new();
        let unique = cells
            .iter()
            .enumerate()
            .filter(|&(i, c)| last[&(c.0, c.1)] == i)
            .map(|(_, c)| c);
        for &(x, y, state) in unique {
            let Some((gx, gy)) = self.cell(x, y) else {
                let frame = self.frame();
                return Err(UniverseError::Limit(format!(
                    "cell ({x}, {y}) lies outside the grid, which spans ({}, {}) to ({}, {})",
                    frame.x0, frame.y0, frame.x1, frame.y1
                )));
            };
            match state {
                0 | 1 => edits.push(CellEdit {
                    x: gx,
                    y: gy,
                    alive: state == 1,
                }),
                s => by_state.entry(s).or_default().push((gx, gy)),
            }
        }
        if !edits.is_empty() {
            self.sim.edit(&edits)?;
        }
        for (state, cells) in by_state {
            self.sim.set_states(&cells, state)?;
        }
        Ok(())
    }

    fn states_in(&mut self, rect: Rect) -> Result<Vec<(i128, i128, u8)>, UniverseError> {
        let frame = self.frame();
        let (x0, x1) = (rect.x0.max(frame.x0), rect.x1.min(frame.x1));
        let (y0, y1) = (rect.y0.max(frame.y0), rect.y1.min(frame.y1));
        if x0 > x1 || y0 > y1 {
            return Ok(Vec::new());
        }
        let world = self.sim.world()?;
        let w = world.width() as usize;
        let mut out = Vec::new();
        for y in y0..=y1 {
            let row = (y - frame.y0) as usize * w;
            for x in x0..=x1 {
                let state = world.state_at(row + (x - frame.x0) as usize);
                if state != 0 {
                    out.push((x, y, state as u8));
                }
            }
        }
        Ok(out)
    }

    fn next_in_row(&mut self, x: i128, y: i128) -> Result<Option<(i128, u8)>, UniverseError> {
        let frame = self.frame();
        if y < frame.y0 || y > frame.y1 || x > frame.x1 {
            return Ok(None);
        }
        let row = Rect {
            x0: x.max(frame.x0),
            y0: y,
            x1: frame.x1,
            y1: y,
        };
        Ok(self.states_in(row)?.first().map(|&(x, _, s)| (x, s)))
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, UniverseError> {
        Ok(self.sim.stats(buckets)?)
    }

    fn draw(
        &mut self,
        request: &ViewRequest,
        target: DrawTarget<'_>,
    ) -> Result<bool, UniverseError> {
        let (ox, oy) = self.origin();
        let local = ViewRequest {
            x0: request.x0 - ox as f64,
            y0: request.y0 - oy as f64,
            ..*request
        };
        match target {
            DrawTarget::Device(buffer) => Ok(self.sim.render_view_device(&local, buffer)?),
            DrawTarget::Host(out) => {
                self.sim.render_view_host(&local, out)?;
                Ok(true)
            }
        }
    }

    fn keep(&mut self) -> Result<Kept, UniverseError> {
        let world = self.sim.world()?.clone();
        let generation = world.generation.into();
        self.next_kept += 1;
        self.kept.insert(self.next_kept, world);
        Ok(Kept {
            owner: self.owner,
            id: self.next_kept,
            generation,
        })
    }

    fn restore(&mut self, kept: &Kept) -> Result<(), UniverseError> {
        let world = (kept.owner == self.owner)
            .then(|| self.kept.get(&kept.id))
            .flatten()
            .ok_or_else(|| UniverseError::Limit("that state was not kept by this grid".into()))?;
        // Cells and generation come back; the rule in force stays (states it lacks clear),
        // as in the hashed universe.
        let mut world = world.clone();
        let rule = self.sim.rule();
        if world.rule() != rule {
            world.set_rule(rule).map_err(crate::sim::SimError::from)?;
        }
        Ok(self.sim.replace_world(world)?)
    }

    fn release(&mut self, kept: Kept) {
        if kept.owner == self.owner {
            self.kept.remove(&kept.id);
        }
    }

    fn kept_bytes(&self) -> usize {
        self.kept
            .values()
            .map(|w| w.len() * (std::mem::size_of::<u32>() + usize::from(!w.dying().is_empty())))
            .sum()
    }

    fn save(&mut self, path: &Path, meta: &Pattern) -> Result<Format, UniverseError> {
        let mut pattern = Pattern::of_world(self.sim.world()?);
        pattern.name.clone_from(&meta.name);
        pattern.author.clone_from(&meta.author);
        pattern.comments.clone_from(&meta.comments);
        Ok(crate::pattern::save_file(&pattern, path)?)
    }

    fn memory(&self) -> Option<MemoryReport> {
        None
    }

    fn set_memory_limit(&mut self, _bytes: usize) {}

    fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    fn switch_strategy(&mut self, strategy: Strategy) -> Result<(), UniverseError> {
        if strategy == Strategy::Hashlife {
            return Err(UniverseError::Unsupported(
                "hashlife is the hashed universe: the world converts to it".into(),
            ));
        }
        Ok(self.sim.switch(strategy)?)
    }

    fn grid(&mut self) -> Option<&mut Simulation> {
        Some(&mut self.sim)
    }

    fn to_world(&mut self) -> Result<World, UniverseError> {
        Ok(self.sim.world()?.clone())
    }
}
