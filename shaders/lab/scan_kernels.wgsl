// The multi-pass scans' kernels (exclusive prefix sum, u32, wrapping) over 4096-value tiles
// (lab/scan_tile.wgsl). The including file defines `wg_scan4` and `wg_reduce` first (workgroup
// memory or subgroup operations).
//
// Entry points (bindings: src, dst, sums; one parameter block):
// - scan_tile: dst = exclusive scan of src within each tile; sums[tile] = the tile's total;
// - reduce_tile: sums[tile] = the tile's total (reads src only);
// - scan_tile_offset: dst = exclusive scan within each tile + sums[tile] (already scanned);
// - add_offsets: dst[i] += sums[tile of i];
// - copy: dst = src, in the same access pattern (the baseline).

@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

//!include lab/scan_tile.wgsl

// Scan this thread's values of `tile` and write them plus `offset`; returns the tile's total.
fn scan_and_store(tile: u32, lid: u32, offset: u32) -> u32 {
    let scanned = scan_tile_values(load_thread(tile, lid), lid);
    store_thread(tile, lid, scanned.v, offset);
    return scanned.total;
}

@compute @workgroup_size(THREADS)
fn scan_tile(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    let total = scan_and_store(tile, lid, 0u);
    if (lid == 0u) {
        sums[tile] = total;
    }
}

@compute @workgroup_size(THREADS)
fn reduce_tile(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    let total = tile_total(tile, lid);
    if (lid == 0u) {
        sums[tile] = total;
    }
}

@compute @workgroup_size(THREADS)
fn scan_tile_offset(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    scan_and_store(tile, lid, sums[tile]);
}

@compute @workgroup_size(THREADS)
fn add_offsets(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    let offset = sums[tile];
    for (var k = 0u; k < ROWS; k += 1u) {
        let q = vec_index(tile, k, lid);
        if (q * 4u < params.n) {
            dst[q] += vec4<u32>(offset);
        }
    }
}

@compute @workgroup_size(THREADS)
fn copy(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    store_thread(tile, lid, load_thread(tile, lid), 0u);
}
