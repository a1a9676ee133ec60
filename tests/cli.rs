//! The `golab` binary as a user runs it: JSON output, tables, errors and exit codes.

use std::process::{Command, Output};

fn golab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_golab"))
        .args(args)
        .output()
        .expect("golab runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `golab ARGS --json`, which must succeed, as JSON.
fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = golab(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn run_json_reports_the_gosper_gun_after_300_generations() {
    let out = golab(&[
        "run",
        "--pattern",
        "gosper-glider-gun",
        "--size",
        "256x256",
        "--gens",
        "300",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    for key in [
        "generation",
        "population",
        "histogram",
        "hash",
        "strategy",
        "elapsed_s",
        "gps",
    ] {
        assert!(report.get(key).is_some(), "missing {key}: {report}");
    }
    assert_eq!(report["generation"], 300);
    // The 36-cell gun plus ten 5-cell gliders, none of which has wrapped round yet.
    assert_eq!(report["population"], 86);
    assert_eq!(report["strategy"], "scalar");
    assert_eq!(report["hash"].as_str().unwrap().len(), 16);
}

#[test]
fn every_cpu_strategy_prints_the_same_hash() {
    let hash = |strategy: &str| {
        let out = golab(&[
            "run",
            "--soup",
            "40",
            "--seed",
            "9",
            "--size",
            "131x67",
            "--gens",
            "50",
            "--strategy",
            strategy,
            "--json",
        ]);
        assert!(out.status.success());
        let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(
            report["strategy"], strategy,
            "the report names the strategy that ran"
        );
        report["hash"].as_str().unwrap().to_string()
    };
    let reference = hash("scalar");
    assert_eq!(hash("rayon"), reference);
    assert_eq!(hash("cpu-bitsliced"), reference);
}

#[test]
fn bad_input_is_a_clear_error_with_exit_status_2() {
    for (args, expected) in [
        (
            vec!["run", "--rule", "R2,C0,M1,S2..3,B3..3"],
            "Larger than Life",
        ),
        (vec!["run", "--rule", "B9/S23"], "0-8"),
        (vec!["run", "--size", "2x2"], "out of range"),
        (vec!["run", "--strategy", "warp-drive"], "known strategies"),
        (
            vec!["run", "--pattern", "no-such-pattern"],
            "bundled patterns",
        ),
        (vec!["bench", "--sizes", "12x34"], "square"),
    ] {
        let out = golab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("error:") && stderr.contains(expected),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn bench_prints_a_table_with_every_requested_cell() {
    let out = golab(&[
        "bench",
        "--strategies",
        "scalar,rayon",
        "--sizes",
        "32,48",
        "--gens",
        "2",
        "--repeats",
        "3",
    ]);
    assert!(out.status.success());
    let table = stdout(&out);
    assert!(table.contains("| strategy | 32² | 48² |"), "{table}");
    assert!(
        table.contains("| scalar |") && table.contains("| rayon |"),
        "{table}"
    );
}

#[test]
fn patterns_lists_the_library() {
    let out = golab(&["patterns"]);
    assert!(out.status.success());
    assert!(stdout(&out).lines().count() > 20);
    let out = golab(&["patterns", "--show", "glider"]);
    assert!(stdout(&out).contains("x = 3, y = 3"));
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bad_app_options_are_refused_before_any_window_opens() {
    for (args, says) in [
        (&["--size", "1x1"][..], "out of range"),
        (&["--strategy", "warp-drive"][..], "warp-drive"),
        (&["--rule", "B9/S"][..], "B9/S"),
    ] {
        let out = golab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn the_app_without_a_display_fails_with_a_message_not_a_panic() {
    let out = Command::new(env!("CARGO_BIN_EXE_golab"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("golab runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not open the window"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn lab_sort_json_reports_every_configuration_validated() {
    let out = golab(&["lab", "sort", "--sizes", "1024", "--repeats", "1", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["experiment"], "sort");
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        14,
        "the article's 7 bitonic configurations, RW, rayon, the 4-bit radix sort, the \
         8-bit one and the one-sweep one in both rankings: {report}"
    );
    for row in rows {
        assert_eq!(row["validated"], true, "{row}");
        assert_eq!(row["size"], 1024);
        assert!(row["ms"].as_f64().unwrap() > 0.0, "{row}");
    }
    assert!(report["copy_gb_per_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn lab_rejects_unknown_experiments_variants_and_sizes_with_exit_2() {
    for args in [
        &["lab", "sorting"][..],
        &["lab", "sort", "--variants", "B3"],
        &["lab", "sort", "--sizes", "12x"],
        &["lab", "transpose", "--sizes", "1000000"],
    ] {
        let out = golab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error:"), "{args:?}: {err}");
    }
    let out = golab(&["lab", "list"]);
    assert!(out.status.success());
    for name in [
        "sort",
        "transpose",
        "shuffle",
        "coalesce",
        "B2B4B8B16+C2C4",
        "diagonal",
    ] {
        assert!(stdout(&out).contains(name), "{name}");
    }
}

#[test]
fn a_lost_device_in_the_cli_is_a_clear_error_with_exit_status_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_golab"))
        .args([
            "run",
            "--strategy",
            "gpu-resident",
            "--size",
            "64x64",
            "--gens",
            "20",
        ])
        .env("GOLAB_FAULT", "device-lost@gen:5")
        .output()
        .expect("golab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("device was lost") && err.contains("GOLAB_FAULT"),
        "{err}"
    );
}

#[test]
fn run_json_reports_the_bytes_a_transfer_strategy_moves() {
    let moved = |strategy: &str, interval: &str| {
        let out = golab(&[
            "run",
            "--soup",
            "30",
            "--size",
            "40x24",
            "--gens",
            "12",
            "--strategy",
            strategy,
            "--readback-interval",
            interval,
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let t = &report["transfer_bytes"];
        (t["up"].as_u64().unwrap(), t["down"].as_u64().unwrap())
    };
    let world = 40 * 24 * 4;
    assert_eq!(moved("gpu-no-upload", "10"), (0, 12 * world));
    assert_eq!(moved("gpu-readback-skip", "4"), (0, 3 * world));
    assert_eq!(moved("gpu-resident", "10"), (0, 0));
    assert_eq!(moved("rayon", "10"), (0, 0));
}

#[test]
fn a_malformed_tuning_variable_is_refused_with_its_name() {
    let out = Command::new(env!("CARGO_BIN_EXE_golab"))
        .args(["run", "--gens", "1"])
        .env("GOLAB_BITPACKED_GENS", "eight")
        .output()
        .expect("golab runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("GOLAB_BITPACKED_GENS") && err.contains("eight"),
        "{err}"
    );
}

#[test]
fn bench_tunes_gpu_bitpackeds_shape_over_whole_passes_of_its_window() {
    // A window of a few milliseconds is one or two batches: the controller learns from whole
    // passes over it (the bench loads the window's world before every run), chooses births
    // first, and ends tuned within the warm-up's bound.
    let out = golab(&[
        "bench",
        "--strategies",
        "gpu-bitpacked",
        "--sizes",
        "256",
        "--gens",
        "120",
        "--repeats",
        "2",
        "--verbose",
    ]);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "tuned (by passes)",
        "the world repeats: timing whole passes",
        "before the shape is swept",
        "swept: ",
        "windows agree",
    ] {
        assert!(text.contains(line), "no {line:?} in {text}");
    }
    assert!(!text.contains("still tuning after"), "{text}");
}

#[test]
fn bench_says_which_generations_it_timed_and_the_world_state() {
    let out = golab(&[
        "bench",
        "--strategies",
        "rayon",
        "--sizes",
        "48",
        "--gens",
        "3",
        "--repeats",
        "2",
        "--phase",
        "settled",
        "--settle",
        "120",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let window = &report["results"][0]["window"];
    let (start, end) = (
        window["start"]["generation"].as_u64().unwrap(),
        window["end"]["generation"].as_u64().unwrap(),
    );
    // Both repeats timed the same generations, 120–123.
    assert_eq!((start, end), (120, 123), "{window}");
    assert!(
        window["start"]["density"].as_f64().unwrap() < 0.5,
        "{window}"
    );
    assert!(
        report["workload"]
            .as_str()
            .unwrap()
            .contains("stepped 120 generations first")
    );
    let fresh = golab(&[
        "bench",
        "--strategies",
        "rayon",
        "--sizes",
        "40",
        "--gens",
        "5",
        "--repeats",
        "2",
        "--from",
        "30",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&fresh)).unwrap();
    let window = &report["results"][0]["window"];
    assert_eq!(window["start"]["generation"].as_u64(), Some(30), "{window}");
    assert_eq!(window["end"]["generation"].as_u64(), Some(35), "{window}");
    let bad = golab(&["bench", "--sizes", "16", "--phase", "tepid"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("fresh or settled"));
}

#[test]
fn gpu_info_kernels_says_clearly_why_it_cannot_or_what_it_did() {
    // An unknown filter names itself; lavapipe (CI) does not offer pipeline statistics, so
    // the command says so and exits 2 after the adapter report; a driver that offers them
    // (the lent GPU) prints a table row per kernel.
    let none = golab(&["gpu-info", "--kernels", "no-such-module"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no kernel module's label contains 'no-such-module'"));
    let out = golab(&["gpu-info", "--kernels", "lab/scan_single_pass"]);
    assert!(stdout(&out).contains("adapter"), "{}", stdout(&out));
    if stdout(&out).contains("llvmpipe") {
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("does not offer VK_KHR_pipeline_executable_properties"),
            "{}",
            stderr(&out)
        );
    } else {
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("| lab/scan_single_pass"),
            "{}",
            stdout(&out)
        );
    }
}

/// The Gosper gun emits a glider every 30 generations (LifeWiki, "Gosper glider gun"):
/// in the unbounded universe its population grows by 5 every period, for ever.
#[test]
fn run_hashlife_counts_the_gosper_guns_gliders_at_huge_generations() {
    let population = |gens: &str| -> u128 {
        let v = json(&[
            "run",
            "--strategy",
            "hashlife",
            "--pattern",
            "gosper-glider-gun",
            "--gens",
            gens,
        ]);
        assert_eq!(v["strategy"], "hashlife");
        v["population"].as_u64().map(u128::from).unwrap()
    };
    let k = 1u128 << 40;
    let (a, b) = (
        population(&(30 * k).to_string()),
        population(&(30 * (k + 1)).to_string()),
    );
    assert_eq!(b - a, 5);
    // 2^40 periods of gliders in flight, about 5 cells each.
    assert!(a > 5 * k && a < 5 * k + 200, "{a}");
}

#[test]
fn run_every_prints_bgolly_style_lines_on_grids_and_the_plane() {
    for strategy in ["scalar", "hashlife"] {
        let out = golab(&[
            "run",
            "--strategy",
            strategy,
            "--pattern",
            "gosper-glider-gun",
            "--gens",
            "90",
            "--every",
            "30",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines: Vec<String> = stdout(&out).lines().take(4).map(String::from).collect();
        assert_eq!(lines, ["0: 36", "30: 41", "60: 46", "90: 51"], "{strategy}");
    }
}

#[test]
fn run_out_writes_macrocell_from_the_tree_and_it_reads_back() {
    let path = std::env::temp_dir().join(format!("golab-cli-{}.mc", std::process::id()));
    let out = path.to_str().unwrap();
    let first = json(&[
        "run",
        "--strategy",
        "hashlife",
        "--pattern",
        "gosper-glider-gun",
        "--gens",
        "2^20",
        "--out",
        out,
    ]);
    let second = json(&[
        "run",
        "--strategy",
        "hashlife",
        "--pattern",
        out,
        "--gens",
        "0",
    ]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(second["generation"], first["generation"]);
    assert_eq!(second["population"], first["population"]);
    assert_eq!(second["bounds"], first["bounds"]);
}

#[test]
fn run_refusals_name_the_way_out() {
    for (args, needle) in [
        (
            vec!["run", "--size", "64", "--gens", "2^70"],
            "hashed universe",
        ),
        (
            vec!["run", "--strategy", "hashlife", "--gens", "10"],
            "--pattern",
        ),
        (
            vec![
                "run",
                "--strategy",
                "hashlife",
                "--pattern",
                "glider",
                "--rule",
                "R2,C0,M1,S2..3,B3..3,NM",
            ],
            "Larger than Life",
        ),
        (vec!["run", "--gens", "2^x"], "2^k"),
    ] {
        let out = golab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// `golab bench --strategies hashlife` times the hashed universe as `golab run` runs it:
/// the pattern rebuilt for every repeat, stepped to the generation asked, the same
/// population each time, with generations per wall second and the memory it took.
#[test]
fn bench_hashlife_reports_generations_per_second_and_memory() {
    let v = json(&[
        "bench",
        "--strategies",
        "hashlife",
        "--pattern",
        "gosper-glider-gun",
        "--gens",
        "2^20",
        "--repeats",
        "2",
    ]);
    let b = &v[0];
    assert_eq!(b["generations"].as_u64(), Some(1 << 20));
    assert_eq!(b["samples_s"].as_array().map(Vec::len), Some(2));
    let median = b["median_s"].as_f64().unwrap();
    let rate = b["gens_per_s"].as_f64().unwrap();
    assert!((rate * median - f64::from(1 << 20)).abs() < 1.0, "{b}");
    // 36 cells of gun plus 5 per glider, one glider every 30 generations (LifeWiki).
    let population = b["population"].as_u64().unwrap();
    assert!(
        population.abs_diff(36 + 5 * (1 << 20) / 30) < 40,
        "{population}"
    );
    assert!(b["store_bytes"].as_u64().unwrap() > 0);
    // A soup in a box of each size when no pattern is given; a grid strategy beside it
    // still gets its own table.
    let out = golab(&[
        "bench",
        "--strategies",
        "hashlife,scalar",
        "--sizes",
        "64",
        "--gens",
        "64",
        "--repeats",
        "1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.contains("soup 64x64 50% seed 1") && text.contains("| scalar"),
        "{text}"
    );
}

#[test]
fn configuration_md_lists_every_environment_knob_golab_reads() {
    // Every `"GOLAB_…"` name in the sources is a knob some code reads; each must have its
    // row in docs/configuration.md.
    fn names_in(dir: &std::path::Path, found: &mut std::collections::BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                names_in(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for piece in text.split("\"GOLAB_").skip(1) {
                    let name: String = piece
                        .chars()
                        .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    if piece[name.len()..].starts_with('"') {
                        found.insert(format!("GOLAB_{name}"));
                    }
                }
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = std::collections::BTreeSet::new();
    names_in(&root.join("src"), &mut names);
    assert!(names.len() >= 15, "{names:?}");
    let doc = std::fs::read_to_string(root.join("docs/configuration.md")).unwrap();
    let missing: Vec<_> = names.iter().filter(|n| !doc.contains(n.as_str())).collect();
    assert!(
        missing.is_empty(),
        "docs/configuration.md lacks {missing:?}"
    );
}

#[test]
fn cpu_only_commands_open_no_gpu() {
    // A scalar benchmark needs no adapter: nothing probes the GPU, so no driver messages.
    let out = golab(&[
        "bench",
        "--strategies",
        "scalar,cpu-bitsliced",
        "--sizes",
        "64",
        "--gens",
        "4",
        "--repeats",
        "1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("XDG_RUNTIME_DIR") && !stderr.to_lowercase().contains("vulkan"),
        "{stderr}"
    );
}

#[test]
fn a_pattern_without_a_grid_runs_on_the_unbounded_plane_as_golly_runs_it() {
    // No --strategy, --size or --topology: the hashed plane.
    let plane = json(&["run", "--pattern", "gosper-glider-gun", "--gens", "300"]);
    assert_eq!(plane["strategy"], "hashlife");
    // A grid strategy without --size: a dead-border grid holding all 300 generations of
    // growth, which gives the plane's population exactly; the warning says so.
    let grid = json(&[
        "run",
        "--pattern",
        "gosper-glider-gun",
        "--gens",
        "300",
        "--strategy",
        "rayon",
    ]);
    assert_eq!(grid["population"], plane["population"]);
    assert_eq!(grid["topology"], "dead");
    assert_eq!(grid["width"], 36 + 2 * 301);
    assert!(
        grid["warnings"][0]
            .as_str()
            .is_some_and(|w| w.contains("unbounded plane") && w.contains("300 generations")),
        "{grid}"
    );
    // More growth than any grid holds: refused with the size it would need.
    let out = golab(&[
        "run",
        "--pattern",
        "gosper-glider-gun",
        "--gens",
        "2^40",
        "--strategy",
        "scalar",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2199023255590x2199023255563 grid")
            && stderr.contains("leave out --strategy"),
        "{stderr}"
    );
    // A soup keeps its 256² torus.
    let soup = json(&["run", "--gens", "1"]);
    assert_eq!(
        (soup["width"].as_u64(), soup["topology"].as_str()),
        (Some(256), Some("torus"))
    );
}

#[test]
fn a_pattern_whose_rule_the_hashed_plane_does_not_run_goes_to_a_grid_with_the_reason() {
    // Larger than Life: Golly's unbounded LtL, a grid that grows.
    let dir = std::env::temp_dir().join(format!("golab-cli-plane-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bosco.rle");
    std::fs::write(
        &path,
        "x = 4, y = 4, rule = R5,C0,M1,S34..58,B34..45,NM\nbo$3o$obo$2o!\n",
    )
    .unwrap();
    let v = json(&["run", "--pattern", path.to_str().unwrap(), "--gens", "3"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(v["topology"], "growing", "{v}");
    assert!(
        v["warnings"].as_array().is_some_and(|w| w
            .iter()
            .any(|w| w.as_str().is_some_and(|w| w.starts_with("on a grid:")))),
        "{v}"
    );
}

/// `golab gpu-info --probe` runs the window's start-up probe: cpu-bitsliced timed, and
/// gpu-resident beside it on a software driver (where cpu-bitsliced wins) or the copy
/// bandwidth on a real GPU (where gpu-bitpacked is expected from it).
#[test]
fn gpu_info_probe_says_which_strategy_a_new_window_starts_on() {
    let out = golab(&["gpu-info", "--probe"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("## Start-up probe"), "{text}");
    assert!(text.contains("cpu-bitsliced "), "{text}");
    if text.contains("llvmpipe") {
        // A software driver: gpu-resident timed beside cpu-bitsliced, which wins.
        assert!(text.contains("gpu-resident "), "{text}");
        assert!(text.contains("starts on cpu-bitsliced"), "{text}");
    } else {
        assert!(text.contains("the GPU's copy kernel"), "{text}");
        assert!(
            text.contains("starts on gpu-bitpacked") || text.contains("starts on cpu-bitsliced"),
            "{text}"
        );
    }
}
