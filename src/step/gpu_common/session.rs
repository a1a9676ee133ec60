//! What every GPU stepper does around its kernels: command encoders, submission and waiting,
//! capture of device loss and validation errors, kernel time from timestamp queries, sizing
//! submissions to about [`GpuContext::submission_target`], and reading buffers back.

use std::sync::Arc;
use std::time::Duration;

use crate::gpu::GpuContext;
use crate::gpu::timing::{MAX_PASSES, PassTimer};
use crate::step::StepError;

/// A device plus the per-stepper bookkeeping of its submissions.
pub struct Session {
    /// The device.
    pub ctx: Arc<GpuContext>,
    /// Timestamp pairs of this submission's passes (`None` without timestamp queries).
    pub timer: Option<PassTimer>,
    gpu_seconds: f64,
    /// Generations the next submission should hold (adapted to [`GpuContext::submission_target`]).
    pub gens_per_submit: u64,
}

impl Session {
    /// A session on `ctx`, with a pass timer when the device has timestamps.
    pub fn new(ctx: Arc<GpuContext>) -> Session {
        Session {
            timer: PassTimer::new(&ctx),
            ctx,
            gpu_seconds: 0.0,
            gens_per_submit: 1,
        }
    }

    /// Fail with the device's loss reason or its first uncaptured error, if any.
    pub fn check_device(&self) -> Result<(), StepError> {
        if let Some(reason) = self.ctx.lost_reason() {
            return Err(StepError::DeviceLost(reason));
        }
        if let Some(error) = self.ctx.take_error() {
            return Err(StepError::Backend(format!("GPU error: {error}")));
        }
        Ok(())
    }

    /// A fresh command encoder.
    pub fn encoder(&self) -> wgpu::CommandEncoder {
        self.ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("golab step"),
            })
    }

    /// Submit `encoder` (resolving its timestamps), wait for it and collect its kernel time.
    pub fn submit_and_wait(&mut self, mut encoder: wgpu::CommandEncoder) -> Result<(), StepError> {
        if let Some(timer) = self.timer.as_mut() {
            timer.resolve(&mut encoder);
        }
        self.ctx.queue.submit([encoder.finish()]);
        self.wait()?;
        self.collect_gpu_time()?;
        self.check_device()
    }

    /// Wait for all submitted work.
    pub fn wait(&self) -> Result<(), StepError> {
        self.ctx.wait_idle().map_err(StepError::DeviceLost)
    }

    /// Add the timed passes of the finished submission(s) to the kernel-time total.
    pub fn collect_gpu_time(&mut self) -> Result<(), StepError> {
        if let Some(timer) = self.timer.as_mut() {
            self.gpu_seconds += timer
                .collect_seconds(&self.ctx)
                .map_err(StepError::DeviceLost)?;
        }
        Ok(())
    }

    /// Kernel seconds since the last call (`None` without timestamps).
    pub fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.timer.as_ref()?;
        Some(std::mem::take(&mut self.gpu_seconds))
    }

    /// Size the next submission from how long `gens` generations took, at most `most`.
    pub fn adapt_batch(&mut self, gens: u64, took: Duration, most: u64) {
        let per_gen = took.as_secs_f64() / gens.max(1) as f64;
        let target = self.ctx.submission_target().as_secs_f64();
        let fit = (target / per_gen.max(1e-9)) as u64;
        self.gens_per_submit = fit.clamp(1, most.max(1));
    }

    /// Most generations per submission when every pass holds one generation.
    pub fn one_pass_per_generation() -> u64 {
        u64::from(MAX_PASSES)
    }

    /// A buffer the host can map, filled with `bytes` bytes of `src` from `offset` by `encoder`.
    pub fn encode_read_back(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        src: &wgpu::Buffer,
        offset: u64,
        bytes: u64,
    ) -> wgpu::Buffer {
        let target = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if bytes > 0 {
            encoder.copy_buffer_to_buffer(src, offset, &target, 0, bytes);
        }
        target
    }

    /// After the readbacks' submission: map each and hand its `u32`s to `read`, in order.
    pub fn finish_read_back(
        &self,
        targets: &[wgpu::Buffer],
        mut read: impl FnMut(usize, &[u32]),
    ) -> Result<(), StepError> {
        for target in targets {
            target.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
        self.wait()?;
        for (i, target) in targets.iter().enumerate() {
            {
                let view = target
                    .slice(..)
                    .get_mapped_range()
                    .map_err(|e| StepError::Backend(format!("mapping a buffer failed: {e}")))?;
                read(i, bytemuck::cast_slice(&view));
            }
            target.unmap();
        }
        self.check_device()
    }
}
