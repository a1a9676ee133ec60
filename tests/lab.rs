//! The Lab's experiments on the test device (lavapipe in CI): every kernel and
//! configuration validated on fresh random input at small and awkward sizes.
//! Fails (never skips) without an adapter, like the other GPU tests.

use std::sync::{Arc, OnceLock};

use golab::config::LabTuning;
use golab::gpu::{GpuContext, GpuError, GpuOptions};
use golab::lab::{self, LabError, Progress, RunPlan};

/// This test binary's one device.
fn ctx() -> Arc<GpuContext> {
    static CTX: OnceLock<Result<Arc<GpuContext>, GpuError>> = OnceLock::new();
    match CTX.get_or_init(|| GpuContext::new(&GpuOptions::default())) {
        Ok(ctx) => ctx.clone(),
        Err(e) => panic!("Lab tests need a Vulkan adapter and found none: {e}"),
    }
}

fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
}

fn plan(variants: &[&str], sizes: &[u64]) -> RunPlan {
    RunPlan {
        variants: variants.iter().map(|s| s.to_string()).collect(),
        sizes: sizes.to_vec(),
        repeats: 1,
        descending: false,
        ..RunPlan::default()
    }
}

fn assert_all_valid(report: &lab::LabReport, rows: usize) {
    assert_eq!(report.rows.len(), rows, "{}", report.to_markdown());
    assert!(report.all_validated(), "{}", report.to_markdown());
}

mod sort {
    use super::*;
    use golab::lab::sort::{GpuSorter, Pair, random_pairs, validate};
    use golab::lab::sort_onesweep::{DEFAULT_SHAPE, OneSweepSorter, Shape};
    use golab::lab::sort_radix8::{Radix8Sorter, Ranking};
    use golab::lab::{Experiment, sort::SortExperiment};

    const CONFIGS: [&str; 8] = [
        "B2",
        "B2+C2",
        "B2B4+C2",
        "B2B4B8+C2",
        "B2B4B8B16+C2",
        "B2B4B8B16+C2C4",
        "B2B4B8B16",
        "RW",
    ];

    #[test]
    fn every_configuration_sorts_both_ways_at_small_and_awkward_sizes() {
        let ctx = ctx();
        let mut sorter = GpuSorter::new(&ctx, &LabTuning::default()).unwrap();
        for size in [2usize, 3, 256, 1000, 2049, 1 << 13, 12_345] {
            let input = random_pairs(size, seed());
            for config in CONFIGS {
                for descending in [false, true] {
                    let out = sorter.sort(&ctx, &input, config, descending).unwrap();
                    validate(&input, &out, descending).unwrap_or_else(|e| {
                        panic!("{config} n={size} descending={descending}: {e}")
                    });
                }
            }
        }
    }

    #[test]
    fn every_power_of_two_from_2_8_to_2_20_sorts_and_every_configuration_goes_past_2_13() {
        let ctx = ctx();
        let mut sorter = GpuSorter::new(&ctx, &LabTuning::default()).unwrap();
        for (i, log) in (8..=20).enumerate() {
            let (config, descending) = (CONFIGS[i % CONFIGS.len()], i % 2 == 1);
            let input = random_pairs(1 << log, seed());
            let out = sorter.sort(&ctx, &input, config, descending).unwrap();
            validate(&input, &out, descending)
                .unwrap_or_else(|e| panic!("{config} n=2^{log} descending={descending}: {e}"));
        }
    }

    #[test]
    fn large_sizes_sort_with_registers_only_and_with_workgroup_memory() {
        let ctx = ctx();
        let mut sorter = GpuSorter::new(&ctx, &LabTuning::default()).unwrap();
        for (config, size, descending) in [
            ("B2B4B8B16+C2C4", 1usize << 20, false),
            ("B2B4B8B16", (1 << 18) + 7, true),
            ("B2B4+C2", 1 << 17, true),
        ] {
            let input = random_pairs(size, seed());
            let out = sorter.sort(&ctx, &input, config, descending).unwrap();
            validate(&input, &out, descending).unwrap_or_else(|e| panic!("{config} n={size}: {e}"));
        }
    }

    /// Inputs of `size` pairs that sorts get wrong: random keys; keys with ±0, ±∞, NaNs and
    /// repeats; all keys equal; sorted and reverse-sorted keys (indices = input positions,
    /// the tie order).
    fn awkward_inputs(size: usize) -> Vec<(&'static str, Vec<Pair>)> {
        let random = random_pairs(size, seed());
        let mut awkward = random.clone();
        for (i, p) in awkward.iter_mut().enumerate().step_by(3) {
            p.key = [
                0.0,
                -0.0,
                -1.5,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                -f32::NAN,
            ][i % 7];
        }
        let equal: Vec<Pair> = (0..size as u32)
            .map(|index| Pair { key: 0.25, index })
            .collect();
        let mut keys: Vec<f32> = random.iter().map(|p| p.key).collect();
        keys.sort_by(f32::total_cmp);
        let with_positions = |keys: &mut dyn Iterator<Item = f32>| -> Vec<Pair> {
            keys.enumerate()
                .map(|(i, key)| Pair {
                    key,
                    index: i as u32,
                })
                .collect()
        };
        let sorted = with_positions(&mut keys.iter().copied());
        let reversed = with_positions(&mut keys.iter().rev().copied());
        vec![
            ("random", random),
            ("awkward keys", awkward),
            ("all equal", equal),
            ("sorted", sorted),
            ("reversed", reversed),
        ]
    }

    #[test]
    fn the_rw_network_sorts_awkward_inputs_both_ways_with_every_pass_shape() {
        // Sizes below one 2048-pair block (pairs past the end live only in registers), at
        // and around it, and large enough for passes at distances >= 2048 and for each
        // workgroup to sort two blocks in turn; 3 and 6 steps per such pass give runs of 256
        // and 32 consecutive pairs (8, the default, 8).
        let ctx = ctx();
        for high in [None, Some(3), Some(6)] {
            let tuning = LabTuning {
                sort_high_steps: high,
                ..LabTuning::default()
            };
            let mut sorter = GpuSorter::new(&ctx, &tuning).unwrap();
            let sizes: &[usize] = match high {
                None => &[1, 2, 3, 100, 2047, 2048, 2049, 3 * 2048 + 77, (1 << 17) + 5],
                Some(_) => &[(1 << 16) - 3, (1 << 18) + 1],
            };
            for &size in sizes {
                let mut inputs = awkward_inputs(size);
                if high.is_some() {
                    inputs.truncate(2); // random and awkward keys
                }
                for (what, input) in inputs {
                    for descending in [false, true] {
                        let out = sorter.sort(&ctx, &input, "RW", descending).unwrap();
                        validate(&input, &out, descending).unwrap_or_else(|e| {
                            panic!("RW {what} n={size} high={high:?} descending={descending}: {e}")
                        });
                    }
                }
            }
        }
    }

