// gpu-bitpacked step, streaming form: 32 cells per u32, LEVELS generations per dispatch kept in
// registers, neighbour words exchanged by subgroup shuffles. No workgroup memory and no
// barrier: each subgroup works alone.
//
// A subgroup of S lanes owns a strip of S - 2 words (lane 0 and lane S - 1 are halo: their
// wrong values move one cell per generation, so any LEVELS < 32 stays out of the interior; the
// 4-bit birth codes cap LEVELS at 15) by `p.strip` rows (a dispatch parameter, tuned per device and world). It walks down the strip, loading one generation-0 row per step, from LEVELS rows
// above the strip to below it. Level j (1..=LEVELS) computes generation j: each step it takes
// the row level j - 1 produced on the previous step as its new lowest row and outputs
// generation j of the row above that (time skewing: level j outputs row `first + t - 2 j` at
// step t). Because a level reads only what was produced a step earlier, the LEVELS levels of a
// step are independent and the GPU overlaps them, instead of waiting on a chain of shuffles.
// Level j produces exact rows from step 3 j on, so the final rows start at step 3 LEVELS; the
// first steps only run the levels whose input is already exact.
//
// Each level keeps two rows (the row above and the middle row: horizontal sums, state, birth
// code) in two slots that swap roles every step. The walk is straight-line code generated per
// LEVELS by src/step/gpu_bitpacked/stream.rs into the `//!slot` lines of `main` (WGSL has no
// unrolling): the first steps with only their running levels, a loop of two steps, and the
// last (at most LEVELS + 1) steps, where level j stops once its rows lie below what the strip
// needs. Every level's state is named registers with fixed roles, so nothing is copied.
//
// Ages: each row carries a bitsliced 4-bit code of its last birth within the block (1..=15,
// 0 = none) through the levels; where a cell is alive at the end with a code, its birth
// generation `base + code` is kept: written to its birth code by a scattered store, or, with
// RECORDS, blended into its word's epoch record (`record`: one coalesced 32-byte sector a
// word instead of a store a birth, faster where many cells are born), which the host's fold
// (bitpacked_fold.wgsl) moves into the birth codes before an offset would pass 255 and at
// the end of the batch. A dispatch steps exactly LEVELS generations (the host uses a
// pipeline with a smaller LEVELS for a shorter block).
//
// Lanes gather words in cell space (see `fetch`), as the workgroup-memory kernel does.
//
// Subgroup assumptions (src/step/gpu_bitpacked/kernel.rs checks what it can): every subgroup
// of a dispatch has the same size S (strips are numbered with S, so mixed sizes would skip or
// repeat strips; Vulkan drivers pick one size per pipeline), and subgroups are full: GROUP is
// a power of two at least the device's largest subgroup, so it splits into whole subgroups and
// lane S - 1 exists. The host sizes the dispatch for the smallest S; the loop over strips is
// grid-stride, so a larger S only leaves workgroups idle.

//!include life/bitpacked_step_common.wgsl
//!include life/bitpacked_replay.wgsl

//!const GROUP: u32    // invocations per workgroup: whole subgroups (the host picks one)
//!const TORUS: bool   // false: dead border (outside cells stay dead)
//!const LEVELS: u32   // levels = generations per dispatch (1..=15)
//!const AGES: bool = true  // false: no birth codes (the benchmark's no-ages variant only)
//!const RECORDS: bool = false  // births into epoch records (`record`), not a store each
// (REPLAY, in bitpacked_replay.wgsl: strips whose neighbourhood repeated are replayed)

// A row travelling from level to level: its state and its birth-code bit planes. Under a
// Generations rule its countdown planes travel beside it in their own registers (the walk
// then calls the `_dying` forms of `advance`, `load` and `store`).
struct Rec {
    c: u32,
    code: vec4<u32>,
}

// Where this lane is: its world word, its dead-border column mask, its wrapped cell, and
// whether its word is one stored word (`word`), as on any torus whose width is a multiple of
// 32 and inside a dead-border world: then a load is one read.
struct Lane {
    xw: i32,
    col_mask: u32,
    xm: u32,
    direct: bool,
    word: u32,
}

// What a level hands on: generation j of its middle row, and the new row's `Row` (its
// horizontal sums, or its west/centre/east words: see bitpacked_step_common.wgsl).
struct Advanced {
    out: Rec,
    sums: Row,
}

// `Advanced` with the middle row's countdown planes at generation j.
struct AdvancedDying {
    out: Rec,
    sums: Row,
    dying: Dying,
}

