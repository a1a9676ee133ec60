//! wgpu plumbing shared by the experiments: pipelines whose last binding is a uniform
//! block of eight `u32` parameters at a dynamic offset (one slot per dispatch), buffers,
//! readback, 2-D dispatch grids, and bounded, cancellable, timed submissions.

use std::time::Instant;

use crate::gpu::GpuContext;
use crate::gpu::timing::PassTimer;

use super::{LabError, Progress};

/// Parameters of one dispatch: eight `u32`s, named by each shader.
pub type Params = [u32; 8];
const PARAMS_BYTES: u64 = 32;

/// Set to `1` to have wgpu zero-fill workgroup memory before every Lab kernel, as it does by
/// default, to measure what that costs.
pub const ZERO_WORKGROUP_ENV: &str = "GOLAB_LAB_ZERO_WORKGROUP";

/// Whether Lab pipelines let wgpu zero-fill workgroup memory. Off unless
/// [`ZERO_WORKGROUP_ENV`] is `1`: every Lab kernel writes the workgroup memory it reads
/// before a barrier, so the fill (one more pass over workgroup memory and a barrier per
/// workgroup) is pure cost.
pub fn zero_workgroup_memory() -> bool {
    std::env::var(ZERO_WORKGROUP_ENV).is_ok_and(|v| v.trim() == "1")
}

/// A compute pipeline with its explicit layout: storage buffers 0.., then the params.
pub struct Kernel {
    pub pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    storage: usize,
}

impl Kernel {
    /// Compile `entry` of `source`; `read_only[i]` says whether storage binding `i` is read-only.
    pub fn new(
        ctx: &GpuContext,
        label: &str,
        source: &str,
        entry: &str,
        read_only: &[bool],
    ) -> Kernel {
        let mut entries: Vec<wgpu::BindGroupLayoutEntry> = read_only
            .iter()
            .enumerate()
            .map(|(i, &ro)| wgpu::BindGroupLayoutEntry {
                binding: i as u32,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: ro },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .collect();
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: read_only.len() as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(PARAMS_BYTES),
            },
            count: None,
        });
        let layout = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries: &entries,
            });
        let pipeline_layout = ctx
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
        let module = ctx.kernel_module(label, source);
        let pipeline = ctx
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    zero_initialize_workgroup_memory: zero_workgroup_memory(),
                    ..Default::default()
                },
                cache: None,
            });
        Kernel {
            pipeline,
            layout,
            storage: read_only.len(),
        }
    }

    /// A bind group of `storage` buffers plus the parameter slots of `params`.
    pub fn bind(
        &self,
        ctx: &GpuContext,
        storage: &[&wgpu::Buffer],
        params: &ParamSlots,
    ) -> wgpu::BindGroup {
        assert_eq!(storage.len(), self.storage, "kernel binding count");
        let mut entries: Vec<wgpu::BindGroupEntry> = storage
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        entries.push(wgpu::BindGroupEntry {
            binding: storage.len() as u32,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &params.buffer,
                offset: 0,
                size: wgpu::BufferSize::new(PARAMS_BYTES),
            }),
        });
        ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layout,
            entries: &entries,
        })
    }
}

/// A uniform buffer of parameter slots, one per dispatch, at the device's offset alignment.
pub struct ParamSlots {
    buffer: wgpu::Buffer,
    stride: u32,
}

impl ParamSlots {
    /// Upload `slots`.
    pub fn new(ctx: &GpuContext, slots: &[Params]) -> ParamSlots {
        let stride = ctx.limits.min_uniform_buffer_offset_alignment.max(32);
        let mut bytes = vec![0u8; slots.len().max(1) * stride as usize];
        for (i, p) in slots.iter().enumerate() {
            let at = i * stride as usize;
            bytes[at..at + 32].copy_from_slice(bytemuck::cast_slice(p));
        }
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("lab params"),
            size: bytes.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        ctx.queue.write_buffer(&buffer, 0, &bytes);
        ParamSlots { buffer, stride }
    }

    /// Dynamic offset of slot `i`.
    pub fn offset(&self, i: usize) -> u32 {
        i as u32 * self.stride
    }
}

/// A storage buffer that can be written and read back.
pub fn storage_buffer(ctx: &GpuContext, bytes: u64, label: &str) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(16),
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The first `count` elements of `buffer`.
pub fn read_back<T: bytemuck::Pod>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    count: usize,
) -> Result<Vec<T>, LabError> {
    let bytes = (count * size_of::<T>()) as u64;
    let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("lab readback"),
        size: bytes.max(16),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
    let index = ctx.submit([encoder.finish()]);
    let slice = staging.slice(0..bytes);
    slice.map_async(wgpu::MapMode::Read, |_| {});
    ctx.wait_for(index).map_err(LabError::Gpu)?;
    check(ctx)?;
    let out = {
        let view = slice
            .get_mapped_range()
            .map_err(|e| LabError::Gpu(e.to_string()))?;
        bytemuck::cast_slice::<u8, T>(&view).to_vec()
    };
    staging.unmap();
    Ok(out)
}

/// Upload `data` into `buffer` and wait, so the upload is outside any timing.
pub fn upload<T: bytemuck::Pod>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    data: &[T],
) -> Result<(), LabError> {
    ctx.queue
        .write_buffer(buffer, 0, bytemuck::cast_slice(data));
    ctx.submit_and_wait([]).map_err(LabError::Gpu)?;
    check(ctx)
}

