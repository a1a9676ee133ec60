//! The simulation thread behind the app: steps, edits and draws off the UI thread.
//!
//! The UI sends [`Command`]s and reads the latest [`Snapshot`]; it never waits for a
//! generation, so it stays responsive even when one generation takes seconds (scalar at
//! 16384²). The thread owns the world — one [`Universe`], a grid or the hashed universe,
//! spoken to through that interface alone — the undo [`history::History`] and the view
//! buffer it draws the visible window into (see [`crate::step::view`]).

pub mod history;
pub mod liveness;
pub mod region;
pub mod step_model;
mod view_readback;
mod worker;

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::gpu::GpuContext;
use crate::pattern::Pattern;
use crate::rule::Rule;
use crate::sim::Simulation;
use crate::stats::Stats;
use crate::step::view::ViewRequest;
use crate::step::{GpuSettings, StepperFactory, Strategy};
use crate::universe::{Bounds, Capabilities, GridUniverse, MemoryReport, Rect, Universe};
use crate::world::World;

pub use liveness::StepperState;
pub use region::{RegionOp, Selection};

/// How fast a running world advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    /// This many generations per displayed frame (60 per second): Golly's step of
    /// base^exponent, times golab's speed.
    PerFrame(u64),
    /// One generation each time this long has passed (Golly's negative step exponents).
    Every(Duration),
    /// As many as the strategy can do, in batches of about 25 ms.
    Max,
}

/// A request to the simulation thread. Cells and selections are in plane coordinates.
pub enum Command {
    /// Start or stop running.
    SetRunning(bool),
    /// Advance this many generations now (running or not).
    Step(u128),
    /// Change the running speed.
    SetSpeed(Speed),
    /// Let the hashed universe double its running step while steps stay fast (Golly's
    /// hyperspeed).
    SetHyper(bool),
    /// Put cells in states exactly as given (cells outside a bounded grid are refused and
    /// nothing is set); edits of one `stroke` form one undo step (`None`: one of their own).
    Edit {
        /// `(x, y, state)`; state 0 clears.
        cells: Vec<(i128, i128, u8)>,
        /// The undo step they belong to.
        stroke: Option<u64>,
    },
    /// Paint or erase cells under the pointer (clipped to a bounded grid); a `stroke` is one
    /// undo step.
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
        /// Left column.
        x: i64,
        /// Top row.
        y: i64,
    },
    /// Change a selection (a bounded grid clips it to itself).
    Region(Selection, RegionOp),
    /// Send the selection's cells back (copy), and clear them if `cut`; a refusal (a
    /// selection too large for a pattern) comes back as its message.
    Copy {
        /// The selection.
        selection: Selection,
        /// Clear it after copying.
        cut: bool,
        /// Where the pattern goes.
        reply: Sender<Result<Pattern, String>>,
    },
    /// Replace the world by a grid world (a new soup, a cleared grid), on the strategy in
    /// use where it runs the world's rule; one undo step.
    Replace(World),
    /// Replace the world by an opened universe (a file read on the UI's side: a grid, or
    /// the hashed universe for a macrocell file or a pattern too large for a grid); one undo
    /// step.
    Open(Box<dyn Universe>),
    /// Send a host copy of the world back (PNG export, Identify), or why there is none (a
    /// hashed pattern larger than any grid).
    Read(Sender<Result<World, String>>),
    /// Save to `path` (its extension names the format); the reply is the note to show, or
    /// why not.
    Save {
        /// Where.
        path: std::path::PathBuf,
        /// The name, author and comments to write (its cells are not read).
        meta: Box<Pattern>,
        /// The outcome.
        reply: Sender<Result<String, String>>,
    },
    /// Send the bounding box of the cells not in state 0 back (`None` when there are
    /// none): "Fit pattern", the fit after opening or resizing, Select All; `within` a
    /// selection, the box of its cells (Shrink Selection).
    Bounds {
        /// Only the cells inside this selection.
        within: Option<Selection>,
        /// Where the box goes.
        reply: Sender<Option<Selection>>,
    },
    /// Send the state of one cell back (the Pick cursor).
    StateAt {
        /// The cell.
        x: i64,
        /// The cell.
        y: i64,
        /// Where its state goes.
        reply: Sender<u8>,
    },
    /// Make the world unbounded (Golly's default): a grid that grows with the pattern on
    /// the strategy in use, or the hashed universe where a grid cannot run it.
    Unbounded,
    /// Make the world a bounded grid of this size and surface, keeping every cell (refused,
    /// naming the size needed, when the pattern does not fit).
    Bounded(Bounds),
    /// The hashed universe's memory limit in bytes (`None`: a quarter of the memory
    /// available), applied now and to hashed universes made later.
    Memory(Option<usize>),
    /// Threads the hashed universe steps with, applied now and to hashed universes made
    /// later (every core by default).
    Threads(crate::hashlife::Threads),
    /// Step until generation `target` (ahead of the current one), in pieces that leave
    /// commands answered; [`Command::SetRunning`]`(false)` cancels what is left.
    GoTo(u128),
    /// Switch strategy, keeping the world: a grid strategy in place, or `hashlife` (the
    /// hashed universe) by converting it.
    Switch(Strategy),
    /// Change GPU memory mode / readback interval.
    GpuSettings(GpuSettings),
    /// Change the rule.
    Rule(Rule),
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
    pub generation: u128,
    /// Strategy stepping the world (`hashlife`: the hashed universe).
    pub strategy: Strategy,
    /// What the world is ("512×256 torus grid (rayon)", "unbounded, hashed (hashlife)").
    pub describe: String,
    /// What it can do: ages, the GPU, a bound, hashing, strategies.
    pub capabilities: Capabilities,
    /// The rectangle a grid's cells cover, in plane coordinates (a bounded grid, or the
    /// frame a growing one has now); `None` for the hashed universe when unbounded.
    pub frame: Option<Rect>,
    /// GPU settings in force.
    pub gpu_settings: GpuSettings,
    /// Rule in force.
    pub rule: Rule,
    /// Whether the world is running.
    pub running: bool,
    /// Running speed.
    pub speed: Speed,
    /// Latest statistics ([`STAT_BUCKETS`] buckets; ages where the world keeps them).
    pub stats: Stats,
    /// Cells in state 1, exact.
    pub population: u128,
    /// Cells in any state but 0, exact.
    pub occupied: u128,
    /// The box of the cells not in state 0 where it is cheap to know (hashing), else
    /// `None` (ask with [`Command::Bounds`]).
    pub bounds: Option<Rect>,
    /// The hashed universe's memory, where it has a limit.
    pub memory: Option<MemoryReport>,
    /// Generations still to step of a Step or a Go to.
    pub pending: u128,
    /// The running step the hashed universe's hyperspeed has reached (generations a frame).
    pub hyper_step: Option<u128>,
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
    /// The last request done differently than asked (a rule table moved to rayon, an
    /// unbounded world moved to hashlife), with a counter like [`Snapshot::error`]'s.
    pub warning: Option<(u64, String)>,
    /// Why the GPU can no longer be used (it was lost and the world continued on the CPU).
    pub gpu_lost: Option<String>,
    /// Counts the changes after which the statistics' history starts again: a new world
    /// (open, clear, random fill), a resize, a rule or surface change, Reset, undo and
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
        bounds: Option<Bounds>,
        rule: Rule,
    ) -> Snapshot {
        let frame = bounds.map(|b| {
            let (x0, y0) = (-i128::from(b.width / 2), -i128::from(b.height / 2));
            Rect {
                x0,
                y0,
                x1: x0 + i128::from(b.width) - 1,
                y1: y0 + i128::from(b.height) - 1,
            }
        });
        Snapshot {
            generation: 0,
            strategy,
            describe: String::new(),
            capabilities: Capabilities {
                ages: strategy.keeps_ages(),
                gpu: strategy.is_gpu(),
                bounded: bounds,
                hashing: strategy == Strategy::Hashlife,
                strategies: strategy != Strategy::Hashlife,
            },
            frame,
            gpu_settings,
            rule,
            running: false,
            speed: Speed::PerFrame(1),
            stats: Stats::empty(0, STAT_BUCKETS),
            population: 0,
            occupied: 0,
            bounds: None,
            memory: None,
            pending: 0,
            hyper_step: None,
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
            epoch: 0,
            serial: 0,
        }
    }

    /// The bounded grid's size, or `None` when the world is unbounded.
    pub fn grid_size(&self) -> Option<(u32, u32)> {
        self.capabilities.bounded.map(|b| (b.width, b.height))
    }
}

