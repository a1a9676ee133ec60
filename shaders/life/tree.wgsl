// Rule tables and rule trees (src/rule/table/): one thread per cell reads the states of its
// 3×3 neighbourhood and walks the rule's compiled tree, kept in device memory as the flat
// node array of src/rule/table/tree.rs followed by two words, the root's offset and the
// number of neighbours (4 or 8). Golly's order of inputs: NW, NE, SW, SE, N, W, E, S (or
// N, W, E, S), then the cell, whose level holds the next state. The cell words are those
// of every u32 kernel (life/common.wgsl): ages of state-1 cells, states 2.. as dying values.

//!include life/common.wgsl

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<storage, read> tree: array<u32>;

// The state a cell word holds.
fn state_of(word: u32) -> u32 {
    if (p.states <= 2u) {
        return select(0u, 1u, word != 0u);
    }
    if (word == 0u) {
        return 0u;
    }
    return select(LIVE_BASE - word, 1u, word >= LIVE_BASE);
}

// The state at halo-row coordinate `row` (0..=rows+1), column x + dx - 1 (dx in 0..3),
// wrapping or dead beyond the world's columns.
fn at(row: u32, x: u32, dx: u32) -> u32 {
    var nx = x + dx; // column + 1: 0 means -1, width + 1 means width
    if (nx == 0u) {
        if (p.torus == 0u) { return 0u; }
        nx = p.width;
    } else if (nx == p.width + 1u) {
        if (p.torus == 0u) { return 0u; }
        nx = 1u;
    }
    return state_of(src[buffer_row(row) * p.pitch + p.col0 + nx - 1u]);
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let r = id.y;
    if (x >= p.width || r >= p.rows) {
        return;
    }
    let n = arrayLength(&tree);
    var i = tree[n - 2u];
    if (tree[n - 1u] == 8u) {
        i = tree[i + at(r, x, 0u)];      // NW
        i = tree[i + at(r, x, 2u)];      // NE
        i = tree[i + at(r + 2u, x, 0u)]; // SW
        i = tree[i + at(r + 2u, x, 2u)]; // SE
    }
    i = tree[i + at(r, x, 1u)];          // N
    i = tree[i + at(r + 1u, x, 0u)];     // W
    i = tree[i + at(r + 1u, x, 2u)];     // E
    i = tree[i + at(r + 2u, x, 1u)];     // S
    let at_cell = (r + 1u) * p.pitch + p.col0 + x;
    let word = src[at_cell];
    let state = state_of(word);
    let next = tree[i + state];
    var out = 0u;
    if (next == 1u) {
        if (state == 1u) {
            // One more generation in state 1, saturating (ages of multi-state words stop
            // LIVE_BASE short, as under Generations).
            out = select(word + 1u, word, word == 0xffffffffu);
        } else {
            out = select(1u, live_value(1u), p.states > 2u);
        }
    } else if (next >= 2u) {
        out = dying_value(next);
    }
    dst[at_cell] = out;
}
