//! Rules with B0 on the unbounded plane, as Golly runs them (its QuickLife's emulation: two
//! alternating rules without B0, odd generations shown as the complement; B0 with S8 through
//! the complement rule): golab's populations equal Golly's at odd and even generations.
//!
//! In CI the oracle is Debian's Golly 3.3 (`bgolly -a QuickLife`) on B0 soups of golab's own
//! and the one B0 file of Golly's collection it ships; Golly 5's newer B0 files are checked
//! against the populations recorded from Golly 5's bgolly (tests/fixtures/
//! golly5-b0-populations.txt) where a Golly 5 Patterns folder is at hand (GOLLY5_PATTERNS).

mod common;

use common::{bgolly_algo_population, golab_run_json, need_tool};
use golab::rule::Rule;
use golab::world::Topology;

/// golab's population of `file` at `generation` (`golab run`, the way a user runs it).
fn golab_population(file: &std::path::Path, generation: u32) -> u128 {
    let gens = generation.to_string();
    let report = golab_run_json(&["--pattern", file.to_str().unwrap(), "--gens", &gens]);
    report["population"].as_u64().expect("a population") as u128
}

/// A soup of `rule` in a 24×24 box, written as an RLE without a bounded grid.
fn soup_file(dir: &std::path::Path, rule: &str, seed: u64) -> std::path::PathBuf {
    let rule: Rule = rule.parse().unwrap();
    let world = common::soup(24, 24, Topology::DeadBorder, rule, 40.0, seed);
    let pattern = golab::pattern::Pattern::from_world(&world);
    let path = dir.join(format!("b0-soup-{seed}.rle"));
    std::fs::write(&path, pattern.to_rle()).unwrap();
    path
}

#[test]
fn b0_soups_give_gollys_quicklife_populations_at_odd_and_even_generations() {
    need_tool("bgolly");
    let dir = std::env::temp_dir().join(format!("golab-b0-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Outer-totalistic without S8 (alternating), with S8 (the complement), isotropic
    // non-totalistic, and the two Life-Like files' rules.
    let rules = [
        "B0124/S025",
        "B013468/S023",
        "B0123478/S01234678",
        "B02ae3/S1c23",
        "B017/S01",
    ];
    for (k, rule) in rules.iter().enumerate() {
        let file = soup_file(&dir, rule, 40 + k as u64);
        for generation in [100, 101, 1000] {
            let theirs = bgolly_algo_population("QuickLife", &file, generation.into());
            let ours = golab_population(&file, generation);
            assert_eq!(ours, theirs, "{rule} at generation {generation}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gollys_p168_knightship_b013568_s01_flies_as_in_golly() {
    need_tool("bgolly");
    let file = std::path::Path::new("/usr/share/golly/Patterns/Life-Like/p168-knightship.rle");
    assert!(
        file.exists(),
        "Debian's golly package ships {}",
        file.display()
    );
    for generation in [100, 101, 1000] {
        let theirs = bgolly_algo_population("QuickLife", file, generation.into());
        assert_eq!(
            golab_population(file, generation),
            theirs,
            "generation {generation}"
        );
    }
}

/// The recorded references, `(file, generation, population)`.
fn golly5_references() -> Vec<(String, u32, u128)> {
    let text = include_str!("fixtures/golly5-b0-populations.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace();
            let file = f.next().unwrap().to_string();
            let generation = f.next().unwrap().parse().unwrap();
            let population = f.next().unwrap().parse().unwrap();
            (file, generation, population)
        })
        .collect()
}

#[test]
#[ignore = "the whole collection: needs Golly 5's Patterns folder (GOLLY5_PATTERNS), which CI lacks; scripts/test-full runs it"]
fn golly_5s_b0_files_give_its_recorded_populations() {
    let folder = std::env::var("GOLLY5_PATTERNS")
        .expect("GOLLY5_PATTERNS names a Golly 5 Patterns folder (a checkout of Golly's source)");
    let references = golly5_references();
    assert_eq!(references.len(), 21, "seven files at three generations");
    for (file, generation, population) in references {
        let path = std::path::Path::new(&folder).join(&file);
        assert_eq!(
            golab_population(&path, generation),
            population,
            "{file} at generation {generation}"
        );
    }
}
