//! Compute-only GPU time from timestamp queries.
//!
//! A [`PassTimer`] hands out a (begin, end) timestamp pair per compute pass, resolves them
//! at the end of a command encoder and, after the submission completes, sums the pass
//! durations. Wall-clock time includes transfers and driver overhead; this is the kernel time.

use crate::gpu::GpuContext;

/// Pairs of timestamps one timer can hold per submission.
pub const MAX_PASSES: u32 = 2048;

/// Timestamp pairs for compute passes within one submission.
pub struct PassTimer {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
    used: u32,
    period_ns: f64,
    pending: u32,
}

impl PassTimer {
    /// A timer, or `None` when the device has no timestamp queries.
    pub fn new(ctx: &GpuContext) -> Option<PassTimer> {
        if !ctx.has_timestamps() {
            return None;
        }
        let count = MAX_PASSES * 2;
        let bytes = u64::from(count) * 8;
        Some(PassTimer {
            queries: ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("pass timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count,
            }),
            resolve: ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("timestamp resolve"),
                size: bytes,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            readback: ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("timestamp readback"),
                size: bytes,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            used: 0,
            period_ns: f64::from(ctx.queue.get_timestamp_period()),
            pending: 0,
        })
    }

    /// Whether another pass can be timed in the current submission.
    pub fn has_room(&self) -> bool {
        self.used < MAX_PASSES
    }

    /// Timestamp writes for the next compute pass (None once full: that pass goes untimed).
    pub fn next_pass(&mut self) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        if !self.has_room() {
            return None;
        }
        let i = self.used;
        self.used += 1;
        Some(wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(2 * i),
            end_of_pass_write_index: Some(2 * i + 1),
        })
    }

    /// Record the resolve of this submission's timestamps; call once, last in the encoder.
    pub fn resolve(&mut self, encoder: &mut wgpu::CommandEncoder) {
        if self.used == 0 {
            return;
        }
        let n = self.used * 2;
        encoder.resolve_query_set(&self.queries, 0..n, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &self.readback, 0, u64::from(n) * 8);
        self.pending = self.used;
        self.used = 0;
    }

    /// After submission `index` (the one [`PassTimer::resolve`] was recorded into): total
    /// seconds inside the timed passes (0 if none). Waits for that submission only.
    pub fn collect_seconds(
        &mut self,
        ctx: &GpuContext,
        index: wgpu::SubmissionIndex,
    ) -> Result<f64, String> {
        if self.pending == 0 {
            return Ok(0.0);
        }
        let bytes = u64::from(self.pending) * 16;
        let slice = self.readback.slice(0..bytes);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        ctx.wait_for(index)?;
        let total_ticks: u64 = {
            let view = slice.get_mapped_range().map_err(|e| e.to_string())?;
            let stamps: &[u64] = bytemuck::cast_slice(&view);
            stamps
                .chunks_exact(2)
                .map(|p| p[1].saturating_sub(p[0]))
                .sum()
        };
        self.readback.unmap();
        self.pending = 0;
        Ok(total_ticks as f64 * self.period_ns * 1e-9)
    }
}
