//! Splitting a periodic pattern into the objects it is made of, as apgsearch does: a
//! pseudo-object (two blocks side by side, a beehive beside a pond) is counted as its
//! parts. The pattern's cells over one period form a graph (neighbours in a phase,
//! neighbours in consecutive phases, the last phase joined to the first); its islands are
//! joined where one's births need another, and the pattern is split into the fewest groups
//! of islands that each run on their own. Objects that cannot be split are one object.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::object::{Cells, Table, apgcode, bbox, period, step};
use crate::pattern::apgcode::wechsler_cells;

/// Disjoint sets with a count of sets.
struct Sets {
    parent: Vec<usize>,
    rank: Vec<u8>,
    count: usize,
}

impl Sets {
    fn new(n: usize) -> Sets {
        Sets {
            parent: (0..n).collect(),
            rank: vec![0; n],
            count: n,
        }
    }

    fn find(&mut self, p: usize) -> usize {
        let mut root = p;
        while self.parent[root] != root {
            root = self.parent[root];
        }
        let mut p = p;
        while p != root {
            let next = self.parent[p];
            self.parent[p] = root;
            p = next;
        }
        root
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (i, j) = (self.find(a), self.find(b));
        if i == j {
            return;
        }
        if self.rank[i] < self.rank[j] {
            self.parent[i] = j;
        } else {
            self.parent[j] = i;
            if self.rank[i] == self.rank[j] {
                self.rank[i] += 1;
            }
        }
        self.count -= 1;
    }
}

/// A cell of one phase: (generation within the period, x, y).
type Cell3 = (u64, i64, i64);

/// Splits apgcodes into their objects, remembering every answer.
pub struct Separator {
    rule: Table,
    /// Neighbourhood reach of the rule's interactions (1 for Moore rules).
    range: i64,
    /// Whether births can come from two diagonal cells alone ("99" in apgsearch's terms).
    wide: bool,
    cache: HashMap<String, Vec<String>>,
}

/// Each island's cells, phase by phase (periods + 1 phases).
type Islands = Vec<Vec<Cells>>;

impl Separator {
    /// A separator for `rule`; `wide` when births from diagonal pairs exist.
    pub fn new(rule: Table, wide: bool) -> Separator {
        Separator {
            rule,
            range: 1,
            wide,
            cache: HashMap::new(),
        }
    }

    /// The objects `parent` (an apgcode) is made of; `[parent]` when it is one.
    pub fn split(&mut self, parent: &str) -> Vec<String> {
        if let Some(known) = self.cache.get(parent) {
            return known.clone();
        }
        let parts = self.split_uncached(parent);
        self.cache.insert(parent.to_string(), parts.clone());
        parts
    }

