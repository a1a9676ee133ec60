//! The bandwidth ceilings of a benchmark run (copy kernel, upload, download) and what each
//! GPU result makes of them: % of the copy roofline, and how close a transfer strategy runs
//! to the bound its measured host↔device bytes imply.

use super::{BenchConfig, BenchResult};
use crate::gpu::roofline::Roofline;
use crate::step::{StepperFactory, Strategy};

/// Fill the roofline columns of a GPU result from the ceilings measured in this run.
pub(super) fn add_roofline(
    result: &mut BenchResult,
    strategy: Strategy,
    factory: &StepperFactory,
    roof: &Roofline,
) {
    let cells = f64::from(result.size) * f64::from(result.size);
    // The kernel's own floor where it reports one (gpu-bitpacked: see
    // `BenchResult::device_bytes_per_gen`), else one u32 age read and written per cell.
    let device_bytes = result.device_bytes_per_gen.unwrap_or(8.0 * cells);
    let pct = |gps: f64| 100.0 * device_bytes * gps / roof.copy_bytes_per_s;
    result.device_bytes_per_gen = Some(device_bytes);
    result.compute_roofline_pct = result.compute_gps_median.map(pct);
    result.wall_roofline_pct = Some(pct(result.gps_median));
    let settings = &factory.gpu_settings;
    if strategy.uses_memory_mode() {
        result.memory = Some(settings.memory.name());
    }
    let moved = result.transfer_bytes.unwrap_or_default();
    let bound_s = moved.up / roof.upload_bytes_per_s
        + moved.down / roof.download_bytes_per_s
        + device_bytes / roof.copy_bytes_per_s;
    if result.gps_median > 0.0 {
        result.transfer_bound_pct = Some(100.0 * bound_s * result.gps_median);
    }
}

/// Measure the bandwidth ceilings when any GPU strategy is to be benchmarked.
pub(super) fn measure_roofline(
    cfg: &BenchConfig,
    factory: &StepperFactory,
    progress: &mut impl FnMut(&str),
) -> Option<Roofline> {
    if !cfg.strategies.iter().any(|s| s.is_gpu()) {
        return None;
    }
    let ctx = factory.gpu().ok()?;
    progress("measuring copy-kernel and transfer bandwidth");
    match crate::gpu::roofline::measure(ctx, cfg.roofline_bytes, 7) {
        Ok(r) => Some(r),
        Err(e) => {
            progress(&format!("roofline measurement failed: {e}"));
            None
        }
    }
}
