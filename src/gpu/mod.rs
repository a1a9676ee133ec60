//! The one wgpu device golab shares between CLI, app, strategies and tests.
//!
//! [`GpuContext::new`] picks an adapter (by name through `--adapter` / `GOLAB_ADAPTER`,
//! else the high-performance default), asks for the adapter's real limits (large storage
//! bindings) and for the optional features golab uses when they are offered:
//! timestamp queries (compute-only timing), subgroups (the Lab) and mappable primary
//! buffers (the zero-copy memory mode).

pub mod limits;
pub mod roofline;
pub mod timing;

use std::sync::{Arc, Mutex};

use thiserror::Error;

/// What to tell a user whose machine has no usable adapter.
pub const LAVAPIPE_HINT: &str = "install a Vulkan driver; with no GPU, Mesa's software driver (lavapipe) works: \
     `sudo apt-get install libvulkan1 mesa-vulkan-drivers` (scripts/setup-system does this)";

/// Environment variable naming the adapter to use (a case-insensitive substring of its name).
pub const ADAPTER_ENV: &str = "GOLAB_ADAPTER";

/// Why the GPU could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GpuError {
    /// No adapter (or none matching the requested name).
    #[error("no GPU adapter{} was found (available: {}); {LAVAPIPE_HINT}",
        wanted.as_ref().map(|w| format!(" matching '{w}'")).unwrap_or_default(),
        if available.is_empty() { "none".to_string() } else { available.join("; ") })]
    NoAdapter {
        /// The requested adapter name, if any.
        wanted: Option<String>,
        /// Adapters that exist.
        available: Vec<String>,
    },
    /// The adapter refused to create a device.
    #[error("the GPU adapter '{adapter}' could not open a device: {message}")]
    RequestDevice {
        /// Adapter name.
        adapter: String,
        /// wgpu's message.
        message: String,
    },
}

/// Adapter choice.
#[derive(Debug, Clone, Default)]
pub struct GpuOptions {
    /// Substring of the adapter name to pick; `None` reads [`ADAPTER_ENV`], then uses the default.
    pub adapter: Option<String>,
}

/// A wgpu device and queue plus what golab learned about them.
pub struct GpuContext {
    /// The instance the adapter belongs to (the app's window surface is made from it).
    pub instance: wgpu::Instance,
    /// The adapter the device came from.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// Adapter name, backend, type, driver.
    pub info: wgpu::AdapterInfo,
    /// Features enabled on the device.
    pub features: wgpu::Features,
    /// Limits enabled on the device (the adapter's own).
    pub limits: wgpu::Limits,
    lost: Arc<Mutex<Option<String>>>,
    errors: Arc<Mutex<Option<String>>>,
    submission_target_us: std::sync::atomic::AtomicU64,
}

/// Set to `1` to compile golab's kernels with every wgpu runtime check (see
/// [`GpuContext::kernel_module`]).
pub const SHADER_CHECKS_ENV: &str = "GOLAB_SHADER_CHECKS";

/// Whether the environment variable `name` is set to `1` (golab's measuring switches).
pub fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| v.trim() == "1")
}

/// The number the environment variable `name` holds, if it is set to one (golab's tuning
/// knobs).
pub fn env_u32(name: &str) -> Option<u32> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// How long one submission of Life generations may keep the queue busy by default: far
/// below OS GPU watchdogs (~2 s), long enough to amortise submission overhead.
pub const DEFAULT_SUBMISSION_TARGET: std::time::Duration = std::time::Duration::from_millis(40);

/// Whether an uncaptured error came from presenting to a window, not from compute work.
fn is_surface_error(message: &str) -> bool {
    message.contains("Surface::") || message.contains("surface texture")
}

fn describe_adapter(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
}

/// Backends golab tries: `WGPU_BACKEND` if set, else the primary native APIs (Vulkan/Metal/DX12).
fn backends() -> wgpu::Backends {
    wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY)
}

impl GpuContext {
    /// Open the chosen adapter's device with every optional feature golab can use.
    pub fn new(options: &GpuOptions) -> Result<Arc<GpuContext>, GpuError> {
        pollster::block_on(Self::new_async(options))
    }

