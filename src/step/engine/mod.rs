//! The one resident GPU engine.
//!
//! A [`DeviceState`] is a world held on the device in some representation — u32 ages in chunk
//! buffers ([`super::gpu_cells`]) or bit planes with birth codes ([`super::gpu_bitpacked`]) —
//! and knows how to record generations and answer queries (statistics, view, edits,
//! read-back) where the state lives. [`ResidentStepper`] is the one [`Stepper`] over any of
//! them: it owns batching, submission sizing, timing, error scopes, re-basing and the
//! optional periodic download that turns it into the article's `gpu-no-upload` /
//! `gpu-readback-skip`. The article's host-is-the-truth strategies are a transfer layer over
//! the same chunk buffers ([`super::gpu_cells::transfer`]).

pub mod edits;
pub mod session;

use std::sync::Arc;
use std::time::Instant;

pub use session::{Session, TransferCounts, scoped};

use super::settings::GpuSettings;
use super::{KernelReport, StepError, Stepper, Strategy, check_same_size, not_loaded, view};
use crate::gpu::GpuContext;
use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// A world held on a device in one representation.
pub trait DeviceState: Send + Sized + 'static {
    /// What varies between strategies sharing this representation (e.g. the step kernel).
    type Config: Copy + Send + 'static;

    /// Put `world` on the device (`strategy` names the stepper in errors).
    fn load(
        session: &mut Session,
        world: &World,
        settings: &GpuSettings,
        config: Self::Config,
        strategy: Strategy,
    ) -> Result<Self, StepError>;

    /// Most generations the next submission may hold from `generation`; 0 means the state
    /// must be re-based (read back and loaded again) first.
    fn max_batch(&self, generation: u64) -> u64;

    /// Record `gens` (≤ [`DeviceState::max_batch`]) generations from `generation` into `encoder`.
    fn encode_steps(
        &mut self,
        session: &mut Session,
        encoder: &mut wgpu::CommandEncoder,
        generation: u64,
        gens: u64,
    );

    /// Hear that the last batch from [`DeviceState::encode_steps`] stepped `gens` generations
    /// in `seconds` (kernel time where the device reports it, else wall time): a state that
    /// tunes its kernel shape by timing its own steps (gpu-bitpacked) learns from it.
    fn observe_batch(&mut self, gens: u64, seconds: f64) {
        let _ = (gens, seconds);
    }

    /// Whether the state is still tuning its kernel shape ([`crate::step::Stepper::tuning`]).
    fn tuning(&self) -> bool {
        false
    }

    /// Write every cell's age into `world` (a download).
    fn read_world(
        &mut self,
        session: &mut Session,
        generation: u64,
        world: &mut World,
    ) -> Result<(), StepError>;

    /// Population and age histogram reduced on the device; `None` when these `buckets` or this
    /// `generation` are beyond what the device reduction handles (the caller reads back).
    fn stats(
        &mut self,
        session: &mut Session,
        generation: u64,
        buckets: usize,
    ) -> Result<Option<Stats>, StepError>;

    /// Draw `request` into `out` (see [`view::render_host`]) in one submission.
    fn render_view(
        &mut self,
        session: &mut Session,
        generation: u64,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<(), StepError>;

    /// Paint and erase, with [`crate::world::edit_age`] semantics.
    fn apply_edits(
        &mut self,
        session: &mut Session,
        generation: u64,
        edits: &[CellEdit],
    ) -> Result<(), StepError>;

    /// Batches that are a multiple of this many generations suit the state best (the engine
    /// rounds a batch down to one where more generations follow).
    fn batch_multiple(&self) -> u64 {
        1
    }

    /// What the kernel is doing ([`Stepper::take_report`]; `None`: nothing to say).
    fn report(&mut self, _session: &mut Session) -> Result<Option<KernelReport>, StepError> {
        Ok(None)
    }
}

/// A host copy of a device-resident world, refreshed every `every` generations.
struct Downloads {
    every: u32,
    host: World,
    fresh: bool,
}

/// The one stepper over any [`DeviceState`].
pub struct ResidentStepper<S: DeviceState> {
    strategy: Strategy,
    config: S::Config,
    settings: GpuSettings,
    session: Session,
    state: Option<S>,
    generation: u64,
    /// Shape of the loaded world (size, rule, topology; ages unused), for re-basing.
    shape: Option<World>,
    downloads: Option<Downloads>,
}

