//! Cells of the hashed universe: set and read one, load many, count them, find the
//! pattern's edges and list the live cells of a rectangle — each a walk of the quadtree
//! that skips empty nodes and memoises per node, so a pattern of 10^12 cells repeated
//! from a few thousand distinct nodes costs a few thousand visits.

use std::collections::HashMap;

use super::leaves::Leaves;
use super::store::Store;
use super::{HashError, HashUniverse, MAX_LEVEL};

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

/// Node populations kept across calls of [`HashUniverse::population_memo`].
#[derive(Debug, Default)]
pub struct PopulationMemo {
    nodes: HashMap<u32, u128>,
    collections: u64,
}

/// Live cells (state 1) of `id`, memoised in `memo`.
pub(super) fn population<L: Leaves>(store: &Store, id: u32, memo: &mut HashMap<u32, u128>) -> u128 {
    count::<L>(store, id, memo, L::live)
}

/// Cells of `id` in each state (index = state), memoised in `memo`.
fn state_counts<L: Leaves>(
    store: &Store,
    id: u32,
    memo: &mut HashMap<u32, Vec<u128>>,
) -> Vec<u128> {
    let node = store.node(id);
    if node.level == L::LEVEL {
        let mut counts = Vec::new();
        L::for_each(&node.child, &mut |_, _, state| {
            let s = usize::from(state);
            if counts.len() <= s {
                counts.resize(s + 1, 0u128);
            }
            counts[s] += 1;
        });
        return counts;
    }
    if store.is_empty(id) {
        return Vec::new();
    }
    if let Some(counts) = memo.get(&id) {
        return counts.clone();
    }
    let mut total: Vec<u128> = Vec::new();
    for c in node.child {
        let part = state_counts::<L>(store, c, memo);
        if total.len() < part.len() {
            total.resize(part.len(), 0);
        }
        for (t, p) in total.iter_mut().zip(part) {
            *t = t.saturating_add(p);
        }
    }
    memo.insert(id, total.clone());
    total
}

/// Cells of `id` that `per_leaf` counts in each leaf, memoised in `memo`.
pub(super) fn count<L: Leaves>(
    store: &Store,
    id: u32,
    memo: &mut HashMap<u32, u128>,
    per_leaf: fn(&[u32; 4]) -> u64,
) -> u128 {
    let node = store.node(id);
    if node.level == L::LEVEL {
        return u128::from(per_leaf(&node.child));
    }
    if store.is_empty(id) {
        return 0;
    }
    if let Some(&p) = memo.get(&id) {
        return p;
    }
    let child = node.child;
    let p = child.iter().fold(0u128, |acc, &c| {
        acc.saturating_add(count::<L>(store, c, memo, per_leaf))
    });
    memo.insert(id, p);
    p
}

/// The smallest offset from `id`'s corner along one axis of an occupied cell (`axis` 0:
/// x, 1: y), or `None` when empty; `far` looks for the largest instead.
fn edge<L: Leaves>(
    store: &Store,
    id: u32,
    axis: usize,
    far: bool,
    memo: &mut HashMap<u32, Option<u128>>,
) -> Option<u128> {
    let node = store.node(id);
    if node.level == L::LEVEL {
        let mut found: Option<u32> = None;
        L::for_each(&node.child, &mut |x, y, _| {
            let v = if axis == 0 { x } else { y };
            found = Some(match found {
                None => v,
                Some(f) if far => f.max(v),
                Some(f) => f.min(v),
            });
        });
        return found.map(u128::from);
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
        let e = edge::<L>(store, node.child[q], axis, far, memo).map(|e| e + offset_first);
        found = pick(found, e);
    }
    if found.is_none() {
        for q in second {
            let e = edge::<L>(store, node.child[q], axis, far, memo).map(|e| e + offset_second);
            found = pick(found, e);
        }
    }
    memo.insert(id, found);
    found
}

impl<L: Leaves> HashUniverse<L> {
    /// Live cells (state 1), exact below 2^128 − 1 (a full square of side 2^64 or more
    /// saturates there).
    pub fn population(&self) -> u128 {
        population::<L>(self.store(), self.root().0, &mut HashMap::new())
    }

