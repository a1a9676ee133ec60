//! golab's bundled rules (rules/*.rule, written from their published definitions): each on
//! every strategy that runs rule tables, bit-identical to scalar on soups of its states, and
//! each behaving as its source says — Langton's ant's highway, the four-colour ant's
//! recurring symmetry, the billiard-ball model's free flight and right-angle collision.

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
