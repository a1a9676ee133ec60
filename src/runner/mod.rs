//! The simulation thread behind the app: steps, edits and draws off the UI thread.
//!
//! The UI sends [`Command`]s and reads the latest [`Snapshot`]; it never waits for a
//! generation, so it stays responsive even when one generation takes seconds (scalar at
//! 16384²). The thread owns the [`Simulation`], the undo [`history::History`] and the view
//! buffer it draws the visible window into (see [`crate::step::view`]).

pub mod history;
pub mod liveness;
pub mod plane;
pub mod region;
mod view_readback;
mod worker;

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde::{Deserialize, Serialize};

use crate::gpu::GpuContext;
use crate::pattern::Pattern;
use crate::rule::Rule;
use crate::sim::Simulation;
use crate::stats::Stats;
use crate::step::view::ViewRequest;
use crate::step::{GpuSettings, Strategy};
use crate::world::{CellEdit, Topology, World};

pub use liveness::StepperState;
pub use plane::PlaneInfo;
pub use region::{Region, RegionOp, Selection};

/// How fast a running world advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    /// This many generations per displayed frame (60 per second).
    PerFrame(u32),
    /// As many as the strategy can do, in batches of about 25 ms.
    Max,
}

/// A request to the simulation thread.
pub enum Command {
    /// Start or stop running.
    SetRunning(bool),
    /// Advance this many generations now (running or not; a grid counts to 2^64 − 1).
    Step(u128),
    /// Change the running speed.
    SetSpeed(Speed),
    /// Paint or erase cells; edits with the same `stroke` form one undo step.
    Edit {
        /// The cells.
        edits: Vec<CellEdit>,
        /// Identifier of the pointer stroke they belong to.
        stroke: u64,
    },
    /// Paint (`alive`) or erase cells at view coordinates (grid cells on a grid, clipped to
    /// it; plane coordinates on the plane); a `stroke` is one undo step.
    Paint {
        /// The cells.
        cells: Vec<(i64, i64)>,
        /// Paint or erase.
        alive: bool,
        /// The state painted cells take: 1, or a many-state rule's state 2 and up (the
        /// window's state palette).
        state: u8,
        /// Identifier of the pointer stroke.
        stroke: u64,
    },
    /// Put `pattern`'s box at `(x, y)` (top-left), as one undo step.
    Place {
        /// What to place.
        pattern: Arc<Pattern>,
        /// Left column (may lie outside: the pattern is clipped).
        x: i64,
        /// Top row.
        y: i64,
    },
    /// Change a selection (view coordinates; a grid clips it to itself).
    Region(Selection, RegionOp),
    /// Send the selection's cells back (copy), and clear them if `cut`; a refusal (a plane
    /// selection too large for a pattern) comes back as its message.
    Copy {
        /// The selection.
        selection: Selection,
        /// Clear it after copying.
        cut: bool,
        /// Where the pattern goes.
        reply: Sender<Result<Pattern, String>>,
    },
    /// Replace the world (open a file, new random world); one undo step.
    Replace(World),
    /// Send a copy of the current world back (save, PNG export).
    Read(Sender<World>),
    /// Send the bounding box of the live cells back (`None` when there are none): "Fit
    /// pattern" and the fit after opening or resizing.
    Bounds(Sender<Option<Selection>>),
    /// Move the world onto the unbounded plane (hashlife), every cell at plane coordinates
    /// (the grid's centre at the origin). Leaving the plane is [`Command::Switch`] to a grid
    /// strategy or [`Command::Topology`]: the pattern goes into the grid if it fits.
    ToPlane,
    /// Replace the world by an opened plane (a macrocell file, a pattern too large for any
    /// grid); one undo step when already on the plane.
    OpenPlane(Box<crate::hashlife::Hashed>),
    /// On the plane: each step is 2^`exponent` generations; `hyper` lets it grow.
    PlaneStep {
        /// The step's exponent.
        exponent: u32,
        /// Hyperspeed.
        hyper: bool,
    },
    /// The plane's memory limit in bytes (`None`: a quarter of the memory available),
    /// applied now and to planes made later.
    PlaneMemory(Option<usize>),
    /// Step until generation `target` (ahead of the current one), in pieces that leave
    /// commands answered; [`Command::SetRunning`]`(false)` cancels what is left.
    GoTo(u128),
    /// Save the plane to `path` (its extension names the format); the reply is the note
    /// to show, or why not.
    SavePlane {
        /// Where.
        path: std::path::PathBuf,
        /// Comment lines to write.
        comments: Vec<String>,
        /// The outcome.
        reply: Sender<Result<String, String>>,
    },
    /// Switch strategy, keeping the world.
    Switch(Strategy),
    /// Change GPU memory mode / readback interval.
    GpuSettings(GpuSettings),
    /// Resize keeping the pattern centred.
    Resize(u32, u32),
    /// Change the rule.
    Rule(Rule),
    /// Change the topology.
    Topology(Topology),
    /// Go back to the starting pattern (the world as it was when stepping last began after
    /// an edit, an open or any other change), as one undo step, and pause. Golly's Reset.
    Reset,
    /// Undo the last change.
    Undo,
    /// Redo the last undone change.
    Redo,
}

