//! The engine behind every GPU strategy: a [`GpuStepper`] configured by a [`GpuConfig`]
//! (which kernel, whether the host or the device holds the truth, how often to read back).
//! Each strategy module (`gpu_naive.rs` …) is a config plus its documented data flow.

pub mod device_world;
pub mod kernels;
mod reduce;
pub mod session;
pub mod transfer;
mod view;

pub use reduce::fold_edits;

use std::sync::Arc;
use std::time::Instant;

use device_world::DeviceWorld;
use kernels::{Kernel, LifeKernels};
use session::Session;
use transfer::{MemoryMode, Transfers};

use super::gpu_bitpacked::kernel::BitpackedTuning;
use super::{StepError, Stepper, Strategy, check_same_size, not_loaded};
use crate::gpu::GpuContext;
use crate::gpu::limits::plan_chunks;
use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// Where the truth lives between generations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Residency {
    /// The host copy is the truth: every generation uploads, computes and downloads,
    /// split into `strips` independent submissions (1 = one submission).
    Transfer {
        /// Horizontal strips, each uploaded, computed and downloaded on its own.
        strips: u32,
    },
    /// The device holds the truth; the host copy is refreshed every `download_every`
    /// generations (`None` = only when asked: switching, saving, the CLI's final report).
    Resident {
        /// Download period in generations.
        download_every: Option<u32>,
    },
}

/// What distinguishes one GPU strategy from another.
#[derive(Debug, Clone, Copy)]
pub struct GpuConfig {
    /// Strategy it implements.
    pub strategy: Strategy,
    /// Stepping kernel.
    pub kernel: Kernel,
    /// Transfer behaviour.
    pub residency: Residency,
}

/// Knobs shared by the GPU strategies, set from the CLI and the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuSettings {
    /// Memory mode of host↔device transfers.
    pub memory: MemoryMode,
    /// Download period of `gpu-readback-skip`.
    pub readback_interval: u32,
    /// Lower per-chunk byte limit (tests use it to force several chunks on small worlds).
    pub chunk_limit: Option<u64>,
    /// Step kernel and shape of `gpu-bitpacked`.
    pub bitpacked: BitpackedTuning,
}

impl Default for GpuSettings {
    fn default() -> Self {
        GpuSettings {
            memory: MemoryMode::Normal,
            readback_interval: 10,
            chunk_limit: None,
            bitpacked: BitpackedTuning::default(),
        }
    }
}

/// The device world and its transfer buffers, which `load` always creates together.
fn loaded<D, T>(dev: Option<D>, transfers: Option<T>) -> Result<(D, T), StepError> {
    dev.zip(transfers).ok_or_else(not_loaded)
}

/// A GPU strategy instance.
pub struct GpuStepper {
    cfg: GpuConfig,
    settings: GpuSettings,
    ctx: Arc<GpuContext>,
    kernels: Arc<LifeKernels>,
    /// Transfer strategies: the truth. Resident ones: a copy, valid when `host_fresh`.
    host: World,
    host_fresh: bool,
    dev: Option<DeviceWorld>,
    transfers: Option<Transfers>,
    session: Session,
}

impl GpuStepper {
    /// A stepper for `cfg` on `ctx`; call [`Stepper::load`] next.
    pub fn new(
        cfg: GpuConfig,
        settings: GpuSettings,
        ctx: Arc<GpuContext>,
        kernels: Arc<LifeKernels>,
    ) -> Result<Self, StepError> {
        if settings.memory == MemoryMode::ZeroCopy && !ctx.has_mappable_primary_buffers() {
            return Err(StepError::Unavailable {
                strategy: cfg.strategy.name(),
                reason: format!(
                    "memory mode zero-copy needs MAPPABLE_PRIMARY_BUFFERS, which {} does not offer",
                    ctx.info.name
                ),
            });
        }
        Ok(GpuStepper {
            cfg,
            settings,
            host: World::blank(3, 3, Default::default(), Default::default())
                .map_err(|e| StepError::Backend(e.to_string()))?,
            host_fresh: true,
            dev: None,
            transfers: None,
            session: Session::new(ctx.clone()),
            ctx,
            kernels,
        })
    }

