// gpu-bitpacked edits: paint/erase cells of one birth chunk on the device. Each edit is
// (x, y, op, 0) with op 0 erase, 1 paint keeping a live cell's age, 2 newborn (the host folds
// several edits of one cell into one, see engine::edits::fold_edits). Edits of one word race,
// so the state and old planes are updated with atomics. A newborn gets birth code n_y and
// its old bit cleared. Every edit ends a Generations cell's dying state (its countdown planes
// after the live plane are cleared), as World::apply_edit does.

struct EditParams {
    count: u32,
    wpr: u32,
    width: u32,
    y0: u32,
    n_y: u32,
    dying: u32,       // countdown planes after the live plane (0: two states)
    plane_words: u32, // words per plane
    pad0: u32,
}

@group(0) @binding(0) var<uniform> e: EditParams;
@group(0) @binding(1) var<storage, read> edits: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> plane: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> old: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> birth: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= e.count) {
        return;
    }
    let edit = edits[i];
    let word = edit.y * e.wpr + (edit.x >> 5u);
    let bit = 1u << (edit.x & 31u);
    for (var j = 1u; j <= e.dying; j++) {
        atomicAnd(&plane[j * e.plane_words + word], ~bit);
    }
    if (edit.z == 0u) {
        atomicAnd(&plane[word], ~bit);
        return;
    }
    let alive = (atomicLoad(&plane[word]) & bit) != 0u;
    if (edit.z == 1u && alive) {
        return;
    }
    atomicOr(&plane[word], bit);
    atomicAnd(&old[word], ~bit);
    birth[(edit.y - e.y0) * e.width + edit.x] = e.n_y;
}
