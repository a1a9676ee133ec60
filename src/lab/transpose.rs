//! Transpose of an n×n `f32` matrix: a copy baseline, the naive kernel, and three
//! 32×32-tile kernels in workgroup memory (bank conflicts, padded, diagonal offset) as in the
//! article; then wide 64×64 tiles moved with 16-byte accesses (`shaders/lab/transpose_wide.wgsl`)
//! against a copy of the same shape, in row order and in diagonal tile order.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::gpu::{
    Clock, Dispatch, Kernel, ParamSlots, batched_median, read_back, storage_buffer, upload,
};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, RunStart, SizeLimit, Variant, begin,
};
use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

/// Variant names and the shader entry point of each, the copy baseline first.
pub const KERNELS: [(&str, &str); 9] = [
    (
        "copy",
        "same tiled reads and writes without transposing: the baseline",
    ),
    (
        "naive",
        "out[x][y] = in[y][x]: reads coalesced, writes strided",
    ),
    (
        "tile32",
        "workgroup tile [32][32]: coalesced both ways, column reads hit one bank",
    ),
    (
        "tile32x33",
        "tile padded to [32][33]: conflict-free, 132 bytes more workgroup memory",
    ),
    (
        "diagonal",
        "tile [32][32] storing (r, c) at column (c + r) % 32: conflict-free, no padding",
    ),
    (
        "tile32x33-blocked",
        "padded tile, workgroups walking 8 tile rows at a time: rows written 1 KiB at a time",
    ),
    (
        "copy-vec4",
        "64×64 tiles copied with 16-byte accesses (n divisible by 4): the wide kernels' baseline",
    ),
    (
        "tile64-vec4",
        "64×64 tile, each thread a 4×4 block transposed in registers; 16-byte global and workgroup accesses, XOR-swizzled (n divisible by 4)",
    ),
    (
        "tile64-vec4-diag",
        "tile64-vec4 with workgroups taking tiles in diagonal order (against partition camping)",
    ),
];

/// The wide kernels (`transpose_wide.wgsl`: 64×64 tiles, 16-byte accesses).
const WIDE: [&str; 3] = ["copy-vec4", "tile64-vec4", "tile64-vec4-diag"];

/// Whether `variant` is one of the wide kernels (16-byte accesses: n must be divisible by 4).
pub fn is_wide(variant: &str) -> bool {
    WIDE.contains(&variant)
}

fn entry(name: &str) -> &'static str {
    match name {
        "copy-vec4" => "copy",
        "tile64-vec4" => "wide",
        "tile64-vec4-diag" => "wide_diagonal",
        "tile32" => "tiled",
        "tile32x33" => "padded",
        "tile32x33-blocked" => "padded_blocked",
        "copy" => "copy",
        "naive" => "naive",
        _ => "diagonal",
    }
}

/// An n×n matrix of random finite values.
pub fn random_matrix(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n * n).map(|_| (rng.next_u32() >> 8) as f32).collect()
}

/// Where `out` differs from the transpose (or, for `copy`, the copy) of `input`.
pub fn validate(input: &[f32], output: &[f32], n: usize, transposed: bool) -> Result<(), String> {
    for y in 0..n {
        for x in 0..n {
            let expected = if transposed {
                input[x * n + y]
            } else {
                input[y * n + x]
            };
            let got = output[y * n + x];
            if got.to_bits() != expected.to_bits() {
                return Err(format!("out[{y}][{x}] = {got}, expected {expected}"));
            }
        }
    }
    Ok(())
}

/// The compiled transpose kernels and their buffers for one size.
pub struct Transposer {
    kernels: Vec<(&'static str, Kernel)>,
}

/// The 32×32-tile kernels' module (one entry point per variant; one permutation).
pub fn shader() -> Shader {
    Shader::new("lab/transpose.wgsl")
}

/// The wide kernels' module (`vec4` bindings; one permutation).
pub fn wide_shader() -> Shader {
    Shader::new("lab/transpose_wide.wgsl")
}

impl Transposer {
    /// Compile every kernel on `ctx`.
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<Transposer, LabError> {
        let kernels = KERNELS
            .iter()
            .map(|(name, _)| {
                let module = if is_wide(name) {
                    wide_shader()
                } else {
                    shader()
                };
                let kernel = Kernel::new(ctx, &module, entry(name), &[true, false], tuning)?;
                Ok((*name, kernel))
            })
            .collect::<Result<_, LabError>>()?;
        Ok(Transposer { kernels })
    }

    fn kernel(&self, name: &str) -> &Kernel {
        &self
            .kernels
            .iter()
            .find(|(k, _)| *k == name)
            .expect("known kernel")
            .1
    }

