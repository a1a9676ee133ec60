// gpu-bitpacked statistics: population, dying cells (Generations) and age histogram of one
// birth chunk's rows, reduced on the device. Buckets come from host-computed age thresholds
// (exact for any u64 generation: no division here). One thread per state word.

//!include life/bitpacked_ages.wgsl

struct StatsParams {
    width: u32,
    wpr: u32,
    y0: u32,          // first world row of this chunk
    rows: u32,
    buckets: u32,     // 1..=64
    out_offset: u32,  // this chunk's buckets + population slots in `out`
    dying: u32,       // countdown planes after the live plane in `plane` (0: two states)
    plane_words: u32, // words per plane
    dying_slot: u32,  // where every chunk adds its dying cells in `out`
    pad0: u32,
    pad1: u32,
    pad2: u32,
    ages: AgeParams,
}

@group(0) @binding(0) var<uniform> s: StatsParams;
@group(0) @binding(1) var<storage, read> plane: array<u32>;
@group(0) @binding(2) var<storage, read> old: array<u32>;
@group(0) @binding(3) var<storage, read> birth: array<u32>;
@group(0) @binding(4) var<storage, read> thresholds: array<u32>;
@group(0) @binding(5) var<storage, read_write> out: array<atomic<u32>>;

var<workgroup> counts: array<atomic<u32>, 66>; // buckets, population (64), dying (65)

@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    if (li < 66u) {
        atomicStore(&counts[li], 0u);
    }
    workgroupBarrier();
    let word = id.x;
    let r = id.y;
    if (word < s.wpr && r < s.rows) {
        let i = (s.y0 + r) * s.wpr + word;
        var live = plane[i];
        let o = old[i];
        if (live != 0u) {
            atomicAdd(&counts[64], countOneBits(live));
        }
        var dying = 0u;
        for (var j = 1u; j <= s.dying; j++) {
            dying |= plane[j * s.plane_words + i];
        }
        if (dying != 0u) {
            atomicAdd(&counts[65], countOneBits(dying));
        }
        while (live != 0u) {
            let b = firstTrailingBit(live);
            let age = age_of(s.ages, birth[r * s.width + word * 32u + b], ((o >> b) & 1u) == 1u);
            var bucket = 0u;
            for (var t = 1u; t < s.buckets; t++) {
                let th = thresholds[t];
                if (th == 0u || age < th) { break; }
                bucket = t;
            }
            atomicAdd(&counts[bucket], 1u);
            live &= live - 1u;
        }
    }
    workgroupBarrier();
    if (li < s.buckets) {
        let c = atomicLoad(&counts[li]);
        if (c > 0u) { atomicAdd(&out[s.out_offset + li], c); }
    } else if (li == 64u) {
        let c = atomicLoad(&counts[64]);
        if (c > 0u) { atomicAdd(&out[s.out_offset + s.buckets], c); }
    } else if (li == 65u) {
        let c = atomicLoad(&counts[65]);
        if (c > 0u) { atomicAdd(&out[s.dying_slot], c); }
    }
}
