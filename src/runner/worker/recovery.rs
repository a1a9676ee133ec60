//! Surviving a lost GPU device in the simulation thread: the recovery copy of the world kept
//! while running, and continuing from it on the same device (when it still works), a new one,
//! or the CPU (docs/reliability.md).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Worker;
use crate::gpu::GpuContext;
use crate::sim::Simulation;
use crate::step::{GpuSettings, StepperFactory, Strategy};
use crate::universe::GridUniverse;

/// The last host copy of the world, kept while a GPU strategy runs so a lost device costs at
/// most the generations since it was taken.
pub(super) struct Recovery {
    pub(super) world: Arc<Mutex<Option<crate::world::World>>>,
    pub(super) taken_at: Instant,
    pub(super) cost: Duration,
    pub(super) stale: bool,
    /// Whether the world may have changed since the copy was taken (a step or a command);
    /// an untouched world is not copied again, so an idle app does no periodic work.
    pub(super) touched: bool,
    pub(super) gpu_lost: Option<String>,
}

impl Recovery {
    /// Nothing kept yet; `world` is the slot the runner shares with the crash handler.
    pub(super) fn new(world: Arc<Mutex<Option<crate::world::World>>>) -> Recovery {
        Recovery {
            world,
            taken_at: Instant::now(),
            cost: Duration::ZERO,
            stale: true,
            touched: true,
            gpu_lost: None,
        }
    }
}

/// Least time between recovery snapshots; more when a snapshot is slow (at most ~5 % of the
/// thread's time goes to them).
pub(super) const RECOVERY_EVERY: Duration = Duration::from_secs(2);

impl Worker {
    /// Refresh the recovery copy of the world when it is due (it also serves the crash
    /// handler, so CPU strategies keep one too).
    pub(super) fn keep_recovery_copy(&mut self) {
        let r = &self.recovery;
        let due = r.stale || (r.touched && r.taken_at.elapsed() >= RECOVERY_EVERY.max(r.cost * 20));
        // The hashed universe lives on the host and has no grid copy to keep.
        let Some(sim) = self.universe.grid().filter(|_| due) else {
            return;
        };
        let start = Instant::now();
        match sim.world() {
            Ok(world) => {
                let world = world.clone();
                if let Ok(mut slot) = self.recovery.world.lock() {
                    *slot = Some(world);
                }
                self.recovery.taken_at = Instant::now();
                self.recovery.cost = start.elapsed();
                self.recovery.stale = false;
                self.recovery.touched = false;
            }
            Err(e) => self.fail(e.into()),
        }
    }

    /// Continue from the recovery copy after the GPU device was lost: on the same device when
    /// it still works (a reset it survived; the window keeps drawing from it), else on a newly
    /// opened device of the same adapter with the same strategy, else on the CPU.
    pub(super) fn recover(&mut self, reason: &str) -> String {
        let lost_at = u64::try_from(self.universe.generation()).unwrap_or(u64::MAX);
        let copy = self.recovery.world.lock().ok().and_then(|w| w.clone());
        let Some(world) = copy else {
            return format!("the GPU device was lost ({reason}) and no copy of the world was kept");
        };
        let restored = world.generation;
        let lost = lost_at.saturating_sub(restored);
        let strategy = self.universe.strategy();
        let Some(sim) = self.universe.grid() else {
            return format!("the GPU device was lost ({reason})");
        };
        let old = sim.factory().gpu().ok().cloned();
        let sharing = sim.factory().sharing_device();
        let settings = sim.gpu_settings();
        if let Some(ctx) = old.as_ref().filter(|ctx| ctx.is_healthy()) {
            ctx.clear_simulated_loss();
            match Simulation::new(sharing, world.clone(), strategy) {
                Ok(sim) => {
                    self.continue_on(sim);
                    self.recovery.gpu_lost = None;
                    return format!(
                        "GPU device lost ({reason}); the device still works, so golab restored \
                         generation {restored} from the last copy ({lost} generations lost) and \
                         continued on {strategy} on the same device"
                    );
                }
                Err(e) => {
                    return format!(
                        "the GPU device was lost ({reason}) and {strategy} could not restart on it: {e}"
                    );
                }
            }
        }
        let options = old.map(|ctx| {
            let mut options = ctx.options.clone();
            options.adapter = Some(ctx.info.name.clone());
            options
        });
        let reopened = reopen_gpu(options, settings, &world, strategy);
        let why_not = match reopened {
            Ok(sim) => {
                let device = sim
                    .factory()
                    .gpu()
                    .map(|c| c.adapter_name())
                    .unwrap_or_default();
                self.factory = sim.factory().sharing_device();
                self.continue_on(sim);
                self.recovery.gpu_lost = None;
                return format!(
                    "GPU device lost ({reason}): opened a new device ({device}), restored \
                     generation {restored} from the last copy ({lost} generations lost) and \
                     continued on {strategy}"
                );
            }
            Err(why) => why,
        };
        let cpu = Strategy::Rayon;
        match Simulation::new(StepperFactory::cpu_only(), world, cpu) {
            Ok(sim) => {
                self.factory = StepperFactory::cpu_only();
                self.continue_on(sim);
                self.recovery.gpu_lost = Some(format!(
                    "the GPU device was lost ({reason}) and no new one could be opened ({why_not})"
                ));
                format!(
                    "GPU device lost ({reason}); no new device could be opened ({why_not}): \
                     restored generation {restored} from the last copy ({lost} generations lost) \
                     and continued on {}; restart golab to use the GPU again",
                    cpu.name()
                )
            }
            Err(e) => {
                format!("the GPU device was lost ({reason}) and the CPU could not take over: {e}")
            }
        }
    }
}

impl Worker {
    /// Go on with `sim` in place of the lost grid (undo states of the lost one go with it).
    fn continue_on(&mut self, sim: Simulation) {
        let mut lost = std::mem::replace(&mut self.universe, Box::new(GridUniverse::new(sim)));
        self.universe.set_interrupt(self.shared.interrupt.clone());
        self.history.clear(lost.as_mut());
        if let Some(start) = self.start.take() {
            lost.release(start);
        }
        self.universe_id = self.universe.id();
        self.start_pending = true;
    }
}

/// A simulation of `world` on `strategy` on a newly opened device (`options`, the lost
/// device's adapter), with its pipelines built anew; the error says why none could be made.
fn reopen_gpu(
    options: Option<crate::gpu::GpuOptions>,
    settings: GpuSettings,
    world: &crate::world::World,
    strategy: Strategy,
) -> Result<Simulation, String> {
    let ctx = GpuContext::new(&options.unwrap_or_default()).map_err(|e| e.to_string())?;
    let mut factory = StepperFactory::with_context(ctx);
    factory.gpu_settings = settings;
    Simulation::new(factory, world.clone(), strategy).map_err(|e| e.to_string())
}
