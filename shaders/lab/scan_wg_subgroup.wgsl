// The workgroup step of the scans by subgroup operations: an inclusive subgroup scan, the
// subgroups' totals through workgroup memory, one barrier pair. Correct for any subgroup size
// that divides THREADS (8 on lavapipe, 32 on NVIDIA, 64 on AMD), which the including file
// declares. Defines `wg_scan(v, lid) -> (exclusive prefix, total)`, `wg_scan4` (the same for
// four independent sequences at once, one per vec4 component), `wg_scan4x2` (two such vec4s
// at once; needs 2 · THREADS / width ≤ 256, which the host checks) and
// `wg_reduce(v, lid) -> total` over the THREADS threads of a workgroup; every thread must
// call them (uniform control flow).

var<workgroup> subtotals: array<u32, 256>;
var<workgroup> subtotals4: array<vec4<u32>, 256>;

struct Scan4 {
    prefix: vec4<u32>,
    total: vec4<u32>,
}

fn wg_scan4(v: vec4<u32>, lid: u32) -> Scan4 {
    let inclusive = subgroupInclusiveAdd(v);
    let width = subgroupAdd(1u);
    let lane = subgroupExclusiveAdd(1u);
    let which = lid / width;
    if (lane == width - 1u) {
        subtotals4[which] = inclusive;
    }
    workgroupBarrier();
    var before = vec4<u32>(0u);
    var total = vec4<u32>(0u);
    for (var k = 0u; k < THREADS / width; k += 1u) {
        let t = subtotals4[k];
        before += select(vec4<u32>(0u), t, k < which);
        total += t;
    }
    workgroupBarrier();
    return Scan4(before + inclusive - v, total);
}

// wg_scan4 of two independent vec4s at once (a scan tile's rows eight at a time): one
// barrier pair for both; their subgroup totals share `subtotals4` (2 · THREADS / width
// entries: the host uses subgroups only where that is at most 256).
fn wg_scan4x2(a: vec4<u32>, b: vec4<u32>, lid: u32) -> array<Scan4, 2> {
    let inclusive_a = subgroupInclusiveAdd(a);
    let inclusive_b = subgroupInclusiveAdd(b);
    let width = subgroupAdd(1u);
    let lane = subgroupExclusiveAdd(1u);
    let which = lid / width;
    let groups = THREADS / width;
    if (lane == width - 1u) {
        subtotals4[which] = inclusive_a;
        subtotals4[groups + which] = inclusive_b;
    }
    workgroupBarrier();
    var before_a = vec4<u32>(0u);
    var before_b = vec4<u32>(0u);
    var total_a = vec4<u32>(0u);
    var total_b = vec4<u32>(0u);
    for (var k = 0u; k < groups; k += 1u) {
        let ta = subtotals4[k];
        let tb = subtotals4[groups + k];
        before_a += select(vec4<u32>(0u), ta, k < which);
        before_b += select(vec4<u32>(0u), tb, k < which);
        total_a += ta;
        total_b += tb;
    }
    workgroupBarrier();
    return array<Scan4, 2>(Scan4(before_a + inclusive_a - a, total_a),
                           Scan4(before_b + inclusive_b - b, total_b));
}

// The scalar form is written out rather than taken from wg_scan4: gpu-radix8's scatter uses
// it, and the 4 KiB of wg_scan4's subgroup totals instead of 1 KiB cost that kernel a third
// of its speed on the H200 (fewer workgroups fit beside its staged pairs; docs/lab.md).
fn wg_scan(v: u32, lid: u32) -> vec2<u32> {
    let inclusive = subgroupInclusiveAdd(v);
    let width = subgroupAdd(1u);
    let lane = subgroupExclusiveAdd(1u);
    let which = lid / width;
    if (lane == width - 1u) {
        subtotals[which] = inclusive;
    }
    workgroupBarrier();
    var before = 0u;
    var total = 0u;
    for (var k = 0u; k < THREADS / width; k += 1u) {
        let t = subtotals[k];
        before += select(0u, t, k < which);
        total += t;
    }
    workgroupBarrier();
    return vec2<u32>(before + inclusive - v, total);
}

fn wg_reduce(v: u32, lid: u32) -> u32 {
    let sum = subgroupAdd(v);
    let width = subgroupAdd(1u);
    if (subgroupExclusiveAdd(1u) == 0u) {
        subtotals[lid / width] = sum;
    }
    workgroupBarrier();
    var total = 0u;
    for (var k = 0u; k < THREADS / width; k += 1u) {
        total += subtotals[k];
    }
    workgroupBarrier();
    return total;
}
