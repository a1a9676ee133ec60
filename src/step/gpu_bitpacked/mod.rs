//! `gpu-bitpacked`: 32 cells per `u32` word, neighbour counts by bitwise full adders, and
//! several generations per dispatch (temporal blocking), with exact ages.
//!
//! Data flow (docs/architecture.md draws it): `load` packs the world on the host into a bit
//! plane, an old plane and birth codes ([`ages`]) and uploads them once; `step` records
//! `gens / k` dispatches of a multi-generation kernel ([`kernel`]: the subgroup-streaming
//! kernel by default, k tuned per device and world; the workgroup-memory tile kernel
//! without subgroups, k = 16), ping-ponging two bit planes; births are written only where a
//! cell born within a block is alive at its end, either one store each or into per-word epoch
//! records folded into the birth codes within the batch ([`records`]), whichever [`births`]
//! timed faster on the running world. Statistics, views and edits run on the device; only
//! `read_world` (switching, saving) downloads the state. [`BitState`] is this
//! representation's [`DeviceState`]: the engine's resident stepper batches, submits and
//! times it.

mod adaptive;
pub mod ages;
pub mod births;
mod controller;
mod countdown;
mod device;
mod duel;
pub mod kernel;
pub mod pipelines;
mod queries;
mod records;
pub mod replay;
mod samples;
mod stream;
pub mod tuner;
mod walks;

use rayon::prelude::*;

pub use device::Layout;
pub use pipelines::Pipelines;

use adaptive::{Adaptive, Kept};
use ages::Epochs;
use births::Births;
use device::{BitWorld, MAX_BLOCKS};
use kernel::StepKernel;
use tuner::{Space, TuneKey};

use super::engine::{DeviceState, Session};
use super::settings::GpuSettings;
use super::{KernelReport, StepError, Strategy, view};
use crate::config::{BirthChoice, ReplayChoice};
use crate::stats::Stats;
use crate::world::{CellEdit, World};

/// gpu-bitpacked's device state: bit planes, birth codes and their epochs.
pub struct BitState {
    dev: BitWorld,
    epochs: Epochs,
    /// The rule's state count (2 for two-state rules; C for Generations).
    states: u16,
    /// Chooses the stream kernel's shape and how batches write births, and keeps them best
    /// while the world changes ([`adaptive`]).
    adaptive: Adaptive,
    /// Whether a batch has run since the load (the first is one dispatch: see `max_batch`).
    primed: bool,
    /// The generation the batch being timed started at.
    batch_start: u64,
    /// Where the controller is kept between loads, and under what key.
    kept: (std::sync::Arc<Kept>, TuneKey),
}

impl BitState {
    /// The kernel and its shape in words.
    fn describe(&self) -> String {
        let kernel = self.dev.kernel();
        match kernel {
            StepKernel::Tile => format!("tile kernel, {} gens/dispatch", self.dev.shape().gens),
            StepKernel::Stream { ages, .. } => format!(
                "stream kernel, {} gens/dispatch, {}-row strips ({}), {}{}",
                self.shape().gens,
                self.shape().strip,
                self.adaptive.state(),
                if ages {
                    self.adaptive.births().name()
                } else {
                    "ages off"
                },
                if self.dev.repeats.on {
                    ", replaying repeats"
                } else {
                    ""
                }
            ),
        }
    }

    /// The chosen shape (not a probe's, should the last batch have run one).
    fn shape(&self) -> tuner::Shape {
        self.adaptive.shape(self.dev.shape())
    }
}

/// Host images of the state: the state buffer (live plane, then the countdown planes of a
/// Generations rule), the old plane and per-chunk birth codes.
fn pack(world: &World, layout: &Layout, epochs: &Epochs) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let (w, wpr) = (world.width() as usize, layout.wpr as usize);
    let g = world.generation;
    let words = wpr * world.height() as usize;
    let mut state = vec![0u32; words * (layout.dying as usize + 1)];
    let mut old = vec![0u32; words];
    let mut births = vec![0u32; world.len()];
    let (plane, countdown) = state.split_at_mut(words);
    pack_countdown(world, layout, countdown);
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
    (state, old, births)
}

/// A fingerprint of a packed world (its planes, not its birth codes): the adaptive controller
/// treats passes as repeats of one another only when they start from the same world.
fn fingerprint(state: &[u32], old: &[u32]) -> u64 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(bytemuck::cast_slice(state));
    hasher.update(bytemuck::cast_slice(old));
    hasher.digest()
}

/// The dying states of `world` as countdown planes (`layout.dying` planes of `wpr × height`
/// words, see [`crate::rule::generations`]).
fn pack_countdown(world: &World, layout: &Layout, countdown: &mut [u32]) {
    let (w, wpr) = (world.width() as usize, layout.wpr as usize);
    let states = world.rule().states();
    let words = wpr * world.height() as usize;
    for (i, &d) in world.dying().iter().enumerate().filter(|(_, d)| **d > 0) {
        let r = u32::from(states - u16::from(d));
        let word = (i / w) * wpr + (i % w) / 32;
        for j in 0..layout.dying as usize {
            countdown[j * words + word] |= (r >> j & 1) << (i % w % 32);
        }
    }
}

