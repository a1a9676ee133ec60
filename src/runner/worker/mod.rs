//! The simulation thread's loop: commands, batches, statistics, drawing, publishing — for
//! whatever universe holds the world, through the one interface.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::history::History;
mod commands;
mod drawing;
mod recovery;
mod surface;

use recovery::Recovery;

use super::liveness::Liveness;
use super::{Command, STAT_BUCKETS, Snapshot, Speed, ViewImage};
use crate::gpu::GpuContext;
use crate::stats::Stats;
use crate::step::pacing::{Growth, Pacer};
use crate::step::view::ViewRequest;
use crate::step::{StepError, StepperFactory};
use crate::universe::{Kept, MemoryReport, Rect, Universe, UniverseError};

const FRAME: Duration = Duration::from_micros(16_667);
const MAX_BATCH: Duration = Duration::from_millis(25);
/// Adaptive decisions the window's statistics keep.
const DECISIONS_KEPT: usize = 32;
const STATS_EVERY: Duration = Duration::from_millis(100);
const GPS_WINDOW: Duration = Duration::from_millis(500);
/// Worlds of at least this many cells announce slow commands (see `handle_announced`).
const BUSY_CELLS: u128 = 1 << 20;
/// A hashed running step faster than this lets hyperspeed double the step …
const HYPER_FAST: Duration = Duration::from_millis(8);
/// … once this many steps ran at the current one (a pattern's memo needs a few steps at a
/// new size to pay off).
const HYPER_STEPS: u32 = 8;

/// How long statistics and drawing took last time, to keep them a minor share of the
/// thread's time while running.
#[derive(Default)]
struct Costs {
    stats: Duration,
    draw: Duration,
    drawn_at: Option<Instant>,
}

/// What the thread shares with the window's side.
pub(super) struct Shared {
    /// The device the window draws with (view images stay on it).
    pub(super) draw_on: Option<Arc<GpuContext>>,
    /// The view the window wants drawn.
    pub(super) wanted_view: Arc<Mutex<Option<ViewRequest>>>,
    /// Asks the window for a frame.
    pub(super) repaint: Box<dyn Fn() + Send>,
    /// The recovery copy of a grid world.
    pub(super) last_copy: Arc<Mutex<Option<crate::world::World>>>,
    /// Raised by [`super::Runner::interrupt`]: abandon the step in progress.
    pub(super) interrupt: Arc<std::sync::atomic::AtomicBool>,
    /// What the window reads without waiting: batches in progress, commands handled.
    pub(super) liveness: Arc<Liveness>,
}

/// The hashed universe's running step under hyperspeed.
#[derive(Default)]
struct Hyper {
    on: bool,
    /// The step reached (generations a frame), when it has grown past the speed's.
    step: Option<u128>,
    steps_at_step: u32,
}

pub(super) struct Worker {
    universe: Box<dyn Universe>,
    /// Makes the grids a conversion needs (the shared device and GPU settings).
    factory: StepperFactory,
    shared: Shared,
    history: History,
    stroke: Option<u64>,
    running: bool,
    speed: Speed,
    hyper: Hyper,
    /// Generations a Step or Go to still has to do.
    pending: u128,
    /// The world before the Step or Go to in progress began: a failure part way goes back
    /// to it, so a step is all or nothing.
    pending_start: Option<Kept>,
    /// When the last generation of a [`Speed::Every`] ran.
    last_tick: Instant,
    /// Generations per batch, kept to about [`MAX_BATCH`] of the thread's time.
    pacer: Pacer,
    /// The kernel's latest report's decisions (its controller's and its submissions'),
    /// replaced by each report.
    kernel_decisions: Vec<String>,
    stats: Stats,
    population: u128,
    occupied: u128,
    bounds: Option<Rect>,
    memory: Option<MemoryReport>,
    stats_at: Option<Instant>,
    view: Option<ViewImage>,
    view_buffer: Option<Arc<wgpu::Buffer>>,
    drawn: Option<(ViewRequest, u128)>,
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
    start: Option<Kept>,
    /// Whether the next step begins from a new starting pattern (something other than a
    /// step changed the world since `start` was taken).
    start_pending: bool,
    /// What a slow command in progress is doing, for the window's progress line.
    busy: Option<String>,
    /// Whether anything the UI shows changed since the last publish: only then is a new
    /// snapshot published and a repaint asked for, so a paused, idle app costs ~0 % CPU.
    changed: bool,
    /// The hashed universe's memory limit (`None`: the default, a quarter of what is
    /// available).
    memory_limit: Option<usize>,
    /// Threads the hashed universe steps with.
    threads: crate::hashlife::Threads,
    /// Seconds a generation took in the last batch of a Step or Go to on a grid: what the
    /// rest of it would take there (an unbounded grid moves to hashing when that is long).
    pending_seconds_per_gen: Option<f64>,
    /// Changes that start a new statistics history ([`Snapshot::epoch`]).
    epoch: u64,
    /// Snapshots published so far ([`Snapshot::serial`]).
    serial: u64,
    /// The grid strategy the user last ran (a conversion back to a grid uses it).
    last_grid_strategy: crate::step::Strategy,
    /// Which universe `start` belongs to ([`Universe::id`]).
    universe_id: u64,
}

