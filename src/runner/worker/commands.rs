//! The simulation thread's commands: edits, world changes, undo and redo, Reset — each once,
//! through the universe interface.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::Worker;
use crate::runner::{Command, RegionOp, Selection, region};
use crate::universe::{Rect, UniverseError};

/// What the thread is doing while it handles `command`, for a command that can take seconds
/// on a large world (`None` for quick ones).
pub(super) fn busy_label(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Replace(_) | Command::Open(_) => "loading the world…",
        Command::Bounded(..) => "changing the grid…",
        Command::Unbounded => "making the world unbounded…",
        Command::Rule(_) => "changing the rule…",
        Command::Switch(_) => "switching strategy…",
        Command::GpuSettings(_) => "applying the GPU settings…",
        Command::Undo => "undoing…",
        Command::Redo => "redoing…",
        Command::Reset => "resetting…",
        _ => return None,
    })
}

/// What about the work behind a generation `command` changes, if anything: the runner's
/// batch pacer starts again after it.
fn changes_the_work(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Switch(_) => "another strategy",
        Command::GpuSettings(_) => "other GPU settings",
        Command::Replace(_) | Command::Open(_) | Command::Reset => "another world",
        Command::Undo | Command::Redo => "another world",
        Command::Bounded(..) | Command::Unbounded => "another surface",
        Command::Rule(_) => "another rule",
        Command::Place { .. } | Command::Region(..) => "an edit of a region",
        _ => return None,
    })
}

impl Worker {
    /// A Step or Go to begins: keep the world so a failure part way can go back to it.
    /// Only where keeping costs nothing (a hashed root); a grid refuses up front what it
    /// cannot count, and a copy of a large grid per Step would cost more than the step.
    fn begin_pending(&mut self) -> Result<(), UniverseError> {
        let cheap = self.universe.capabilities().hashing;
        if cheap && self.pending == 0 && self.pending_start.is_none() {
            self.pending_start = Some(self.universe.keep()?);
        }
        Ok(())
    }

    /// Remember the world before an undoable change (once per stroke for edits).
    fn record(&mut self, stroke: Option<u64>) -> Result<(), UniverseError> {
        if stroke.is_some() && stroke == self.stroke {
            return Ok(());
        }
        self.stroke = stroke;
        self.history.record(self.universe.as_mut())
    }

    /// The rectangle a bounded grid's cells cover (selections and paint are clipped to it).
    fn bounded_frame(&mut self) -> Option<Rect> {
        let bounds = self.universe.capabilities().bounded?;
        self.grid_frame()
            .or(Some(crate::universe::centred_frame(bounds)))
    }

    pub(super) fn handle(&mut self, command: Command) {
        let small = matches!(
            command,
            Command::SetRunning(_)
                | Command::Step(_)
                | Command::SetSpeed(_)
                | Command::SetHyper(_)
                | Command::Edit { .. }
                | Command::Paint { .. }
                | Command::Memory(_)
                | Command::GoTo(_)
                | Command::Save { .. }
                | Command::Read(_)
                | Command::Bounds { .. }
                | Command::StateAt { .. }
                | Command::Copy { cut: false, .. }
        );
        let new_start = matches!(
            command,
            Command::Edit { .. }
                | Command::Paint { .. }
                | Command::Open(_)
                | Command::Place { .. }
                | Command::Region(..)
                | Command::Copy { cut: true, .. }
                | Command::Replace(_)
                | Command::Bounded(..)
                | Command::Unbounded
                | Command::Rule(_)
                | Command::Undo
                | Command::Redo
        );
        self.start_pending |= new_start;
        // A new world, size, rule or timeline: the statistics' history starts again.
        self.epoch += u64::from(matches!(
            command,
            Command::Replace(_)
                | Command::Open(_)
                | Command::Bounded(..)
                | Command::Unbounded
                | Command::Rule(_)
                | Command::Reset
                | Command::Undo
                | Command::Redo
        ));
        // Another stepper, world, size or rule: a generation costs something else now, so
        // the batch size is learnt again from one generation (a size learnt on a fast
        // stepper, kept for a slow one, held the thread for minutes: issue #54's freeze).
        let other_work = changes_the_work(&command);
        if let Some(why) = other_work {
            self.pacer.restart(why);
        }
        if matches!(
            command,
            Command::SetRunning(true) | Command::Step(_) | Command::GoTo(_)
        ) {
            // New work: a Stop raised before it does not apply to it.
            self.shared.interrupt.store(false, Ordering::Relaxed);
        }
        if let Err(e) = self.try_handle(command) {
            self.fail(e);
        }
        if other_work.is_some() {
            // The old world, stepper or size is gone: its memory goes back to the OS.
            crate::memory::return_freed();
        }
        if let Some(moved) = self.universe.grid().and_then(|g| g.take_moved_for_rule()) {
            self.note_warning(moved);
        }
        self.recovery.stale |= !small;
        self.recovery.touched = true;
        self.changed = true;
        self.dirty = true;
        self.stats_dirty = true;
    }

