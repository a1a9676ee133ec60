//! The simulation thread's commands: edits, world changes, undo and redo, Reset.

use std::time::Instant;

use super::Worker;
use crate::runner::{Command, RegionOp, region};
use crate::sim::SimError;
use crate::world::CellEdit;

/// What the thread is doing while it handles `command`, for a command that can take seconds
/// on a large world (`None` for quick ones).
pub(super) fn busy_label(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Replace(_) => "loading the world…",
        Command::Resize(..) => "resizing…",
        Command::Rule(_) => "changing the rule…",
        Command::Topology(_) => "changing the topology…",
        Command::Switch(_) => "switching strategy…",
        Command::GpuSettings(_) => "applying the GPU settings…",
        Command::Undo => "undoing…",
        Command::Redo => "redoing…",
        Command::Reset => "resetting…",
        Command::ToPlane => "moving onto the plane…",
        Command::OpenPlane(_) => "loading the world…",
        _ => return None,
    })
}

/// What about the work behind a generation `command` changes, if anything: the runner's
/// batch pacer starts again after it.
fn changes_the_work(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Switch(_) => "another strategy",
        Command::GpuSettings(_) => "other GPU settings",
        Command::Replace(_) | Command::OpenPlane(_) | Command::Reset => "another world",
        Command::Undo | Command::Redo => "another world",
        Command::Resize(..) => "another size",
        Command::Rule(_) => "another rule",
        Command::Topology(_) => "another topology",
        Command::ToPlane => "the world moved onto the plane",
        Command::Place { .. } | Command::Region(..) => "an edit of a region",
        _ => return None,
    })
}

impl Worker {
    /// Remember the world before an undoable change (once per stroke for edits).
    fn record(&mut self, stroke: Option<u64>) -> Result<(), SimError> {
        if stroke.is_some() && stroke == self.stroke {
            return Ok(());
        }
        self.stroke = stroke;
        let before = self.sim.world()?.clone();
        self.history.record(before);
        Ok(())
    }

    pub(super) fn handle(&mut self, command: Command) {
        let small = matches!(
            command,
            Command::SetRunning(_)
                | Command::Step(_)
                | Command::SetSpeed(_)
                | Command::Edit { .. }
                | Command::Paint { .. }
                | Command::PlaneStep { .. }
                | Command::PlaneMemory(_)
                | Command::GoTo(_)
                | Command::SavePlane { .. }
                | Command::Read(_)
                | Command::Bounds(_)
                | Command::Copy { cut: false, .. }
        );
        let new_start = matches!(
            command,
            Command::Edit { .. }
                | Command::Paint { .. }
                | Command::OpenPlane(_)
                | Command::Place { .. }
                | Command::Region(..)
                | Command::Copy { cut: true, .. }
                | Command::Replace(_)
                | Command::Resize(..)
                | Command::Rule(_)
                | Command::Topology(_)
                | Command::Undo
                | Command::Redo
        );
        self.start_pending |= new_start;
        // Another stepper, world, size or rule: a generation costs something else now, so
        // the batch size is learnt again from one generation (a size learnt on a fast
        // stepper, kept for a slow one, held the thread for minutes: issue #54's freeze).
        if let Some(why) = changes_the_work(&command) {
            self.pacer.restart(why);
        }
        // A new world, size, rule or timeline: the statistics' history starts again.
        self.epoch += u64::from(matches!(
            command,
            Command::Replace(_)
                | Command::OpenPlane(_)
                | Command::ToPlane
                | Command::Resize(..)
                | Command::Rule(_)
                | Command::Topology(_)
                | Command::Reset
                | Command::Undo
                | Command::Redo
        ));
        if let Err(e) = self.try_handle(command) {
            self.fail(e);
        }
        if let Some(moved) = self.sim.take_moved_for_rule() {
            self.note_warning(moved);
        }
        self.recovery.stale |= !small;
        self.recovery.touched = true;
        self.changed = true;
        self.dirty = true;
        self.stats_dirty = true;
    }

