//! The checks golab's fuzz targets run on each input, shared with
//! `tests/fuzz_regressions.rs`, which includes this file by path so that the committed corpora
//! and every crash the fuzzers found replay on stable in `cargo test`.
//!
//! Each `check_*` function takes raw bytes and panics when something is wrong: a reader
//! panicking, a result that breaks the documented invariants (cells inside the box, sorted
//! row-major, no duplicates, limits respected), an error pointing outside the text, or a
//! pattern that does not survive being written by golab's own writers and read back.

use std::path::Path;

use golab::pattern::{self, Format, MAX_PATTERN_CELLS, MAX_PATTERN_EDGE, Pattern, PatternError};
use golab::rule::Rule;

/// Largest box (in cells) the checks write as plaintext, which spells out every cell: a
/// tiny RLE file may declare a 65536 × 65536 box.
const MAX_PLAINTEXT_BOX: u64 = 1 << 22;

/// Life 1.05 text (`parse(text, Some(Format::Life105))`); bytes that are not UTF-8 are skipped.
pub fn check_life105(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text(text, Some(Format::Life105));
    }
}

/// Life 1.06 text (`parse(text, Some(Format::Life106))`); bytes that are not UTF-8 are skipped.
pub fn check_life106(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text(text, Some(Format::Life106));
    }
}

/// Macrocell text (`parse(text, Some(Format::Macrocell))`); bytes that are not UTF-8 are
/// skipped.
pub fn check_macrocell(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text(text, Some(Format::Macrocell));
    }
}

/// Macrocell straight into the hashed universe's quadtree
/// (`golab::hashlife::load::from_macrocell`): never a panic, errors that point into the text;
/// a tree that loads counts the cells the pattern reader expands (when it expands them),
/// writes back as macrocell and reads back to the same population and bounds.
pub fn check_macrocell_tree(data: &[u8]) {
    use golab::hashlife::load::{LoadError, from_macrocell};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match from_macrocell(text, None, 16 << 20) {
        Ok((u, meta)) => {
            if let Ok(p) = pattern::parse(text, Some(Format::Macrocell)) {
                assert_eq!(
                    u.population(),
                    p.population() as u128,
                    "tree and reader disagree"
                );
            }
            let again = u.to_macrocell(&meta.comments);
            let (v, _) =
                from_macrocell(&again, None, 16 << 20).expect("written macrocell reads back");
            assert_eq!(v.population(), u.population());
            assert_eq!(v.bounds(), u.bounds());
        }
        Err(LoadError::Pattern(e)) => check_error(text, &e),
        Err(LoadError::Hash(_) | LoadError::BoundedGrid { .. }) => {}
    }
}

/// An apgcode (`parse(text, Some(Format::Apgcode))`); bytes that are not UTF-8 are skipped.
/// A code that reads is also written back: re-encoding its cells gives a code that reads
/// to the same shape up to orientation.
pub fn check_apgcode(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text(text, Some(Format::Apgcode));
        if let Ok(p) = pattern::parse(text, Some(Format::Apgcode)) {
            let code = pattern::apgcode::encode("xp1", &p);
            let q = pattern::apgcode::parse_code(&code).expect("an encoded code reads back");
            assert_eq!(q.population(), p.population(), "{code}");
            assert_eq!(pattern::apgcode::encode("xp1", &q), code, "canonical twice");
        }
    }
}

/// Any bytes through `pattern::decode_bytes` (gunzip when they start like gzip, then UTF-8
/// or Windows-1252 text): never a panic; damaged gzip is a `Corrupt` error at an offset inside the
/// data, a bomb a `TooLarge`; text that comes out goes through format detection.
pub fn check_gzip(data: &[u8]) {
    match pattern::decode_bytes(data.to_vec()) {
        Ok(text) => check_text(&text, None),
        Err(PatternError::Corrupt { offset, .. }) => {
            assert!(
                offset <= data.len() as u64,
                "offset {offset} of {}",
                data.len()
            )
        }
        Err(PatternError::TooLarge { .. } | PatternError::Syntax { .. }) => {}
        Err(other) => panic!("unexpected error from decode_bytes: {other:?}"),
    }
}

