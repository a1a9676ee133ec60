// Shared by both gpu-bitpacked step kernels (bitpacked.wgsl, bitpacked_subgroup.wgsl both
// include it): parameters, bindings and the gather of a cell's birth code
// (bitpacked_step_bindings.wgsl), the cell-space gather of a world word (torus wrap, dead
// border) and the rule applied to bit planes.
//
// The rule comes in slot `rule` (src/step/gpu_bitpacked/pipelines.rs): the type `Row` a
// kernel keeps per row, `row_of(left, c, right)` making it from a word and its neighbours,
// and `next_state(up, mid, down, alive)`. Outer-totalistic Moore rules keep horizontal sums
// (Row = vec2: lo, hi) and apply BIRTH/SURVIVE to the count planes (`next_counts`); any other
// rule keeps the west, centre and east words (Row = vec3) and runs its table compiled into
// bitwise operations (`rule_next`, src/rule/circuit.rs), with the count planes as extra
// inputs when the compiled program reads them.
//
// Generations rules (DYING > 0) keep beside the live plane DYING countdown planes of the dying
// states (src/rule/generations.rs: r = C - state, least significant plane first), stored after
// the live plane in the same buffer (plane j at word j * p.plane). A dying state depends only
// on the cell itself, so kernels carry the countdown with their rows and `generations` applies
// it after the rule: only live cells are neighbours, a dying cell is never born.

//!const BIRTH: u32 = 0u     // bit n: a dead cell with n neighbours is born (count path)
//!const SURVIVE: u32 = 0u  // bit n: a live cell with n neighbours survives (count path)

//!const DYING: u32 = 0u   // countdown planes of a Generations rule (0: two states)

//!slot rule

// Slot `dying` (src/step/gpu_bitpacked/countdown.rs, straight-line code for the rule's exact
// number of planes, so they stay in registers): the type `Dying`, `generations(dying, alive,
// next) -> Stepped`, `dying_at(i)` (the planes of stored word i), `fetch_dying` (as `fetch`)
// and `store_countdown(dying, i, mask)`.
//!slot dying

// A row word after one Generations step: its live cells and countdown planes.
struct Stepped {
    alive: u32,
    dying: Dying,
}

//!include life/bitpacked_step_bindings.wgsl

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
// (-1: dead) of the live plane. `xm` is x wrapped into the world (torus), computed once per
// thread.
fn fetch(row: i32, x: i32, xm: u32) -> u32 {
    return fetch_plane(0u, row, x, xm);
}

// `fetch` from bit plane `plane` (0 live, 1..=DYING the countdown).
fn fetch_plane(plane: u32, row: i32, x: i32, xm: u32) -> u32 {
    if (row < 0) {
        return 0u;
    }
    let base = plane * p.plane + u32(row) * p.wpr;
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

// Horizontal sums of word c with its neighbour words: west + centre + east = lo + 2 hi, as
// (lo, hi). Bit i of a word is cell 32k + i, so the west neighbours are c << 1.
fn hsum(left: u32, c: u32, right: u32) -> vec2<u32> {
    let west = (c << 1u) | (left >> 31u);
    let east = (c >> 1u) | (right << 31u);
    let x = west ^ c;
    return vec2<u32>(x ^ east, (west & c) | (east & x));
}

// West + centre + east of a row's (west, centre, east) words as (lo, hi), as `hsum` adds them
// (the compiled-rule path keeps rows as those three words).
fn row_sum(cells: vec3<u32>) -> vec2<u32> {
    let x = cells.x ^ cells.y;
    return vec2<u32>(x ^ cells.z, (cells.x & cells.y) | (cells.z & x));
}

// The bits T0..T3 of the 3x3 count T (0..9, the cell itself included) from the horizontal
// sums of the rows above, at and below: T = l_0 + 2 (l_1 + m0) + 4 m1.
fn count_bits(up: vec2<u32>, mid: vec2<u32>, down: vec2<u32>) -> vec4<u32> {
    let lx = up.x ^ mid.x;
    let l_0 = lx ^ down.x;
    let l_1 = (up.x & mid.x) | (down.x & lx);
    let hx = up.y ^ mid.y;
    let m0 = hx ^ down.y;
    let m1 = (up.y & mid.y) | (down.y & hx);
    let odd = l_1 ^ m0;
    let nc = l_1 & m0;
    return vec4<u32>(l_0, odd, m1 ^ nc, m1 & nc);
}

// Next state of a row word from the horizontal sums of the rows above, at and below it,
// under the BIRTH/SURVIVE masks.
fn next_counts(up: vec2<u32>, mid: vec2<u32>, down: vec2<u32>, alive: u32) -> u32 {
    // Three 2-bit row sums -> count T (0..9, the cell itself included) =
    // l_0 + 2 (l_1 + m0) + 4 m1.
    let lx = up.x ^ mid.x;
    let l_0 = lx ^ down.x;
    let l_1 = (up.x & mid.x) | (down.x & lx);
    let hx = up.y ^ mid.y;
    let m0 = hx ^ down.y;
    let m1 = (up.y & mid.y) | (down.y & hx);
    let odd = l_1 ^ m0;
    if (BIRTH == 8u && SURVIVE == 12u) {
        // B3/S23 in five operations: T = 3 (odd middle term, no 4), or T = 4 with the cell
        // alive (even middle term: l_1 = m0, and exactly one of 2 l_1 + 2 m0 and 4 m1 is 4).
        return (l_0 & odd & ~m1) | (~l_0 & ~odd & (m0 ^ m1) & alive);
    }
    let nc = l_1 & m0;
    return rule(alive, l_0, odd, m1 ^ nc, m1 & nc);
}
