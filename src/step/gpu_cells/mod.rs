//! Worlds held on the device as one u32 age per cell, in chunk buffers: the representation of
//! the reference article's GPU strategies and of `gpu-resident`.
//!
//! [`CellState`] is its [`DeviceState`] (device-resident strategies run it through the
//! engine's [`crate::step::engine::ResidentStepper`]); [`transfer::TransferStepper`] is the
//! transfer layer of the strategies whose host copy is the truth.

pub mod chunks;
pub mod kernels;
pub mod ltl;
pub mod memory;
mod queries;
pub mod transfer;

use chunks::ChunkBuffers;
use kernels::{CellKernels, Kernel};
use memory::Transfers;

use super::engine::{DeviceState, Session};
use super::settings::{GpuSettings, MemoryMode};
use super::{StepError, Strategy, view};
use crate::gpu::limits::plan_chunks;
use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// A world's ages in chunk buffers plus the staging of its memory mode.
pub struct CellState {
    dev: ChunkBuffers,
    transfers: Transfers,
}

impl CellState {
    /// Chunk buffers for `world` stepped by `kernel`, cut into at least `strips` chunks, with
    /// nothing uploaded yet (zeroed).
    pub fn allocate(
        session: &Session,
        world: &World,
        settings: &GpuSettings,
        kernel: Kernel,
        strips: u32,
        strategy: Strategy,
    ) -> Result<CellState, StepError> {
        let ctx = &session.ctx;
        if settings.memory == MemoryMode::ZeroCopy && !ctx.has_mappable_primary_buffers() {
            return Err(StepError::Unavailable {
                strategy: strategy.name(),
                reason: format!(
                    "memory mode zero-copy needs MAPPABLE_PRIMARY_BUFFERS, which {} does not offer",
                    ctx.info.name
                ),
            });
        }
        // A rule table runs its tree whatever kernel the strategy runs other rules with.
        let kernel = if world.rule().is_table() {
            Kernel::Tree
        } else if world.rule().is_ltl() {
            Kernel::Ltl
        } else {
            kernel
        };
        let too_large = |reason| StepError::TooLarge {
            strategy: strategy.name(),
            width: world.width(),
            height: world.height(),
            reason,
        };
        let plan = plan_chunks(
            world.width(),
            world.height(),
            kernel.column_halo(),
            kernel.pitch_align(),
            strips,
            &ctx.limits,
            settings.chunk_limit,
        )
        .map_err(too_large)?;
        let dev = ChunkBuffers::new(
            ctx.clone(),
            CellKernels::on(ctx),
            plan,
            kernel,
            world.rule(),
            world.topology,
            settings.memory == MemoryMode::ZeroCopy,
            world.generation % 2 == 1,
        )
        .map_err(too_large)?;
        let transfers = Transfers::new(&dev, settings.memory);
        Ok(CellState { dev, transfers })
    }

    /// Chunks on the device.
    pub fn chunks(&self) -> usize {
        self.dev.plan.chunks.len()
    }

    /// Upload chunks `range` of `world` into the current buffers, step them one generation
    /// and record their download: the article's transfer round trip. Returns what to read.
    pub fn encode_round_trip(
        &mut self,
        session: &mut Session,
        world: &World,
        range: std::ops::Range<usize>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<Vec<(usize, wgpu::Buffer)>, StepError> {
        self.dev.cur = 0;
        self.transfers
            .upload(session, &self.dev, world, 0, range.clone(), encoder)?;
        self.dev
            .encode_step(encoder, session.timer.as_mut(), range.clone());
        Ok(self
            .transfers
            .encode_download(session, &self.dev, 1, range, encoder))
    }

    /// Read what [`CellState::encode_round_trip`] downloaded into `world`.
    pub fn finish_download(
        &mut self,
        session: &mut Session,
        index: wgpu::SubmissionIndex,
        pending: &[(usize, wgpu::Buffer)],
        world: &mut World,
    ) -> Result<(), StepError> {
        self.transfers
            .finish_download(session, index, &self.dev, pending, world)
    }
}

impl DeviceState for CellState {
    type Config = Kernel;

    fn load(
        session: &mut Session,
        world: &World,
        settings: &GpuSettings,
        kernel: Kernel,
        strategy: Strategy,
    ) -> Result<Self, StepError> {
        let mut state = CellState::allocate(session, world, settings, kernel, 1, strategy)?;
        let mut encoder = session.encoder();
        let n = state.chunks();
        state
            .transfers
            .upload(session, &state.dev, world, 0, 0..n, &mut encoder)?;
        session.submit_and_wait(encoder)?;
        Ok(state)
    }

    fn max_batch(&self, _generation: u64) -> u64 {
        Session::one_pass_per_generation()
    }

    fn encode_steps(
        &mut self,
        session: &mut Session,
        encoder: &mut wgpu::CommandEncoder,
        _generation: u64,
        gens: u64,
    ) {
        let n = self.chunks();
        for _ in 0..gens {
            self.dev.encode_halo_exchange(encoder);
            self.dev.encode_step(encoder, session.timer.as_mut(), 0..n);
            self.dev.swap();
        }
    }

    fn read_world(
        &mut self,
        session: &mut Session,
        _generation: u64,
        world: &mut World,
    ) -> Result<(), StepError> {
        let mut encoder = session.encoder();
        let (n, cur) = (self.chunks(), self.dev.cur);
        let pending = self
            .transfers
            .encode_download(session, &self.dev, cur, 0..n, &mut encoder);
        let index = session.submit(encoder);
        self.transfers
            .finish_download(session, index, &self.dev, &pending, world)
    }

    fn stats(
        &mut self,
        session: &mut Session,
        generation: u64,
        buckets: usize,
    ) -> Result<Option<Stats>, StepError> {
        if buckets > 64 || generation > u64::from(u32::MAX) {
            return Ok(None);
        }
        self.device_stats(session, generation, buckets).map(Some)
    }

    fn render_view(
        &mut self,
        session: &mut Session,
        _generation: u64,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<(), StepError> {
        self.device_view(session, request, out)
    }

    fn apply_edits(
        &mut self,
        session: &mut Session,
        _generation: u64,
        edits: &[CellEdit],
    ) -> Result<(), StepError> {
        self.device_edits(session, edits)
    }
}
