//! The simulation thread's loop: commands, batches, statistics, drawing, publishing.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::history::History;
mod commands;
mod drawing;
mod plane_commands;
mod recovery;

use recovery::Recovery;

use super::{Command, STAT_BUCKETS, Snapshot, Speed, ViewImage};
use crate::gpu::GpuContext;
use crate::sim::{SimError, Simulation};
use crate::stats::Stats;
use crate::step::StepError;
use crate::step::pacing::{Growth, Pacer};
use crate::step::view::ViewRequest;

const FRAME: Duration = Duration::from_micros(16_667);
const MAX_BATCH: Duration = Duration::from_millis(25);
/// Adaptive decisions the window's statistics keep.
const DECISIONS_KEPT: usize = 32;
const STATS_EVERY: Duration = Duration::from_millis(100);
const GPS_WINDOW: Duration = Duration::from_millis(500);
/// Worlds of at least this many cells announce slow commands (see `handle_announced`).
const BUSY_CELLS: u64 = 1 << 20;

/// How long statistics and drawing took last time, to keep them a minor share of the
/// thread's time while running.
#[derive(Default)]
struct Costs {
    stats: Duration,
    draw: Duration,
    drawn_at: Option<Instant>,
}

pub(super) struct Worker {
    sim: Simulation,
    draw_on: Option<Arc<GpuContext>>,
    wanted_view: Arc<Mutex<Option<ViewRequest>>>,
    repaint: Box<dyn Fn() + Send>,
    history: History,
    stroke: Option<u64>,
    running: bool,
    speed: Speed,
    pending_steps: u64,
    /// Generations per batch, kept to about [`MAX_BATCH`] of the thread's time.
    pacer: Pacer,
    /// The kernel's latest report's decisions (its controller's and its submissions'),
    /// replaced by each report.
    kernel_decisions: Vec<String>,
    stats: Stats,
    stats_at: Option<Instant>,
    view: Option<ViewImage>,
    view_buffer: Option<Arc<wgpu::Buffer>>,
    drawn: Option<(ViewRequest, u64)>,
    dirty: bool,
    stats_dirty: bool,
    costs: Costs,
    gps_window: (Instant, u64, f64),
    wall_gps: f64,
    gpu_gps: Option<f64>,
    kernel: Option<String>,
    /// Generations a per-frame speed owes the next frame (batches kept to whole blocks).
    frame_carry: u64,
    error: Option<(u64, String)>,
    /// The last request done differently than asked, counted.
    warning: Option<(u64, String)>,
    recovery: Recovery,
    /// The starting pattern Reset returns to: the world when stepping began after the last
    /// change that was not a step.
    start: Option<crate::world::World>,
    /// Whether the next step begins from a new starting pattern (something other than a
    /// step changed the world since `start` was taken).
    start_pending: bool,
    /// What a slow command in progress is doing, for the window's progress line.
    busy: Option<String>,
    /// Whether anything the UI shows changed since the last publish: only then is a new
    /// snapshot published and a repaint asked for, so a paused, idle app costs ~0 % CPU.
    changed: bool,
    /// The unbounded plane, while the world is on it (then `sim` keeps the grid the
    /// pattern goes back to; see `plane_commands`).
    plane: Option<super::plane::Plane>,
    /// Raised by [`super::Runner::interrupt`]: abandon the plane's step in progress.
    interrupt: Arc<std::sync::atomic::AtomicBool>,
    /// The plane's memory limit (`None`: the default, a quarter of what is available).
    plane_limit: Option<usize>,
    /// Changes that start a new statistics history ([`Snapshot::epoch`]).
    epoch: u64,
    /// What the window reads without waiting: batches in progress, commands handled.
    liveness: Arc<super::liveness::Liveness>,
    /// Snapshots published so far ([`Snapshot::serial`]).
    serial: u64,
}

impl Worker {
    pub(super) fn new(
        sim: Simulation,
        draw_on: Option<Arc<GpuContext>>,
        wanted_view: Arc<Mutex<Option<ViewRequest>>>,
        repaint: Box<dyn Fn() + Send>,
        last_copy: Arc<Mutex<Option<crate::world::World>>>,
        interrupt: Arc<std::sync::atomic::AtomicBool>,
        liveness: Arc<super::liveness::Liveness>,
    ) -> Worker {
        let generation = sim.generation();
        Worker {
            sim,
            draw_on,
            wanted_view,
            repaint,
            history: History::default(),
            stroke: None,
            running: false,
            speed: Speed::PerFrame(1),
            pending_steps: 0,
            pacer: Pacer::new("runner batches", MAX_BATCH, Growth::Double, 1 << 20),
            kernel_decisions: Vec::new(),
            stats: Stats::empty(generation, STAT_BUCKETS),
            stats_at: None,
            view: None,
            view_buffer: None,
            drawn: None,
            dirty: true,
            stats_dirty: true,
            costs: Costs::default(),
            gps_window: (Instant::now(), 0, 0.0),
            wall_gps: 0.0,
            gpu_gps: None,
            kernel: None,
            frame_carry: 0,
            error: None,
            warning: None,
            recovery: Recovery {
                world: last_copy,
                taken_at: Instant::now(),
                cost: Duration::ZERO,
                stale: true,
                touched: true,
                gpu_lost: None,
            },
            start: None,
            start_pending: true,
            busy: None,
            changed: true,
            plane: None,
            interrupt,
            plane_limit: None,
            epoch: 0,
            liveness,
            serial: 0,
        }
    }

