// Scan kernels with the workgroup step done by subgroup operations: an inclusive subgroup
// scan, the subgroups' totals scanned through workgroup memory, one barrier pair. Correct for
// any subgroup size that divides 256 (8 on lavapipe, 32 on NVIDIA, 64 on AMD).


//!include lab/scan_kernels.wgsl

var<workgroup> subtotals: array<u32, 256>;

fn wg_scan(v: u32, lid: u32) -> vec2<u32> {
    let inclusive = subgroupInclusiveAdd(v);
    // Every thread of the workgroup calls this (the early returns are per workgroup), so
    // subgroups are full: their size is the number of lanes, and a 1-D workgroup is cut into
    // subgroups of consecutive invocations (validation against the CPU checks it).
    let width = subgroupAdd(1u);
    let lane = subgroupExclusiveAdd(1u);
    let which = lid / width;
    if (lane == width - 1u) {
        subtotals[which] = inclusive;
    }
    workgroupBarrier();
    let count = 256u / width;
    // Each thread adds the totals of the subgroups before its own (count ≤ 32 on lavapipe).
    var before = 0u;
    var total = 0u;
    for (var k = 0u; k < count; k += 1u) {
        let t = subtotals[k];
        before += select(0u, t, k < which);
        total += t;
    }
    workgroupBarrier();
    return vec2<u32>(before + inclusive - v, total);
}
