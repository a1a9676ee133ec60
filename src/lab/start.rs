//! What every Lab experiment's run starts with: the plan's variants and sizes resolved
//! against the experiment and the device, the copy bandwidth measured now, a clock and a
//! fresh seed; and how sizes are written and printed.

use super::{Experiment, GpuContext, LabError, Progress, RunPlan, Variant, gpu};

/// What an experiment's run starts with: the plan's variants and sizes (each at least
/// `min`), the copy-kernel bandwidth measured now (bytes per second), a clock and a fresh seed.
pub(super) struct RunStart {
    pub(super) variants: Vec<Variant>,
    pub(super) sizes: Vec<u64>,
    pub(super) copy: f64,
    pub(super) clock: gpu::Clock,
    pub(super) seed: u64,
}

/// Resolve `plan` for `experiment` and measure the copy bandwidth every report stands beside.
pub(super) fn begin(
    experiment: &dyn Experiment,
    ctx: &GpuContext,
    plan: &RunPlan,
    progress: &Progress,
    min: u64,
) -> Result<RunStart, LabError> {
    let variants = selected_variants(experiment, plan)?;
    let sizes = selected_sizes(experiment, ctx, plan, min)?;
    progress.update(0.0, "measuring copy bandwidth");
    let copy = gpu::copy_bandwidth(ctx)?;
    Ok(RunStart {
        variants,
        sizes,
        copy,
        clock: gpu::Clock::new(ctx),
        seed: fresh_seed(),
    })
}

/// The plan's variants resolved against `all` (all of them when the plan names none).
pub(super) fn selected_variants(
    experiment: &dyn Experiment,
    plan: &RunPlan,
) -> Result<Vec<Variant>, LabError> {
    let all = experiment.variants();
    if plan.variants.is_empty() {
        return Ok(all);
    }
    plan.variants
        .iter()
        .map(|name| {
            experiment
                .variant(name)
                .ok_or_else(|| LabError::UnknownVariant {
                    experiment: experiment.name().into(),
                    name: name.clone(),
                    known: all
                        .iter()
                        .map(|v| v.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                })
        })
        .collect()
}

/// The plan's sizes (or the defaults that fit the device, else its largest size), each
/// checked against `min` and the device limit.
pub(super) fn selected_sizes(
    experiment: &dyn Experiment,
    ctx: &GpuContext,
    plan: &RunPlan,
    min: u64,
) -> Result<Vec<u64>, LabError> {
    let limit = experiment.size_limit(ctx);
    if plan.sizes.is_empty() {
        let sizes: Vec<u64> = experiment
            .sizes_for(ctx)
            .into_iter()
            .filter(|&s| s <= limit.max)
            .collect();
        // A device too small for every default still runs the largest size it allows.
        return Ok(if sizes.is_empty() {
            vec![limit.max]
        } else {
            sizes
        });
    }
    for &s in &plan.sizes {
        if s < min || s > limit.max {
            return Err(LabError::BadSize(format!(
                "{} size {s} is outside {min}..={} ({})",
                experiment.name(),
                limit.max,
                limit.reason
            )));
        }
    }
    Ok(plan.sizes.clone())
}

/// A seed for "fresh random input": different on every run, printed in the report.
pub(super) fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x5EED)
}

/// A size written as `1024`, `2^20` or `1e6`; `None` when it is not one.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    if let Some((base, exp)) = text.split_once('^') {
        let (base, exp): (u64, u32) = (base.trim().parse().ok()?, exp.trim().parse().ok()?);
        return base.checked_pow(exp);
    }
    if let Ok(v) = text.parse::<u64>() {
        return Some(v);
    }
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 1.0 && *v < 1e15 && v.fract() == 0.0)
        .map(|v| v as u64)
}

/// A size as the tables print it: powers of two as `2^k`.
pub fn size_label(n: u64) -> String {
    if n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    #[test]
    fn sizes_parse_in_every_written_form() {
        assert_eq!(parse_size("2^20"), Some(1 << 20));
        assert_eq!(parse_size(" 5000 "), Some(5000));
        assert_eq!(parse_size("1e6"), Some(1_000_000));
        assert_eq!(parse_size("2^99"), None);
        assert_eq!(parse_size("lots"), None);
        assert_eq!(size_label(1 << 27), "2^27");
        assert_eq!(size_label(1000), "1000");
    }
}
