// B kernels (B2, B4, B8, B16): each thread loads K = 2^M elements at distance
// inc >> (M - 1) apart, does M bitonic steps (inc, inc/2, ...) in registers, stores them.
// Permutations: M = 1..=4 merged steps per pass.

//!include lab/sort_common.wgsl
//!const M: u32 // steps merged into one pass
const K: u32 = 1u << M;

@compute @workgroup_size(256)
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let t = flat_id(wg, groups, li, 256u);
    if (t >= params.threads) {
        return;
    }
    let s = params.inc >> (M - 1u);
    let low = t & (s - 1u);
    let base = ((t - low) << M) | low;
    var r: array<Pair, K>;
    for (var q = 0u; q < K; q++) {
        r[q] = load_pair(base + q * s);
    }
    let up = (base & params.block) == 0u;
    for (var d = K >> 1u; d > 0u; d >>= 1u) {
        for (var q = 0u; q < K; q++) {
            if ((q & d) == 0u) {
                let a = r[q];
                let b = r[q + d];
                if (before(b, a) == up) {
                    r[q] = b;
                    r[q + d] = a;
                }
            }
        }
    }
    for (var q = 0u; q < K; q++) {
        store_pair(base + q * s, r[q]);
    }
}
