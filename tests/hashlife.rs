//! The hashed universe against `scalar` (every cell, every two-state family, while the
//! pattern stays inside a dead-border grid), and against Golly itself: bgolly's HashLife on
//! a fixed sample of Golly's own HashLife collection (Debian's `golly`, installed by
//! `scripts/setup-system --test`). `scripts/golly-oracle` runs the whole collection.

mod common;

use common::*;
use golab::hashlife::HashUniverse;
use golab::rule::Rule;
use golab::world::{Topology, World};

/// The live cells of `world`, as plane coordinates (the grid's centre at the origin).
fn plane_cells(world: &World) -> Vec<(i128, i128)> {
    golab::universe::plane_cells(world).collect()
}

/// A `w × h` soup of `density` % (its live cells) in the middle of a 301×257 dead-border
/// grid, far enough from the border for a hundred generations at light speed.
fn soup_in_the_middle(rule: Rule, (w, h): (u32, u32), density: f64, seed: u64) -> World {
    let mut world = World::new(301, 257, Topology::DeadBorder, rule).unwrap();
    let mut small = World::new(w, h, Topology::DeadBorder, rule).unwrap();
    small.fill_random(density, seed).unwrap();
    let (ox, oy) = ((301 - w) / 2, (257 - h) / 2);
    for (i, &age) in small.ages().iter().enumerate() {
        if age > 0 {
            let (x, y) = (i as u32 % w + ox, i as u32 / w + oy);
            world.apply_edit(golab::world::CellEdit { x, y, alive: true });
        }
    }
    world
}

#[test]
fn hashlife_matches_scalar_while_the_pattern_stays_inside_the_grid() {
    let rules = [
        "B3/S23",
        "B36/S23",
        "B2/S",
        "B3678/S34678",
        "B2-a/S12",
        "B2ce3-ak/S1e2-in3",
        "B2/S34H",
        "B2/S013V",
    ];
    for (k, text) in rules.into_iter().enumerate() {
        let rule: Rule = text.parse().unwrap();
        // A 29×23 soup in the middle of a 301×257 dead-border grid: 100 generations at
        // light speed stay 36 cells clear of the border.
        let world = soup_in_the_middle(rule, (29, 23), 45.0, 100 + k as u64);
        let mut universe = HashUniverse::new(rule, 64 << 20).unwrap();
        universe.load_cells(plane_cells(&world)).unwrap();
        let mut generation = 0;
        for stride in [1u64, 3, 16, 30, 50] {
            generation += stride;
            let expected = scalar_after(&world, generation);
            universe.advance(stride.into(), &|| false).unwrap();
            let mut got = match universe.bounds() {
                Some(b) => universe.cells_in(b),
                None => Vec::new(),
            };
            got.sort_unstable_by_key(|&(x, y)| (y, x));
            let mut want = plane_cells(&expected);
            want.sort_unstable_by_key(|&(x, y)| (y, x));
            assert_eq!(got, want, "{text} at generation {generation}");
            assert_eq!(universe.population(), expected.population() as u128);
        }
    }
}

/// Golly's HashLife collection as Debian installs it.
const GOLLY_HASHLIFE: &str = "/usr/share/golly/Patterns/HashLife";

/// The population bgolly's HashLife reports after `gens` generations of `file`.
fn bgolly_population(file: &str, gens: u128) -> u128 {
    bgolly_algo_population("HashLife", std::path::Path::new(file), gens)
}

/// golab's population after `gens` generations of `file`, through `golab run`.
fn golab_population(file: &str, gens: &str) -> (u128, u128) {
    let report = golab_run_json(&["--strategy", "hashlife", "--pattern", file, "--gens", gens]);
    let number = |key: &str| -> u128 {
        report[key]
            .as_u64()
            .map(u128::from)
            .or_else(|| report[key].as_str().and_then(|s| s.parse().ok()))
            .unwrap_or_else(|| panic!("{key} in {report}"))
    };
    (number("generation"), number("occupied"))
}

