//! Larger than Life on every strategy that runs it (scalar, rayon, gpu-resident) against a
//! naive counter written here, on random rules, ranges (1, 2, 7, 30 and one past 128, where
//! 16-bit running sums would overflow), neighbourhoods, state counts, awkward sizes and
//! both topologies; the growing grid against a bounded one; published behaviour (Golly's
//! pattern notes, Golly's help); refusals; Golly itself (bgolly's Larger than Life) on a
//! fixed sample of its own files — `scripts/golly-oracle` runs the whole folder.

mod common;

use common::*;
use golab::rule::Rule;
use golab::rule::ltl::count::{States, step_naive};
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};
use golab::world::{CellEdit, Topology, World};
use proptest::prelude::*;

/// `world` after `gens` generations of the naive counter (states only).
fn naive_after(world: &World, gens: u64) -> Vec<u8> {
    let ltl = world.rule().ltl().expect("a Larger than Life rule");
    let mut cells = world.states();
    for g in 0..gens {
        let s = States {
            cells: &cells,
            width: world.width() as usize,
            height: world.height() as usize,
            torus: world.topology == Topology::Torus,
            parity: 0,
        };
        cells = step_naive(&ltl, &s, (world.generation + g) % 2 == 1);
    }
    cells
}

/// A random Larger than Life rule of range `r` over `letter`'s neighbourhood, C `states`.
fn random_rule(seed: u64, r: i32, letter: char, states: u16) -> Rule {
    let mut x = seed | 1;
    let mut next = move |n: i32| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as i32
    };
    let probe: Rule = format!("R{r},C0,S1,B1,N{letter}").parse().unwrap();
    let max = probe.ltl().unwrap().neighbourhood.max_count(r);
    // Limits around a third of the neighbourhood keep soups alive without filling them.
    let around = |next: &mut dyn FnMut(i32) -> i32| {
        let lo = 1 + next(max / 3 + 1);
        (lo, (lo + next(max / 3 + 1)).min(max))
    };
    let (s1, s2) = around(&mut next);
    let (b1, b2) = around(&mut next);
    let c = if states > 2 { states } else { 0 };
    let text = if next(2) == 0 {
        format!("R{r},C{c},M{},S{s1}..{s2},B{b1}..{b2},N{letter}", next(2))
    } else {
        format!("R{r},C{c},S{s1}-{s2},{},B{b1}-{b2},N{letter}", s2 / 2)
    };
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn scalar_is_the_naive_counter() {
    let letters = [
        'M', 'N', 'C', '2', '+', 'X', '*', '#', 'B', 'D', 'H', 'A', '3', 'G', 'L',
    ];
    for (i, (r, w, h)) in [(1, 19, 13), (2, 23, 17), (7, 37, 29), (30, 67, 61)]
        .into_iter()
        .enumerate()
    {
        for (j, &letter) in letters.iter().enumerate() {
            if matches!(letter, 'G' | 'L') && r > 7 {
                continue; // Gaussian weights: (2r+1)² reads a cell naively; L reaches 2r
            }
            let c = [2, 3, 5][j % 3];
            let rule = random_rule((i * 31 + j) as u64 + 7, r, letter, c);
            for topology in [Topology::Torus, Topology::DeadBorder] {
                let start = soup_of(rule, w, h, topology, (i + j) as u64);
                let gens = if r >= 30 { 2 } else { 4 };
                let after = scalar_after(&start, gens);
                assert!(
                    after.states() == naive_after(&start, gens),
                    "{rule} {topology:?} {w}x{h}"
                );
            }
        }
    }
}

/// A `w × h` soup of `rule` (decay states too when C > 2).
fn soup_of(rule: Rule, w: u32, h: u32, topology: Topology, seed: u64) -> World {
    let mut world = World::new(w, h, topology, rule).unwrap();
    world.fill_random(35.0, seed).unwrap();
    world
}

