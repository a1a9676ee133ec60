//! Known Life behaviour, checked with golab's scalar stepper: every bundled pattern does what
//! its `#C` comment says (still lifes, oscillator periods, spaceship speeds, gun output,
//! methuselah lifespans, infinite growth, replication), and the topologies behave as
//! documented (gliders wrap on a torus and die at a dead border).

use std::collections::BTreeSet;

use golab::pattern::{Pattern, Placement, library};
use golab::rule::Rule;
use golab::step::{Stepper, StepperFactory, Strategy};
use golab::world::{Topology, World};

type Cells = BTreeSet<(i64, i64)>;

/// A bundled pattern, which must exist.
fn lib(name: &str) -> Pattern {
    library::find(name).unwrap_or_else(|| panic!("no bundled pattern {name}"))
}

/// A world stepped by the scalar reference stepper.
struct Run {
    stepper: Box<dyn Stepper>,
    world: World,
}

impl Run {
    /// `pattern` placed in a fresh `w × h` world running the pattern's own rule.
    fn new(pattern: &Pattern, w: u32, h: u32, topology: Topology, at: Placement) -> Run {
        let rule = pattern.rule.unwrap_or(Rule::CONWAY);
        Run::with_rule(pattern, w, h, topology, at, rule)
    }

    fn with_rule(
        pattern: &Pattern,
        w: u32,
        h: u32,
        topology: Topology,
        at: Placement,
        rule: Rule,
    ) -> Run {
        let mut world = World::new(w, h, topology, rule).unwrap();
        let report = pattern.place(&mut world, at);
        assert_eq!(report.clipped, 0, "test setup clipped {:?}", pattern.name);
        let stepper = StepperFactory::cpu_only()
            .create(Strategy::Scalar, &world)
            .unwrap();
        assert_eq!(stepper.strategy(), Strategy::Scalar);
        Run { stepper, world }
    }

    fn step(&mut self, generations: u64) -> &mut Self {
        self.stepper.step(generations).unwrap();
        self
    }

    fn generation(&self) -> u64 {
        self.stepper.generation()
    }

    fn world(&mut self) -> &World {
        if self.stepper.host_world().is_none() {
            self.stepper.read_world(&mut self.world).unwrap();
            return &self.world;
        }
        self.stepper.host_world().expect("checked above")
    }

    fn cells(&mut self) -> Cells {
        cells_of(self.world())
    }

    fn population(&mut self) -> u64 {
        self.world().population()
    }
}

fn cells_of(world: &World) -> Cells {
    let w = world.width() as usize;
    world
        .ages()
        .iter()
        .enumerate()
        .filter(|(_, a)| **a > 0)
        .map(|(i, _)| ((i % w) as i64, (i / w) as i64))
        .collect()
}

fn shape(p: &Pattern) -> Cells {
    p.cells
        .iter()
        .map(|&(x, y)| (i64::from(x), i64::from(y)))
        .collect()
}

fn translate(cells: &Cells, dx: i64, dy: i64) -> Cells {
    cells.iter().map(|&(x, y)| (x + dx, y + dy)).collect()
}

/// Cells moved to touch the origin, and the offset removed.
fn normalize(cells: &Cells) -> (Cells, (i64, i64)) {
    let x0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    (translate(cells, -x0, -y0), (x0, y0))
}

/// Cells inside the half-open box `[x0, x1) × [y0, y1)`.
fn window(cells: &Cells, x0: i64, y0: i64, x1: i64, y1: i64) -> Cells {
    cells
        .iter()
        .copied()
        .filter(|&(x, y)| (x0..x1).contains(&x) && (y0..y1).contains(&y))
        .collect()
}

/// The 8 rotations and reflections of `p`, normalized.
fn orientations(p: &Pattern) -> Vec<Cells> {
    let mut out = Vec::new();
    let mut q = p.clone();
    for _ in 0..4 {
        out.push(normalize(&shape(&q)).0);
        out.push(normalize(&shape(&q.flipped_x())).0);
        q = q.rotated_cw();
    }
    out
}

