//! The base case of the hashed universe: a 16×16 square (four 8×8 leaves) stepped up to 4
//! generations on the CPU, bit-parallel, leaving its centred 8×8 leaf.
//!
//! The square is held as four `u64` words of four 16-cell rows each (word `w` holds rows
//! `4w..4w+4`, row `r % 4` at bits `16 * (r % 4)`, cell `x` at bit `x` of its row). A
//! neighbour plane is a shift: west of `x` is `<< 1`, the row above is `<< 16` with the
//! previous word's last row carried in. Bits that wrap across a row or word boundary land
//! only in the square's outer ring, which each generation gives up anyway (16 → 14 → … → 8).
//!
//! The rule is the one [`crate::rule::Rule`] table every strategy runs: outer-totalistic
//! rules through their birth/survival masks on the 3×3 count, every other two-state family
//! (Hensel, MAP, hexagonal, von Neumann) through its compiled [`Circuit`].

use crate::rule::circuit::count_planes;
use crate::rule::{Circuit, Rule};

/// How a leaf step evaluates the rule: a generation from an even step offset by `first`,
/// from an odd one by `second` — the same rule, or the alternating pair of a rule with B0
/// ([`super::b0`]; the universe gives the pair in the order its step's parity needs).
#[derive(Clone, Debug)]
pub struct LeafRule {
    first: Eval,
    second: Eval,
}

/// How one rule is evaluated on 64 cells at once.
#[derive(Clone, Debug)]
enum Eval {
    /// Next state from the 3×3 count `T` (centre included): alive if bit `T` of `dead` (for
    /// a dead cell) or of `alive` (for a live one) is set.
    Counts {
        /// Bit `T`: a dead cell whose block counts `T` is born (`T` = neighbours).
        dead: u16,
        /// Bit `T`: a live cell whose block counts `T` survives (`T` = neighbours + 1).
        alive: u16,
    },
    /// Any other two-state table, as a straight-line bitwise program.
    Circuit(Circuit),
}

impl LeafRule {
    /// The evaluator for `rule` (two-state; B0 emulated) stepped from an even generation.
    pub fn new(rule: &Rule) -> LeafRule {
        LeafRule::at_parity(rule, false)
    }

    /// The evaluator for `rule` stepped from a generation of parity `odd`: the rule, its
    /// complement (B0 with S8), or the pair a rule with B0 and without S8 alternates.
    pub fn at_parity(rule: &Rule, odd: bool) -> LeafRule {
        let (first, second) = super::b0::Emulation::of(rule).from_parity(odd);
        LeafRule {
            first: Eval::new(&first),
            second: Eval::new(&second),
        }
    }
}

impl Eval {
    /// The evaluator for `rule` (a two-state rule without B0).
    fn new(rule: &Rule) -> Eval {
        match rule.as_totalistic() {
            Some(t) => Eval::Counts {
                dead: t.birth,
                alive: t.survive << 1,
            },
            None => Eval::Circuit(Circuit::for_rule(rule)),
        }
    }

    /// The next state of 64 cells from their 9 neighbourhood planes (input `i` = index bit
    /// `i`: 8 = NW … 4 = centre … 0 = SE).
    #[inline]
    fn eval(&self, cells: &[u64; 9]) -> u64 {
        match self {
            Eval::Counts { dead, alive } => {
                let [t0, t1, t2, t3] = count_planes(cells);
                let centre = cells[4];
                let mut next = 0;
                for t in 0..10u16 {
                    let born = dead >> t & 1 == 1;
                    let stays = alive >> t & 1 == 1;
                    if !born && !stays {
                        continue;
                    }
                    let bit = |plane: u64, k: u16| if t >> k & 1 == 1 { plane } else { !plane };
                    let eq = bit(t0, 0) & bit(t1, 1) & bit(t2, 2) & bit(t3, 3);
                    next |= match (born, stays) {
                        (true, true) => eq,
                        (true, false) => eq & !centre,
                        _ => eq & centre,
                    };
                }
                next
            }
            Eval::Circuit(c) => c.eval_cells(cells),
        }
    }
}

impl LeafRule {
    /// Step the 16×16 square `gens` (≤ 4) generations; only its centred `16 − 2·gens`
    /// square is meaningful afterwards.
    pub fn step16(&self, mut rows: [u64; 4], gens: u32) -> [u64; 4] {
        for g in 0..gens {
            let rule = if g % 2 == 0 {
                &self.first
            } else {
                &self.second
            };
            let mut next = [0u64; 4];
            for w in 0..4 {
                let cur = rows[w];
                let up = cur << 16 | if w > 0 { rows[w - 1] >> 48 } else { 0 };
                let down = cur >> 16 | if w < 3 { rows[w + 1] << 48 } else { 0 };
                let cells = [
                    down >> 1,
                    down,
                    down << 1,
                    cur >> 1,
                    cur,
                    cur << 1,
                    up >> 1,
                    up,
                    up << 1,
                ];
                next[w] = rule.eval(&cells);
            }
            rows = next;
        }
        rows
    }
}

