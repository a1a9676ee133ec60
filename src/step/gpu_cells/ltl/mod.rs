//! Larger than Life on the u32-word device world (`gpu-resident`): two passes per
//! generation. `life/ltl_prefix.wgsl` scans every row's state-1 cells into 16-bit prefix
//! sums over the row extended by r on each side (for the von Neumann diamond,
//! `life/ltl_diagonal.wgsl` sums both diagonals instead, in bytes below r = 128 where a count
//! thread then walks four columns, its first row chained along its workgroup, and writes the
//! next generation's state-1 byte mask that the diagonal pass reads; for the Moore square at
//! large r,
//! `life/ltl_blocks.wgsl` then sums each column's windows by blocks of up to 32 rows, so
//! that a count run starts from 2r / block + 1 reads, not 2r + 1); `life/ltl_count.wgsl` walks
//! columns, counting each cell's neighbourhood from those sums (a running sum for the Moore
//! square and the diamond, so a cell costs the same at r = 5 and r = 500) and applying
//! Golly's transition. The CPU port of the passes is [`crate::rule::ltl::count::Counter`].

use std::sync::Arc;

use crate::gpu::GpuContext;
use crate::gpu::limits::ChunkPlan;
use crate::gpu::shader::Shader;
use crate::gpu::timing::PassTimer;
use crate::rule::Rule;
use crate::step::gpu_cells::kernels::MAX_GROUPS_PER_DIMENSION as MOST;
use crate::world::Topology;

mod params;

use params::{Count, LtlParams, interval, rows_per_thread};

/// Threads per workgroup of the count pass (`@workgroup_size` in ltl_count.wgsl; COUNT_WG in
/// ltl_diamond4.wgsl and ltl_mask.wgsl, whose workgroup scan needs a power of two).
const COUNT_GROUP: u32 = 128;
const _: () = assert!(COUNT_GROUP.is_power_of_two());
/// Ranges below which the diamond's diagonal sums are bytes, four columns a count thread.
const QUAD_RANGE: u32 = 128;

/// The pipelines, compiled the first time a Larger than Life world is loaded.
pub struct LtlKernels {
    prefix: wgpu::ComputePipeline,
    diagonal: wgpu::ComputePipeline,
    blocks: wgpu::ComputePipeline,
    count: wgpu::ComputePipeline,
    diamond4: wgpu::ComputePipeline,
    mask: wgpu::ComputePipeline,
}

/// The modules behind [`LtlKernels`]: row sums, diagonal sums, block sums, count pass, the
/// diamond's count over byte sums, the state-1 byte mask.
pub fn shaders() -> [Shader; 6] {
    [
        "life/ltl_prefix.wgsl",
        "life/ltl_diagonal.wgsl",
        "life/ltl_blocks.wgsl",
        "life/ltl_count.wgsl",
        "life/ltl_diamond4.wgsl",
        "life/ltl_mask.wgsl",
    ]
    .map(|file| {
        let shader = Shader::new(file);
        match file {
            "life/ltl_diamond4.wgsl" | "life/ltl_mask.wgsl" => {
                shader.constant("COUNT_WG", COUNT_GROUP)
            }
            _ => shader,
        }
    })
}

impl LtlKernels {
    fn on(ctx: &GpuContext) -> Arc<LtlKernels> {
        ctx.resource(|ctx| {
            let [prefix, diagonal, blocks, count, diamond4, mask] =
                shaders().map(|s| ctx.compute_pipeline(&s, None, true));
            LtlKernels {
                prefix,
                diagonal,
                blocks,
                count,
                diamond4,
                mask,
            }
        })
    }
}

/// The buffers and bind groups that step one Larger than Life world.
pub struct LtlPass {
    kernels: Arc<LtlKernels>,
    /// `prefix[g]` / `count[g]`: the passes reading generation buffer g.
    prefix: [wgpu::BindGroup; 2],
    count: [wgpu::BindGroup; 2],
    /// The pass that writes the sums the count reads, with its workgroups; `None` when the
    /// shape is weighted (the count pass reads cells, not sums).
    sums: Option<(wgpu::ComputePipeline, (u32, u32))>,
    /// The Moore square at large r: the block sums its count runs start from
    /// (ltl_blocks.wgsl), their bind groups by generation buffer, and workgroups.
    blocks: Option<([wgpu::BindGroup; 2], (u32, u32))>,
    /// The count pass (ltl_count.wgsl, or ltl_diamond4.wgsl for the diamond over bytes).
    count_pipeline: wgpu::ComputePipeline,
    count_groups: (u32, u32),
    /// The diamond over byte sums: the pass making the state-1 byte mask of generation
    /// buffer g afresh (ltl_mask.wgsl), with its workgroups. The count writes the next
    /// generation's mask as it goes, so the pass runs only after the cells were written
    /// otherwise (a load, an edit): [`LtlPass::cells_written`].
    mask: Option<([wgpu::BindGroup; 2], (u32, u32, u32))>,
    /// The generation buffer whose cells the mask holds (the next one once a count is
    /// recorded); `None` after the cells were written otherwise.
    mask_of: std::cell::Cell<Option<usize>>,
}

