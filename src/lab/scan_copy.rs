//! The scan experiment's copy baselines beside the scan's own tiled `copy` (four `vec4` rows a
//! thread, the multi-pass tile's access pattern): `copy-vec4`, the roofline kernel (one `vec4`
//! a thread, `shaders/gpu/roofline.wgsl`) on the scan's buffers, and `copy-buffer`,
//! `copy_buffer_to_buffer`. A scan's "% of copy" is against the fastest of the three at its
//! size, measured in the same run.

use std::time::Instant;

use crate::config::LabTuning;
use crate::gpu::GpuContext;

use super::gpu::{Clock, Dispatch, Kernel, ParamSlots, check, grid, scoped};
use super::{LabError, Progress};

/// The scan's own copy variant (its tile's access pattern).
pub const COPY: &str = "copy";
/// The roofline copy kernel on the scan's buffers.
pub const COPY_VEC4: &str = "copy-vec4";
/// `copy_buffer_to_buffer`.
pub const COPY_BUFFER: &str = "copy-buffer";
/// Every copy baseline, the scan's own first.
pub const COPIES: [&str; 3] = [COPY, COPY_VEC4, COPY_BUFFER];

/// The compiled roofline kernel (`copy-buffer` needs none).
pub struct CopyBaselines {
    vec4: Kernel,
}

impl CopyBaselines {
    /// Compile the roofline kernel with the Lab's parameter binding (which it ignores).
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<CopyBaselines, LabError> {
        let shader = crate::gpu::roofline::shader();
        Ok(CopyBaselines {
            vec4: Kernel::new(ctx, &shader, "main", &[true, false], tuning)?,
        })
    }

    /// Seconds one copy of all of `src` into `dst` (equal sizes, a multiple of 16 bytes) by
    /// `variant` ([`COPY_VEC4`] or [`COPY_BUFFER`]) takes, from `times` copies in a row: the
    /// kernel timed by `clock` as every Lab kernel is; `copy_buffer_to_buffer`, which is no
    /// compute pass, by the wall clock around one submission of all of them.
    #[allow(clippy::too_many_arguments)]
    pub fn time(
        &self,
        ctx: &GpuContext,
        variant: &str,
        src: &wgpu::Buffer,
        dst: &wgpu::Buffer,
        times: usize,
        clock: &mut Clock,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let times = times.max(1);
        let bytes = src.size().min(dst.size());
        if variant == COPY_BUFFER {
            progress.check()?;
            return scoped(ctx, || {
                let mut encoder = ctx.device.create_command_encoder(&Default::default());
                for _ in 0..times {
                    encoder.copy_buffer_to_buffer(src, 0, dst, 0, bytes);
                }
                let start = Instant::now();
                let index = ctx.submit([encoder.finish()]);
                ctx.wait_for(index).map_err(LabError::Gpu)?;
                check(ctx)?;
                Ok(start.elapsed().as_secs_f64() / times as f64)
            });
        }
        assert_eq!(variant, COPY_VEC4, "a copy baseline");
        let params = ParamSlots::new(ctx, &[[0; 8]]);
        let group = self.vec4.bind(ctx, &[src, dst], &params)?;
        let max_dim = ctx.limits.max_compute_workgroups_per_dimension;
        let groups = grid((bytes / 16).div_ceil(256), max_dim);
        let dispatches: Vec<Dispatch> = (0..times)
            .map(|_| Dispatch {
                kernel: &self.vec4,
                group: &group,
                offset: params.offset(0),
                grid: groups,
            })
            .collect();
        Ok(clock.run(ctx, &dispatches, dispatches.len(), progress)? / times as f64)
    }
}
