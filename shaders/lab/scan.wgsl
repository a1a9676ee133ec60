// Scan kernels with the workgroup step done in workgroup memory (Blelloch's work-efficient
// tree: an up-sweep of partial sums, then a down-sweep that turns them into exclusive
// prefixes; 2 × 8 barrier-separated levels for 256 values). Runs on every device.

//!include lab/scan_kernels.wgsl

var<workgroup> tree: array<u32, 256>;

fn wg_scan(v: u32, lid: u32) -> vec2<u32> {
    tree[lid] = v;
    workgroupBarrier();
    // Up-sweep: tree[k·2d + 2d − 1] += tree[k·2d + d − 1].
    for (var d = 1u; d < 256u; d <<= 1u) {
        let i = (lid + 1u) * 2u * d - 1u;
        if (i < 256u) {
            tree[i] += tree[i - d];
        }
        workgroupBarrier();
    }
    let total = tree[255];
    workgroupBarrier();
    if (lid == 0u) {
        tree[255] = 0u;
    }
    workgroupBarrier();
    // Down-sweep: swap-and-add from the root.
    for (var d = 128u; d >= 1u; d >>= 1u) {
        let i = (lid + 1u) * 2u * d - 1u;
        if (i < 256u) {
            let left = tree[i - d];
            tree[i - d] = tree[i];
            tree[i] += left;
        }
        workgroupBarrier();
    }
    let prefix = tree[lid];
    workgroupBarrier();
    return vec2<u32>(prefix, total);
}
