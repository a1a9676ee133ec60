// What the radix sorts share: their parameter block and the key order — f32 key bits mapped
// to a u32 whose unsigned order is the float order (negative floats flipped, positive ones
// get the sign bit), inverted for descending. Ties keep the input order (the sorts are
// stable), which is the index order.

struct Params {
    shift: u32,
    n: u32,
    tiles: u32,
    descending: u32,
    sub: u32,  // gpu-radix8: tiles per workgroup (its counts are per run of `sub` tiles)
    pad1: u32,
    pad2: u32,
    pad3: u32,
}

fn radix_key(bits: u32, descending: bool) -> u32 {
    let k = select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
    return select(k, ~k, descending);
}