/// The visible window drawn by the simulation thread.
#[derive(Clone)]
pub struct ViewImage {
    /// The window that was drawn.
    pub request: ViewRequest,
    /// Generation it shows (maps ages to normalized ages).
    pub generation: u64,
    /// States of the rule it was drawn under (shades dying cells; 2 without dying states).
    pub states: u16,
    /// The rule's own colour per state (rule tables' `@COLORS`), `None` for other rules.
    pub colours: Option<Arc<Vec<[u8; 3]>>>,
    /// One age per pixel, on the device (GPU available) or on the host.
    pub pixels: ViewPixels,
}

/// Where a [`ViewImage`]'s pixels are.
#[derive(Clone)]
pub enum ViewPixels {
    /// A storage buffer of `request.pixels()` u32 ages on the shared device.
    Device(Arc<wgpu::Buffer>),
    /// Host ages, when there is no device to draw with.
    Host(Arc<Vec<u32>>),
}

/// What the UI shows: the simulation's state after its last batch.
#[derive(Clone)]
pub struct Snapshot {
    /// Current generation.
    pub generation: u64,
    /// Strategy stepping the world.
    pub strategy: Strategy,
    /// GPU settings in force.
    pub gpu_settings: GpuSettings,
    /// World width and height.
    pub size: (u32, u32),
    /// Rule in force.
    pub rule: Rule,
    /// Topology in force.
    pub topology: Topology,
    /// Whether the grid grows with the pattern (unbounded Larger than Life).
    pub grows: bool,
    /// Golly's plane coordinates of grid cell `(0, 0)`: it moves when a growing world
    /// grows or follows its pattern, and the view moves with it so nothing jumps.
    pub origin: (i64, i64),
    /// Whether the world is running.
    pub running: bool,
    /// Running speed.
    pub speed: Speed,
    /// Latest statistics ([`STAT_BUCKETS`] buckets).
    pub stats: Stats,
    /// Generations per second over the last half second, wall clock (transfers included).
    pub wall_gps: f64,
    /// Generations per second of GPU kernel time (timestamp queries), for GPU strategies.
    pub gpu_gps: Option<f64>,
    /// What the kernel is doing, where the strategy says ([`crate::step::KernelReport`]:
    /// shape, births way, share of strips replayed over the last GPS window).
    pub kernel: Option<String>,
    /// Whether the stepper is still tuning its kernel (speeds include its trials).
    pub tuning: bool,
    /// The latest adaptive decisions: the kernel's shape controller and births chooser, the
    /// engine's submission pacing and this thread's batch pacing ([`crate::step::pacing`]),
    /// each oldest first.
    pub decisions: Vec<String>,
    /// The latest drawn window.
    pub view: Option<ViewImage>,
    /// Whether undo / redo have something to do.
    pub can_undo: bool,
    /// See `can_undo`.
    pub can_redo: bool,
    /// What a slow command (load, resize, rule change, switch…) is doing right now on a large
    /// world; `None` when the thread is not busy with one.
    pub busy: Option<String>,
    /// Whether [`Command::Reset`] has a starting pattern to go back to (stepped since).
    pub can_reset: bool,
    /// The last error (switch refused, size too large, device lost...), with a counter so
    /// the UI can tell a new one from an old one.
    pub error: Option<(u64, String)>,
    /// The last request done differently than asked (a rule table moved to rayon), with a
    /// counter like [`Snapshot::error`]'s.
    pub warning: Option<(u64, String)>,
    /// Why the GPU can no longer be used (it was lost and the world continued on the CPU).
    pub gpu_lost: Option<String>,
    /// The unbounded plane's figures while the world is on it (`None` on a grid; then
    /// `size`, `topology` and `strategy` describe the grid; on the plane they are the grid
    /// the pattern goes back to).
    pub plane: Option<PlaneInfo>,
    /// Counts the changes after which the statistics' history starts again: a new world
    /// (open, clear, random fill), a resize, a rule or topology change, Reset, undo and
    /// redo (a strategy switch keeps it).
    pub epoch: u64,
    /// Counts the snapshots published: a frame whose snapshot has the serial of the frame
    /// before has no news from the simulation thread.
    pub serial: u64,
}

