//! The unbounded plane on the simulation thread: a [`HashUniverse`] with its Reset point,
//! undo states (kept roots: a state of any size costs one root), the step exponent and
//! hyperspeed, and every edit the window makes, in plane coordinates.

use crate::hashlife::{self, HashError, Hashed, Kept, MemoryReport, Rect};
use crate::pattern::Pattern;
use crate::rule::Rule;
use crate::universe::{plane_cells, plane_states};
use crate::world::{CellEdit, World};

use super::region::{self, RegionOp, Selection};

/// Undo states kept on the plane (each one root; their nodes are shared).
const UNDO_DEPTH: usize = 64;

/// Live cells a selection operation or a copy on the plane handles at most; beyond it the
/// operation is refused with the count (save as macrocell instead).
pub const MAX_SELECTION_CELLS: u64 = 1 << 24;

/// Largest exponent of the plane's step (2^k generations per step).
pub const MAX_EXPONENT: u32 = hashlife::MAX_LEVEL as u32 - 4;

/// What the window shows of the plane.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaneInfo {
    /// Generation, exact.
    pub generation: u128,
    /// Live cells, exact.
    pub population: u128,
    /// Cells in any state but 0 (live and dying), exact.
    pub occupied: u128,
    /// The live cells' box.
    pub bounds: Option<Rect>,
    /// The node store's memory.
    pub memory: MemoryReport,
    /// Each step is 2^exponent generations.
    pub exponent: u32,
    /// Whether the exponent grows by itself (Golly's hyperspeed).
    pub hyper: bool,
    /// Generations still to go of a "go to generation".
    pub pending: u128,
}

impl PlaneInfo {
    /// An empty plane's figures (what a caller assumes before the thread has moved onto
    /// the plane).
    pub fn placeholder() -> PlaneInfo {
        PlaneInfo {
            generation: 0,
            population: 0,
            occupied: 0,
            bounds: None,
            memory: MemoryReport {
                nodes: 0,
                bytes: 0,
                limit_bytes: 0,
                collections: 0,
            },
            exponent: 0,
            hyper: false,
            pending: 0,
        }
    }
}

