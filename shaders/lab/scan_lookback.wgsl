// The single-pass scan: decoupled look-back (Merrill & Garland) with a decoupled fallback, so
// it assumes no forward progress between workgroups. Each workgroup takes the next tile from
// a ticket counter (tiles start in order), scans it, publishes its aggregate, then walks back
// over its predecessors' published aggregates until it meets an inclusive prefix, publishes
// its own inclusive prefix and writes its values: each value read once and written once.
//
// No forward progress is assumed: a predecessor that has not published after SPIN rounds of
// looking may not be running at all (WebGPU and Vulkan do not promise that a started
// workgroup keeps being scheduled beside a spinning one), so the waiting workgroup reduces
// that predecessor's tile itself and goes on past it. The result is the same either way; only
// the time differs. A value is published as two 16-bit halves, each in its own atomic word
// with a ready bit, so a reader never sees half of one publication (WGSL's atomics are
// relaxed: no ordering between two words can be relied on).
//
// Bindings: src, dst, status (lines of STRIDE words: line 0 holds the ticket counter in word
// 0; tile t uses the first four words of line t + 1, the aggregate's low/high and the
// inclusive prefix's low/high halves, the rest is padding);
// `reset` zeroes status before each run. The including file defines `wg_scan4` and
// `wg_reduce`, and `look_back(tile, lid)`, the walk over the predecessors
// (lab/scan_lookback_wg.wgsl by the whole workgroup, or lab/scan_lookback_subgroup.wgsl by
// one subgroup).

@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;

//!include lab/scan_tile.wgsl

//!const SPIN: u32 = 64u // stalled look-back rounds before a workgroup reduces the tile itself
//!const TRUST: bool = true // false: ignore every publication (tests the fallback alone)

const READY: u32 = 0x10000u;
const AGGREGATE: u32 = 0u;
const INCLUSIVE: u32 = 2u;
//!const STRIDE: u32 = 32u // status words a line: tile t's four lead line t + 1 (line 0: the ticket)
// A tile's publications lie in a line of their own. Packed four words a tile, every look-back
// round's reads and every publication of eight neighbouring tiles met in one line, whose L2
// slice serves them one after another while the stream saturates the memory system: the
// round's latency was that queue (H200, docs/lab.md: 76 % of copy packed, 80 % at 32 bytes a
// tile, 83 % at a line a tile).
fn slot(tile: u32, kind: u32) -> u32 {
    return STRIDE * (tile + 1u) + kind;
}

fn publish(tile: u32, kind: u32, value: u32) {
    atomicStore(&status[slot(tile, kind)], READY | (value & 0xffffu));
    atomicStore(&status[slot(tile, kind) + 1u], READY | (value >> 16u));
}

// (ready, value) of one publication.
fn peek(tile: u32, kind: u32) -> vec2<u32> {
    let low = atomicLoad(&status[slot(tile, kind)]);
    let high = atomicLoad(&status[slot(tile, kind) + 1u]);
    let ready = TRUST && (low & high & READY) != 0u;
    return vec2<u32>(select(0u, 1u, ready), (low & 0xffffu) | (high << 16u));
}

// What tile `t` has published, as (0 nothing yet | 1 its aggregate | 2 its inclusive prefix,
// value): both publications are read at once, the inclusive one counts first.
fn published(t: u32) -> vec2<u32> {
    let inclusive = peek(t, INCLUSIVE);
    let aggregate = peek(t, AGGREGATE);
    if (inclusive.x != 0u) {
        return vec2<u32>(2u, inclusive.y);
    }
    if (aggregate.x != 0u) {
        return vec2<u32>(1u, aggregate.y);
    }
    return vec2<u32>(0u, 0u);
}

// The sum of every value of `tile` for the fallback, one vec4 in flight per thread at a time:
// the loop runs to `params.rows` (= ROWS, but not known to the compiler), so it cannot be
// unrolled into loads of the whole tile. Holding a second tile in registers beside the
// workgroup's own, as `tile_total` does, sets the register count of the whole kernel — and so
// how many workgroups an SM holds — although the fallback rarely runs.
fn fallback_total(tile: u32, lid: u32) -> u32 {
    var own = 0u;
    for (var k = 0u; k < params.rows; k += 1u) {
        let x = load_vec(vec_index(tile, k, lid));
        own += x.x + x.y + x.z + x.w;
    }
    return wg_reduce(own, lid);
}

@compute @workgroup_size(256)
fn reset(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i < STRIDE * (params.tiles + 1u)) {
        atomicStore(&status[i], 0u);
    }
}

var<workgroup> ticket: u32;

@compute @workgroup_size(THREADS)
fn scan_lookback(@builtin(local_invocation_index) lid: u32) {
    if (lid == 0u) {
        ticket = atomicAdd(&status[0], 1u);
    }
    let tile = workgroupUniformLoad(&ticket);
    // A 2-D grid can have more groups than tiles; the first tickets go to real tiles.
    if (tile >= params.tiles) {
        return;
    }
    let scanned = scan_tile_values(load_thread(tile, lid), lid);
    if (lid == 0u) {
        publish(tile, select(AGGREGATE, INCLUSIVE, tile == 0u), scanned.total);
    }
    let exclusive = look_back(tile, lid);
    if (lid == 0u && tile != 0u) {
        publish(tile, INCLUSIVE, exclusive + scanned.total);
    }
    store_thread(tile, lid, scanned.v, exclusive);
}