fn bits(words: &super::leaves::Words) -> u64 {
    u64::from(words[0]) | u64::from(words[1]) << 32
}

fn words(bits: u64) -> super::leaves::Words {
    [bits as u32, (bits >> 32) as u32, 0, 0]
}

impl super::leaves::Leaves for LeafRule {
    const LEVEL: u8 = super::store::LEAF_LEVEL;

    fn for_rule(rule: &Rule) -> Result<Self, super::HashError> {
        super::check_rule(rule)?;
        Ok(LeafRule::new(rule))
    }

    fn for_rule_at(rule: &Rule, odd: bool) -> Result<Self, super::HashError> {
        super::check_rule(rule)?;
        Ok(LeafRule::at_parity(rule, odd))
    }

    fn alternates(rule: &Rule) -> bool {
        super::b0::Emulation::of(rule).alternates()
    }

    #[inline]
    fn step(&self, leaves: [super::leaves::Words; 4], gens: u32) -> super::leaves::Words {
        words(centre(self.step16(square(leaves.map(|w| bits(&w))), gens)))
    }

    #[inline]
    fn centre(leaves: [super::leaves::Words; 4]) -> super::leaves::Words {
        words(centre(square(leaves.map(|w| bits(&w)))))
    }

    fn get(w: &super::leaves::Words, x: u32, y: u32) -> u8 {
        (bits(w) >> (y * 8 + x) & 1) as u8
    }

    fn set(w: super::leaves::Words, x: u32, y: u32, state: u8) -> super::leaves::Words {
        let bit = 1u64 << (y * 8 + x);
        words(if state != 0 {
            bits(&w) | bit
        } else {
            bits(&w) & !bit
        })
    }

    #[inline]
    fn live(w: &super::leaves::Words) -> u64 {
        u64::from(bits(w).count_ones())
    }

    #[inline]
    fn occupied(w: &super::leaves::Words) -> u64 {
        u64::from(bits(w).count_ones())
    }

    fn for_each(w: &super::leaves::Words, visit: &mut dyn FnMut(u32, u32, u8)) {
        let mut b = bits(w);
        while b != 0 {
            let i = b.trailing_zeros();
            b &= b - 1;
            visit(i % 8, i / 8, 1);
        }
    }
}

/// The 16×16 square of four leaves (nw, ne, sw, se).
#[inline]
pub fn square(leaves: [u64; 4]) -> [u64; 4] {
    let row = |r: usize| -> u64 {
        let (w, e) = if r < 8 {
            (leaves[0], leaves[1])
        } else {
            (leaves[2], leaves[3])
        };
        let shift = (r % 8) * 8;
        (w >> shift & 0xff) | (e >> shift & 0xff) << 8
    };
    let mut out = [0u64; 4];
    for (r, word) in (0..16).map(|r| (r, r / 4)) {
        out[word] |= row(r) << (16 * (r % 4));
    }
    out
}

/// The centred 8×8 leaf of a 16×16 square.
#[inline]
pub fn centre(square: [u64; 4]) -> u64 {
    let mut out = 0u64;
    for r in 4..12 {
        let row = square[r / 4] >> (16 * (r % 4)) & 0xffff;
        out |= (row >> 4 & 0xff) << ((r - 4) * 8);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cell (x, y) of a 16×16 square.
    fn at(sq: &[u64; 4], x: usize, y: usize) -> bool {
        sq[y / 4] >> (16 * (y % 4) + x) & 1 == 1
    }

    #[test]
    fn square_and_centre_place_cells_where_they_belong() {
        // One cell in each leaf, at (1, 2) of its leaf.
        let leaf = 1u64 << (2 * 8 + 1);
        let sq = square([leaf; 4]);
        for (x, y) in [(1, 2), (9, 2), (1, 10), (9, 10)] {
            assert!(at(&sq, x, y), "({x}, {y})");
        }
        assert_eq!(sq.iter().map(|w| w.count_ones()).sum::<u32>(), 4);
        // The centre starts at (4, 4): (9, 10) is its (5, 6).
        assert_eq!(centre(sq), 1 << (6 * 8 + 5));
    }

    #[test]
    fn step16_matches_the_table_on_random_squares() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rand = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for text in [
            "B3/S23",
            "B36/S23",
            "B2-a/S12",
            "B2/S34H",
            "B2/S013V",
            "B1357/S1357",
        ] {
            let rule = Rule::parse(text).unwrap();
            let lr = LeafRule::new(&rule);
            for _ in 0..20 {
                let sq = [rand(), rand(), rand(), rand()];
                let stepped = lr.step16(sq, 1);
                for y in 1..15 {
                    for x in 1..15 {
                        let mut index = 0u16;
                        for dy in 0..3 {
                            for dx in 0..3 {
                                index = index << 1 | u16::from(at(&sq, x + dx - 1, y + dy - 1));
                            }
                        }
                        assert_eq!(at(&stepped, x, y), rule.next_alive(index), "{text}");
                    }
                }
            }
        }
    }
}