    #[test]
    fn the_radix_baseline_sorts_both_ways_including_equal_keys_and_partial_tiles() {
        let ctx = ctx();
        let radix = golab::lab::sort_radix::RadixSorter::new(&ctx, &LabTuning::default()).unwrap();
        for size in [1usize, 255, 4096, 4097, 100_000] {
            let mut input = random_pairs(size, seed());
            for (i, p) in input.iter_mut().enumerate().step_by(3) {
                p.key = [0.0, -1.5, f32::INFINITY][i % 3];
            }
            for descending in [false, true] {
                let out = radix.sort_pairs(&ctx, &input, descending).unwrap();
                validate(&input, &out, descending)
                    .unwrap_or_else(|e| panic!("radix n={size} descending={descending}: {e}"));
            }
        }
    }

    #[test]
    fn the_8_bit_radix_sort_is_stable_both_ways_at_awkward_sizes_and_orders() {
        let ctx = ctx();
        let best = Ranking::best(&ctx);
        assert_eq!(best, Ranking::Subgroup, "lavapipe has 8-lane subgroups");
        for ranking in [Ranking::Subgroup, Ranking::Portable] {
            let radix = Radix8Sorter::new(&ctx, &LabTuning::default(), ranking)
                .unwrap_or_else(|e| panic!("gpu-radix8 {ranking:?} runs on lavapipe: {e}"));
            assert_eq!(radix.ranking, ranking);
            radix8_sorts_awkward_inputs(&ctx, &radix);
        }
    }

    #[test]
    fn the_portable_radix_ranking_is_stable_at_its_smallest_and_largest_tiles() {
        // 1 and 16 pairs a thread (the portable scatter's 16 take 28 KiB of lavapipe's 32).
        let ctx = ctx();
        for kpt in [1, 16] {
            let tuning = LabTuning {
                radix_keys_per_thread: Some(kpt),
                ..LabTuning::default()
            };
            let radix = Radix8Sorter::new(&ctx, &tuning, Ranking::Portable).unwrap();
            assert_eq!(radix.tile, 256 * kpt);
            let tile = radix.tile as usize;
            for size in [1usize, tile - 1, tile + 1, 3 * tile + 77] {
                for (what, input) in awkward_inputs(size) {
                    for descending in [false, true] {
                        let out = radix.sort_pairs(&ctx, &input, descending).unwrap();
                        validate(&input, &out, descending).unwrap_or_else(|e| {
                            panic!(
                                "portable, {kpt} a thread, {what} n={size} desc={descending}: {e}"
                            )
                        });
                    }
                }
            }
        }
    }

    /// `radix` sorts every awkward input at sizes around its tile, both ways, stably.
    fn radix8_sorts_awkward_inputs(ctx: &GpuContext, radix: &Radix8Sorter) {
        let tile = radix.tile as usize;
        for size in [
            1usize,
            2,
            255,
            tile - 1,
            tile,
            tile + 1,
            3 * tile + 77,
            300_001,
        ] {
            for (what, input) in awkward_inputs(size) {
                for descending in [false, true] {
                    let out = radix.sort_pairs(ctx, &input, descending).unwrap();
                    validate(&input, &out, descending).unwrap_or_else(|e| {
                        panic!(
                            "radix8 {:?} {what} n={size} descending={descending}: {e}",
                            radix.ranking
                        )
                    });
                }
            }
        }
    }

    #[test]
    fn the_8_bit_radix_sort_counting_per_run_of_tiles_is_stable_at_run_boundaries() {
        // Large sorts count digits per run of several tiles (one workgroup steps through the
        // run's tiles); forced here at small sizes: runs of 3 and 8 tiles, sizes around a
        // run and a tile, a last run with fewer tiles.
        let ctx = ctx();
        for (per_run, ranking) in [(3, Ranking::Subgroup), (8, Ranking::Portable)] {
            let tuning = LabTuning {
                radix_tiles_per_run: Some(per_run),
                ..LabTuning::default()
            };
            let radix = Radix8Sorter::new(&ctx, &tuning, ranking).unwrap();
            let (tile, run) = (radix.tile as usize, (radix.tile * per_run) as usize);
            for size in [1usize, tile + 3, run - 1, run, run + 1, 2 * run + tile + 9] {
                assert_eq!(
                    radix.runs(size as u32),
                    (size.div_ceil(run) as u32, per_run)
                );
                let random = random_pairs(size, seed());
                let mut awkward = random.clone();
                for (i, p) in awkward.iter_mut().enumerate().step_by(2) {
                    p.key = [0.0, -0.0, -1.5, f32::INFINITY][i % 4];
                }
                for (what, input) in [("random", &random), ("awkward keys", &awkward)] {
                    for descending in [false, true] {
                        let out = radix.sort_pairs(&ctx, input, descending).unwrap();
                        validate(input, &out, descending).unwrap_or_else(|e| {
                            panic!(
                                "radix8 {ranking:?} {what} n={size}, {per_run} tiles a run, \
                                 descending={descending}: {e}"
                            )
                        });
                    }
                }
            }
        }
    }

    /// The one-sweep sort of `radix` sorts every awkward input stably both ways at `sizes`.
    fn onesweep_sorts_awkward_inputs(ctx: &GpuContext, radix: &OneSweepSorter, sizes: &[usize]) {
        for &size in sizes {
            for (what, input) in awkward_inputs(size) {
                for descending in [false, true] {
                    let out = radix.sort_pairs(ctx, &input, descending).unwrap();
                    validate(&input, &out, descending).unwrap_or_else(|e| {
                        panic!(
                            "onesweep {:?} {} {what} n={size} descending={descending}: {e}",
                            radix.ranking,
                            radix.shape.label()
                        )
                    });
                }
            }
        }
    }

