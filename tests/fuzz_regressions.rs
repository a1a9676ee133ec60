//! Replays the fuzzers' minimised corpora (fuzz/corpus/<target>/) and every input that once
//! crashed a fuzz target (tests/fuzz_regressions/<target>-<what>) through the same checks the
//! fuzz targets run (fuzz/src/lib.rs): no panic, sound results, errors that point into the
//! text, and patterns that survive golab's writers. Runs on stable in `cargo test`;
//! docs/reliability.md says how the corpora were made.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod checks;

use std::path::{Path, PathBuf};

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

fn check(target: &str, data: &[u8], scratch: &Path) {
    match target {
        "rle" => checks::check_rle(data),
        "plaintext" => checks::check_plaintext(data),
        "pattern_any" => checks::check_any(data, scratch),
        "rule" => checks::check_rule(data),
        "life105" => checks::check_life105(data),
        "life106" => checks::check_life106(data),
        "macrocell" => checks::check_macrocell(data),
        "macrocell_tree" => checks::check_macrocell_tree(data),
        "apgcode" => checks::check_apgcode(data),
        "gzip" => checks::check_gzip(data),
        "rule_file" => checks::check_rule_file(data),
        other => panic!("no fuzz target named {other}"),
    }
}

/// Every fuzz target (fuzz/fuzz_targets/), each with a corpus in fuzz/corpus/<target>/.
const TARGETS: [&str; 11] = [
    "rle",
    "plaintext",
    "pattern_any",
    "rule",
    "life105",
    "life106",
    "macrocell",
    "macrocell_tree",
    "apgcode",
    "gzip",
    "rule_file",
];

fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("golab-fuzz-replay-{}.txt", std::process::id()))
}

#[test]
fn every_minimised_corpus_input_passes_its_targets_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let scratch = scratch();
    let mut replayed = 0;
    for target in TARGETS {
        let inputs = files(&root.join(target));
        assert!(!inputs.is_empty(), "the {target} corpus is empty");
        for path in inputs {
            let data = std::fs::read(&path).unwrap();
            check(target, &data, &scratch);
            replayed += 1;
        }
    }
    let _ = std::fs::remove_file(&scratch);
    assert!(replayed > 100, "only {replayed} corpus inputs");
}

#[test]
fn every_input_that_once_crashed_a_fuzz_target_now_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let scratch = scratch();
    let inputs = files(&dir);
    assert!(!inputs.is_empty());
    for path in inputs {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let target = TARGETS
            .into_iter()
            .find(|t| name.starts_with(&format!("{t}-")))
            .unwrap_or_else(|| panic!("{name}: name it <target>-<what>"));
        check(target, &std::fs::read(&path).unwrap(), &scratch);
    }
    let _ = std::fs::remove_file(&scratch);
}

#[test]
fn a_zero_run_count_is_an_error_at_its_position() {
    let e = golab::pattern::parse("x = 3, y = 2\n2o0$o!", None).unwrap_err();
    assert!(e.to_string().contains("run count of 0"), "{e}");
    assert!(e.to_string().contains("line 2, column 3"), "{e}");
}

#[test]
fn a_plaintext_comment_that_looks_like_a_tag_after_spaces_is_the_tag() {
    let p = golab::pattern::parse("!  Name: glider\n.O\n", None).unwrap();
    assert_eq!(p.name.as_deref(), Some("glider"));
    assert!(p.comments.is_empty());
    // A rule golab cannot read is skipped (Golly skips every '!' line), the warning at it.
    let w = golab::pattern::parse("! Rule: B9/S\nO\n", None)
        .unwrap()
        .warnings;
    assert!(w[0].starts_with("line 1, column 9:"), "{w:?}");
}

#[test]
fn a_comment_that_starts_like_a_tag_stays_a_comment_in_plaintext() {
    let rle = "#C Name: of the finder\n#C rule: not this one\nx = 1, y = 1\no!\n";
    let p = golab::pattern::parse(rle, None).unwrap();
    assert_eq!(p.name, None);
    let cells = p.to_format(golab::pattern::Format::Plaintext).unwrap();
    assert!(cells.starts_with("!Name:\n!Rule:\n"), "{cells}");
    let q = golab::pattern::parse(&cells, None).unwrap();
    assert_eq!((q.name, q.rule), (None, None));
    assert_eq!(q.comments, p.comments);
}
