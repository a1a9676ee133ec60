//! A portable-shader radix sort of the key + index pairs in the reduce-then-scan family:
//! 8-bit digits, 4 passes of (digit counts per run of tiles with each tile's starts within
//! its run, one device-wide scan of the run counts by [`Scanner`], a stable scatter ranked
//! within each (virtual) subgroup, one workgroup a tile). See `shaders/lab/sort_radix8.wgsl`.
//!
//! Two [`Ranking`]s: by subgroup ballots where the device has subgroups of at most 32 lanes,
//! and a portable one in workgroup memory for every device (its count scan then also runs
//! without subgroup operations), so the sort runs everywhere and either form can be measured
//! on a device that has both.
//!
//! No pass waits on another workgroup, so the sort needs no forward progress between
//! workgroups; the scan of the counts is the single-pass look-back, whose fallback makes it
//! safe without such a guarantee too ([`super::scanner`]).

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

use super::gpu::{Clock, Dispatch, Kernel, ParamSlots, Params, grid, storage_buffer};
use super::scanner::{ScanScratch, Scanner, vec4_bytes};
use super::sort::{Pair, sorted_on_device};
use super::{LabError, Progress};

/// Digit passes over the 32-bit keys.
pub const PASSES: u32 = 4;
/// The scan form used for the digit counts.
const COUNT_SCAN: &str = "decoupled-look-back";
/// Threads per workgroup.
const THREADS: u32 = 256;
/// Counting workgroups a pass keeps at least, where the input is large enough: runs of tiles
/// grow up to [`MOST_TILES_PER_RUN`] only while this many remain (enough to fill any current
/// GPU several times over).
const LEAST_RUNS: u32 = 2048;
/// Most tiles one counting workgroup runs through (the scanned counts are per run: fewer
/// counts to write, scan and read as scattered 4-byte words).
const MOST_TILES_PER_RUN: u32 = 8;

/// Tiles per run for `tiles` tiles: `wanted` (at least 1), else as many as keep
/// [`LEAST_RUNS`] workgroups, 1 to [`MOST_TILES_PER_RUN`].
pub fn tiles_per_run(tiles: u32, wanted: Option<u32>) -> u32 {
    wanted.map_or((tiles / LEAST_RUNS).clamp(1, MOST_TILES_PER_RUN), |w| {
        w.max(1)
    })
}

/// Pairs per thread unless [`LabTuning::radix_keys_per_thread`] says otherwise: 8 was faster
/// than 16 on the H200 (docs/lab.md).
pub const DEFAULT_KEYS_PER_THREAD: u32 = 8;
/// How the scatter ranks a tile's pairs within each subgroup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranking {
    /// Subgroup ballots and shuffles (`sort_radix8_subgroup.wgsl`): needs subgroups of at
    /// most 32 lanes.
    Subgroup,
    /// 32-lane virtual subgroups in workgroup memory, one barrier a round
    /// (`sort_radix8_portable.wgsl`): every device.
    Portable,
}

impl Ranking {
    /// The fastest form `ctx` can run: [`Ranking::Subgroup`] where its subgroups allow, else
    /// [`Ranking::Portable`].
    pub fn best(ctx: &GpuContext) -> Ranking {
        match subgroup_groups(ctx) {
            Ok(_) => Ranking::Subgroup,
            Err(_) => Ranking::Portable,
        }
    }

    /// What the Lab's notes call it.
    pub fn describe(self) -> &'static str {
        match self {
            Ranking::Subgroup => "ranked by subgroup ballots",
            Ranking::Portable => "ranked in workgroup memory (no subgroup operations)",
        }
    }
}

/// Subgroups per workgroup at the device's smallest subgroup size, or why the subgroup
/// ranking cannot run here (no subgroups, or subgroups wider than 32 lanes).
fn subgroup_groups(ctx: &GpuContext) -> Result<u32, String> {
    if !ctx.has_subgroups() {
        return Err("needs subgroup operations (ballot, shuffle), which this device lacks".into());
    }
    let (min, max) = (ctx.info.subgroup_min_size, ctx.info.subgroup_max_size);
    if max > 32 || min == 0 || !THREADS.is_multiple_of(min) {
        return Err(format!(
            "needs subgroups of at most 32 lanes (ballots read one word); this device has {min}–{max}"
        ));
    }
    Ok(THREADS / min)
}

