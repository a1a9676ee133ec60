// Shared by the bitonic kernels: the key + original-index pair and the total order (keys
// by IEEE totalOrder, so −0 sorts before +0 and NaNs at the ends). Ties on the key are broken
// by the index, so padding (the largest key in the order, indices ≥ n) always sorts after
// real data and the result is unique, whatever the network does.

struct Pair {
    key: f32,
    index: u32,
}

// inc: the largest compare distance of this pass; block: the block size of the stage
// (direction: ascending where (i & block) == 0); descending: 1 for descending order;
// n: the number of elements (a power of two); threads: threads in this dispatch; last_inc:
// the smallest compare distance of an RW pass at large distances (its pairs' layout).
struct Params {
    inc: u32,
    block: u32,
    descending: u32,
    n: u32,
    threads: u32,
    last_inc: u32,
    pad0: u32,
    pad1: u32,
}

// Pairs are stored as vec2<u32> (key bits, index) so that each element moves with one
// 64-bit load or store, as an 8-byte struct does in CUDA; an array<Pair> is read and written
// as two 32-bit accesses per element.
@group(0) @binding(0) var<storage, read_write> data: array<vec2<u32>>;

fn load_pair(i: u32) -> Pair {
    let v = data[i];
    return Pair(bitcast<f32>(v.x), v.y);
}

fn store_pair(i: u32, p: Pair) {
    data[i] = vec2<u32>(bitcast<u32>(p.key), p.index);
}
@group(0) @binding(1) var<uniform> params: Params;

// The key's bits in an order where unsigned comparison is IEEE totalOrder (−0 before +0,
// NaNs at the ends), the order the CPU checks with f32::total_cmp.
fn sortable_bits(b: u32) -> u32 {
    return b ^ select(0x80000000u, 0xffffffffu, (b >> 31u) != 0u);
}

fn sortable(key: f32) -> u32 {
    return sortable_bits(bitcast<u32>(key));
}

// The key bits whose sortable form is s.
fn unsortable(s: u32) -> u32 {
    return s ^ select(0x80000000u, 0xffffffffu, (s >> 31u) == 0u);
}

fn before(a: Pair, b: Pair) -> bool {
    let ka = sortable(a.key);
    let kb = sortable(b.key);
    if (ka != kb) {
        return (ka < kb) != (params.descending != 0u);
    }
    return a.index < b.index;
}

fn flat_id(wg: vec3<u32>, groups: vec3<u32>, local: u32, size: u32) -> u32 {
    return (wg.y * groups.x + wg.x) * size + local;
}