/// RLE text (`parse(text, Some(Format::Rle))`); bytes that are not UTF-8 are skipped.
pub fn check_rle(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text(text, Some(Format::Rle));
    }
}

/// Plaintext (`parse(text, Some(Format::Plaintext))`); bytes that are not UTF-8 are skipped.
pub fn check_plaintext(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text(text, Some(Format::Plaintext));
    }
}

/// Format detection (`parse(text, None)`, what `load_file` does for `.txt`): the result is
/// the detected reader's, or the "cannot tell" error. Bytes that are not UTF-8 go through
/// [`pattern::load_file`] itself, written to `scratch` (a path ending in `.txt`): they are
/// read as Windows-1252, as Golly opens such files, and the first warning names the line
/// and column of the first bad byte.
pub fn check_any(data: &[u8], scratch: &Path) {
    if pattern::is_gzip(data) {
        return check_gzip(data);
    }
    match std::str::from_utf8(data) {
        Ok(text) => check_text(text, None),
        Err(e) => {
            std::fs::write(scratch, data).expect("write the scratch file");
            let result = pattern::load_file(scratch);
            let (text, warning) = match pattern::decode_text(data.to_vec()) {
                Ok(decoded) => decoded,
                Err(e) => return assert_eq!(result, Err(e), "load_file and decode_text differ"),
            };
            let valid = String::from_utf8_lossy(&data[..e.valid_up_to()]);
            let line = valid.matches('\n').count() + 1;
            let column = valid.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            let warning = warning.expect("bytes that are not UTF-8 are warned about");
            assert!(
                warning.starts_with(&format!("line {line}, column {column}: ")),
                "position of the first bad byte: {warning}"
            );
            match result {
                Ok(p) => {
                    assert_eq!(
                        p.warnings.first(),
                        Some(&warning),
                        "the file's warning first"
                    );
                    check_text(&text, None);
                }
                Err(e) => check_error(&text, &e),
            }
        }
    }
}

/// A rule string: `Rule::from_str`, then Golly's canonical form must parse back to the same
/// rule and print itself; a totalistic Moore rule's other notations, case and surrounding
/// whitespace must give the same rule.
pub fn check_rule(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = text.parse::<Rule>();
    match &parsed {
        Err(e) => assert!(!e.to_string().is_empty()),
        Ok(rule) => {
            let rule = *rule;
            let shown = rule.to_string();
            assert_eq!(shown.parse::<Rule>(), Ok(rule), "canonical form {shown:?}");
            assert_eq!(
                shown.parse::<Rule>().map(|r| r.to_string()),
                Ok(shown.clone())
            );
            if let Some(masks) = rule.as_totalistic() {
                let (b, s) = (digits(masks.birth), digits(masks.survive));
                for other in [
                    format!("{s}/{b}"),
                    format!("S{s}/B{b}"),
                    format!("b{b}s{s}"),
                ] {
                    let again = other.parse::<Rule>().map(|r| *r.table());
                    assert_eq!(again, Ok(*rule.table()), "{other:?} from {text:?}");
                }
            }
        }
    }
    let table = |r: Result<Rule, _>| r.ok().map(|r| (*r.table(), r.states()));
    let parsed = table(parsed);
    let padded = format!(" \t{text} ");
    assert_eq!(table(padded.parse::<Rule>()), parsed, "padded {padded:?}");
}

/// The neighbour counts set in a 9-bit mask, as digits.
fn digits(mask: u16) -> String {
    (0..9u8)
        .filter(|n| mask >> n & 1 == 1)
        .map(|n| char::from(b'0' + n))
        .collect()
}