/// Lanes of the portable ranking's virtual subgroups (`VIRTUAL_WIDTH` in its shader).
const VIRTUAL_WIDTH: u32 = 32;

/// Workgroup memory the scatter needs besides its staged pairs (the largest of the two entry
/// points: the counting pass uses only its 1 KiB of bins): per-subgroup counters (512 bytes a
/// subgroup), digit starts (2 × 1 KiB), and the workgroup scan's subtotals (1 KiB with
/// subgroups) or tree (4 KiB) and the portable ranking's shared counters (2 KiB).
fn fixed_bytes(ranking: Ranking, max_groups: u32) -> u32 {
    max_groups * 512
        + 2 * 1024
        + match ranking {
            Ranking::Subgroup => 1024,
            Ranking::Portable => 6 * 1024,
        }
}

/// Pairs per thread and subgroups per workgroup for `ranking` on `ctx`: the largest tile
/// (256 × 16, 8 or 4 … pairs, at most `wanted` per thread, [`DEFAULT_KEYS_PER_THREAD`] when
/// `None`) whose staged keys (then indices: 4 bytes a pair) and counters fit the device's
/// workgroup memory; `Err` says why the device cannot run it.
pub fn layout(
    ctx: &GpuContext,
    ranking: Ranking,
    wanted: Option<u32>,
) -> Result<(u32, u32), String> {
    let max_groups = match ranking {
        Ranking::Subgroup => subgroup_groups(ctx)?,
        Ranking::Portable => THREADS / VIRTUAL_WIDTH,
    };
    let memory = ctx.limits.max_compute_workgroup_storage_size;
    [16, 8, 4, 2, 1]
        .into_iter()
        .filter(|kpt| *kpt <= wanted.unwrap_or(DEFAULT_KEYS_PER_THREAD))
        .find(|kpt| kpt * THREADS * 4 + fixed_bytes(ranking, max_groups) <= memory)
        .map(|kpt| (kpt, max_groups))
        .ok_or_else(|| format!("needs more workgroup memory than this device's {memory} bytes"))
}

/// The module for `ranking` with `kpt` pairs per thread and `max_groups` subgroups per
/// workgroup.
pub fn shader(ranking: Ranking, kpt: u32, max_groups: u32) -> Shader {
    Shader::new(match ranking {
        Ranking::Subgroup => "lab/sort_radix8_subgroup.wgsl",
        Ranking::Portable => "lab/sort_radix8_portable.wgsl",
    })
    .constant("KPT", kpt)
    .constant("MAX_GROUPS", max_groups)
}

/// Which kernels of a sort to run: all of them (a sort), or only one phase of each pass (to
/// time the phases; the data is then not sorted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phases {
    /// Every kernel: the sort.
    All,
    /// Only the upsweeps (tile digit counts).
    Counts,
    /// Only the scans of the counts.
    Scans,
}

/// The buffers of one sort of `n` pairs besides the data.
pub struct Radix8Scratch {
    spare: wgpu::Buffer,
    counts: wgpu::Buffer,
    /// Where each tile's digits start within its run (256 per tile).
    tile_starts: wgpu::Buffer,
    offsets: wgpu::Buffer,
    scan: ScanScratch,
}

/// The compiled 8-bit radix kernels and the scanner for their counts.
pub struct Radix8Sorter {
    upsweep: Kernel,
    downsweep: Kernel,
    scanner: Scanner,
    /// Pairs per workgroup tile.
    pub tile: u32,
    /// Tiles per workgroup run, if fixed ([`LabTuning::radix_tiles_per_run`]).
    tiles_per_run: Option<u32>,
    /// How the scatter ranks.
    pub ranking: Ranking,
}

impl Radix8Sorter {
    /// Compile `ranking` for `ctx` (the count scan with subgroup operations only when the
    /// ranking uses them), or say why this device cannot run it.
    pub fn new(
        ctx: &GpuContext,
        tuning: &LabTuning,
        ranking: Ranking,
    ) -> Result<Radix8Sorter, LabError> {
        let wanted = tuning.radix_keys_per_thread;
        let (kpt, max_groups) = layout(ctx, ranking, wanted).map_err(LabError::Unsupported)?;
        let module = shader(ranking, kpt, max_groups);
        let storage = [true, false, false, false];
        let kernel = |entry| Kernel::new(ctx, &module, entry, &storage, tuning);
        Ok(Radix8Sorter {
            upsweep: kernel("upsweep")?,
            downsweep: kernel("downsweep")?,
            scanner: Scanner::with_subgroups(ctx, tuning, ranking == Ranking::Subgroup)?,
            tile: kpt * THREADS,
            tiles_per_run: tuning.radix_tiles_per_run,
            ranking,
        })
    }

