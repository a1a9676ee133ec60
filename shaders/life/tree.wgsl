// Rule tables and rule trees (src/rule/table/): each cell's 3×3 neighbourhood of states
// walks the rule's compiled tree, kept in device memory as the flat
// node array of src/rule/table/tree.rs followed by two words, the root's offset and the
// number of neighbours (4 or 8, plus 256 when the cell is tested first). Golly's order of
// inputs: NW, NE, SW, SE, N, W, E, S (or N, W, E, S), then the cell, whose level holds the
// next state; golab's other order tests the cell first and the last neighbour's level
// holds the next state. The cell words are those
// of every u32 kernel (life/common.wgsl): ages of state-1 cells, states 2.. as dying values.

//!include life/common.wgsl

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<storage, read> tree: array<u32>;

//!include life/cell_state.wgsl

// The states of columns x-1, x, x+1 at halo-row coordinate `row` (0..=rows+1), wrapping or
// dead beyond the world's columns.
fn row3(row: u32, x: u32) -> vec3<u32> {
    let base = buffer_row(row) * p.pitch + p.col0;
    var left = 0u;
    var right = 0u;
    if (x > 0u) {
        left = state_of(src[base + x - 1u]);
    } else if (p.torus == 1u) {
        left = state_of(src[base + p.width - 1u]);
    }
    if (x + 1u < p.width) {
        right = state_of(src[base + x + 1u]);
    } else if (p.torus == 1u) {
        right = state_of(src[base]);
    }
    return vec3<u32>(left, state_of(src[base + x]), right);
}

// Each thread owns one column and walks p.run rows down it, keeping the three rows of its
// neighbourhood in registers: three loads per cell (neighbouring threads share the cache
// lines), then the tree walk, one dependent load per neighbour.
@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let r0 = id.y * p.run;
    if (x >= p.width || r0 >= p.rows) {
        return;
    }
    let r1 = min(r0 + p.run, p.rows);
    let n = arrayLength(&tree);
    let root = tree[n - 2u];
    let shape = tree[n - 1u];
    let eight = (shape & 0xffu) == 8u;
    let cell_first = (shape >> 8u) == 1u;
    var up = row3(r0, x);
    var mid = row3(r0 + 1u, x);
    for (var r = r0; r < r1; r++) {
        let down = row3(r + 2u, x);
        var i = root;
        if (cell_first) {
            i = tree[i + mid.y];  // the cell
        }
        if (eight) {
            i = tree[i + up.x];   // NW
            i = tree[i + up.z];   // NE
            i = tree[i + down.x]; // SW
            i = tree[i + down.z]; // SE
        }
        i = tree[i + up.y];       // N
        i = tree[i + mid.x];      // W
        i = tree[i + mid.z];      // E
        i = tree[i + down.y];     // S: with the cell first, the next state
        var next = i;
        if (!cell_first) {
            next = tree[i + mid.y];
        }
        let at_cell = (r + 1u) * p.pitch + p.col0 + x;
        let word = src[at_cell];
        var out = 0u;
        if (next == 1u) {
            if (mid.y == 1u) {
                // One more generation in state 1, saturating (ages of multi-state words
                // stop LIVE_BASE short, as under Generations).
                out = select(word + 1u, word, word == 0xffffffffu);
            } else {
                out = select(1u, live_value(1u), p.states > 2u);
            }
        } else if (next >= 2u) {
            out = dying_value(next);
        }
        dst[at_cell] = out;
        up = mid;
        mid = down;
    }
}
