// The roofline: a plain vec4 copy, the fastest a kernel can stream memory on this device.
// Every other GPU figure is reported as a fraction of this bandwidth (read + write).

@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;

@compute @workgroup_size(256)
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let i = (wg.y * groups.x + wg.x) * 256u + li;
    if (i < arrayLength(&dst)) {
        dst[i] = src[i];
    }
}
