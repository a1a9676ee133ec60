//! A rule as a straight-line program of bitwise operations over bit planes: what the
//! bitsliced CPU stepper and the bit-packed GPU kernels run instead of a table lookup, 64 (or
//! 32) cells per operation. [`super::synth`] builds one from a table; this module holds the
//! program, its evaluators and its WGSL/Rust emitters.
//!
//! # Inputs
//!
//! 13 planes: inputs 0..9 are the 9 cells of the neighbourhood, input `i` being the cell of
//! index bit `i` ([`super::spec`]: 8 = NW … 4 = centre … 0 = SE); inputs 9..13 are the bits
//! `T0..T3` of `T`, the live count of the whole 3×3 block *including the centre* (0..9) —
//! exactly the planes the existing kernels already form with full adders (`count9` in
//! `cpu_bitsliced.rs`, `next_state` in `bitpacked_step_common.wgsl`), so a totalistic rule
//! costs only its own few operations on top of them. A program uses whichever inputs make
//! it shortest; [`Circuit::eval_cells`] forms `T` itself for callers that only have cells.

use std::fmt::Write as _;

/// Number of input planes (9 cells, then 4 count bits).
pub const INPUTS: usize = 13;

/// First count-bit input: `T0` is input 9, `T3` input 12.
pub const COUNT_INPUT: usize = 9;

/// A value of the program: an input plane, an earlier operation's result, or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// All zero.
    Zero,
    /// All ones.
    Ones,
    /// Register `r`: inputs are registers 0..13, operation `k` writes register `13 + k`.
    Reg(u16),
}

/// One bitwise operation on two (or one) registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `a & b`
    And(u16, u16),
    /// `a | b`
    Or(u16, u16),
    /// `a ^ b`
    Xor(u16, u16),
    /// `a & !b` (one instruction on most targets: ANDN, LOP3)
    AndNot(u16, u16),
    /// `!a`
    Not(u16),
}

/// A compiled rule: operations in order, and the value that is the next state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circuit {
    /// The operations; operation `k` writes register `INPUTS + k`.
    pub ops: Vec<Op>,
    /// The result.
    pub output: Value,
}

/// The count planes `T0..T3` of the 3×3 block (centre included) from the 9 cell planes, by
/// full adders in the order the kernels use: row sums, then the column sum.
#[inline(always)]
pub fn count_planes(cells: &[u64; 9]) -> [u64; 4] {
    let full = |x: u64, y: u64, z: u64| {
        let xy = x ^ y;
        (xy ^ z, (x & y) | (z & xy))
    };
    let up = full(cells[8], cells[7], cells[6]);
    let mid = full(cells[5], cells[4], cells[3]);
    let down = full(cells[2], cells[1], cells[0]);
    let (b0, carry) = full(up.0, mid.0, down.0);
    let (m0, m1) = full(up.1, mid.1, down.1);
    let (b1, c) = (carry ^ m0, carry & m0);
    [b0, b1, m1 ^ c, m1 & c]
}

impl Circuit {
    /// Number of operations (the cost per word, count planes not included).
    pub fn op_count(&self) -> usize {
        self.ops.len()
    }

    /// Whether the program reads the count planes `T0..T3`.
    pub fn uses_counts(&self) -> bool {
        let count = |r: u16| (COUNT_INPUT..INPUTS).contains(&usize::from(r));
        self.ops.iter().any(|op| match *op {
            Op::And(a, b) | Op::Or(a, b) | Op::Xor(a, b) | Op::AndNot(a, b) => count(a) || count(b),
            Op::Not(a) => count(a),
        })
    }

    /// Evaluate on one word of each input plane (cells then count bits).
    pub fn eval(&self, inputs: &[u64; INPUTS]) -> u64 {
        // Registers on the stack for the usual short programs (zeroing is the main cost).
        const STACK: usize = 64;
        let needed = INPUTS + self.ops.len();
        let mut stack = [0u64; STACK];
        let mut heap = Vec::new();
        let regs: &mut [u64] = if needed <= STACK {
            &mut stack[..needed]
        } else {
            heap.resize(needed, 0);
            &mut heap
        };
        regs[..INPUTS].copy_from_slice(inputs);
        for (k, op) in self.ops.iter().enumerate() {
            let r = |i: u16| regs[usize::from(i)];
            regs[INPUTS + k] = match *op {
                Op::And(a, b) => r(a) & r(b),
                Op::Or(a, b) => r(a) | r(b),
                Op::Xor(a, b) => r(a) ^ r(b),
                Op::AndNot(a, b) => r(a) & !r(b),
                Op::Not(a) => !r(a),
            };
        }
        match self.output {
            Value::Zero => 0,
            Value::Ones => !0,
            Value::Reg(i) => regs[usize::from(i)],
        }
    }

    /// Evaluate on one word of each of the 9 cell planes, forming the count planes first.
    pub fn eval_cells(&self, cells: &[u64; 9]) -> u64 {
        let mut inputs = [0u64; INPUTS];
        inputs[..9].copy_from_slice(cells);
        inputs[COUNT_INPUT..].copy_from_slice(&count_planes(cells));
        self.eval(&inputs)
    }

