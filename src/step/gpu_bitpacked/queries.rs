//! What gpu-bitpacked computes on the device besides stepping: statistics (read back as a
//! few counters), the screen view (written into the caller's buffer) and edits.

use super::ages::{AgeParams, bucket_thresholds};
use super::replay::Repeats;
use super::{BitState, Pipelines};
use crate::stats::Stats;
use crate::step::engine::Session;
use crate::step::engine::edits::{encode_edit_batches, fold_edits};
use crate::step::{StepError, view};
use crate::world::CellEdit;

/// `StatsParams` in bitpacked_stats.wgsl.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct StatsParams {
    width: u32,
    wpr: u32,
    y0: u32,
    rows: u32,
    buckets: u32,
    out_offset: u32,
    dying: u32,
    plane_words: u32,
    dying_slot: u32,
    pad: [u32; 3],
    ages: AgeParams,
}

/// `ViewParams` in bitpacked_view.wgsl.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ViewParams {
    width: u32,
    wpr: u32,
    y0: u32,
    rows: u32,
    width_px: u32,
    height_px: u32,
    first: u32,
    dying: u32,
    states: u32,
    plane_words: u32,
    pad: [u32; 2],
    ages: AgeParams,
}

/// `EditParams` in bitpacked_edits.wgsl.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct EditParams {
    count: u32,
    wpr: u32,
    width: u32,
    y0: u32,
    n_y: u32,
    dying: u32,
    plane_words: u32,
    pad: u32,
}

impl BitState {
    /// Population, dying cells and age histogram (buckets ≤ 64) reduced on the device.
    pub(super) fn device_stats(
        &mut self,
        session: &mut Session,
        generation: u64,
        buckets: usize,
    ) -> Result<Stats, StepError> {
        let dev = &self.dev;
        let l = &dev.layout;
        let b = buckets as u32;
        // Each chunk's buckets and population, then one dying-cell total.
        let counters = (l.chunks.len() as u64 * u64::from(b + 1) + 1) * 4;
        let ctx = session.ctx.clone();
        let out = session.scratch("bitpacked stats out", counters);
        let thresholds = bucket_thresholds(generation, buckets);
        let thresholds = session.ctx.buffer_with(
            "bitpacked thresholds",
            bytemuck::cast_slice(&thresholds),
            wgpu::BufferUsages::STORAGE,
        );
        let pipelines = Pipelines::on(&ctx);
        let pipeline = &pipelines.stats;
        let layout = pipeline.get_bind_group_layout(0);
        let ages = self.epochs.params(generation);
        let mut encoder = session.encoder();
        encoder.clear_buffer(&out, 0, None);
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            for (c, &(y0, rows)) in l.chunks.iter().enumerate() {
                let params = StatsParams {
                    width: l.width,
                    wpr: l.wpr,
                    y0,
                    rows,
                    buckets: b,
                    out_offset: c as u32 * (b + 1),
                    dying: l.dying,
                    plane_words: l.wpr * l.height,
                    dying_slot: l.chunks.len() as u32 * (b + 1),
                    pad: [0; 3],
                    ages,
                };
                let params = session.ctx.buffer_with(
                    "bitpacked stats params",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                let group = ctx.bind_buffers(
                    "bitpacked stats",
                    &layout,
                    &[
                        &params,
                        &dev.planes[dev.cur],
                        &dev.old,
                        &dev.births[c],
                        &thresholds,
                        &out,
                    ],
                );
                pass.set_bind_group(0, &group, &[]);
                pass.dispatch_workgroups(l.wpr.div_ceil(64), rows.div_ceil(4), 1);
            }
        }
        let readback = session.encode_read_back(&mut encoder, &out, 0, counters);
        let mut stats = Stats::empty(generation, buckets);
        session.finish_read_back(encoder, vec![readback], false, |_, counts| {
            // Per chunk the buckets and population, then one dying-cell total.
            let (chunks, dying) = counts.split_at(counts.len() - 1);
            stats.add_counts(chunks, buckets);
            stats.dying += u64::from(dying[0]);
        })?;
        ctx.pool.give(out);
        Ok(stats)
    }

