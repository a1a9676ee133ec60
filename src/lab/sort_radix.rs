//! The GPU baseline a user would pick instead of a bitonic network: an LSD radix sort of
//! the same key + index pairs (4-bit digits, 8 passes of histogram, scan and scatter).

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

use super::gpu::{Clock, Dispatch, Kernel, ParamSlots, Params, grid, storage_buffer};
use super::sort::{Pair, sorted_on_device};
use super::{LabError, Progress};

/// Pairs per workgroup tile of the histogram and scatter kernels.
const TILE: u32 = 4096;
/// Digit passes over the 32-bit keys.
pub const PASSES: u32 = 8;

/// The compiled radix kernels.
pub struct RadixSorter {
    histogram: Kernel,
    scan: Kernel,
    scatter: Kernel,
}

/// The radix kernels' module (histogram, scan and scatter entry points; one permutation).
pub fn shader() -> Shader {
    Shader::new("lab/sort_radix.wgsl")
}

impl RadixSorter {
    /// Compile the three kernels on `ctx`.
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<RadixSorter, LabError> {
        let kernel =
            |entry: &str| Kernel::new(ctx, &shader(), entry, &[true, false, false], tuning);
        Ok(RadixSorter {
            histogram: kernel("histogram")?,
            scan: kernel("scan")?,
            scatter: kernel("scatter")?,
        })
    }

    /// Buffers for `n` pairs besides the data: (the ping-pong buffer, the digit counts).
    pub fn scratch(ctx: &GpuContext, n: u32) -> Result<(wgpu::Buffer, wgpu::Buffer), LabError> {
        let tiles = u64::from(n.div_ceil(TILE));
        Ok((
            storage_buffer(ctx, u64::from(n) * 8, "radix ping-pong")?,
            storage_buffer(ctx, 16 * tiles * 4, "radix counts")?,
        ))
    }

    /// Sort the first `n` pairs of `data` in place (`spare`, `counts` from [`RadixSorter::scratch`]).
    #[allow(clippy::too_many_arguments)]
    pub fn sort(
        &self,
        ctx: &GpuContext,
        (data, spare, counts): (&wgpu::Buffer, &wgpu::Buffer, &wgpu::Buffer),
        n: u32,
        descending: bool,
        clock: &mut Clock,
        per_submission: usize,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let tiles = n.div_ceil(TILE).max(1);
        let slots: Vec<Params> = (0..PASSES)
            .map(|p| [4 * p, n, tiles, u32::from(descending), 0, 0, 0, 0])
            .collect();
        let params = ParamSlots::new(ctx, &slots);
        let forward = [data, spare, counts];
        let back = [spare, data, counts];
        let bound = |k: &Kernel| -> Result<[wgpu::BindGroup; 2], LabError> {
            Ok([
                k.bind(ctx, &forward, &params)?,
                k.bind(ctx, &back, &params)?,
            ])
        };
        let (hist_groups, scan_groups, scatter_groups) = (
            bound(&self.histogram)?,
            bound(&self.scan)?,
            bound(&self.scatter)?,
        );
        let g = grid(
            u64::from(tiles),
            ctx.limits.max_compute_workgroups_per_dimension,
        );
        let mut dispatches = Vec::new();
        for p in 0..PASSES as usize {
            let offset = params.offset(p);
            dispatches.push(Dispatch {
                kernel: &self.histogram,
                group: &hist_groups[p % 2],
                offset,
                grid: g,
            });
            dispatches.push(Dispatch {
                kernel: &self.scan,
                group: &scan_groups[p % 2],
                offset,
                grid: (1, 1),
            });
            dispatches.push(Dispatch {
                kernel: &self.scatter,
                group: &scatter_groups[p % 2],
                offset,
                grid: g,
            });
        }
        clock.run(ctx, &dispatches, per_submission.max(3) / 3 * 3, progress)
    }

    /// `input` sorted on the GPU (tests and one-off use).
    pub fn sort_pairs(
        &self,
        ctx: &GpuContext,
        input: &[Pair],
        descending: bool,
    ) -> Result<Vec<Pair>, LabError> {
        sorted_on_device(ctx, input, |data, n, clock, progress| {
            let (spare, counts) = Self::scratch(ctx, n)?;
            self.sort(
                ctx,
                (data, &spare, &counts),
                n,
                descending,
                clock,
                24,
                progress,
            )
        })
    }
}
