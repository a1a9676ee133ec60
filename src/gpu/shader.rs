//! One way to assemble WGSL: includes and named permutations (being written).
