//! What every GPU stepper does around its kernels: one error-scoped operation per call,
//! submissions it waits for itself (never the whole device), kernel time from timestamp
//! queries, submission sizing to about [`GpuContext::submission_target`], pooled read-backs,
//! and counts of the bytes it moves between host and device.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::gpu::GpuContext;
use crate::gpu::timing::{MAX_PASSES, PassTimer};
use crate::step::StepError;
use crate::step::pacing::{Growth, Pacer};

/// Host↔device traffic of a stepper since it was made: what makes the article's transfer
/// strategies what they are, observable (`golab run --json`, tests).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransferCounts {
    /// Bytes written from the host into device buffers (uploads, edit lists, parameters of
    /// queries are not counted: only world state).
    pub up: u64,
    /// Bytes of world state read back to the host.
    pub down: u64,
    /// Submissions made while stepping.
    pub step_submissions: u64,
    /// Host-visible staging or read-back buffers created after the world was loaded.
    pub buffers_created: u64,
}

/// A device plus the per-stepper bookkeeping of its submissions.
pub struct Session {
    /// The device.
    pub ctx: Arc<GpuContext>,
    /// Timestamp pairs of this submission's passes (`None` without timestamp queries).
    pub timer: Option<PassTimer>,
    gpu_seconds: f64,
    /// Sizes submissions to about [`GpuContext::submission_target`] ([`Pacer::gens`]: the
    /// generations the next one should hold).
    pub pacer: Pacer,
    /// Traffic so far.
    pub counts: TransferCounts,
}

/// Run `work` as one GPU operation of this thread: errors it causes come back to it (wgpu
/// error scopes are per thread), and a lost device is reported as [`StepError::DeviceLost`].
pub fn scoped<T>(
    ctx: &GpuContext,
    work: impl FnOnce() -> Result<T, StepError>,
) -> Result<T, StepError> {
    let (result, error) = ctx.scoped(work);
    if let Some(reason) = ctx.lost_reason() {
        return Err(StepError::DeviceLost(reason));
    }
    let value = result?;
    match error {
        Some(error) => Err(StepError::Backend(format!("GPU error: {error}"))),
        None => Ok(value),
    }
}

impl Session {
    /// A session on `ctx`, with a pass timer when the device has timestamps.
    pub fn new(ctx: Arc<GpuContext>) -> Session {
        Session {
            timer: PassTimer::new(&ctx),
            pacer: Pacer::new(
                "submissions",
                ctx.submission_target(),
                Growth::Fit,
                u64::MAX,
            ),
            ctx,
            gpu_seconds: 0.0,
            counts: TransferCounts::default(),
        }
    }

