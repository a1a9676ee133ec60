//! Which of gpu-bitpacked's two step kernels runs, how many generations one dispatch steps,
//! and how many workgroups a dispatch needs.
//!
//! - **stream** (shaders/life/bitpacked_subgroup.wgsl): each subgroup walks a strip of rows
//!   and keeps every generation of the block in registers, trading neighbour words by
//!   subgroup shuffles: no workgroup memory, no barriers. The default where subgroups exist.
//! - **tile** (shaders/life/bitpacked.wgsl): a workgroup steps a 32 × 128-word tile in
//!   workgroup memory with a barrier per generation. Runs everywhere; the fallback.

use crate::config::{BitpackedTuning, KernelChoice};
use crate::gpu::GpuContext;

/// Largest subgroup the stream kernel takes.
const STREAM_GROUP: u32 = 128;
/// Words per tile row that a tile-kernel workgroup writes back (`TW - 2` in bitpacked.wgsl).
const TILE_WORDS: u32 = 30;
/// Rows of a tile-kernel tile, halo included (`WY` in bitpacked.wgsl).
const TILE_ROWS: u32 = 128;
/// Most workgroups per dispatch dimension that every device accepts.
const MAX_GROUPS: u32 = 65_535;

/// Generations per dispatch `choice` uses by default (`Auto`: the stream kernel's, which runs
/// wherever subgroups do).
pub fn default_gens(choice: KernelChoice) -> u32 {
    match choice {
        KernelChoice::Tile => StepKernel::Tile.default_gens(),
        KernelChoice::Auto | KernelChoice::Stream => STREAM_GENS,
    }
}

/// The step kernel that runs, with its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepKernel {
    /// Workgroup-memory tiles.
    Tile,
    /// Subgroup strips (their height is a per-dispatch parameter, see [`super::tuner`]);
    /// `min_lanes` is the smallest subgroup size the device may run it with (it sizes the
    /// dispatch; the kernel adapts to the actual size).
    Stream {
        /// Rows loaded ahead.
        prefetch: u32,
        /// Invocations per workgroup (whole subgroups).
        group: u32,
        /// Smallest subgroup size of the device.
        min_lanes: u32,
        /// Whether birth codes are kept: false only in the benchmark's no-ages variant
        /// ([`BitpackedTuning::skip_ages`]), which measures what exact ages cost.
        ages: bool,
    },
}

/// Default generations per dispatch of the stream kernel.
const STREAM_GENS: u32 = 8;
/// Default generations per dispatch of the stream kernel under a Generations rule: each level
/// also carries the rows' countdown planes in registers, so fewer levels fit (measured in
/// docs/benchmarks.md, "Generations on gpu-bitpacked").
const STREAM_GENS_DYING: u32 = 7;

/// Default rows the stream kernel loads ahead (1 and 2 measure equal on the H200, within
/// run-to-run spread; 2 leaves room for slower memory).
pub const DEFAULT_PREFETCH: u32 = 2;
/// Default invocations per stream-kernel workgroup (4 subgroups of 32: measured 1.7× faster
/// than 1-subgroup workgroups on the H200).
pub const DEFAULT_GROUP: u32 = 128;

/// Strip height of the stream kernel until the tuner has timed the device (rows): the
/// middle of the range the tuner searches ([`super::tuner`]).
pub const UNTUNED_STRIP: u32 = 48;

/// Whether `ctx` runs the stream kernel: subgroups of 4..=128 lanes that divide a workgroup.
/// The kernel also assumes one subgroup size per dispatch (wgpu cannot query or require it;
/// Vulkan drivers choose one per pipeline) — see the header of bitpacked_subgroup.wgsl.
pub fn stream_supported(ctx: &GpuContext) -> bool {
    let (min, max) = (ctx.info.subgroup_min_size, ctx.info.subgroup_max_size);
    ctx.has_subgroups() && min >= 4 && max <= STREAM_GROUP && STREAM_GROUP.is_multiple_of(max)
}

impl StepKernel {
    /// Resolve `tuning` on `ctx` (its explicit values, else the defaults).
    pub fn resolve(ctx: &GpuContext, tuning: BitpackedTuning) -> Result<StepKernel, String> {
        let choice = tuning.kernel;
        let stream = || StepKernel::Stream {
            prefetch: tuning.prefetch.unwrap_or(DEFAULT_PREFETCH).clamp(1, 8),
            group: tuning
                .group
                .filter(|g| g.is_power_of_two())
                .unwrap_or(DEFAULT_GROUP)
                .clamp(ctx.info.subgroup_max_size.max(32), STREAM_GROUP),
            min_lanes: ctx.info.subgroup_min_size,
            ages: !tuning.skip_ages,
        };
        match choice {
            KernelChoice::Tile => Ok(StepKernel::Tile),
            KernelChoice::Stream if stream_supported(ctx) => Ok(stream()),
            KernelChoice::Stream => Err(format!(
                "the stream kernel needs subgroups of 4 to {STREAM_GROUP} lanes; {} has {}",
                ctx.info.name,
                if ctx.has_subgroups() {
                    format!(
                        "{}..={} lanes",
                        ctx.info.subgroup_min_size, ctx.info.subgroup_max_size
                    )
                } else {
                    "none".to_string()
                }
            )),
            KernelChoice::Auto if stream_supported(ctx) => Ok(stream()),
            KernelChoice::Auto => Ok(StepKernel::Tile),
        }
    }

    /// Most generations one dispatch can step (the tile kernel's halo; the stream kernel's
    /// 4-bit birth codes).
    pub fn max_gens(self) -> u32 {
        match self {
            StepKernel::Tile => 16,
            StepKernel::Stream { .. } => 15,
        }
    }

    /// Generations per dispatch by default (measured best on the H200: docs/experiments/bitpacked-stream-shape.md).
    pub fn default_gens(self) -> u32 {
        match self {
            StepKernel::Tile => 16,
            StepKernel::Stream { .. } => STREAM_GENS,
        }
    }

    /// Generations per dispatch: `explicit`, else the default (fewer stream levels when rows
    /// carry a Generations rule's countdown, `dying`); within range.
    pub fn gens_per_dispatch(self, explicit: Option<u32>, dying: bool) -> u32 {
        let default = match self {
            StepKernel::Stream { .. } if dying => STREAM_GENS_DYING,
            _ => self.default_gens(),
        };
        explicit.unwrap_or(default).clamp(1, self.max_gens())
    }

    /// Workgroups `(x, y)` of one dispatch over a chunk of `rows` rows of `wpr` words, with
    /// the tile kernel's halo for `gens_per_dispatch` or the stream kernel's `strip` rows.
    pub fn groups(self, wpr: u32, rows: u32, gens_per_dispatch: u32, strip: u32) -> (u32, u32) {
        match self {
            StepKernel::Tile => (
                wpr.div_ceil(TILE_WORDS),
                rows.div_ceil(TILE_ROWS - 2 * gens_per_dispatch),
            ),
            StepKernel::Stream {
                min_lanes, group, ..
            } => {
                let strips = wpr.div_ceil(min_lanes - 2) * rows.div_ceil(strip.max(1));
                let per_group = group / min_lanes;
                (strips.div_ceil(per_group).min(MAX_GROUPS), 1)
            }
        }
    }

    /// Short name for tables and logs.
    pub fn name(self) -> &'static str {
        match self {
            StepKernel::Tile => "tile",
            StepKernel::Stream { .. } => "stream",
        }
    }
}
