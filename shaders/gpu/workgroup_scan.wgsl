// An inclusive prefix sum of one u32 per thread across a 256-thread workgroup (Hillis–Steele
// in workgroup memory), for kernels that scan rows a block at a time: Larger than Life's row
// sums (life/ltl_prefix.wgsl) and the Lab's box sums (lab/boxsum.wgsl). Every thread of the
// workgroup must call it (it holds barriers).

var<workgroup> scan_totals: array<u32, 256>;

// Thread t's inclusive sum of `value` over threads 0..=t, and the workgroup's total.
fn workgroup_scan(t: u32, value: u32) -> vec2<u32> {
    scan_totals[t] = value;
    workgroupBarrier();
    for (var step = 1u; step < 256u; step <<= 1u) {
        var add = 0u;
        if (t >= step) {
            add = scan_totals[t - step];
        }
        workgroupBarrier();
        scan_totals[t] += add;
        workgroupBarrier();
    }
    let result = vec2<u32>(scan_totals[t], scan_totals[255]);
    // The next call's first writes must not overtake this call's reads.
    workgroupBarrier();
    return result;
}