impl LtlPass {
    /// The passes over the single-chunk world `bufs` (generation buffers 0 and 1) under
    /// `rule`, buffer 0 holding generation parity `first_odd`. Refuses a world that needs
    /// several chunks, with the largest that fits.
    pub fn new(
        ctx: &Arc<GpuContext>,
        bufs: &[Vec<wgpu::Buffer>; 2],
        plan: &ChunkPlan,
        rule: &Rule,
        topology: Topology,
        first_odd: bool,
    ) -> Result<LtlPass, String> {
        let Some(ltl) = rule.ltl() else {
            return Err("not a Larger than Life rule".into());
        };
        let (w, h, r) = (plan.width, plan.height, ltl.reach() as u32);
        // 16-bit sums: P[i] at half i + 1 of an even number of halves per row.
        if w + 2 * r >= 1 << 16 {
            return Err(format!(
                "Larger than Life on the GPU sums rows in 16 bits: a row of {w} cells at range {r} is too wide (at most {} cells): use rayon",
                (1u32 << 16) - 1 - 2 * r
            ));
        }
        let shape = ltl.shape();
        let limit = crate::gpu::limits::max_chunk_bytes(&ctx.limits);
        // Diagonal sums of the extended grid, both directions (ltl_diagonal.wgsl), where
        // they fit; restarted every `band` rows, at least as many as any diagonal run the
        // count reads (r + 1 cells), so sums kept modulo 2^8 give every run's count exactly.
        // Up to r = 127 they are bytes and a count thread owns four columns, one word of each
        // diagonal row it reads (docs/experiments/ltl-diamond.md: +8 % at r = 5, +16 % at
        // r = 100). The limit is the diagonal pass's: it adds whole words, which stays exact
        // only while a band (the power of two above r) holds at most 128 rows, so a byte lane
        // never reaches 256 and carries; from r = 128 sums are 16 bits, a column a thread.
        let ext_rows = h + 2 * r;
        let diag_bits: u32 = if r < QUAD_RANGE { 8 } else { 16 };
        // Eight positions past the row's end repeat its first ones: the count reads four
        // lanes (two words) from any position without wrapping.
        let diagonal_stride = (w + 2 * r + 8).next_multiple_of(32 / diag_bits);
        let diagonal_bytes =
            u64::from(diagonal_stride) * u64::from(ext_rows) * 2 * u64::from(diag_bits) / 8;
        let band = crate::rule::ltl::diagonal::band_rows(r as usize) as u32;
        // From bands of 32 rows, a diagonal-pass thread sums one direction, not both: twice
        // the threads, each with half the work (docs/experiments/ltl-diamond.md: r = 100
        // +8 %, r = 500 +10 %; bands of 8 rows lost 2 %).
        let one_direction = band >= 32;
        let count = if shape.square && shape.plain {
            Count::Square
        } else if shape.diamond && diagonal_bytes <= limit {
            Count::Diamond
        } else if shape.tent {
            Count::Tent
        } else if shape.plain {
            Count::Runs
        } else {
            Count::Weighted
        };
        let (stride, prefix_bytes) = if count == Count::Diamond {
            (diagonal_stride, diagonal_bytes)
        } else {
            let stride = (w + 2 * r + 2).next_multiple_of(2);
            (stride, u64::from(stride) * u64::from(h) * 2)
        };
        if plan.chunks.len() != 1 || prefix_bytes > limit {
            return Err(format!(
                "Larger than Life on the GPU keeps the world and its row sums in one buffer each; a {w}x{h} world at range {r} needs {} MiB where this device binds {} MiB: use a smaller world, or rayon",
                (u64::from(w) * u64::from(h) * 4).max(prefix_bytes) >> 20,
                limit >> 20
            ));
        }
        let (items, words): (u32, Vec<i32>) = match count {
            Count::Square | Count::Diamond | Count::Tent => (0, vec![0]),
            Count::Runs => {
                let runs = shape
                    .runs
                    .iter()
                    .flat_map(|&(dy, lo, hi)| {
                        [dy + shape.range, lo + shape.range, hi + shape.range + 1]
                    })
                    .collect();
                (shape.runs.len() as u32, runs)
            }
            Count::Weighted => {
                let mut cells: Vec<i32> = shape
                    .cells
                    .iter()
                    .flat_map(|&(dx, dy, wt)| [dx, dy, wt])
                    .collect();
                cells.extend((0..=255u8).map(|s| ltl.neighbourhood.state_weight(s)));
                (shape.cells.len() as u32, cells)
            }
        };
        let shape_buf = ctx.buffer_with(
            "ltl shape",
            bytemuck::cast_slice(&words),
            wgpu::BufferUsages::STORAGE,
        );
        let prefix_buf = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ltl row sums"),
            size: prefix_bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let columns = if count == Count::Diamond && diag_bits == 8 {
            4
        } else {
            1
        };
        // The state-1 byte mask the diagonal pass reads four cells a load (one word of
        // padding: it reads two words from any byte).
        let mask_pitch = w.div_ceil(4);
        let mask_buf = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ltl state-1 mask"),
            size: if columns == 4 {
                (u64::from(mask_pitch) * u64::from(h) + 1) * 4
            } else {
                4
            },
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let run = rows_per_thread(w.div_ceil(columns), h, r, count, columns);
        // Runs of the square at 64 <= r <= 128 start from block sums: blocks of the largest
        // divisor of r from 16 to 32 rows, runs of one block, so both the block pass and the
        // count have many short walks (docs/experiments/ltl-run-length.md: +10 % at r = 100;
        // at r = 250 and 500 the block pass cost more than the starts it saved).
        let block_rows = if count == Count::Square && run == r && (64..=128).contains(&r) {
            (16..=32).rev().find(|b| r % b == 0).unwrap_or(0)
        } else {
            0
        };
        let run = if block_rows > 0 { block_rows } else { run };
        let block_count = if block_rows > 0 {
            h.div_ceil(block_rows)
        } else {
            1
        };
        let blocks_buf = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ltl block sums"),
            size: u64::from(w) * u64::from(block_count) * 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let kernels = LtlKernels::on(ctx);
        let make = |g: usize| {
            let odd = first_odd ^ (g == 1);
            let (birth, survive) = ltl.flags(odd);
            let (births, survivals) = (interval(birth), interval(survive));
            let len = birth.len().max(survive.len());
            let mut bits = vec![0u32; (2 * len).div_ceil(32).max(1)];
            for (t, table) in [birth, survive].into_iter().enumerate() {
                for (i, _) in table.iter().enumerate().filter(|(_, f)| **f) {
                    let at = t * len + i;
                    bits[at / 32] |= 1 << (at % 32);
                }
            }
            let params = LtlParams {
                width: w,
                height: h,
                pitch: plan.pitch,
                range: r,
                stride,
                torus: u32::from(topology == Topology::Torus),
                states: if rule.has_dying_states() {
                    u32::from(rule.states())
                } else {
                    2
                },
                mode: count as u32,
                items,
                run,
                odd: u32::from(odd),
                flags_len: len as u32,
                bonus: u32::from(ltl.neighbourhood.centre_bonus()),
                band,
                flip: u32::from(shape.flip),
                blocks: block_rows,
                diag_bits,
                mask_pitch,
                split: u32::from(one_direction),
                intervals: u32::from(births.is_some() && survivals.is_some()),
                birth_lo: births.map_or(0, |b| b.0),
                birth_hi: births.map_or(0, |b| b.1),
                survive_lo: survivals.map_or(0, |s| s.0),
                survive_hi: survivals.map_or(0, |s| s.1),
            };
            let params = ctx.buffer_with(
                "ltl params",
                bytemuck::bytes_of(&params),
                wgpu::BufferUsages::UNIFORM,
            );
            let flags = ctx.buffer_with(
                "ltl flags",
                bytemuck::cast_slice(&bits),
                wgpu::BufferUsages::STORAGE,
            );
            let (src, dst) = (&bufs[g][0], &bufs[1 - g][0]);
            let sums = match count {
                Count::Diamond => &kernels.diagonal,
                _ => &kernels.prefix,
            };
            let prefix = if count == Count::Diamond {
                ctx.bind_buffers_at(
                    "ltl diagonal sums",
                    &sums.get_bind_group_layout(0),
                    &[(0, &params), (1, src), (2, &prefix_buf), (3, &mask_buf)],
                )
            } else {
                ctx.bind_buffers(
                    "ltl sums",
                    &sums.get_bind_group_layout(0),
                    &[&params, src, &prefix_buf],
                )
            };
            let count = if columns == 4 {
                // ltl_diamond4.wgsl binds neither the shape nor the block sums.
                ctx.bind_buffers_at(
                    "ltl diamond count",
                    &kernels.diamond4.get_bind_group_layout(0),
                    &[
                        (0, &params),
                        (1, src),
                        (2, dst),
                        (3, &prefix_buf),
                        (4, &mask_buf),
                        (5, &flags),
                    ],
                )
            } else {
                ctx.bind_buffers(
                    "ltl count",
                    &kernels.count.get_bind_group_layout(0),
                    &[
                        &params,
                        src,
                        dst,
                        &prefix_buf,
                        &shape_buf,
                        &flags,
                        &blocks_buf,
                    ],
                )
            };
            // The block pass only where its sums are read.
            let blocks = (block_rows > 0).then(|| {
                ctx.bind_buffers_at(
                    "ltl block sums",
                    &kernels.blocks.get_bind_group_layout(0),
                    &[(0, &params), (3, &prefix_buf), (6, &blocks_buf)],
                )
            });
            let mask = (columns == 4).then(|| {
                ctx.bind_buffers_at(
                    "ltl state-1 mask",
                    &kernels.mask.get_bind_group_layout(0),
                    &[(0, &params), (1, src), (4, &mask_buf)],
                )
            });
            (prefix, count, blocks, mask)
        };
        let ((p0, c0, b0, m0), (p1, c1, b1, m1)) = (make(0), make(1));
        Ok(LtlPass {
            blocks: b0
                .zip(b1)
                .map(|(b0, b1)| ([b0, b1], (w.div_ceil(COUNT_GROUP), block_count))),
            prefix: [p0, p1],
            count: [c0, c1],
            sums: match count {
                Count::Square | Count::Runs | Count::Tent => {
                    Some((&kernels.prefix, (h.min(MOST), h.div_ceil(MOST))))
                }
                Count::Diamond => Some((
                    &kernels.diagonal,
                    (
                        (stride / (32 / diag_bits)).div_ceil(COUNT_GROUP),
                        ext_rows.div_ceil(band) * (1 + u32::from(one_direction)),
                    ),
                )),
                Count::Weighted => None,
            }
            .map(|(pipeline, groups)| (pipeline.clone(), groups)),
            count_pipeline: if columns == 4 {
                kernels.diamond4.clone()
            } else {
                kernels.count.clone()
            },
            mask: m0.zip(m1).map(|(m0, m1)| {
                (
                    [m0, m1],
                    (
                        mask_pitch.div_ceil(COUNT_GROUP),
                        h.min(MOST),
                        h.div_ceil(MOST),
                    ),
                )
            }),
            mask_of: std::cell::Cell::new(None),
            count_groups: (w.div_ceil(columns * COUNT_GROUP), h.div_ceil(run)),
            kernels,
        })
    }

