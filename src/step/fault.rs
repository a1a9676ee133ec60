//! Fault injection, so tests and users can rehearse a lost GPU device.
//!
//! [`FaultyStepper`] wraps a GPU stepper built while [`crate::config::Tuning::fault`] (from
//! `GOLAB_FAULT`) is set. At the first step that would go past the planned generation it makes
//! the device fail *before* the real stepper runs, so the stepper meets the loss through its
//! own detection (the device-lost callback, failed waits) and the app's recovery path handles
//! what it reports — exactly the code a real driver reset exercises:
//! - `device-lost@gen:N`: the device is reported lost ([`GpuContext::simulate_loss`]) but still
//!   works, like a reset that the device survived; recovery continues on the same device;
//! - `device-destroy@gen:N`: the device is destroyed (`wgpu::Device::destroy`), so every later
//!   use fails; recovery has to open a new one;
//! - `device-unplug@gen:N`: destroyed, and every adapter is hidden from this process, like an
//!   unplugged external GPU; recovery has to continue on the CPU.
//!
//! Each plan fires once per process.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::view::ViewRequest;
use super::{StepError, Stepper, Strategy, TransferCounts};
use crate::config::{FAULT_ENV, FaultKind, FaultPlan};
use crate::gpu::GpuContext;
use crate::stats::Stats;
use crate::world::{CellEdit, World};

static FIRED: AtomicBool = AtomicBool::new(false);

/// A GPU stepper whose device fails at a planned generation.
pub struct FaultyStepper {
    inner: Box<dyn Stepper>,
    plan: FaultPlan,
    ctx: Arc<GpuContext>,
}

impl FaultyStepper {
    /// Wrap `inner`, which runs on `ctx`.
    pub fn new(inner: Box<dyn Stepper>, plan: FaultPlan, ctx: Arc<GpuContext>) -> Self {
        FaultyStepper { inner, plan, ctx }
    }

    /// Break the device if a step of `generations` from the current generation passes the plan.
    fn maybe_fire(&self, generations: u64) {
        let past = self.inner.generation().saturating_add(generations) > self.plan.device_lost_at;
        if !past || FIRED.swap(true, Ordering::Relaxed) {
            return;
        }
        let reason = format!(
            "injected by {FAULT_ENV} at generation {}",
            self.plan.device_lost_at
        );
        match self.plan.kind {
            FaultKind::Reported => self.ctx.simulate_loss(&reason),
            FaultKind::Destroyed | FaultKind::Unplugged => {
                if self.plan.kind == FaultKind::Unplugged {
                    crate::gpu::hide_adapters();
                }
                self.ctx.device.destroy();
            }
        }
    }
}

impl Stepper for FaultyStepper {
    fn strategy(&self) -> Strategy {
        self.inner.strategy()
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        self.inner.load(world)
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        self.maybe_fire(generations);
        self.inner.step(generations)
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        self.inner.read_world(world)
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        self.inner.apply_edits(edits)
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        self.inner.stats(buckets)
    }

    fn generation(&self) -> u64 {
        self.inner.generation()
    }

    fn host_world(&self) -> Option<&World> {
        self.inner.host_world()
    }

    fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.inner.take_gpu_seconds()
    }

    fn transfer_counts(&self) -> TransferCounts {
        self.inner.transfer_counts()
    }

    fn tuning(&self) -> bool {
        self.inner.tuning()
    }

    fn take_report(&mut self) -> Result<Option<crate::step::KernelReport>, StepError> {
        self.inner.take_report()
    }

    fn batch_multiple(&self) -> u64 {
        self.inner.batch_multiple()
    }

    fn render_view(
        &mut self,
        request: &ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<bool, StepError> {
        self.inner.render_view(request, out)
    }
}
