//! gpu-onesweep: the key + index pairs sorted by 8-bit digits in one sweep a digit, in the
//! design of Adinets & Merrill's Onesweep (CUB's `DeviceRadixSort`): one read of the pairs
//! counts all four digits at once; then each of the four passes reads and writes every pair
//! once, its tiles chained by a decoupled look-back over their digit counts instead of a
//! separate count pass and scan (gpu-radix8 reads the pairs twice a pass). See
//! `shaders/lab/sort_onesweep.wgsl`.
//!
//! The tile's ranking is [`Ranking::Subgroup`] (ballots, devices with subgroups of at most 32
//! lanes) or [`Ranking::Portable`] (32-lane virtual subgroups in workgroup memory); tile shapes
//! ([`Shape`]: threads × pairs a thread) are chosen per variant (`gpu-onesweep@512x15`).
//! No forward progress between workgroups is assumed: a digit whose predecessor stays silent
//! has that tile counted by the waiting workgroup itself, as the single-pass scan does.

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

use super::gpu::{Clock, Dispatch, Kernel, ParamSlots, grid, read_back, storage_buffer};
use super::scanner::SPIN;
use super::sort::{Pair, sorted_on_device};
pub use super::sort_radix8::Ranking;
use super::{LabError, Progress};

/// Digit passes over the 32-bit keys.
pub const PASSES: u32 = 4;
/// Most pairs one sort takes: a status word holds a 30-bit count.
pub const MAX_PAIRS: u32 = (1 << 30) - 1;
/// Status words before the first pass's rows: 1024 global counts, a row of tickets.
const HEADER_WORDS: u64 = 1280;
/// Most workgroups of the histogram (each adds its 1024 counts to the global ones).
const HISTOGRAM_GROUPS: u64 = 1024;
/// Pairs a histogram thread loads before counting them (`HIST_BATCH` in the shader).
const HISTOGRAM_BATCH: u32 = 8;
/// Lanes of the portable ranking's virtual subgroups (`VIRTUAL_WIDTH` in its shader).
const VIRTUAL_WIDTH: u32 = 32;

/// A binning workgroup's shape: `threads` × `kpt` pairs a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Threads a workgroup: 256 or 512 (threads 0..255 own a digit each).
    pub threads: u32,
    /// Pairs a thread, 1 to 32.
    pub kpt: u32,
    /// Silent look-back rounds before a workgroup counts a predecessor's tile itself.
    pub spin: u32,
    /// `false` ignores every tile's publication, so each tile counts all its predecessors
    /// itself (the fallback alone, for tests).
    pub trust: bool,
    /// The tile staged in a workgroup array of its own, with plain stores and loads, instead
    /// of in the ranking counters' atomic array (more workgroup memory; written `256x15s`).
    pub split: bool,
}

/// The shape `gpu-onesweep` runs unless a variant names another: 15 pairs a thread of 256
/// (3840-pair tiles), as CUB's and GPUSorting's Onesweep take 15 keys a thread.
pub const DEFAULT_SHAPE: Shape = Shape {
    threads: 256,
    kpt: 15,
    spin: SPIN,
    trust: true,
    split: false,
};

impl Shape {
    /// Pairs a tile.
    pub fn tile(self) -> u32 {
        self.threads * self.kpt
    }

    /// `THREADSxKPT` (e.g. `512x15`), `s` after it for [`Shape::split`], with the default
    /// spin; `None` if not a shape.
    pub fn parse(text: &str) -> Option<Shape> {
        let (threads, kpt) = text.trim().split_once(['x', 'X'])?;
        let (kpt, split) = match kpt.trim().strip_suffix('s') {
            Some(kpt) => (kpt, true),
            None => (kpt.trim(), false),
        };
        let shape = Shape {
            threads: threads.trim().parse().ok()?,
            kpt: kpt.parse().ok()?,
            split,
            ..DEFAULT_SHAPE
        };
        ([256, 512].contains(&shape.threads) && (1..=32).contains(&shape.kpt)).then_some(shape)
    }

