//! Sorting `{key: f32, index: u32}` pairs: the article's seven bitonic kernel configurations
//! (see [`sort_kernels`](super::sort_kernels)), ascending or descending, any size (padded
//! to a power of two with keys that sort last and trimmed), against a rayon CPU sort and three GPU radix sorts
//! ([`sort_radix`](super::sort_radix), [`sort_radix8`](super::sort_radix8),
//! [`sort_onesweep`](super::sort_onesweep)); each size's measurements are in `sort_bench.rs`.

use std::cmp::Ordering;

use bytemuck::{Pod, Zeroable};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::gpu::{Clock, read_back, storage_buffer, upload};
use super::sort_bench::SizeBench;
pub use super::sort_kernels::GpuSorter;
use super::sort_kernels::{Bitonic, CONFIGS};
use super::sort_onesweep::{DEFAULT_SHAPE, OneSweepSorter, Shape};
use super::sort_radix::RadixSorter;
use super::sort_radix8::{Radix8Sorter, Ranking};
use super::{
    Experiment, LabError, LabReport, LabRow, Progress, RunPlan, RunStart, SizeLimit, Variant,
    begin, size_label,
};
use crate::gpu::GpuContext;

/// The CPU baseline's variant name.
pub const CPU_RAYON: &str = "cpu-rayon";
/// The GPU radix-sort baseline's variant name.
pub const GPU_RADIX: &str = "gpu-radix";
/// The 8-bit radix sort's variant name (ranked by subgroup ballots where the device allows).
pub const GPU_RADIX8: &str = "gpu-radix8";
/// The 8-bit radix sort's portable form (no subgroup operations), on any device.
pub const GPU_RADIX8_PORTABLE: &str = "gpu-radix8-portable";
/// The one-sweep radix sort's variant name (ranked by subgroup ballots where the device
/// allows); `gpu-onesweep@THREADSxKPT` runs another tile shape.
pub const GPU_ONESWEEP: &str = "gpu-onesweep";
/// The one-sweep radix sort's portable form (no subgroup operations), on any device.
pub const GPU_ONESWEEP_PORTABLE: &str = "gpu-onesweep-portable";

/// `gpu-onesweep[-portable][@THREADSxKPT]` as (portable, tile shape); `None` for any other
/// name or a shape the kernel cannot run.
pub fn onesweep_variant(name: &str) -> Option<(bool, Shape)> {
    let (base, shape) = match name.trim().split_once('@') {
        Some((base, shape)) => (base, Shape::parse(shape)?),
        None => (name.trim(), DEFAULT_SHAPE),
    };
    match base {
        b if b.eq_ignore_ascii_case(GPU_ONESWEEP) => Some((false, shape)),
        b if b.eq_ignore_ascii_case(GPU_ONESWEEP_PORTABLE) => Some((true, shape)),
        _ => None,
    }
}

/// A key and the index it had in the input.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct Pair {
    /// Sort key.
    pub key: f32,
    /// Position in the unsorted input.
    pub index: u32,
}

/// The order the GPU produces: by key (ascending or descending), ties by index ascending.
pub fn compare(a: &Pair, b: &Pair, descending: bool) -> Ordering {
    let by_key = a.key.total_cmp(&b.key);
    let by_key = if descending { by_key.reverse() } else { by_key };
    by_key.then(a.index.cmp(&b.index))
}

/// `n` pairs with keys in [-1, 1) on a 2^-23 grid (so large inputs have equal keys).
pub fn random_pairs(n: usize, seed: u64) -> Vec<Pair> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|i| Pair {
            key: (rng.next_u32() >> 8) as f32 / (1u32 << 23) as f32 - 1.0,
            index: i as u32,
        })
        .collect()
}

/// `input` padded to a power of two with the last key in totalOrder (ascending) or the first
/// (descending).
pub fn padded(input: &[Pair], descending: bool) -> Vec<Pair> {
    let n = input.len().next_power_of_two();
    // The last key in totalOrder (a NaN, after +∞ and every other NaN), or the first when
    // descending: with indices past n, padding sorts after every real pair, NaNs included.
    let key = f32::from_bits(if descending { 0xffff_ffff } else { 0x7fff_ffff });
    let mut out = input.to_vec();
    out.extend((input.len()..n).map(|i| Pair {
        key,
        index: i as u32,
    }));
    out
}

/// Check `output` is `input` sorted: in order, indices a permutation, keys from their index.
pub fn validate(input: &[Pair], output: &[Pair], descending: bool) -> Result<(), String> {
    if input.len() != output.len() {
        return Err(format!("{} pairs out for {} in", output.len(), input.len()));
    }
    if let Some(i) = output
        .windows(2)
        .position(|w| compare(&w[0], &w[1], descending) != Ordering::Less)
    {
        return Err(format!(
            "out of order at {i}: {:?} then {:?}",
            output[i],
            output[i + 1]
        ));
    }
    let mut seen = vec![false; input.len()];
    for (at, p) in output.iter().enumerate() {
        let i = p.index as usize;
        if i >= input.len() || std::mem::replace(&mut seen[i], true) {
            return Err(format!("index {i} at {at} is out of range or repeated"));
        }
        if input[i].key.to_bits() != p.key.to_bits() {
            return Err(format!(
                "key {} at {at} is not input[{i}] = {}",
                p.key, input[i].key
            ));
        }
    }
    Ok(())
}