    /// Publish `message` as a warning the UI shows: done, but differently than asked.
    pub(super) fn note_warning(&mut self, message: String) {
        let count = self.warning.as_ref().map_or(0, |e| e.0) + 1;
        self.warning = Some((count, message));
        self.changed = true;
    }

    /// Publish `message` as an error the UI shows (a note from building the simulation).
    pub(super) fn note_error(&mut self, message: String) {
        let count = self.error.as_ref().map_or(0, |e| e.0) + 1;
        self.error = Some((count, message));
        self.changed = true;
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        let mut snapshot = self.grid_snapshot();
        if let Some(plane) = &self.plane {
            let info = plane.info();
            snapshot.generation = u64::try_from(info.generation).unwrap_or(u64::MAX);
            snapshot.strategy = crate::step::Strategy::Hashlife;
            (snapshot.can_undo, snapshot.can_redo) = plane.can_undo();
            snapshot.can_reset = plane.can_reset();
            snapshot.plane = Some(info);
        }
        snapshot
    }

    fn grid_snapshot(&self) -> Snapshot {
        Snapshot {
            generation: self.sim.generation(),
            strategy: self.sim.strategy(),
            gpu_settings: self.sim.gpu_settings(),
            size: self.sim.size(),
            rule: self.sim.rule(),
            topology: self.sim.topology(),
            grows: self.sim.grows(),
            origin: self.sim.plane_origin(),
            running: self.running,
            speed: self.speed,
            stats: self.stats.clone(),
            wall_gps: self.wall_gps,
            gpu_gps: self.gpu_gps,
            kernel: self.kernel.clone(),
            tuning: self.sim.tuning(),
            decisions: self.decisions(),
            view: self.view.clone(),
            can_undo: self.history.can_undo(),
            can_redo: self.history.can_redo(),
            busy: self.busy.clone(),
            can_reset: self
                .start
                .as_ref()
                .is_some_and(|w| w.generation != self.sim.generation()),
            error: self.error.clone(),
            warning: self.warning.clone(),
            gpu_lost: self.recovery.gpu_lost.clone(),
            plane: None,
            epoch: self.epoch,
            serial: self.serial,
        }
    }

    pub(super) fn run(mut self, commands: Receiver<Command>, publish: Arc<Mutex<Snapshot>>) {
        loop {
            let busy = self.running || self.pending_steps > 0;
            let wait = if busy { Duration::ZERO } else { FRAME / 2 };
            match commands.recv_timeout(wait) {
                Ok(command) => self.handle_announced(command, &publish),
                Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {}
            }
            while let Ok(command) = commands.try_recv() {
                self.handle_announced(command, &publish);
            }
            if self.busy.take().is_some() {
                self.changed = true;
            }
            let tick = Instant::now();
            self.advance();
            self.keep_recovery_copy();
            self.refresh_stats();
            self.draw();
            if self.changed {
                self.publish(&publish);
            }
            if let (true, Speed::PerFrame(_)) = (self.running, self.speed) {
                std::thread::sleep(FRAME.saturating_sub(tick.elapsed()));
            }
        }
    }

    fn publish(&mut self, shared: &Mutex<Snapshot>) {
        self.changed = false;
        self.serial += 1;
        // Built before the lock is taken: the window reads the snapshot every frame and
        // must never wait while this thread assembles one.
        let snapshot = self.snapshot();
        if let Ok(mut shared) = shared.lock() {
            *shared = snapshot;
        }
        (self.repaint)();
    }

    /// Handle `command`; one that may take a while on a large world (load, resize, rule,
    /// strategy switch…) is first announced in the snapshot's `busy`, so the window can
    /// show what the thread is doing instead of seeming frozen.
    fn handle_announced(&mut self, command: Command, shared: &Mutex<Snapshot>) {
        let (w, h) = self.sim.size();
        let large = u64::from(w) * u64::from(h) >= BUSY_CELLS;
        let replace_large = matches!(&command, Command::Replace(world)
            if u64::from(world.width()) * u64::from(world.height()) >= BUSY_CELLS);
        if let Some(what) = commands::busy_label(&command)
            && (large || replace_large || matches!(command, Command::Resize(..)))
        {
            self.busy = Some(what.to_string());
            self.publish(shared);
        }
        self.handle(command);
        self.liveness.handled();
    }

