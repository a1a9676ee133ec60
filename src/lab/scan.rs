//! Exclusive prefix sum of `u32` values (wrapping): the building block of radix sorts, and
//! the clearest lesson in why a single pass matters. A copy baseline moves each value once
//! in and once out (2 × 4 bytes); every scan must at least do that.
//!
//! - `scan-then-propagate` (Blelloch): each 1024-value tile is scanned in workgroup memory
//!   with Blelloch's tree and writes its total; the totals are scanned the same way
//!   (recursively); a last pass adds each tile's offset: 4 × 4 bytes a value plus the small
//!   levels.
//! - `reduce-then-scan`: a first pass only reads each tile for its total (subgroup sums where
//!   the device has subgroups); the totals are scanned; a second pass reads the tile again
//!   and writes its scan plus the tile's offset: 3 × 4 bytes a value.
//! - A single-pass decoupled look-back scan (2 × 4 bytes) needs workgroups to wait on their
//!   predecessors, i.e. forward progress between workgroups that WebGPU does not promise; it is
//!   not in the Lab yet (docs/lab.md).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::gpu::{
    Clock, Dispatch, Kernel, ParamSlots, batched_median, grid, read_back, storage_buffer, upload,
};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, RunStart, SizeLimit, Variant,
    begin, size_label,
};
use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

/// Values one workgroup scans (4 rows of 256).
pub const TILE: u64 = 1024;

/// The variants, the copy baseline first.
pub const VARIANTS: [(&str, &str); 3] = [
    (
        "copy",
        "each value read once and written once, same access pattern: the baseline",
    ),
    (
        "scan-then-propagate",
        "Blelloch tree per tile in workgroup memory, totals scanned recursively, offsets added in a last pass",
    ),
    (
        "reduce-then-scan",
        "tile totals first (subgroup sums where available), totals scanned, then each tile scanned with its offset",
    ),
];

/// The scan module: subgroup operations for the workgroup step, or workgroup memory.
pub fn shader(subgroups: bool) -> Shader {
    Shader::new(if subgroups {
        "lab/scan_subgroup.wgsl"
    } else {
        "lab/scan.wgsl"
    })
}

/// `n` random values, with duplicates and the whole `u32` range.
pub fn random_values(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.next_u32()).collect()
}

/// The exclusive prefix sum of `input` (wrapping).
pub fn exclusive_scan(input: &[u32]) -> Vec<u32> {
    let mut sum = 0u32;
    input
        .iter()
        .map(|&v| {
            let out = sum;
            sum = sum.wrapping_add(v);
            out
        })
        .collect()
}

/// Where `output` differs from the exclusive scan (or, for `copy`, the copy) of `input`.
pub fn validate(input: &[u32], output: &[u32], scanned: bool) -> Result<(), String> {
    let expected = if scanned {
        exclusive_scan(input)
    } else {
        input.to_vec()
    };
    match expected.iter().zip(output).position(|(e, o)| e != o) {
        Some(i) => Err(format!(
            "out[{i}] = {}, expected {}",
            output[i], expected[i]
        )),
        None if output.len() != expected.len() => Err("wrong length".into()),
        None => Ok(()),
    }
}

/// The compiled entry points of one scan module.
struct Entries {
    scan_tile: Kernel,
    reduce_tile: Kernel,
    scan_tile_offset: Kernel,
    add_offsets: Kernel,
    copy: Kernel,
}

impl Entries {
    fn new(ctx: &GpuContext, module: &Shader, tuning: &LabTuning) -> Result<Entries, LabError> {
        let kernel = |entry| Kernel::new(ctx, module, entry, &[true, false, false], tuning);
        Ok(Entries {
            scan_tile: kernel("scan_tile")?,
            reduce_tile: kernel("reduce_tile")?,
            scan_tile_offset: kernel("scan_tile_offset")?,
            add_offsets: kernel("add_offsets")?,
            copy: kernel("copy")?,
        })
    }
}

/// The scan kernels: `scan-then-propagate` always scans tiles in workgroup memory (the naive
/// multi-pass form); `reduce-then-scan` uses subgroup operations where the device has them.
pub struct Scanner {
    tree: Entries,
    fast: Option<Entries>,
    /// Whether `reduce-then-scan` uses subgroup operations.
    pub subgroups: bool,
}

