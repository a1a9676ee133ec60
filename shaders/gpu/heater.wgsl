// Busy work that keeps a GPU's clocks up while the host prepares the next measurement
// (src/gpu/heater.rs): integer arithmetic per invocation, and a write the compiler cannot
// prove dead (a xorshift state never reaches 0) so the loop is kept.

@group(0) @binding(0) var<storage, read_write> sink: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var x = id.x * 2654435761u + 1u;
    for (var i = 0u; i < 2048u; i++) {
        x ^= x << 13u;
        x ^= x >> 17u;
        x ^= x << 5u;
    }
    if (x == 0u) {
        sink[id.x & 63u] = x;
    }
}
