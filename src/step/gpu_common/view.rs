//! [`crate::step::Stepper::render_view`] for device-resident worlds: one dispatch per chunk.

use wgpu::util::DeviceExt;

use super::GpuStepper;
use super::kernels::ViewParams;
use crate::step::view::ViewRequest;
use crate::step::{StepError, not_loaded};

/// Every pixel's half-open cell span: columns first, then rows (what view.wgsl reads).
pub fn pixel_spans(request: &ViewRequest, width: u32, height: u32) -> Vec<[u32; 2]> {
    let mut spans = request.column_spans(width);
    spans.extend(request.row_spans(height));
    spans
}

impl GpuStepper {
    /// Encode and submit the view of the device world into `out` (one submission, so a
    /// renderer reading `out` on the same queue never sees half of it).
    pub(super) fn render_device_view(
        &mut self,
        request: &ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<(), StepError> {
        let dev = self.dev.as_ref().ok_or_else(not_loaded)?;
        let device = &self.ctx.device;
        let spans = pixel_spans(request, dev.plan.width, dev.plan.height);
        let spans = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("view spans"),
            contents: bytemuck::cast_slice(&spans),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let pipeline = &self.kernels.view;
        let layout = pipeline.get_bind_group_layout(0);
        let groups: Vec<wgpu::BindGroup> = dev
            .plan
            .chunks
            .iter()
            .enumerate()
            .map(|(i, &(row0, rows))| {
                let params = ViewParams {
                    width_px: request.width_px,
                    height_px: request.height_px,
                    row0,
                    rows,
                    pitch: dev.plan.pitch,
                    col0: dev.plan.col0,
                    pad: [0; 2],
                };
                let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("view params"),
                    contents: bytemuck::bytes_of(&params),
                    usage: wgpu::BufferUsages::UNIFORM,
                });
                self.ctx.bind_buffers(
                    "life view",
                    &layout,
                    &[&params, &spans, &dev.bufs[dev.cur][i], out],
                )
            })
            .collect();
        let mut encoder = self.session.encoder();
        encoder.clear_buffer(out, 0, None);
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            for group in &groups {
                pass.set_bind_group(0, group, &[]);
                pass.dispatch_workgroups(
                    request.width_px.div_ceil(16),
                    request.height_px.div_ceil(16),
                    1,
                );
            }
        }
        self.ctx.queue.submit([encoder.finish()]);
        self.session.check_device()
    }
}
