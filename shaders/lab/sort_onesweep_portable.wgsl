// gpu-onesweep ranked without subgroup operations (every device): the workgroup's threads act
// as virtual subgroups of 32 lanes. Every thread writes the digits of its KPT pairs into a
// table in `tile_mem` (after the counters) once; in each round a lane finds its peers by
// comparing its digit with the 32 of its virtual subgroup's round (broadcast reads), the
// highest peer adds their number to the subgroup's counter for that digit and leaves the old
// value in `tile_mem` for its peers: one barrier a round (the shared values alternate between
// two halves, so a round's writes never meet the previous round's reads).

//!include lab/sort_onesweep.wgsl
//!include lab/scan_wg_tree.wgsl

// Lanes of a virtual subgroup (a ballot fits one word).
const VIRTUAL_WIDTH: u32 = 32u;
// Where the digit table and the shared old values start in `tile_mem`.
const DIGIT_TABLE: u32 = MAX_GROUPS * 128u;
const SHARED_BEFORE: u32 = DIGIT_TABLE + TILE;

// Each pair's rank among its virtual subgroup's earlier pairs of the same digit (see
// sort_onesweep.wgsl), the subgroup's digit counts added to its counters in `tile_mem`.
fn rank_pairs(lid: u32, width: u32, lane: u32, first: u32,
              pairs: array<vec2<u32>, KPT>) -> array<u32, KPT> {
    let group = lid / width;
    let below = (1u << lane) - 1u;
    var digits: array<u32, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        digits[r] = select(NO_DIGIT, digit_of(pairs[r]), first + r * width < params.n);
        atomicStore(&tile_mem[DIGIT_TABLE + r * THREADS + lid], digits[r]);
    }
    workgroupBarrier();
    var ranks: array<u32, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        let d = digits[r];
        let row = DIGIT_TABLE + r * THREADS + group * width;
        var peers = 0u;
        for (var j = 0u; j < VIRTUAL_WIDTH; j += 1u) {
            peers |= select(0u, 1u << j, atomicLoad(&tile_mem[row + j]) == d);
        }
        let leader = 31u - countLeadingZeros(peers); // peers holds this lane at least
        let slot = SHARED_BEFORE + (r & 1u) * THREADS + group * width;
        if (d != NO_DIGIT && lane == leader) {
            let old = atomicAdd(&tile_mem[group * 128u + (d >> 1u)],
                                countOneBits(peers) << (16u * (d & 1u)));
            atomicStore(&tile_mem[slot + lane], half(old, d));
        }
        workgroupBarrier();
        ranks[r] = atomicLoad(&tile_mem[slot + leader]) + countOneBits(peers & below);
    }
    return ranks;
}

@compute @workgroup_size(THREADS)
fn binning(@builtin(local_invocation_index) lid: u32) {
    bin_tile(lid, VIRTUAL_WIDTH, lid % VIRTUAL_WIDTH);
}
