// Wide-tile transposes of an n×n f32 matrix (n divisible by 4) with 16-byte accesses only:
// workgroups of 16×16 threads each move a 64×64 tile, every thread one 4×4 block of it.
// A thread loads its block as four vec4 rows, transposes it in registers, and stores it as
// four vec4s into the tile in workgroup memory (a [64][16] array of vec4); after the barrier
// it reads four vec4 rows of the transposed tile and writes them out. A warp's global load or
// store covers two 256-byte row segments. Column c of tile row r sits at c ^ (r / 4) (an XOR
// swizzle), so neither the column-wise stores nor the row-wise loads of workgroup memory
// conflict on a bank.
// Entry points: copy (the same global reads and writes without transposing: the baseline),
// wide (the transpose), wide_diagonal (the same, with workgroups taking tiles in diagonal
// order, so the workgroups in flight write to different column bands of the output: the
// classic fix for partition camping when rows are a large power of two apart).

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

@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> params: Params;

const WIDE: u32 = 64u;
// vec4 columns of a tile (and threads per side of a workgroup).
const SIDE: u32 = 16u;

var<workgroup> wide_tile: array<vec4<f32>, 1024>;

// Where column c of tile row r sits.
fn swizzled(r: u32, c: u32) -> u32 {
    return r * SIDE + (c ^ ((r >> 2u) & 15u));
}

// The four rows of a 4×4 block starting at matrix row y, vec4 column cx (zero outside).
fn load_block(y: u32, cx: u32) -> array<vec4<f32>, 4> {
    let n = params.n;
    let q = n / 4u;
    var b: array<vec4<f32>, 4>;
    for (var i = 0u; i < 4u; i += 1u) {
        if (cx < q && y + i < n) {
            b[i] = src[(y + i) * q + cx];
        }
    }
    return b;
}

fn store_block(y: u32, cx: u32, b: array<vec4<f32>, 4>) {
    let n = params.n;
    let q = n / 4u;
    for (var i = 0u; i < 4u; i += 1u) {
        if (cx < q && y + i < n) {
            dst[(y + i) * q + cx] = b[i];
        }
    }
}

@compute @workgroup_size(16, 16)
fn copy(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
    let y = wg.y * WIDE + 4u * l.y;
    let cx = wg.x * SIDE + l.x;
    store_block(y, cx, load_block(y, cx));
}

// Transpose the tile at tile column tx, tile row ty.
fn transpose_tile(tx: u32, ty: u32, l: vec3<u32>) {
    let a = load_block(ty * WIDE + 4u * l.y, tx * SIDE + l.x);
    // Block (l.y, l.x) of the tile becomes block (l.x, l.y) of the transposed tile.
    for (var i = 0u; i < 4u; i += 1u) {
        let column = vec4<f32>(a[0][i], a[1][i], a[2][i], a[3][i]);
        wide_tile[swizzled(4u * l.x + i, l.y)] = column;
    }
    workgroupBarrier();
    var b: array<vec4<f32>, 4>;
    for (var i = 0u; i < 4u; i += 1u) {
        b[i] = wide_tile[swizzled(4u * l.y + i, l.x)];
    }
    store_block(tx * WIDE + 4u * l.y, ty * SIDE + l.x, b);
}

@compute @workgroup_size(16, 16)
fn wide(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
    transpose_tile(wg.x, wg.y, l);
}

@compute @workgroup_size(16, 16)
fn wide_diagonal(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
                 @builtin(local_invocation_id) l: vec3<u32>) {
    // The grid is square (tiles × tiles): workgroup (x, y) takes tile ((x + y) mod tiles, y),
    // so consecutive workgroups of a row walk a diagonal of the tile grid.
    transpose_tile((wg.x + wg.y) % groups.x, wg.y, l);
}
