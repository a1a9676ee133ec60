// RW kernel ("registers, regrouped through workgroup memory"): one pass does up to 11
// bitonic steps on a workgroup's 2048 pairs, three steps at a time on the eight pairs each
// thread holds in registers; between rounds the pairs are regrouped through workgroup memory
// so that the next steps' partners sit in one thread. Workgroup memory is touched once per
// three steps (C2 touches it every step), and every pass does as many steps as 2048 pairs
// allow:
// - one pass sorts each 2048-pair block (the stages 2 … 2048, 66 steps; L = 0);
// - for a larger stage, passes with L = l < 11 take the pairs whose index differs only in
//   the l lowest bits (runs of 2^l consecutive pairs: coalesced) and in the 11 − l bits at
//   the pass's compare distances (≥ 2048), doing those 11 − l steps;
// - one pass (L = 11) ends the stage with its 11 steps of distance < 2048, like a C pass.
// The pairs of a workgroup are its local indices 0 … 2047: local bits [0, l) are the global
// index bits [0, l), local bits [l, 11) are the global bits [p, p + 11 − l) with
// 2^p = last_inc, and the workgroup's number fills the other global bits.
// The regroup moves keys, then indices, through one 8 KiB array: on the H200 a 16 KiB
// array per workgroup cost a third of the bandwidth (fewer workgroups resident per SM).

//!include lab/sort_common.wgsl
//!const L: u32 // low bits of a one-stage pass (3..=11); 0: the pass sorting whole blocks

const W: u32 = 2048u;
const LOCAL_BITS: u32 = 11u;
// The register bits of loads and stores: a thread's own bits are the 8 lowest local bits,
// so each load or store instruction covers runs of consecutive pairs.
const COALESCED: vec3<u32> = vec3<u32>(10u, 9u, 8u);

var<workgroup> tile: array<u32, W>;

// This invocation's eight registers (sortable key, index), its own bits' part of their
// local indices, and their global indices. The local bits the registers span (r, with
// r.x > r.y > r.z) are a function variable of `main`, passed along: every barrier depends on
// them, and WGSL's uniformity rules trust function variables, not private ones.
var<private> regs: array<vec2<u32>, 8>;
var<private> gi: array<u32, 8>;
var<private> tp: u32;

// Where a workgroup's local indices lie in the array: local bits [0, l) at global bits
// [0, l), the others from global bit p up, the workgroup's number in base.
struct Layout {
    l: u32,
    p: u32,
    base: u32,
}

fn global_index(m: Layout, i: u32) -> u32 {
    return (i & ((1u << m.l) - 1u)) | ((i >> m.l) << m.p) | m.base;
}

// The index with a zero bit inserted at position b.
fn insert_zero(x: u32, b: u32) -> u32 {
    return ((x >> b) << (b + 1u)) | (x & ((1u << b) - 1u));
}

// The local index bits of thread t when its registers span the local bits r.x > r.y > r.z:
// t's 8 bits spread over the other 8 positions, lowest first.
fn thread_part(t: u32, r: vec3<u32>) -> u32 {
    return insert_zero(insert_zero(insert_zero(t, r.z), r.y), r.x);
}

// Where local index i lives in workgroup memory: its 5 lowest bits XOR (h << 2) ^ (h >> 1),
// h the bits above them — found by search to put the 32 threads of a warp on 32 different
// banks for every three consecutive register bits this kernel uses. Linear, so a
// register's slot is its thread's slot XOR the slots of its register bits.
fn slot(i: u32) -> u32 {
    let h = i >> 5u;
    return i ^ (((h << 2u) ^ (h >> 1u)) & 31u);
}

// The local index of register q when the registers span r and the thread's bits are tp.
fn register_index(tp: u32, r: vec3<u32>, q: u32) -> u32 {
    return tp | (((q >> 2u) & 1u) << r.x) | (((q >> 1u) & 1u) << r.y) | ((q & 1u) << r.z);
}

// The slots of a thread's bits and of its three register bits.
fn slots_of(tp: u32, r: vec3<u32>) -> vec4<u32> {
    return vec4<u32>(slot(tp), slot(1u << r.x), slot(1u << r.y), slot(1u << r.z));
}

