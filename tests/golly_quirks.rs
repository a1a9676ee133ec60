//! Files Golly opens that golab once refused (#54, "open what Golly opens"): each quirk's
//! file is read by golab (`load_file`, then its hashed universe) and by Debian's Golly 3.3
//! `bgolly` (installed by `scripts/setup-system --test`), which must count the same cells at
//! generation 0 and later (the shape, not only the count). Golly 5 refuses three things 3.3
//! still reads (whitespace after a run count, a count at the end of a line, a leading zero:
//! commit 2eb67cd5, 2024); golab follows Golly 5 there and those tests say so. Where Golly
//! makes nothing of a file (a BOM, `*` in a .cells file, a headerless Life 1.06 file),
//! golab reads what the file means, warns, and the test pins the difference.
//! docs/user-guide.md ("What golab accepts as Golly does") has the table.

mod common;

use std::path::PathBuf;

use common::bgolly_algo_population;
use golab::pattern::{Pattern, PatternError, load_file};

/// `bytes` written as `name` in this run's scratch directory.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("golab-golly-quirks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// golab's cells in any state but 0 after `gens` generations of the file at `path`.
fn golab_occupied(path: &std::path::Path, gens: u128) -> u128 {
    let source = path.to_str().unwrap();
    let (mut u, _) = golab::hashlife::load::open(source, None, 256 << 20).unwrap();
    u.advance(gens, &|| false).unwrap();
    u.occupied()
}

/// Read `bytes` as the file `name` in golab and in bgolly's `algo`: the same cells at
/// generation 0 and at `gens`. Returns golab's pattern, for its warnings.
fn same_as_golly(name: &str, bytes: &[u8], algo: &str, gens: u128) -> Pattern {
    let path = file(name, bytes);
    let pattern = load_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    for g in [0, gens] {
        let theirs = bgolly_algo_population(algo, &path, g);
        assert_eq!(golab_occupied(&path, g), theirs, "{name} at generation {g}");
    }
    pattern
}

/// Two-state files: QuickLife, 40 generations (a glider moves 10 cells).
fn same_as_quicklife(name: &str, bytes: &[u8]) -> Pattern {
    same_as_golly(name, bytes, "QuickLife", 40)
}

/// Whether one of the pattern's warnings contains `what`.
fn warned(p: &Pattern, what: &str) -> bool {
    p.warnings.iter().any(|w| w.contains(what))
}

