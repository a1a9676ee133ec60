// The view value of a cell (src/step/view.rs, pixel_value): 0 dead, LIVE_BASE - state for a
// dying Generations state, age + LIVE_BASE (saturating) for a live cell. Also the cell word
// of the u32-age kernels under Generations rules (life/common.wgsl). One definition for the
// step, statistics and view kernels and the app's paint shader.

const LIVE_BASE: u32 = 256u;

// The view value of a live cell of `age`: its age plus LIVE_BASE, saturating.
fn live_value(age: u32) -> u32 {
    return select(age + LIVE_BASE, 0xffffffffu, age > 0xffffffffu - LIVE_BASE);
}

// The view value of a dying cell in Generations state `state` (2..C-1).
fn dying_value(state: u32) -> u32 {
    return LIVE_BASE - state;
}