/// Parse `text` as `format` (detected when `None`) and check the result.
fn check_text(text: &str, format: Option<Format>) {
    let result = pattern::parse(text, format);
    if format.is_none() {
        let by_format = Format::ALL.map(|f| pattern::parse(text, Some(f)));
        let undetected = matches!(&result, Err(PatternError::Syntax { message, .. })
            if message.starts_with("cannot tell the pattern format"));
        assert!(
            undetected || by_format.contains(&result),
            "detection gave {result:?}, neither reader did: {by_format:?}"
        );
    }
    match result {
        Err(e) => check_error(text, &e),
        Ok(p) => {
            check_shape(&p);
            for format in [Format::Rle, Format::Plaintext] {
                let area = u64::from(p.width) * u64::from(p.height);
                if format == Format::Rle || area <= MAX_PLAINTEXT_BOX {
                    round_trip(&p, format);
                }
            }
            for format in [Format::Life106, Format::Macrocell] {
                round_trip_cells(&p, format);
            }
        }
    }
}

/// An error renders, and a syntax error points into the text (1-based, at most one past the
/// last line or the end of its line).
fn check_error(text: &str, e: &PatternError) {
    assert!(!e.to_string().is_empty());
    if let PatternError::Syntax { line, column, .. } = *e {
        // Lines end at LF, CRLF or a lone CR, as the readers count them.
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let lines: Vec<&str> = text.split('\n').collect();
        assert!(
            (1..=lines.len() + 1).contains(&line),
            "line {line} of {}",
            lines.len()
        );
        let width = lines.get(line - 1).map_or(0, |l| l.chars().count());
        assert!(
            (1..=width + 1).contains(&column),
            "column {column} on line {line} of {width} characters: {e}"
        );
    }
}

/// The invariants every reader promises for its result.
fn check_shape(p: &Pattern) {
    assert!(p.width <= MAX_PATTERN_EDGE && p.height <= MAX_PATTERN_EDGE);
    assert!(p.cells.len() <= MAX_PATTERN_CELLS);
    assert!(
        p.cells.iter().all(|&(x, y)| x < p.width && y < p.height),
        "a cell outside the {}x{} box",
        p.width,
        p.height
    );
    assert!(
        p.cells
            .windows(2)
            .all(|w| (w[0].1, w[0].0) < (w[1].1, w[1].0)),
        "cells not sorted row-major or duplicated"
    );
    if let Some(rule) = p.rule {
        assert_eq!(rule.to_string().parse::<Rule>(), Ok(rule), "rule {rule}");
    }
}

/// Metadata text as the writers put it on one line: line breaks become spaces.
fn one_line(text: Option<&str>) -> Option<String> {
    let joined = text?
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    (!joined.is_empty()).then_some(joined)
}

