//! Rule tables (`@TABLE`/`@TREE` rules) on every strategy that runs them: rayon, the GPU
//! strategies (their tree kernel) and the unbounded plane bit-identical to scalar on random soups of random tables and of the
//! bundled rules, the strategies that cannot run them refusing with the reason, published
//! behaviour of a bundled rule, and Golly itself (bgolly's RuleLoader) on a fixed sample of
//! its own rule-table patterns; `scripts/golly-oracle` runs the whole collection.

mod common;

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
    table_rule(&random_table_text(seed, states, neighbourhood, symmetry))
}

/// The `.rule` text of [`random_rule`].
fn random_table_text(seed: u64, states: u16, neighbourhood: &str, symmetry: &str) -> String {
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
    text
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
    let strategies: Vec<Strategy> = Strategy::GRID
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
    // Trees compiled with the cell tested first (what very large tables fall back to): the
    // CPU's and the GPU's other walk order, on a random table of each tree shape.
    for (k, n) in ["Moore", "vonNeumann"].into_iter().enumerate() {
        let text = random_table_text(500 + k as u64, 6, n, "none");
        let mut table = RuleTable::parse(&text).unwrap();
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .skip(1)
            .collect();
        let body: Vec<(usize, &str)> = lines
            .into_iter()
            .skip_while(|l| l.1 != "@TABLE")
            .skip(1)
            .collect();
        let spec = golab::rule::table::transitions::read_table(&body).unwrap();
        table.tree = golab::rule::table::compile::compile_in(&spec, true).unwrap();
        table.name = format!("{}-cell-first", table.name);
        assert!(table.tree.cell_first());
        let rule = Rule::from_rule_table(intern(table));
        let world = multi_soup(rule, 61, 37, Topology::Torus, 50, k as u64);
        for strategy in [Strategy::Rayon, Strategy::GpuResident] {
            let context = format!("{strategy} on a cell-first tree ({n})");
            assert_matches_scalar(factory_for(strategy), strategy, &world, 25, &context);
        }
        assert_eq!(
            scalar_after(&world, 25).state_hash(),
            scalar_after(
                &multi_soup(
                    random_rule(500 + k as u64, 6, n, "none"),
                    61,
                    37,
                    Topology::Torus,
                    50,
                    k as u64
                ),
                25
            )
            .state_hash(),
            "the cell-first tree and Golly's order give the same world"
        );
    }
    // The bundled WireWorld on a soup of its four states, in chunks of 17 rows on the GPU
    // (halo rows exchanged between chunks) and in one.
    let ww = Rule::parse("WireWorld").unwrap();
    for topology in [Topology::Torus, Topology::DeadBorder] {
        let soup = multi_soup(ww, 203, 97, topology, 60, 9);
        let chunked = gpu_factory(golab::step::GpuSettings {
            chunk_limit: Some(203 * 4 * 19),
            ..Default::default()
        });
        let context = format!("gpu-resident on WireWorld, {topology:?}, chunks of 17 rows");
        assert_matches_scalar(chunked, Strategy::GpuResident, &soup, 30, &context);
        let context = format!("gpu-resident on WireWorld, {topology:?}");
        let factory = factory_for(Strategy::GpuResident);
        assert_matches_scalar(factory, Strategy::GpuResident, &soup, 30, &context);
    }
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
    for strategy in [Strategy::CpuBitsliced, Strategy::GpuBitpacked] {
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
        let theirs = bgolly_algo_population("RuleLoader", std::path::Path::new(&path), 100);
        let bounded =
            file.contains("Margolus/HPP") || file.contains("Bounded") || file.ends_with(".mcl");
        let strategy = if bounded { "rayon" } else { "hashlife" };
        let ours = golab_occupied(&["--strategy", strategy, "--gens", "100", "--pattern", &path]);
        assert_eq!(ours, theirs, "{file}");
    }
}

