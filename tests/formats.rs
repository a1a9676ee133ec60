//! The formats beyond plain RLE and plaintext: hand-made files for every header and block
//! form (Life 1.05/1.06, macrocell, extended and multi-state RLE, bounded grids, apgcodes),
//! the fixtures of real patterns in tests/fixtures/ checked against independent sources,
//! and errors that name where they are.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use golab::pattern::library::find;
use golab::pattern::{Format, Grid, Pattern, PatternError, apgcode, load_file, parse, resolve};
use golab::rule::Rule;
use golab::world::Topology;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The (line, column, message) of a syntax error, failing for any other result.
fn syntax_at(text: &str, format: Option<Format>) -> (usize, usize, String) {
    match parse(text, format) {
        Err(PatternError::Syntax {
            line,
            column,
            message,
        }) => (line, column, message),
        other => panic!("expected a syntax error for {text:?}, got {other:?}"),
    }
}

/// The warnings of a text that reads.
fn warnings(text: &str, format: Option<Format>) -> Vec<String> {
    match parse(text, format) {
        Ok(p) => p.warnings,
        Err(e) => panic!("expected {text:?} to read, got {e}"),
    }
}

/// Live cells at Golly coordinates (the box's top-left at its position, else 0, 0).
fn absolute(p: &Pattern) -> Vec<(i64, i64)> {
    let (x0, y0) = p.position.unwrap_or_default();
    let mut cells: Vec<_> = p
        .cells
        .iter()
        .map(|&(x, y)| (x0 + i64::from(x), y0 + i64::from(y)))
        .collect();
    cells.sort_unstable_by_key(|&(x, y)| (y, x));
    cells
}

/// The library pattern's cells (box-relative).
fn library_cells(name: &str) -> Vec<(u32, u32)> {
    find(name).unwrap().cells
}

// ---------------------------------------------------------------------------------------
// Life 1.05 and 1.06

#[test]
fn life105_blocks_rules_and_positions() {
    let text = "#Life 1.05\n#D Name: two blocks\n#D from a test\n#R 23/36\n\
                #P -3 -2\n**\n**\n#P 10 5\n.*\n*.\n";
    let p = parse(text, None).unwrap();
    assert_eq!(p.name.as_deref(), Some("two blocks"));
    assert_eq!(p.comments, ["from a test"]);
    assert_eq!(p.rule, Some("B36/S23".parse::<Rule>().unwrap()));
    assert_eq!(p.position, Some((-3, -2)));
    assert_eq!((p.width, p.height), (15, 9));
    assert_eq!(
        absolute(&p),
        [(-3, -2), (-2, -2), (-3, -1), (-2, -1), (11, 5), (10, 6)]
    );
    // Rows before any #P start at (0, 0); #N asks for Conway's rules; a bare #P block
    // (WinLifeSearch's clipboard form) is detected as Life 1.05.
    let bare = parse("#N\n.*\n", Some(Format::Life105)).unwrap();
    assert_eq!(
        (absolute(&bare), bare.rule),
        (vec![(1, 0)], Some(Rule::CONWAY))
    );
    let headerless = parse("#P 4 4\n*\n", None).unwrap();
    assert_eq!(absolute(&headerless), [(4, 4)]);
    // A bare `#P` (as in Golly's own acorn.lif) keeps the position where it is: at the
    // start, (0, 0); after rows, the next row.
    let golly = parse("#Life 1.05\n#D Acorn\n#P\n.*\n...*\n**..***\n", None).unwrap();
    assert_eq!(golly.population(), 7);
    assert_eq!(
        absolute(&golly),
        [(1, 0), (3, 1), (0, 2), (1, 2), (4, 2), (5, 2), (6, 2)]
    );
    let after = parse("#Life 1.05\n#P 2 2\n*\n#P \n.*\n", None).unwrap();
    assert_eq!(absolute(&after), [(2, 2), (3, 3)]);
}

#[test]
fn life105_refuses_bad_rules_and_warns_where_it_reads_as_golly_does() {
    let (line, column, m) = syntax_at("#Life 1.05\n#R 23/9\n*\n", None);
    assert_eq!((line, column), (2, 4), "{m}");
    // Golly reads what it can of a #P and takes any character of a row but '*' as dead.
    let w = warnings("#Life 1.05\n#P 1\n*\n", None);
    assert!(
        w[0].starts_with("line 2, column 1: #P needs 'X Y'"),
        "{w:?}"
    );
    let w = warnings("#Life 1.05\n#P 0 0\n.*x\n", None);
    assert!(
        w[0].starts_with("line 3, column 3: 'x' is read as a dead cell"),
        "{w:?}"
    );
}

