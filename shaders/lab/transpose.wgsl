// Transpose of an n×n f32 matrix, 32×32 tiles, workgroups of 32×8 threads that each
// handle four rows of a tile. Entry points: copy (the baseline: same reads and writes,
// no transpose), naive, tiled (tile[32][32], column reads hit one bank 32 times),
// padded (tile[32][33]) and diagonal (tile[32][32], element (r, c) at column (c + r) % 32).

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

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

const TILE: u32 = 32u;
const ROWS: u32 = 8u;

var<workgroup> tile: array<array<f32, 32>, 32>;
var<workgroup> tile_padded: array<array<f32, 33>, 32>;
var<workgroup> tile_diagonal: array<array<f32, 32>, 32>;

@compute @workgroup_size(32, 8)
fn copy(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
    let n = params.n;
    let x = wg.x * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let y = wg.y * TILE + l.y + r;
        if (x < n && y < n) {
            dst[y * n + x] = src[y * n + x];
        }
    }
}

@compute @workgroup_size(32, 8)
fn naive(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
    let n = params.n;
    let x = wg.x * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let y = wg.y * TILE + l.y + r;
        if (x < n && y < n) {
            dst[x * n + y] = src[y * n + x];
        }
    }
}

@compute @workgroup_size(32, 8)
fn tiled(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
    let n = params.n;
    let x = wg.x * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let y = wg.y * TILE + l.y + r;
        if (x < n && y < n) {
            tile[l.y + r][l.x] = src[y * n + x];
        }
    }
    workgroupBarrier();
    let ox = wg.y * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let oy = wg.x * TILE + l.y + r;
        if (ox < n && oy < n) {
            dst[oy * n + ox] = tile[l.x][l.y + r];
        }
    }
}

// The padded tile at tile column tx, tile row ty.
fn padded_tile(tx: u32, ty: u32, l: vec3<u32>) {
    let n = params.n;
    let x = tx * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let y = ty * TILE + l.y + r;
        if (x < n && y < n) {
            tile_padded[l.y + r][l.x] = src[y * n + x];
        }
    }
    workgroupBarrier();
    let ox = ty * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let oy = tx * TILE + l.y + r;
        if (ox < n && oy < n) {
            dst[oy * n + ox] = tile_padded[l.x][l.y + r];
        }
    }
}

@compute @workgroup_size(32, 8)
fn padded(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
    padded_tile(wg.x, wg.y, l);
}

// Tile rows taken together by consecutive workgroups in the blocked order.
const BAND: u32 = 8u;

// The padded tile, with workgroups walking the tiles band by band: consecutive workgroups go
// down BAND tile rows before moving one tile column right, so the workgroups in flight read
// BAND × 32 rows and write rows 1 KiB long (BAND tiles side by side) instead of 128 bytes
// each in as many rows as there are workgroups in flight.
@compute @workgroup_size(32, 8)
fn padded_blocked(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_id) l: vec3<u32>,
) {
    let tiles = (params.n + TILE - 1u) / TILE;
    let id = wg.y * groups.x + wg.x;
    let band = id / (BAND * tiles);
    let band_rows = min(BAND, tiles - band * BAND);
    let within = id - band * BAND * tiles;
    padded_tile(within / band_rows, band * BAND + within % band_rows, l);
}

@compute @workgroup_size(32, 8)
fn diagonal(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
    let n = params.n;
    let x = wg.x * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let ty = l.y + r;
        let y = wg.y * TILE + ty;
        if (x < n && y < n) {
            tile_diagonal[ty][(l.x + ty) % TILE] = src[y * n + x];
        }
    }
    workgroupBarrier();
    let ox = wg.y * TILE + l.x;
    for (var r = 0u; r < TILE; r += ROWS) {
        let ty = l.y + r;
        let oy = wg.x * TILE + ty;
        if (ox < n && oy < n) {
            dst[oy * n + ox] = tile_diagonal[l.x][(ty + l.x) % TILE];
        }
    }
}
