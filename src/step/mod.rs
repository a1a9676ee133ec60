//! Strategies that advance a world, all behind one [`Stepper`] trait.
//!
//! A stepper *owns* the live state (on the host, or on a device for GPU strategies).
//! The host [`World`] is the exchange format: [`Stepper::load`] takes a world in,
//! [`Stepper::read_world`] gives it back, so a [`crate::sim::Simulation`] can switch
//! strategy mid-run by reading the state out of one stepper and loading it into the next,
//! with generation and every cell's age kept exactly.

pub mod cpu_bitsliced;
pub mod cpu_grid;
pub mod engine;
mod factory;
pub mod fault;
pub mod gpu_bitpacked;
pub mod gpu_cells;
pub mod gpu_strategies;
pub mod joined;
pub mod pacing;
pub mod probe;
pub mod report;
pub mod settings;
pub mod view;

pub use engine::TransferCounts;
pub use factory::StepperFactory;
pub use gpu_strategies::shader_permutations;
pub use report::KernelReport;
pub use settings::{GpuSettings, MemoryMode};

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// Why a stepper could not be made or could not proceed. The world held by the caller
/// is never touched when one of these is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StepError {
    /// The strategy cannot run here (no GPU, missing feature...).
    #[error("strategy '{strategy}' is unavailable: {reason}")]
    Unavailable {
        /// Strategy name.
        strategy: &'static str,
        /// Human-readable reason.
        reason: String,
    },
    /// The world does not fit the strategy's limits.
    #[error("a {width}x{height} world does not fit strategy '{strategy}': {reason}")]
    TooLarge {
        /// Strategy name.
        strategy: &'static str,
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// Which limit and the largest size that fits.
        reason: String,
    },
    /// The device behind a GPU strategy was lost; reload the world from the host copy.
    #[error("the GPU device was lost ({0}); the world is kept on the host")]
    DeviceLost(String),
    /// Any other backend failure, with its message.
    #[error("{0}")]
    Backend(String),
}

/// A host world a stepper needed could not be made or filled (out of host memory): a
/// backend failure, with the world's message.
impl From<crate::world::WorldError> for StepError {
    fn from(error: crate::world::WorldError) -> Self {
        StepError::Backend(error.to_string())
    }
}

/// The error of a stepper asked to work before [`Stepper::load`] gave it a world.
pub fn not_loaded() -> StepError {
    StepError::Backend("stepper used before load".into())
}

/// Fail with a clear error when `world` is not `width × height` (a caller bug, never a panic).
pub fn check_same_size(world: &World, width: u32, height: u32) -> Result<(), StepError> {
    if world.width() == width && world.height() == height {
        Ok(())
    } else {
        Err(StepError::Backend(format!(
            "world is {}x{} but the stepper holds {width}x{height}",
            world.width(),
            world.height()
        )))
    }
}

/// `gens` rounded down to a whole number of blocks of `multiple` generations
/// ([`Stepper::batch_multiple`]), where it holds one at least: the engine's submissions and
/// the runner's batches both keep to whole blocks this way.
pub fn whole_blocks(gens: u64, multiple: u64) -> u64 {
    if gens >= multiple {
        gens - gens % multiple.max(1)
    } else {
        gens
    }
}

/// The strategies golab knows, in the order they are listed to users.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Strategy {
    /// Single-threaded padded-border reference.
    Scalar,
    /// The scalar algorithm over row bands in parallel with rayon.
    Rayon,
    /// 64 cells per u64 with bitwise adders, rayon over bands, ages from birth generations.
    CpuBitsliced,
    /// GPU, bounds checks, upload + download every generation (ALGORITHM_0).
    GpuNaive,
    /// GPU, host-packed padding, no bounds checks (ALGORITHM_1).
    GpuPadded,
    /// GPU, workgroup-memory tiles (ALGORITHM_2).
    GpuShared,
    /// GPU, 8 strips in separate submissions (ALGORITHM_2_STREAM).
    GpuStreamed,
    /// GPU, state stays on the device, download every generation (ALGORITHM_3_STREAM).
    GpuNoUpload,
    /// GPU, download every N generations (ALGORITHM_3_REPEAT).
    GpuReadbackSkip,
    /// GPU, no transfers while running; statistics reduced on the device.
    GpuResident,
    /// GPU, 32 cells per u32, bitwise adders, several generations per dispatch, exact ages.
    GpuBitpacked,
    /// The hashed universe (HashLife) on the grid, one generation at a time, topology kept;
    /// no ages (live cells read back with age 1).
    Hashlife,
}

