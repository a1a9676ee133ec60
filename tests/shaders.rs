//! Every WGSL module golab builds, in every permutation, parsed and validated by naga with
//! the capabilities golab's device asks for: no GPU needed, so a shader error fails here
//! instead of on the first device that compiles it.

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// Each area's list of (label, WGSL), as the CLI's kernel statistics see them too.
const PROVIDERS: &[(&str, golab::cli::ShaderProvider)] = golab::cli::SHADER_AREAS;

/// What wgpu turns golab's device features into (wgpu-naga-bridge's
/// `features_to_naga_capabilities`): SUBGROUP for the Lab's shuffles and the stream step
/// kernel, plus the downlevel capabilities every desktop device reports. Nothing else, so a
/// shader needing a feature golab does not request fails here.
fn capabilities() -> Capabilities {
    Capabilities::SUBGROUP | Capabilities::CUBE_ARRAY_TEXTURES | Capabilities::MULTISAMPLED_SHADING
}

/// Parse and validate `source` as wgpu would on golab's device; the error names `label` and
/// carries naga's report with the offending line.
fn validate(label: &str, source: &str) -> Result<(), String> {
    let mut options = naga::front::wgsl::Options::new();
    options.capabilities = capabilities();
    let module = naga::front::wgsl::Frontend::new_with_options(options)
        .parse(source)
        .map_err(|e| format!("{label}: parse error\n{}", e.emit_to_string(source)))?;
    Validator::new(ValidationFlags::all(), capabilities())
        .validate(&module)
        .map_err(|e| format!("{label}: invalid\n{}", e.emit_to_string(source)))?;
    Ok(())
}

#[test]
fn every_module_and_permutation_golab_builds_validates() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (area, provider) in PROVIDERS {
        let modules = provider();
        assert!(!modules.is_empty(), "{area} lists no shaders");
        for (label, source) in modules {
            count += 1;
            if let Err(e) = validate(&label, &source) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} modules failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{count} modules validated");
}

#[test]
fn labels_are_unique_so_a_failure_names_one_module() {
    let mut labels: Vec<String> = PROVIDERS
        .iter()
        .flat_map(|(_, p)| p().into_iter().map(|(label, _)| label))
        .collect();
    let total = labels.len();
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), total, "duplicate labels");
}

#[test]
fn the_validator_rejects_broken_shaders() {
    let good =
        "@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {}\n";
    validate("good", good).unwrap();
    let syntax = "@compute @workgroup_size(64)\nfn main( {\n";
    assert!(
        validate("syntax", syntax)
            .unwrap_err()
            .contains("syntax: parse error")
    );
    // Parses, but a u32 is stored into an f32 variable.
    let types = "var<private> x: f32;\n@compute @workgroup_size(1)\nfn main() { x = 1u; }\n";
    assert!(validate("types", types).is_err());
    // A subgroup operation in a module is fine; a capability golab does not request is not.
    let f64s = "var<private> x: f64;\n@compute @workgroup_size(1)\nfn main() { x = 1.0lf; }\n";
    assert!(
        validate("f64", f64s).is_err(),
        "SHADER_F64 is not a golab capability"
    );
    // An undeclared permutation constant (what a missing //!const would leave).
    let missing = "@compute @workgroup_size(WG)\nfn main() {}\n";
    assert!(
        validate("missing", missing)
            .unwrap_err()
            .contains("missing")
    );
}

#[test]
fn every_compute_kernel_translates_to_spirv_for_the_kernel_statistics() {
    // What `golab gpu-info --kernels` hands the driver: naga's SPIR-V of each compute entry
    // point, written with the options wgpu uses for golab's kernels. No GPU needed.
    let mut kernels = 0;
    for (label, source) in golab::cli::every_shader_module() {
        let compiled = golab::gpu::kernel_stats::compute_spirv(&source, (1, 5))
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        for k in &compiled.kernels {
            let entry = &k.entry;
            assert_eq!(
                k.words.first(),
                Some(&0x0723_0203),
                "{label} {entry}: SPIR-V magic"
            );
            assert!(
                k.invocations >= 1 && k.invocations <= 1024,
                "{label} {entry}"
            );
        }
        kernels += compiled.kernels.len();
    }
    assert!(kernels > 100, "only {kernels} compute kernels found");
    // The workgroup memory it counts is what each kernel refers to: gpu-radix8's counting
    // pass (its 1 KiB of bins) and its portable scatter (8 KiB of staged keys, 12 KiB of
    // counters, starts, tree and shared counts), though both share one module.
    use golab::gpu::kernel_stats::compute_spirv;
    use golab::lab::sort_radix8::{Ranking, shader};
    let radix = compute_spirv(&shader(Ranking::Portable, 8, 8).source().unwrap(), (1, 5)).unwrap();
    let bytes = |entry: &str| {
        let k = radix.kernels.iter().find(|k| k.entry == entry).unwrap();
        k.workgroup_bytes
    };
    assert_eq!(bytes("upsweep"), 1024);
    assert_eq!(bytes("downsweep"), 8 * 1024 + 12 * 1024);
    // gpu-onesweep refuses a shape by the workgroup memory the host reckons its binning
    // kernel needs: exactly what the kernel declares.
    use golab::lab::sort_onesweep::{self, Shape};
    for (ranking, shape, groups) in [
        (Ranking::Subgroup, "256x15", 8),
        (Ranking::Subgroup, "256x15s", 8),
        (Ranking::Subgroup, "512x8", 64),
        (Ranking::Portable, "256x15", 8),
        (Ranking::Portable, "512x4s", 16),
    ] {
        let shape = Shape::parse(shape).unwrap();
        let module = sort_onesweep::shader(ranking, shape, groups)
            .source()
            .unwrap();
        let compiled = compute_spirv(&module, (1, 5)).unwrap();
        let binning = compiled.kernels.iter().find(|k| k.entry == "binning");
        assert_eq!(
            binning.unwrap().workgroup_bytes,
            sort_onesweep::binning_bytes(ranking, shape, groups),
            "{ranking:?} {shape:?}"
        );
    }
}
