// Shared by the Larger than Life count passes (ltl_count.wgsl, ltl_diamond4.wgsl): the
// generation's cell words and Golly's transition of one cell from its count. Needs
// LtlParams `p`.

@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
// Bits of the birth then survival flags of this parity, `flags_len` entries each.
@group(0) @binding(5) var<storage, read> flags: array<u32>;

fn flag(table: u32, count: i32) -> bool {
    if (p.intervals == 1u) {
        let lo = select(p.birth_lo, p.survive_lo, table == 1u);
        let hi = select(p.birth_hi, p.survive_hi, table == 1u);
        return count >= lo && count <= hi;
    }
    if (count < 0 || u32(count) >= p.flags_len) {
        return false;
    }
    let i = table * p.flags_len + u32(count);
    return ((flags[i >> 5u] >> (i & 31u)) & 1u) == 1u;
}

// Golly's transition of world cell (x, y) with `count` neighbours, written to dst and
// returned.
fn emit(x: u32, y: u32, count: i32) -> u32 {
    let at = (y + 1u) * p.pitch + x;
    let word = src[at];
    let state = state_of(word);
    var out = 0u;
    if (state == 0u) {
        if (flag(0u, count)) {
            out = select(1u, live_value(1u), p.states > 2u);
        }
    } else if (state == 1u) {
        if (flag(1u, count)) {
            out = select(word + 1u, word, word == 0xffffffffu);
        } else if (p.states > 2u) {
            out = dying_value(2u);
        }
    } else if (state + 1u < p.states) {
        out = dying_value(state + 1u);
    }
    dst[at] = out;
    return out;
}