/// What builds the world on the simulation thread: the universe, the factory conversions
/// make grids with, and a note for the user.
pub type BuildWorld =
    Box<dyn FnOnce() -> (Box<dyn Universe>, StepperFactory, Option<String>) + Send>;

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
    /// Start the thread on `sim`'s grid. `draw_on` is the device the UI draws with (view
    /// images then stay on it); `repaint` is called whenever a new snapshot is published.
    pub fn start(
        sim: Simulation,
        draw_on: Option<Arc<GpuContext>>,
        repaint: Box<dyn Fn() + Send>,
    ) -> Runner {
        let factory = sim.factory().sharing_device();
        Runner::start_universe(Box::new(GridUniverse::new(sim)), factory, draw_on, repaint)
    }

    /// Start the thread on `universe`; `factory` makes the grids a conversion needs.
    pub fn start_universe(
        mut universe: Box<dyn Universe>,
        factory: StepperFactory,
        draw_on: Option<Arc<GpuContext>>,
        repaint: Box<dyn Fn() + Send>,
    ) -> Runner {
        let placeholder = universe_placeholder(universe.as_mut());
        let build = move || (universe, factory, None);
        Runner::start_building(Box::new(build), placeholder, draw_on, repaint)
    }

    /// Start the thread and build the world on it with `build` (a large world takes seconds
    /// to allocate, fill and upload: the window stays responsive meanwhile and shows
    /// `placeholder`, whose `busy` says what is being built). `build` returns the universe,
    /// the factory conversions make grids with, and a note for the user (e.g. the strategy
    /// it had to give up), published as the first error.
    pub fn start_building(
        build: BuildWorld,
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
                let (universe, factory, note) = build();
                let mut worker = worker::Worker::new(
                    universe,
                    factory,
                    worker::Shared {
                        draw_on,
                        wanted_view,
                        repaint,
                        last_copy: copy,
                        interrupt: raised,
                        liveness: alive,
                    },
                );
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

    /// Stop now: pause, drop what a Step or a Go to still had to do, and abandon a hashed
    /// step in progress (a step of 2^40 on a chaotic pattern can take minutes; the pattern
    /// stays at the generation it had).
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

/// The snapshot a new runner shows until its thread publishes: `universe` as it is.
fn universe_placeholder(universe: &mut dyn Universe) -> Snapshot {
    let caps = universe.capabilities();
    let mut placeholder = Snapshot::before_start(
        universe.strategy(),
        universe
            .grid()
            .map(|g| g.gpu_settings())
            .unwrap_or_default(),
        caps.bounded,
        universe.rule(),
    );
    placeholder.capabilities = caps;
    placeholder.describe = universe.describe();
    placeholder.generation = universe.generation();
    placeholder.stats = Stats::empty(
        u64::try_from(universe.generation()).unwrap_or(u64::MAX),
        STAT_BUCKETS,
    );
    placeholder
}
