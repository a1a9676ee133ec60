//! Any rule's table on bit planes: the rule compiled into a [`Circuit`] (straight-line
//! bitwise operations, [`crate::rule::synth`]) evaluated a whole row at a time
//! ([`Circuit::eval_block`]: one pass per operation over the row's words, which the compiler
//! vectorises), for the rules the neighbour-count fast path does not cover.

use crate::rule::Circuit;
use crate::rule::circuit::{COUNT_INPUT, INPUTS};

/// The 13 input planes of one row (the 9 neighbourhood cells in [`crate::rule::spec`]'s
/// order, input `i` being index bit `i`, then the 3×3 count bits) and the circuit's scratch.
pub struct RowInputs {
    planes: Vec<Vec<u64>>,
    scratch: Vec<u64>,
}

impl RowInputs {
    /// Buffers for rows of `words` words.
    pub fn new(words: usize) -> Self {
        RowInputs {
            planes: vec![vec![0; words]; INPUTS],
            scratch: Vec::new(),
        }
    }

    /// Next-generation words of a row into `out`: `rows[0..3]` are the (west, centre, east)
    /// neighbour words of the rows above, at and below, per word; `counts` forms the count
    /// planes only when the circuit reads them.
    pub fn eval(
        &mut self,
        circuit: &Circuit,
        counts: bool,
        rows: [&[(u64, u64, u64)]; 3],
        out: &mut [u64],
    ) {
        // Index bits 8..0: NW N NE / W C E / SW S SE.
        for (r, row) in rows.iter().enumerate() {
            let base = 8 - 3 * r;
            for (k, &(west, centre, east)) in row.iter().enumerate() {
                self.planes[base][k] = west;
                self.planes[base - 1][k] = centre;
                self.planes[base - 2][k] = east;
            }
        }
        if counts {
            for k in 0..out.len() {
                let cells = std::array::from_fn(|i| self.planes[i][k]);
                let t = crate::rule::circuit::count_planes(&cells);
                for (b, &plane) in t.iter().enumerate() {
                    self.planes[COUNT_INPUT + b][k] = plane;
                }
            }
        }
        let inputs: [&[u64]; INPUTS] = std::array::from_fn(|i| self.planes[i].as_slice());
        circuit.eval_block(&inputs, out, &mut self.scratch);
    }
}
