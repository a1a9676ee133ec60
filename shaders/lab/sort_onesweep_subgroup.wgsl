// gpu-onesweep ranked by subgroup ballots (devices with subgroups of at most 32 lanes: a
// ballot is read as one word; the host checks). Eight ballots give each lane the lanes of its
// subgroup holding the same digit (its peers); the highest peer adds their number to the
// subgroup's counter for that digit and shares the old value by a shuffle.

//!include lab/sort_onesweep.wgsl
//!include lab/scan_wg_subgroup.wgsl

// Each pair's rank among its subgroup's earlier pairs of the same digit (see
// sort_onesweep.wgsl), the subgroup's digit counts added to its counters in `tile_mem`.
fn rank_pairs(lid: u32, width: u32, lane: u32, first: u32,
              pairs: array<vec2<u32>, KPT>) -> array<u32, KPT> {
    let group = lid / width;
    let below = (1u << lane) - 1u;
    var ranks: array<u32, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        let valid = first + r * width < params.n;
        let d = digit_of(pairs[r]);
        var peers = subgroupBallot(valid).x;
        for (var b = 0u; b < 8u; b += 1u) {
            let one = ((d >> b) & 1u) != 0u;
            let votes = subgroupBallot(one).x;
            peers &= select(~votes, votes, one);
        }
        let leader = select(lane, 31u - countLeadingZeros(peers), peers != 0u);
        var before = 0u;
        if (valid && lane == leader) {
            let old = atomicAdd(&tile_mem[group * 128u + (d >> 1u)],
                                countOneBits(peers) << (16u * (d & 1u)));
            before = half(old, d);
        }
        ranks[r] = subgroupShuffle(before, leader) + countOneBits(peers & below);
    }
    return ranks;
}

@compute @workgroup_size(THREADS)
fn binning(@builtin(local_invocation_index) lid: u32,
           @builtin(subgroup_size) width: u32,
           @builtin(subgroup_invocation_id) lane: u32) {
    bin_tile(lid, width, lane);
}