impl Strategy {
    /// Every strategy, in display order.
    /// The grid strategies: every strategy but `hashlife` (the hashed universe, which the
    /// world converts to instead of loading into a stepper).
    pub const GRID: &'static [Strategy] = &[
        Strategy::Scalar,
        Strategy::Rayon,
        Strategy::CpuBitsliced,
        Strategy::GpuNaive,
        Strategy::GpuPadded,
        Strategy::GpuShared,
        Strategy::GpuStreamed,
        Strategy::GpuNoUpload,
        Strategy::GpuReadbackSkip,
        Strategy::GpuResident,
        Strategy::GpuBitpacked,
    ];

    /// Every strategy, as listed to users: the grid strategies, then `hashlife`.
    pub const ALL: &'static [Strategy] = &[
        Strategy::Scalar,
        Strategy::Rayon,
        Strategy::CpuBitsliced,
        Strategy::GpuNaive,
        Strategy::GpuPadded,
        Strategy::GpuShared,
        Strategy::GpuStreamed,
        Strategy::GpuNoUpload,
        Strategy::GpuReadbackSkip,
        Strategy::GpuResident,
        Strategy::GpuBitpacked,
        Strategy::Hashlife,
    ];

    /// Stable name used by the CLI, settings and benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Scalar => "scalar",
            Strategy::Rayon => "rayon",
            Strategy::CpuBitsliced => "cpu-bitsliced",
            Strategy::GpuNaive => "gpu-naive",
            Strategy::GpuPadded => "gpu-padded",
            Strategy::GpuShared => "gpu-shared",
            Strategy::GpuStreamed => "gpu-streamed",
            Strategy::GpuNoUpload => "gpu-no-upload",
            Strategy::GpuReadbackSkip => "gpu-readback-skip",
            Strategy::GpuResident => "gpu-resident",
            Strategy::GpuBitpacked => "gpu-bitpacked",
            Strategy::Hashlife => "hashlife",
        }
    }

    /// One-line description for `--help` and the UI.
    pub fn description(self) -> &'static str {
        match self {
            Strategy::Scalar => {
                "single-threaded CPU reference; padded border instead of bounds checks"
            }
            Strategy::Rayon => "the scalar kernel over row bands on every core (rayon)",
            Strategy::CpuBitsliced => {
                "64 cells per u64 with bitwise adders on every core; exact ages from birth generations"
            }
            Strategy::GpuNaive => {
                "GPU, bounds checks per neighbour; upload + download every generation"
            }
            Strategy::GpuPadded => {
                "GPU, host-packed padding instead of bounds checks; upload + download"
            }
            Strategy::GpuShared => "GPU, 16x16 tiles in workgroup memory; upload + download",
            Strategy::GpuStreamed => {
                "GPU shared, 8 strips each uploaded/computed/downloaded on its own"
            }
            Strategy::GpuNoUpload => {
                "GPU shared, state stays on the device; download every generation"
            }
            Strategy::GpuReadbackSkip => {
                "GPU shared, state on the device; download every N generations"
            }
            Strategy::GpuResident => {
                "GPU shared, no transfers while running; stats reduced on the GPU"
            }
            Strategy::GpuBitpacked => {
                "GPU, 32 cells per u32 word, bitwise adders, several generations per dispatch kept in registers (subgroup shuffles) or workgroup memory; exact ages from birth generations"
            }
            Strategy::Hashlife => {
                "HashLife: the hashed universe, memoised quadtree squares, unbounded (or a torus or dead border, one generation at a time); no ages (states only)"
            }
        }
    }

    /// Whether the strategy runs on a GPU.
    pub fn is_gpu(self) -> bool {
        !matches!(
            self,
            Strategy::Scalar | Strategy::Rayon | Strategy::CpuBitsliced | Strategy::Hashlife
        )
    }

    /// Whether the strategy keeps every cell's age (all but hashlife, which keeps states:
    /// its live cells read back with age 1).
    pub fn keeps_ages(self) -> bool {
        self != Strategy::Hashlife
    }

    /// Whether the strategy runs `rule`, and why not: every strategy runs every rule golab
    /// parses, except hashlife, which refuses Larger than Life and B0
    /// ([`crate::hashlife::Hashed::check`]), and the bit-sliced strategies, which refuse
    /// rule tables (they run rules as bitwise circuits).
    pub fn supports(self, rule: &crate::rule::Rule) -> Result<(), String> {
        match self {
            Strategy::Scalar | Strategy::Rayon | Strategy::GpuResident if rule.is_ltl() => Ok(()),
            _ if rule.is_ltl() => Err(format!(
                "{} runs neighbourhoods of range 1; Larger than Life's range-{} counts run on scalar, rayon and gpu-resident",
                self.name(),
                rule.ltl().map_or(1, |l| l.range)
            )),
            Strategy::Hashlife => crate::hashlife::Hashed::check(rule).map_err(|e| e.to_string()),
            Strategy::CpuBitsliced | Strategy::GpuBitpacked if rule.is_table() => Err(format!(
                "{} compiles two-state and Generations rules into bitwise circuits over bit planes; the rule table {} has no such form here: run it on gpu-resident, rayon or another strategy that keeps one word per cell (or on the unbounded plane)",
                self.name(),
                rule.canonical()
            )),
            _ => Ok(()),
        }
    }

    /// [`Self::supports`] as a stepper's load error.
    pub fn check_supports(self, rule: &crate::rule::Rule) -> Result<(), StepError> {
        self.supports(rule)
            .map_err(|reason| StepError::Unavailable {
                strategy: self.name(),
                reason,
            })
    }

    /// Whether the strategy fills a joined surface's ring itself (scalar and rayon, in their
    /// padded grid); the others run joined surfaces through [`joined::JoinedAdapter`].
    pub fn fills_joined_ring(self) -> bool {
        matches!(self, Strategy::Scalar | Strategy::Rayon)
    }

    /// What [`Stepper::load`] checks of `world` before taking it: the rule
    /// ([`Self::check_supports`]) and, for every strategy but scalar and rayon, that the
    /// topology is a torus or a dead border (the factory's [`joined::JoinedAdapter`] runs
    /// the joined surfaces on them; a stepper made by hand refuses them rather than run
    /// them as a dead border).
    pub fn check_loads(self, world: &World) -> Result<(), StepError> {
        self.check_supports(&world.rule())?;
        if world.topology.is_joined() && !self.fills_joined_ring() {
            return Err(StepError::Unavailable {
                strategy: self.name(),
                reason: format!(
                    "its kernel wraps a torus or stops at a dead border; a {} runs through the joined-edge adapter (StepperFactory::create)",
                    world.topology
                ),
            });
        }
        Ok(())
    }

    /// Whether `golab bench --strategies all` includes it: every grid strategy, not
    /// hashlife (its benchmark is the unbounded universe: scripts/bench-hashlife, `golab lab
    /// hashing`).
    pub fn in_bench_all(self) -> bool {
        self != Strategy::Hashlife
    }

    /// Whether the memory mode changes what the strategy does (it moves data host↔device).
    pub fn uses_memory_mode(self) -> bool {
        self.is_gpu() && !matches!(self, Strategy::GpuResident | Strategy::GpuBitpacked)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown strategy name, with the list of known ones.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown strategy '{0}'; known strategies: {list}", list = strategy_names().join(", "))]
pub struct UnknownStrategy(pub String);

/// Names of every strategy.
pub fn strategy_names() -> Vec<&'static str> {
    Strategy::ALL.iter().map(|s| s.name()).collect()
}

