//! Compiling an `@TABLE` to the [`Tree`] every strategy evaluates.
//!
//! Symmetries are expanded first (each transition becomes one row per permutation of its
//! inputs, rows in tree order), then the tree is built top-down: a node at tree position
//! `p` depends only on the rows still able to match given the states chosen above it, so
//! nodes are memoised by that list of rows. A list is cut after its first row that accepts
//! every state at the positions below (nothing after it can ever win: first match wins),
//! which keeps the lists short. At the last position (the cell itself) the first row
//! accepting the cell's state gives the output; no row means the cell keeps its state.

use std::collections::{HashMap, HashSet};

use super::TableError;
use super::transitions::{MAX_TRANSITIONS, StateSet, TableSpec, holds};
use super::tree::{Tree, TreeBuilder};

/// A transition expanded for one permutation, its sets in tree order.
struct Row {
    sets: Vec<StateSet>,
    output: u8,
    /// The first tree position from which every set is full.
    full_from: usize,
}

/// Compile `spec` to a tree (refused with the size when it passes golab's limits).
///
/// Golly's order (neighbours first, the cell last, the `@TREE` order) is the one kept
/// whenever it compiles to at most [`PREFER_GOLLY_ORDER`] entries: its top levels are shared
/// by most cells of a world, which the GPU's caches like (on the H100, Paterson's worms run
/// 7 % faster in it than in the smaller cell-first tree). Beyond that, or where it does not
/// compile, the cell goes first, which keeps tables keyed by the cell's state small. Each
/// build has a work budget, so a table that fits neither fails in seconds, not minutes.
pub fn compile(spec: &TableSpec) -> Result<Tree, TableError> {
    match compile_in(spec, false) {
        Ok(tree) if tree.nodes().len() <= PREFER_GOLLY_ORDER => Ok(tree),
        Ok(tree) => Ok(match compile_in(spec, true) {
            Ok(other) if other.nodes().len() < tree.nodes().len() => other,
            _ => tree,
        }),
        Err(golly) => compile_in(spec, true).map_err(|_| golly),
    }
}

/// Trees up to this many entries (4 MiB) keep Golly's order (see [`compile`]).
pub const PREFER_GOLLY_ORDER: usize = 1 << 20;

/// Row checks one build may make before it gives up (a few seconds of work).
const WORK_BUDGET: u64 = 1 << 28;

/// Compile `spec` in one order: the cell's state tested last (Golly's order) or first.
/// [`compile`] picks between them.
pub fn compile_in(spec: &TableSpec, cell_first: bool) -> Result<Tree, TableError> {
    let golly = spec.neighbourhood.tree_inputs();
    let order: Vec<Option<usize>> = if cell_first {
        // The cell (the last of Golly's order) first, then the neighbours in Golly's order.
        std::iter::once(golly[golly.len() - 1])
            .chain(golly[..golly.len() - 1].iter().copied())
            .collect()
    } else {
        golly.to_vec()
    };
    let rows = expand(spec, &order)?;
    let mut build = Build {
        states: spec.states,
        depth: order.len(),
        rows: &rows,
        memo: HashMap::new(),
        builder: TreeBuilder::new(spec.states),
        cell_first,
        work: 0,
    };
    let all: Vec<u32> = build.cut((0..rows.len() as u32).collect(), 0);
    let root = build.node(0, all, 0)?;
    Ok(build
        .builder
        .finish(spec.neighbourhood.tree_neighbours(), root, cell_first))
}

/// Every state below `states`.
fn full_set(states: u16) -> StateSet {
    let mut set = [0u64; 4];
    for s in 0..states {
        set[usize::from(s / 64)] |= 1 << (s % 64);
    }
    set
}