    #[test]
    fn the_one_sweep_radix_sort_is_stable_both_ways_at_awkward_sizes_and_orders() {
        // Both rankings in the default shape (256 × 15: on lavapipe the subgroup form ranks
        // in 8-lane subgroups, 32 a workgroup): sizes around a tile and over many tiles.
        let ctx = ctx();
        for ranking in [Ranking::Subgroup, Ranking::Portable] {
            let radix = OneSweepSorter::new(&ctx, &LabTuning::default(), ranking, DEFAULT_SHAPE)
                .unwrap_or_else(|e| panic!("gpu-onesweep {ranking:?} runs on lavapipe: {e}"));
            let tile = radix.shape.tile() as usize;
            assert_eq!(tile, 3840);
            let sizes = [1, 2, 255, tile - 1, tile, tile + 1, 3 * tile + 77, 300_001];
            onesweep_sorts_awkward_inputs(&ctx, &radix, &sizes);
        }
    }

    #[test]
    fn the_one_sweep_radix_sort_is_stable_in_every_tile_shape_lavapipe_can_hold() {
        // 1, 8 and 24 pairs a thread of 256; 512 threads (threads 256.. own no digit) in the
        // portable form: lavapipe's 8-lane subgroups would need 64 × 512 bytes of counters;
        // the tile staged in an array of its own (`s`).
        let ctx = ctx();
        let shapes = [
            (Ranking::Subgroup, "256x1"),
            (Ranking::Subgroup, "256x8"),
            (Ranking::Portable, "256x8"),
            (Ranking::Subgroup, "256x24"),
            (Ranking::Portable, "512x4"),
            (Ranking::Subgroup, "256x12s"),
            (Ranking::Portable, "256x8s"),
        ];
        for (ranking, shape) in shapes {
            let shape = Shape::parse(shape).unwrap();
            let radix = OneSweepSorter::new(&ctx, &LabTuning::default(), ranking, shape)
                .unwrap_or_else(|e| panic!("{ranking:?} {shape:?}: {e}"));
            let tile = shape.tile() as usize;
            onesweep_sorts_awkward_inputs(&ctx, &radix, &[tile - 1, 2 * tile + 1, 40 * tile + 9]);
        }
        let wide = Shape::parse("512x15").unwrap();
        let err = OneSweepSorter::new(&ctx, &LabTuning::default(), Ranking::Subgroup, wide);
        assert!(
            matches!(err, Err(LabError::Unsupported(_))),
            "512 threads of 8 lanes"
        );
    }

    #[test]
    fn the_one_sweep_radix_sort_is_right_when_every_predecessor_stays_silent() {
        // TRUST = false: no tile's publication is believed, so every tile counts all its
        // predecessors' digits itself — the fallback that makes the sort independent of
        // forward progress, alone (quadratic in tiles: modest sizes); and giving up at once
        // while trusting (spin 0).
        let ctx = ctx();
        for (ranking, spin, trust) in [
            (Ranking::Subgroup, 0, false),
            (Ranking::Portable, 0, false),
            (Ranking::Subgroup, 0, true),
        ] {
            let shape = Shape {
                spin,
                trust,
                ..DEFAULT_SHAPE
            };
            let radix = OneSweepSorter::new(&ctx, &LabTuning::default(), ranking, shape).unwrap();
            let tile = shape.tile() as usize;
            onesweep_sorts_awkward_inputs(&ctx, &radix, &[2 * tile + 5, 19 * tile + 1234]);
        }
    }

    /// The status words a right one-sweep sort of `input` leaves: the global digit counts,
    /// each pass's tickets (one a tile) and rows (row 0 where each digit starts, row t + 1
    /// tile t's inclusive prefixes, flagged inclusive).
    fn onesweep_status(input: &[Pair], descending: bool, tile: usize) -> Vec<u32> {
        let key = |p: &Pair| {
            let b = p.key.to_bits();
            let k = if b >> 31 != 0 { !b } else { b | 1 << 31 };
            if descending { !k } else { k }
        };
        let mut keys: Vec<u32> = input.iter().map(key).collect();
        let tiles = input.len().div_ceil(tile);
        let mut status = vec![0u32; 1280 + 4 * 256 * (tiles + 1)];
        for pass in 0..4 {
            let digit = |k: u32| ((k >> (8 * pass)) & 0xff) as usize;
            let rows = 1280 + 256 * pass * (tiles + 1);
            keys.iter()
                .for_each(|&k| status[256 * pass + digit(k)] += 1);
            let mut prefix = [0u32; 256];
            let mut start = 0;
            for d in 0..256 {
                prefix[d] = start;
                start += status[256 * pass + d];
                status[rows + d] = 1 << 31 | prefix[d];
            }
            status[1024 + pass] = tiles as u32;
            for (t, chunk) in keys.chunks(tile).enumerate() {
                chunk.iter().for_each(|&k| prefix[digit(k)] += 1);
                for d in 0..256 {
                    status[rows + 256 * (t + 1) + d] = 1 << 31 | prefix[d];
                }
            }
            // The next pass reads this one's output: the keys stably ordered by this digit.
            keys.sort_by_key(|&k| digit(k));
        }
        status
    }

    #[test]
    fn every_one_sweep_tile_publishes_its_inclusive_prefixes_and_each_pass_its_counts() {
        // Right output alone would not show a look-back that walks every row back to the seed
        // (every tile's inclusive prefix missing): the status words must be exactly these.
        let ctx = ctx();
        for (ranking, trust) in [(Ranking::Subgroup, true), (Ranking::Portable, false)] {
            let shape = Shape {
                trust,
                ..Shape::parse("256x4").unwrap()
            };
            let radix = OneSweepSorter::new(&ctx, &LabTuning::default(), ranking, shape).unwrap();
            for descending in [false, true] {
                let input = &awkward_inputs(7 * 1024 + 300)[1].1;
                let (out, status) = radix
                    .sort_pairs_with_status(&ctx, input, descending)
                    .unwrap();
                validate(input, &out, descending).unwrap();
                let expected = onesweep_status(input, descending, 1024);
                assert_eq!(status.len(), expected.len());
                if let Some(i) = (0..status.len()).find(|&i| status[i] != expected[i]) {
                    panic!(
                        "{ranking:?} descending={descending}: status word {i} is {:#x}, expected {:#x}",
                        status[i], expected[i]
                    );
                }
            }
        }
    }

