//! The macrocell reader (Golly's `[M2]` hashlife format; the writer is `macrocell_write.rs`).
//!
//! After the `[M2]` line: `#R rule` (a bounded-grid suffix allowed), `#G generation`, `#C` comments (`#C #N name` and
//! `#C #O author` as Golly writes an RLE file's metadata), then one node per line, numbered
//! from 1: an 8×8 leaf as rows of `.`/`*` each ended by `$` (top row first, trailing dead
//! cells and rows left out), `1 a b c d` a 2×2 node of cell states (multi-state files:
//! every state of a many-state rule kept), or
//! `k nw ne sw se`, a 2^k square of four earlier nodes of level k−1 (0 = empty). The last
//! node is the root, centred on Golly's origin. A tiny file can describe an enormous
//! pattern, so size and population are computed on the tree first, and a pattern over
//! golab's limits is refused with the size it needs before any cell is made.

use super::macrocell_tree::{Node, expand};
use super::rule_text::{CellRead, CellStates, parse_rule};
use super::{Pattern, PatternError, syntax};

/// Deepest tree accepted: a level-64 root spans every `i64` coordinate (its cells' offsets
/// from its corner still fit a `u64`).
const MAX_LEVEL: u32 = 64;

/// Parse macrocell text (BOM removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let (mut pattern, nodes) = parse_tree(text)?;
    if nodes.len() > 1 {
        expand(&mut pattern, &nodes)?;
    }
    Ok(pattern)
}

/// Parse macrocell text into its metadata (no cells) and its node list, index 0 the empty
/// node, the last the root: what the hashed universe reads without expanding a cell.
pub(crate) fn parse_tree(text: &str) -> Result<(Pattern, Vec<Node>), PatternError> {
    let mut pattern = Pattern::default();
    let mut cell_states = CellStates::default();
    // Index 0 is the empty node of any level.
    let mut nodes: Vec<Node> = vec![Node::Leaf { level: 0, bits: 0 }];
    let mut header = false;
    // Lines end at LF, CRLF or a lone CR, as everywhere (hashlife loads call this directly).
    let text = super::encoding::unify_line_ends(text);
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if !header {
            if !t.starts_with("[M2]") {
                let column = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
                return Err(syntax(line_no, column, "a macrocell file starts with [M2]"));
            }
            header = true;
            continue;
        }
        if let Some(rest) = t.strip_prefix('#') {
            header_line(&mut pattern, &mut cell_states, line_no, line, rest)?;
        } else if t.starts_with(['.', '*', '$']) {
            nodes.push(leaf(line_no, line)?);
        } else {
            let node = inner(line_no, line, &nodes, cell_states)?;
            nodes.push(node);
        }
    }
    Ok((pattern, nodes))
}

