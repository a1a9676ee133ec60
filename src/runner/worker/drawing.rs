//! Drawing the world for the window on the simulation thread: the view the window asked
//! for, rendered where the state lives (on the device, or on the host and uploaded).

use std::sync::Arc;
use std::time::Instant;

use super::{FRAME, Worker};
use crate::gpu::GpuContext;
use crate::hashlife::draw::DENSITY_GENERATION;
use crate::runner::{ViewImage, ViewPixels, view_readback};
use crate::step::view::ViewRequest;
use crate::universe::{DrawTarget, UniverseError};

impl Worker {
    /// Draw the view the window wants, when it changed and a frame's time has passed (or
    /// drawing's own cost three times over, so drawing stays a minor share of the thread).
    pub(super) fn draw(&mut self) {
        let Some(request) = self.shared.wanted_view.lock().ok().and_then(|v| *v) else {
            return;
        };
        let generation = self.universe.generation();
        let fresh = self.drawn == Some((request, generation)) && !self.dirty;
        let every = FRAME.max(self.costs.draw * 3);
        let due = !self.running || self.costs.drawn_at.is_none_or(|t| t.elapsed() >= every);
        if fresh || !due || request.pixels() == 0 {
            return;
        }
        self.dirty = false;
        let start = Instant::now();
        let drawn = self.draw_view(&request);
        self.costs.draw = start.elapsed();
        self.costs.drawn_at = Some(Instant::now());
        match drawn {
            Ok(pixels) => {
                let rule = self.universe.rule();
                // Without ages a pixel's shade says how full it is, painted as if at
                // DENSITY_GENERATION (hashlife/draw.rs).
                let shown_at = if self.universe.capabilities().ages {
                    u64::try_from(generation).unwrap_or(u64::MAX)
                } else {
                    DENSITY_GENERATION
                };
                self.view = Some(ViewImage {
                    request,
                    generation: shown_at,
                    states: rule.states(),
                    colours: rule.rule_table().map(|t| Arc::new(t.colors.clone())),
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
    fn draw_view(&mut self, request: &ViewRequest) -> Result<ViewPixels, UniverseError> {
        let sim_ctx = self
            .universe
            .grid()
            .and_then(|g| g.factory().gpu().ok().cloned());
        let gpu = self.universe.capabilities().gpu;
        match (self.shared.draw_on.clone(), sim_ctx) {
            (Some(window), Some(sim_ctx)) if Arc::ptr_eq(&window, &sim_ctx) => {
                self.draw_on_window(request, &window)
            }
            (Some(window), _) if !gpu => self.draw_on_window(request, &window),
            (_, Some(sim_ctx)) if gpu => {
                let pixels = view_readback::render(self.universe.as_mut(), &sim_ctx, request)?;
                Ok(ViewPixels::Host(Arc::new(pixels)))
            }
            _ => {
                let mut host = vec![0; request.pixels()];
                self.universe.draw(request, DrawTarget::Host(&mut host))?;
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
    ) -> Result<ViewPixels, UniverseError> {
        let buffer = self.view_buffer_for(ctx, request);
        if !self.universe.draw(request, DrawTarget::Device(&buffer))? {
            let mut host = vec![0; request.pixels()];
            self.universe.draw(request, DrawTarget::Host(&mut host))?;
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