/// Offsets at which `target` (normalized) sits in `cells`: all its cells alive and every
/// other cell of its bounding box, grown by `margin` on each side, dead.
fn find_copies(cells: &Cells, target: &Cells, margin: i64) -> Vec<(i64, i64)> {
    let Some(&first) = target.iter().min_by_key(|&&(x, y)| (y, x)) else {
        return Vec::new();
    };
    let w = target.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let h = target.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    let mut found = Vec::new();
    for &(ax, ay) in cells {
        let (dx, dy) = (ax - first.0, ay - first.1);
        if target
            .iter()
            .all(|&(x, y)| cells.contains(&(x + dx, y + dy)))
            && window(
                cells,
                dx - margin,
                dy - margin,
                dx + w + margin,
                dy + h + margin,
            )
            .len()
                == target.len()
        {
            found.push((dx, dy));
        }
    }
    found
}

/// Every phase and orientation of the glider.
fn glider_shapes() -> Vec<Cells> {
    let glider = lib("glider");
    let mut run = Run::new(&glider, 16, 16, Topology::Torus, Placement::Centred);
    let mut shapes = Vec::new();
    for _ in 0..4 {
        let phase = Pattern::from_world(run.world());
        shapes.extend(orientations(&phase));
        run.step(1);
    }
    shapes.sort();
    shapes.dedup();
    assert_eq!(
        shapes.len(),
        16,
        "a glider has 2 distinct phase shapes x 8 orientations"
    );
    shapes
}

/// Isolated gliders (any phase, any orientation) in `cells`.
fn count_gliders(cells: &Cells, shapes: &[Cells]) -> usize {
    shapes.iter().map(|s| find_copies(cells, s, 1).len()).sum()
}

// ---------------------------------------------------------------------------------------
// Still lifes, oscillators, spaceships

#[test]
fn still_lifes_never_change() {
    for name in ["block", "beehive", "loaf", "boat", "tub", "ship", "pond"] {
        let p = lib(name);
        let mut run = Run::new(&p, 16, 16, Topology::DeadBorder, Placement::Centred);
        let start = run.cells();
        assert_eq!(start.len(), p.population());
        run.step(1);
        assert_eq!(run.cells(), start, "{name} changed after 1 generation");
        run.step(9);
        assert_eq!(run.cells(), start, "{name} changed after 10 generations");
    }
}

#[test]
fn oscillators_have_their_exact_periods() {
    let table = [
        ("blinker", 2),
        ("toad", 2),
        ("beacon", 2),
        ("clock", 2),
        ("pulsar", 3),
        ("octagon-2", 5),
        ("figure-eight", 8),
        ("koks-galaxy", 8),
        ("tumbler", 14),
        ("pentadecathlon", 15),
    ];
    for (name, period) in table {
        let p = lib(name);
        let mut run = Run::new(&p, 64, 64, Topology::DeadBorder, Placement::Centred);
        let start = run.cells();
        for t in 1..period {
            run.step(1);
            assert_ne!(
                run.cells(),
                start,
                "{name} repeats after {t}, before its period {period}"
            );
        }
        for cycle in 1..=3 {
            run.step(1);
            assert_eq!(
                run.cells(),
                start,
                "{name} is not back after {} generations",
                cycle * period
            );
            run.step(period - 1);
        }
    }
}

#[test]
fn spaceships_move_at_their_speeds() {
    // (name, period, displacement per period)
    let table = [
        ("glider", 4, (1, 1)),
        ("lwss", 4, (-2, 0)),
        ("mwss", 4, (-2, 0)),
        ("hwss", 4, (-2, 0)),
        ("copperhead", 10, (0, -1)),
    ];
    for (name, period, (dx, dy)) in table {
        let p = lib(name);
        let mut run = Run::new(&p, 80, 80, Topology::DeadBorder, Placement::Centred);
        let start = run.cells();
        let start_shape = normalize(&start).0;
        for t in 1..period {
            run.step(1);
            assert_ne!(
                normalize(&run.cells()).0,
                start_shape,
                "{name} has its shape back at {t}"
            );
        }
        for k in 1..=5 {
            run.step(1);
            let expected = translate(&start, dx * k, dy * k);
            assert_eq!(
                run.cells(),
                expected,
                "{name} after {} generations",
                k * period as i64
            );
            run.step(period - 1);
        }
    }
}

#[test]
fn gliders_wrap_across_torus_edges() {
    let glider = lib("glider");
    let mut run = Run::new(
        &glider,
        16,
        12,
        Topology::Torus,
        Placement::At { x: 13, y: 9 },
    );
    let start = run.cells();
    // Half-way across the corner the glider is split between all four edges.
    run.step(6);
    let split = run.cells();
    assert_eq!(split.len(), 5);
    assert!(split.iter().any(|c| c.0 == 0) && split.iter().any(|c| c.0 == 15));
    assert!(split.iter().any(|c| c.1 == 0) && split.iter().any(|c| c.1 == 11));
    // 12 generations: moved (3, 3), so its box starts at (16, 12) = (0, 0): the top-left corner.
    run.step(6);
    let expected = shape(&glider);
    assert_eq!(
        run.cells(),
        expected,
        "the glider reappears top-left with the same shape"
    );
    // A full lap of the torus: lcm(16, 12) = 48 cells, 192 generations.
    run.step(192 - 12);
    assert_eq!(run.cells(), start);
    assert_eq!(run.generation(), 192);
}

