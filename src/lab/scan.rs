//! The scan experiment: exclusive prefix sum of `u32` values (wrapping), the building block of
//! radix sorts and the clearest lesson in why a single pass matters. Copy baselines move each
//! value once in and once out (2 × 4 bytes), what any scan must at least do
//! ([`super::scan_copy`]: the scan's tiled copy, the roofline kernel, `copy_buffer_to_buffer`;
//! a scan's "% of copy" is of the fastest); the three scan forms of [`super::scanner`] move 4,
//! 3 and 2 × 4 bytes a value. The single pass runs in any tile shape in one run
//! (`decoupled-look-back@512x8`), rolled or written out straight ([`super::scan_unrolled`]).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::gpu::{Clock, ParamSlots, batched_median, read_back, storage_buffer, upload};
use super::scan_copy::{COPIES, COPY, COPY_BUFFER, COPY_VEC4, CopyBaselines};
pub use super::scan_shape::{LOOK_BACK, LOOK_BACK_UNROLLED, single_pass_variant};
use super::scanner::{ScanScratch, Scanner, SinglePass, vec4_bytes};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, RunStart, SizeLimit, Variant,
    begin, size_label,
};
use crate::gpu::GpuContext;

/// The variants, the copy baselines first.
pub const VARIANTS: [(&str, &str); 7] = [
    (
        COPY,
        "each value read once and written once in the scan tile's pattern (four vec4 rows a thread): a baseline",
    ),
    (
        COPY_VEC4,
        "the roofline copy kernel (one vec4 a thread) on the same buffers: a baseline",
    ),
    (
        COPY_BUFFER,
        "copy_buffer_to_buffer on the same buffers (wall clock around one submission): a baseline",
    ),
    (
        "scan-then-propagate",
        "naive multi-pass: Blelloch tree per tile, totals scanned recursively, offsets added in a last pass (4 × 4 B a value)",
    ),
    (
        "reduce-then-scan",
        "tile totals first (subgroup sums where available), totals scanned, then each tile scanned with its offset (3 × 4 B a value)",
    ),
    (
        LOOK_BACK,
        "single pass: tiles in ticket order look back over published sums, reduce a silent predecessor themselves (2 × 4 B a value); @THREADSxROWS for another tile (threads 128–1024, rows 4–16 in fours)",
    ),
    (
        LOOK_BACK_UNROLLED,
        "the single pass written out straight for its tile (every vec4 a named value, no array for the compiler to spill); @THREADSxROWS as decoupled-look-back, rows up to 32",
    ),
];

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

/// The data of one scan of `n` values: input, output and the scan's scratch.
pub struct ScanBuffers {
    n: u64,
    src: wgpu::Buffer,
    dst: wgpu::Buffer,
    scratch: ScanScratch,
}

impl ScanBuffers {
    /// Buffers for `n` (≥ 1) values.
    pub fn new(ctx: &GpuContext, n: u64) -> Result<ScanBuffers, LabError> {
        Ok(ScanBuffers {
            n,
            src: storage_buffer(ctx, vec4_bytes(n), "scan in")?,
            dst: storage_buffer(ctx, vec4_bytes(n), "scan out")?,
            scratch: ScanScratch::new(ctx, n)?,
        })
    }
}

/// Run `variant` over `b` `times` times; seconds per run.
pub fn time(
    scanner: &Scanner,
    ctx: &GpuContext,
    variant: &str,
    b: &ScanBuffers,
    times: usize,
    clock: &mut Clock,
    progress: &Progress,
) -> Result<f64, LabError> {
    let steps = scanner.steps(variant, &b.src, &b.dst, b.n, &b.scratch);
    let slots: Vec<_> = steps.iter().map(|s| s.params).collect();
    let params = ParamSlots::new(ctx, &slots);
    let groups = steps
        .iter()
        .map(|s| s.bind(ctx, &params))
        .collect::<Result<Vec<_>, _>>()?;
    let max_dim = ctx.limits.max_compute_workgroups_per_dimension;
    let mut dispatches = Vec::new();
    for _ in 0..times.max(1) {
        for (i, step) in steps.iter().enumerate() {
            dispatches.push(step.dispatch(&groups[i], params.offset(i), max_dim));
        }
    }
    let seconds = clock.run(ctx, &dispatches, dispatches.len(), progress)?;
    Ok(seconds / times.max(1) as f64)
}

