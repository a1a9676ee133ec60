//! The bitonic network on the GPU: the B (registers) and C (workgroup memory) kernel
//! families, the article's seven configurations, the pass schedule of each, and
//! [`GpuSorter`] for one-off sorts outside a timed run.

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

use super::gpu::{
    Clock, Dispatch, Kernel, ParamSlots, Params, grid, per_submission, read_back, storage_buffer,
    upload,
};
use super::sort::{Pair, padded};
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
}

/// The seven configurations, in the article's column order.
pub const CONFIGS: [Config; 7] = [
    Config {
        name: "B2",
        b_max: 1,
        c_steps: None,
    },
    Config {
        name: "B2+C2",
        b_max: 1,
        c_steps: Some(1),
    },
    Config {
        name: "B2B4+C2",
        b_max: 2,
        c_steps: Some(1),
    },
    Config {
        name: "B2B4B8+C2",
        b_max: 3,
        c_steps: Some(1),
    },
    Config {
        name: "B2B4B8B16+C2",
        b_max: 4,
        c_steps: Some(1),
    },
    Config {
        name: "B2B4B8B16+C2C4",
        b_max: 4,
        c_steps: Some(2),
    },
    Config {
        name: "B2B4B8B16",
        b_max: 4,
        c_steps: None,
    },
];

/// Which kernel one pass uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// B kernel doing this many steps (1 = B2 … 4 = B16).
    B(u32),
    /// C kernel with this many steps per barrier (1 = C2, 2 = C4).
    C(u32),
}

/// One global pass: kernel, largest compare distance, and the stage's block size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// Kernel.
    pub family: Family,
    /// Largest compare distance.
    pub inc: u32,
    /// Stage block size (direction bit).
    pub block: u32,
}

/// Passes that sort `n` (a power of two) elements with `config`, with `w`-element workgroup blocks.
pub fn schedule(config: Config, n: u32, w: u32) -> Vec<Pass> {
    let mut passes = Vec::new();
    let mut block = 2;
    while block <= n {
        let mut inc = block / 2;
        while inc >= 1 {
            if let Some(c) = config.c_steps
                && inc < w
            {
                passes.push(Pass {
                    family: Family::C(c),
                    inc,
                    block,
                });
                break;
            }
            let m = config.b_max.min(inc.trailing_zeros() + 1);
            passes.push(Pass {
                family: Family::B(m),
                inc,
                block,
            });
            inc >>= m;
        }
        block *= 2;
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
    /// Elements per workgroup block of the C kernels.
    pub w: u32,
}

impl Bitonic {
    /// Compile B2…B16, C2 and C4; C blocks are 2048 pairs (16 KiB) where workgroup memory
    /// allows, or `tuning.sort_block` pairs when that is one of [`BLOCKS`] and fits.
    pub fn new(ctx: &GpuContext, tuning: &LabTuning) -> Result<Bitonic, LabError> {
        let fits =
            |w: u32| u64::from(w) * 8 <= u64::from(ctx.limits.max_compute_workgroup_storage_size);
        let wanted = tuning.sort_block.filter(|w| BLOCKS.contains(w) && fits(*w));
        let w: u32 = wanted.unwrap_or(if fits(2048) { 2048 } else { 1024 });
        let b = (1..=4)
            .map(|m| Kernel::new(ctx, &b_shader(m), "main", &[false], tuning))
            .collect::<Result<Vec<_>, _>>()?;
        let c = |c4: bool| Kernel::new(ctx, &c_shader(w, c4), "main", &[false], tuning);
        Ok(Bitonic {
            b,
            c2: c(false)?,
            c4: c(true)?,
            w,
        })
    }

    fn kernel(&self, family: Family) -> &Kernel {
        match family {
            Family::B(m) => &self.b[m as usize - 1],
            Family::C(1) => &self.c2,
            Family::C(_) => &self.c4,
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
        let passes = schedule(config, n, self.w);
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
            };
            slots.push([p.inc, p.block, u32::from(descending), n, threads, 0, 0, 0]);
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
                for p in schedule(config, n, 2048) {
                    let count = match p.family {
                        Family::B(m) => m,
                        Family::C(_) => p.inc.trailing_zeros() + 1,
                    };
                    for s in 0..count {
                        steps.push((p.block, p.inc >> s));
                    }
                }
                let mut expected = Vec::new();
                let mut block = 2;
                while block <= n {
                    let mut inc = block / 2;
                    while inc >= 1 {
                        expected.push((block, inc));
                        inc /= 2;
                    }
                    block *= 2;
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
            .map(|c| schedule(*c, n, 2048).len())
            .collect();
        assert_eq!(counts[0], 27 * 28 / 2);
        assert!(counts[1] < counts[0] && counts[4] < counts[1] && counts[6] < counts[0]);
    }
}
