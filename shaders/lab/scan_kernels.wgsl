// Exclusive prefix sum (u32, wrapping) of n values, in tiles of 1024 = 4 rows of 256: thread t
// of a workgroup holds elements base + 256 j + t (j = 0..3), so every load and store is
// coalesced, and a tile is scanned row by row with a carry. The including file defines
// `fn wg_scan(v: u32, lid: u32) -> vec2<u32>` (this thread's exclusive prefix within the
// workgroup's 256 values, and their total) — workgroup memory (scan.wgsl) or subgroup
// operations (scan_subgroup.wgsl).
//
// Entry points (bindings: src, dst, sums; one parameter block):
// - scan_tile: dst = exclusive scan of src within each tile; sums[tile] = the tile's total;
// - reduce_tile: sums[tile] = the tile's total (reads src only);
// - scan_tile_offset: dst = exclusive scan within each tile + sums[tile] (already scanned);
// - add_offsets: dst[i] += sums[tile of i];
// - copy: dst = src, in the same access pattern (the baseline).

struct Params {
    n: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
    pad4: u32,
    pad5: u32,
    pad6: u32,
}

@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

const ROW: u32 = 256u;
const TILE: u32 = 1024u;

var<workgroup> carry_out: u32;

fn tile_of(wid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wid.y * groups.x + wid.x;
}

fn load(i: u32) -> u32 {
    if (i < params.n) {
        return src[i];
    }
    return 0u;
}

// The exclusive scan of this thread's four values within the tile, plus `offset`, written to
// dst; returns the tile's total (the same on every thread).
fn scan_rows(base: u32, lid: u32, offset: u32) -> u32 {
    var carry = offset;
    for (var j = 0u; j < 4u; j += 1u) {
        let i = base + j * ROW + lid;
        let s = wg_scan(load(i), lid);
        if (i < params.n) {
            dst[i] = carry + s.x;
        }
        carry += s.y;
    }
    return carry - offset;
}

fn tile_total(base: u32, lid: u32) -> u32 {
    var total = 0u;
    for (var j = 0u; j < 4u; j += 1u) {
        total += wg_scan(load(base + j * ROW + lid), lid).y;
    }
    return total;
}

@compute @workgroup_size(256)
fn scan_tile(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile * TILE >= params.n) {
        return;
    }
    let total = scan_rows(tile * TILE, lid, 0u);
    if (lid == 0u) {
        sums[tile] = total;
    }
}

@compute @workgroup_size(256)
fn reduce_tile(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile * TILE >= params.n) {
        return;
    }
    let total = tile_total(tile * TILE, lid);
    if (lid == 0u) {
        sums[tile] = total;
    }
}

@compute @workgroup_size(256)
fn scan_tile_offset(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    if (tile * TILE >= params.n) {
        return;
    }
    if (lid == 0u) {
        carry_out = sums[tile];
    }
    let offset = workgroupUniformLoad(&carry_out);
    scan_rows(tile * TILE, lid, offset);
}

@compute @workgroup_size(256)
fn add_offsets(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    let offset = sums[tile];
    for (var j = 0u; j < 4u; j += 1u) {
        let i = tile * TILE + j * ROW + lid;
        if (i < params.n) {
            dst[i] += offset;
        }
    }
}

@compute @workgroup_size(256)
fn copy(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
    let tile = tile_of(wid, groups);
    for (var j = 0u; j < 4u; j += 1u) {
        let i = tile * TILE + j * ROW + lid;
        if (i < params.n) {
            dst[i] = src[i];
        }
    }
}
