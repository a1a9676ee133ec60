// What gpu-radix and gpu-radix8 share: their parameter block and the key order
// (lab/radix_key.wgsl).

//!include lab/radix_key.wgsl

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
