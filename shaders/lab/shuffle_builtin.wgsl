// The subgroup built-ins, with the article's bounds for up and down made explicit
// (out-of-range built-in results are undefined; lavapipe returns another lane's value).

//!include lab/shuffle.wgsl

fn shuffle(x: u32, op: u32, d: u32, lane: u32, w: u32, flat: u32) -> u32 {
    switch op {
        case 0u: { return subgroupShuffle(x, (lane + d) & (w - 1u)); }
        case 1u: { return subgroupShuffleXor(x, d & (w - 1u)); }
        case 2u: {
            let v = subgroupShuffleUp(x, min(d, w - 1u));
            return select(x, v, d <= lane);
        }
        default: {
            let v = subgroupShuffleDown(x, min(d, w - 1u));
            return select(x, v, lane + d < w);
        }
    }
}
