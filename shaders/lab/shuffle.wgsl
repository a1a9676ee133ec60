// Shuffles within groups of lanes: the subgroup built-ins or their workgroup-memory
// emulation (store, barrier, read the source lane's slot, barrier). Templated (the
// double-brace names below): the subgroups extension, the workgroup shape (256 threads,
// 1-D or 8×4×8), the emulated group width W, extra built-ins, the lane and group-width
// expressions, and which implementation shuffle() calls.
// Semantics (as the article's): indexed and xor wrap within the group; up and down
// return the thread's own value when the source lane is outside the group.
{{ENABLE}}

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

const W: u32 = {{W}}u;
var<workgroup> slots: array<u32, 256>;

// The source lane each op reads; out-of-group up/down sources read the thread's own lane.
fn source_lane(op: u32, d: u32, lane: u32, w: u32) -> u32 {
    switch op {
        case 0u: { return (lane + d) & (w - 1u); }
        case 1u: { return lane ^ (d & (w - 1u)); }
        case 2u: { return select(lane, lane - d, d <= lane); }
        default: { return select(lane, lane + d, lane + d < w); }
    }
}

fn emulated(x: u32, op: u32, d: u32, lane: u32, w: u32, flat: u32) -> u32 {
    slots[flat] = x;
    workgroupBarrier();
    let v = slots[flat - lane + source_lane(op, d, lane, w)];
    workgroupBarrier();
    return v;
}

{{BUILTIN_FN}}

fn shuffle(x: u32, op: u32, d: u32, lane: u32, w: u32, flat: u32) -> u32 {
    return {{SHUFFLE}}(x, op, d, lane, w, flat);
}

// One shuffle per thread; also records lane and group width for the CPU model.
@compute @workgroup_size({{WG}})
fn validate(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32{{ARGS}}
) {
    let gid = (wg.y * groups.x + wg.x) * 256u + li;
    let lane = {{LANE}};
    let w = {{WIDTH}};
    let v = shuffle(values[gid % arrayLength(&values)], params.op, params.delta, lane, w, li);
    if (gid < params.threads) {
        let at = params.extra + gid * 2u;
        results[at] = v;
        results[at + 1u] = lane | (w << 16u);
    }
}

// A chain of dependent shuffles per thread (the delta changes every iteration).
@compute @workgroup_size({{WG}})
fn timing(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32{{ARGS}}
) {
    let gid = (wg.y * groups.x + wg.x) * 256u + li;
    let lane = {{LANE}};
    let w = {{WIDTH}};
    var v = values[gid % arrayLength(&values)];
    for (var k = 0u; k < params.extra; k++) {
        v = shuffle(v, params.op, 1u + (params.delta + k) % max(w - 1u, 1u), lane, w, li) + k;
    }
    if (gid < params.threads) {
        results[gid] = v;
    }
}