#[test]
fn rayon_and_gpu_resident_match_scalar() {
    let cases = [
        (1, 'M', 2, 31u32, 17u32),
        (2, 'N', 4, 29, 23),
        (5, 'M', 2, 67, 45),
        (7, 'C', 3, 53, 41),
        (3, 'X', 2, 40, 33),
        (2, 'G', 3, 21, 19),
        (50, 'G', 3, 113, 107),
        (30, 'M', 5, 97, 71),
        (30, 'N', 3, 101, 67),
        (70, 'N', 2, 151, 143),
        (2, 'M', 2, 4_001, 9),
    ];
    for (k, (r, letter, states, w, h)) in cases.into_iter().enumerate() {
        let rule = random_rule(k as u64 * 97 + 3, r, letter, states);
        for topology in [Topology::Torus, Topology::DeadBorder] {
            let start = soup_of(rule, w, h, topology, k as u64 + 11);
            for strategy in [Strategy::Rayon, Strategy::GpuResident] {
                assert_matches_scalar(
                    factory_for(strategy),
                    strategy,
                    &start,
                    12,
                    &format!("{strategy:?} {rule} {topology:?} {w}x{h}"),
                );
            }
        }
    }
}

#[test]
fn triangular_grids_match_the_naive_counter_on_every_strategy() {
    // Golly's triangular grid: cells with x + y odd count their neighbourhood upside down —
    // the NL triangle and the L suffix of custom and weighted neighbourhoods.
    for (k, (text, w, h)) in [
        ("R3,C0,S8-20,B9-14,NL", 37, 29),
        ("R2,C4,S5-14,B6-9,NL", 31, 27),
        ("R2,C0,S2-5,B3-4,N@96a4e1L", 29, 23),
        ("R1,C3,S2-9,B3-5,NW1234f1323,012L", 25, 21),
    ]
    .into_iter()
    .enumerate()
    {
        let rule: Rule = text.parse().unwrap();
        assert!(
            rule.to_string().eq_ignore_ascii_case(text),
            "{rule} printed back with its grid suffix"
        );
        for topology in [Topology::Torus, Topology::DeadBorder] {
            let start = soup_of(rule, w, h, topology, k as u64 + 5);
            assert!(
                scalar_after(&start, 4).states() == naive_after(&start, 4),
                "{text} {topology:?}"
            );
            for strategy in [Strategy::Rayon, Strategy::GpuResident] {
                let what = format!("{strategy:?} {text} {topology:?}");
                assert_matches_scalar(factory_for(strategy), strategy, &start, 8, &what);
            }
        }
        // A small patch at an odd position of a larger dead-border grid: scalar steps only
        // the window around it, whose first cell's parity it must keep.
        let mut patch = World::new(71, 64, Topology::DeadBorder, rule).unwrap();
        let seed = soup_of(rule, 9, 7, Topology::DeadBorder, k as u64);
        for y in 0..7 {
            for x in 0..9 {
                if seed.is_alive(x, y) {
                    patch.apply_edit(CellEdit {
                        x: x + 30,
                        y: y + 27,
                        alive: true,
                    });
                }
            }
        }
        assert!(
            scalar_after(&patch, 6).states() == naive_after(&patch, 6),
            "{text}: a patch at an odd position"
        );
    }
}

#[test]
fn moore_runs_at_large_range_start_from_block_sums() {
    // At 64 ≤ r ≤ 128 gpu-resident sums each column's windows by blocks (20 rows at r = 80)
    // and starts each count run of one block from 2r / 20 block sums and one window, when
    // enough runs of r rows would be in flight (here 4096 columns × 32): interior runs take
    // the blocks, the first and last ones the full start; both must stay exact.
    let rule = random_rule(41, 80, 'M', 2);
    for topology in [Topology::Torus, Topology::DeadBorder] {
        let start = soup_of(rule, 4096, 2560, topology, 3);
        assert_matches_scalar(
            factory_for(Strategy::GpuResident),
            Strategy::GpuResident,
            &start,
            2,
            &format!("gpu-resident {rule} {topology:?} 4096x2560"),
        );
    }
}

