// Shared by the Larger than Life passes that read pass 1's row prefix sums
// (ltl_count.wgsl, ltl_blocks.wgsl): a prefix sum, a row (wrapped or beyond a dead border),
// and the state-1 cells of one row's window [x - r, x + r] or of a run of rows' windows.
// Needs LtlParams `p`.

@group(0) @binding(3) var<storage, read> prefix: array<u32>;

// Prefix sum i of prefix row `row` (16-bit halves, P[i] at half i + 1: ltl_prefix.wgsl).
fn prefix_at(row: u32, i: u32) -> u32 {
    let half = row * p.stride + i + 1u;
    return (prefix[half >> 1u] >> ((half & 1u) * 16u)) & 0xffffu;
}

// Prefix row of world row y (any integer), or -1 beyond a dead border.
fn prefix_row(y: i32) -> i32 {
    if (y < 0 || y >= i32(p.height)) {
        if (p.torus == 0u) {
            return -1;
        }
        return ((y % i32(p.height)) + i32(p.height)) % i32(p.height);
    }
    return y;
}

// The state-1 cells of row y's window [x - r, x + r].
fn window(y: i32, x: u32) -> u32 {
    let row = prefix_row(y);
    if (row < 0) {
        return 0u;
    }
    return prefix_at(u32(row), x + 2u * p.range + 1u) - prefix_at(u32(row), x);
}

// The state-1 cells of the windows about column x of rows first..=last, four rows a step
// with their loads issued together.
fn windows(first: i32, last: i32, x: u32) -> u32 {
    var sum = 0u;
    var y = first;
    for (; y + 3 <= last; y += 4) {
        sum += (window(y, x) + window(y + 1, x)) + (window(y + 2, x) + window(y + 3, x));
    }
    for (; y <= last; y++) {
        sum += window(y, x);
    }
    return sum;
}