#[test]
fn gliders_break_up_at_a_dead_border() {
    let glider = lib("glider");
    let mut run = Run::new(
        &glider,
        16,
        16,
        Topology::DeadBorder,
        Placement::At { x: 10, y: 10 },
    );
    let start = run.cells();
    // While inside, it flies exactly as on an infinite plane.
    for k in 1..=3 {
        run.step(4);
        assert_eq!(run.cells(), translate(&start, k, k));
    }
    // Then it hits the corner and becomes debris: never again a glider anywhere.
    let shapes = glider_shapes();
    let mut last = run.cells();
    for _ in 0..100 {
        run.step(1);
        last = run.cells();
        assert_eq!(
            count_gliders(&last, &shapes),
            0,
            "a glider survived the border at gen {}",
            run.generation()
        );
    }
    run.step(1);
    assert_eq!(
        run.cells(),
        last,
        "the debris settles into a still life (or nothing)"
    );
    assert!(last.len() < 5, "debris: {last:?}");
}

// ---------------------------------------------------------------------------------------
// Guns

/// A gun in the top-left area of a big dead-border world: its own box repeats exactly every
/// `period` (and not before), and each period adds exactly one glider (+5 cells).
fn check_gun(name: &str, period: u64, periods: u64, world: u32, at: (i64, i64)) {
    let gun = lib(name);
    let mut run = Run::new(
        &gun,
        world,
        world,
        Topology::DeadBorder,
        Placement::At { x: at.0, y: at.1 },
    );
    let (x1, y1) = (at.0 + i64::from(gun.width), at.1 + i64::from(gun.height));
    let gun_box = |cells: &Cells| window(cells, at.0, at.1, x1, y1);
    let start = run.cells();
    let start_box = gun_box(&start);
    assert_eq!(start_box, start);
    let shapes = glider_shapes();
    for t in 1..period {
        run.step(1);
        assert_ne!(
            gun_box(&run.cells()),
            start_box,
            "{name} gun box repeats at {t}"
        );
    }
    run.step(1);
    for k in 1..=periods {
        let cells = run.cells();
        assert_eq!(
            gun_box(&cells),
            start_box,
            "{name} gun not back after {} generations",
            k * period
        );
        assert_eq!(
            cells.len() as u64,
            start.len() as u64 + 5 * k,
            "{name} population after {k} periods"
        );
        assert_eq!(
            count_gliders(&cells, &shapes) as u64,
            k,
            "{name} gliders after {k} periods"
        );
        run.step(period);
    }
}

#[test]
fn gosper_gun_emits_one_glider_every_30_generations() {
    check_gun("gosper-glider-gun", 30, 10, 160, (2, 2));
}

#[test]
fn simkin_gun_emits_one_glider_every_120_generations() {
    // Its gliders fly up and to the left, so the gun sits near the bottom-right.
    check_gun("simkin-glider-gun", 120, 8, 400, (340, 360));
}

// ---------------------------------------------------------------------------------------
// Methuselahs

/// Populations at each generation 0..=gens.
fn populations(run: &mut Run, gens: u64) -> Vec<u64> {
    let mut out = vec![run.population()];
    for _ in 0..gens {
        run.step(1);
        out.push(run.population());
    }
    out
}

#[test]
fn diehard_vanishes_at_generation_130() {
    let mut run = Run::new(
        &lib("diehard"),
        128,
        128,
        Topology::DeadBorder,
        Placement::Centred,
    );
    let pops = populations(&mut run, 135);
    assert!(
        pops[..130].iter().all(|&p| p > 0),
        "died early: {:?}",
        &pops[..130]
    );
    assert_eq!(pops[129], 2);
    assert!(pops[130..].iter().all(|&p| p == 0), "{:?}", &pops[130..]);
}

/// The generation from which the population stays constant up to `gens`, and that value.
fn settles(pops: &[u64]) -> (usize, u64) {
    let last = *pops.last().unwrap();
    let from = pops.iter().rposition(|&p| p != last).map_or(0, |i| i + 1);
    (from, last)
}