impl Worker {
    pub(super) fn new(
        mut universe: Box<dyn Universe>,
        factory: StepperFactory,
        shared: Shared,
    ) -> Worker {
        let generation = u64::try_from(universe.generation()).unwrap_or(u64::MAX);
        universe.set_interrupt(shared.interrupt.clone());
        let last_grid_strategy = if universe.capabilities().strategies {
            universe.strategy()
        } else {
            crate::step::Strategy::Rayon
        };
        let universe_id = universe.id();
        Worker {
            universe,
            factory,
            recovery: Recovery::new(shared.last_copy.clone()),
            shared,
            history: History::default(),
            stroke: None,
            running: false,
            speed: Speed::PerFrame(1),
            hyper: Hyper::default(),
            pending: 0,
            pending_start: None,
            last_tick: Instant::now(),
            pacer: Pacer::new("runner batches", MAX_BATCH, Growth::Double, 1 << 20),
            kernel_decisions: Vec::new(),
            stats: Stats::empty(generation, STAT_BUCKETS),
            population: 0,
            occupied: 0,
            bounds: None,
            memory: None,
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
            start: None,
            start_pending: true,
            busy: None,
            changed: true,
            memory_limit: None,
            threads: crate::hashlife::Threads::EVERY_CORE,
            pending_seconds_per_gen: None,
            epoch: 0,
            serial: 0,
            last_grid_strategy,
            universe_id,
        }
    }

    /// Publish `message` as a warning the UI shows: done, but differently than asked.
    pub(super) fn note_warning(&mut self, message: String) {
        let count = self.warning.as_ref().map_or(0, |e| e.0) + 1;
        self.warning = Some((count, message));
        self.changed = true;
    }

    /// Publish `message` as an error the UI shows (a note from building the world).
    pub(super) fn note_error(&mut self, message: String) {
        let count = self.error.as_ref().map_or(0, |e| e.0) + 1;
        self.error = Some((count, message));
        self.changed = true;
    }

    pub(super) fn snapshot(&mut self) -> Snapshot {
        let capabilities = self.universe.capabilities();
        let frame = self.grid_frame();
        let (gpu_settings, tuning) = match self.universe.grid() {
            Some(sim) => (sim.gpu_settings(), sim.tuning()),
            None => (self.factory.gpu_settings, false),
        };
        let generation = self.universe.generation();
        Snapshot {
            generation,
            strategy: self.universe.strategy(),
            describe: self.universe.describe(),
            capabilities,
            frame: frame.or_else(|| capabilities.bounded.map(crate::universe::centred_frame)),
            gpu_settings,
            rule: self.universe.rule(),
            running: self.running,
            speed: self.speed,
            stats: self.stats.clone(),
            population: self.population,
            occupied: self.occupied,
            bounds: self.bounds,
            memory: self.memory,
            pending: self.pending,
            hyper_step: self.hyper.step,
            wall_gps: self.wall_gps,
            gpu_gps: self.gpu_gps,
            kernel: self.kernel.clone(),
            tuning,
            decisions: self.decisions(),
            view: self.view.clone(),
            can_undo: self.history.can_undo(),
            can_redo: self.history.can_redo(),
            busy: self.busy.clone(),
            can_reset: self
                .start
                .as_ref()
                .is_some_and(|k| k.generation() != generation),
            error: self.error.clone(),
            warning: self.warning.clone(),
            gpu_lost: self.recovery.gpu_lost.clone(),
            epoch: self.epoch,
            serial: self.serial,
        }
    }

