//! The hashed universe against a plain cell-set reference written here, published facts
//! (LifeWiki), a tiny memory limit and macrocell round trips.

use std::collections::HashSet;

use super::*;
use crate::pattern::macrocell::parse_tree;

type Cells = HashSet<(i128, i128)>;

/// One generation of `rule` on an unbounded plane, cell by cell through the table: the
/// apgcode classifier's sparse stepper, which shares no code with the quadtree.
fn reference_step(rule: &Rule, cells: &Cells) -> Cells {
    let small: HashSet<(i64, i64)> = cells.iter().map(|&(x, y)| (x as i64, y as i64)).collect();
    crate::pattern::apgcode_classify::step(&small, *rule)
        .into_iter()
        .map(|(x, y)| (i128::from(x), i128::from(y)))
        .collect()
}

fn soup(seed: u64, w: i128, h: i128, x0: i128, y0: i128) -> Cells {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Cells::new();
    for y in 0..h {
        for x in 0..w {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            if (s >> 40) & 1 == 0 {
                out.insert((x0 + x, y0 + y));
            }
        }
    }
    out
}

fn universe(rule: &str, cells: &Cells, limit: usize) -> HashUniverse {
    let mut u = HashUniverse::new(Rule::parse(rule).unwrap(), limit).unwrap();
    u.load_cells(cells.iter().copied()).unwrap();
    u
}

fn all_cells(u: &HashUniverse) -> Cells {
    match u.bounds() {
        Some(b) => u.cells_in(b).into_iter().collect(),
        None => Cells::new(),
    }
}

fn never() -> bool {
    false
}

#[test]
fn matches_the_reference_on_soups_of_every_family() {
    let mut rules: Vec<Rule> = [
        "B3/S23",
        "B36/S23",
        "B2-a/S12",
        "B2/S34H",
        "B2/S013V",
        "B3/S012345678",
    ]
    .iter()
    .map(|t| Rule::parse(t).unwrap())
    .collect();
    // Two random anisotropic tables (MAP rules), B0 cleared.
    for seed in [7u64, 8] {
        let mut s = seed;
        let mut table = [0u64; 8];
        for w in &mut table {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *w = s ^ (s >> 29);
        }
        table[0] &= !1;
        rules.push(Rule::from_table(
            crate::rule::Family::TwoState,
            crate::rule::Neighbourhood::Moore,
            crate::rule::Notation::Map,
            2,
            table,
        ));
    }
    for (k, rule) in rules.into_iter().enumerate() {
        let rule_text = rule.canonical();
        let mut cells = soup(k as u64 + 3, 23, 17, -11, -5);
        let mut u = HashUniverse::new(rule, 64 << 20).unwrap();
        u.load_cells(cells.iter().copied()).unwrap();
        // Single generations, then strides of 1..=6 through `advance`.
        for stride in [1u128, 1, 2, 3, 5, 6, 4, 1, 7] {
            for _ in 0..stride {
                cells = reference_step(&rule, &cells);
            }
            u.advance(stride, &never).unwrap();
            assert_eq!(all_cells(&u), cells, "{rule_text} at {}", u.generation());
            assert_eq!(u.population(), cells.len() as u128);
        }
    }
}

#[test]
fn big_steps_equal_many_small_ones() {
    let start = soup(11, 40, 40, 3, -20);
    let mut a = universe("B3/S23", &start, 64 << 20);
    let mut b = universe("B3/S23", &start, 64 << 20);
    a.step_pow2(9).unwrap();
    for _ in 0..(1 << 9) {
        b.step_pow2(0).unwrap();
    }
    assert_eq!(a.generation(), 512);
    assert_eq!(all_cells(&a), all_cells(&b));
    // An arbitrary count mixes exponents.
    a.advance(1000, &never).unwrap();
    b.advance(488, &never).unwrap();
    b.advance(512, &never).unwrap();
    assert_eq!(all_cells(&a), all_cells(&b));
}

/// A glider moves one cell diagonally every 4 generations (LifeWiki, "Glider").
#[test]
fn a_glider_travels_2_to_the_38_cells_in_2_to_the_40_generations() {
    let glider: Cells = [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)].into();
    let mut u = universe("B3/S23", &glider, 64 << 20);
    u.step_pow2(40).unwrap();
    assert_eq!(u.generation(), 1 << 40);
    assert_eq!(u.population(), 5);
    let d = 1i128 << 38;
    let moved: Cells = glider.iter().map(|&(x, y)| (x + d, y + d)).collect();
    assert_eq!(all_cells(&u), moved);
}

/// The R-pentomino stabilises at generation 1103 with 116 cells, six gliders among them
/// (LifeWiki, "R-pentomino"); the gliders fly on, so the count stays 116 for ever.
#[test]
fn the_r_pentomino_settles_at_116_cells() {
    let r: Cells = [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)].into();
    let mut u = universe("B3/S23", &r, 64 << 20);
    u.advance(1103, &never).unwrap();
    assert_eq!(u.population(), 116);
    u.advance((1 << 62) - 1103, &never).unwrap();
    assert_eq!(u.generation(), 1 << 62);
    assert_eq!(u.population(), 116);
    let b = u.bounds().unwrap();
    assert!(b.width() > 1 << 59, "the gliders have flown: {b:?}");
}

