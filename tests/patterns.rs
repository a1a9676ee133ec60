//! Pattern formats, the bundled library and placement: round trips, exact error positions,
//! resource limits and clipping.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use golab::pattern::library::{self, library};
use golab::pattern::{
    Format, MAX_PATTERN_EDGE, Pattern, PatternError, Placement, load_file, parse, resolve,
};
use golab::rule::Rule;
use golab::world::{CellEdit, Topology, World};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Helpers

fn pattern(width: u32, height: u32, cells: &[(u32, u32)]) -> Pattern {
    Pattern {
        width,
        height,
        cells: cells.to_vec(),
        ..Pattern::default()
    }
}

/// The (line, column) of a syntax error, failing the test for any other result.
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

fn rle_error(text: &str) -> (usize, usize) {
    let (line, column, _) = syntax_at(text, Some(Format::Rle));
    (line, column)
}

/// A scratch file, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    /// Write `contents` to a file called `name` (unique among the tests) in a directory of
    /// its own, so tests running in parallel never share one.
    fn new(name: &str, contents: &[u8]) -> TempFile {
        let dir =
            std::env::temp_dir().join(format!("golab-pattern-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }
}

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn world(width: u32, height: u32) -> World {
    World::new(width, height, Topology::DeadBorder, Rule::CONWAY).unwrap()
}

fn live_cells(world: &World) -> Vec<(u32, u32)> {
    (0..world.height())
        .flat_map(|y| (0..world.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| world.is_alive(x, y))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Round trips

fn meta_text() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9 .,()'/-]{0,60}[A-Za-z0-9)]"
}

/// Random patterns built from horizontal runs, so long and multi-digit runs are common.
fn arb_pattern(max_w: u32, max_h: u32) -> impl Strategy<Value = Pattern> {
    (1..=max_w, 1..=max_h)
        .prop_flat_map(|(w, h)| {
            let runs = prop::collection::vec((0..w, 0..h, 1..=w), 0..60);
            let rules =
                prop::sample::select(vec![None, Some("B3/S23"), Some("B36/S23"), Some("B2/S")]);
            let meta = (
                prop::option::of(meta_text()),
                prop::option::of(meta_text()),
                prop::collection::vec(meta_text(), 0..4),
            );
            (Just(w), Just(h), runs, rules, meta)
        })
        .prop_map(|(w, h, runs, rule, (name, author, comments))| {
            let mut cells: Vec<(u32, u32)> = runs
                .into_iter()
                .flat_map(|(x, y, len)| (x..(x + len).min(w)).map(move |cx| (cx, y)))
                .collect();
            cells.sort_unstable_by_key(|&(x, y)| (y, x));
            cells.dedup();
            Pattern {
                name,
                author,
                comments,
                rule: rule.map(|r| r.parse().unwrap()),
                width: w,
                height: h,
                cells,
                ..Pattern::default()
            }
        })
}

fn check_rle_lines(text: &str) {
    let header = text
        .lines()
        .position(|l| l.starts_with("x ="))
        .expect("header");
    for line in text.lines().skip(header + 1) {
        assert!(
            line.len() <= 70,
            "body line of {} chars: {line}",
            line.len()
        );
    }
    assert!(text.trim_end().ends_with('!'));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rle_round_trips(p in arb_pattern(120, 40)) {
        let text = p.to_rle();
        check_rle_lines(&text);
        prop_assert_eq!(&parse(&text, Some(Format::Rle)).unwrap(), &p);
        prop_assert_eq!(&parse(&text, None).unwrap(), &p);
    }

    #[test]
    fn wide_rle_round_trips_with_wrapped_lines(p in arb_pattern(5000, 6)) {
        let text = p.to_rle();
        check_rle_lines(&text);
        prop_assert_eq!(&parse(&text, None).unwrap(), &p);
    }

    #[test]
    fn plaintext_round_trips(p in arb_pattern(80, 40)) {
        let text = p.to_plaintext();
        prop_assert_eq!(&parse(&text, Some(Format::Plaintext)).unwrap(), &p);
        prop_assert_eq!(&parse(&text, None).unwrap(), &p);
    }

    #[test]
    fn formats_agree(p in arb_pattern(60, 30)) {
        let a = parse(&p.to_rle(), None).unwrap();
        let b = parse(&p.to_plaintext(), None).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn transforms_compose(p in arb_pattern(40, 30)) {
        let r = p.rotated_cw();
        prop_assert_eq!((r.width, r.height), (p.height, p.width));
        prop_assert_eq!(r.population(), p.population());
        prop_assert_eq!(&r.rotated_cw().rotated_cw().rotated_cw(), &p);
        prop_assert_eq!(&p.flipped_x().flipped_x(), &p);
        prop_assert_eq!(&p.flipped_y().flipped_y(), &p);
        // Two quarter turns are both flips.
        prop_assert_eq!(&r.rotated_cw(), &p.flipped_x().flipped_y());
        // Transformed cells stay sorted and unique, so they round-trip too.
        prop_assert_eq!(&parse(&r.to_rle(), None).unwrap(), &r);
    }

    /// Garbage never panics, and anything accepted satisfies the pattern invariant.
    #[test]
    fn arbitrary_text_never_panics(text in "[xXyY=, 0-9boBA$!#CNO.*\\r\\n\\t-]{0,200}") {
        for format in [None, Some(Format::Rle), Some(Format::Plaintext)] {
            if let Ok(p) = parse(&text, format) {
                prop_assert!(p.cells.windows(2).all(|w| (w[0].1, w[0].0) < (w[1].1, w[1].0)));
                prop_assert!(p.cells.iter().all(|&(x, y)| x < p.width && y < p.height));
            }
        }
    }

    #[test]
    fn unicode_never_panics(text in any::<String>()) {
        for format in [None, Some(Format::Rle), Some(Format::Plaintext)] {
            let _ = parse(&text, format);
            let _ = parse(&format!("x = 5, y = 5\n{text}"), format);
            let _ = parse(&format!("!Name: {text}\n{text}"), format);
        }
    }
}

#[test]
fn rle_writer_uses_multi_digit_runs_and_row_skips() {
    let mut cells = vec![(0, 0)];
    cells.extend((11..24).map(|x| (x, 0)));
    cells.push((2, 5));
    cells.push((3, 5));
    let p = Pattern {
        name: Some("runs".into()),
        rule: Some(Rule::CONWAY),
        ..pattern(30, 7, &cells)
    };
    assert_eq!(
        p.to_rle(),
        "#N runs\nx = 30, y = 7, rule = B3/S23\no10b13o5$2b2o!\n"
    );
    let back = parse(&p.to_rle(), None).unwrap();
    assert_eq!(back, p);
    // Multi-digit `$` runs and a missing final `!` are read.
    let q = parse("x = 3, y = 12\n12b$o10$2o", None).unwrap();
    assert_eq!(q.cells, vec![(0, 1), (0, 11), (1, 11)]);
}

#[test]
fn rle_reader_accepts_the_usual_variations() {
    // No spaces in the header, `.` for dead cells, runs split between lines, junk after `!`.
    let p = parse(
        "#C a\n#c b\n#P 1 2\n#r 23/3\nx=4,y=2,rule=highlife\n2.\n2o$\n4o\n!trailing ^ junk\n",
        None,
    )
    .unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.comments, vec!["a".to_string(), "b".to_string()]);
    assert_eq!(p.rule, Some("B36/S23".parse().unwrap()));
    assert_eq!(
        p.cells,
        vec![(2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)]
    );
    // A Golly bounded-grid suffix on the rule is ignored; header keys are case-insensitive.
    let q = parse("X = 1, Y = 1, RULE = B3/S23:T10,10\no!", None).unwrap();
    assert_eq!(q.rule, Some(Rule::CONWAY));
    // Dead cells and row ends past the declared box are harmless; only live cells are checked.
    let r = parse("x = 2, y = 1\no5b$$!", None).unwrap();
    assert_eq!((r.width, r.height, r.cells.clone()), (2, 1, vec![(0, 0)]));
}

#[test]
fn crlf_and_bom_are_accepted() {
    let rle = "\u{feff}#N Blinker\r\nx = 3, y = 1, rule = B3/S23\r\n3o!\r\n";
    let p = parse(rle, None).unwrap();
    assert_eq!(p.name.as_deref(), Some("Blinker"));
    assert_eq!(p.cells, vec![(0, 0), (1, 0), (2, 0)]);
    let cells = "\u{feff}!Name: Glider\r\n.O.\r\n..O\r\nOOO\r\n";
    let g = parse(cells, None).unwrap();
    assert_eq!(g.name.as_deref(), Some("Glider"));
    assert_eq!((g.width, g.height, g.population()), (3, 3, 5));
    // The BOM is skipped with a warning (Golly reads such a file as a picture of text).
    assert!(
        p.warnings[0].contains("byte-order mark"),
        "{:?}",
        p.warnings
    );
    // Positions after a BOM and CR still count from the first visible character.
    assert_eq!(rle_error("\u{feff}x = 3, y = 2\r\no$\r\n2 o"), (3, 2));
    let w = warnings("\u{feff}.O\r\n.Q\r\n", None);
    assert!(w[1].starts_with("line 2, column 2: 'Q'"), "{w:?}");
    // Old Mac files end lines with a lone CR.
    let mac = parse("#N Blinker\rx = 3, y = 1\r3o!\r", None).unwrap();
    assert_eq!(
        (mac.name.as_deref(), mac.population()),
        (Some("Blinker"), 3)
    );
    assert_eq!(rle_error("x = 3, y = 1\r\r3 o!"), (3, 2));
}

#[test]
fn plaintext_reader_details() {
    let p = parse(
        "!Name: Toad\n!Author: Simon Norton\n!A period-2 oscillator.\n!\n.***\n***.\n",
        None,
    )
    .unwrap();
    assert_eq!(p.name.as_deref(), Some("Toad"));
    assert_eq!(p.author.as_deref(), Some("Simon Norton"));
    assert_eq!(p.comments, vec!["A period-2 oscillator.".to_string()]);
    assert_eq!((p.width, p.height), (4, 2));
    assert_eq!(
        p.cells,
        vec![(1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1)]
    );
    // Width is the longest row; short rows and blank rows between rows are dead cells.
    let q = parse("O\n\n..O..\n", None).unwrap();
    assert_eq!(
        (q.width, q.height, q.cells.clone()),
        (5, 3, vec![(0, 0), (2, 2)])
    );
    // Comment-only plaintext is an empty 0x0 pattern; the writer's empty output reads back.
    let e = parse("!Name: nothing\n", None).unwrap();
    assert_eq!((e.width, e.height, e.population()), (0, 0, 0));
    assert_eq!(
        parse(&Pattern::default().to_plaintext(), None).unwrap(),
        Pattern::default()
    );
}

// ---------------------------------------------------------------------------------------
// Errors, each at an exact line and column

#[test]
fn rle_header_errors_are_located() {
    // Golly takes the header's size as a hint and refuses only its rule: what does not read
    // is skipped with a warning at its place, the box taken from the cells.
    let at = |text: &str| warnings(text, Some(Format::Rle))[0].clone();
    assert!(at("#N x\n#C y\n  3o!").starts_with("line 3: no RLE header"));
    assert!(at("#N x\n#C y\n").contains("no header"));
    // Garbled: `x = 3 y = 1` has no comma, so x's value is not a number.
    assert!(at("x = 3 y = 1\n3o!").starts_with("line 1, column 5: the width x"));
    assert!(at("x 3, y = 1\n3o!").starts_with("line 1, column 1: 'x 3'"));
    assert!(at("x = 3a, y = 1\n3o!").starts_with("line 1, column 5:"));
    assert!(at("x = 3, y = -1\n3o!").starts_with("line 1, column 12:"));
    assert!(at("x = 3, y =\n3o!").starts_with("line 1, column 11:"));
    assert!(at("x = 3\n3o!").starts_with("line 1, column 1: the RLE header gives no y"));
    assert!(at("x = 3, y = 1, z = 2\n3o!").starts_with("line 1, column 15: unknown"));
    let p = parse("x = 3 y = 1\n3o$o!", None).unwrap();
    assert_eq!((p.width, p.height, p.population()), (3, 2, 4));
    // Unknown rule: at the rule's first character, with Rule's own explanation.
    let (line, column, message) = syntax_at("x = 3, y = 1, rule = B9/S23\n3o!", None);
    assert_eq!((line, column), (1, 22));
    assert!(message.contains("0-8"), "{message}");
    let (_, column, message) = syntax_at("x = 3, y = 1,rule=R2,C0,M1,S2..3,B3..3\n3o!", None);
    assert_eq!(column, 19);
    assert!(message.contains("Larger than Life"), "{message}");
}

#[test]
fn rle_body_errors_are_located() {
    // Run count overflow points at the count's first digit.
    let (line, column, message) = syntax_at("x = 3, y = 1\n  99999999999999999999o!", None);
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("too large"), "{message}");
    assert_eq!(rle_error("x = 3, y = 1\no1073741825b!"), (2, 2));
    // Live cells beyond the edge limit: refused, naming where the run starts.
    let far = parse("x = 3, y = 1\n1073741823b2o!", None)
        .unwrap_err()
        .to_string();
    assert!(far.contains("line 2, column 12"), "{far}");
    // Whitespace after a count, a count at the end of a line, a leading zero (Golly 5).
    assert_eq!(rle_error("x = 3, y = 1\nb\n 3 o!"), (3, 3));
    assert_eq!(rle_error("x = 3, y = 1\no$2\nbo!"), (2, 3));
    assert_eq!(rle_error("x = 3, y = 1\no$02bo!"), (2, 3));
    // Unknown characters are skipped with a warning at the first.
    assert!(warnings("x = 3, y = 1\no?o!", None)[0].starts_with("line 2, column 2: '?'"));
    // `A` is state 1, alive; state 2 has no meaning in a two-state rule.
    assert_eq!(
        parse("x = 3, y = 1\nobA!", None).unwrap().cells,
        [(0, 0), (2, 0)]
    );
    let (line, column, message) = syntax_at("x = 3, y = 1\nobB!", None);
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("two-state"), "{message}");
    // A count followed by `!` is dropped, as Golly drops it; one at the end of the text is
    // refused.
    assert_eq!(parse("x = 3, y = 1\no 2!", None).unwrap().population(), 1);
    assert_eq!(rle_error("x = 3, y = 1\no\n12"), (3, 1));
    // Columns count characters, not bytes (U+3000 is a 3-byte whitespace character).
    assert_eq!(rle_error("x = 3, y = 1\n\u{3000}é3 o"), (2, 4));
}

#[test]
fn plaintext_and_detection_errors_are_located() {
    // Plaintext refuses nothing Golly reads: odd characters and rules are warned about.
    let w = warnings("!Name: a\n.O.\n.Ox\n", None);
    assert!(w[0].starts_with("line 3, column 3: 'x'"), "{w:?}");
    let w = warnings(".O.\n é\n", Some(Format::Plaintext));
    assert!(w[0].starts_with("line 2, column 1: ' '"), "{w:?}");
    assert!(warnings("!Rule:  B9\nO", None)[0].starts_with("line 1, column 9:"));
    // Neither format: the first meaningful character.
    let (line, column, message) = syntax_at("\n\n   hello\n", None);
    assert_eq!((line, column), (3, 4));
    assert!(message.contains("cannot tell"), "{message}");
    // Plaintext read as RLE fails at the first state RLE cannot hold.
    assert_eq!(syntax_at(".O.\n", Some(Format::Rle)).1, 2);
    // A headerless RLE body is detected as RLE and read, with a warning.
    let p = parse("bo$2bo$3o!", None).unwrap();
    assert_eq!((p.width, p.height, p.population()), (3, 3, 5));
    assert!(p.warnings[0].contains("no RLE header"), "{:?}", p.warnings);
}

#[test]
fn empty_text_is_a_clear_error() {
    for text in ["", "   \n\t\n", "\u{feff}", "\r\n\r\n"] {
        for format in [None, Some(Format::Rle), Some(Format::Plaintext)] {
            let err = parse(text, format).unwrap_err();
            assert_eq!(err, PatternError::Empty, "{text:?}");
            assert!(err.to_string().contains("empty"), "{err}");
        }
    }
}

#[test]
fn huge_declared_sizes_are_refused_quickly() {
    let start = Instant::now();
    for text in [
        "x = 4000000000, y = 1\no!",
        "x = 1, y = 4000000000\no!",
        "x = 99999999999999999999999999999999, y = 1\n!",
        "x = 1073741825, y = 1\n!",
    ] {
        match parse(text, None) {
            Err(e @ PatternError::TooLarge { .. }) => {
                assert!(e.to_string().contains("1073741824"), "{e}")
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let huge_digits = format!("x = {}, y = 1\n!", "9".repeat(1 << 20));
    assert!(matches!(
        parse(&huge_digits, None),
        Err(PatternError::TooLarge { .. })
    ));
    // Leading zeros are fine; 2^30 is the largest legal edge.
    let zeros = parse("x = 000, y = 001073741824\n!", None).unwrap();
    assert_eq!((zeros.width, zeros.height), (0, MAX_PATTERN_EDGE));
    // The largest legal box costs nothing until cells are placed.
    let big = parse("x = 1073741824, y = 1073741824\n1073741823bo!", None).unwrap();
    assert_eq!(
        (big.width, big.height, big.cells.clone()),
        (MAX_PATTERN_EDGE, MAX_PATTERN_EDGE, vec![(1073741823, 0)])
    );
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // (Plaintext spells every cell out, so its rows are bounded by the file-size limit
    // long before the edge limit.)
}

// ---------------------------------------------------------------------------------------
// Files, names and the library

#[test]
fn formats_come_from_extensions() {
    assert_eq!(
        Format::from_path(Path::new("a/b/gun.rle")),
        Some(Format::Rle)
    );
    assert_eq!(Format::from_path(Path::new("GUN.RLE")), Some(Format::Rle));
    assert_eq!(
        Format::from_path(Path::new("gun.cells")),
        Some(Format::Plaintext)
    );
    assert_eq!(
        Format::from_path(Path::new("gun.txt")),
        Some(Format::Plaintext)
    );
    assert_eq!(Format::from_path(Path::new("gun")), None);
    assert_eq!(Format::from_path(Path::new("gun.xyz")), None);
    assert_eq!(
        Format::from_path(Path::new("gun.mc.gz")),
        Some(Format::Macrocell)
    );
    assert_eq!(
        Format::from_path(Path::new("gun.LIF")),
        Some(Format::Life106)
    );
}

#[test]
fn files_load_by_extension_then_content() {
    let glider = library::find("glider").unwrap();
    let rle = TempFile::new("glider.rle", glider.to_rle().as_bytes());
    assert_eq!(load_file(&rle).unwrap(), glider);
    let cells = TempFile::new("glider.cells", glider.to_plaintext().as_bytes());
    assert_eq!(load_file(&cells).unwrap(), glider);
    // `.txt` and unknown extensions are detected from the content.
    let txt = TempFile::new("glider.txt", glider.to_rle().as_bytes());
    assert_eq!(load_file(&txt).unwrap(), glider);
    let bare = TempFile::new("glider", glider.to_plaintext().as_bytes());
    assert_eq!(load_file(&bare).unwrap(), glider);
    // Where the text announces another format than the extension, the text wins, as in
    // Golly, with a warning.
    let wrong = TempFile::new("wrong.cells", glider.to_rle().as_bytes());
    let read = load_file(&wrong).unwrap();
    assert_eq!(read.cells, glider.cells);
    assert!(
        read.warnings[0].contains("named .cells but its text is rle"),
        "{:?}",
        read.warnings
    );
    // Missing files and directories are I/O errors naming the path.
    let missing = std::env::temp_dir().join("golab-no-such-dir/none.rle");
    match load_file(&missing) {
        Err(e @ PatternError::Io { .. }) => assert!(e.to_string().contains("none.rle"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        load_file(&std::env::temp_dir()),
        Err(PatternError::Io { .. })
    ));
    // Bytes that are not UTF-8 are read as Windows-1252, located in a warning.
    let binary = TempFile::new("binary.rle", b"x = 3, y = 1\nob\xff!");
    let read = load_file(&binary).unwrap();
    assert_eq!(read.cells, [(0, 0)]);
    assert!(read.warnings[0].starts_with("line 2, column 3: the file is not UTF-8"));
}

#[test]
fn oversized_files_are_refused_without_reading_them_whole() {
    let path = TempFile::new("huge.rle", b"");
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(golab::pattern::MAX_FILE_BYTES + 1).unwrap(); // sparse: costs no disk
    drop(file);
    assert!(matches!(
        load_file(&path),
        Err(PatternError::TooLarge { .. })
    ));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn resolve_prefers_library_names_then_files() {
    let glider = resolve("glider").unwrap();
    assert_eq!(glider.population(), 5);
    assert_eq!(resolve("  GLIDER ").unwrap(), glider);
    assert_eq!(
        resolve("Gosper Glider Gun").unwrap().name.as_deref(),
        Some("Gosper glider gun")
    );
    assert_eq!(
        resolve("simkinglidergun").unwrap().name.as_deref(),
        Some("Simkin glider gun")
    );
    assert_eq!(
        resolve("Lightweight spaceship").unwrap(),
        resolve("LWSS").unwrap()
    );
    let file = TempFile::new("my-blinker.cells", b"!Name: mine\nOOO\n");
    assert_eq!(
        resolve(file.to_str().unwrap()).unwrap().name.as_deref(),
        Some("mine")
    );
    match resolve("no-such-pattern") {
        Err(PatternError::UnknownName { name, known }) => {
            assert_eq!(name, "no-such-pattern");
            assert!(known.iter().any(|k| k == "gosper-glider-gun"));
            assert_eq!(known.len(), library().len());
        }
        other => panic!("{other:?}"),
    }
    let err = resolve("no-such-pattern").unwrap_err().to_string();
    assert!(
        err.contains("no-such-pattern") && err.contains("glider"),
        "{err}"
    );
    assert!(matches!(
        resolve("missing/dir/x.rle"),
        Err(PatternError::Io { .. })
    ));
}

#[test]
fn every_bundled_pattern_parses_with_metadata() {
    let entries = library();
    assert!(entries.len() >= 22, "{} entries", entries.len());
    assert!(
        entries.windows(2).all(|w| w[0].name < w[1].name),
        "library not sorted"
    );
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/patterns");
    for entry in entries {
        let p = entry
            .pattern()
            .unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        assert_eq!(p, parse(entry.text, None).unwrap(), "{}", entry.name);
        let on_disk = load_file(&assets.join(entry.file)).unwrap();
        assert_eq!(on_disk, p, "{} differs from its file", entry.name);
        assert!(
            p.name.as_deref().is_some_and(|n| !n.is_empty()),
            "{} has no #N",
            entry.name
        );
        assert!(!p.comments.is_empty(), "{} has no #C", entry.name);
        assert!(p.rule.is_some(), "{} names no rule", entry.name);
        assert!(
            p.population() > 0 && p.width > 0 && p.height > 0,
            "{}",
            entry.name
        );
        assert_eq!(library::find(entry.name).as_ref(), Some(&p));
        // The display name finds the entry too.
        assert_eq!(
            library::entry(p.name.as_deref().unwrap()).map(|e| e.name),
            Some(entry.name)
        );
        // Bundled RLE is what the writer would produce for it, up to line wrapping.
        check_rle_lines(entry.text);
    }
    for required in [
        "block",
        "beehive",
        "loaf",
        "boat",
        "tub",
        "blinker",
        "toad",
        "beacon",
        "pulsar",
        "pentadecathlon",
        "glider",
        "lwss",
        "mwss",
        "hwss",
        "gosper-glider-gun",
        "simkin-glider-gun",
        "r-pentomino",
        "acorn",
        "diehard",
        "b-heptomino",
        "5x5-infinite-growth",
        "switch-engine",
        "highlife-replicator",
    ] {
        assert!(library::entry(required).is_some(), "missing {required}");
    }
    let asset_files = std::fs::read_dir(&assets).unwrap().count();
    assert_eq!(
        asset_files,
        entries.len(),
        "every asset file is in the library"
    );
}

// ---------------------------------------------------------------------------------------
// Worlds and placement

#[test]
fn placement_centres_and_reports() {
    let glider = library::find("glider").unwrap();
    let mut w = world(10, 9);
    let report = glider.place(&mut w, Placement::Centred);
    assert_eq!(
        (report.placed, report.clipped, report.x, report.y),
        (5, 0, 3, 3)
    );
    assert_eq!(report.warning(), None);
    assert_eq!(live_cells(&w), vec![(4, 3), (5, 4), (3, 5), (4, 5), (5, 5)]);
    // Placed cells are newborn.
    assert!(live_cells(&w).iter().all(|&(x, y)| w.age(x, y) == 1));
}

#[test]
fn placement_clips_and_warns() {
    let glider = library::find("glider").unwrap();
    let mut w = world(10, 10);
    let report = glider.place(&mut w, Placement::At { x: -1, y: 8 });
    // Glider cells (1,0) (2,1) (0,2) (1,2) (2,2) land at x-1, y+8: rows 10 are outside.
    assert_eq!(live_cells(&w), vec![(0, 8), (1, 9)]);
    assert_eq!((report.placed, report.clipped), (2, 3));
    assert_eq!(
        report.warning().as_deref(),
        Some("3 cells of the pattern fell outside the 10x10 world and were clipped")
    );
    let far = glider.place(&mut world(10, 10), Placement::At { x: 1000, y: -1000 });
    assert_eq!((far.placed, far.clipped), (0, 5));
    // Extreme coordinates clip everything without overflowing.
    for (x, y) in [
        (i64::MAX, i64::MAX),
        (i64::MIN, i64::MIN),
        (i64::MIN, 0),
        (0, i64::MAX - 1),
    ] {
        let r = glider.place(&mut world(10, 10), Placement::At { x, y });
        assert_eq!((r.placed, r.clipped), (0, 5), "at ({x}, {y})");
        assert_eq!(glider.edits_at(x, y, 10, 10), (vec![], 5));
    }
    let one = pattern(1, 1, &[(0, 0)]).place(&mut world(3, 3), Placement::At { x: 3, y: 0 });
    assert_eq!(
        one.warning().as_deref(),
        Some("1 cell of the pattern fell outside the 3x3 world and was clipped")
    );
    // A pattern larger than the world is centred and clipped on every side.
    let line = pattern(9, 1, &(0..9).map(|x| (x, 0)).collect::<Vec<_>>());
    let mut small = world(5, 3);
    let r = line.place(&mut small, Placement::Centred);
    assert_eq!((r.x, r.y, r.placed, r.clipped), (-2, 1, 5, 4));
    assert_eq!(
        live_cells(&small),
        (0..5).map(|x| (x, 1)).collect::<Vec<_>>()
    );
}

#[test]
fn placement_makes_the_box_exact_and_keeps_the_rest() {
    let mut w = world(8, 8);
    for (x, y) in [(0, 0), (2, 2), (3, 3), (7, 7)] {
        w.apply_edit(CellEdit { x, y, alive: true });
    }
    w.ages_mut()[2 * 8 + 2] = 30; // an old cell that the pattern keeps alive
    w.ages_mut()[3 * 8 + 3] = 40; // an old cell in a dead spot of the pattern
    let boat = library::find("boat").unwrap(); // (0,0) (1,0) (0,1) (2,1) (1,2)
    boat.place(&mut w, Placement::At { x: 2, y: 2 });
    assert_eq!(
        live_cells(&w),
        vec![(0, 0), (2, 2), (3, 2), (2, 3), (4, 3), (3, 4), (7, 7)]
    );
    assert_eq!(w.age(0, 0), 1);
    assert_eq!(
        w.age(2, 2),
        30,
        "a cell alive before and after keeps its age"
    );
    assert_eq!(
        w.age(3, 2),
        1,
        "a cell the pattern brings to life is newborn"
    );
    assert!(!w.is_alive(3, 3), "a dead cell of the box is erased");
    let (edits, clipped) = boat.edits_at(2, 2, 8, 8);
    assert_eq!((edits.len(), clipped), (9, 0));
    assert_eq!(
        edits[0],
        CellEdit {
            x: 2,
            y: 2,
            alive: true
        }
    );
    assert_eq!(
        edits[4],
        CellEdit {
            x: 3,
            y: 3,
            alive: false
        }
    );
    // Edits are clipped to the world, never wrapped.
    let (edits, clipped) = boat.edits_at(6, -1, 8, 8);
    assert_eq!(clipped, 3);
    assert_eq!(
        edits,
        vec![
            CellEdit {
                x: 6,
                y: 0,
                alive: true
            },
            CellEdit {
                x: 7,
                y: 0,
                alive: false
            },
            CellEdit {
                x: 6,
                y: 1,
                alive: false
            },
            CellEdit {
                x: 7,
                y: 1,
                alive: true
            },
        ]
    );
    // A live cell painted again keeps its age.
    let mut aged = world(4, 4);
    aged.apply_edit(CellEdit {
        x: 1,
        y: 1,
        alive: true,
    });
    aged.ages_mut()[5] = 9;
    pattern(1, 1, &[(0, 0)]).place(&mut aged, Placement::At { x: 1, y: 1 });
    assert_eq!(aged.age(1, 1), 9);
}

#[test]
fn worlds_and_regions_become_patterns() {
    let mut w = world(20, 10);
    let glider = library::find("glider").unwrap();
    glider.place(&mut w, Placement::At { x: 5, y: 4 });
    let back = Pattern::from_world(&w);
    assert_eq!(
        (back.width, back.height, &back.cells),
        (3, 3, &glider.cells)
    );
    assert_eq!(back.rule, Some(Rule::CONWAY));
    // A region keeps its margins and is clipped to the world.
    let region = Pattern::from_region(&w, 4, 3, 5, 100);
    assert_eq!((region.width, region.height), (5, 7));
    assert_eq!(region.cells, vec![(2, 1), (3, 2), (1, 3), (2, 3), (3, 3)]);
    let outside = Pattern::from_region(&w, 30, 30, 5, 5);
    assert_eq!(
        (outside.width, outside.height, outside.population()),
        (0, 0, 0)
    );
    // An empty world is a 0x0 pattern that both writers handle.
    let empty = Pattern::from_world(&world(5, 5));
    assert_eq!((empty.width, empty.height, empty.population()), (0, 0, 0));
    assert_eq!(empty.to_rle(), "x = 0, y = 0, rule = B3/S23\n!\n");
    assert_eq!(parse(&empty.to_rle(), None).unwrap(), empty);
    assert_eq!(parse(&empty.to_plaintext(), None).unwrap(), empty);
    let (edits, clipped) = empty.edits_at(0, 0, 5, 5);
    assert!(edits.is_empty() && clipped == 0);
}

#[test]
fn writers_tolerate_broken_cell_lists() {
    // Unsorted, duplicated and out-of-box cells: population, writers and placement fix them.
    let p = pattern(3, 2, &[(2, 1), (0, 0), (2, 1), (5, 0), (0, 9)]);
    assert_eq!(p.population(), 2);
    assert_eq!(p.to_rle(), "x = 3, y = 2\no$2bo!\n");
    assert_eq!(p.to_plaintext(), "O..\n..O\n");
    assert_eq!(p.rotated_cw().cells, vec![(1, 0), (0, 2)]);
    let mut w = world(5, 5);
    assert_eq!(p.place(&mut w, Placement::At { x: 0, y: 0 }).placed, 2);
    // Metadata with line breaks stays on one line.
    let q = Pattern {
        name: Some("two\nlines".into()),
        comments: vec!["first\nsecond".into(), "  ".into()],
        ..pattern(1, 1, &[(0, 0)])
    };
    let back = parse(&q.to_rle(), None).unwrap();
    assert_eq!(back.name.as_deref(), Some("two lines"));
    assert_eq!(
        back.comments,
        vec!["first".to_string(), "second".to_string()]
    );
}

#[test]
fn rotation_and_flips_move_cells_as_documented() {
    // The R-pentomino: .OO / OO. / .O.
    let r = library::find("r-pentomino").unwrap();
    assert_eq!(r.cells, vec![(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]);
    // Clockwise: the left column becomes the top row.
    assert_eq!(
        r.rotated_cw().cells,
        vec![(1, 0), (0, 1), (1, 1), (2, 1), (2, 2)]
    );
    assert_eq!(
        r.flipped_x().cells,
        vec![(0, 0), (1, 0), (1, 1), (2, 1), (1, 2)]
    );
    assert_eq!(
        r.flipped_y().cells,
        vec![(1, 0), (0, 1), (1, 1), (1, 2), (2, 2)]
    );
    assert_eq!(r.rotated_cw().name, r.name);
}
