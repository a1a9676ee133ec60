//! Drawing the world for the window on the simulation thread: the view the window asked
//! for, rendered where the state lives (on the device, or on the host and uploaded).

use std::sync::Arc;
use std::time::Instant;

use super::{FRAME, Worker};
use crate::gpu::GpuContext;
use crate::runner::{ViewImage, ViewPixels, view_readback};
use crate::sim::SimError;
use crate::step::view::ViewRequest;

impl Worker {
    /// Draw the view the window wants, when it changed and a frame's time has passed (or
    /// drawing's own cost three times over, so drawing stays a minor share of the thread).
    pub(super) fn draw(&mut self) {
        let Some(request) = self.wanted_view.lock().ok().and_then(|v| *v) else {
            return;
        };
        let generation = match &self.plane {
            Some(plane) => u64::try_from(plane.universe.generation()).unwrap_or(u64::MAX),
            None => self.sim.generation(),
        };
        let fresh = self.drawn == Some((request, generation)) && !self.dirty;
        let every = FRAME.max(self.costs.draw * 3);
        let due = !self.running || self.costs.drawn_at.is_none_or(|t| t.elapsed() >= every);
        if fresh || !due || request.pixels() == 0 {
            return;
        }
        self.dirty = false;
        let start = Instant::now();
        if let Some(image) = self.draw_plane(&request) {
            self.costs.draw = start.elapsed();
            self.costs.drawn_at = Some(Instant::now());
            self.view = Some(image);
            self.drawn = Some((request, generation));
            self.changed = true;
            return;
        }
        let drawn = self.draw_view(&request);
        self.costs.draw = start.elapsed();
        self.costs.drawn_at = Some(Instant::now());
        match drawn {
            Ok(pixels) => {
                self.view = Some(ViewImage {
                    request,
                    generation,
                    states: self.sim.rule().states(),
                    colours: self
                        .sim
                        .rule()
                        .rule_table()
                        .map(|t| Arc::new(t.colors.clone())),
                    pixels,
                });
                self.drawn = Some((request, generation));
                self.changed = true;
            }
            Err(e) => self.fail(e),
        }
    }

    /// Draw the visible window: on the window's device straight into the buffer its painter
    /// reads; for a GPU strategy on another device (after a real device loss) on that device,
    /// reading back only the view's pixels; else on the host.
    fn draw_view(&mut self, request: &ViewRequest) -> Result<ViewPixels, SimError> {
        let sim_ctx = self.sim.factory().gpu().ok().cloned();
        match (self.draw_on.clone(), sim_ctx) {
            (Some(window), Some(sim_ctx)) if Arc::ptr_eq(&window, &sim_ctx) => {
                self.draw_on_window(request, &window)
            }
            (_, Some(sim_ctx)) if self.sim.strategy().is_gpu() => {
                let pixels = view_readback::render(&mut self.sim, &sim_ctx, request)?;
                Ok(ViewPixels::Host(Arc::new(pixels)))
            }
            _ => {
                let mut host = vec![0; request.pixels()];
                self.sim.render_view_host(request, &mut host)?;
                Ok(ViewPixels::Host(Arc::new(host)))
            }
        }
    }

    /// Draw into the buffer the window paints from, on the window's device: where the
    /// state lives there, or on the host and uploaded.
    fn draw_on_window(
        &mut self,
        request: &ViewRequest,
        ctx: &Arc<GpuContext>,
    ) -> Result<ViewPixels, SimError> {
        let buffer = self.view_buffer_for(ctx, request);
        if !self.sim.render_view_device(request, &buffer)? {
            let mut host = vec![0; request.pixels()];
            self.sim.render_view_host(request, &mut host)?;
            ctx.queue
                .write_buffer(&buffer, 0, bytemuck::cast_slice(&host));
            ctx.submit([]);
        }
        Ok(ViewPixels::Device(buffer))
    }

    /// The buffer the window's painter reads, sized for `request` (kept between frames).
    pub(super) fn view_buffer_for(
        &mut self,
        ctx: &GpuContext,
        request: &ViewRequest,
    ) -> Arc<wgpu::Buffer> {
        let bytes = request.pixels() as u64 * 4;
        match &self.view_buffer {
            Some(b) if b.size() == bytes => b.clone(),
            _ => {
                let b = Arc::new(ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("view pixels"),
                    size: bytes,
                    usage: wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::COPY_DST
                        | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                }));
                self.view_buffer = Some(b.clone());
                b
            }
        }
    }
}
