// gpu-bitpacked step: 32 cells per u32 (bit i of word k of a row = cell 32k + i), several
// generations per dispatch by temporal blocking in workgroup memory.
//
// A workgroup owns an interior of 30 words x (128 - 2 HALO) rows. It loads 32 words x 128 rows
// (one halo word = 32 cells left and right, HALO rows above and below) into workgroup
// memory, steps `gens` <= HALO generations there (the wrong values that start at the tile's
// edge move one cell per generation, so they never reach the interior), and writes the
// interior back. Neighbour counts are bitwise full adders over whole words. A cell born in
// the block and alive at its end gets its birth code written (bitsliced last-birth index);
// nothing else of the age is touched per generation.
//
// The tile is gathered in *cell* space: tile word t holds the 32 cells starting at world
// cell 32 (xw0 + t - 1), wrapped (torus) or zero (dead border), so a torus wraps exactly
// across a partial last word. Cells outside a dead-border world are masked to stay dead.
//
// Generations rules: a thread keeps the countdown planes of its RPT words in registers for the
// whole block (a dying state needs no neighbour), loaded and stored with the live words.

//!include life/bitpacked_step_common.wgsl

//!const HALO: u32      // halo rows = most generations per dispatch (<= 16)

const TW: u32 = 32u;          // tile words per row (30 interior + 2 halo)
const RPT: u32 = 8u;          // rows per thread
const WY: u32 = 128u;         // tile rows (16 thread rows x RPT)

var<workgroup> tile: array<array<u32, 4096>, 2>; // 32 KiB

// The rule's view of tile row r around word tx (zero outside the tile), and its centre word.
struct Pair {
    sums: Row,
    centre: u32,
}

fn row_sums(buf: u32, r: i32, tx: u32) -> Pair {
    if (r < 0 || r >= i32(WY)) {
        return Pair(row_of(0u, 0u, 0u), 0u);
    }
    let i = u32(r) * TW + tx;
    let c = tile[buf][i];
    var left = 0u;
    var right = 0u;
    if (tx > 0u) { left = tile[buf][i - 1u]; }
    if (tx + 1u < TW) { right = tile[buf][i + 1u]; }
    return Pair(row_of(left, c, right), c);
}

@compute @workgroup_size(32, 16)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let tx = lid.x;
    let r0 = lid.y * RPT;
    let interior = WY - 2u * HALO;
    let xw = i32(group.x * (TW - 2u) + tx) - 1;      // world word of this thread's column
    let row0 = i32(p.y0 + group.y * interior) - i32(HALO); // world row of tile row 0
    // Dead border: cells outside the world stay dead (a torus has no outside).
    var col_mask = 0xffffffffu;
    if (p.torus == 0u) {
        if (xw < 0 || xw >= i32(p.wpr)) {
            col_mask = 0u;
        } else if (u32(xw) == p.wpr - 1u) {
            col_mask = p.tail_mask;
        }
    }
    let w = i32(p.width);
    let xm = u32((((xw * 32) % w) + w) % w);
    var countdown: array<Dying, 8>;
    for (var k = 0u; k < RPT; k++) {
        let row = world_row(row0 + i32(r0 + k));
        tile[0][(r0 + k) * TW + tx] = fetch(row, xw * 32, xm);
        if (DYING > 0u) {
            countdown[k] = fetch_dying(row, xw * 32, xm);
        }
    }
    workgroupBarrier();

    // Bitsliced index (j - 1) of each cell's last birth in this block, and "born at all".
    var any_born: array<u32, 8>;
    var l0: array<u32, 8>;
    var l1: array<u32, 8>;
    var l2: array<u32, 8>;
    var l3: array<u32, 8>;
    for (var k = 0u; k < RPT; k++) {
        any_born[k] = 0u; l0[k] = 0u; l1[k] = 0u; l2[k] = 0u; l3[k] = 0u;
    }
    // Only threads owning interior rows record births (a warp is one thread row: uniform).
    let tracks = r0 + RPT > HALO && r0 < WY - HALO;
    for (var j = 1u; j <= p.gens; j++) {
        let src_buf = (j - 1u) & 1u;
        let dst_buf = j & 1u;
        let jm = j - 1u;
        var up = row_sums(src_buf, i32(r0) - 1, tx);
        var mid = row_sums(src_buf, i32(r0), tx);
        for (var k = 0u; k < RPT; k++) {
            let down = row_sums(src_buf, i32(r0 + k) + 1, tx);
            let alive = mid.centre;
            var next = next_state(up.sums, mid.sums, down.sums, alive) & col_mask;
            let y = row0 + i32(r0 + k);
            if (p.torus == 0u && (y < 0 || y >= i32(p.height))) {
                next = 0u;
            }
            if (DYING > 0u) {
                let stepped = generations(countdown[k], alive, next);
                next = stepped.alive;
                countdown[k] = stepped.dying;
            }
            tile[dst_buf][(r0 + k) * TW + tx] = next;
            if (tracks) {
                let born = next & ~alive;
                any_born[k] |= born;
                l0[k] = select(l0[k] & ~born, l0[k] | born, (jm & 1u) != 0u);
                l1[k] = select(l1[k] & ~born, l1[k] | born, (jm & 2u) != 0u);
                l2[k] = select(l2[k] & ~born, l2[k] | born, (jm & 4u) != 0u);
                if (HALO > 8u) {
                    l3[k] = select(l3[k] & ~born, l3[k] | born, (jm & 8u) != 0u);
                }
            }
            up = mid;
            mid = down;
        }
        workgroupBarrier();
    }

    if (tx == 0u || tx == TW - 1u || xw >= i32(p.wpr)) {
        return;
    }
    let last = p.gens & 1u;
    let word = u32(xw);
    for (var k = 0u; k < RPT; k++) {
        let r = r0 + k;
        let y = row0 + i32(r);
        if (r < HALO || r >= WY - HALO || y >= i32(p.y0 + p.rows)) {
            continue;
        }
        var v = tile[last][r * TW + tx];
        var mask = 0xffffffffu;
        if (word == p.wpr - 1u) {
            mask = p.tail_mask;
        }
        v &= mask;
        dst[u32(y) * p.wpr + word] = v;
        if (DYING > 0u) {
            store_countdown(countdown[k], u32(y) * p.wpr + word, mask);
        }
        var newborn = v & any_born[k];
        let cell0 = (u32(y) - p.y0) * p.width + word * 32u;
        while (newborn != 0u) {
            let b = firstTrailingBit(newborn);
            let index = code_at(vec4<u32>(l0[k], l1[k], l2[k], l3[k]), b);
            birth[cell0 + b] = p.base + index + 1u;
            newborn &= newborn - 1u;
        }
    }
}
