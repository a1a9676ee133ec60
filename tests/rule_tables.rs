//! Rule tables (`@TABLE`/`@TREE` rules) on every strategy that runs them: rayon, the GPU
//! strategies (their tree kernel) and the unbounded plane bit-identical to scalar on random soups of random tables and of the
//! bundled rules, the strategies that cannot run them refusing with the reason, published
//! behaviour of a bundled rule, and Golly itself (bgolly's RuleLoader) on a fixed sample of
//! its own rule-table patterns; `scripts/golly-oracle` runs the whole collection.

mod common;

use std::process::Command;

use common::*;
use golab::hashlife::{Hashed, Rect};
use golab::rule::Rule;
use golab::rule::table::{RuleTable, intern, library};
use golab::step::Strategy;
use golab::world::{CellEdit, Topology, World};

/// A table rule from `text` (registered).
fn table_rule(text: &str) -> Rule {
    Rule::from_rule_table(intern(RuleTable::parse(text).unwrap()))
}

/// A random table over `states` states and `neighbourhood`, seeded.
fn random_rule(seed: u64, states: u16, neighbourhood: &str, symmetry: &str) -> Rule {
    let mut rng = seed | 1;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let inputs = match neighbourhood {
        "vonNeumann" => 5,
        "Moore" => 9,
        "hexagonal" => 7,
        _ => 3,
    };
    let mut text = format!(
        "@RULE Random-{seed}-{states}-{neighbourhood}-{symmetry}\n@TABLE\nn_states:{states}\nneighborhood:{neighbourhood}\nsymmetries:{symmetry}\nvar a={{0,1}}\n"
    );
    for _ in 0..24 {
        // The cell never goes from 0 to non-zero on an empty neighbourhood (keeps the plane finite).
        let mut tokens: Vec<String> = (0..inputs)
            .map(|_| match next(4) {
                0 => "a".into(),
                _ => next(u64::from(states)).to_string(),
            })
            .collect();
        if tokens.iter().skip(1).all(|t| t == "0") {
            tokens[1] = "1".into();
        }
        tokens.push(next(u64::from(states)).to_string());
        text += &(tokens.join(",") + "\n");
    }
    table_rule(&text)
}

/// A `w × h` world of `topology` whose cells take random states (`fill` % non-zero).
fn multi_soup(rule: Rule, w: u32, h: u32, topology: Topology, fill: u64, seed: u64) -> World {
    let mut world = World::new(w, h, topology, rule).unwrap();
    let states = u64::from(rule.states());
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let len = world.len();
    for i in 0..len {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = rng >> 33;
        if r % 100 >= fill {
            continue;
        }
        let state = 1 + (r / 100) % (states - 1);
        if state == 1 {
            world.ages_mut()[i] = 1;
        } else {
            world.dying_mut()[i] = state as u8;
        }
    }
    world
}

#[test]
fn every_strategy_that_runs_tables_is_bit_identical_to_scalar() {
    let cases = [
        (2u16, "Moore", "none", 37u32, 29u32, Topology::Torus),
        (5, "vonNeumann", "rotate4", 64, 33, Topology::DeadBorder),
        (7, "hexagonal", "rotate6reflect", 91, 17, Topology::Torus),
        (4, "oneDimensional", "reflect", 50, 50, Topology::DeadBorder),
        (9, "Moore", "rotate8reflect", 129, 65, Topology::Torus),
        (3, "Moore", "permute", 31, 47, Topology::DeadBorder),
    ];
    let strategies: Vec<Strategy> = Strategy::ALL
        .iter()
        .copied()
        .filter(|s| s.supports(&Rule::parse("WireWorld").unwrap()).is_ok())
        .collect();
    assert!(strategies.contains(&Strategy::GpuResident) && strategies.contains(&Strategy::Rayon));
    for (k, &(states, n, sym, w, h, topology)) in cases.iter().enumerate() {
        let rule = random_rule(1000 + k as u64, states, n, sym);
        let world = multi_soup(rule, w, h, topology, 45, k as u64);
        let after = scalar_after(&world, 40);
        assert!(
            after.population() + after.dying_count() > 0,
            "{rule}: the soup died"
        );
        for &strategy in &strategies {
            let context = format!("{strategy} on {rule}, {w}x{h} {topology:?}");
            assert_matches_scalar(factory_for(strategy), strategy, &world, 40, &context);
        }
    }
    // The bundled WireWorld on a soup of its four states, on the GPU's multi-chunk path too.
    let ww = Rule::parse("WireWorld").unwrap();
    let soup = multi_soup(ww, 203, 97, Topology::Torus, 60, 9);
    assert_matches_scalar(
        factory_for(Strategy::GpuResident),
        Strategy::GpuResident,
        &soup,
        30,
        "gpu-resident on WireWorld",
    );
}

