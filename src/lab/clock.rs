//! Timed, bounded, cancellable submissions of the Lab's dispatches, each in its own error
//! scope and waited for by its own submission index; dispatch grids; the copy-bandwidth
//! roofline and submission sizing.

use std::time::Instant;

use crate::gpu::GpuContext;
use crate::gpu::timing::PassTimer;

use super::gpu::{Kernel, check, scoped};
use super::{LabError, Progress};

/// Split `groups` workgroups into an (x, y) grid within the per-dimension limit; shaders
/// compute `wg.y * num_workgroups.x + wg.x` and ignore groups past the end.
pub fn grid(groups: u64, max_dim: u32) -> (u32, u32) {
    let groups = groups.max(1);
    if groups <= u64::from(max_dim) {
        (groups as u32, 1)
    } else {
        let x = 1u32 << (31 - max_dim.leading_zeros());
        (x, groups.div_ceil(u64::from(x)) as u32)
    }
}

/// Wall time a GPU is kept busy with the measured work before it is timed (at least).
pub const WARM_UP_S: f64 = 0.5;
/// Longest warm-up, even if the runs never agree.
const WARM_UP_LIMIT_S: f64 = 3.0;

/// Run `run` (seconds per run) until the device has settled, and return the last run's time.
/// A GPU that was idle (the Lab validates on the CPU and reads results back between
/// measurements) runs compute-bound kernels several times slower for a while: on the lent
/// H100, repeats of the same sort on the same buffers took 12 to 50 ms. So on a GPU it runs
/// for at least [`WARM_UP_S`] and until two consecutive runs agree within 3 % (at most 3 s);
/// on a CPU device (`gpu` false) once.
pub fn settle(gpu: bool, mut run: impl FnMut() -> Result<f64, LabError>) -> Result<f64, LabError> {
    let start = Instant::now();
    let mut last = run()?;
    if !gpu {
        return Ok(last);
    }
    loop {
        let t = run()?;
        let agree = (t - last).abs() <= 0.03 * t.max(last);
        last = t;
        let spent = start.elapsed().as_secs_f64();
        if (agree && spent >= WARM_UP_S) || spent >= WARM_UP_LIMIT_S {
            return Ok(last);
        }
    }
}

/// The median over `repeats` of `run(batch)` (seconds per run of a batch of `batch`): first
/// single runs warm the device up ([`settle`], on a GPU when `warm`) and size the batch to as
/// many as fit in ~20 ms, at most `most`.
pub fn batched_median(
    repeats: usize,
    most: usize,
    warm: bool,
    mut run: impl FnMut(usize) -> Result<f64, LabError>,
) -> Result<f64, LabError> {
    let one = settle(warm, || run(1))?;
    let batch = ((0.02 / one.max(1e-7)) as usize).clamp(1, most);
    let times = (0..repeats.max(1))
        .map(|_| run(batch))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(crate::bench::median(&times))
}

/// One dispatch: a kernel, its bind group, its parameter slot and grid.
pub struct Dispatch<'a> {
    /// The pipeline.
    pub kernel: &'a Kernel,
    /// Its bind group.
    pub group: &'a wgpu::BindGroup,
    /// Dynamic offset of its parameter slot.
    pub offset: u32,
    /// Workgroups in x and y.
    pub grid: (u32, u32),
}

/// Longest a submission should take: well below any OS GPU watchdog (Windows TDR: 2 s).
pub const SUBMISSION_LIMIT_S: f64 = 0.1;

/// The Lab's own kernel time (timestamps of its own passes) when the device has timestamp
/// queries, else wall clock.
pub struct Clock {
    timer: Option<PassTimer>,
    gpu: bool,
}

impl Clock {
    /// A clock for `ctx`.
    pub fn new(ctx: &GpuContext) -> Clock {
        Clock {
            timer: PassTimer::new(ctx),
            gpu: ctx.info.device_type != wgpu::DeviceType::Cpu,
        }
    }

    /// Whether measurements on this device warm it up first ([`settle`]): not on a CPU
    /// device (lavapipe), whose speed does not ramp.
    pub fn warms_up(&self) -> bool {
        self.gpu
    }

    /// How the report should describe the timing.
    pub fn description(&self) -> String {
        if self.timer.is_some() {
            "timestamp queries (kernel time)".into()
        } else {
            "wall clock (the device has no timestamp queries; includes submission overhead and \
             any GPU work queued ahead of the Lab's)"
                .into()
        }
    }

    /// Run `dispatches` in order, at most `per_submission` in one submission (one compute
    /// pass), each submission in its own error scope, waiting for that submission only (not
    /// for work other threads submitted after it) and checking for cancellation in between. A
    /// submission that takes longer than [`SUBMISSION_LIMIT_S`] shrinks the following ones
    /// towards half of it. Returns the seconds spent (kernel time, or wall time without
    /// timestamps).
    pub fn run(
        &mut self,
        ctx: &GpuContext,
        dispatches: &[Dispatch],
        per_submission: usize,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let start = Instant::now();
        let mut kernel_seconds = 0.0;
        let mut size = per_submission.max(1);
        let mut rest = dispatches;
        while !rest.is_empty() {
            let (batch, later) = rest.split_at(size.min(rest.len()));
            rest = later;
            let submitted = Instant::now();
            progress.check()?;
            let timer = &mut self.timer;
            kernel_seconds += scoped(ctx, || {
                let mut encoder = ctx.device.create_command_encoder(&Default::default());
                {
                    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some("lab"),
                        timestamp_writes: timer.as_mut().and_then(|t| t.next_pass()),
                    });
                    for d in batch {
                        pass.set_pipeline(&d.kernel.pipeline);
                        pass.set_bind_group(0, d.group, &[d.offset]);
                        pass.dispatch_workgroups(d.grid.0, d.grid.1, 1);
                    }
                }
                if let Some(t) = timer.as_mut() {
                    t.resolve(&mut encoder);
                }
                let index = ctx.submit([encoder.finish()]);
                let seconds = match timer.as_mut() {
                    Some(t) => t.collect_seconds(ctx, index),
                    None => ctx.wait_for(index).map(|()| 0.0),
                }
                .map_err(LabError::Gpu)?;
                check(ctx)?;
                Ok(seconds)
            })?;
            let took = submitted.elapsed().as_secs_f64();
            if took > SUBMISSION_LIMIT_S {
                size = ((batch.len() as f64 * SUBMISSION_LIMIT_S / 2.0 / took) as usize).max(1);
            }
        }
        Ok(if self.timer.is_some() {
            kernel_seconds
        } else {
            start.elapsed().as_secs_f64()
        })
    }
}

/// Copy-kernel bandwidth (read + write bytes per second) measured now; small buffers on a
/// CPU device so the measurement stays quick there.
pub fn copy_bandwidth(ctx: &GpuContext) -> Result<f64, LabError> {
    let bytes = if ctx.info.device_type == wgpu::DeviceType::Cpu {
        16 << 20
    } else {
        256 << 20
    };
    let roof = crate::gpu::roofline::measure(ctx, bytes, 3).map_err(LabError::Gpu)?;
    Ok(roof.copy_bytes_per_s)
}

/// How many dispatches of `bytes_each` global traffic fit in ~`budget_s` at `bytes_per_s`.
pub fn per_submission(bytes_each: f64, bytes_per_s: f64, budget_s: f64) -> usize {
    let each = bytes_each / bytes_per_s.max(1.0);
    ((budget_s / each.max(1e-9)) as usize).clamp(1, 512)
}
