// gpu-bitpacked fold: moves the epoch records the stream kernel wrote (see
// bitpacked_step_bindings.wgsl) into the birth codes, then clears them. It runs with a step
// bind group (`src` is the current state) and a parameter slot whose `epoch` is the records'.
// src/step/gpu_bitpacked/records.rs places it: before a block whose offsets would pass 255,
// and at the end of every batch that wrote records.
//
// A live cell with record r gets birth code epoch + r. That is its last birth: a batch
// writes all its births one way (records or direct stores, src/step/gpu_bitpacked/births.rs),
// edits run between batches, and a record is written only for a cell alive at the end of the
// block it was born in. Dead cells' codes are never read, so they are left as they are.
//
// One invocation per state word: most words of a settled world have no record and stop after
// one 32-byte load; a word with records writes its live recorded cells (a loop over their
// bits, as the direct births do, but once per batch instead of once per block). Rows are
// grid-strided: the host dispatches at most 65 535 workgroups down a chunk.

//!include life/bitpacked_step_bindings.wgsl

@compute @workgroup_size(64, 4)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let xw = id.x;
    if (xw >= p.wpr) {
        return;
    }
    for (var r = id.y; r < p.rows; r += groups.y * 4u) {
        let word = r * p.wpr + xw;
        let lo = records[2u * word];
        let hi = records[2u * word + 1u];
        let any = lo | hi;
        let recorded = any.x | any.y | any.z | any.w;
        if (recorded == 0u) {
            continue;
        }
        var left = src[(p.y0 + r) * p.wpr + xw] & recorded;
        let cell0 = r * p.width + xw * 32u;
        while (left != 0u) {
            let b = firstTrailingBit(left);
            birth[cell0 + b] = p.epoch + (code_at(lo, b) | (code_at(hi, b) << 4u));
            left &= left - 1u;
        }
        records[2u * word] = vec4<u32>(0u);
        records[2u * word + 1u] = vec4<u32>(0u);
    }
}