/// `input` through `variant` of `scanner` once, on fresh buffers that `prepare` may seed
/// after the upload (tests: a previous run's leftovers in the scratch); the buffers after it.
fn run_once(
    scanner: &Scanner,
    ctx: &GpuContext,
    variant: &str,
    input: &[u32],
    prepare: impl FnOnce(&ScanBuffers) -> Result<(), LabError>,
) -> Result<ScanBuffers, LabError> {
    let b = ScanBuffers::new(ctx, input.len() as u64)?;
    upload(ctx, &b.src, input)?;
    prepare(&b)?;
    let (mut clock, progress) = (Clock::new(ctx), Progress::new());
    time(scanner, ctx, variant, &b, 1, &mut clock, &progress)?;
    Ok(b)
}

/// `input` through `variant` of `scanner` once, read back.
pub fn apply(
    scanner: &Scanner,
    ctx: &GpuContext,
    variant: &str,
    input: &[u32],
) -> Result<Vec<u32>, LabError> {
    let b = run_once(scanner, ctx, variant, input, |_| Ok(()))?;
    read_back(ctx, &b.dst, input.len())
}

/// `input` through the single pass once, on scratch whose status words start as `fill` (a
/// previous run's leftovers): its output and the status words after it (tests).
pub fn single_pass_status(
    scanner: &Scanner,
    ctx: &GpuContext,
    input: &[u32],
    fill: u32,
) -> Result<(Vec<u32>, Vec<u32>), LabError> {
    let words = |b: &ScanBuffers| (b.scratch.status().size() / 4) as usize;
    let b = run_once(scanner, ctx, "decoupled-look-back", input, |b| {
        upload(ctx, b.scratch.status(), &vec![fill; words(b)])
    })?;
    let out = read_back(ctx, &b.dst, input.len())?;
    Ok((out, read_back(ctx, b.scratch.status(), words(&b))?))
}

/// `input` through the copy baseline `variant` ([`COPY_VEC4`] or [`COPY_BUFFER`]) once, on
/// fresh (zeroed) buffers, read back.
pub fn apply_copy(
    copies: &CopyBaselines,
    ctx: &GpuContext,
    variant: &str,
    input: &[u32],
) -> Result<Vec<u32>, LabError> {
    let b = ScanBuffers::new(ctx, input.len() as u64)?;
    upload(ctx, &b.src, input)?;
    let (mut clock, progress) = (Clock::new(ctx), Progress::new());
    copies.time(ctx, variant, &b.src, &b.dst, 1, &mut clock, &progress)?;
    read_back(ctx, &b.dst, input.len())
}

/// The scanner and its form (for [`Scanner::steps`]) that run variant `name`: one of
/// `shaped` (the single-pass shapes besides the tuned one) or `main`.
fn runner<'a>(
    name: &'a str,
    main: &'a Scanner,
    shaped: &'a [(String, Scanner)],
    tuned: SinglePass,
) -> (&'a Scanner, &'a str) {
    match shaped.iter().find(|(n, _)| n == name) {
        Some((_, other)) => (other, LOOK_BACK),
        None if single_pass_variant(name, tuned).is_some() => (main, LOOK_BACK),
        None => (main, name),
    }
}

/// The scan experiment.
pub struct ScanExperiment;