#[test]
fn life106_reads_cells_rules_and_skips_bad_lines() {
    let text = "#Life 1.06\n#D Author: a tester\n#R B3/S23:P20,10\n0 -1\n1 0\n1 0\n-1 1\n";
    let p = parse(text, None).unwrap();
    assert_eq!(p.author.as_deref(), Some("a tester"));
    assert_eq!(absolute(&p), [(0, -1), (1, 0), (-1, 1)], "duplicates merge");
    assert_eq!(
        p.grid,
        Some(Grid {
            width: 20,
            height: 10,
            topology: Topology::DeadBorder
        })
    );
    // Lines that are not two numbers are skipped with a warning at their start; #P blocks
    // mix with cells, as in Golly's one reader for 1.05 and 1.06.
    let w = warnings("#Life 1.06\n1 a\n", None);
    assert!(
        w[0].starts_with("line 2, column 1: '1 a' is not an 'X Y' cell"),
        "{w:?}"
    );
    let w = warnings("#Life 1.06\n  7\n", None);
    assert!(w[0].starts_with("line 2, column 3: '7'"), "{w:?}");
    let mixed = parse("#Life 1.06\n#P 5 5\n*\n0 0\n", None).unwrap();
    assert_eq!(
        (absolute(&mixed), mixed.warnings),
        (vec![(0, 0), (5, 5)], vec![])
    );
    // A box golab cannot hold is refused with the size it needs.
    match parse("#Life 1.06\n0 0\n2000000000 0\n", None) {
        Err(e @ PatternError::TooLarge { .. }) => {
            let m = e.to_string();
            assert!(
                m.contains("2000000001x1") && m.contains("1073741824x1073741824"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Macrocell

#[test]
fn macrocell_leaves_nodes_and_metadata() {
    let p = load_file(&fixture("glider.mc")).unwrap();
    assert_eq!(p.name.as_deref(), Some("Glider"));
    assert_eq!(p.generation, Some(4));
    assert_eq!(p.rule, Some(Rule::CONWAY));
    // The leaf is the root's nw quadrant, whose corner is at (-8, -8).
    assert_eq!(p.position, Some((-8, -3)));
    assert_eq!(p.cells, library_cells("glider"));
    // Multi-state 2×2 nodes of LifeHistory (built in, 7 states): every state kept.
    let text = "[M2]\n#R LifeHistory\n1 1 2 0 3\n1 4 5 6 0\n2 1 0 2 0\n";
    let h = parse(text, None).unwrap();
    assert_eq!(h.rule.unwrap().states(), 7);
    assert_eq!(h.population() + h.dying.len(), 6, "{h:?}");
    assert!(h.warnings.is_empty(), "{:?}", h.warnings);
    // An empty file (no nodes) is an empty pattern, as in Golly.
    assert_eq!(
        parse("[M2] (x)\n#R B3/S23\n", None).unwrap().population(),
        0
    );
}

#[test]
fn macrocell_errors_are_located() {
    let cases: [(&str, (usize, usize), &str); 6] = [
        ("[M2]\n*$\n4 1 0 0 9\n", (3, 9), "not defined"),
        ("[M2]\n*$\n4 1 0 0 0\n4 0 2 0 0\n", (4, 5), "level"),
        ("[M2]\n.........*$\n", (2, 10), "outside"),
        ("[M2]\n*$*x\n", (2, 4), "unexpected"),
        ("[M2]\n*$\n4 1 0 0\n", (3, 8), "5 numbers"),
        ("[M2]\n#G soon\n", (2, 4), "generation"),
    ];
    for (text, at, word) in cases {
        let (line, column, m) = syntax_at(text, None);
        assert_eq!((line, column), at, "{text:?}: {m}");
        assert!(m.contains(word), "{text:?}: {m}");
    }
    let (line, column, m) = syntax_at("[M2]\n1 0 2 0 0\n", None);
    assert_eq!((line, column), (2, 5), "{m}");
}

/// A macrocell of `levels` nested nodes with one cell in the top-left corner of each, whose
/// root holds two copies (nw and se): a file of a few lines for a huge box.
fn far_apart(root_level: u32) -> String {
    let mut text = String::from("[M2]\n*$\n4 1 0 0 0\n");
    for level in 5..root_level {
        text.push_str(&format!("{level} {} 0 0 0\n", level - 3));
    }
    let top = root_level - 3;
    text.push_str(&format!("{root_level} {top} 0 0 {top}\n"));
    text
}

#[test]
fn a_macrocell_larger_than_golab_is_refused_with_the_size_it_needs() {
    // Wider than any grid (golab opens it on the plane), still a pattern: two cells.
    let fits = parse(&far_apart(18), None).unwrap();
    assert_eq!((fits.width, fits.height), (131073, 131073));
    assert_eq!(fits.population(), 2);
    let start = Instant::now();
    match parse(&far_apart(32), None) {
        Err(e @ PatternError::TooLarge { .. }) => {
            let m = e.to_string();
            assert!(
                m.contains("2147483649x2147483649") && m.contains("1073741824x1073741824"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A full 8×8 leaf repeated up to a 65536² square: 4 Gi cells from 14 lines.
    let mut full = String::from("[M2]\n");
    full.push_str(&"********$".repeat(8));
    full.push('\n');
    for level in 4..=16 {
        let child = level - 3;
        full.push_str(&format!("{level} {child} {child} {child} {child}\n"));
    }
    assert!(matches!(
        parse(&full, None),
        Err(PatternError::TooLarge { .. })
    ));
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

// ---------------------------------------------------------------------------------------
// Extended and multi-state RLE, bounded grids

#[test]
fn xrle_position_generation_and_bounded_grid() {
    let p = load_file(&fixture("glider-torus.rle")).unwrap();
    assert_eq!((p.position, p.generation), (Some((-1, -1)), Some(8)));
    assert_eq!(
        p.grid,
        Some(Grid {
            width: 16,
            height: 16,
            topology: Topology::Torus
        })
    );
    assert_eq!(p.cells, library_cells("glider"));
    // Written back, Golly's order: #CXRLE first, the suffix after the rule.
    let text = p.to_rle();
    assert!(text.starts_with("#CXRLE Pos=-1,-1 Gen=8\n"), "{text}");
    assert!(text.contains("rule = B3/S23:T16,16\n"), "{text}");
    // A value that does not read is skipped, at its column, as Golly reads what it can.
    let w = warnings("#CXRLE Pos=3\nx = 1, y = 1\no!", None);
    assert!(w[0].starts_with("line 1, column 12: #CXRLE Pos="), "{w:?}");
    let w = warnings("#CXRLE Gen=-4\nx = 1, y = 1\no!", None);
    assert!(w[0].starts_with("line 1, column 12: #CXRLE Gen="), "{w:?}");
}

/// Golly's other surfaces read from an RLE header (tests/surfaces.rs runs them); a suffix
/// Golly refuses is refused at its column with Golly's reason.
#[test]
fn other_surfaces_read_and_impossible_ones_are_refused_at_the_suffix() {
    use golab::world::{Join, Topology};
    for (suffix, topology) in [
        (
            ":K10,20*",
            Topology::Joined(Join::KleinLeftRight { shift: false }),
        ),
        (":C10,20", Topology::Joined(Join::CrossSurface)),
        (":S10", Topology::Joined(Join::Sphere)),
        (":T10+1,20", Topology::Joined(Join::ShiftedTopBottom(1))),
        (":T0,20", Topology::Joined(Join::TubeTopBottom)),
    ] {
        let text = format!("x = 1, y = 1, rule = B3/S23{suffix}\no!");
        let p = parse(&text, None).unwrap();
        assert_eq!(p.grid.map(|g| g.topology), Some(topology), "{text}");
        assert_eq!(
            p.grid.map(|g| g.suffix()).as_deref(),
            Some(suffix),
            "{text}"
        );
    }
    for (suffix, word) in [
        (":C10+1,20", "cross-surface cannot have a shift"),
        (":S10,12", "unexpected"),
        (":K0,20", "infinite side"),
        (":P10+1,20", "plane cannot have a shift"),
    ] {
        let text = format!("x = 1, y = 1, rule = B3/S23{suffix}\no!");
        let (line, column, m) = syntax_at(&text, None);
        assert_eq!(line, 1);
        assert!(column >= 28, "{text}: column {column}");
        assert!(m.contains(word), "{text}: {m}");
    }
}

#[test]
fn lifehistory_reads_every_state_golly_wrote() {
    // LifeHistory is built in (Golly's Super algorithm): no rule file needed, every state
    // read as written.
    let p = load_file(&fixture("glider-history.rle")).unwrap();
    let rule = p.rule.unwrap();
    assert_eq!(
        (rule.to_string(), rule.states()),
        ("LifeHistory".to_string(), 7)
    );
    // State 1 is the pattern's live cells; 2 and 3 (history, marked on) are kept beside.
    assert_eq!(p.cells.len(), 4);
    assert_eq!(p.dying.len(), 9, "{:?}", p.dying);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // Two-letter states: pA is state 25, beyond LifeHistory's 7 and a two-state rule's 2.
    let (line, column, m) = syntax_at("x = 3, y = 1, rule = LifeHistory\nApAE!", None);
    assert_eq!((line, column), (2, 2), "{m}");
    assert!(m.contains("state 25"), "{m}");
    let (line, column, m) = syntax_at("x = 3, y = 1\no2pA!", None);
    assert_eq!((line, column), (2, 2), "{m}");
    assert!(m.contains("state 25"), "{m}");
    // A prefix with no letter after it is state 1, as Golly reads it.
    let p = parse("x = 3, y = 1, rule = LifeHistory\nAp!", None).unwrap();
    assert_eq!(p.cells, [(0, 0), (1, 0)]);
    assert!(
        p.warnings[0].starts_with("line 2, column 2: 'p'"),
        "{:?}",
        p.warnings
    );
}

#[test]
fn generations_rle_reads_and_writes_dying_states_and_places_them() {
    // Brian's Brain (C = 3): A alive, B dying; Star Wars (C = 4) has states up to C.
    let text = "#N spaceship\nx = 4, y = 2, rule = /2/3\n.2A.$.2B.!";
    let p = parse(text, None).unwrap();
    assert_eq!(p.cells, vec![(1, 0), (2, 0)]);
    assert_eq!(p.dying, vec![(1, 1, 2), (2, 1, 2)]);
    let again = parse(&p.to_rle(), None).unwrap();
    assert_eq!(
        (again.cells.clone(), again.dying.clone()),
        (p.cells.clone(), p.dying.clone())
    );
    assert!(
        p.to_rle().ends_with("rule = /2/3\n.2A$.2B!\n"),
        "{}",
        p.to_rle()
    );

    // Two-letter states round-trip under a rule with many states.
    let many = parse("x = 3, y = 1, rule = 2/3/40\nApCA!", None).unwrap();
    assert_eq!(
        (many.cells.clone(), many.dying.clone()),
        (vec![(0, 0), (2, 0)], vec![(1, 0, 27)])
    );
    assert_eq!(parse(&many.to_rle(), None).unwrap().dying, many.dying);

    // A state beyond the rule's C - 1 is an error at its letter.
    let (line, column, m) = syntax_at("x = 3, y = 1, rule = 345/2/4\nAD!", None);
    assert_eq!((line, column), (2, 2), "{m}");
    assert!(m.contains("state 4") && m.contains("4 states"), "{m}");

    // Placing the pattern gives the world its states; saving it back keeps them.
    let rule: Rule = "/2/3".parse().unwrap();
    let mut world = golab::world::World::new(10, 8, Topology::Torus, rule).unwrap();
    p.place(&mut world, golab::pattern::Placement::At { x: 3, y: 3 });
    assert_eq!((world.population(), world.dying_count()), (2, 2));
    assert_eq!(world.state_at(4 * 10 + 4), 2);
    let saved = Pattern::from_world(&world);
    assert_eq!((saved.cells.len(), saved.dying.len()), (2, 2));

    // Macrocell's 2×2 state nodes carry dying states too (Golly's multi-state macrocell).
    let mc = "[M2] (golly 4.0)\n#R /2/3\n1 1 1 2 2\n2 0 0 0 1\n";
    let m = parse(mc, None).unwrap();
    assert_eq!(
        (m.cells.clone(), m.dying.clone()),
        (vec![(0, 0), (1, 0)], vec![(0, 1, 2), (1, 1, 2)])
    );
    assert_eq!(m.position, Some((0, 0)));
    let (line, column, message) = syntax_at("[M2]\n#R 345/2/4\n1 1 4 0 0\n", None);
    assert_eq!((line, column), (3, 5), "{message}");

    // Formats that hold live cells only refuse a pattern with dying cells (nothing dropped);
    // macrocell writes them as 2×2 state leaves, which read back.
    for format in [Format::Plaintext, Format::Life106] {
        let err = saved.to_format(format).unwrap_err().to_string();
        assert!(
            err.contains("2 cells in states 2 and up") && err.contains("RLE"),
            "{err}"
        );
    }
    let back = parse(&saved.to_format(Format::Macrocell).unwrap(), None).unwrap();
    assert_eq!((back.cells.len(), back.dying.len()), (2, 2));
    assert_eq!(back.dying.iter().map(|d| d.2).collect::<Vec<_>>(), [2, 2]);
}

// ---------------------------------------------------------------------------------------
// apgcodes

#[test]
fn apgcodes_decode_every_abbreviation() {
    assert_eq!(apgcode::wechsler_cells("1w1").unwrap(), [(0, 0), (3, 0)]);
    assert_eq!(apgcode::wechsler_cells("1x1").unwrap(), [(0, 0), (4, 0)]);
    assert_eq!(apgcode::wechsler_cells("1y01").unwrap(), [(0, 0), (5, 0)]);
    assert_eq!(apgcode::wechsler_cells("1yz1").unwrap(), [(0, 0), (40, 0)]);
    assert_eq!(apgcode::wechsler_cells("1z1").unwrap(), [(0, 0), (0, 5)]);
    assert_eq!(apgcode::wechsler_cells("v").unwrap().len(), 5);
    let block = resolve("xs4_33").unwrap();
    assert_eq!((block.width, block.height), (2, 2));
    assert_eq!(block.name.as_deref(), Some("xs4_33"));
    // Pasted text (as the app's clipboard does) is detected too.
    assert_eq!(
        parse("  xp2_7\n", None).unwrap().cells,
        [(0, 0), (0, 1), (0, 2)]
    );
}

#[test]
fn apgcode_errors_are_located() {
    for (code, column, word) in [
        ("xs4_3A", 6, "unexpected"),
        ("xs5_33", 3, "promises 5"),
        ("xs4_33y", 7, "'y'"),
        ("xq_153", 3, "number"),
        ("xs4_", 5, "no live cells"),
    ] {
        let (line, col, m) = syntax_at(code, Some(Format::Apgcode));
        assert_eq!((line, col), (1, column), "{code}: {m}");
        assert!(m.contains(word), "{code}: {m}");
    }
    let (_, column, m) = syntax_at("ov_s16", Some(Format::Apgcode));
    assert_eq!(column, 1, "{m}");
    assert!(matches!(
        resolve("xs4_zz"),
        Err(PatternError::Syntax { .. })
    ));
}

#[test]
fn common_objects_have_their_catagolue_codes_both_ways() {
    let list = std::fs::read_to_string(fixture("apgcodes.txt")).unwrap();
    let orientations = |p: &Pattern| -> Vec<Vec<(u32, u32)>> {
        let mut all = Vec::new();
        let mut q = p.clone();
        for _ in 0..4 {
            all.push(q.cells.clone());
            all.push(q.flipped_x().cells);
            q = q.rotated_cw();
        }
        all
    };
    for line in list.lines() {
        let (code, name) = line.split_once(' ').unwrap();
        let object = find(name).unwrap();
        assert_eq!(apgcode::classify(&object).unwrap(), code, "{name}");
        let decoded = resolve(code).unwrap();
        // The code names one phase in one orientation; some phase of the object is it.
        let mut phase = object.clone();
        let mut found = false;
        for _ in 0..16 {
            found |= orientations(&phase).contains(&decoded.cells);
            phase = golab_step(&phase);
        }
        assert!(found, "{code} is not a phase of {name}");
    }
    let gun = find("gosper-glider-gun").unwrap();
    assert!(matches!(
        apgcode::classify(&gun),
        Err(PatternError::Unsupported(_))
    ));
    assert!(matches!(
        apgcode::classify(&Pattern::default()),
        Err(PatternError::Unsupported(_))
    ));
}

/// One generation of a small pattern, in a world large enough not to touch its edges,
/// through golab's own simulation, cut back to its bounding box.
fn golab_step(p: &Pattern) -> Pattern {
    use golab::pattern::Placement;
    use golab::world::World;
    let mut world = World::new(64, 64, Topology::DeadBorder, Rule::CONWAY).unwrap();
    p.place(&mut world, Placement::Centred);
    let mut sim = golab::sim::Simulation::new(
        golab::step::StepperFactory::cpu_only(),
        world,
        golab::step::Strategy::Scalar,
    )
    .unwrap();
    sim.step(1).unwrap();
    Pattern::from_world(sim.world().unwrap())
}

// ---------------------------------------------------------------------------------------
// Fixtures of real patterns

#[test]
fn the_life105_gosper_gun_is_the_bundled_gun() {
    let lif = load_file(&fixture("gosper-glider-gun.lif")).unwrap();
    let rle = find("gosper-glider-gun").unwrap();
    assert_eq!((lif.width, lif.height), (rle.width, rle.height));
    assert_eq!(lif.cells, rle.cells);
    assert_eq!(lif.position, Some((-18, -4)));
    assert_eq!(lif.comments[0], "Gosper glider gun");
}

#[test]
fn the_life106_glider_is_a_glider() {
    let p = load_file(&fixture("glider.lif")).unwrap();
    assert_eq!(p.cells, library_cells("glider"));
    assert_eq!(p.position, Some((-1, -1)));
}

#[test]
fn the_gzipped_gun_reads_like_the_plain_one_by_content_not_name() {
    let gz = load_file(&fixture("gosper-glider-gun.rle.gz")).unwrap();
    assert_eq!(gz, find("gosper-glider-gun").unwrap());
    let bytes = std::fs::read(fixture("gosper-glider-gun.rle.gz")).unwrap();
    let text = golab::pattern::decode_bytes(bytes).unwrap();
    assert!(text.starts_with("#N Gosper glider gun"));
}

/// `golab run --pattern <pattern> --size <size> --gens <gens> --json --strategy scalar`,
/// which must succeed; its JSON report as text.
fn run_json(pattern: &str, size: &str, gens: &str) -> String {
    let out = common::golab_ok(&[
        "run",
        "--pattern",
        pattern,
        "--size",
        size,
        "--gens",
        gens,
        "--json",
        "--strategy",
        "scalar",
    ]);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn the_cli_runs_an_apgcode_and_a_compressed_file() {
    for (pattern, population) in [("xs4_33", 4), ("xp2_7", 3)] {
        let stdout = run_json(pattern, "32", "7");
        assert!(
            stdout.contains(&format!("\"population\":{population},")),
            "{stdout}"
        );
    }
    let gun = fixture("gosper-glider-gun.rle.gz");
    let stdout = run_json(&gun.to_string_lossy(), "64", "30");
    assert!(stdout.contains("\"population\":41,"), "{stdout}");
    // LifeHistory runs as Golly runs it: bgolly 3.3's LifeHistory table gives the
    // population golab's built-in History family must give.
    let history = fixture("glider-history.rle");
    let stdout = run_json(&history.to_string_lossy(), "16", "4");
    let theirs = common::bgolly_algo_population("RuleLoader", &history, 4);
    assert!(
        stdout.contains(&format!("\"occupied\":{theirs},")),
        "{stdout} vs {theirs}"
    );
    assert!(stdout.contains("\"rule\":\"LifeHistory\""), "{stdout}");
}

#[test]
fn mcell_files_read_states_board_and_rule_as_golly_reads_them() {
    let text = "#MCell 4.00\n#GAME Rules table\n#GOLLY WireWorld\n#RULE 1,0,0\n#BOARD 20x10\n#WRAP 1\n#D A wire\n#L .CCCBA$3.aB\n";
    let p = parse(text, None).unwrap();
    assert_eq!(p.rule.unwrap().to_string(), "WireWorld");
    let grid = p.grid.unwrap();
    assert_eq!(
        (grid.width, grid.height, grid.topology),
        (20, 10, Topology::Torus)
    );
    assert_eq!(p.comments, ["A wire"]);
    // Row 0: . C C C B A  (C = conductor 3, B = tail 2, A = head 1); row 1: 3 blanks, aB = 26,
    // beyond WireWorld's states and read as state 1 as MCell and Golly do.
    assert_eq!((p.width, p.height), (5, 2));
    assert_eq!(p.cells, [(4, 0), (2, 1)]);
    assert_eq!(p.dying, [(0, 0, 3), (1, 0, 3), (2, 0, 3), (3, 0, 2)]);
    // Centred on the board as MCell centres it: Golly's top-left is -10 + (21 - 5) / 2.
    assert_eq!(p.position, Some((-2, -5 + (11 - 2) / 2)));
    let (line, column, m) = syntax_at("#MCell 4.00\n#L ..Z\n", None);
    assert_eq!((line, column), (2, 6), "{m}");
    assert!(p.to_format(golab::pattern::Format::MCell).is_err());
}
