//! Making things on a [`GpuContext`]: golab's shader modules and compute pipelines, buffers
//! filled without panicking on a lost device, bind groups, and per-device resources (compiled
//! pipelines shared by every stepper and experiment on the device).

use std::any::{Any, TypeId};
use std::cell::Cell;
use std::sync::Arc;
use std::time::Instant;

use super::GpuContext;

/// A background compiler, counted by [`GpuContext::background_compilers`] while it lives.
/// It holds the device's counter, not the device: the last reference to a device must not
/// be dropped on a compiler thread after the count says it is done (the process may then
/// be exiting, and a device torn down during exit crashes in the driver).
pub struct BackgroundCompile(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for BackgroundCompile {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
        IN_PROCESS.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// Background compilers in the process, every device together.
static IN_PROCESS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Wait up to `most` for the process's background compilers to finish: what the process
/// does before it exits, so that no thread is inside the driver while exit handlers run.
/// A compiler whose world is gone stops after the pipeline it is compiling.
pub fn wait_for_background_compiles(most: std::time::Duration) {
    let start = Instant::now();
    while IN_PROCESS.load(std::sync::atomic::Ordering::Acquire) > 0 && start.elapsed() < most {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

thread_local! {
    /// Seconds this thread has spent compiling pipelines ([`compile_seconds_here`]).
    static COMPILING: Cell<f64> = const { Cell::new(0.0) };
}

/// Seconds the calling thread has spent compiling compute pipelines (shader module and
/// pipeline creation): what start-up reports split from device setup and uploads, apart
/// from what the background compiler does on its own thread.
pub fn compile_seconds_here() -> f64 {
    COMPILING.with(Cell::get)
}

impl GpuContext {
    /// A compute shader module for golab's own kernels.
    ///
    /// wgpu guards every loop with an extra 64-bit iteration counter (`force_loop_bounding`)
    /// and every integer division with a zero/overflow check; the counter is a second loop
    /// exit that keeps drivers from unrolling the kernels' small fixed loops, which then keep
    /// per-thread arrays in local memory instead of registers. golab's kernels only loop over
    /// constant or validated bounds and only divide by constants or validated non-zero
    /// parameters, so both guards are dropped; buffer and array bounds checks stay.
    /// [`GpuOptions::shader_checks`] keeps every check, to measure what they cost.
    pub fn kernel_module(&self, label: &str, source: &str) -> wgpu::ShaderModule {
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        };
        if self.shader_checks {
            return self.device.create_shader_module(desc);
        }
        let mut checks = wgpu::ShaderRuntimeChecks::checked();
        checks.force_loop_bounding = false;
        checks.int_div_checks = false;
        // SAFETY: golab's WGSL kernels have no unbounded loops (every loop runs over a
        // constant or a host-validated count) and divide only by constants or by parameters
        // the host validates to be non-zero (world edges >= 3, sizes >= 1); bounds checks on
        // buffers and arrays are kept.
        unsafe { self.device.create_shader_module_trusted(desc, checks) }
    }

    /// A compute pipeline of `shader` (entry point `main`), assembled by the one assembly
    /// path ([`super::shader::Shader`]): an explicit `layout` or one derived from the shader,
    /// and whether workgroup memory is zeroed first (kernels that write all of it before
    /// reading can skip that).
    pub fn compute_pipeline(
        &self,
        shader: &super::shader::Shader,
        layout: Option<&wgpu::PipelineLayout>,
        zero_workgroup_memory: bool,
    ) -> wgpu::ComputePipeline {
        let started = Instant::now();
        let label = shader.label();
        let module = shader.module(self);
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&label),
                layout,
                module: &module,
                entry_point: Some("main"),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &[],
                    zero_initialize_workgroup_memory: zero_workgroup_memory,
                },
                cache: self.pipeline_cache.as_ref().map(|c| c.cache()),
            });
        if let Some(c) = &self.pipeline_cache {
            c.built_one();
        }
        COMPILING.with(|c| c.set(c.get() + started.elapsed().as_secs_f64()));
        pipeline
    }

    /// Threads still compiling pipelines in the background (a world's other walk lengths):
    /// what waits for them (a test of the pipeline cache) polls this down to 0.
    pub fn background_compilers(&self) -> usize {
        self.background.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Count a background compiler in until the returned guard is dropped.
    pub fn compiling_in_background(&self) -> BackgroundCompile {
        self.background
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        IN_PROCESS.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        BackgroundCompile(self.background.clone())
    }

    /// Write the pipeline cache to its file if pipelines were built since it was last
    /// written ([`super::pipeline_cache`]): the bytes written, or why not (never fatal: the
    /// next launch compiles again).
    pub fn save_pipeline_cache(&self) -> Result<Option<usize>, String> {
        match &self.pipeline_cache {
            Some(c) => c
                .save()
                .map_err(|e| format!("pipeline cache {}: {e}", c.file().display())),
            None => Ok(None),
        }
    }

    /// A buffer holding `contents`, for `usage` (plus `COPY_DST`). Unlike wgpu's
    /// `create_buffer_init`, which panics when the device is lost (its mapped-at-creation
    /// buffer is invalid), this writes through the queue: a lost device becomes an error
    /// reported by the operation, never a panic.
    pub fn buffer_with(
        &self,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        let size = (contents.len() as u64)
            .max(4)
            .next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let aligned = contents.len() - contents.len() % 4;
        self.queue.write_buffer(&buffer, 0, &contents[..aligned]);
        if aligned < contents.len() {
            let mut tail = [0u8; 4];
            tail[..contents.len() - aligned].copy_from_slice(&contents[aligned..]);
            self.queue.write_buffer(&buffer, aligned as u64, &tail);
        }
        buffer
    }

    /// A bind group giving `buffers` bindings 0, 1, 2… of `layout`, whole buffers each.
    pub fn bind_buffers(
        &self,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        buffers: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let numbered: Vec<(u32, &wgpu::Buffer)> = buffers
            .iter()
            .enumerate()
            .map(|(i, &b)| (i as u32, b))
            .collect();
        self.bind_buffers_at(label, layout, &numbered)
    }

    /// A bind group giving each buffer the binding number beside it in `layout`, whole
    /// buffers each: for kernels that declare only some of a family's bindings.
    pub fn bind_buffers_at(
        &self,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        buffers: &[(u32, &wgpu::Buffer)],
    ) -> wgpu::BindGroup {
        let entries: Vec<_> = buffers
            .iter()
            .map(|&(binding, buffer)| wgpu::BindGroupEntry {
                binding,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout,
            entries: &entries,
        })
    }

    /// A per-device resource (compiled pipelines of one kernel family), made by `make` the
    /// first time it is asked for and shared by every stepper and experiment on this device.
    pub fn resource<T: Any + Send + Sync>(&self, make: impl FnOnce(&GpuContext) -> T) -> Arc<T> {
        let key = TypeId::of::<T>();
        let cached = self
            .resources
            .lock()
            .ok()
            .and_then(|r| r.get(&key).cloned());
        if let Some(Ok(found)) = cached.map(|found| found.downcast::<T>()) {
            return found;
        }
        // Made outside the lock: pipelines take a while to compile, and `make` may itself ask
        // for other resources. Two threads racing here both compile; the first one stored wins.
        let made: Arc<dyn Any + Send + Sync> = Arc::new(make(self));
        let mut resources = self.resources.lock().unwrap_or_else(|e| e.into_inner());
        let stored = resources.entry(key).or_insert(made).clone();
        stored
            .downcast::<T>()
            .expect("resource stored under its own type")
    }
}

/// Bind group entries giving `buffers` bindings 0, 1, 2…, whole buffers each.
pub fn whole_buffer_entries<'a>(buffers: &[&'a wgpu::Buffer]) -> Vec<wgpu::BindGroupEntry<'a>> {
    buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect()
}
