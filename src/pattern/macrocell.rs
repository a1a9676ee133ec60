//! The macrocell reader (Golly's `[M2]` hashlife format; the writer is `macrocell_write.rs`).
//!
//! After the `[M2]` line: `#R rule` (a bounded-grid suffix allowed; `LifeHistory` read as
//! B3/S23 with states 1, 3, 5 alive), `#G generation`, `#C` comments (`#C #N name` and
//! `#C #O author` as Golly writes an RLE file's metadata), then one node per line, numbered
//! from 1: an 8×8 leaf as rows of `.`/`*` each ended by `$` (top row first, trailing dead
//! cells and rows left out), `1 a b c d` a 2×2 node of cell states (multi-state files:
//! LifeHistory read as B3/S23, a Generations rule's dying states kept), or
//! `k nw ne sw se`, a 2^k square of four earlier nodes of level k−1 (0 = empty). The last
//! node is the root, centred on Golly's origin. A tiny file can describe an enormous
//! pattern, so size and population are computed on the tree first, and a pattern over
//! golab's limits is refused with the size it needs before any cell is made.

use super::life106::check_box;
use super::rule_text::parse_rule;
use super::{MAX_PATTERN_CELLS, Pattern, PatternError, syntax};

/// Deepest tree accepted: a level-64 root spans every `i64` coordinate (its cells' offsets
/// from its corner still fit a `u64`).
const MAX_LEVEL: u32 = 64;

/// One node of the tree.
#[derive(Clone, Copy)]
enum Node {
    /// A leaf of level 1 (2×2) or 3 (8×8): bit `row * 8 + column` set for a live cell.
    Leaf { level: u32, bits: u64 },
    /// Four children of level `level - 1` (index 0 = empty): nw, ne, sw, se.
    Inner { level: u32, children: [usize; 4] },
    /// A 2×2 node of a Generations file holding dying cells: each cell's state (nw, ne, sw,
    /// se; 0 dead, 1 alive, 2.. dying).
    Cells { states: [u8; 4] },
}

impl Node {
    fn level(self) -> u32 {
        match self {
            Node::Leaf { level, .. } | Node::Inner { level, .. } => level,
            Node::Cells { .. } => 1,
        }
    }
}

/// Population and bounding box (min x, min y, max x, max y, relative to the node's corner).
#[derive(Clone, Copy)]
struct Extent {
    population: u64,
    bounds: [u64; 4],
}

/// Parse macrocell text (BOM removed, not blank).
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut history = false;
    let mut dead_states = 0u64;
    // States of the file's Generations rule (2: no dying states).
    let mut states = 2u16;
    // Index 0 is the empty node of any level.
    let mut nodes: Vec<Node> = vec![Node::Leaf { level: 0, bits: 0 }];
    let mut header = false;
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
            header_line(&mut pattern, &mut history, line_no, line, rest)?;
            states = pattern
                .rule
                .filter(|rule| rule.has_dying_states())
                .map_or(2, |rule| rule.states());
        } else if t.starts_with(['.', '*', '$']) {
            nodes.push(leaf(line_no, line)?);
        } else {
            let node = inner(line_no, line, &nodes, (history, states), &mut dead_states)?;
            nodes.push(node);
        }
    }
    if dead_states > 0 {
        pattern.warnings.push(format!(
            "LifeHistory: {dead_states} cell{} of the file's 2x2 nodes in states other than \
             1, 3 and 5 were read as dead; the live cells run as B3/S23",
            if dead_states == 1 { "" } else { "s" }
        ));
    }
    if nodes.len() > 1 {
        expand(&mut pattern, &nodes)?;
    }
    Ok(pattern)
}