    /// One generation with the host as the truth: upload, compute, download.
    fn transfer_generation(&mut self, strips: u32) -> Result<(), StepError> {
        let n = self.dev.as_ref().map_or(0, |d| d.plan.chunks.len());
        let groups: Vec<std::ops::Range<usize>> = if strips > 1 {
            (0..n).map(|i| i..i + 1).collect()
        } else {
            std::iter::once(0..n).collect()
        };
        let mut pending = Vec::new();
        let last = groups.len().saturating_sub(1);
        for (g, range) in groups.into_iter().enumerate() {
            let mut encoder = self.session.encoder();
            let host = &self.host;
            let (dev, transfers) = loaded(self.dev.as_mut(), self.transfers.as_mut())?;
            dev.cur = 0;
            transfers.upload(dev, host, 0, range.clone(), &mut encoder)?;
            dev.encode_step(&mut encoder, self.session.timer.as_mut(), range.clone());
            pending.extend(transfers.encode_download(dev, 1, range, &mut encoder));
            if let (true, Some(timer)) = (g == last, self.session.timer.as_mut()) {
                timer.resolve(&mut encoder);
            }
            self.ctx.queue.submit([encoder.finish()]);
        }
        let (dev, transfers) = loaded(self.dev.as_ref(), self.transfers.as_ref())?;
        transfers.finish_download(dev, &pending, &mut self.host)?;
        self.session.collect_gpu_time()?;
        self.host.generation += 1;
        self.session.check_device()
    }

    /// `gens` generations on the device in one submission.
    fn resident_batch(&mut self, gens: u64) -> Result<(), StepError> {
        let mut encoder = self.session.encoder();
        {
            let dev = self.dev.as_mut().ok_or_else(not_loaded)?;
            let n = dev.plan.chunks.len();
            for _ in 0..gens {
                dev.encode_halo_exchange(&mut encoder);
                dev.encode_step(&mut encoder, self.session.timer.as_mut(), 0..n);
                dev.swap();
            }
        }
        self.session.submit_and_wait(encoder)?;
        self.host.generation += gens;
        self.host_fresh = false;
        Ok(())
    }

    fn download(&mut self) -> Result<(), StepError> {
        let mut encoder = self.session.encoder();
        let pending = {
            let (dev, transfers) = loaded(self.dev.as_mut(), self.transfers.as_mut())?;
            let n = dev.plan.chunks.len();
            let cur = dev.cur;
            transfers.encode_download(dev, cur, 0..n, &mut encoder)
        };
        self.ctx.queue.submit([encoder.finish()]);
        let (dev, transfers) = loaded(self.dev.as_ref(), self.transfers.as_ref())?;
        transfers.finish_download(dev, &pending, &mut self.host)?;
        self.host_fresh = true;
        self.session.check_device()
    }
}

