//! Gosper's recursion: the result of a level-`k` node is its centred level-`k − 1` square
//! `2^min(j, k − 2)` generations on, where `2^j` is the universe's current step. Results are
//! memoised in the nodes, so a square met again (anywhere, at any time) costs one look-up.
//!
//! Every id a computation holds across a call that may allocate is protected on the store's
//! stack, because an allocation may collect garbage.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::leaves::Leaves;
use super::store::{NONE, Store};

/// The stepping machinery: the store, the leaves' evaluator and the step exponent.
pub struct Stepper<L: Leaves> {
    /// Where nodes live.
    pub store: Store,
    leaf_rule: L,
    /// Results are `2^exponent` generations on (for nodes big enough).
    exponent: u32,
    /// Raised by another thread to abandon the step in progress (Golly's interrupt).
    interrupt: Option<Arc<AtomicBool>>,
}

impl<L: Leaves> Stepper<L> {
    /// A stepper over `store` (whose leaves are `L`'s) for `leaf_rule`, with step `2^0`.
    pub fn new(store: Store, leaf_rule: L) -> Stepper<L> {
        Stepper {
            store,
            leaf_rule,
            exponent: 0,
            interrupt: None,
        }
    }

    /// Abandon a step when `flag` is raised: [`Stepper::result`] then returns [`NONE`]
    /// soon after, every result memoised so far still exact.
    pub fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }

    #[inline]
    pub(super) fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The interrupt flag, if any.
    pub(super) fn interrupt_flag(&self) -> Option<&AtomicBool> {
        self.interrupt.as_deref()
    }

    /// The leaves' evaluator.
    pub(super) fn leaf_rule(&self) -> &L {
        &self.leaf_rule
    }

    /// The current step exponent.
    pub fn exponent(&self) -> u32 {
        self.exponent
    }

    /// Make results `2^exponent` generations: results of nodes whose step changes are
    /// forgotten (levels above `min(old, new) + 2`).
    pub fn set_exponent(&mut self, exponent: u32) {
        if exponent != self.exponent {
            let keep = self.exponent.min(exponent).saturating_add(2).min(250) as u8;
            self.store.clear_results_above(keep);
            self.exponent = exponent;
        }
    }

    /// Replace the rule: every memoised result is forgotten.
    pub fn set_rule(&mut self, leaf_rule: L) {
        self.leaf_rule = leaf_rule;
        self.store.clear_results_above(0);
    }

    /// The memoised (or newly computed) result of `id`, a node above the leaves; [`NONE`]
    /// when the step was interrupted (nothing wrong is memoised).
    pub fn result(&mut self, id: u32) -> u32 {
        let node = self.store.node(id);
        let (level, child, result) = (node.level, node.child, node.result());
        if result != NONE {
            return result;
        }
        let r = if level == L::LEVEL + 1 {
            let leaves = child.map(|c| self.store.node(c).child);
            let gens = 1u32 << self.exponent.min(u32::from(L::LEVEL) - 1);
            let stepped = self.leaf_rule.step(leaves, gens);
            self.store.leaf_of(stepped)
        } else {
            self.inner_result(id, level)
        };
        if r != NONE {
            self.store.set_result(id, r);
        }
        r
    }

    /// The centred square of level `k − 1` of a node of level `k` above the leaves, not
    /// stepped.
    pub fn centre(&mut self, id: u32) -> u32 {
        let node = self.store.node(id);
        if node.level == L::LEVEL + 1 {
            let leaves = node.child.map(|c| self.store.node(c).child);
            return self.store.leaf_of(L::centre(leaves));
        }
        let [nw, ne, sw, se] = node.child.map(|c| self.store.node(c).child);
        self.store.join([nw[3], ne[2], sw[1], se[0]])
    }

    /// The level-`k − 1` square straddling two side-by-side nodes `w` and `e` of level `k − 1`.
    fn horizontal(&mut self, w: u32, e: u32) -> u32 {
        let (w, e) = (self.store.node(w).child, self.store.node(e).child);
        self.store.join([w[1], e[0], w[3], e[2]])
    }

    /// The level-`k − 1` square straddling `n` above `s`.
    fn vertical(&mut self, n: u32, s: u32) -> u32 {
        let (n, s) = (self.store.node(n).child, self.store.node(s).child);
        self.store.join([n[2], n[3], s[0], s[1]])
    }

    /// The centred square of the square four nodes (nw, ne, sw, se) would make: what
    /// `centre(join(q))` gives, with one look-up less.
    fn centre_of(&mut self, q: [u32; 4]) -> u32 {
        if self.store.level(q[0]) == L::LEVEL {
            let leaves = q.map(|c| self.store.node(c).child);
            return self.store.leaf_of(L::centre(leaves));
        }
        self.middle(q)
    }

    /// The centred level-`k − 1` square of four level-`k − 1` nodes.
    fn middle(&mut self, q: [u32; 4]) -> u32 {
        let [nw, ne, sw, se] = q.map(|c| self.store.node(c).child);
        self.store.join([nw[3], ne[2], sw[1], se[0]])
    }

    fn inner_result(&mut self, id: u32, level: u8) -> u32 {
        // Interrupted, or out of memory: give up (nothing wrong is memoised).
        if self.interrupted() || self.store.is_full() {
            return NONE;
        }
        let base = self.store.stack_len();
        self.store.protect(id);
        let [nw, ne, sw, se] = self.store.node(id).child;
        // The five straddling squares' slots, loaded together (their misses overlap).
        {
            let [a, b, c, d] = [nw, ne, sw, se].map(|q| self.store.node(q).child);
            let below = level - 1;
            for child in [
                [a[1], b[0], a[3], b[2]],
                [a[2], a[3], c[0], c[1]],
                [a[3], b[2], c[1], d[0]],
                [b[2], b[3], d[0], d[1]],
                [c[1], d[0], c[3], d[2]],
            ] {
                self.store.prefetch(below, child);
            }
        }
        // The nine overlapping squares of level k − 1, row-major.
        let mut nine = [NONE; 9];
        nine[0] = nw;
        nine[1] = self.horizontal(nw, ne);
        self.store.protect(nine[1]);
        nine[2] = ne;
        nine[3] = self.vertical(nw, sw);
        self.store.protect(nine[3]);
        nine[4] = self.middle([nw, ne, sw, se]);
        self.store.protect(nine[4]);
        nine[5] = self.vertical(ne, se);
        self.store.protect(nine[5]);
        nine[6] = sw;
        nine[7] = self.horizontal(sw, se);
        self.store.protect(nine[7]);
        nine[8] = se;
        // Their results: level k − 2, 2^min(j, k − 3) generations on.
        let mut r = [NONE; 9];
        for i in 0..9 {
            r[i] = self.result(nine[i]);
            if r[i] == NONE {
                self.store.truncate(base);
                return NONE;
            }
            self.store.protect(r[i]);
        }
        let full_speed = u32::from(level) - 2 <= self.exponent;
        let fours: [[u32; 4]; 4] = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| {
            let at = |x: usize, y: usize| r[(dy + y) * 3 + dx + x];
            [at(0, 0), at(1, 0), at(0, 1), at(1, 1)]
        });
        let mut quarter = [NONE; 4];
        if full_speed {
            // The four squares (level k − 1) first, their slots loaded together, then their
            // results.
            let below = level - 1;
            for four in fours {
                self.store.prefetch(below, four);
            }
            let mut squares = [NONE; 4];
            for (square, four) in squares.iter_mut().zip(fours) {
                *square = self.store.join(four);
                self.store.protect(*square);
            }
            for (q, square) in squares.into_iter().enumerate() {
                quarter[q] = self.result(square);
                if quarter[q] == NONE {
                    self.store.truncate(base);
                    return NONE;
                }
                self.store.protect(quarter[q]);
            }
        } else {
            for (q, four) in fours.into_iter().enumerate() {
                // The centre of the square the four make, without making the square
                // (one table look-up instead of two, as Golly's half-speed recursion does).
                quarter[q] = self.centre_of(four);
                self.store.protect(quarter[q]);
            }
        }
        let out = self.store.join(quarter);
        self.store.truncate(base);
        out
    }
}
