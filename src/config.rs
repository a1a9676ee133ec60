//! golab's tuning and measuring knobs as one typed value, read once at start-up.
//!
//! [`Tuning::from_env`] is the only place golab reads its `GOLAB_*` environment variables; the
//! CLI and the app call it once, lay their command-line flags over it, and pass the parts
//! explicitly to whatever uses them (the GPU device, the steppers, the Lab). docs/configuration.md
//! has the table.
//!
//! | variable | field | effect |
//! |---|---|---|
//! | `GOLAB_ADAPTER` | [`crate::gpu::GpuOptions::adapter`] | GPU adapter by part of its name |
//! | `GOLAB_SHADER_CHECKS=1` | [`crate::gpu::GpuOptions::shader_checks`] | keep wgpu's loop/division checks in kernels |
//! | `GOLAB_PIPELINE_CACHE` | [`crate::gpu::GpuOptions::pipeline_cache`] | directory of the compiled-pipeline cache, or `off` |
//! | `GOLAB_BITPACKED_KERNEL` | [`BitpackedTuning::kernel`] | `tile` or `stream` |
//! | `GOLAB_BITPACKED_GENS` | [`BitpackedTuning::gens`] | generations per dispatch |
//! | `GOLAB_BITPACKED_STRIP` | [`BitpackedTuning::strip`] | stream kernel rows per strip |
//! | `GOLAB_BITPACKED_PREFETCH` | [`BitpackedTuning::prefetch`] | stream kernel rows loaded ahead |
//! | `GOLAB_BITPACKED_GROUP` | [`BitpackedTuning::group`] | stream kernel invocations per workgroup |
//! | `GOLAB_BITPACKED_BIRTHS` | [`BitpackedTuning::births`] | stream kernel: how births are written (`direct`, `records` or `auto`) |
//! | `GOLAB_BITPACKED_REPLAY` | [`BitpackedTuning::replay`] | stream kernel: replay strips whose neighbourhood repeats (`on`, the default, or `off`) |
//! | `GOLAB_LAB_ZERO_WORKGROUP=1` | [`LabTuning::zero_workgroup_memory`] | let wgpu zero Lab workgroup memory |
//! | `GOLAB_SORT_BLOCK` | [`LabTuning::sort_block`] | pairs per workgroup of the bitonic C kernels |
//! | `GOLAB_SORT_HIGH_STEPS` | [`LabTuning::sort_high_steps`] | steps at distances ≥ 2048 per pass of the bitonic RW network |
//! | `GOLAB_RADIX_KPT` | [`LabTuning::radix_keys_per_thread`] | pairs per thread of the 8-bit radix sort |
//! | `GOLAB_RADIX_RUN` | [`LabTuning::radix_tiles_per_run`] | tiles per counting workgroup of the 8-bit radix sort |
//! | `GOLAB_SCAN_ROWS` | [`LabTuning::scan_rows`] | rows (one `vec4` a thread) per tile of the single-pass scan |
//! | `GOLAB_SCAN_THREADS` | [`LabTuning::scan_threads`] | threads per workgroup of the single-pass scan |
//! | `GOLAB_SCAN_SPIN` | [`LabTuning::scan_spin`] | look-back rounds without news before the single-pass scan's fallback |
//! | `GOLAB_CPU_SIMD` | [`Tuning::cpu_simd`] | cpu-bitsliced's row kernel: `portable`, `avx512` or `auto` |
//! | `GOLAB_FAULT` | [`Tuning::fault`] | inject a lost GPU device (`device-lost@gen:N`, …) |
//! | `GOLAB_PROBE` | [`Tuning::probe`] | `off`: no start-up probe (start on the adapter kind's default) |

use serde::{Deserialize, Serialize};

use crate::gpu::GpuOptions;

/// The step kernel gpu-bitpacked is asked to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum KernelChoice {
    /// `stream` where the device has usable subgroups, else `tile`.
    #[default]
    Auto,
    /// The workgroup-memory kernel.
    Tile,
    /// The subgroup-streaming kernel (refused without subgroups).
    Stream,
}

