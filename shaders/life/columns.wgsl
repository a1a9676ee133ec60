// gpu-resident's kernel: each thread owns four adjacent columns (one vec4 of cell words) and
// walks p.run rows down them (up to 32; fewer on small worlds so enough threads exist),
// keeping the 3-cell row patterns (west, centre, east bits) of the rows above, at and below
// in registers: a row's patterns shifted into place form each cell's neighbourhood index.
// Per row it loads one vec4 plus the two cells beside it and stores one vec4, so DRAM traffic
// approaches one read and one write per cell: the copy-kernel roofline.
// The chunk pitch is a multiple of 4 (the host pads rows), so every quad is 16-byte aligned.

//!include life/common.wgsl

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> src4: array<vec4<u32>>;

// Alive flags of the quad at `x0` in buffer row `row` and of the cells left and right of it;
// cells beyond the world (dead border, or the padding after the last column) count as dead.
struct Quad {
    ages: vec4<u32>,
    pats: vec4<u32>, // alive bits of (x-1, x, x+1) as bits 2, 1, 0 for each of the four columns
}

fn cell(base: u32, x: i32) -> u32 {
    var c = x;
    if (c < 0) {
        if (p.torus == 0u) { return 0u; }
        c = i32(p.width) - 1;
    } else if (c >= i32(p.width)) {
        if (p.torus == 0u || c > i32(p.width)) { return 0u; }
        c = 0;
    }
    return alive(src[base + u32(c)]);
}

fn quad(x0: u32, row: u32) -> Quad {
    let base = buffer_row(row) * p.pitch;
    let ages = src4[(base + x0) / 4u];
    var a = vec4<u32>(alive(ages.x), alive(ages.y), alive(ages.z), alive(ages.w));
    if (x0 + 4u > p.width) {
        // The last, partial quad: lanes past the world are padding and count as dead, and
        // the right neighbour of the last column wraps (or is dead).
        let valid = p.width - x0;
        for (var i = valid; i < 4u; i++) {
            a[i] = 0u;
        }
        var right = vec4<u32>(a.y, a.z, a.w, 0u);
        right[valid - 1u] = cell(base, i32(p.width));
        let left = vec4<u32>(cell(base, i32(x0) - 1), a.x, a.y, a.z);
        return Quad(ages, left << vec4<u32>(2u) | a << vec4<u32>(1u) | right);
    }
    let left = vec4<u32>(cell(base, i32(x0) - 1), a.x, a.y, a.z);
    let right = vec4<u32>(a.y, a.z, a.w, cell(base, i32(x0) + 4));
    return Quad(ages, left << vec4<u32>(2u) | a << vec4<u32>(1u) | right);
}

fn next_words(words: vec4<u32>, index: vec4<u32>) -> vec4<u32> {
    return vec4<u32>(
        next_word(words.x, index.x),
        next_word(words.y, index.y),
        next_word(words.z, index.z),
        next_word(words.w, index.w),
    );
}

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x0 = id.x * 4u;
    let r0 = id.y * p.run;
    if (x0 >= p.width || r0 >= p.rows) {
        return;
    }
    let r1 = min(r0 + p.run, p.rows);
    // Buffer rows are world rows + 1 (row 0 is the halo above).
    var up = quad(x0, r0).pats;
    var mid = quad(x0, r0 + 1u);
    for (var r = r0; r < r1; r++) {
        let down = quad(x0, r + 2u);
        let index = up << vec4<u32>(6u) | mid.pats << vec4<u32>(3u) | down.pats;
        dst[((r + 1u) * p.pitch + x0) / 4u] = next_words(mid.ages, index);
        up = mid.pats;
        mid = down;
    }
}