    #[test]
    fn the_one_sweep_radix_sort_sorts_2_22_pairs() {
        let ctx = ctx();
        let radix = OneSweepSorter::new(
            &ctx,
            &LabTuning::default(),
            Ranking::Subgroup,
            DEFAULT_SHAPE,
        )
        .unwrap();
        for (size, descending) in [(1usize << 22, false), ((1 << 22) - 3, true)] {
            let input = random_pairs(size, seed());
            let out = radix.sort_pairs(&ctx, &input, descending).unwrap();
            validate(&input, &out, descending)
                .unwrap_or_else(|e| panic!("n={size} descending={descending}: {e}"));
        }
    }

    #[test]
    fn shaped_one_sweep_variants_run_beside_the_default_and_bad_shapes_are_refused() {
        let ctx = ctx();
        let names = [
            "gpu-onesweep",
            "gpu-onesweep@256x8",
            "GPU-ONESWEEP-PORTABLE@512x4",
        ];
        let report = SortExperiment
            .run(&ctx, &plan(&names, &[5000]), &Progress::new())
            .unwrap();
        assert_all_valid(&report, 3);
        let shown: Vec<&str> = report.rows.iter().map(|r| r.variant.as_str()).collect();
        assert_eq!(
            shown,
            [
                "gpu-onesweep",
                "gpu-onesweep@256x8",
                "gpu-onesweep-portable@512x4"
            ]
        );
        assert!(
            report.rows[1].notes.contains("2048-pair tiles (256x8)"),
            "{:?}",
            report.rows
        );
        for bad in [
            "gpu-onesweep@128x8",
            "gpu-onesweep@256x40",
            "gpu-radix8@256x8",
        ] {
            let err = SortExperiment.run(&ctx, &plan(&[bad], &[256]), &Progress::new());
            assert!(
                matches!(err, Err(LabError::UnknownVariant { .. })),
                "{bad}: {err:?}"
            );
        }
    }

    #[test]
    fn equal_keys_signed_zeros_infinities_and_nans_keep_their_indices_in_every_configuration() {
        let ctx = ctx();
        let mut sorter = GpuSorter::new(&ctx, &LabTuning::default()).unwrap();
        let keys = [
            1.0,
            f32::INFINITY,
            -2.0,
            1.0,
            f32::NEG_INFINITY,
            1.0,
            0.0,
            -0.0,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7fff_ffff), // the padding's own key, repeated by real pairs
        ];
        let input: Vec<Pair> = (0..300)
            .map(|i| Pair {
                key: keys[i % keys.len()],
                index: i as u32,
            })
            .collect();
        for config in CONFIGS {
            for descending in [false, true] {
                let out = sorter.sort(&ctx, &input, config, descending).unwrap();
                validate(&input, &out, descending)
                    .unwrap_or_else(|e| panic!("{config} descending={descending}: {e}"));
            }
        }
    }

    #[test]
    fn validation_rejects_wrong_orders_keys_and_indices() {
        let input = random_pairs(64, 7);
        let mut good = input.clone();
        good.sort_by(|a, b| golab::lab::sort::compare(a, b, false));
        validate(&input, &good, false).unwrap();
        assert!(validate(&input, &good, true).is_err());
        let mut swapped = good.clone();
        swapped.swap(10, 11);
        assert!(validate(&input, &swapped, false).is_err());
        let mut wrong_key = good.clone();
        wrong_key[5].key = f32::from_bits(wrong_key[5].key.to_bits() ^ 1);
        assert!(validate(&input, &wrong_key, false).is_err());
        let mut repeated = good.clone();
        repeated[3].index = repeated[4].index;
        assert!(validate(&input, &repeated, false).is_err());
    }

    #[test]
    fn the_experiment_validates_every_variant_and_reports_bandwidth() {
        let ctx = ctx();
        let mut p = plan(&[], &[300, 1 << 10]);
        p.descending = true;
        let report = SortExperiment.run(&ctx, &p, &Progress::new()).unwrap();
        assert_all_valid(&report, 2 * SortExperiment.variants().len());
        assert!(report.copy_gb_per_s > 0.0);
        let b2 = &report.rows[0];
        assert!(b2.ms.unwrap() > 0.0 && b2.gb_per_s.unwrap() > 0.0 && b2.percent_of_copy.is_some());
        assert!(report.to_csv().lines().count() == report.rows.len() + 1);
    }

    #[test]
    fn bad_names_and_sizes_are_errors_and_cancel_stops_the_run() {
        let ctx = ctx();
        let err = SortExperiment.run(&ctx, &plan(&["B3"], &[256]), &Progress::new());
        assert!(
            matches!(err, Err(LabError::UnknownVariant { .. })),
            "{err:?}"
        );
        let err = SortExperiment.run(&ctx, &plan(&["B2"], &[1 << 40]), &Progress::new());
        assert!(matches!(err, Err(LabError::BadSize(_))), "{err:?}");
        let progress = Progress::new();
        progress.cancel();
        let err = SortExperiment.run(&ctx, &plan(&["B2"], &[256]), &progress);
        assert_eq!(err.unwrap_err(), LabError::Cancelled);
    }
}

mod transpose {
    use super::*;
    use golab::lab::Experiment;
    use golab::lab::transpose::{
        KERNELS, TransposeExperiment, Transposer, is_wide, random_matrix, validate,
    };

    #[test]
    fn every_kernel_transposes_exactly_including_sizes_that_are_not_multiples_of_32() {
        let ctx = ctx();
        let kernels = Transposer::new(&ctx, &LabTuning::default()).unwrap();
        // 4, 36, 100, 1000: multiples of 4 but not of 64 (partial wide tiles).
        for n in [1usize, 4, 31, 32, 33, 36, 100, 256, 1000, 2048] {
            let input = random_matrix(n, seed());
            for (name, _) in KERNELS {
                if is_wide(name) && n % 4 != 0 {
                    continue; // the experiment skips these with a note (next test)
                }
                let out = kernels.apply(&ctx, name, &input, n as u32).unwrap();
                validate(&input, &out, n, !name.starts_with("copy"))
                    .unwrap_or_else(|e| panic!("{name} n={n}: {e}"));
            }
        }
    }

