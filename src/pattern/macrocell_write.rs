//! The macrocell writer: the pattern as Golly's `[M2]` quadtree, identical subtrees written
//! once, so regular and sparse patterns stay small.
//!
//! The cells go into 8×8 leaves (one band of eight rows at a time, so the work is linear in
//! the cells), then each level groups four nodes of the level below into their parent,
//! sharing equal nodes through a hash map, until one root holds the pattern at its position
//! ([`Pattern::origin`]) around Golly's origin. Children are numbered before their parents,
//! as the format requires.

use std::collections::HashMap;

use super::Pattern;
use super::rle_write::one_line;

/// Shallowest root written: Golly's reader wants node lines of level 4 or more.
const MIN_ROOT_LEVEL: u32 = 4;

/// Deepest root the writer uses: level 64 reaches every `i64` position.
const MAX_ROOT_LEVEL: u32 = 64;

impl Pattern {
    /// Macrocell text: `[M2] (golab …)`, `#R` (rule and bounded grid, B3/S23 when the
    /// pattern names none), `#G` when it has a generation, `#C #N`/`#C #O`/`#C` metadata lines,
    /// then the nodes. An empty pattern has no node lines.
    pub fn to_macrocell(&self) -> String {
        let cells = self.clean_cells();
        let mut out = format!("[M2] (golab {})\n", env!("CARGO_PKG_VERSION"));
        let suffix = self.grid.map(|g| g.suffix()).unwrap_or_default();
        out.push_str(&format!("#R {}{suffix}\n", self.rule.unwrap_or_default()));
        if let Some(generation) = self.generation {
            out.push_str(&format!("#G {generation}\n"));
        }
        for (tag, text) in [("#N", &self.name), ("#O", &self.author)] {
            let text = one_line(text.as_deref().unwrap_or_default());
            if !text.is_empty() {
                out.push_str(&format!("#C {tag} {text}\n"));
            }
        }
        for line in self
            .comments
            .iter()
            .flat_map(|c| c.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            // The reader takes `#C #N …`/`#C #O …` as name/author and drops one `#C ` from a
            // comment, so a comment starting like those gets a `#C ` of its own.
            let escape = ["#N ", "#O ", "#C "].iter().any(|p| line.starts_with(p));
            out.push_str(if escape { "#C #C " } else { "#C " });
            out.push_str(line);
            out.push('\n');
        }
        if cells.is_empty() && self.dying.is_empty() {
            return out;
        }
        let (level, shift) = self.root_placement();
        if self.dying.is_empty() {
            let leaves = leaves(&cells, self.width, shift);
            Tree::build(leaves, 3, level).write(&mut out, push_leaf);
        } else {
            // States 2 and up (Generations' dying cells, a rule table's states): Golly's
            // multi-state form, 2×2 leaves of states (`1 nw ne sw se`).
            let leaves = state_leaves(&cells, &self.dying, shift);
            Tree::build(leaves, 1, level).write(&mut out, |out, [nw, ne, sw, se]| {
                out.push_str(&format!("1 {nw} {ne} {sw} {se}\n"));
            });
        }
        out
    }

    /// The root's level and the offset from the box's top-left to the root's corner.
    fn root_placement(&self) -> (u32, (u64, u64)) {
        let fit = |(ox, oy): (i64, i64)| {
            let (x0, y0) = (i128::from(ox), i128::from(oy));
            let (x1, y1) = (x0 + i128::from(self.width), y0 + i128::from(self.height));
            (MIN_ROOT_LEVEL..=MAX_ROOT_LEVEL).find_map(|level| {
                let half = 1i128 << (level - 1);
                (x0 >= -half && y0 >= -half && x1 <= half && y1 <= half)
                    .then(|| (level, ((x0 + half) as u64, (y0 + half) as u64)))
            })
        };
        let centred = (-i64::from(self.width / 2), -i64::from(self.height / 2));
        fit(self.origin())
            .or_else(|| fit(centred))
            .unwrap_or((MAX_ROOT_LEVEL, (0, 0)))
    }
}

/// The non-empty 8×8 leaves of row-major `cells` (in a box `width` wide) shifted by
/// `shift`: (block x, block y, bits), one band of eight rows at a time in a vector of the
/// band's blocks.
fn leaves(cells: &[(u32, u32)], width: u32, (sx, sy): (u64, u64)) -> Vec<(u64, u64, u64)> {
    let mut out = Vec::new();
    let first_block = sx / 8;
    let mut band = vec![0u64; (u64::from(width) / 8 + 2) as usize];
    let flush = |band: &mut Vec<u64>, by: u64, out: &mut Vec<(u64, u64, u64)>| {
        for (i, bits) in band.iter_mut().enumerate().filter(|(_, b)| **b != 0) {
            out.push((first_block + i as u64, by, *bits));
            *bits = 0;
        }
    };
    let mut current: Option<u64> = None;
    for &(x, y) in cells {
        let (x, y) = (u64::from(x) + sx, u64::from(y) + sy);
        let by = y / 8;
        if let Some(c) = current.filter(|&c| c != by) {
            flush(&mut band, c, &mut out);
        }
        current = Some(by);
        band[(x / 8 - first_block) as usize] |= 1u64 << ((y % 8) * 8 + x % 8);
    }
    if let Some(by) = current {
        flush(&mut band, by, &mut out);
    }
    out
}

