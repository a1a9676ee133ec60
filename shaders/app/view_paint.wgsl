// Colour the simulation thread's view image (one view value per pixel, src/step/view.rs:
// 0 dead, LIVE_BASE - state for dying cells, age + LIVE_BASE for live ones)
// inside the paint callback's viewport (the world view). The image may be from a slightly
// older camera: `origin` and `size` place it in the viewport's 0..1 coordinates, so a pan
// moves it at once; uncovered parts show the dead colour.

struct Paint {
    width_px: u32,
    height_px: u32,
    generation: f32,
    srgb_target: u32, // 1 when the target format encodes sRGB itself: output linear
    origin: vec2<f32>,
    size: vec2<f32>,
    states: u32,                  // Generations states C (2: no dying states)
    by_state: u32,                // 1: colour by state (a rule table's own colours)
    parity: u32,                  // triangular layout: (x + y) mod 2 of the image's first cell
    pad2: u32,
    cell_layout: u32,             // 1: hexagonal, 2: triangular layout (the fields below place the image); 0: square
    cells_per_pixel: f32,         // the image's cells per pixel
    view_origin: vec2<f32>,       // display coords of the viewport's top-left, relative to the image's first cell
    view_size: vec2<f32>,         // the viewport's size in display units (one unit: a cell's width)
    pad3: vec2<f32>,
    dead: vec4<f32>,
    dying_first: vec4<f32>,       // colour of dying state 2
    dying_last: vec4<f32>,        // colour of dying state C-1
    table: array<vec4<f32>, 101>, // colour of normalized age 0..=100
    state_colours: array<vec4<f32>, 256>, // colour of each state when by_state is 1
}

//!include gpu/view_value.wgsl

@group(0) @binding(0) var<uniform> paint: Paint;
@group(0) @binding(1) var<storage, read> ages: array<u32>;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> VertexOut {
    // One triangle covering the viewport; uv (0,0) top-left, (1,1) bottom-right.
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var out: VertexOut;
    out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

fn to_target(c: vec4<f32>) -> vec4<f32> {
    if (paint.srgb_target == 0u) {
        return c;
    }
    let lo = c.rgb / 12.92;
    let hi = pow((c.rgb + 0.055) / 1.055, vec3<f32>(2.4));
    return vec4<f32>(select(hi, lo, c.rgb <= vec3<f32>(0.04045)), c.a);
}

const HEX_ROW: f32 = 0.8660254;

// The cell (relative to the image's first cell) whose hexagon holds display point d: the
// nearest centre among the two nearest rows, centre of (x, y) at (x + 1/4 - y/2,
// (y + 1/2) * sqrt(3)/2) — src/app/camera.rs's hex_cell_at.
fn hex_cell(d: vec2<f32>) -> vec2<f32> {
    let first = floor(d.y / HEX_ROW - 0.5);
    var best = vec2<f32>(0.0);
    var best_d = 1e30;
    for (var k = 0; k < 2; k++) {
        let y = first + f32(k);
        let x = round(d.x - 0.25 + y * 0.5);
        let delta = d - vec2<f32>(x + 0.25 - y * 0.5, (y + 0.5) * HEX_ROW);
        let dist = dot(delta, delta);
        if (dist < best_d) {
            best_d = dist;
            best = vec2<f32>(x, y);
        }
    }
    return best;
}

// The cell (relative to the image's first cell, whose x + y parity the view origin keeps
// even: src/app/camera.rs) whose triangle holds display point d: in row y the point lies in
// the half-unit strip k = floor(2u), shared by cells k - 1 and k; the edge between them is
// cell k's left side, rising when k points down (k + y even) — src/app/cell_layout.rs's
// tri_cell_at, with display u = x/2 + 1/4.
fn tri_cell(d: vec2<f32>, parity: u32) -> vec2<f32> {
    let row = d.y / HEX_ROW;
    let y = floor(row);
    let down_fraction = row - y;
    let s = 2.0 * d.x + 0.5;
    let k = floor(s);
    let across = s - k;
    let k_down = ((u32(i32(k) + i32(y)) + parity) & 1u) == 0u;
    let edge = select(1.0 - down_fraction, down_fraction, k_down);
    return vec2<f32>(select(k - 1.0, k, across >= edge), y);
}

// The image pixel this fragment shows, or (-1, -1) outside the image.
fn image_pixel(uv: vec2<f32>) -> vec2<i32> {
    var p: vec2<f32>;
    if (paint.cell_layout != 0u) {
        let d = paint.view_origin + uv * paint.view_size;
        var cell: vec2<f32>;
        if (paint.cell_layout == 1u) {
            cell = hex_cell(d);
        } else {
            cell = tri_cell(d, paint.parity);
        }
        p = floor((cell + vec2<f32>(0.5)) / paint.cells_per_pixel);
    } else {
        p = floor((uv - paint.origin) / paint.size * vec2<f32>(f32(paint.width_px), f32(paint.height_px)));
    }
    if (any(p < vec2<f32>(0.0)) || p.x >= f32(paint.width_px) || p.y >= f32(paint.height_px)) {
        return vec2<i32>(-1);
    }
    return vec2<i32>(p);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let p = image_pixel(in.uv);
    if (p.x < 0) {
        return to_target(paint.dead);
    }
    let value = ages[u32(p.y) * paint.width_px + u32(p.x)];
    if (value == 0u) {
        return to_target(paint.dead);
    }
    if (paint.by_state == 1u) {
        // Dying-range values carry states 2.., the live range is state 1.
        return to_target(paint.state_colours[select(1u, LIVE_BASE - value, value < LIVE_BASE)]);
    }
    if (value < LIVE_BASE) {
        let state = LIVE_BASE - value;
        let f = f32(state - 2u) / f32(max(paint.states, 4u) - 3u);
        return to_target(mix(paint.dying_first, paint.dying_last, clamp(f, 0.0, 1.0)));
    }
    let age = value - LIVE_BASE;
    // Generations survived (age - 1): newborn and painted cells are bright at any generation.
    let norm = min(100u, u32(floor(f32(age - 1u) * 100.0 / max(paint.generation, 1.0))));
    return to_target(paint.table[norm]);
}
