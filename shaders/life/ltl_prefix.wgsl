// Larger than Life, pass 1 (src/step/gpu_cells/ltl/mod.rs): each row's prefix sums of its
// state-1 cells over the row extended by r columns on each side (wrapped on a torus, dead
// beyond a dead border): P[i] counts extended columns 0..i, extended column j being world
// column j - r. Sums are 16-bit (a row has fewer than 65 536 extended columns), two to a
// word: P[i] of row y is half (i + 1) of the row's `stride` halves, so that each thread's
// eight sums fill four whole words. One workgroup scans one row in blocks of 2048
// (gpu/workgroup_scan.wgsl).

//!include life/ltl_params.wgsl

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> prefix: array<u32>;

//!include gpu/workgroup_scan.wgsl

// 1 when extended column j of world row y holds a state-1 cell.
fn live_at(y: u32, j: u32) -> u32 {
    let x = i32(j) - i32(p.range);
    var col = x;
    if (x < 0 || x >= i32(p.width)) {
        if (p.torus == 0u) {
            return 0u;
        }
        col = ((x % i32(p.width)) + i32(p.width)) % i32(p.width);
    }
    return state1(src[(y + 1u) * p.pitch + u32(col)]);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>) {
    let y = group.x + group.y * 65535u;
    if (y >= p.height) {
        return;
    }
    let t = local.x;
    let n = p.width + 2u * p.range; // extended columns
    let row_words = p.stride / 2u;
    let base = y * row_words;
    var carry = 0u;
    for (var block = 0u; block < n; block += 2048u) {
        let j0 = block + 8u * t;
        var v: array<u32, 8>;
        var total = 0u;
        for (var k = 0u; k < 8u; k++) {
            if (j0 + k < n) {
                total += live_at(y, j0 + k);
            }
            v[k] = total;
        }
        let scanned = workgroup_scan(t, total);
        let before = carry + scanned.x - total;
        // P[j0 + 1 + k] = before + v[k] sits at half j0 + 2 + k: words (j0 + 2) / 2 + k / 2.
        for (var k = 0u; k < 8u; k += 2u) {
            let word = (j0 + 2u + k) / 2u;
            if (word < row_words) {
                prefix[base + word] = (before + v[k]) | ((before + v[k + 1u]) << 16u);
            }
        }
        carry += scanned.y;
    }
    if (t == 0u) {
        prefix[base] = 0u; // P[0] = 0 (half 1) and the unused half 0
    }
}