    fn try_handle(&mut self, command: Command) -> Result<(), SimError> {
        let Some(command) = self.handle_on_plane(command)? else {
            return Ok(());
        };
        let sim = &mut self.sim;
        match command {
            Command::SetRunning(on) => {
                self.running = on;
                self.gps_window = (Instant::now(), 0, 0.0);
                if !on {
                    // Paused: no generations per second, not the last running figure.
                    self.wall_gps = 0.0;
                }
            }
            Command::Step(n) => {
                self.pending_steps = u64::try_from(n)
                    .ok()
                    .and_then(|n| self.pending_steps.checked_add(n))
                    .ok_or_else(|| {
                        SimError::Refused(format!(
                            "a grid counts generations up to 2^64 - 1; a step of {n} needs the unbounded plane"
                        ))
                    })?;
            }
            Command::SetSpeed(speed) => self.speed = speed,
            Command::Edit { edits, stroke } => {
                self.record(Some(stroke))?;
                self.sim.edit(&edits)?;
            }
            Command::Paint {
                cells,
                alive,
                state,
                stroke,
            } if alive && state >= 2 => {
                // States 2 and up are set in the host world, which the running stepper
                // reloads in place.
                self.record(Some(stroke))?;
                let cells: Vec<(u32, u32)> = cells
                    .iter()
                    .filter_map(|&(x, y)| Some((u32::try_from(x).ok()?, u32::try_from(y).ok()?)))
                    .collect();
                self.sim.set_states(&cells, state)?;
            }
            Command::Paint {
                cells,
                alive,
                stroke,
                ..
            } => {
                let (w, h) = self.sim.size();
                let edits: Vec<CellEdit> = cells
                    .into_iter()
                    .filter(|&(x, y)| x >= 0 && y >= 0 && x < i64::from(w) && y < i64::from(h))
                    .map(|(x, y)| CellEdit {
                        x: x as u32,
                        y: y as u32,
                        alive,
                    })
                    .collect();
                if !edits.is_empty() {
                    self.record(Some(stroke))?;
                    self.sim.edit(&edits)?;
                }
            }
            Command::ToPlane => self.enter_plane()?,
            Command::OpenPlane(mut universe) => {
                if let Some(limit) = self.plane_limit {
                    universe.set_memory_limit(limit);
                }
                let mut plane = super::super::plane::Plane::new(*universe);
                plane.set_interrupt(self.interrupt.clone());
                self.plane = Some(plane);
            }
            Command::PlaneMemory(_) => {}
            Command::PlaneStep { .. } => {}
            Command::GoTo(target) => {
                let ahead = target.saturating_sub(u128::from(self.sim.generation()));
                self.pending_steps = u64::try_from(ahead).map_err(|_| {
                    SimError::Refused(format!(
                        "a grid counts generations up to 2^64 - 1; generation {target} needs the unbounded plane"
                    ))
                })?;
            }
            Command::SavePlane { reply, .. } => {
                let _ = reply.send(Err("the world is on a grid, not the plane".to_string()));
            }
            Command::Place { pattern, x, y } => {
                self.record(None)?;
                let (w, h) = self.sim.size();
                let (edits, _) = pattern.edits_at(x, y, w, h);
                self.sim.edit(&edits)?;
            }
            Command::Region(selection, op) => {
                let (w, h) = self.sim.size();
                if let Some(region) = selection.in_grid(w, h) {
                    self.record(None)?;
                    self.sim.modify(|w| Ok(region::apply(w, region, op)?))?;
                }
            }
            Command::Copy {
                selection,
                cut,
                reply,
            } => {
                let (w, h) = self.sim.size();
                let Some(region) = selection.in_grid(w, h) else {
                    let _ = reply.send(Err("the selection lies outside the grid".to_string()));
                    return Ok(());
                };
                let _ = reply.send(Ok(region::copy(self.sim.world()?, region)));
                if cut {
                    self.record(None)?;
                    let op = RegionOp::Clear;
                    self.sim.modify(|w| Ok(region::apply(w, region, op)?))?;
                }
            }
            Command::Replace(world) => {
                self.record(None)?;
                self.sim.replace_world(world)?;
            }
            Command::Read(reply) => {
                let _ = reply.send(sim.world()?.clone());
            }
            Command::Bounds(reply) => {
                let bounds = region::live_bounds(sim.world()?);
                let _ = reply.send(bounds.map(region::Selection::of_region));
            }
            Command::Switch(strategy) => sim.switch(strategy)?,
            Command::GpuSettings(settings) => sim.set_gpu_settings(settings)?,
            Command::Resize(w, h) => {
                self.record(None)?;
                self.sim.resize(w, h)?;
            }
            Command::Rule(rule) => self.sim.set_rule(rule)?,
            Command::Topology(topology) => self.sim.set_topology(topology)?,
            Command::Reset => {
                self.running = false;
                self.wall_gps = 0.0;
                if let Some(start) = self.start.clone()
                    && start.generation != self.sim.generation()
                {
                    self.record(None)?;
                    self.sim.replace_world(start)?;
                }
            }
            Command::Undo | Command::Redo => {
                let current = self.sim.world()?.clone();
                let target = match command {
                    Command::Undo => self.history.undo(current),
                    _ => self.history.redo(current),
                };
                if let Some(world) = target {
                    self.stroke = None;
                    self.sim.replace_world(world)?;
                }
            }
        }
        Ok(())
    }
}
