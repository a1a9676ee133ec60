// Apply painted/erased cells to a device-resident chunk without touching any other cell.
// Each edit is (buffer index, op): op 0 erases, 1 paints keeping a live cell's age,
// 2 makes a newborn (age 1) — the host folds several edits of one cell into one.

struct EditParams {
    count: u32,
    base: u32, // LIVE_BASE under Generations (cell words are age + base), 0 otherwise
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> e: EditParams;
@group(0) @binding(1) var<storage, read> edits: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> cells: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= e.count) {
        return;
    }
    let edit = edits[i];
    let word = cells[edit.x];
    var next = 0u;
    if (edit.y == 1u) {
        // A live cell keeps its age; a dead or dying one becomes a newborn.
        next = select(e.base + 1u, word, word > e.base);
    } else if (edit.y == 2u) {
        next = e.base + 1u;
    }
    cells[edit.x] = next;
}