#[test]
fn r_pentomino_stabilises_at_generation_1103() {
    // Its first gliders are ~260 cells out by then: a 1024² dead border is never reached.
    let mut run = Run::new(
        &lib("r-pentomino"),
        1024,
        1024,
        Topology::DeadBorder,
        Placement::Centred,
    );
    let mut pops = populations(&mut run, 1103);
    assert_eq!(
        count_gliders(&run.cells(), &glider_shapes()),
        6,
        "gliders at 1103"
    );
    pops.extend(populations(&mut run, 100).into_iter().skip(1));
    assert_eq!(settles(&pops), (1103, 116));
}

#[test]
fn b_heptomino_stabilises_at_generation_148() {
    let mut run = Run::new(
        &lib("b-heptomino"),
        256,
        256,
        Topology::DeadBorder,
        Placement::Centred,
    );
    let pops = populations(&mut run, 260);
    assert_eq!(settles(&pops), (148, 28));
}

#[test]
fn pi_heptomino_stabilises_at_generation_173() {
    let mut run = Run::new(
        &lib("pi-heptomino"),
        256,
        256,
        Topology::DeadBorder,
        Placement::Centred,
    );
    let pops = populations(&mut run, 280);
    assert_eq!(settles(&pops), (173, 55));
}

#[test]
fn acorn_is_still_growing_at_generation_1000() {
    // Facts about its end (gen 5206) need a ~2800² world; see the next test.
    let mut run = Run::new(
        &lib("acorn"),
        1024,
        1024,
        Topology::DeadBorder,
        Placement::Centred,
    );
    run.step(999);
    let before = run.cells();
    run.step(1);
    let after = run.cells();
    assert_ne!(before, after, "acorn settled before generation 1000");
    assert!(after.len() > 300, "population {}", after.len());
    let (x0, x1) = (
        after.iter().map(|c| c.0).min().unwrap(),
        after.iter().map(|c| c.0).max().unwrap(),
    );
    let (y0, y1) = (
        after.iter().map(|c| c.1).min().unwrap(),
        after.iter().map(|c| c.1).max().unwrap(),
    );
    assert!(
        x1 - x0 > 200 && y1 - y0 > 200,
        "spread only {}x{}",
        x1 - x0,
        y1 - y0
    );
    // Nothing has reached the border yet, so this is the infinite-plane evolution.
    assert!(x0 > 0 && y0 > 0 && x1 < 1023 && y1 < 1023);
}

/// The same published fact on the unbounded plane (HashLife), where no border can be
/// reached: CI runs this one; the 2816² scalar run below is in the whole collection
/// (`scripts/test-full`), about a minute of scalar on two cores.
#[test]
fn acorn_stabilises_on_the_plane_at_generation_5206_with_633_cells() {
    let acorn = lib("acorn");
    let mut plane = golab::hashlife::Hashed::new(Rule::CONWAY, 64 << 20).unwrap();
    golab::hashlife::load::place(&mut plane, &acorn).unwrap();
    plane.advance(5200, &|| false).unwrap();
    let mut pops = vec![plane.population() as u64];
    for _ in 0..40 {
        plane.advance(1, &|| false).unwrap();
        pops.push(plane.population() as u64);
    }
    assert_eq!(settles(&pops), (6, 633));
    // Its 13 gliders (LifeWiki, "Acorn") have flown over a thousand cells apart.
    let bounds = plane.bounds().unwrap();
    assert!(
        bounds.width() > 1000 && bounds.height() > 1000,
        "{bounds:?}"
    );
}

#[test]
#[ignore = "the whole collection: scripts/test-full"]
fn acorn_stabilises_at_generation_5206_with_633_cells() {
    let mut run = Run::new(
        &lib("acorn"),
        2816,
        2816,
        Topology::DeadBorder,
        Placement::Centred,
    );
    run.step(5200);
    let pops = populations(&mut run, 40);
    // pops[i] is generation 5200 + i.
    assert_eq!(settles(&pops), (6, 633));
    let cells = run.cells();
    assert_eq!(count_gliders(&cells, &glider_shapes()), 13);
    assert!(
        cells
            .iter()
            .all(|&(x, y)| x > 0 && y > 0 && x < 2815 && y < 2815),
        "reached the border"
    );
}

// ---------------------------------------------------------------------------------------
// Engines, infinite growth, replication

