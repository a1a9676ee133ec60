//! Table lookups, the lookup roofline of golab's rule-table kernel: a tree walk is one load
//! per neighbour, each address the value of the load before it (9 for Moore rules, 5 for
//! von Neumann's). Each thread makes 9 loads from a table of random indices, dependent (a
//! walk) or independent (hashed addresses, all in flight at once), by table size from one
//! that fits the caches to one of golab's largest trees; each variant is checked against
//! the CPU on a fresh random table, then timed. Dependent loads per second ÷ 9 (or ÷ 5)
//! bounds the cell updates per second any tree kernel can make.

use super::gpu::{
    Clock, Dispatch, Kernel, ParamSlots, batched_median, grid, read_back, storage_buffer, upload,
};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, RunStart, SizeLimit, Variant, begin,
};
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

/// Variant name and what it does.
pub const VARIANTS: [(&str, &str); 2] = [
    (
        "dependent",
        "9 loads per thread, each address the value the load before read (a Moore tree walk)",
    ),
    (
        "independent",
        "9 loads per thread at hashed addresses, all in flight at once",
    ),
];
/// Loads per thread: a Moore tree's walk.
pub const LOADS: u32 = 9;
/// Threads of the validation dispatch.
const CHECK_THREADS: u32 = 100_003;

/// The module both variants come from.
pub fn shader() -> Shader {
    Shader::new("lab/lookup.wgsl")
}

/// Threads per timed dispatch: 2^24 on a GPU, 2^20 on a CPU device.
fn threads(ctx: &GpuContext) -> u32 {
    if ctx.info.device_type == wgpu::DeviceType::Cpu {
        1 << 20
    } else {
        1 << 24
    }
}

/// A thread's k-th address into a table of `n` entries (shaders/lab/lookup.wgsl).
pub fn address(t: u32, k: u32, n: u32) -> u32 {
    let mut h = t
        .wrapping_mul(0x9e37_79b9)
        .wrapping_add(k.wrapping_mul(0x85eb_ca6b));
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h % n
}

/// What each thread writes: its last value (dependent) or the sum of its values.
pub fn expected(table: &[u32], threads: u32, dependent: bool) -> Vec<u32> {
    let n = table.len() as u32;
    (0..threads)
        .map(|t| {
            if dependent {
                (0..LOADS).fold(address(t, 0, n), |at, _| table[at as usize])
            } else {
                (0..LOADS).fold(0u32, |sum, k| {
                    sum.wrapping_add(table[address(t, k, n) as usize])
                })
            }
        })
        .collect()
}

/// A random table of `n` indices into itself.
pub fn random_table(n: usize, seed: u64) -> Vec<u32> {
    super::scan::random_values(n, seed)
        .into_iter()
        .map(|v| ((u64::from(v) * n as u64) >> 32) as u32)
        .collect()
}

struct Lookups {
    dependent: Kernel,
    independent: Kernel,
}

impl Lookups {
    /// `variant` over `table` with `threads` threads, `times` times: seconds per time.
    #[allow(clippy::too_many_arguments)]
    fn time(
        &self,
        ctx: &GpuContext,
        variant: &str,
        (table, out): (&wgpu::Buffer, &wgpu::Buffer),
        (n, threads): (u32, u32),
        times: usize,
        clock: &mut Clock,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let kernel = if variant == "dependent" {
            &self.dependent
        } else {
            &self.independent
        };
        let params = ParamSlots::new(ctx, &[[n, threads, LOADS, 0, 0, 0, 0, 0]]);
        let group = kernel.bind(ctx, &[table, out], &params)?;
        let g = grid(
            u64::from(threads).div_ceil(256),
            ctx.limits.max_compute_workgroups_per_dimension,
        );
        let dispatches: Vec<Dispatch> = (0..times.max(1))
            .map(|_| Dispatch {
                kernel,
                group: &group,
                offset: 0,
                grid: g,
            })
            .collect();
        Ok(clock.run(ctx, &dispatches, 8, progress)? / times.max(1) as f64)
    }
}

/// The lookup experiment.
pub struct LookupExperiment;

