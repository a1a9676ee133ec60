// Larger than Life, pass 2 for the von Neumann diamond below r = 128
// (src/step/gpu_cells/ltl/mod.rs): ltl_count.wgsl's running diamond sum (mode 3) over the byte
// sums of ltl_diagonal.wgsl, four columns a thread, so that one word load serves four
// cells' diagonal runs. Lanes of a packed word are four positions' sums, modulo 256, added
// and subtracted lane by lane without carries (a run holds at most r + 1 < 256 cells).
// Its own kernel, so that its registers do not weigh on the other counts'. A thread's first
// row is chained along its workgroup's row (chained4), not summed from 2r + 1 runs;
// each row's emit also writes the next generation's state-1 byte mask.

//!include life/ltl_params.wgsl
//!const COUNT_WG: u32 // threads a workgroup, a power of two (COUNT_GROUP in src/step/gpu_cells/ltl/mod.rs)
//!include life/ltl_emit.wgsl

// ltl_diagonal.wgsl's sums, four bytes a word.
@group(0) @binding(3) var<storage, read> prefix: array<u32>;
// The next generation's state-1 cells, a byte each (ltl_mask.wgsl's layout), for the next
// generation's diagonal pass.
@group(0) @binding(4) var<storage, read_write> live: array<u32>;

const HIGH8: u32 = 0x80808080u;

fn sub4(a: u32, b: u32) -> u32 {
    return ((a | HIGH8) - (b & ~HIGH8)) ^ ((a ^ ~b) & HIGH8);
}

fn add4(a: u32, b: u32) -> u32 {
    return ((a & ~HIGH8) + (b & ~HIGH8)) ^ ((a ^ b) & HIGH8);
}

// The byte sums of diagonal `dir` at positions q..q + 3 of extended row ye (q < ext_w; the
// row's padding repeats its first positions), lane k for position q + k.
fn diag4(dir: u32, ye: u32, q: u32) -> u32 {
    let at = (dir * (p.height + 2u * p.range) + ye) * p.stride + q;
    let off = (at & 3u) * 8u;
    let lo = prefix[at >> 2u];
    let hi = prefix[(at >> 2u) + 1u];
    return select((lo >> off) | (hi << (32u - off)), lo, off == 0u);
}

// The state-1 cells of diagonal `dir` at positions q..q + 3, rows y_top..=y_bottom (at
// most p.band rows, a power of two, so at most one restart between them): four exact run
// counts, one a lane.
fn run4(dir: u32, q: u32, y_top: u32, y_bottom: u32) -> u32 {
    let mask = p.band - 1u;
    var sum = diag4(dir, y_bottom, q);
    if ((y_top & mask) != 0u) {
        sum = sub4(sum, diag4(dir, y_top - 1u, q));
    }
    if ((y_top ^ y_bottom) > mask) {
        sum = add4(sum, diag4(dir, (y_bottom & ~mask) - 1u, q));
    }
    return sum;
}

// Lanes 0..3 of a word of bytes as the components of a vector.
fn lanes4(word: u32) -> vec4<u32> {
    let even = word & 0x00ff00ffu;
    let odd = (word >> 8u) & 0x00ff00ffu;
    return vec4<u32>(even & 0xffffu, odd & 0xffffu, even >> 16u, odd >> 16u);
}

// How the four diamonds change from row y - 1 to y (ltl_count.wgsl's `diamond_step`):
// the upper edges leave, the lower edges enter (xe = x0 + r, yw = ye mod ext_w).
fn diamond_step4(xe: u32, ext_w: u32, y: u32, yw: u32) -> vec4<u32> {
    let ye = y + p.range;
    let up = ye - 1u - p.range;
    let low = ye + p.range;
    let leaving_anti = run4(1u, wrap3(xe + yw + ext_w - 1u - p.range, ext_w), up, ye - 1u);
    let leaving_main = run4(0u, wrap3(xe + 1u + p.range + ext_w - yw, ext_w), up + 1u, ye - 1u);
    let entering_main = run4(0u, wrap(xe - p.range + ext_w - yw, ext_w), ye, low);
    let entering_anti = run4(1u, wrap3(xe + p.range + yw, ext_w), ye, low - 1u);
    return lanes4(entering_main) + lanes4(entering_anti) - lanes4(leaving_anti)
        - lanes4(leaving_main);
}

// Emit the four cells x0..x0 + 3 of row y (those inside the world) and their word of the
// state-1 mask.
fn emit4(x0: u32, y: u32, counts: vec4<u32>) {
    var mask = 0u;
    for (var k = 0u; k < 4u; k++) {
        if (x0 + k < p.width) {
            mask |= state1(emit(x0 + k, y, i32(counts[k]))) << (8u * k);
        }
    }
    live[y * p.mask_pitch + (x0 >> 2u)] = mask;
}