    fn try_handle(&mut self, command: Command) -> Result<(), UniverseError> {
        match command {
            Command::SetRunning(on) => {
                if !on {
                    // Stop drops what a Step or Go to still had to do, keeping what it did.
                    self.pending = 0;
                    self.end_pending();
                }
                self.running = on;
                self.gps_window = (Instant::now(), 0, 0.0);
                self.hyper.step = None;
                self.hyper.steps_at_step = 0;
                if !on {
                    // Paused: no generations per second, not the last running figure.
                    self.wall_gps = 0.0;
                }
            }
            Command::Step(n) => {
                let room = u128::MAX - self.universe.generation() - self.pending;
                if n > room {
                    return Err(UniverseError::Limit(format!(
                        "{n} more generations would pass generation 2^128 - 1, the largest golab counts"
                    )));
                }
                self.begin_pending()?;
                self.pending += n;
            }
            Command::GoTo(target) => {
                self.end_pending();
                self.pending = 0;
                self.begin_pending()?;
                self.pending = target.saturating_sub(self.universe.generation());
            }
            Command::SetSpeed(speed) => {
                self.speed = speed;
                self.hyper.step = None;
            }
            Command::SetHyper(on) => {
                self.hyper.on = on;
                self.hyper.step = None;
            }
            Command::Memory(limit) => {
                self.memory_limit = limit;
                let bytes = limit.unwrap_or_else(crate::hashlife::default_memory_limit);
                self.universe.set_memory_limit(bytes);
            }
            Command::Threads(threads) => {
                self.threads = threads;
                self.universe.set_threads(threads);
            }
            Command::Edit { cells, stroke } => {
                self.record(stroke)?;
                self.universe.set_states(&cells)?;
            }
            Command::Paint {
                cells,
                alive,
                state,
                stroke,
            } => {
                let frame = self.bounded_frame();
                let state = if alive { state.max(1) } else { 0 };
                let cells: Vec<(i128, i128, u8)> = cells
                    .into_iter()
                    .map(|(x, y)| (i128::from(x), i128::from(y), state))
                    .filter(|&(x, y, _)| {
                        frame.is_none_or(|f| x >= f.x0 && x <= f.x1 && y >= f.y0 && y <= f.y1)
                    })
                    .collect();
                if !cells.is_empty() {
                    self.record(Some(stroke))?;
                    self.universe.set_states(&cells)?;
                }
            }
            Command::Place { pattern, x, y } => {
                self.record(None)?;
                let frame = self.bounded_frame();
                region::place(self.universe.as_mut(), &pattern, (x, y), frame)?;
            }
            Command::Region(selection, op) => {
                let frame = self.bounded_frame();
                if selection.clipped(frame).is_some() {
                    self.record(None)?;
                    region::apply(self.universe.as_mut(), selection, op, frame)?;
                }
            }
            Command::Copy {
                selection,
                cut,
                reply,
            } => {
                let frame = self.bounded_frame();
                let Some(inside) = selection.clipped(frame) else {
                    let _ = reply.send(Err("the selection lies outside the grid".to_string()));
                    return Ok(());
                };
                match region::copy(self.universe.as_mut(), inside) {
                    Ok(pattern) => {
                        let _ = reply.send(Ok(pattern));
                        if cut {
                            self.record(None)?;
                            region::apply(self.universe.as_mut(), inside, RegionOp::Clear, frame)?;
                        }
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e.to_string()));
                    }
                }
            }
            Command::Replace(world) => self.replace_world(world)?,
            Command::Open(universe) => self.replace_universe(universe),
            Command::Read(reply) => {
                let _ = reply.send(self.universe.to_world().map_err(|e| e.to_string()));
            }
            Command::Save { path, meta, reply } => {
                let saved = self
                    .universe
                    .save(&path, &meta)
                    .map(|format| format!("saved {} ({})", path.display(), format.name()))
                    .map_err(|e| format!("could not save {}: {e}", path.display()));
                let _ = reply.send(saved);
            }
            Command::Bounds { within, reply } => {
                let bounds = match within {
                    None => self.universe.bounds()?,
                    Some(s) => {
                        let cells = self.universe.states_in(s.rect())?;
                        crate::universe::rect_of_cells(cells.into_iter().map(|(x, y, _)| (x, y)))
                    }
                };
                let _ = reply.send(bounds.map(Selection::of_rect));
            }
            Command::StateAt { x, y, reply } => {
                let _ = reply.send(self.universe.state(x.into(), y.into())?);
            }
            Command::Unbounded => self.make_unbounded()?,
            Command::Bounded(bounds) => self.make_bounded(bounds)?,
            Command::Switch(strategy) => self.switch(strategy)?,
            Command::GpuSettings(settings) => {
                self.factory.gpu_settings = settings;
                if let Some(sim) = self.universe.grid() {
                    sim.set_gpu_settings(settings)?;
                }
            }
            Command::Rule(rule) => self.set_rule(rule)?,
            Command::Reset => {
                self.running = false;
                self.wall_gps = 0.0;
                self.pending = 0;
                let back = self
                    .start
                    .as_ref()
                    .is_some_and(|s| s.generation() != self.universe.generation());
                if back {
                    self.record(None)?;
                    if let Some(start) = &self.start {
                        self.universe.restore(start)?;
                    }
                }
            }
            Command::Undo => {
                self.stroke = None;
                self.history.undo(&mut self.universe)?;
                self.after_swap();
            }
            Command::Redo => {
                self.stroke = None;
                self.history.redo(&mut self.universe)?;
                self.after_swap();
            }
        }
        Ok(())
    }
}
