//! gpu-bitpacked's device state: two state buffers (ping-pong: a live bit plane and, under
//! Generations rules, the dying countdown planes), the old plane, the birth
//! codes cut into row chunks that each fit one storage binding with their epoch records,
//! and the recording of the multi-generation step and the folds of its records.

use std::sync::Arc;

use crate::gpu::GpuContext;
use crate::gpu::limits::{max_chunk_bytes, plan_chunks};
use crate::gpu::timing::PassTimer;
use crate::rule::Rule;
use crate::world::Topology;

use super::kernel::StepKernel;
use super::pipelines::{PARAM_SLOT, Pipelines, Variant};
use super::records::{Op, plan_ops};
use super::replay::Repeats;
use super::tuner::Shape;
use super::walks::Walks;

/// Most multi-generation dispatches one submission records (the parameter ring holds them
/// and a fold before each, plus one at the end: see [`super::records::plan_ops`]).
pub const MAX_BLOCKS: u64 = 1024;

/// Sizes of a world on the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// World width in cells.
    pub width: u32,
    /// World height in cells.
    pub height: u32,
    /// `u32` words per row of a bit plane (`ceil(width / 32)`).
    pub wpr: u32,
    /// `(first row, rows)` of each birth-code chunk.
    pub chunks: Vec<(u32, u32)>,
    /// Countdown planes of a Generations rule's dying states after the live plane in each
    /// state buffer (0 for two-state rules; see [`crate::rule::generations`]).
    pub dying: u32,
}

impl Layout {
    /// Fit a world into `limits` (`chunk_limit` lowers the per-binding bytes, for tests).
    /// The state (live plane and `dying` countdown planes) must fit one binding; the birth
    /// codes (4 bytes a cell) are cut into row chunks with the engine's planner.
    pub fn plan(
        width: u32,
        height: u32,
        dying: u32,
        limits: &wgpu::Limits,
        chunk_limit: Option<u64>,
    ) -> Result<Layout, String> {
        let births = plan_chunks(width, height, false, 1, 1, limits, chunk_limit)?;
        let limit = chunk_limit.map_or(max_chunk_bytes(limits), |c| c.min(max_chunk_bytes(limits)));
        let wpr = width.div_ceil(32);
        let planes = u64::from(dying) + 1;
        let state = planes * u64::from(wpr) * u64::from(height) * 4;
        if state > limit {
            let rows = limit / (planes * u64::from(wpr) * 4);
            let what = if dying == 0 {
                "its state bit plane needs".to_string()
            } else {
                format!("its state (a live plane and {dying} dying-countdown planes) needs")
            };
            return Err(format!(
                "{what} {state} bytes but one binding holds {limit}; at this width at most {rows} \
                 rows fit, and the widest world that fits at this height is {} cells",
                limit / (planes * u64::from(height) * 4) * 32
            ));
        }
        Ok(Layout {
            width,
            height,
            wpr,
            chunks: births.chunks,
            dying,
        })
    }

    /// Bytes of one bit plane.
    pub fn plane_bytes(&self) -> u64 {
        u64::from(self.wpr) * u64::from(self.height) * 4
    }

    /// Bytes of a state buffer: the live plane and the countdown planes.
    pub fn state_bytes(&self) -> u64 {
        (u64::from(self.dying) + 1) * self.plane_bytes()
    }

    /// Valid bits of the last word of a row.
    pub fn tail_mask(&self) -> u32 {
        match self.width % 32 {
            0 => !0,
            r => (1 << r) - 1,
        }
    }
}

/// Parameters of one step or fold dispatch (`StepParams` in bitpacked_step_bindings.wgsl).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct StepParams {
    width: u32,
    height: u32,
    wpr: u32,
    torus: u32,
    tail_mask: u32,
    gens: u32,
    base: u32,
    y0: u32,
    rows: u32,
    plane: u32,
    strip: u32,
    epoch: u32,
    stamp: u32,
    fcols: u32,
    last: u32,
    pad: u32,
}

/// A world's buffers on the device.
pub struct BitWorld {
    /// Sizes.
    pub layout: Layout,
    /// The two state buffers (live plane, then the countdown planes); `planes[cur]` holds
    /// the current generation.
    pub planes: [wgpu::Buffer; 2],
    /// Old-plane bits (see [`super::ages`]).
    pub old: wgpu::Buffer,
    /// Birth codes of each chunk's rows, row-major, one `u32` per cell.
    pub births: Vec<wgpu::Buffer>,
    /// Epoch records of each chunk (32 bytes a word; see bitpacked_step_bindings.wgsl), or
    /// 16-byte placeholders when the kernel writes none (tile kernel, ages off). Only the
    /// bind groups use them; kept here as the world's own buffers.
    _records: Vec<wgpu::Buffer>,
    /// Which plane is current.
    pub cur: usize,
    torus: bool,
    gens_per_dispatch: u32,
    /// The shape dispatches run with now (the tuner changes it between batches).
    shape: Shape,
    kernel: StepKernel,
    /// The step pipelines, compiled on first use and in the background ([`Walks`]).
    walks: Walks,
    /// Repeat flags, born-in-block words and strip counters of replay ([`super::replay`]).
    pub repeats: Repeats,
    params: wgpu::Buffer,
    /// `groups[from][chunk]`: reads `planes[from]`, writes the other plane and the chunk's
    /// births and records (a fold binds `groups[cur]`: its `src` is the current state).
    groups: [Vec<wgpu::BindGroup>; 2],
    fold: wgpu::ComputePipeline,
}