/// The rows of `spec`: each transition under every permutation its symmetry allows, its
/// sets in the tree's `order` (the transition input each tree position reads).
fn expand(spec: &TableSpec, order: &[Option<usize>]) -> Result<Vec<Row>, TableError> {
    let full = full_set(spec.states);
    let group = super::symmetry::permutations(spec.neighbourhood, spec.symmetry);
    let mut rows = Vec::new();
    let mut seen: HashSet<Vec<StateSet>> = HashSet::new();
    for t in &spec.transitions {
        seen.clear();
        let mut push = |inputs: &[StateSet]| {
            if seen.insert(inputs.to_vec()) {
                let sets: Vec<StateSet> = order
                    .iter()
                    .map(|i| i.map_or(full, |i| and(inputs[i], full)))
                    .collect();
                let full_from = (0..=sets.len())
                    .rev()
                    .take_while(|&q| q == sets.len() || sets[q] == full)
                    .last()
                    .unwrap_or(sets.len());
                rows.push(Row {
                    sets,
                    output: t.output,
                    full_from,
                });
            }
        };
        match &group {
            Some(group) => {
                for p in group {
                    let permuted: Vec<StateSet> = p.iter().map(|&i| t.inputs[i]).collect();
                    push(&permuted);
                }
            }
            None => {
                let mut inputs = t.inputs.clone();
                inputs[1..].sort_unstable();
                loop {
                    push(&inputs);
                    if !next_permutation(&mut inputs[1..]) {
                        break;
                    }
                }
            }
        }
        if rows.len() > MAX_TRANSITIONS {
            return Err(TableError::at(
                0,
                0,
                format!(
                    "the table's symmetries expand it past {MAX_TRANSITIONS} transitions, golab's limit"
                ),
            ));
        }
    }
    Ok(rows)
}

fn and(a: StateSet, b: StateSet) -> StateSet {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
}

/// The next lexicographic permutation of `items` in place; false after the last one.
fn next_permutation<T: Ord>(items: &mut [T]) -> bool {
    let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let j = (i..items.len())
        .rev()
        .find(|&j| items[j] > items[i - 1])
        .expect("exists");
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

struct Build<'a> {
    states: u16,
    depth: usize,
    rows: &'a [Row],
    memo: HashMap<(usize, u8, Vec<u32>), u32>,
    builder: TreeBuilder,
    /// The cell's state is tested first: a cell no row matches keeps the state chosen at
    /// the root, so nodes are told it.
    cell_first: bool,
    /// Row checks made so far (against [`WORK_BUDGET`]).
    work: u64,
}

impl Build<'_> {
    /// `rows` cut after the first row that matches every state from position `from` on.
    fn cut(&self, mut rows: Vec<u32>, from: usize) -> Vec<u32> {
        if let Some(k) = rows
            .iter()
            .position(|&r| self.rows[r as usize].full_from <= from)
        {
            rows.truncate(k + 1);
        }
        rows
    }

    /// The node at tree position `p` for the rows still able to match; `cell` is the cell's
    /// state when it was tested first (0 otherwise).
    fn node(&mut self, p: usize, rows: Vec<u32>, cell: u8) -> Result<u32, TableError> {
        let key = (p, cell, rows);
        if let Some(&at) = self.memo.get(&key) {
            return Ok(at);
        }
        let rows = &key.2;
        self.work += u64::from(self.states) * rows.len().max(1) as u64;
        if self.work > WORK_BUDGET {
            return Err(TableError::at(
                0,
                0,
                "the table is too large to compile into golab's tree (its work limit was reached)",
            ));
        }
        let mut entries = Vec::with_capacity(usize::from(self.states));
        for v in 0..self.states {
            let v = v as u8;
            if p + 1 == self.depth {
                let hit = rows
                    .iter()
                    .find(|&&r| holds(&self.rows[r as usize].sets[p], v));
                let unchanged = if self.cell_first { cell } else { v };
                entries.push(u32::from(
                    hit.map_or(unchanged, |&r| self.rows[r as usize].output),
                ));
            } else {
                let child: Vec<u32> = rows
                    .iter()
                    .copied()
                    .filter(|&r| holds(&self.rows[r as usize].sets[p], v))
                    .collect();
                let child = self.cut(child, p + 1);
                let cell = if self.cell_first && p == 0 { v } else { cell };
                entries.push(self.node(p + 1, child, cell)?);
            }
        }
        let at = self.builder.node((self.depth - p) as u8, &entries)?;
        self.memo.insert(key, at);
        Ok(at)
    }
}