    /// As [`Shape::parse`] reads it.
    pub fn label(self) -> String {
        let split = if self.split { "s" } else { "" };
        format!("{}x{}{split}", self.threads, self.kpt)
    }
}

/// (Virtual) subgroups a workgroup of `threads` has at the device's smallest subgroup size,
/// or why `ranking` cannot run here.
fn max_groups(ctx: &GpuContext, ranking: Ranking, threads: u32) -> Result<u32, String> {
    if ranking == Ranking::Portable {
        return Ok(threads / VIRTUAL_WIDTH);
    }
    if !ctx.has_subgroups() {
        return Err("needs subgroup operations (ballot, shuffle), which this device lacks".into());
    }
    let (min, max) = (ctx.info.subgroup_min_size, ctx.info.subgroup_max_size);
    if max > 32 || min == 0 || !threads.is_multiple_of(min) {
        return Err(format!(
            "needs subgroups of at most 32 lanes (ballots read one word); this device has {min}–{max}"
        ));
    }
    Ok(threads / min)
}

/// Words of the binning kernel's `tile_mem`: the ranking's counters (and the portable
/// ranking's digit table and shared values), the fallback's 256 bins, and the staged tile
/// unless it has an array of its own ([`Shape::split`]).
fn scratch_words(ranking: Ranking, shape: Shape, groups: u32) -> u32 {
    let ranking = groups * 128
        + match ranking {
            Ranking::Subgroup => 0,
            Ranking::Portable => shape.tile() + 2 * shape.threads,
        };
    let staged = if shape.split { 0 } else { shape.tile() };
    ranking.max(staged).max(256)
}

/// Words of the binning kernel's `staged`: the tile where it has an array of its own.
fn staged_words(shape: Shape) -> u32 {
    if shape.split { shape.tile() } else { 1 }
}

/// Workgroup memory of the binning kernel for `ranking` in `shape` with `groups` (virtual)
/// subgroups (what [`OneSweepSorter::new`] checks against the device): `tile_mem`, `staged`,
/// the digit offsets, the look-back's three words, and the workgroup scan's subgroup totals
/// (1 KiB) or tree (16 bytes a thread).
pub fn binning_bytes(ranking: Ranking, shape: Shape, groups: u32) -> u32 {
    let scan = match ranking {
        Ranking::Subgroup => 1024,
        Ranking::Portable => 16 * shape.threads,
    };
    4 * (scratch_words(ranking, shape, groups) + staged_words(shape)) + 1024 + scan + 12
}

/// The module for `ranking` in `shape` with `groups` (virtual) subgroups a workgroup.
pub fn shader(ranking: Ranking, shape: Shape, groups: u32) -> Shader {
    Shader::new(match ranking {
        Ranking::Subgroup => "lab/sort_onesweep_subgroup.wgsl",
        Ranking::Portable => "lab/sort_onesweep_portable.wgsl",
    })
    .constant("THREADS", shape.threads)
    .constant("KPT", shape.kpt)
    .constant("MAX_GROUPS", groups)
    .constant("SCRATCH", scratch_words(ranking, shape, groups))
    .constant("SPLIT", shape.split)
    .constant("STAGED", staged_words(shape))
    .constant("SPIN", shape.spin)
    .constant("TRUST", shape.trust)
}

/// Which kernels of a sort to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The sort.
    Whole,
    /// Only the reset, the histogram and the seeding of the look-back rows (to time them;
    /// the data is then not sorted).
    Histogram,
}

/// The buffers of one sort besides the data: the other half of the ping-pong and the status
/// words (global counts, tickets, every pass's look-back rows).
pub struct OneSweepScratch {
    spare: wgpu::Buffer,
    status: wgpu::Buffer,
}

