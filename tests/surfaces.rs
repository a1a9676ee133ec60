//! Golly's joined surfaces (shifted torus, Klein bottle, cross-surface, sphere, tube): a
//! naive reference written from Golly's help holds scalar to the surface's edges, every
//! other strategy is held to scalar cell by cell (ages and dying states included), and
//! Golly's own bounded-grid files and random soups give bgolly's populations.

mod common;

use std::process::Command;

use common::{assert_matches_scalar, factory_for, need_tool, soup};
use golab::rule::Rule;
use golab::world::{Join, Topology, World};

/// Every surface, on sizes that are odd, even, and not multiples of a word.
fn surfaces() -> Vec<(Topology, u32, u32)> {
    vec![
        (Topology::Joined(Join::ShiftedTopBottom(5)), 37, 23),
        (Topology::Joined(Join::ShiftedTopBottom(-3)), 70, 9),
        (Topology::Joined(Join::ShiftedLeftRight(2)), 33, 41),
        (
            Topology::Joined(Join::KleinTopBottom { shift: false }),
            37,
            23,
        ),
        (
            Topology::Joined(Join::KleinTopBottom { shift: true }),
            66,
            17,
        ),
        (
            Topology::Joined(Join::KleinLeftRight { shift: false }),
            29,
            40,
        ),
        (
            Topology::Joined(Join::KleinLeftRight { shift: true }),
            35,
            30,
        ),
        (Topology::Joined(Join::CrossSurface), 40, 21),
        (Topology::Joined(Join::Sphere), 31, 31),
        (Topology::Joined(Join::TubeTopBottom), 45, 26),
        (Topology::Joined(Join::TubeLeftRight), 26, 45),
    ]
}

/// One generation of B3/S23 on `world`'s surface, counted cell by cell: a neighbour
/// outside the grid is the cell [`Topology::source`] names (Golly's ring of copied edge
/// cells), or dead.
fn naive_conway(world: &World) -> Vec<bool> {
    let (w, h) = (i64::from(world.width()), i64::from(world.height()));
    let alive = |x: i64, y: i64| -> bool {
        let (x, y) = if (0..w).contains(&x) && (0..h).contains(&y) {
            (x, y)
        } else {
            match world.topology.source(x, y, w, h) {
                Some(cell) => cell,
                None => return false,
            }
        };
        world.ages()[(y * w + x) as usize] > 0
    };
    let mut next = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            let mut n = 0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    n += i32::from((dx, dy) != (0, 0) && alive(x + dx, y + dy));
                }
            }
            next.push(n == 3 || (n == 2 && alive(x, y)));
        }
    }
    next
}

/// Golly's ring, as its help draws it for a 4×3 grid (Help/bounded.html), for the
/// surfaces with a drawing: each row of the drawing is the padded grid, letters A..L the
/// grid's cells in reading order.
#[test]
fn the_ring_is_the_one_gollys_help_draws() {
    let drawings = [
        (
            Join::CrossSurface,
            ["alkjid", "lABCDi", "hEFGHe", "dIJKLa", "idcbal"],
        ),
        (
            Join::KleinTopBottom { shift: false },
            ["ilkjil", "dABCDa", "hEFGHe", "lIJKLi", "adcbad"],
        ),
        (
            Join::KleinLeftRight { shift: false },
            ["dijkla", "lABCDi", "hEFGHe", "dIJKLa", "labcdi"],
        ),
        (
            Join::ShiftedTopBottom(1),
            ["klijkl", "dABCDa", "hEFGHe", "lIJKLi", "abcdab"],
        ),
        (
            Join::ShiftedLeftRight(1),
            ["hijkla", "lABCDe", "dEFGHi", "hIJKLa", "labcde"],
        ),
    ];
    for (join, rows) in drawings {
        check_drawing(Topology::Joined(join), 4, 3, &rows);
    }
    // The sphere's drawing is 3×3. (The help's drawings of the twisted-and-shifted Klein
    // bottles put the ring two cells from where Golly's code puts it; bgolly follows the
    // code, and so does golab: golab_run_gives_bgollys_populations_on_every_surface.)
    check_drawing(
        Topology::Joined(Join::Sphere),
        3,
        3,
        &["aadgc", "aABCg", "bDEFh", "cGHIi", "gcfii"],
    );
}