#[test]
fn many_state_worlds_write_rle_and_macrocell_that_read_back_with_every_state() {
    use golab::pattern::{Format, parse};
    let ww = Rule::parse("WireWorld").unwrap();
    let world = multi_soup(ww, 37, 21, Topology::Torus, 55, 3);
    let pattern = golab::pattern::Pattern::from_world(&world);
    assert!(!pattern.dying.is_empty() && !pattern.cells.is_empty());
    for format in [Format::Rle, Format::Macrocell] {
        let text = pattern.to_format(format).unwrap();
        assert!(text.contains("WireWorld"), "{format:?}: the rule is named");
        let back = parse(&text, Some(format)).unwrap();
        assert_eq!(back.rule, Some(ww), "{format:?}");
        let absolute = |p: &golab::pattern::Pattern| {
            let (x0, y0) = p.origin();
            let mut all: Vec<(i64, i64, u8)> = p
                .cells
                .iter()
                .map(|&(x, y)| (x0 + i64::from(x), y0 + i64::from(y), 1))
                .chain(
                    p.dying
                        .iter()
                        .map(|&(x, y, s)| (x0 + i64::from(x), y0 + i64::from(y), s)),
                )
                .collect();
            all.sort_unstable();
            all
        };
        assert_eq!(
            absolute(&back),
            absolute(&pattern),
            "{format:?} keeps every state"
        );
    }
    for format in [Format::Plaintext, Format::Life106] {
        let refused = pattern.to_format(format).unwrap_err().to_string();
        assert!(refused.contains("states 2 and up"), "{format:?}: {refused}");
    }
}

