// Shared by the Larger than Life kernels (src/step/gpu_cells/ltl/params.rs, LtlParams). Cell
// words are those of every u32 kernel (life/common.wgsl): a chunk buffer of rows + 2 rows
// of `pitch` words, world row y at buffer row y + 1 (LtL runs single-chunk worlds only).

struct LtlParams {
    width: u32,
    height: u32,
    pitch: u32,
    range: u32,
    stride: u32,    // 16-bit halves per row of sums: width + 2 range + 2, even (mode 3: diagonal sums a row, width + 2 range + 8 padding, rounded up to whole words)
    torus: u32,
    states: u32,    // C (2 for two-state rules)
    mode: u32,      // 0 square (running column sums), 1 row runs, 2 weighted cells, 3 diamond, 4 tent (Gaussian)
    items: u32,     // runs (mode 1) or cells (mode 2) in `shape`
    run: u32,       // rows each thread of the count pass walks
    odd: u32,       // generation parity this bind group steps (B0 alternates rules)
    flags_len: u32, // entries per flag table
    bonus: u32,     // 1: an occupied cell adds one to its own count (Gaussian)
    band: u32,      // mode 3: rows after which the diagonal sums restart (> range, a power of two)
    flip: u32,      // 1: a triangular grid; cells with x + y odd count the shape upside down
    blocks: u32,    // mode 0: rows per block sum (ltl_blocks.wgsl) when runs start from them; 0 otherwise
    diag_bits: u32, // mode 3: bits a diagonal sum: 8 below r = 128 (sums modulo 256; four columns a count thread), else 16
    mask_pitch: u32, // mode 3, 8-bit sums: words a row of the state-1 byte mask (ltl_mask.wgsl), ceil(width / 4)
    split: u32,     // mode 3: 1 when a diagonal-pass thread sums one direction (id.y odd: anti-diagonals) of its band, 0 both
    intervals: u32, // 1: birth and survival are the counts birth_lo..=birth_hi and survive_lo..=survive_hi (no table read)
    birth_lo: i32,
    birth_hi: i32,
    survive_lo: i32,
    survive_hi: i32,
}

//!include gpu/view_value.wgsl

@group(0) @binding(0) var<uniform> p: LtlParams;

//!include life/cell_state.wgsl

// 1 for a state-1 cell's word.
fn state1(word: u32) -> u32 {
    return select(0u, 1u, state_of(word) == 1u);
}

// i mod n for i < 2n.
fn wrap(i: u32, n: u32) -> u32 {
    return select(i, i - n, i >= n);
}

// i mod n for i < 3n.
fn wrap3(i: u32, n: u32) -> u32 {
    return wrap(wrap(i, n), n);
}

// v mod n for any v, without a division within one period of [0, n).
fn wrap_signed(v: i32, n: i32) -> i32 {
    if (v < 0) {
        if (v >= -n) {
            return v + n;
        }
        return ((v % n) + n) % n;
    }
    if (v >= n) {
        if (v < 2 * n) {
            return v - n;
        }
        return v % n;
    }
    return v;
}
