//! Soups of rules apgsearch runs without its incubator (isotropic non-totalistic rules
//! such as B3/S2-i34q): it steps them 8 generations at a time on 16×16 tiles with no glider
//! removal, so only the plane's contents matter, and separates the settled soup by growing
//! clusters of live and history cells (within the rule's reach of interaction).
//!
//! Here the plane is [`super::tiles::Universe`] (its tile layout is invisible without
//! glider removal): "nothing changed in the last step" compares the plane with itself one
//! step (of apgsearch's size) back, and the periodic-hash test computes apgsearch's hash of
//! its 16×16 tiles from the cells.

use std::collections::{BTreeMap, HashSet};

use super::classify::{Classifier, Tally};
use super::hashsoup::{Symmetry, hashsoup};
use super::soup::{Sampling, SoupCensus};
use super::stabilise::{Settling, stabilise};
use super::tile::RowRule;
use super::tiles::Universe;

/// The plane as apgsearch's 16×16-tile plane behaves for these rules.
struct Plane<L: RowRule> {
    u: Universe<32, L>,
}

impl<L: RowRule> Plane<L> {
    fn cells(&self) -> Vec<(i64, i64)> {
        let mut c = self.u.cells();
        c.sort_unstable();
        c
    }

    /// Run `gens` generations as apgsearch does, in steps of at most 8; whether nothing
    /// changed in the last step.
    fn advance(&mut self, history: bool, gens: u64) -> bool {
        let last = match gens % 8 {
            0 => 8.min(gens),
            r => r,
        };
        self.u.advance(history, gens - last);
        let before = self.cells();
        self.u.advance(history, last);
        self.cells() == before
    }

    /// apgsearch's hash of its 16×16 tiles within `radius` tiles of the origin: per tile
    /// (a ^ 1093·b) + (641·d ^ 3511·c) of its four 8×8 quarters (a top-left, b top-right,
    /// c bottom-left, d bottom-right; bit x + 8y), times the tile's packed coordinates.
    fn hash(&self, radius: i64) -> u64 {
        let mut quarters: BTreeMap<(i64, i64), [u64; 4]> = BTreeMap::new();
        for (x, y) in self.u.cells() {
            let dy = y.rem_euclid(16);
            let tw = -(y - dy) / 16;
            let ax = x + 8 * tw;
            let dx = ax.rem_euclid(16);
            let tx = (ax - dx) / 16;
            let q = (dx / 8 + (dy / 8) * 2) as usize;
            quarters.entry((tx, tw)).or_default()[q] |= 1 << ((dx & 7) + 8 * (dy & 7));
        }
        let mut global = 0u64;
        for (&(tx, tw), q) in &quarters {
            if tx * tx + tw * tw - tx * tw >= radius * radius {
                continue;
            }
            let [a, b, c, d] = *q;
            let h = (a ^ 1093u64.wrapping_mul(b))
                .wrapping_add(641u64.wrapping_mul(d) ^ 3511u64.wrapping_mul(c));
            let coords = (tx + 0x8000_0000) as u64 + (((tw + 0x8000_0000) as u64) << 32);
            global = global.wrapping_add(h.wrapping_mul(coords ^ 3_141_592_653_589_793));
        }
        global
    }
}

impl<L: RowRule> Settling for Plane<L> {
    fn step(&mut self, gens: u64) -> bool {
        self.advance(false, gens)
    }

    fn population(&mut self) -> i64 {
        self.u.total_population()
    }

    fn hash(&mut self, radius: i64) -> u64 {
        Plane::hash(self, radius)
    }
}

/// The census of soup `name`.
pub fn census_soup<L: RowRule + Clone>(
    rule: &L,
    classifier: &mut Classifier,
    name: &str,
    symmetry: Symmetry,
    wide: bool,
) -> SoupCensus {
    let mut p = Plane {
        u: Universe::<32, L>::new(rule.clone()),
    };
    p.u.insert(&hashsoup(name, symmetry));
    let mut duration = stabilise(&mut p);
    let (mut attempt, mut step) = (0u32, 120u64);
    let mut out = SoupCensus::default();
    while p.u.nonempty() {
        let mut tally = Tally::new();
        classifier.gmax = 1024 << (2 * attempt);
        p.u.decache();
        p.advance(true, duration);
        clusters(&mut tally, classifier, &p.u, wide);
        classifier.gmax = 1_048_576;
        let ignore = tally.keys().any(|c| c.starts_with('y'));
        let pathological = tally.contains_key("PATHOLOGICAL");
        if !pathological || attempt >= 5 {
            for (code, n) in tally {
                if !(ignore && code == "PATHOLOGICAL") {
                    out.entries.push((code, n, Sampling::Census));
                }
            }
            break;
        }
        attempt += 1;
        p.u.clear_history();
        p.u.decache();
        p.advance(false, step);
        step *= 4;
        duration = (step * 2).min(7680);
    }
    out
}

/// Name every cluster: live cells joined through live and history cells within the reach
/// of interaction (5×5 without its corners, the whole 5×5 for `wide` rules).
fn clusters<L: RowRule>(
    tally: &mut Tally,
    classifier: &mut Classifier,
    u: &Universe<32, L>,
    wide: bool,
) {
    let live: HashSet<(i64, i64)> = u.cells().into_iter().collect();
    let mut env: HashSet<(i64, i64)> = u.history().into_iter().collect();
    env.extend(live.iter().copied());
    let mut order: Vec<(i64, i64)> = live.iter().copied().collect();
    order.sort_unstable_by_key(|&(x, y)| (y, x));
    let reach = |dx: i64, dy: i64| wide || dx * dx + dy * dy <= 5;
    for seed in order {
        if !env.contains(&seed) {
            continue;
        }
        env.remove(&seed);
        let mut stack = vec![seed];
        let mut members = vec![seed];
        while let Some((x, y)) = stack.pop() {
            for dy in -2..=2i64 {
                for dx in -2..=2i64 {
                    let c = (x + dx, y + dy);
                    if reach(dx, dy) && env.remove(&c) {
                        stack.push(c);
                        members.push(c);
                    }
                }
            }
        }
        let mut cells: Vec<(i64, i64)> = members.into_iter().filter(|c| live.contains(c)).collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        for name in classifier.name_cluster(&cells) {
            *tally.entry(name).or_insert(0) += 1;
        }
    }
}