impl<S: DeviceState> ResidentStepper<S> {
    /// A stepper for `strategy` on `ctx`; `download_every` keeps a host copy refreshed every
    /// that many generations (`None`: download only when asked). Call [`Stepper::load`] next.
    pub fn new(
        strategy: Strategy,
        config: S::Config,
        ctx: Arc<GpuContext>,
        settings: GpuSettings,
        download_every: Option<u32>,
    ) -> Result<Self, StepError> {
        let blank =
            || World::blank(3, 3, Default::default(), Default::default()).map_err(StepError::from);
        let downloads = match download_every {
            Some(every) => Some(Downloads {
                every: every.max(1),
                host: blank()?,
                fresh: false,
            }),
            None => None,
        };
        Ok(ResidentStepper {
            strategy,
            config,
            settings,
            session: Session::new(ctx),
            state: None,
            generation: 0,
            shape: None,
            downloads,
        })
    }

    fn state(&self) -> Result<&S, StepError> {
        self.state.as_ref().ok_or_else(not_loaded)
    }

    /// Run `work` as one scoped GPU operation of this stepper.
    fn op<T>(
        &mut self,
        work: impl FnOnce(&mut Self) -> Result<T, StepError>,
    ) -> Result<T, StepError> {
        let ctx = self.session.ctx.clone();
        scoped(&ctx, || work(self))
    }

    fn load_state(&mut self, world: &World) -> Result<(), StepError> {
        let state = S::load(
            &mut self.session,
            world,
            &self.settings,
            self.config,
            self.strategy,
        )?;
        self.state = Some(state);
        self.generation = world.generation;
        let mut shape = World::blank(world.width(), world.height(), world.topology, world.rule())?;
        shape.generation = world.generation;
        self.shape = Some(shape);
        if let Some(d) = self.downloads.as_mut() {
            d.host = world.clone();
            d.fresh = true;
        }
        Ok(())
    }

    fn blank_world(&self) -> Result<World, StepError> {
        let shape = self.shape.as_ref().ok_or_else(not_loaded)?;
        World::blank(shape.width(), shape.height(), shape.topology, shape.rule())
            .map_err(StepError::from)
    }

    /// Read the world back and load it again: [`Stepper::step`] does this by itself when the
    /// state asks (gpu-bitpacked's birth-code epochs, every ~2³¹ generations); public for tests.
    pub fn rebase(&mut self) -> Result<(), StepError> {
        self.op(|s| s.reload())
    }

    fn reload(&mut self) -> Result<(), StepError> {
        let mut world = self.blank_world()?;
        self.read_into(&mut world)?;
        self.load_state(&world)
    }

    fn read_into(&mut self, world: &mut World) -> Result<(), StepError> {
        if let Some(d) = self.downloads.as_ref().filter(|d| d.fresh) {
            check_same_size(world, d.host.width(), d.host.height())?;
            world.copy_cells_from(&d.host)?;
        } else {
            let generation = self.generation;
            let state = self.state.as_mut().ok_or_else(not_loaded)?;
            state.read_world(&mut self.session, generation, world)?;
        }
        world.generation = self.generation;
        Ok(())
    }

    /// Refresh the host copy (`gpu-no-upload`, `gpu-readback-skip`).
    fn download(&mut self) -> Result<(), StepError> {
        let Some(mut d) = self.downloads.take() else {
            return Ok(());
        };
        d.fresh = false;
        let generation = self.generation;
        let result = match self.state.as_mut() {
            Some(state) => state.read_world(&mut self.session, generation, &mut d.host),
            None => Err(not_loaded()),
        };
        d.host.generation = generation;
        d.fresh = result.is_ok();
        self.downloads = Some(d);
        result
    }

