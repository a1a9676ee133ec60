//! A world's step pipelines, compiled when first used rather than all at load: the first
//! generation waits for one pipeline, not for every walk length. The device's background
//! compiler (one thread) compiles the rest in the order batches will want them and then
//! writes the pipeline cache; a world dropped first stops its job after the pipeline in
//! hand (the process waits for that before it exits), and what was built is saved too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use crate::gpu::GpuContext;
use crate::rule::Rule;

use super::kernel::StepKernel;
use super::pipelines::{Pipelines, Variant};

/// The step pipelines of one world (see the module docs).
pub(super) struct Walks {
    ctx: Arc<GpuContext>,
    kernels: Arc<Pipelines>,
    rule: Rule,
    torus: bool,
    kernel: StepKernel,
    /// The variant of ordinary batches (replay or direct).
    variant: Variant,
    /// Longest walk compiled (generations per dispatch).
    longest: u32,
    /// Whether batches may write births into epoch records (their own pipelines).
    records: bool,
    /// Cleared when the world goes: the background compiler stops.
    wanted: Arc<AtomicBool>,
}

impl Walks {
    /// The pipelines of a world; with `background`, the device's background compiler
    /// builds the ones not used yet.
    pub fn new(
        (ctx, kernels): (&Arc<GpuContext>, &Arc<Pipelines>),
        (rule, torus, kernel): (Rule, bool, StepKernel),
        (variant, longest, records): (Variant, u32, bool),
        background: bool,
    ) -> Walks {
        let walks = Walks {
            ctx: ctx.clone(),
            kernels: kernels.clone(),
            rule,
            torus,
            kernel,
            variant,
            longest,
            records,
            wanted: Arc::new(AtomicBool::new(true)),
        };
        if background {
            walks.compile_in_background();
        }
        walks
    }

    /// The pipeline stepping a block of `gens` generations (1..=longest), writing births
    /// into records or not; compiled now if nobody has yet.
    pub fn get(&self, gens: u32, records: bool) -> wgpu::ComputePipeline {
        let gens = match self.kernel {
            // The tile kernel's one pipeline serves every block length.
            StepKernel::Tile => self.longest,
            StepKernel::Stream { .. } => gens.clamp(1, self.longest),
        };
        let variant = if records && self.records {
            Variant::Records
        } else {
            self.variant
        };
        self.kernels.step(
            &self.ctx,
            self.rule,
            (gens, self.torus),
            self.kernel,
            variant,
        )
    }

    /// Whether record pipelines exist for this world.
    pub fn has_records(&self) -> bool {
        self.records
    }

    /// Walk lengths in the order batches want them: the longest (every full block), then
    /// 1 (single steps), then the rest longest first.
    fn order(&self) -> Vec<u32> {
        let mut order = vec![self.longest];
        if self.kernel != StepKernel::Tile {
            order.push(1);
            order.extend((2..self.longest).rev());
        }
        order.dedup();
        order
    }

    fn compile_in_background(&self) {
        let me = Walks {
            ctx: self.ctx.clone(),
            kernels: self.kernels.clone(),
            wanted: self.wanted.clone(),
            ..*self
        };
        let counted = self.ctx.compiling_in_background();
        self.ctx
            .resource(|_| Compiler::start())
            .submit(Box::new(move || {
                // Declared in this order so that the world's references to the device are
                // dropped before the count falls: what waits for the count may exit next.
                let _counted = counted;
                let me = me;
                'walks: for g in me.order() {
                    for records in [false, true].into_iter().filter(|&r| !r || me.records) {
                        if !me.wanted.load(Ordering::Relaxed) {
                            break 'walks;
                        }
                        me.get(g, records);
                    }
                }
                // Keep what was built for the next launch (best effort): every walk, or as
                // far as the job went before its world was dropped.
                let _ = me.ctx.save_pipeline_cache();
            }));
    }
}

/// One thread per device that compiles pipelines in the background, a world's jobs in
/// the order they were submitted: worlds loaded one after another (switching strategies,
/// a benchmark's repeats) share it rather than each starting a thread.
struct Compiler {
    jobs: Mutex<mpsc::Sender<Job>>,
}

type Job = Box<dyn FnOnce() + Send>;

impl Compiler {
    fn start() -> Compiler {
        let (jobs, queue) = mpsc::channel::<Job>();
        let started = std::thread::Builder::new()
            .name("golab pipelines".into())
            .spawn(move || {
                for job in queue {
                    job();
                }
            });
        // Without the thread, jobs are dropped unrun (their pipelines compile on first use).
        drop(started);
        Compiler {
            jobs: Mutex::new(jobs),
        }
    }

    fn submit(&self, job: Job) {
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        // A queue whose thread is gone drops the job: its pipelines compile on first use.
        let _ = jobs.send(job);
    }
}

impl Drop for Walks {
    fn drop(&mut self) {
        self.wanted.store(false, Ordering::Relaxed);
    }
}
