//! Assembly rules of [`super::Shader`] on a small table of test files (no GPU, no naga:
//! tests/shaders.rs validates the real modules).

use super::*;

static TEST_FILES: &[(&str, &str)] = &[
    (
        "t/root.wgsl",
        "//!include t/common.wgsl\n//!include t/leaf.wgsl\n//!const N: u32 // rows\nfn f() {}\n",
    ),
    (
        "t/common.wgsl",
        "//!include t/leaf.wgsl\nconst COMMON: u32 = 1u;\n",
    ),
    ("t/leaf.wgsl", "const LEAF: u32 = 2u;\n"),
    ("t/cycle_a.wgsl", "//!include t/cycle_b.wgsl\n"),
    ("t/cycle_b.wgsl", "//!include t/cycle_a.wgsl\n"),
    (
        "t/kinds.wgsl",
        "//!const A: i32\n//!const B: f32\n//!const C: bool\n//!const D: u32 = 9u\nfn main() {\n  //!slot body\n}\n",
    ),
    ("t/missing.wgsl", "//!include t/nope.wgsl\n"),
    ("t/unknown.wgsl", "//!pragma x\n"),
];

fn assemble(shader: Shader) -> Result<String, ShaderError> {
    shader.assemble(TEST_FILES)
}

#[test]
fn includes_resolve_once_and_constants_land_where_declared() {
    let src = assemble(Shader::new("t/root.wgsl").constant("N", 47u32)).unwrap();
    assert_eq!(src.matches("const COMMON").count(), 1, "{src}");
    assert_eq!(src.matches("const LEAF").count(), 1, "{src}");
    assert!(src.contains("const N: u32 = 47u; // rows\n"), "{src}");
    assert!(src.find("LEAF").unwrap() < src.find("fn f").unwrap());
}

#[test]
fn every_value_type_slots_defaults_and_generated_text() {
    let src = assemble(
        Shader::new("t/kinds.wgsl")
            .constant("A", -3i32)
            .constant("B", 0.5f32)
            .constant("C", true)
            .slot("body", "  let x = A;")
            .generated("fn g() {}"),
    )
    .unwrap();
    for want in [
        "const A: i32 = -3i;",
        "const B: f32 = 0.5f;",
        "const C: bool = true;",
        "const D: u32 = 9u;",
        "  let x = A;\n}",
    ] {
        assert!(src.contains(want), "{want} missing from\n{src}");
    }
    assert!(src.trim_end().ends_with("fn g() {}"));
    let label = Shader::new("t/kinds.wgsl")
        .constant("A", 1i32)
        .slot("body", "")
        .label();
    let hash = xxhash_rust::xxh3::xxh3_64(b"") as u32;
    assert_eq!(label, format!("t/kinds.wgsl A=1 +body#{hash:08x}"));
    assert_eq!(
        ConstValue::I32(i32::MIN).literal().unwrap(),
        "(-2147483647i - 1i)"
    );
    assert_eq!(ConstValue::F32(1e20).literal().unwrap(), "1e20f");
}

#[test]
fn mistakes_are_errors_that_name_the_file() {
    let cases = [
        (
            Shader::new("t/cycle_a.wgsl"),
            "include cycle: t/cycle_a.wgsl → t/cycle_b.wgsl → t/cycle_a.wgsl",
        ),
        (
            Shader::new("t/missing.wgsl"),
            "t/missing.wgsl:1: no shader t/nope.wgsl",
        ),
        (
            Shader::new("t/unknown.wgsl"),
            "t/unknown.wgsl:1: unknown directive //!pragma",
        ),
        (Shader::new("t/nope.wgsl"), "no shader t/nope.wgsl"),
        (
            Shader::new("t/root.wgsl"),
            "t/root.wgsl:3: constant N needs a value",
        ),
        (
            Shader::new("t/root.wgsl").constant("N", 1i32),
            "t/root.wgsl:3: constant N is u32, given a i32",
        ),
        (
            Shader::new("t/root.wgsl")
                .constant("N", 1u32)
                .constant("NN", 2u32),
            "constant NN is not declared",
        ),
        (
            Shader::new("t/root.wgsl")
                .constant("N", 1u32)
                .constant("N", 2u32),
            "constant N is given twice",
        ),
        (
            Shader::new("t/root.wgsl")
                .constant("N", 1u32)
                .slot("walk", ""),
            "slot walk has no `//!slot walk` line",
        ),
        (
            Shader::new("t/kinds.wgsl")
                .constant("A", 1i32)
                .constant("B", 1.0f32)
                .constant("C", false),
            "t/kinds.wgsl:6: slot body was not filled",
        ),
        (
            Shader::new("t/kinds.wgsl")
                .constant("A", 1i32)
                .constant("B", f32::NAN)
                .constant("C", false)
                .slot("body", ""),
            "t/kinds.wgsl:2: constant B is not finite",
        ),
    ];
    for (shader, want) in cases {
        let err = assemble(shader.clone()).unwrap_err();
        assert!(err.to_string().contains(want), "{err} (wanted {want})");
        assert!(err.to_string().contains(&shader.label()), "{err}");
    }
}

#[test]
fn the_table_holds_every_wgsl_file_under_shaders() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut on_disk = Vec::new();
    for area in std::fs::read_dir(&root).unwrap() {
        let area = area.unwrap().path();
        for file in std::fs::read_dir(&area).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "wgsl") {
                let rel = path.strip_prefix(&root).unwrap().to_string_lossy();
                on_disk.push(rel.replace('\\', "/"));
            }
        }
    }
    on_disk.sort();
    let mut table: Vec<String> = FILES.iter().map(|(p, _)| p.to_string()).collect();
    table.sort();
    assert_eq!(
        table, on_disk,
        "src/gpu/shader.rs FILES must list shaders/**/*.wgsl"
    );
}

#[test]
fn the_shipped_gpu_modules_assemble() {
    let all = shader_permutations();
    assert!(!all.is_empty());
    for (label, src) in all {
        assert!(!src.contains("//!"), "{label}: unexpanded directive");
    }
}
