//! The transfer layer: the reference article's strategies whose host copy is the truth
//! (`gpu-naive`, `gpu-padded`, `gpu-shared`, `gpu-streamed`). Every generation uploads the
//! host world into the chunk buffers of a [`CellState`], steps it once and downloads it, in
//! one submission or one per strip; edits, statistics and views use the host copy.

use std::sync::Arc;

use super::CellState;
use super::kernels::Kernel;
use crate::gpu::GpuContext;
use crate::stats::Stats;
use crate::step::engine::{Session, TransferCounts, scoped};
use crate::step::settings::GpuSettings;
use crate::step::{StepError, Stepper, Strategy, check_same_size, not_loaded};
use crate::world::{CellEdit, World};

/// A GPU strategy whose host copy is the truth.
pub struct TransferStepper {
    strategy: Strategy,
    kernel: Kernel,
    strips: u32,
    settings: GpuSettings,
    session: Session,
    host: World,
    state: Option<CellState>,
}

impl TransferStepper {
    /// A stepper for `strategy` running `kernel` over `strips` independently submitted strips
    /// (1 = one submission per generation); call [`Stepper::load`] next.
    pub fn new(
        strategy: Strategy,
        kernel: Kernel,
        strips: u32,
        ctx: Arc<GpuContext>,
        settings: GpuSettings,
    ) -> Result<Self, StepError> {
        Ok(TransferStepper {
            strategy,
            kernel,
            strips,
            settings,
            session: Session::new(ctx),
            host: World::blank(3, 3, Default::default(), Default::default())?,
            state: None,
        })
    }

    /// One generation: upload, compute, download, as one submission per strip.
    fn generation(&mut self) -> Result<(), StepError> {
        let state = self.state.as_mut().ok_or_else(not_loaded)?;
        let n = state.chunks();
        let groups: Vec<std::ops::Range<usize>> = if self.strips > 1 {
            (0..n).map(|i| i..i + 1).collect()
        } else {
            std::iter::once(0..n).collect()
        };
        let mut pending = Vec::new();
        let mut last = None;
        let count = groups.len();
        for (g, range) in groups.into_iter().enumerate() {
            let mut encoder = self.session.encoder();
            pending.extend(state.encode_round_trip(
                &mut self.session,
                &self.host,
                range,
                &mut encoder,
            )?);
            if let (true, Some(timer)) = (g + 1 == count, self.session.timer.as_mut()) {
                timer.resolve(&mut encoder);
            }
            last = Some(self.session.submit(encoder));
            self.session.counts.step_submissions += 1;
        }
        let index = last.ok_or_else(not_loaded)?;
        state.finish_download(&mut self.session, index.clone(), &pending, &mut self.host)?;
        self.session.collect_gpu_time(index)?;
        self.host.generation += 1;
        Ok(())
    }
}

impl Stepper for TransferStepper {
    fn strategy(&self) -> Strategy {
        self.strategy
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        self.strategy.check_loads(world)?;
        let ctx = self.session.ctx.clone();
        scoped(&ctx, || {
            let state = CellState::allocate(
                &self.session,
                world,
                &self.settings,
                self.kernel,
                self.strips,
                self.strategy,
            )?;
            self.state = Some(state);
            self.host = world.clone();
            Ok(())
        })
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        let ctx = self.session.ctx.clone();
        scoped(&ctx, || {
            for _ in 0..generations {
                self.generation()?;
            }
            Ok(())
        })
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        check_same_size(world, self.host.width(), self.host.height())?;
        world.copy_cells_from(&self.host)?;
        world.generation = self.host.generation;
        Ok(())
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        self.host.apply_edits(edits);
        Ok(())
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        Ok(Stats::of_world(&self.host, buckets))
    }

    fn generation(&self) -> u64 {
        self.host.generation
    }

    fn host_world(&self) -> Option<&World> {
        Some(&self.host)
    }

    fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.session.take_gpu_seconds()
    }

    fn transfer_counts(&self) -> TransferCounts {
        self.session.counts
    }
}
