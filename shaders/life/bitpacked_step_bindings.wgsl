// The bindings of gpu-bitpacked's step pipeline layout (src/step/gpu_bitpacked/pipelines.rs),
// shared by the step kernels (through bitpacked_step_common.wgsl) and the fold
// (bitpacked_fold.wgsl), which runs with the same bind groups and parameter ring, and the
// gather of a cell's value from bit planes that both write births with.

struct StepParams {
    width: u32,
    height: u32,
    wpr: u32,        // words per row
    torus: u32,
    tail_mask: u32,  // valid bits of the last word of a row
    gens: u32,       // generations this dispatch (1..=the pipeline's most; 0 in a fold's slot)
    base: u32,       // birth code of the block's first generation; a birth at step j gets base + j
    y0: u32,         // first row of this birth chunk
    rows: u32,       // rows of this birth chunk
    plane: u32,      // words per bit plane (wpr * height): countdown plane j starts at j * plane
    strip: u32,      // stream kernel: interior rows per strip (tuned per device and world)
    epoch: u32,      // birth code a record counts from: a record r means birth code epoch + r
    stamp: u32,      // replay: the host's count of state changes outside flag-writing blocks
    fcols: u32,      // replay: strip columns per row of the repeat flags
    last: u32,       // replay: 1 in the batch's last full block (pending birth moves are made)
    pad1: u32,
}

@group(0) @binding(0) var<uniform> p: StepParams;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<storage, read_write> birth: array<u32>;
// Epoch records of this chunk (stream kernel only): per state word, eight bit planes of an
// 8-bit offset r (1..=255, 0 = none) from `epoch`, as two vec4s: one 32-byte sector a word.
@group(0) @binding(4) var<storage, read_write> records: array<vec4<u32>>;
// Replay (bitpacked_replay.wgsl): the repeat flags the previous block wrote and this block
// writes (one per world row and strip column), the cells each word's last stepped block left
// alive with a birth inside it, and 64 counters of strips replayed and stepped followed by
// each strip's pending birth moves.
@group(0) @binding(5) var<storage, read> flags_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> flags_out: array<u32>;
@group(0) @binding(7) var<storage, read_write> born: array<u32>;
@group(0) @binding(8) var<storage, read_write> replay_state: array<atomic<u32>>;

// The 4-bit value that bit b of four bitsliced planes holds (plane i: bit i of the value):
// a cell's birth code within a block, as both step kernels record it; the fold reads a
// record's two halves with it.
fn code_at(planes: vec4<u32>, b: u32) -> u32 {
    let bits = (planes >> vec4<u32>(b)) & vec4<u32>(1u);
    return bits.x | (bits.y << 1u) | (bits.z << 2u) | (bits.w << 3u);
}