/// A `#` line: `rest` follows the `#` in `line`.
fn header_line(
    pattern: &mut Pattern,
    history: &mut bool,
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
            *history = spec.history;
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

/// A `k nw ne sw se` line (or `1 a b c d` of cell states: LifeHistory's read as live or
/// dead, a Generations rule's `states` kept).
fn inner(
    line_no: usize,
    line: &str,
    nodes: &[Node],
    (history, states): (bool, u16),
    dead_states: &mut u64,
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
            let live = match state {
                0 => false,
                1 => true,
                3 | 5 if history => true,
                2..=255 if history => {
                    *dead_states += 1;
                    false
                }
                s if s < u64::from(states) => {
                    cells[i] = s as u8;
                    false
                }
                _ if states > 2 => {
                    let message = format!(
                        "cell state {state} is beyond the rule's states 0-{} (Generations C = {states})",
                        states - 1
                    );
                    return Err(syntax(line_no, columns[i + 1], message));
                }
                _ => {
                    let message = format!(
                        "cell state {state} in a two-state rule (multi-state nodes are read for \
                         Generations rules and LifeHistory only)"
                    );
                    return Err(syntax(line_no, columns[i + 1], message));
                }
            };
            if live {
                cells[i] = 1;
            }
            if live {
                bits |= 1 << ((i as u32 / 2) * 8 + i as u32 % 2);
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

/// Population and bounds of every node (children come before their parents).
fn extents(nodes: &[Node]) -> Vec<Option<Extent>> {
    let mut out: Vec<Option<Extent>> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let extent = match *node {
            Node::Leaf { bits: 0, .. } => None,
            Node::Cells { states } => {
                let set: Vec<u64> = (0..4u64).filter(|&i| states[i as usize] > 0).collect();
                let xs = set.iter().map(|i| i % 2);
                let ys = set.iter().map(|i| i / 2);
                Some(Extent {
                    population: set.len() as u64,
                    bounds: [
                        xs.clone().min().unwrap_or(0),
                        ys.clone().min().unwrap_or(0),
                        xs.max().unwrap_or(0),
                        ys.max().unwrap_or(0),
                    ],
                })
            }
            Node::Leaf { bits, .. } => {
                // Rows are bytes: the first and last set bytes are the top and bottom rows;
                // the OR of all rows gives the columns.
                let columns = (0..8).fold(0u64, |acc, row| acc | (bits >> (row * 8)) & 0xff);
                Some(Extent {
                    population: u64::from(bits.count_ones()),
                    bounds: [
                        u64::from(columns.trailing_zeros()),
                        u64::from(bits.trailing_zeros() / 8),
                        u64::from(63 - columns.leading_zeros()),
                        u64::from((63 - bits.leading_zeros()) / 8),
                    ],
                })
            }
            Node::Inner { level, children } => {
                let half = 1u64 << (level - 1);
                let mut acc: Option<Extent> = None;
                for (q, &child) in children.iter().enumerate() {
                    let Some(e) = (if child == 0 { None } else { out[child] }) else {
                        continue;
                    };
                    let (dx, dy) = ((q as u64 % 2) * half, (q as u64 / 2) * half);
                    let b = [
                        e.bounds[0] + dx,
                        e.bounds[1] + dy,
                        e.bounds[2] + dx,
                        e.bounds[3] + dy,
                    ];
                    acc = Some(match acc {
                        None => Extent {
                            population: e.population,
                            bounds: b,
                        },
                        Some(a) => Extent {
                            population: a.population.saturating_add(e.population),
                            bounds: [
                                a.bounds[0].min(b[0]),
                                a.bounds[1].min(b[1]),
                                a.bounds[2].max(b[2]),
                                a.bounds[3].max(b[3]),
                            ],
                        },
                    });
                }
                acc
            }
        };
        out.push(extent);
    }
    out
}

/// Check the root's size and population, then list its live cells row-major.
fn expand(pattern: &mut Pattern, nodes: &[Node]) -> Result<(), PatternError> {
    let extents = extents(nodes);
    let root = nodes.len() - 1;
    let Some(extent) = extents[root] else {
        return Ok(());
    };
    let [x0, y0, x1, y1] = extent.bounds;
    check_box(i128::from(x1 - x0) + 1, i128::from(y1 - y0) + 1)?;
    if extent.population > MAX_PATTERN_CELLS as u64 {
        return Err(PatternError::TooLarge {
            what: format!("{} live cells", extent.population),
            limit: MAX_PATTERN_CELLS as u64,
        });
    }
    // Every leaf as 8×8 blocks at block coordinates relative to the root's corner.
    let mut blocks: Vec<(u64, u64, u64)> = Vec::new();
    let mut dying: Vec<(u64, u64, u8)> = Vec::new();
    collect(nodes, &extents, root, (0, 0), &mut blocks, &mut dying);
    blocks.sort_unstable_by_key(|&(bx, by, _)| (by, bx));
    blocks.dedup_by(|b, a| {
        let same = (a.0, a.1) == (b.0, b.1);
        if same {
            a.2 |= b.2;
        }
        same
    });
    let mut cells = Vec::with_capacity(extent.population as usize);
    let mut start = 0;
    while start < blocks.len() {
        let by = blocks[start].1;
        let end = start + blocks[start..].iter().take_while(|b| b.1 == by).count();
        for row in 0..8 {
            for &(bx, _, bits) in &blocks[start..end] {
                let mut row_bits = (bits >> (row * 8)) & 0xff;
                while row_bits != 0 {
                    let col = u64::from(row_bits.trailing_zeros());
                    row_bits &= row_bits - 1;
                    let (x, y) = (bx * 8 + col, by * 8 + row);
                    cells.push(((x - x0) as u32, (y - y0) as u32));
                }
            }
        }
        start = end;
    }
    let level = nodes[root].level();
    let corner = -(1i128 << (level.max(1) - 1));
    let at = |offset: u64| i64::try_from(corner + i128::from(offset)).ok();
    pattern.width = (x1 - x0 + 1) as u32;
    pattern.height = (y1 - y0 + 1) as u32;
    pattern.cells = cells;
    dying.sort_unstable_by_key(|&(x, y, _)| (y, x));
    pattern.dying = dying
        .into_iter()
        .map(|(x, y, state)| ((x - x0) as u32, (y - y0) as u32, state))
        .collect();
    pattern.position = at(x0).zip(at(y0));
    Ok(())
}

/// Push the non-empty leaves under `node` (its corner at `x`, `y`) as 8×8 blocks, and the
/// dying cells of Generations nodes as `(x, y, state)`.
fn collect(
    nodes: &[Node],
    extents: &[Option<Extent>],
    node: usize,
    (x, y): (u64, u64),
    out: &mut Vec<(u64, u64, u64)>,
    dying: &mut Vec<(u64, u64, u8)>,
) {
    if node == 0 || extents[node].is_none() {
        return;
    }
    match nodes[node] {
        Node::Leaf { level: 3, bits } => out.push((x / 8, y / 8, bits)),
        Node::Leaf { bits, .. } => {
            // A 2×2 leaf inside its 8×8 block: its rows move to the block's rows.
            let (dx, dy) = (x % 8, y % 8);
            let shifted =
                ((bits & 0b11) << (dy * 8 + dx)) | (((bits >> 8) & 0b11) << ((dy + 1) * 8 + dx));
            out.push((x / 8, y / 8, shifted));
        }
        Node::Cells { states } => {
            let (dx, dy) = (x % 8, y % 8);
            let mut bits = 0u64;
            for (i, &state) in states.iter().enumerate() {
                let (cx, cy) = (i as u64 % 2, i as u64 / 2);
                match state {
                    1 => bits |= 1 << ((dy + cy) * 8 + dx + cx),
                    0 => {}
                    state => dying.push((x + cx, y + cy, state)),
                }
            }
            out.push((x / 8, y / 8, bits));
        }
        Node::Inner { level, children } => {
            let half = 1u64 << (level - 1);
            for (q, &child) in children.iter().enumerate() {
                let (cx, cy) = (x + (q as u64 % 2) * half, y + (q as u64 / 2) * half);
                collect(nodes, extents, child, (cx, cy), out, dying);
            }
        }
    }
}