impl FromStr for Strategy {
    type Err = UnknownStrategy;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        Strategy::ALL
            .iter()
            .copied()
            .find(|st| st.name() == wanted)
            .ok_or(UnknownStrategy(s.to_string()))
    }
}

/// One way of stepping a world. Implementations own their state between calls.
pub trait Stepper: Send {
    /// Which strategy this is.
    fn strategy(&self) -> Strategy;

    /// Replace the whole state with `world` (size, topology, rule, generation, ages).
    fn load(&mut self, world: &World) -> Result<(), StepError>;

    /// Advance `generations` generations.
    fn step(&mut self, generations: u64) -> Result<(), StepError>;

    /// Write the current state into `world`, which must have been made by [`Stepper::load`]'s
    /// size (the simulation guarantees it); rule and topology are left as they are.
    fn read_world(&mut self, world: &mut World) -> Result<(), StepError>;

    /// Paint or erase cells without losing any other state. Out-of-world cells are ignored.
    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError>;

    /// Population and age histogram of the current state, computed where the state lives.
    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError>;

    /// Current generation.
    fn generation(&self) -> u64;

    /// The host-resident world, for strategies that keep one (lets callers skip a copy).
    fn host_world(&self) -> Option<&World> {
        None
    }

    /// GPU kernel time (timestamp queries) accumulated since the last call; `None` for
    /// CPU strategies and devices without timestamps.
    fn take_gpu_seconds(&mut self) -> Option<f64> {
        None
    }