    /// Evaluate over a block of words at once, operation by operation (the interpreter's
    /// dispatch is paid once per operation per block, and each inner loop vectorises): the
    /// form for the CPU bitsliced stepper. `inputs[i]` and `out` have the same length;
    /// `scratch` is reused between calls.
    pub fn eval_block(&self, inputs: &[&[u64]; INPUTS], out: &mut [u64], scratch: &mut Vec<u64>) {
        let n = out.len();
        scratch.clear();
        scratch.resize(self.ops.len() * n, 0);
        for (k, op) in self.ops.iter().enumerate() {
            let (done, rest) = scratch.split_at_mut(k * n);
            let dst = &mut rest[..n];
            let src = |r: u16| -> &[u64] {
                let r = usize::from(r);
                if r < INPUTS {
                    &inputs[r][..n]
                } else {
                    &done[(r - INPUTS) * n..(r - INPUTS + 1) * n]
                }
            };
            match *op {
                Op::And(a, b) => zip(dst, src(a), src(b), |x, y| x & y),
                Op::Or(a, b) => zip(dst, src(a), src(b), |x, y| x | y),
                Op::Xor(a, b) => zip(dst, src(a), src(b), |x, y| x ^ y),
                Op::AndNot(a, b) => zip(dst, src(a), src(b), |x, y| x & !y),
                Op::Not(a) => dst.iter_mut().zip(src(a)).for_each(|(d, x)| *d = !x),
            }
        }
        match self.output {
            Value::Zero => out.fill(0),
            Value::Ones => out.fill(!0),
            Value::Reg(r) if usize::from(r) < INPUTS => {
                out.copy_from_slice(&inputs[usize::from(r)][..n])
            }
            Value::Reg(r) => {
                let k = usize::from(r) - INPUTS;
                out.copy_from_slice(&scratch[k * n..(k + 1) * n]);
            }
        }
    }

    /// WGSL source of `fn rule_next(nw, n, ne, w, c, e, sw, s, se, t0, t1, t2, t3: u32) -> u32`
    /// (named `name`), for the bit-packed kernels: cells in [`super::spec`] order, then the
    /// count bits of the 3×3 block (centre included).
    pub fn to_wgsl(&self, name: &str) -> String {
        self.emit(
            &format!("fn {name}("),
            ": u32",
            ") -> u32 {",
            "0u",
            "0xffffffffu",
            "~",
        )
    }

    /// Rust source of an `#[inline(always)] fn name(nw: u64, …, t3: u64) -> u64` with the
    /// same inputs, for generated (build-time) kernels and for reading a program.
    pub fn to_rust(&self, name: &str) -> String {
        let head = format!("#[inline(always)]\n#[allow(unused_variables)]\nfn {name}(");
        self.emit(&head, ": u64", ") -> u64 {", "0u64", "!0u64", "!")
    }

    /// Shared by the emitters: `head` + parameters typed `ty` + `open`, one `let` per
    /// operation, then the result; constants and complement spelled per language.
    fn emit(&self, head: &str, ty: &str, open: &str, zero: &str, ones: &str, not: &str) -> String {
        const NAMES: [&str; INPUTS] = [
            "se", "s", "sw", "e", "c", "w", "ne", "n", "nw", "t0", "t1", "t2", "t3",
        ];
        let reg = |r: u16| -> String {
            let r = usize::from(r);
            if r < INPUTS {
                NAMES[r].to_string()
            } else {
                format!("r{}", r - INPUTS)
            }
        };
        let mut out = String::from(head);
        let params: Vec<String> = [8, 7, 6, 5, 4, 3, 2, 1, 0, 9, 10, 11, 12]
            .iter()
            .map(|&i| format!("{}{ty}", NAMES[i]))
            .collect();
        out.push_str(&params.join(", "));
        out.push_str(open);
        out.push('\n');
        for (k, op) in self.ops.iter().enumerate() {
            let expr = match *op {
                Op::And(a, b) => format!("{} & {}", reg(a), reg(b)),
                Op::Or(a, b) => format!("{} | {}", reg(a), reg(b)),
                Op::Xor(a, b) => format!("{} ^ {}", reg(a), reg(b)),
                Op::AndNot(a, b) => format!("{} & {not}{}", reg(a), reg(b)),
                Op::Not(a) => format!("{not}{}", reg(a)),
            };
            let _ = writeln!(out, "    let r{k} = {expr};");
        }
        let result = match self.output {
            Value::Zero => zero.to_string(),
            Value::Ones => ones.to_string(),
            Value::Reg(r) => reg(r),
        };
        let _ = writeln!(out, "    return {result};\n}}");
        out
    }
}

#[inline(always)]
fn zip(dst: &mut [u64], a: &[u64], b: &[u64], f: impl Fn(u64, u64) -> u64) {
    for ((d, x), y) in dst.iter_mut().zip(a).zip(b) {
        *d = f(*x, *y);
    }
}
