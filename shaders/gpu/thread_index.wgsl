// The flat index of a thread of a 256-wide workgroup in a 2-D grid of workgroups (grids past
// 65 535 workgroups wrap into y: src/lab/gpu.rs `grid`).
fn thread_index(wg: vec3<u32>, groups: vec3<u32>, li: u32) -> u32 {
    return (wg.y * groups.x + wg.x) * 256u + li;
}
