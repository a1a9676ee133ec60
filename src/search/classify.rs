//! Naming the objects of a separated soup: a cluster's live cells are run until they
//! repeat (within `gmax` generations), named by their apgcode and split into the objects
//! they are made of ([`super::separate3d`]); what never repeats gets its aperiodic name
//! ([`super::aperiodic`]). Small objects (within 8×8) are remembered by their cells.

use std::collections::{BTreeMap, HashMap};

use super::aperiodic::{PopSeq, classify_aperiodic};
use super::incubator::{Common, Incubator};
use super::object::{Table, apgcode_of, bbox, exact_period, find_return};
use super::separate3d::Separator;
use crate::rule::Rule;

/// Counts of objects by apgcode.
pub type Tally = BTreeMap<String, i64>;

/// A worker's classifier: the rule, the period limit and what it has learnt.
pub struct Classifier {
    /// The rule as golab parses it.
    pub rule: Rule,
    /// The rule's table.
    pub table: Table,
    /// Generations within which an object must repeat to be named.
    pub gmax: u64,
    separator: Separator,
    small: HashMap<u64, String>,
    popseq: Box<PopSeq>,
}

impl Classifier {
    /// A classifier for `rule` (a two-state Moore rule).
    pub fn new(rule: &Rule, popseq: Box<PopSeq>) -> Classifier {
        let table = Table::new(*rule.table());
        // Births from two diagonal cells alone widen apgsearch's reach of interaction.
        let wide = table.next(0b100_000_001) || table.next(0b001_000_100);
        Classifier {
            rule: *rule,
            separator: Separator::new(table.clone(), wide),
            table,
            gmax: 1_048_576,
            popseq,
            small: HashMap::new(),
        }
    }

    /// Whether births from two diagonal cells alone exist (then apgsearch's reach of
    /// interaction is the whole 5×5 square).
    pub fn wide(&self) -> bool {
        self.table.next(0b100_000_001) || self.table.next(0b001_000_100)
    }

    /// The objects a pattern is (its cells, any position), or `None` when it does not
    /// repeat within [`Self::gmax`]. `small` is its cells as an 8×8 bitmap when it fits.
    pub fn identify(&mut self, cells: &[(i64, i64)], small: Option<u64>) -> Option<Vec<String>> {
        if let Some(code) = small.and_then(|bits| self.small.get(&bits)) {
            let code = code.clone();
            return Some(self.separator.split(&code));
        }
        let (dt, _, _) = find_return(cells, self.gmax, &self.table)?;
        let (p, dx, dy) = exact_period(cells, dt, &self.table)?;
        let code = apgcode_of(cells, p, dx, dy, &self.table);
        let parts = if code.starts_with('x') {
            self.separator.split(&code)
        } else {
            vec![code.clone()]
        };
        if let (true, Some(bits)) = (code.starts_with('x'), small) {
            self.small.insert(bits, code);
        }
        Some(parts)
    }

    /// The objects of a cluster's live cells, aperiodic ones by their aperiodic name.
    pub fn name_cluster(&mut self, cells: &[(i64, i64)]) -> Vec<String> {
        let Some((x0, y0, w, h)) = bbox(cells) else {
            return Vec::new();
        };
        let small = (w <= 8 && h <= 8).then(|| {
            cells
                .iter()
                .fold(0u64, |acc, &(x, y)| acc | 1 << ((x - x0) + 8 * (y - y0)))
        });
        match self.identify(cells, small) {
            Some(parts) => parts,
            None => vec![classify_aperiodic(cells, &self.popseq, &self.rule)],
        }
    }

    /// Empty the incubator into `tally`: common objects and gliders counted on sight (when
    /// asked), every other cluster named. Gliders recognised are left in the grid for the
    /// caller to count.
    pub fn census(&mut self, tally: &mut Tally, inc: &mut Incubator, common: bool, gliders: bool) {
        let mut excess = [0i64; 8];
        let rows = inc.rows;
        for b in 0..inc.blocks.len() {
            let key = inc.keys[b];
            for y in 0..rows {
                let mut r = inc.blocks[b].d[y];
                while r != 0 {
                    let x = r.trailing_zeros() as usize;
                    let block = &mut inc.blocks[b];
                    let seen = if common {
                        block.take_common(rows, x, y)
                    } else {
                        None
                    };
                    match seen {
                        Some(Common::Blinker) => excess[3] += 1,
                        Some(Common::Block) => excess[4] += 1,
                        Some(Common::Beehive) => excess[6] += 1,
                        None if gliders && block.is_glider(rows, x, y) => {}
                        None => {
                            let cluster = inc.take_cluster(key, x, y);
                            let live: Vec<(i64, i64)> = cluster
                                .iter()
                                .filter(|c| c.alive)
                                .map(|c| (c.x, c.y))
                                .collect();
                            if common && live.len() == 3 {
                                excess[3] += 1;
                            } else if common && live.len() == 5 {
                                // Five cells that never moved: a boat; else a glider.
                                excess[if cluster.len() == 5 { 7 } else { 5 }] += 1;
                            } else {
                                let mut sorted = live;
                                sorted.sort_unstable_by_key(|&(x, y)| (y, x));
                                for name in self.name_cluster(&sorted) {
                                    *tally.entry(name).or_insert(0) += 1;
                                }
                            }
                        }
                    }
                    r ^= 1 << x;
                    r &= inc.blocks[b].d[y];
                }
            }
        }
        for (i, code) in [
            (3, "xp2_7"),
            (4, "xs4_33"),
            (5, "xq4_153"),
            (6, "xs6_696"),
            (7, "xs5_253"),
        ] {
            if excess[i] > 0 {
                *tally.entry(code.to_string()).or_insert(0) += excess[i];
            }
        }
    }
}
