// Write an e×e×e volume of vec4<f32>, one texel per thread, texel (x, y, z) at
// x + e·y + e²·z. Consecutive threads walk X (consecutive addresses) or Z (a stride of
// e² texels). Permutations: the workgroup size WG (64 or 256).

struct Params {
    edge: u32,
    walk_z: u32,
    texels: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
    pad4: u32,
}

@group(0) @binding(0) var<storage, read_write> volume: array<vec4<f32>>;
@group(0) @binding(1) var<uniform> params: Params;

//!const WG: u32 // threads per workgroup

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let t = (wg.y * groups.x + wg.x) * WG + li;
    if (t >= params.texels) {
        return;
    }
    let e = params.edge;
    let fast = t % e;
    let mid = (t / e) % e;
    let slow = t / (e * e);
    var p = vec3<u32>(fast, mid, slow);
    if (params.walk_z != 0u) {
        p = vec3<u32>(slow, mid, fast);
    }
    volume[p.x + e * p.y + e * e * p.z] = vec4<f32>(vec3<f32>(p), 1.0);
}
