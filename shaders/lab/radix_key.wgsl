// The radix sorts' key order: f32 key bits mapped to a u32 whose unsigned order is the float
// order (negative floats flipped, positive ones get the sign bit), inverted for descending.
// Ties keep the input order (the sorts are stable), which is the index order.

fn radix_key(bits: u32, descending: bool) -> u32 {
    let k = select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
    return select(k, ~k, descending);
}
