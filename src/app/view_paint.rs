//! Drawing the view image: a wgpu paint callback reading the device buffer directly, or an
//! egui texture when the image is on the host (no wgpu renderer, e.g. in UI tests).

use std::sync::Arc;

use bytemuck::{Pod, Zeroable};
use eframe::egui_wgpu;
use egui::{Color32, Rect};

use super::colormap::{self, Colormap};
use crate::gpu::shader::Shader;
use crate::runner::{ViewImage, ViewPixels};

/// The paint shader's module (one permutation: no constants).
pub fn shader() -> Shader {
    Shader::new("app/view_paint.wgsl")
}

/// Every module of the app as (label, WGSL): the paint shader (tests/shaders.rs).
pub fn shader_permutations() -> Vec<(String, String)> {
    let shader = shader();
    vec![(
        shader.label(),
        shader.source().unwrap_or_else(|e| panic!("{e}")),
    )]
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct PaintUniform {
    width_px: u32,
    height_px: u32,
    generation: f32,
    srgb_target: u32,
    origin: [f32; 2],
    size: [f32; 2],
    states: u32,
    /// 1: colour by state from `state_colours` (a rule table's own colours).
    by_state: u32,
    /// The triangular layout: `(x + y) mod 2` of the image's first cell.
    parity: u32,
    pad: u32,
    /// 1: the hexagonal layout, 2: the triangular one (the next fields place the image;
    /// `origin`, `size` unused); 0: square.
    layout: u32,
    /// The image's cells per pixel.
    cells_per_pixel: f32,
    /// Display coordinates of the viewport's top-left corner, relative to the image's
    /// top-left cell's ([`super::camera::Camera::to_display`]).
    view_origin: [f32; 2],
    /// The viewport's size in display units.
    view_size: [f32; 2],
    pad2: [f32; 2],
    dead: [f32; 4],
    dying_first: [f32; 4],
    dying_last: [f32; 4],
    table: [[f32; 4]; 101],
    state_colours: [[f32; 4]; 256],
}

/// The render pipeline, kept in egui-wgpu's callback resources.
pub struct ViewPainter {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    srgb_target: bool,
    bind_group: Option<(Arc<wgpu::Buffer>, wgpu::BindGroup)>,
}

impl ViewPainter {
    /// Build the pipeline for eframe's render target and register it with the renderer.
    pub fn install(render_state: &egui_wgpu::RenderState) {
        let device = &render_state.device;
        // A render shader on eframe's device (no GpuContext here), so not a kernel module:
        // it keeps every wgpu runtime check. Assembled like every other golab shader.
        let source = shader().source().unwrap_or_else(|e| panic!("{e}"));
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("view paint"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("view paint"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(render_state.target_format.into())],
            }),
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("view paint uniform"),
            size: std::mem::size_of::<PaintUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let painter = ViewPainter {
            layout: pipeline.get_bind_group_layout(0),
            pipeline,
            uniform,
            srgb_target: render_state.target_format.is_srgb(),
            bind_group: None,
        };
        render_state
            .renderer
            .write()
            .callback_resources
            .insert(painter);
    }
}

struct ViewCallback {
    buffer: Arc<wgpu::Buffer>,
    uniform: PaintUniform,
}

impl egui_wgpu::CallbackTrait for ViewCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(painter) = resources.get_mut::<ViewPainter>() else {
            return Vec::new();
        };
        let mut uniform = self.uniform;
        uniform.srgb_target = u32::from(painter.srgb_target);
        queue.write_buffer(&painter.uniform, 0, bytemuck::bytes_of(&uniform));
        let same = painter
            .bind_group
            .as_ref()
            .is_some_and(|(b, _)| Arc::ptr_eq(b, &self.buffer));
        if !same {
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("view paint"),
                layout: &painter.layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: painter.uniform.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: self.buffer.as_entire_binding(),
                    },
                ],
            });
            painter.bind_group = Some((self.buffer.clone(), group));
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        let Some(painter) = resources.get::<ViewPainter>() else {
            return;
        };
        let Some((_, group)) = &painter.bind_group else {
            return;
        };
        pass.set_pipeline(&painter.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// Keeps the egui texture of host images between frames.
#[derive(Default)]
pub struct HostTexture {
    texture: Option<(egui::TextureHandle, HostImageKey)>,
}

/// What a host texture was drawn from: the generation, the colour map, the ages' buffer and
/// (by state, inverted); a change in any of them redraws it.
type HostImageKey = (u64, Colormap, usize, (bool, bool));

/// How cells look: the age colour map, whether a rule table's own colours are used, and
/// whether every colour is inverted (Golly's Invert Colors, B).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// The age colour map.
    pub map: Colormap,
    /// Draw rule tables in their own colours.
    pub rule_colours: bool,
    /// Invert every colour, the background too.
    pub invert: bool,
}

