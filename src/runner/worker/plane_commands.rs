//! The simulation thread on the unbounded plane: commands, steps (2^k at a time, hyperspeed,
//! "go to generation"), statistics and drawing from the quadtree. Entering the plane and
//! leaving it for a grid are here too, so the grid's own handling stays as it was.

use std::sync::Arc;
use std::time::Instant;

use super::Worker;
use crate::hashlife::draw::DENSITY_GENERATION;
use crate::hashlife::{self, load};
use crate::runner::plane::{MAX_EXPONENT, Plane};
use crate::runner::{Command, ViewImage, ViewPixels, region};
use crate::sim::SimError;
use crate::stats::Stats;
use crate::step::Strategy;
use crate::step::view::ViewRequest;
use crate::world::Topology;

/// A plane step faster than this lets hyperspeed double the step …
const HYPER_FAST: std::time::Duration = std::time::Duration::from_millis(8);

/// … once this many steps ran at the current one (Golly's hyperspeed also waits a few
/// steps: a pattern's memo needs a few steps at a new size to pay off).
const HYPER_STEPS: u32 = 8;

impl Worker {
    /// Move the grid's world onto the plane.
    pub(super) fn enter_plane(&mut self) -> Result<(), SimError> {
        if self.plane.is_some() {
            return Ok(());
        }
        if self.sim.rule().is_ltl() {
            // Larger than Life's unbounded universe is Golly's: a grid that grows.
            return self.sim.set_growing();
        }
        let world = self.sim.world()?;
        let limit = self
            .plane_limit
            .unwrap_or_else(hashlife::default_memory_limit);
        let mut plane =
            Plane::from_world(world, limit).map_err(|e| SimError::Refused(e.to_string()))?;
        plane.set_interrupt(self.interrupt.clone());
        self.plane = Some(plane);
        self.pending_steps = 0;
        self.start_pending = true;
        Ok(())
    }

    /// Leave the plane for the grid (its size and `topology`, stepped by `strategy`): the
    /// pattern goes in if it fits, else the plane stays and the error names the size needed.
    fn leave_plane(&mut self, strategy: Strategy, topology: Topology) -> Result<(), SimError> {
        let Some(plane) = self.plane.as_mut() else {
            return Ok(());
        };
        let (w, h) = self.sim.size();
        let world = plane.to_world(w, h, topology).map_err(SimError::Refused)?;
        self.sim.replace_world(world)?;
        self.sim.switch(strategy)?;
        if let Some(mut plane) = self.plane.take() {
            plane.release_all();
        }
        self.start_pending = true;
        Ok(())
    }

