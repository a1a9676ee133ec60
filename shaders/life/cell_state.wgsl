// The state a u32 cell word holds (life/common.wgsl's words: ages of state-1 cells, and
// under rules of more than two states LIVE_BASE + age for state 1 and LIVE_BASE - s for
// states s >= 2). Needs `p.states` (the rule's state count, 2 for two-state rules) and
// LIVE_BASE from the including module. Shared by the rule-table and Larger than Life kernels.

fn state_of(word: u32) -> u32 {
    if (p.states <= 2u) {
        return select(0u, 1u, word != 0u);
    }
    if (word == 0u) {
        return 0u;
    }
    return select(LIVE_BASE - word, 1u, word >= LIVE_BASE);
}
