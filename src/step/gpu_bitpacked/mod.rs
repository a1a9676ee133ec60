//! `gpu-bitpacked`: 32 cells per `u32` word, neighbour counts by bitwise full adders, and
//! several generations per dispatch (temporal blocking), with exact ages.
//!
//! Data flow (docs/architecture.md draws it): `load` packs the world on the host into a bit
//! plane, an old plane and birth codes ([`ages`]) and uploads them once; `step` records
//! `gens / k` dispatches of a multi-generation kernel ([`kernel`]: the subgroup-streaming
//! kernel by default, k = 8; the workgroup-memory tile kernel without subgroups, k = 16) per
//! ~40 ms submission, ping-ponging two bit planes; births are written only where a cell born
//! within a block is alive at its end. Statistics, views and edits run on the device; only
//! `read_world` (switching, saving) downloads the state.

pub mod ages;
mod device;
pub mod kernel;
mod pipelines;
mod queries;
mod stream;

use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

pub use device::Layout;
pub use pipelines::Pipelines;

use ages::Epochs;
use device::{BitWorld, MAX_BLOCKS};
use kernel::StepKernel;

use super::gpu_common::GpuSettings;
use super::gpu_common::kernels::LifeKernels;
use super::gpu_common::session::Session;
use super::{StepError, Stepper, Strategy, check_same_size, not_loaded, view};
use crate::gpu::GpuContext;
use crate::rule::Rule;
use crate::stats::Stats;
use crate::world::{CellEdit, Topology, World};

/// The `gpu-bitpacked` stepper.
pub struct BitpackedStepper {
    session: Session,
    kernels: Arc<LifeKernels>,
    settings: GpuSettings,
    dev: Option<BitWorld>,
    generation: u64,
    epochs: Epochs,
    topology: Topology,
    rule: Rule,
}

impl BitpackedStepper {
    /// A stepper on `ctx`; call [`Stepper::load`] next.
    pub fn new(ctx: Arc<GpuContext>, kernels: Arc<LifeKernels>, settings: GpuSettings) -> Self {
        BitpackedStepper {
            session: Session::new(ctx),
            kernels,
            settings,
            dev: None,
            generation: 0,
            epochs: Epochs::at_load(0),
            topology: Topology::Torus,
            rule: Rule::CONWAY,
        }
    }

    fn pipelines(&self) -> &Pipelines {
        self.kernels
            .bitpacked
            .get_or_init(|| Pipelines::new(&self.session.ctx))
    }

    fn dev(&self) -> Result<&BitWorld, StepError> {
        self.dev.as_ref().ok_or_else(not_loaded)
    }

    /// Read the world back and load it again: new epochs, birth codes back in range.
    /// [`Stepper::step`] does this by itself every ~2³¹ generations; public for tests.
    pub fn rebase(&mut self) -> Result<(), StepError> {
        let l = &self.dev()?.layout;
        let mut world = World::blank(l.width, l.height, self.topology, self.rule)
            .map_err(|e| StepError::Backend(e.to_string()))?;
        self.read_world(&mut world)?;
        self.load(&world)
    }

    /// `gens` generations in one submission.
    fn batch(&mut self, gens: u64) -> Result<(), StepError> {
        let n_y = self.epochs.young_now(self.generation);
        let mut encoder = self.session.encoder();
        let dev = self.dev.as_mut().ok_or_else(not_loaded)?;
        dev.encode_steps(
            &self.session.ctx,
            &mut encoder,
            self.session.timer.as_mut(),
            gens,
            n_y,
        );
        self.session.submit_and_wait(encoder)?;
        self.generation += gens;
        Ok(())
    }
}

/// Host images of the state: bit plane, old plane and per-chunk birth codes.
fn pack(world: &World, layout: &Layout, epochs: &Epochs) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let (w, wpr) = (world.width() as usize, layout.wpr as usize);
    let g = world.generation;
    let mut plane = vec![0u32; wpr * world.height() as usize];
    let mut old = vec![0u32; plane.len()];
    let mut births = vec![0u32; world.len()];
    plane
        .par_chunks_mut(wpr)
        .zip(old.par_chunks_mut(wpr))
        .zip(births.par_chunks_mut(w))
        .zip(world.ages().par_chunks(w))
        .for_each(|(((plane, old), births), ages)| {
            for (x, &age) in ages.iter().enumerate() {
                if age == 0 {
                    continue;
                }
                let (s, is_old) = epochs.encode(age, g);
                plane[x / 32] |= 1 << (x % 32);
                old[x / 32] |= u32::from(is_old) << (x % 32);
                births[x] = s;
            }
        });
    (plane, old, births)
}

