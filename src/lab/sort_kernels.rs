//! The bitonic network on the GPU: the B (registers) and C (workgroup memory) kernel
//! families, the article's seven configurations, golab's regrouped RW configuration, the
//! pass schedule of each, and [`GpuSorter`] for one-off sorts outside a timed run.

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

use super::gpu::{
    Clock, Dispatch, Kernel, ParamSlots, Params, grid, per_submission, read_back, storage_buffer,
    upload,
};
use super::sort::{Pair, padded};
use super::sort_rw::{RW_BLOCKS_PER_GROUP, RW_HIGH_STEPS, RW_PAIRS, regrouped_schedule, rw_shader};
use super::{LabError, Progress};

/// A kernel configuration of the article's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Column name in the article (`B2B4+C2`…).
    pub name: &'static str,
    /// Most steps merged into one B pass: 1 (B2) … 4 (B16).
    pub b_max: u32,
    /// Steps per barrier of the workgroup-memory phase: None (no C), 1 (C2) or 2 (C4).
    pub c_steps: Option<u32>,
    /// golab's RW network instead of B and C passes: every pass does up to 11 steps on
    /// 2048 pairs, three at a time in registers (see [`regrouped_schedule`]).
    pub regrouped: bool,
}

/// The article's seven configurations in its column order, then golab's RW.
pub const CONFIGS: [Config; 8] = [
    Config {
        name: "B2",
        b_max: 1,
        c_steps: None,
        regrouped: false,
    },
    Config {
        name: "B2+C2",
        b_max: 1,
        c_steps: Some(1),
        regrouped: false,
    },
    Config {
        name: "B2B4+C2",
        b_max: 2,
        c_steps: Some(1),
        regrouped: false,
    },
    Config {
        name: "B2B4B8+C2",
        b_max: 3,
        c_steps: Some(1),
        regrouped: false,
    },
    Config {
        name: "B2B4B8B16+C2",
        b_max: 4,
        c_steps: Some(1),
        regrouped: false,
    },
    Config {
        name: "B2B4B8B16+C2C4",
        b_max: 4,
        c_steps: Some(2),
        regrouped: false,
    },
    Config {
        name: "B2B4B8B16",
        b_max: 4,
        c_steps: None,
        regrouped: false,
    },
    Config {
        name: "RW",
        b_max: 3,
        c_steps: None,
        regrouped: true,
    },
];

/// Which kernel one pass uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// B kernel doing this many steps (1 = B2 … 4 = B16).
    B(u32),
    /// C kernel with this many steps per barrier (1 = C2, 2 = C4).
    C(u32),
    /// The RW kernel (registers regrouped through workgroup memory) compiled for one-stage
    /// passes on runs of 2^l pairs (`R(l)`, l in 3..=11), or `R(0)`: the pass that sorts
    /// whole blocks, its stages read from the parameters.
    R(u32),
}

/// One global pass: kernel, largest compare distance, and the stage's block size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// Kernel.
    pub family: Family,
    /// Largest compare distance.
    pub inc: u32,
    /// Stage block size (direction bit); the RW kernel's last stage.
    pub block: u32,
    /// The first stage's block size (its stages run first_block..=block; more than one
    /// stage only in RW's block-sorting pass).
    pub first_block: u32,
    /// RW only: the smallest compare distance of each stage.
    pub last_inc: u32,
}

impl Pass {
    /// A B or C pass: one stage from `inc` down.
    fn single(family: Family, inc: u32, block: u32) -> Pass {
        Pass {
            family,
            inc,
            block,
            first_block: block,
            last_inc: 1,
        }
    }

    /// The (stage block, compare distance) steps this pass does, in order.
    #[cfg(test)]
    pub(super) fn steps(&self) -> Vec<(u32, u32)> {
        let mut steps = Vec::new();
        let mut stage = self.first_block;
        while stage <= self.block {
            let count = match self.family {
                Family::B(m) => m,
                Family::C(_) => self.inc.trailing_zeros() + 1,
                Family::R(_) => u32::MAX,
            };
            let mut inc = self.inc.min(stage / 2);
            while inc >= self.last_inc.max(1) && (steps.len() as u32) < count {
                steps.push((stage, inc));
                inc /= 2;
            }
            match stage.checked_mul(2) {
                Some(next) => stage = next,
                None => break,
            }
        }
        steps
    }
}