    fn step_batches(&mut self, generations: u64) -> Result<(), StepError> {
        let mut left = generations;
        while left > 0 {
            let generation = self.generation;
            if self.state()?.max_batch(generation) == 0 {
                self.reload()?;
            }
            let most = self.state()?.max_batch(generation);
            let mut batch = left.min(self.session.pacer.gens()).min(most);
            let whole = self.state()?.batch_multiple().max(1);
            if batch < left {
                // Batches of even length: no runt at the end, whose fixed costs (the last
                // block's pending birth moves) would time as a slower speed; and whole
                // blocks, since more follow, so no short block breaks what the state carries
                // from block to block (replay's repeat flags).
                batch = left.div_ceil(left.div_ceil(batch)).min(most);
                batch = super::whole_blocks(batch, whole);
            }
            if let Some(d) = &self.downloads {
                let every = u64::from(d.every);
                batch = batch.min(every - self.generation % every);
            }
            let start = Instant::now();
            let mut encoder = self.session.encoder();
            let generation = self.generation;
            let state = self.state.as_mut().ok_or_else(not_loaded)?;
            state.encode_steps(&mut self.session, &mut encoder, generation, batch);
            let kernel = self.session.submit_steps(encoder)?;
            if let Some(state) = self.state.as_mut() {
                state.observe_batch(batch, kernel.unwrap_or(start.elapsed().as_secs_f64()));
            }
            self.generation += batch;
            if let Some(d) = self.downloads.as_mut() {
                d.fresh = false;
            }
            self.session
                .adapt_batch(batch, start.elapsed(), kernel, most);
            left -= batch;
            if self
                .downloads
                .as_ref()
                .is_some_and(|d| self.generation.is_multiple_of(u64::from(d.every)))
            {
                self.download()?;
            }
        }
        Ok(())
    }
}

impl<S: DeviceState> Stepper for ResidentStepper<S> {
    fn strategy(&self) -> Strategy {
        self.strategy
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        self.strategy.check_loads(world)?;
        self.op(|s| s.load_state(world))?;
        // The world's pipelines are built: keep them for the next launch (best effort: a
        // cache that cannot be written only means compiling again next time).
        let _ = self.session.ctx.save_pipeline_cache();
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        self.op(|s| s.step_batches(generations))
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        self.op(|s| {
            let shape = s.shape.as_ref().ok_or_else(not_loaded)?;
            check_same_size(world, shape.width(), shape.height())?;
            s.read_into(world)
        })
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        self.op(|s| {
            let generation = s.generation;
            let state = s.state.as_mut().ok_or_else(not_loaded)?;
            state.apply_edits(&mut s.session, generation, edits)?;
            if let Some(d) = s.downloads.as_mut().filter(|d| d.fresh) {
                d.host.apply_edits(edits);
            }
            Ok(())
        })
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        self.op(|s| {
            if let Some(d) = s.downloads.as_ref().filter(|d| d.fresh) {
                return Ok(Stats::of_world(&d.host, buckets));
            }
            let generation = s.generation;
            let state = s.state.as_mut().ok_or_else(not_loaded)?;
            if let Some(stats) = state.stats(&mut s.session, generation, buckets.max(1))? {
                return Ok(stats);
            }
            let mut world = s.blank_world()?;
            s.read_into(&mut world)?;
            Ok(Stats::of_world(&world, buckets))
        })
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn host_world(&self) -> Option<&World> {
        self.downloads.as_ref().filter(|d| d.fresh).map(|d| &d.host)
    }

    fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.session.take_gpu_seconds()
    }

    fn transfer_counts(&self) -> TransferCounts {
        self.session.counts
    }

    fn tuning(&self) -> bool {
        self.state.as_ref().is_some_and(S::tuning)
    }

    fn take_report(&mut self) -> Result<Option<KernelReport>, StepError> {
        self.op(|s| match s.state.as_mut() {
            Some(state) => {
                // The submissions' pacing decisions join the kernel's own, in one report,
                // even for a kernel that describes nothing else.
                let paced = s.session.pacer.decisions();
                Ok(match state.report(&mut s.session)? {
                    Some(mut r) => {
                        r.decisions.extend(paced);
                        Some(r)
                    }
                    None if !paced.is_empty() => Some(KernelReport {
                        decisions: paced,
                        ..KernelReport::default()
                    }),
                    None => None,
                })
            }
            None => Ok(None),
        })
    }

    fn batch_multiple(&self) -> u64 {
        self.state.as_ref().map_or(1, S::batch_multiple)
    }

    fn render_view(
        &mut self,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<bool, StepError> {
        if request.pixels() == 0 {
            return Ok(true);
        }
        self.op(|s| {
            let generation = s.generation;
            let state = s.state.as_mut().ok_or_else(not_loaded)?;
            state.render_view(&mut s.session, generation, request, out)?;
            Ok(true)
        })
    }
}
