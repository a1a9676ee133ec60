//! The simulation thread's commands: edits, world changes, undo and redo, Reset.

use std::time::Instant;

use super::Worker;
use crate::runner::{Command, RegionOp, region};
use crate::sim::SimError;

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
                | Command::Read(_)
                | Command::Bounds(_)
                | Command::Copy { cut: false, .. }
        );
        let new_start = matches!(
            command,
            Command::Edit { .. }
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
        if let Err(e) = self.try_handle(command) {
            self.fail(e);
        }
        self.recovery.stale |= !small;
        self.recovery.touched = true;
        self.changed = true;
        self.dirty = true;
        self.stats_dirty = true;
    }

    fn try_handle(&mut self, command: Command) -> Result<(), SimError> {
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
            Command::Step(n) => self.pending_steps += n,
            Command::SetSpeed(speed) => self.speed = speed,
            Command::Edit { edits, stroke } => {
                self.record(Some(stroke))?;
                self.sim.edit(&edits)?;
            }
            Command::Place { pattern, x, y } => {
                self.record(None)?;
                let (w, h) = self.sim.size();
                let (edits, _) = pattern.edits_at(x, y, w, h);
                self.sim.edit(&edits)?;
            }
            Command::Region(region, op) => {
                self.record(None)?;
                self.sim.modify(|w| Ok(region::apply(w, region, op)?))?;
            }
            Command::Copy { region, cut, reply } => {
                let _ = reply.send(region::copy(self.sim.world()?, region));
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
                let _ = reply.send(region::live_bounds(sim.world()?));
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
