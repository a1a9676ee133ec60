// Larger than Life, between the row sums and the count for the Moore square at large r
// (src/step/gpu_cells/ltl/mod.rs): the sum of `p.blocks` consecutive rows' windows about each
// column, one per block of rows, so that a count thread whose run (one block) starts on a
// block boundary starts its running column sum from 2r / p.blocks block sums and one
// window instead of reading 2r + 1 windows (p.blocks divides r).

//!include life/ltl_params.wgsl
//!include life/ltl_windows.wgsl

@group(0) @binding(6) var<storage, read_write> blocks: array<u32>;

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let first = id.y * p.blocks;
    if (x >= p.width || first >= p.height) {
        return;
    }
    let last = min(first + p.blocks, p.height);
    let sum = windows(i32(first), i32(last) - 1, x);
    blocks[id.y * p.width + x] = sum;
}