    pub(super) fn run(mut self, commands: Receiver<Command>, publish: Arc<Mutex<Snapshot>>) {
        loop {
            let busy = self.running || self.pending > 0;
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
            if let (true, Speed::PerFrame(_) | Speed::Every(_)) = (self.running, self.speed) {
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
        (self.shared.repaint)();
    }

    /// Handle `command`; one that may take a while on a large world (load, resize, rule,
    /// strategy switch…) is first announced in the snapshot's `busy`, so the window can
    /// show what the thread is doing instead of seeming frozen.
    fn handle_announced(&mut self, command: Command, shared: &Mutex<Snapshot>) {
        let large = self.occupied >= BUSY_CELLS
            || self
                .universe
                .capabilities()
                .bounded
                .is_some_and(|b| u128::from(b.width) * u128::from(b.height) >= BUSY_CELLS);
        let replace_large = matches!(&command, Command::Replace(world)
            if u64::from(world.width()) * u64::from(world.height()) >= BUSY_CELLS as u64);
        if let Some(what) = commands::busy_label(&command)
            && (large || replace_large || matches!(command, Command::Bounded(..)))
        {
            self.busy = Some(what.to_string());
            self.publish(shared);
        }
        self.handle(command);
        self.shared.liveness.handled();
    }

    fn fail(&mut self, error: UniverseError) {
        let mut message = match &error {
            UniverseError::Sim(crate::sim::SimError::Step(StepError::DeviceLost(reason))) => {
                self.recover(reason)
            }
            _ => error.to_string(),
        };
        // A Step or Go to that fails part way is undone: the world stays where it was.
        if let Some(start) = self.pending_start.take() {
            if self.universe.restore(&start).is_ok() {
                message = format!(
                    "{message}; the world stays at generation {}",
                    start.generation()
                );
                self.dirty = true;
                self.stats_dirty = true;
            }
            self.universe.release(start);
        }
        self.note_error(message);
        self.wall_gps = 0.0;
        self.running = false;
        self.pending = 0;
    }

    /// The Step or Go to in progress is done (or stopped): its start is no longer needed.
    fn end_pending(&mut self) {
        // The pace of a finished Step or Go to says nothing of the next one's world.
        self.pending_seconds_per_gen = None;
        if let Some(start) = self.pending_start.take() {
            self.universe.release(start);
        }
    }

    /// How many generations the next batch holds, or `None` when there is nothing to do.
    fn batch_size(&mut self, hashing: bool, multiple: u64) -> Option<u128> {
        if self.pending > 0 {
            // Hashing: one 2^j step at a time (its lowest set bit), so every piece reuses
            // the memo and commands are answered between pieces.
            return Some(if hashing {
                1u128 << self.pending.trailing_zeros()
            } else {
                self.pending.min(u128::from(self.pacer.gens()))
            });
        }
        if !self.running {
            return None;
        }
        // Running batches keep to whole blocks of the stepper's multiple (gpu-bitpacked's
        // replay compares a block with the one before: a short block at the end of every
        // batch would break it): at full speed a batch is rounded down to one; at n
        // generations a frame the rest waits for the next frame, so the speed holds on
        // average (below one block a frame, each frame steps exactly n).
        Some(match self.speed {
            Speed::PerFrame(n) if hashing => self.hyper.step.unwrap_or(u128::from(n.max(1))),
            Speed::PerFrame(n) => {
                let n = n.max(1);
                if n < multiple {
                    u128::from(n.min(self.pacer.gens()))
                } else {
                    let owed = n.saturating_add(self.frame_carry);
                    let want = crate::step::whole_blocks(owed.min(self.pacer.gens()), multiple);
                    self.frame_carry = (owed - want).min(n);
                    u128::from(want)
                }
            }
            Speed::Every(delay) => {
                if self.last_tick.elapsed() < delay {
                    return None;
                }
                self.last_tick = Instant::now();
                1
            }
            Speed::Max => u128::from(crate::step::whole_blocks(self.pacer.gens(), multiple)),
        })
    }

    /// Step one batch: pending steps, the speed's generations per frame, or at full speed
    /// as many as fit in [`MAX_BATCH`]. Every batch is capped by what fits in [`MAX_BATCH`]
    /// (learnt from the last batches), so a slow strategy asked for many generations per
    /// frame still answers commands (pause, edits, switches) between batches.
    fn advance(&mut self) {
        let caps = self.universe.capabilities();
        let multiple = self
            .universe
            .grid()
            .map_or(1, |g| g.batch_multiple())
            .max(1);
        let Some(want) = self.batch_size(caps.hashing, multiple) else {
            return;
        };
        if self.hash_before(want) {
            return; // moved to hashing: the next loop steps there
        }
        if self.start_pending {
            match self.universe.keep() {
                Ok(kept) => {
                    if let Some(old) = self.start.replace(kept) {
                        self.universe.release(old);
                    }
                }
                Err(e) => return self.fail(e),
            }
            self.start_pending = false;
        }
        self.shared
            .interrupt
            .store(false, std::sync::atomic::Ordering::Relaxed);
        let start = Instant::now();
        let liveness = self.shared.liveness.clone();
        liveness.batch_started(u64::try_from(want).unwrap_or(u64::MAX));
        let stepped = self.universe.step(want, &|| false);
        liveness.batch_ended();
        let took = start.elapsed();
        let done = match stepped {
            Ok(done) => done,
            Err(UniverseError::Interrupted { generation }) => {
                self.pending = 0;
                self.end_pending();
                self.running = false;
                self.wall_gps = 0.0;
                self.dirty = true;
                self.stats_dirty = true;
                self.note_error(format!(
                    "stopped: the step of {want} generations was abandoned, the pattern stays at generation {generation}"
                ));
                return;
            }
            Err(e) => {
                if !self.hash_after(&e) {
                    self.fail(e);
                }
                return;
            }
        };
        let had_pending = self.pending > 0;
        if had_pending && done > 0 && !caps.hashing {
            self.pending_seconds_per_gen = Some(took.as_secs_f64() / done as f64);
        }
        self.pending = self.pending.saturating_sub(done);
        if had_pending && self.pending == 0 {
            self.end_pending();
        }
        let gens = u64::try_from(done).unwrap_or(u64::MAX);
        if caps.hashing {
            self.grow_hyper(took);
        } else {
            let gpu = self.universe.grid().and_then(|g| g.take_gpu_seconds());
            // A batch that kept the thread too long shrinks (commands wait for it); one
            // whose own work (kernel time, where the device reports it) is short grows
            // (crate::step::pacing says why each).
            self.pacer.observe(gens.max(1), took, gpu, u64::MAX);
            self.gps_window.2 += gpu.unwrap_or(0.0);
            self.gpu_gps = self.gpu_gps.filter(|_| gpu.is_some());
        }
        self.dirty = true;
        self.stats_dirty = true;
        self.changed = true;
        self.recovery.touched = true;
        self.count_gps(gens, caps.gpu);
        self.move_to_hashing_if_outgrown();
    }

    /// Hyperspeed: a running hashed step that stays fast for [`HYPER_STEPS`] steps doubles.
    fn grow_hyper(&mut self, took: Duration) {
        let Speed::PerFrame(n) = self.speed else {
            return;
        };
        if !self.hyper.on || !self.running || self.pending > 0 {
            return;
        }
        self.hyper.steps_at_step += 1;
        let step = self.hyper.step.unwrap_or(u128::from(n.max(1)));
        if took < HYPER_FAST && self.hyper.steps_at_step >= HYPER_STEPS && step < 1 << 100 {
            self.hyper.step = Some(step * 2);
            self.hyper.steps_at_step = 0;
        }
    }

    /// Count `gens` into the GPS window; report the kernel's figures when it closes.
    fn count_gps(&mut self, gens: u64, gpu: bool) {
        let (since, counted, gpu_seconds) = &mut self.gps_window;
        *counted = counted.saturating_add(gens);
        let elapsed = since.elapsed();
        if elapsed < GPS_WINDOW {
            return;
        }
        self.wall_gps = *counted as f64 / elapsed.as_secs_f64();
        self.gpu_gps = (gpu && *gpu_seconds > 0.0).then(|| *counted as f64 / *gpu_seconds);
        self.gps_window = (Instant::now(), 0, 0.0);
        let Some(sim) = self.universe.grid() else {
            self.kernel = None;
            return;
        };
        match sim.take_report() {
            Ok(report) => {
                self.kernel = report.as_ref().and_then(|r| r.described());
                self.kernel_decisions = report.map(|r| r.decisions).unwrap_or_default();
            }
            Err(e) => self.fail(e.into()),
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
        match self.universe.stats(STAT_BUCKETS) {
            Ok(stats) => {
                self.population = u128::from(stats.population);
                self.occupied = self.population + u128::from(stats.dying);
                self.stats = stats;
            }
            Err(e) => return self.fail(e),
        }
        let caps = self.universe.capabilities();
        if caps.hashing {
            // Exact counts past 2^64, and the box, are cheap from the tree.
            match (self.universe.population(), self.universe.bounds()) {
                (Ok(p), Ok(b)) => {
                    let dying = u128::from(self.stats.dying);
                    self.population = p;
                    self.occupied = p.saturating_add(dying);
                    self.bounds = b;
                }
                (Err(e), _) | (_, Err(e)) => return self.fail(e),
            }
        } else {
            self.bounds = None;
        }
        self.memory = self.universe.memory();
        let died = self.occupied == 0 && self.universe.generation() > 0;
        if died && caps.hashing && (self.running || self.pending > 0) {
            let generation = self.universe.generation();
            self.pending = 0;
            self.running = false;
            self.wall_gps = 0.0;
            self.note_error(format!("the pattern died out by generation {generation}"));
        }
        self.costs.stats = start.elapsed();
        self.stats_at = Some(Instant::now());
        self.changed = true;
    }
}