fn register_slot(s: vec4<u32>, q: u32) -> u32 {
    return s.x ^ select(0u, s.y, (q & 4u) != 0u) ^ select(0u, s.z, (q & 2u) != 0u)
        ^ select(0u, s.w, (q & 1u) != 0u);
}

// Compare-exchange of two registers (key in sortable form, index): the pair in the stage's
// direction (down: descending within this stage).
fn cmpx(a: vec2<u32>, b: vec2<u32>, down: bool) -> vec4<u32> {
    let b_first = (b.x < a.x) || (b.x == a.x && b.y < a.y);
    return select(vec4<u32>(a, b), vec4<u32>(b, a), b_first != down);
}

// The register bits that hold local step bit b: b and the two below it, or the lowest three
// at or above `floor` when b is too low for that.
fn registers_for(b: u32, floor: u32) -> vec3<u32> {
    let top = max(b, floor + 2u);
    return vec3<u32>(top, top - 1u, top - 2u);
}

// Every register through workgroup memory (keys, then indices), from spanning the local bits
// r to spanning `to`.
fn regroup(t: u32, r: vec3<u32>, to: vec3<u32>) {
    let old_slots = slots_of(tp, r);
    tp = thread_part(t, to);
    let new_slots = slots_of(tp, to);
    for (var q = 0u; q < 8u; q++) {
        tile[register_slot(old_slots, q)] = regs[q].x;
    }
    workgroupBarrier();
    var keys: array<u32, 8>;
    for (var q = 0u; q < 8u; q++) {
        keys[q] = tile[register_slot(new_slots, q)];
    }
    workgroupBarrier();
    for (var q = 0u; q < 8u; q++) {
        tile[register_slot(old_slots, q)] = regs[q].y;
    }
    workgroupBarrier();
    for (var q = 0u; q < 8u; q++) {
        regs[q] = vec2<u32>(keys[q], tile[register_slot(new_slots, q)]);
    }
    workgroupBarrier();
}

// The global indices of the registers of a thread whose own bits are `part`, registers
// spanning r, in the block laid out by m.
fn indices(m: Layout, part: u32, r: vec3<u32>) -> array<u32, 8> {
    var at: array<u32, 8>;
    for (var q = 0u; q < 8u; q++) {
        at[q] = global_index(m, register_index(part, r, q));
    }
    return at;
}

// One step of the stage on local bit b, one of the register bits: four compare-exchanges,
// each pair's direction from its global index (the stage's bit).
fn step_on(b: u32, stage: u32, r: vec3<u32>) {
    if (b == r.x) {
        for (var e = 0u; e < 4u; e++) {
            let v = cmpx(regs[e], regs[e + 4u], (gi[e] & stage) != 0u);
            regs[e] = v.xy;
            regs[e + 4u] = v.zw;
        }
    } else if (b == r.y) {
        for (var e = 0u; e < 4u; e++) {
            let i = (e & 1u) | ((e & 2u) << 1u);
            let v = cmpx(regs[i], regs[i + 2u], (gi[i] & stage) != 0u);
            regs[i] = v.xy;
            regs[i + 2u] = v.zw;
        }
    } else {
        for (var e = 0u; e < 4u; e++) {
            let i = e << 1u;
            let v = cmpx(regs[i], regs[i + 1u], (gi[i] & stage) != 0u);
            regs[i] = v.xy;
            regs[i + 1u] = v.zw;
        }
    }
}

// One round of a one-stage pass, the registers spanning `spans`: regrouped to hold bit `top`
// (not in the first round), then the steps on bits top, top − 1, … down to the lowest
// register bit or `bottom`; returns the bits the registers span. Everything here is a
// constant once L is.
fn round(t: u32, spans: vec3<u32>, top: u32, bottom: u32, floor: u32, stage: u32,
         first: bool) -> vec3<u32> {
    var r = spans;
    if (!first) {
        r = registers_for(top, floor);
        regroup(t, spans, r);
    }
    for (var k = 0u; k < 3u; k++) {
        if (k <= top && top - k >= bottom && top - k >= r.z) {
            step_on(top - k, stage, r);
        }
    }
    return r;
}

// Where block `blk` of this pass lies (its local bits l; see the top of the file).
fn layout_of(blk: u32, l: u32) -> Layout {
    let high = LOCAL_BITS - l;
    var m = Layout(l, LOCAL_BITS, blk << LOCAL_BITS);
    if (high > 0u) {
        m.p = countTrailingZeros(params.last_inc);
        let mid = m.p - l;
        m.base = ((blk & ((1u << mid) - 1u)) << l) | ((blk >> mid) << (m.p + high));
    }
    return m;
}

