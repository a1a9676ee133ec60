//! Thread mapping and memory coalescing: write an e³ `vec4<f32>` volume, one texel per
//! thread, with consecutive threads walking X (contiguous) or Z (strided), in workgroups
//! of 64 or 256, repeated 1…500 times per measurement; the fixed latency and the cost per
//! repeat are separated by a least-squares fit.

use std::time::Instant;

use super::gpu::{Clock, Dispatch, Kernel, ParamSlots, grid, read_back, storage_buffer};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, RunStart, SizeLimit, Variant, begin,
};
use crate::bench::median;
use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

/// Variant name, consecutive threads walk Z, workgroup size.
pub const VARIANTS: [(&str, bool, u32); 4] = [
    ("x-64", false, 64),
    ("x-256", false, 256),
    ("z-64", true, 64),
    ("z-256", true, 256),
];
/// Writes of the whole volume per measurement (the article's).
pub const REPEATS: [u32; 7] = [1, 10, 50, 100, 200, 300, 500];
/// Seconds of GPU work one submission may hold.
const SUBMISSION_BUDGET_S: f64 = 0.05;

/// One variant's pipeline.
pub struct Coalescer {
    kernel: Kernel,
    walk_z: bool,
    wg: u32,
}

/// Least-squares line through `(x, y)` points: (intercept, slope).
pub fn fit_line(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - slope * mx, slope)
}

/// The volume-writing kernel with `wg` threads per workgroup.
pub fn shader(wg: u32) -> Shader {
    Shader::new("lab/coalesce.wgsl").constant("WG", wg)
}

impl Coalescer {
    /// Compile `variant` (see [`VARIANTS`]).
    pub fn new(ctx: &GpuContext, variant: &str, tuning: &LabTuning) -> Result<Coalescer, LabError> {
        let &(_, walk_z, wg) = VARIANTS
            .iter()
            .find(|v| v.0 == variant)
            .expect("known variant");
        Ok(Coalescer {
            kernel: Kernel::new(ctx, &shader(wg), "main", &[false], tuning)?,
            walk_z,
            wg,
        })
    }

    /// Write the `edge`³ volume in `volume` `repeats` times, `per_submission` writes per
    /// submission: (wall seconds, clock seconds).
    #[allow(clippy::too_many_arguments)]
    pub fn write(
        &self,
        ctx: &GpuContext,
        volume: &wgpu::Buffer,
        edge: u32,
        repeats: u32,
        per_submission: usize,
        clock: &mut Clock,
        progress: &Progress,
    ) -> Result<(f64, f64), LabError> {
        let texels = edge * edge * edge;
        let params = ParamSlots::new(
            ctx,
            &[[edge, u32::from(self.walk_z), texels, 0, 0, 0, 0, 0]],
        );
        let group = self.kernel.bind(ctx, &[volume], &params)?;
        let g = grid(
            u64::from(texels.div_ceil(self.wg)),
            ctx.limits.max_compute_workgroups_per_dimension,
        );
        let dispatches: Vec<Dispatch> = (0..repeats)
            .map(|_| Dispatch {
                kernel: &self.kernel,
                group: &group,
                offset: 0,
                grid: g,
            })
            .collect();
        let start = Instant::now();
        let kernel = clock.run(ctx, &dispatches, per_submission, progress)?;
        Ok((start.elapsed().as_secs_f64(), kernel))
    }

    /// Write a fresh `edge`³ volume once and check every texel holds its own coordinates.
    pub fn write_and_verify(
        &self,
        ctx: &GpuContext,
        edge: u32,
    ) -> Result<Result<(), String>, LabError> {
        let texels = (edge * edge * edge) as usize;
        let volume = storage_buffer(ctx, texels as u64 * 16, "volume")?;
        self.write(
            ctx,
            &volume,
            edge,
            1,
            1,
            &mut Clock::new(ctx),
            &Progress::new(),
        )?;
        let out: Vec<[f32; 4]> = read_back(ctx, &volume, texels)?;
        let e = edge as usize;
        Ok(
            match out.iter().enumerate().find(|(i, v)| {
                **v != [
                    (i % e) as f32,
                    ((i / e) % e) as f32,
                    (i / (e * e)) as f32,
                    1.0,
                ]
            }) {
                Some((i, v)) => Err(format!("texel {i} holds {v:?}")),
                None => Ok(()),
            },
        )
    }
}

/// The coalescing experiment.
pub struct CoalesceExperiment;

