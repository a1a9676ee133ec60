// Shared by the bitonic kernels: the key + original-index pair and the total order.
// Ties on the key are broken by the index, so padding (±inf with indices ≥ n) always
// sorts after real data and the result is unique, whatever the network does.

struct Pair {
    key: f32,
    index: u32,
}

// params.a = inc (largest compare distance of this pass), b = block size of the stage
// (direction: ascending where (i & block) == 0), c = 1 for descending order,
// d = number of elements (a power of two), e = threads in this dispatch.
struct Params {
    inc: u32,
    block: u32,
    descending: u32,
    n: u32,
    threads: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
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

fn before(a: Pair, b: Pair) -> bool {
    if (a.key != b.key) {
        return (a.key < b.key) != (params.descending != 0u);
    }
    return a.index < b.index;
}

fn flat_id(wg: vec3<u32>, groups: vec3<u32>, local: u32, size: u32) -> u32 {
    return (wg.y * groups.x + wg.x) * size + local;
}
