//! Cells of the hashed universe: set and read one, load many, count them, find the
//! pattern's edges and list the live cells of a rectangle — each a walk of the quadtree
//! that skips empty nodes and memoises per node, so a pattern of 10^12 cells repeated
//! from a few thousand distinct nodes costs a few thousand visits.

use std::collections::HashMap;

use super::store::{LEAF_LEVEL, Store};
use super::{HashError, HashUniverse, MAX_LEVEL, MIN_ROOT_LEVEL};

/// A rectangle of cells, inclusive corners, in universe coordinates (`y` down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left column.
    pub x0: i128,
    /// Top row.
    pub y0: i128,
    /// Right column (inclusive).
    pub x1: i128,
    /// Bottom row (inclusive).
    pub y1: i128,
}

impl Rect {
    /// Width in cells.
    pub fn width(&self) -> u128 {
        (self.x1 - self.x0) as u128 + 1
    }

    /// Height in cells.
    pub fn height(&self) -> u128 {
        (self.y1 - self.y0) as u128 + 1
    }
}

/// The corner of a level-`level` root centred on the origin.
pub(super) fn corner(level: u8) -> i128 {
    -(1i128 << (level - 1))
}

/// Population of `id`, memoised in `memo`.
pub(super) fn population(store: &Store, id: u32, memo: &mut HashMap<u32, u128>) -> u128 {
    let node = store.node(id);
    if node.level == LEAF_LEVEL {
        return u128::from(node.bits().count_ones());
    }
    if store.is_empty(id) {
        return 0;
    }
    if let Some(&p) = memo.get(&id) {
        return p;
    }
    let child = node.child;
    let p = child.iter().fold(0u128, |acc, &c| {
        acc.saturating_add(population(store, c, memo))
    });
    memo.insert(id, p);
    p
}

/// The smallest offset from `id`'s corner along one axis of a live cell (`axis` 0: x,
/// 1: y), or `None` when empty; `far` looks for the largest instead.
fn edge(
    store: &Store,
    id: u32,
    axis: usize,
    far: bool,
    memo: &mut HashMap<u32, Option<u128>>,
) -> Option<u128> {
    let node = *store.node(id);
    if node.level == LEAF_LEVEL {
        let bits = node.bits();
        if bits == 0 {
            return None;
        }
        let lines: Vec<u32> = (0..8u32)
            .filter(|&k| {
                let line = if axis == 0 {
                    (0..8).fold(0, |acc, r| acc | bits >> (r * 8) & 0xff) >> k & 1
                } else {
                    bits >> (k * 8) & 0xff
                };
                line != 0
            })
            .collect();
        let k = if far { lines.last() } else { lines.first() };
        return k.map(|&k| u128::from(k));
    }
    if store.is_empty(id) {
        return None;
    }
    if let Some(&e) = memo.get(&id) {
        return e;
    }
    let half = 1u128 << (node.level - 1);
    // Quadrants in the near half along the axis, then the far half.
    let (near, far_half): ([usize; 2], [usize; 2]) = if axis == 0 {
        ([0, 2], [1, 3])
    } else {
        ([0, 1], [2, 3])
    };
    let (first, second, offset_first, offset_second) = if far {
        (far_half, near, half, 0)
    } else {
        (near, far_half, 0, half)
    };
    let pick = |a: Option<u128>, b: Option<u128>| match (a, b) {
        (Some(a), Some(b)) => Some(if far { a.max(b) } else { a.min(b) }),
        (a, b) => a.or(b),
    };
    let mut found = None;
    for q in first {
        let e = edge(store, node.child[q], axis, far, memo).map(|e| e + offset_first);
        found = pick(found, e);
    }
    if found.is_none() {
        for q in second {
            let e = edge(store, node.child[q], axis, far, memo).map(|e| e + offset_second);
            found = pick(found, e);
        }
    }
    memo.insert(id, found);
    found
}

impl HashUniverse {
    /// Live cells, exact below 2^128 − 1 (a full square of side 2^64 or more saturates there).
    pub fn population(&self) -> u128 {
        population(self.store(), self.root().0, &mut HashMap::new())
    }

    /// The smallest rectangle holding every live cell, or `None` when there is none.
    pub fn bounds(&self) -> Option<Rect> {
        let (root, level) = self.root();
        let store = self.store();
        let c = corner(level);
        let side = |axis: usize, far: bool| {
            edge(store, root, axis, far, &mut HashMap::new()).map(|e| c + e as i128)
        };
        Some(Rect {
            x0: side(0, false)?,
            y0: side(1, false)?,
            x1: side(0, true)?,
            y1: side(1, true)?,
        })
    }

    /// Grow the root until it holds `(x, y)`.
    fn reach(&mut self, x: i128, y: i128) -> Result<(), HashError> {
        loop {
            let (_, level) = self.root();
            let c = corner(level);
            if x >= c && y >= c && x < -c && y < -c {
                return Ok(());
            }
            if level >= MAX_LEVEL {
                return Err(HashError::Limit(format!(
                    "cell ({x}, {y}) is outside the largest universe golab represents"
                )));
            }
            self.expand()?;
        }
    }

    /// Whether the cell at `(x, y)` is alive.
    pub fn get(&self, x: i128, y: i128) -> bool {
        let (mut id, mut level) = self.root();
        let c = corner(level);
        if x < c || y < c || x >= -c || y >= -c {
            return false;
        }
        let (mut x, mut y) = ((x - c) as u128, (y - c) as u128);
        let store = self.store();
        while level > LEAF_LEVEL {
            let half = 1u128 << (level - 1);
            let q = usize::from(x >= half) + 2 * usize::from(y >= half);
            x %= half;
            y %= half;
            id = store.node(id).child[q];
            level -= 1;
        }
        store.node(id).bits() >> (y * 8 + x) & 1 == 1
    }