impl Stepper for BitpackedStepper {
    fn strategy(&self) -> Strategy {
        Strategy::GpuBitpacked
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        let layout = Layout::plan(
            world.width(),
            world.height(),
            &self.session.ctx.limits,
            self.settings.chunk_limit,
        )
        .map_err(|reason| StepError::TooLarge {
            strategy: Strategy::GpuBitpacked.name(),
            width: world.width(),
            height: world.height(),
            reason,
        })?;
        let epochs = Epochs::at_load(world.generation);
        let (plane, old, births) = pack(world, &layout, &epochs);
        let ctx = self.session.ctx.clone();
        let tuning = self.settings.bitpacked;
        let kernel = StepKernel::resolve(&ctx, tuning).map_err(StepError::Backend)?;
        let dev = BitWorld::new(
            &ctx,
            self.pipelines(),
            layout,
            (world.rule, world.topology),
            kernel,
            kernel.gens_per_dispatch(tuning.gens),
        );
        ctx.queue
            .write_buffer(&dev.planes[0], 0, bytemuck::cast_slice(&plane));
        ctx.queue
            .write_buffer(&dev.old, 0, bytemuck::cast_slice(&old));
        let w = world.width() as usize;
        for (buffer, &(y0, rows)) in dev.births.iter().zip(&dev.layout.chunks) {
            let cells = &births[y0 as usize * w..(y0 + rows) as usize * w];
            ctx.queue
                .write_buffer(buffer, 0, bytemuck::cast_slice(cells));
        }
        ctx.queue.submit([]);
        self.session.wait()?;
        self.session.check_device()?;
        self.dev = Some(dev);
        self.epochs = epochs;
        self.generation = world.generation;
        self.topology = world.topology;
        self.rule = world.rule;
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        let k = u64::from(self.dev()?.gens_per_dispatch());
        let mut left = generations;
        while left > 0 {
            if self.epochs.headroom(self.generation) == 0 {
                self.rebase()?;
            }
            let most = self.epochs.headroom(self.generation).min(MAX_BLOCKS * k);
            let gens = left.min(self.session.gens_per_submit).min(most);
            let start = Instant::now();
            self.batch(gens)?;
            self.session
                .adapt_batch(gens, start.elapsed(), MAX_BLOCKS * k);
            left -= gens;
        }
        Ok(())
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        let dev = self.dev()?;
        let l = &dev.layout;
        check_same_size(world, l.width, l.height)?;
        let mut encoder = self.session.encoder();
        let plane_bytes = l.plane_bytes();
        let mut targets = vec![
            self.session
                .encode_read_back(&mut encoder, &dev.planes[dev.cur], 0, plane_bytes),
            self.session
                .encode_read_back(&mut encoder, &dev.old, 0, plane_bytes),
        ];
        for (buffer, &(_, rows)) in dev.births.iter().zip(&l.chunks) {
            let bytes = u64::from(rows) * u64::from(l.width) * 4;
            targets.push(
                self.session
                    .encode_read_back(&mut encoder, buffer, 0, bytes),
            );
        }
        self.session.ctx.queue.submit([encoder.finish()]);
        let ages = self.epochs.params(self.generation);
        let (w, wpr) = (l.width as usize, l.wpr as usize);
        let chunks = l.chunks.clone();
        let cells_words = wpr * l.height as usize;
        let (mut plane, mut old) = (Vec::new(), Vec::new());
        let out = world.ages_mut();
        self.session
            .finish_read_back(&targets, |i, words| match i {
                0 => plane = words[..cells_words].to_vec(),
                1 => old = words[..cells_words].to_vec(),
                _ => {
                    let (y0, rows) = chunks[i - 2];
                    let rows_out = &mut out[y0 as usize * w..(y0 + rows) as usize * w];
                    rows_out
                        .par_chunks_mut(w)
                        .zip(words.par_chunks(w))
                        .enumerate()
                        .for_each(|(r, (ages_row, births))| {
                            let at = (y0 as usize + r) * wpr;
                            for (x, age) in ages_row.iter_mut().enumerate() {
                                let bit = 1 << (x % 32);
                                *age = if plane[at + x / 32] & bit == 0 {
                                    0
                                } else {
                                    ages.age(births[x], old[at + x / 32] & bit != 0)
                                };
                            }
                        });
                }
            })?;
        world.generation = self.generation;
        Ok(())
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        self.device_edits(edits)
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        if buckets > 64 {
            let l = &self.dev()?.layout;
            let mut world = World::blank(l.width, l.height, self.topology, self.rule)
                .map_err(|e| StepError::Backend(e.to_string()))?;
            self.read_world(&mut world)?;
            return Ok(Stats::from_ages(world.ages(), self.generation, buckets));
        }
        self.device_stats(buckets.max(1))
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.session.take_gpu_seconds()
    }

    fn render_view(
        &mut self,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<bool, StepError> {
        self.device_view(request, out)?;
        Ok(true)
    }
}
