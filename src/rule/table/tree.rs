//! [`Tree`]: the one compiled form of every rule table and rule tree (Golly's `@TREE`
//! decision diagram), and the `@TREE` reader.
//!
//! A tree over `states` states with 4 or 8 neighbours is a stack of levels: the root tests
//! one neighbour's state and points to a node one level down, and so on until the last
//! level, which tests the cell itself and holds its next state. Golly's order of inputs
//! (its `ruletreealgo`): with 8 neighbours NW, NE, SW, SE, N, W, E, S, then the cell; with
//! 4 neighbours N, W, E, S, then the cell. Nodes are flattened into one `u32` array, each
//! node `states` consecutive entries: an inner entry is the offset of its child node, a
//! last-level entry the next state. Evaluating a cell is 5 or 9 dependent loads, the same
//! on the CPU, in the hashed engine and on a GPU (the array is the device buffer).

use std::collections::HashMap;

use super::TableError;

/// The 3×3 positions (row-major, north row first; [`crate::rule::cell_rule`]'s order) of a
/// tree's inputs with 8 neighbours, in Golly's evaluation order, the cell last.
pub const ORDER_8: [usize; 9] = [0, 2, 6, 8, 1, 3, 5, 7, 4];

/// The same for trees with 4 neighbours (von Neumann).
pub const ORDER_4: [usize; 5] = [1, 3, 5, 7, 4];

/// The orders of trees golab compiles with the cell first (8 and 4 neighbours): the cell,
/// then the neighbours in Golly's order; the last level holds the next state.
pub const CELL_FIRST_8: [usize; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// See [`CELL_FIRST_8`].
pub const CELL_FIRST_4: [usize; 5] = [4, 1, 3, 5, 7];

/// The largest compiled tree golab builds, in entries (4 bytes each): 64 MiB, far above
/// every rule in Golly's collection, small enough for any GPU's storage buffers.
pub const MAX_ENTRIES: usize = 1 << 24;

/// A rule as a flattened decision tree (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tree {
    states: u16,
    neighbours: u8,
    nodes: Vec<u32>,
    root: u32,
    /// The root tests the cell's state (golab's other compile order), not NW or N.
    cell_first: bool,
}

impl Tree {
    /// Number of cell states (2..=256).
    pub fn states(&self) -> u16 {
        self.states
    }

    /// 4 (von Neumann) or 8 (Moore) neighbours.
    pub fn neighbours(&self) -> u8 {
        self.neighbours
    }

    /// The flattened nodes (see the module docs), the form device buffers take.
    pub fn nodes(&self) -> &[u32] {
        &self.nodes
    }

    /// Offset of the root node in [`Self::nodes`].
    pub fn root(&self) -> u32 {
        self.root
    }

    /// Whether the root tests the cell's state ([`CELL_FIRST_8`]) rather than Golly's order.
    pub fn cell_first(&self) -> bool {
        self.cell_first
    }

    /// The tree as a device buffer: the nodes, then the root's offset, then the number of
    /// neighbours with bit 8 set when the cell is tested first (shaders/life/tree.wgsl).
    pub fn device_words(&self) -> Vec<u32> {
        let mut words = self.nodes.clone();
        words.extend([
            self.root,
            u32::from(self.neighbours) | u32::from(self.cell_first) << 8,
        ]);
        words
    }

    /// The next state of the centre of `cells` (3×3, row-major). Every state must be below
    /// [`Self::states`] (worlds and readers keep that invariant).
    #[inline]
    pub fn next(&self, cells: &[u8; 9]) -> u8 {
        let n = &self.nodes;
        let mut at = self.root as usize;
        let order: &[usize] = match (self.neighbours == 8, self.cell_first) {
            (true, false) => &ORDER_8,
            (false, false) => &ORDER_4,
            (true, true) => &CELL_FIRST_8,
            (false, true) => &CELL_FIRST_4,
        };
        for &k in order {
            at = n[at + usize::from(cells[k])] as usize;
        }
        at as u8
    }
}

/// Builds a [`Tree`] bottom-up, sharing equal nodes.
pub(super) struct TreeBuilder {
    states: u16,
    nodes: Vec<u32>,
    shared: HashMap<Vec<u32>, u32>,
}

impl TreeBuilder {
    /// An empty builder for `states` states.
    pub fn new(states: u16) -> Self {
        TreeBuilder {
            states,
            nodes: Vec::new(),
            shared: HashMap::new(),
        }
    }

    /// The offset of the node with these entries (`states` of them), added unless an equal
    /// node exists. Inner nodes and last-level nodes never collide: their levels differ by
    /// construction and an inner node's entries are offsets of nodes one level down.
    pub fn node(&mut self, level: u8, entries: &[u32]) -> Result<u32, TableError> {
        debug_assert_eq!(entries.len(), usize::from(self.states));
        let mut key = Vec::with_capacity(entries.len() + 1);
        key.push(u32::from(level));
        key.extend_from_slice(entries);
        if let Some(&at) = self.shared.get(&key) {
            return Ok(at);
        }
        if self.nodes.len() + entries.len() > MAX_ENTRIES {
            return Err(TableError::at(
                0,
                0,
                format!(
                    "the compiled rule needs more than {MAX_ENTRIES} tree entries ({} MiB), golab's limit",
                    (MAX_ENTRIES * 4) >> 20
                ),
            ));
        }
        let at = self.nodes.len() as u32;
        self.nodes.extend_from_slice(entries);
        self.shared.insert(key, at);
        Ok(at)
    }