    fn split_uncached(&mut self, parent: &str) -> Vec<String> {
        let single = vec![parent.to_string()];
        if !parent.starts_with('x') {
            return single;
        }
        let Some(body) = parent.split_once('_').map(|(_, b)| b) else {
            return single;
        };
        let Ok(cells) = wechsler_cells(body) else {
            return single;
        };
        let mut cells: Cells = cells
            .into_iter()
            .map(|(x, y)| (i64::from(x), i64::from(y)))
            .collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        let Some((p, dx, dy)) = period(&cells, 16_777_216, &self.rule) else {
            return single;
        };
        if cells.is_empty() || p > 30_000 {
            return single;
        }
        match bbox(&cells) {
            Some((_, _, w, h)) if w <= 100_000 && h <= 100_000 => {}
            _ => return single,
        }
        let mut phases = vec![cells.clone()];
        for _ in 0..p {
            let next = step(phases.last().unwrap(), &self.rule);
            phases.push(next);
        }
        let mut ids: BTreeMap<Cell3, usize> = BTreeMap::new();
        for (t, phase) in phases.iter().enumerate() {
            for &(x, y) in phase {
                let n = ids.len();
                ids.insert((t as u64, x, y), n);
            }
        }
        let mut fine = Sets::new(ids.len());
        let mut coarse = Sets::new(ids.len());
        let r = self.range;
        let mut joins: Vec<(u64, i64, i64)> = vec![(p, dx, dy)];
        for i in -r..=r {
            for j in -r..=r {
                if i > 0 || (i == 0 && j > 0) {
                    joins.push((0, j, i));
                }
                joins.push((1, j, i));
            }
        }
        // Dead cells with three or more live neighbours: those neighbours hold one another
        // back and belong together.
        let mut suppressed: BTreeMap<Cell3, Vec<usize>> = BTreeMap::new();
        for (&(t, x, y), &id) in &ids {
            for &(dt, jx, jy) in &joins {
                if let Some(&other) = ids.get(&(t + dt, x + jx, y + jy)) {
                    fine.merge(id, other);
                    coarse.merge(id, other);
                }
            }
            for jy in -r..=r {
                for jx in -r..=r {
                    if (jx, jy) != (0, 0) && !ids.contains_key(&(t, x + jx, y + jy)) {
                        suppressed.entry((t, x + jx, y + jy)).or_default().push(id);
                    }
                }
            }
        }
        for holders in suppressed.values() {
            if holders.len() >= 3 {
                for w in holders.windows(2) {
                    coarse.merge(w[0], w[1]);
                }
            }
        }
        if coarse.count > 1 {
            let islands = islands(&mut coarse, &ids, p);
            return self.split_each(islands.iter().map(|isl| &isl[0]));
        }
        let mut islands_now;
        loop {
            islands_now = islands(&mut fine, &ids, p);
            if !self.join_dependent(&mut fine, &ids, &islands_now, p) {
                break;
            }
        }
        let n = islands_now.len();
        if n == 1 {
            return single;
        }
        let runs_alone = |isl: &Vec<Cells>, rule: &Table| {
            (0..p as usize).all(|t| step(&isl[t], rule) == isl[t + 1])
        };
        if islands_now.iter().all(|isl| runs_alone(isl, &self.rule)) {
            return self.split_each(islands_now.iter().map(|isl| &isl[0]));
        }
        self.split_into_groups(&islands_now, p, dx, dy)
            .unwrap_or(single)
    }