/// A fixed sample of Golly's HashLife files, each at a power of two where bgolly answers
/// in about a second on two cores; the whole collection is `scripts/golly-oracle`.
#[test]
fn golly_hashlife_files_give_bgollys_populations() {
    need_tool("bgolly");
    for (name, exponent) in [
        ("metapixel-galaxy.mc.gz", 20u32),
        ("catacryst.mc", 30),
        ("wedge-grow.mc", 20),
        ("hashlife-oddity1.mc", 20),
        ("ruler.mc", 24),
    ] {
        let file = format!("{GOLLY_HASHLIFE}/{name}");
        assert!(
            std::path::Path::new(&file).exists(),
            "{file} is missing: run scripts/setup-system --test (installs Debian's golly)"
        );
        let gens = 1u128 << exponent;
        let (generation, population) = golab_population(&file, &format!("2^{exponent}"));
        assert_eq!(generation, gens, "{name}");
        assert_eq!(
            population,
            bgolly_population(&file, gens),
            "{name} at 2^{exponent}"
        );
    }
}

/// An RLE file 210 515 cells wide (wider than any grid) from Golly's Life collection opens
/// on the plane and reaches bgolly's population.
#[test]
fn a_pattern_wider_than_any_grid_runs_on_the_plane() {
    need_tool("bgolly");
    let file = "/usr/share/golly/Patterns/Life/Breeders/switch-engine-ping-pong.rle";
    assert!(
        std::path::Path::new(file).exists(),
        "{file} is missing: run scripts/setup-system --test (installs Debian's golly)"
    );
    let (generation, occupied) = golab_population(file, "1024");
    assert_eq!(generation, 1024);
    assert_eq!(occupied, bgolly_population(file, 1024));
}

/// Golly's Generations collection (its RLE files; the others are MCell files): golab's
/// multi-state hashed engine reaches bgolly's Generations population (live and dying
/// cells) at 2^10 and 2^12.
#[test]
fn golly_generations_files_give_bgollys_populations() {
    need_tool("bgolly");
    for name in ["Delta.rle", "Sawfish.rle"] {
        let file = format!("/usr/share/golly/Patterns/Generations/{name}");
        assert!(
            std::path::Path::new(&file).exists(),
            "{file} is missing: run scripts/setup-system --test (installs Debian's golly)"
        );
        for exponent in [10u32, 12] {
            let gens = 1u128 << exponent;
            let (generation, occupied) = golab_population(&file, &format!("2^{exponent}"));
            assert_eq!(generation, gens);
            assert_eq!(
                occupied,
                bgolly_algo_population("Generations", std::path::Path::new(&file), gens),
                "{name} at 2^{exponent}"
            );
        }
    }
}

/// Every state of the multi-state engine against `scalar` (live cells and each dying
/// state), on Generations soups of several rules, stepped by odd counts and powers of two,
/// and the same under a memory limit that forces collections.
#[test]
fn the_multi_state_engine_matches_scalar_state_for_state() {
    use golab::hashlife::MultiUniverse;
    for (k, (text, limit)) in [
        ("/2/3", 64 << 20),
        ("345/3/6", 64 << 20),
        ("3458/37/4", 64 << 20),
        ("B2-a/S12/C5", 64 << 20),
        ("B3/S23/C7", 1 << 16),
        ("B2/S34/C4H", 64 << 20),
        ("B3/S23", 64 << 20),
    ]
    .into_iter()
    .enumerate()
    {
        let rule: Rule = text.parse().unwrap();
        let world = soup_in_the_middle(rule, (27, 21), 40.0, 500 + k as u64);
        let mut universe = MultiUniverse::create(rule, limit).unwrap();
        universe
            .load_states(golab::universe::plane_states(&world))
            .unwrap();
        let mut generation = 0;
        for stride in [1u64, 5, 16, 31, 32] {
            generation += stride;
            let expected = scalar_after(&world, generation);
            universe.advance(stride.into(), &|| false).unwrap();
            let mut got = match universe.bounds() {
                Some(b) => universe.states_in(b),
                None => Vec::new(),
            };
            got.sort_unstable();
            let mut want: Vec<_> = golab::universe::plane_states(&expected).collect();
            want.sort_unstable();
            assert_eq!(got, want, "{text} at generation {generation}");
            assert_eq!(universe.population(), u128::from(expected.population()));
        }
        if limit < 2 << 20 {
            assert!(universe.memory().collections > 0, "{text}: no collection");
        }
    }
}

