//! Host↔device transfers of chunk buffers in the reference article's three memory modes
//! ([`MemoryMode`]):
//!
//! - `normal`: `queue.write_buffer` from a packed host vector, and a fresh read-back buffer
//!   per download (the driver stages through its own memory: the pageable-memory analogue);
//! - `pinned`: persistent mapped staging buffers reused every time (page-locked analogue);
//! - `zero-copy`: the storage buffers themselves are host-mappable (MAPPABLE_PRIMARY_BUFFERS)
//!   and the host writes and reads them in place.
//!
//! Every byte moved is counted in the stepper's [`Session`] ([`super::super::engine::TransferCounts`]).

use std::fmt;

use super::chunks::ChunkBuffers;
use crate::gpu::limits::{CELL_BYTES, ChunkPlan};
use crate::step::StepError;
use crate::step::engine::Session;
use crate::step::settings::MemoryMode;
use crate::step::view::{Pixel, pixel_value};
use crate::world::{Topology, World};

/// Write chunk `i`'s buffer image (halo rows and, for the padded layout, halo columns
/// included) from the host world into `out` (`(rows + 2) * pitch` u32s). Cells are ages, or
/// under a Generations rule with dying states [`pixel_value`] words (age + 256 alive,
/// 256 − state dying), which [`unpack_chunk`] decodes.
pub fn pack_chunk(world: &World, plan: &ChunkPlan, i: usize, out: &mut [u32]) {
    let (y0, rows) = plan.chunks[i];
    let (w, h, pitch) = (
        world.width() as usize,
        i64::from(world.height()),
        plan.pitch as usize,
    );
    let torus = world.topology == Topology::Torus;
    let col0 = plan.col0 as usize;
    for (j, dst) in out
        .chunks_exact_mut(pitch)
        .take(rows as usize + 2)
        .enumerate()
    {
        let y = i64::from(y0) + j as i64 - 1;
        let source = if (0..h).contains(&y) {
            Some(y)
        } else if torus {
            Some(y.rem_euclid(h))
        } else {
            None
        };
        match source {
            Some(y) => {
                let cells = y as usize * w..(y as usize + 1) * w;
                let row = &mut dst[col0..col0 + w];
                row.copy_from_slice(&world.ages()[cells.clone()]);
                if let Some(dying) = world.dying().get(cells) {
                    for (word, &d) in row.iter_mut().zip(dying) {
                        *word = pixel_value(*word, d);
                    }
                }
                if col0 == 1 {
                    dst[0] = if torus { dst[w] } else { 0 };
                    dst[w + 1] = if torus { dst[1] } else { 0 };
                }
            }
            None => dst.fill(0),
        }
    }
}

/// Copy chunk `i`'s world rows (`rows * pitch` u32s, halo rows excluded) into the host world.
pub fn unpack_chunk(src: &[u32], plan: &ChunkPlan, i: usize, world: &mut World) {
    let (y0, rows) = plan.chunks[i];
    let (w, pitch, col0) = (
        world.width() as usize,
        plan.pitch as usize,
        plan.col0 as usize,
    );
    let cells = y0 as usize * w..(y0 + rows) as usize * w;
    let (ages, dying) = world.cells_mut();
    let ages = &mut ages[cells.clone()];
    for (d, s) in ages.chunks_exact_mut(w).zip(src.chunks_exact(pitch)) {
        d.copy_from_slice(&s[col0..col0 + w]);
    }
    if let Some(dying) = dying.get_mut(cells) {
        for (age, d) in ages.iter_mut().zip(dying) {
            (*age, *d) = match Pixel::decode(*age) {
                Pixel::Alive(a) => (a, 0),
                Pixel::Dying(state) => (0, state),
                Pixel::Dead => (0, 0),
            };
        }
    }
}

/// Staging buffers of a memory mode (persistent in pinned mode, none otherwise).
pub struct Transfers {
    mode: MemoryMode,
    upload: Vec<wgpu::Buffer>,
    download: Vec<wgpu::Buffer>,
    scratch: Vec<u32>,
}

/// Map `slice` once every submission made so far has finished (the stepper's own work is
/// then done; work submitted later by other threads is not waited for).
fn map_and_wait(
    session: &Session,
    slice: wgpu::BufferSlice<'_>,
    mode: wgpu::MapMode,
) -> Result<(), StepError> {
    slice.map_async(mode, |_| {});
    session.wait(session.ctx.submit([]))
}

fn mapping_error(e: impl fmt::Display) -> StepError {
    StepError::Backend(format!("mapping a buffer failed: {e}"))
}

/// World rows of chunk `i` in bytes (halo rows excluded).
fn rows_bytes(dev: &ChunkBuffers, i: usize) -> u64 {
    u64::from(dev.plan.chunks[i].1) * u64::from(dev.plan.pitch) * CELL_BYTES
}

