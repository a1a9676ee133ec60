// The single pass written out straight for one tile shape (src/lab/scan_unrolled.rs fills the
// slot with the `scan_unrolled` entry point): each row's vec4 a named value, no array indexed
// in a loop the compiler might not unroll (such an array goes to local memory: at 12 and 16
// rows the rolled kernel spilled 688 and 944 bytes a thread on the H200, docs/lab.md). Same
// tile, publications, look-back and fallback as `scan_lookback` (lab/scan_lookback.wgsl,
// included before this file with its workgroup step and walk).

// The sum of a vec4's components.
fn hsum(x: vec4<u32>) -> u32 {
    return x.x + x.y + x.z + x.w;
}

// Where four rows start within the tile, from their workgroup scan and the rows before them.
fn row_starts(rows: Scan4, before: u32) -> vec4<u32> {
    let t = rows.total;
    return vec4<u32>(before) + vec4<u32>(0u, t.x, t.x + t.y, t.x + t.y + t.z) + rows.prefix;
}

// Row k of `tile`, this thread's vec4 `v` scanned on its own, plus `offset`.
fn store_row(tile: u32, k: u32, lid: u32, v: vec4<u32>, offset: u32) {
    let q = vec_index(tile, k, lid);
    if (q * 4u < params.n) {
        dst[q] = vec4<u32>(offset) + vec4<u32>(0u, v.x, v.x + v.y, v.x + v.y + v.z);
    }
}

//!slot unrolled