    /// Run `variant` `times` times on `src` → `dst` (n×n) and return the seconds per run.
    #[allow(clippy::too_many_arguments)]
    pub fn time(
        &self,
        ctx: &GpuContext,
        variant: &str,
        (src, dst): (&wgpu::Buffer, &wgpu::Buffer),
        n: u32,
        times: usize,
        clock: &mut Clock,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let kernel = self.kernel(variant);
        let params = ParamSlots::new(ctx, &[[n, 0, 0, 0, 0, 0, 0, 0]]);
        let group = kernel.bind(ctx, &[src, dst], &params)?;
        let tiles = n.div_ceil(if is_wide(variant) { 64 } else { 32 });
        let dispatches: Vec<Dispatch> = (0..times.max(1))
            .map(|_| Dispatch {
                kernel,
                group: &group,
                offset: 0,
                grid: (tiles, tiles),
            })
            .collect();
        let seconds = clock.run(ctx, &dispatches, dispatches.len(), progress)?;
        Ok(seconds / dispatches.len() as f64)
    }

    /// `input` (n×n) through `variant` once, read back.
    pub fn apply(
        &self,
        ctx: &GpuContext,
        variant: &str,
        input: &[f32],
        n: u32,
    ) -> Result<Vec<f32>, LabError> {
        let bytes = u64::from(n) * u64::from(n) * 4;
        let (src, dst) = (
            storage_buffer(ctx, bytes, "transpose in")?,
            storage_buffer(ctx, bytes, "transpose out")?,
        );
        upload(ctx, &src, input)?;
        self.time(
            ctx,
            variant,
            (&src, &dst),
            n,
            1,
            &mut Clock::new(ctx),
            &Progress::new(),
        )?;
        read_back(ctx, &dst, input.len())
    }
}

/// The transpose experiment.
pub struct TransposeExperiment;

impl Experiment for TransposeExperiment {
    fn name(&self) -> &'static str {
        "transpose"
    }

    fn description(&self) -> &'static str {
        "Transpose an n×n f32 matrix through 32×32 workgroup tiles: naive, bank-conflicted, \
         padded and diagonal-offset tiles against a copy kernel with the same access pattern."
    }

    fn variants(&self) -> Vec<Variant> {
        KERNELS.iter().map(|(n, d)| Variant::new(n, d)).collect()
    }

    fn size_unit(&self) -> &'static str {
        "matrix edge n (n×n f32)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![8192]
    }

    fn size_limit(&self, ctx: &GpuContext) -> SizeLimit {
        SizeLimit::one_binding(ctx, "an n×n f32 matrix", |binding| {
            ((binding / 4) as f64).sqrt() as u64
        })
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
            copy,
            mut clock,
            seed,
        } = begin(self, ctx, plan, progress, 1)?;
        let kernels = Transposer::new(ctx, &plan.tuning)?;
        let mut report = LabReport::new(
            self.name(),
            ctx,
            copy,
            &clock,
            plan,
            vec![format!(
                "random matrix (seed {seed}); GB/s = 2 × n² × 4 B ÷ time; % of copy = of the copy variant at the same size"
            )],
        );
        let repeats = plan.repeats.max(1);
        let total = (sizes.len() * (variants.len() + 1)) as f32;
        let mut done = 0;
        for &size in &sizes {
            let n = size as u32;
            let input = random_matrix(size as usize, seed ^ size);
            let bytes = size * size * 4;
            let (src, dst) = (
                storage_buffer(ctx, bytes, "transpose in")?,
                storage_buffer(ctx, bytes, "transpose out")?,
            );
            upload(ctx, &src, &input)?;
            let warm = clock.warms_up();
            let mut measure = |variant: &str| -> Result<f64, LabError> {
                batched_median(repeats, 100, warm, |batch| {
                    kernels.time(ctx, variant, (&src, &dst), n, batch, &mut clock, progress)
                })
            };
            progress.update(done as f32 / total, &format!("transpose copy {n}²"));
            let copy_seconds = measure("copy")?;
            // The wide kernels compare with the copy of their own shape.
            let wide_copy = if n.is_multiple_of(4) && variants.iter().any(|v| is_wide(&v.name)) {
                Some(measure("copy-vec4")?)
            } else {
                None
            };
            done += 1;
            for variant in &variants {
                progress.check()?;
                if is_wide(&variant.name) && !n.is_multiple_of(4) {
                    report.notes.push(format!(
                        "{} not run at {n}²: its 16-byte accesses need n divisible by 4",
                        variant.name
                    ));
                    done += 1;
                    continue;
                }
                progress.update(
                    done as f32 / total,
                    &format!("transpose {} {n}²", variant.name),
                );
                done += 1;
                let out = kernels.apply(ctx, &variant.name, &input, n)?;
                let transposed = !variant.name.starts_with("copy");
                let checked = validate(&input, &out, size as usize, transposed);
                let mut row =
                    LabRow::checked(variant.name.clone(), size, format!("{size}²"), checked);
                if row.validated {
                    let baseline = match wide_copy {
                        Some(wide) if is_wide(&variant.name) => wide,
                        _ => copy_seconds,
                    };
                    let t = match variant.name.as_str() {
                        "copy" => copy_seconds,
                        "copy-vec4" => baseline,
                        name => measure(name)?,
                    };
                    row.time_against_copy(t, 2.0 * bytes as f64, baseline, copy);
                }
                progress.push_row(&mut report.rows, row);
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