impl Snapshot {
    /// What the UI shows before the simulation thread has published anything: the world it
    /// is building, paused, generation 0, no statistics or view yet.
    pub fn before_start(
        strategy: Strategy,
        gpu_settings: GpuSettings,
        size: (u32, u32),
        rule: Rule,
        topology: Topology,
    ) -> Snapshot {
        Snapshot {
            generation: 0,
            strategy,
            gpu_settings,
            size,
            rule,
            topology,
            grows: false,
            origin: (-i64::from(size.0 / 2), -i64::from(size.1 / 2)),
            running: false,
            speed: Speed::PerFrame(1),
            stats: Stats::empty(0, STAT_BUCKETS),
            wall_gps: 0.0,
            gpu_gps: None,
            kernel: None,
            tuning: false,
            decisions: Vec::new(),
            view: None,
            can_undo: false,
            can_redo: false,
            busy: None,
            can_reset: false,
            error: None,
            warning: None,
            gpu_lost: None,
            plane: None,
            epoch: 0,
            serial: 0,
        }
    }
}

/// Histogram buckets of [`Snapshot::stats`]; groups of four make the five age brackets.
pub const STAT_BUCKETS: usize = 20;

/// Handle to the simulation thread; dropping it stops the thread.
pub struct Runner {
    commands: Option<Sender<Command>>,
    shared: Arc<Mutex<Snapshot>>,
    view: Arc<Mutex<Option<ViewRequest>>>,
    last_copy: Arc<Mutex<Option<World>>>,
    interrupt: Arc<std::sync::atomic::AtomicBool>,
    liveness: Arc<liveness::Liveness>,
    thread: Option<JoinHandle<()>>,
}

impl Runner {
    /// Start the thread on `sim`. `draw_on` is the device the UI draws with (view images
    /// then stay on it); `repaint` is called whenever a new snapshot is published.
    pub fn start(
        sim: Simulation,
        draw_on: Option<Arc<GpuContext>>,
        repaint: Box<dyn Fn() + Send>,
    ) -> Runner {
        let mut placeholder = Snapshot::before_start(
            sim.strategy(),
            sim.gpu_settings(),
            sim.size(),
            sim.rule(),
            sim.topology(),
        );
        placeholder.generation = sim.generation();
        placeholder.stats = Stats::empty(sim.generation(), STAT_BUCKETS);
        Runner::start_building(Box::new(move || (sim, None)), placeholder, draw_on, repaint)
    }

