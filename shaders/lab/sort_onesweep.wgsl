// gpu-onesweep: LSD radix sort of key + index pairs with 8-bit digits in one sweep a digit
// (the design of Adinets & Merrill's Onesweep). Kernels, in order:
// - reset: zeroes the status buffer (global counts, tickets, every pass's tile rows);
// - histogram: the counts of all four digits of every key at once (one read of the pairs),
//   added into the global counts (status words 0..1024, digit-major by pass);
// - seed: each pass's global counts scanned into row 0 of its look-back rows, as inclusive
//   prefixes (where each digit starts in the output);
// - binning, once a digit: one workgroup a tile, tiles taken in order from the pass's ticket
//   counter; the tile's pairs ranked stably by digit (`rank_pairs`, subgroup ballots or the
//   portable virtual subgroups), its digit counts published as aggregates, a look-back over
//   the earlier tiles' rows (one thread a digit) for where each digit starts, its inclusive
//   prefixes published, and the pairs written out through workgroup memory in digit order
//   (keys, then indices). Each pass reads and writes every pair once.
//
// Status words (binding 2): [0, 1024) the global digit counts (pass · 256 + digit), [1024,
// 1028) the passes' ticket counters, then for pass p and row r (row 0: the seed, row t + 1:
// tile t) 256 words at HEADER + 256 · (p · (tiles + 1) + r). A word is a flag in its top two
// bits (0 nothing yet, 1 the tile's own count, 2 the inclusive prefix) over a 30-bit count, so
// one relaxed atomic load sees a whole publication (n < 2^30).
//
// No forward progress between workgroups is assumed: a digit whose predecessor row stays
// silent for SPIN rounds stops waiting, the workgroup counts that tile's digits itself (one
// read of its keys) and the walk goes on past it (as the single-pass scan does,
// lab/scan_lookback.wgsl). The result is the same either way; only the time differs.
//
// Keys map to u32 so that unsigned order is float order (lab/radix_key.wgsl); the sort is
// stable, so equal keys keep index order. The including file defines `rank_pairs`, the
// workgroup scan `wg_scan` (lab/scan_wg_*.wgsl) and the `binning` entry point around
// `bin_tile`.

//!include lab/radix_key.wgsl

//!const THREADS: u32 // threads a workgroup (256 or 512); threads 0..255 own a digit each
//!const KPT: u32 // pairs a thread: a tile is THREADS · KPT pairs
//!const MAX_GROUPS: u32 // (virtual) subgroups a workgroup at the smallest subgroup size
//!const SCRATCH: u32 // words of tile_mem: the tile's staging, the ranking's counters and tables
//!const SPLIT: bool = false // the tile staged in `staged` (plain words) instead of in tile_mem
//!const STAGED: u32 = 1u // words of `staged`: TILE when SPLIT
//!const SPIN: u32 = 64u // silent look-back rounds before a workgroup counts the tile itself
//!const TRUST: bool = true // false: ignore every tile's publication (tests the fallback alone)

struct Params {
    shift: u32,      // binning: the pass's digit is bits shift..shift + 8 of the mapped key
    n: u32,          // pairs
    tiles: u32,      // tiles of TILE pairs
    descending: u32,
    sweep: u32,      // binning: the pass, 0..3 (its tickets and rows)
    kpt: u32,        // KPT again, as a value the compiler cannot see (the fallback's loop)
    chunk: u32,      // histogram: pairs a workgroup
    pad: u32,
}

@group(0) @binding(0) var<storage, read> src: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

const RADIX: u32 = 256u;
const TILE: u32 = THREADS * KPT;
// Words before the first pass's rows: the global counts, then a row holding the tickets.
const TICKETS: u32 = 1024u;
const HEADER: u32 = 1280u;
const AGGREGATE: u32 = 0x40000000u;
const INCLUSIVE: u32 = 0x80000000u;
const VALUE: u32 = 0x3fffffffu;
// A lane's digit past the end of the input (matches no real digit).
const NO_DIGIT: u32 = 256u;
// Pairs a histogram thread loads before it counts them (requests in flight).
const HIST_BATCH: u32 = 8u;

// The tile: per-subgroup digit counters first (128 words a subgroup: digits 2k and 2k + 1 as
// the two 16-bit halves of word k; a subgroup's slice has fewer than 2^16 pairs), later the
// fallback's 256 bins, last the pairs in digit order (keys, then indices) unless SPLIT stages
// them in `staged` (plain words beside the atomic ones: more workgroup memory, no atomics).
var<workgroup> tile_mem: array<atomic<u32>, SCRATCH>;
var<workgroup> staged: array<u32, STAGED>;
// Where each digit starts in the tile; after the look-back, global start − tile start.
var<workgroup> digit_offset: array<u32, 256>;
var<workgroup> ticket: u32;
// The highest row a stalled digit waits on (0: none), and its uniform copy.
var<workgroup> stuck: atomic<u32>;
var<workgroup> stuck_row: u32;
var<workgroup> hist_bins: array<atomic<u32>, 1024>;