fn check_drawing(topology: Topology, w: i64, h: i64, rows: &[&str]) {
    let letter = |x: i64, y: i64| (b'a' + (y * w + x) as u8) as char;
    for (py, row) in rows.iter().enumerate() {
        for (px, want) in row.chars().enumerate() {
            let (x, y) = (px as i64 - 1, py as i64 - 1);
            if (0..w).contains(&x) && (0..h).contains(&y) {
                continue;
            }
            let got = topology.source(x, y, w, h).map(|(sx, sy)| letter(sx, sy));
            assert_eq!(
                got,
                Some(want.to_ascii_lowercase()),
                "{topology} {w}x{h}: ring cell ({x}, {y})"
            );
        }
    }
}

/// scalar steps each surface as the naive count does, generation after generation.
#[test]
fn scalar_runs_each_surface_as_a_naive_count_does() {
    for (i, (topology, w, h)) in surfaces().into_iter().enumerate() {
        let mut world = soup(w, h, topology, Rule::CONWAY, 35.0, 100 + i as u64);
        for step in 0..30 {
            let want = naive_conway(&world);
            world = common::scalar_after(&world, 1);
            let got: Vec<bool> = world.ages().iter().map(|&a| a > 0).collect();
            assert!(got == want, "{topology} {w}x{h}: generation {}", step + 1);
        }
    }
}

/// rayon, cpu-bitsliced, gpu-resident and gpu-bitpacked give
/// scalar's every state and age on every surface, under two-state and Generations rules.
#[test]
fn every_strategy_runs_every_surface_as_scalar_does() {
    use golab::step::Strategy;
    let rules: Vec<Rule> = ["B3/S23", "B36/S23", "B2/S345/C4", "B2e3/S23", "B2/S34H"]
        .iter()
        .map(|r| r.parse().unwrap())
        .collect();
    for (i, (topology, w, h)) in surfaces().into_iter().enumerate() {
        let rule = rules[i % rules.len()];
        let start = soup(w, h, topology, rule, 40.0, 7 + i as u64);
        let mut strategies = vec![
            Strategy::Rayon,
            Strategy::CpuBitsliced,
            Strategy::GpuResident,
        ];
        if i % 4 == 0 {
            // Each gpu-bitpacked load builds its pipelines: a sample keeps lavapipe quick.
            strategies.push(Strategy::GpuBitpacked);
        }
        for strategy in strategies {
            let context = format!("{strategy} on {topology} {w}x{h} under {rule}");
            assert_matches_scalar(factory_for(strategy), strategy, &start, 40, &context);
        }
    }
}

/// A sphere is square, and Larger than Life runs on a torus or a plane only (as in Golly).
#[test]
fn impossible_surfaces_are_refused_with_the_reason() {
    let sphere = World::new(30, 20, Topology::Joined(Join::Sphere), Rule::CONWAY).unwrap_err();
    assert!(sphere.to_string().contains("square"), "{sphere}");
    let ltl: Rule = "R2,C0,M0,S4..6,B5..6,NM".parse().unwrap();
    let klein = Topology::Joined(Join::KleinLeftRight { shift: false });
    let refused = World::new(40, 40, klein, ltl).unwrap_err();
    assert!(
        refused.to_string().contains("torus or a plane"),
        "{refused}"
    );
    let mut world = World::new(40, 40, klein, Rule::CONWAY).unwrap();
    assert!(world.set_rule(ltl).is_err());
    assert_eq!(
        world.rule(),
        Rule::CONWAY,
        "a refused rule leaves the world as it was"
    );
}

