// Box sums on an n×n torus of 0/1 cells (src/lab/boxsum.rs): each cell's count of ones in
// the (2r+1)² square about it, three ways.
//
// - naive: every cell of the box read (one thread per cell);
// - sat: a literal summed-area table — row_prefix, then column_prefix over it in place,
//   then sat_box, four reads per cell;
// - sliding: row_prefix, then one thread per column walking `run` rows with a running sum
//   of the rows' window sums (golab's Larger than Life count, shaders/life/ltl_count.wgsl).
//
// The extended grid is the torus widened by r on every side (ext = n + 2r rows and
// columns); row_prefix writes P[ye][i], the ones among extended columns 0..i of extended
// row ye, at sums[ye * (ext + 1) + i].

struct Params {
    n: u32,
    r: u32,
    ext: u32,
    run: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
}

@group(0) @binding(0) var<storage, read> cells: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

//!include gpu/workgroup_scan.wgsl

//!include gpu/thread_index.wgsl

// The cell at extended (xe, ye), wrapped.
fn cell_ext(xe: u32, ye: u32) -> u32 {
    let x = (xe + p.n - p.r % p.n) % p.n;
    let y = (ye + p.n - p.r % p.n) % p.n;
    return cells[y * p.n + x];
}

@compute @workgroup_size(256)
fn naive(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let t = thread_index(wg, groups, li);
    if (t >= p.n * p.n) {
        return;
    }
    let x = t % p.n;
    let y = t / p.n;
    var sum = 0u;
    for (var dy = 0u; dy <= 2u * p.r; dy++) {
        for (var dx = 0u; dx <= 2u * p.r; dx++) {
            sum += cell_ext(x + dx, y + dy);
        }
    }
    out[t] = sum;
}

// One workgroup per extended row: 8 cells a thread, blocks of 2048, a workgroup scan.
@compute @workgroup_size(256)
fn row_prefix(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) t: u32,
) {
    let ye = wg.y * groups.x + wg.x;
    if (ye >= p.ext) {
        return;
    }
    let row = ye * (p.ext + 1u);
    var carry = 0u;
    for (var block = 0u; block < p.ext; block += 2048u) {
        let j0 = block + 8u * t;
        var v: array<u32, 8>;
        var total = 0u;
        for (var k = 0u; k < 8u; k++) {
            if (j0 + k < p.ext) {
                total += cell_ext(j0 + k, ye);
            }
            v[k] = total;
        }
        let scanned = workgroup_scan(t, total);
        let before = carry + scanned.x - total;
        for (var k = 0u; k < 8u; k++) {
            if (j0 + k < p.ext) {
                sums[row + j0 + k + 1u] = before + v[k];
            }
        }
        carry += scanned.y;
    }
    if (t == 0u) {
        sums[row] = 0u;
    }
}

// The table's second pass: one thread per column adds each row's prefix to the row below.
@compute @workgroup_size(256)
fn column_prefix(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let i = thread_index(wg, groups, li);
    let w = p.ext + 1u;
    if (i >= w) {
        return;
    }
    var sum = 0u;
    for (var ye = 0u; ye < p.ext; ye++) {
        sum += sums[ye * w + i];
        sums[ye * w + i] = sum;
    }
}

@compute @workgroup_size(256)
fn sat_box(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let t = thread_index(wg, groups, li);
    if (t >= p.n * p.n) {
        return;
    }
    let x = t % p.n;
    let y = t / p.n;
    let w = p.ext + 1u;
    let bottom = (y + 2u * p.r) * w;
    var sum = sums[bottom + x + 2u * p.r + 1u] - sums[bottom + x];
    if (y > 0u) {
        let top = (y - 1u) * w;
        sum -= sums[top + x + 2u * p.r + 1u] - sums[top + x];
    }
    out[t] = sum;
}

fn window(ye: u32, x: u32) -> u32 {
    let row = ye * (p.ext + 1u);
    return sums[row + x + 2u * p.r + 1u] - sums[row + x];
}

@compute @workgroup_size(256)
fn sliding(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let t = thread_index(wg, groups, li);
    let x = t % p.n;
    let y0 = (t / p.n) * p.run;
    if (y0 >= p.n) {
        return;
    }
    let y1 = min(y0 + p.run, p.n);
    var column = 0u;
    for (var ye = y0; ye <= y0 + 2u * p.r; ye++) {
        column += window(ye, x);
    }
    for (var y = y0; y < y1; y++) {
        if (y > y0) {
            column += window(y + 2u * p.r, x);
            column -= window(y - 1u, x);
        }
        out[y * p.n + x] = column;
    }
}