fn row_word(row: u32, digit: u32) -> u32 {
    return HEADER + RADIX * (params.sweep * (params.tiles + 1u) + row) + digit;
}

fn digit_of(p: vec2<u32>) -> u32 {
    return (radix_key(p.x, params.descending != 0u) >> params.shift) & 0xffu;
}

// Stage word `v` at position i of the tile in digit order, and read it back.
fn stage(i: u32, v: u32) {
    if (SPLIT) {
        staged[i] = v;
    } else {
        atomicStore(&tile_mem[i], v);
    }
}

fn unstage(i: u32) -> u32 {
    if (SPLIT) {
        return staged[i];
    }
    return atomicLoad(&tile_mem[i]);
}

// The 16-bit half of a packed counter word that belongs to digit d.
fn half(word: u32, d: u32) -> u32 {
    return (word >> (16u * (d & 1u))) & 0xffffu;
}

@compute @workgroup_size(256)
fn reset(@builtin(global_invocation_id) gid: vec3<u32>,
         @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i < HEADER + 4u * RADIX * (params.tiles + 1u)) {
        atomicStore(&status[i], 0u);
    }
}

@compute @workgroup_size(THREADS)
fn histogram(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) groups: vec3<u32>) {
    for (var k = lid; k < 4u * RADIX; k += THREADS) {
        atomicStore(&hist_bins[k], 0u);
    }
    workgroupBarrier();
    let start = (wid.y * groups.x + wid.x) * params.chunk;
    let end = min(start + params.chunk, params.n);
    let descending = params.descending != 0u;
    for (var base = start; base < end; base += THREADS * HIST_BATCH) {
        var keys: array<u32, HIST_BATCH>;
        for (var j = 0u; j < HIST_BATCH; j += 1u) {
            keys[j] = src[min(base + j * THREADS + lid, params.n - 1u)].x;
        }
        for (var j = 0u; j < HIST_BATCH; j += 1u) {
            if (base + j * THREADS + lid < end) {
                let k = radix_key(keys[j], descending);
                atomicAdd(&hist_bins[k & 0xffu], 1u);
                atomicAdd(&hist_bins[RADIX + ((k >> 8u) & 0xffu)], 1u);
                atomicAdd(&hist_bins[2u * RADIX + ((k >> 16u) & 0xffu)], 1u);
                atomicAdd(&hist_bins[3u * RADIX + (k >> 24u)], 1u);
            }
        }
    }
    workgroupBarrier();
    for (var k = lid; k < 4u * RADIX; k += THREADS) {
        let c = atomicLoad(&hist_bins[k]);
        if (c != 0u) {
            atomicAdd(&status[k], c);
        }
    }
}

// Workgroup p writes pass p's row 0: where each digit starts, as inclusive prefixes.
@compute @workgroup_size(THREADS)
fn seed(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let sweep = wid.x;
    let digit = min(lid, RADIX - 1u);
    let count = select(0u, atomicLoad(&status[sweep * RADIX + digit]), lid < RADIX);
    let start = wg_scan(count, lid).x;
    if (lid < RADIX) {
        atomicStore(&status[HEADER + RADIX * sweep * (params.tiles + 1u) + lid], INCLUSIVE | start);
    }
}

// How many of tile t's keys have digit `lid` (the fallback for a silent predecessor; all
// threads call it: uniform control flow). One key in flight a thread: the loop's bound is not
// known to the compiler, so it keeps no second tile in registers.
fn fallback_count(t: u32, lid: u32) -> u32 {
    for (var k = lid; k < RADIX; k += THREADS) {
        atomicStore(&tile_mem[k], 0u);
    }
    workgroupBarrier();
    for (var j = 0u; j < params.kpt; j += 1u) {
        let i = t * TILE + j * THREADS + lid;
        if (i < params.n) {
            atomicAdd(&tile_mem[digit_of(src[i])], 1u);
        }
    }
    workgroupBarrier();
    let count = atomicLoad(&tile_mem[min(lid, RADIX - 1u)]);
    workgroupBarrier();
    return count;
}