    /// Start the thread and build the simulation on it with `build` (a large world takes
    /// seconds to allocate, fill and upload: the window stays responsive meanwhile and shows
    /// `placeholder`, whose `busy` says what is being built). `build` also returns a note
    /// for the user (e.g. the strategy it had to give up), published as the first error.
    pub fn start_building(
        build: Box<dyn FnOnce() -> (Simulation, Option<String>) + Send>,
        placeholder: Snapshot,
        draw_on: Option<Arc<GpuContext>>,
        repaint: Box<dyn Fn() + Send>,
    ) -> Runner {
        let (tx, rx): (Sender<Command>, Receiver<Command>) = channel();
        let view = Arc::new(Mutex::new(None));
        let last_copy = Arc::new(Mutex::new(None));
        let shared = Arc::new(Mutex::new(placeholder));
        let publish = shared.clone();
        let (wanted_view, copy) = (view.clone(), last_copy.clone());
        let interrupt = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let raised = interrupt.clone();
        let liveness = Arc::new(liveness::Liveness::default());
        let alive = liveness.clone();
        let thread = std::thread::Builder::new()
            .name("golab-sim".into())
            .spawn(move || {
                let (sim, note) = build();
                let mut worker =
                    worker::Worker::new(sim, draw_on, wanted_view, repaint, copy, raised, alive);
                if let Some(note) = note {
                    worker.note_error(note);
                }
                worker.run(rx, publish)
            })
            .expect("spawning the simulation thread");
        Runner {
            commands: Some(tx),
            shared,
            view,
            last_copy,
            interrupt,
            liveness,
            thread: Some(thread),
        }
    }

    /// The simulation thread as of now, read without waiting for it: the batch in progress
    /// and for how long, the commands queued behind it, the longest batch so far.
    pub fn stepper_state(&self) -> StepperState {
        self.liveness.state()
    }

    /// Stop now: pause, drop what a "go to" still had to do, and abandon the hashed step
    /// in progress on the plane (a step of 2^40 on a chaotic pattern can take minutes;
    /// the pattern stays at the generation it had).
    pub fn interrupt(&self) {
        self.interrupt
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.send(Command::SetRunning(false));
    }

    /// Whether the simulation thread is still running (it only stops by a bug: a panic).
    pub fn is_alive(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// The latest host copy of the world (refreshed every few seconds and after every
    /// whole-world change): what survives a lost device or a crash.
    pub fn last_copy(&self) -> Arc<Mutex<Option<World>>> {
        self.last_copy.clone()
    }

    /// Queue a command.
    pub fn send(&self, command: Command) {
        if let Some(tx) = &self.commands
            && tx.send(command).is_ok()
        {
            self.liveness.sent();
        }
    }

    /// The latest published state. The thread holds this lock only to swap a finished
    /// snapshot in, so the window never waits on a batch here (the wait is measured:
    /// [`Runner::longest_ui_wait`]).
    pub fn snapshot(&self) -> Snapshot {
        let asked = std::time::Instant::now();
        let guard = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        self.liveness.ui_waited(asked.elapsed());
        guard.clone()
    }

    /// Ask for `request` to be drawn (replacing any earlier request).
    pub fn set_view(&self, request: ViewRequest) {
        let asked = std::time::Instant::now();
        if let Ok(mut v) = self.view.lock() {
            self.liveness.ui_waited(asked.elapsed());
            *v = Some(request);
        }
    }

    /// The longest the window has waited for the simulation thread in [`Runner::snapshot`]
    /// and [`Runner::set_view`] (the soak test's measure of a blocked UI thread).
    pub fn longest_ui_wait(&self) -> std::time::Duration {
        self.liveness.longest_ui_wait()
    }
}

/// How long dropping a [`Runner`] waits for its thread to finish the batch in progress.
const DROP_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

impl Drop for Runner {
    /// Stop the thread: it ends after the batch in progress. A batch that is still running
    /// after [`DROP_WAIT`] (one generation of scalar at 65536², a hashed step abandoned
    /// only at its next check) is left to the process's exit rather than waited for, so
    /// closing the window never hangs.
    fn drop(&mut self) {
        self.commands.take();
        self.interrupt
            .store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let asked = std::time::Instant::now();
            while !t.is_finished() && asked.elapsed() < DROP_WAIT {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}
