// Shared by every Life kernel: the chunk parameters and the age rule.
// A chunk buffer holds rows+2 rows of `pitch` u32 ages: row 0 is the halo row above,
// rows 1..=rows are the chunk's world rows, row rows+1 is the halo row below.
// World column x of a row sits at index col0 + x (col0 = 1 when columns have a halo too).

struct Params {
    width: u32,
    rows: u32,
    pitch: u32,
    col0: u32,
    rule: u32,       // bits 0..9 birth mask, bits 9..18 survival mask
    torus: u32,      // 1 = edges wrap, 0 = outside is dead
    wrap_rows: u32,  // 1 = single-chunk torus: rows wrap in the kernel, halo rows unused
    run: u32,        // rows each thread walks (column kernel); 0 elsewhere
}

@group(0) @binding(0) var<uniform> p: Params;

fn alive(age: u32) -> u32 {
    return select(0u, 1u, age > 0u);
}

// Age after one generation: 0 dead, 1 newborn, +1 per survived generation (saturating).
fn next_age(age: u32, neighbours: u32) -> u32 {
    let keep = (p.rule >> (neighbours + 9u * alive(age))) & 1u;
    let older = select(age + 1u, age, age == 0xffffffffu);
    return select(0u, older, keep == 1u);
}

// The buffer row to read for halo-row coordinate `row` (0..=rows+1).
fn buffer_row(row: u32) -> u32 {
    if (p.wrap_rows == 1u) {
        if (row == 0u) { return p.rows; }
        if (row == p.rows + 1u) { return 1u; }
    }
    return row;
}