    #[test]
    fn the_wide_kernels_are_skipped_with_a_note_where_n_is_not_divisible_by_4() {
        let report = TransposeExperiment
            .run(
                &ctx(),
                &plan(&["tile32x33", "tile64-vec4"], &[33]),
                &Progress::new(),
            )
            .unwrap();
        assert_all_valid(&report, 1);
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("tile64-vec4 not run at 33²")),
            "{:?}",
            report.notes
        );
    }

    #[test]
    fn validation_notices_an_untransposed_matrix() {
        let input = random_matrix(40, 3);
        assert!(validate(&input, &input, 40, true).is_err());
        validate(&input, &input, 40, false).unwrap();
    }

    #[test]
    fn the_experiment_reports_every_kernel_against_the_copy_baseline() {
        let ctx = ctx();
        let report = TransposeExperiment
            .run(&ctx, &plan(&[], &[96]), &Progress::new())
            .unwrap();
        assert_all_valid(&report, KERNELS.len());
        assert!(report.rows.iter().all(|r| r.percent_of_copy.unwrap() > 0.0));
    }
}

mod shuffle {
    use super::*;
    use golab::lab::Experiment;
    use golab::lab::shuffle::{OPS, ShuffleExperiment, ShuffleKernels, VARIANTS, source_lane};

    #[test]
    fn the_cpu_model_wraps_xor_and_indexed_and_keeps_own_value_out_of_the_group() {
        assert_eq!(source_lane(0, 5, 30, 32), 3);
        assert_eq!(source_lane(1, 33, 4, 32), 5);
        assert_eq!(source_lane(2, 3, 2, 32), 2);
        assert_eq!(source_lane(2, 3, 7, 32), 4);
        assert_eq!(source_lane(3, 3, 30, 32), 30);
        assert_eq!(source_lane(3, 3, 28, 32), 31);
    }

    #[test]
    fn every_variant_matches_the_model_on_every_lane_delta_and_mask() {
        let ctx = ctx();
        for (name, _, _) in VARIANTS {
            let kernels = match ShuffleKernels::new(&ctx, name, &LabTuning::default()) {
                Ok(k) => k,
                Err(LabError::Unsupported(why)) => {
                    assert!(!ctx.has_subgroups(), "{name}: {why}");
                    continue;
                }
                Err(e) => panic!("{name}: {e}"),
            };
            let verdict = kernels.validate(&ctx, 1024, seed()).unwrap();
            for (op, check) in verdict.iter().enumerate() {
                check
                    .as_ref()
                    .unwrap_or_else(|e| panic!("{name} {}: {e}", OPS[op]));
            }
        }
    }

    #[test]
    fn the_experiment_times_every_op_of_every_variant_the_device_supports() {
        let ctx = ctx();
        let report = ShuffleExperiment
            .run(&ctx, &plan(&[], &[2048]), &Progress::new())
            .unwrap();
        let variants = if ctx.has_subgroups() { 6 } else { 2 };
        assert_all_valid(&report, variants * OPS.len());
        assert!(report.rows.iter().all(|r| r.ms.unwrap() > 0.0));
        let err = ShuffleExperiment.run(&ctx, &plan(&["subgroup-1d"], &[1000]), &Progress::new());
        assert!(matches!(err, Err(LabError::BadSize(_))), "{err:?}");
    }
}

mod coalesce {
    use super::*;
    use golab::lab::Experiment;
    use golab::lab::coalesce::{CoalesceExperiment, Coalescer, REPEATS, VARIANTS, fit_line};

    #[test]
    fn every_mapping_writes_every_texel_of_64_cubed_and_odd_volumes() {
        let ctx = ctx();
        for (name, _, _) in VARIANTS {
            let kernels = Coalescer::new(&ctx, name, &LabTuning::default()).unwrap();
            for edge in [64, 37] {
                kernels
                    .write_and_verify(&ctx, edge)
                    .unwrap()
                    .unwrap_or_else(|e| panic!("{name} {edge}³: {e}"));
            }
        }
    }

    #[test]
    fn grids_over_65535_workgroups_go_2d_and_skip_the_groups_past_the_end() {
        let ctx = ctx();
        let edge = 180u32; // 5 832 000 texels = 91 125 groups of 64: a 32 768 × 3 grid
        assert!(edge.pow(3) / 64 > ctx.limits.max_compute_workgroups_per_dimension);
        Coalescer::new(&ctx, "z-64", &LabTuning::default())
            .unwrap()
            .write_and_verify(&ctx, edge)
            .unwrap()
            .unwrap();
    }

    #[test]
    fn the_fit_separates_fixed_cost_from_cost_per_repeat() {
        let points: Vec<(f64, f64)> = [1.0, 10.0, 50.0, 500.0]
            .iter()
            .map(|&r| (r, 2000.0 + 0.5 * r))
            .collect();
        let (fixed, per_repeat) = fit_line(&points);
        assert!((fixed - 2000.0).abs() < 1e-9 && (per_repeat - 0.5).abs() < 1e-12);
    }

    #[test]
    fn the_experiment_reports_every_repeat_count_and_a_fit_per_variant() {
        let ctx = ctx();
        let report = CoalesceExperiment
            .run(&ctx, &plan(&["x-64", "z-256"], &[16]), &Progress::new())
            .unwrap();
        assert_all_valid(&report, 2 * (REPEATS.len() + 1));
        let measured = report
            .rows
            .iter()
            .filter(|r| !r.size_label.ends_with("fit"));
        assert_eq!(measured.clone().count(), 2 * REPEATS.len());
        assert!(
            measured
                .clone()
                .all(|r| r.ms.unwrap() > 0.0 && r.gb_per_s.unwrap() > 0.0)
        );
        let fits: Vec<_> = report
            .rows
            .iter()
            .filter(|r| r.size_label.ends_with("fit"))
            .collect();
        assert!(
            fits.iter().all(|r| r.notes.contains("per repeat")),
            "{fits:?}"
        );
    }
}

#[test]
fn the_registry_lists_every_experiment_with_variants_and_sizes() {
    let names: Vec<&str> = lab::experiments().iter().map(|e| e.name()).collect();
    assert_eq!(
        names,
        [
            "sort",
            "transpose",
            "shuffle",
            "coalesce",
            "scan",
            "hashing",
            "boxsum",
            "lookup"
        ]
    );
    let ctx = ctx();
    for e in lab::experiments() {
        assert!(!e.variants().is_empty() && !e.default_sizes().is_empty());
        assert!(e.size_limit(&ctx).max > 0, "{}", e.name());
        assert_eq!(
            lab::experiment(&e.name().to_uppercase()).unwrap().name(),
            e.name()
        );
    }
    assert!(matches!(
        lab::experiment("nope"),
        Err(LabError::UnknownExperiment(_))
    ));
}

