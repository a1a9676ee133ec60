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

override BIRTH: u32 = 8u;     // bit n: a dead cell with n neighbours is born
override SURVIVE: u32 = 12u;  // bit n: a live cell with n neighbours survives
override HALO: u32 = 8u;      // halo rows = most generations per dispatch (<= 16)

const TW: u32 = 32u;          // tile words per row (30 interior + 2 halo)
const RPT: u32 = 8u;          // rows per thread
const WY: u32 = 128u;         // tile rows (16 thread rows x RPT)

struct StepParams {
    width: u32,
    height: u32,
    wpr: u32,        // words per row
    torus: u32,
    tail_mask: u32,  // valid bits of the last word of a row
    gens: u32,       // generations this dispatch (1..=HALO)
    base: u32,       // birth code of the block's first generation; a birth at step j gets base + j
    y0: u32,         // first row of this birth chunk
    rows: u32,       // rows of this birth chunk
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> p: StepParams;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<storage, read_write> birth: array<u32>;

var<workgroup> tile: array<array<u32, 4096>, 2>; // 32 KiB

fn low_bits(n: u32) -> u32 {
    return select((1u << n) - 1u, 0xffffffffu, n >= 32u);
}

// The 32 torus cells starting at world cell x (0 <= x < width) of the row at `base`.
fn wrapped32(base: u32, x0: u32) -> u32 {
    let w = p.width;
    if (x0 + 32u <= w) {
        let k = x0 >> 5u;
        let b = x0 & 31u;
        if (b == 0u) {
            return src[base + k];
        }
        return (src[base + k] >> b) | (src[base + k + 1u] << (32u - b));
    }
    // Crosses the right edge (possibly several times on narrow worlds): gather piecewise.
    var out = 0u;
    var got = 0u;
    var x = x0;
    loop {
        let b = x & 31u;
        let take = min(min(32u - b, w - x), 32u - got);
        let chunk = (src[base + (x >> 5u)] >> b) & low_bits(take);
        out |= chunk << got;
        got += take;
        x += take;
        if (x == w) { x = 0u; }
        if (got == 32u) { break; }
    }
    return out;
}

// The world row a tile row reads: wrapped (torus) or -1 outside a dead-border world.
fn world_row(y: i32) -> i32 {
    let h = i32(p.height);
    if (y >= 0 && y < h) {
        return y;
    }
    if (p.torus == 1u) {
        return ((y % h) + h) % h;
    }
    return -1;
}

// The tile word starting at world cell x (a multiple of 32, any integer) of world row `row`
// (-1: dead). `xm` is x wrapped into the world (torus), computed once per thread.
fn fetch(row: i32, x: i32, xm: u32) -> u32 {
    if (row < 0) {
        return 0u;
    }
    let base = u32(row) * p.wpr;
    if (p.torus == 1u) {
        return wrapped32(base, xm);
    }
    if (x < 0 || x >= i32(p.width)) {
        return 0u;
    }
    return src[base + u32(x >> 5u)]; // stored tail words have their padding bits clear
}

// Bit t of `v` as an all-ones/all-zeros selector of `plane` or its complement.
fn lit(plane: u32, t: u32, bit: u32) -> u32 {
    return select(~plane, plane, ((t >> bit) & 1u) == 1u);
}

// Cells whose 3x3 count (self included) is t and that live next generation under the rule.
fn term(t: u32, alive: u32, b0: u32, b1: u32, b2: u32, b3: u32) -> u32 {
    let born = ((BIRTH >> t) & 1u) == 1u;
    let keep = t > 0u && ((SURVIVE >> (t - 1u)) & 1u) == 1u;
    if (!born && !keep) {
        return 0u;
    }
    let eq = lit(b0, t, 0u) & lit(b1, t, 1u) & lit(b2, t, 2u) & lit(b3, t, 3u);
    if (born && keep) {
        return eq;
    }
    if (born) {
        return eq & ~alive;
    }
    return eq & alive;
}

fn rule(alive: u32, b0: u32, b1: u32, b2: u32, b3: u32) -> u32 {
    return term(0u, alive, b0, b1, b2, b3) | term(1u, alive, b0, b1, b2, b3)
        | term(2u, alive, b0, b1, b2, b3) | term(3u, alive, b0, b1, b2, b3)
        | term(4u, alive, b0, b1, b2, b3) | term(5u, alive, b0, b1, b2, b3)
        | term(6u, alive, b0, b1, b2, b3) | term(7u, alive, b0, b1, b2, b3)
        | term(8u, alive, b0, b1, b2, b3) | term(9u, alive, b0, b1, b2, b3);
}

// Horizontal sums of a tile row around word tx: west + centre + east = lo + 2 hi.
struct Pair {
    lo: u32,
    hi: u32,
    centre: u32,
}

fn row_sums(buf: u32, r: i32, tx: u32) -> Pair {
    if (r < 0 || r >= i32(WY)) {
        return Pair(0u, 0u, 0u);
    }
    let i = u32(r) * TW + tx;
    let c = tile[buf][i];
    var left = 0u;
    var right = 0u;
    if (tx > 0u) { left = tile[buf][i - 1u]; }
    if (tx + 1u < TW) { right = tile[buf][i + 1u]; }
    let west = (c << 1u) | (left >> 31u);
    let east = (c >> 1u) | (right << 31u);
    let x = west ^ c;
    return Pair(x ^ east, (west & c) | (east & x), c);
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
    for (var k = 0u; k < RPT; k++) {
        tile[0][(r0 + k) * TW + tx] = fetch(world_row(row0 + i32(r0 + k)), xw * 32, xm);
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
            // Three 2-bit row sums -> 4-bit count T (0..9, the cell itself included).
            let lx = up.lo ^ mid.lo;
            let l_0 = lx ^ down.lo;
            let l_1 = (up.lo & mid.lo) | (down.lo & lx);
            let hx = up.hi ^ mid.hi;
            let m0 = hx ^ down.hi;
            let m1 = (up.hi & mid.hi) | (down.hi & hx);
            let n0 = l_1 ^ m0;
            let nc = l_1 & m0;
            let alive = mid.centre;
            var next = rule(alive, l_0, n0, m1 ^ nc, m1 & nc) & col_mask;
            let y = row0 + i32(r0 + k);
            if (p.torus == 0u && (y < 0 || y >= i32(p.height))) {
                next = 0u;
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
        if (word == p.wpr - 1u) {
            v &= p.tail_mask;
        }
        dst[u32(y) * p.wpr + word] = v;
        var newborn = v & any_born[k];
        let cell0 = (u32(y) - p.y0) * p.width + word * 32u;
        while (newborn != 0u) {
            let b = firstTrailingBit(newborn);
            let index = ((l0[k] >> b) & 1u) | (((l1[k] >> b) & 1u) << 1u)
                | (((l2[k] >> b) & 1u) << 2u) | (((l3[k] >> b) & 1u) << 3u);
            birth[cell0 + b] = p.base + index + 1u;
            newborn &= newborn - 1u;
        }
    }
}