#[test]
fn a_rule_embedded_after_the_pattern_is_the_one_it_runs() {
    // Golly 4's local @RULE: the file carries its own rule, found ahead of any other.
    let text = "x = 3, y = 1, rule = Swap-Embedded\nABA!\n\n@RULE Swap-Embedded\nStates 1 and 2 swap every generation.\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\nvar a={0,1,2}\nvar b=a\nvar c=a\nvar d=a\n1,a,b,c,d,2\n2,a,b,c,d,1\n";
    let p = golab::pattern::parse(text, None).unwrap();
    assert_eq!(p.rule.unwrap().to_string(), "Swap-Embedded");
    assert_eq!(
        (p.cells.clone(), p.dying.clone()),
        (vec![(0, 0), (2, 0)], vec![(1, 0, 2)])
    );
    let mut world = World::new(9, 5, Topology::Torus, p.rule.unwrap()).unwrap();
    p.place(&mut world, golab::pattern::Placement::Centred);
    let after = scalar_after(&world, 1);
    assert_eq!((after.population(), after.dying_count()), (1, 2));
    // An error in the embedded rule is reported at its line in the file.
    let bad = "x = 1, y = 1, rule = Bad\nA!\n@RULE Bad\n@TABLE\nn_states:3\nneighborhood:Square\n";
    match golab::pattern::parse(bad, None) {
        Err(golab::pattern::PatternError::Syntax {
            line,
            column,
            message,
        }) => {
            assert_eq!((line, column), (6, 14), "{message}");
            assert!(message.contains("embedded rule"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

/// A zip archive of `(name, data, deflate?)` entries, written by hand (local headers, then
/// the central directory), CRCs left 0 (golab does not check them).
fn zip(entries: &[(&str, Vec<u8>, bool)]) -> Vec<u8> {
    use std::io::Write;
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data, deflate) in entries {
        let body = if *deflate {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        } else {
            data.clone()
        };
        let method: u16 = if *deflate { 8 } else { 0 };
        let offset = out.len() as u32;
        let header = |sig: &[u8], central: bool| {
            let mut h = sig.to_vec();
            if central {
                h.extend(20u16.to_le_bytes()); // made by
            }
            h.extend(20u16.to_le_bytes()); // needed
            h.extend(0u16.to_le_bytes()); // flags
            h.extend(method.to_le_bytes());
            h.extend([0u8; 8]); // time, date, crc
            h.extend((body.len() as u32).to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes()); // extra
            if central {
                h.extend([0u8; 6]); // comment length, disk, internal attributes
                h.extend([0u8; 4]); // external attributes
                h.extend(offset.to_le_bytes());
            }
            h.extend(name.as_bytes());
            h
        };
        out.extend(header(b"PK\x03\x04", false));
        out.extend(&body);
        central.extend(header(b"PK\x01\x02", true));
    }
    let at = out.len() as u32;
    out.extend(&central);
    out.extend(b"PK\x05\x06");
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(at.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

#[test]
fn zip_bundles_open_with_their_rules_and_refuse_bombs() {
    let rule = "@RULE Bundle-Swap\n@TABLE\nn_states:3\nneighborhood:oneDimensional\nsymmetries:none\nvar a={0,1,2}\nvar b=a\n1,a,b,2\n2,a,b,1\n";
    let pattern = "x = 2, y = 1, rule = Bundle-Swap\nAB!\n";
    let bytes = zip(&[
        ("__MACOSX/._Bundle-Swap.rule", b"junk".to_vec(), false),
        ("Bundle-Swap.rule", rule.as_bytes().to_vec(), true),
        ("init.lua", b"-- not run".to_vec(), false),
        ("demo.rle", pattern.as_bytes().to_vec(), true),
    ]);
    let text = golab::pattern::decode_bytes(bytes).unwrap();
    assert_eq!(text, pattern);
    let p = golab::pattern::parse(&text, None).unwrap();
    assert_eq!(p.rule.unwrap().to_string(), "Bundle-Swap");
    // A bomb: one entry inflating past the input limit is refused, not swallowed.
    let bomb = zip(&[("big.rle", vec![b'.'; (257 << 20) as usize], true)]);
    assert!(bomb.len() < 2 << 20);
    match golab::pattern::decode_bytes(bomb) {
        Err(golab::pattern::PatternError::TooLarge { what, .. }) => {
            assert!(what.contains("big.rle"), "{what}")
        }
        other => panic!("{:?}", other.map(|t| t.len())),
    }
    // No pattern inside: said so, naming what is there.
    let scripts = zip(&[("run.lua", b"--".to_vec(), false)]);
    let err = golab::pattern::decode_bytes(scripts)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no pattern file") && err.contains("run.lua"),
        "{err}"
    );
    // A damaged archive is refused at a byte offset.
    let mut cut = zip(&[("demo.rle", pattern.as_bytes().to_vec(), false)]);
    cut.truncate(cut.len() - 30);
    assert!(matches!(
        golab::pattern::decode_bytes(cut),
        Err(golab::pattern::PatternError::Corrupt { .. })
    ));
}

/// Golly's JvN algorithm built in (JvN29, Nobili32 and Hutton32): rayon and gpu-resident run
/// random soups of every state bit-identical to scalar, and `golab run` gives bgolly's JvN
/// population on a fixed sample of Golly's JvN collection, three of them Hutton32's (the whole
/// collection: `ALGO=JvN GENS=100 scripts/golly-oracle 7 /usr/share/golly/Patterns/Self-Rep/JvN`).
#[test]
fn von_neumanns_automaton_runs_as_golly_runs_it() {
    for (k, name) in ["JvN29", "Nobili32", "jvn-32", "Hutton32"]
        .into_iter()
        .enumerate()
    {
        let rule = Rule::parse(name).unwrap();
        assert!(rule.is_table(), "{name}");
        let soup = multi_soup(rule, 67, 45, Topology::Torus, 40, 31 + k as u64);
        for strategy in [Strategy::Rayon, Strategy::GpuResident] {
            let context = format!("{strategy} on {name}");
            assert_matches_scalar(factory_for(strategy), strategy, &soup, 30, &context);
        }
    }
    assert_eq!(Rule::parse("jvn-29").unwrap().canonical(), "JvN29");
    assert_eq!(Rule::parse("modJvN-32").unwrap().canonical(), "Hutton32");
    need_tool("bgolly");
    for file in [
        "counter-demo.rle",
        "read-arm-demo.rle",
        "construction-arm-demo.rle",
        "cell-coders-demo.rle",
        "golly-constructor.rle",
        "Hutton-replicator.rle",
        "Boustrophedon-replicator.rle",
    ] {
        let path = format!("/usr/share/golly/Patterns/Self-Rep/JvN/{file}");
        let theirs = bgolly_algo_population("JvN", std::path::Path::new(&path), 100);
        let ours = golab_occupied(&["--gens", "100", "--pattern", &path]);
        assert_eq!(ours, theirs, "{file}");
    }
}

/// Hutton32, whose exact behaviour only Golly's simulator defines: 10 000 random
/// neighbourhoods after 1 generation, and a random soup of all 32 states on a torus after 60
/// (signals, writes and retractions interacting), hold bgolly's JvN algorithm's very cells
/// and states, on scalar and gpu-resident.
#[test]
fn hutton32_soups_give_bgollys_cells() {
    need_tool("bgolly");
    let dir = std::env::temp_dir().join(format!("golab-hutton32-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rule = Rule::parse("Hutton32").unwrap();
    for (seed, (w, h), gens) in [(1, (300, 300), 1), (2, (61, 47), 60)] {
        let world = if gens == 1 {
            neighbourhoods(rule, w / 3, seed)
        } else {
            multi_soup(rule, w, h, Topology::Torus, 30, seed)
        };
        let mut pattern = golab::pattern::Pattern::from_world(&world);
        (pattern.grid, pattern.position) = (None, None);
        let rle =
            pattern
                .to_rle()
                .replacen("rule = Hutton32", &format!("rule = Hutton32:T{w},{h}"), 1);
        let soup = dir.join(format!("soup{seed}.rle"));
        std::fs::write(&soup, &rle).unwrap();
        let theirs = dir.join(format!("bgolly{seed}.rle"));
        let out = std::process::Command::new("bgolly")
            .args(["-a", "JvN", "-m", &gens.to_string(), "-o"])
            .args([&theirs, &soup])
            .output()
            .unwrap();
        assert!(out.status.success(), "bgolly: {out:?}");
        let cells = |path: &std::path::Path| {
            let p = golab::pattern::library::load_file(path).unwrap();
            (p.width, p.height, p.cells, p.dying)
        };
        let expected = cells(&theirs);
        assert!(expected.3.len() > 100, "a soup of many states survives");
        for strategy in ["scalar", "gpu-resident"] {
            let ours = dir.join(format!("golab{seed}-{strategy}.rle"));
            golab_ok(&[
                "run",
                "--strategy",
                strategy,
                "--gens",
                &gens.to_string(),
                "--pattern",
                soup.to_str().unwrap(),
                "--out",
                ours.to_str().unwrap(),
            ]);
            assert!(
                cells(&ours) == expected,
                "Hutton32 on {strategy}, soup {seed}: the cells after {gens} generations differ from bgolly's"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `k × k` separate von Neumann neighbourhoods of a 32-state rule on a `3k × 3k` torus
/// (centres 3 apart, so no centre sees another's cells): the centre any state, and each of
/// its four neighbours, independently, half the time an arrow pointing at the centre (kind
/// and excitation random, so inputs that meet, and the order in which Golly looks for them,
/// come up often), else any state.
fn neighbourhoods(rule: Rule, k: u32, seed: u64) -> World {
    let mut world = World::new(3 * k, 3 * k, Topology::Torus, rule).unwrap();
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n) as u8
    };
    for cy in (1..3 * k).step_by(3) {
        for cx in (1..3 * k).step_by(3) {
            world.set_state(cx, cy, next(32));
            // East, north, west, south, and the direction pointing back at the centre.
            for (dx, dy, inward) in [(1, 0, 2), (0, -1, 3), (-1, 0, 0), (0, 1, 1)] {
                let state = if next(2) == 0 {
                    9 + 8 * next(2) + 4 * next(2) + inward
                } else {
                    next(32)
                };
                world.set_state(
                    cx.wrapping_add_signed(dx),
                    cy.wrapping_add_signed(dy),
                    state,
                );
            }
        }
    }
    world
}

/// Painting a many-state rule's states 2 and up (which edits cannot carry) reloads the
/// running stepper in place: every strategy that runs the rule keeps stepping from the
/// painted world exactly as scalar does from the same world, generation kept.
#[test]
fn painted_states_reload_the_running_stepper_in_place() {
    for (text, strategies) in [
        ("WireWorld", &[Strategy::Rayon, Strategy::GpuResident][..]),
        (
            "345/2/4",
            &[
                Strategy::Rayon,
                Strategy::GpuResident,
                Strategy::CpuBitsliced,
                Strategy::GpuBitpacked,
            ][..],
        ),
    ] {
        let rule = Rule::parse(text).unwrap();
        // A Generations soup starts two-state; its dying states come with stepping.
        let mut start = World::new(67, 45, Topology::Torus, rule).unwrap();
        start.fill_random(40.0, 7).unwrap();
        let cells: Vec<(u32, u32)> = (0..40).map(|i| (i * 13 % 67, i * 7 % 45)).collect();
        let state = (rule.states() - 1) as u8;
        // The reference: scalar 3 generations, the states set in its world, 9 more.
        let mut painted = scalar_after(&start, 3);
        for &(x, y) in &cells {
            painted.set_state(x, y, state);
        }
        let expected = scalar_after(&painted, 9);
        for &strategy in strategies {
            let mut sim =
                golab::sim::Simulation::new(factory_for(strategy), start.clone(), strategy)
                    .unwrap();
            sim.step(3).unwrap();
            sim.set_states(&cells, state).unwrap();
            assert_eq!(sim.strategy(), strategy, "{text}: the same stepper runs on");
            sim.step(9).unwrap();
            let got = sim.world().unwrap();
            assert_eq!(got.generation, expected.generation, "{text} {strategy}");
            assert!(
                got.state_hash() == expected.state_hash(),
                "{text} {strategy}: the painted world steps as scalar's"
            );
        }
    }
}
