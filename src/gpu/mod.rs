//! The one wgpu device golab shares between CLI, app, strategies and tests.
//!
//! [`GpuContext::new`] picks an adapter (by name through `--adapter` / `GOLAB_ADAPTER`,
//! else the high-performance default), asks for the adapter's real limits (large storage
//! bindings) and for the optional features golab uses when they are offered:
//! timestamp queries (compute-only timing), subgroups (the Lab) and mappable primary
//! buffers (the zero-copy memory mode).

mod health;
pub mod heater;
pub mod kernel_stats;
pub mod limits;
pub mod ops;
pub mod pipeline_cache;
pub mod pool;
mod report;
mod resources;
pub use resources::{BackgroundCompile, compile_seconds_here, wait_for_background_compiles};

pub use resources::whole_buffer_entries;
pub mod roofline;
pub mod shader;
pub mod timing;

use std::any::{Any, TypeId};
use std::collections::HashMap;
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

/// Adapter choice and how golab's kernels are compiled on it.
#[derive(Debug, Clone, Default)]
pub struct GpuOptions {
    /// Substring of the adapter name to pick; `None` uses the high-performance default.
    /// ([`crate::config::Tuning`] fills it from `--adapter` or [`ADAPTER_ENV`].)
    pub adapter: Option<String>,
    /// Compile golab's kernels with every wgpu runtime check (see [`GpuContext::kernel_module`]).
    pub shader_checks: bool,
    /// Directory of the persisted pipeline cache ([`pipeline_cache`]); `None`: none kept.
    /// ([`crate::config::Tuning`] fills it with the user's cache directory, or
    /// `GOLAB_PIPELINE_CACHE`.)
    pub pipeline_cache: Option<std::path::PathBuf>,
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
    /// The options the device was opened with (recovery reopens with the same).
    pub options: GpuOptions,
    /// Buffers reused across operations (read-backs, parameters, scratch).
    pub pool: pool::BufferPool,
    /// The pipeline cache kept between runs, where the options name a directory and the
    /// backend has one.
    pub pipeline_cache: Option<pipeline_cache::PersistedCache>,
    shader_checks: bool,
    lost: Arc<Mutex<Option<Loss>>>,
    errors: Arc<Mutex<Option<String>>>,
    resources: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
    submission_target_us: std::sync::atomic::AtomicU64,
    /// Threads compiling pipelines in the background ([`GpuContext::background_compilers`]).
    background: Arc<std::sync::atomic::AtomicUsize>,
}

/// Why a device counts as lost.
#[derive(Debug, Clone)]
struct Loss {
    reason: String,
    /// Injected by fault injection on a device that still works.
    simulated: bool,
}

/// How long one submission of Life generations may keep the queue busy by default: far
/// below OS GPU watchdogs (~2 s), long enough to amortise submission overhead.
pub const DEFAULT_SUBMISSION_TARGET: std::time::Duration = std::time::Duration::from_millis(40);

/// Whether an uncaptured error came from presenting to a window, not from compute work.
fn is_surface_error(message: &str) -> bool {
    message.contains("Surface::") || message.contains("surface texture")
}

static ADAPTERS_HIDDEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Hide every adapter from this process from now on, like an unplugged external GPU (fault
/// injection's `device-unplug`): later [`GpuContext::new`] calls find none.
pub fn hide_adapters() {
    ADAPTERS_HIDDEN.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether [`hide_adapters`] was called.
pub fn adapters_hidden() -> bool {
    ADAPTERS_HIDDEN.load(std::sync::atomic::Ordering::Relaxed)
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
        let wanted = options.adapter.clone().filter(|s| !s.trim().is_empty());
        let mut adapters = instance.enumerate_adapters(backends()).await;
        if adapters_hidden() {
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
            None if adapters_hidden() => None,
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
        Self::open(instance, adapter, options.clone()).await
    }

    async fn open(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        options: GpuOptions,
    ) -> Result<Arc<GpuContext>, GpuError> {
        let info = adapter.get_info();
        let optional = wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS
            | wgpu::Features::SUBGROUP
            | wgpu::Features::MAPPABLE_PRIMARY_BUFFERS
            | if options.pipeline_cache.is_some() {
                wgpu::Features::PIPELINE_CACHE
            } else {
                wgpu::Features::empty()
            };
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
                *slot = Some(Loss {
                    reason: format!("{reason:?}: {message}"),
                    simulated: false,
                });
            }
        });
        // wgpu panics on errors nobody captured. golab's own work runs in error scopes
        // (ops.rs); what is left (the window's renderer) is recorded here instead.
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
        let pipeline_cache = options
            .pipeline_cache
            .as_deref()
            .filter(|_| features.contains(wgpu::Features::PIPELINE_CACHE))
            .and_then(|dir| pipeline_cache::PersistedCache::open(&device, &info, dir));
        Ok(Arc::new(GpuContext {
            instance,
            adapter,
            device,
            queue,
            info,
            features,
            limits,
            pool: pool::BufferPool::new(),
            pipeline_cache,
            shader_checks: options.shader_checks,
            options,
            lost,
            errors,
            resources: Mutex::new(HashMap::new()),
            submission_target_us: std::sync::atomic::AtomicU64::new(
                DEFAULT_SUBMISSION_TARGET.as_micros() as u64,
            ),
            background: Arc::new(std::sync::atomic::AtomicUsize::new(0)),
        }))
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
}
