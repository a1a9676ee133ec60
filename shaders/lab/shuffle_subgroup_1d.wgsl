// Subgroup built-ins in 1-D workgroups: the lane is `subgroup_invocation_id`.

//!include lab/shuffle_builtin.wgsl

@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn validate(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
    @builtin(subgroup_invocation_id) sg_lane: u32,
    @builtin(subgroup_size) sg_size: u32,
) {
    validate_lane(thread_id(wg, groups, li), li, sg_lane, sg_size);
}

@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn timing(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
    @builtin(subgroup_invocation_id) sg_lane: u32,
    @builtin(subgroup_size) sg_size: u32,
) {
    timing_lane(thread_id(wg, groups, li), li, sg_lane, sg_size);
}
