//! Shuffles within groups of lanes: the subgroup built-ins (`subgroupShuffle`, `…Xor`,
//! `…Up`, `…Down`) against their workgroup-memory emulation, on 32-lane groups and on the
//! device's native subgroup size, in 1-D and 3-D workgroups.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::gpu::{
    Clock, Dispatch, Kernel, ParamSlots, Params, copy_bandwidth, grid, read_back, storage_buffer,
    upload,
};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, SizeLimit, Variant, fresh_seed,
    selected_sizes, selected_variants,
};
use crate::bench::median;
use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

/// The four operations, in shader order.
pub const OPS: [&str; 4] = ["indexed", "xor", "up", "down"];
/// Dependent shuffles per thread in the timing kernel.
pub const ITERATIONS: u32 = 64;

/// How the lanes of a group exchange values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implementation {
    /// The subgroup built-ins on the native subgroup.
    Builtin,
    /// Workgroup memory and two barriers, on groups of this many lanes (None: native size).
    Emulated(Option<u32>),
}

/// Variant name, implementation, 3-D workgroup.
pub const VARIANTS: [(&str, Implementation, bool); 6] = [
    ("subgroup-1d", Implementation::Builtin, false),
    ("subgroup-3d", Implementation::Builtin, true),
    ("emulated32-1d", Implementation::Emulated(Some(32)), false),
    ("emulated32-3d", Implementation::Emulated(Some(32)), true),
    ("emulated-native-1d", Implementation::Emulated(None), false),
    ("emulated-native-3d", Implementation::Emulated(None), true),
];

/// Widths (lanes per group) a variant can run: powers of two up to 256 (the native
/// subgroup size of any device, and the emulated 32).
pub const WIDTHS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/// The module of `implementation` in 1-D (256) or 3-D (8×4×8) workgroups; `width` is the
/// emulated group width (the built-ins use the device's subgroups and ignore it).
pub fn shader(implementation: Implementation, three_d: bool, width: u32) -> Shader {
    let (x, y, z) = if three_d {
        (8u32, 4u32, 8u32)
    } else {
        (256, 1, 1)
    };
    let root = match (implementation, three_d) {
        (Implementation::Builtin, false) => "lab/shuffle_subgroup_1d.wgsl",
        (Implementation::Builtin, true) => "lab/shuffle_subgroup_3d.wgsl",
        (Implementation::Emulated(_), _) => "lab/shuffle_emulated.wgsl",
    };
    let shader = Shader::new(root)
        .constant("WG_X", x)
        .constant("WG_Y", y)
        .constant("WG_Z", z);
    match implementation {
        Implementation::Builtin => shader,
        Implementation::Emulated(_) => shader.constant("W", width),
    }
}

/// The lane an op reads from (the CPU model of the shaders' semantics).
pub fn source_lane(op: u32, d: u32, lane: u32, w: u32) -> u32 {
    match op {
        0 => (lane + d) & (w - 1),
        1 => lane ^ (d & (w - 1)),
        2 if d <= lane => lane - d,
        3 if lane + d < w => lane + d,
        _ => lane,
    }
}

/// The two kernels (validate, timing) of one variant, or why it cannot run here.
pub struct ShuffleKernels {
    validate: Kernel,
    timing: Kernel,
    /// Largest group width the variant uses (deltas and masks run over 0..=width).
    pub width: u32,
}

impl ShuffleKernels {
    /// Compile `variant` (see [`VARIANTS`]) on `ctx`; [`LabError::Unsupported`] says why a
    /// variant cannot run on this device.
    pub fn new(
        ctx: &GpuContext,
        variant: &str,
        tuning: &LabTuning,
    ) -> Result<ShuffleKernels, LabError> {
        let &(_, implementation, three_d) =
            VARIANTS
                .iter()
                .find(|v| v.0 == variant)
                .ok_or_else(|| LabError::UnknownVariant {
                    experiment: "shuffle".into(),
                    name: variant.into(),
                    known: VARIANTS.map(|v| v.0).join(", "),
                })?;
        let native = ctx.info.subgroup_max_size;
        if !ctx.has_subgroups() && implementation != Implementation::Emulated(Some(32)) {
            return Err(LabError::Unsupported(format!(
                "{variant} skipped: the device does not offer the SUBGROUP feature"
            )));
        }
        let width = match implementation {
            Implementation::Builtin => native,
            Implementation::Emulated(w) => w.unwrap_or(native),
        };
        if !WIDTHS.contains(&width) {
            return Err(LabError::Unsupported(format!(
                "{variant} skipped: group width {width} is not a power of two up to 256"
            )));
        }
        let shader = shader(implementation, three_d, width);
        let kernel = |entry: &str| Kernel::new(ctx, &shader, entry, &[true, false], tuning);
        Ok(ShuffleKernels {
            validate: kernel("validate")?,
            timing: kernel("timing")?,
            width,
        })
    }