    /// The tree with `root` as its root (`cell_first`: the root tests the cell).
    pub fn finish(self, neighbours: u8, root: u32, cell_first: bool) -> Tree {
        Tree {
            states: self.states,
            neighbours,
            nodes: self.nodes,
            root,
            cell_first,
        }
    }
}

/// Read an `@TREE` section: `num_states=`, `num_neighbors=` (4 or 8), `num_nodes=`, then
/// one line per node, `level v0 v1 …` (a state at level 1, else the index of a node one
/// level down, nodes numbered from 0 in file order), the root last. `lines` are the
/// section's lines with their 1-based line numbers.
pub fn read_tree(lines: &[(usize, &str)]) -> Result<Tree, TableError> {
    let (mut states, mut neighbours, mut count) = (None::<u16>, None::<u8>, None::<usize>);
    let mut builder: Option<TreeBuilder> = None;
    // (level, offset) of each node read so far.
    let mut read: Vec<(u8, u32)> = Vec::new();
    let mut last = (0usize, 0u8);
    for &(line, text) in lines {
        let body = text.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        if let Some((key, value)) = body.split_once('=') {
            let value_col = text.find('=').map_or(1, |i| i + 2);
            let number = value.trim().parse::<u64>().map_err(|_| {
                TableError::at(
                    line,
                    value_col,
                    format!("'{}' is not a number", value.trim()),
                )
            })?;
            match key.trim() {
                "num_states" if (2..=256).contains(&number) => states = Some(number as u16),
                "num_states" => {
                    return Err(TableError::at(line, value_col, "num_states must be 2-256"));
                }
                "num_neighbors" if number == 4 || number == 8 => neighbours = Some(number as u8),
                "num_neighbors" => {
                    return Err(TableError::at(
                        line,
                        value_col,
                        "num_neighbors must be 4 or 8",
                    ));
                }
                "num_nodes" => count = Some(number as usize),
                other => {
                    return Err(TableError::at(
                        line,
                        1,
                        format!("unknown setting '{other}'"),
                    ));
                }
            }
            continue;
        }
        let (Some(states), Some(neighbours), Some(count)) = (states, neighbours, count) else {
            return Err(TableError::at(
                line,
                1,
                "num_states, num_neighbors and num_nodes must come before the nodes",
            ));
        };
        if count.saturating_mul(usize::from(states)) > MAX_ENTRIES {
            return Err(TableError::at(
                line,
                1,
                format!(
                    "{count} nodes of {states} states pass golab's limit of {MAX_ENTRIES} entries"
                ),
            ));
        }
        let builder = builder.get_or_insert_with(|| TreeBuilder::new(states));
        let mut tokens = tokens_with_columns(text);
        let (col, level) = tokens.next().expect("a non-empty line has a token");
        let level: u8 = match level.parse() {
            Ok(l) if (1..=neighbours + 1).contains(&l) => l,
            _ => {
                return Err(TableError::at(
                    line,
                    col,
                    format!("a node's level must be 1-{}, not '{level}'", neighbours + 1),
                ));
            }
        };
        let mut entries = Vec::with_capacity(usize::from(states));
        for (col, token) in tokens.by_ref().take(usize::from(states)) {
            let value: u64 = token
                .parse()
                .map_err(|_| TableError::at(line, col, format!("'{token}' is not a number")))?;
            let entry = if level == 1 {
                if value >= u64::from(states) {
                    return Err(TableError::at(
                        line,
                        col,
                        format!("state {value} is not below num_states = {states}"),
                    ));
                }
                value as u32
            } else {
                match read.get(value as usize) {
                    Some(&(l, offset)) if l + 1 == level => offset,
                    Some(&(l, _)) => {
                        return Err(TableError::at(
                            line,
                            col,
                            format!("node {value} is at level {l}, not one level below {level}"),
                        ));
                    }
                    None => {
                        return Err(TableError::at(
                            line,
                            col,
                            format!("node {value} is not defined before this line"),
                        ));
                    }
                }
            };
            entries.push(entry);
        }
        if entries.len() != usize::from(states) || tokens.next().is_some() {
            return Err(TableError::at(
                line,
                1,
                format!("a node has {states} entries (num_states)"),
            ));
        }
        // Nodes keep their file numbering; equal nodes share storage.
        let offset = builder.node(level, &entries)?;
        read.push((level, offset));
        last = (line, level);
    }
    let (Some(neighbours), Some(count), Some(builder)) = (neighbours, count, builder) else {
        return Err(TableError::at(
            lines.first().map_or(0, |l| l.0),
            1,
            "the @TREE section has no nodes",
        ));
    };
    if read.len() != count {
        return Err(TableError::at(
            last.0,
            1,
            format!("num_nodes is {count} but {} nodes follow", read.len()),
        ));
    }
    if last.1 != neighbours + 1 {
        return Err(TableError::at(
            last.0,
            1,
            format!(
                "the last node (the root) must be at level {}",
                neighbours + 1
            ),
        ));
    }
    let root = read.last().expect("count ≥ 1").1;
    Ok(builder.finish(neighbours, root, false))
}

/// Whitespace-separated tokens of `text` with their 1-based columns.
pub(super) fn tokens_with_columns(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    let mut offset = 0;
    std::iter::from_fn(move || {
        let start = rest.find(|c: char| !c.is_whitespace())?;
        let len = rest[start..]
            .find(char::is_whitespace)
            .unwrap_or(rest.len() - start);
        let token = &rest[start..start + len];
        let col = offset + start + 1;
        offset += start + len;
        rest = &rest[start + len..];
        Some((col, token))
    })
}
