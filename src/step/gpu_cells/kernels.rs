//! Compute pipelines of the u32-age kernels (shaders/life/), built once per device and
//! shared through [`GpuContext::resource`].

use crate::gpu::GpuContext;
use crate::gpu::limits::TILE;
use crate::gpu::shader::Shader;

/// Threads per workgroup of the column kernel (`@workgroup_size` in columns.wgsl); each owns 4 columns.
pub const COLUMN_GROUP: u32 = 128;
/// Most rows a column-kernel thread walks.
pub const COLUMN_RUN: u32 = 32;
/// Column-kernel threads wanted before threads walk more than one row (fills a big GPU).
const COLUMN_THREADS: u64 = 1 << 16;

/// Which stepping kernel a GPU strategy runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// Bounds checks per neighbour column (shaders/life/naive.wgsl).
    Naive,
    /// Host-filled padding, no checks (shaders/life/padded.wgsl).
    Padded,
    /// Workgroup-memory tile (shaders/life/shared.wgsl).
    Shared,
    /// Column runs with a register window (shaders/life/columns.wgsl).
    Columns,
    /// A rule table's compiled tree walked per cell, one column run per thread
    /// (shaders/life/tree.wgsl): what every strategy of this family runs when the rule is
    /// a rule table.
    Tree,
    /// Larger than Life's two passes (row sums, then counts: [`super::ltl`]), on
    /// gpu-resident.
    Ltl,
}

/// Workgroups per dispatch dimension every WebGPU device allows (wgpu's default limit).
pub const MAX_GROUPS_PER_DIMENSION: u32 = 65_535;

impl Kernel {
    /// Whether the kernel's layout has a column halo (the padded layout).
    pub fn column_halo(self) -> bool {
        self == Kernel::Padded
    }

    /// Row pitch alignment in cells (the column kernel reads rows as vec4 quads).
    pub fn pitch_align(self) -> u32 {
        if self == Kernel::Columns { 4 } else { 1 }
    }

    /// Rows one thread walks in a chunk of `width × rows` (column kernel): up to
    /// [`COLUMN_RUN`], fewer on small worlds so that enough threads exist, but never so few
    /// that a tall, narrow chunk needs more than [`MAX_GROUPS_PER_DIMENSION`] workgroup rows.
    pub fn rows_per_thread(self, width: u32, rows: u32) -> u32 {
        let columns_per_thread = match self {
            Kernel::Columns => 4,
            Kernel::Tree => 1,
            _ => return 0,
        };
        let threads = u64::from(width.div_ceil(columns_per_thread)) * u64::from(rows);
        let fill = (threads / COLUMN_THREADS).clamp(1, u64::from(COLUMN_RUN)) as u32;
        fill.max(rows.div_ceil(MAX_GROUPS_PER_DIMENSION))
    }

    /// Workgroups to dispatch for a chunk of `width × rows` cells.
    pub fn workgroups(self, width: u32, rows: u32) -> (u32, u32) {
        match self {
            Kernel::Columns => (
                width.div_ceil(4 * COLUMN_GROUP),
                rows.div_ceil(self.rows_per_thread(width, rows)),
            ),
            Kernel::Tree => (
                width.div_ceil(COLUMN_GROUP),
                rows.div_ceil(self.rows_per_thread(width, rows)),
            ),
            _ => (width.div_ceil(TILE), rows.div_ceil(TILE)),
        }
    }
}

/// Parameters of one chunk, mirrored by `Params` in shaders/life/common.wgsl.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ChunkParams {
    /// World width.
    pub width: u32,
    /// Rows in the chunk.
    pub rows: u32,
    /// u32s per buffer row.
    pub pitch: u32,
    /// Index of world column 0 in a buffer row.
    pub col0: u32,
    /// Generations states C of the rule (2 for two-state rules): how cell words read.
    pub states: u32,
    /// 1 = torus.
    pub torus: u32,
    /// 1 = single-chunk torus: the kernel wraps rows itself instead of reading halo rows.
    pub wrap_rows: u32,
    /// Rows each column-kernel thread walks ([`Kernel::rows_per_thread`]).
    pub run: u32,
    /// The rule's 512-entry table ([`crate::rule::Rule::table_u32`]).
    pub table: [u32; 16],
}

