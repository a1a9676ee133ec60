//! The RLE reader (the writer is in `rle_write.rs`), as lenient as Golly's.
//!
//! Layout: `#` lines (`#N` name, `#O` author, `#C`/`#c` comments, Golly's `#CXRLE Pos=X,Y
//! Gen=G` at the top of the file, XLife's `#r RULE`, others ignored), a header `x = W, y = H[,
//! rule = R]` where the rule may carry a bounded-grid suffix (`:T72,48`, `:P100,80`), then
//! the body (`rle_body.rs`), ended by `!` (anything after it is ignored; a missing `!` is
//! accepted). Under a rule of C > 2 states (Generations, rule tables, LifeHistory and the
//! other layered rules) `A` is state 1 and `B`… the states 2..C-1; under a two-state rule a
//! state above 1 is an error.
//!
//! As in Golly, the header's size is a hint: live cells beyond it widen the box (with a
//! warning), and a file with no header at all is read as its body (B3/S23 unless `#r` names
//! a rule). A `#CXRLE` line below other lines is ignored, as Golly ignores it. Errors name
//! the line and column of the offending character; an error about a run points at the
//! run's first character.

use super::notes::Notes;
use super::rle_body::Body;
use super::rle_header::{Header, comment_line, hash_r, is_header, parse_header};
use super::rule_text::RuleSpec;
use super::{Pattern, PatternError};

/// Parse RLE text (BOM already removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut notes = Notes::default();
    let mut lines = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .zip(1..);
    // `#CXRLE` counts at the top only: before any other line (blank ones at the very start
    // aside), as Golly reads it.
    let (mut top, mut started) = (true, false);
    let mut hash_rule: Option<RuleSpec> = None;
    let mut first = None;
    for (line, line_no) in lines.by_ref() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            if t.is_empty() {
                top &= !started;
                continue;
            }
            first = Some((line, line_no));
            break;
        };
        let at = line[..line.len() - t.len()].chars().count() + 2;
        if !started && rest.starts_with('P') && rest[1..].starts_with(char::is_whitespace) {
            let message = "Golly reads a file that starts with #P as Life 1.05 and makes \
                           nothing of the RLE below it: read as RLE, the #P line ignored";
            notes.at(line_no, at - 1, message);
        }
        started = true;
        if rest.starts_with("CXRLE") && !top {
            let message = "#CXRLE below other lines: ignored, as Golly reads it only at the \
                           top of the file";
            notes.at(line_no, at - 1, message);
            continue;
        }
        top &= rest.starts_with("CXRLE");
        if let Some(rule) = rest.strip_prefix('r') {
            if hash_rule.is_none() {
                hash_rule = hash_r(line_no, at + 1, rule)?;
            }
            continue;
        }
        comment_line(&mut pattern, &mut notes, line_no, at, rest);
    }
    let (header, body_first) = match first {
        Some((line, line_no)) if is_header(line.trim_start()) => (
            Some((
                line_no,
                parse_header(line_no, line, &mut pattern, &mut notes)?,
            )),
            None,
        ),
        Some((line, line_no)) => {
            let message = "no RLE header (x = WIDTH, y = HEIGHT): the body is read as Golly \
                           reads it, as B3/S23 unless a #r line names the rule, its box taken \
                           from the cells";
            notes.line(line_no, message);
            (None, Some((line, line_no)))
        }
        None => {
            notes.file(
                "the RLE file has no header (x = WIDTH, y = HEIGHT) and no cells: read as an \
                 empty pattern, as Golly reads it",
            );
            (None, None)
        }
    };
    let mut cells = header.as_ref().and_then(|(_, h)| h.cells);
    if cells.is_none()
        && let Some(spec) = hash_rule
    {
        pattern.rule = Some(spec.rule);
        pattern.grid = spec.grid;
        cells = Some(spec.cell_states());
    }
    let mut body = Body::new(cells.unwrap_or_default());
    for (line, line_no) in body_first.into_iter().chain(lines) {
        if body.line(line_no, line, &mut notes)? {
            break;
        }
    }
    set_box(&mut pattern, header.as_ref(), body.span, &mut notes);
    pattern.cells = body.cells;
    pattern.dying = body.dying;
    pattern.warnings = notes.into_warnings();
    Ok(pattern)
}