#[test]
fn switch_engine_reappears_every_96_generations_8_cells_up_left() {
    let engine = lib("switch-engine");
    let target = shape(&engine);
    let mut run = Run::new(
        &engine,
        128,
        128,
        Topology::DeadBorder,
        Placement::At { x: 80, y: 80 },
    );
    for t in 1..96 {
        run.step(1);
        assert!(
            find_copies(&run.cells(), &target, 0).is_empty(),
            "engine shape back at {t}"
        );
    }
    // Debris touches it, so only its own box is required to match.
    run.step(1);
    assert_eq!(find_copies(&run.cells(), &target, 0), vec![(72, 72)]);
    run.step(96);
    assert_eq!(find_copies(&run.cells(), &target, 0), vec![(64, 64)]);
}

#[test]
fn five_by_five_pattern_grows_forever_as_a_block_laying_switch_engine() {
    let p = lib("5x5-infinite-growth");
    assert_eq!((p.width, p.height), (5, 5));
    let (ox, oy) = (350, 400);
    let mut run = Run::new(
        &p,
        1024,
        1024,
        Topology::DeadBorder,
        Placement::At { x: ox, y: oy },
    );
    run.step(720);
    let mut prev = run.cells();
    // The engine and the end of its block trail: moves (-24, -24) every 288 generations.
    let engine = |cells: &Cells, k: i64| {
        let (x, y) = (ox - 60 - 24 * k, oy - 44 - 24 * k);
        translate(&window(cells, x, y, x + 37, y + 43), -x, -y)
    };
    let first = engine(&prev, 0);
    assert!(first.len() > 40, "{}", first.len());
    for k in 1..=3 {
        run.step(288);
        let cells = run.cells();
        assert_eq!(
            engine(&cells, k),
            first,
            "engine not found translated after {k} periods"
        );
        assert_eq!(
            cells.len() as i64 - prev.len() as i64,
            32,
            "growth over period {k}"
        );
        prev = cells;
    }
    assert!(
        prev.iter()
            .all(|&(x, y)| x > 0 && y > 0 && x < 1023 && y < 1023),
        "reached the border"
    );
}

#[test]
fn highlife_replicator_copies_itself_in_12_generations() {
    let rep = lib("highlife-replicator");
    let highlife: Rule = "B36/S23".parse().unwrap();
    assert_eq!(rep.rule, Some(highlife));
    let (ox, oy) = (30, 30);
    let start = translate(&shape(&rep), ox, oy);
    let mut run = Run::new(
        &rep,
        64,
        64,
        Topology::Torus,
        Placement::At { x: ox, y: oy },
    );
    run.step(12);
    let two = &translate(&start, -2, -2) | &translate(&start, 2, 2);
    assert_eq!(two.len(), 24);
    assert_eq!(
        run.cells(),
        two,
        "two copies, 2 cells up-left and down-right"
    );
    // In Conway's Life the same cells do not replicate.
    let mut life = Run::with_rule(
        &rep,
        64,
        64,
        Topology::Torus,
        Placement::At { x: ox, y: oy },
        Rule::CONWAY,
    );
    life.step(12);
    let cells = life.cells();
    assert_ne!(cells, two);
    assert!(
        !translate(&start, -2, -2).is_subset(&cells) || !translate(&start, 2, 2).is_subset(&cells)
    );
}

#[test]
fn every_bundled_pattern_has_a_behaviour_check() {
    let checked = [
        "block",
        "beehive",
        "loaf",
        "boat",
        "tub",
        "ship",
        "pond",
        "blinker",
        "toad",
        "beacon",
        "clock",
        "pulsar",
        "octagon-2",
        "figure-eight",
        "koks-galaxy",
        "tumbler",
        "pentadecathlon",
        "glider",
        "lwss",
        "mwss",
        "hwss",
        "copperhead",
        "gosper-glider-gun",
        "simkin-glider-gun",
        "diehard",
        "r-pentomino",
        "b-heptomino",
        "pi-heptomino",
        "acorn",
        "switch-engine",
        "5x5-infinite-growth",
        "highlife-replicator",
        // Checked in tests/bundled_rules.rs with their rules: Langton's loop copies itself
        // in 151 generations; the loops' colonies give Golly's populations.
        "langtons-loop",
        "byls-loop",
        "evoloop-species-13",
    ];
    for entry in library::library() {
        assert!(
            checked.contains(&entry.name),
            "{} has no test in known_behaviour.rs",
            entry.name
        );
    }
}
