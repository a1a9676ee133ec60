//! Box sums, the count behind Larger than Life: each cell's number of ones in the
//! (2r+1)² square about it on an n×n torus, by range r, three ways — every cell read
//! (naive, (2r+1)² reads), a literal two-pass summed-area table then four reads per cell
//! (sat), and row prefix sums then a running column sum down each column (sliding,
//! golab's Larger than Life count) — each checked against the CPU on a fresh random grid
//! of an awkward size, then timed at the experiment's grid beside the copy roofline.

use super::gpu::{
    Clock, Dispatch, Kernel, ParamSlots, batched_median, grid, read_back, storage_buffer, upload,
};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, RunStart, SizeLimit, Variant, begin,
};
use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

/// Variant name and what it does.
pub const VARIANTS: [(&str, &str); 3] = [
    (
        "naive",
        "one thread per cell reads all (2r+1)² cells of its box (run up to r = 10)",
    ),
    (
        "sat",
        "summed-area table: row prefix sums, column prefix sums over them, four reads per cell (3 passes)",
    ),
    (
        "sliding",
        "row prefix sums, then one thread per column walks max(r, 64) rows with a running sum of the rows' windows (2 passes)",
    ),
];
/// The largest range naive runs: beyond it one pass reads billions of cells per million.
const NAIVE_MAX_R: u64 = 10;
/// Validation grid edge: not a power of two, and smaller than a large box (which then wraps).
const CHECK_EDGE: u32 = 601;
/// The module every variant's kernels come from.
pub fn shader() -> Shader {
    Shader::new("lab/boxsum.wgsl")
}

/// The grid edge the timings use: 8192 on a GPU whose bindings hold it (the Larger than
/// Life benchmark's size), 1024 on a CPU device.
pub fn grid_edge(ctx: &GpuContext) -> u32 {
    let binding = crate::gpu::limits::max_chunk_bytes(&ctx.limits);
    let fits = |n: u64| (n + 2 * 500 + 1).pow(2) * 4 <= binding;
    if ctx.info.device_type != wgpu::DeviceType::Cpu && fits(8192) {
        8192
    } else {
        1024
    }
}

/// The kernels, compiled once per run.
struct BoxSums {
    naive: Kernel,
    row_prefix: Kernel,
    column_prefix: Kernel,
    sat_box: Kernel,
    sliding: Kernel,
}

/// The buffers of one grid: cells, prefix sums (or the table), counts.
struct Buffers {
    cells: wgpu::Buffer,
    sums: wgpu::Buffer,
    out: wgpu::Buffer,
}

impl Buffers {
    fn new(ctx: &GpuContext, n: u32, r: u32) -> Result<Buffers, LabError> {
        let cells = u64::from(n) * u64::from(n) * 4;
        let ext = u64::from(n + 2 * r);
        Ok(Buffers {
            cells: storage_buffer(ctx, cells, "box cells")?,
            sums: storage_buffer(ctx, ext * (ext + 1) * 4, "box sums")?,
            out: storage_buffer(ctx, cells, "box counts")?,
        })
    }
}

/// Rows one sliding thread walks (as Larger than Life's count pass walks the square).
fn run_rows(r: u32) -> u32 {
    r.max(64)
}

impl BoxSums {
    fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<BoxSums, LabError> {
        let k = |entry: &str| Kernel::new(ctx, &shader(), entry, &[true, false, false], tuning);
        Ok(BoxSums {
            naive: k("naive")?,
            row_prefix: k("row_prefix")?,
            column_prefix: k("column_prefix")?,
            sat_box: k("sat_box")?,
            sliding: k("sliding")?,
        })
    }

    /// `variant` on the n×n grid in `bufs` at range r, `times` times over: seconds per time.
    #[allow(clippy::too_many_arguments)]
    fn time(
        &self,
        ctx: &GpuContext,
        variant: &str,
        bufs: &Buffers,
        (n, r): (u32, u32),
        times: usize,
        clock: &mut Clock,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let ext = n + 2 * r;
        let params = ParamSlots::new(ctx, &[[n, r, ext, run_rows(r), 0, 0, 0, 0]]);
        let max = ctx.limits.max_compute_workgroups_per_dimension;
        let cells = (u64::from(n) * u64::from(n)).div_ceil(256);
        let passes: Vec<(&Kernel, (u32, u32))> = match variant {
            "naive" => vec![(&self.naive, grid(cells, max))],
            "sat" => vec![
                (&self.row_prefix, grid(u64::from(ext), max)),
                (
                    &self.column_prefix,
                    grid(u64::from(ext + 1).div_ceil(256), max),
                ),
                (&self.sat_box, grid(cells, max)),
            ],
            _ => {
                let threads = u64::from(n) * u64::from(n.div_ceil(run_rows(r)));
                vec![
                    (&self.row_prefix, grid(u64::from(ext), max)),
                    (&self.sliding, grid(threads.div_ceil(256), max)),
                ]
            }
        };
        let groups = passes
            .iter()
            .map(|(k, _)| k.bind(ctx, &[&bufs.cells, &bufs.sums, &bufs.out], &params))
            .collect::<Result<Vec<_>, _>>()?;
        let dispatches: Vec<Dispatch> = (0..times.max(1))
            .flat_map(|_| {
                passes
                    .iter()
                    .zip(&groups)
                    .map(|((kernel, g), group)| Dispatch {
                        kernel,
                        group,
                        offset: 0,
                        grid: *g,
                    })
            })
            .collect();
        let seconds = clock.run(ctx, &dispatches, passes.len() * 8, progress)?;
        Ok(seconds / times.max(1) as f64)
    }