/// The buffers of one scan of `n` values: data, result, per level above the data the tiles'
/// totals and their scan, and a one-value sink for the top level's total.
pub struct ScanBuffers {
    n: u64,
    src: wgpu::Buffer,
    dst: wgpu::Buffer,
    /// `(count, totals, scanned totals)` per level above the data; the last has count 1.
    levels: Vec<(u64, wgpu::Buffer, wgpu::Buffer)>,
    sink: wgpu::Buffer,
}

impl ScanBuffers {
    /// Buffers for `n` (≥ 1) values.
    pub fn new(ctx: &GpuContext, n: u64) -> Result<ScanBuffers, LabError> {
        let mut levels = Vec::new();
        let mut count = n.max(1);
        loop {
            count = count.div_ceil(TILE);
            levels.push((
                count,
                storage_buffer(ctx, count * 4, "scan totals")?,
                storage_buffer(ctx, count * 4, "scan offsets")?,
            ));
            if count <= 1 {
                break;
            }
        }
        Ok(ScanBuffers {
            n,
            src: storage_buffer(ctx, n * 4, "scan in")?,
            dst: storage_buffer(ctx, n * 4, "scan out")?,
            levels,
            sink: storage_buffer(ctx, 4, "scan sink")?,
        })
    }
}

/// One dispatch of a scan: kernel, its (src, dst, sums) bindings, values it covers.
type Step<'a> = (&'a Kernel, [&'a wgpu::Buffer; 3], u64);

impl Scanner {
    /// Compile the kernels, with subgroup operations where `ctx` has them.
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<Scanner, LabError> {
        let subgroups = ctx.has_subgroups() && 256 % ctx.info.subgroup_max_size.max(1) == 0;
        let fast = if subgroups {
            Some(Entries::new(ctx, &shader(true), tuning)?)
        } else {
            None
        };
        Ok(Scanner {
            tree: Entries::new(ctx, &shader(false), tuning)?,
            fast,
            subgroups,
        })
    }

    /// Scan level `k`'s totals into its scanned totals (recursively through the levels above).
    fn scan_level<'a>(e: &'a Entries, b: &'a ScanBuffers, k: usize, steps: &mut Vec<Step<'a>>) {
        let (count, totals, scanned) = &b.levels[k];
        let above = b.levels.get(k + 1);
        let next_totals = above.map_or(&b.sink, |l| &l.1);
        steps.push((&e.scan_tile, [totals, scanned, next_totals], *count));
        if let (true, Some((_, _, above_scanned))) = (*count > TILE, above) {
            Self::scan_level(e, b, k + 1, steps);
            steps.push((&e.add_offsets, [&b.src, scanned, above_scanned], *count));
        }
    }

    /// Every dispatch of one run of `variant` over `b`, in order.
    fn plan<'a>(&'a self, variant: &str, b: &'a ScanBuffers) -> Vec<Step<'a>> {
        let (_, totals, scanned) = &b.levels[0];
        let data = [&b.src, &b.dst, totals];
        let e = match variant {
            "reduce-then-scan" => self.fast.as_ref().unwrap_or(&self.tree),
            _ => &self.tree,
        };
        let mut steps = Vec::new();
        match variant {
            "copy" => steps.push((&e.copy, data, b.n)),
            _ if b.n <= TILE => steps.push((&e.scan_tile, data, b.n)),
            "reduce-then-scan" => {
                steps.push((&e.reduce_tile, data, b.n));
                Self::scan_level(e, b, 0, &mut steps);
                steps.push((&e.scan_tile_offset, [&b.src, &b.dst, scanned], b.n));
            }
            _ => {
                steps.push((&e.scan_tile, data, b.n));
                Self::scan_level(e, b, 0, &mut steps);
                steps.push((&e.add_offsets, [&b.src, &b.dst, scanned], b.n));
            }
        }
        steps
    }

    /// Run `variant` over `b` `times` times; seconds per run.
    pub fn time(
        &self,
        ctx: &GpuContext,
        variant: &str,
        b: &ScanBuffers,
        times: usize,
        clock: &mut Clock,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let steps = self.plan(variant, b);
        let slots: Vec<[u32; 8]> = steps
            .iter()
            .map(|&(_, _, n)| [n as u32, 0, 0, 0, 0, 0, 0, 0])
            .collect();
        let params = ParamSlots::new(ctx, &slots);
        let groups = steps
            .iter()
            .map(|(kernel, buffers, _)| kernel.bind(ctx, buffers, &params))
            .collect::<Result<Vec<_>, _>>()?;
        let max_dim = ctx.limits.max_compute_workgroups_per_dimension;
        let mut dispatches = Vec::new();
        for _ in 0..times.max(1) {
            for (i, (kernel, _, n)) in steps.iter().enumerate() {
                dispatches.push(Dispatch {
                    kernel,
                    group: &groups[i],
                    offset: params.offset(i),
                    grid: grid(n.div_ceil(TILE), max_dim),
                });
            }
        }
        let seconds = clock.run(ctx, &dispatches, dispatches.len(), progress)?;
        Ok(seconds / times.max(1) as f64)
    }

    /// `input` through `variant` once, read back.
    pub fn apply(
        &self,
        ctx: &GpuContext,
        variant: &str,
        input: &[u32],
    ) -> Result<Vec<u32>, LabError> {
        let b = ScanBuffers::new(ctx, input.len() as u64)?;
        upload(ctx, &b.src, input)?;
        self.time(ctx, variant, &b, 1, &mut Clock::new(ctx), &Progress::new())?;
        read_back(ctx, &b.dst, input.len())
    }
}