#[test]
fn counts_past_sixteen_bits_stay_exact() {
    // Range 130: a Moore window holds 261² = 68 121 cells; on a dense soup counts pass
    // 65 535, where 16-bit running sums would wrap. (Scalar's sums are the naive counter's
    // at every smaller range above; here the strategies are held to scalar.)
    let rule: Rule = "R130,C0,M1,S66420..68121,B65000..66400,NM".parse().unwrap();
    let mut start = World::new(300, 290, Topology::Torus, rule).unwrap();
    start.fill_random(97.5, 5).unwrap();
    let one = scalar_after(&start, 1);
    assert!(
        one.population() > 0 && one.population() < one.len() as u64,
        "survivals and deaths past 65 535: {} of {}",
        one.population(),
        start.population()
    );
    for strategy in [Strategy::Rayon, Strategy::GpuResident] {
        assert_matches_scalar(factory_for(strategy), strategy, &start, 3, "R130");
    }
}

#[test]
fn the_diamond_counts_exactly_at_the_edge_of_its_byte_sums() {
    // Byte sums and four columns a count thread up to r = 127, 16-bit sums and a column a
    // thread from r = 128: each at its edge, on worlds wider than the diamond and rules
    // whose limits straddle a 35 % soup's counts, so that hundreds of cells are born,
    // survive and die and a count off by one lane or a few cells changes the world.
    for (r, w, h) in [(127, 263, 259), (128, 257, 269)] {
        // A 35 % soup's counts lie about its mean, a standard deviation either side: half
        // a deviation below the mean to one above survives, the mean to one above is born.
        let max = 2 * r * (r + 1);
        let mean = max * 35 / 100;
        let sd = (f64::from(max) * 0.35 * 0.65).sqrt() as i32;
        let text = format!(
            "R{r},C0,M0,S{}..{},B{}..{},NN",
            mean - sd / 2,
            mean + sd,
            mean,
            mean + sd
        );
        let rule: Rule = text.parse().unwrap();
        for topology in [Topology::Torus, Topology::DeadBorder] {
            let start = soup_of(rule, w, h, topology, r as u64);
            let one = scalar_after(&start, 1);
            let changed = |from: u8, to: u8| {
                start
                    .states()
                    .iter()
                    .zip(one.states())
                    .filter(|(a, b)| **a == from && *b == to)
                    .count()
            };
            let (births, deaths) = (changed(0, 1), changed(1, 0));
            assert!(
                births > 100 && deaths > 100,
                "{text} {topology:?}: {births} births, {deaths} deaths"
            );
            // One generation: the next soup's counts lie outside the limits and it dies.
            assert_matches_scalar(
                factory_for(Strategy::GpuResident),
                Strategy::GpuResident,
                &start,
                1,
                &format!("{text} {topology:?}"),
            );
        }
    }
}

#[test]
fn diamond_sums_stay_exact_on_full_runs() {
    // gpu-resident keeps the diamond's diagonal sums modulo 256 up to r = 127 and in 16
    // bits beyond: on a full world every diagonal run is full, the largest counts they give.
    for r in [127, 128] {
        let max = 2 * r * (r + 1);
        let rule: Rule = format!("R{r},C0,M0,S{max}..{max},B1..1,NN")
            .parse()
            .unwrap();
        full_world_matches_scalar(rule, 40, 37, "every run full");
    }
}

/// A `w × h` torus of `rule` with every cell alive, whose survival needs every neighbour
/// counted (scalar keeps it full), stepped by gpu-resident as by scalar: the largest counts
/// the diamond's sums give.
fn full_world_matches_scalar(rule: Rule, w: u32, h: u32, what: &str) {
    let mut start = World::new(w, h, Topology::Torus, rule).unwrap();
    start.fill_random(100.0, 1).unwrap();
    assert_eq!(
        scalar_after(&start, 1).population(),
        u64::from(w * h),
        "{rule}"
    );
    assert_matches_scalar(
        factory_for(Strategy::GpuResident),
        Strategy::GpuResident,
        &start,
        2,
        &format!("{rule}, {what}"),
    );
}