    /// Whether the stepper is still choosing its kernel shape by timing its own steps (see
    /// [`gpu_bitpacked::tuner`]): its speed now is not its steady speed, so benchmarks keep
    /// warming up while this holds.
    fn tuning(&self) -> bool {
        false
    }

    /// What the kernel is doing, where it has a choice of shapes or skips work: its shape,
    /// the strips it replayed since the last report, the floor of its device traffic and its
    /// controller's decisions (benchmarks and the window say what was measured); `None` for
    /// strategies with nothing to say.
    fn take_report(&mut self) -> Result<Option<KernelReport>, StepError> {
        Ok(None)
    }

    /// Batches of a multiple of this many generations suit the stepper best: a caller that
    /// steps in many batches (the runner) keeps to them, so what a strategy carries from one
    /// block of generations to the next (gpu-bitpacked's repeat flags) is never broken by a
    /// short block.
    fn batch_multiple(&self) -> u64 {
        1
    }

    /// Host↔device traffic since the stepper was made (zero for CPU strategies).
    fn transfer_counts(&self) -> TransferCounts {
        TransferCounts::default()
    }

    /// Whether each of `cells` is alive, read from the stepper's own state without a
    /// whole-world read-back, where it can do that cheaply; `Ok(None)` where it cannot (the
    /// caller then reads the world). The joined-edge adapter ([`joined`]) reads a surface's
    /// edge cells this way every generation.
    fn alive_at(&mut self, cells: &[(u32, u32)]) -> Result<Option<Vec<bool>>, StepError> {
        let _ = cells;
        Ok(None)
    }

    /// Draw `request` into `out`, a storage buffer of `request.pixels()` `u32`s on this
    /// stepper's GPU device, with the semantics of [`view::render_host`]; encoded and
    /// submitted by the stepper. `Ok(false)` means the state is not on a device (CPU
    /// strategies): the caller draws from [`Stepper::host_world`] / [`Stepper::read_world`].
    fn render_view(
        &mut self,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<bool, StepError> {
        let _ = (request, out);
        Ok(false)
    }
}
