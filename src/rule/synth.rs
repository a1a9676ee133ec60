//! Rule table → [`Circuit`]: a decision-diagram synthesis with don't-cares and reuse.
//!
//! The approach is lifelib's idea of letting the neighbour *count* do most of the work
//! (its outer-totalistic kernels branch on adder outputs; its isotropic rules correct the
//! count by the configurations the letters pick out), done generically: the 4 count bits of
//! the 3×3 block are offered as decision variables next to the 9 cells. The function is split
//! (Shannon) on one variable after another; each split narrows the *care set* — the
//! neighbourhoods still possible — and because the count bits are functions of the cells,
//! fixing them leaves most cell combinations impossible, so the remaining subfunction is
//! checked against every plane already built, and an equal one on the care set (or its
//! complement) is reused instead of being built again. Totalistic rules never reach the cell
//! variables; isotropic rules only for the counts whose letters are split.
//!
//! Several variable orders are tried (count-first, cells-first, and seeded shuffles) and the
//! shortest program kept; some of them also offer derived planes after the count bits — the
//! edge and corner counts and the opposite-pair tests, which separate most Hensel letters
//! (`B3/S2-i34q`: 35 → 30 operations, `B2n3/S23-q`: 27 → 20). A full compile takes a few
//! milliseconds (30 ms for a random MAP table). Each split costs 0 to 3 operations (`x & hi`, `lo & !x`,
//! `lo | x`, `lo ^ x`, or `lo ^ (x & (lo ^ hi))`).

use super::circuit::{COUNT_INPUT, Circuit, INPUTS, Op, Value};

/// A function of the 9-bit neighbourhood index, as 512 bits.
type Tt = [u64; 8];

const ALL: Tt = [!0; 8];

fn and(a: &Tt, b: &Tt) -> Tt {
    std::array::from_fn(|k| a[k] & b[k])
}

fn andnot(a: &Tt, b: &Tt) -> Tt {
    std::array::from_fn(|k| a[k] & !b[k])
}

/// `(a ^ b) & care == 0`: `a` and `b` agree wherever it matters.
fn agree(a: &Tt, b: &Tt, care: &Tt) -> bool {
    (0..8).all(|k| (a[k] ^ b[k]) & care[k] == 0)
}

fn is_zero(a: &Tt) -> bool {
    a.iter().all(|&w| w == 0)
}

/// Truth table of input plane `i` (cells 0..9, count bits 9..13).
fn input_tt(i: usize) -> Tt {
    let mut tt = [0u64; 8];
    for idx in 0..512u32 {
        let bit = if i < COUNT_INPUT {
            idx >> i & 1
        } else {
            idx.count_ones() >> (i - COUNT_INPUT) & 1
        };
        if bit == 1 {
            tt[(idx / 64) as usize] |= 1 << (idx % 64);
        }
    }
    tt
}

/// Circuit under construction: the operations and the truth table of every register.
struct Builder {
    ops: Vec<Op>,
    regs: Vec<Tt>,
    /// Split as `lo ^ (x & d)` (positive Davio) instead of `x ? hi : lo` (Shannon).
    davio: bool,
}

impl Builder {
    fn new(davio: bool) -> Builder {
        Builder {
            ops: vec![],
            regs: (0..INPUTS).map(input_tt).collect(),
            davio,
        }
    }

    fn tt(&self, v: Value) -> Tt {
        match v {
            Value::Zero => [0; 8],
            Value::Ones => ALL,
            Value::Reg(r) => self.regs[usize::from(r)],
        }
    }

    fn push(&mut self, op: Op) -> Value {
        let r = |i: u16| self.regs[usize::from(i)];
        let tt: Tt = match op {
            Op::And(a, b) => and(&r(a), &r(b)),
            Op::Or(a, b) => std::array::from_fn(|k| r(a)[k] | r(b)[k]),
            Op::Xor(a, b) => std::array::from_fn(|k| r(a)[k] ^ r(b)[k]),
            Op::AndNot(a, b) => andnot(&r(a), &r(b)),
            Op::Not(a) => std::array::from_fn(|k| !r(a)[k]),
        };
        // An existing register with the same function serves as well.
        if let Some(i) = self.regs.iter().position(|t| *t == tt) {
            return Value::Reg(i as u16);
        }
        self.ops.push(op);
        self.regs.push(tt);
        Value::Reg((self.regs.len() - 1) as u16)
    }

