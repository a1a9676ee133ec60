// The workgroup step of the scans in workgroup memory (Blelloch's work-efficient tree: an
// up-sweep of partial sums, then a down-sweep that turns them into exclusive prefixes; 2 × 8
// barrier-separated levels for 256 values). Runs on every device. THREADS, a power of two,
// is declared by the including file. Defines `wg_scan(v, lid) -> (exclusive prefix, total)`,
// `wg_scan4` (the same for four independent sequences at once, one per vec4 component),
// `wg_scan4x2` (two such vec4s) and `wg_reduce(v, lid) -> total` over the THREADS threads of
// a workgroup; every thread must call them (uniform control flow).

var<workgroup> tree4: array<vec4<u32>, THREADS>;

struct Scan4 {
    prefix: vec4<u32>,
    total: vec4<u32>,
}

fn wg_scan4(v: vec4<u32>, lid: u32) -> Scan4 {
    tree4[lid] = v;
    workgroupBarrier();
    for (var d = 1u; d < THREADS; d <<= 1u) {
        let i = (lid + 1u) * 2u * d - 1u;
        if (i < THREADS) {
            tree4[i] += tree4[i - d];
        }
        workgroupBarrier();
    }
    let total = tree4[THREADS - 1u];
    workgroupBarrier();
    if (lid == 0u) {
        tree4[THREADS - 1u] = vec4<u32>(0u);
    }
    workgroupBarrier();
    for (var d = THREADS / 2u; d >= 1u; d >>= 1u) {
        let i = (lid + 1u) * 2u * d - 1u;
        if (i < THREADS) {
            let left = tree4[i - d];
            tree4[i - d] = tree4[i];
            tree4[i] += left;
        }
        workgroupBarrier();
    }
    let prefix = tree4[lid];
    workgroupBarrier();
    return Scan4(prefix, total);
}

// wg_scan4 of two independent vec4s (the subgroup form does both with one barrier pair).
fn wg_scan4x2(a: vec4<u32>, b: vec4<u32>, lid: u32) -> array<Scan4, 2> {
    let first = wg_scan4(a, lid);
    return array<Scan4, 2>(first, wg_scan4(b, lid));
}

fn wg_scan(v: u32, lid: u32) -> vec2<u32> {
    let r = wg_scan4(vec4<u32>(v, 0u, 0u, 0u), lid);
    return vec2<u32>(r.prefix.x, r.total.x);
}

fn wg_reduce(v: u32, lid: u32) -> u32 {
    return wg_scan(v, lid).y;
}
