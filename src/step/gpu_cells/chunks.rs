//! A world held on the device as u32 cell words (ages, or Generations' age/dying-state words:
//! shaders/life/common.wgsl) in chunk buffers (see [`crate::gpu::limits`]),
//! double-buffered, with the commands that exchange halo rows, step, edit and reduce statistics.

use std::sync::Arc;

use super::kernels::{CellKernels, ChunkParams, Kernel, StatsParams};
use crate::gpu::GpuContext;
use crate::gpu::limits::{CELL_BYTES, ChunkPlan, TILE};
use crate::gpu::timing::PassTimer;
use crate::rule::Rule;
use crate::step::engine::edits::encode_edit_batches;
use crate::step::view::LIVE_BASE;
use crate::world::Topology;

/// Chunk buffers of two generations plus the bind groups that step one into the other.
pub struct ChunkBuffers {
    pub(crate) ctx: Arc<GpuContext>,
    pub(crate) kernels: Arc<CellKernels>,
    pub(crate) plan: ChunkPlan,
    pub(crate) kernel: Kernel,
    pub(crate) topology: Topology,
    /// Generations states C of the rule (2 for two-state rules): how cell words read.
    pub(crate) states: u32,
    /// `bufs[g][chunk]`: generation buffer g (0 or 1) of each chunk.
    pub(crate) bufs: [Vec<wgpu::Buffer>; 2],
    /// `groups[g][chunk]`: reads `bufs[g]`, writes `bufs[1 - g]`.
    groups: [Vec<wgpu::BindGroup>; 2],
    /// Which of the two buffers holds the current generation.
    pub(crate) cur: usize,
    /// Larger than Life's passes (the groups above are empty then).
    ltl: Option<super::ltl::LtlPass>,
}

