//! What gpu-bitpacked computes on the device besides stepping: statistics (read back as a
//! few counters), the screen view (written into the caller's buffer) and edits.

use wgpu::util::DeviceExt;

use super::BitpackedStepper;
use super::ages::{AgeParams, bucket_thresholds};
use crate::stats::Stats;
use crate::step::gpu_common::fold_edits;
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
    pad: [u32; 2],
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
    pad: u32,
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
    pad: [u32; 3],
}

/// Edits per dispatch: 64 threads × the per-dimension workgroup limit.
const EDITS_PER_DISPATCH: usize = 64 * 65_535;

impl BitpackedStepper {
    fn buffer_init(&self, label: &str, bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.session
            .ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage,
            })
    }

    /// Population and age histogram (buckets ≤ 64) reduced on the device.
    pub(super) fn device_stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        let dev = self.dev()?;
        let l = &dev.layout;
        let b = buckets as u32;
        let counters = l.chunks.len() as u64 * u64::from(b + 1) * 4;
        let out = self
            .session
            .ctx
            .device
            .create_buffer(&wgpu::BufferDescriptor {
                label: Some("bitpacked stats out"),
                size: counters,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
        let thresholds = bucket_thresholds(self.generation, buckets);
        let thresholds = self.buffer_init(
            "bitpacked thresholds",
            bytemuck::cast_slice(&thresholds),
            wgpu::BufferUsages::STORAGE,
        );
        let pipeline = &self.pipelines().stats;
        let layout = pipeline.get_bind_group_layout(0);
        let ages = self.epochs.params(self.generation);
        let mut encoder = self.session.encoder();
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
                    pad: [0; 2],
                    ages,
                };
                let params = self.buffer_init(
                    "bitpacked stats params",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                let group = self.session.ctx.bind_buffers(
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
        let readback = self
            .session
            .encode_read_back(&mut encoder, &out, 0, counters);
        self.session.ctx.queue.submit([encoder.finish()]);
        let mut stats = Stats::empty(self.generation, buckets);
        self.session
            .finish_read_back(&[readback], |_, counts| stats.add_counts(counts, buckets))?;
        Ok(stats)
    }

    /// Draw `request` into `out` on the device (see [`view::render_host`]).
    pub(super) fn device_view(
        &mut self,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<(), StepError> {
        if request.pixels() == 0 {
            return Ok(());
        }
        let dev = self.dev()?;
        let l = &dev.layout;
        let storage = wgpu::BufferUsages::STORAGE;
        let columns = request.column_spans(l.width);
        let columns = self.buffer_init("view columns", bytemuck::cast_slice(&columns), storage);
        let rows = request.row_spans(l.height);
        let rows = self.buffer_init("view rows", bytemuck::cast_slice(&rows), storage);
        let pipeline = &self.pipelines().view;
        let layout = pipeline.get_bind_group_layout(0);
        let ages = self.epochs.params(self.generation);
        let mut encoder = self.session.encoder();
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            for (c, &(y0, chunk_rows)) in l.chunks.iter().enumerate() {
                let params = ViewParams {
                    width: l.width,
                    wpr: l.wpr,
                    y0,
                    rows: chunk_rows,
                    width_px: request.width_px,
                    height_px: request.height_px,
                    first: u32::from(c == 0),
                    pad: 0,
                    ages,
                };
                let params = self.buffer_init(
                    "bitpacked view params",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                let group = self.session.ctx.bind_buffers(
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
                );
                pass.set_bind_group(0, &group, &[]);
                pass.dispatch_workgroups(
                    request.width_px.div_ceil(16),
                    request.height_px.div_ceil(16),
                    1,
                );
            }
        }
        self.session.submit_and_wait(encoder)
    }

    /// Paint and erase on the device, with [`crate::world::edit_age`] semantics.
    pub(super) fn device_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        let dev = self.dev()?;
        let l = &dev.layout;
        let mut per_chunk: Vec<Vec<[u32; 4]>> = vec![vec![]; l.chunks.len()];
        for ((x, y), op) in fold_edits(edits, l.width, l.height) {
            let c = l.chunks.partition_point(|&(y0, _)| y0 <= y) - 1;
            per_chunk[c].push([x, y, op, 0]);
        }
        let pipeline = &self.pipelines().edits;
        let layout = pipeline.get_bind_group_layout(0);
        let n_y = self.epochs.young_now(self.generation);
        let mut encoder = self.session.encoder();
        for (c, list) in per_chunk.iter().enumerate() {
            for batch in list.chunks(EDITS_PER_DISPATCH) {
                let params = EditParams {
                    count: batch.len() as u32,
                    wpr: l.wpr,
                    width: l.width,
                    y0: l.chunks[c].0,
                    n_y,
                    pad: [0; 3],
                };
                let params = self.buffer_init(
                    "bitpacked edit params",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                let list = self.buffer_init(
                    "bitpacked edit list",
                    bytemuck::cast_slice(batch),
                    wgpu::BufferUsages::STORAGE,
                );
                let group = self.session.ctx.bind_buffers(
                    "bitpacked edits",
                    &layout,
                    &[
                        &params,
                        &list,
                        &dev.planes[dev.cur],
                        &dev.old,
                        &dev.births[c],
                    ],
                );
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.dispatch_workgroups((batch.len() as u32).div_ceil(64), 1, 1);
            }
        }
        self.session.ctx.queue.submit([encoder.finish()]);
        self.session.wait()?;
        self.session.check_device()
    }
}
