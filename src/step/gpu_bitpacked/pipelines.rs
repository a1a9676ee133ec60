//! gpu-bitpacked's compute pipelines, built once per device: the step kernels specialised per
//! (rule, generations per dispatch, topology, kernel shape) through pipeline-overridable
//! constants, so the rule's minterms fold away at pipeline creation, plus statistics, view and
//! edit kernels.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::gpu::GpuContext;
use crate::rule::Rule;

use super::kernel::StepKernel;
use super::stream;

/// Size of one slot of the per-dispatch parameter ring (the dynamic-offset alignment).
pub const PARAM_SLOT: u64 = 256;

/// The kernels of `gpu-bitpacked` on one device.
pub struct Pipelines {
    /// Bind group layout of the step kernel (params with a dynamic offset, src, dst, births).
    pub step_layout: wgpu::BindGroupLayout,
    step_pipeline_layout: wgpu::PipelineLayout,
    step: Mutex<HashMap<StepKey, wgpu::ComputePipeline>>,
    /// Population and age histogram.
    pub stats: wgpu::ComputePipeline,
    /// Screen-resolution view of the ages.
    pub view: wgpu::ComputePipeline,
    /// Paint and erase.
    pub edits: wgpu::ComputePipeline,
}

/// What a step pipeline is specialised for: rule, halo (most generations per dispatch),
/// torus, kernel.
type StepKey = (Rule, u32, bool, StepKernel);

const AGES: &str = include_str!("../../../shaders/life/bitpacked_ages.wgsl");

fn storage(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Pipelines {
    /// The device's gpu-bitpacked kernels, compiled the first time a world is loaded.
    pub fn on(ctx: &GpuContext) -> std::sync::Arc<Pipelines> {
        ctx.resource(Pipelines::new)
    }

    /// Compile the kernels on `ctx` (step pipelines are compiled when a world is loaded, once
    /// per rule and kernel shape, and for the stream kernel per topology).
    fn new(ctx: &GpuContext) -> Pipelines {
        let step_layout = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("bitpacked step"),
                entries: &[
                    wgpu::BindGroupLayoutEntry {
                        binding: 0,
                        visibility: wgpu::ShaderStages::COMPUTE,
                        ty: wgpu::BindingType::Buffer {
                            ty: wgpu::BufferBindingType::Uniform,
                            has_dynamic_offset: true,
                            min_binding_size: None,
                        },
                        count: None,
                    },
                    storage(1, true),
                    storage(2, false),
                    storage(3, false),
                ],
            });
        let step_pipeline_layout =
            ctx.device
                .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("bitpacked step"),
                    bind_group_layouts: &[Some(&step_layout)],
                    immediate_size: 0,
                });
        let with_ages = |label: &str, body: &str| {
            ctx.compute_pipeline(label, &format!("{AGES}\n{body}"), None, &[], true)
        };
        Pipelines {
            step_layout,
            step_pipeline_layout,
            step: Mutex::new(HashMap::new()),
            stats: with_ages(
                "bitpacked stats",
                include_str!("../../../shaders/life/bitpacked_stats.wgsl"),
            ),
            view: with_ages(
                "bitpacked view",
                include_str!("../../../shaders/life/bitpacked_view.wgsl"),
            ),
            edits: ctx.compute_pipeline(
                "bitpacked edits",
                include_str!("../../../shaders/life/bitpacked_edits.wgsl"),
                None,
                &[],
                true,
            ),
        }
    }

    /// The step kernel `kernel` for `rule` on a torus or dead-border world, stepping up to
    /// `halo` generations per dispatch.
    pub fn step(
        &self,
        ctx: &GpuContext,
        rule: Rule,
        halo: u32,
        torus: bool,
        kernel: StepKernel,
    ) -> wgpu::ComputePipeline {
        const COMMON: &str = include_str!("../../../shaders/life/bitpacked_step_common.wgsl");
        // The tile kernel reads the topology from its parameters: one pipeline serves both.
        let torus = torus && kernel != StepKernel::Tile;
        let mut cache = self.step.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry((rule, halo, torus, kernel))
            .or_insert_with(|| {
                let mut constants = vec![
                    ("BIRTH", f64::from(rule.birth)),
                    ("SURVIVE", f64::from(rule.survive)),
                ];
                let body = match kernel {
                    StepKernel::Tile => {
                        constants.push(("HALO", f64::from(halo)));
                        include_str!("../../../shaders/life/bitpacked.wgsl").to_string()
                    }
                    StepKernel::Stream {
                        strip,
                        prefetch,
                        group,
                        ..
                    } => {
                        constants.push(("STRIP", f64::from(strip)));
                        constants.push(("GROUP", f64::from(group)));
                        constants.push(("TORUS", f64::from(u8::from(torus))));
                        stream::source(stream::Shape { halo, prefetch })
                    }
                };
                ctx.compute_pipeline(
                    &format!("bitpacked step ({})", kernel.name()),
                    &format!("{body}\n{COMMON}"),
                    Some(&self.step_pipeline_layout),
                    &constants,
                    false,
                )
            })
            .clone()
    }
}
