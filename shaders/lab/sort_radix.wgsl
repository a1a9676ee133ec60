// LSD radix sort of key + index pairs, 4-bit digits, 8 passes of three kernels:
// histogram (digit counts per 4096-pair tile), scan (exclusive prefix over the counts in
// digit-major order: where each tile's digit run starts), scatter (stable: each thread
// owns 16 consecutive pairs and ranks them after the same digits of earlier threads).
// Keys map to u32 so that unsigned order is float order (lab/radix_common.wgsl); stability
// keeps equal keys in index order, as the bitonic kernels' tie-break does.

struct Pair {
    key: f32,
    index: u32,
}

@group(0) @binding(0) var<storage, read> src: array<Pair>;
@group(0) @binding(1) var<storage, read_write> dst: array<Pair>;
@group(0) @binding(2) var<storage, read_write> hist: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

const THREADS: u32 = 256u;
const ITEMS: u32 = 16u;
const TILE: u32 = 4096u;
const DIGITS: u32 = 16u;

var<workgroup> tile_counts: array<atomic<u32>, 16>;
var<workgroup> counts: array<u32, 4096>;
var<workgroup> sums: array<u32, 256>;

//!include lab/radix_common.wgsl

fn digit_of(p: Pair) -> u32 {
    let k = radix_key(bitcast<u32>(p.key), params.descending != 0u);
    return (k >> params.shift) & (DIGITS - 1u);
}

fn own_counts(tile: u32, li: u32) -> array<u32, 16> {
    var c: array<u32, 16>;
    let first = tile * TILE + li * ITEMS;
    for (var i = 0u; i < ITEMS; i++) {
        if (first + i < params.n) {
            c[digit_of(src[first + i])] += 1u;
        }
    }
    return c;
}

@compute @workgroup_size(256)
fn histogram(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let tile = wg.y * groups.x + wg.x;
    if (tile >= params.tiles) {
        return;
    }
    if (li < DIGITS) {
        atomicStore(&tile_counts[li], 0u);
    }
    workgroupBarrier();
    let c = own_counts(tile, li);
    for (var d = 0u; d < DIGITS; d++) {
        if (c[d] != 0u) {
            atomicAdd(&tile_counts[d], c[d]);
        }
    }
    workgroupBarrier();
    if (li < DIGITS) {
        hist[li * params.tiles + tile] = atomicLoad(&tile_counts[li]);
    }
}

@compute @workgroup_size(256)
fn scan(@builtin(local_invocation_index) li: u32) {
    let len = DIGITS * params.tiles;
    let per = (len + THREADS - 1u) / THREADS;
    let begin = min(li * per, len);
    let end = min(begin + per, len);
    var total = 0u;
    for (var j = begin; j < end; j++) {
        total += hist[j];
    }
    sums[li] = total;
    workgroupBarrier();
    if (li == 0u) {
        var running = 0u;
        for (var t = 0u; t < THREADS; t++) {
            let v = sums[t];
            sums[t] = running;
            running += v;
        }
    }
    workgroupBarrier();
    var running = sums[li];
    for (var j = begin; j < end; j++) {
        let v = hist[j];
        hist[j] = running;
        running += v;
    }
}

@compute @workgroup_size(256)
fn scatter(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let tile = wg.y * groups.x + wg.x;
    if (tile >= params.tiles) {
        return;
    }
    let c = own_counts(tile, li);
    for (var d = 0u; d < DIGITS; d++) {
        counts[d * THREADS + li] = c[d];
    }
    workgroupBarrier();
    for (var s = 1u; s < THREADS; s <<= 1u) {
        var add: array<u32, 16>;
        for (var d = 0u; d < DIGITS; d++) {
            let earlier = counts[d * THREADS + select(li, li - s, li >= s)];
            add[d] = select(0u, earlier, li >= s);
        }
        workgroupBarrier();
        for (var d = 0u; d < DIGITS; d++) {
            counts[d * THREADS + li] += add[d];
        }
        workgroupBarrier();
    }
    var next: array<u32, 16>;
    for (var d = 0u; d < DIGITS; d++) {
        next[d] = hist[d * params.tiles + tile] + counts[d * THREADS + li] - c[d];
    }
    let first = tile * TILE + li * ITEMS;
    for (var i = 0u; i < ITEMS; i++) {
        if (first + i < params.n) {
            let p = src[first + i];
            let d = digit_of(p);
            dst[next[d]] = p;
            next[d] += 1u;
        }
    }
}
