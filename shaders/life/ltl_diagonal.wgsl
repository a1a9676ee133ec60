// Larger than Life, pass 1 for the von Neumann diamond (src/step/gpu_cells/ltl/mod.rs): prefix
// sums of state-1 cells along both diagonals, restarted every `p.band` rows, so that
// ltl_count.wgsl reads any diagonal run of up to `p.band` cells in two or three loads.
//
// The extended grid is the world with r more rows and columns on each side (wrapped on a
// torus, dead beyond a dead border): extended (xe, ye) is world (xe - r, ye - r), `ext_w`
// = width + 2r columns, height + 2r rows. Rows are stored skewed so that each diagonal
// keeps one position q from row to row: the main diagonal (down-right) of q holds
// xe = (q + ye) mod ext_w, the anti-diagonal (down-left) of q holds xe = (q - ye) mod
// ext_w. A diagonal leaving one side comes back on the other (a helix), which no count
// crosses: its runs stay within r columns of a world cell. Sums are kept modulo
// 2^p.diag_bits (8 or 16 bits), 32 / p.diag_bits to a word, `p.stride` sums a row (a run
// is at most r + 1 < 2^p.diag_bits cells, so a difference of two sums is its exact count);
// positions from ext_w on repeat the row's first ones (position q holds q mod ext_w), so that
// the count can read four positions from any q < ext_w without wrapping; main-diagonal rows
// first, then anti-diagonal rows. Each thread owns one word (several positions) of one band
// and walks its rows, both directions, or one (id.y odd: anti-diagonals) when p.split is 1
// (long bands: twice the threads). With byte sums the cells come from the state-1 byte mask
// (ltl_mask.wgsl, then each count), four a load; with 16-bit sums from the cell words.

//!include life/ltl_params.wgsl

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> diag: array<u32>;
// With 8-bit sums, the state-1 cells as bytes (ltl_mask.wgsl), read instead of `src`.
@group(0) @binding(3) var<storage, read> live: array<u32>;

// The four mask bytes of world cells x..x + 3 of row y (x + 3 < width), lane k for x + k.
fn live4(x: u32, y: u32) -> u32 {
    let at = y * p.mask_pitch * 4u + x;
    let off = (at & 3u) * 8u;
    let lo = live[at >> 2u];
    let hi = live[(at >> 2u) + 1u];
    return select((lo >> off) | (hi << (32u - off)), lo, off == 0u);
}

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
    if (p.diag_bits == 8u) {
        return live4(u32(cx), u32(cy)) & 1u;
    }
    return state1(src[u32(cy + 1) * p.pitch + u32(cx)]);
}

// The state-1 cells of extended row ye at the positions `lanes` holds, each shifted by
// `offset` (skew for the main diagonals, ext_w - skew for the anti-diagonals), packed as
// the sums are: lane k of a word for position lanes[k] (two 16-bit lanes or four bytes).
fn row_cells(lanes: vec4<u32>, offset: u32, ye: u32, ext_w: u32, bits: u32) -> u32 {
    let x0 = wrap(lanes.x + offset, ext_w);
    // Four positions in a row of one world row: one read of the four cells' mask bytes.
    let x = i32(x0) - i32(p.range);
    let y = i32(ye) - i32(p.range);
    if (bits == 8u && wrap(lanes.w + offset, ext_w) == x0 + 3u && x >= 0
        && x + 3 < i32(p.width) && y >= 0 && y < i32(p.height)) {
        return live4(u32(x), u32(y));
    }
    let c0 = live_ext(x0, ye);
    let c1 = live_ext(wrap(lanes.y + offset, ext_w), ye);
    if (bits == 16u) {
        return c0 | (c1 << 16u);
    }
    let c2 = live_ext(wrap(lanes.z + offset, ext_w), ye);
    let c3 = live_ext(wrap(lanes.w + offset, ext_w), ye);
    return c0 | (c1 << 8u) | (c2 << 16u) | (c3 << 24u);
}

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let ext_w = p.width + 2u * p.range;
    let ext_h = p.height + 2u * p.range;
    let bits = p.diag_bits;
    let words = p.stride * bits / 32u;
    let word = id.x;
    let band = select(id.y, id.y >> 1u, p.split == 1u);
    let dir = id.y & 1u;
    let y0 = band * p.band;
    if (word >= words || y0 >= ext_h) {
        return;
    }
    let y1 = min(y0 + p.band, ext_h);
    let q0 = 32u / bits * word;
    let plane = words * ext_h;
    // Each lane's position modulo ext_w (the padding lanes repeat the first positions).
    let lanes = vec4<u32>(q0 % ext_w, (q0 + 1u) % ext_w, (q0 + 2u) % ext_w, (q0 + 3u) % ext_w);
    // A band holds at most p.band < 2^bits rows (below r = 128: 128 < 256), so lanes
    // never carry into each other: whole words are added.
    // Positions move one column a row: no division in the loop.
    var skew = y0 % ext_w;
    if (p.split == 1u) {
        var sums = 0u;
        for (var ye = y0; ye < y1; ye++) {
            sums += row_cells(lanes, select(skew, ext_w - skew, dir == 1u), ye, ext_w, bits);
            skew = wrap(skew + 1u, ext_w);
            diag[dir * plane + ye * words + word] = sums;
        }
        return;
    }
    var main_sums = 0u;
    var anti_sums = 0u;
    for (var ye = y0; ye < y1; ye++) {
        main_sums += row_cells(lanes, skew, ye, ext_w, bits);
        anti_sums += row_cells(lanes, ext_w - skew, ye, ext_w, bits);
        skew = wrap(skew + 1u, ext_w);
        diag[ye * words + word] = main_sums;
        diag[plane + ye * words + word] = anti_sums;
    }
}