    /// Draw `request` into `out` on the device (see [`view::render_host`]).
    pub(super) fn device_view(
        &mut self,
        session: &mut Session,
        generation: u64,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<(), StepError> {
        if request.pixels() == 0 {
            return Ok(());
        }
        let dev = &self.dev;
        let l = &dev.layout;
        let storage = wgpu::BufferUsages::STORAGE;
        let columns = request.column_spans(l.width);
        let columns =
            session
                .ctx
                .buffer_with("view columns", bytemuck::cast_slice(&columns), storage);
        let rows = request.row_spans(l.height);
        let rows = session
            .ctx
            .buffer_with("view rows", bytemuck::cast_slice(&rows), storage);
        let pipelines = Pipelines::on(&session.ctx);
        let pipeline = &pipelines.view;
        let layout = pipeline.get_bind_group_layout(0);
        let ages = self.epochs.params(generation);
        let groups: Vec<wgpu::BindGroup> = l
            .chunks
            .iter()
            .enumerate()
            .map(|(c, &(y0, chunk_rows))| {
                let params = ViewParams {
                    width: l.width,
                    wpr: l.wpr,
                    y0,
                    rows: chunk_rows,
                    width_px: request.width_px,
                    height_px: request.height_px,
                    first: u32::from(c == 0),
                    dying: l.dying,
                    states: u32::from(self.states),
                    plane_words: l.wpr * l.height,
                    pad: [0; 2],
                    ages,
                };
                let params = session.ctx.buffer_with(
                    "bitpacked view params",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                session.ctx.bind_buffers(
                    "bitpacked view",
                    &layout,
                    &[
                        &params,
                        &dev.planes[dev.cur],
                        &dev.old,
                        &dev.births[c],
                        &columns,
                        &rows,
                        out,
                    ],
                )
            })
            .collect();
        session.submit_view(session.encoder(), pipeline, &groups, request);
        Ok(())
    }

    /// Paint and erase on the device, with [`crate::world::edit_age`] semantics.
    pub(super) fn device_edits(
        &mut self,
        session: &mut Session,
        generation: u64,
        edits: &[CellEdit],
    ) -> Result<(), StepError> {
        let dev = &self.dev;
        let l = &dev.layout;
        let mut per_chunk: Vec<Vec<[u32; 4]>> = vec![vec![]; l.chunks.len()];
        for ((x, y), op) in fold_edits(edits, l.width, l.height) {
            let c = l.chunks.partition_point(|&(y0, _)| y0 <= y) - 1;
            per_chunk[c].push([x, y, op, 0]);
        }
        let pipelines = Pipelines::on(&session.ctx);
        let pipeline = &pipelines.edits;
        let layout = pipeline.get_bind_group_layout(0);
        let n_y = self.epochs.young_now(generation);
        let mut encoder = session.encoder();
        let ctx = &session.ctx;
        encode_edit_batches(ctx, &mut encoder, pipeline, &per_chunk, |c, count, list| {
            let params = EditParams {
                count,
                wpr: l.wpr,
                width: l.width,
                y0: l.chunks[c].0,
                n_y,
                dying: l.dying,
                plane_words: l.wpr * l.height,
                pad: 0,
            };
            let params = ctx.buffer_with(
                "bitpacked edit params",
                bytemuck::bytes_of(&params),
                wgpu::BufferUsages::UNIFORM,
            );
            ctx.bind_buffers(
                "bitpacked edits",
                &layout,
                &[
                    &params,
                    list,
                    &dev.planes[dev.cur],
                    &dev.old,
                    &dev.births[c],
                ],
            )
        });
        self.dev.repeats.stamp.invalidate();
        session.submit_and_wait(encoder)
    }

    /// `(replayed, stepped)` strips since the last call, counters cleared; `None` when the
    /// world does not replay.
    pub(super) fn device_replayed(
        &mut self,
        session: &mut Session,
    ) -> Result<Option<(u64, u64)>, StepError> {
        let repeats = &self.dev.repeats;
        if !repeats.on {
            return Ok(None);
        }
        let mut encoder = session.encoder();
        let target =
            session.encode_read_back(&mut encoder, &repeats.counts, 0, Repeats::count_bytes());
        encoder.clear_buffer(&repeats.counts, 0, Some(Repeats::count_bytes()));
        let mut tally = (0, 0);
        session.finish_read_back(encoder, vec![target], false, |_, words| {
            tally = Repeats::tally(words);
        })?;
        Ok(Some(tally))
    }
}