/// How gpu-bitpacked's stream kernel writes the births of a block (both exact; which is
/// faster depends on how many cells are born: src/step/gpu_bitpacked/births.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum BirthChoice {
    /// Chosen while stepping, by timing both.
    #[default]
    Auto,
    /// A scattered store of each newborn cell's birth code.
    Direct,
    /// Each word's births blended into its 32-byte epoch record, folded into the birth codes
    /// at the end of a batch.
    Records,
}

/// Whether gpu-bitpacked's stream kernel replays strips whose neighbourhood repeated over the
/// last block instead of stepping them (src/step/gpu_bitpacked/replay.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ReplayChoice {
    /// Replay where the world repeats, in blocks of
    /// [`crate::step::gpu_bitpacked::replay::PERIOD`] generations (oscillators whose period
    /// divides it repeat within one).
    #[default]
    On,
    /// Step every strip: measurements of the kernel itself.
    Off,
}

/// How gpu-bitpacked steps where its defaults are not wanted (tests, measurements); `None`
/// keeps the default for the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct BitpackedTuning {
    /// Step kernel.
    pub kernel: KernelChoice,
    /// Generations per dispatch.
    pub gens: Option<u32>,
    /// Stream kernel: rows per strip.
    pub strip: Option<u32>,
    /// Stream kernel: rows loaded ahead.
    pub prefetch: Option<u32>,
    /// Stream kernel: invocations per workgroup (a power of two).
    pub group: Option<u32>,
    /// Benchmarks only: step without keeping birth codes, to measure what exact ages cost
    /// (`golab bench --no-ages`). Ages read back from such a world are wrong.
    #[serde(default)]
    pub skip_ages: bool,
    /// Stream kernel: how births are written.
    #[serde(default)]
    pub births: BirthChoice,
    /// Stream kernel: whether strips whose neighbourhood repeats are replayed.
    #[serde(default)]
    pub replay: ReplayChoice,
}

/// The Lab's measuring switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LabTuning {
    /// Let wgpu zero-fill workgroup memory before every Lab kernel (its default; golab's Lab
    /// kernels write what they read, so it is off unless asked for, to measure its cost).
    pub zero_workgroup_memory: bool,
    /// Pairs per workgroup of the bitonic sort's workgroup-memory (C) kernels.
    pub sort_block: Option<u32>,
    /// Steps at compare distances ≥ 2048 per pass of the bitonic RW network (3..=8; 7 when
    /// unset): a pass with h such steps takes its pairs in runs of 2^(11 − h).
    #[serde(default)]
    pub sort_high_steps: Option<u32>,
    /// Pairs per thread of the 8-bit radix sort (16, 8, 4, 2 or 1; 8 when unset; fewer when
    /// the device's workgroup memory is too small).
    pub radix_keys_per_thread: Option<u32>,
    /// Tiles each workgroup of the 8-bit radix sort runs through (its digit counts are per
    /// run); `None`: as many as keep 2048 workgroups a pass, at most 8.
    #[serde(default)]
    pub radix_tiles_per_run: Option<u32>,
    /// Rows a tile of the single-pass scan holds, one `vec4` a thread each (4, 8, 12 or 16; 8
    /// when unset).
    #[serde(default)]
    pub scan_rows: Option<u32>,
    /// Threads a workgroup of the single-pass scan (256, 512 or 1024; 256 when unset; at most
    /// the device's limit): each holds one `vec4` of each of the tile's rows.
    #[serde(default)]
    pub scan_threads: Option<u32>,
    /// Look-back rounds without news from the nearest predecessor before the single-pass
    /// scan reduces that predecessor's tile itself (64 when unset).
    #[serde(default)]
    pub scan_spin: Option<u32>,
}

