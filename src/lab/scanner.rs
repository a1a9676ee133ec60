//! The device-wide exclusive prefix sum of `u32` values (wrapping), in three forms, shared by
//! the scan experiment and the radix sort (which scans its digit counts with it).
//!
//! Every form works on tiles of 256 threads × `vec4` rows (`shaders/lab/scan_tile.wgsl`:
//! every load and store instruction of a workgroup covers 4 KiB of consecutive addresses),
//! 4 rows (4096 values) for the multi-pass forms and [`SINGLE_PASS_ROWS`] for the single pass,
//! whose per-tile look-back cost larger tiles amortise:
//! - `scan-then-propagate`: each tile scanned (workgroup step by Blelloch's tree, the naive
//!   form), its total written; the totals scanned recursively; a last pass adds each tile's
//!   offset: 4 × 4 bytes a value.
//! - `reduce-then-scan`: a read-only pass for the tile totals, the totals scanned, then each
//!   tile scanned again with its offset: 3 × 4 bytes a value.
//! - `decoupled-look-back`: one pass (2 × 4 bytes a value); tiles taken in order from a ticket
//!   counter look back over their predecessors' published sums, and reduce a silent
//!   predecessor's tile themselves after a bounded wait, so no forward progress between
//!   workgroups is assumed (`shaders/lab/scan_lookback.wgsl` says why that is enough).
//!
//! The last two use subgroup operations for the workgroup step where the device has them.

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

use super::LabError;
use super::gpu::{Dispatch, Kernel, ParamSlots, Params, grid, storage_buffer};

/// Values one workgroup of the multi-pass forms scans (256 threads × 4 `vec4`s).
pub const TILE: u64 = 4096;
/// `vec4` rows of a single-pass tile (1024 values each): 8 (8192 values) was faster than 4 or
/// 16 on the H200 (docs/lab.md).
pub const SINGLE_PASS_ROWS: u32 = 8;

/// The scan forms, by variant name.
pub const FORMS: [&str; 3] = [
    "scan-then-propagate",
    "reduce-then-scan",
    "decoupled-look-back",
];

/// Stalled look-back rounds before a workgroup reduces its silent predecessor's tile itself.
pub const SPIN: u32 = 64;

/// Status words the single pass keeps a tile: a 128-byte line each, so no two tiles'
/// publications share an L2 line (shaders/lab/scan_lookback.wgsl says why).
pub const STATUS_STRIDE: u32 = 32;
const _: () = assert!(STATUS_STRIDE >= 4, "a tile publishes four status words");

pub use super::scan_shape::{SINGLE_PASS_THREADS, SinglePass, single_pass_shader};

/// The multi-pass module: workgroup step by subgroup operations or in workgroup memory.
pub fn multi_pass_shader(subgroups: bool) -> Shader {
    Shader::new(if subgroups {
        "lab/scan_subgroup.wgsl"
    } else {
        "lab/scan.wgsl"
    })
}

/// The compiled entry points of one multi-pass module.
struct MultiPass {
    scan_tile: Kernel,
    reduce_tile: Kernel,
    scan_tile_offset: Kernel,
    add_offsets: Kernel,
    copy: Kernel,
}

impl MultiPass {
    fn new(ctx: &GpuContext, module: &Shader, tuning: &LabTuning) -> Result<MultiPass, LabError> {
        let kernel = |entry| Kernel::new(ctx, module, entry, &[true, false, false], tuning);
        Ok(MultiPass {
            scan_tile: kernel("scan_tile")?,
            reduce_tile: kernel("reduce_tile")?,
            scan_tile_offset: kernel("scan_tile_offset")?,
            add_offsets: kernel("add_offsets")?,
            copy: kernel("copy")?,
        })
    }
}

/// The scratch of a scan of up to `n` values: per level above the data the tiles' totals and
/// their scan, a one-value sink for the top level's total, and the look-back's status words.
pub struct ScanScratch {
    /// `(count, totals, scanned totals)` per level above the data; the last has count 1.
    levels: Vec<(u64, wgpu::Buffer, wgpu::Buffer)>,
    sink: wgpu::Buffer,
    status: wgpu::Buffer,
}

impl ScanScratch {
    /// The look-back's status words (tests).
    pub fn status(&self) -> &wgpu::Buffer {
        &self.status
    }