impl Transfers {
    /// Buffers for `mode` sized for `dev`'s chunks.
    pub fn new(dev: &ChunkBuffers, mode: MemoryMode) -> Transfers {
        let make = |usage: wgpu::BufferUsages, with_halo: bool, label: &str| -> Vec<wgpu::Buffer> {
            (0..dev.plan.chunks.len())
                .map(|i| {
                    let rows = u64::from(dev.plan.chunks[i].1) + if with_halo { 2 } else { 0 };
                    dev.ctx.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some(label),
                        size: rows * u64::from(dev.plan.pitch) * CELL_BYTES,
                        usage,
                        mapped_at_creation: false,
                    })
                })
                .collect()
        };
        let (upload, download) = if mode == MemoryMode::Pinned {
            (
                make(
                    wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
                    true,
                    "pinned upload",
                ),
                make(
                    wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    false,
                    "pinned download",
                ),
            )
        } else {
            (vec![], vec![])
        };
        Transfers {
            mode,
            upload,
            download,
            scratch: vec![],
        }
    }

    /// The memory mode.
    pub fn mode(&self) -> MemoryMode {
        self.mode
    }

    /// Upload chunks `range` of `world` into generation buffer `target` of `dev`.
    /// Pinned-mode copies are recorded into `encoder` (submit it before stepping).
    pub fn upload(
        &mut self,
        session: &mut Session,
        dev: &ChunkBuffers,
        world: &World,
        target: usize,
        range: std::ops::Range<usize>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), StepError> {
        dev.cells_written();
        for i in range {
            let words = (dev.plan.chunks[i].1 as usize + 2) * dev.plan.pitch as usize;
            self.scratch.resize(words, 0);
            pack_chunk(world, &dev.plan, i, &mut self.scratch);
            let bytes: &[u8] = bytemuck::cast_slice(&self.scratch);
            match self.mode {
                MemoryMode::Normal => session.upload(&dev.bufs[target][i], 0, bytes),
                MemoryMode::Pinned | MemoryMode::ZeroCopy => {
                    let buffer = match self.mode {
                        MemoryMode::Pinned => &self.upload[i],
                        _ => &dev.bufs[target][i],
                    };
                    map_and_wait(session, buffer.slice(..), wgpu::MapMode::Write)?;
                    buffer
                        .get_mapped_range_mut(..)
                        .map_err(mapping_error)?
                        .copy_from_slice(bytes);
                    buffer.unmap();
                    session.counts.up += bytes.len() as u64;
                    if self.mode == MemoryMode::Pinned {
                        encoder.copy_buffer_to_buffer(buffer, 0, &dev.bufs[target][i], 0, None);
                    }
                }
            }
        }
        Ok(())
    }

    /// Record the copies a download of chunks `range` from generation buffer `from` needs
    /// (nothing in zero-copy mode). Returns the buffers to read after submission.
    pub fn encode_download(
        &mut self,
        session: &mut Session,
        dev: &ChunkBuffers,
        from: usize,
        range: std::ops::Range<usize>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Vec<(usize, wgpu::Buffer)> {
        let row = u64::from(dev.plan.pitch) * CELL_BYTES;
        range
            .map(|i| {
                let bytes = rows_bytes(dev, i);
                let target = match self.mode {
                    MemoryMode::ZeroCopy => return (i, dev.bufs[from][i].clone()),
                    MemoryMode::Pinned => self.download[i].clone(),
                    MemoryMode::Normal => {
                        session.counts.buffers_created += 1;
                        dev.ctx.device.create_buffer(&wgpu::BufferDescriptor {
                            label: Some("readback"),
                            size: bytes,
                            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                            mapped_at_creation: false,
                        })
                    }
                };
                encoder.copy_buffer_to_buffer(&dev.bufs[from][i], row, &target, 0, bytes);
                (i, target)
            })
            .collect()
    }

    /// After the download's submission `index`: map each buffer and copy its rows into `world`.
    pub fn finish_download(
        &self,
        session: &mut Session,
        index: wgpu::SubmissionIndex,
        dev: &ChunkBuffers,
        targets: &[(usize, wgpu::Buffer)],
        world: &mut World,
    ) -> Result<(), StepError> {
        // Zero-copy maps the storage buffer itself (whole: map offsets must be 8-aligned) and
        // skips its halo row; the other modes read a buffer holding just the world rows.
        let skip = match self.mode {
            MemoryMode::ZeroCopy => dev.plan.pitch as usize,
            _ => 0,
        };
        for (_, buffer) in targets {
            buffer.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
        session.wait(index)?;
        for (i, buffer) in targets {
            {
                let view = buffer.slice(..).get_mapped_range().map_err(mapping_error)?;
                let words: &[u32] = bytemuck::cast_slice(&view);
                unpack_chunk(&words[skip..], &dev.plan, *i, world);
            }
            buffer.unmap();
            session.counts.down += rows_bytes(dev, *i);
        }
        Ok(())
    }
}