    /// `variant`'s counts of `cells` (n×n) at range r, read back.
    fn apply(
        &self,
        ctx: &GpuContext,
        variant: &str,
        cells: &[u32],
        n: u32,
        r: u32,
    ) -> Result<Vec<u32>, LabError> {
        let bufs = Buffers::new(ctx, n, r)?;
        upload(ctx, &bufs.cells, cells)?;
        let mut clock = Clock::new(ctx);
        self.time(ctx, variant, &bufs, (n, r), 1, &mut clock, &Progress::new())?;
        read_back(ctx, &bufs.out, cells.len())
    }
}

/// A random n×n grid of ones (half of the cells) and zeros: the low bit of the scan
/// experiment's random values.
pub fn random_grid(n: usize, seed: u64) -> Vec<u32> {
    super::scan::random_values(n * n, seed)
        .into_iter()
        .map(|v| v & 1)
        .collect()
}

/// The CPU's box sums of the n×n torus `cells` at range r: for each cell, the sum over its
/// 2r + 1 rows of each row's window, read from that row's wrapped prefix sums.
pub fn box_sums(cells: &[u32], n: usize, r: usize) -> Vec<u32> {
    let wrap = |i: i64| i.rem_euclid(n as i64) as usize;
    let prefix: Vec<Vec<u32>> = (0..n)
        .map(|y| {
            let mut p = vec![0u32; n + 2 * r + 1];
            for j in 0..n + 2 * r {
                p[j + 1] = p[j] + cells[y * n + wrap(j as i64 - r as i64)];
            }
            p
        })
        .collect();
    let mut out = vec![0u32; n * n];
    for y in 0..n {
        for x in 0..n {
            out[y * n + x] = (0..=2 * r)
                .map(|dy| {
                    let row = &prefix[wrap(y as i64 + dy as i64 - r as i64)];
                    row[x + 2 * r + 1] - row[x]
                })
                .sum();
        }
    }
    out
}

/// The box-sum experiment.
pub struct BoxSumExperiment;

impl Experiment for BoxSumExperiment {
    fn name(&self) -> &'static str {
        "boxsum"
    }

    fn description(&self) -> &'static str {
        "Count each cell's ones in the (2r+1)² square about it on an n×n torus (Larger than Life's \
         Moore count), by range r: every cell read, a two-pass summed-area table, or row sums with \
         a running column sum; against the copy roofline (8 bytes per cell)."
    }

    fn variants(&self) -> Vec<Variant> {
        VARIANTS.iter().map(|(n, d)| Variant::new(n, d)).collect()
    }

    fn size_unit(&self) -> &'static str {
        "range r (a (2r+1)² box; grid 8192² on a GPU, 1024² on a CPU device)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![1, 2, 5, 10, 20, 50, 100, 200, 500]
    }

    fn size_limit(&self, _ctx: &GpuContext) -> SizeLimit {
        SizeLimit {
            max: 500,
            reason: "Larger than Life's largest range".into(),
        }
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
        let kernels = BoxSums::new(ctx, &plan.tuning)?;
        let n = grid_edge(ctx);
        let mut report = LabReport::new(
            self.name(),
            ctx,
            copy,
            &clock,
            plan,
            vec![format!(
                "{n}² torus, half of the cells ones (seed {seed}); each variant checked first on a fresh {CHECK_EDGE}² grid; \
                 GB/s = n² × 8 B (a read and a write per cell, the least any count moves) ÷ time, against the copy kernel"
            )],
        );
        let cells = random_grid(n as usize, seed);
        let repeats = plan.repeats.max(1);
        let warm = clock.warms_up();
        let total = (sizes.len() * variants.len()) as f32;
        let mut done = 0;
        for &r in &sizes {
            let bufs = Buffers::new(ctx, n, r as u32)?;
            upload(ctx, &bufs.cells, &cells)?;
            let check_cells = random_grid(CHECK_EDGE as usize, seed ^ r);
            let expected = box_sums(&check_cells, CHECK_EDGE as usize, r as usize);
            for variant in &variants {
                progress.check()?;
                progress.update(
                    done as f32 / total,
                    &format!("boxsum {} r = {r}", variant.name),
                );
                done += 1;
                let label = format!("r = {r}");
                if variant.name == "naive" && r > NAIVE_MAX_R {
                    report.notes.push(format!(
                        "naive not run at r = {r}: {} reads per cell",
                        (2 * r + 1).pow(2)
                    ));
                    continue;
                }
                let got = kernels.apply(ctx, &variant.name, &check_cells, CHECK_EDGE, r as u32)?;
                let checked = match got.iter().zip(&expected).position(|(a, b)| a != b) {
                    Some(i) => Err(format!(
                        "cell {i} of the {CHECK_EDGE}² check: {} where the CPU counts {}",
                        got[i], expected[i]
                    )),
                    None => Ok(()),
                };
                let mut row = LabRow::checked(variant.name.clone(), r, label, checked);
                if row.validated {
                    let t = batched_median(repeats, 50, warm, |batch| {
                        kernels.time(
                            ctx,
                            &variant.name,
                            &bufs,
                            (n, r as u32),
                            batch,
                            &mut clock,
                            progress,
                        )
                    })?;
                    let bytes = f64::from(n) * f64::from(n) * 8.0;
                    row.ms = Some(t * 1e3);
                    row.gb_per_s = Some(bytes / t / 1e9);
                    row.percent_of_copy = Some(100.0 * bytes / t / copy);
                    row.notes = format!("{:.3e} cells/s", f64::from(n).powi(2) / t);
                }
                progress.push_row(&mut report.rows, row);
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