/// Comment lines as the writers put them: one per line, trimmed, blank ones dropped.
fn comment_lines(p: &Pattern) -> Vec<&str> {
    p.comments
        .iter()
        .flat_map(|c| c.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

/// `p` written in `format` by golab's writer reads back as the same pattern (plaintext
/// cannot hold an empty box, which comes back 0 × 0), and writing that gives the same text.
/// `written` kept `original`'s name, author (first lines) and comment lines.
fn assert_same_metadata(written: &Pattern, original: &Pattern, context: &dyn Fn() -> String) {
    assert_eq!(
        one_line(written.name.as_deref()),
        one_line(original.name.as_deref()),
        "{}",
        context()
    );
    assert_eq!(
        one_line(written.author.as_deref()),
        one_line(original.author.as_deref()),
        "{}",
        context()
    );
    assert_eq!(
        comment_lines(written),
        comment_lines(original),
        "{}",
        context()
    );
}

/// The writers that hold live cells only refuse a pattern with states 2 and up (Generations'
/// dying cells, a rule table's states) rather than drop them: true when that happened.
fn refused_for_states(p: &Pattern, format: Format) -> bool {
    if p.dying.is_empty() || matches!(format, Format::Rle | Format::Macrocell) {
        return false;
    }
    let refused = p.to_format(format);
    assert!(
        matches!(refused, Err(PatternError::Unsupported(_))),
        "{format:?} wrote a pattern with states above 1: {refused:?}"
    );
    true
}

fn round_trip(p: &Pattern, format: Format) {
    if refused_for_states(p, format) {
        return;
    }
    let written = p.to_format(format).expect("text formats always write");
    let q = match pattern::parse(&written, Some(format)) {
        Ok(q) => q,
        Err(e) => panic!("{format:?} writer output does not read back: {e}\n{written}"),
    };
    let size = if format == Format::Plaintext && (p.width == 0 || p.height == 0) {
        (0, 0)
    } else {
        (p.width, p.height)
    };
    let context = || format!("{format:?} round trip of {p:?} via\n{written}");
    assert_eq!((q.width, q.height), size, "{}", context());
    assert!(q.cells == p.cells, "cells differ: {}", context());
    assert_eq!(q.rule, p.rule, "{}", context());
    assert_same_metadata(&q, p, &context);
    if format == Format::Rle {
        let grid_rule = p.rule.or(p.grid.map(|_| Rule::default()));
        assert_eq!(q.rule, grid_rule, "{}", context());
        assert_eq!(
            (q.position, q.generation, q.grid),
            (p.position, p.generation, p.grid),
            "{}",
            context()
        );
    }
    assert_eq!(
        q.to_format(format).ok(),
        Some(written),
        "writing again changed the text"
    );
}

/// `p` written as Life 1.06 or macrocell, formats without a box, reads back as the same live
/// cells at the same Golly coordinates, with the same metadata, and writing that gives the
/// same text.
fn round_trip_cells(p: &Pattern, format: Format) {
    if refused_for_states(p, format) {
        return;
    }
    let written = p.to_format(format).expect("text formats always write");
    let q = match pattern::parse(&written, Some(format)) {
        Ok(q) => q,
        Err(e) => panic!("{format:?} writer output does not read back: {e}\n{written}"),
    };
    let context = || format!("{format:?} round trip of {p:?} via\n{written}");
    let (ox, oy) = p.origin();
    let absolute = |q: &Pattern, (x0, y0): (i64, i64)| -> Vec<(i128, i128)> {
        q.cells
            .iter()
            .map(|&(x, y)| {
                (
                    i128::from(x0) + i128::from(x),
                    i128::from(y0) + i128::from(y),
                )
            })
            .collect()
    };
    assert_eq!(
        absolute(&q, q.position.unwrap_or_default()),
        absolute(p, (ox, oy)),
        "cells differ: {}",
        context()
    );
    assert_eq!(q.grid, p.grid, "{}", context());
    assert_same_metadata(&q, p, &context);
    if format == Format::Macrocell {
        assert_eq!(q.generation, p.generation, "{}", context());
    }
    // The box shrinks to the live cells (and a macrocell root with it), so the text is
    // stable from the second writing on.
    let again = q.to_format(format).expect("text formats always write");
    let r = pattern::parse(&again, Some(format)).expect("the second writing reads back");
    assert_eq!(
        r.to_format(format).ok(),
        Some(again),
        "writing again changed the text"
    );
}

/// `.rule` files: no panic; a compiled rule evaluates every neighbourhood to a state it has;
/// an error names a line of the text (or 0 for the file as a whole).
pub fn check_rule_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match golab::rule::table::RuleTable::parse(&text) {
        Err(e) => {
            assert!(!e.message.is_empty());
            assert!(
                e.line <= text.lines().count() + 1,
                "line {} of {}",
                e.line,
                text.lines().count()
            );
        }
        Ok(table) => {
            let states = table.states();
            assert!((2..=256).contains(&states));
            assert_eq!(table.colors.len(), usize::from(states));
            let mut seed = data.len() as u64 | 1;
            for _ in 0..64 {
                let mut cells = [0u8; 9];
                for c in &mut cells {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    *c = (seed % u64::from(states)) as u8;
                }
                assert!(u16::from(table.tree.next(&cells)) < states);
            }
        }
    }
}