/// The box: the header's size, widened to the cells where they reach beyond it (a warning
/// then says so), or the cells' extent where the header gives no size.
fn set_box(
    pattern: &mut Pattern,
    header: Option<&(usize, Header)>,
    (span_x, span_y): (u64, u64),
    notes: &mut Notes,
) {
    // The span is at most MAX_PATTERN_EDGE (Body::live checks), so it fits in u32.
    let (span_x, span_y) = (span_x as u32, span_y as u32);
    let (width, height) = header.map_or((None, None), |(_, h)| (h.width, h.height));
    pattern.width = width.unwrap_or(0).max(span_x);
    pattern.height = height.unwrap_or(0).max(span_y);
    let Some((line_no, _)) = header else {
        return;
    };
    let beyond = width.is_some_and(|w| span_x > w) || height.is_some_and(|h| span_y > h);
    if beyond {
        let said: Vec<String> = [("x", width), ("y", height)]
            .into_iter()
            .filter_map(|(name, value)| Some(format!("{name} = {}", value?)))
            .collect();
        let message = format!(
            "the header says {}; the cells span {span_x} × {span_y}: read as Golly does",
            said.join(", ")
        );
        notes.line(*line_no, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_beyond_the_header_widen_the_box_with_a_warning() {
        let p = parse("x = 3, y = 1\nbo$2bo$3o!").unwrap();
        assert_eq!((p.width, p.height, p.cells.len()), (3, 3, 5));
        assert_eq!(
            p.warnings,
            ["line 1: the header says x = 3, y = 1; the cells span 3 × 3: read as Golly does"]
        );
        // A wider header stays: the size is a hint the cells only ever grow.
        let q = parse("x = 9, y = 1\n2$o!").unwrap();
        assert_eq!((q.width, q.height), (9, 3));
    }

    #[test]
    fn unknown_characters_are_ignored_with_their_count() {
        let p = parse("x = 3, y = 1\n3zo%o!").unwrap();
        assert_eq!(p.cells, [(0, 0), (1, 0)]);
        assert_eq!(
            p.warnings,
            [
                "line 2, column 2: 'z' is not part of an RLE body: ignored with any run count \
              before it, as Golly ignores it (2 times in all)"
            ]
        );
    }

    #[test]
    fn golly_5_refusals_are_located() {
        let at = |text| match parse(text) {
            Err(PatternError::Syntax { line, column, .. }) => (line, column),
            other => panic!("{other:?}"),
        };
        assert_eq!(at("x = 3, y = 1\n3 o!"), (2, 2));
        assert_eq!(at("x = 3, y = 1\no1 2o!"), (2, 3));
        assert_eq!(at("x = 3, y = 1\no$12\no!"), (2, 3));
        assert_eq!(at("x = 3, y = 1\n02o!"), (2, 1));
        assert_eq!(at("#r B9/S\nx = 1, y = 1\no!"), (1, 4));
    }

    #[test]
    fn headerless_bodies_and_hash_r_rules() {
        let p = parse("#C hi\n#r 23/36\nbo$2bo$3o!").unwrap();
        assert_eq!((p.width, p.height, p.cells.len()), (3, 3, 5));
        assert_eq!(p.rule.map(|r| r.to_string()).as_deref(), Some("B36/S23"));
        assert!(
            p.warnings[0].starts_with("line 3: no RLE header"),
            "{:?}",
            p.warnings
        );
        let empty = parse("#C only a comment\n").unwrap();
        assert_eq!((empty.width, empty.population()), (0, 0));
        assert_eq!(empty.warnings.len(), 1);
    }

    #[test]
    fn hash_space_lines_are_comments_as_golly_shows_them() {
        let p =
            parse("# Langton's Loops\n#\n# C.G.Langton, 1984\n#C more\nx = 1, y = 1\no!").unwrap();
        assert_eq!(p.comments, ["Langton's Loops", "C.G.Langton, 1984", "more"]);
    }

    #[test]
    fn xrle_counts_only_at_the_top() {
        let p = parse("#CXRLE Pos=1,2\n#CXRLE Gen=5\nx = 1, y = 1\no!").unwrap();
        assert_eq!((p.position, p.generation), (Some((1, 2)), Some(5)));
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        let xlife = parse("#P 1 2\nx = 1, y = 1\no!").unwrap();
        assert_eq!((xlife.position, xlife.population()), (None, 1));
        assert!(
            xlife.warnings[0].contains("Life 1.05"),
            "{:?}",
            xlife.warnings
        );
        let q = parse("#N late\n  #CXRLE Pos=1,2\nx = 1, y = 1\no!").unwrap();
        assert_eq!(q.position, None);
        assert!(
            q.warnings[0].starts_with("line 2, column 3: #CXRLE"),
            "{:?}",
            q.warnings
        );
    }
}
