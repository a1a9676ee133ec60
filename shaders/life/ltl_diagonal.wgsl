// Larger than Life, pass 1 for the von Neumann diamond (src/step/gpu_cells/ltl.rs): prefix
// sums of state-1 cells along both diagonals, restarted every `p.band` rows, so that
// ltl_count.wgsl reads any diagonal run of up to `p.band` cells in two or three loads.
//
// The extended grid is the world with r more rows and columns on each side (wrapped on a
// torus, dead beyond a dead border): extended (xe, ye) is world (xe - r, ye - r), `ext_w`
// = width + 2r columns, height + 2r rows. Rows are stored skewed so that each diagonal
// keeps one position q from row to row: the main diagonal (down-right) of q holds
// xe = (q + ye) mod ext_w, the anti-diagonal (down-left) of q holds xe = (q - ye) mod
// ext_w. A diagonal leaving one side comes back on the other (a helix), which no count
// crosses: its runs stay within r columns of a world cell. Sums are 16-bit, two to a
// word, `p.stride` halves a row; main-diagonal rows first, then anti-diagonal rows. Each
// thread owns one word (two positions) of one band and walks its rows.

//!include life/ltl_params.wgsl

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> diag: array<u32>;

// 1 when extended cell (xe, ye) holds a state-1 cell.
fn live_ext(xe: u32, ye: u32) -> u32 {
    let w = i32(p.width);
    let h = i32(p.height);
    let x = i32(xe) - i32(p.range);
    let y = i32(ye) - i32(p.range);
    var cx = x;
    var cy = y;
    if (x < 0 || x >= w || y < 0 || y >= h) {
        if (p.torus == 0u) {
            return 0u;
        }
        cx = wrap_signed(x, w);
        cy = wrap_signed(y, h);
    }
    return state1(src[u32(cy + 1) * p.pitch + u32(cx)]);
}

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let ext_w = p.width + 2u * p.range;
    let ext_h = p.height + 2u * p.range;
    let words = p.stride / 2u;
    let word = id.x;
    let y0 = id.y * p.band;
    if (word >= words || y0 >= ext_h) {
        return;
    }
    let y1 = min(y0 + p.band, ext_h);
    let q = 2u * word;
    let plane = words * ext_h;
    var main0 = 0u;
    var main1 = 0u;
    var anti0 = 0u;
    var anti1 = 0u;
    // Positions move one column a row: no division in the loop.
    var skew = y0 % ext_w;
    for (var ye = y0; ye < y1; ye++) {
        if (q < ext_w) {
            main0 += live_ext(wrap(q + skew, ext_w), ye);
            anti0 += live_ext(wrap(q + ext_w - skew, ext_w), ye);
        }
        if (q + 1u < ext_w) {
            main1 += live_ext(wrap(q + 1u + skew, ext_w), ye);
            anti1 += live_ext(wrap(q + 1u + ext_w - skew, ext_w), ye);
        }
        skew = wrap(skew + 1u, ext_w);
        diag[ye * words + word] = main0 | (main1 << 16u);
        diag[plane + ye * words + word] = anti0 | (anti1 << 16u);
    }
}