    /// [`Self::population`] with node populations kept in `memo` from call to call (a run
    /// that asks after every step counts only the nodes new since). `memo` is emptied when
    /// the store has collected garbage since it was filled (node ids are then reused).
    pub fn population_memo(&self, memo: &mut PopulationMemo) -> u128 {
        let collections = self.memory().collections;
        if memo.collections != collections {
            memo.nodes.clear();
            memo.collections = collections;
        }
        population::<L>(self.store(), self.root().0, &mut memo.nodes)
    }

    /// Cells in any state but 0 (live and, under Generations, dying).
    pub fn occupied(&self) -> u128 {
        count::<L>(
            self.store(),
            self.root().0,
            &mut HashMap::new(),
            L::occupied,
        )
    }

    /// Cells per state, index = state, for states 2 and up (entries 0 and 1 stay 0: state
    /// 1 is the population), up to the highest state present; empty for two-state leaves.
    pub fn state_counts(&self) -> Vec<u128> {
        let mut counts = state_counts::<L>(self.store(), self.root().0, &mut HashMap::new());
        if counts.len() <= 2 {
            return Vec::new();
        }
        counts[0] = 0;
        counts[1] = 0;
        counts
    }

    /// The smallest rectangle holding every cell not in state 0, or `None` when there is
    /// none.
    pub fn bounds(&self) -> Option<Rect> {
        let (root, level) = self.root();
        let store = self.store();
        let c = corner(level);
        let side = |axis: usize, far: bool| {
            edge::<L>(store, root, axis, far, &mut HashMap::new()).map(|e| c + e as i128)
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

    /// The state of the cell at `(x, y)`.
    pub fn state(&self, x: i128, y: i128) -> u8 {
        let (mut id, mut level) = self.root();
        let c = corner(level);
        if x < c || y < c || x >= -c || y >= -c {
            return 0;
        }
        let (mut x, mut y) = ((x - c) as u128, (y - c) as u128);
        let store = self.store();
        while level > L::LEVEL {
            let half = 1u128 << (level - 1);
            let q = usize::from(x >= half) + 2 * usize::from(y >= half);
            x %= half;
            y %= half;
            id = store.node(id).child[q];
            level -= 1;
        }
        L::get(&store.node(id).child, x as u32, y as u32)
    }

    /// Whether the cell at `(x, y)` is alive (state 1).
    pub fn get(&self, x: i128, y: i128) -> bool {
        self.state(x, y) == 1
    }

    /// Put the cell at `(x, y)` in `state` (refused past the rule's states).
    pub fn set_state(&mut self, x: i128, y: i128, state: u8) -> Result<(), HashError> {
        if u16::from(state) >= crate::rule::cell_rule::CellRule::states(&self.rule()) {
            return Err(HashError::Limit(format!(
                "state {state} is not one of the {} states of {}",
                self.rule().states(),
                self.rule().canonical()
            )));
        }
        self.reach(x, y)?;
        let (root, level) = self.root();
        let c = corner(level);
        let next = set_in::<L>(
            &mut self.engine.store,
            root,
            (x - c) as u128,
            (y - c) as u128,
            state,
        );
        self.set_root(next);
        Ok(())
    }

    /// Make the cell at `(x, y)` alive (state 1) or empty.
    pub fn set(&mut self, x: i128, y: i128, alive: bool) -> Result<(), HashError> {
        self.set_state(x, y, u8::from(alive))
    }

    /// Replace every cell by the live cells `cells` (universe coordinates; duplicates are
    /// fine), built bottom-up from leaves rather than cell by cell.
    pub fn load_cells(
        &mut self,
        cells: impl IntoIterator<Item = (i128, i128)>,
    ) -> Result<(), HashError> {
        self.load_states(cells.into_iter().map(|(x, y)| (x, y, 1)))
    }

    /// Replace every cell by `cells` `(x, y, state)` (state 0 entries are skipped).
    pub fn load_states(
        &mut self,
        cells: impl IntoIterator<Item = (i128, i128, u8)>,
    ) -> Result<(), HashError> {
        let side = 1i128 << L::LEVEL;
        let mut leaves: HashMap<(i128, i128), [u32; 4]> = HashMap::new();
        let (mut lo, mut hi) = (0i128, 0i128);
        for (x, y, state) in cells {
            if state == 0 {
                continue;
            }
            let key = (x.div_euclid(side), y.div_euclid(side));
            let leaf = leaves.entry(key).or_insert([0; 4]);
            *leaf = L::set(
                *leaf,
                x.rem_euclid(side) as u32,
                y.rem_euclid(side) as u32,
                state,
            );
            lo = lo.min(x.min(y));
            hi = hi.max(x.max(y));
        }
        let mut level = Self::MIN_ROOT_LEVEL;
        while corner(level) > lo || -corner(level) <= hi {
            level += 1;
            if level > MAX_LEVEL {
                return Err(HashError::Limit(
                    "the pattern is wider than the largest universe golab represents".into(),
                ));
            }
        }
        let c = corner(level) / side;
        let mut items: Vec<(u128, u128, [u32; 4])> = leaves
            .into_iter()
            .map(|((lx, ly), words)| ((lx - c) as u128, (ly - c) as u128, words))
            .collect();
        let store = &mut self.engine.store;
        let base = store.stack_len();
        let root = build::<L>(store, level, &mut items);
        store.truncate(base);
        self.set_root(root);
        Ok(())
    }

    /// Call `visit(x, y, words)` for every non-empty leaf that meets `rect`, with the
    /// leaf's top-left cell.
    pub fn for_each_leaf(&self, rect: Rect, visit: &mut dyn FnMut(i128, i128, &[u32; 4])) {
        let (root, level) = self.root();
        let c = corner(level);
        walk(self.store(), L::LEVEL, root, level, c, c, rect, visit);
    }

    /// Every cell not in state 0 inside `rect`, with its state; order not guaranteed.
    pub fn states_in(&self, rect: Rect) -> Vec<(i128, i128, u8)> {
        let mut out = Vec::new();
        self.for_each_leaf(rect, &mut |lx, ly, words| {
            L::for_each(words, &mut |x, y, state| {
                let (x, y) = (lx + i128::from(x), ly + i128::from(y));
                if x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1 {
                    out.push((x, y, state));
                }
            });
        });
        out
    }

    /// Every cell not in state 0 inside `rect`; order not guaranteed.
    pub fn cells_in(&self, rect: Rect) -> Vec<(i128, i128)> {
        self.states_in(rect)
            .into_iter()
            .map(|(x, y, _)| (x, y))
            .collect()
    }
}

#[allow(clippy::too_many_arguments)]
fn walk(
    store: &Store,
    leaf_level: u8,
    id: u32,
    level: u8,
    x: i128,
    y: i128,
    rect: Rect,
    visit: &mut dyn FnMut(i128, i128, &[u32; 4]),
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
    let node = store.node(id);
    if level == leaf_level {
        visit(x, y, &node.child);
        return;
    }
    let half = side / 2;
    for (q, &c) in node.child.iter().enumerate() {
        let (dx, dy) = ((q as i128 % 2) * half, (q as i128 / 2) * half);
        walk(store, leaf_level, c, level - 1, x + dx, y + dy, rect, visit);
    }
}

/// The node `id` with the cell at offset `(x, y)` in `state`.
fn set_in<L: Leaves>(store: &mut Store, id: u32, x: u128, y: u128, state: u8) -> u32 {
    let node = store.node(id);
    if node.level == L::LEVEL {
        return store.leaf_of(L::set(node.child, x as u32, y as u32, state));
    }
    let half = 1u128 << (node.level - 1);
    let q = usize::from(x >= half) + 2 * usize::from(y >= half);
    let mut child = node.child;
    child[q] = set_in::<L>(store, child[q], x % half, y % half, state);
    store.join(child)
}

/// A node of `level` from leaves at leaf coordinates relative to its corner.
fn build<L: Leaves>(store: &mut Store, level: u8, items: &mut [(u128, u128, [u32; 4])]) -> u32 {
    if items.is_empty() {
        return store.empty(level);
    }
    if level == L::LEVEL {
        return store.leaf_of(items[0].2);
    }
    let half = 1u128 << (level - 1 - L::LEVEL);
    let quadrant =
        |it: &(u128, u128, [u32; 4])| usize::from(it.0 >= half) + 2 * usize::from(it.1 >= half);
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
        *slot = build::<L>(store, level - 1, part);
        store.protect(*slot);
        start = end;
    }
    store.join(child)
}
