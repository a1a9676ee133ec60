// C kernels (C2, C4): once the compare distance fits in a workgroup's block of W
// elements, one pass loads the block into workgroup memory, does every remaining step of
// the stage there (C2: one step per barrier; C4: two steps per barrier, four elements
// per thread in registers) and writes the block back.
// Permutations: W elements per workgroup (a power of two, 512..=8192), C4 (two steps per
// barrier) or C2.

//!include lab/sort_common.wgsl
//!const W: u32 // elements per workgroup block
//!const C4: bool // two steps per barrier
const THREADS: u32 = 256u;

var<workgroup> tile: array<Pair, W>;

fn exchange(i: u32, j: u32, start: u32) {
    if (start + j >= params.n) {
        return;
    }
    let a = tile[i];
    let b = tile[j];
    let up = ((start + i) & params.block) == 0u;
    if (before(b, a) == up) {
        tile[i] = b;
        tile[j] = a;
    }
}

@compute @workgroup_size(256)
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let g = wg.y * groups.x + wg.x;
    let start = g * W;
    if (start >= params.n) {
        return;
    }
    for (var e = li; e < W; e += THREADS) {
        if (start + e < params.n) {
            tile[e] = load_pair(start + e);
        }
    }
    workgroupBarrier();
    var inc = params.inc;
    if (C4) {
        for (; inc >= 2u; inc >>= 2u) {
            let s = inc >> 1u;
            for (var q = li; q < W / 4u; q += THREADS) {
                let low = q & (s - 1u);
                let b = ((q - low) << 2u) | low;
                exchange(b, b + inc, start);
                exchange(b + s, b + s + inc, start);
                exchange(b, b + s, start);
                exchange(b + inc, b + inc + s, start);
            }
            workgroupBarrier();
        }
    }
    for (; inc >= 1u; inc >>= 1u) {
        for (var p = li; p < W / 2u; p += THREADS) {
            let low = p & (inc - 1u);
            let i = (p << 1u) - low;
            exchange(i, i + inc, start);
        }
        workgroupBarrier();
    }
    for (var e = li; e < W; e += THREADS) {
        if (start + e < params.n) {
            store_pair(start + e, tile[e]);
        }
    }
}
