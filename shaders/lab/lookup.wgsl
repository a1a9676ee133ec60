// Table lookups (src/lab/lookup.rs): the loads behind golab's rule-table kernel, which walks
// a decision tree in device memory (one load per neighbour, each address taken from the
// load before: shaders/life/tree.wgsl). Every thread makes `loads` loads from `table` (its
// entries are indices into it):
//
// - dependent: each load's address is the value the load before it read (a tree walk);
// - independent: the addresses come from hashing the thread's index, so every load can be
//   in flight at once (the throughput the dependence gives up).
//
// Each thread writes what it read last (dependent) or the sum of what it read (independent),
// which the CPU recomputes to check the kernel.

struct Params {
    n: u32,       // table entries
    threads: u32, // threads in the dispatch
    loads: u32,   // loads per thread
    pad0: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
    pad4: u32,
}

@group(0) @binding(0) var<storage, read> table: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

//!include gpu/thread_index.wgsl

// A thread's k-th address (src/lab/lookup.rs: address).
fn address(t: u32, k: u32) -> u32 {
    var h = t * 0x9e3779b9u + k * 0x85ebca6bu;
    h ^= h >> 15u;
    h *= 0x2c1b3c6du;
    h ^= h >> 12u;
    return h % p.n;
}

@compute @workgroup_size(256)
fn dependent(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let t = thread_index(wg, groups, li);
    if (t >= p.threads) {
        return;
    }
    var at = address(t, 0u);
    for (var k = 0u; k < p.loads; k++) {
        at = table[at];
    }
    out[t] = at;
}

@compute @workgroup_size(256)
fn independent(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let t = thread_index(wg, groups, li);
    if (t >= p.threads) {
        return;
    }
    var sum = 0u;
    for (var k = 0u; k < p.loads; k++) {
        sum += table[address(t, k)];
    }
    out[t] = sum;
}