/// Copy all of `src` into `dst` on the device and wait (outside any timing).
pub fn restore(ctx: &GpuContext, src: &wgpu::Buffer, dst: &wgpu::Buffer) -> Result<(), LabError> {
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(src, 0, dst, 0, src.size().min(dst.size()));
    ctx.submit_and_wait([encoder.finish()])
        .map_err(LabError::Gpu)?;
    check(ctx)
}

/// Any GPU error since the last check (or a lost device) as a [`LabError`].
pub fn check(ctx: &GpuContext) -> Result<(), LabError> {
    match ctx.take_uncaptured_error().or_else(|| ctx.lost_reason()) {
        Some(e) => Err(LabError::Gpu(e)),
        None => Ok(()),
    }
}

/// Split `groups` workgroups into an (x, y) grid within the per-dimension limit; shaders
/// compute `wg.y * num_workgroups.x + wg.x` and ignore groups past the end.
pub fn grid(groups: u64, max_dim: u32) -> (u32, u32) {
    let groups = groups.max(1);
    if groups <= u64::from(max_dim) {
        (groups as u32, 1)
    } else {
        let x = 1u32 << (31 - max_dim.leading_zeros());
        (x, groups.div_ceil(u64::from(x)) as u32)
    }
}

/// One dispatch: a kernel, its bind group, its parameter slot and grid.
pub struct Dispatch<'a> {
    pub kernel: &'a Kernel,
    pub group: &'a wgpu::BindGroup,
    pub offset: u32,
    pub grid: (u32, u32),
}

/// Longest a submission should take: well below any OS GPU watchdog (Windows TDR: 2 s).
pub const SUBMISSION_LIMIT_S: f64 = 0.1;

/// Kernel time when the device has timestamp queries, else wall clock.
pub struct Clock {
    timer: Option<PassTimer>,
}

impl Clock {
    /// A clock for `ctx`.
    pub fn new(ctx: &GpuContext) -> Clock {
        Clock {
            timer: PassTimer::new(ctx),
        }
    }

    /// How the report should describe the timing.
    pub fn description(&self) -> String {
        if self.timer.is_some() {
            "timestamp queries (kernel time)".into()
        } else {
            "wall clock (the device has no timestamp queries; includes submission overhead)".into()
        }
    }

    /// Run `dispatches` in order, at most `per_submission` in one submission (one compute
    /// pass), waiting for each submission and checking for cancellation in between. A
    /// submission that takes longer than [`SUBMISSION_LIMIT_S`] shrinks the following ones
    /// towards half of it. Returns the seconds spent (kernel time, or wall time without
    /// timestamps).
    pub fn run(
        &mut self,
        ctx: &GpuContext,
        dispatches: &[Dispatch],
        per_submission: usize,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let start = Instant::now();
        let mut kernel_seconds = 0.0;
        let mut size = per_submission.max(1);
        let mut rest = dispatches;
        while !rest.is_empty() {
            let (batch, later) = rest.split_at(size.min(rest.len()));
            rest = later;
            let submitted = Instant::now();
            progress.check()?;
            let mut encoder = ctx.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("lab"),
                    timestamp_writes: self.timer.as_mut().and_then(|t| t.next_pass()),
                });
                for d in batch {
                    pass.set_pipeline(&d.kernel.pipeline);
                    pass.set_bind_group(0, d.group, &[d.offset]);
                    pass.dispatch_workgroups(d.grid.0, d.grid.1, 1);
                }
            }
            if let Some(t) = self.timer.as_mut() {
                t.resolve(&mut encoder);
            }
            let index = ctx.submit([encoder.finish()]);
            ctx.wait_for(index.clone()).map_err(LabError::Gpu)?;
            check(ctx)?;
            if let Some(t) = self.timer.as_mut() {
                kernel_seconds += t.collect_seconds(ctx, index).map_err(LabError::Gpu)?;
            }
            let took = submitted.elapsed().as_secs_f64();
            if took > SUBMISSION_LIMIT_S {
                size = ((batch.len() as f64 * SUBMISSION_LIMIT_S / 2.0 / took) as usize).max(1);
            }
        }
        Ok(if self.timer.is_some() {
            kernel_seconds
        } else {
            start.elapsed().as_secs_f64()
        })
    }
}

/// Copy-kernel bandwidth (read + write bytes per second) measured now; small buffers on a
/// CPU device so the measurement stays quick there.
pub fn copy_bandwidth(ctx: &GpuContext) -> Result<f64, LabError> {
    let bytes = if ctx.info.device_type == wgpu::DeviceType::Cpu {
        16 << 20
    } else {
        256 << 20
    };
    let roof = crate::gpu::roofline::measure(ctx, bytes, 3).map_err(LabError::Gpu)?;
    Ok(roof.copy_bytes_per_s)
}

/// How many dispatches of `bytes_each` global traffic fit in ~`budget_s` at `bytes_per_s`.
pub fn per_submission(bytes_each: f64, bytes_per_s: f64, budget_s: f64) -> usize {
    let each = bytes_each / bytes_per_s.max(1.0);
    ((budget_s / each.max(1e-9)) as usize).clamp(1, 512)
}