/// The plane and what the runner keeps beside it.
pub struct Plane {
    /// The universe.
    pub universe: Hashed,
    start: Option<Kept>,
    undo: Vec<Kept>,
    redo: Vec<Kept>,
    stroke: Option<u64>,
    /// Each step is 2^exponent generations.
    pub exponent: u32,
    /// Whether the exponent grows while steps stay fast.
    pub hyper: bool,
    /// Steps run at the current exponent (hyperspeed waits for a few).
    pub steps_at_exponent: u32,
    /// Generations still to step for a "go to generation".
    pub pending: u128,
    population: u128,
    occupied: u128,
    bounds: Option<Rect>,
    interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Plane {
    /// The plane holding `world`'s live cells at plane coordinates (the grid's centre at
    /// the origin), its rule and generation, collecting garbage at `limit_bytes`.
    pub fn from_world(world: &World, limit_bytes: usize) -> Result<Plane, HashError> {
        let mut universe = Hashed::new(world.rule(), limit_bytes)?;
        universe.load_states(plane_states(world))?;
        universe.set_generation(world.generation.into());
        Ok(Plane::new(universe))
    }

    /// The plane around an opened universe.
    pub fn new(universe: Hashed) -> Plane {
        let mut plane = Plane {
            universe,
            start: None,
            undo: Vec::new(),
            redo: Vec::new(),
            stroke: None,
            exponent: 0,
            hyper: false,
            steps_at_exponent: 0,
            pending: 0,
            population: 0,
            occupied: 0,
            bounds: None,
            interrupt: None,
        };
        plane.refresh();
        plane
    }

    /// Abandon a step in progress while `flag` is raised (kept across engine changes).
    pub fn set_interrupt(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.universe.set_interrupt(Some(flag.clone()));
        self.interrupt = Some(flag);
    }

    /// Recount the population and the box (after a step or an edit).
    pub fn refresh(&mut self) {
        self.population = self.universe.population();
        self.occupied = self.universe.occupied();
        self.bounds = self.universe.bounds();
    }

    /// What the window shows.
    pub fn info(&self) -> PlaneInfo {
        PlaneInfo {
            generation: self.universe.generation(),
            population: self.population,
            occupied: self.occupied,
            bounds: self.bounds,
            memory: self.universe.memory(),
            exponent: self.exponent,
            hyper: self.hyper,
            pending: self.pending,
        }
    }

    /// Whether Reset has a different state to go back to.
    pub fn can_reset(&self) -> bool {
        self.start
            .as_ref()
            .is_some_and(|s| s.generation() != self.universe.generation())
    }

    /// Whether undo / redo have something to do.
    pub fn can_undo(&self) -> (bool, bool) {
        (!self.undo.is_empty(), !self.redo.is_empty())
    }

    /// Remember the state before stepping begins (Golly's starting pattern).
    pub fn mark_start(&mut self) {
        if let Some(old) = self.start.take() {
            self.universe.release(old);
        }
        self.start = Some(self.universe.keep());
    }

    /// Go back to the starting pattern as one undo step.
    pub fn reset(&mut self) {
        if self.can_reset()
            && let Some(start) = self.start.take()
        {
            self.record(None);
            self.universe.restore(&start);
            self.start = Some(start);
            self.refresh();
        }
    }

    /// Remember the state before an undoable change (once per stroke for paint).
    pub fn record(&mut self, stroke: Option<u64>) {
        if stroke.is_some() && stroke == self.stroke {
            return;
        }
        self.stroke = stroke;
        let kept = self.universe.keep();
        self.undo.push(kept);
        if self.undo.len() > UNDO_DEPTH {
            let oldest = self.undo.remove(0);
            self.universe.release(oldest);
        }
        for redo in std::mem::take(&mut self.redo) {
            self.universe.release(redo);
        }
    }

    /// Undo (`back`) or redo the last change.
    pub fn undo(&mut self, back: bool) {
        let (from, to) = if back {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        if let Some(target) = from.pop() {
            to.push(self.universe.keep());
            self.universe.restore(&target);
            self.universe.release(target);
            self.stroke = None;
            self.refresh();
        }
    }

    /// Paint (`alive`) or erase `cells`.
    pub fn paint(&mut self, cells: &[(i64, i64)], state: u8, stroke: u64) -> Result<(), HashError> {
        self.record(Some(stroke));
        for &(x, y) in cells {
            if state < 2 {
                self.universe.set(x.into(), y.into(), state == 1)?;
            } else {
                self.universe.set_state(x.into(), y.into(), state)?;
            }
        }
        self.refresh();
        Ok(())
    }

    /// Put `pattern`'s box with its top-left at `(x, y)`: its dead cells clear, its live
    /// cells set, as a paste does on a grid.
    pub fn place(&mut self, pattern: &Pattern, x: i64, y: i64) -> Result<(), HashError> {
        self.record(None);
        let rect = Rect {
            x0: x.into(),
            y0: y.into(),
            x1: i128::from(x) + i128::from(pattern.width) - 1,
            y1: i128::from(y) + i128::from(pattern.height) - 1,
        };
        self.clear_rect(rect)?;
        let live = pattern.cells.iter().map(|&(cx, cy)| (cx, cy, 1));
        let dying = pattern.dying.iter().copied();
        for (cx, cy, state) in live.chain(dying) {
            let (px, py) = (
                i128::from(x) + i128::from(cx),
                i128::from(y) + i128::from(cy),
            );
            self.universe.set_state(px, py, state)?;
        }
        self.refresh();
        Ok(())
    }

    fn clear_rect(&mut self, rect: Rect) -> Result<(), HashError> {
        for (cx, cy) in self.universe.cells_in(rect) {
            self.universe.set(cx, cy, false)?;
        }
        Ok(())
    }

    /// The selection's live cells as a pattern (refused past [`MAX_SELECTION_CELLS`]).
    pub fn copy(&self, selection: Selection) -> Result<Pattern, String> {
        let rect = rect_of(selection);
        let cells = self.universe.states_in(rect);
        if cells.len() as u64 > MAX_SELECTION_CELLS {
            return Err(too_many(cells.len() as u64, "copy"));
        }
        let (w, h) = (selection.width(), selection.height());
        let (Ok(width), Ok(height)) = (u32::try_from(w), u32::try_from(h)) else {
            return Err(format!(
                "a {w} x {h} selection is wider than a pattern may be (save the plane as macrocell, .mc)"
            ));
        };
        let mut pattern = Pattern {
            width,
            height,
            rule: Some(self.universe.rule()),
            ..Pattern::default()
        };
        for (x, y, state) in cells {
            let (x, y) = ((x - rect.x0) as u32, (y - rect.y0) as u32);
            match state {
                1 => pattern.cells.push((x, y)),
                _ => pattern.dying.push((x, y, state)),
            }
        }
        pattern.cells.sort_unstable_by_key(|&(x, y)| (y, x));
        Ok(pattern)
    }

    /// Apply `op` to the selection: clear takes any size; fill, rotate and flip work on a
    /// selection of at most [`MAX_SELECTION_CELLS`] cells, through the grid's operations.
    pub fn apply(&mut self, selection: Selection, op: RegionOp) -> Result<(), String> {
        let rect = rect_of(selection);
        if op == RegionOp::Clear {
            self.record(None);
            self.clear_rect(rect).map_err(|e| e.to_string())?;
            self.refresh();
            return Ok(());
        }
        let area = u128::from(selection.width()) * u128::from(selection.height());
        if area > u128::from(MAX_SELECTION_CELLS) {
            return Err(format!(
                "a {} x {} selection is too large to fill, rotate or flip on the plane (at most {MAX_SELECTION_CELLS} cells)",
                selection.width(),
                selection.height()
            ));
        }
        let (w, h) = (selection.width() as u32, selection.height() as u32);
        let mut grid = World::new(
            w.max(1),
            h.max(1),
            crate::world::Topology::DeadBorder,
            self.universe.rule(),
        )
        .map_err(|e| e.to_string())?;
        for (x, y) in self.universe.cells_in(rect) {
            grid.apply_edit(CellEdit {
                x: (x - rect.x0) as u32,
                y: (y - rect.y0) as u32,
                alive: true,
            });
        }
        let whole = region::Region {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        let done = region::apply(&grid, whole, op).map_err(|e| e.to_string())?;
        self.record(None);
        self.clear_rect(rect).map_err(|e| e.to_string())?;
        for (x, y) in plane_cells(&done) {
            let (gx, gy) = (x + i128::from(w / 2), y + i128::from(h / 2));
            self.universe
                .set(rect.x0 + gx, rect.y0 + gy, true)
                .map_err(|e| e.to_string())?;
        }
        self.refresh();
        Ok(())
    }

    /// Change the rule, keeping every cell (refused with the reason for rules the hashed
    /// universe cannot run).
    pub fn set_rule(&mut self, rule: Rule) -> Result<(), HashError> {
        let engine_changes = rule.has_dying_states() != self.universe.rule().has_dying_states();
        if engine_changes {
            // The other engine has its own store: Reset and undo states cannot follow.
            crate::hashlife::multi::check_rule(&rule)?;
            self.release_all();
        }
        self.universe.set_rule(rule)?;
        self.universe.set_interrupt(self.interrupt.clone());
        self.refresh();
        Ok(())
    }

    /// The grid of `w × h` (`topology`) holding every live cell at grid cell
    /// `(x + w/2, y + h/2)`, or why it cannot: the size the pattern needs.
    pub fn to_world(
        &mut self,
        w: u32,
        h: u32,
        topology: crate::world::Topology,
    ) -> Result<World, String> {
        let (ox, oy) = (i128::from(w / 2), i128::from(h / 2));
        let mut world =
            World::new(w, h, topology, self.universe.rule()).map_err(|e| e.to_string())?;
        world.generation = u64::try_from(self.universe.generation()).map_err(|_| {
            format!(
                "generation {} is past what a grid counts (2^64 - 1)",
                self.universe.generation()
            )
        })?;
        if let Some(b) = self.bounds {
            let fits = b.x0 + ox >= 0
                && b.y0 + oy >= 0
                && b.x1 + ox < i128::from(w)
                && b.y1 + oy < i128::from(h);
            if !fits {
                let need = |lo: i128, hi: i128| (2 * lo.abs().max(hi.abs() + 1)).max(1);
                return Err(format!(
                    "the pattern spans {} x {} cells from ({}, {}); centred as it lies it needs a grid of at least {} x {} (this one is {w} x {h}): resize the grid or stay on the plane",
                    b.width(),
                    b.height(),
                    b.x0,
                    b.y0,
                    need(b.x0, b.x1),
                    need(b.y0, b.y1)
                ));
            }
            let width = w as usize;
            let (ages, dying) = world.cells_mut();
            for (x, y, state) in self.universe.states_in(b) {
                let i = (y + oy) as usize * width + (x + ox) as usize;
                if state == 1 {
                    ages[i] = 1;
                } else if let Some(d) = dying.get_mut(i) {
                    *d = state;
                }
            }
        }
        Ok(world)
    }

    /// Let every kept state go (the plane is being left).
    pub fn release_all(&mut self) {
        let kept: Vec<Kept> = self
            .undo
            .drain(..)
            .chain(self.redo.drain(..))
            .chain(self.start.take())
            .collect();
        for k in kept {
            self.universe.release(k);
        }
    }
}

/// The plane rectangle of a selection.
pub fn rect_of(s: Selection) -> Rect {
    Rect {
        x0: s.x0.into(),
        y0: s.y0.into(),
        x1: s.x1.into(),
        y1: s.y1.into(),
    }
}

fn too_many(count: u64, what: &str) -> String {
    format!(
        "the selection holds {count} live cells, more than the {MAX_SELECTION_CELLS} a {what} on the plane handles (save the plane as macrocell, .mc)"
    )
}
