//! gpu-bitpacked's compute pipelines, built once per device: the step kernels specialised per
//! (rule, generations per dispatch, topology, kernel shape) through permutation constants of
//! the one shader assembly path, so the rule's minterms fold away at compile time, plus
//! statistics, view, edit and fold kernels.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;
use crate::rule::{Circuit, Rule};

use super::kernel::StepKernel;
use super::{countdown, stream};

/// Size of one slot of the per-dispatch parameter ring (the dynamic-offset alignment).
pub const PARAM_SLOT: u64 = 256;

/// The kernels of `gpu-bitpacked` on one device.
pub struct Pipelines {
    /// Bind group layout of the step kernel and the fold (params with a dynamic offset, src,
    /// dst, births, epoch records).
    pub step_layout: wgpu::BindGroupLayout,
    step_pipeline_layout: wgpu::PipelineLayout,
    /// Step pipelines by key, each compiled once: the map's lock is held only to find or
    /// add a slot, so a world's first pipeline never waits for others being compiled in
    /// the background ([`super::device::BitWorld::new`]).
    step: Mutex<HashMap<StepKey, Arc<OnceLock<wgpu::ComputePipeline>>>>,
    /// Population and age histogram.
    pub stats: wgpu::ComputePipeline,
    /// Screen-resolution view of the ages.
    pub view: wgpu::ComputePipeline,
    /// Paint and erase.
    pub edits: wgpu::ComputePipeline,
    /// Epoch records into birth codes (bitpacked_fold.wgsl), with the step bind groups.
    pub fold: wgpu::ComputePipeline,
}

/// What a step pipeline is specialised for: rule, most generations per dispatch,
/// torus, kernel, variant.
type StepKey = (Rule, u32, bool, StepKernel, Variant);

/// What a stream step pipeline does besides stepping (the tile kernel has only `Direct`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Births one store each.
    Direct,
    /// Births one store each, and strips whose neighbourhood repeated replayed
    /// ([`super::replay`]).
    Replay,
    /// Births into epoch records ([`super::records`]).
    Records,
}

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
    pub fn on(ctx: &GpuContext) -> Arc<Pipelines> {
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
                    storage(4, false),
                    storage(5, true),
                    storage(6, false),
                    storage(7, false),
                    storage(8, false),
                ],
            });
        let step_pipeline_layout =
            ctx.device
                .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("bitpacked step"),
                    bind_group_layouts: &[Some(&step_layout)],
                    immediate_size: 0,
                });
        let [stats, view, edits, fold] = query_shaders();
        Pipelines {
            fold: ctx.compute_pipeline(&fold, Some(&step_pipeline_layout), false),
            step_layout,
            step_pipeline_layout,
            step: Mutex::new(HashMap::new()),
            stats: ctx.compute_pipeline(&stats, None, true),
            view: ctx.compute_pipeline(&view, None, true),
            edits: ctx.compute_pipeline(&edits, None, true),
        }
    }

    /// The step kernel `kernel` for `rule` on a torus or dead-border world, stepping up to
    /// `gens` generations per dispatch, as `variant` ([`step_shader`]).
    pub fn step(
        &self,
        ctx: &GpuContext,
        rule: Rule,
        (gens, torus): (u32, bool),
        kernel: StepKernel,
        variant: Variant,
    ) -> wgpu::ComputePipeline {
        // The tile kernel reads the topology from its parameters: one pipeline serves both.
        let torus = torus && kernel != StepKernel::Tile;
        let slot = self
            .step
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((rule, gens, torus, kernel, variant))
            .or_default()
            .clone();
        slot.get_or_init(|| {
            let shader = step_shader(rule, gens, torus, kernel, variant);
            ctx.compute_pipeline(&shader, Some(&self.step_pipeline_layout), false)
        })
        .clone()
    }
}

/// The statistics, view, edit and fold kernels.
pub fn query_shaders() -> [Shader; 4] {
    [
        Shader::new("life/bitpacked_stats.wgsl"),
        Shader::new("life/bitpacked_view.wgsl"),
        Shader::new("life/bitpacked_edits.wgsl"),
        Shader::new("life/bitpacked_fold.wgsl"),
    ]
}

/// The step kernel `kernel` for `rule`, `gens` generations per dispatch, on a torus or not
/// (the tile kernel's halo is `gens` rows; the stream kernel runs `gens` levels). The stream
/// kernel writes births one store each (replaying repeating strips with
/// [`Variant::Replay`]), or into epoch records folded by the `fold` kernel; `BitWorld` asks
/// the tile kernel only for [`Variant::Direct`].
pub fn step_shader(
    rule: Rule,
    gens: u32,
    torus: bool,
    kernel: StepKernel,
    variant: Variant,
) -> Shader {
    let shader = match kernel {
        StepKernel::Tile => Shader::new("life/bitpacked.wgsl").constant("HALO", gens),
        StepKernel::Stream {
            prefetch,
            group,
            ages,
            ..
        } => stream::shader(stream::Shape {
            levels: gens,
            prefetch,
            dying: rule.has_dying_states(),
        })
        .constant("AGES", ages)
        .constant("RECORDS", variant == Variant::Records)
        .constant("REPLAY", variant == Variant::Replay)
        .constant("GROUP", group)
        .constant("TORUS", torus),
    };
    let dying = countdown::planes(&rule);
    let start = u32::from(rule.states().saturating_sub(2));
    let shader = shader
        .constant("DYING", dying)
        .slot("dying", countdown::slot(dying, start));
    match rule.count_masks() {
        Some(masks) => shader
            .constant("BIRTH", u32::from(masks.birth))
            .constant("SURVIVE", u32::from(masks.survive))
            .slot("rule", COUNT_RULE),
        None => shader.slot("rule", circuit_rule(&Circuit::for_rule(&rule))),
    }
}

/// Slot `rule` of an outer-totalistic Moore rule: rows as horizontal sums, the count path.
pub(crate) const COUNT_RULE: &str = "alias Row = vec2<u32>;
fn row_of(left: u32, c: u32, right: u32) -> Row {
    return hsum(left, c, right);
}
fn next_state(up: Row, mid: Row, down: Row, alive: u32) -> u32 {
    return next_counts(up, mid, down, alive);
}
";

/// Slot `rule` of any other two-state rule: rows as (west, centre, east) words and the
/// rule's table compiled into bitwise operations (`rule_next`).
fn circuit_rule(circuit: &Circuit) -> String {
    let counts = if circuit.uses_counts() {
        "    let t = count_bits(row_sum(up), row_sum(mid), row_sum(down));\n"
    } else {
        "    let t = vec4<u32>(0u);\n"
    };
    format!(
        "alias Row = vec3<u32>;
fn row_of(left: u32, c: u32, right: u32) -> Row {{
    return vec3<u32>((c << 1u) | (left >> 31u), c, (c >> 1u) | (right << 31u));
}}
{program}
fn next_state(up: Row, mid: Row, down: Row, alive: u32) -> u32 {{
{counts}    return rule_next(up.x, up.y, up.z, mid.x, mid.y, mid.z, down.x, down.y, down.z,
        t.x, t.y, t.z, t.w);
}}
",
        program = circuit.to_wgsl("rule_next"),
    )
}