/// The non-empty 2×2 leaves of live cells (state 1) and `states` (x, y, state ≥ 2), shifted
/// by `shift`: (block x, block y, [nw, ne, sw, se]).
fn state_leaves(
    live: &[(u32, u32)],
    states: &[(u32, u32, u8)],
    (sx, sy): (u64, u64),
) -> Vec<(u64, u64, [u8; 4])> {
    let mut blocks: HashMap<(u64, u64), [u8; 4]> = HashMap::new();
    let all = live
        .iter()
        .map(|&(x, y)| (x, y, 1))
        .chain(states.iter().copied());
    for (x, y, state) in all {
        let (x, y) = (u64::from(x) + sx, u64::from(y) + sy);
        blocks.entry((x / 2, y / 2)).or_insert([0; 4])[((y % 2) * 2 + x % 2) as usize] = state;
    }
    let mut out: Vec<_> = blocks.into_iter().map(|((x, y), s)| (x, y, s)).collect();
    out.sort_unstable_by_key(|&(x, y, _)| (y, x));
    out
}

/// The shared nodes, numbered from 1 in the order they are written.
struct Tree<L> {
    /// Leaves by node number − 1 for the first `leaves` nodes.
    leaf_bits: Vec<L>,
    /// Inner nodes after the leaves: (level, children).
    inner: Vec<(u32, [usize; 4])>,
}

impl<L: Copy + Eq + std::hash::Hash> Tree<L> {
    /// Build the tree of `leaves` (at `leaf_level`: 3 for 8×8 bit leaves, 1 for 2×2 state
    /// leaves) up to a root of `level`.
    fn build(leaves: Vec<(u64, u64, L)>, leaf_level: u32, level: u32) -> Tree<L> {
        let mut leaf_ids: HashMap<L, usize> = HashMap::new();
        let mut leaf_bits = Vec::new();
        let mut layer: Vec<(u64, u64, usize)> = leaves
            .into_iter()
            .map(|(x, y, bits)| {
                let id = *leaf_ids.entry(bits).or_insert_with(|| {
                    leaf_bits.push(bits);
                    leaf_bits.len()
                });
                (x, y, id)
            })
            .collect();
        let mut inner = Vec::new();
        let mut node_ids: HashMap<[usize; 4], usize> = HashMap::new();
        for parent_level in leaf_level + 1..=level {
            node_ids.clear();
            layer.sort_unstable_by_key(|&(x, y, _)| (y / 2, x / 2, y % 2, x % 2));
            let mut next = Vec::with_capacity(layer.len() / 2 + 1);
            let mut i = 0;
            while i < layer.len() {
                let (px, py) = (layer[i].0 / 2, layer[i].1 / 2);
                let mut children = [0usize; 4];
                while i < layer.len() && (layer[i].0 / 2, layer[i].1 / 2) == (px, py) {
                    let (x, y, id) = layer[i];
                    children[((y % 2) * 2 + x % 2) as usize] = id;
                    i += 1;
                }
                let id = *node_ids.entry(children).or_insert_with(|| {
                    inner.push((parent_level, children));
                    leaf_bits.len() + inner.len()
                });
                next.push((px, py, id));
            }
            layer = next;
        }
        Tree { leaf_bits, inner }
    }

    /// Append the node lines to `out`, each leaf written by `leaf`.
    fn write(&self, out: &mut String, leaf: impl Fn(&mut String, L)) {
        out.reserve(self.leaf_bits.len() * 66 + self.inner.len() * 32);
        for &bits in &self.leaf_bits {
            leaf(out, bits);
        }
        for (level, [nw, ne, sw, se]) in &self.inner {
            out.push_str(&format!("{level} {nw} {ne} {sw} {se}\n"));
        }
    }
}

/// One 8×8 leaf (bit `y * 8 + x`) as a macrocell node line: rows of `.` and `*`, each ended
/// by `$`, trailing dead cells and rows left out. The one leaf writer, used also by the
/// hashed universe's tree writer.
pub(crate) fn push_leaf(out: &mut String, bits: u64) {
    for row in 0..8 {
        if bits >> (row * 8) == 0 {
            break;
        }
        let mut row_bits = (bits >> (row * 8)) & 0xff;
        while row_bits != 0 {
            out.push(if row_bits & 1 == 1 { '*' } else { '.' });
            row_bits >>= 1;
        }
        out.push('$');
    }
    out.push('\n');
}
