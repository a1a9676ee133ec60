//! [`StepperFactory`]: builds steppers on the shared GPU device (opened lazily, once) with the
//! GPU settings the user chose, wrapping them for fault injection when asked.

use std::sync::{Arc, OnceLock};

use super::fault::FaultyStepper;
use super::settings::{GpuSettings, MemoryMode};
use super::{StepError, Stepper, Strategy, cpu_bitsliced, cpu_grid, gpu_strategies};
use crate::gpu::{GpuContext, GpuError, GpuOptions};
use crate::world::World;

/// Builds steppers. Holds the shared GPU device (opened lazily, once) and GPU settings.
pub struct StepperFactory {
    gpu_options: Option<GpuOptions>,
    gpu: OnceLock<Result<Arc<GpuContext>, GpuError>>,
    /// Memory mode, readback interval, chunk limit, bitpacked tuning and injected faults.
    pub gpu_settings: GpuSettings,
    /// cpu-bitsliced's row kernel (`None`: [`cpu_bitsliced::Simd::detect`]).
    pub cpu_simd: Option<cpu_bitsliced::Simd>,
}

impl Default for StepperFactory {
    fn default() -> Self {
        StepperFactory::with_gpu(GpuOptions::default())
    }
}

impl StepperFactory {
    /// A factory for CPU strategies only (GPU strategies report themselves unavailable).
    pub fn cpu_only() -> Self {
        StepperFactory {
            gpu_options: None,
            gpu: OnceLock::new(),
            gpu_settings: GpuSettings::default(),
            cpu_simd: None,
        }
    }

    /// A factory that opens the GPU chosen by `options` the first time a GPU strategy is made.
    pub fn with_gpu(options: GpuOptions) -> Self {
        StepperFactory {
            gpu_options: Some(options),
            gpu: OnceLock::new(),
            gpu_settings: GpuSettings::default(),
            cpu_simd: None,
        }
    }

    /// A factory sharing an already opened device (the app shares eframe's).
    pub fn with_context(ctx: Arc<GpuContext>) -> Self {
        let factory = StepperFactory::cpu_only();
        let _ = factory.gpu.set(Ok(ctx));
        factory
    }

    /// A factory with the same GPU device (opened now if not yet) and the same settings;
    /// change its settings without touching this one.
    pub fn sharing_device(&self) -> StepperFactory {
        let shared = StepperFactory {
            gpu_options: self.gpu_options.clone(),
            gpu: OnceLock::new(),
            gpu_settings: self.gpu_settings,
            cpu_simd: self.cpu_simd,
        };
        let _ = shared.gpu.set(self.gpu().cloned());
        shared
    }

    /// The GPU device, opened on first use; the error says why there is none.
    pub fn gpu(&self) -> Result<&Arc<GpuContext>, GpuError> {
        self.gpu
            .get_or_init(|| {
                let options = self.gpu_options.clone().ok_or(GpuError::NoAdapter {
                    wanted: None,
                    available: vec!["(GPU disabled for this run)".into()],
                })?;
                GpuContext::new(&options)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Why `strategy` cannot be created here, if it cannot.
    pub fn unavailable_reason(&self, strategy: Strategy) -> Option<String> {
        if !strategy.is_gpu() {
            return None;
        }
        match self.gpu() {
            Err(e) => Some(e.to_string()),
            Ok(ctx)
                if strategy.uses_memory_mode()
                    && self.gpu_settings.memory == MemoryMode::ZeroCopy
                    && !ctx.has_mappable_primary_buffers() =>
            {
                Some(format!(
                    "zero-copy needs MAPPABLE_PRIMARY_BUFFERS, which {} lacks",
                    ctx.info.name
                ))
            }
            Ok(_) => None,
        }
    }

    /// A stepper of `strategy` holding `world`.
    pub fn create(&self, strategy: Strategy, world: &World) -> Result<Box<dyn Stepper>, StepError> {
        let mut stepper: Box<dyn Stepper> = match strategy {
            Strategy::Scalar => Box::new(cpu_grid::GridStepper::serial()),
            Strategy::Rayon => Box::new(cpu_grid::GridStepper::parallel()),
            Strategy::CpuBitsliced => Box::new(match self.cpu_simd {
                Some(simd) => cpu_bitsliced::BitslicedStepper::with_simd(simd),
                None => cpu_bitsliced::BitslicedStepper::new(),
            }),
            Strategy::Hashlife => {
                return Err(StepError::Unavailable {
                    strategy: strategy.name(),
                    reason: "hashlife is the hashed universe, not a grid stepper: the world converts to it (crate::universe::convert)".into(),
                });
            }
            _ => {
                let ctx = self.gpu().map_err(|e| StepError::Unavailable {
                    strategy: strategy.name(),
                    reason: e.to_string(),
                })?;
                let mut settings = self.gpu_settings;
                if !strategy.uses_memory_mode() {
                    settings.memory = MemoryMode::Normal;
                }
                let stepper = gpu_strategies::build(strategy, ctx.clone(), settings)?;
                match settings.fault {
                    Some(plan) => Box::new(FaultyStepper::new(stepper, plan, ctx.clone())),
                    None => stepper,
                }
            }
        };
        if !strategy.fills_joined_ring() {
            stepper = Box::new(super::joined::JoinedAdapter::new(stepper));
        }
        stepper.load(world)?;
        Ok(stepper)
    }
}