#[test]
fn the_small_diamond_counts_exactly_on_awkward_sizes() {
    // gpu-resident's diamond at small ranges (byte diagonal sums, four columns a count
    // thread) on worlds of many workgroups with ragged edges, smaller than the diamond (the
    // torus wraps it several times), both topologies, two and more states; and r = 10 on a
    // full world, every diamond full. (These also held a one-pass tile count, since removed:
    // docs/experiments/ltl-diamond.md.)
    let cases = [
        (1, 2, 300u32, 150u32),
        (5, 2, 259, 131),
        (5, 4, 129, 65),
        (7, 3, 17, 9),
        (5, 3, 1_000, 40),
        (10, 2, 520, 70),
        (10, 5, 257, 129),
    ];
    for (k, (r, states, w, h)) in cases.into_iter().enumerate() {
        let rule = random_rule(k as u64 * 31 + 5, r, 'N', states);
        for topology in [Topology::Torus, Topology::DeadBorder] {
            let start = soup_of(rule, w, h, topology, k as u64 + 3);
            let end = scalar_after(&start, 6);
            assert!(
                end.population() > 0 && end.population() != start.population(),
                "{rule} {topology:?} {w}x{h}: a soup that dies or stands still says little"
            );
            assert_matches_scalar(
                factory_for(Strategy::GpuResident),
                Strategy::GpuResident,
                &start,
                6,
                &format!("{rule} {topology:?} {w}x{h}"),
            );
        }
    }
    let max = 2 * 10 * 11;
    let rule: Rule = format!("R10,C0,M1,S{}..{},B1..1,NN", max + 1, max + 1)
        .parse()
        .unwrap();
    full_world_matches_scalar(rule, 150, 80, "every diamond full");
}

#[test]
fn the_diamond_sees_edits_and_loads_between_generations() {
    // gpu-resident's small diamond carries a byte mask of state-1 cells from one generation
    // to the next (written by the count); an edit or a load must make it afresh, or the
    // next generation counts the cells from before. Edits between steps, states set in
    // place, then a switch away and back (a load), against scalar doing the same.
    // r = 5: bands of 8 rows, both diagonals a thread; r = 20: 32 rows, one direction a
    // thread.
    for (k, (rule, topology)) in [
        ("R5,C0,M1,S12..29,B13..22,NN", Topology::Torus),
        ("R5,C4,M1,S12..29,B13..22,NN", Topology::DeadBorder),
        ("R20,C0,M1,S100..500,B120..250,NN", Topology::Torus),
    ]
    .into_iter()
    .enumerate()
    {
        let rule: Rule = rule.parse().unwrap();
        let start = soup_of(rule, 97, 61, topology, k as u64 + 5);
        let edits: Vec<CellEdit> = (0..400u32)
            .map(|i| CellEdit {
                x: (i * 37) % 97,
                y: (i * 11 + i / 7) % 61,
                alive: i % 3 != 0,
            })
            .collect();
        let run = |strategy: Strategy| {
            let mut sim = Simulation::new(factory_for(strategy), start.clone(), strategy).unwrap();
            sim.step(3).unwrap();
            sim.edit(&edits[..200]).unwrap();
            sim.step(2).unwrap();
            sim.edit(&edits[200..]).unwrap();
            sim.step(1).unwrap();
            let block: Vec<(u32, u32)> = (40..46)
                .flat_map(|x| (20..26).map(move |y| (x, y)))
                .collect();
            sim.set_states(&block, 1).unwrap();
            sim.step(1).unwrap();
            sim.switch(Strategy::Scalar).unwrap();
            sim.step(1).unwrap();
            sim.switch(strategy).unwrap();
            sim.step(3).unwrap();
            sim.world().unwrap().clone()
        };
        let expected = run(Strategy::Scalar);
        assert!(expected.population() > 0, "{rule}: the soup lives");
        assert_same_world(&expected, &run(Strategy::GpuResident), &format!("{rule}"));
    }
}

