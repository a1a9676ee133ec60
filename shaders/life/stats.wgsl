// Population, cells per state (2 and up) and normalized-age histogram of a device-resident chunk, reduced
// on the GPU (workgroup atomics, then one global atomic per counter per workgroup). Matches
// the host's exact integer formula: norm = min(100, floor((age - 1) * 100 / generation)). Cell
// words are ages, or under Generations age + LIVE_BASE / LIVE_BASE - state (common.wgsl).

struct StatsParams {
    width: u32,
    rows: u32,
    pitch: u32,
    col0: u32,
    generation: u32, // at least 1
    buckets: u32,    // at most 64
    out_offset: u32, // where this chunk's buckets + population go in `out`
    dying_slot: u32, // where every chunk adds its cells per state in `out` (slot + state)
    states: u32,     // Generations states C; 2 for two-state rules
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

//!include gpu/view_value.wgsl

@group(0) @binding(0) var<uniform> s: StatsParams;
@group(0) @binding(1) var<storage, read> cells: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<atomic<u32>>;

var<workgroup> local_counts: array<atomic<u32>, 65>; // buckets, population (64)
var<workgroup> local_states: array<atomic<u32>, 256>; // cells per state (2 and up)

// a * b as (low, high) 32-bit words.
fn mul64(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu; let a1 = a >> 16u;
    let b0 = b & 0xffffu; let b1 = b >> 16u;
    let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    let lo = (p00 & 0xffffu) | (mid << 16u);
    let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
    return vec2<u32>(lo, hi);
}

fn le64(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x <= b.x);
}

fn normalized(age: u32, generation: u32) -> u32 {
    if (age >= generation) {
        return 100u;
    }
    let scaled = mul64(age, 100u);
    var q = min(99u, u32(f32(age) / f32(generation) * 100.0));
    // Correct the float estimate to the exact floor.
    for (var i = 0u; i < 4u; i++) {
        if (q > 0u && !le64(mul64(q, generation), scaled)) { q -= 1u; }
    }
    for (var i = 0u; i < 4u; i++) {
        if (q < 100u && le64(mul64(q + 1u, generation), scaled)) { q += 1u; }
    }
    return q;
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    if (li < 65u) {
        atomicStore(&local_counts[li], 0u);
    }
    atomicStore(&local_states[li], 0u);
    workgroupBarrier();
    let x = id.x;
    let r = id.y;
    if (x < s.width && r < s.rows) {
        let word = cells[(r + 1u) * s.pitch + s.col0 + x];
        let generations = s.states > 2u;
        let base = select(0u, LIVE_BASE, generations);
        if (generations && word > 0u && word < LIVE_BASE) {
            atomicAdd(&local_states[LIVE_BASE - word], 1u);
        } else if (word > base) {
            let age = word - base;
            let bucket = min(s.buckets - 1u, normalized(age - 1u, s.generation) * s.buckets / 100u);
            atomicAdd(&local_counts[bucket], 1u);
            atomicAdd(&local_counts[64], 1u);
        }
    }
    workgroupBarrier();
    if (li < s.buckets) {
        let c = atomicLoad(&local_counts[li]);
        if (c > 0u) { atomicAdd(&out[s.out_offset + li], c); }
    } else if (li == 64u) {
        let c = atomicLoad(&local_counts[64]);
        if (c > 0u) { atomicAdd(&out[s.out_offset + s.buckets], c); }
    }
    if (li >= 2u && li < s.states) {
        let c = atomicLoad(&local_states[li]);
        if (c > 0u) { atomicAdd(&out[s.dying_slot + li], c); }
    }
}