/// `input` uploaded to a new device buffer, sorted there by `sort(data, n, clock, progress)`
/// and read back: the one-off use of the GPU sorts (tests).
pub fn sorted_on_device(
    ctx: &GpuContext,
    input: &[Pair],
    sort: impl FnOnce(&wgpu::Buffer, u32, &mut Clock, &Progress) -> Result<f64, LabError>,
) -> Result<Vec<Pair>, LabError> {
    let n = input.len() as u32;
    let data = storage_buffer(ctx, u64::from(n) * 8, "sort pairs")?;
    upload(ctx, &data, input)?;
    sort(&data, n, &mut Clock::new(ctx), &Progress::new())?;
    read_back(ctx, &data, input.len())
}

/// The bitonic-sort experiment.
pub struct SortExperiment;

impl Experiment for SortExperiment {
    fn name(&self) -> &'static str {
        "sort"
    }

    fn description(&self) -> &'static str {
        "Sort of key + original-index pairs: bitonic B kernels merge 1–4 steps per global pass \
         in registers, C kernels finish a stage in workgroup memory, golab's RW does up to 11 \
         steps a pass in registers regrouped through workgroup memory; against rayon on the CPU \
         and GPU radix sorts (4-bit digits; 8-bit ranked by subgroup ballots, and its portable \
         form ranked in workgroup memory; 8-bit in one sweep a digit, tiles chained by a \
         decoupled look-back)."
    }

    fn variants(&self) -> Vec<Variant> {
        let mut v: Vec<Variant> = CONFIGS
            .iter()
            .map(|c| {
                if c.regrouped {
                    return Variant::new(
                        c.name,
                        "golab's: up to 11 steps per global pass on 2048 pairs, 3 at a time in \
                         registers, regrouped through workgroup memory; blocks sorted in one pass",
                    );
                }
                let shared = match c.c_steps {
                    None => "no workgroup memory".to_string(),
                    Some(s) => format!("stage ends in workgroup memory, {s} step(s) per barrier"),
                };
                Variant::new(
                    c.name,
                    &format!("up to {} step(s) per global pass; {shared}", c.b_max),
                )
            })
            .collect();
        v.push(Variant::new(
            CPU_RAYON,
            "CPU baseline: rayon par_sort_unstable_by on all cores",
        ));
        v.push(Variant::new(
            GPU_RADIX,
            "GPU baseline: LSD radix sort, 4-bit digits, 8 × (histogram, scan, stable scatter)",
        ));
        v.push(Variant::new(
            GPU_RADIX8,
            "LSD radix sort, 8-bit digits, 4 × (tile counts, single-pass scan, stable scatter ranked by subgroup ballots; the portable ranking where the device lacks them)",
        ));
        v.push(Variant::new(
            GPU_RADIX8_PORTABLE,
            "gpu-radix8 without subgroup operations on any device: ranked by 32-lane virtual subgroups in workgroup memory, counts scanned in workgroup memory",
        ));
        v.push(Variant::new(
            GPU_ONESWEEP,
            "one-sweep LSD radix sort, 8-bit digits: one histogram pass for all four digits, then 4 passes that each read and write the pairs once, tiles chained by a decoupled look-back; ranked by subgroup ballots (the portable ranking where the device lacks them); @THREADSxKPT for another tile (256 or 512 threads × 1–32 pairs; default 256x15)",
        ));
        v.push(Variant::new(
            GPU_ONESWEEP_PORTABLE,
            "gpu-onesweep without subgroup operations on any device: ranked by 32-lane virtual subgroups in workgroup memory; @THREADSxKPT as gpu-onesweep",
        ));
        v
    }

    fn variant(&self, name: &str) -> Option<Variant> {
        let listed = self.variants().into_iter();
        if let Some(v) = listed
            .clone()
            .find(|v| v.name.eq_ignore_ascii_case(name.trim()))
        {
            return Some(v);
        }
        let (portable, shape) = onesweep_variant(name)?;
        let base = if portable {
            GPU_ONESWEEP_PORTABLE
        } else {
            GPU_ONESWEEP
        };
        let mut v = listed.into_iter().find(|v| v.name == base)?;
        v.name = format!("{base}@{}", shape.label());
        Some(v)
    }

    fn size_unit(&self) -> &'static str {
        "elements (non-powers of two are padded)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        (20..=27).map(|k| 1u64 << k).collect()
    }

    fn cpu_device_sizes(&self) -> Vec<u64> {
        // On lavapipe (2 cores) every variant at 2^20 takes a minute a repeat.
        vec![1 << 14, 1 << 16, 1 << 18]
    }

    fn size_limit(&self, ctx: &GpuContext) -> SizeLimit {
        SizeLimit::one_binding(ctx, "8-byte pairs, padded to a power of two,", |binding| {
            (1u64 << (63 - (binding / 8).leading_zeros())).min(1 << 31)
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
        } = begin(self, ctx, plan, progress, 2)?;
        let descending = plan.descending;
        let bitonic = Bitonic::new(ctx, &plan.tuning)?;
        let mut report = LabReport::new(
            self.name(),
            ctx,
            copy,
            &clock,
            plan,
            vec![
                format!(
                    "{} order; random keys (seed {seed}); C blocks of {} pairs; effective GB/s = global passes × 2 × N × 8 B ÷ time",
                    if descending {
                        "descending"
                    } else {
                        "ascending"
                    },
                    bitonic.w
                ),
                format!("largest size: {}", self.size_limit(ctx).reason),
            ],
        );
        // The radix sorts are compiled once per run (one may be unavailable: said once).
        let wants = |name: &str| variants.iter().any(|v| v.name == name);
        let radix = wants(GPU_RADIX)
            .then(|| RadixSorter::new(ctx, &plan.tuning))
            .transpose()?;
        let mut radix8 = |name: &str, ranking: Ranking| -> Result<Option<Radix8Sorter>, LabError> {
            if !wants(name) {
                return Ok(None);
            }
            match Radix8Sorter::new(ctx, &plan.tuning, ranking) {
                Ok(sorter) => Ok(Some(sorter)),
                Err(LabError::Unsupported(why)) => {
                    report.notes.push(format!("{name}: {why}"));
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        };
        let radix8_best = radix8(GPU_RADIX8, Ranking::best(ctx))?;
        let radix8_portable = radix8(GPU_RADIX8_PORTABLE, Ranking::Portable)?;
        // Each one-sweep variant (ranking × tile shape) compiled once; unavailable: said once.
        let mut onesweep: Vec<(String, Option<OneSweepSorter>)> = Vec::new();
        for variant in &variants {
            let Some((portable, shape)) = onesweep_variant(&variant.name) else {
                continue;
            };
            let ranking = if portable {
                Ranking::Portable
            } else {
                Ranking::best(ctx)
            };
            let sorter = match OneSweepSorter::new(ctx, &plan.tuning, ranking, shape) {
                Ok(sorter) => Some(sorter),
                Err(LabError::Unsupported(why)) => {
                    report.notes.push(format!("{}: {why}", variant.name));
                    None
                }
                Err(e) => return Err(e),
            };
            onesweep.push((variant.name.clone(), sorter));
        }
        let total = (sizes.len() * variants.len()) as f32;
        for (si, &size) in sizes.iter().enumerate() {
            let input = random_pairs(size as usize, seed ^ size);
            let data = padded(&input, descending);
            // The input stays on the device; every run starts from a device-side copy of it.
            let pristine = storage_buffer(ctx, data.len() as u64 * 8, "sort input")?;
            upload(ctx, &pristine, &data)?;
            let bench = SizeBench {
                ctx,
                input: &input,
                n: data.len() as u32,
                buffer: storage_buffer(ctx, data.len() as u64 * 8, "sort pairs")?,
                pristine,
                copy,
                descending,
                repeats: plan.repeats.max(1),
                warm: clock.warms_up(),
                progress,
            };
            for (vi, variant) in variants.iter().enumerate() {
                progress.check()?;
                progress.update(
                    (si * variants.len() + vi) as f32 / total,
                    &format!("sort {} {}", variant.name, size_label(size)),
                );
                let mut row = LabRow {
                    variant: variant.name.clone(),
                    size,
                    size_label: size_label(size),
                    ms: None,
                    gb_per_s: None,
                    percent_of_copy: None,
                    validated: false,
                    notes: String::new(),
                    plot_x: None,
                };
                match variant.name.as_str() {
                    CPU_RAYON => bench.cpu(&mut row)?,
                    GPU_RADIX => {
                        let sorter = radix.as_ref().expect("compiled when asked for");
                        bench.radix(sorter, &mut clock, &mut row)?;
                    }
                    GPU_RADIX8 | GPU_RADIX8_PORTABLE => {
                        let compiled = if variant.name == GPU_RADIX8 {
                            &radix8_best
                        } else {
                            &radix8_portable
                        };
                        // Unavailable here: the report's notes say why.
                        let Some(sorter) = compiled else { continue };
                        bench.radix8(sorter, &mut clock, &mut row)?;
                    }
                    name if onesweep_variant(name).is_some() => {
                        let compiled = onesweep.iter().find(|(n, _)| n == name);
                        // Unavailable here: the report's notes say why.
                        let Some((_, Some(sorter))) = compiled else {
                            continue;
                        };
                        bench.onesweep(sorter, &mut clock, &mut row)?;
                    }
                    name => {
                        let config = *CONFIGS.iter().find(|c| c.name == name).expect("known");
                        bench.bitonic(&bitonic, config, &mut clock, &mut row)?;
                    }
                }
                progress.push_row(&mut report.rows, row);
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