/// The compiled kernels of one ranking and shape.
pub struct OneSweepSorter {
    reset: Kernel,
    histogram: Kernel,
    seed: Kernel,
    binning: Kernel,
    /// The tile shape.
    pub shape: Shape,
    /// How a tile is ranked.
    pub ranking: Ranking,
}

impl OneSweepSorter {
    /// Compile `ranking` in `shape` for `ctx`, or say why this device cannot run it
    /// ([`LabError::Unsupported`]).
    pub fn new(
        ctx: &GpuContext,
        tuning: &LabTuning,
        ranking: Ranking,
        shape: Shape,
    ) -> Result<OneSweepSorter, LabError> {
        let groups = max_groups(ctx, ranking, shape.threads).map_err(LabError::Unsupported)?;
        let bytes = binning_bytes(ranking, shape, groups);
        let memory = ctx.limits.max_compute_workgroup_storage_size;
        if bytes > memory {
            return Err(LabError::Unsupported(format!(
                "{} tiles need {bytes} bytes of workgroup memory; this device has {memory}",
                shape.label()
            )));
        }
        if shape.threads > ctx.limits.max_compute_invocations_per_workgroup {
            return Err(LabError::Unsupported(format!(
                "{} threads a workgroup is over this device's limit",
                shape.threads
            )));
        }
        let module = shader(ranking, shape, groups);
        let kernel = |entry| Kernel::new(ctx, &module, entry, &[true, false, false], tuning);
        Ok(OneSweepSorter {
            reset: kernel("reset")?,
            histogram: kernel("histogram")?,
            seed: kernel("seed")?,
            binning: kernel("binning")?,
            shape,
            ranking,
        })
    }

    /// Tiles of `n` pairs.
    pub fn tiles(&self, n: u32) -> u32 {
        n.div_ceil(self.shape.tile()).max(1)
    }

    fn status_words(&self, n: u32) -> u64 {
        HEADER_WORDS + u64::from(PASSES) * 256 * (u64::from(self.tiles(n)) + 1)
    }

    /// Scratch for sorts of `n` pairs.
    pub fn scratch(&self, ctx: &GpuContext, n: u32) -> Result<OneSweepScratch, LabError> {
        Ok(OneSweepScratch {
            spare: storage_buffer(ctx, u64::from(n) * 8, "onesweep ping-pong")?,
            status: storage_buffer(ctx, 4 * self.status_words(n), "onesweep status")?,
        })
    }

    /// Sort the first `n` pairs of `data` in place (or run only `part` of it); seconds (kernel
    /// time where the device has timestamps).
    #[allow(clippy::too_many_arguments)]
    pub fn sort(
        &self,
        ctx: &GpuContext,
        data: &wgpu::Buffer,
        s: &OneSweepScratch,
        (n, descending): (u32, bool),
        part: Part,
        clock: &mut Clock,
        per_submission: usize,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        if n > MAX_PAIRS {
            return Err(LabError::BadSize(format!(
                "gpu-onesweep sorts at most {MAX_PAIRS} pairs (30-bit counts)"
            )));
        }
        if n == 0 {
            return Ok(0.0);
        }
        let tiles = self.tiles(n);
        let batch = u64::from(self.shape.threads * HISTOGRAM_BATCH);
        let chunk = u64::from(n)
            .div_ceil(HISTOGRAM_GROUPS)
            .max(batch)
            .next_multiple_of(batch);
        let common = |shift: u32, pass: u32| {
            let desc = u32::from(descending);
            [shift, n, tiles, desc, pass, self.shape.kpt, chunk as u32, 0]
        };
        let mut slots = vec![common(0, 0)];
        slots.extend((0..PASSES).map(|p| common(8 * p, p)));
        let params = ParamSlots::new(ctx, &slots);
        let first = self
            .reset
            .bind(ctx, &[data, &s.spare, &s.status], &params)?;
        let ways = [[data, &s.spare], [&s.spare, data]];
        let passes = ways
            .iter()
            .map(|[from, to]| self.binning.bind(ctx, &[from, to, &s.status], &params))
            .collect::<Result<Vec<_>, _>>()?;
        let max_dim = ctx.limits.max_compute_workgroups_per_dimension;
        let at = |kernel, groups: u64, slot: usize, group| Dispatch {
            kernel,
            group,
            offset: params.offset(slot),
            grid: grid(groups, max_dim),
        };
        let start = [
            at(&self.reset, self.status_words(n).div_ceil(256), 0, &first),
            at(&self.histogram, u64::from(n).div_ceil(chunk), 0, &first),
            at(&self.seed, u64::from(PASSES), 0, &first),
        ];
        let mut dispatches = Vec::from(start);
        if part == Part::Whole {
            for p in 0..PASSES as usize {
                let group = &passes[p % 2];
                dispatches.push(at(&self.binning, u64::from(tiles), 1 + p, group));
            }
        }
        clock.run(ctx, &dispatches, per_submission, progress)
    }

