// gpu-bitpacked view: one thread per output pixel writes the largest view value among the
// cells under it (age + LIVE_BASE for live cells, LIVE_BASE - state for Generations' dying
// cells, 0 if none), exactly view::render_host. The host computes each pixel column's
// and row's cell span (no float rounding on the device). A world with several birth chunks
// is drawn by one dispatch per chunk: the first writes, the others keep the maximum.

//!include life/bitpacked_ages.wgsl

struct ViewParams {
    width: u32,
    wpr: u32,
    y0: u32,        // first world row of this chunk
    rows: u32,
    width_px: u32,
    height_px: u32,
    first: u32,     // 1: overwrite the output, 0: combine with max
    dying: u32,     // countdown planes after the live plane (0: two states)
    states: u32,    // the Generations rule's C (a dying cell of countdown r is in state C - r)
    plane_words: u32,
    pad0: u32,
    pad1: u32,
    ages: AgeParams,
}

@group(0) @binding(0) var<uniform> v: ViewParams;
@group(0) @binding(1) var<storage, read> plane: array<u32>;
@group(0) @binding(2) var<storage, read> old: array<u32>;
@group(0) @binding(3) var<storage, read> birth: array<u32>;
@group(0) @binding(4) var<storage, read> col_spans: array<vec2<u32>>;
@group(0) @binding(5) var<storage, read> row_spans: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read_write> out: array<u32>;

//!include gpu/view_value.wgsl

// The view value of the freshest (lowest-state, largest-countdown) dying cell among `span`
// of word `i`, 0 if none is dying.
fn freshest_dying(i: u32, span: u32) -> u32 {
    var dying = 0u;
    for (var j = 1u; j <= v.dying; j++) {
        dying |= plane[j * v.plane_words + i];
    }
    dying &= span;
    var best = 0u;
    while (dying != 0u) {
        let b = firstTrailingBit(dying);
        var r = 0u;
        for (var j = 1u; j <= v.dying; j++) {
            r |= ((plane[j * v.plane_words + i] >> b) & 1u) << (j - 1u);
        }
        best = max(best, dying_value(v.states - r));
        dying &= dying - 1u;
    }
    return best;
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let px = id.x;
    let py = id.y;
    if (px >= v.width_px || py >= v.height_px) {
        return;
    }
    let xs = col_spans[px];
    let ys = row_spans[py];
    let y_start = max(ys.x, v.y0);
    let y_end = min(ys.y, v.y0 + v.rows);
    var best = 0u;
    if (xs.y > xs.x) {
        for (var y = y_start; y < y_end; y++) {
            for (var word = xs.x >> 5u; word <= (xs.y - 1u) >> 5u; word++) {
                let lo = max(xs.x, word * 32u) - word * 32u;
                let hi = min(xs.y, word * 32u + 32u) - word * 32u;
                let i = y * v.wpr + word;
                let span = bit_range(lo, hi);
                var live = plane[i] & span;
                let o = old[i];
                if (live == 0u && best < LIVE_BASE && v.dying > 0u) {
                    best = max(best, freshest_dying(i, span));
                }
                while (live != 0u) {
                    let b = firstTrailingBit(live);
                    let s = birth[(y - v.y0) * v.width + word * 32u + b];
                    let age = age_of(v.ages, s, ((o >> b) & 1u) == 1u);
                    best = max(best, live_value(age));
                    live &= live - 1u;
                }
            }
        }
    }
    let i = py * v.width_px + px;
    if (v.first == 1u) {
        out[i] = best;
    } else {
        out[i] = max(out[i], best);
    }
}
