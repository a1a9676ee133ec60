// gpu-naive (reference ALGORITHM_0): one thread per cell, a bounds check per neighbourhood
// column (wrap or dead); neighbour rows come from the chunk's halo rows.

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
    // The 9-bit neighbourhood index, north-west first (bit 8) to south-east (bit 0).
    var index = 0u;
    for (var dy = 0u; dy < 3u; dy++) {
        let row = buffer_row(r + dy) * p.pitch;
        for (var dx = 0u; dx < 3u; dx++) {
            index = index << 1u;
            // Column x + dx - 1, kept unsigned: 0 means -1, width + 1 means width.
            var nx = x + dx;
            if (nx == 0u) {
                if (p.torus == 0u) { continue; }
                nx = p.width;
            } else if (nx == p.width + 1u) {
                if (p.torus == 0u) { continue; }
                nx = 1u;
            }
            index |= alive(src[row + nx - 1u]);
        }
    }
    let i = (r + 1u) * p.pitch + x;
    dst[i] = next_word(src[i], index);
}
