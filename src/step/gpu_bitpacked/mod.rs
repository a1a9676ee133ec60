//! `gpu-bitpacked`: 32 cells per `u32` word, neighbour counts by bitwise full adders, and
//! several generations per dispatch (temporal blocking), with exact ages.
//!
//! Data flow (docs/architecture.md draws it): `load` packs the world on the host into a bit
//! plane, an old plane and birth codes ([`ages`]) and uploads them once; `step` records
//! `gens / k` dispatches of a multi-generation kernel ([`kernel`]: the subgroup-streaming
//! kernel by default, k = 8; the workgroup-memory tile kernel without subgroups, k = 16),
//! ping-ponging two bit planes; births are written only where a cell born within a block is
//! alive at its end. Statistics, views and edits run on the device; only `read_world`
//! (switching, saving) downloads the state. [`BitState`] is this representation's
//! [`DeviceState`]: the engine's resident stepper batches, submits and times it.

pub mod ages;
mod device;
pub mod kernel;
pub mod pipelines;
mod queries;
mod stream;

use rayon::prelude::*;

pub use device::Layout;
pub use pipelines::Pipelines;

use ages::Epochs;
use device::{BitWorld, MAX_BLOCKS};
use kernel::StepKernel;

use super::engine::{DeviceState, Session};
use super::settings::GpuSettings;
use super::{StepError, Strategy, view};
use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// gpu-bitpacked's device state: bit planes, birth codes and their epochs.
pub struct BitState {
    dev: BitWorld,
    epochs: Epochs,
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

impl DeviceState for BitState {
    type Config = ();

    fn load(
        session: &mut Session,
        world: &World,
        settings: &GpuSettings,
        _config: (),
        strategy: Strategy,
    ) -> Result<Self, StepError> {
        let ctx = session.ctx.clone();
        let layout = Layout::plan(
            world.width(),
            world.height(),
            &ctx.limits,
            settings.chunk_limit,
        )
        .map_err(|reason| StepError::TooLarge {
            strategy: strategy.name(),
            width: world.width(),
            height: world.height(),
            reason,
        })?;
        let epochs = Epochs::at_load(world.generation);
        let (plane, old, births) = pack(world, &layout, &epochs);
        let tuning = settings.bitpacked;
        let kernel = StepKernel::resolve(&ctx, tuning).map_err(StepError::Backend)?;
        let dev = BitWorld::new(
            &ctx,
            &Pipelines::on(&ctx),
            layout,
            (world.rule(), world.topology),
            kernel,
            kernel.gens_per_dispatch(tuning.gens),
        );
        session.upload(&dev.planes[0], 0, bytemuck::cast_slice(&plane));
        session.upload(&dev.old, 0, bytemuck::cast_slice(&old));
        let w = world.width() as usize;
        for (buffer, &(y0, rows)) in dev.births.iter().zip(&dev.layout.chunks) {
            let cells = &births[y0 as usize * w..(y0 + rows) as usize * w];
            session.upload(buffer, 0, bytemuck::cast_slice(cells));
        }
        session.submit_and_wait(session.encoder())?;
        Ok(BitState { dev, epochs })
    }

    fn max_batch(&self, generation: u64) -> u64 {
        let k = u64::from(self.dev.gens_per_dispatch());
        self.epochs.headroom(generation).min(MAX_BLOCKS * k)
    }

    fn encode_steps(
        &mut self,
        session: &mut Session,
        encoder: &mut wgpu::CommandEncoder,
        generation: u64,
        gens: u64,
    ) {
        let n_y = self.epochs.young_now(generation);
        self.dev
            .encode_steps(&session.ctx, encoder, session.timer.as_mut(), gens, n_y);
    }

    fn read_world(
        &mut self,
        session: &mut Session,
        generation: u64,
        world: &mut World,
    ) -> Result<(), StepError> {
        let dev = &self.dev;
        let l = &dev.layout;
        let mut encoder = session.encoder();
        let plane_bytes = l.plane_bytes();
        let mut targets = vec![
            session.encode_read_back(&mut encoder, &dev.planes[dev.cur], 0, plane_bytes),
            session.encode_read_back(&mut encoder, &dev.old, 0, plane_bytes),
        ];
        for (buffer, &(_, rows)) in dev.births.iter().zip(&l.chunks) {
            let bytes = u64::from(rows) * u64::from(l.width) * 4;
            targets.push(session.encode_read_back(&mut encoder, buffer, 0, bytes));
        }
        let ages = self.epochs.params(generation);
        let (w, wpr) = (l.width as usize, l.wpr as usize);
        let chunks = l.chunks.clone();
        let cells_words = wpr * l.height as usize;
        let (mut plane, mut old) = (Vec::new(), Vec::new());
        let out = world.ages_mut();
        session.finish_read_back(encoder, targets, true, |i, words| match i {
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
        })
    }

    fn stats(
        &mut self,
        session: &mut Session,
        generation: u64,
        buckets: usize,
    ) -> Result<Option<Stats>, StepError> {
        if buckets > 64 {
            return Ok(None);
        }
        self.device_stats(session, generation, buckets).map(Some)
    }

    fn render_view(
        &mut self,
        session: &mut Session,
        generation: u64,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<(), StepError> {
        self.device_view(session, generation, request, out)
    }

    fn apply_edits(
        &mut self,
        session: &mut Session,
        generation: u64,
        edits: &[CellEdit],
    ) -> Result<(), StepError> {
        self.device_edits(session, generation, edits)
    }
}
