// Shuffles within groups of lanes, shared by both implementations: the subgroup built-ins
// (shuffle_builtin.wgsl, entry points in shuffle_subgroup_1d.wgsl / shuffle_subgroup_3d.wgsl)
// and their workgroup-memory emulation (shuffle_emulated.wgsl). The including file defines
// `fn shuffle(x, op, d, lane, w, flat) -> u32` and the two entry points, which call
// `validate_lane` and `timing_lane` below with their lane and group width.
// Semantics (as the article's): indexed and xor wrap within the group; up and down
// return the thread's own value when the source lane is outside the group.
// Permutations: the workgroup shape WG_X × WG_Y × WG_Z (256 threads, 1-D or 8×4×8).

//!const WG_X: u32
//!const WG_Y: u32
//!const WG_Z: u32

// params: op (0 indexed, 1 xor, 2 up, 3 down), delta, threads, output offset (validate)
// or iterations (timing).
struct Params {
    op: u32,
    delta: u32,
    threads: u32,
    extra: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
}

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> results: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

// The source lane each op reads; out-of-group up/down sources read the thread's own lane.
fn source_lane(op: u32, d: u32, lane: u32, w: u32) -> u32 {
    switch op {
        case 0u: { return (lane + d) & (w - 1u); }
        case 1u: { return lane ^ (d & (w - 1u)); }
        case 2u: { return select(lane, lane - d, d <= lane); }
        default: { return select(lane, lane + d, lane + d < w); }
    }
}

// The thread's index in the (2-D) grid of 256-thread workgroups.
fn thread_id(wg: vec3<u32>, groups: vec3<u32>, li: u32) -> u32 {
    return (wg.y * groups.x + wg.x) * 256u + li;
}

// One shuffle per thread; also records lane and group width for the CPU model.
fn validate_lane(gid: u32, li: u32, lane: u32, w: u32) {
    let v = shuffle(values[gid % arrayLength(&values)], params.op, params.delta, lane, w, li);
    if (gid < params.threads) {
        let at = params.extra + gid * 2u;
        results[at] = v;
        results[at + 1u] = lane | (w << 16u);
    }
}

// A chain of dependent shuffles per thread (the delta changes every iteration).
fn timing_lane(gid: u32, li: u32, lane: u32, w: u32) {
    var v = values[gid % arrayLength(&values)];
    for (var k = 0u; k < params.extra; k++) {
        v = shuffle(v, params.op, 1u + (params.delta + k) % max(w - 1u, 1u), lane, w, li) + k;
    }
    if (gid < params.threads) {
        results[gid] = v;
    }
}
