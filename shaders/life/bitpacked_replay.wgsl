// gpu-bitpacked stream kernel: replaying strips whose neighbourhood repeats (REPLAY; two-state
// rules with ages, births one store each). src/step/gpu_bitpacked/replay.rs explains it on the
// host side; the argument, in short:
//
// A block of LEVELS generations computes a strip from the cells within LEVELS of it (its
// cone). If every row of the cone ended the previous block, also of LEVELS generations, as it
// began it, this block starts from the same cone state as the previous one, so it ends the
// strip as the previous block did, with the same births at the same generations within the
// block. The strip's end state is then what the previous block ended with, which is also what
// it began with: exactly what the destination buffer (the previous block's source) holds. So a
// repeating strip writes no state at all; only the birth codes of the cells born within the
// block move on by LEVELS (`born` says which: the cells alive at the end of the word's last
// stepped block with a birth inside it), and it flags its rows as repeating again. The moves
// are counted per strip and made once: when the strip is stepped again, or in the batch's
// last full block, so statistics, view, edits and read-back see exact birth codes.
//
// Flags are per world row and strip column (a strip's words: S - 2 of them), a tag of the
// block length, the subgroup size (which fixes the columns) and the host's stamp: the host
// bumps the stamp whenever the state changed other than by a flag-writing block (edits,
// a batch of records), so older flags never match. Rows outside a dead-border world are
// dead forever and need no flag. Period 1, 2, 3 and 6 oscillators repeat over a 6-generation
// block, which is why the host runs 6-generation blocks when replay is on.

//!const REPLAY: bool = false  // replay strips whose cone repeated

// Whether this lane's word changed in the row it just stored (`store` sets it).
var<private> row_changed: bool;

// A row flag meaning "the block that wrote me ended this strip row as it began it".
fn repeat_tag(sg_size: u32) -> u32 {
    return 1u | (LEVELS << 1u) | (sg_size << 5u) | (p.stamp << 13u);
}

// The strip columns of the stored words holding this lane's 32 gathered cells (its first and
// last cell: a torus whose width is not a multiple of 32 gathers across two words; lanes
// beyond the world's next word may straddle more, but none of their cells is within LEVELS
// of a word the strip writes).
fn lane_columns(lane: Lane, inner: u32) -> vec2<u32> {
    let first = lane.xm >> 5u;
    var last = first;
    if (TORUS) {
        last = ((lane.xm + 31u) % p.width) >> 5u;
    }
    return vec2<u32>(first, last) / vec2<u32>(inner);
}

// Whether the strip of rows [y0, y0 + rows) (world rows) and this subgroup's words can be
// replayed: every flag of the rows within LEVELS of it, in every strip column a lane's gather
// touches, says the previous block repeated there. Subgroup-uniform. The columns (usually
// three) are taken one at a time, smallest first, and the subgroup's lanes split its rows.
fn cone_repeats(y0: u32, rows: u32, lane: Lane, inner: u32, lane_id: u32, sg_size: u32,
                tag: u32) -> bool {
    let cols = lane_columns(lane, inner);
    let inside = TORUS || (lane.xw >= 0 && lane.xw < i32(p.wpr));
    var left = vec2<bool>(inside, inside);
    let lo = i32(y0) - i32(LEVELS);
    let n = rows + 2u * LEVELS;
    var changed = false;
    loop {
        let c = subgroupMin(min(select(0xffffffffu, cols.x, left.x),
                                select(0xffffffffu, cols.y, left.y)));
        if (c == 0xffffffffu) {
            break;
        }
        for (var r = lane_id; r < n; r += sg_size) {
            let row = world_row(lo + i32(r));
            if (row >= 0 && flags_in[u32(row) * p.fcols + c] != tag) {
                changed = true;
            }
        }
        left &= cols != vec2<u32>(c);
    }
    return !subgroupAny(changed);
}

// The pending generations at `at`, read by lane 0 and shared (so lane 0 may then store).
fn pending(at: u32, lane_id: u32) -> u32 {
    var gens = 0u;
    if (lane_id == 0u) {
        gens = atomicLoad(&replay_state[at]);
    }
    return subgroupBroadcast(gens, 0u);
}

// Where the pending generations (see `replay`) of the strip whose first world row is `y0`
// in strip column `col` are kept, after the 64 strip counters. Strips keep their rows within
// a batch (the shape changes only between batches, and every batch ends with none pending).
fn pending_at(y0: u32, col: u32) -> u32 {
    return 64u + y0 * p.fcols + col;
}

// Move the birth codes of this lane's cells born within their word's last stepped block on
// by `gens` (the generations replayed since).
fn move_births(y0: u32, rows: u32, word: u32, gens: u32) {
    for (var r = 0u; r < rows; r++) {
        let y = y0 + r;
        var left = born[y * p.wpr + word];
        let cell0 = (y - p.y0) * p.width + word * 32u;
        while (left != 0u) {
            let b = firstTrailingBit(left);
            birth[cell0 + b] += gens;
            left &= left - 1u;
        }
    }
}

// Pending moves of `gens` generations for the strip whose counter is at `at`: made now where
// `due` (and the counter cleared), else kept in the counter.
fn keep_or_move(at: u32, gens: u32, due: bool, y0: u32, rows: u32, word: u32, writes: bool,
                lane_id: u32) {
    if (due && writes) {
        move_births(y0, rows, word, gens);
    }
    if (lane_id == 0u) {
        atomicStore(&replay_state[at], select(gens, 0u, due));
    }
}

// Replay a repeating strip: flag its rows as repeating, and count LEVELS more generations
// by which its newborns' birth codes must move. The moves wait (one counter a strip) until
// the strip is stepped again or the batch's last full block (`p.last`), so a settled strip
// costs a few flag loads and stores per block instead of a store per newborn.
fn replay(y0: u32, rows: u32, word: u32, writes: bool, col: u32, tag: u32, lane_id: u32,
          sg_size: u32) {
    let at = pending_at(y0, col);
    let gens = pending(at, lane_id) + LEVELS;
    keep_or_move(at, gens, p.last == 1u, y0, rows, word, writes, lane_id);
    for (var r = lane_id; r < rows; r += sg_size) {
        flags_out[(y0 + r) * p.fcols + col] = tag;
    }
}

// Before a strip is stepped: make the moves its replays left pending.
fn settle_pending(y0: u32, rows: u32, word: u32, writes: bool, col: u32, lane_id: u32) {
    let at = pending_at(y0, col);
    let gens = pending(at, lane_id);
    if (gens != 0u) {
        keep_or_move(at, gens, true, y0, rows, word, writes, lane_id);
    }
}

// After a stepped strip row `y` is stored: flag it as repeating where no word of it changed.
fn finish_row(y: u32, col: u32, tag: u32, lane_id: u32) {
    if (!REPLAY) {
        return;
    }
    let changed = subgroupAny(row_changed);
    row_changed = false;
    if (lane_id == 1u) {
        flags_out[y * p.fcols + col] = select(tag, 0u, changed);
    }
}

// Count a strip as replayed or stepped (spread over 32 counters of each, against contention).
fn count_strip(replayed: bool, s: u32, lane_id: u32) {
    if (lane_id == 0u) {
        atomicAdd(&replay_state[select(32u, 0u, replayed) + s % 32u], 1u);
    }
}
