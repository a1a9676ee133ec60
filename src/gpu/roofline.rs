//! Bandwidth ceilings measured in the same run as every GPU benchmark: a copy kernel
//! (device memory), and host→device / device→host transfers (the PCIe or host-copy bound).

use std::time::Instant;

use serde::Serialize;

use crate::bench::median;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;
use crate::gpu::timing::PassTimer;

/// Measured ceilings, in bytes per second.
#[derive(Debug, Clone, Serialize)]
pub struct Roofline {
    /// Adapter name.
    pub device: String,
    /// Copy-kernel bandwidth, read + write bytes per second (timestamp-timed).
    pub copy_bytes_per_s: f64,
    /// `queue.write_buffer` + submit, bytes per second (wall).
    pub upload_bytes_per_s: f64,
    /// Copy into a mappable buffer + map, bytes per second (wall).
    pub download_bytes_per_s: f64,
    /// Bytes per buffer used for the measurements.
    pub buffer_bytes: u64,
}

fn storage_buffer(ctx: &GpuContext, bytes: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("roofline"),
        size: bytes,
        usage,
        mapped_at_creation: false,
    })
}

/// The copy kernel's module (one permutation: no constants).
pub fn shader() -> Shader {
    Shader::new("gpu/roofline.wgsl")
}

/// Measure the ceilings with `bytes`-sized buffers (clamped to the binding limit). Runs in
/// its own error scope and waits for its own submissions only, so work other threads submit
/// meanwhile neither fails it nor is waited for (it still queues ahead of it: a busy device
/// lowers the wall-clock transfer figures, never the timestamp-timed copy rate).
pub fn measure(ctx: &GpuContext, bytes: u64, repeats: usize) -> Result<Roofline, String> {
    let (result, error) = ctx.scoped(|| measure_scoped(ctx, bytes, repeats));
    match error {
        Some(e) => Err(e),
        None => result,
    }
}

fn measure_scoped(ctx: &GpuContext, bytes: u64, repeats: usize) -> Result<Roofline, String> {
    let bytes = bytes.min(crate::gpu::limits::max_chunk_bytes(&ctx.limits)) / 16 * 16;
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let src = storage_buffer(ctx, bytes, usage);
    let dst = storage_buffer(ctx, bytes, usage);
    let module = shader().module(ctx);
    let pipeline = ctx
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("roofline copy"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
    let group = ctx.bind_buffers(
        "roofline",
        &pipeline.get_bind_group_layout(0),
        &[&src, &dst],
    );
    let groups = (bytes / 16).div_ceil(256) as u32;
    let (gx, gy) = (groups.min(32_768), groups.div_ceil(32_768));
    let mut timer = PassTimer::new(ctx);
    let mut copy_rates = Vec::new();
    for _ in 0..repeats + 1 {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        let start = Instant::now();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("roofline copy"),
                timestamp_writes: timer.as_mut().and_then(|t| t.next_pass()),
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(gx, gy, 1);
        }
        if let Some(t) = timer.as_mut() {
            t.resolve(&mut encoder);
        }
        let index = ctx.submit([encoder.finish()]);
        ctx.wait_for(index.clone())?;
        let seconds = match timer.as_mut() {
            Some(t) => t.collect_seconds(ctx, index)?,
            None => start.elapsed().as_secs_f64(),
        };
        copy_rates.push(2.0 * bytes as f64 / seconds.max(1e-12));
    }
    copy_rates.remove(0); // warm-up
    let host = vec![7u8; bytes as usize];
    let mut up = Vec::new();
    let mut down = Vec::new();
    // One read-back buffer for every repeat (as large as the copy buffers: kept out of the pool).
    let readback = storage_buffer(
        ctx,
        bytes,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    );
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        ctx.queue.write_buffer(&src, 0, &host);
        ctx.submit_and_wait([])?;
        up.push(bytes as f64 / start.elapsed().as_secs_f64());

        let start = Instant::now();
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&src, 0, &readback, 0, bytes);
        let index = ctx.submit([encoder.finish()]);
        ctx.map_read(&readback, index)?;
        {
            let view = readback
                .slice(..)
                .get_mapped_range()
                .map_err(|e| e.to_string())?;
            let mut sink = vec![0u8; bytes as usize];
            sink.copy_from_slice(&view);
            std::hint::black_box(&sink);
        }
        readback.unmap();
        down.push(bytes as f64 / start.elapsed().as_secs_f64());
    }
    Ok(Roofline {
        device: ctx.adapter_name(),
        copy_bytes_per_s: median(&copy_rates),
        upload_bytes_per_s: median(&up),
        download_bytes_per_s: median(&down),
        buffer_bytes: bytes,
    })
}
