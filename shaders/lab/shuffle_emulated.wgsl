// The workgroup-memory emulation: store, barrier, read the source lane's slot, barrier, on
// groups of W lanes (consecutive local invocation indices).

//!include lab/shuffle.wgsl
//!const W: u32 // lanes per emulated group (a power of two up to 256)

var<workgroup> slots: array<u32, 256>;

fn shuffle(x: u32, op: u32, d: u32, lane: u32, w: u32, flat: u32) -> u32 {
    slots[flat] = x;
    workgroupBarrier();
    let v = slots[flat - lane + source_lane(op, d, lane, w)];
    workgroupBarrier();
    return v;
}

@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn validate(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    validate_lane(thread_id(wg, groups, li), li, li % W, W);
}

@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn timing(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    timing_lane(thread_id(wg, groups, li), li, li % W, W);
}
