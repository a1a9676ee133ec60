//! What the hashed universe needs of its leaves — the only part of it that depends on how
//! many states a cell has. A leaf is a square of `2^LEVEL` cells packed in a node's four
//! child words; all-zero words are the empty leaf. Two kinds:
//!
//! - [`LeafRule`](super::leaf::LeafRule): two states, 8×8 cells as 64 bits, stepped up to
//!   4 generations at once bit-parallel (the fast engine of every two-state family);
//! - [`MultiLeaves`](super::multi::MultiLeaves): up to 256 states, 2×2 cells of one state
//!   each, stepped one generation at a time through the n-state [`CellRule`] interface
//!   (Generations today; rule tables through the same interface), as Golly's ghashbase
//!   does.
//!
//! Everything else — the store, the recursion, expansion, stepping by `2^j`, garbage
//! collection, cells, bounds, drawing, Reset and undo — is written once over this trait.
//!
//! [`CellRule`]: crate::rule::cell_rule::CellRule

use super::HashError;
use crate::rule::Rule;

/// A leaf's four words.
pub type Words = [u32; 4];

/// A kind of leaf and its evaluator for one rule.
pub trait Leaves: Send + Sync + 'static + Sized {
    /// Level of a leaf: its side is `2^LEVEL`.
    const LEVEL: u8;

    /// The evaluator of `rule`, or why this engine cannot run it.
    fn for_rule(rule: &Rule) -> Result<Self, HashError>;

    /// The evaluator of `rule` for steps that start at a generation of parity `odd` (a rule
    /// with B0 alternates two rules: [`super::b0`]).
    fn for_rule_at(rule: &Rule, odd: bool) -> Result<Self, HashError> {
        let _ = odd;
        Self::for_rule(rule)
    }

    /// Whether stepping `rule` depends on the generation's parity.
    fn alternates(rule: &Rule) -> bool {
        let _ = rule;
        false
    }

    /// The centred leaf of the square of four leaves (nw, ne, sw, se), `gens` generations
    /// on (`gens ≤ 2^(LEVEL − 1)`: what stays exact inside the square).
    fn step(&self, leaves: [Words; 4], gens: u32) -> Words;

    /// The centred leaf of the square of four leaves, not stepped.
    fn centre(leaves: [Words; 4]) -> Words;

    /// The state of cell `(x, y)` of a leaf.
    fn get(words: &Words, x: u32, y: u32) -> u8;

    /// The leaf with cell `(x, y)` in `state`.
    fn set(words: Words, x: u32, y: u32, state: u8) -> Words;

    /// Cells in state 1 (what the population counts).
    fn live(words: &Words) -> u64;

    /// Cells in any state but 0 (what the bounds and the view show).
    fn occupied(words: &Words) -> u64;

    /// Call `visit(x, y, state)` for every cell not in state 0.
    fn for_each(words: &Words, visit: &mut dyn FnMut(u32, u32, u8));
}