#[test]
fn a_run_on_another_thread_reports_progress_and_stops_promptly_when_cancelled() {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    let ctx = ctx();
    let updates = Arc::new(Mutex::new(Vec::<(f32, String)>::new()));
    let seen = updates.clone();
    let progress =
        Progress::with_callback(move |f, m| seen.lock().unwrap().push((f, m.to_string())));
    let worker_progress = progress.clone();
    let worker = std::thread::spawn(move || {
        let plan = plan(&[], &[1 << 14, 1 << 15]);
        lab::experiment("sort")
            .unwrap()
            .run(&ctx, &plan, &worker_progress)
    });
    let waited = Instant::now();
    while progress.fraction() < 0.1 {
        assert!(
            !worker.is_finished(),
            "the run ended before it could be cancelled"
        );
        assert!(waited.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        progress.message().starts_with("sort "),
        "{}",
        progress.message()
    );
    progress.cancel();
    let cancelled = Instant::now();
    assert_eq!(worker.join().unwrap().unwrap_err(), LabError::Cancelled);
    assert!(cancelled.elapsed() < Duration::from_secs(5));
    let updates = updates.lock().unwrap();
    assert!(updates.windows(2).all(|w| w[0].0 <= w[1].0), "{updates:?}");
}

/// wgpu keeps error scopes per thread: a Lab run never sees (or takes) another thread's GPU
/// errors, and that thread gets its own, while both use the one device.
#[test]
fn another_threads_gpu_errors_neither_fail_a_lab_run_nor_get_lost() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let ctx = ctx();
    let done = Arc::new(AtomicBool::new(false));
    let faulty = {
        let (ctx, done) = (ctx.clone(), done.clone());
        std::thread::spawn(move || {
            let buffer = |label| {
                ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: 16,
                    usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            };
            let (src, dst) = (buffer("src"), buffer("dst"));
            let mut errors = Vec::new();
            while !done.load(Ordering::Relaxed) || errors.len() < 20 {
                let ((), error) = ctx.scoped(|| {
                    // 64 bytes out of 16-byte buffers: a validation error, every time.
                    let mut encoder = ctx.device.create_command_encoder(&Default::default());
                    encoder.copy_buffer_to_buffer(&src, 0, &dst, 0, 64);
                    ctx.submit([encoder.finish()]);
                });
                errors.push(error);
            }
            errors
        })
    };
    let runs = [
        ("transpose", plan(&["naive", "tile32x33"], &[96])),
        ("sort", plan(&["B2B4+C2", "gpu-radix"], &[3000])),
    ];
    for (name, plan) in runs {
        let report = lab::experiment(name)
            .unwrap()
            .run(&ctx, &plan, &Progress::new())
            .unwrap_or_else(|e| panic!("{name} failed beside a faulty thread: {e}"));
        assert!(report.all_validated(), "{}", report.to_markdown());
    }
    done.store(true, Ordering::Relaxed);
    let errors = faulty.join().unwrap();
    assert!(
        errors.iter().all(Option::is_some),
        "the faulty thread lost {} of its {} errors",
        errors.iter().filter(|e| e.is_none()).count(),
        errors.len()
    );
    assert_eq!(ctx.take_uncaptured_error(), None);
}

mod scan {
    use super::*;
    use golab::lab::Experiment;
    use golab::lab::scan::{ScanExperiment, apply, random_values, validate};
    use golab::lab::scanner::{FORMS, SINGLE_PASS_ROWS, SPIN, Scanner, SinglePass};

    /// One tile, tile edges, partial vec4s, two and three levels of tile totals.
    const SIZES: [usize; 11] = [
        1,
        2,
        3,
        255,
        1000,
        4095,
        4096,
        4097,
        (1 << 20) + 3,
        3_000_000,
        (1 << 24) + 4096 * 3 + 1,
    ];

    fn inputs(n: usize) -> Vec<Vec<u32>> {
        let mut inputs = vec![random_values(n, seed()), vec![u32::MAX; n]]; // all equal, wrapping
        if n < 5000 {
            // The orderings matter at small sizes; keep the big ones quick.
            inputs.push((0..n as u32).collect()); // already sorted
            inputs.push((0..n as u32).rev().collect()); // reverse sorted
        }
        inputs
    }

    #[test]
    fn every_scan_matches_the_cpu_at_awkward_sizes_and_inputs() {
        // With subgroup operations (lavapipe has them) and without (the portable forms,
        // which gpu-radix8-portable also uses).
        let ctx = ctx();
        for subgroups in [true, false] {
            let scanner = Scanner::with_subgroups(&ctx, &Default::default(), subgroups).unwrap();
            assert_eq!(scanner.subgroups, subgroups);
            for n in SIZES {
                for (k, input) in inputs(n).iter().enumerate() {
                    for variant in FORMS.iter().chain(&["copy"]) {
                        let out = apply(&scanner, &ctx, variant, input).unwrap();
                        validate(input, &out, *variant != "copy").unwrap_or_else(|e| {
                            panic!("{variant} subgroups={subgroups} n={n} input {k}: {e}")
                        });
                    }
                }
            }
        }
    }

    #[test]
    fn the_single_pass_scan_is_right_when_every_predecessor_stays_silent() {
        // TRUST = false: no publication is believed, so every tile reduces all its
        // predecessors itself — the fallback that makes the scan independent of forward
        // progress, alone. Quadratic in tiles, hence the modest sizes.
        let ctx = ctx();
        for (threads, rows) in [(256, 4), (256, SINGLE_PASS_ROWS), (1024, 4)] {
            let shape = SinglePass {
                threads,
                rows,
                spin: 0,
                trust: false,
                unrolled: false,
            };
            single_pass_is_right(&ctx, shape, true, 17);
        }
    }

    #[test]
    fn the_single_pass_scan_is_right_with_larger_workgroups() {
        // 512 and 1024 threads a workgroup (GOLAB_SCAN_THREADS) and 12 rows (three vec4
        // groups: one pair and one alone): the workgroup scans, tile indexing and look-back at
        // other shapes, waiting as by default and giving up at once, with subgroup operations
        // and without (the workgroup-memory tree and walk).
        let ctx = ctx();
        let shapes = [
            (512, 8, SPIN),
            (1024, 4, SPIN),
            (1024, 8, SPIN),
            (256, 12, SPIN),
            (512, 8, 0),
        ];
        for subgroups in [true, false] {
            for (threads, rows, spin) in shapes {
                let shape = SinglePass {
                    threads,
                    rows,
                    spin,
                    trust: true,
                    unrolled: false,
                };
                single_pass_is_right(&ctx, shape, subgroups, 24);
            }
        }
    }