/// The message bgolly prints when it refuses the file.
fn bgolly_refuses(name: &str, bytes: &[u8]) -> String {
    common::need_tool("bgolly");
    let path = file(name, bytes);
    let out = std::process::Command::new("bgolly")
        .args(["-m", "0"])
        .arg(&path)
        .output()
        .expect("bgolly runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("error"), "bgolly read {name}: {text}");
    text
}

/// The (line, column) of golab's syntax error for `bytes` as `name`.
fn golab_refuses(name: &str, bytes: &[u8]) -> (usize, usize, String) {
    match load_file(&file(name, bytes)) {
        Err(PatternError::Syntax {
            line,
            column,
            message,
        }) => (line, column, message),
        other => panic!("expected golab to refuse {name}: {other:?}"),
    }
}

#[test]
fn rle_header_sizes_are_hints() {
    // The report: a glider whose header says one row.
    let p = same_as_quicklife("short.rle", b"x = 3, y = 1\nbo$2bo$3o!\n");
    assert_eq!((p.width, p.height), (3, 3));
    assert_eq!(
        p.warnings,
        ["line 1: the header says x = 3, y = 1; the cells span 3 × 3: read as Golly does"]
    );
    let p = same_as_quicklife("tiny.rle", b"x = 1, y = 1\n3o$3o!\n");
    assert_eq!((p.width, p.height), (3, 2));
    // No y, a field golab does not know, values that are not sizes: hints skipped.
    let p = same_as_quicklife("no-y.rle", b"x = 3\nbo$2bo$3o!\n");
    assert!(warned(&p, "gives no y = HEIGHT"), "{:?}", p.warnings);
    let p = same_as_quicklife("field.rle", b"x = 3, z = 7, y = 3\nbo$2bo$3o!\n");
    assert!(
        warned(&p, "unknown RLE header field 'z'"),
        "{:?}",
        p.warnings
    );
    let p = same_as_quicklife("values.rle", b"x = 3a, y = -1\nbo$2bo$3o!\n");
    assert_eq!((p.width, p.height, p.warnings.len()), (3, 3, 2));
    // An empty pattern is fine.
    let p = same_as_quicklife("empty.rle", b"x = 0, y = 0\n!\n");
    assert_eq!((p.population(), p.warnings.len()), (0, 0));
}

#[test]
fn rle_without_header_or_end_reads_as_golly_reads_it() {
    let p = same_as_quicklife("bare.rle", b"bo$2bo$3o!\n");
    assert!(warned(&p, "no RLE header"), "{:?}", p.warnings);
    same_as_quicklife("bare-comment.rle", b"#C a glider\nbo$2bo$3o!\n");
    // No `!`, and anything after it: neither is worth a warning, as in Golly.
    let p = same_as_quicklife("no-bang.rle", b"x = 3, y = 3\nbo$2bo$3o\n");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let p = same_as_quicklife("after.rle", b"x = 3, y = 3\nbo$2bo$3o!3o$3o\nooo\n");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // XLife's #r names the rule of a file without one in its header: the R-pentomino
    // dies out by generation 64 in HighLife, and has 69 cells in Life.
    let p = same_as_golly("highlife.rle", b"#r 23/36\nb2o$2o$bo!\n", "QuickLife", 64);
    assert_eq!(p.rule.map(|r| r.to_string()).as_deref(), Some("B36/S23"));
    same_as_golly("life.rle", b"b2o$2o$bo!\n", "QuickLife", 64);
}

#[test]
fn rle_body_skips_what_golly_skips() {
    // An unknown character is skipped and takes the run count before it with it.
    let p = same_as_quicklife("junk.rle", b"x = 5, y = 3\n3zo$2b%o$3o!\n");
    assert_eq!(p.population(), 5);
    assert!(
        warned(&p, "'z' is not part of an RLE body"),
        "{:?}",
        p.warnings
    );
    same_as_quicklife("yz.rle", b"x = 5, y = 3\nbYo$2bZo$3o!\n");
    // `#` starts a comment line only as its first character; inside a line it is skipped.
    same_as_quicklife("hash.rle", b"x = 3, y = 3\nbo$2bo$3o#hi!\n");
    let p = same_as_quicklife(
        "hash-line.rle",
        b"x = 3, y = 3\nbo$2bo$\n#C mid-body\n3o!\n",
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // A Latin-1 byte in the body: one skipped character, as Golly skips the byte.
    let p = same_as_quicklife("latin1-body.rle", b"x = 3, y = 3\nbo$2bo$3\xe9o!\n");
    assert_eq!(p.population(), 3);
    assert!(warned(&p, "not UTF-8"), "{:?}", p.warnings);
}

#[test]
fn a_state_prefix_without_its_letter_is_state_1() {
    let p = same_as_quicklife("prefix.rle", b"x = 5, y = 3\nbxo$2bo$3p!\n");
    assert_eq!(p.population(), 6);
    assert!(
        warned(&p, "'x' is a multi-state prefix"),
        "{:?}",
        p.warnings
    );
    // Under Generations (Brian's Brain) too: `2p` is two live cells.
    let p = same_as_golly(
        "prefix-gen.rle",
        b"x = 4, y = 2, rule = /2/3\n.2p$.2B!\n",
        "Generations",
        8,
    );
    assert_eq!((p.population(), p.dying.len()), (2, 2));
}

#[test]
fn files_that_are_not_utf8_open() {
    // The report: a Latin-1 `é` in a #C line.
    let p = same_as_quicklife("latin1.rle", b"#C caf\xe9\nx = 3, y = 3\nbo$2bo$3o!\n");
    assert_eq!(p.comments, ["café"]);
    assert!(
        p.warnings[0].starts_with("line 1, column 7: the file is not UTF-8 text"),
        "{:?}",
        p.warnings
    );
    let p = same_as_quicklife("latin1.cells", b"!Name: caf\xe9\n.O\n..O\nOOO\n");
    assert_eq!(p.name.as_deref(), Some("café"));
}

#[test]
fn every_line_end_golly_reads() {
    for (name, text) in [
        ("lf.rle", "#N g\nx = 3, y = 3\nbo$2bo$\n3o!\n"),
        ("crlf.rle", "#N g\r\nx = 3, y = 3\r\nbo$2bo$\r\n3o!\r\n"),
        ("cr.rle", "#N g\rx = 3, y = 3\rbo$2bo$\r3o!\r"),
        ("cr.cells", "!Name: g\r.O\r..O\rOOO\r"),
        ("cr.lif", "#Life 1.06\r1 0\r2 1\r0 2\r1 2\r2 2\r"),
    ] {
        let p = same_as_quicklife(name, text.as_bytes());
        assert_eq!(
            (p.name.is_some(), p.population()),
            (!name.ends_with("lif"), 5)
        );
        assert!(p.warnings.is_empty(), "{name}: {:?}", p.warnings);
    }
}

#[test]
fn xrle_counts_only_at_the_top_of_the_file() {
    let p = same_as_quicklife(
        "xrle-late.rle",
        b"#C x\n#CXRLE Pos=5,5\nx = 3, y = 3\nbo$2bo$3o!\n",
    );
    assert_eq!(p.position, None);
    assert!(warned(&p, "#CXRLE below other lines"), "{:?}", p.warnings);
    let p = same_as_quicklife(
        "xrle-top.rle",
        b"#CXRLE Pos=5,5\nx = 3, y = 3\nbo$2bo$3o!\n",
    );
    assert_eq!((p.position, p.warnings.len()), (Some((5, 5)), 0));
}

/// Golly 5 refuses these (its commit 2eb67cd5; Golly 3.3's bgolly, here, still reads them:
/// `3 o` as one cell, `1 2o` as three), so golab refuses them too, at the offending place.
#[test]
fn what_golly_5_refuses_is_refused_where_it_is() {
    let (line, column, m) = golab_refuses("space.rle", b"x = 3, y = 3\nbo$2bo$3 o!\n");
    assert_eq!((line, column), (2, 9), "{m}");
    assert!(m.contains("whitespace after the run count 3"), "{m}");
    let (line, column, _) = golab_refuses("split.rle", b"x = 3, y = 3\nbo$2bo$1 2o!\n");
    assert_eq!((line, column), (2, 9));
    let (line, column, m) = golab_refuses("eol.rle", b"x = 3, y = 3\nbo$2bo$3\no!\n");
    assert_eq!((line, column), (2, 8), "{m}");
    assert!(m.contains("end of the line"), "{m}");
    let (line, column, m) = golab_refuses("zero.rle", b"x = 3, y = 3\nbo$02bo$3o!\n");
    assert_eq!((line, column), (2, 4), "{m}");
    assert!(m.contains("may not start with 0"), "{m}");
}

/// Both refuse a state the rule does not have and a rule they cannot read.
#[test]
fn what_both_refuse() {
    let text = b"x = 3, y = 3\nbo$2bB$3o!\n";
    assert!(bgolly_refuses("state.rle", text).contains("out of range"));
    let (line, column, m) = golab_refuses("state.rle", text);
    assert_eq!((line, column), (2, 6), "{m}");
    // `#` inside a line is skipped, so `C` after it is state 3.
    let text = b"x = 3, y = 3\nbo$2bo$#C mid-row\n3o!\n";
    assert!(bgolly_refuses("hash-mid.rle", text).contains("out of range"));
    let (line, column, m) = golab_refuses("hash-mid.rle", text);
    assert_eq!((line, column), (2, 9), "{m}");
    let text = b"x = 3, y = 3, rule = B9/S\nbo$2bo$3o!\n";
    bgolly_refuses("rule.rle", text);
    let (line, column, _) = golab_refuses("rule.rle", text);
    assert_eq!((line, column), (1, 22));
}

#[test]
fn cells_files_and_text_pictures_read_as_golly_reads_them() {
    // David Bell's counts, and characters Golly skips without taking a cell's place.
    let p = same_as_quicklife("counts.cells", b"!Name: g\n.O\n2.O\n3O\n");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let p = same_as_quicklife("note.cells", b"!Name: g\n.O. # note\n..O\nOOO\n");
    assert!(warned(&p, "is not a .cells cell"), "{:?}", p.warnings);
    // Without a `!` first line, a picture of text: any character but . , $ and space lives.
    let p = same_as_quicklife("picture.cells", b".X.\n..X\nXXX\n");
    assert!(warned(&p, "'X' is read as a live cell"), "{:?}", p.warnings);
    same_as_quicklife("lower.cells", b".o.\n..o\nooo\n");
}

#[test]
fn life_files_read_as_golly_reads_them() {
    // Any character of a row but `*` is dead; lines that are no row, cell or # are skipped.
    let p = same_as_quicklife("rows.lif", b"#Life 1.05\n#P 0 0\n.*.\n..*x\n***\nhello\n");
    assert_eq!(p.warnings.len(), 2, "{:?}", p.warnings);
    // Text after a cell's numbers is skipped; 1.05 blocks and 1.06 cells mix.
    same_as_quicklife("junk.lif", b"#Life 1.06\n1 0 junk\n2 1\n0 2\n1 2\n2 2\n");
    let p = same_as_quicklife("mixed.lif", b"#Life 1.06\n1 0\n#P 0 1\n..*\n***\n");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn misnamed_files_open_as_their_text_says() {
    let p = same_as_quicklife("life106.rle", b"#Life 1.06\n1 0\n2 1\n0 2\n1 2\n2 2\n");
    assert!(
        warned(&p, "named .rle but its text is life 1.06"),
        "{:?}",
        p.warnings
    );
    let p = same_as_quicklife("rle.lif", b"x = 3, y = 3\nbo$2bo$3o!\n");
    assert!(
        warned(&p, "named .lif but its text is rle"),
        "{:?}",
        p.warnings
    );
}

/// Where Golly makes nothing (or garbage) of a file, golab reads what it means and warns:
/// the glider's 5 cells against bgolly's count.
#[test]
fn where_golly_makes_nothing_of_a_file_golab_reads_what_it_means() {
    for (name, bytes, golly, warning) in [
        // Golly reads a BOM-prefixed file as a picture of text.
        (
            "bom.rle",
            &b"\xef\xbb\xbfx = 3, y = 3\nbo$2bo$3o!\n"[..],
            14,
            "byte-order mark",
        ),
        // Golly reads only `O` as alive in a `!`-headed .cells file.
        (
            "star.cells",
            b"!Name: g\n.*.\n..*\n***\n",
            0,
            "'*' is read as a live cell",
        ),
        // Golly reads `X Y` lines without a header as a picture of text (digits alive).
        (
            "bare.lif",
            b"1 0\n2 1\n0 2\n1 2\n2 2\n",
            10,
            "no #Life 1.06 header",
        ),
        // Golly reads a header only with a lowercase `x`.
        (
            "upper.rle",
            b"X = 3, Y = 3\nbo$2bo$3o!\n",
            14,
            "starts with 'X'",
        ),
        // Golly reads only `*` as alive in a Life 1.05 row.
        (
            "o.lif",
            b"#Life 1.05\n#P 0 0\n.O.\n..*\n***\n",
            4,
            "'O' is read as a live cell",
        ),
    ] {
        let path = file(name, bytes);
        assert_eq!(
            bgolly_algo_population("QuickLife", &path, 0),
            golly,
            "{name}"
        );
        let p = load_file(&path).unwrap();
        assert_eq!(p.population(), 5, "{name}");
        assert!(warned(&p, warning), "{name}: {:?}", p.warnings);
    }
}