    /// A fresh command encoder.
    pub fn encoder(&self) -> wgpu::CommandEncoder {
        self.ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("golab step"),
            })
    }

    /// Submit `encoder` and return its index (wait with [`Session::wait`]).
    pub fn submit(&self, encoder: wgpu::CommandEncoder) -> wgpu::SubmissionIndex {
        self.ctx.submit([encoder.finish()])
    }

    /// Wait for submission `index` only.
    pub fn wait(&self, index: wgpu::SubmissionIndex) -> Result<(), StepError> {
        self.ctx.wait_for(index).map_err(StepError::DeviceLost)
    }

    /// Submit `encoder` and wait for it.
    pub fn submit_and_wait(&self, encoder: wgpu::CommandEncoder) -> Result<(), StepError> {
        self.wait(self.submit(encoder))
    }

    /// Submit a stepping `encoder` (resolving its timestamps), wait for it and collect its
    /// kernel time, which it returns (`None` without timestamps).
    pub fn submit_steps(
        &mut self,
        mut encoder: wgpu::CommandEncoder,
    ) -> Result<Option<f64>, StepError> {
        if let Some(timer) = self.timer.as_mut() {
            timer.resolve(&mut encoder);
        }
        let index = self.submit(encoder);
        self.counts.step_submissions += 1;
        self.wait(index.clone())?;
        self.collect_gpu_time(index)
    }

    /// Add the timed passes of finished submission `index` to the kernel-time total and
    /// return them (`None` without timestamps).
    pub fn collect_gpu_time(
        &mut self,
        index: wgpu::SubmissionIndex,
    ) -> Result<Option<f64>, StepError> {
        let Some(timer) = self.timer.as_mut() else {
            return Ok(None);
        };
        let seconds = timer
            .collect_seconds(&self.ctx, index)
            .map_err(StepError::DeviceLost)?;
        self.gpu_seconds += seconds;
        Ok(Some(seconds))
    }

    /// Kernel seconds since the last call (`None` without timestamps).
    pub fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.timer.as_ref()?;
        Some(std::mem::take(&mut self.gpu_seconds))
    }

    /// Size the next submission from how long `gens` generations took, at most `most`
    /// ([`Pacer::observe`], against the device's current submission target).
    pub fn adapt_batch(&mut self, gens: u64, took: Duration, kernel: Option<f64>, most: u64) {
        self.pacer.set_budget(self.ctx.submission_target());
        self.pacer.observe(gens, took, kernel, most);
    }

    /// Most generations per submission when every pass holds one generation.
    pub fn one_pass_per_generation() -> u64 {
        u64::from(MAX_PASSES)
    }

    /// Write `bytes` of world state into `buffer` at `offset` (counted as uploaded).
    pub fn upload(&mut self, buffer: &wgpu::Buffer, offset: u64, bytes: &[u8]) {
        self.ctx.queue.write_buffer(buffer, offset, bytes);
        self.counts.up += bytes.len() as u64;
    }

    /// A pooled buffer the host can map, filled with `bytes` bytes of `src` from `offset` by
    /// `encoder`; hand it to [`Session::finish_read_back`].
    pub fn encode_read_back(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        src: &wgpu::Buffer,
        offset: u64,
        bytes: u64,
    ) -> ReadBack {
        let buffer = self.ctx.pool.take(
            &self.ctx.device,
            "readback",
            bytes.max(4),
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        if bytes > 0 {
            encoder.copy_buffer_to_buffer(src, offset, &buffer, 0, bytes);
        }
        ReadBack { buffer, bytes }
    }

    /// Submit `encoder`, then map each read-back and hand its `u32`s to `read`, in order;
    /// the buffers go back to the pool. `world_state` counts the bytes as downloaded.
    pub fn finish_read_back(
        &mut self,
        encoder: wgpu::CommandEncoder,
        targets: Vec<ReadBack>,
        world_state: bool,
        mut read: impl FnMut(usize, &[u32]),
    ) -> Result<(), StepError> {
        let index = self.submit(encoder);
        for target in &targets {
            target
                .buffer
                .slice(..target.bytes.max(4))
                .map_async(wgpu::MapMode::Read, |_| {});
        }
        self.wait(index)?;
        for (i, target) in targets.into_iter().enumerate() {
            {
                let view = target
                    .buffer
                    .slice(..target.bytes.max(4))
                    .get_mapped_range()
                    .map_err(|e| StepError::Backend(format!("mapping a buffer failed: {e}")))?;
                let words: &[u32] = bytemuck::cast_slice(&view);
                read(i, &words[..(target.bytes / 4) as usize]);
            }
            target.buffer.unmap();
            if world_state {
                self.counts.down += target.bytes;
            }
            self.ctx.pool.give(target.buffer);
        }
        Ok(())
    }
}

impl Session {
    /// A pooled storage buffer for a query's scratch output (copyable, clearable); give it
    /// back to `ctx.pool` when the query has been read.
    pub fn scratch(&self, label: &str, bytes: u64) -> wgpu::Buffer {
        self.ctx.pool.take(
            &self.ctx.device,
            label,
            bytes,
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        )
    }

    /// Record one pass of a view `pipeline` over `groups` (one per chunk; 16×16 pixels per
    /// workgroup) after what `encoder` holds, and submit it. The renderer reads the view
    /// later on the same queue, so nothing waits here.
    pub fn submit_view(
        &self,
        mut encoder: wgpu::CommandEncoder,
        pipeline: &wgpu::ComputePipeline,
        groups: &[wgpu::BindGroup],
        request: &crate::step::view::ViewRequest,
    ) {
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            for group in groups {
                pass.set_bind_group(0, group, &[]);
                pass.dispatch_workgroups(
                    request.width_px.div_ceil(16),
                    request.height_px.div_ceil(16),
                    1,
                );
            }
        }
        self.submit(encoder);
    }
}

/// A pending read-back: a pooled host-mappable buffer and how many bytes it will hold.
pub struct ReadBack {
    buffer: wgpu::Buffer,
    bytes: u64,
}
