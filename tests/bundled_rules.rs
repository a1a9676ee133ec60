//! golab's bundled rules (rules/*.rule, written from their published definitions): each on
//! every strategy that runs rule tables, bit-identical to scalar on soups of its states, and
//! each behaving as its source says — Langton's ant's highway, the four-colour ant's
//! recurring symmetry, the billiard-ball model's free flight and right-angle collision,
//! Langton's loop copying itself in 151 generations; the loops against Golly's own tables,
//! the Evoloop's dissolving state.

mod common;

use common::*;
use golab::hashlife::{Hashed, Rect};
use golab::rule::Rule;
use golab::rule::table::library::BUNDLED;
use golab::rule::table::{RuleTable, intern};
use golab::step::Strategy;
use golab::world::{Topology, World};

#[test]
fn every_bundled_rule_runs_bit_identically_on_every_table_strategy() {
    for (k, (name, text)) in BUNDLED.iter().enumerate() {
        let table = RuleTable::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rule = Rule::from_rule_table(intern(table));
        for (topology, w, h) in [(Topology::Torus, 37, 29), (Topology::DeadBorder, 41, 23)] {
            let start = multi_soup(rule, w, h, topology, 40, k as u64 + 3);
            for strategy in [Strategy::Rayon, Strategy::GpuResident] {
                let what = format!("{strategy:?} {name} {topology:?}");
                assert_matches_scalar(factory_for(strategy), strategy, &start, 9, &what);
            }
        }
    }
}

/// The plane after `gens` generations of single steps from `cells`.
fn plane_after(rule: Rule, cells: &[(i128, i128, u8)], gens: u64) -> Hashed {
    let mut plane = Hashed::new(rule, 1 << 28).unwrap();
    plane.load_states(cells.iter().copied()).unwrap();
    advance(&mut plane, gens);
    plane
}

/// Advance `plane` by `gens` generations in power-of-two steps.
fn advance(plane: &mut Hashed, gens: u64) {
    for bit in (0..64).rev() {
        if gens >> bit & 1 == 1 {
            plane.step_pow2(bit).unwrap();
        }
    }
}

/// Every cell of the plane within `reach` of the origin.
fn around(plane: &Hashed, reach: i128) -> Vec<(i128, i128, u8)> {
    plane.states_in(Rect {
        x0: -reach,
        y0: -reach,
        x1: reach,
        y1: reach,
    })
}

/// The ant's cell and state (the one cell in a state past the colours).
fn ant(cells: &[(i128, i128, u8)], colours: u8) -> (i128, i128, u8) {
    let ants: Vec<_> = cells.iter().filter(|c| c.2 >= colours).collect();
    assert_eq!(ants.len(), 1, "one ant");
    *ants[0]
}

#[test]
fn langtons_ant_builds_its_highway_after_about_ten_thousand_steps() {
    // Langton (1986), and LifeWiki / Wikipedia: from an empty plane the ant wanders
    // chaotically for about 10 000 steps, then builds a "highway": a 104-step cycle that
    // moves it two cells diagonally and repeats the same cells behind it.
    let rule = Rule::parse("LangtonsAnt").unwrap();
    let start = [(0, 0, 2u8)]; // on white, facing north
    let repeats_after_104 = |t: u64| {
        let now = plane_after(rule, &start, t);
        let later = plane_after(rule, &start, t + 104);
        let (a, b) = (ant(&around(&now, 200), 2), ant(&around(&later, 200), 2));
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        // The 9×9 cells about the ant, as seen from the ant (the highway's own width).
        let window = |plane: &Hashed, (x, y, _): (i128, i128, u8)| {
            let mut cells: Vec<_> = plane
                .states_in(Rect {
                    x0: x - 4,
                    y0: y - 4,
                    x1: x + 4,
                    y1: y + 4,
                })
                .into_iter()
                .map(|(cx, cy, s)| (cx - x, cy - y, s))
                .collect();
            cells.sort();
            cells
        };
        dx.abs() == 2 && dy.abs() == 2 && a.2 == b.2 && window(&now, a) == window(&later, b)
    };
    assert!(!repeats_after_104(5_000), "still chaotic at 5 000 steps");
    assert!(
        repeats_after_104(10_500) && repeats_after_104(12_000),
        "a period-104 diagonal highway by 10 500 steps"
    );
    // Where it starts: the first t (to 50 steps) at which the cycle holds is "about
    // 10 000".
    let first = (9_000..10_500)
        .step_by(50)
        .find(|&t| repeats_after_104(t))
        .expect("the highway starts before 10 500 steps");
    assert!((9_500..=10_500).contains(&first), "highway from ~{first}");
}