    /// Handle `command` on the plane; `Ok(Some(command))` hands it back to the grid's
    /// handling (commands that concern the grid kept for leaving: GPU settings, resize).
    pub(super) fn handle_on_plane(
        &mut self,
        command: Command,
    ) -> Result<Option<Command>, SimError> {
        let refused = |e: String| SimError::Refused(e);
        if matches!(
            command,
            Command::SetRunning(true) | Command::Step(_) | Command::GoTo(_) | Command::ToPlane
        ) {
            // New work: a Stop raised before it does not apply to it.
            self.interrupt
                .store(false, std::sync::atomic::Ordering::Relaxed);
        }
        if let Command::PlaneMemory(limit) = command {
            self.plane_limit = limit;
            if let Some(plane) = self.plane.as_mut() {
                let bytes = limit.unwrap_or_else(hashlife::default_memory_limit);
                plane.universe.set_memory_limit(bytes);
            }
            return Ok(None);
        }
        let Some(plane) = self.plane.as_mut() else {
            return Ok(Some(command));
        };
        match command {
            Command::SetRunning(_) | Command::SetSpeed(_) | Command::GpuSettings(_) => {
                return Ok(Some(command));
            }
            Command::Resize(..) | Command::ToPlane | Command::PlaneMemory(_) => {
                return Ok(Some(command));
            }
            Command::Step(n) => plane.pending = plane.pending.saturating_add(n),
            Command::GoTo(target) => {
                plane.pending = target.saturating_sub(plane.universe.generation());
            }
            Command::PlaneStep { exponent, hyper } => {
                plane.exponent = exponent.min(MAX_EXPONENT);
                plane.hyper = hyper;
                plane.steps_at_exponent = 0;
            }
            Command::Paint {
                cells,
                alive,
                state,
                stroke,
            } => plane
                .paint(&cells, if alive { state.max(1) } else { 0 }, stroke)
                .map_err(|e| refused(e.to_string()))?,
            Command::Edit { .. } => {}
            Command::Place { pattern, x, y } => plane
                .place(&pattern, x, y)
                .map_err(|e| refused(e.to_string()))?,
            Command::Region(selection, op) => plane.apply(selection, op).map_err(refused)?,
            Command::Copy {
                selection,
                cut,
                reply,
            } => {
                let copied = plane.copy(selection);
                let ok = copied.is_ok();
                let _ = reply.send(copied);
                if cut && ok {
                    plane
                        .apply(selection, region::RegionOp::Clear)
                        .map_err(refused)?;
                }
            }
            Command::Bounds(reply) => {
                let to_i64 = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
                let _ = reply.send(plane.info().bounds.map(|b| region::Selection {
                    x0: to_i64(b.x0),
                    y0: to_i64(b.y0),
                    x1: to_i64(b.x1),
                    y1: to_i64(b.y1),
                }));
            }
            Command::Read(reply) => {
                let (w, h) = self.sim.size();
                let world = plane.to_world(w, h, self.sim.topology()).map_err(refused)?;
                let _ = reply.send(world);
            }
            Command::SavePlane {
                path,
                comments,
                reply,
            } => {
                let saved = load::save(&plane.universe, &path, &comments)
                    .map(|format| format!("saved {} ({})", path.display(), format.name()))
                    .map_err(|e| format!("could not save {}: {e}", path.display()));
                let _ = reply.send(saved);
            }
            Command::OpenPlane(mut universe) => {
                plane.release_all();
                if let Some(limit) = self.plane_limit {
                    universe.set_memory_limit(limit);
                }
                *plane = Plane::new(*universe);
                plane.set_interrupt(self.interrupt.clone());
                self.start_pending = true;
            }
            Command::Rule(rule) => plane.set_rule(rule).map_err(|e| refused(e.to_string()))?,
            Command::Reset => {
                self.running = false;
                self.wall_gps = 0.0;
                plane.pending = 0;
                plane.reset();
            }
            Command::Undo => plane.undo(true),
            Command::Redo => plane.undo(false),
            Command::Switch(strategy) => {
                if strategy != Strategy::Hashlife {
                    let topology = self.sim.topology();
                    self.leave_plane(strategy, topology)?;
                }
            }
            Command::Topology(topology) => {
                let strategy = self.sim.strategy();
                self.leave_plane(strategy, topology)?;
            }
            Command::Replace(world) => {
                if let Some(mut plane) = self.plane.take() {
                    plane.release_all();
                }
                return Ok(Some(Command::Replace(world)));
            }
        }
        Ok(None)
    }