    /// `input` sorted on the GPU (tests and one-off use).
    pub fn sort_pairs(
        &self,
        ctx: &GpuContext,
        input: &[Pair],
        descending: bool,
    ) -> Result<Vec<Pair>, LabError> {
        Ok(self.sort_pairs_with_status(ctx, input, descending)?.0)
    }

    /// `input` sorted on the GPU, and the status words after the sort (tests: the global
    /// counts, the tickets taken and every tile's publications; see the shader).
    pub fn sort_pairs_with_status(
        &self,
        ctx: &GpuContext,
        input: &[Pair],
        descending: bool,
    ) -> Result<(Vec<Pair>, Vec<u32>), LabError> {
        let scratch = self.scratch(ctx, input.len() as u32)?;
        let sorted = sorted_on_device(ctx, input, |data, n, clock, progress| {
            let what = (n, descending);
            self.sort(ctx, data, &scratch, what, Part::Whole, clock, 64, progress)
        })?;
        let words = self.status_words(input.len() as u32) as usize;
        Ok((sorted, read_back(ctx, &scratch.status, words)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse_and_print_and_refuse_what_the_kernel_cannot_run() {
        let shape = Shape::parse("512x15").unwrap();
        assert_eq!((shape.threads, shape.kpt, shape.tile()), (512, 15, 7680));
        assert_eq!(shape.label(), "512x15");
        assert_eq!(Shape::parse(" 256X8 ").unwrap().tile(), 2048);
        let split = Shape::parse("256x15s").unwrap();
        assert!(split.split && !shape.split);
        assert_eq!((split.tile(), split.label()), (3840, "256x15s".to_string()));
        for bad in [
            "128x15", "256x0", "256x33", "256", "x15", "256xa", "256x15ss", "256xs",
        ] {
            assert_eq!(Shape::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn workgroup_memory_holds_the_tile_or_the_counters_whichever_is_larger() {
        // 32-lane subgroups, 256 × 15: the 3840-word tile; 8-lane subgroups, 256 × 8: the
        // 32 subgroups' 4096 counter words; portable: counters, digit table and shared values.
        assert_eq!(scratch_words(Ranking::Subgroup, DEFAULT_SHAPE, 8), 3840);
        let small = Shape::parse("256x8").unwrap();
        assert_eq!(scratch_words(Ranking::Subgroup, small, 32), 4096);
        assert_eq!(
            scratch_words(Ranking::Portable, DEFAULT_SHAPE, 8),
            1024 + 3840 + 512
        );
        assert_eq!(
            binning_bytes(Ranking::Subgroup, DEFAULT_SHAPE, 8),
            15360 + 4 + 2060
        );
        // Staged apart: the counters (8 subgroups × 128 words) and the tile side by side.
        let split = Shape::parse("256x15s").unwrap();
        assert_eq!(scratch_words(Ranking::Subgroup, split, 8), 1024);
        assert_eq!(
            binning_bytes(Ranking::Subgroup, split, 8),
            4096 + 15360 + 2060
        );
    }
}