/// `golab run` gives bgolly's populations on Golly's own bounded-grid files (LifeHistory,
/// run by Golly's RuleLoader), and bgolly's very cells on random B3/S23 soups written with
/// each suffix (run by QuickLife) — through the adapter of cpu-bitsliced and gpu-resident
/// too. (Golly's help draws the twisted-and-shifted Klein bottles' ring two cells along
/// from where its code, and so bgolly, puts it: these soups hold golab to the code.)
#[test]
fn golab_run_gives_bgollys_populations_on_every_surface() {
    need_tool("bgolly");
    let golab = |file: &str, strategy: &str, gens: u32| -> u128 {
        let gens = gens.to_string();
        common::golab_occupied(&["--strategy", strategy, "--pattern", file, "--gens", &gens])
    };
    for name in [
        "Klein-bottle",
        "cross-surface",
        "sphere",
        "torus-with-shift",
        "pulsars-in-tube",
    ] {
        let file = format!("/usr/share/golly/Patterns/Life/Bounded-Grids/{name}.rle");
        let theirs = common::bgolly_algo_population("RuleLoader", std::path::Path::new(&file), 300);
        assert_eq!(golab(&file, "rayon", 300), theirs, "{name}");
    }
    let dir = std::env::temp_dir().join(format!("golab-surfaces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, suffix) in [
        ":K24*+1,18",
        ":K19,24*+1",
        ":C26,19",
        ":S23",
        ":T25-4,20",
        ":T0,16",
    ]
    .into_iter()
    .enumerate()
    {
        let rule = Rule::CONWAY;
        let world = soup(15, 13, Topology::DeadBorder, rule, 45.0, 50 + i as u64);
        let mut pattern = golab::pattern::Pattern::from_world(&world);
        (pattern.grid, pattern.position) = (None, None);
        let rle = pattern
            .to_rle()
            .replacen("rule = B3/S23", &format!("rule = B3/S23{suffix}"), 1);
        assert!(rle.contains(suffix), "{rle}");
        let path = dir.join(format!("soup{i}.rle"));
        std::fs::write(&path, &rle).unwrap();
        let file = path.to_str().unwrap();
        let theirs_file = dir.join(format!("bgolly{i}.rle"));
        let status = Command::new("bgolly")
            .args(["-a", "QuickLife", "-m", "200", "-o"])
            .args([&theirs_file, &path])
            .output()
            .unwrap();
        assert!(status.status.success(), "bgolly on {suffix}");
        let theirs = live_cells(&theirs_file);
        for strategy in ["scalar", "cpu-bitsliced", "gpu-resident"] {
            let ours_file = dir.join(format!("golab{i}-{strategy}.rle"));
            common::golab_ok(&[
                "run",
                "--strategy",
                strategy,
                "--gens",
                "200",
                "--pattern",
                file,
                "--out",
                ours_file.to_str().unwrap(),
            ]);
            assert_eq!(
                live_cells(&ours_file),
                theirs,
                "{suffix} on {strategy}: the cells after 200 generations differ from bgolly's\n{rle}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The live cells of a pattern file relative to their bounding box, with its size (bgolly
/// writes no position, so boxes are compared: after 200 generations of a soup spread over
/// the whole surface, a misplaced ring changes the cells, not just where they are).
fn live_cells(path: &std::path::Path) -> (u32, u32, Vec<(u32, u32)>) {
    let pattern = golab::pattern::library::load_file(path).unwrap();
    assert!(
        pattern.cells.len() > 4,
        "{}: a soup that died says little",
        path.display()
    );
    (pattern.width, pattern.height, pattern.cells)
}

/// A tube opened with little room grows along its open side as its pattern spreads (the
/// window's tube), and after 1 000 generations of Golly's pulsars-in-tube holds bgolly's
/// population, its joined side untouched.
#[test]
fn a_tube_grows_along_its_open_side_and_keeps_gollys_population() {
    need_tool("bgolly");
    let path =
        std::path::Path::new("/usr/share/golly/Patterns/Life/Bounded-Grids/pulsars-in-tube.rle");
    let pattern = golab::pattern::library::load_file(path).unwrap();
    let rule = pattern.rule.unwrap();
    let (world, _) = pattern.open_in_grid(rule, 16).unwrap().unwrap();
    let (w0, h0) = (world.width(), world.height());
    assert!(world.grows, "a tube opens as a growing world");
    let mut sim = golab::sim::Simulation::new(
        golab::step::StepperFactory::cpu_only(),
        world,
        golab::step::Strategy::Rayon,
    )
    .unwrap();
    assert!(sim.grows());
    sim.step(1000).unwrap();
    let grown = sim.world().unwrap().clone();
    assert_eq!(grown.height(), h0, "the joined side keeps its size");
    assert!(
        grown.width() > w0,
        "the open side grew: {w0} -> {}",
        grown.width()
    );
    let theirs = common::bgolly_algo_population("QuickLife", path, 1000);
    assert_eq!(u128::from(grown.population()), theirs);
}