/// Parameters of a statistics dispatch, mirrored by `StatsParams` in stats.wgsl.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct StatsParams {
    /// World width.
    pub width: u32,
    /// Rows in the chunk.
    pub rows: u32,
    /// u32s per buffer row.
    pub pitch: u32,
    /// Index of world column 0 in a buffer row.
    pub col0: u32,
    /// Generation (≥ 1).
    pub generation: u32,
    /// Histogram buckets (≤ 64).
    pub buckets: u32,
    /// First output slot of this chunk.
    pub out_offset: u32,
    /// The output slot every chunk adds its dying cells to.
    pub dying_slot: u32,
    /// Generations states C (2 for two-state rules).
    pub states: u32,
    /// Padding to 48 bytes.
    pub pad: [u32; 3],
}

/// Parameters of a view dispatch over one chunk, mirrored by `ViewParams` in view.wgsl.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ViewParams {
    /// Output width in pixels.
    pub width_px: u32,
    /// Output height in pixels.
    pub height_px: u32,
    /// First world row of the chunk.
    pub row0: u32,
    /// Rows in the chunk.
    pub rows: u32,
    /// u32s per buffer row.
    pub pitch: u32,
    /// Index of world column 0 in a buffer row.
    pub col0: u32,
    /// 1 when cell words are already view values (Generations), 0 when they are ages.
    pub generations: u32,
    /// Padding to 32 bytes.
    pub pad: u32,
}

/// Every pipeline of the u32-age GPU strategies.
pub struct CellKernels {
    /// gpu-naive.
    pub naive: wgpu::ComputePipeline,
    /// gpu-padded.
    pub padded: wgpu::ComputePipeline,
    /// gpu-shared, gpu-streamed, gpu-no-upload, gpu-readback-skip.
    pub shared: wgpu::ComputePipeline,
    /// gpu-resident.
    pub columns: wgpu::ComputePipeline,
    /// Rule tables, on every strategy of the family.
    pub tree: wgpu::ComputePipeline,
    /// Cell edits on device-resident worlds.
    pub edits: wgpu::ComputePipeline,
    /// Population and age histogram.
    pub stats: wgpu::ComputePipeline,
    /// Screen-resolution view of the world (largest age per pixel).
    pub view: wgpu::ComputePipeline,
}

/// The modules behind [`CellKernels`], in field order: the five step kernels (each includes
/// shaders/life/common.wgsl), edits, statistics, view.
pub fn shaders() -> [Shader; 8] {
    [
        "life/naive.wgsl",
        "life/padded.wgsl",
        "life/shared.wgsl",
        "life/columns.wgsl",
        "life/tree.wgsl",
        "life/edits.wgsl",
        "life/stats.wgsl",
        "life/view.wgsl",
    ]
    .map(Shader::new)
}

impl CellKernels {
    /// The device's kernels, compiled the first time any stepper asks.
    pub fn on(ctx: &GpuContext) -> std::sync::Arc<CellKernels> {
        ctx.resource(CellKernels::new)
    }

    /// Compile every pipeline on `ctx`.
    fn new(ctx: &GpuContext) -> CellKernels {
        let [naive, padded, shared, columns, tree, edits, stats, view] =
            shaders().map(|shader| ctx.compute_pipeline(&shader, None, true));
        CellKernels {
            naive,
            padded,
            shared,
            columns,
            tree,
            edits,
            stats,
            view,
        }
    }

    /// The stepping pipeline of `kernel` (`None` for Larger than Life, whose two passes
    /// live in [`super::ltl::LtlPass`]).
    pub fn step(&self, kernel: Kernel) -> Option<&wgpu::ComputePipeline> {
        match kernel {
            Kernel::Naive => Some(&self.naive),
            Kernel::Padded => Some(&self.padded),
            Kernel::Shared => Some(&self.shared),
            Kernel::Columns => Some(&self.columns),
            Kernel::Tree => Some(&self.tree),
            Kernel::Ltl => None,
        }
    }
}
