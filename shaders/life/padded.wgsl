// gpu-padded (reference ALGORITHM_1): the host fills a one-cell border (opposite edge or
// zero), so every cell reads its eight neighbours with no bounds checks.

//!include life/common.wgsl

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let r = id.y;
    if (x >= p.width || r >= p.rows) {
        return;
    }
    let up = r * p.pitch + x + 1u;
    let mid = up + p.pitch;
    let down = mid + p.pitch;
    let index = alive(src[up - 1u]) << 8u | alive(src[up]) << 7u | alive(src[up + 1u]) << 6u
        | alive(src[mid - 1u]) << 5u | alive(src[mid]) << 4u | alive(src[mid + 1u]) << 3u
        | alive(src[down - 1u]) << 2u | alive(src[down]) << 1u | alive(src[down + 1u]);
    dst[mid] = next_word(src[mid], index);
}