impl Experiment for ScanExperiment {
    fn name(&self) -> &'static str {
        "scan"
    }

    fn description(&self) -> &'static str {
        "Exclusive prefix sum of n u32 values: scan-then-propagate (4 × 4 B a value), \
         reduce-then-scan (3 ×) and the single-pass decoupled look-back (2 ×, in any tile \
         shape, rolled or written out straight) against the fastest copy (the one pass any \
         scan needs): the scan tile's, the roofline kernel's or copy_buffer_to_buffer."
    }

    fn variants(&self) -> Vec<Variant> {
        VARIANTS.iter().map(|(n, d)| Variant::new(n, d)).collect()
    }

    fn variant(&self, name: &str) -> Option<Variant> {
        let listed = self.variants().into_iter();
        if let Some(v) = listed
            .clone()
            .find(|v| v.name.eq_ignore_ascii_case(name.trim()))
        {
            return Some(v);
        }
        // Any base shape will do: only the name's own shape is checked here.
        let base = SinglePass {
            threads: 256,
            rows: 8,
            spin: 0,
            trust: true,
            unrolled: false,
        };
        let shape = single_pass_variant(name, base)?;
        let form = if shape.unrolled {
            LOOK_BACK_UNROLLED
        } else {
            LOOK_BACK
        };
        let mut v = listed.into_iter().find(|v| v.name == form)?;
        v.name = format!("{form}@{}", shape.label());
        Some(v)
    }

    fn size_unit(&self) -> &'static str {
        "values (u32)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![1 << 20, 1 << 24, 1 << 28]
    }

    fn cpu_device_sizes(&self) -> Vec<u64> {
        vec![1 << 16, 1 << 20]
    }

    fn size_limit(&self, ctx: &GpuContext) -> SizeLimit {
        SizeLimit::one_binding(ctx, "n u32 values", |binding| binding / 4)
    }

    fn run(
        &self,
        ctx: &std::sync::Arc<GpuContext>,
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
        let copies = CopyBaselines::new(ctx, &plan.tuning)?;
        let tuned = scanner.single_pass();
        // A scanner for each single-pass shape the plan names besides the tuned one.
        let mut shaped: Vec<(String, Scanner)> = Vec::new();
        for v in &variants {
            match single_pass_variant(&v.name, tuned) {
                Some(shape) if shape != tuned => {
                    let other = Scanner::with_single_pass(ctx, &plan.tuning, true, shape)?;
                    shaped.push((v.name.clone(), other));
                }
                _ => {}
            }
        }
        let mut report = LabReport::new(
            self.name(),
            ctx,
            roofline,
            &clock,
            plan,
            vec![format!(
                "random u32 values (seed {seed}), wrapping sums, every variant validated first; \
                 4096-value tiles ({} for decoupled-look-back, {}); workgroup step of \
                 reduce-then-scan and decoupled-look-back by {}; GB/s = 2 × n × 4 B ÷ time \
                 (the traffic of one pass); % of copy = of the fastest of copy, copy-vec4 and \
                 copy-buffer at the same size (each row's notes name it)",
                scanner.single_pass_tile(),
                tuned.label(),
                if scanner.subgroups {
                    "subgroup operations"
                } else {
                    "workgroup memory (no subgroups here)"
                }
            )],
        );
        let repeats = plan.repeats.max(1);
        let total = (sizes.len() * (variants.len() + COPIES.len())) as f32;
        let mut done = 0;
        for &n in &sizes {
            let input = random_values(n as usize, seed ^ n);
            let buffers = ScanBuffers::new(ctx, n)?;
            upload(ctx, &buffers.src, &input)?;
            let warm = clock.warms_up();
            let mut measure = |variant: &str| -> Result<f64, LabError> {
                batched_median(repeats, 50, warm, |batch| {
                    let (src, dst) = (&buffers.src, &buffers.dst);
                    if [COPY_VEC4, COPY_BUFFER].contains(&variant) {
                        return copies.time(ctx, variant, src, dst, batch, &mut clock, progress);
                    }
                    let (scanner, form) = runner(variant, &scanner, &shaped, tuned);
                    time(scanner, ctx, form, &buffers, batch, &mut clock, progress)
                })
            };
            // Every copy baseline, selected or not: the scans stand beside the fastest.
            let mut copy_times = Vec::new();
            for copy in COPIES {
                let what = format!("scan {copy} {}", size_label(n));
                progress.update(done as f32 / total, &what);
                copy_times.push((copy, measure(copy)?));
                done += 1;
            }
            let (fastest, copy_seconds) = copy_times
                .iter()
                .copied()
                .fold((COPY, f64::MAX), |a, b| if b.1 < a.1 { b } else { a });
            for variant in &variants {
                progress.check()?;
                progress.update(
                    done as f32 / total,
                    &format!("scan {} {}", variant.name, size_label(n)),
                );
                done += 1;
                let name = variant.name.as_str();
                let out = if [COPY_VEC4, COPY_BUFFER].contains(&name) {
                    apply_copy(&copies, ctx, name, &input)?
                } else {
                    let (scanner, form) = runner(name, &scanner, &shaped, tuned);
                    apply(scanner, ctx, form, &input)?
                };
                let is_copy = COPIES.contains(&name);
                let checked = validate(&input, &out, !is_copy);
                let mut row = LabRow::checked(name, n, size_label(n), checked);
                if row.validated {
                    let t = match copy_times.iter().find(|(c, _)| *c == name) {
                        Some(&(_, t)) => t,
                        None => measure(name)?,
                    };
                    row.time_against_copy(t, 2.0 * n as f64 * 4.0, copy_seconds, roofline);
                    row.notes += &format!("; fastest copy here: {fastest}");
                }
                progress.push_row(&mut report.rows, row);
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
