//! What [`CellState`] computes on the device besides stepping: the statistics reduction (read
//! back as a few counters, never the world), the screen view and edits.

use super::CellState;
use super::kernels::ViewParams;
use crate::stats::Stats;
use crate::step::StepError;
use crate::step::engine::Session;
use crate::step::engine::edits::fold_edits;
use crate::step::view::ViewRequest;
use crate::world::CellEdit;

/// Every pixel's half-open cell span: columns first, then rows (what view.wgsl reads).
fn pixel_spans(request: &ViewRequest, width: u32, height: u32) -> Vec<[u32; 2]> {
    let mut spans = request.column_spans(width);
    spans.extend(request.row_spans(height));
    spans
}

impl CellState {
    /// Population, cells per state and age histogram reduced on the device (buckets ≤ 64,
    /// generation ≤ u32::MAX).
    pub(super) fn device_stats(
        &mut self,
        session: &mut Session,
        generation: u64,
        buckets: usize,
    ) -> Result<Stats, StepError> {
        let dev = &self.dev;
        let b = buckets as u32;
        let bytes = dev.stats_counters(b) * 4;
        let out = session.scratch("stats out", bytes);
        let mut encoder = session.encoder();
        dev.encode_stats(&mut encoder, &out, generation as u32, b);
        let readback = session.encode_read_back(&mut encoder, &out, 0, bytes);
        let mut stats = Stats::empty(generation, buckets);
        session.finish_read_back(encoder, vec![readback], false, |_, counts| {
            stats.add_device_counts(counts, buckets, dev.states as usize)
        })?;
        session.ctx.pool.give(out);
        Ok(stats)
    }

    /// Encode and submit the view of the device world into `out` (one submission, so a
    /// renderer reading `out` on the same queue never sees half of it).
    pub(super) fn device_view(
        &mut self,
        session: &mut Session,
        request: &ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<(), StepError> {
        let dev = &self.dev;
        let ctx = &session.ctx;
        let spans = pixel_spans(request, dev.plan.width, dev.plan.height);
        let spans = ctx.buffer_with(
            "view spans",
            bytemuck::cast_slice(&spans),
            wgpu::BufferUsages::STORAGE,
        );
        let pipeline = &dev.kernels.view;
        let layout = pipeline.get_bind_group_layout(0);
        let groups: Vec<wgpu::BindGroup> = dev
            .plan
            .chunks
            .iter()
            .enumerate()
            .map(|(i, &(row0, rows))| {
                let params = ViewParams {
                    width_px: request.width_px,
                    height_px: request.height_px,
                    row0,
                    rows,
                    pitch: dev.plan.pitch,
                    col0: dev.plan.col0,
                    generations: u32::from(dev.states > 2),
                    pad: 0,
                };
                let params = ctx.buffer_with(
                    "view params",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                session.ctx.bind_buffers(
                    "life view",
                    &layout,
                    &[&params, &spans, &dev.bufs[dev.cur][i], out],
                )
            })
            .collect();
        let mut encoder = session.encoder();
        encoder.clear_buffer(out, 0, None);
        session.submit_view(encoder, pipeline, &groups, request);
        Ok(())
    }

    /// Paint and erase on the device with [`crate::world::edit_age`] semantics.
    pub(super) fn device_edits(
        &mut self,
        session: &mut Session,
        edits: &[CellEdit],
    ) -> Result<(), StepError> {
        let plan = &self.dev.plan;
        let mut per_chunk: Vec<Vec<[u32; 2]>> = vec![vec![]; plan.chunks.len()];
        for ((x, y), op) in fold_edits(edits, plan.width, plan.height) {
            let i = plan.chunks.partition_point(|&(y0, _)| y0 <= y) - 1;
            let row = y - plan.chunks[i].0 + 1;
            per_chunk[i].push([row * plan.pitch + plan.col0 + x, op]);
        }
        let mut encoder = session.encoder();
        self.dev.encode_edits(&mut encoder, &per_chunk);
        session.submit_and_wait(encoder)
    }
}