/// Whether the coloured cells (not the ant) are mirror-symmetric about a vertical,
/// horizontal or diagonal axis.
fn mirror_symmetric(cells: &[(i128, i128, u8)], colours: u8) -> bool {
    let paint: Vec<_> = cells.iter().filter(|c| c.2 < colours).copied().collect();
    if paint.len() < 8 {
        return false;
    }
    let (x0, x1) = (
        paint.iter().map(|c| c.0).min().unwrap(),
        paint.iter().map(|c| c.0).max().unwrap(),
    );
    let (y0, y1) = (
        paint.iter().map(|c| c.1).min().unwrap(),
        paint.iter().map(|c| c.1).max().unwrap(),
    );
    let set: std::collections::HashSet<_> = paint.iter().copied().collect();
    let maps: [&dyn Fn(i128, i128) -> (i128, i128); 4] = [
        &|x, y| (x0 + x1 - x, y),
        &|x, y| (x, y0 + y1 - y),
        &|x, y| (y - y0 + x0, x - x0 + y0),
        &|x, y| (x1 - (y - y0), y1 - (x - x0)),
    ];
    maps.iter().any(|m| {
        paint.iter().all(|&(x, y, s)| {
            set.contains(&{
                let (a, b) = m(x, y);
                (a, b, s)
            })
        })
    })
}

#[test]
fn the_rllr_ant_becomes_symmetric_over_and_over() {
    // Gale, Propp et al. (1995), and Wikipedia's "Extension to multiple colors": the ant
    // RLLR is "one of the simplest examples" of ants whose patterns "become symmetric over
    // and over again".
    let rule = Rule::parse("Turmite-RLLR").unwrap();
    let mut plane = plane_after(rule, &[(0, 0, 4)], 0);
    let mut symmetric = Vec::new();
    for t in 1..=4_000u64 {
        advance(&mut plane, 1);
        if mirror_symmetric(&around(&plane, 300), 4) {
            symmetric.push(t);
        }
    }
    assert!(
        symmetric.iter().filter(|&&t| t > 2_000).count() >= 5,
        "symmetric again and again: {symmetric:?}"
    );
}

/// The balls of a billiard-ball world: cells in state 1 or 3.
fn balls(world: &World) -> Vec<(u32, u32)> {
    let w = world.width();
    (0..world.len())
        .filter(|&i| world.state_at(i) % 2 == 1)
        .map(|i| (i as u32 % w, i as u32 / w))
        .collect()
}

/// A `side × side` torus of the billiard-ball model with its blocks' top-left cells marked
/// (every cell at even x and y), and `balls` placed.
fn billiard_table(side: u32, at: &[(u32, u32)]) -> World {
    let rule = Rule::parse("BBM-Margolus").unwrap();
    let mut world = World::new(side, side, Topology::Torus, rule).unwrap();
    for y in (0..side).step_by(2) {
        for x in (0..side).step_by(2) {
            world.set_state(x, y, 2);
        }
    }
    for &(x, y) in at {
        let marked = x % 2 == 0 && y % 2 == 0;
        world.set_state(x, y, if marked { 3 } else { 1 });
    }
    world
}