    fn fail(&mut self, error: SimError) {
        let message = match &error {
            SimError::Step(StepError::DeviceLost(reason)) => self.recover(reason),
            _ => error.to_string(),
        };
        let count = self.error.as_ref().map_or(0, |e| e.0) + 1;
        self.error = Some((count, message));
        self.changed = true;
        self.wall_gps = 0.0;
        self.running = false;
        self.pending_steps = 0;
    }

    /// Step one batch: pending single steps, the speed's generations per frame, or at full
    /// speed as many as fit in [`MAX_BATCH`]. Every batch is capped by what fits in
    /// [`MAX_BATCH`] (learnt from the last batches: it shrinks when a batch took more than
    /// twice that, and grows while its own work is under half), so a slow strategy asked for
    /// many generations per frame still answers commands (pause, edits, switches) between
    /// batches.
    fn advance(&mut self) {
        if self.plane.is_some() {
            return self.advance_plane();
        }
        // Running batches keep to whole blocks of the stepper's multiple (gpu-bitpacked's
        // replay compares a block with the one before: a short block at the end of every
        // batch would break it): at full speed a batch is rounded down to one; at n
        // generations a frame the rest waits for the next frame, so the speed holds on
        // average (below one block a frame, each frame steps exactly n).
        let multiple = self.sim.batch_multiple().max(1);
        let want = if self.pending_steps > 0 {
            self.pending_steps.min(self.pacer.gens())
        } else if !self.running {
            return;
        } else {
            match self.speed {
                Speed::PerFrame(n) => {
                    let n = u64::from(n.max(1));
                    if n < multiple {
                        n.min(self.pacer.gens())
                    } else {
                        let owed = n + self.frame_carry;
                        let want = crate::step::whole_blocks(owed.min(self.pacer.gens()), multiple);
                        self.frame_carry = (owed - want).min(n);
                        want
                    }
                }
                Speed::Max => crate::step::whole_blocks(self.pacer.gens(), multiple),
            }
        };
        self.pending_steps = self.pending_steps.saturating_sub(want);
        if self.start_pending {
            match self.sim.world() {
                Ok(world) => self.start = Some(world.clone()),
                Err(e) => {
                    self.fail(e);
                    return;
                }
            }
            self.start_pending = false;
        }
        let start = Instant::now();
        self.liveness.batch_started(want);
        let stepped = self.sim.step(want);
        self.liveness.batch_ended();
        if let Err(e) = stepped {
            self.fail(e);
            return;
        }
        let took = start.elapsed();
        let gpu = self.sim.take_gpu_seconds();
        // A batch that kept the thread too long shrinks (commands wait for it); one whose
        // own work (kernel time, where the device reports it) is short grows
        // (crate::step::pacing says why each).
        self.pacer.observe(want, took, gpu, u64::MAX);
        self.dirty = true;
        self.stats_dirty = true;
        self.changed = true;
        self.recovery.touched = true;
        let (since, gens, gpu_seconds) = &mut self.gps_window;
        *gens += want;
        *gpu_seconds += gpu.unwrap_or(0.0);
        let elapsed = since.elapsed();
        if elapsed >= GPS_WINDOW {
            self.wall_gps = *gens as f64 / elapsed.as_secs_f64();
            self.gpu_gps = gpu.map(|_| *gens as f64 / gpu_seconds.max(1e-9));
            self.gps_window = (Instant::now(), 0, 0.0);
            match self.sim.take_report() {
                Ok(report) => {
                    self.kernel = report.as_ref().and_then(|r| r.described());
                    self.kernel_decisions = report.map(|r| r.decisions).unwrap_or_default();
                }
                Err(e) => self.fail(e),
            }
        }
    }

    /// The decisions the window shows: the kernel's latest report's, then this thread's
    /// batch pacing, the latest [`DECISIONS_KEPT`].
    fn decisions(&self) -> Vec<String> {
        let all: Vec<String> = self
            .kernel_decisions
            .iter()
            .cloned()
            .chain(self.pacer.decisions())
            .collect();
        all[all.len().saturating_sub(DECISIONS_KEPT)..].to_vec()
    }

    /// Statistics at most every [`STATS_EVERY`] while running, and never taking more than
    /// a fifth of the thread's time (a host scan of 16384² takes a while).
    fn refresh_stats(&mut self) {
        let every = STATS_EVERY.max(self.costs.stats * 4);
        let due = self.stats_at.is_none_or(|t| t.elapsed() >= every);
        if !(self.stats_dirty && (due || !self.running)) {
            return;
        }
        self.stats_dirty = false;
        let start = Instant::now();
        if let Some(stats) = self.plane_stats() {
            self.stats = stats;
            self.changed = true;
            return;
        }
        match self.sim.stats(STAT_BUCKETS) {
            Ok(stats) => self.stats = stats,
            Err(e) => self.fail(e),
        }
        self.costs.stats = start.elapsed();
        self.stats_at = Some(Instant::now());
        self.changed = true;
    }
}
