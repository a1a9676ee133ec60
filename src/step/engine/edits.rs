//! Edit batches folded to one operation per cell, and recorded as dispatches of a
//! representation's edit kernel.

use std::collections::HashMap;

use crate::gpu::GpuContext;
use crate::world::CellEdit;

/// Fold a batch of edits into one operation per cell with the same result as applying them
/// in order through [`crate::world::edit_age`]: 0 erase, 1 paint keeping age, 2 newborn.
pub fn fold_edits(edits: &[CellEdit], width: u32, height: u32) -> HashMap<(u32, u32), u32> {
    let mut ops: HashMap<(u32, u32), u32> = HashMap::new();
    for e in edits.iter().filter(|e| e.x < width && e.y < height) {
        let op = match (e.alive, ops.get(&(e.x, e.y))) {
            (false, _) => 0,
            (true, None) => 1,
            (true, Some(0)) => 2,
            (true, Some(&previous)) => previous,
        };
        ops.insert((e.x, e.y), op);
    }
    ops
}

/// Edits per dispatch: 64 threads a workgroup × the per-dimension workgroup limit.
pub const EDITS_PER_DISPATCH: usize = 64 * 65_535;

/// Record the folded edits of each chunk (`per_chunk[c]`, one record per cell in the
/// representation's layout) as dispatches of `pipeline`, one per batch of at most
/// [`EDITS_PER_DISPATCH`], 64 records a workgroup. `bind(chunk, count, list)` makes the bind
/// group for a batch of `count` records uploaded in `list`.
pub fn encode_edit_batches<E: bytemuck::Pod>(
    ctx: &GpuContext,
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::ComputePipeline,
    per_chunk: &[Vec<E>],
    mut bind: impl FnMut(usize, u32, &wgpu::Buffer) -> wgpu::BindGroup,
) {
    for (chunk, records) in per_chunk.iter().enumerate() {
        for batch in records.chunks(EDITS_PER_DISPATCH) {
            let list = ctx.buffer_with(
                "edit list",
                bytemuck::cast_slice(batch),
                wgpu::BufferUsages::STORAGE,
            );
            let group = bind(chunk, batch.len() as u32, &list);
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups((batch.len() as u32).div_ceil(64), 1, 1);
        }
    }
}