#[test]
fn billiard_balls_fly_diagonally_and_turn_at_right_angles_when_they_collide() {
    // Margolus (1984): in each block a lone ball crosses to the opposite corner, so with
    // the partition alternating it flies straight on diagonally, a cell a generation.
    let one = billiard_table(40, &[(10, 10)]);
    assert_eq!(balls(&scalar_after(&one, 7)), vec![(17, 17)]);
    let back = billiard_table(40, &[(21, 21)]);
    assert_eq!(balls(&scalar_after(&back, 6)), vec![(15, 15)], "and back");
    // Fredkin and Toffoli's billiard balls: two balls meeting head on in a block leave it
    // along the other diagonal, at right angles to where they came from.
    let pair = billiard_table(40, &[(16, 16), (25, 25)]);
    let after = scalar_after(&pair, 10);
    assert_eq!(
        balls(&after),
        vec![(26, 15), (15, 26)],
        "deflected NE and SW"
    );
    let count = |w: &World, state: u16| (0..w.len()).filter(|&i| w.state_at(i) == state).count();
    let (marks, balls) = (
        |w: &World| count(w, 2) + count(w, 3),
        |w: &World| count(w, 1) + count(w, 3),
    );
    assert_eq!(
        (marks(&after), balls(&after)),
        (marks(&pair), balls(&pair)),
        "marks and balls are conserved"
    );
}

/// A bundled pattern's cells (the library's `langtons-loop` and `byls-loop`: each loop as its
/// paper starts it), as (x, y, state) for every non-zero cell.
fn library_cells(name: &str) -> Vec<(i128, i128, u8)> {
    let p = golab::pattern::library::find(name).unwrap();
    let ones = p.cells.iter().map(|&(x, y)| (x, y, 1));
    ones.chain(p.dying.iter().copied())
        .map(|(x, y, s)| (i128::from(x), i128::from(y), s))
        .collect()
}

fn langtons_loop() -> Vec<(i128, i128, u8)> {
    library_cells("langtons-loop")
}

fn byls_loop() -> Vec<(i128, i128, u8)> {
    library_cells("byls-loop")
}

/// `cells` as a multi-state RLE file under `rule` (Golly's letters: A is state 1).
fn multi_state_rle(cells: &[(i128, i128, u8)], rule: &str) -> std::path::PathBuf {
    let (w, h) = (
        cells.iter().map(|c| c.0).max().unwrap() + 1,
        cells.iter().map(|c| c.1).max().unwrap() + 1,
    );
    let mut body = String::new();
    for y in 0..h {
        for x in 0..w {
            body.push(match cells.iter().find(|c| (c.0, c.1) == (x, y)) {
                Some(c) => (b'A' + c.2 - 1) as char,
                None => '.',
            });
        }
        body.push(if y + 1 == h { '!' } else { '$' });
    }
    let path = std::env::temp_dir().join(format!("golab-{rule}-{}.rle", std::process::id()));
    std::fs::write(&path, format!("x = {w}, y = {h}, rule = {rule}\n{body}\n")).unwrap();
    path
}

#[test]
fn the_loops_grow_their_colonies_as_golly_runs_its_own_tables() {
    // Golly's own Langtons-Loops and Byl-Loop tables (Debian's golly package), from the
    // same start: every cell that is not background, generation by generation, as the
    // colonies grow to thousands of loops' worth of cells.
    // Sayama's Evoloop as his thesis tables it and Golly's Evoloop (from E. Bachmutsky's
    // program) differ on neighbourhoods beyond the table; the species-13 colony meets none
    // of them before generation 1 000 (rules/README.md).
    for (ours, golly, start, gens) in [
        (
            "LangtonsLoops",
            "Langtons-Loops",
            langtons_loop(),
            [151, 1_000, 2_000],
        ),
        ("BylsLoop", "Byl-Loop", byls_loop(), [25, 500, 1_000]),
        (
            "SayamasEvoloop",
            "Evoloop",
            library_cells("evoloop-species-13"),
            [100, 500, 1_000],
        ),
    ] {
        let file = multi_state_rle(&start, golly);
        for g in gens {
            let plane = plane_after(Rule::parse(ours).unwrap(), &start, g as u64);
            let theirs = bgolly_algo_population("RuleLoader", &file, g);
            assert_eq!(plane.occupied(), theirs, "{ours} at generation {g}");
        }
        let _ = std::fs::remove_file(file);
    }
}

