// gpu-radix8 ranked without subgroup operations (every device): the workgroup's 256 threads
// act as 8 virtual subgroups of 32 lanes. Every thread writes the digits of its KPT pairs into
// a table in workgroup memory (the staging array, free until the scatter) once; in each round
// a lane finds its peers by comparing its digit with the 32 of its virtual subgroup's round
// (broadcast reads), the highest peer adds their number to the subgroup's counter for that
// digit and leaves the old value in workgroup memory for its peers: one barrier a round (the
// shared values alternate between two halves, so a round's writes never meet the previous
// round's reads).

//!include lab/sort_radix8.wgsl
//!include lab/scan_wg_tree.wgsl

// Lanes of a virtual subgroup (a ballot fits one word).
const VIRTUAL_WIDTH: u32 = 32u;
// Digit value of a lane past the end of the input (matches no real digit).
const NO_DIGIT: u32 = 256u;

// What each round's highest peer read from its counter, two rounds' worth.
var<workgroup> shared_before: array<u32, 512>;

// Each pair's rank among its virtual subgroup's pairs of the same digit (see
// sort_radix8.wgsl), the subgroup's digit counts added to `group_counts`.
fn rank_pairs(lid: u32, width: u32, lane: u32, first: u32,
              pairs: array<vec2<u32>, KPT>) -> array<u32, KPT> {
    let group = lid / width;
    let lanes_below = (1u << lane) - 1u;
    var digits: array<u32, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        digits[r] = select(NO_DIGIT, digit(pairs[r]), first + r * width < params.n);
        staged[r * THREADS + lid] = digits[r];
    }
    workgroupBarrier();
    var ranks: array<u32, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        let d = digits[r];
        let row = r * THREADS + group * width;
        var peers = 0u;
        for (var j = 0u; j < VIRTUAL_WIDTH; j += 1u) {
            peers |= select(0u, 1u << j, staged[row + j] == d);
        }
        let leader = 31u - countLeadingZeros(peers); // peers holds this lane at least
        let slot = (r & 1u) * THREADS + group * width;
        if (d != NO_DIGIT && lane == leader) {
            let old = atomicAdd(&group_counts[group * 128u + (d >> 1u)],
                                countOneBits(peers) << (16u * (d & 1u)));
            shared_before[slot + lane] = half(old, d);
        }
        workgroupBarrier();
        ranks[r] = shared_before[slot + leader] + countOneBits(peers & lanes_below);
    }
    return ranks;
}

@compute @workgroup_size(256)
fn downsweep(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = group_index(wid, groups);
    if (tile < params.tiles) {
        scatter_tile(tile, lid, VIRTUAL_WIDTH, lid % VIRTUAL_WIDTH);
    }
}