#[test]
fn b0_rules_alternate_as_golly_emulates_them() {
    // B0 without Smax: two rules alternate; with Smax, one complemented rule.
    for text in [
        "R2,C0,S3-9,B0-4,NM",
        "R1,C0,M1,S5..9,B0..3,NM",
        "R2,C0,S12,B0-3,NN",
    ] {
        let rule: Rule = text.parse().unwrap();
        let start = soup_of(rule, 31, 27, Topology::Torus, 3);
        assert!(
            scalar_after(&start, 5).states() == naive_after(&start, 5),
            "{text}"
        );
        let empty = World::new(20, 20, Topology::Torus, rule).unwrap();
        assert_eq!(
            scalar_after(&empty, 3).population(),
            0,
            "{text}: empty stays empty"
        );
        assert_matches_scalar(
            factory_for(Strategy::GpuResident),
            Strategy::GpuResident,
            &start,
            7,
            text,
        );
    }
}

/// The world of a Golly pattern file, opened as `golab run` opens it.
fn golly_pattern(name: &str) -> World {
    let path = format!("/usr/share/golly/Patterns/Larger-than-Life/{name}");
    need_tool("bgolly"); // the golly package brings the patterns
    let pattern = golab::pattern::resolve(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rule = pattern.rule.unwrap();
    match pattern.grid {
        Some(grid) => {
            let mut world = World::new(grid.width, grid.height, grid.topology, rule).unwrap();
            pattern.place(&mut world, golab::pattern::Placement::Centred);
            world
        }
        None => golab::sim::growth::world_for(&pattern, rule).unwrap().0,
    }
}

/// The live cells of `world` as coordinates relative to their bounding box's corner, and
/// that corner in Golly's plane coordinates ([`World::plane_origin`]).
fn shape(world: &World) -> (Vec<(i64, i64)>, (i64, i64)) {
    let w = world.width() as i64;
    let (ox, oy) = world.plane_origin();
    let cells: Vec<(i64, i64)> = (0..world.len())
        .filter(|&i| world.ages()[i] > 0)
        .map(|i| (i as i64 % w + ox, i as i64 / w + oy))
        .collect();
    let x0 = cells.iter().map(|c| c.0).min().unwrap();
    let y0 = cells.iter().map(|c| c.1).min().unwrap();
    let rel = cells.iter().map(|&(x, y)| (x - x0, y - y0)).collect();
    (rel, (x0, y0))
}

/// Step a growing world on `strategy` and return it.
fn grown(start: World, gens: u64, strategy: Strategy) -> World {
    let mut sim = Simulation::new(StepperFactory::cpu_only(), start, strategy).unwrap();
    sim.step(gens).unwrap();
    sim.world().unwrap().clone()
}

#[test]
fn published_objects_keep_their_periods_and_speeds() {
    // Golly's Bosco.mcl (David Griffeath's note): "a period 166 oscillator" of Bosco's rule.
    // (The file's stray cell 31 rows below dies at once: generation 1 is the oscillator.)
    let bosco = scalar_after(&golly_pattern("Bosco.mcl"), 1);
    let (cells, corner) = shape(&bosco);
    let at = |g: u64| shape(&scalar_after(&bosco, g));
    assert!(
        at(166) == (cells.clone(), corner),
        "Bosco returns after 166 generations"
    );
    assert!(at(83).0 != cells, "and not after half of that");
    // Golly's Jitterbug.rle (Dean Hickerson): "Its speed is 4/40" east, range 4.
    let bug = golly_pattern("Jitterbug.rle");
    assert!(
        bug.grows,
        "a file without a bounded grid opens in a growing grid"
    );
    let (cells, (x0, y0)) = shape(&bug);
    let later = grown(bug, 40, Strategy::Rayon);
    let (moved, (x1, y1)) = shape(&later);
    assert!(moved == cells, "the jitterbug's shape after 40 generations");
    assert_eq!(
        ((x1 - x0).abs(), y1 - y0),
        (4, 0),
        "4 cells in 40 generations"
    );
    // Golly's R100-NN-bug.rle: an orthogonal bug, "speed = 85c/10", von Neumann range 100
    // (the file's phase settles within 5 generations).
    let nn = grown(golly_pattern("R100-NN-bug.rle"), 5, Strategy::Rayon);
    let (cells, (x0, y0)) = shape(&nn);
    let later = grown(nn, 10, Strategy::Rayon);
    let (moved, (x1, y1)) = shape(&later);
    assert!(
        moved == cells,
        "the von Neumann bug's shape after 10 generations"
    );
    assert_eq!(
        (x1 - x0).abs() + (y1 - y0).abs(),
        85,
        "85 cells in 10 generations"
    );
}

#[test]
fn the_growing_grid_follows_a_spaceship() {
    // Golly's R100-NN-bug.rle (85c/10, von Neumann range 100) run 300 generations: 2550
    // cells, far beyond its first grid. The grid follows it as Golly's does (room ahead,
    // one margin behind) instead of growing about its centre to twice the distance.
    let nn = grown(golly_pattern("R100-NN-bug.rle"), 5, Strategy::Rayon);
    let (cells, (x0, y0)) = shape(&nn);
    let (w0, h0) = (nn.width(), nn.height());
    let later = grown(nn, 300, Strategy::Rayon);
    let (moved, (x1, y1)) = shape(&later);
    assert!(moved == cells, "the bug's shape after 300 generations");
    assert_eq!((x1 - x0).abs() + (y1 - y0).abs(), 2550, "85 cells every 10");
    let longest = w0.max(h0);
    assert!(
        later.width().max(later.height()) <= 2 * longest + 8,
        "{}x{} from {w0}x{h0}: the grid followed the ship instead of growing after it",
        later.width(),
        later.height()
    );
    // Saved as Golly saves its unbounded universe (no grid, the plane position) and
    // reopened: the same cells at the same plane coordinates.
    let saved = golab::pattern::Pattern::of_world(&later);
    assert!(saved.grid.is_none(), "no bounded-grid suffix");
    let text = saved.to_rle();
    let back = golab::pattern::parse(&text, None).unwrap();
    let reopened = golab::sim::growth::world_for(&back, later.rule())
        .unwrap()
        .0;
    assert!(shape(&reopened) == shape(&later), "reopened where it was");
}

#[test]
fn range_one_neighbourhoods_are_the_three_by_three_rules() {
    // Golly's help: R1,C0,M0,S2..3,B3..3,NM is Life; at range 1 the cross, the Euclidean
    // disc and the checkerboard are von Neumann's cells, the circle, star and hash Moore's.
    for (ltl, same) in [
        ("R1,C0,M0,S2..3,B3..3,NM", "B3/S23"),
        ("R1,C0,S1-2,B1,NN", "B1/S12V"),
        ("R1,C0,S1-2,B1,N+", "B1/S12V"),
        ("R1,C0,S1-2,B1,N2", "B1/S12V"),
        ("R1,C0,S1-2,B1,NB", "B1/S12V"),
        ("R1,C0,S2-3,B3,NC", "B3/S23"),
        ("R1,C0,S2-3,B3,N*", "B3/S23"),
        ("R1,C0,S2-3,B3,N#", "B3/S23"),
        ("R1,C0,S2,B2,NH", "B2/S2H"),
        ("R1,C4,S3-4,B2,NM", "34/2/4"),
    ] {
        let a: Rule = ltl.parse().unwrap();
        let b: Rule = same.parse().unwrap();
        let start = soup_of(a, 33, 29, Topology::Torus, 9);
        let mut other = start.clone();
        other.set_rule(b).unwrap();
        assert!(
            scalar_after(&start, 6).states() == scalar_after(&other, 6).states(),
            "{ltl} runs as {same}"
        );
    }
}

#[test]
fn the_growing_grid_runs_as_a_large_bounded_one() {
    let bug = golly_pattern("Butterfly.rle");
    let (w0, h0) = (bug.width(), bug.height());
    let grownw = grown(bug.clone(), 260, Strategy::Scalar);
    assert!(grownw.width() > w0 || grownw.height() > h0, "the grid grew");
    let big = bug.resized(1001, 1001).unwrap();
    let mut bounded = big.clone();
    bounded.grows = false;
    let far = scalar_after(&bounded, 260);
    assert!(
        shape(&grownw) == shape(&far),
        "same cells at the same plane coordinates"
    );
    // Edits and the torus end growth: a torus of the grown size is a bounded grid.
    let mut sim = Simulation::new(StepperFactory::cpu_only(), bug, Strategy::Rayon).unwrap();
    sim.edit(&[CellEdit {
        x: 1,
        y: 1,
        alive: true,
    }])
    .unwrap();
    sim.set_topology(Topology::Torus).unwrap();
    assert!(!sim.grows());
}

#[test]
fn strategies_without_range_counts_refuse_with_the_reason() {
    let rule: Rule = "R5,C0,M1,S34..58,B34..45,NM".parse().unwrap();
    let world = soup_of(rule, 40, 40, Topology::Torus, 1);
    for strategy in [
        Strategy::CpuBitsliced,
        Strategy::Hashlife,
        Strategy::GpuBitpacked,
        Strategy::GpuNaive,
    ] {
        let why = strategy.supports(&rule).unwrap_err();
        assert!(why.contains("range"), "{strategy:?}: {why}");
        assert!(Simulation::new(factory_for(strategy), world.clone(), strategy).is_err());
    }
    let plane = golab::hashlife::Hashed::new(rule, 1 << 24);
    assert!(plane.is_err_and(|e| e.to_string().contains("Larger than Life")));
    let error = "R5,C0,M1,S34..58,B34..45,NQ"
        .parse::<Rule>()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("column 27") && error.contains("neighbourhood"),
        "{error}"
    );
}

