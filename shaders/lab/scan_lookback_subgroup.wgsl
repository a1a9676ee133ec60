// The single pass's look-back walked by one subgroup (the workgroup's first), without a
// workgroup barrier per round: each lane reads one predecessor's publications, two ballots
// find the first predecessor that has published nothing yet and the nearest inclusive prefix,
// one subgroup sum adds what lies before them. The rest of the workgroup waits at one
// barrier. When the nearest predecessor stays silent for SPIN rounds, the walk hands over to
// the whole workgroup, which reduces that predecessor's tile (the no-forward-progress
// fallback of scan_lookback.wgsl) and lets the subgroup walk on. Correct for any subgroup size
// (8 on lavapipe, 32 on NVIDIA, 64 on AMD); like the subgroup workgroup scan it takes the
// first subgroup to hold local invocations 0..width - 1.

// Where the subgroup's walk stopped: (predecessors not accounted for, their sum so far
// accounted for, 1 when done).
var<workgroup> found: vec3<u32>;

// The lowest lane set in a ballot, or `none`.
fn lowest_lane(ballot: vec4<u32>, none: u32) -> u32 {
    for (var c = 0u; c < 4u; c += 1u) {
        if (ballot[c] != 0u) {
            return 32u * c + firstTrailingBit(ballot[c]);
        }
    }
    return none;
}

// The sum of every value before `tile` (all threads call it; uniform control flow).
fn look_back(tile: u32, lid: u32) -> u32 {
    let width = subgroupAdd(1u);
    let lane = subgroupExclusiveAdd(1u);
    var next = tile; // predecessors [0, next) are not accounted for yet
    var exclusive = 0u;
    loop {
        if (lid < width) {
            var done = next == 0u;
            var stalled = 0u;
            loop {
                if (done || stalled > SPIN) {
                    break;
                }
                // Lane l reads predecessor next - 1 - l: 0 nothing yet, 1 aggregate, 2 inclusive.
                var seen = vec2<u32>(0u, 0u);
                if (lane < next) {
                    seen = published(next - 1u - lane);
                }
                let state = seen.x;
                let value = seen.y;
                let silent = lowest_lane(subgroupBallot(state == 0u), width);
                let prefix = lowest_lane(subgroupBallot(state == 2u), width);
                // Lanes before the first silent one count; an inclusive prefix among them ends
                // the walk.
                var take = min(silent, next);
                let met = prefix < take;
                if (met) {
                    take = prefix + 1u;
                }
                exclusive += subgroupAdd(select(0u, value, lane < take));
                next -= take;
                done = met || next == 0u;
                stalled = select(stalled + 1u, 0u, take != 0u);
            }
            if (lane == 0u) {
                found = vec3<u32>(next, exclusive, select(0u, 1u, done));
            }
        }
        let walked = workgroupUniformLoad(&found);
        exclusive = walked.y;
        if (walked.z != 0u) {
            break;
        }
        // The nearest predecessor has published nothing for SPIN rounds: reduce its tile here.
        next = walked.x - 1u;
        exclusive += fallback_total(next, lid);
    }
    return exclusive;
}