/// Rule 90 from one cell draws Sierpinski's triangle: row k holds 2^popcount(k) cells
/// (Gould's sequence, OEIS A001316), so rows 0..2^m hold 3^m — on a grid by `scalar` and
/// in the hashed universe at 2^20.
#[test]
fn wolfram_90_draws_sierpinskis_triangle() {
    let rule: Rule = "W90".parse().unwrap();
    let mut world = World::new(131, 70, Topology::DeadBorder, rule).unwrap();
    world.apply_edit(golab::world::CellEdit {
        x: 65,
        y: 2,
        alive: true,
    });
    assert_eq!(scalar_after(&world, 63).population(), 3u64.pow(6));
    let mut universe = HashUniverse::new(rule, 64 << 20).unwrap();
    universe.set(0, 0, true).unwrap();
    universe.advance((1 << 20) - 1, &|| false).unwrap();
    assert_eq!(universe.population(), 3u128.pow(20));
    let b = universe.bounds().unwrap();
    assert_eq!(
        (b.x0, b.y0, b.x1, b.y1),
        (-(1 << 20) + 1, 0, (1 << 20) - 1, (1 << 20) - 1)
    );
}

/// The live cells of a grid, row-major.
fn alive(world: &World) -> Vec<bool> {
    world.ages().iter().map(|&a| a > 0).collect()
}

/// hashlife on a bounded grid keeps the grid's topology exactly: every cell equals
/// `scalar`'s on awkward sizes, both topologies, every two-state family, in uneven chunks
/// and with edits between them.
#[test]
fn hashlife_on_a_bounded_grid_matches_scalar_cell_for_cell() {
    use golab::sim::Simulation;
    use golab::step::{StepperFactory, Strategy};
    use golab::universe::{GridUniverse, Universe, convert};
    let rules = [
        "B3/S23", "B36/S23", "B2/S", "B2-a/S12", "B2/S34H", "B2/S013V", "W110",
    ];
    for &(w, h) in &[
        (3, 3),
        (17, 5),
        (5, 17),
        (37, 23),
        (64, 64),
        (4096, 3),
        (3, 2050),
    ] {
        for topology in [Topology::Torus, Topology::DeadBorder] {
            for (k, text) in rules.iter().enumerate() {
                let rule: Rule = text.parse().unwrap();
                let start = soup(w, h, topology, rule, 40.0, 7 + k as u64);
                let edits = scattered_edits(w, h, 6, k as u64);
                let mut reference = scalar_after(&start, 10);
                reference.apply_edits(&edits);
                let expected = scalar_after(&reference, 23);
                let (ox, oy) = start.plane_origin();
                let sim =
                    Simulation::new(StepperFactory::cpu_only(), start, Strategy::Scalar).unwrap();
                let mut grid = GridUniverse::new(sim);
                let mut hashed = convert::to_hashed(&mut grid, 64 << 20).unwrap();
                for chunk in [1, 2, 7] {
                    hashed.step(chunk, &|| false).unwrap();
                }
                let cells: Vec<_> = edits
                    .iter()
                    .map(|e| {
                        let (x, y) = (
                            i128::from(ox) + i128::from(e.x),
                            i128::from(oy) + i128::from(e.y),
                        );
                        (x, y, u8::from(e.alive))
                    })
                    .collect();
                hashed.set_states(&cells).unwrap();
                hashed.step(23, &|| false).unwrap();
                let got = hashed.to_world().unwrap();
                let context = format!("hashlife {w}x{h} {topology} {text}");
                assert_eq!(got.generation, expected.generation, "{context}");
                assert_eq!(alive(&got), alive(&expected), "{context}");
                assert_eq!(
                    hashed.population().unwrap(),
                    u128::from(expected.population()),
                    "{context}"
                );
            }
        }
    }
}

/// A 2048² soup moved from gpu-bitpacked into hashlife and back keeps every cell; ages
/// restart at 1 in hashlife (it keeps states only) and run on exactly once back on a grid.
#[test]
fn a_2048_soup_moves_from_gpu_bitpacked_to_hashlife_and_back() {
    use golab::sim::Simulation;
    use golab::step::Strategy;
    use golab::universe::{GridUniverse, Universe, convert};
    let start = soup(2048, 2048, Topology::Torus, Rule::CONWAY, 50.0, 3);
    let strategy = Strategy::GpuBitpacked;
    let sim = Simulation::new(factory_for(strategy), start.clone(), strategy).unwrap();
    let mut grid = GridUniverse::new(sim);
    grid.step(5, &|| false).unwrap();
    let mut hashed = convert::to_hashed(&mut grid, 256 << 20).unwrap();
    assert!(
        hashed.capabilities().bounded.is_some(),
        "the torus stays a torus"
    );
    hashed.step(2, &|| false).unwrap();
    let in_hashlife = hashed.to_world().unwrap();
    assert!(
        in_hashlife.ages().iter().all(|&a| a <= 1),
        "hashlife keeps no ages"
    );
    let bounds = hashed.capabilities().bounded;
    let mut back = convert::to_grid(&mut hashed, factory_for(strategy), strategy, bounds).unwrap();
    back.step(3, &|| false).unwrap();
    let expected = scalar_after(&start, 10);
    let got = back.to_world().unwrap();
    assert_eq!(alive(&got), alive(&expected));
    assert_eq!(got.generation, 10);
    // Back on a grid, the ages count on from 1 exactly as scalar counts them from there.
    assert_same_world(&scalar_after(&in_hashlife, 3), &got, "ages after hashlife");
}

