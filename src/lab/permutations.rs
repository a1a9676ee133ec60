//! Every module the Lab builds, listed for tests/shaders.rs and `golab gpu-info --kernels`.

use super::{
    boxsum, coalesce, lookup, scanner, shuffle, sort_kernels, sort_onesweep, sort_radix,
    sort_radix8, sort_rw, transpose,
};

/// Every module the Lab can build, as (label, WGSL), for tests/shaders.rs to validate with
/// naga: the bitonic B kernels (M = 1..=4) and C kernels (every block size of
/// [`sort_kernels::BLOCKS`], C2 and C4), the RW kernel, the radix sort, the transpose kernels, the shuffle
/// built-ins (1-D, 3-D) and emulation (every width, 1-D and 3-D) and both coalescing
/// workgroup sizes. Built by the same functions the experiments compile from.
pub fn shader_permutations() -> Vec<(String, String)> {
    use crate::gpu::shader::Shader;
    let mut shaders: Vec<Shader> = (1..=4).map(sort_kernels::b_shader).collect();
    shaders.extend(std::iter::once(0).chain(3..=11).map(sort_rw::rw_shader));
    for w in sort_kernels::BLOCKS {
        shaders.extend([false, true].map(|c4| sort_kernels::c_shader(w, c4)));
    }
    shaders.push(sort_radix::shader());
    // 8-bit radix: H200/H100 (32-lane subgroups, 48 KiB; 8 or 16 per thread), lavapipe (8
    // lanes, 32 KiB); the portable ranking (8 virtual subgroups) at every tile size.
    use sort_radix8::Ranking;
    let radix8 = [(16, 8), (8, 8), (8, 32), (4, 32)];
    shaders.extend(radix8.map(|(kpt, groups)| sort_radix8::shader(Ranking::Subgroup, kpt, groups)));
    shaders.extend([16, 8, 4, 2, 1].map(|kpt| sort_radix8::shader(Ranking::Portable, kpt, 8)));
    // One-sweep radix: the default and the shapes worth trying on the H200 (32-lane subgroups),
    // lavapipe's 8 lanes, the portable ranking, and the fallback alone (tests).
    use sort_onesweep::{DEFAULT_SHAPE, Shape};
    let shape = |t: &str| Shape::parse(t).expect("a shape");
    for (t, groups) in [
        ("256x15", 8),
        ("256x15s", 8),
        ("512x15", 16),
        ("256x8", 8),
        ("256x12", 8),
        ("256x16", 8),
        ("256x15", 32),
        ("256x8s", 32),
        ("256x8", 32),
    ] {
        shaders.push(sort_onesweep::shader(Ranking::Subgroup, shape(t), groups));
    }
    for t in ["256x15", "256x15s", "512x4", "256x1"] {
        shaders.push(sort_onesweep::shader(
            Ranking::Portable,
            shape(t),
            shape(t).threads / 32,
        ));
    }
    let alone = Shape {
        spin: 0,
        trust: false,
        ..DEFAULT_SHAPE
    };
    shaders.push(sort_onesweep::shader(Ranking::Subgroup, alone, 32));
    shaders.push(sort_onesweep::shader(Ranking::Portable, alone, 8));
    shaders.push(transpose::shader());
    shaders.push(transpose::wide_shader());
    for three_d in [false, true] {
        shaders.push(shuffle::shader(
            shuffle::Implementation::Builtin,
            three_d,
            32,
        ));
        for width in shuffle::WIDTHS {
            let emulated = shuffle::Implementation::Emulated(Some(width));
            shaders.push(shuffle::shader(emulated, three_d, width));
        }
    }
    shaders.extend(coalesce::VARIANTS.iter().map(|v| coalesce::shader(v.2)));
    shaders.push(boxsum::shader());
    shaders.push(lookup::shader());
    for subgroups in [false, true] {
        shaders.push(scanner::multi_pass_shader(subgroups));
        // Rolled, then written out straight (the shapes worth trying on the H200); each shape
        // with its fallback alone.
        let rolled = [
            (256, 4),
            (256, scanner::SINGLE_PASS_ROWS),
            (256, 12),
            (256, 16),
            (512, 8),
            (1024, 8),
            (1024, 4),
        ];
        let straight = [
            (256, 8),
            (256, 12),
            (256, 16),
            (128, 16),
            (128, 32),
            (512, 8),
        ];
        let shapes = rolled
            .iter()
            .map(|&s| (s, false))
            .chain(straight.iter().map(|&s| (s, true)));
        for ((threads, rows), unrolled) in shapes {
            let shape = scanner::SinglePass {
                threads,
                rows,
                spin: scanner::SPIN,
                trust: true,
                unrolled,
            };
            shaders.push(scanner::single_pass_shader(subgroups, shape));
            let fallback_alone = scanner::SinglePass {
                spin: 0,
                trust: false,
                ..shape
            };
            shaders.push(scanner::single_pass_shader(subgroups, fallback_alone));
        }
    }
    let mut seen = std::collections::HashSet::new();
    shaders.retain(|s| seen.insert(s.label()));
    shaders
        .iter()
        .map(|s| (s.label(), s.source().unwrap_or_else(|e| panic!("{e}"))))
        .collect()
}
