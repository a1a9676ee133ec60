//! Macrocell straight into and out of the quadtree: the reader maps each node line of the
//! file to one canonical node (no cell is expanded, so a 58-line file describing 10^12
//! cells loads in microseconds); the writer numbers the distinct nodes reachable from the
//! root, children first, as Golly's `[M2]` format lists them.
//!
//! The file's syntax, references, levels and rule are checked by the pattern module's
//! macrocell parser ([`crate::pattern::macrocell::parse_tree`]), which names the line of
//! any problem; this module only builds.

use std::fmt::Write as _;

use super::store::{LEAF_LEVEL, Store};
use super::{HashError, HashUniverse};
use crate::pattern::MacrocellNode;
use crate::pattern::macrocell_write::push_leaf;

/// A node of the file below leaf level (2×2 or 4×4), as bits of a partial leaf.
#[derive(Clone, Copy)]
enum Mapped {
    /// A square of side `2^level < 8`: bit `y * 8 + x` set for a live cell.
    Small { level: u32, bits: u64 },
    /// A node of the store.
    Node(u32),
}

impl HashUniverse {
    /// Replace every cell by the tree of a macrocell file (`nodes` as the pattern module
    /// parsed them: index 0 empty, the last the root, centred on the origin). Refuses
    /// Generations' dying states.
    pub fn load_macrocell(&mut self, nodes: &[MacrocellNode]) -> Result<(), HashError> {
        if nodes.len() <= 1 {
            self.clear();
            return Ok(());
        }
        let store = &mut self.engine.store;
        let base = store.stack_len();
        let mut mapped: Vec<Mapped> = Vec::with_capacity(nodes.len());
        mapped.push(Mapped::Small { level: 0, bits: 0 });
        for node in &nodes[1..] {
            let m = match *node {
                MacrocellNode::Cells { .. } => {
                    store.truncate(base);
                    return Err(HashError::Rule {
                        rule: self.rule.canonical(),
                        why: "the file holds dying cells of a Generations rule, which the hashed universe does not run yet".into(),
                    });
                }
                MacrocellNode::Leaf { level: 3, bits } => Mapped::Node(store.leaf(bits)),
                MacrocellNode::Leaf { level, bits } => Mapped::Small { level, bits },
                MacrocellNode::Inner { level, children } => {
                    let kids = children.map(|c| mapped[c]);
                    join_mapped(store, level, kids)
                }
            };
            if let Mapped::Node(id) = m {
                store.protect(id);
            }
            mapped.push(m);
        }
        let root = *mapped.last().expect("nodes has a root");
        store.truncate(base);
        match root {
            Mapped::Node(id) if store.level(id) > LEAF_LEVEL => {
                self.set_root(id);
                while self.root().1 < Self::MIN_ROOT_LEVEL {
                    self.expand()?;
                }
                Ok(())
            }
            // A root of 8×8 cells or less: its cells, centred as the file centres them.
            Mapped::Node(id) => {
                let bits = store.node(id).bits();
                self.load_cells(small_cells(LEAF_LEVEL.into(), bits))
            }
            Mapped::Small { level, bits } => self.load_cells(small_cells(level, bits)),
        }
    }

    /// The universe as macrocell text (`[M2]`, the rule, the generation, then the nodes),
    /// centred as Golly centres a macrocell root.
    pub fn to_macrocell(&self, comments: &[String]) -> String {
        let mut out = String::from("[M2] (golab)\n");
        let _ = writeln!(out, "#R {}", self.rule.canonical());
        if self.generation > 0 {
            let _ = writeln!(out, "#G {}", self.generation);
        }
        for c in comments {
            let _ = writeln!(out, "#C {c}");
        }
        let (root, _) = self.root();
        let store = self.store();
        if store.is_empty(root) {
            return out;
        }
        let mut numbers: std::collections::HashMap<u32, u64> = std::collections::HashMap::new();
        let mut next = 1u64;
        // Post-order without recursion: (node, children visited).
        let mut stack = vec![(root, false)];
        while let Some((id, done)) = stack.pop() {
            if numbers.contains_key(&id) || store.is_empty(id) {
                continue;
            }
            let node = store.node(id);
            if node.level == LEAF_LEVEL {
                push_leaf(&mut out, node.bits());
            } else if !done {
                stack.push((id, true));
                for &c in node.child.iter().rev() {
                    stack.push((c, false));
                }
                continue;
            } else {
                let n = |c: u32| if store.is_empty(c) { 0 } else { numbers[&c] };
                let [a, b, c, d] = node.child.map(n);
                let _ = writeln!(out, "{} {a} {b} {c} {d}", node.level);
            }
            numbers.insert(id, next);
            next += 1;
        }
        out
    }
}

/// The live cells of a root square of side `2^level ≤ 8` centred on the origin.
fn small_cells(level: u32, bits: u64) -> Vec<(i128, i128)> {
    let half = if level == 0 { 0 } else { 1i128 << (level - 1) };
    (0..64)
        .filter(|i| bits >> i & 1 == 1)
        .map(|i| (i128::from(i % 8) - half, i128::from(i / 8) - half))
        .collect()
}

/// The node of `level` made of four mapped children of `level − 1`.
fn join_mapped(store: &mut Store, level: u32, kids: [Mapped; 4]) -> Mapped {
    if level <= u32::from(LEAF_LEVEL) {
        // Below a leaf: merge the children's bits into a bigger partial square.
        let half = 1u32 << (level - 1);
        let mut bits = 0u64;
        for (q, k) in kids.iter().enumerate() {
            let Mapped::Small { bits: b, .. } = *k else {
                continue;
            };
            let (dx, dy) = ((q as u32 % 2) * half, (q as u32 / 2) * half);
            for y in 0..half {
                for x in 0..half {
                    if b >> (y * 8 + x) & 1 == 1 {
                        bits |= 1 << ((y + dy) * 8 + x + dx);
                    }
                }
            }
        }
        return if level == u32::from(LEAF_LEVEL) {
            Mapped::Node(store.leaf(bits))
        } else {
            Mapped::Small { level, bits }
        };
    }
    let child_level = (level - 1) as u8;
    let ids = kids.map(|k| match k {
        Mapped::Node(id) => id,
        Mapped::Small { .. } => store.empty(child_level),
    });
    Mapped::Node(store.join(ids))
}