@compute @workgroup_size(256)
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) t: u32,
) {
    // Each workgroup sorts the blocks g, g + G, g + 2G, … (G workgroups), loading the next
    // block's pairs before it sorts the current one, so that memory stays busy while it
    // computes.
    let g = wg.y * groups.x + wg.x;
    let stride = groups.x * groups.y;
    let blocks = params.threads >> 8u;
    if (g >= blocks) {
        return;
    }
    let l = select(L, LOCAL_BITS, L == 0u);
    // The lowest local bit a step of this pass touches; registers never span lower bits
    // than min(that, 8), so the last round of a pass at large distances leaves the pairs
    // in coalesced order for the stores.
    let bottom = select(0u, l, l < LOCAL_BITS);
    let floor = min(bottom, 8u);
    // Registers hold sortable(key) (descending: complemented, so the network always sorts
    // ascending) and the index; pairs past the end (sizes below 2048) hold the largest
    // value and are never compared with real ones (no stage goes past n).
    let flip = select(0u, 0xffffffffu, params.descending != 0u);

    var blk = g;
    var m = layout_of(blk, l);
    let loader = thread_part(t, COALESCED);
    var next_pairs: array<vec2<u32>, 8>;
    var at = indices(m, loader, COALESCED);
    for (var q = 0u; q < 8u; q++) {
        next_pairs[q] = vec2<u32>(0xffffffffu, 0xffffffffu);
        if (at[q] < params.n) {
            next_pairs[q] = data[at[q]];
        }
    }
    loop {
        // The pairs loaded for this block, and where they came from.
        var r = COALESCED;
        tp = loader;
        gi = at;
        for (var q = 0u; q < 8u; q++) {
            regs[q] = next_pairs[q];
            if (gi[q] < params.n) {
                regs[q].x = sortable_bits(regs[q].x) ^ flip;
            }
        }
        let next = blk + stride;
        let next_m = layout_of(next, l);
        if (next < blocks) {
            at = indices(next_m, loader, COALESCED);
            for (var q = 0u; q < 8u; q++) {
                next_pairs[q] = data[at[q]];
            }
        }

        if (L != 0u) {
            // One stage, steps on local bits 10 … bottom: four rounds at most, all
            // constant. Its direction bit lies outside the local bits: the same in every gi.
            let stage = params.block;
            r = round(t, r, 10u, bottom, floor, stage, true);
            if (7u >= bottom) {
                r = round(t, r, 7u, bottom, floor, stage, false);
            }
            if (4u >= bottom) {
                r = round(t, r, 4u, bottom, floor, stage, false);
            }
            if (1u >= bottom) {
                r = round(t, r, 1u, bottom, floor, stage, false);
            }
        } else {
            // Every stage up to the block (2048, or the whole array when smaller), each from
            // its top bit down; a pair's direction bit is one of its own local bits.
            for (var s = 1u; s <= LOCAL_BITS; s++) {
                let stage = 1u << s;
                if (stage > params.block) {
                    break;
                }
                for (var k = 0u; k < s; k++) {
                    let b = s - 1u - k;
                    if (b != r.x && b != r.y && b != r.z) {
                        let to = registers_for(b, 0u);
                        regroup(t, r, to);
                        r = to;
                        gi = indices(m, tp, r);
                    }
                    step_on(b, stage, r);
                }
            }
        }

        // Stored from the registers where the thread's own bits include the run of
        // consecutive pairs; else regrouped first so that each store instruction writes
        // whole lines.
        if (r.z < min(l, 8u)) {
            regroup(t, r, COALESCED);
            r = COALESCED;
        }
        gi = indices(m, tp, r);
        for (var q = 0u; q < 8u; q++) {
            if (gi[q] < params.n) {
                data[gi[q]] = vec2<u32>(unsortable(regs[q].x ^ flip), regs[q].y);
            }
        }
        if (next >= blocks) {
            break;
        }
        // (Every regroup ends with a barrier: the next block's first one cannot overwrite
        // workgroup memory that slower threads still read for this block.)
        blk = next;
        m = next_m;
    }
}