// Where digit `lid` (threads below 256) starts in the output before `tile`'s pairs of it: the
// walk back over the earlier tiles' rows to an inclusive prefix (row 0 always holds one). All
// threads call it (uniform control flow); it passes at least one barrier before it touches
// tile_mem.
fn look_back(tile: u32, lid: u32) -> u32 {
    var row = tile; // the next row to read: tile row − 1's, or the seed
    var sum = 0u;
    var done = lid >= RADIX;
    loop {
        var stalled = 0u;
        loop {
            if (done || stalled > SPIN) {
                break;
            }
            let word = atomicLoad(&status[row_word(row, lid)]);
            let flag = word & ~VALUE;
            if (flag != 0u && (TRUST || row == 0u)) {
                sum += word & VALUE;
                done = flag == INCLUSIVE;
                row -= select(1u, 0u, done);
                stalled = 0u;
            } else {
                stalled += 1u;
            }
        }
        if (!done) {
            atomicMax(&stuck, row);
        }
        workgroupBarrier();
        if (lid == 0u) {
            stuck_row = atomicLoad(&stuck);
            atomicStore(&stuck, 0u);
        }
        let r = workgroupUniformLoad(&stuck_row);
        if (r == 0u) {
            break;
        }
        // Row r (tile r − 1) stayed silent: count that tile's digits here.
        let count = fallback_count(r - 1u, lid);
        if (!done && row == r) {
            sum += count;
            row -= 1u;
        }
    }
    return sum;
}

// The binning pass for thread `lid`, lane `lane` of a (virtual) subgroup of `width` lanes
// (every thread of the workgroup calls it: uniform control flow).
fn bin_tile(lid: u32, width: u32, lane: u32) {
    if (lid == 0u) {
        ticket = atomicAdd(&status[TICKETS + params.sweep], 1u);
        atomicStore(&stuck, 0u);
    }
    for (var k = lid; k < MAX_GROUPS * 128u; k += THREADS) {
        atomicStore(&tile_mem[k], 0u);
    }
    let tile = workgroupUniformLoad(&ticket);
    // A 2-D grid can have more groups than tiles; the first tickets go to real tiles.
    if (tile >= params.tiles) {
        return;
    }
    let group = lid / width;
    let base = tile * TILE;
    // Each subgroup ranks a contiguous slice of the tile, one pair a lane a round: pair r of
    // this lane is `first + r · width`. Every load first (KPT requests in flight a thread).
    let first = base + group * width * KPT + lane;
    var pairs: array<vec2<u32>, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        pairs[r] = src[min(first + r * width, params.n - 1u)];
    }
    let ranks = rank_pairs(lid, width, lane, first, pairs);
    workgroupBarrier();
    // Counters → where each subgroup's run of each digit starts within the tile's run of it
    // (both halves of a word at once: no half exceeds TILE < 2^16, so none carries).
    if (lid < RADIX / 2u) {
        var running = 0u;
        for (var g = 0u; g < THREADS / width; g += 1u) {
            let c = atomicLoad(&tile_mem[g * 128u + lid]);
            atomicStore(&tile_mem[g * 128u + lid], running);
            running += c;
        }
        digit_offset[2u * lid] = running & 0xffffu;
        digit_offset[2u * lid + 1u] = running >> 16u;
    }
    workgroupBarrier();
    let total = select(0u, digit_offset[min(lid, RADIX - 1u)], lid < RADIX);
    if (lid < RADIX) {
        atomicStore(&status[row_word(tile + 1u, lid)], AGGREGATE | total);
    }
    let start = wg_scan(total, lid).x;
    if (lid < RADIX) {
        digit_offset[lid] = start;
    }
    workgroupBarrier();
    var slots: array<u32, KPT>;
    for (var r = 0u; r < KPT; r += 1u) {
        slots[r] = TILE; // past the end: not staged
        if (first + r * width < params.n) {
            let d = digit_of(pairs[r]);
            let earlier = half(atomicLoad(&tile_mem[group * 128u + (d >> 1u)]), d);
            slots[r] = digit_offset[d] + earlier + ranks[r];
        }
    }
    let before = look_back(tile, lid);
    if (lid < RADIX) {
        atomicStore(&status[row_word(tile + 1u, lid)], INCLUSIVE | ((before + total) & VALUE));
        digit_offset[lid] = before - digit_offset[lid];
    }
    for (var r = 0u; r < KPT; r += 1u) {
        if (slots[r] < TILE) {
            stage(slots[r], pairs[r].x);
        }
    }
    workgroupBarrier();
    var keys: array<u32, KPT>;
    for (var j = 0u; j < KPT; j += 1u) {
        keys[j] = unstage(min(j * THREADS + lid, TILE - 1u));
    }
    workgroupBarrier();
    for (var r = 0u; r < KPT; r += 1u) {
        if (slots[r] < TILE) {
            stage(slots[r], pairs[r].y);
        }
    }
    workgroupBarrier();
    let count = min(TILE, params.n - base);
    for (var j = 0u; j < KPT; j += 1u) {
        let s = j * THREADS + lid;
        if (s < count) {
            let p = vec2<u32>(keys[j], unstage(s));
            dst[digit_offset[digit_of(p)] + s] = p;
        }
    }
}