/// Passes that sort `n` (a power of two) elements with `config`, with `w`-element workgroup blocks.
/// RW passes do up to `high` steps at distances ≥ 2048.
pub fn schedule(config: Config, n: u32, w: u32, high: u32) -> Vec<Pass> {
    if config.regrouped {
        return regrouped_schedule(n, high);
    }
    let mut passes = Vec::new();
    let mut block = 2;
    while block <= n {
        let mut inc = block / 2;
        while inc >= 1 {
            if let Some(c) = config.c_steps
                && inc < w
            {
                passes.push(Pass::single(Family::C(c), inc, block));
                break;
            }
            let m = config.b_max.min(inc.trailing_zeros() + 1);
            passes.push(Pass::single(Family::B(m), inc, block));
            inc >>= m;
        }
        match block.checked_mul(2) {
            Some(next) => block = next,
            None => break,
        }
    }
    passes
}

/// Pairs per C-kernel block [`LabTuning::sort_block`] may ask for (powers of two; the
/// device's workgroup memory must hold the block).
pub const BLOCKS: [u32; 5] = [512, 1024, 2048, 4096, 8192];

/// The B kernel merging `m` (1..=4) steps per pass.
pub fn b_shader(m: u32) -> Shader {
    Shader::new("lab/sort_b.wgsl").constant("M", m)
}

/// The C kernel on blocks of `w` pairs, two steps per barrier when `c4`.
pub fn c_shader(w: u32, c4: bool) -> Shader {
    Shader::new("lab/sort_c.wgsl")
        .constant("W", w)
        .constant("C4", c4)
}

/// The compiled bitonic kernels of one device.
pub struct Bitonic {
    b: Vec<Kernel>,
    c2: Kernel,
    c4: Kernel,
    /// RW kernels by the low bits compiled in (0 and 11 − h for h = 0..=high_steps).
    rw: Vec<(u32, Kernel)>,
    /// Elements per workgroup block of the C kernels.
    pub w: u32,
    /// Most steps of an RW pass at distances ≥ 2048.
    pub high_steps: u32,
}

impl Bitonic {
    /// Compile B2…B16, C2, C4 and RW; C blocks are 2048 pairs (16 KiB) where workgroup
    /// memory allows, or `tuning.sort_block` pairs when that is one of [`BLOCKS`] and fits;
    /// RW passes do `tuning.sort_high_steps` (3..=8, else [`RW_HIGH_STEPS`]) steps at large
    /// distances.
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<Bitonic, LabError> {
        let fits =
            |w: u32| u64::from(w) * 8 <= u64::from(ctx.limits.max_compute_workgroup_storage_size);
        let wanted = tuning.sort_block.filter(|w| BLOCKS.contains(w) && fits(*w));
        let w: u32 = wanted.unwrap_or(if fits(2048) { 2048 } else { 1024 });
        let b = (1..=4)
            .map(|m| Kernel::new(ctx, &b_shader(m), "main", &[false], tuning))
            .collect::<Result<Vec<_>, _>>()?;
        let c = |c4: bool| Kernel::new(ctx, &c_shader(w, c4), "main", &[false], tuning);
        let high_steps = tuning
            .sort_high_steps
            .filter(|h| (3..=8).contains(h))
            .unwrap_or(RW_HIGH_STEPS);
        let rw = std::iter::once(0)
            .chain((11 - high_steps)..=11)
            .map(|l| {
                Ok((
                    l,
                    Kernel::new(ctx, &rw_shader(l), "main", &[false], tuning)?,
                ))
            })
            .collect::<Result<Vec<_>, LabError>>()?;
        Ok(Bitonic {
            b,
            c2: c(false)?,
            c4: c(true)?,
            rw,
            w,
            high_steps,
        })
    }

    /// The passes that sort `n` (a power of two) pairs with `config` on these kernels.
    pub fn schedule(&self, config: Config, n: u32) -> Vec<Pass> {
        schedule(config, n, self.w, self.high_steps)
    }

    fn kernel(&self, family: Family) -> &Kernel {
        match family {
            Family::B(m) => &self.b[m as usize - 1],
            Family::C(1) => &self.c2,
            Family::C(_) => &self.c4,
            Family::R(l) => &self.rw.iter().find(|(k, _)| *k == l).expect("compiled").1,
        }
    }