/// The dying states of the countdown planes `countdown` into `dying` (row-major cells).
fn unpack_countdown(countdown: &[u32], layout: &Layout, states: u16, dying: &mut [u8]) {
    let (w, wpr) = (layout.width as usize, layout.wpr as usize);
    let words = wpr * layout.height as usize;
    dying.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        for (x, d) in row.iter_mut().enumerate() {
            let (word, bit) = (y * wpr + x / 32, x % 32);
            let r = (0..layout.dying as usize).fold(0u16, |r, j| {
                r | ((countdown[j * words + word] >> bit & 1) as u16) << j
            });
            *d = if r == 0 { 0 } else { (states - r) as u8 };
        }
    });
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
        let dying = countdown::planes(&world.rule());
        let layout = Layout::plan(
            world.width(),
            world.height(),
            dying,
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
        let (state, old, births) = pack(world, &layout, &epochs);
        let tuning = settings.bitpacked;
        let kernel = StepKernel::resolve(&ctx, tuning).map_err(StepError::Backend)?;
        // Records batches replay nothing: forced, replay would only cost.
        let replay = tuning.replay == ReplayChoice::On && tuning.births != BirthChoice::Records;
        // Replay catches oscillators whose period divides the block length: with replay on,
        // blocks are replay::PERIOD generations unless the user fixes them, and no longer
        // walks are compiled (the slowest pipelines to build; they would never run).
        let gens = tuning
            .gens
            .or(device::replays(kernel, dying, replay).then_some(replay::PERIOD));
        let mut dev = BitWorld::new(
            &ctx,
            &Pipelines::on(&ctx),
            layout,
            (world.rule(), world.topology),
            (kernel, kernel.gens_per_dispatch(gens, dying > 0)),
            (
                tuning.births != BirthChoice::Direct,
                replay,
                settings.background_compile,
            ),
        );
        let kept = ctx.resource(|_| Kept::default());
        let key = TuneKey {
            width: world.width(),
            height: world.height(),
            rule: world.rule(),
            torus: dev.torus(),
            kernel,
            fixed: (gens, tuning.strip),
        };
        let space = Space::new(dev.gens_per_dispatch(), gens, tuning.strip, world.height());
        let choice = if dev.writes_records() {
            tuning.births
        } else {
            BirthChoice::Direct
        };
        // The controller a world of this key left goes on (tuned, part-way through a sweep
        // or watching); else one starts. The tile kernel has no shape to choose.
        let space = (kernel != StepKernel::Tile).then_some(space);
        let adaptive = kept.controller(&key, space, choice, fingerprint(&state, &old));
        let untuned = dev.shape();
        dev.set_shape(adaptive.shape(untuned));
        session.upload(&dev.planes[0], 0, bytemuck::cast_slice(&state));
        session.upload(&dev.old, 0, bytemuck::cast_slice(&old));
        let w = world.width() as usize;
        for (buffer, &(y0, rows)) in dev.births.iter().zip(&dev.layout.chunks) {
            let cells = &births[y0 as usize * w..(y0 + rows) as usize * w];
            session.upload(buffer, 0, bytemuck::cast_slice(cells));
        }
        session.submit_and_wait(session.encoder())?;
        Ok(BitState {
            dev,
            epochs,
            states: world.rule().states(),
            adaptive,
            primed: false,
            batch_start: world.generation,
            kept: (kept, key),
        })
    }

    fn max_batch(&self, generation: u64) -> u64 {
        // The first batch after a load is one dispatch: it writes the repeat flags (until then
        // replay has none and every strip is stepped), and is too short for the controller to
        // time, so no timing it compares includes that slower first block. It is always one
        // dispatch of the most generations, whatever shape is being tried, so every pass of a
        // world loaded again times the same generations ([`samples`]).
        let batch = if self.primed {
            MAX_BLOCKS * u64::from(self.adaptive.least_gens(self.dev.shape().gens))
        } else {
            u64::from(self.dev.gens_per_dispatch())
        };
        self.epochs.headroom(generation).min(batch)
    }

    fn encode_steps(
        &mut self,
        session: &mut Session,
        encoder: &mut wgpu::CommandEncoder,
        generation: u64,
        gens: u64,
    ) {
        let n_y = self.epochs.young_now(generation);
        let (shape, births) = self.adaptive.for_batch(gens, self.dev.shape());
        self.dev.set_shape(shape);
        self.primed = true;
        self.batch_start = generation;
        self.dev.encode_steps(
            &session.ctx,
            encoder,
            session.timer.as_mut(),
            (gens, n_y),
            births == Births::Records,
        );
    }

    fn observe_batch(&mut self, gens: u64, seconds: f64) {
        self.adaptive
            .observe(self.dev.shape(), self.batch_start, gens, seconds);
        // Where it stands, for the next world of this key (the bench reloads its window,
        // the app resets).
        self.kept.0.keep(self.kept.1, &self.adaptive);
    }

    fn tuning(&self) -> bool {
        self.adaptive.tuning()
    }

    fn batch_multiple(&self) -> u64 {
        if self.dev.repeats.on {
            u64::from(self.dev.shape().gens)
        } else {
            1
        }
    }

    fn report(&mut self, session: &mut Session) -> Result<Option<KernelReport>, StepError> {
        Ok(Some(KernelReport {
            description: self.describe(),
            replayed: self.device_replayed(session)?,
            state_bytes: Some((self.dev.layout.state_bytes(), self.shape().gens)),
            decisions: self.adaptive.decisions(),
        }))
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
        let mut targets = vec![
            session.encode_read_back(&mut encoder, &dev.planes[dev.cur], 0, l.state_bytes()),
            session.encode_read_back(&mut encoder, &dev.old, 0, l.plane_bytes()),
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
        let (states, age_max) = (world.rule().states(), world.rule().age_max());
        let (out, dying) = world.cells_mut();
        session.finish_read_back(encoder, targets, true, |i, words| match i {
            0 => {
                plane = words[..cells_words].to_vec();
                unpack_countdown(&words[cells_words..], l, states, dying);
            }
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
                                    .min(age_max)
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
        self.adaptive.edited();
        self.device_edits(session, generation, edits)
    }
}