impl Experiment for CoalesceExperiment {
    fn name(&self) -> &'static str {
        "coalesce"
    }

    fn description(&self) -> &'static str {
        "Write a 256³ vec4<f32> volume, one texel per thread, consecutive threads walking X or Z, \
         workgroups of 64 or 256, repeated 1–500 times: fixed latency vs cost per repeat."
    }

    fn variants(&self) -> Vec<Variant> {
        VARIANTS
            .iter()
            .map(|(name, z, wg)| {
                let walk = if *z {
                    "Z (stride of e² texels)"
                } else {
                    "X (contiguous)"
                };
                Variant::new(
                    name,
                    &format!("consecutive threads walk {walk}, {wg} threads per workgroup"),
                )
            })
            .collect()
    }

    fn size_unit(&self) -> &'static str {
        "volume edge e (e³ vec4<f32> texels)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![256]
    }

    fn size_limit(&self, ctx: &GpuContext) -> SizeLimit {
        SizeLimit::one_binding(ctx, "e³ 16-byte texels", |binding| {
            let mut max = ((binding / 16) as f64).cbrt() as u64;
            while (max + 1).pow(3) * 16 <= binding {
                max += 1;
            }
            max.min(1024)
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
            ..
        } = begin(self, ctx, plan, progress, 1)?;
        let measurements = plan.repeats.max(1);
        let mut report = LabReport::new(
            self.name(),
            ctx,
            copy,
            &clock,
            plan,
            vec![format!(
                "ms = wall clock of a whole measurement (submit, {SUBMISSION_BUDGET_S} s submissions, wait), median of {measurements}; \
                 GB/s from kernel time (bytes written only); the fit rows split wall time into a fixed part and a part per repeat"
            )],
        );
        let total = (sizes.len() * variants.len()) as f32;
        for (si, &edge) in sizes.iter().enumerate() {
            let bytes = edge.pow(3) as f64 * 16.0;
            for (vi, variant) in variants.iter().enumerate() {
                progress.check()?;
                progress.update(
                    (si * variants.len() + vi) as f32 / total,
                    &format!("coalesce {} {edge}³", variant.name),
                );
                let cold = Instant::now();
                let kernels = Coalescer::new(ctx, &variant.name, &plan.tuning)?;
                let checked = kernels.write_and_verify(ctx, edge as u32)?;
                let cold_ms = cold.elapsed().as_secs_f64() * 1e3;
                let label = |what: &str| format!("{edge}³ {what}");
                if let Err(e) = checked {
                    progress.push_row(
                        &mut report.rows,
                        LabRow {
                            variant: variant.name.clone(),
                            size: edge,
                            size_label: label("×1"),
                            ms: None,
                            gb_per_s: None,
                            percent_of_copy: None,
                            validated: false,
                            notes: e,
                            plot_x: None,
                        },
                    );
                    continue;
                }
                let volume = storage_buffer(ctx, bytes as u64, "volume")?;
                let (_, one) =
                    kernels.write(ctx, &volume, edge as u32, 3, 1, &mut clock, progress)?;
                let per_submission =
                    ((SUBMISSION_BUDGET_S / (one / 3.0).max(1e-7)) as usize).clamp(1, 512);
                let mut wall_points = Vec::new();
                let mut kernel_points = Vec::new();
                for &r in &REPEATS {
                    let mut walls = Vec::new();
                    let mut kernel_times = Vec::new();
                    for _ in 0..measurements {
                        let (w, k) = kernels.write(
                            ctx,
                            &volume,
                            edge as u32,
                            r,
                            per_submission,
                            &mut clock,
                            progress,
                        )?;
                        walls.push(w);
                        kernel_times.push(k);
                    }
                    let (w, k) = (median(&walls), median(&kernel_times));
                    wall_points.push((f64::from(r), w * 1e3));
                    kernel_points.push((f64::from(r), k * 1e3));
                    let gbps = f64::from(r) * bytes / k / 1e9;
                    progress.push_row(
                        &mut report.rows,
                        LabRow {
                            variant: variant.name.clone(),
                            size: edge,
                            size_label: label(&format!("×{r}")),
                            ms: Some(w * 1e3),
                            gb_per_s: Some(gbps),
                            percent_of_copy: Some(100.0 * gbps * 1e9 / copy),
                            validated: true,
                            notes: format!(
                                "kernel {:.3} ms; wall − kernel {:.3} ms",
                                k * 1e3,
                                (w - k) * 1e3
                            ),
                            plot_x: Some(f64::from(r)),
                        },
                    );
                }
                let (fixed, per_repeat) = fit_line(&wall_points);
                let (kernel_fixed, kernel_per_repeat) = fit_line(&kernel_points);
                progress.push_row(&mut report.rows, LabRow {
                    variant: variant.name.clone(),
                    size: edge,
                    size_label: label("fit"),
                    ms: Some(fixed),
                    gb_per_s: Some(bytes / (per_repeat / 1e3) / 1e9),
                    percent_of_copy: Some(100.0 * bytes / (per_repeat / 1e3) / copy),
                    validated: true,
                    notes: format!(
                        "wall = {fixed:.3} ms fixed + {per_repeat:.4} ms per repeat; kernel = {kernel_fixed:.3} + {kernel_per_repeat:.4} ms per repeat; \
                         first use (pipeline creation, one write, read back {:.0} MiB, verify) {cold_ms:.0} ms; {per_submission} writes per submission",
                        bytes / 1048576.0
                    ),
                    plot_x: Some(f64::NAN),
                });
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
