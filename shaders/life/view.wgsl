// Draw a screen-resolution window of a device-resident chunk: each pixel gets the largest
// view value among the cells under it (src/step/view.rs: age + LIVE_BASE for live cells). The host computes every pixel's cell
// span, so the float arithmetic of zoom and pan is done once, identically for every backend.

struct ViewParams {
    width_px: u32,
    height_px: u32,
    row0: u32,   // first world row held by this chunk
    rows: u32,   // rows held by this chunk
    pitch: u32,
    col0: u32,
    generations: u32, // 1: cell words are already view values (Generations), 0: ages
    pad1: u32,
}

@group(0) @binding(0) var<uniform> v: ViewParams;
// Half-open cell spans: `width_px` column spans, then `height_px` row spans.
@group(0) @binding(1) var<storage, read> spans: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read> cells: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<atomic<u32>>;

//!include gpu/view_value.wgsl

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= v.width_px || id.y >= v.height_px) {
        return;
    }
    let xs = spans[id.x];
    let ys = spans[v.width_px + id.y];
    let y_lo = max(ys.x, v.row0);
    let y_hi = min(ys.y, v.row0 + v.rows);
    var best = 0u;
    for (var y = y_lo; y < y_hi; y++) {
        let base = (y - v.row0 + 1u) * v.pitch + v.col0;
        for (var x = xs.x; x < xs.y; x++) {
            let word = cells[base + x];
            let value = select(select(0u, live_value(word), word > 0u), word, v.generations == 1u);
            best = max(best, value);
        }
    }
    if (best > 0u) {
        atomicMax(&out[id.y * v.width_px + id.x], best);
    }
}