// How the four diamonds about (x0..x0 + 3, y) differ from those one column left: each
// gains its right edge (the upper one down the main diagonal, the lower one down the
// anti-diagonal) and loses the left edge of the diamond one column left.
fn diamond_dx4(x0: u32, y: u32) -> vec4<i32> {
    let r = i32(p.range);
    let ext_w = i32(p.width + 2u * p.range);
    let xe = i32(x0) + r;
    let ye = i32(y) + r;
    let upper_right = run4(0u, u32(wrap_signed(xe - ye + r, ext_w)), u32(ye - r), u32(ye));
    let lower_right = run4(1u, u32(wrap_signed(xe + r + ye, ext_w)), u32(ye + 1), u32(ye + r));
    let upper_left = run4(1u, u32(wrap_signed(xe + ye - 1 - r, ext_w)), u32(ye - r), u32(ye));
    let lower_left = run4(0u, u32(wrap_signed(xe - 1 - r - ye, ext_w)), u32(ye + 1), u32(ye + r));
    return vec4<i32>(lanes4(upper_right) + lanes4(lower_right))
        - vec4<i32>(lanes4(upper_left) + lanes4(lower_left));
}

var<workgroup> start_part: array<i32, COUNT_WG>;
var<workgroup> start_step: array<i32, COUNT_WG>;

// The four diamonds about (x0..x0 + 3, y0) chained along the workgroup's row from its first
// diamond (about (xw, y0)): the workgroup's threads share the first diamond's 2r + 1 runs,
// each thread adds its four columns' steps (diamond_dx4), and a thread starts from the sum
// of the steps left of it: a few runs a thread instead of 2r + 1 (one anti-diagonal run per
// u = dx + dy, as ltl_count.wgsl's `diamond` starts).
fn chained4(x0: u32, y0: u32, xw: u32, lane: u32, inside: bool) -> vec4<u32> {
    let r = i32(p.range);
    let ye = i32(y0) + r;
    let ext_w = p.width + 2u * p.range;
    var part = 0u;
    if (y0 < p.height) {
        for (var u = -r + i32(lane); u <= r; u += i32(COUNT_WG)) {
            let v_max = r - (r - u) % 2;
            let q = u32(i32(xw) + ye + u + r) % ext_w;
            part += lanes4(run4(1u, q, u32(ye + (u - v_max) / 2), u32(ye + (u + v_max) / 2))).x;
        }
    }
    var steps = vec4<i32>(0);
    if (inside) {
        var d = diamond_dx4(x0, y0);
        if (x0 == xw) {
            d.x = 0;
        }
        steps = vec4<i32>(d.x, d.x + d.y, d.x + d.y + d.z, d.x + d.y + d.z + d.w);
    }
    // The workgroup's sum of parts (a butterfly) and the sum of the steps left of each
    // thread (a Hillis-Steele scan), log2(COUNT_WG) rounds.
    var whole = i32(part);
    var through = steps.w;
    start_part[lane] = whole;
    start_step[lane] = through;
    workgroupBarrier();
    for (var d = 1u; d < COUNT_WG; d = d << 1u) {
        let partner = start_part[lane ^ d];
        let left = start_step[(lane - d) & (COUNT_WG - 1u)];
        workgroupBarrier();
        whole += partner;
        if (lane >= d) {
            through += left;
        }
        start_part[lane] = whole;
        start_step[lane] = through;
        workgroupBarrier();
    }
    let base = whole + through - steps.w;
    return vec4<u32>(vec4<i32>(base) + steps);
}

// Thread id.x walks columns 4 id.x..4 id.x + 3, p.run rows, two rows a step (both rows'
// diagonal runs loaded before either count uses them).
@compute @workgroup_size(COUNT_WG)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) group: vec3<u32>) {
    let x0 = 4u * id.x;
    let y0 = id.y * p.run;
    let inside = x0 < p.width && y0 < p.height;
    var counts = chained4(x0, y0, 4u * COUNT_WG * group.x, lid.x, inside);
    if (!inside) {
        return;
    }
    let y1 = min(y0 + p.run, p.height);
    emit4(x0, y0, counts);
    let xe = x0 + p.range;
    let ext_w = p.width + 2u * p.range;
    var yw = (y0 + p.range) % ext_w;
    var y = y0 + 1u;
    for (; y + 1u < y1; y += 2u) {
        let yw0 = wrap(yw + 1u, ext_w);
        let yw1 = wrap(yw0 + 1u, ext_w);
        let d0 = diamond_step4(xe, ext_w, y, yw0);
        let d1 = diamond_step4(xe, ext_w, y + 1u, yw1);
        counts += d0;
        emit4(x0, y, counts);
        counts += d1;
        emit4(x0, y + 1u, counts);
        yw = yw1;
    }
    if (y < y1) {
        counts += diamond_step4(xe, ext_w, y, wrap(yw + 1u, ext_w));
        emit4(x0, y, counts);
    }
}