/// The cells of `cells` 8-connected to each other, one group each.
fn groups(cells: &[(i128, i128, u8)]) -> Vec<Vec<(i128, i128, u8)>> {
    let mut left: Vec<_> = cells.to_vec();
    let mut out = Vec::new();
    while let Some(seed) = left.pop() {
        let mut group = vec![seed];
        let mut k = 0;
        while k < group.len() {
            let (x, y, _) = group[k];
            let (near, far): (Vec<_>, Vec<_>) = left
                .iter()
                .partition(|c| (c.0 - x).abs() <= 1 && (c.1 - y).abs() <= 1);
            group.extend(near);
            left = far;
            k += 1;
        }
        out.push(group);
    }
    out
}

/// `cells` moved to the origin, turned a quarter `turns` times, sorted.
fn normalised(cells: &[(i128, i128, u8)], turns: u32) -> Vec<(i128, i128, u8)> {
    let mut turned: Vec<_> = cells.to_vec();
    for _ in 0..turns {
        turned = turned.iter().map(|&(x, y, s)| (-y, x, s)).collect();
    }
    let (x0, y0) = (
        turned.iter().map(|c| c.0).min().unwrap(),
        turned.iter().map(|c| c.1).min().unwrap(),
    );
    let mut out: Vec<_> = turned
        .iter()
        .map(|&(x, y, s)| (x - x0, y - y0, s))
        .collect();
    out.sort_unstable();
    out
}

#[test]
fn langtons_loop_reproduces_in_151_generations() {
    // Langton (1984): the loop makes a copy of itself in 151 time steps. At generation 151
    // (and not the one before or after) a separate group of cells is the starting loop
    // exactly, every state in place, turned a quarter.
    let rule = Rule::parse("LangtonsLoops").unwrap();
    let start = normalised(&langtons_loop(), 0);
    let copies = |g: u64| {
        groups(&around(&plane_after(rule, &langtons_loop(), g), 100))
            .iter()
            .filter(|group| (0..4).any(|t| normalised(group, t) == start))
            .count()
    };
    assert_eq!(copies(151), 1, "the daughter loop at generation 151");
    assert_eq!(copies(150), 0);
    assert_eq!(copies(152), 0);
}

#[test]
fn the_evoloop_dissolves_structures_from_a_dissolving_cell() {
    // Sayama (1999): state 8 makes the loops "structurally dissolvable": it eats the
    // structure it touches, cell by cell, and leaves background. A straight tube (sheath 2
    // around core 1) with a dissolving cell at one end shrinks a column a generation from
    // that end and is gone; a lone core cell, in no structure, dissolves at once.
    let rule = Rule::parse("SayamasEvoloop").unwrap();
    let mut tube = vec![(0, 1, 8u8)];
    for x in 0..4 {
        tube.extend([(x, 0, 2u8), (x, 2, 2)]);
    }
    tube.extend((1..4).map(|x| (x, 1, 1u8)));
    let width = |g: u64| {
        let cells = around(&plane_after(rule, &tube, g), 10);
        let xs = cells.iter().map(|c| c.0);
        (
            xs.clone().max().unwrap_or(0) - xs.min().unwrap_or(0) + 1,
            cells,
        )
    };
    let mut last = 4;
    for g in 1..=3 {
        let (w, cells) = width(g);
        assert!(w <= last, "generation {g}: {cells:?}");
        assert!(
            cells.iter().any(|c| c.2 == 8),
            "generation {g}: still dissolving"
        );
        last = w;
    }
    assert!(last < 4, "the tube shrank");
    assert!(around(&plane_after(rule, &tube, 6), 10).is_empty());
    let lone = [(0, 0, 1u8)];
    let one = around(&plane_after(rule, &lone, 1), 5);
    assert!(one.contains(&(0, 0, 8)), "{one:?}");
    assert!(around(&plane_after(rule, &lone, 2), 5).is_empty());
}