/// Under a limit of a few thousand nodes the collector runs many times and every result
/// stays exact (acorn: 633 cells from generation 5206 on, LifeWiki "Acorn").
#[test]
fn a_tiny_memory_limit_collects_and_changes_nothing() {
    let acorn: Cells = [(1, 0), (3, 1), (0, 2), (1, 2), (4, 2), (5, 2), (6, 2)].into();
    let mut big = universe("B3/S23", &acorn, 256 << 20);
    let mut tiny = universe("B3/S23", &acorn, 0);
    for n in [1u128, 100, 1000, 5206, 10_000] {
        let target = n - big.generation();
        big.advance(target, &never).unwrap();
        tiny.advance(target, &never).unwrap();
        assert_eq!(all_cells(&big), all_cells(&tiny), "generation {n}");
    }
    assert_eq!(tiny.population(), 633);
    assert!(tiny.memory().collections > 0, "{:?}", tiny.memory());
    assert_eq!(big.memory().collections, 0);
}

#[test]
fn cells_set_and_read_anywhere() {
    let mut u = HashUniverse::new(Rule::CONWAY, 64 << 20).unwrap();
    let far = 1i128 << 70;
    for (x, y) in [(0, 0), (-1, -1), (far, -far), (-far, 3)] {
        assert!(!u.get(x, y));
        u.set(x, y, true).unwrap();
        assert!(u.get(x, y));
    }
    assert_eq!(u.population(), 4);
    let b = u.bounds().unwrap();
    assert_eq!((b.x0, b.y0, b.x1, b.y1), (-far, -far, far, 3));
    u.set(far, -far, false).unwrap();
    assert_eq!(u.population(), 3);
    assert_eq!(u.bounds().unwrap().x1, 0);
}

#[test]
fn macrocell_round_trips_through_the_tree() {
    let cells = soup(5, 70, 33, -40, 9);
    let mut u = universe("B36/S23", &cells, 64 << 20);
    u.set_generation(12345);
    let text = u.to_macrocell(&["a soup".into()]);
    let (meta, nodes) = parse_tree(&text).unwrap();
    assert_eq!(meta.rule.unwrap().canonical(), "B36/S23");
    assert_eq!(meta.generation, Some(12345));
    let mut back = HashUniverse::new(meta.rule.unwrap(), 64 << 20).unwrap();
    back.load_macrocell(&nodes).unwrap();
    assert_eq!(all_cells(&back), cells);
    // The pattern module's own reader places the cells where the tree does.
    let pattern = crate::pattern::parse(&text, None).unwrap();
    let (px, py) = pattern.position.unwrap();
    let expanded: Cells = pattern
        .cells
        .iter()
        .map(|&(x, y)| {
            (
                i128::from(px) + i128::from(x),
                i128::from(py) + i128::from(y),
            )
        })
        .collect();
    assert_eq!(expanded, cells);
}

#[test]
fn the_two_state_engine_refuses_generations_with_the_reason_and_runs_b0() {
    let err = HashUniverse::new(Rule::parse("/2/3").unwrap(), 1 << 20)
        .err()
        .unwrap();
    assert!(err.to_string().contains("Generations"), "{err}");
    // B0 runs, emulated as Golly runs it (tests/b0.rs checks it against bgolly).
    assert!(HashUniverse::new(Rule::parse("B03/S23").unwrap(), 1 << 20).is_ok());
}

/// A full level-64 tree (the largest a macrocell file may name) holds 2^128 cells: the count
/// saturates instead of wrapping, and the edges are exact.
#[test]
fn a_full_level_64_tree_saturates_its_count_and_keeps_its_edges() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fuzz_regressions/macrocell_tree-full-level-64.mc"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let (_, nodes) = parse_tree(&text).unwrap();
    let mut u = HashUniverse::new(Rule::CONWAY, 64 << 20).unwrap();
    u.load_macrocell(&nodes).unwrap();
    assert_eq!(u.population(), u128::MAX);
    let b = u.bounds().unwrap();
    let half = 1i128 << 63;
    assert_eq!((b.x0, b.y0, b.x1, b.y1), (-half, -half, half - 1, half - 1));
    // One generation of a full square under B3/S23: the inside dies (8 or 5 neighbours), the
    // four corners stay (3), and a row is born outside each side but its two end cells (3).
    u.step_pow2(0).unwrap();
    assert_eq!(u.population(), 4 * ((1u128 << 64) - 2) + 4);
}

/// A store whose live nodes exceed its limit grows past it instead of collecting on every
/// allocation (each collection walks the whole store).
#[test]
fn a_store_fuller_than_its_limit_does_not_collect_on_every_allocation() {
    let cells = soup(9, 1000, 1000, -500, -500);
    let u = universe("B3/S23", &cells, 0);
    let memory = u.memory();
    assert!(memory.nodes > 20_000, "{memory:?}");
    assert!(memory.collections < 20, "{memory:?}");
    assert_eq!(u.population(), cells.len() as u128);
}