    /// A value equal to `f` on `care`, splitting on `vars` in order.
    fn build(&mut self, f: &Tt, care: &Tt, vars: &[usize]) -> Value {
        if is_zero(&and(f, care)) {
            return Value::Zero;
        }
        if is_zero(&andnot(care, f)) {
            return Value::Ones;
        }
        if let Some(i) = self.regs.iter().position(|t| agree(t, f, care)) {
            return Value::Reg(i as u16);
        }
        if let Some(i) = self
            .regs
            .iter()
            .position(|t| agree(&t.map(|w| !w), f, care))
        {
            return self.push(Op::Not(i as u16));
        }
        let Some((pos, &var)) = vars.iter().enumerate().find(|&(_, &v)| {
            let t = &self.regs[v];
            !is_zero(&and(care, t)) && !is_zero(&andnot(care, t))
        }) else {
            // No variable separates what is left (cannot happen with the 9 cells offered).
            return Value::Zero;
        };
        let rest = &vars[pos + 1..];
        let x = self.regs[var];
        let (care0, care1) = (andnot(care, &x), and(care, &x));
        let lo = self.build(f, &care0, rest);
        let lo_tt = self.tt(lo);
        if agree(&lo_tt, f, &care1) {
            return lo;
        }
        if self.davio {
            // f = lo ^ (x & d) with d = f ^ lo where x holds.
            let target: Tt = std::array::from_fn(|k| f[k] ^ lo_tt[k]);
            let d = self.build(&target, &care1, rest);
            return match (lo, d) {
                (_, Value::Zero) => lo,
                (Value::Zero, _) => self.combine(var as u16, Value::Zero, d, f, care),
                (Value::Reg(l), Value::Ones) => self.push(Op::Xor(l, var as u16)),
                (Value::Ones, Value::Ones) => self.push(Op::Not(var as u16)),
                (Value::Ones, Value::Reg(d)) => {
                    let m = self.push(Op::And(var as u16, d));
                    self.not(m)
                }
                (Value::Reg(l), Value::Reg(d)) => match self.push(Op::And(var as u16, d)) {
                    Value::Reg(m) => self.push(Op::Xor(l, m)),
                    other => other,
                },
            };
        }
        let hi = self.build(f, &care1, rest);
        if agree(&self.tt(hi), f, &care0) {
            return hi;
        }
        self.combine(var as u16, lo, hi, f, care)
    }

    /// `x ? hi : lo` in as few operations as the constants and complements allow.
    fn combine(&mut self, x: u16, lo: Value, hi: Value, f: &Tt, care: &Tt) -> Value {
        use Value::*;
        match (lo, hi) {
            (Zero, Ones) => Reg(x),
            (Ones, Zero) => self.push(Op::Not(x)),
            (Zero, Reg(h)) => self.push(Op::And(x, h)),
            (Reg(l), Zero) => self.push(Op::AndNot(l, x)),
            (Reg(l), Ones) => self.push(Op::Or(l, x)),
            (Ones, Reg(h)) => {
                let t = self.push(Op::AndNot(x, h));
                self.not(t)
            }
            (Reg(l), Reg(h)) => {
                let xor_tt: Tt = std::array::from_fn(|k| {
                    self.regs[usize::from(l)][k] ^ self.regs[usize::from(x)][k]
                });
                if agree(&xor_tt, f, care) {
                    return self.push(Op::Xor(l, x));
                }
                let d = self.push(Op::Xor(l, h));
                let Reg(d) = d else { return lo };
                let m = self.push(Op::And(x, d));
                let Reg(m) = m else { return lo };
                self.push(Op::Xor(l, m))
            }
            (Zero, Zero) | (Ones, Ones) => lo,
        }
    }

    fn not(&mut self, v: Value) -> Value {
        match v {
            Value::Zero => Value::Ones,
            Value::Ones => Value::Zero,
            Value::Reg(r) => self.push(Op::Not(r)),
        }
    }
}

/// Compile with one variable order.
fn compile_order(table: &Tt, vars: &[usize], davio: bool) -> Circuit {
    let mut builder = Builder::new(davio);
    let output = builder.build(table, &ALL, vars);
    prune(builder.ops, output)
}

/// Compile with derived planes offered as split variables after the count bits: the edge
/// and corner counts (3 bits each) and whether two opposite edges / corners are alive —
/// what separates most Hensel letters. Unused ones are pruned, so they cost nothing then.
fn compile_with_features(table: &Tt, shuffle: Option<u64>, davio: bool) -> Circuit {
    use super::spec::cell::*;
    let mut b = Builder::new(davio);
    let mut features = vec![];
    let mut pairs = vec![];
    for [a, d, x, y] in [[N, S, W, E], [NW, SE, NE, SW]].map(|g| g.map(|c| c as u16)) {
        let r = |v: Value| if let Value::Reg(r) = v { r } else { 0 };
        let s1 = r(b.push(Op::Xor(a, d)));
        let c1 = r(b.push(Op::And(a, d)));
        let s2 = r(b.push(Op::Xor(x, y)));
        let c2 = r(b.push(Op::And(x, y)));
        let bit0 = r(b.push(Op::Xor(s1, s2)));
        let carry = r(b.push(Op::And(s1, s2)));
        let c12 = r(b.push(Op::Xor(c1, c2)));
        let bit1 = r(b.push(Op::Xor(c12, carry)));
        let bit2 = r(b.push(Op::And(c1, c2)));
        let opposite = r(b.push(Op::Or(c1, c2)));
        features.extend([bit0, bit1, bit2].map(usize::from));
        pairs.push(usize::from(opposite));
    }
    features.extend(pairs);
    let mut head: Vec<usize> = [4, 12, 11, 10, 9].into_iter().chain(features).collect();
    let mut cells = vec![7, 5, 3, 1, 8, 6, 2, 0];
    if let Some(mut state) = shuffle {
        for list in [&mut head, &mut cells] {
            for i in (1..list.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                list.swap(i, (state % (i as u64 + 1)) as usize);
            }
        }
    }
    let vars: Vec<usize> = head.into_iter().chain(cells).collect();
    let output = b.build(table, &ALL, &vars);
    prune(b.ops, output)
}