impl Look {
    /// `c` as this look shows it.
    pub fn colour(&self, c: Color32) -> Color32 {
        if self.invert {
            Color32::from_rgb(255 - c.r(), 255 - c.g(), 255 - c.b())
        } else {
            c
        }
    }

    /// Floats of `c` as this look shows it, for the shader.
    fn floats(&self, c: Color32) -> [f32; 4] {
        colour_floats(self.colour(c))
    }
}

/// Draw `image` clipped to the world view `rect` where `camera` puts it: stretched over its
/// cells on the square layout, each screen pixel reading its hexagon's or triangle's cell
/// on the others (the wgpu path; the host texture of UI tests draws the square layout).
pub fn paint(
    ui: &egui::Ui,
    rect: Rect,
    image: &ViewImage,
    camera: &super::camera::Camera,
    look: Look,
    host: &mut HostTexture,
) {
    let Look {
        map, rule_colours, ..
    } = look;
    let image_rect = camera.image_rect(rect, &image.request);
    let by_state = image.colours.as_ref().filter(|_| rule_colours);
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, look.colour(colormap::DEAD));
    match &image.pixels {
        ViewPixels::Device(buffer) => {
            let to_uv = |v: f32, lo: f32, len: f32| (v - lo) / len.max(1.0);
            let uniform = PaintUniform {
                width_px: image.request.width_px,
                height_px: image.request.height_px,
                generation: image.generation as f32,
                srgb_target: 0,
                origin: [
                    to_uv(image_rect.left(), rect.left(), rect.width()),
                    to_uv(image_rect.top(), rect.top(), rect.height()),
                ],
                size: [
                    image_rect.width() / rect.width().max(1.0),
                    image_rect.height() / rect.height().max(1.0),
                ],
                states: u32::from(image.states),
                by_state: u32::from(by_state.is_some()),
                parity: (image.request.x0 + image.request.y0).rem_euclid(2.0) as u32,
                pad: 0,
                layout: camera.layout.shader_code(),
                cells_per_pixel: image.request.cells_per_pixel as f32,
                view_origin: {
                    let base = camera.to_display(image.request.x0, image.request.y0);
                    let top_left = camera.display_at(rect, rect.min);
                    [
                        (top_left[0] - base[0]) as f32,
                        (top_left[1] - base[1]) as f32,
                    ]
                },
                view_size: (rect.size() / camera.cell_px).into(),
                pad2: [0.0; 2],
                dead: look.floats(colormap::DEAD),
                dying_first: look.floats(colormap::DYING_FIRST),
                dying_last: look.floats(colormap::DYING_LAST),
                table: colormap::table(map).map(|[r, g, b, a]| {
                    if look.invert {
                        [1.0 - r, 1.0 - g, 1.0 - b, a]
                    } else {
                        [r, g, b, a]
                    }
                }),
                state_colours: std::array::from_fn(|s| {
                    let [r, g, b] = by_state
                        .and_then(|c| c.get(s).copied())
                        .unwrap_or([255, 255, 255]);
                    look.floats(Color32::from_rgb(r, g, b))
                }),
            };
            let callback = ViewCallback {
                buffer: buffer.clone(),
                uniform,
            };
            painter.add(egui_wgpu::Callback::new_paint_callback(rect, callback));
        }
        ViewPixels::Host(ages) => {
            let key: HostImageKey = (
                image.generation,
                map,
                Arc::as_ptr(ages) as usize,
                (by_state.is_some(), look.invert),
            );
            let stale = host.texture.as_ref().is_none_or(|t| t.1 != key);
            if stale {
                let size = [
                    image.request.width_px as usize,
                    image.request.height_px as usize,
                ];
                let pixels: Vec<Color32> = ages
                    .iter()
                    .map(|&v| {
                        look.colour(match by_state {
                            Some(colours) => colormap::state_pixel_colour(colours, v),
                            None => colormap::pixel_colour(map, v, image.generation, image.states),
                        })
                    })
                    .collect();
                let img = egui::ColorImage {
                    size,
                    source_size: egui::vec2(size[0] as f32, size[1] as f32),
                    pixels,
                };
                let handle =
                    ui.ctx()
                        .load_texture("world view", img, egui::TextureOptions::NEAREST);
                host.texture = Some((handle, key));
            }
            if let Some((handle, ..)) = &host.texture {
                let uv = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
                painter.image(handle.id(), image_rect, uv, Color32::WHITE);
            }
        }
    }
}

fn colour_floats(c: Color32) -> [f32; 4] {
    [c.r(), c.g(), c.b(), 255].map(|v| f32::from(v) / 255.0)
}