    /// The objects of each part, concatenated.
    fn split_each<'a>(&mut self, parts: impl Iterator<Item = &'a Cells>) -> Vec<String> {
        let mut out = Vec::new();
        for cells in parts {
            let code =
                apgcode(cells, 16_777_216, &self.rule).unwrap_or_else(|| "PATHOLOGICAL".into());
            out.extend(self.split(&code));
        }
        out
    }

    /// Join two islands where a birth of one island's step (beyond its own next phase)
    /// has neighbours in exactly one other island; whether any join was made.
    fn join_dependent(
        &self,
        sets: &mut Sets,
        ids: &BTreeMap<Cell3, usize>,
        islands_now: &Islands,
        p: u64,
    ) -> bool {
        let owner: HashMap<Cell3, usize> = islands_now
            .iter()
            .enumerate()
            .flat_map(|(i, isl)| {
                isl.iter().enumerate().flat_map(move |(t, cells)| {
                    cells.iter().map(move |&(x, y)| ((t as u64, x, y), i))
                })
            })
            .collect();
        let r = self.range;
        for t in 0..p as usize {
            for (i, isl) in islands_now.iter().enumerate() {
                let next = step(&isl[t], &self.rule);
                if next == isl[t + 1] {
                    continue;
                }
                let own: BTreeSet<&(i64, i64)> = isl[t + 1].iter().collect();
                for &(x, y) in next.iter().filter(|c| !own.contains(c)) {
                    let mut friends = BTreeSet::new();
                    for jy in -r..=r {
                        for jx in -r..=r {
                            if (jx, jy) == (0, 0) {
                                continue;
                            }
                            if let Some(&j) = owner.get(&(t as u64, x + jx, y + jy))
                                && j != i
                            {
                                friends.insert(j);
                            }
                        }
                    }
                    if friends.len() == 1 {
                        let j = *friends.iter().next().unwrap();
                        let a = first_id(ids, &islands_now[i]);
                        let b = first_id(ids, &islands_now[j]);
                        sets.merge(a, b);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The first split of the islands into n = 2, 3 … groups (in the order apgsearch tries
    /// them: island 0 in group 0, each next island in a used group or the next new one)
    /// whose groups each run on their own.
    fn split_into_groups(
        &mut self,
        isl: &Islands,
        p: u64,
        dx: i64,
        dy: i64,
    ) -> Option<Vec<String>> {
        let n_isl = isl.len();
        let mut invalid: BTreeSet<u64> = BTreeSet::new();
        let low_period_osc = p <= 3 && dx == 0 && dy == 0;
        for n in 2..=n_isl {
            if low_period_osc && ((n > 4 && !self.wide) || (n > 7 && self.wide)) {
                break;
            }
            let mut cost = 1u64;
            for _ in 0..n_isl {
                cost *= n as u64;
                if cost > 1_048_576 {
                    break;
                }
            }
            if cost > 1_048_576 || n_isl > 16 {
                // Too many ways to try: apgsearch gives up here too.
                break;
            }
            let mut colour = vec![0usize; n_isl];
            let mut most = vec![0usize; n_isl];
            let mut focus = 1;
            while focus > 0 {
                let limit = (most[focus - 1] + 1).min(n - 1);
                if colour[focus] > limit {
                    focus -= 1;
                    colour[focus] += 1;
                    continue;
                }
                most[focus] = most[focus - 1].max(colour[focus]);
                if focus < n_isl - 1 {
                    focus += 1;
                    colour[focus] = 0;
                    continue;
                }
                if most[focus] == n - 1 {
                    let mut masks = vec![0u64; n];
                    for (i, &c) in colour.iter().enumerate() {
                        masks[c] |= 1 << i;
                    }
                    if masks.iter().all(|m| !invalid.contains(m)) {
                        let mut unions: Vec<Vec<Cells>> = vec![vec![Vec::new(); p as usize + 1]; n];
                        for (i, &c) in colour.iter().enumerate() {
                            for t in 0..=p as usize {
                                unions[c][t].extend_from_slice(&isl[i][t]);
                            }
                        }
                        for u in &mut unions {
                            for phase in u.iter_mut() {
                                phase.sort_unstable_by_key(|&(x, y)| (y, x));
                            }
                        }
                        let mut faithful = true;
                        for (c, u) in unions.iter().enumerate() {
                            for t in 0..p as usize {
                                if step(&u[t], &self.rule) != u[t + 1] {
                                    faithful = false;
                                    invalid.insert(masks[c]);
                                }
                            }
                        }
                        if faithful {
                            return Some(self.split_each(unions.iter().map(|u| &u[0])));
                        }
                    }
                }
                colour[focus] += 1;
            }
        }
        None
    }
}

/// The id of an island's first cell.
fn first_id(ids: &BTreeMap<Cell3, usize>, isl: &[Cells]) -> usize {
    for (t, phase) in isl.iter().enumerate() {
        if let Some(&(x, y)) = phase.first() {
            return ids[&(t as u64, x, y)];
        }
    }
    0
}

/// The sets' islands, each as its cells phase by phase, ordered by their first cell.
fn islands(sets: &mut Sets, ids: &BTreeMap<Cell3, usize>, p: u64) -> Islands {
    let mut index: HashMap<usize, usize> = HashMap::new();
    let mut out: Islands = Vec::new();
    for (&(t, x, y), &id) in ids {
        let root = sets.find(id);
        let k = *index.entry(root).or_insert_with(|| {
            out.push(vec![Vec::new(); p as usize + 1]);
            out.len() - 1
        });
        out[k][t as usize].push((x, y));
    }
    for isl in &mut out {
        for phase in isl.iter_mut() {
            phase.sort_unstable_by_key(|&(x, y)| (y, x));
        }
    }
    out
}
