//! Keeps a GPU busy — and its clocks up — while the host prepares the next measurement.
//!
//! A GPU left idle lowers its clocks within a fraction of a second and takes a while to raise
//! them again: on the lent H200, a 200-generation window of gpu-bitpacked timed right after
//! the host had re-loaded the world (~0.1 s of packing, the GPU idle) ran at a fraction of
//! the speed of the same window inside a continuous run. The benchmark runs a [`Heater`]
//! while it re-loads a window's world and stops it right before the window is timed: its
//! last submission has finished when [`Heater::stop`] returns, so nothing of it is timed,
//! and the gap before the measured work is one host round trip.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::GpuContext;
use super::shader::Shader;

/// The busy kernel's module.
pub fn shader() -> Shader {
    Shader::new("gpu/heater.wgsl")
}

/// How long one heater submission aims to run: short, so that stopping waits little.
const SUBMISSION: Duration = Duration::from_micros(500);
/// Most workgroups per heater dispatch.
const MOST_GROUPS: u32 = 65_535;

/// A thread keeping a device busy with short submissions of integer work.
pub struct Heater {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Result<u64, String>>>,
}

impl Heater {
    /// Start heating `ctx`'s device.
    pub fn start(ctx: Arc<GpuContext>) -> Heater {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("golab gpu heater".into())
            .spawn(move || {
                let (result, error) = ctx.scoped(|| heat(&ctx, &flag));
                match error {
                    Some(e) => Err(e.to_string()),
                    None => result,
                }
            })
            .ok();
        Heater { stop, thread }
    }

    /// Stop, once the last submission has finished: how many submissions it made (or the
    /// error, if the device failed).
    pub fn stop(mut self) -> Result<u64, String> {
        self.finish()
    }

    fn finish(&mut self) -> Result<u64, String> {
        self.stop.store(true, Ordering::Relaxed);
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err("the GPU heater thread panicked".into()),
            None => Ok(0),
        }
    }
}

impl Drop for Heater {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The busy kernel and its bindings, compiled once per device (a [`GpuContext`] resource).
struct HeaterKernel {
    pipeline: wgpu::ComputePipeline,
    group: wgpu::BindGroup,
}

impl HeaterKernel {
    fn new(ctx: &GpuContext) -> HeaterKernel {
        let pipeline = ctx.compute_pipeline(&shader(), None, false);
        let sink = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("heater sink"),
            size: 256,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let group = ctx.bind_buffers("heater", &pipeline.get_bind_group_layout(0), &[&sink]);
        HeaterKernel { pipeline, group }
    }
}

/// Submit busy dispatches one after another until `stop`, growing them until one takes
/// about [`SUBMISSION`].
fn heat(ctx: &GpuContext, stop: &AtomicBool) -> Result<u64, String> {
    let kernel = ctx.resource(HeaterKernel::new);
    let (mut groups, mut submissions) = (16u32, 0);
    while !stop.load(Ordering::Relaxed) {
        let start = Instant::now();
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&kernel.pipeline);
            pass.set_bind_group(0, &kernel.group, &[]);
            pass.dispatch_workgroups(groups, 1, 1);
        }
        ctx.wait_for(ctx.submit([encoder.finish()]))?;
        submissions += 1;
        if start.elapsed() < SUBMISSION / 2 {
            groups = (groups * 2).min(MOST_GROUPS);
        }
    }
    Ok(submissions)
}