/// Drop operations the output does not depend on and renumber the rest.
fn prune(ops: Vec<Op>, output: Value) -> Circuit {
    let mut live = vec![false; ops.len()];
    let mark = |r: u16, live: &mut Vec<bool>| {
        if usize::from(r) >= INPUTS {
            live[usize::from(r) - INPUTS] = true;
        }
    };
    if let Value::Reg(r) = output {
        mark(r, &mut live);
    }
    for k in (0..ops.len()).rev() {
        if !live[k] {
            continue;
        }
        match ops[k] {
            Op::And(a, b) | Op::Or(a, b) | Op::Xor(a, b) | Op::AndNot(a, b) => {
                mark(a, &mut live);
                mark(b, &mut live);
            }
            Op::Not(a) => mark(a, &mut live),
        }
    }
    let mut new_index = vec![0u16; ops.len()];
    let mut kept = Vec::new();
    let map = |r: u16, new_index: &[u16]| -> u16 {
        if usize::from(r) < INPUTS {
            r
        } else {
            new_index[usize::from(r) - INPUTS]
        }
    };
    for (k, op) in ops.into_iter().enumerate() {
        if !live[k] {
            continue;
        }
        new_index[k] = (INPUTS + kept.len()) as u16;
        kept.push(match op {
            Op::And(a, b) => Op::And(map(a, &new_index), map(b, &new_index)),
            Op::Or(a, b) => Op::Or(map(a, &new_index), map(b, &new_index)),
            Op::Xor(a, b) => Op::Xor(map(a, &new_index), map(b, &new_index)),
            Op::AndNot(a, b) => Op::AndNot(map(a, &new_index), map(b, &new_index)),
            Op::Not(a) => Op::Not(map(a, &new_index)),
        });
    }
    let output = match output {
        Value::Reg(r) => Value::Reg(map(r, &new_index)),
        other => other,
    };
    Circuit { ops: kept, output }
}

/// Seeded shuffles of the variable order tried after the fixed orders.
const SHUFFLES: usize = 24;

/// Seeded shuffles of the orders with derived (edge/corner count) variables.
const FEATURED_SHUFFLES: usize = 16;

/// Variable orders tried: count bits first (high to low, and low to high), cells only, and
/// seeded shuffles of all 13 inputs.
fn orders() -> Vec<Vec<usize>> {
    let cells = [4, 7, 5, 3, 1, 8, 6, 2, 0]; // centre, edges, corners
    let mut out: Vec<Vec<usize>> = vec![
        [4, 12, 11, 10, 9]
            .iter()
            .chain(&cells[1..])
            .copied()
            .collect(),
        [12, 11, 10, 9, 4]
            .iter()
            .chain(&cells[1..])
            .copied()
            .collect(),
        [4, 9, 10, 11, 12]
            .iter()
            .chain(&cells[1..])
            .copied()
            .collect(),
        [12, 4, 11, 10, 9]
            .iter()
            .chain(&cells[1..])
            .copied()
            .collect(),
        cells.to_vec(),
        [8, 7, 6, 5, 4, 3, 2, 1, 0].to_vec(),
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..SHUFFLES {
        let mut order: Vec<usize> = (0..INPUTS).collect();
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        out.push(order);
    }
    out
}

/// Compile a 512-entry table (bit `i` = next state of neighbourhood index `i`) into the
/// shortest circuit found over the tried variable orders.
pub fn compile(table: &[u64; 8]) -> Circuit {
    let featured = (0..FEATURED_SHUFFLES as u64 + 1).flat_map(|k| {
        let shuffle = (k > 0).then_some(0x9e37_79b9_7f4a_7c15 ^ k);
        [false, true].map(|davio| compile_with_features(table, shuffle, davio))
    });
    orders()
        .iter()
        .flat_map(|order| [false, true].map(|davio| compile_order(table, order, davio)))
        .chain(featured)
        .min_by_key(|c| c.ops.len())
        .unwrap_or(Circuit {
            ops: vec![],
            output: Value::Zero,
        })
}

impl Circuit {
    /// Compile a rule's table (see [`compile`]).
    pub fn for_rule(rule: &super::Rule) -> Circuit {
        compile(rule.table())
    }
}