    /// The single pass of `shape` (with subgroup operations if `subgroups`) scans every input
    /// right at sizes of 1 to `tiles` tiles.
    fn single_pass_is_right(ctx: &GpuContext, shape: SinglePass, subgroups: bool, tiles: usize) {
        let scanner =
            Scanner::with_single_pass(ctx, &Default::default(), subgroups, shape).unwrap();
        assert_eq!(
            scanner.subgroups, subgroups,
            "lavapipe's 8-lane subgroups allow {shape:?}"
        );
        let tile = shape.tile() as usize;
        assert_eq!(scanner.single_pass_tile() as usize, tile);
        for n in [1usize, tile + 1, 2 * tile + 808, tiles * tile + 5] {
            for (k, input) in inputs(n).iter().enumerate() {
                let out = apply(&scanner, ctx, "decoupled-look-back", input).unwrap();
                validate(input, &out, true).unwrap_or_else(|e| {
                    panic!("{shape:?} subgroups={subgroups}, n={n} input {k}: {e}")
                });
            }
        }
    }

    #[test]
    fn the_single_pass_resets_every_status_line_and_publishes_each_tile_in_its_own() {
        use golab::lab::scan::{exclusive_scan, single_pass_status};
        use golab::lab::scanner::STATUS_STRIDE;
        // Status words left as all ones (a ready bit in every word, a huge ticket): the reset
        // must zero every tile's line, and each tile's publications must land in its own.
        let ctx = ctx();
        let stride = STATUS_STRIDE as usize;
        let shapes = [
            (256, 4, false),
            (256, SINGLE_PASS_ROWS, false),
            (1024, 16, false),
            (256, 16, true),
            (128, 32, true),
        ];
        for (threads, rows, unrolled) in shapes {
            let shape = SinglePass {
                threads,
                rows,
                spin: SPIN,
                trust: true,
                unrolled,
            };
            let scanner =
                Scanner::with_single_pass(&ctx, &Default::default(), true, shape).unwrap();
            let tile = shape.tile() as usize;
            let n = 5 * tile + 77;
            let input = random_values(n, seed());
            let (out, status) = single_pass_status(&scanner, &ctx, &input, u32::MAX).unwrap();
            validate(&input, &out, true).unwrap_or_else(|e| panic!("{shape:?}: {e}"));
            let tiles = n.div_ceil(tile);
            let prefix = exclusive_scan(&input);
            let total = prefix[n - 1].wrapping_add(input[n - 1]);
            let at = |t: usize| if t < tiles { prefix[t * tile] } else { total };
            assert_eq!(status[0], tiles as u32, "{shape:?}: tickets taken");
            assert!(
                status[1..stride].iter().all(|&w| w == 0),
                "{shape:?}: line 0"
            );
            for t in 0..tiles {
                let line = &status[stride * (t + 1)..stride * (t + 2)];
                let value = |k: usize| (line[k] & 0xffff) | (line[k + 1] << 16);
                let ready = |k: usize| line[k] & line[k + 1] & 0x10000 != 0;
                assert!(
                    ready(2) && value(2) == at(t + 1),
                    "{shape:?}: tile {t} inclusive"
                );
                if t == 0 {
                    assert_eq!(&line[..2], &[0, 0], "{shape:?}: tile 0 aggregate");
                } else {
                    let sum = at(t + 1).wrapping_sub(at(t));
                    assert!(ready(0) && value(0) == sum, "{shape:?}: tile {t} aggregate");
                }
                assert!(
                    line[4..].iter().all(|&w| w == 0),
                    "{shape:?}: tile {t} padding"
                );
            }
        }
    }

    #[test]
    fn the_single_pass_written_out_straight_is_right_in_every_shape() {
        // The generated kernel at 8 to 32 rows (odd and even counts of four-row groups) and
        // 128 to 512 threads, with subgroup operations and without, waiting as by default and
        // giving up at once; and its fallback alone.
        let ctx = ctx();
        let shapes = [
            (256, 8, SPIN),
            (256, 12, SPIN),
            (128, 16, SPIN),
            (128, 32, SPIN),
            (512, 4, 0),
        ];
        for subgroups in [true, false] {
            for (threads, rows, spin) in shapes {
                let shape = SinglePass {
                    threads,
                    rows,
                    spin,
                    trust: true,
                    unrolled: true,
                };
                single_pass_is_right(&ctx, shape, subgroups, 24);
            }
        }
        let alone = SinglePass {
            threads: 128,
            rows: 20,
            spin: 0,
            trust: false,
            unrolled: true,
        };
        single_pass_is_right(&ctx, alone, true, 17);
    }

    #[test]
    fn the_experiment_reports_validated_rows() {
        let report = ScanExperiment
            .run(&ctx(), &plan(&[], &[5000, 1 << 16]), &Progress::new())
            .unwrap();
        assert_all_valid(&report, 2 * ScanExperiment.variants().len());
        assert!(report.rows.iter().all(|r| r.gb_per_s.is_some()));
        // Each row stands beside the fastest copy at its size.
        for row in &report.rows {
            assert!(row.notes.contains("fastest copy here: copy"), "{row:?}");
            let copies = report.rows.iter().filter(|r| {
                r.size == row.size && ["copy", "copy-vec4", "copy-buffer"].contains(&&*r.variant)
            });
            let best = copies.map(|r| r.ms.unwrap()).fold(f64::MAX, f64::min);
            let percent = 100.0 * best / row.ms.unwrap();
            assert!(
                (row.percent_of_copy.unwrap() - percent).abs() < 1e-6 * percent,
                "{row:?}"
            );
        }
    }

