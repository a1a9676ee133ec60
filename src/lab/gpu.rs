//! wgpu plumbing shared by the experiments: pipelines whose last binding is a uniform
//! block of eight `u32` parameters at a dynamic offset (one slot per dispatch), buffers,
//! readback, 2-D dispatch grids, and bounded, cancellable, timed submissions.
//!
//! The Lab shares the device with the window and a running simulation, so it owns its work:
//! every operation runs in this thread's error scopes ([`scoped`]) and waits for its own
//! submission ([`GpuContext::wait_for`]), never for the whole device; read-back staging and
//! parameter buffers come from the device's pool.

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::pool::size_class;
use crate::gpu::shader::Shader;

use super::LabError;
pub use super::clock::{
    Clock, Dispatch, batched_median, copy_bandwidth, grid, per_submission, settle,
};

/// Parameters of one dispatch: eight `u32`s, named by each shader.
pub type Params = [u32; 8];
const PARAMS_BYTES: u64 = 32;

/// Run `work` inside this thread's GPU error scopes ([`GpuContext::scoped`]): the first GPU
/// error it caused (the root cause of anything that failed after it) wins over its result.
/// Errors of other threads' work on the same device are never seen here.
pub fn scoped<T>(
    ctx: &GpuContext,
    work: impl FnOnce() -> Result<T, LabError>,
) -> Result<T, LabError> {
    match ctx.scoped(work) {
        (_, Some(error)) => Err(LabError::Gpu(error)),
        (result, None) => result,
    }
}

/// A compute pipeline with its explicit layout: storage buffers 0.., then the params.
pub struct Kernel {
    /// The compiled pipeline.
    pub pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    storage: usize,
}

impl Kernel {
    /// Compile `entry` of `shader`; `read_only[i]` says whether storage binding `i` is
    /// read-only. `tuning` says whether wgpu zero-fills workgroup memory first (off unless
    /// asked for: every Lab kernel writes the workgroup memory it reads before a barrier, so
    /// the fill is pure cost, measured by turning it on).
    pub fn new(
        ctx: &GpuContext,
        shader: &Shader,
        entry: &str,
        read_only: &[bool],
        tuning: &LabTuning,
    ) -> Result<Kernel, LabError> {
        let label = format!("{} {entry}", shader.label());
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
        scoped(ctx, || {
            let layout = ctx
                .device
                .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some(&label),
                    entries: &entries,
                });
            let pipeline_layout =
                ctx.device
                    .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                        label: Some(&label),
                        bind_group_layouts: &[Some(&layout)],
                        immediate_size: 0,
                    });
            let module = shader.module(ctx);
            let pipeline = ctx
                .device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(&label),
                    layout: Some(&pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        zero_initialize_workgroup_memory: tuning.zero_workgroup_memory,
                        ..Default::default()
                    },
                    cache: None,
                });
            Ok(Kernel {
                pipeline,
                layout,
                storage: read_only.len(),
            })
        })
    }

    /// A bind group of `storage` buffers plus the parameter slots of `params`.
    pub fn bind(
        &self,
        ctx: &GpuContext,
        storage: &[&wgpu::Buffer],
        params: &ParamSlots,
    ) -> Result<wgpu::BindGroup, LabError> {
        assert_eq!(storage.len(), self.storage, "kernel binding count");
        let mut entries = crate::gpu::whole_buffer_entries(storage);
        entries.push(wgpu::BindGroupEntry {
            binding: storage.len() as u32,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: params.buffer(),
                offset: 0,
                size: wgpu::BufferSize::new(PARAMS_BYTES),
            }),
        });
        scoped(ctx, || {
            Ok(ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &self.layout,
                entries: &entries,
            }))
        })
    }
}

/// A buffer from the device's pool ([`GpuContext::pool`]) when its size class fits the
/// device, else a buffer of exactly `bytes` (which the pool declines when given back).
fn pooled(ctx: &GpuContext, label: &str, bytes: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    if size_class(bytes) <= ctx.limits.max_buffer_size {
        return ctx.pool.take(&ctx.device, label, bytes, usage);
    }
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes,
        usage,
        mapped_at_creation: false,
    })
}