    /// Make the cell at `(x, y)` alive or dead.
    pub fn set(&mut self, x: i128, y: i128, alive: bool) -> Result<(), HashError> {
        self.reach(x, y)?;
        let (root, level) = self.root();
        let c = corner(level);
        let next = set_in(
            &mut self.engine.store,
            root,
            (x - c) as u128,
            (y - c) as u128,
            alive,
        );
        self.set_root(next);
        Ok(())
    }

    /// Replace every cell by `cells` (live cells at universe coordinates; duplicates are
    /// fine), built bottom-up from 8×8 leaves rather than cell by cell.
    pub fn load_cells(
        &mut self,
        cells: impl IntoIterator<Item = (i128, i128)>,
    ) -> Result<(), HashError> {
        let mut leaves: HashMap<(i128, i128), u64> = HashMap::new();
        let (mut lo, mut hi) = (0i128, 0i128);
        for (x, y) in cells {
            let key = (x.div_euclid(8), y.div_euclid(8));
            *leaves.entry(key).or_insert(0) |= 1 << (y.rem_euclid(8) * 8 + x.rem_euclid(8));
            lo = lo.min(x.min(y));
            hi = hi.max(x.max(y));
        }
        let mut level = MIN_ROOT_LEVEL;
        while corner(level) > lo || -corner(level) <= hi {
            level += 1;
            if level > MAX_LEVEL {
                return Err(HashError::Limit(
                    "the pattern is wider than the largest universe golab represents".into(),
                ));
            }
        }
        let c = corner(level) / 8;
        let mut items: Vec<(u128, u128, u64)> = leaves
            .into_iter()
            .map(|((lx, ly), bits)| ((lx - c) as u128, (ly - c) as u128, bits))
            .collect();
        let store = &mut self.engine.store;
        let base = store.stack_len();
        let root = build(store, level, &mut items);
        store.truncate(base);
        self.set_root(root);
        Ok(())
    }

    /// Call `visit(x, y, bits)` for every non-empty 8×8 leaf that meets `rect`, with the
    /// leaf's top-left cell; bits are `y * 8 + x` within the leaf.
    pub fn for_each_leaf(&self, rect: Rect, visit: &mut dyn FnMut(i128, i128, u64)) {
        let (root, level) = self.root();
        let c = corner(level);
        walk(self.store(), root, level, c, c, rect, visit);
    }

    /// Every live cell inside `rect`, row-major not guaranteed.
    pub fn cells_in(&self, rect: Rect) -> Vec<(i128, i128)> {
        let mut out = Vec::new();
        self.for_each_leaf(rect, &mut |lx, ly, bits| {
            let mut b = bits;
            while b != 0 {
                let i = b.trailing_zeros() as i128;
                b &= b - 1;
                let (x, y) = (lx + i % 8, ly + i / 8);
                if x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1 {
                    out.push((x, y));
                }
            }
        });
        out
    }
}

fn walk(
    store: &Store,
    id: u32,
    level: u8,
    x: i128,
    y: i128,
    rect: Rect,
    visit: &mut dyn FnMut(i128, i128, u64),
) {
    let side = 1i128 << level;
    if store.is_empty(id)
        || x > rect.x1
        || y > rect.y1
        || x + side <= rect.x0
        || y + side <= rect.y0
    {
        return;
    }
    let node = *store.node(id);
    if level == LEAF_LEVEL {
        visit(x, y, node.bits());
        return;
    }
    let half = side / 2;
    for (q, &c) in node.child.iter().enumerate() {
        let (dx, dy) = ((q as i128 % 2) * half, (q as i128 / 2) * half);
        walk(store, c, level - 1, x + dx, y + dy, rect, visit);
    }
}

/// The node `id` of `level` with the cell at offset `(x, y)` set to `alive`.
fn set_in(store: &mut Store, id: u32, x: u128, y: u128, alive: bool) -> u32 {
    let node = *store.node(id);
    if node.level == LEAF_LEVEL {
        let bit = 1u64 << (y * 8 + x);
        let bits = if alive {
            node.bits() | bit
        } else {
            node.bits() & !bit
        };
        return store.leaf(bits);
    }
    let half = 1u128 << (node.level - 1);
    let q = usize::from(x >= half) + 2 * usize::from(y >= half);
    let mut child = node.child;
    child[q] = set_in(store, child[q], x % half, y % half, alive);
    store.join(child)
}

/// A node of `level` from leaves at leaf coordinates relative to its corner.
fn build(store: &mut Store, level: u8, items: &mut [(u128, u128, u64)]) -> u32 {
    if items.is_empty() {
        return store.empty(level);
    }
    if level == LEAF_LEVEL {
        let bits = items.iter().fold(0, |acc, it| acc | it.2);
        return store.leaf(bits);
    }
    let half = 1u128 << (level - 1 - LEAF_LEVEL);
    let quadrant =
        |it: &(u128, u128, u64)| usize::from(it.0 >= half) + 2 * usize::from(it.1 >= half);
    items.sort_unstable_by_key(quadrant);
    let mut child = [0u32; 4];
    let mut start = 0;
    for (q, slot) in child.iter_mut().enumerate() {
        let end = start
            + items[start..]
                .iter()
                .take_while(|it| quadrant(it) == q)
                .count();
        let part = &mut items[start..end];
        for it in part.iter_mut() {
            it.0 %= half;
            it.1 %= half;
        }
        *slot = build(store, level - 1, part);
        store.protect(*slot);
        start = end;
    }
    store.join(child)
}
