//! lifelib's pattern algebra on cell lists: boolean operations on states, shifts, the
//! twelve transformation names, convolution, matching with a live and a dead part, connected
//! components, and the order lifelib's quadtree visits cells in (which decides which cell
//! `onecell()` returns and so the order `components()` lists them in). Lists are of
//! [`Cell`]s; results are sorted row by row, as the universe returns cells.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::tree::Cell;

/// The cells as a map from position to state.
pub fn map_of(cells: &[Cell]) -> HashMap<(i128, i128), u8> {
    cells.iter().map(|&(x, y, s)| ((x, y), s)).collect()
}

/// The positions of `cells`.
pub fn set_of(cells: &[Cell]) -> HashSet<(i128, i128)> {
    cells.iter().map(|&(x, y, _)| (x, y)).collect()
}

/// `cells` sorted row by row (y, then x).
pub fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort_unstable_by_key(|&(x, y, _)| (y, x));
    cells
}

/// A boolean operation on two patterns, state by state as lifelib's layers combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boolean {
    /// `&`: bits in both.
    And,
    /// `|` and `+`: bits in either.
    Or,
    /// `^`: bits in one.
    Xor,
    /// `-`: bits of the first not in the second.
    Minus,
}

/// `a op b`, each state combined bit by bit (for two-state patterns: set operations).
pub fn boolean(a: &[Cell], b: &[Cell], op: Boolean) -> Vec<Cell> {
    let bm = map_of(b);
    let am = map_of(a);
    let mut out: Vec<Cell> = Vec::new();
    for &(x, y, s) in a {
        let t = bm.get(&(x, y)).copied().unwrap_or(0);
        let r = match op {
            Boolean::And => s & t,
            Boolean::Or => s | t,
            Boolean::Xor => s ^ t,
            Boolean::Minus => s & !t,
        };
        if r != 0 {
            out.push((x, y, r));
        }
    }
    if matches!(op, Boolean::Or | Boolean::Xor) {
        out.extend(b.iter().filter(|c| !am.contains_key(&(c.0, c.1))));
    }
    sorted(out)
}

/// `cells` moved by `(dx, dy)`.
pub fn shifted(cells: &[Cell], dx: i128, dy: i128) -> Vec<Cell> {
    cells.iter().map(|&(x, y, s)| (x + dx, y + dy, s)).collect()
}

/// lifelib's transformation names.
pub const TRANSFORMS: [&str; 12] = [
    "flip",
    "rot180",
    "identity",
    "transpose",
    "flip_x",
    "flip_y",
    "rot90",
    "rot270",
    "swap_xy",
    "swap_xy_flip",
    "rcw",
    "rccw",
];

/// Where a transformation sends cell `(x, y)`.
pub type CellMap = fn(i128, i128) -> (i128, i128);

/// Where lifelib's transformation `name` sends cell `(x, y)` (about the origin, which stays
/// put), or `None` for an unknown name.
pub fn transform_of(name: &str) -> Option<CellMap> {
    Some(match name {
        "identity" => |x, y| (x, y),
        "flip" | "rot180" => |x, y| (-x, -y),
        "flip_x" => |x, y| (-x, y),
        "flip_y" => |x, y| (x, -y),
        "swap_xy" | "transpose" => |x, y| (y, x),
        "swap_xy_flip" => |x, y| (-y, -x),
        "rcw" | "rot270" => |x, y| (-y, x),
        "rccw" | "rot90" => |x, y| (y, -x),
        _ => return None,
    })
}

/// `cells` under `f`, sorted.
pub fn transformed(cells: &[Cell], f: CellMap) -> Vec<Cell> {
    sorted(
        cells
            .iter()
            .map(|&(x, y, s)| {
                let (x, y) = f(x, y);
                (x, y, s)
            })
            .collect(),
    )
}

/// The convolution (Minkowski sum) of two patterns' cells: every `a + b` live; with
/// `exclusive`, only sums reached an odd number of times (lifelib's xor-convolution).
pub fn convolve(a: &[Cell], b: &[Cell], exclusive: bool) -> Vec<Cell> {
    let mut counts: HashMap<(i128, i128), u32> = HashMap::new();
    for &(ax, ay, _) in a {
        for &(bx, by, _) in b {
            *counts.entry((ax + bx, ay + by)).or_insert(0) += 1;
        }
    }
    sorted(
        counts
            .into_iter()
            .filter(|&(_, n)| !exclusive || n % 2 == 1)
            .map(|((x, y), _)| (x, y, 1))
            .collect(),
    )
}