#[test]
fn hashlife_runs_generations_unbounded_and_refuses_them_bounded_with_the_reason() {
    use golab::sim::Simulation;
    use golab::step::{StepperFactory, Strategy};
    use golab::universe::{GridUniverse, Universe, convert};
    let rule: Rule = "/2/3".parse().unwrap();
    let start = soup(40, 30, Topology::Torus, rule, 30.0, 1);
    let sim = Simulation::new(StepperFactory::cpu_only(), start.clone(), Strategy::Scalar).unwrap();
    let mut grid = GridUniverse::new(sim);
    let err = convert::to_hashed(&mut grid, 64 << 20)
        .err()
        .expect("a bounded Generations grid is refused")
        .to_string();
    assert!(err.contains("two-state"), "{err}");
    assert_eq!(grid.to_world().unwrap(), start, "the grid stays as it was");
    // Unbounded, the multi-state engine runs it.
    let mut unbounded = start.clone();
    unbounded.topology = Topology::DeadBorder;
    unbounded.grows = true;
    let sim = Simulation::new(StepperFactory::cpu_only(), unbounded, Strategy::Scalar).unwrap();
    let mut grid = GridUniverse::new(sim);
    let mut hashed = convert::to_hashed(&mut grid, 64 << 20).unwrap();
    grid.step(12, &|| false).unwrap();
    hashed.step(12, &|| false).unwrap();
    assert_eq!(
        convert::all_states(&mut grid).unwrap().len(),
        convert::all_states(&mut hashed).unwrap().len()
    );
    let mut a = convert::all_states(&mut grid).unwrap();
    let mut b = convert::all_states(&mut hashed).unwrap();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "the grid and hashlife agree on every state");
}

/// Issue #50: the node store's limit is hard. A pattern that grows chaotically forever
/// (Life without death: the R-pentomino fills an ever larger irregular blob) stepped far
/// under a small limit gives up with the limit named — no panic, the pattern at its
/// generation, the store never past its limit by more than one collection's headroom — and
/// smaller steps still go, exactly.
#[test]
fn a_step_that_cannot_fit_the_memory_limit_fails_with_the_limit_and_the_world_stays() {
    use golab::universe::{HashedUniverse, Universe};
    let rule: Rule = "B3/S012345678".parse().unwrap();
    let limit = 256 << 10;
    let r = [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)];
    let mut hashed = HashedUniverse::empty(rule, limit).unwrap();
    let cells: Vec<_> = r.iter().map(|&(x, y)| (x, y, 1)).collect();
    hashed.set_states(&cells).unwrap();
    let err = hashed.step(1 << 13, &|| false).unwrap_err().to_string();
    assert!(err.contains("memory limit of 0 MiB"), "{err}");
    assert!(err.contains("stays at generation 0"), "{err}");
    assert_eq!(hashed.generation(), 0);
    assert_eq!(hashed.population().unwrap(), 5);
    let memory = hashed.memory().unwrap();
    // The limit's nodes plus a quarter, in the arena and its table (the table's slots and
    // the arena's spare capacity: within a quarter more again).
    assert!(
        memory.bytes <= 2 * limit,
        "the store holds {} bytes for a {limit}-byte limit",
        memory.bytes
    );
    // Smaller steps fit, cell for cell.
    assert_eq!(hashed.step(64, &|| false).unwrap(), 64);
    let mut world = World::new(301, 301, Topology::DeadBorder, rule).unwrap();
    for &(x, y) in &r {
        let (x, y) = (150 + x as u32, 150 + y as u32);
        world.apply_edit(golab::world::CellEdit { x, y, alive: true });
    }
    let expected = scalar_after(&world, 64);
    assert_eq!(
        hashed.population().unwrap(),
        u128::from(expected.population())
    );
}