/// A zeroed storage buffer of the world (copied to and from; at least 16 bytes).
pub(super) fn storage_buffer(ctx: &GpuContext, label: &str, bytes: u64) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(16),
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Whether a world with this kernel, `dying` countdown planes and replay `wanted` replays
/// repeating strips: the stream kernel with ages, on two-state rules.
pub fn replays(kernel: StepKernel, dying: u32, wanted: bool) -> bool {
    matches!(kernel, StepKernel::Stream { ages: true, .. }) && dying == 0 && wanted
}

impl BitWorld {
    /// Zeroed buffers for `layout`, stepping `rule` on `topology` with `kernel`, up to `gens_per_dispatch`
    /// generations per dispatch; epoch records and replay where asked for and the kernel has
    /// them (a stream kernel with ages; replay also needs a two-state rule); with
    /// `background`, the walks not used yet compile on the device's background compiler.
    pub fn new(
        ctx: &Arc<GpuContext>,
        kernels: &Arc<Pipelines>,
        layout: Layout,
        (rule, topology): (Rule, Topology),
        (kernel, gens_per_dispatch): (StepKernel, u32),
        (records, replay, background): (bool, bool, bool),
    ) -> BitWorld {
        let torus = topology == Topology::Torus;
        let planes = [
            storage_buffer(ctx, "bitpacked state 0", layout.state_bytes()),
            storage_buffer(ctx, "bitpacked state 1", layout.state_bytes()),
        ];
        let old = storage_buffer(ctx, "bitpacked old plane", layout.plane_bytes());
        let births: Vec<wgpu::Buffer> = layout
            .chunks
            .iter()
            .map(|&(_, rows)| {
                storage_buffer(
                    ctx,
                    "bitpacked births",
                    u64::from(rows) * u64::from(layout.width) * 4,
                )
            })
            .collect();
        let with_records = records && matches!(kernel, StepKernel::Stream { ages: true, .. });
        let replays = replays(kernel, layout.dying, replay);
        let min_lanes = match kernel {
            StepKernel::Stream { min_lanes, .. } => min_lanes,
            StepKernel::Tile => 32,
        };
        let repeats = Repeats::new(ctx, replays, (layout.wpr, layout.height), min_lanes);
        let record_bytes = |rows: u32| {
            if with_records {
                u64::from(rows) * u64::from(layout.wpr) * 32
            } else {
                16
            }
        };
        let records: Vec<wgpu::Buffer> = layout
            .chunks
            .iter()
            .map(|&(_, rows)| storage_buffer(ctx, "bitpacked epoch records", record_bytes(rows)))
            .collect();
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bitpacked step params"),
            size: (2 * MAX_BLOCKS + 1) * layout.chunks.len() as u64 * PARAM_SLOT,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = |from: usize, c: usize| {
            ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("bitpacked step"),
                layout: &kernels.step_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &params,
                            offset: 0,
                            size: wgpu::BufferSize::new(size_of::<StepParams>() as u64),
                        }),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: planes[from].as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: planes[1 - from].as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: births[c].as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 4,
                        resource: records[c].as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 5,
                        resource: repeats.flags[from].as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 6,
                        resource: repeats.flags[1 - from].as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 7,
                        resource: repeats.born.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 8,
                        resource: repeats.counts.as_entire_binding(),
                    },
                ],
            })
        };
        let n = layout.chunks.len();
        let groups = [
            (0..n).map(|c| group(0, c)).collect(),
            (0..n).map(|c| group(1, c)).collect(),
        ];
        let variant = if repeats.on {
            Variant::Replay
        } else {
            Variant::Direct
        };
        let walks = Walks::new(
            (ctx, kernels),
            (rule, torus, kernel),
            (variant, gens_per_dispatch, with_records),
            background,
        );
        BitWorld {
            shape: Shape {
                gens: gens_per_dispatch,
                strip: super::kernel::UNTUNED_STRIP,
            },
            walks,
            repeats,
            layout,
            planes,
            old,
            births,
            _records: records,
            fold: kernels.fold.clone(),
            cur: 0,
            torus,
            gens_per_dispatch,
            kernel,
            params,
            groups,
        }
    }

    /// Most generations one dispatch can step (its walks are compiled up to this).
    /// (With replay on, blocks are [`super::replay::PERIOD`] generations: the loader asks
    /// for no longer walks, whose pipelines are the slowest to compile.)
    pub fn gens_per_dispatch(&self) -> u32 {
        self.gens_per_dispatch
    }

    /// Whether batches can write births into epoch records: asked for, and a stream kernel
    /// that keeps ages.
    pub fn writes_records(&self) -> bool {
        self.walks.has_records()
    }

    /// The step kernel.
    pub fn kernel(&self) -> StepKernel {
        self.kernel
    }

    /// Whether the world is a torus.
    pub fn torus(&self) -> bool {
        self.torus
    }

    /// The shape dispatches run with now.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Run later dispatches with `shape` (generations within the compiled walks, strip ≥ 1).
    pub fn set_shape(&mut self, shape: Shape) {
        self.shape = Shape {
            gens: shape.gens.clamp(1, self.gens_per_dispatch),
            strip: shape.strip.max(1),
        };
    }

    /// Record `gens` generations (at most [`MAX_BLOCKS`] dispatches' worth) in one timed compute
    /// pass; `n_y` is the young birth-code counter at the first of them. With `records` (and
    /// a kernel that has record pipelines) births go into epoch records, folded as
    /// [`plan_ops`] places. Swaps `cur`.
    pub fn encode_steps(
        &mut self,
        ctx: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        timer: Option<&mut PassTimer>,
        (gens, n_y): (u64, u32),
        records: bool,
    ) {
        let l = &self.layout;
        let n = l.chunks.len();
        let mut blocks = Vec::new();
        let Shape { gens: k, strip } = self.shape;
        let (mut done, k) = (0u64, u64::from(k));
        while done < gens {
            let g = (gens - done).min(k);
            blocks.push((g as u32, n_y.wrapping_add(done as u32)));
            done += g;
        }
        assert!(
            blocks.len() as u64 <= MAX_BLOCKS,
            "batch larger than the parameter ring"
        );
        let records = records && self.writes_records();
        let stamp = self.repeats.stamp.for_batch(!records);
        let fcols = self.repeats.columns;
        let ops = plan_ops(&blocks, records);
        // The last block as long as the first: replay's pending birth moves are made there
        // (a shorter final block follows it with none pending and replays nothing).
        let last_full = ops
            .iter()
            .rposition(|op| matches!(*op, Op::Step { gens, .. } if gens == blocks[0].0));
        let mut ring = vec![0u8; ops.len() * n * PARAM_SLOT as usize];
        for (o, op) in ops.iter().enumerate() {
            let (gens, base, epoch) = match *op {
                Op::Step { gens, base, epoch } => (gens, base, epoch),
                Op::Fold { epoch } => (0, 0, epoch),
            };
            for (c, &(y0, rows)) in l.chunks.iter().enumerate() {
                let p = StepParams {
                    width: l.width,
                    height: l.height,
                    wpr: l.wpr,
                    torus: u32::from(self.torus),
                    tail_mask: l.tail_mask(),
                    gens,
                    base,
                    y0,
                    rows,
                    plane: l.wpr * l.height,
                    strip,
                    epoch,
                    stamp,
                    fcols,
                    last: u32::from(Some(o) == last_full),
                    pad: 0,
                };
                let at = (o * n + c) * PARAM_SLOT as usize;
                ring[at..at + size_of::<StepParams>()].copy_from_slice(bytemuck::bytes_of(&p));
            }
        }
        ctx.queue.write_buffer(&self.params, 0, &ring);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("bitpacked steps"),
            timestamp_writes: timer.and_then(|t| t.next_pass()),
        });
        let mut bound = None;
        for (o, op) in ops.iter().enumerate() {
            let which = match *op {
                Op::Step { gens, .. } => Some(gens),
                Op::Fold { .. } => None,
            };
            if bound != Some(which) {
                match which {
                    Some(gens) => pass.set_pipeline(&self.walks.get(gens, records)),
                    None => pass.set_pipeline(&self.fold),
                }
                bound = Some(which);
            }
            for (c, &(_, rows)) in l.chunks.iter().enumerate() {
                let offset = ((o * n + c) as u64 * PARAM_SLOT) as u32;
                pass.set_bind_group(0, &self.groups[self.cur][c], &[offset]);
                let (x, y) = match op {
                    Op::Step { .. } => {
                        self.kernel
                            .groups(l.wpr, rows, self.gens_per_dispatch, strip)
                    }
                    Op::Fold { .. } => (l.wpr.div_ceil(64), rows.div_ceil(4).min(65_535)),
                };
                pass.dispatch_workgroups(x, y, 1);
            }
            if let Op::Step { .. } = op {
                self.cur = 1 - self.cur;
            }
        }
    }
}