impl Stepper for GpuStepper {
    fn strategy(&self) -> Strategy {
        self.cfg.strategy
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        let strips = match self.cfg.residency {
            Residency::Transfer { strips } => strips,
            Residency::Resident { .. } => 1,
        };
        let plan = plan_chunks(
            world.width(),
            world.height(),
            self.cfg.kernel.column_halo(),
            self.cfg.kernel.pitch_align(),
            strips,
            &self.ctx.limits,
            self.settings.chunk_limit,
        )
        .map_err(|reason| StepError::TooLarge {
            strategy: self.cfg.strategy.name(),
            width: world.width(),
            height: world.height(),
            reason,
        })?;
        let mappable = self.settings.memory == MemoryMode::ZeroCopy;
        let dev = DeviceWorld::new(
            self.ctx.clone(),
            self.kernels.clone(),
            plan,
            self.cfg.kernel,
            world.rule,
            world.topology,
            mappable,
        );
        let mut transfers = Transfers::new(&dev, self.settings.memory);
        self.session.check_device()?;
        self.host = world.clone();
        self.host_fresh = true;
        if let Residency::Resident { .. } = self.cfg.residency {
            let mut encoder = self.session.encoder();
            let n = dev.plan.chunks.len();
            transfers.upload(&dev, world, 0, 0..n, &mut encoder)?;
            self.ctx.queue.submit([encoder.finish()]);
            self.ctx.wait_idle().map_err(StepError::DeviceLost)?;
        }
        self.dev = Some(dev);
        self.transfers = Some(transfers);
        self.session.check_device()
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        match self.cfg.residency {
            Residency::Transfer { strips } => {
                for _ in 0..generations {
                    self.transfer_generation(strips)?;
                }
            }
            Residency::Resident { download_every } => {
                let mut left = generations;
                while left > 0 {
                    let mut batch = left.min(self.session.gens_per_submit);
                    if let Some(every) = download_every {
                        let every = u64::from(every.max(1));
                        batch = batch.min(every - self.host.generation % every);
                    }
                    let start = Instant::now();
                    self.resident_batch(batch)?;
                    self.session.adapt_batch(
                        batch,
                        start.elapsed(),
                        Session::one_pass_per_generation(),
                    );
                    left -= batch;
                    if download_every.is_some_and(|every| {
                        self.host.generation.is_multiple_of(u64::from(every.max(1)))
                    }) {
                        self.download()?;
                    }
                }
            }
        }
        Ok(())
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        check_same_size(world, self.host.width(), self.host.height())?;
        if !self.host_fresh {
            self.download()?;
        }
        world.ages_mut().copy_from_slice(self.host.ages());
        world.generation = self.host.generation;
        Ok(())
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        if let Residency::Transfer { .. } = self.cfg.residency {
            self.host.apply_edits(edits);
            return Ok(());
        }
        if self.host_fresh {
            self.host.apply_edits(edits);
        }
        let dev = self.dev.as_ref().ok_or_else(not_loaded)?;
        let plan = &dev.plan;
        let mut per_chunk: Vec<Vec<[u32; 2]>> = vec![vec![]; plan.chunks.len()];
        for ((x, y), op) in fold_edits(edits, plan.width, plan.height) {
            let i = plan
                .chunks
                .iter()
                .position(|&(y0, rows)| y >= y0 && y < y0 + rows)
                .unwrap_or(0);
            let row = y - plan.chunks[i].0 + 1;
            per_chunk[i].push([row * plan.pitch + plan.col0 + x, op]);
        }
        let mut encoder = self.session.encoder();
        dev.encode_edits(&mut encoder, &per_chunk);
        self.ctx.queue.submit([encoder.finish()]);
        self.ctx.wait_idle().map_err(StepError::DeviceLost)?;
        self.session.check_device()
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        let resident = matches!(self.cfg.residency, Residency::Resident { .. });
        let gpu_can = buckets <= 64 && self.host.generation <= u64::from(u32::MAX);
        if resident && !self.host_fresh && gpu_can {
            return self.gpu_stats(buckets.max(1));
        }
        if !self.host_fresh {
            self.download()?;
        }
        Ok(Stats::from_ages(
            self.host.ages(),
            self.host.generation,
            buckets,
        ))
    }

    fn generation(&self) -> u64 {
        self.host.generation
    }

    fn host_world(&self) -> Option<&World> {
        self.host_fresh.then_some(&self.host)
    }

    fn render_view(
        &mut self,
        request: &crate::step::view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<bool, StepError> {
        if self.host_fresh || matches!(self.cfg.residency, Residency::Transfer { .. }) {
            return Ok(false);
        }
        self.render_device_view(request, out)?;
        Ok(true)
    }

    fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.session.take_gpu_seconds()
    }
}
