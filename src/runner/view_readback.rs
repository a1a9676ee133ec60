//! A view drawn on the simulation's device and read back as pixels: how the runner shows a
//! GPU strategy whose device is not the window's (after a real device loss, or with no
//! window), without reading the whole world back every frame.

use crate::gpu::GpuContext;
use crate::step::StepError;
use crate::step::view::ViewRequest;
use crate::universe::{DrawTarget, Universe, UniverseError};

/// Draw `request` on `ctx` (the simulation's device) and return its pixels; falls back to the
/// host drawing for universes whose state is on the host.
pub fn render(
    universe: &mut dyn Universe,
    ctx: &GpuContext,
    request: &ViewRequest,
) -> Result<Vec<u32>, UniverseError> {
    let bytes = request.pixels() as u64 * 4;
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
    let target = ctx.pool.take(&ctx.device, "view pixels", bytes, usage);
    let drawn = universe.draw(request, DrawTarget::Device(&target));
    let result = match drawn {
        Ok(true) => read(ctx, &target, bytes).map_err(|e| UniverseError::Sim(e.into())),
        Ok(false) => {
            let mut host = vec![0; request.pixels()];
            universe
                .draw(request, DrawTarget::Host(&mut host))
                .map(|_| host)
        }
        Err(e) => Err(e),
    };
    ctx.pool.give(target);
    result
}

/// The first `bytes` of `buffer`, copied through a pooled staging buffer in one scoped
/// operation that waits for its own submission only.
fn read(ctx: &GpuContext, buffer: &wgpu::Buffer, bytes: u64) -> Result<Vec<u32>, StepError> {
    let staging = ctx.pool.take(
        &ctx.device,
        "view readback",
        bytes,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    );
    let (pixels, error) = ctx.scoped(|| -> Result<Vec<u32>, StepError> {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
        let index = ctx.submit([encoder.finish()]);
        let slice = staging.slice(..bytes);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        ctx.wait_for(index).map_err(StepError::DeviceLost)?;
        let pixels = {
            let view = slice
                .get_mapped_range()
                .map_err(|e| StepError::Backend(format!("mapping the view failed: {e}")))?;
            bytemuck::cast_slice(&view).to_vec()
        };
        staging.unmap();
        Ok(pixels)
    });
    ctx.pool.give(staging);
    match error {
        Some(e) => Err(StepError::Backend(format!(
            "GPU error drawing the view: {e}"
        ))),
        None => pixels,
    }
}
