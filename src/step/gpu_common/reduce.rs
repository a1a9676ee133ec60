//! What the GPU engine computes on the device besides stepping: the statistics reduction
//! (read back as a few counters, never the world) and the folding of edit batches.

use std::collections::HashMap;

use super::GpuStepper;
use crate::stats::Stats;
use crate::step::{StepError, not_loaded};
use crate::world::CellEdit;

impl GpuStepper {
    /// Population and age histogram reduced on the device (buckets ≤ 64, generation ≤ u32::MAX).
    pub(super) fn gpu_stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        let generation = self.host.generation;
        let dev = self.dev.as_ref().ok_or_else(not_loaded)?;
        let chunks = dev.plan.chunks.len();
        let b = buckets as u32;
        let bytes = (chunks as u64) * u64::from(b + 1) * 4;
        let out = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stats out"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.session.encoder();
        dev.encode_stats(&mut encoder, &out, generation as u32, b);
        let readback = self.session.encode_read_back(&mut encoder, &out, 0, bytes);
        self.ctx.queue.submit([encoder.finish()]);
        let mut stats = Stats::empty(generation, buckets);
        self.session.finish_read_back(&[readback], |_, counts| {
            stats.add_counts(counts, buckets);
        })?;
        Ok(stats)
    }
}

/// Fold a batch of edits into one operation per cell with the same result as applying them
/// in order through [`crate::world::edit_age`]: 0 erase, 1 paint keeping age, 2 newborn.
pub fn fold_edits(edits: &[CellEdit], width: u32, height: u32) -> HashMap<(u32, u32), u32> {
    let mut ops: HashMap<(u32, u32), u32> = HashMap::new();
    for e in edits.iter().filter(|e| e.x < width && e.y < height) {
        let op = match (e.alive, ops.get(&(e.x, e.y))) {
            (false, _) => 0,
            (true, None) => 1,
            (true, Some(0)) => 2,
            (true, Some(&previous)) => previous,
        };
        ops.insert((e.x, e.y), op);
    }
    ops
}