#[test]
fn the_plane_is_bit_identical_to_scalar_while_the_pattern_stays_inside() {
    for (k, (states, n)) in [(6u16, "vonNeumann"), (4, "Moore")].into_iter().enumerate() {
        let rule = random_rule(77 + k as u64, states, n, "none");
        // A soup in the middle of a dead-border grid large enough for 30 generations.
        let mut world = World::new(151, 131, Topology::DeadBorder, rule).unwrap();
        let small = multi_soup(rule, 21, 17, Topology::DeadBorder, 50, k as u64);
        let (ox, oy) = (65usize, 57usize);
        for (i, &age) in small.ages().iter().enumerate() {
            let (x, y) = (i % 21 + ox, i / 21 + oy);
            let j = y * 151 + x;
            world.ages_mut()[j] = age;
            world.dying_mut()[j] = small.dying()[i];
        }
        let expected = scalar_after(&world, 30);
        let mut plane = Hashed::new(rule, 1 << 28).unwrap();
        plane
            .load_states(golab::universe::plane_states(&world))
            .unwrap();
        for _ in 0..30 {
            plane.step_pow2(0).unwrap();
        }
        let mut got: Vec<_> = plane.states_in(Rect {
            x0: -75,
            y0: -65,
            x1: 75,
            y1: 65,
        });
        let mut want: Vec<_> = golab::universe::plane_states(&expected).collect();
        got.sort();
        want.sort();
        let touches = want.iter().any(|&(x, y, _)| x.abs() >= 74 || y.abs() >= 64);
        assert!(
            !touches,
            "{rule}: the pattern reached the grid's border; pick a smaller soup"
        );
        assert_eq!(got, want, "{rule}: plane and scalar differ");
    }
}

#[test]
fn strategies_without_a_tree_evaluator_refuse_with_the_reason() {
    let rule = Rule::parse("WireWorld").unwrap();
    let world = World::new(32, 32, Topology::Torus, rule).unwrap();
    for strategy in [
        Strategy::CpuBitsliced,
        Strategy::GpuBitpacked,
        Strategy::Hashlife,
    ] {
        let error = factory_for(strategy)
            .create(strategy, &world)
            .err()
            .unwrap_or_else(|| panic!("{strategy} ran a rule table"))
            .to_string();
        assert!(error.contains("rayon"), "{strategy}: {error}");
    }
}

