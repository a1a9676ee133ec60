// Shared by the gpu-bitpacked kernels that read ages (statistics, view): the decode of a
// cell's birth code. Mirrors AgeParams::age in src/step/gpu_bitpacked/ages.rs.
// A code above 2^31 is a birth after the last load (young); otherwise the old-plane bit says
// whether the code counts from the old epoch (ages above 2^31 at the load, saturating).

struct AgeParams {
    n_y: u32,     // generation - young epoch
    n_o_lo: u32,  // generation - old epoch, low word
    n_o_hi: u32,  // and high word
    pad: u32,
}

fn age_of(a: AgeParams, s: u32, old: bool) -> u32 {
    if (s > 0x80000000u || !old) {
        return a.n_y + 1u - s;
    }
    let lo = a.n_o_lo - s;
    let hi = a.n_o_hi - select(0u, 1u, a.n_o_lo < s);
    if (hi > 0u || lo == 0xffffffffu) {
        return 0xffffffffu;
    }
    return lo + 1u;
}

// Bits lo..hi (exclusive, 0 <= lo < hi <= 32) of a word.
fn bit_range(lo: u32, hi: u32) -> u32 {
    let upto = select((1u << hi) - 1u, 0xffffffffu, hi >= 32u);
    return upto & ~((1u << lo) - 1u);
}