    /// Run every op with every delta/mask 0..=width on `threads` threads of random values
    /// and check every lane against the CPU model; the error names the first mismatch.
    pub fn validate(
        &self,
        ctx: &GpuContext,
        threads: u32,
        seed: u64,
    ) -> Result<[Result<(), String>; 4], LabError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let values: Vec<u32> = (0..threads).map(|_| rng.next_u32()).collect();
        let cases: Vec<(u32, u32)> = (0..4)
            .flat_map(|op| (0..=self.width).map(move |d| (op, d)))
            .collect();
        let slots: Vec<Params> = cases
            .iter()
            .enumerate()
            .map(|(i, &(op, d))| [op, d, threads, i as u32 * threads * 2, 0, 0, 0, 0])
            .collect();
        let params = ParamSlots::new(ctx, &slots);
        let src = storage_buffer(ctx, u64::from(threads) * 4, "shuffle values")?;
        let out = storage_buffer(
            ctx,
            cases.len() as u64 * u64::from(threads) * 8,
            "shuffle results",
        )?;
        upload(ctx, &src, &values)?;
        let group = self.validate.bind(ctx, &[&src, &out], &params)?;
        let g = grid(
            u64::from(threads.div_ceil(256)),
            ctx.limits.max_compute_workgroups_per_dimension,
        );
        let dispatches: Vec<Dispatch> = (0..cases.len())
            .map(|i| Dispatch {
                kernel: &self.validate,
                group: &group,
                offset: params.offset(i),
                grid: g,
            })
            .collect();
        Clock::new(ctx).run(ctx, &dispatches, 64, &Progress::new())?;
        let results: Vec<u32> = read_back(ctx, &out, cases.len() * threads as usize * 2)?;
        let mut verdict: [Result<(), String>; 4] = [Ok(()), Ok(()), Ok(()), Ok(())];
        for (i, &(op, d)) in cases.iter().enumerate() {
            if verdict[op as usize].is_err() {
                continue;
            }
            for gid in 0..threads {
                let at = (i * threads as usize + gid as usize) * 2;
                let (got, meta) = (results[at], results[at + 1]);
                let (lane, w) = (meta & 0xFFFF, meta >> 16);
                if w == 0 || w > 256 || lane != (gid % 256) % w {
                    verdict[op as usize] = Err(format!(
                        "thread {gid} is lane {lane} of {w}: lanes do not follow local_invocation_index"
                    ));
                    break;
                }
                let expected = values[(gid - lane + source_lane(op, d, lane, w)) as usize];
                if got != expected {
                    verdict[op as usize] = Err(format!(
                        "{} delta {d}: thread {gid} (lane {lane} of {w}) got {got:#x}, expected {expected:#x}",
                        OPS[op as usize]
                    ));
                    break;
                }
            }
        }
        Ok(verdict)
    }

    /// Seconds per timing dispatch of `op` on `threads` threads (`repeats` medians).
    pub fn time(
        &self,
        ctx: &GpuContext,
        op: u32,
        threads: u32,
        repeats: usize,
        clock: &mut Clock,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let params = ParamSlots::new(ctx, &[[op, 0, threads, ITERATIONS, 0, 0, 0, 0]]);
        let src = storage_buffer(ctx, u64::from(threads) * 4, "shuffle values")?;
        let out = storage_buffer(ctx, u64::from(threads) * 4, "shuffle results")?;
        let group = self.timing.bind(ctx, &[&src, &out], &params)?;
        let g = grid(
            u64::from(threads.div_ceil(256)),
            ctx.limits.max_compute_workgroups_per_dimension,
        );
        let dispatches: Vec<Dispatch> = (0..4)
            .map(|_| Dispatch {
                kernel: &self.timing,
                group: &group,
                offset: 0,
                grid: g,
            })
            .collect();
        clock.run(ctx, &dispatches, 4, progress)?;
        let times = (0..repeats.max(1))
            .map(|_| clock.run(ctx, &dispatches, 4, progress).map(|s| s / 4.0))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(median(&times))
    }
}