/// Every offset at which all of `live` lies on live cells of `cells` and none of `dead` on
/// live cells: lifelib's `match`, one live cell per offset.
pub fn matches(cells: &[Cell], live: &[Cell], dead: &[Cell]) -> Vec<Cell> {
    let Some(&(lx, ly, _)) = live.first() else {
        return Vec::new();
    };
    let here = set_of(cells);
    let mut out: Vec<Cell> = cells
        .iter()
        .map(|&(x, y, _)| (x - lx, y - ly))
        .filter(|&(ox, oy)| {
            live.iter().all(|c| here.contains(&(c.0 + ox, c.1 + oy)))
                && !dead.iter().any(|c| here.contains(&(c.0 + ox, c.1 + oy)))
        })
        .map(|(x, y)| (x, y, 1))
        .collect();
    out.dedup();
    sorted(out)
}

/// The order lifelib's quadtree visits cells in: its quadrants (north-west, north-east,
/// south-west, south-east) down to 8×8 blocks, row by row inside a block. The tree's root
/// is centred on the origin, so this is the Morton order of coordinates offset by 2^63.
pub fn tree_order(x: i128, y: i128) -> (u128, u8, u8) {
    let ux = (x as i64 as u64) ^ (1 << 63);
    let uy = (y as i64 as u64) ^ (1 << 63);
    let (bx, by) = (ux >> 3, uy >> 3);
    let mut key = 0u128;
    for bit in 0..61 {
        key |= u128::from(bx >> bit & 1) << (2 * bit);
        key |= u128::from(by >> bit & 1) << (2 * bit + 1);
    }
    (key, (uy & 7) as u8, (ux & 7) as u8)
}

/// The cell lifelib's `onecell()` picks: the first in [`tree_order`].
pub fn one_cell(cells: &[Cell]) -> Option<Cell> {
    cells.iter().copied().min_by_key(|c| tree_order(c.0, c.1))
}

/// The cells of `backdrop` reached from `seed` by repeatedly adding `halo`'s offsets
/// (lifelib's `component_containing`: the halo may be asymmetric, so this is reach, not
/// adjacency). `seed` cells outside the backdrop are dropped.
pub fn component(backdrop: &[Cell], seed: &[Cell], halo: &[Cell]) -> Vec<Cell> {
    let states = map_of(backdrop);
    let mut reached: HashSet<(i128, i128)> = HashSet::new();
    let mut queue: VecDeque<(i128, i128)> = VecDeque::new();
    for &(x, y, _) in seed {
        if states.contains_key(&(x, y)) && reached.insert((x, y)) {
            queue.push_back((x, y));
        }
    }
    while let Some((x, y)) = queue.pop_front() {
        for &(hx, hy, _) in halo {
            let next = (x + hx, y + hy);
            if states.contains_key(&next) && reached.insert(next) {
                queue.push_back(next);
            }
        }
    }
    sorted(
        reached
            .into_iter()
            .map(|(x, y)| (x, y, states[&(x, y)]))
            .collect(),
    )
}

/// lifelib's `components()`: take the first cell in tree order, its component, and repeat
/// on what remains.
pub fn components(cells: &[Cell], halo: &[Cell]) -> Vec<Vec<Cell>> {
    let mut rest = cells.to_vec();
    let mut out = Vec::new();
    while let Some(seed) = one_cell(&rest) {
        let found = component(&rest, &[seed], halo);
        rest = boolean(&rest, &found, Boolean::Minus);
        out.push(found);
    }
    out
}

/// The shift lifelib's `centre()` applies: the bounding box's `(x + w/2, y + h/2)` to the
/// origin (the halves rounded down).
pub fn centring(cells: &[Cell]) -> (i128, i128) {
    let Some(x0) = cells.iter().map(|c| c.0).min() else {
        return (0, 0);
    };
    let x1 = cells.iter().map(|c| c.0).max().unwrap_or(x0);
    let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let y1 = cells.iter().map(|c| c.1).max().unwrap_or(y0);
    (
        -(x0 + (x1 - x0 + 1).div_euclid(2)),
        -(y0 + (y1 - y0 + 1).div_euclid(2)),
    )
}