    /// One step on the plane: what a "go to" or single steps still need (its lowest set
    /// bit, so every piece is one 2^j step and commands are answered between pieces), or
    /// 2^exponent while running. Stops running when the pattern dies.
    pub(super) fn advance_plane(&mut self) {
        let running = self.running;
        let Some(plane) = self.plane.as_mut() else {
            return;
        };
        let exponent = if plane.pending > 0 {
            plane.pending.trailing_zeros()
        } else if running {
            plane.exponent
        } else {
            return;
        };
        if plane
            .universe
            .generation()
            .checked_add(1u128 << exponent)
            .is_none()
        {
            plane.pending = 0;
            self.running = false;
            self.wall_gps = 0.0;
            self.note_error(format!(
                "a step of 2^{exponent} would pass generation 2^128 - 1, the largest golab counts"
            ));
            return;
        }
        if self.start_pending {
            plane.mark_start();
            self.start_pending = false;
        }
        let start = Instant::now();
        self.liveness
            .batch_started(u64::try_from(1u128 << exponent).unwrap_or(u64::MAX));
        let stepped = plane.universe.step_pow2(exponent);
        self.liveness.batch_ended();
        match stepped {
            Ok(()) => {}
            Err(hashlife::HashError::Interrupted { generation }) => {
                plane.pending = 0;
                self.running = false;
                self.wall_gps = 0.0;
                self.changed = true;
                self.note_error(format!(
                    "stopped: the step of 2^{exponent} was abandoned, the pattern stays at generation {generation}"
                ));
                return;
            }
            Err(e) => {
                self.fail(SimError::Refused(e.to_string()));
                return;
            }
        }
        let took = start.elapsed();
        if plane.pending > 0 {
            plane.pending -= 1u128 << exponent;
        } else {
            plane.steps_at_exponent += 1;
            if plane.hyper
                && took < HYPER_FAST
                && plane.steps_at_exponent >= HYPER_STEPS
                && plane.exponent < MAX_EXPONENT
            {
                plane.exponent += 1;
                plane.steps_at_exponent = 0;
            }
        }
        plane.refresh();
        let died = plane.info().occupied == 0;
        let gens = 1u128 << exponent;
        self.dirty = true;
        self.stats_dirty = true;
        self.changed = true;
        let (since, counted, _) = &mut self.gps_window;
        *counted = counted.saturating_add(u64::try_from(gens).unwrap_or(u64::MAX));
        let elapsed = since.elapsed();
        if elapsed >= super::GPS_WINDOW {
            self.wall_gps = *counted as f64 / elapsed.as_secs_f64();
            self.gpu_gps = None;
            self.gps_window = (Instant::now(), 0, 0.0);
        }
        if died && (self.running || plane.pending > 0) {
            let generation = plane.universe.generation();
            plane.pending = 0;
            self.running = false;
            self.wall_gps = 0.0;
            self.note_error(format!("the pattern died out by generation {generation}"));
        }
    }

    /// Statistics of the plane: the population (saturating at 2^64 − 1 here; the exact
    /// figure is in the snapshot's plane info), no ages.
    pub(super) fn plane_stats(&self) -> Option<Stats> {
        let plane = self.plane.as_ref()?;
        let info = plane.info();
        let generation = u64::try_from(info.generation).unwrap_or(u64::MAX);
        let mut stats = Stats::empty(generation, crate::runner::STAT_BUCKETS);
        stats.population = u64::try_from(info.population).unwrap_or(u64::MAX);
        stats.histogram[0] = stats.population;
        stats.dying = u64::try_from(info.occupied - info.population).unwrap_or(u64::MAX);
        Some(stats)
    }

    /// Draw `request` from the plane's quadtree (host), onto the window's device when
    /// there is one.
    pub(super) fn draw_plane(&mut self, request: &ViewRequest) -> Option<ViewImage> {
        let plane = self.plane.as_ref()?;
        let mut host = vec![0; request.pixels()];
        plane.universe.draw(request, &mut host);
        let pixels = match self.draw_on.clone() {
            Some(ctx) => {
                let buffer = self.view_buffer_for(&ctx, request);
                ctx.queue
                    .write_buffer(&buffer, 0, bytemuck::cast_slice(&host));
                ctx.submit([]);
                ViewPixels::Device(buffer)
            }
            None => ViewPixels::Host(Arc::new(host)),
        };
        Some(ViewImage {
            request: *request,
            generation: DENSITY_GENERATION,
            states: 2,
            colours: None,
            pixels,
        })
    }
}