/// A uniform buffer of parameter slots, one per dispatch, at the device's offset alignment.
/// Taken from the device's buffer pool and handed back when dropped (the Lab waits for every
/// submission that uses it before it goes out of scope).
pub struct ParamSlots<'a> {
    ctx: &'a GpuContext,
    buffer: Option<wgpu::Buffer>,
    stride: u32,
}

impl<'a> ParamSlots<'a> {
    /// Upload `slots` (written with the next submission).
    pub fn new(ctx: &'a GpuContext, slots: &[Params]) -> ParamSlots<'a> {
        let stride = ctx.limits.min_uniform_buffer_offset_alignment.max(32);
        let mut bytes = vec![0u8; slots.len().max(1) * stride as usize];
        for (i, p) in slots.iter().enumerate() {
            let at = i * stride as usize;
            bytes[at..at + 32].copy_from_slice(bytemuck::cast_slice(p));
        }
        let buffer = pooled(
            ctx,
            "lab params",
            bytes.len() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        ctx.queue.write_buffer(&buffer, 0, &bytes);
        ParamSlots {
            ctx,
            buffer: Some(buffer),
            stride,
        }
    }

    fn buffer(&self) -> &wgpu::Buffer {
        self.buffer.as_ref().expect("held until dropped")
    }

    /// Dynamic offset of slot `i`.
    pub fn offset(&self, i: usize) -> u32 {
        i as u32 * self.stride
    }
}

impl Drop for ParamSlots<'_> {
    fn drop(&mut self) {
        if let Some(buffer) = self.buffer.take() {
            self.ctx.pool.give(buffer);
        }
    }
}

/// A storage buffer that can be written and read back (an out-of-memory error is the Lab's).
pub fn storage_buffer(ctx: &GpuContext, bytes: u64, label: &str) -> Result<wgpu::Buffer, LabError> {
    scoped(ctx, || {
        Ok(ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(16),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }))
    })
}

/// The first `count` elements of `buffer`, through a pooled staging buffer; waits for this
/// copy's submission only.
pub fn read_back<T: bytemuck::Pod>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    count: usize,
) -> Result<Vec<T>, LabError> {
    let bytes = (count * size_of::<T>()) as u64;
    if bytes == 0 {
        return Ok(Vec::new());
    }
    let usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
    scoped(ctx, || {
        let staging = pooled(ctx, "lab readback", bytes, usage);
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
        ctx.pool.give(staging);
        Ok(out)
    })
}

/// Upload `data` into `buffer` and wait for that upload only, so it is outside any timing.
pub fn upload<T: bytemuck::Pod>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    data: &[T],
) -> Result<(), LabError> {
    scoped(ctx, || {
        ctx.queue
            .write_buffer(buffer, 0, bytemuck::cast_slice(data));
        ctx.submit_and_wait([]).map_err(LabError::Gpu)?;
        check(ctx)
    })
}

/// Copy all of `src` into `dst` on the device and wait for that copy only (outside any timing).
pub fn restore(ctx: &GpuContext, src: &wgpu::Buffer, dst: &wgpu::Buffer) -> Result<(), LabError> {
    scoped(ctx, || {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(src, 0, dst, 0, src.size().min(dst.size()));
        ctx.submit_and_wait([encoder.finish()])
            .map_err(LabError::Gpu)?;
        check(ctx)
    })
}

/// A really lost device as a [`LabError`]. A loss only injected for the simulation's
/// recovery tests ([`GpuContext::simulate_loss`]) leaves the device working, so the Lab
/// carries on; GPU errors come from the Lab's own error scopes ([`scoped`]).
pub fn check(ctx: &GpuContext) -> Result<(), LabError> {
    if ctx.is_healthy() {
        Ok(())
    } else {
        Err(LabError::Gpu(
            ctx.lost_reason().unwrap_or_else(|| "device lost".into()),
        ))
    }
}