/// The shuffle experiment.
pub struct ShuffleExperiment;

impl Experiment for ShuffleExperiment {
    fn name(&self) -> &'static str {
        "shuffle"
    }

    fn description(&self) -> &'static str {
        "Subgroup shuffles (indexed, xor, up, down) with the built-ins and with a workgroup-memory \
         emulation, on 32-lane and native-width groups, 1-D and 3-D workgroups."
    }

    fn variants(&self) -> Vec<Variant> {
        VARIANTS
            .iter()
            .map(|(name, implementation, three_d)| {
                let what = match implementation {
                    Implementation::Builtin => {
                        "subgroup built-ins on the native subgroup".to_string()
                    }
                    Implementation::Emulated(Some(w)) => {
                        format!("workgroup-memory emulation, {w}-lane groups")
                    }
                    Implementation::Emulated(None) => {
                        "workgroup-memory emulation, native-width groups".to_string()
                    }
                };
                let shape = if *three_d {
                    "8×4×8 workgroups"
                } else {
                    "256-thread workgroups"
                };
                Variant::new(name, &format!("{what}, {shape}"))
            })
            .collect()
    }

    fn size_unit(&self) -> &'static str {
        "threads (a multiple of 256)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![1 << 22]
    }

    fn size_limit(&self, ctx: &GpuContext) -> SizeLimit {
        SizeLimit::one_binding(ctx, "one u32 per thread", |binding| {
            (binding / 4 / 256 * 256).min(1 << 30)
        })
    }

    fn run(
        &self,
        ctx: &std::sync::Arc<GpuContext>,
        plan: &RunPlan,
        progress: &Progress,
    ) -> Result<LabReport, LabError> {
        let variants = selected_variants(self, plan)?;
        let sizes = selected_sizes(self, ctx, plan, 256)?;
        if let Some(bad) = sizes.iter().find(|s| *s % 256 != 0) {
            return Err(LabError::BadSize(format!(
                "shuffle size {bad} is not a multiple of 256 threads"
            )));
        }
        progress.update(0.0, "measuring copy bandwidth");
        let copy = copy_bandwidth(ctx)?;
        let mut clock = Clock::new(ctx);
        let seed = fresh_seed();
        let mut report = LabReport::new(
            self.name(),
            ctx,
            copy,
            &clock,
            plan,
            vec![format!(
                "native subgroup size {}..={}; every lane validated for every delta/mask on 1024 threads (seed {seed}); \
                 timing: {ITERATIONS} dependent shuffles per thread, ms per dispatch",
                ctx.info.subgroup_min_size, ctx.info.subgroup_max_size
            )],
        );
        let total = (variants.len() * sizes.len()) as f32;
        for (vi, variant) in variants.iter().enumerate() {
            progress.check()?;
            let kernels = match ShuffleKernels::new(ctx, &variant.name, &plan.tuning) {
                Ok(k) => k,
                Err(LabError::Unsupported(why)) => {
                    report.notes.push(why);
                    continue;
                }
                Err(e) => return Err(e),
            };
            progress.update(
                vi as f32 * sizes.len() as f32 / total,
                &format!("shuffle {} validate", variant.name),
            );
            let verdict = kernels.validate(ctx, 1024, seed ^ vi as u64)?;
            for (si, &size) in sizes.iter().enumerate() {
                for (op, check) in verdict.iter().enumerate() {
                    progress.check()?;
                    progress.update(
                        (vi * sizes.len() + si) as f32 / total,
                        &format!("shuffle {} {} {size}", variant.name, OPS[op]),
                    );
                    let mut row = LabRow::checked(
                        format!("{} {}", variant.name, OPS[op]),
                        size,
                        format!("{size} threads"),
                        check.clone(),
                    );
                    if row.validated {
                        let t = kernels.time(
                            ctx,
                            op as u32,
                            size as u32,
                            plan.repeats,
                            &mut clock,
                            progress,
                        )?;
                        row.ms = Some(t * 1e3);
                        row.notes = format!(
                            "width {}; {:.2} G shuffles/s",
                            kernels.width,
                            size as f64 * f64::from(ITERATIONS) / t / 1e9
                        );
                    }
                    progress.push_row(&mut report.rows, row);
                }
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