#[test]
fn wireworld_electrons_run_along_wires_and_round_a_loop() {
    // Dewdney (1990): a head followed by its tail moves one cell per generation along a wire.
    let ww = Rule::parse("WireWorld").unwrap();
    let mut world = World::new(40, 9, Topology::DeadBorder, ww).unwrap();
    let paint = |world: &mut World, x: u32, y: u32, state: u8| {
        let i = (y * world.width() + x) as usize;
        if state == 1 {
            world.apply_edit(CellEdit { x, y, alive: true });
        } else {
            world.dying_mut()[i] = state;
        }
    };
    for x in 2..38 {
        paint(&mut world, x, 4, 3);
    }
    paint(&mut world, 3, 4, 1);
    paint(&mut world, 2, 4, 2);
    let after = scalar_after(&world, 10);
    let state = |w: &World, x: u32| w.state_at((4 * w.width() + x) as usize);
    assert_eq!(
        (state(&after, 13), state(&after, 12)),
        (1, 2),
        "head at 13, tail at 12"
    );
    assert_eq!(after.population(), 1);
    // A closed loop of conductor in which every cell touches exactly two others (a diamond
    // of diagonal steps, 8 cells) with one electron is a clock of period 8, its length.
    let mut clock = World::new(12, 10, Topology::DeadBorder, ww).unwrap();
    let ring = [
        (5, 2),
        (6, 3),
        (7, 4),
        (6, 5),
        (5, 6),
        (4, 5),
        (3, 4),
        (4, 3),
    ];
    for &(x, y) in &ring {
        paint(&mut clock, x, y, 3);
    }
    paint(&mut clock, 5, 2, 1);
    paint(&mut clock, 4, 3, 2);
    let later = scalar_after(&clock, 8);
    let states = |w: &World| (0..w.len()).map(|i| w.state_at(i)).collect::<Vec<_>>();
    assert_eq!(
        states(&later),
        states(&clock),
        "the clock's period is its length"
    );
    for gens in 1..8 {
        assert_ne!(
            states(&scalar_after(&clock, gens)),
            states(&clock),
            "no shorter period ({gens})"
        );
    }
}

/// A fixed sample of Golly's rule-table patterns (loops, Codd, Devore, Margolus on its
/// torus, a turmite, WireWorld's MCell gate and macrocell primes): `golab run` gives
/// bgolly's RuleLoader population after 100 generations.
#[test]
fn golly_rule_table_files_give_bgollys_populations() {
    need_tool("bgolly");
    let rules = "/usr/share/golly/Rules";
    assert!(
        library::RuleFolders::detect(None)
            .golly
            .iter()
            .any(|p| p.ends_with("golly/Rules")),
        "Golly's Rules folder is missing: run scripts/setup-system --test (installs golly)"
    );
    for file in [
        "Loops/Langtons-Loops.rle",
        "Loops/Evoloop.rle",
        "Self-Rep/Codd/signals-demo.rle",
        "Self-Rep/Devore/crossover.rle",
        "Margolus/BBM.rle",
        "Margolus/HPP.rle",
        "Turmites/FibonacciSpiral.rle",
        "Patersons-Worms/worm-1042015.rle",
        "WireWorld/gate-XOR.mcl",
        "WireWorld/primes.mc",
        "Life/Bounded-Grids/torus.rle",
    ] {
        let path = format!("/usr/share/golly/Patterns/{file}");
        let out = Command::new("bgolly")
            .args([
                "-a",
                "RuleLoader",
                "-s",
                &format!("{rules}/"),
                "-m",
                "100",
                &path,
            ])
            .output()
            .expect("bgolly runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let last = text
            .lines()
            .rev()
            .find(|l| l.starts_with("100:"))
            .unwrap_or_else(|| panic!("{file}: {text}"));
        let theirs: u64 = last[4..].trim().replace(',', "").parse().unwrap();
        let bounded =
            file.contains("Margolus/HPP") || file.contains("Bounded") || file.ends_with(".mcl");
        let strategy = if bounded { "rayon" } else { "hashlife" };
        let ours = Command::new(env!("CARGO_BIN_EXE_golab"))
            .args([
                "run",
                "--strategy",
                strategy,
                "--json",
                "--gens",
                "100",
                "--pattern",
                &path,
            ])
            .output()
            .unwrap();
        assert!(
            ours.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&ours.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&ours.stdout).unwrap();
        assert_eq!(
            report["occupied"].as_u64(),
            Some(theirs),
            "{file}: {report}"
        );
    }
}