    /// Scratch for scans of up to `n` (≥ 1) values.
    pub fn new(ctx: &GpuContext, n: u64) -> Result<ScanScratch, LabError> {
        let mut levels = Vec::new();
        let mut count = n.max(1);
        loop {
            count = count.div_ceil(TILE);
            levels.push((
                count,
                storage_buffer(ctx, vec4_bytes(count), "scan totals")?,
                storage_buffer(ctx, vec4_bytes(count), "scan offsets")?,
            ));
            if count <= 1 {
                break;
            }
        }
        // Status words for the smallest single-pass tile (4 rows).
        let tiles = n.max(1).div_ceil(TILE);
        Ok(ScanScratch {
            levels,
            sink: storage_buffer(ctx, 16, "scan sink")?,
            status: storage_buffer(
                ctx,
                u64::from(STATUS_STRIDE) * (tiles + 1) * 4,
                "scan look-back status",
            )?,
        })
    }
}

/// Bytes of a buffer of `n` `u32` values padded to whole `vec4`s (the scan kernels' unit).
pub fn vec4_bytes(n: u64) -> u64 {
    n.max(1).div_ceil(4) * 16
}

/// One dispatch of a scan: kernel, its (src, dst, sums/status) bindings, its parameters and
/// how many workgroups it needs.
pub struct ScanStep<'a> {
    /// The pipeline.
    pub kernel: &'a Kernel,
    /// Bindings 0–2.
    pub buffers: [&'a wgpu::Buffer; 3],
    /// Its parameter block: `[n, tiles, 0, …]`.
    pub params: Params,
    /// Workgroups (to be laid out by `lab::gpu::grid`).
    pub groups: u64,
}

impl<'a> ScanStep<'a> {
    /// Its bind group, its parameters read from a slot of `params`.
    pub fn bind(&self, ctx: &GpuContext, params: &ParamSlots) -> Result<wgpu::BindGroup, LabError> {
        self.kernel.bind(ctx, &self.buffers, params)
    }

    /// Its dispatch with `group` (from [`ScanStep::bind`]) and its slot's `offset`.
    pub fn dispatch(&self, group: &'a wgpu::BindGroup, offset: u32, max_dim: u32) -> Dispatch<'a> {
        Dispatch {
            kernel: self.kernel,
            group,
            offset,
            grid: grid(self.groups, max_dim),
        }
    }
}

fn tiled<'a>(
    kernel: &'a Kernel,
    buffers: [&'a wgpu::Buffer; 3],
    n: u64,
    tile: u64,
) -> ScanStep<'a> {
    let tiles = n.max(1).div_ceil(tile);
    ScanStep {
        kernel,
        buffers,
        params: [n as u32, tiles as u32, 0, 0, 0, 0, 0, 0],
        groups: tiles,
    }
}

/// The scan kernels of one device.
pub struct Scanner {
    tree: MultiPass,
    fast: Option<MultiPass>,
    reset: Kernel,
    single_pass: Kernel,
    /// The single pass's shape (its parameter block carries the rows:
    /// lab/scan_lookback.wgsl).
    single: SinglePass,
    /// Whether `reduce-then-scan` and `decoupled-look-back` use subgroup operations.
    pub subgroups: bool,
}

impl Scanner {
    /// Compile the kernels, with subgroup operations where `ctx` has them.
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<Scanner, LabError> {
        Scanner::with_subgroups(ctx, tuning, true)
    }

    /// [`Scanner::new`], but without subgroup operations unless `subgroups` (the portable
    /// forms, on any device).
    pub fn with_subgroups(
        ctx: &GpuContext,
        tuning: &LabTuning,
        subgroups: bool,
    ) -> Result<Scanner, LabError> {
        Scanner::build(ctx, tuning, subgroups, SinglePass::tuned(ctx, tuning))
    }

    /// [`Scanner::with_subgroups`] with the single pass's shape given (tests of the fallback
    /// and of tile shapes).
    pub fn with_single_pass(
        ctx: &GpuContext,
        tuning: &LabTuning,
        subgroups: bool,
        shape: SinglePass,
    ) -> Result<Scanner, LabError> {
        Scanner::build(ctx, tuning, subgroups, shape)
    }