impl Experiment for LookupExperiment {
    fn name(&self) -> &'static str {
        "lookup"
    }

    fn description(&self) -> &'static str {
        "The lookup roofline of rule-table kernels: 9 loads per thread from a table of random \
         indices, dependent (each address the load before's value, as a tree walk) or \
         independent, by table size; loads per second, and the cell updates per second a tree \
         walk of 9 (Moore) or 5 (von Neumann) loads could reach."
    }

    fn variants(&self) -> Vec<Variant> {
        VARIANTS.iter().map(|(n, d)| Variant::new(n, d)).collect()
    }

    fn size_unit(&self) -> &'static str {
        "table entries (4 bytes each)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![1 << 8, 1 << 12, 1 << 16, 1 << 20, 1 << 24]
    }

    fn size_limit(&self, _ctx: &GpuContext) -> SizeLimit {
        SizeLimit {
            max: 1 << 24,
            reason: "golab's largest rule tree (16 Mi entries)".into(),
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
        let k = |entry: &str| Kernel::new(ctx, &shader(), entry, &[true, false], &plan.tuning);
        let kernels = Lookups {
            dependent: k("dependent")?,
            independent: k("independent")?,
        };
        let threads = threads(ctx);
        let mut report = LabReport::new(
            self.name(),
            ctx,
            copy,
            &clock,
            plan,
            vec![format!(
                "{threads} threads × {LOADS} loads per dispatch (seed {seed}); each variant checked first on a fresh table \
                 with {CHECK_THREADS} threads; GB/s = loads × 4 B ÷ time (one u32 a load, what a tree walk reads), \
                 against the copy kernel; cell updates/s = dependent loads/s ÷ 9 (Moore) and ÷ 5 (von Neumann)"
            )],
        );
        let out = storage_buffer(ctx, u64::from(threads) * 4, "lookup out")?;
        let repeats = plan.repeats.max(1);
        let warm = clock.warms_up();
        let total = (sizes.len() * variants.len()) as f32;
        let mut done = 0;
        for &n in &sizes {
            let n32 = n as u32;
            let table = storage_buffer(ctx, n * 4, "lookup table")?;
            upload(ctx, &table, &random_table(n as usize, seed ^ n))?;
            let check = random_table(n as usize, seed ^ n ^ 0x5eed);
            let check_buf = storage_buffer(ctx, n * 4, "lookup check table")?;
            upload(ctx, &check_buf, &check)?;
            for variant in &variants {
                progress.check()?;
                progress.update(done as f32 / total, &format!("lookup {} {n}", variant.name));
                done += 1;
                let dependent = variant.name == "dependent";
                let mut check_clock = Clock::new(ctx);
                kernels.time(
                    ctx,
                    &variant.name,
                    (&check_buf, &out),
                    (n32, CHECK_THREADS),
                    1,
                    &mut check_clock,
                    progress,
                )?;
                let got: Vec<u32> = read_back(ctx, &out, CHECK_THREADS as usize)?;
                let want = expected(&check, CHECK_THREADS, dependent);
                let checked = match got.iter().zip(&want).position(|(a, b)| a != b) {
                    Some(i) => Err(format!(
                        "thread {i} read {} where the CPU reads {}",
                        got[i], want[i]
                    )),
                    None => Ok(()),
                };
                let label = super::start::size_label(n);
                let mut row = LabRow::checked(variant.name.clone(), n, label, checked);
                if row.validated {
                    let t = batched_median(repeats, 50, warm, |batch| {
                        kernels.time(
                            ctx,
                            &variant.name,
                            (&table, &out),
                            (n32, threads),
                            batch,
                            &mut clock,
                            progress,
                        )
                    })?;
                    let loads = f64::from(threads) * f64::from(LOADS);
                    let bytes = loads * 4.0;
                    row.ms = Some(t * 1e3);
                    row.gb_per_s = Some(bytes / t / 1e9);
                    row.percent_of_copy = Some(100.0 * bytes / t / copy);
                    row.notes = if dependent {
                        format!(
                            "{:.3e} loads/s: ≤ {:.2e} cell updates/s (Moore), ≤ {:.2e} (von Neumann)",
                            loads / t,
                            loads / t / 9.0,
                            loads / t / 5.0
                        )
                    } else {
                        format!("{:.3e} loads/s", loads / t)
                    };
                }
                progress.push_row(&mut report.rows, row);
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