    #[test]
    fn shaped_single_pass_variants_run_in_one_plan_and_bad_shapes_are_refused() {
        let names = [
            "decoupled-look-back",
            "decoupled-look-back@128x16",
            "decoupled-look-back-unrolled",
            "Decoupled-Look-Back-Unrolled@256x24",
        ];
        let report = ScanExperiment
            .run(&ctx(), &plan(&names, &[100_000]), &Progress::new())
            .unwrap();
        assert_all_valid(&report, 4);
        let shown: Vec<&str> = report.rows.iter().map(|r| r.variant.as_str()).collect();
        assert_eq!(
            shown,
            [
                "decoupled-look-back",
                "decoupled-look-back@128x16",
                "decoupled-look-back-unrolled",
                "decoupled-look-back-unrolled@256x24"
            ]
        );
        for bad in [
            "decoupled-look-back@256x24",
            "decoupled-look-back@64x8",
            "decoupled-look-back-unrolled@256x36",
            "decoupled-look-back@256x6",
            "reduce-then-scan@256x8",
        ] {
            let err = ScanExperiment.run(&ctx(), &plan(&[bad], &[256]), &Progress::new());
            assert!(
                matches!(err, Err(LabError::UnknownVariant { .. })),
                "{bad}: {err:?}"
            );
        }
    }

    #[test]
    fn the_cpu_reference_scans() {
        assert_eq!(
            golab::lab::scan::exclusive_scan(&[3, 1, 4, 1]),
            vec![0, 3, 4, 8]
        );
        assert!(validate(&[1, 2], &[0, 2], true).is_err());
    }
}

#[test]
fn a_gpu_heater_keeps_submitting_until_stopped_and_leaves_the_device_usable() {
    let heater = golab::gpu::heater::Heater::start(ctx());
    std::thread::sleep(std::time::Duration::from_millis(200));
    let submissions = heater.stop().expect("the heater ran without a GPU error");
    assert!(submissions > 0, "the heater submitted nothing in 200 ms");
    ctx().submit_and_wait([]).unwrap();
}

/// Brute force against hashing: every variant's cells after the run equal hashlife's (the
/// soups grow for 1024 generations: a wrong margin or a stepping bug shows up as a
/// mismatch), and each validated row is timed.
#[test]
fn hashing_validates_brute_force_against_the_hashed_universe() {
    let ctx = ctx();
    let report = lab::experiment("hashing")
        .unwrap()
        .run(
            &ctx,
            &plan(&["cpu-bitsliced", "hashlife"], &[16, 48]),
            &Progress::new(),
        )
        .unwrap();
    assert_eq!(report.rows.len(), 4);
    let gpu = lab::experiment("hashing")
        .unwrap()
        .run(&ctx, &plan(&["gpu-bitpacked"], &[24]), &Progress::new())
        .unwrap();
    for row in report.rows.iter().chain(&gpu.rows) {
        assert!(row.validated, "{row:?}");
        assert!(row.ms.is_some_and(|ms| ms > 0.0), "{row:?}");
        assert!(row.notes.contains("MiB"), "{row:?}");
    }
}

mod boxsum {
    use super::*;
    use golab::lab::Experiment;
    use golab::lab::boxsum::{BoxSumExperiment, box_sums, random_grid};

    #[test]
    fn the_cpu_reference_counts_every_cell_of_the_wrapped_box() {
        // Against reading every cell, including boxes wider than the grid (which wrap onto
        // themselves and count a cell more than once).
        for (n, r) in [(7usize, 1usize), (9, 3), (5, 4), (6, 8)] {
            let cells = random_grid(n, seed() ^ (n * 31 + r) as u64);
            let got = box_sums(&cells, n, r);
            for y in 0..n {
                for x in 0..n {
                    let mut want = 0;
                    for dy in -(r as i64)..=r as i64 {
                        for dx in -(r as i64)..=r as i64 {
                            let (cx, cy) = (
                                (x as i64 + dx).rem_euclid(n as i64) as usize,
                                (y as i64 + dy).rem_euclid(n as i64) as usize,
                            );
                            want += cells[cy * n + cx];
                        }
                    }
                    assert_eq!(got[y * n + x], want, "n {n} r {r} at ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn every_variant_matches_the_cpu_and_naive_stops_at_small_ranges() {
        let report = BoxSumExperiment
            .run(&ctx(), &plan(&[], &[1, 7, 300]), &Progress::new())
            .unwrap();
        // naive, sat and sliding at r = 1 and 7; sat and sliding at r = 300 (a box wider
        // than the 601² check grid, which wraps).
        assert_all_valid(&report, 8);
        assert!(report.rows.iter().all(|r| r.gb_per_s.is_some()));
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("naive not run at r = 300")),
            "{:?}",
            report.notes
        );
    }
}

mod lookup {
    use super::*;
    use golab::lab::Experiment;
    use golab::lab::lookup::{LOADS, LookupExperiment, address, expected, random_table};

    #[test]
    fn the_cpu_reference_walks_and_sums_the_table() {
        let table = random_table(1000, seed());
        assert!(table.iter().all(|&v| v < 1000));
        let walks = expected(&table, 50, true);
        let sums = expected(&table, 50, false);
        for t in 0..50u32 {
            let mut at = address(t, 0, 1000);
            let mut sum = 0u32;
            for k in 0..LOADS {
                at = table[at as usize];
                sum = sum.wrapping_add(table[address(t, k, 1000) as usize]);
            }
            assert_eq!(
                (walks[t as usize], sums[t as usize]),
                (at, sum),
                "thread {t}"
            );
        }
    }

    #[test]
    fn both_variants_match_the_cpu_and_report_loads_per_second() {
        // An odd table size (not a power of two) and a large one.
        let report = LookupExperiment
            .run(&ctx(), &plan(&[], &[1000, 1 << 16]), &Progress::new())
            .unwrap();
        assert_all_valid(&report, 4);
        assert!(
            report.rows.iter().all(|r| r.notes.contains("loads/s")),
            "{:?}",
            report.rows
        );
        assert!(
            report
                .rows
                .iter()
                .any(|r| r.notes.contains("cell updates/s (Moore)"))
        );
    }
}

#[test]
fn default_sizes_fit_the_device() {
    // A CPU device (lavapipe) gets sizes that run in seconds; a GPU the article's.
    let ctx = ctx();
    for e in lab::experiments() {
        let sizes = e.sizes_for(&ctx);
        assert!(!sizes.is_empty(), "{}", e.name());
        if ctx.info.device_type != wgpu::DeviceType::Cpu {
            assert_eq!(sizes, e.default_sizes(), "{}", e.name());
        }
    }
    if ctx.info.device_type == wgpu::DeviceType::Cpu {
        let sort = lab::experiment("sort").unwrap();
        assert!(sort.sizes_for(&ctx).iter().all(|&s| s <= 1 << 18));
    }
}