#[test]
fn bgolly_gives_the_same_populations_on_a_sample_of_its_files() {
    // A fixed sample: bounded torus and plane, MCell boards, decay states, a growing grid.
    for (name, gens) in [
        ("Majority.mcl", 30),
        ("ModernArt.mcl", 40),
        ("BugGun.rle", 100),
        ("Butterfly.rle", 120),
        ("Gnarl.mcl", 30),
    ] {
        let path =
            std::path::PathBuf::from(format!("/usr/share/golly/Patterns/Larger-than-Life/{name}"));
        let theirs = bgolly_algo_population("Larger than Life", &path, gens);
        let ours = golab_occupied(&[
            "--strategy",
            "rayon",
            "--gens",
            &gens.to_string(),
            "--pattern",
            path.to_str().unwrap(),
        ]);
        assert_eq!(ours, theirs, "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn rules_print_back_to_themselves(
        r in 1i32..40,
        letter in prop::sample::select(vec!['M', 'N', 'C', '2', '+', 'X', '*', '#', 'B', 'D', 'H', 'A', '3']),
        c in 0u16..40,
        seed in any::<u64>(),
    ) {
        let rule = random_rule(seed, r, letter, c);
        let text = rule.canonical();
        let again: Rule = text.parse().unwrap();
        prop_assert_eq!(again, rule);
        prop_assert_eq!(again.canonical(), text);
    }
}

#[test]
fn gpu_resident_draws_the_world_it_steps() {
    use golab::step::view::{ViewRequest, render_host};
    let factory = gpu_factory(Default::default());
    let ctx = factory.gpu().unwrap().clone();
    for text in ["R3,C0,M1,S10..24,B9..16,NM", "R2,C4,S3-9,B4-7,NN"] {
        let rule: Rule = text.parse().unwrap();
        let start = soup_of(rule, 131, 77, Topology::Torus, 4);
        let mut stepper = factory.create(Strategy::GpuResident, &start).unwrap();
        stepper.step(9).unwrap();
        let world = scalar_after(&start, 9);
        let request = ViewRequest {
            x0: 0.0,
            y0: 0.0,
            cells_per_pixel: 1.0,
            width_px: 131,
            height_px: 77,
        };
        let out = view_buffer(&ctx, request.pixels());
        assert!(
            stepper.render_view(&request, &out).unwrap(),
            "drawn on the device"
        );
        let drawn = read_back_u32(&ctx, &out);
        let mut expected = vec![0; request.pixels()];
        render_host(&world, &request, &mut expected);
        assert!(
            expected.iter().any(|&v| v > 0),
            "{text}: the world is not empty"
        );
        assert!(drawn == expected, "{text}: the device view is the world's");
    }
}
