// LSD radix sort of key + index pairs with 8-bit digits: 4 passes, each of
// - upsweep: one workgroup a run of `params.sub` consecutive tiles, the tiles one after
//   another: the run's 256 digit counts, written digit-major (hist[digit · runs + run]), and
//   for each tile where its digits start within the run (tile_hist[tile · 256 + digit], 1 KiB
//   a tile, coalesced);
// - a device-wide exclusive scan of the run counts (lab/scan_*.wgsl): digit-major order makes
//   each entry exactly where that run's pairs of that digit start in the output;
// - downsweep: one workgroup a tile: its digit starts (the run's, plus the tile's within the
//   run), the tile's pairs ranked stably by digit with subgroup ballots, staged in workgroup
//   memory in digit order (keys, then indices), and written out in runs (coalesced within a
//   run).
// Counting per run rather than per tile divides the digit-major counts — written, scanned and
// read as scattered 4-byte words — by `sub`, while the scatter keeps one workgroup a tile.
//
// Ranking (the warp-level multisplit of Onesweep/GPUSorting): each subgroup owns a contiguous
// slice of the tile and walks it in rounds of one pair per lane; a pair's rank is (its
// subgroup's earlier rounds' count of its digit) + (lanes below it in this round with the same
// digit, its peers). Two forms define `rank_pairs` and the `downsweep` entry point around
// `scatter_tile`: sort_radix8_subgroup.wgsl finds peers by subgroup ballots,
// sort_radix8_portable.wgsl by 32-lane virtual subgroups in workgroup memory (every device).
// Counters of digits 2k and 2k+1 share a word as two 16-bit halves (a tile has at most 4096
// pairs, so a half never carries), which keeps 32 subgroups of 8 lanes (lavapipe) within
// workgroup memory.

// Keys map to u32 so that unsigned order is float order (lab/radix_common.wgsl); the sort is
// stable, so equal keys keep index order.

//!include lab/radix_common.wgsl

//!const KPT: u32 // pairs per thread: a tile is 256 · KPT pairs
//!const MAX_GROUPS: u32 // subgroups per workgroup at the device's smallest subgroup size

@group(0) @binding(0) var<storage, read> src: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec2<u32>>;
// upsweep: the run counts it writes; downsweep: their scan (where each run's digits start).
@group(0) @binding(2) var<storage, read_write> hist: array<u32>;
// Where each tile's digits start within its run.
@group(0) @binding(3) var<storage, read_write> tile_hist: array<u32>;
@group(0) @binding(4) var<uniform> params: Params;

const THREADS: u32 = 256u;
const TILE: u32 = THREADS * KPT;

var<workgroup> bins: array<atomic<u32>, 256>;
var<workgroup> group_counts: array<atomic<u32>, MAX_GROUPS * 128u>;
var<workgroup> digit_start: array<u32, 256>;
var<workgroup> global_start: array<u32, 256>;
// The tile in digit order: keys, then indices (one 4-byte array instead of one 8-byte one:
// on the H200 each KiB of workgroup memory a workgroup holds costs resident workgroups).
var<workgroup> staged: array<u32, TILE>;

fn digit(p: vec2<u32>) -> u32 {
    return (radix_key(p.x, params.descending != 0u) >> params.shift) & 0xffu;
}

fn group_index(wid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wid.y * groups.x + wid.x;
}

fn runs() -> u32 {
    return (params.tiles + params.sub - 1u) / params.sub;
}

