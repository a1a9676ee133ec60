// Larger than Life, the von Neumann diamond below r = 128 (src/step/gpu_cells/ltl/mod.rs): the
// state-1 cells of the current generation as a byte mask, one byte a cell, row y at word
// y * p.mask_pitch, which ltl_diagonal.wgsl reads four cells a load. ltl_diamond4.wgsl
// writes the next generation's mask as it counts; this pass makes it afresh after a load or
// an edit. Thread (id.x, id.y + 65535 id.z) writes word id.x of row id.y + 65535 id.z.

//!include life/ltl_params.wgsl
//!const COUNT_WG: u32 // threads a workgroup (COUNT_GROUP in src/step/gpu_cells/ltl/mod.rs)

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(4) var<storage, read_write> live: array<u32>;

@compute @workgroup_size(COUNT_WG)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x0 = 4u * id.x;
    let y = id.y + 65535u * id.z;
    if (x0 >= p.width || y >= p.height) {
        return;
    }
    var mask = 0u;
    for (var k = 0u; k < 4u; k++) {
        if (x0 + k < p.width) {
            mask |= state1(src[(y + 1u) * p.pitch + x0 + k]) << (8u * k);
        }
    }
    live[y * p.mask_pitch + id.x] = mask;
}
