// Shared by every Life kernel: the chunk parameters and the rule.
// A chunk buffer holds rows+2 rows of `pitch` u32 cell words: row 0 is the halo row above,
// rows 1..=rows are the chunk's world rows, row rows+1 is the halo row below.
// World column x of a row sits at index col0 + x (col0 = 1 when columns have a halo too).
// A cell word is its age (0 = dead) under two-state rules; under Generations rules with
// dying states it is view::pixel_value: age + LIVE_BASE alive, LIVE_BASE - state dying,
// 0 dead (src/step/gpu_cells/memory.rs packs and unpacks it).

struct Params {
    width: u32,
    rows: u32,
    pitch: u32,
    col0: u32,
    states: u32,     // Generations states C; 2 for two-state rules
    torus: u32,      // 1 = edges wrap, 0 = outside is dead
    wrap_rows: u32,  // 1 = single-chunk torus: rows wrap in the kernel, halo rows unused
    run: u32,        // rows each thread walks (column kernel); 0 elsewhere
    // The rule's 512-entry table (src/rule/spec.rs): bit i of the 16 words = next alive
    // for neighbourhood index i (NW = bit 8 … centre = bit 4 … SE = bit 0).
    table: array<vec4<u32>, 4>,
}

//!include gpu/view_value.wgsl

@group(0) @binding(0) var<uniform> p: Params;

// 1 when the cell word is a live cell (dying cells count as dead neighbours).
fn alive(word: u32) -> u32 {
    return select(0u, 1u, word > select(0u, LIVE_BASE - 1u, p.states > 2u));
}

// The rule's verdict for neighbourhood index `index`: 1 = alive next generation.
fn rule_bit(index: u32) -> u32 {
    return (p.table[index >> 7u][(index >> 5u) & 3u] >> (index & 31u)) & 1u;
}

// The cell word after one generation, given the word and its 9-bit neighbourhood index:
// newborn age 1, +1 per survived generation (saturating); under Generations a live cell the
// rule does not keep starts dying (state 2), dying states advance and wrap to dead.
fn next_word(word: u32, index: u32) -> u32 {
    let keep = rule_bit(index) == 1u;
    let older = select(word + 1u, word, word == 0xffffffffu);
    if (p.states <= 2u) {
        return select(0u, older, keep);
    }
    if (word >= LIVE_BASE) {
        return select(dying_value(2u), older, keep);
    }
    if (word == 0u) {
        return select(0u, live_value(1u), keep);
    }
    let state = LIVE_BASE - word + 1u;
    return select(dying_value(state), 0u, state >= p.states);
}

// The buffer row to read for halo-row coordinate `row` (0..=rows+1).
fn buffer_row(row: u32) -> u32 {
    if (p.wrap_rows == 1u) {
        if (row == 0u) { return p.rows; }
        if (row == p.rows + 1u) { return 1u; }
    }
    return row;
}