/// A `#` line: `rest` follows the `#` in `line`.
fn header_line(
    pattern: &mut Pattern,
    cell_states: &mut CellStates,
    line_no: usize,
    line: &str,
    rest: &str,
) -> Result<(), PatternError> {
    let column = |sub: &str| {
        let start = (sub.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
        line.get(..start).map_or(0, |s| s.chars().count()) + 1
    };
    let value = rest.get(1..).unwrap_or_default().trim();
    match rest.chars().next() {
        Some('R') => {
            let spec = parse_rule(value)
                .map_err(|(offset, m)| syntax(line_no, column(value) + offset, m))?;
            pattern.rule = Some(spec.rule);
            pattern.grid = spec.grid;
            *cell_states = spec.cell_states();
        }
        Some('G') => {
            let generation = value.parse::<u64>().map_err(|_| {
                let message = format!("#G needs a generation count, found '{value}'");
                syntax(line_no, column(value), message)
            })?;
            pattern.generation = Some(generation);
        }
        Some('C') if !value.is_empty() => {
            if let Some(name) = value.strip_prefix("#N ") {
                pattern.name = Some(name.trim().to_string());
            } else if let Some(author) = value.strip_prefix("#O ") {
                pattern.author = Some(author.trim().to_string());
            } else {
                let text = value.strip_prefix("#C ").unwrap_or(value).trim();
                pattern.comments.push(text.to_string());
            }
        }
        _ => {}
    }
    Ok(())
}

/// An 8×8 leaf line.
fn leaf(line_no: usize, line: &str) -> Result<Node, PatternError> {
    let lead = line.chars().take_while(|c| c.is_whitespace()).count();
    let (mut x, mut y, mut bits) = (0u32, 0u32, 0u64);
    for (i, c) in line.trim().chars().enumerate() {
        let column = lead + i + 1;
        match c {
            '*' | '.' => {
                if c == '*' && (x > 7 || y > 7) {
                    let message = "a leaf is 8x8 cells: this cell is outside it";
                    return Err(syntax(line_no, column, message));
                }
                if c == '*' {
                    bits |= 1 << (y * 8 + x);
                }
                x += 1;
            }
            '$' => (x, y) = (0, y + 1),
            c => {
                let message = format!("unexpected {c:?} in a leaf: rows of . and * ended by $");
                return Err(syntax(line_no, column, message));
            }
        }
    }
    Ok(Node::Leaf { level: 3, bits })
}

/// A `k nw ne sw se` line (or `1 a b c d` of cell states, a many-state rule's kept).
fn inner(
    line_no: usize,
    line: &str,
    nodes: &[Node],
    cell_states: CellStates,
) -> Result<Node, PatternError> {
    let mut fields = [0u64; 5];
    let mut columns = [0usize; 5];
    let mut count = 0;
    let mut offset = 0;
    for word in line.split([' ', '\t']) {
        let column = line[..offset].chars().count() + 1;
        offset += word.len() + 1;
        if word.is_empty() {
            continue;
        }
        if count == 5 {
            return Err(syntax(
                line_no,
                column,
                "a node line has 5 numbers: k nw ne sw se",
            ));
        }
        fields[count] = word.parse::<u64>().map_err(|_| {
            let message = format!("expected a number in a node line, found '{word}'");
            syntax(line_no, column, message)
        })?;
        columns[count] = column;
        count += 1;
    }
    if count < 5 {
        let column = line.trim_end().chars().count() + 1;
        return Err(syntax(
            line_no,
            column,
            "a node line has 5 numbers: k nw ne sw se",
        ));
    }
    let level = fields[0];
    if level == 1 {
        let mut bits = 0u64;
        let mut cells = [0u8; 4];
        for (i, &state) in fields[1..].iter().enumerate() {
            let read = cell_states.read(state);
            match read.map_err(|message| syntax(line_no, columns[i + 1], message))? {
                CellRead::Live => {
                    cells[i] = 1;
                    bits |= 1 << ((i as u32 / 2) * 8 + i as u32 % 2);
                }
                CellRead::Dying(state) => cells[i] = state,
                CellRead::Dead => {}
            }
        }
        if cells.iter().any(|&c| c >= 2) {
            return Ok(Node::Cells { states: cells });
        }
        return Ok(Node::Leaf { level: 1, bits });
    }
    if !(2..=u64::from(MAX_LEVEL)).contains(&level) {
        let message = format!(
            "node level {level} is out of range 1..={MAX_LEVEL} (a level-k node is 2^k cells wide)"
        );
        return Err(syntax(line_no, columns[0], message));
    }
    let level = level as u32;
    let mut children = [0usize; 4];
    for i in 0..4 {
        let child = fields[i + 1];
        let bad = |why: String| syntax(line_no, columns[i + 1], why);
        if child >= nodes.len() as u64 {
            return Err(bad(format!(
                "node {child} is not defined yet (nodes so far: {})",
                nodes.len() - 1
            )));
        }
        let child = child as usize;
        if child != 0 && nodes[child].level() != level - 1 {
            return Err(bad(format!(
                "node {child} has level {}, but a level-{level} node's children have level {}",
                nodes[child].level(),
                level - 1
            )));
        }
        children[i] = child;
    }
    Ok(Node::Inner { level, children })
}
