// A scan tile: ROWS rows of THREADS vec4<u32> (4 · THREADS · ROWS u32 values); thread t of a
// workgroup holds the vec4 at position t of each row, so every load and store instruction of
// a workgroup covers 16 · THREADS bytes of consecutive addresses. Four rows' scans are done
// at once by one workgroup scan of a vec4 (one component per row), eight by one of two vec4s,
// then offset by the rows before them.
// Bindings 0 and 1 (src, dst) and the parameter block (binding 3: n, the number of values, and
// tiles) are declared here; binding 2 by each kernel file. The buffers are padded to whole
// vec4s, and values at or past n read as 0.

struct Params {
    n: u32,
    tiles: u32,
    // The single pass: ROWS again, as a value the compiler cannot see (lab/scan_lookback.wgsl).
    rows: u32,
    pad2: u32,
    pad3: u32,
    pad4: u32,
    pad5: u32,
    pad6: u32,
}

@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

//!const ROWS: u32 = 4u // rows of a tile (vec4s a thread holds): a multiple of 4

//!const THREADS: u32 = 256u // threads a workgroup (256, 512 or 1024): the workgroup scans' width
// Values a workgroup scans.
const TILE: u32 = 4u * THREADS * ROWS;
// Workgroup scans of a vec4 a tile needs (four rows each).
const GROUPS: u32 = ROWS / 4u;

// The tile a workgroup of a 2-D grid works on (grids past 65 535 groups are 2-D).
fn tile_of(wid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wid.y * groups.x + wid.x;
}

// The vec4 index of row k, thread lid of `tile`.
fn vec_index(tile: u32, k: u32, lid: u32) -> u32 {
    return tile * (TILE / 4u) + k * THREADS + lid;
}

// The vec4 at vec4 index q, with components at or past n read as 0.
fn load_vec(q: u32) -> vec4<u32> {
    let first = q * 4u;
    if (first + 3u < params.n) {
        return src[q];
    }
    if (first >= params.n) {
        return vec4<u32>(0u);
    }
    let idx = vec4<u32>(first) + vec4<u32>(0u, 1u, 2u, 3u);
    return select(vec4<u32>(0u), src[q], idx < vec4<u32>(params.n));
}

// This thread's vec4s of `tile` (one per row).
fn load_thread(tile: u32, lid: u32) -> array<vec4<u32>, ROWS> {
    var v: array<vec4<u32>, ROWS>;
    for (var k = 0u; k < ROWS; k += 1u) {
        v[k] = load_vec(vec_index(tile, k, lid));
    }
    return v;
}

// Write this thread's vec4s of `tile`, each plus `offset` (vec4s wholly past n are
// skipped; the last partial one writes into the buffer's padding).
fn store_thread(tile: u32, lid: u32, v: array<vec4<u32>, ROWS>, offset: u32) {
    for (var k = 0u; k < ROWS; k += 1u) {
        let q = vec_index(tile, k, lid);
        if (q * 4u < params.n) {
            dst[q] = v[k] + vec4<u32>(offset);
        }
    }
}

// The sum of each of a thread's vec4s (one per row), four rows a vec4.
fn row_sums(v: array<vec4<u32>, ROWS>) -> array<vec4<u32>, GROUPS> {
    var s: array<vec4<u32>, GROUPS>;
    for (var k = 0u; k < ROWS; k += 1u) {
        s[k / 4u][k % 4u] = v[k].x + v[k].y + v[k].z + v[k].w;
    }
    return s;
}

// The exclusive scan of each of a thread's vec4s on its own.
fn vec_scans(v: array<vec4<u32>, ROWS>) -> array<vec4<u32>, ROWS> {
    var out: array<vec4<u32>, ROWS>;
    for (var k = 0u; k < ROWS; k += 1u) {
        let x = v[k];
        out[k] = vec4<u32>(0u, x.x, x.x + x.y, x.x + x.y + x.z);
    }
    return out;
}

// A tile scanned in the workgroup: each thread's values' exclusive prefixes within the tile,
// and the tile's total.
struct TileScan {
    v: array<vec4<u32>, ROWS>,
    total: u32,
}

// Scan this thread's values of the loaded tile (all threads call it; uniform control flow).
fn scan_tile_values(v: array<vec4<u32>, ROWS>, lid: u32) -> TileScan {
    let sums = row_sums(v);
    var out = TileScan(vec_scans(v), 0u);
    // Row k starts after rows 0..k-1 of the whole tile (out.total runs over them). Eight
    // rows a workgroup scan where there are eight left (one barrier pair with subgroups).
    for (var g = 0u; g < GROUPS; g += 2u) {
        var rows: array<Scan4, 2>;
        let pair = g + 1u < GROUPS;
        if (pair) {
            rows = wg_scan4x2(sums[g], sums[min(g + 1u, GROUPS - 1u)], lid);
        } else {
            rows[0] = wg_scan4(sums[g], lid);
        }
        for (var h = 0u; h < select(1u, 2u, pair); h += 1u) {
            let t = rows[h].total;
            let start = vec4<u32>(0u, t.x, t.x + t.y, t.x + t.y + t.z) + rows[h].prefix;
            for (var c = 0u; c < 4u; c += 1u) {
                out.v[4u * (g + h) + c] += vec4<u32>(out.total + start[c]);
            }
            out.total += t.x + t.y + t.z + t.w;
        }
    }
    return out;
}

// The sum of every value of `tile` (all threads call it; uniform control flow).
fn tile_total(tile: u32, lid: u32) -> u32 {
    let sums = row_sums(load_thread(tile, lid));
    var own = 0u;
    for (var g = 0u; g < GROUPS; g += 1u) {
        own += sums[g].x + sums[g].y + sums[g].z + sums[g].w;
    }
    return wg_reduce(own, lid);
}