// Set the code of the cells in `born` to j (bit b of j into plane b).
fn mark(code: vec4<u32>, born: u32, j: u32) -> vec4<u32> {
    if (!AGES) {
        return code;
    }
    let on = vec4<bool>((j & 1u) != 0u, (j & 2u) != 0u, (j & 4u) != 0u, (j & 8u) != 0u);
    return select(code & vec4<u32>(~born), code | vec4<u32>(born), on);
}

// The `Row` of a new row, for the priming steps of a level (its output unused).
fn row_sums(down: u32) -> Row {
    return row_of(subgroupShuffleUp(down, 1u), down, subgroupShuffleDown(down, 1u));
}

// Level j: generation j of its middle row (world row `row`: state `alive`, birth code `code`)
// from the sums of the row above, of the middle row and of the new row `down`.
fn advance(up: Row, mid: Row, alive: u32, code: vec4<u32>, down: u32, j: u32,
           row: i32, lane: Lane) -> Advanced {
    let sums = row_sums(down);
    let next = dead_outside(next_state(up, mid, sums, alive), row, lane);
    return Advanced(Rec(next, mark(code, next & ~alive, j)), sums);
}

// `next` with the cells outside a dead-border world cleared (a torus has no outside).
fn dead_outside(next: u32, row: i32, lane: Lane) -> u32 {
    if (TORUS) {
        return next;
    }
    if (row < 0 || row >= i32(p.height)) {
        return 0u;
    }
    return next & lane.col_mask;
}

// `advance` under a Generations rule: the middle row's countdown `dying` steps with it (a
// birth on a dying cell is undone before it is marked).
fn advance_dying(up: Row, mid: Row, alive: u32, code: vec4<u32>, dying: Dying, down: u32,
                 j: u32, row: i32, lane: Lane) -> AdvancedDying {
    let sums = row_sums(down);
    let s = generations(dying, alive, dead_outside(next_state(up, mid, sums, alive), row, lane));
    return AdvancedDying(Rec(s.alive, mark(code, s.alive & ~alive, j)), sums, s.dying);
}

// This lane's word of world row y (any integer: wrapped, or dead outside).
fn load(y: i32, lane: Lane) -> u32 {
    let row = world_row(y);
    if (lane.direct && row >= 0) {
        return src[u32(row) * p.wpr + lane.word];
    }
    return fetch(row, lane.xw * 32, lane.xm);
}

// The countdown planes of the word `load` reads.
fn load_dying(y: i32, lane: Lane) -> Dying {
    let row = world_row(y);
    if (lane.direct && row >= 0) {
        return dying_at(u32(row) * p.wpr + lane.word);
    }
    return fetch_dying(row, lane.xw * 32, lane.xm);
}

// Write a final row word and the birth generations of its cells born within the block.
fn store(r: Rec, y: u32, word: u32) {
    var v = r.c;
    if (word == p.wpr - 1u) {
        v &= p.tail_mask;
    }
    dst[y * p.wpr + word] = v;
    if (!AGES) {
        return;
    }
    let newborn = v & (r.code.x | r.code.y | r.code.z | r.code.w);
    if (REPLAY) {
        born[y * p.wpr + word] = newborn;
        row_changed = v != src[y * p.wpr + word];
    }
    if (RECORDS) {
        if (newborn != 0u) {
            record(r.code, newborn, (y - p.y0) * p.wpr + word);
        }
        return;
    }
    // Two births an iteration, the lowest and the highest left: half the trips of a loop the
    // subgroup runs as often as its lane with the most births, and two independent stores in
    // flight. On an odd count the last trip writes one cell twice, cheaper than a branch
    // (docs/benchmarks.md, "Births").
    var left = newborn;
    let cell0 = (y - p.y0) * p.width + word * 32u;
    while (left != 0u) {
        let b = firstTrailingBit(left);
        let e = firstLeadingBit(left);
        birth[cell0 + b] = p.base + code_at(r.code, b);
        birth[cell0 + e] = p.base + code_at(r.code, e);
        left &= (left - 1u) & ~(1u << e);
    }
}

// All of bit b of a uniform value, as a word.
fn spread(value: u32, b: u32) -> u32 {
    return select(0u, 0xffffffffu, ((value >> b) & 1u) == 1u);
}