/// How an injected loss treats the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultKind {
    /// `device-lost`: the device reports itself lost but still works.
    Reported,
    /// `device-destroy`: the device is destroyed (`wgpu::Device::destroy`).
    Destroyed,
    /// `device-unplug`: destroyed, and no adapter can be opened afterwards in this process.
    Unplugged,
}

/// An injected GPU fault: at the first step that would pass `device_lost_at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultPlan {
    /// The device is lost when a step would go past this generation.
    pub device_lost_at: u64,
    /// What happens to the device.
    pub kind: FaultKind,
}

impl FaultPlan {
    /// Parse `device-lost@gen:N`, `device-destroy@gen:N` or `device-unplug@gen:N`.
    pub fn parse(text: &str) -> Result<FaultPlan, String> {
        let bad = || {
            format!(
                "{FAULT_ENV}='{text}' is not understood; use device-lost@gen:N, \
                 device-destroy@gen:N or device-unplug@gen:N"
            )
        };
        let (name, generation) = text.trim().split_once("@gen:").ok_or_else(bad)?;
        let kind = match name {
            "device-lost" => FaultKind::Reported,
            "device-destroy" => FaultKind::Destroyed,
            "device-unplug" => FaultKind::Unplugged,
            _ => return Err(bad()),
        };
        let device_lost_at = generation.trim().parse().map_err(|_| bad())?;
        Ok(FaultPlan {
            device_lost_at,
            kind,
        })
    }
}

/// The variable naming an injected fault.
pub const FAULT_ENV: &str = "GOLAB_FAULT";

/// Every knob, parsed once.
#[derive(Debug, Clone, Default)]
pub struct Tuning {
    /// Adapter and kernel compilation.
    pub gpu: GpuOptions,
    /// gpu-bitpacked's kernel and shape.
    pub bitpacked: BitpackedTuning,
    /// The Lab's switches.
    pub lab: LabTuning,
    /// cpu-bitsliced's compiled row kernel (`None`: the widest the CPU runs).
    pub cpu_simd: Option<crate::step::cpu_bitsliced::Simd>,
    /// Fault injection for rehearsing a lost device.
    pub fault: Option<FaultPlan>,
    /// Whether a new user's first launch on an adapter runs the start-up probe
    /// ([`crate::step::probe`]); `GOLAB_PROBE=off` starts on the adapter kind's default.
    pub probe: bool,
}

/// Where the compiled-pipeline cache lives: `GOLAB_PIPELINE_CACHE` (a directory, or `off`),
/// else `$XDG_CACHE_HOME/golab`, else `$HOME/.cache/golab` (none without either). `get`
/// gives trimmed, non-empty values ([`Tuning::from_vars`]).
fn pipeline_cache_dir(get: &impl Fn(&str) -> Option<String>) -> Option<std::path::PathBuf> {
    match get("GOLAB_PIPELINE_CACHE") {
        Some(v) if v.eq_ignore_ascii_case("off") => None,
        Some(v) => Some(v.into()),
        None => get("XDG_CACHE_HOME")
            .map(|d| std::path::PathBuf::from(d).join("golab"))
            .or_else(|| get("HOME").map(|h| std::path::PathBuf::from(h).join(".cache/golab"))),
    }
}

impl Tuning {
    /// Read every `GOLAB_*` variable of the process environment (see the module table).
    pub fn from_env() -> Result<Tuning, String> {
        Tuning::from_vars(|name| std::env::var(name).ok())
    }