    /// Compile with subgroup operations where `ctx` has usable ones and `subgroups` allows;
    /// the single pass of shape `shape`.
    fn build(
        ctx: &GpuContext,
        tuning: &LabTuning,
        subgroups: bool,
        shape: SinglePass,
    ) -> Result<Scanner, LabError> {
        // The workgroup scans keep two vec4 subgroup totals a subgroup in 256 entries.
        let (min, max) = (
            ctx.info.subgroup_min_size.max(1),
            ctx.info.subgroup_max_size.max(1),
        );
        let subgroups = subgroups
            && ctx.has_subgroups()
            && shape.threads.is_multiple_of(max)
            && 2 * shape.threads / min <= 256;
        let fast = if subgroups {
            Some(MultiPass::new(ctx, &multi_pass_shader(true), tuning)?)
        } else {
            None
        };
        let single = single_pass_shader(subgroups, shape);
        let entry = if shape.unrolled {
            super::scan_unrolled::ENTRY
        } else {
            "scan_lookback"
        };
        let rw = [true, false, false];
        Ok(Scanner {
            tree: MultiPass::new(ctx, &multi_pass_shader(false), tuning)?,
            fast,
            reset: Kernel::new(ctx, &single, "reset", &rw, tuning)?,
            single_pass: Kernel::new(ctx, &single, entry, &rw, tuning)?,
            single: shape,
            subgroups,
        })
    }

    /// Values a single-pass workgroup scans.
    pub fn single_pass_tile(&self) -> u64 {
        self.single.tile()
    }

    /// The single pass's shape.
    pub fn single_pass(&self) -> SinglePass {
        self.single
    }

    /// Scan level `k`'s totals into its scanned totals (recursively through the levels above).
    fn scan_level<'a>(
        e: &'a MultiPass,
        s: &'a ScanScratch,
        k: usize,
        steps: &mut Vec<ScanStep<'a>>,
    ) {
        let (count, totals, scanned) = &s.levels[k];
        let above = s.levels.get(k + 1);
        let next_totals = above.map_or(&s.sink, |l| &l.1);
        steps.push(tiled(
            &e.scan_tile,
            [totals, scanned, next_totals],
            *count,
            TILE,
        ));
        if let (true, Some((_, _, above_scanned))) = (*count > TILE, above) {
            Self::scan_level(e, s, k + 1, steps);
            let buffers = [totals, scanned, above_scanned];
            steps.push(tiled(&e.add_offsets, buffers, *count, TILE));
        }
    }

    /// Every dispatch of one `form` scan (or `copy`) of the first `n` values of `src` into
    /// `dst`, in order; `scratch` must be for at least `n` values.
    pub fn steps<'a>(
        &'a self,
        form: &str,
        src: &'a wgpu::Buffer,
        dst: &'a wgpu::Buffer,
        n: u64,
        scratch: &'a ScanScratch,
    ) -> Vec<ScanStep<'a>> {
        let (_, totals, scanned) = &scratch.levels[0];
        let data = [src, dst, totals];
        // The naive form keeps the tree; the others use subgroups where there are any.
        let e = match form {
            "reduce-then-scan" => self.fast.as_ref().unwrap_or(&self.tree),
            _ => &self.tree,
        };
        let mut steps = Vec::new();
        match form {
            "copy" => steps.push(tiled(&e.copy, data, n, TILE)),
            "decoupled-look-back" => {
                let status = [src, dst, &scratch.status];
                let tile = self.single.tile();
                let mut reset = tiled(&self.reset, status, n, tile);
                reset.groups = (u64::from(STATUS_STRIDE) * (reset.groups + 1)).div_ceil(256);
                steps.push(reset);
                let mut single = tiled(&self.single_pass, status, n, tile);
                single.params[2] = self.single.rows;
                steps.push(single);
            }
            _ if n <= TILE => steps.push(tiled(&e.scan_tile, data, n, TILE)),
            "reduce-then-scan" => {
                steps.push(tiled(&e.reduce_tile, data, n, TILE));
                Self::scan_level(e, scratch, 0, &mut steps);
                let offsets = [src, dst, scanned];
                steps.push(tiled(&e.scan_tile_offset, offsets, n, TILE));
            }
            _ => {
                steps.push(tiled(&e.scan_tile, data, n, TILE));
                Self::scan_level(e, scratch, 0, &mut steps);
                steps.push(tiled(&e.add_offsets, [src, dst, scanned], n, TILE));
            }
        }
        steps
    }
}