impl ChunkBuffers {
    /// Allocate zeroed chunk buffers; `mappable` adds host map usages (zero-copy mode).
    /// `first_odd`: the parity of the generation loaded (Larger than Life's B0 emulation
    /// alternates rules). Fails only for a Larger than Life world too large for one buffer.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ctx: Arc<GpuContext>,
        kernels: Arc<CellKernels>,
        plan: ChunkPlan,
        kernel: Kernel,
        rule: Rule,
        topology: Topology,
        mappable: bool,
        first_odd: bool,
    ) -> Result<ChunkBuffers, String> {
        let mut usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        if mappable {
            usage |= wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::MAP_WRITE;
        }
        let make = |g: usize| -> Vec<wgpu::Buffer> {
            (0..plan.chunks.len())
                .map(|i| {
                    ctx.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some(&format!("life chunk {i} gen {g}")),
                        size: plan.chunk_bytes(i),
                        usage,
                        mapped_at_creation: false,
                    })
                })
                .collect()
        };
        let bufs = [make(0), make(1)];
        let states = if rule.has_dying_states() {
            rule.states()
        } else {
            2
        };
        let ltl = match kernel {
            Kernel::Ltl => Some(super::ltl::LtlPass::new(
                &ctx, &bufs, &plan, &rule, topology, first_odd,
            )?),
            _ => None,
        };
        let layout = kernels.step(kernel).map(|p| p.get_bind_group_layout(0));
        let params: Vec<wgpu::Buffer> = plan
            .chunks
            .iter()
            .map(|&(_, rows)| {
                let p = ChunkParams {
                    width: plan.width,
                    rows,
                    pitch: plan.pitch,
                    col0: plan.col0,
                    states: u32::from(states),
                    torus: u32::from(topology == Topology::Torus),
                    wrap_rows: u32::from(topology == Topology::Torus && plan.chunks.len() == 1),
                    run: kernel.rows_per_thread(plan.width, rows),
                    table: rule.table_u32(),
                };
                ctx.buffer_with(
                    "life chunk params",
                    bytemuck::bytes_of(&p),
                    wgpu::BufferUsages::UNIFORM,
                )
            })
            .collect();
        // A rule table's tree: its nodes, then the root's offset and the neighbour count.
        let tree = rule.rule_table().map(|table| {
            let words = table.tree.device_words();
            ctx.buffer_with(
                "rule tree",
                bytemuck::cast_slice(&words),
                wgpu::BufferUsages::STORAGE,
            )
        });
        let group = |from: usize, i: usize| {
            let (src, dst) = (&bufs[from][i], &bufs[1 - from][i]);
            // The column kernel also sees the source as vec4 quads (binding 3), the tree
            // kernel the rule's tree.
            let buffers: &[&wgpu::Buffer] = match (kernel, &tree) {
                (Kernel::Columns, _) => &[&params[i], src, dst, src],
                (Kernel::Tree, Some(tree)) => &[&params[i], src, dst, tree],
                _ => &[&params[i], src, dst],
            };
            layout
                .as_ref()
                .map(|layout| ctx.bind_buffers("life step", layout, buffers))
        };
        let groups = [
            (0..plan.chunks.len()).filter_map(|i| group(0, i)).collect(),
            (0..plan.chunks.len()).filter_map(|i| group(1, i)).collect(),
        ];
        Ok(ChunkBuffers {
            ctx,
            kernels,
            plan,
            kernel,
            topology,
            states: u32::from(states),
            bufs,
            groups,
            cur: 0,
            ltl,
        })
    }

    fn row_bytes(&self) -> u64 {
        u64::from(self.plan.pitch) * CELL_BYTES
    }

    /// Copy each chunk's edge rows into its neighbours' halo rows in the current buffers
    /// (the torus wraps last↔first; a dead border leaves the outer halos at zero).
    /// A single chunk needs no copies: its kernel wraps rows itself (`wrap_rows`).
    pub fn encode_halo_exchange(&self, encoder: &mut wgpu::CommandEncoder) {
        let n = self.plan.chunks.len();
        if n == 1 {
            return;
        }
        let row = self.row_bytes();
        let bufs = &self.bufs[self.cur];
        for i in 0..n {
            let rows = u64::from(self.plan.chunks[i].1);
            let torus = self.topology == Topology::Torus;
            // Halo above chunk i <- last row of chunk i-1.
            if i > 0 || torus {
                let above = (i + n - 1) % n;
                let above_rows = u64::from(self.plan.chunks[above].1);
                encoder.copy_buffer_to_buffer(&bufs[above], above_rows * row, &bufs[i], 0, row);
            }
            // Halo below chunk i <- first row of chunk i+1.
            if i + 1 < n || torus {
                let below = (i + 1) % n;
                encoder.copy_buffer_to_buffer(&bufs[below], row, &bufs[i], (rows + 1) * row, row);
            }
        }
    }

    /// Record one generation of chunks `range` in one compute pass (timed if `timer` has room).
    /// Does not swap: call [`ChunkBuffers::swap`] when the whole generation is recorded.
    pub fn encode_step(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        timer: Option<&mut PassTimer>,
        range: std::ops::Range<usize>,
    ) {
        if let Some(ltl) = &self.ltl {
            ltl.encode(encoder, timer, self.cur);
            return;
        }
        let Some(pipeline) = self.kernels.step(self.kernel) else {
            return;
        };
        let timestamp_writes = timer.and_then(|t| t.next_pass());
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("life step"),
            timestamp_writes,
        });
        pass.set_pipeline(pipeline);
        for i in range {
            pass.set_bind_group(0, &self.groups[self.cur][i], &[]);
            let (x, y) = self
                .kernel
                .workgroups(self.plan.width, self.plan.chunks[i].1);
            pass.dispatch_workgroups(x, y, 1);
        }
    }

    /// Make the buffers just written the current generation.
    pub fn swap(&mut self) {
        self.cur = 1 - self.cur;
    }

    /// Record copies of every chunk's world rows (halo rows excluded) from the current
    /// buffers into `targets` (one per chunk, at offset 0).
    pub fn encode_download(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        targets: &[wgpu::Buffer],
        range: std::ops::Range<usize>,
    ) {
        let row = self.row_bytes();
        for i in range {
            let rows = u64::from(self.plan.chunks[i].1);
            encoder.copy_buffer_to_buffer(&self.bufs[self.cur][i], row, &targets[i], 0, rows * row);
        }
    }

    /// The cells of the buffers were written by a load or an edit, not by a step: state a
    /// step derives from them and carries from generation to generation is made afresh.
    pub fn cells_written(&self) {
        if let Some(ltl) = &self.ltl {
            ltl.cells_written();
        }
    }

    /// Record cell edits: `per_chunk[i]` holds (buffer index, op) pairs for chunk i.
    pub fn encode_edits(&self, encoder: &mut wgpu::CommandEncoder, per_chunk: &[Vec<[u32; 2]>]) {
        self.cells_written();
        let layout = self.kernels.edits.get_bind_group_layout(0);
        let ctx = &self.ctx;
        encode_edit_batches(
            ctx,
            encoder,
            &self.kernels.edits,
            per_chunk,
            |i, count, list| {
                let params = ctx.buffer_with(
                    "edit params",
                    bytemuck::bytes_of(&[count, self.word_base(), 0, 0]),
                    wgpu::BufferUsages::UNIFORM,
                );
                ctx.bind_buffers(
                    "life edits",
                    &layout,
                    &[&params, list, &self.bufs[self.cur][i]],
                )
            },
        );
    }

    /// What a live cell's word adds to its age: [`LIVE_BASE`] under Generations, else 0.
    pub fn word_base(&self) -> u32 {
        if self.states > 2 { LIVE_BASE } else { 0 }
    }

    /// u32 counters [`ChunkBuffers::encode_stats`] writes for `buckets`: `buckets + 1` per
    /// chunk (histogram, population), then one counter per state (states 2 and up used).
    pub fn stats_counters(&self, buckets: u32) -> u64 {
        self.plan.chunks.len() as u64 * u64::from(buckets + 1) + u64::from(self.states)
    }

    /// Record the statistics reduction of the current generation into `out`
    /// ([`ChunkBuffers::stats_counters`] u32 counters, zeroed here first).
    pub fn encode_stats(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        out: &wgpu::Buffer,
        generation: u32,
        buckets: u32,
    ) {
        encoder.clear_buffer(out, 0, None);
        let layout = self.kernels.stats.get_bind_group_layout(0);
        let groups: Vec<wgpu::BindGroup> = self
            .plan
            .chunks
            .iter()
            .enumerate()
            .map(|(i, &(_, rows))| {
                let params = StatsParams {
                    width: self.plan.width,
                    rows,
                    pitch: self.plan.pitch,
                    col0: self.plan.col0,
                    generation: generation.max(1),
                    buckets,
                    out_offset: i as u32 * (buckets + 1),
                    dying_slot: self.plan.chunks.len() as u32 * (buckets + 1),
                    states: self.states,
                    pad: [0; 3],
                };
                let params = self.ctx.buffer_with(
                    "stats params",
                    bytemuck::bytes_of(&params),
                    wgpu::BufferUsages::UNIFORM,
                );
                self.ctx.bind_buffers(
                    "life stats",
                    &layout,
                    &[&params, &self.bufs[self.cur][i], out],
                )
            })
            .collect();
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.kernels.stats);
        for (i, group) in groups.iter().enumerate() {
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(
                self.plan.width.div_ceil(TILE),
                self.plan.chunks[i].1.div_ceil(TILE),
                1,
            );
        }
    }
}