    /// Runs of tiles (workgroups of a pass) for `n` pairs, and tiles per run.
    pub fn runs(&self, n: u32) -> (u32, u32) {
        let sub = tiles_per_run(n.div_ceil(self.tile), self.tiles_per_run);
        (n.div_ceil(self.tile * sub).max(1), sub)
    }

    fn counts(&self, n: u32) -> u64 {
        256 * u64::from(self.runs(n).0)
    }

    /// Scratch for sorts of `n` pairs.
    pub fn scratch(&self, ctx: &GpuContext, n: u32) -> Result<Radix8Scratch, LabError> {
        let counts = self.counts(n);
        Ok(Radix8Scratch {
            spare: storage_buffer(ctx, u64::from(n) * 8, "radix8 ping-pong")?,
            counts: storage_buffer(ctx, vec4_bytes(counts), "radix8 counts")?,
            tile_starts: storage_buffer(
                ctx,
                1024 * u64::from(n.div_ceil(self.tile).max(1)),
                "radix8 tile starts",
            )?,
            offsets: storage_buffer(ctx, vec4_bytes(counts), "radix8 offsets")?,
            scan: ScanScratch::new(ctx, counts)?,
        })
    }

    /// Sort the first `n` pairs of `data` in place (or run only `phases` of it); seconds
    /// (kernel time where the device has timestamps).
    #[allow(clippy::too_many_arguments)]
    pub fn sort(
        &self,
        ctx: &GpuContext,
        data: &wgpu::Buffer,
        s: &Radix8Scratch,
        (n, descending): (u32, bool),
        phases: Phases,
        clock: &mut Clock,
        per_submission: usize,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let (runs, sub) = self.runs(n);
        let tiles = n.div_ceil(self.tile).max(1);
        let scan = self
            .scanner
            .steps(COUNT_SCAN, &s.counts, &s.offsets, self.counts(n), &s.scan);
        let mut slots: Vec<Params> = (0..PASSES)
            .map(|p| [8 * p, n, tiles, u32::from(descending), sub, 0, 0, 0])
            .collect();
        slots.extend(scan.iter().map(|step| step.params));
        let params = ParamSlots::new(ctx, &slots);
        let ways = [[data, &s.spare], [&s.spare, data]];
        let mut upsweep = Vec::new();
        let mut downsweep = Vec::new();
        for [from, to] in ways {
            let counting = [from, to, &s.counts, &s.tile_starts];
            upsweep.push(self.upsweep.bind(ctx, &counting, &params)?);
            let scattering = [from, to, &s.offsets, &s.tile_starts];
            downsweep.push(self.downsweep.bind(ctx, &scattering, &params)?);
        }
        let scan_groups = scan
            .iter()
            .map(|step| step.bind(ctx, &params))
            .collect::<Result<Vec<_>, _>>()?;
        let max_dim = ctx.limits.max_compute_workgroups_per_dimension;
        let (run_grid, tile_grid) = (
            grid(u64::from(runs), max_dim),
            grid(u64::from(tiles), max_dim),
        );
        let mut dispatches = Vec::new();
        for p in 0..PASSES as usize {
            let offset = params.offset(p);
            if matches!(phases, Phases::All | Phases::Counts) {
                dispatches.push(Dispatch {
                    kernel: &self.upsweep,
                    group: &upsweep[p % 2],
                    offset,
                    grid: run_grid,
                });
            }
            if matches!(phases, Phases::All | Phases::Scans) {
                for (k, step) in scan.iter().enumerate() {
                    let offset = params.offset(PASSES as usize + k);
                    dispatches.push(step.dispatch(&scan_groups[k], offset, max_dim));
                }
            }
            if phases == Phases::All {
                dispatches.push(Dispatch {
                    kernel: &self.downsweep,
                    group: &downsweep[p % 2],
                    offset,
                    grid: tile_grid,
                });
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
        sorted_on_device(ctx, input, |data, n, clock, progress| {
            let scratch = self.scratch(ctx, n)?;
            let all = Phases::All;
            self.sort(
                ctx,
                data,
                &scratch,
                (n, descending),
                all,
                clock,
                64,
                progress,
            )
        })
    }
}