@compute @workgroup_size(256)
fn upsweep(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) groups: vec3<u32>) {
    let run = group_index(wid, groups);
    if (run >= runs()) {
        return;
    }
    var within = 0u; // this run's pairs of digit `lid` in the tiles so far
    for (var t = run * params.sub; t < min((run + 1u) * params.sub, params.tiles); t += 1u) {
        atomicStore(&bins[lid], 0u);
        workgroupBarrier();
        // Every load of the tile first (KPT requests in flight per thread), then the counting.
        let base = t * TILE;
        var digits: array<u32, KPT>;
        for (var j = 0u; j < KPT; j += 1u) {
            let i = base + j * THREADS + lid;
            digits[j] = select(256u, digit(src[min(i, params.n - 1u)]), i < params.n);
        }
        for (var j = 0u; j < KPT; j += 1u) {
            if (digits[j] < 256u) {
                atomicAdd(&bins[digits[j]], 1u);
            }
        }
        workgroupBarrier();
        tile_hist[t * 256u + lid] = within;
        within += atomicLoad(&bins[lid]);
    }
    hist[lid * runs() + run] = within;
}

// The 16-bit half of a packed counter word that belongs to digit d.
fn half(word: u32, d: u32) -> u32 {
    return (word >> (16u * (d & 1u))) & 0xffffu;
}

// The downsweep of `tile` by thread `lid`, lane `lane` of a subgroup of `width` lanes (every
// thread of the workgroup calls it: uniform control flow).
fn scatter_tile(tile: u32, lid: u32, width: u32, lane: u32) {
    for (var k = lid; k < MAX_GROUPS * 128u; k += THREADS) {
        atomicStore(&group_counts[k], 0u);
    }
    workgroupBarrier();
    let group = lid / width;
    let base = tile * TILE;
    // Each subgroup ranks a contiguous slice of the tile, one pair a lane a round: pair r of
    // this lane is `first + r · width`.
    let first = base + group * width * KPT + lane;
    var pairs: array<vec2<u32>, KPT>;
    // Every load first (KPT requests in flight per thread), then the ranking rounds.
    for (var r = 0u; r < KPT; r += 1u) {
        pairs[r] = src[min(first + r * width, params.n - 1u)];
    }
    let ranks = rank_pairs(lid, width, lane, first, pairs);
    workgroupBarrier();
    // Counters → where each subgroup's run of each digit starts within the tile's run of that
    // digit (both halves of a word at once: no half exceeds TILE < 2^16, so none carries).
    if (lid < 128u) {
        var running = 0u;
        for (var g = 0u; g < THREADS / width; g += 1u) {
            let c = atomicLoad(&group_counts[g * 128u + lid]);
            atomicStore(&group_counts[g * 128u + lid], running);
            running += c;
        }
        digit_start[2u * lid] = running & 0xffffu;
        digit_start[2u * lid + 1u] = running >> 16u;
    }
    workgroupBarrier();
    let total = digit_start[lid];
    global_start[lid] = hist[lid * runs() + tile / params.sub] + tile_hist[tile * 256u + lid];
    digit_start[lid] = wg_scan(total, lid).x;
    workgroupBarrier();
    var slots: array<u32, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        slots[r] = TILE; // past the end: not staged
        if (first + r * width < params.n) {
            let d = digit(pairs[r]);
            let earlier = half(atomicLoad(&group_counts[group * 128u + (d >> 1u)]), d);
            slots[r] = digit_start[d] + earlier + ranks[r];
            staged[slots[r]] = pairs[r].x;
        }
    }
    workgroupBarrier();
    let count = min(TILE, params.n - base);
    var keys: array<u32, KPT>;
    for (var j = 0u; j < KPT; j += 1u) {
        keys[j] = staged[min(j * THREADS + lid, TILE - 1u)];
    }
    workgroupBarrier();
    for (var r = 0u; r < KPT; r += 1u) {
        if (slots[r] < TILE) {
            staged[slots[r]] = pairs[r].y;
        }
    }
    workgroupBarrier();
    for (var j = 0u; j < KPT; j += 1u) {
        let s = j * THREADS + lid;
        if (s < count) {
            let p = vec2<u32>(keys[j], staged[s]);
            let d = digit(p);
            dst[global_start[d] + s - digit_start[d]] = p;
        }
    }
}