    /// Read the knobs through `var` (the environment, or a map in tests). A value that does
    /// not parse is an error naming the variable, never silently ignored.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Tuning, String> {
        let get = |name: &str| {
            var(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let number = |name: &str| -> Result<Option<u32>, String> {
            get(name)
                .map(|v| {
                    v.parse::<u32>()
                        .map_err(|_| format!("{name}='{v}' is not a whole number"))
                })
                .transpose()
        };
        let flag = |name: &str| -> Result<bool, String> {
            match get(name).as_deref() {
                None | Some("0") => Ok(false),
                Some("1") => Ok(true),
                Some(v) => Err(format!("{name}='{v}': use 1 (on) or 0 (off)")),
            }
        };
        let kernel = one_of(
            (&get, "GOLAB_BITPACKED_KERNEL"),
            KernelChoice::Auto,
            &[
                ("tile", KernelChoice::Tile),
                ("stream", KernelChoice::Stream),
            ],
        )?;
        let births = one_of(
            (&get, "GOLAB_BITPACKED_BIRTHS"),
            BirthChoice::Auto,
            &[
                ("direct", BirthChoice::Direct),
                ("records", BirthChoice::Records),
            ],
        )?;
        let replay = one_of(
            (&get, "GOLAB_BITPACKED_REPLAY"),
            ReplayChoice::On,
            &[("on", ReplayChoice::On), ("off", ReplayChoice::Off)],
        )?;
        use crate::step::cpu_bitsliced::Simd;
        let cpu_simd = one_of(
            (&get, "GOLAB_CPU_SIMD"),
            None,
            &[
                ("portable", Some(Simd::Portable)),
                ("avx512", Some(Simd::Avx512)),
            ],
        )?;
        Ok(Tuning {
            gpu: GpuOptions {
                adapter: get("GOLAB_ADAPTER"),
                shader_checks: flag("GOLAB_SHADER_CHECKS")?,
                pipeline_cache: pipeline_cache_dir(&get),
            },
            bitpacked: BitpackedTuning {
                kernel,
                gens: number("GOLAB_BITPACKED_GENS")?,
                strip: number("GOLAB_BITPACKED_STRIP")?,
                prefetch: number("GOLAB_BITPACKED_PREFETCH")?,
                group: number("GOLAB_BITPACKED_GROUP")?,
                skip_ages: false,
                births,
                replay,
            },
            lab: LabTuning {
                zero_workgroup_memory: flag("GOLAB_LAB_ZERO_WORKGROUP")?,
                sort_block: number("GOLAB_SORT_BLOCK")?,
                sort_high_steps: number("GOLAB_SORT_HIGH_STEPS")?,
                radix_keys_per_thread: number("GOLAB_RADIX_KPT")?,
                radix_tiles_per_run: number("GOLAB_RADIX_RUN")?,
                scan_rows: number("GOLAB_SCAN_ROWS")?,
                scan_spin: number("GOLAB_SCAN_SPIN")?,
                scan_threads: number("GOLAB_SCAN_THREADS")?,
            },
            cpu_simd,
            fault: get(FAULT_ENV).map(|v| FaultPlan::parse(&v)).transpose()?,
            probe: one_of((&get, "GOLAB_PROBE"), true, &[("on", true), ("off", false)])?,
        })
    }
}

/// The option of `options` that the variable `name` (read by `get`) names, or `auto` (also
/// when unset).
fn one_of<T: Copy>(
    (get, name): (&impl Fn(&str) -> Option<String>, &str),
    auto: T,
    options: &[(&str, T)],
) -> Result<T, String> {
    let Some(v) = get(name).filter(|v| v != "auto") else {
        return Ok(auto);
    };
    match options.iter().find(|(n, _)| *n == v) {
        Some(&(_, chosen)) => Ok(chosen),
        None => {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            Err(format!("{name}='{v}': use {} or auto", names.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn tuning(vars: &[(&str, &str)]) -> Result<Tuning, String> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Tuning::from_vars(|name| map.get(name).cloned())
    }

    #[test]
    fn every_variable_lands_in_its_field() {
        let t = tuning(&[
            ("GOLAB_ADAPTER", "nvidia"),
            ("GOLAB_SHADER_CHECKS", "1"),
            ("GOLAB_BITPACKED_KERNEL", "tile"),
            ("GOLAB_BITPACKED_GENS", "12"),
            ("GOLAB_BITPACKED_STRIP", "40"),
            ("GOLAB_BITPACKED_PREFETCH", "1"),
            ("GOLAB_BITPACKED_GROUP", "64"),
            ("GOLAB_BITPACKED_BIRTHS", "records"),
            ("GOLAB_BITPACKED_REPLAY", "off"),
            ("GOLAB_LAB_ZERO_WORKGROUP", "1"),
            ("GOLAB_SORT_BLOCK", "4096"),
            ("GOLAB_SORT_HIGH_STEPS", "6"),
            ("GOLAB_RADIX_KPT", "8"),
            ("GOLAB_RADIX_RUN", "3"),
            ("GOLAB_SCAN_ROWS", "16"),
            ("GOLAB_SCAN_SPIN", "256"),
            ("GOLAB_SCAN_THREADS", "512"),
            ("GOLAB_CPU_SIMD", "portable"),
            ("GOLAB_FAULT", "device-destroy@gen:7"),
        ])
        .unwrap();
        assert_eq!(t.gpu.adapter.as_deref(), Some("nvidia"));
        assert!(t.gpu.shader_checks);
        assert_eq!(
            t.bitpacked,
            BitpackedTuning {
                kernel: KernelChoice::Tile,
                gens: Some(12),
                strip: Some(40),
                prefetch: Some(1),
                group: Some(64),
                skip_ages: false,
                births: BirthChoice::Records,
                replay: ReplayChoice::Off,
            }
        );
        assert_eq!(
            t.lab,
            LabTuning {
                zero_workgroup_memory: true,
                sort_block: Some(4096),
                sort_high_steps: Some(6),
                radix_keys_per_thread: Some(8),
                radix_tiles_per_run: Some(3),
                scan_rows: Some(16),
                scan_spin: Some(256),
                scan_threads: Some(512),
            }
        );
        assert_eq!(
            t.fault,
            Some(FaultPlan {
                device_lost_at: 7,
                kind: FaultKind::Destroyed
            })
        );
        assert_eq!(t.cpu_simd, Some(crate::step::cpu_bitsliced::Simd::Portable));
        let empty = tuning(&[]).unwrap();
        assert_eq!(empty.bitpacked, BitpackedTuning::default());
        assert!(empty.fault.is_none() && !empty.gpu.shader_checks);
        assert_eq!(empty.cpu_simd, None);
    }

    #[test]
    fn bad_values_name_the_variable() {
        for (name, value) in [
            ("GOLAB_BITPACKED_GENS", "eight"),
            ("GOLAB_BITPACKED_KERNEL", "warp"),
            ("GOLAB_BITPACKED_BIRTHS", "later"),
            ("GOLAB_BITPACKED_REPLAY", "sometimes"),
            ("GOLAB_SHADER_CHECKS", "yes"),
            ("GOLAB_CPU_SIMD", "neon"),
            ("GOLAB_FAULT", "gpu-on-fire"),
        ] {
            let err = tuning(&[(name, value)]).unwrap_err();
            assert!(err.contains(name) && err.contains(value), "{err}");
        }
        assert_eq!(
            tuning(&[("GOLAB_BITPACKED_BIRTHS", "later")]).unwrap_err(),
            "GOLAB_BITPACKED_BIRTHS='later': use direct, records or auto"
        );
    }

    #[test]
    fn fault_plans_parse_and_bad_ones_say_how() {
        assert_eq!(
            FaultPlan::parse(" device-lost@gen:40 "),
            Ok(FaultPlan {
                device_lost_at: 40,
                kind: FaultKind::Reported
            })
        );
        assert_eq!(
            FaultPlan::parse("device-unplug@gen:0").map(|p| p.kind),
            Ok(FaultKind::Unplugged)
        );
        assert!(FaultPlan::parse("device-melt@gen:3").is_err());
        assert!(
            FaultPlan::parse("gpu-on-fire")
                .unwrap_err()
                .contains("device-lost@gen:N")
        );
        assert!(FaultPlan::parse("device-lost@gen:x").is_err());
    }
}
