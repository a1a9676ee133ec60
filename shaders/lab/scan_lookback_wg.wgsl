// The single pass's look-back walked by the workgroup (every device): the first 32 threads
// read one predecessor each into workgroup memory, thread 0 adds them up to the first silent
// predecessor or the nearest inclusive prefix, two barriers a round. A predecessor silent for
// SPIN rounds has its tile reduced by the workgroup itself (the no-forward-progress fallback
// of scan_lookback.wgsl).

// Predecessors a look-back round reads at once (one per thread of the first 32).
const WINDOW: u32 = 32u;

// What one look-back round found, as every thread must see it.
struct Walk {
    // Predecessors accounted for (their sum is in `exclusive`).
    consumed: u32,
    // An inclusive prefix was met: the walk is over.
    done: u32,
    // The sum of the predecessors accounted for so far.
    exclusive: u32,
}

var<workgroup> window: array<vec2<u32>, 32>; // (0 not ready | 1 aggregate | 2 inclusive, value)
var<workgroup> walk: Walk;

// The sum of every value before `tile` (all threads call it; uniform control flow).
fn look_back(tile: u32, lid: u32) -> u32 {
    if (lid == 0u) {
        walk = Walk(0u, 0u, 0u);
    }
    var next = tile; // predecessors [0, next) are not accounted for yet
    var stalled = 0u;
    while (next > 0u) {
        if (lid < WINDOW) {
            var seen = vec2<u32>(0u, 0u);
            if (lid < next) {
                seen = published(next - 1u - lid);
            }
            window[lid] = seen;
        }
        workgroupBarrier();
        if (lid == 0u) {
            var w = walk;
            w.consumed = 0u;
            for (var k = 0u; k < min(WINDOW, next); k += 1u) {
                let seen = window[k];
                if (seen.x == 0u) {
                    break;
                }
                w.exclusive += seen.y;
                w.consumed += 1u;
                if (seen.x == 2u) {
                    w.done = 1u;
                    break;
                }
            }
            walk = w;
        }
        let w = workgroupUniformLoad(&walk);
        if (w.done != 0u) {
            break;
        }
        next -= w.consumed;
        if (w.consumed != 0u || next == 0u) {
            stalled = 0u;
            continue;
        }
        stalled += 1u;
        if (stalled > SPIN) {
            // The nearest predecessor has published nothing: reduce its tile here.
            let total = fallback_total(next - 1u, lid);
            if (lid == 0u) {
                walk.exclusive += total;
            }
            next -= 1u;
            stalled = 0u;
        }
    }
    return workgroupUniformLoad(&walk).exclusive;
}