    /// Sort the `n` pairs in `data` (a power of two) in place; `per_submission` passes go in
    /// one submission. Returns the seconds `clock` measured.
    #[allow(clippy::too_many_arguments)]
    pub fn sort(
        &self,
        ctx: &GpuContext,
        data: &wgpu::Buffer,
        n: u32,
        config: Config,
        descending: bool,
        clock: &mut Clock,
        per_submission: usize,
        progress: &Progress,
    ) -> Result<f64, LabError> {
        let passes = self.schedule(config, n);
        let max_dim = ctx.limits.max_compute_workgroups_per_dimension;
        let mut slots: Vec<Params> = Vec::with_capacity(passes.len());
        let mut grids = Vec::with_capacity(passes.len());
        for p in &passes {
            let (threads, groups) = match p.family {
                Family::B(m) => {
                    let t = n >> m;
                    (t, u64::from(t).div_ceil(256))
                }
                Family::C(_) => (n.div_ceil(self.w) * 256, u64::from(n.div_ceil(self.w))),
                Family::R(_) => {
                    let blocks = n.div_ceil(RW_PAIRS);
                    (
                        blocks * 256,
                        u64::from(blocks.div_ceil(RW_BLOCKS_PER_GROUP)),
                    )
                }
            };
            slots.push([
                p.inc,
                p.block,
                u32::from(descending),
                n,
                threads,
                p.last_inc,
                0,
                0,
            ]);
            grids.push(grid(groups, max_dim));
        }
        let params = ParamSlots::new(ctx, &slots);
        let mut families: Vec<Family> = passes.iter().map(|p| p.family).collect();
        families.sort();
        families.dedup();
        let groups: Vec<(Family, wgpu::BindGroup)> = families
            .iter()
            .map(|&f| Ok((f, self.kernel(f).bind(ctx, &[data], &params)?)))
            .collect::<Result<_, LabError>>()?;
        let dispatches: Vec<Dispatch> = passes
            .iter()
            .enumerate()
            .map(|(i, p)| Dispatch {
                kernel: self.kernel(p.family),
                group: &groups
                    .iter()
                    .find(|(f, _)| *f == p.family)
                    .expect("bound")
                    .1,
                offset: params.offset(i),
                grid: grids[i],
            })
            .collect();
        clock.run(ctx, &dispatches, per_submission, progress)
    }
}

/// The bitonic kernels of one device, for sorting outside a timed run (tests, the app).
pub struct GpuSorter {
    bitonic: Bitonic,
    clock: Clock,
}

impl GpuSorter {
    /// Compile the kernels on `ctx` (`tuning` picks the C block size and workgroup zeroing).
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<GpuSorter, LabError> {
        Ok(GpuSorter {
            bitonic: Bitonic::new(ctx, tuning)?,
            clock: Clock::new(ctx),
        })
    }

    /// `input` sorted on the GPU by the configuration called `config` (padded, then trimmed).
    pub fn sort(
        &mut self,
        ctx: &GpuContext,
        input: &[Pair],
        config: &str,
        descending: bool,
    ) -> Result<Vec<Pair>, LabError> {
        let config =
            *CONFIGS
                .iter()
                .find(|c| c.name == config)
                .ok_or_else(|| LabError::UnknownVariant {
                    experiment: "sort".into(),
                    name: config.into(),
                    known: CONFIGS.map(|c| c.name).join(", "),
                })?;
        let data = padded(input, descending);
        let buffer = storage_buffer(ctx, data.len() as u64 * 8, "sort pairs")?;
        upload(ctx, &buffer, &data)?;
        let progress = Progress::new();
        let rate = if ctx.info.device_type == wgpu::DeviceType::Cpu {
            4e9
        } else {
            2e11
        };
        self.bitonic.sort(
            ctx,
            &buffer,
            data.len() as u32,
            config,
            descending,
            &mut self.clock,
            per_submission(16.0 * data.len() as f64, rate, 0.05),
            &progress,
        )?;
        read_back(ctx, &buffer, input.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schedule_covers_every_step_of_every_stage_once() {
        for config in CONFIGS {
            for log_n in 1..=20 {
                let n = 1u32 << log_n;
                let mut steps = Vec::new();
                for p in schedule(config, n, 2048, RW_HIGH_STEPS) {
                    steps.extend(p.steps());
                }
                let mut expected = Vec::new();
                let mut block = 2;
                while block <= n {
                    let mut inc = block / 2;
                    while inc >= 1 {
                        expected.push((block, inc));
                        inc /= 2;
                    }
                    match block.checked_mul(2) {
                        Some(next) => block = next,
                        None => break,
                    }
                }
                assert_eq!(steps, expected, "{} n={n}", config.name);
            }
        }
    }

    #[test]
    fn merged_steps_cut_the_number_of_global_passes() {
        let n = 1 << 27;
        let counts: Vec<usize> = CONFIGS
            .iter()
            .map(|c| schedule(*c, n, 2048, RW_HIGH_STEPS).len())
            .collect();
        assert_eq!(counts[0], 27 * 28 / 2);
        assert!(counts[1] < counts[0] && counts[4] < counts[1] && counts[6] < counts[0]);
        // RW: one pass for the 2048-pair blocks; each of the 16 larger stages one pass of
        // its last 11 steps and ⌈(steps above those) / 8⌉ more.
        let above: usize = (1..=16).map(|s: usize| s.div_ceil(8)).sum();
        assert_eq!(counts[7], 1 + 16 + above);
        assert_eq!(counts[7], 41);
    }
}