/// The scan experiment.
pub struct ScanExperiment;

impl Experiment for ScanExperiment {
    fn name(&self) -> &'static str {
        "scan"
    }

    fn description(&self) -> &'static str {
        "Exclusive prefix sum of n u32 values: scan-then-propagate (Blelloch tree per tile, \
         3 passes over the data) and reduce-then-scan (2 passes) against a copy kernel (the \
         one pass any scan needs)."
    }

    fn variants(&self) -> Vec<Variant> {
        VARIANTS.iter().map(|(n, d)| Variant::new(n, d)).collect()
    }

    fn size_unit(&self) -> &'static str {
        "values (u32)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![1 << 20, 1 << 24, 1 << 28]
    }

    fn size_limit(&self, ctx: &GpuContext) -> SizeLimit {
        SizeLimit::one_binding(ctx, "n u32 values", |binding| binding / 4)
    }

    fn run(
        &self,
        ctx: &GpuContext,
        plan: &RunPlan,
        progress: &Progress,
    ) -> Result<LabReport, LabError> {
        let RunStart {
            variants,
            sizes,
            copy: roofline,
            mut clock,
            seed,
        } = begin(self, ctx, plan, progress, 1)?;
        let scanner = Scanner::new(ctx, &plan.tuning)?;
        let mut report = LabReport::new(
            self.name(),
            ctx,
            roofline,
            &clock,
            plan,
            vec![format!(
                "random u32 values (seed {seed}), wrapping sums, every variant validated first; \
                 reduce-then-scan's workgroup step by {}; GB/s = 2 × n × 4 B ÷ time (the \
                 traffic of one pass); % of copy = of the copy variant at the same size",
                if scanner.subgroups {
                    "subgroup operations"
                } else {
                    "workgroup memory (no subgroups here)"
                }
            )],
        );
        let repeats = plan.repeats.max(1);
        let total = (sizes.len() * (variants.len() + 1)) as f32;
        let mut done = 0;
        for &n in &sizes {
            let input = random_values(n as usize, seed ^ n);
            let buffers = ScanBuffers::new(ctx, n)?;
            upload(ctx, &buffers.src, &input)?;
            let mut measure = |variant: &str| -> Result<f64, LabError> {
                batched_median(repeats, 50, |batch| {
                    scanner.time(ctx, variant, &buffers, batch, &mut clock, progress)
                })
            };
            progress.update(done as f32 / total, &format!("scan copy {}", size_label(n)));
            let copy_seconds = measure("copy")?;
            done += 1;
            for variant in &variants {
                progress.check()?;
                progress.update(
                    done as f32 / total,
                    &format!("scan {} {}", variant.name, size_label(n)),
                );
                done += 1;
                let out = scanner.apply(ctx, &variant.name, &input)?;
                let checked = validate(&input, &out, variant.name != "copy");
                let mut row = LabRow::checked(variant.name.clone(), n, size_label(n), checked);
                if row.validated {
                    let t = if variant.name == "copy" {
                        copy_seconds
                    } else {
                        measure(&variant.name)?
                    };
                    row.time_against_copy(t, 2.0 * n as f64 * 4.0, copy_seconds, roofline);
                }
                progress.push_row(&mut report.rows, row);
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
