//! `golab search` against apgsearch: soups against python-lifelib's, censuses against
//! apgluxe's logs (tests/fixtures).

use golab::search::hashsoup::{Symmetry, hashsoup};

/// Every soup of tests/fixtures/hashsoup/lifelib-2.5.6.txt built by golab cell for cell.
#[test]
fn hashsoup_cells_equal_lifelibs() {
    let text = include_str!("fixtures/hashsoup/lifelib-2.5.6.txt");
    let mut checked = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (sym, seed) = (f[0], f[1]);
        let x0: i64 = f[2].parse().unwrap();
        let y0: i64 = f[3].parse().unwrap();
        let mut expected = Vec::new();
        for (dy, row) in f[6..].iter().enumerate() {
            // One hex word per row, bit i = column x0 + i.
            for (k, digit) in row.chars().rev().enumerate() {
                let v = digit.to_digit(16).unwrap();
                for b in 0..4 {
                    if v >> b & 1 == 1 {
                        expected.push((x0 + 4 * k as i64 + b, y0 + dy as i64));
                    }
                }
            }
        }
        expected.sort_unstable();
        let symmetry: Symmetry = sym.parse().unwrap();
        let mut got = hashsoup(seed, symmetry).cells();
        got.sort_unstable();
        assert_eq!(got, expected, "{sym} {seed}");
        checked.insert(sym);
    }
    assert!(
        checked.contains("C1") && checked.contains("D8_1"),
        "{checked:?}"
    );
    assert_eq!(checked.len(), golab::search::hashsoup::SYMMETRIES.len());
}

use golab::search::{CpuRunner, Haul, SearchConfig, SearchRule, Tiles, search};

/// golab's haul for `soups` soups of b3s23/C1 on the fixtures' root.
fn golab_haul(soups: u64, tiles: Tiles) -> Haul {
    golab_haul_of("b3s23", soups, tiles)
}

/// golab's haul for `soups` soups of `rule`/C1 on the fixtures' root.
fn golab_haul_of(rule: &str, soups: u64, tiles: Tiles) -> Haul {
    golab_haul_sym(rule, Symmetry::C1, soups, tiles)
}

/// golab's haul for `soups` soups of `rule`/`symmetry` on the fixtures' root.
fn golab_haul_sym(rule: &str, symmetry: Symmetry, soups: u64, tiles: Tiles) -> Haul {
    let config = SearchConfig {
        rule: SearchRule::parse(rule).unwrap(),
        symmetry,
        root: "golab_search_C1".into(),
        soups,
        tiles,
    };
    search(&config, &CpuRunner, &mut |_| {})
}

/// The census, object counts and sample soups of golab's haul equal apgluxe's log.
fn assert_same_haul(ours: &Haul, log: &str) {
    let theirs = Haul::parse(log).unwrap();
    assert_eq!(theirs.version, "v5.2-ll2.5.6");
    assert_eq!(
        (
            ours.root.as_str(),
            ours.rule.as_str(),
            ours.symmetry.as_str()
        ),
        (
            theirs.root.as_str(),
            theirs.rule.as_str(),
            theirs.symmetry.as_str()
        )
    );
    assert_eq!(ours.soups, theirs.soups);
    let (a, b) = (ours.census.by_count(), theirs.census.by_count());
    let missing: Vec<_> = b.iter().filter(|x| !a.contains(x)).collect();
    let extra: Vec<_> = a.iter().filter(|x| !b.contains(x)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "apgluxe's not ours: {missing:?}\nours not apgluxe's: {extra:?}"
    );
    assert_eq!(a, b, "the census's order");
    // Every line of the log from @MD5 on, samples included, is apgluxe's.
    let body = |text: &str| {
        text.lines()
            .skip_while(|l| !l.starts_with("@MD5"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&ours.to_log()), body(log));
}

/// 10^4 soups of b3s23/C1, object for object and sample for sample, as apgluxe (AVX-512 build).
#[test]
fn census_equals_apgluxe_1e4() {
    let haul = golab_haul(10_000, Tiles::Tall);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b3s23-C1-golab_search_C1-1e4.avx512.txt"),
    );
}

/// 10^5 soups: apgluxe's AVX-512 build (tall tiles).
#[test]
#[ignore = "the whole collection: 10^5 soups, a minute on two cores (scripts/test-full)"]
fn census_equals_apgluxe_1e5_tall_tiles() {
    let haul = golab_haul(100_000, Tiles::Tall);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b3s23-C1-golab_search_C1-1e5.avx512.txt"),
    );
}

/// 10^5 soups: apgluxe built without AVX-512 (square tiles), whose census differs.
#[test]
#[ignore = "the whole collection: 10^5 soups, a minute on two cores (scripts/test-full)"]
fn census_equals_apgluxe_1e5_square_tiles() {
    let haul = golab_haul(100_000, Tiles::Square);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b3s23-C1-golab_search_C1-1e5.haswell.txt"),
    );
}