    async fn new_async(options: &GpuOptions) -> Result<Arc<GpuContext>, GpuError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends();
        let instance = wgpu::Instance::new(desc);
        let wanted = options
            .adapter
            .clone()
            .or_else(|| std::env::var(ADAPTER_ENV).ok())
            .filter(|s| !s.trim().is_empty());
        let mut adapters = instance.enumerate_adapters(backends()).await;
        if crate::step::fault::adapters_unplugged() {
            adapters.clear();
        }
        let available: Vec<String> = adapters
            .iter()
            .map(|a| describe_adapter(&a.get_info()))
            .collect();
        let adapter = match &wanted {
            Some(name) => {
                let needle = name.to_ascii_lowercase();
                adapters
                    .into_iter()
                    .find(|a| a.get_info().name.to_ascii_lowercase().contains(&needle))
            }
            None if crate::step::fault::adapters_unplugged() => None,
            None => instance
                .request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::HighPerformance,
                    force_fallback_adapter: false,
                    compatible_surface: None,
                    apply_limit_buckets: false,
                })
                .await
                .ok(),
        };
        let adapter = adapter.ok_or(GpuError::NoAdapter { wanted, available })?;
        Self::open(instance, adapter).await
    }

    async fn open(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
    ) -> Result<Arc<GpuContext>, GpuError> {
        let info = adapter.get_info();
        let optional = wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS
            | wgpu::Features::SUBGROUP
            | wgpu::Features::MAPPABLE_PRIMARY_BUFFERS;
        let features = adapter.features() & optional;
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("golab"),
                required_features: features,
                required_limits: limits.clone(),
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| GpuError::RequestDevice {
                adapter: info.name.clone(),
                message: e.to_string(),
            })?;
        let lost = Arc::new(Mutex::new(None));
        let lost_flag = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut slot) = lost_flag.lock() {
                *slot = Some(format!("{reason:?}: {message}"));
            }
        });
        // wgpu panics on errors nobody captured; record them instead so callers can report
        // a clear message and keep the world.
        let errors = Arc::new(Mutex::new(None));
        let error_slot = errors.clone();
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            let message = error.to_string();
            // The app's window surface shares this device; egui-wgpu retries its own surface
            // configuration, so those errors are not the simulation's.
            if is_surface_error(&message) {
                return;
            }
            if let Ok(mut slot) = error_slot.lock() {
                slot.get_or_insert(message);
            }
        }));
        Ok(Arc::new(GpuContext {
            instance,
            adapter,
            device,
            queue,
            info,
            features,
            limits,
            lost,
            errors,
            submission_target_us: std::sync::atomic::AtomicU64::new(
                DEFAULT_SUBMISSION_TARGET.as_micros() as u64,
            ),
        }))
    }

    /// A compute shader module for golab's own kernels.
    ///
    /// wgpu guards every loop with an extra 64-bit iteration counter (`force_loop_bounding`)
    /// and every integer division with a zero/overflow check; the counter is a second loop
    /// exit that keeps drivers from unrolling the kernels' small fixed loops, which then keep
    /// per-thread arrays in local memory instead of registers. golab's kernels only loop over
    /// constant or validated bounds and only divide by constants or validated non-zero
    /// parameters, so both guards are dropped; buffer and array bounds checks stay.
    /// [`SHADER_CHECKS_ENV`]`=1` keeps every check, to measure what they cost.
    pub fn kernel_module(&self, label: &str, source: &str) -> wgpu::ShaderModule {
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        };
        if env_flag(SHADER_CHECKS_ENV) {
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

    /// How long a stepper's submission should keep the queue busy: 40 ms for the CLI (few
    /// submissions), shorter in the app, whose window frames share the queue.
    pub fn submission_target(&self) -> std::time::Duration {
        let us = self
            .submission_target_us
            .load(std::sync::atomic::Ordering::Relaxed);
        std::time::Duration::from_micros(us)
    }

    /// Change [`GpuContext::submission_target`] for every stepper on this device.
    pub fn set_submission_target(&self, target: std::time::Duration) {
        let us = target.as_micros().clamp(1000, 1_000_000) as u64;
        self.submission_target_us
            .store(us, std::sync::atomic::Ordering::Relaxed);
    }

    /// A bind group giving `buffers` bindings 0, 1, 2… of `layout`, whole buffers each.
    pub fn bind_buffers(
        &self,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        buffers: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout,
            entries: &entries,
        })
    }

    /// "name (backend, type)".
    pub fn adapter_name(&self) -> String {
        describe_adapter(&self.info)
    }

    /// Whether timestamp queries (compute-only timing) are available.
    pub fn has_timestamps(&self) -> bool {
        self.features.contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// Whether subgroup operations are available.
    pub fn has_subgroups(&self) -> bool {
        self.features.contains(wgpu::Features::SUBGROUP)
    }

    /// Whether storage buffers may be mapped by the host (zero-copy memory mode).
    pub fn has_mappable_primary_buffers(&self) -> bool {
        self.features
            .contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS)
    }

    /// Why the device was lost, once it has been.
    pub fn lost_reason(&self) -> Option<String> {
        self.lost.lock().ok().and_then(|l| l.clone())
    }

    /// The first GPU error nobody captured since the last call (validation, out of memory).
    pub fn take_error(&self) -> Option<String> {
        self.errors.lock().ok().and_then(|mut e| e.take())
    }

    /// Wait for all submitted work; an error means the device is gone or hung.
    pub fn wait_idle(&self) -> Result<(), String> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// A multi-line report for `golab gpu-info`.
    pub fn report(&self) -> String {
        let l = &self.limits;
        let mut out = String::new();
        out.push_str(&format!("adapter      {}\n", self.info.name));
        out.push_str(&format!("backend      {:?}\n", self.info.backend));
        out.push_str(&format!("device type  {:?}\n", self.info.device_type));
        out.push_str(&format!(
            "driver       {} {}\n",
            self.info.driver, self.info.driver_info
        ));
        let yes = |b: bool| if b { "yes" } else { "no" };
        out.push_str(&format!("timestamps   {}\n", yes(self.has_timestamps())));
        out.push_str(&format!(
            "subgroups    {} (size {}..={})\n",
            yes(self.has_subgroups()),
            self.info.subgroup_min_size,
            self.info.subgroup_max_size
        ));
        out.push_str(&format!(
            "zero-copy    {} (MAPPABLE_PRIMARY_BUFFERS)\n",
            yes(self.has_mappable_primary_buffers())
        ));
        out.push_str(&format!("max buffer   {} MiB\n", l.max_buffer_size >> 20));
        out.push_str(&format!(
            "max storage binding  {} MiB\n",
            l.max_storage_buffer_binding_size >> 20
        ));
        out.push_str(&format!(
            "workgroup memory     {} KiB\n",
            l.max_compute_workgroup_storage_size >> 10
        ));
        out.push_str(&format!(
            "workgroup invocations {}\n",
            l.max_compute_invocations_per_workgroup
        ));
        out.push_str(&format!(
            "workgroups per dimension {}\n",
            l.max_compute_workgroups_per_dimension
        ));
        out.push_str(&format!(
            "largest world (gpu strategies) {}\n",
            limits::largest_square_world(l)
        ));
        out
    }
}