// Record the births `newborn` of chunk word `at` in its epoch record (one 32-byte sector, read
// and written whole: one coalesced load and store instead of a scattered store per birth).
// Each newborn cell gets r = base - epoch + code (the host starts a new epoch before r could
// pass 255), added bitsliced: the code's four planes plus the uniform base - epoch, with
// the carry rippling into the four high planes.
fn record(code: vec4<u32>, newborn: u32, at: u32) {
    let rel = p.base - p.epoch;
    let a0 = spread(rel, 0u);
    let a1 = spread(rel, 1u);
    let a2 = spread(rel, 2u);
    let a3 = spread(rel, 3u);
    let k0 = a0 & code.x;
    let k1 = (a1 & code.y) | (k0 & (a1 ^ code.y));
    let k2 = (a2 & code.z) | (k1 & (a2 ^ code.z));
    let k3 = (a3 & code.w) | (k2 & (a3 ^ code.w));
    let lo = vec4<u32>(a0 ^ code.x, a1 ^ code.y ^ k0, a2 ^ code.z ^ k1, a3 ^ code.w ^ k2);
    let a4 = spread(rel, 4u);
    let a5 = spread(rel, 5u);
    let a6 = spread(rel, 6u);
    let k4 = a4 & k3;
    let k5 = a5 & k4;
    let k6 = a6 & k5;
    let hi = vec4<u32>(a4 ^ k3, a5 ^ k4, a6 ^ k5, spread(rel, 7u) ^ k6);
    let m = vec4<u32>(newborn);
    records[2u * at] = (records[2u * at] & ~m) | (lo & m);
    records[2u * at + 1u] = (records[2u * at + 1u] & ~m) | (hi & m);
}

// `store` and the word's countdown planes.
fn store_dying(r: Rec, dying: Dying, y: u32, word: u32) {
    store(r, y, word);
    store_countdown(dying, y * p.wpr + word, select(0xffffffffu, p.tail_mask, word == p.wpr - 1u));
}

@compute @workgroup_size(GROUP)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(subgroup_id) sg_id: u32,
    @builtin(num_subgroups) sg_count: u32,
    @builtin(subgroup_invocation_id) lane_id: u32,
    @builtin(subgroup_size) sg_size: u32,
) {
    let inner = sg_size - 2u;
    let strips_x = (p.wpr + inner - 1u) / inner;
    let strips = strips_x * ((p.rows + p.strip - 1u) / p.strip);
    let width = i32(p.width);
    let edge = lane_id == 0u || lane_id + 1u == sg_size;
    for (var s = group.x * sg_count + sg_id; s < strips; s += groups.x * sg_count) {
        let xw = i32((s % strips_x) * inner + lane_id) - 1; // world word of this lane
        var col_mask = 0xffffffffu;
        if (xw < 0 || xw >= i32(p.wpr)) {
            col_mask = 0u;
        } else if (u32(xw) == p.wpr - 1u) {
            col_mask = p.tail_mask;
        }
        let xm = u32((((xw * 32) % width) + width) % width);
        var direct = xw >= 0 && xw < i32(p.wpr);
        if (TORUS) {
            direct = (xm & 31u) == 0u && xm + 32u <= p.width;
        }
        let lane = Lane(xw, col_mask, xm, direct, select(u32(xw), xm >> 5u, TORUS));
        let writes = !edge && xw >= 0 && xw < i32(p.wpr);
        // Strip rows [ys, ys + rows) of the chunk; step t loads world row first + t and,
        // from step 3 LEVELS on, finishes row ys + t - 3 LEVELS.
        let ys = (s / strips_x) * p.strip;
        let steps = min(p.strip, p.rows - ys) + 3u * LEVELS;
        let col = s % strips_x;
        let tag = repeat_tag(sg_size);
        if (REPLAY) {
            let rows = min(p.strip, p.rows - ys);
            let repeats = cone_repeats(p.y0 + ys, rows, lane, inner, lane_id, sg_size, tag);
            count_strip(repeats, s, lane_id);
            if (repeats) {
                replay(p.y0 + ys, rows, u32(xw), writes, col, tag, lane_id, sg_size);
                continue;
            }
            settle_pending(p.y0 + ys, rows, u32(xw), writes, col, lane_id);
            row_changed = false;
        }
        let first = i32(p.y0 + ys) - i32(LEVELS);
        //!slot prefetch
        var o0: Rec;
        //!slot declare
        //!slot warm
        loop {
            if (t + 1u + LEVELS >= steps) {
                break;
            }
            //!slot step_even
            //!slot step_odd
            t += 2u;
        }
        //!slot cool
    }
}