/// B36/S23 (HighLife: gliders, and replicators that apgsearch names zz_LINEAR after three
/// tries): 200 soups.
#[test]
fn census_equals_apgluxe_b36s23_200() {
    let haul = golab_haul_of("B36/S23", 200, Tiles::Tall);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b36s23-C1-golab_search_C1-200.avx512.txt"),
    );
}

/// B36/S23: 10^4 soups.
#[test]
#[ignore = "the whole collection: 10^4 soups of HighLife, 4 minutes on one core (scripts/test-full)"]
fn census_equals_apgluxe_b36s23_1e4() {
    let haul = golab_haul_of("b36s23", 10_000, Tiles::Tall);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b36s23-C1-golab_search_C1-1e4.avx512.txt"),
    );
}

/// B3/S2-i34q (isotropic: apgsearch's plane without incubator or glider removal, clusters
/// of live and history cells): 1000 soups.
#[test]
fn census_equals_apgluxe_b3s2_i34q_1e3() {
    let haul = golab_haul_of("B3/S2-i34q", 1000, Tiles::Tall);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b3s2-i34q-C1-golab_search_C1-1e3.avx512.txt"),
    );
}

/// B3/S2-i34q: 10^4 soups.
#[test]
#[ignore = "the whole collection: 10^4 soups of B3/S2-i34q, half a minute (scripts/test-full)"]
fn census_equals_apgluxe_b3s2_i34q_1e4() {
    let haul = golab_haul_of("b3s2-i34q", 10_000, Tiles::Tall);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b3s2-i34q-C1-golab_search_C1-1e4.avx512.txt"),
    );
}

/// A symmetric soup (31×31, centred on a cell, placed across the plane's origin as apgsearch
/// places it): 10^4 soups of b3s23/D8_1.
#[test]
fn census_equals_apgluxe_d8_1_1e4() {
    let haul = golab_haul_sym("b3s23", Symmetry::D8_1, 10_000, Tiles::Tall);
    assert_same_haul(
        &haul,
        include_str!("fixtures/apgsearch/b3s23-D8_1-golab_search_C1-1e4.avx512.txt"),
    );
}

/// A haul written and read back is the same haul.
#[test]
fn haul_reads_back() {
    let haul = golab_haul(300, Tiles::Tall);
    assert!(haul.census.objects() > 3000);
    let again = Haul::parse(&haul.to_log()).unwrap();
    assert_eq!(again, haul);
    let text = haul.to_log();
    assert!(text.contains("@MD5 6b907cfdbcc7b7cba926443cbf6a7f8d\n@ROOT golab_search_C1\n@RULE b3s23\n@SYMMETRY C1\n@NUM_SOUPS 300\n"), "{text}");
}

fn golab(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_golab"))
        .args(args)
        .output()
        .unwrap()
}

/// `golab search --haul` writes the log; bad input is refused before any soup runs and
/// leaves nothing behind.
#[test]
fn cli_haul_and_bad_input() {
    let dir = std::env::temp_dir().join(format!("golab-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let haul = dir.join("haul.txt");
    let h = haul.to_str().unwrap();
    let out = golab(&[
        "search",
        "--seed",
        "golab_search_C1",
        "--soups",
        "200",
        "--haul",
        h,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = Haul::parse(&std::fs::read_to_string(&haul).unwrap()).unwrap();
    assert_eq!(written, golab_haul(200, Tiles::Tall));
    std::fs::remove_file(&haul).unwrap();

    let refused = |args: &[&str], expect: &str| {
        let out = golab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(
            std::fs::read_dir(&dir).unwrap().next().is_none(),
            "{args:?} left a file"
        );
    };
    refused(
        &[
            "search",
            "--seed",
            "r",
            "--soups",
            "10",
            "--symmetry",
            "C3",
            "--haul",
            h,
        ],
        "unknown symmetry 'C3'",
    );
    refused(
        &[
            "search", "--seed", "r", "--soups", "10", "--rule", "b3s2q", "--haul", h,
        ],
        "rule 'b3s2q'",
    );
    // Born from the north neighbour alone: not isotropic.
    let map =
        "MAPAAAAAAAAAAAAAAAAAAAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    refused(
        &[
            "search", "--seed", "r", "--soups", "10", "--rule", map, "--haul", h,
        ],
        "not isotropic",
    );
    refused(
        &[
            "search", "--seed", "r", "--soups", "10", "--rule", "B2/S34H", "--haul", h,
        ],
        "hexagonal",
    );
    refused(
        &[
            "search", "--seed", "r", "--soups", "10", "--rule", "/2/3", "--haul", h,
        ],
        "two-state",
    );
    refused(
        &["search", "--seed", "r", "--soups", "0", "--haul", h],
        "at least 1",
    );
    let nowhere = dir.join("missing-folder").join("haul.txt");
    refused(
        &[
            "search",
            "--seed",
            "r",
            "--soups",
            "10",
            "--haul",
            nowhere.to_str().unwrap(),
        ],
        "cannot write there",
    );
    refused(
        &[
            "search",
            "--seed",
            "r",
            "--soups",
            "10",
            "--haul",
            dir.to_str().unwrap(),
        ],
        "is a folder",
    );
    std::fs::remove_dir(&dir).unwrap();
}
