//! The macrocell node tree and its expansion into cells: population and bounds per node
//! (computed before any cell is made, so an enormous pattern is refused first), then the
//! non-empty 8×8 leaves and Generations' dying cells collected into a [`Pattern`].

use super::life106::check_box;
use super::{MAX_PATTERN_CELLS, Pattern, PatternError};

/// One node of a macrocell file's tree.
#[derive(Clone, Copy, Debug)]
pub enum Node {
    /// A leaf of level 1 (2×2) or 3 (8×8): bit `row * 8 + column` set for a live cell.
    Leaf {
        /// 1 or 3.
        level: u32,
        /// Bit `row * 8 + column` set for a live cell.
        bits: u64,
    },
    /// Four children of level `level - 1` (index 0 = empty): nw, ne, sw, se.
    Inner {
        /// The level, ≥ 2.
        level: u32,
        /// Indices of the children in the node list (0 = empty).
        children: [usize; 4],
    },
    /// A 2×2 node of a Generations file holding dying cells: each cell's state (nw, ne, sw,
    /// se; 0 dead, 1 alive, 2.. dying).
    Cells {
        /// The four cells' states.
        states: [u8; 4],
    },
}

impl Node {
    /// The node's level (a level-k node is 2^k cells wide).
    pub fn level(self) -> u32 {
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
pub(super) fn expand(pattern: &mut Pattern, nodes: &[Node]) -> Result<(), PatternError> {
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
