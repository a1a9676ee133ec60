//! The GPU benchmark measures what it claims: a roofline in the same run, kernel-only time
//! from timestamps, and every fraction derived from them (on lavapipe in CI).

mod common;

use golab::bench::{self, BenchConfig, MATRIX_STRATEGIES};
use golab::step::{GpuSettings, MemoryMode, Strategy};

#[test]
fn gpu_bench_reports_roofline_kernel_time_and_fractions() {
    let factory = common::gpu_factory(GpuSettings::default());
    let cfg = BenchConfig {
        strategies: vec![Strategy::Rayon, Strategy::GpuNaive, Strategy::GpuResident],
        sizes: vec![64, 96],
        gens: Some(4),
        repeats: 3,
        roofline_bytes: 8 << 20,
        ..BenchConfig::default()
    };
    let report = bench::run(&cfg, &factory, |_| {});
    let roof = report
        .roofline
        .as_ref()
        .expect("a GPU strategy was measured, so a roofline must be");
    assert!(
        roof.copy_bytes_per_s > 0.0
            && roof.upload_bytes_per_s > 0.0
            && roof.download_bytes_per_s > 0.0
    );
    for r in &report.results {
        assert!(r.error.is_none(), "{r:?}");
        if r.strategy.starts_with("gpu-") {
            let kernel = r
                .compute_gps_median
                .expect("lavapipe has timestamp queries");
            assert!(kernel > 0.0);
            let expected = 100.0 * 8.0 * f64::from(r.size).powi(2) * kernel / roof.copy_bytes_per_s;
            assert!((r.compute_roofline_pct.unwrap() - expected).abs() < 1e-6 * expected.max(1.0));
            assert!(r.transfer_bound_pct.unwrap() > 0.0);
        } else {
            assert!(r.compute_gps_median.is_none() && r.compute_roofline_pct.is_none());
        }
    }
    let table = bench::markdown_table(&report);
    assert!(
        table.contains("Roofline on") && table.contains("kernel time only"),
        "{table}"
    );
}

#[test]
fn matrix_covers_the_articles_algorithms_in_each_requested_mode() {
    let mut factory = common::gpu_factory(GpuSettings::default());
    let cfg = BenchConfig {
        sizes: vec![40],
        gens: Some(2),
        repeats: 1,
        roofline_bytes: 4 << 20,
        ..BenchConfig::default()
    };
    let mut seen = 0;
    let modes = [MemoryMode::Normal, MemoryMode::Pinned];
    let reports = bench::run_matrix(
        &cfg,
        &modes,
        &mut factory,
        |_| {},
        |so_far| seen = so_far.len(),
    );
    assert_eq!(seen, 2);
    assert_eq!(reports.len(), 2);
    for (report, mode) in reports.iter().zip(modes) {
        assert_eq!(report.results.len(), MATRIX_STRATEGIES.len());
        assert!(
            report
                .results
                .iter()
                .all(|r| r.error.is_none() && r.memory == Some(mode.name()))
        );
    }
    let table = bench::matrix_table(&reports);
    assert!(
        table.contains("| gpu-readback-skip |") && table.contains("pinned"),
        "{table}"
    );
}