    /// The cells of a generation buffer were written by something other than the count
    /// (a load, an edit): the next generation makes the state-1 mask afresh.
    pub fn cells_written(&self) {
        self.mask_of.set(None);
    }

    /// Record one generation reading generation buffer `cur` (timed if `timer` has room).
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        timer: Option<&mut PassTimer>,
        cur: usize,
    ) {
        let timestamp_writes = timer.and_then(|t| t.next_pass());
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("ltl step"),
            timestamp_writes,
        });
        if let Some((groups, (x, y, z))) = &self.mask {
            if self.mask_of.get() != Some(cur) {
                pass.set_pipeline(&self.kernels.mask);
                pass.set_bind_group(0, &groups[cur], &[]);
                pass.dispatch_workgroups(*x, *y, *z);
            }
            // The count below writes the mask of the generation it writes.
            self.mask_of.set(Some(1 - cur));
        }
        if let Some((pipeline, (x, y))) = &self.sums {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &self.prefix[cur], &[]);
            pass.dispatch_workgroups(*x, *y, 1);
        }
        if let Some((groups, (x, y))) = &self.blocks {
            pass.set_pipeline(&self.kernels.blocks);
            pass.set_bind_group(0, &groups[cur], &[]);
            pass.dispatch_workgroups(*x, *y, 1);
        }
        pass.set_pipeline(&self.count_pipeline);
        pass.set_bind_group(0, &self.count[cur], &[]);
        pass.dispatch_workgroups(self.count_groups.0, self.count_groups.1, 1);
    }
}
